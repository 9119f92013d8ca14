// The explorer's enumeration and symmetries against independent computations: the
// hand-written Garnsi 6x6 state counter of bench/hand, perft, a brute-force count of 4x4
// Sudoku grids and their classes under the square's symmetries, and the packing round trip.
#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <chrono>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "explorer/enumerate.h"
#include "explorer/pack.h"
#include "explorer/perft.h"
#include "explorer/symmetry.h"
#include "garnsi6_states.h"

using namespace rulebook;

namespace {

struct Game {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> compiled;
  std::unique_ptr<engine::Engine> interp;
  std::vector<uint8_t> root;
};

std::unique_ptr<Game> load(const std::string& file,
                           const std::vector<std::pair<std::string, std::string>>& setup = {}) {
  auto g = std::make_unique<Game>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program(RULEBOOK_SOURCE_DIR "/variants/" + file, g->sources, diags);
  INFO(diags.render(g->sources));
  REQUIRE(p);
  g->program = std::make_shared<const ir::Program>(std::move(*p));
  compiler::LoadedEngine e = compiler::load_engine(g->program, g->sources);
  INFO(e.status.message);
  REQUIRE(e.engine);
  g->compiled = std::move(e.engine);
  g->interp = std::make_unique<compiler::Interpreter>(*g->program, g->sources);
  g->root.resize(g->program->state_bytes);
  engine::Setup s;
  s.values = setup;
  REQUIRE(g->compiled->setup(g->root.data(), s).ok);
  return g;
}

Game& garnsi6() {
  static std::unique_ptr<Game> g = load("garnsi-malom/garnsi-6x6.rules", {{"blocked", "r0c0,r5c5"}});
  return *g;
}

std::vector<std::string> names(const std::vector<explorer::Transform>& ts) {
  std::vector<std::string> out;
  for (const auto& t : ts) out.push_back(t.name);
  return out;
}

/// Complete n x n Sudoku grids (boxes br x bc) by backtracking, row-major cell lists.
void grids(int n, int br, int bc, std::vector<int>& g, int i, std::vector<std::vector<int>>& out) {
  if (i == n * n) {
    out.push_back(g);
    return;
  }
  const int r = i / n, c = i % n;
  for (int v = 1; v <= n; ++v) {
    bool ok = true;
    for (int k = 0; k < n && ok; ++k) ok = g[size_t(r * n + k)] != v && g[size_t(k * n + c)] != v;
    for (int a = r / br * br; a < r / br * br + br && ok; ++a)
      for (int b = c / bc * bc; b < c / bc * bc + bc && ok; ++b) ok = g[size_t(a * n + b)] != v;
    if (!ok) continue;
    g[size_t(i)] = v;
    grids(n, br, bc, g, i + 1, out);
    g[size_t(i)] = 0;
  }
}

}  // namespace

TEST_CASE("packing a state and unpacking it gives the state back", "[explore][pack]") {
  for (const char* file : {"garnsi-malom/garnsi-6x6.rules", "sudoku-fill/fill-4x4.rules",
                           "smyoz/smyoz.rules", "sudoku-moyo/moyo.rules"}) {
    auto g = load(file);
    explorer::Packer packer(*g->program, g->root.data());
    INFO(file);
    CHECK(packer.key_bytes() < g->program->state_bytes);
    auto samples = explorer::sample_states(*g->compiled, g->root.data(), 6, 300, 7);
    std::vector<uint8_t> key(packer.key_bytes()), back(g->program->state_bytes);
    std::vector<uint32_t> scratch(packer.elements().size());
    std::set<std::string> keys, states;  // strings: byte strings with a plain order
    for (const auto& s : samples) {
      packer.pack(s.data(), key.data(), scratch.data());
      packer.unpack(key.data(), back.data(), scratch.data());
      CHECK(back == s);
      keys.insert(std::string(key.begin(), key.end()));
      states.insert(std::string(s.begin(), s.end()));
    }
    CHECK(keys.size() == states.size());  // distinct states, distinct keys
  }
}

