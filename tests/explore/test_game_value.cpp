// Perfect play (explorer/game_value.h) checked twice: the search with its table against
// plain minimax over every line of play, on tic-tac-toe, small Connect-3 boards and a
// scoring race; its principal line replayed; budgets, interruption and the games it refuses.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "explorer/game_value.h"
#include "tests/engines/open_engine.h"

using namespace rulebook;

namespace {

const std::string kTicTacToe = RULEBOOK_SOURCE_DIR "/bench/plain/tictactoe.rules";
const std::string kRules = RULEBOOK_SOURCE_DIR "/tests/explore/rules/";

explorer::Sides sides_of(const testing::OpenedEngine& g) {
  explorer::Sides s = explorer::two_sides(*g.program, g.engine->info(), g.engine->to_move(g.start.data()));
  INFO(s.error);
  REQUIRE(s.error.empty());
  return s;
}

/// Plays `line` from the start: every move legal, and the game over after the last one,
/// worth `value` to the first side.
void replay_line(const testing::OpenedEngine& g, const explorer::Sides& sides, explorer::Objective objective,
                 const std::vector<engine::Move>& line, int64_t value) {
  std::vector<uint8_t> state = g.start;
  std::vector<engine::Move> legal;
  for (const engine::Move& m : line) {
    legal.clear();
    REQUIRE(g.engine->legal_moves(state.data(), legal).ok);
    REQUIRE(std::find(legal.begin(), legal.end(), m) != legal.end());
    REQUIRE(g.engine->apply(state.data(), m).ok);
  }
  REQUIRE(g.engine->terminal(state.data()));
  int64_t end = 0;
  REQUIRE(explorer::terminal_value(*g.engine, sides, objective, state.data(), end).ok);
  CHECK(end == value);
}

/// The search's value, solved, equal to plain minimax's, its line replayed to that value.
int64_t checked_value(const std::string& path, bool interpreter, explorer::Objective objective,
                      uint64_t& search_nodes, uint64_t& minimax_nodes) {
  testing::OpenedEngine g;
  testing::open_engine(path, interpreter, g);
  const explorer::Sides sides = sides_of(g);
  explorer::GameValueOptions o;
  o.objective = objective;
  const explorer::GameValueResult r = explorer::game_value(*g.program, *g.engine, g.start.data(), sides, o);
  INFO(r.status.message << " stopped: " << r.stopped);
  REQUIRE(r.status.ok);
  REQUIRE(r.solved);
  CHECK(r.stopped.empty());
  int64_t plain = 0;
  REQUIRE(explorer::exhaustive_value(*g.engine, sides, objective, g.start.data(), plain, minimax_nodes).ok);
  CHECK(r.lo == plain);
  replay_line(g, sides, objective, r.line, r.lo);
  CHECK(r.line_text.size() == r.line.size());
  search_nodes = r.nodes;
  // States stored by their class under the game's symmetries: the same value, fewer states.
  o.symmetry = explorer::find_symmetries(*g.program, g.sources, *g.engine, g.start.data()).elements;
  const explorer::GameValueResult sym = explorer::game_value(*g.program, *g.engine, g.start.data(), sides, o);
  REQUIRE(sym.solved);
  CHECK(sym.lo == r.lo);
  CHECK(sym.symmetry.size() == std::max<size_t>(1, o.symmetry.size()));
  CHECK(sym.states <= r.states);
  replay_line(g, sides, objective, sym.line, sym.lo);
  return r.lo;
}

}  // namespace

