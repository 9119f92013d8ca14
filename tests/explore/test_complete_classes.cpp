// Classes of complete fleets up to the maps of the board (explorer/end_classes.h) on a
// small SMYOZ board, against a brute-force orbit count of the fleets as sets of cells and
// the hand-written counter's fixed fleets per symmetry (bench/hand).
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/end_classes.h"
#include "explorer/orbit_table.h"
#include "explorer/perft.h"
#include "smyoz_fleets.h"

using namespace rulebook;

namespace {

constexpr int kSide = 5;

struct Small {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<compiler::Interpreter> interp;
  std::vector<uint8_t> root;
};

std::unique_ptr<Small> load_small(const std::string& file = "smyoz_5x5.rules") {
  auto g = std::make_unique<Small>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program(RULEBOOK_SOURCE_DIR "/tests/explore/rules/" + file, g->sources, diags);
  INFO(diags.render(g->sources));
  REQUIRE(p);
  g->program = std::make_shared<const ir::Program>(std::move(*p));
  g->interp = std::make_unique<compiler::Interpreter>(*g->program, g->sources);
  g->root.resize(g->program->state_bytes);
  REQUIRE(g->interp->setup(g->root.data(), engine::Setup{}).ok);
  return g;
}

using Cells = std::set<std::pair<int, int>>;
using Fleet = std::vector<Cells>;  // per kind (GAMMA, DELTA): the cells of its ships

/// The 8 maps of the square in the order of board_transforms and of the hand counter.
std::pair<int, int> map_cell(int g, int x, int y) {
  const int m = kSide - 1;
  switch (g) {
    case 1: return {m - y, x};
    case 2: return {m - x, m - y};
    case 3: return {y, m - x};
    case 4: return {x, m - y};
    case 5: return {m - x, y};
    case 6: return {y, x};
    case 7: return {m - y, m - x};
    default: return {x, y};
  }
}

Fleet map_fleet(int g, const Fleet& f) {
  Fleet out(f.size());
  for (size_t k = 0; k < f.size(); ++k)
    for (const auto& c : f[k]) out[k].insert(map_cell(g, c.first, c.second));
  return out;
}

}  // namespace