TEST_CASE("Garnsi 6x6: states per depth equal the hand-written counter's", "[explore][garnsi]") {
  Game& g = garnsi6();
  explorer::SymmetryGroup group =
      explorer::find_symmetries(*g.program, g.sources, *g.compiled, g.root.data());
  // The hand-written counter finds its group from its own tables of houses.
  hand::garnsi6::Placement hand_game({0, 35});
  hand::garnsi6::StateCounter counter(hand_game, size_t{1} << 28, hand_game.initial());
  std::vector<std::string> hand_names;
  for (const auto& s : counter.symmetries()) hand_names.push_back(s.name);
  CHECK(names(group.elements) == hand_names);
  CHECK(names(group.elements) == std::vector<std::string>{"identity", "rotate 180"});

  explorer::ExploreOptions opt;
  opt.max_depth = 4;
  opt.threads = 2;
  explorer::ExploreResult r = explorer::explore(*g.program, *g.compiled, g.root.data(), group.elements, opt);
  REQUIRE(r.status.ok);
  CHECK(r.stopped == "depth");
  REQUIRE(r.depths.size() == 5);
  explorer::PerftResult perft = explorer::perft(*g.compiled, g.root.data(), 4);
  for (int d = 1; d <= 4; ++d) {
    const hand::garnsi6::LevelCount hc = counter.advance(true);
    const explorer::DepthCount& ec = r.depths[size_t(d)];
    INFO("depth " << d);
    CHECK(ec.distinct == hc.distinct);
    CHECK(ec.symmetric == hc.symmetric);
    CHECK(ec.class_sum == ec.distinct);
    CHECK(ec.paths == perft.paths[size_t(d - 1)]);
    CHECK(ec.per_phase[0] == ec.distinct);
  }
  CHECK(r.depths[4].distinct == 1113024);
  CHECK(r.depths[4].symmetric == 556512);
  // 146 bits, the blocked cells left out as constant (144 with the four-move end)
  CHECK(r.key_bytes == 19);
}

TEST_CASE("the counts do not depend on threads, engine or partitions", "[explore]") {
  Game& g = garnsi6();
  explorer::SymmetryGroup group =
      explorer::find_symmetries(*g.program, g.sources, *g.compiled, g.root.data());
  explorer::ExploreOptions a;
  a.max_depth = 3;
  a.threads = 1;
  a.partitions = 1;
  explorer::ExploreOptions b = a;
  b.threads = 2;
  b.partitions = 64;
  auto ra = explorer::explore(*g.program, *g.compiled, g.root.data(), group.elements, a);
  auto rb = explorer::explore(*g.program, *g.interp, g.root.data(), group.elements, b);
  REQUIRE(ra.depths.size() == rb.depths.size());
  for (size_t d = 0; d < ra.depths.size(); ++d) {
    CHECK(ra.depths[d].paths == rb.depths[d].paths);
    CHECK(ra.depths[d].distinct == rb.depths[d].distinct);
    CHECK(ra.depths[d].symmetric == rb.depths[d].symmetric);
  }
}

TEST_CASE("a memory budget or an interrupt stops cleanly with the complete depths", "[explore]") {
  Game& g = garnsi6();
  explorer::ExploreOptions opt;
  opt.max_memory = 8u << 20;  // depth 4 needs far more
  auto r = explorer::explore(*g.program, *g.compiled, g.root.data(), {}, opt);
  CHECK(r.stopped == "memory");
  REQUIRE(r.depths.size() >= 3);
  CHECK(r.depths[2].distinct == 1122);

  std::atomic<bool> stop{true};
  opt.max_memory = 0;
  opt.interrupt = &stop;
  r = explorer::explore(*g.program, *g.compiled, g.root.data(), {}, opt);
  CHECK(r.stopped == "interrupted");
  CHECK(r.depths.size() == 1);

  opt.interrupt = nullptr;
  opt.max_states = 1000;
  r = explorer::explore(*g.program, *g.compiled, g.root.data(), {}, opt);
  CHECK(r.stopped == "states");
  CHECK(r.depths.size() == 2);
}

TEST_CASE("a transformation that is no symmetry is found out", "[explore][symmetry]") {
  Game& g = garnsi6();
  // Exchanging two cells keeps no house: the structural test says so...
  explorer::Transform t = explorer::board_transforms(*g.program)[0];
  t.name = "swap r2c2 and r2c3";
  auto& cells = t.index_map[ir::kCellDomain];
  for (uint32_t c = 0; c < 36; ++c) cells.push_back(c);
  std::swap(cells[14], cells[15]);
  CHECK(!explorer::check_structure(*g.program, g.sources, t).empty());
  // ... and so does play, on states where the exchange matters.
  auto samples = explorer::sample_states(*g.compiled, g.root.data(), 4, 100, 3);
  CHECK(!explorer::check_behaviour(*g.program, *g.compiled, t, samples).empty());
  // The mirror images keep the rules but move the blocked cells of this setup.
  auto group = explorer::find_symmetries(*g.program, g.sources, *g.compiled, g.root.data());
  for (const auto& c : group.checks)
    if (c.transform.name == "mirror rows") CHECK(c.reason.find("initial state") != std::string::npos);
}