TEST_CASE("game value: tic-tac-toe is a draw, by the search and by plain minimax", "[explore][value]") {
  uint64_t nodes = 0, plain_nodes = 0;
  CHECK(checked_value(kTicTacToe, false, explorer::Objective::Outcome, nodes, plain_nodes) == 0);
  // Plain minimax visits the whole game tree: 549,946 positions, the start included.
  CHECK(plain_nodes == 549946);
  CHECK(nodes < 20000);
  // The square's eight symmetries keep the sides: the group is used whole.
  testing::OpenedEngine g8;
  testing::open_engine(kTicTacToe, false, g8);
  explorer::GameValueOptions o;
  o.symmetry = explorer::find_symmetries(*g8.program, g8.sources, *g8.engine, g8.start.data()).elements;
  REQUIRE(o.symmetry.size() == 8);
  const explorer::GameValueResult sym = explorer::game_value(*g8.program, *g8.engine, g8.start.data(), sides_of(g8), o);
  CHECK(sym.solved);
  CHECK(sym.lo == 0);
  CHECK(sym.symmetry.size() == 8);
  // 765 classes of legal positions at most.
  CHECK(sym.states <= 765);
  // A map exchanging the players would store a state under the other side's value: left out.
  explorer::Transform swap = o.symmetry.front();
  swap.name = "swap players";
  swap.index_map.resize(g8.program->domains.size());
  swap.index_map[ir::kPlayerDomain] = {1, 0};
  o.symmetry = {o.symmetry.front(), swap};
  const explorer::GameValueResult kept = explorer::game_value(*g8.program, *g8.engine, g8.start.data(), sides_of(g8), o);
  CHECK(kept.symmetry == std::vector<std::string>{o.symmetry.front().name});
  CHECK(kept.lo == 0);
  // A draw is a full board: the principal line has all nine moves.
  testing::OpenedEngine g;
  testing::open_engine(kTicTacToe, false, g);
  const explorer::Sides sides = sides_of(g);
  CHECK(sides.name[0] == "cross");
  CHECK_FALSE(sides.teams);
  const explorer::GameValueResult r = explorer::game_value(*g.program, *g.engine, g.start.data(), sides);
  REQUIRE(r.solved);
  CHECK(r.line.size() == 9);
  // No state is stored twice: 5,478 legal positions at most.
  CHECK(r.states <= 5478);
  CHECK(explorer::value_text(explorer::Objective::Outcome, r.lo) == "draw");
}

TEST_CASE("game value: Connect-3 with gravity, the search against plain minimax", "[explore][value]") {
  uint64_t nodes = 0, plain_nodes = 0;
  // 4 columns x 3 rows: plain minimax walks every game.
  const int64_t small = checked_value(kRules + "connect3_3x4.rules", false, explorer::Objective::Outcome, nodes,
                                      plain_nodes);
  INFO("4x3: " << nodes << " positions searched, " << plain_nodes << " by minimax");
  CHECK(nodes < plain_nodes);
  // 4 x 4: the same check on the larger board.
  const int64_t large = checked_value(kRules + "connect3.rules", false, explorer::Objective::Outcome, nodes,
                                      plain_nodes);
  INFO("4x4: " << nodes << " positions searched, " << plain_nodes << " by minimax");
  CHECK(nodes < plain_nodes);
  // Three in a row on a bottom row of four: the first player's double threat wins both.
  CHECK(small == 1);
  CHECK(large == 1);
}

TEST_CASE("game value: Domineering 4x4 is a win for the first player, with its mirrors", "[explore][value]") {
  // The player who cannot lay a domino loses (a stuck block ends the game, the last to lay
  // scores); the first player wins on 4x4 (by a memoised search in Python too). The states
  // stored by class use the half turn and the two mirrors, found by what moves do.
  uint64_t nodes = 0, plain_nodes = 0;
  CHECK(checked_value(kRules + "domineering.rules", false, explorer::Objective::Outcome, nodes, plain_nodes) == 1);
  INFO(nodes << " positions searched, " << plain_nodes << " by minimax");
  CHECK(nodes < plain_nodes);
}

