// The structural symmetry test against play on random programs: a board map that the
// rules' image keeps must commute with play on every sampled state. The image evaluates,
// unrolls and compares what the rules compute, so this is where a shortcut of it (a
// generic operation that is not, a set compared as a list) would show. The candidates
// beyond the square (graph automorphisms, relabellings) go through the same test; a map both
// tests keep must map whole layers of play onto themselves, paths counted.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/symmetry.h"
#include "explorer/symmetry_graph.h"
#include "tests/random/program_gen.h"

using namespace rulebook;

namespace {

/// Play layer by layer (at most `depth` moves, at most 3,000 states a layer), each state
/// with the number of paths reaching it, from the start and from its image: a symmetry of
/// play maps each layer of the first walk onto the layer of the second, each state onto one
/// reached by as many paths (the image of the start is the start unless the map moves it,
/// as a swap of the players moves whose turn it is). "" or the first difference. A run-time
/// error of the rules stops the walk (nothing to compare).
std::string layers_map(const ir::Program& p, const engine::Engine& e, const uint8_t* root,
                       const explorer::Transform& t, int depth) {
  const size_t bytes = p.state_bytes;
  using Layer = std::map<std::string, uint64_t>;
  auto key = [bytes](const uint8_t* s) { return std::string(reinterpret_cast<const char*>(s), bytes); };
  std::vector<uint8_t> image(bytes), next(bytes);
  explorer::transform_state(p, t, root, image.data());
  Layer a{{key(root), 1}}, b{{key(image.data()), 1}};
  std::vector<engine::Move> moves;
  auto step = [&](const Layer& layer, Layer& out) {
    out.clear();
    for (const auto& [state, paths] : layer) {
      const uint8_t* s = reinterpret_cast<const uint8_t*>(state.data());
      if (e.terminal(s)) continue;
      moves.clear();
      if (!e.legal_moves(s, moves).ok) return false;
      for (const engine::Move& m : moves) {
        std::memcpy(next.data(), s, bytes);
        if (!e.apply(next.data(), m).ok) return false;
        out[key(next.data())] += paths;
      }
    }
    return true;
  };
  for (int d = 0; d <= depth && !a.empty() && a.size() <= 3000; ++d) {
    if (a.size() != b.size()) return "depth " + std::to_string(d) + ": the layers differ in size";
    for (const auto& [state, paths] : a) {
      explorer::transform_state(p, t, reinterpret_cast<const uint8_t*>(state.data()), image.data());
      auto it = b.find(key(image.data()));
      if (it == b.end()) return "depth " + std::to_string(d) + ": a state's image is not reached";
      if (it->second != paths)
        return "depth " + std::to_string(d) + ": a state reached by " + std::to_string(paths) +
               " paths, its image by " + std::to_string(it->second);
    }
    Layer na, nb;
    if (!step(a, na) || !step(b, nb)) return "";
    a = std::move(na);
    b = std::move(nb);
  }
  return "";
}

}  // namespace

TEST_CASE("random programs: every map the rules' image keeps commutes with play", "[random][symmetry]") {
  int programs = 0, kept = 0, rejected = 0, walked = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const testing::GeneratedProgram gp = testing::generate_program(seed);
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("random.rules", gp.text, sources, diags);
    INFO("seed " << seed << "\n" << gp.text);
    REQUIRE(p);
    compiler::Interpreter engine(*p, sources);
    std::vector<uint8_t> root(p->state_bytes);
    if (!engine.setup(root.data(), engine::Setup{}).ok) continue;  // a program that fails at setup
    ++programs;
    std::vector<explorer::Transform> maps = explorer::board_transforms(*p);
    for (explorer::Transform& t : explorer::graph_candidates(*p, sources, root.data())) maps.push_back(std::move(t));
    for (explorer::Transform& t : explorer::label_candidates(*p, root.data())) maps.push_back(std::move(t));
    if (maps.size() > 64) maps.resize(64);
    const explorer::RuleImage image(*p, sources, maps);
    REQUIRE(image.complete());
    CHECK(image.check(0).empty());  // the identity
    std::vector<std::vector<uint8_t>> samples;
    for (size_t k = 1; k < maps.size(); ++k) {
      if (!image.check(k).empty()) {
        ++rejected;
        continue;
      }
      ++kept;
      if (samples.empty()) samples = explorer::sample_states(engine, root.data(), 24, 1000, seed);
      const std::string play = explorer::check_behaviour(*p, engine, maps[k], samples);
      INFO(maps[k].name);
      // A run-time error of the rules on a state and not on its image is play too, but the
      // generator leaves values unguarded on purpose; only a difference of play counts.
      INFO(play);
      if (play.find("the engine failed") != std::string::npos) continue;
      CHECK(play.empty());
      // And over whole layers of play: every state's image reached, by as many paths.
      if (play.empty()) {
        ++walked;
        CHECK(layers_map(*p, engine, root.data(), maps[k], 4) == "");
      }
    }
  }
  CHECK(programs > 45);
  CHECK(kept > 100);
  CHECK(rejected > 10);
  CHECK(walked > 100);
}