TEST_CASE("4x4 fill: 288 complete grids, 39 up to the square's symmetries", "[explore][fill]") {
  auto g = load("sudoku-fill/fill-4x4.rules");
  auto group = explorer::find_symmetries(*g->program, g->sources, *g->compiled, g->root.data());
  // Cells are filled in row-major order: the rules read coordinates, so play keeps no map
  // of the board (only relabellings of the digits, left out here: see test_fill_symmetry).
  for (const auto& t : group.elements) CHECK(t.index_map[ir::kCellDomain].empty());
  explorer::ExploreOptions opt;
  opt.threads = 2;
  for (const auto& t : explorer::board_transforms(*g->program))
    if (!t.is_identity()) opt.end_candidates.push_back(t);
  auto r = explorer::explore(*g->program, *g->compiled, g->root.data(), {group.elements.front()}, opt);
  CHECK(r.stopped.empty());
  REQUIRE(r.depths.size() == 17);
  CHECK(r.depths[16].terminal == 288);
  CHECK(r.depths[16].distinct == 288);
  CHECK(r.depths[16].end_symmetries.size() == 7);
  explorer::PerftResult perft = explorer::perft(*g->compiled, g->root.data(), 16);
  for (int d = 1; d <= 16; ++d) CHECK(r.depths[size_t(d)].paths == perft.paths[size_t(d - 1)]);

  // Independently: every grid by backtracking, and its class as the least of its 8 images.
  std::vector<std::vector<int>> all;
  std::vector<int> grid(16, 0);
  grids(4, 2, 2, grid, 0, all);
  REQUIRE(all.size() == 288);
  std::set<std::vector<int>> classes;
  for (const auto& x : all) {
    std::vector<int> best = x;
    for (const auto& t : explorer::board_transforms(*g->program)) {
      std::vector<int> img(16);
      for (uint32_t c = 0; c < 16; ++c)
        img[t.is_identity() ? c : t.index_map[ir::kCellDomain][c]] = x[c];
      if (std::lexicographical_compare(img.begin(), img.end(), best.begin(), best.end())) best = img;
    }
    classes.insert(best);
  }
  CHECK(r.depths[16].terminal_end_classes == classes.size());
  CHECK(classes.size() == 39);
  // Dead ends (a cell where no number fits) are terminal too, but not closed under any
  // transformation: the cells are filled in row-major order.
  CHECK(r.depths[10].terminal == 48);
  CHECK(r.depths[10].end_symmetries.empty());
}

TEST_CASE("the survey's JSON is the same bytes for any thread count", "[explore][survey]") {
  Game& g = garnsi6();
  explorer::SurveyOptions o;
  o.max_depth = 4;
  o.max_states = 200000;  // depth 3 fits, depth 4 (1,113,024 states) does not
  o.threads = 1;
  const explorer::Survey one = explorer::survey(*g.program, g.sources, *g.compiled, g.root.data(), o);
  o.threads = 2;
  const explorer::Survey two = explorer::survey(*g.program, g.sources, *g.interp, g.root.data(), o);
  CHECK(one.result.stopped == "states");
  REQUIRE(one.result.depths.size() == 4);
  CHECK(one.result.depths[3].symmetric == 17952);
  CHECK(explorer::survey_json(*g.program, one) == explorer::survey_json(*g.program, two));
  CHECK(explorer::survey_json(*g.program, one).find("\"up_to_symmetry\": 17952") != std::string::npos);
}

namespace {

/// Paths per depth by the plainest walk: legal_moves, then apply on a copy, per move.
void plain_perft(const engine::Engine& e, const std::vector<uint8_t>& s, int ply, int depth,
                 std::vector<uint64_t>& paths) {
  if (ply == depth) return;
  std::vector<engine::Move> moves;
  if (!e.legal_moves(s.data(), moves).ok) FAIL("legal_moves failed");
  paths[size_t(ply)] += moves.size();
  for (const engine::Move& m : moves) {
    std::vector<uint8_t> child = s;
    if (!e.apply(child.data(), m).ok) FAIL("apply failed");
    plain_perft(e, child, ply + 1, depth, paths);
  }
}

}  // namespace