TEST_CASE("complete fleets up to symmetry: least forms = Burnside = a brute-force orbit count", "[explore][symmetry]") {
  std::unique_ptr<Small> g = load_small();
  const ir::Program& p = *g->program;
  explorer::EndClassOptions o;
  o.depth = 4;
  const explorer::EndClassResult r = explorer::end_classes(p, g->sources, *g->interp, g->root.data(), o);
  INFO(explorer::end_classes_text(r, 4));
  REQUIRE(r.error.empty());
  // The placement records are observed through the cells the rules compute, the ships of a
  // kind as a multiset: the 8 maps of the square are found and kept.
  CHECK(r.observed.find("ship_cells") != std::string::npos);
  REQUIRE(r.checks.size() == 8);
  for (const auto& c : r.checks) CHECK(c.kept);
  REQUIRE(r.group.size() == 8);

  // Brute force: every complete fleet of the interpreter's walk, read by hand as the cells
  // of each kind (anchor and direction from the stored record), its orbit by hand.
  const ir::StateVar* fleet = nullptr;
  for (const auto& v : p.vars)
    if (v.name == "fleet") fleet = &v;
  REQUIRE(fleet);
  REQUIRE(p.domains[size_t(fleet->domain)].size == 1 + kSide * kSide * 2);  // none, anchor + 25 * dir
  std::set<Fleet> fleets;
  explorer::PerftOptions po;
  po.on_end = [&](const uint8_t* s, int ply, int) {
    if (ply != 3) return;
    Fleet f(2);
    for (uint32_t ship = 0; ship < 4; ++ship) {
      const uint32_t index = ir::load_index(s, *fleet, ship);
      REQUIRE(index > 0);
      const int anchor = int(index - 1) % (kSide * kSide), dir = int(index - 1) / (kSide * kSide);
      const int length = ship < 2 ? 2 : 1;
      for (int k = 0; k < length; ++k)
        f[ship < 2 ? 0 : 1].insert(dir == 0 ? std::pair{anchor % kSide + k, anchor / kSide}
                                            : std::pair{anchor % kSide, anchor / kSide + k});
    }
    fleets.insert(f);
  };
  const explorer::PerftResult pr = explorer::perft(*g->interp, g->root.data(), 4, po);
  REQUIRE(pr.complete);
  CHECK(fleets.size() == 200);
  CHECK(r.states == 200);
  CHECK(r.forms == 200);
  CHECK(r.orbits == 26);  // held one entry per orbit, not per fleet
  size_t orbits = 0;
  std::set<Fleet> seen;
  std::vector<uint64_t> fixed(8, 0);
  for (const Fleet& f : fleets) {
    for (int s = 0; s < 8; ++s) {
      const Fleet image = map_fleet(s, f);
      CHECK(fleets.count(image) == 1);  // the set of fleets is closed under the square's maps
      if (image == f) ++fixed[size_t(s)];
    }
    if (seen.count(f)) continue;
    ++orbits;
    for (int s = 0; s < 8; ++s) seen.insert(map_fleet(s, f));
  }
  CHECK(orbits == 26);
  CHECK(r.classes == orbits);
  CHECK(r.burnside_whole());
  CHECK(r.burnside() == orbits);
  for (size_t s = 0; s < 8; ++s) {
    INFO(r.group[s].name);
    CHECK(r.group[s].fixed == fixed[s]);
  }
  CHECK(fixed[2] == 8);  // rotate 180 keeps 8 fleets: Burnside is not a plain division

  // The hand-written counter (no rulebook code) agrees on every symmetry's fixed fleets.
  hand::smyoz::FleetCounter counter({kSide, {2, 2, 1, 1}});
  std::vector<uint64_t> hand_fixed;
  const std::vector<uint64_t> paths = counter.perft(4, nullptr, &hand_fixed);
  CHECK(paths.back() == 200);
  REQUIRE(hand_fixed.size() == 8);
  for (size_t s = 0; s < 8; ++s) {
    INFO(hand::smyoz::FleetCounter::symmetry_name(int(s)));
    CHECK(std::string(hand::smyoz::FleetCounter::symmetry_name(int(s))) == r.group[s].name);
    CHECK(hand_fixed[s] == fixed[s]);
  }
}

TEST_CASE("complete fleets up to symmetry: a map that does not keep the complete states is rejected", "[explore][symmetry]") {
  // Dead ends of the placement order (3 ships placed, the next one has no place after the
  // earlier twin) are complete states too, and the order reads coordinates: no map of the
  // square keeps the set of those, and each rejection says how many states it moves out.
  std::unique_ptr<Small> g = load_small();
  explorer::EndClassOptions o;
  o.depth = 3;
  const explorer::EndClassResult r = explorer::end_classes(*g->program, g->sources, *g->interp, g->root.data(), o);
  INFO(explorer::end_classes_text(r, 3));
  REQUIRE(r.error.empty());
  REQUIRE(r.states > 0);
  size_t rejected = 0;
  for (const auto& c : r.checks)
    if (!c.kept) {
      ++rejected;
      CHECK(c.reason.find("outside them") != std::string::npos);
    }
  CHECK(rejected > 0);
  CHECK(r.classes == r.burnside());
  CHECK(r.burnside_whole());
}

