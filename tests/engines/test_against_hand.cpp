// Both rulebook engines of the Garnsi 6x6 placement phase against the independent
// hand-written bitboard engine in bench/hand: perft from the empty board, and the legal
// moves of every position of many random games, where the Sudoku rule, passes and the end
// of the phase all matter.
#include <algorithm>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"
#include "explorer/perft.h"
#include "garnsi6_placement.h"
#include "smyoz_fleets.h"

using namespace rulebook;
namespace hg = hand::garnsi6;

namespace {

struct Loaded {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> compiled;
  std::unique_ptr<engine::Engine> interp;
};

Loaded& garnsi6() {
  static Loaded* g = [] {
    auto* l = new Loaded;
    dsl::Diagnostics diags;
    auto p = compiler::load_program(
        RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-6x6.rules", l->sources, diags);
    REQUIRE(p);
    l->program = std::make_shared<const ir::Program>(std::move(*p));
    compiler::LoadedEngine e = compiler::load_engine(l->program, l->sources);
    INFO(e.status.message);
    REQUIRE(e.engine);
    l->compiled = std::move(e.engine);
    l->interp = std::make_unique<compiler::Interpreter>(*l->program, l->sources);
    return l;
  }();
  return *g;
}

std::vector<uint8_t> start(const engine::Engine& e) {
  std::vector<uint8_t> s(e.info().state_bytes);
  engine::Setup setup;
  setup.values = {{"blocked", "r0c0,r5c5"}};
  engine::Status st = e.setup(s.data(), setup);
  INFO(st.message);
  REQUIRE(st.ok);
  return s;
}

int kind_of(const engine::Engine& e, const char* name) {
  const auto& names = e.info().move_names;
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

uint64_t hand_perft(const hg::Placement& g, hg::Position& pos, int depth) {
  hg::Move moves[hg::kMaxMoves + 1];
  const int n = g.legal_moves(pos, moves);
  if (depth == 1) return static_cast<uint64_t>(n);
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    hg::Undo u;
    g.play(pos, moves[i], u);
    total += hand_perft(g, pos, depth - 1);
    g.undo(pos, moves[i], u);
  }
  return total;
}

/// Our move as the hand engine writes it: the cell of `place`, or kPass.
hg::Move to_hand(const engine::Engine& e, const engine::Move& m) {
  return m.kind == kind_of(e, "pass") ? hg::kPass : static_cast<hg::Move>(m.args[0]);
}

void random_games_agree(const engine::Engine& e, int games) {
  const hg::Placement g({0, 35});
  const int placement = 0;
  std::vector<engine::Move> ours;
  hg::Move theirs[hg::kMaxMoves + 1];
  uint64_t positions = 0, passes = 0;
  for (int game = 1; game <= games; ++game) {
    std::vector<uint8_t> s = start(e);
    hg::Position pos = g.initial();
    SplitMix64 rng(static_cast<uint64_t>(game));
    while (e.phase(s.data()) == placement) {
      REQUIRE_FALSE(pos.over);
      ours.clear();
      REQUIRE(e.legal_moves(s.data(), ours).ok);
      const int n = g.legal_moves(pos, theirs);
      std::vector<hg::Move> converted;
      for (const engine::Move& m : ours) converted.push_back(to_hand(e, m));
      INFO("game " << game << " after " << pos.occupied_count() << " pieces");
      REQUIRE(converted == std::vector<hg::Move>(theirs, theirs + n));
      const engine::Move m = ours[rng.below(ours.size())];
      passes += m.kind == kind_of(e, "pass");
      REQUIRE(e.apply(s.data(), m).ok);
      hg::Undo u;
      g.play(pos, to_hand(e, m), u);
      ++positions;
    }
    // The rules leave placement exactly when the hand engine says the phase is over.
    CHECK(pos.over);
  }
  CHECK(positions > 20 * static_cast<uint64_t>(games));
  CHECK(passes > 0);  // the games reach the part where players must pass
}

}  // namespace

TEST_CASE("garnsi 6x6 placement: perft 1..5 equals the hand-written engine", "[hand]") {
  Loaded& l = garnsi6();
  const hg::Placement g({0, 35});
  std::vector<uint8_t> s = start(*l.compiled);
  explorer::PerftResult ours = explorer::perft(*l.compiled, s.data(), 5);
  REQUIRE(ours.status.ok);
  for (int d = 1; d <= 5; ++d) {
    hg::Position pos = g.initial();
    INFO("depth " << d);
    CHECK(ours.paths[static_cast<size_t>(d - 1)] == hand_perft(g, pos, d));
  }
  CHECK(ours.paths[4] == 33390720);
  // The interpreter, slower, to depth 4.
  explorer::PerftResult slow = explorer::perft(*l.interp, start(*l.interp).data(), 4);
  REQUIRE(slow.status.ok);
  CHECK(std::vector<uint64_t>(ours.paths.begin(), ours.paths.begin() + 4) == slow.paths);
}

TEST_CASE("garnsi 6x6 placement: every position of random games has the hand engine's moves",
          "[hand]") {
  Loaded& l = garnsi6();
  SECTION("generated engine") { random_games_agree(*l.compiled, 300); }
  SECTION("interpreter") { random_games_agree(*l.interp, 60); }
}

namespace {

/// Both engines of a shipped variant, set up with its defaults.
struct Variant {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> compiled, interp;
  std::vector<uint8_t> start;