TEST_CASE("game value: the margin of a scoring race, the search against plain minimax", "[explore][value]") {
  uint64_t nodes = 0, plain_nodes = 0;
  const int64_t margin = checked_value(kRules + "race_margin.rules", false, explorer::Objective::Margin, nodes,
                                       plain_nodes);
  // Nine counters in all: the margin is odd, and the outcome has its sign.
  CHECK(margin % 2 != 0);
  uint64_t n2 = 0, p2 = 0;
  const int64_t outcome = checked_value(kRules + "race_margin.rules", false, explorer::Objective::Outcome, n2, p2);
  CHECK(outcome == (margin > 0 ? 1 : -1));
  // The interpreter, through the same interface, finds the same margin.
  CHECK(checked_value(kRules + "race_margin.rules", true, explorer::Objective::Margin, n2, p2) == margin);
}

TEST_CASE("game value: a budget or an interruption leaves sound bounds", "[explore][value]") {
  testing::OpenedEngine g;
  testing::open_engine(kTicTacToe, false, g);
  const explorer::Sides sides = sides_of(g);
  explorer::GameValueOptions o;
  o.max_states = 200;
  const explorer::GameValueResult r = explorer::game_value(*g.program, *g.engine, g.start.data(), sides, o);
  REQUIRE(r.status.ok);
  CHECK_FALSE(r.solved);
  CHECK(r.stopped == "states");
  CHECK(r.states == 200);
  CHECK(r.lo <= 0);
  CHECK(r.hi >= 0);
  CHECK(r.line.empty());

  std::atomic<bool> stop{true};
  o.max_states = 0;
  o.interrupt = &stop;
  const explorer::GameValueResult i = explorer::game_value(*g.program, *g.engine, g.start.data(), sides, o);
  CHECK_FALSE(i.solved);
  CHECK(i.stopped == "interrupted");
  CHECK(i.lo == -1);
  CHECK(i.hi == 1);
}

TEST_CASE("game value: two sides are two players or two scored teams", "[explore][value]") {
  testing::OpenedEngine solo;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/variants/sudoku-fill/fill-4x4.rules", true, solo);
  explorer::Sides s = explorer::two_sides(*solo.program, solo.engine->info(), 0);
  CHECK(s.error.find("one player") != std::string::npos);

  testing::OpenedEngine many;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-9.rules", true, many);
  s = explorer::two_sides(*many.program, many.engine->info(), 0);
  CHECK(s.error.find("9 players scored each on their own") != std::string::npos);

  testing::OpenedEngine three;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-9-teams.rules", true, three);
  s = explorer::two_sides(*three.program, three.engine->info(), 0);
  CHECK(s.error.find("3 teams") != std::string::npos);

  // Six players in two teams of three: p2 to move puts its team (blue) first.
  testing::OpenedEngine teams;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/garnsi-6x6.rules", true, teams);
  s = explorer::two_sides(*teams.program, teams.engine->info(), 1);
  REQUIRE(s.error.empty());
  CHECK(s.teams);
  CHECK(s.name[0] == "blue");
  CHECK(s.name[1] == "red");
  CHECK(s.side_of_player == std::vector<int>{1, 0, 1, 0, 1, 0});
}

TEST_CASE("game value: a game that can go on forever stops with its bounds apart", "[explore][value]") {
  testing::OpenedEngine g;
  testing::open_engine(kRules + "shuttle.rules", false, g);
  const explorer::Sides sides = sides_of(g);
  const explorer::GameValueResult r = explorer::game_value(*g.program, *g.engine, g.start.data(), sides);
  REQUIRE(r.status.ok);
  CHECK_FALSE(r.solved);
  CHECK(r.stopped == "stale");
  // Neither side can be made to lose: nothing is forced either way.
  CHECK(r.lo == -1);
  CHECK(r.hi == 1);
  CHECK(r.states <= 10);
  // Plain minimax has no end to reach: it says so at its bound on a line's length.
  int64_t v = 0;
  uint64_t nodes = 0;
  CHECK_FALSE(explorer::exhaustive_value(*g.engine, sides, explorer::Objective::Outcome, g.start.data(), v, nodes, 12).ok);
}