TEST_CASE("complete fleets up to symmetry: the same counts and text on 1 and 2 threads", "[explore][symmetry]") {
  std::unique_ptr<Small> g = load_small();
  for (int depth : {3, 4}) {
    explorer::EndClassOptions o;
    o.depth = depth;
    const explorer::EndClassResult one = explorer::end_classes(*g->program, g->sources, *g->interp, g->root.data(), o);
    o.threads = 2;
    const explorer::EndClassResult two = explorer::end_classes(*g->program, g->sources, *g->interp, g->root.data(), o);
    CHECK(explorer::end_classes_json(one, depth).dump() == explorer::end_classes_json(two, depth).dump());
    CHECK(explorer::end_classes_text(one, depth) == explorer::end_classes_text(two, depth));
  }
}

TEST_CASE("complete states up to symmetry: a state reached by two paths stops the count", "[explore][symmetry]") {
  // Tic-tac-toe: a win at ply 5 is reached by many orders of the same marks. The forms are
  // held per orbit without the states, so such a repeat cannot be told from two states with
  // one form, and nothing is counted.
  std::unique_ptr<Small> g = load_small("tictactoe_coordinates.rules");
  explorer::EndClassOptions o;
  o.depth = 5;
  const explorer::EndClassResult r = explorer::end_classes(*g->program, g->sources, *g->interp, g->root.data(), o);
  INFO(explorer::end_classes_text(r, 5));
  CHECK(r.paths > 0);
  CHECK(r.error.find("form seen before") != std::string::npos);
  CHECK(r.classes == 0);
}

TEST_CASE("complete fleets up to symmetry: a memory bound stops the count", "[explore][symmetry]") {
  std::unique_ptr<Small> g = load_small();
  explorer::EndClassOptions o;
  o.depth = 4;
  o.max_memory = 1000;
  const explorer::EndClassResult r = explorer::end_classes(*g->program, g->sources, *g->interp, g->root.data(), o);
  CHECK(r.error.find("need more than 1000 bytes") != std::string::npos);
  CHECK(r.classes == 0);
}

TEST_CASE("orbit table: one entry per orbit, forms seen once, scores per form where they differ", "[explore][symmetry]") {
  explorer::OrbitTable t(3);
  const uint8_t a[3] = {1, 2, 3}, b[3] = {3, 2, 1};
  CHECK(t.add(a, t.hash(a), 0, 0x01, 5));
  CHECK(t.add(a, t.hash(a), 3, 0x01, 5));
  CHECK_FALSE(t.add(a, t.hash(a), 3, 0x01, 5));  // seen: nothing changes
  CHECK(t.add(a, t.hash(a), 2, 0x01, 7));        // other scores: every form's kept
  CHECK(t.add(b, t.hash(b), 1, 0x03, 9));
  CHECK(t.orbits() == 2);
  // Many orbits: the shards grow and each key is found again.
  for (uint32_t k = 0; k < 20000; ++k) {
    const uint8_t key[3] = {uint8_t(k), uint8_t(k >> 8), 7};
    REQUIRE(t.add(key, t.hash(key), k % 8, 0x01, k));
  }
  CHECK(t.orbits() == 20002);
  size_t entries = 0, forms = 0;
  t.each(0, explorer::OrbitTable::shards(), [&](const explorer::OrbitTable::Entry& e) {
    ++entries;
    forms += size_t(__builtin_popcount(e.seen));
    if (std::equal(e.key, e.key + 3, a)) {
      CHECK(e.seen == 0x0d);
      CHECK(e.scores[0] == 5);
      CHECK(e.scores[3] == 5);
      CHECK(e.scores[2] == 7);
    } else if (std::equal(e.key, e.key + 3, b)) {
      CHECK(e.seen == 0x02);
      CHECK(e.stabiliser == 0x03);
      CHECK(e.scores[1] == 9);
    } else {
      CHECK(e.key[2] == 7);
      const uint32_t k = uint32_t(e.key[0]) | uint32_t(e.key[1]) << 8;
      CHECK(e.seen == 1u << (k % 8));
      CHECK(e.scores[k % 8] == k);
    }
  });
  CHECK(entries == 20002);
  CHECK(forms == 20004);
}
