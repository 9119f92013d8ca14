// The structural symmetry test against play on random programs: a board map that the
// rules' image keeps must commute with play on every sampled state. The image evaluates,
// unrolls and compares what the rules compute, so this is where a shortcut of it (a
// generic operation that is not, a set compared as a list) would show. The candidates
// beyond the square (graph automorphisms, relabellings) go through the same test.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/symmetry.h"
#include "explorer/symmetry_graph.h"
#include "tests/random/program_gen.h"

using namespace rulebook;

TEST_CASE("random programs: every map the rules' image keeps commutes with play", "[random][symmetry]") {
  int programs = 0, kept = 0, rejected = 0;
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
      if (play.find("the engine failed") == std::string::npos) CHECK(play.empty());
    }
  }
  CHECK(programs > 45);
  CHECK(kept > 100);
  CHECK(rejected > 10);
}