TEST_CASE("perft: the same counts on any number of threads as a plain walk", "[explore][perft]") {
  for (const auto& [file, depth] : std::vector<std::pair<std::string, int>>{
           {"garnsi-malom/garnsi-6x6.rules", 4}, {"smyoz/smyoz-8x8.rules", 3}}) {
    INFO(file);
    std::unique_ptr<Game> g = file.find("garnsi") != std::string::npos
                                  ? load(file, {{"blocked", "r0c0,r5c5"}})
                                  : load(file);
    std::vector<uint64_t> plain(size_t(depth), 0);
    plain_perft(*g->compiled, g->root, 0, depth, plain);
    for (int threads : {1, 2, 3}) {
      explorer::PerftOptions o;
      o.threads = threads;
      const explorer::PerftResult r = explorer::perft(*g->compiled, g->root.data(), depth, o);
      INFO("threads " << threads);
      REQUIRE(r.status.ok);
      CHECK(r.complete);
      CHECK(r.subtrees_done == r.subtrees);
      CHECK(r.paths == plain);
    }
    // The interpreter, split the same way, agrees too.
    const explorer::PerftResult slow = explorer::perft(*g->interp, g->root.data(), depth - 1, {});
    CHECK(slow.paths == std::vector<uint64_t>(plain.begin(), plain.end() - 1));
  }
}

TEST_CASE("perft: an interruption keeps the split depths and the finished subtrees only", "[explore][perft]") {
  std::unique_ptr<Game> g = load("smyoz/smyoz-8x8.rules");
  const explorer::PerftResult whole = explorer::perft(*g->compiled, g->root.data(), 3, {});
  REQUIRE(whole.complete);

  std::atomic<bool> stop{true};  // before anything is counted
  explorer::PerftOptions o;
  o.interrupt = &stop;
  explorer::PerftResult r = explorer::perft(*g->compiled, g->root.data(), 5, o);
  CHECK(r.status.ok);
  CHECK_FALSE(r.complete);
  CHECK(r.subtrees_done == 0);

  // Stopped while the subtrees are being walked: the depths down to the split are whole,
  // the deeper ones no more than the finished subtrees hold.
  stop = false;
  o.threads = 2;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stop = true;
  });
  r = explorer::perft(*g->compiled, g->root.data(), 6, o);
  stopper.join();
  CHECK(r.status.ok);
  REQUIRE_FALSE(r.complete);
  CHECK(r.subtrees_done < r.subtrees);
  REQUIRE(r.split_depth >= 1);
  REQUIRE(r.split_depth <= 3);
  for (int d = 0; d < r.split_depth; ++d) CHECK(r.paths[size_t(d)] == whole.paths[size_t(d)]);
}

TEST_CASE("division by a radix fixed in advance is exact for every dividend and divisor") {
  std::mt19937_64 rng(20261127);
  std::vector<uint64_t> divisors;
  for (uint64_t d = 1; d <= 1000; ++d) divisors.push_back(d);
  for (uint32_t k = 1; k < 64; ++k)
    for (uint64_t d : {(uint64_t{1} << k) - 1, uint64_t{1} << k, (uint64_t{1} << k) + 1}) divisors.push_back(d);
  divisors.push_back(UINT64_MAX);
  for (int i = 0; i < 1000; ++i) divisors.push_back(uint32_t(rng()) | 1u);
  for (int i = 0; i < 1000; ++i) divisors.push_back(rng() >> (rng() % 63));  // up to 64 bits
  size_t checked = 0;
  for (uint64_t d : divisors) {
    if (d == 0) continue;
    const rulebook::explorer::Divider div(d);
    std::vector<uint64_t> ns = {0, 1, d - 1, d, d + 1, UINT64_MAX, UINT64_MAX - 1, UINT64_MAX / d * d,
                                UINT64_MAX / d * d - 1, uint64_t{1} << 63, (uint64_t{1} << 63) - 1};
    for (int i = 0; i < 200; ++i) ns.push_back(rng() >> (rng() % 64));
    for (uint64_t n : ns) {
      const uint64_t q = div.quotient(n);
      if (q != n / d) FAIL("n = " << n << ", d = " << d << ": " << q << " instead of " << n / d);
      ++checked;
    }
  }
  CHECK(checked > 600000);
}