  explicit Variant(const std::string& file) {
    dsl::Diagnostics diags;
    auto p = compiler::load_program(RULEBOOK_SOURCE_DIR "/variants/" + file, sources, diags);
    INFO(diags.render(sources));
    REQUIRE(p);
    program = std::make_shared<const ir::Program>(std::move(*p));
    compiler::LoadedEngine e = compiler::load_engine(program, sources);
    INFO(e.status.message);
    REQUIRE(e.engine);
    compiled = std::move(e.engine);
    interp = std::make_unique<compiler::Interpreter>(*program, sources);
    start.resize(program->state_bytes);
    REQUIRE(compiled->setup(start.data(), engine::Setup{}).ok);
  }
};

}  // namespace

TEST_CASE("SMYOZ fleets: perft equals the hand-written counter on 9x9 and 8x8", "[hand]") {
  struct Case {
    const char* file;
    hand::smyoz::Fleet fleet;
    int depth;
  };
  const Case cases[] = {
      {"smyoz/smyoz.rules", {9, {4, 3, 3, 2, 2, 2, 1, 1, 1, 1}}, 5},
      {"smyoz/smyoz-8x8.rules", {8, {4, 3, 2, 2, 1, 1, 1}}, 7},  // every complete fleet
  };
  for (const Case& c : cases) {
    INFO(c.file);
    Variant v(c.file);
    const std::vector<uint64_t> hand = hand::smyoz::FleetCounter(c.fleet).perft(c.depth);
    for (int d = 1; d <= c.depth; ++d) {
      if (d > 3 && d < c.depth) continue;  // the first depths and the deepest
      INFO("depth " << d);
      uint64_t ours = 0;
      REQUIRE(v.compiled->perft(v.start.data(), d, ours).ok);
      CHECK(ours == hand[size_t(d)]);
      if (d <= 2) {  // the interpreter too, where it is quick
        uint64_t slow = 0;
        REQUIRE(v.interp->perft(v.start.data(), d, slow).ok);
        CHECK(slow == hand[size_t(d)]);
      }
    }
  }
  // The known figures of the two boards, so that the hand counter cannot drift unnoticed.
  CHECK(hand::smyoz::FleetCounter({9, {4, 3, 3, 2, 2, 2, 1, 1, 1, 1}}).perft(4)[4] == 1600488);
  CHECK(hand::smyoz::FleetCounter({8, {4, 3, 2, 2, 1, 1, 1}}).perft(4)[4] == 313288);
}
