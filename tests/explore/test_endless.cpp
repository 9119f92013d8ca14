// Endless games and the directed search: a looping game's repeated position and steady
// quantities checked against a replay, a move reached only by one line found and replayed,
// a move the rules never allow proved unreachable by enumerating every position.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/coverage.h"
#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"
#include "explorer/coverage_games.h"
#include "explorer/directed.h"
#include "explorer/endless.h"
#include "explorer/termination.h"

using namespace rulebook;
using compiler::CoverageSite;

namespace {

struct Loaded {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  std::optional<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
};

std::unique_ptr<Loaded> load(const std::string& path, const std::string& text = "") {
  auto l = std::make_unique<Loaded>();
  l->program = text.empty() ? compiler::load_program(path, l->sources, l->diags)
                            : compiler::load_program_text(path, text, l->sources, l->diags);
  INFO(l->diags.render(l->sources));
  REQUIRE(l->program);
  l->engine = std::make_unique<compiler::Interpreter>(*l->program, l->sources);
  return l;
}

// One player places one piece on a row of three cells, then steps it to a neighbour for
// ever: nothing ends the game.
const char* kShuttle = R"(game "shuttle";
board 1 x 3;
players 1;
state owner: Cell -> Player?;
state in_hand: Player -> 0..1;
init { for p in players { in_hand[p] := 1; } }
define placed: bool = all p in players: in_hand[p] == 0;
phase place {
  move put(c: Cell)
    requires in_hand[mover] > 0;
  {
    owner[c] := mover;
    in_hand[mover] -= 1;
  }
  until placed -> walk;
}
phase walk {
  move step(from: Cell, to: Cell)
    requires owner[from] == mover;
    requires to in orth(from);
    requires owner[to] == none;
  {
    owner[from] := none;
    owner[to] := mover;
  }
}
)";

// A counter climbs by one or falls back to zero; `bonus` needs exactly five, `odd` a
// value `climb` and `reset` never make; `secret` ends the game only after a bonus.
const char* kCounter = R"(game "counter";
board 1 x 1;
players 1;
state n: 0..8;
state bonuses: 0..1;
phase count {
  move climb
    requires n < 8;
  {
    n += 2;
  }
  move reset
    requires n > 0;
  {
    n := 0;
  }
  move bonus
    requires n == 6;
    requires bonuses == 0;
  {
    bonuses := 1;
  }
  move odd
    requires n == 3;
  {
    n := 0;
  }
}
end when bonuses == 1 and n == 0;
)";

const explorer::SteadyQuantity* steady(const explorer::EndlessGame& g, const std::string& name) {
  for (const explorer::SteadyQuantity& q : g.steady)
    if (q.name == name) return &q;
  return nullptr;
}

int move_index(const ir::Program& p, const std::string& name) {
  for (size_t m = 0; m < p.moves.size(); ++m)
    if (p.moves[m].name == name) return int(m);
  FAIL("no move " << name);
  return -1;
}

}  // namespace

TEST_CASE("a looping game: its first repeated position and the quantities that stopped changing", "[endless]") {
  auto l = load("shuttle.rules", kShuttle);
  explorer::CoveragePlan plan;
  plan.games = 3;
  plan.seed = 5;
  plan.max_plies = 40;
  const explorer::CoverageGames games = explorer::cover_games(*l->engine, plan);
  REQUIRE(games.cut_off == 3);
  REQUIRE(games.cut_off_games == std::vector<int>{0, 1, 2});
  const explorer::EndlessGames e = explorer::examine_cut_off(*l->engine, games, 2);
  CHECK(e.cut_off == 3);
  REQUIRE(e.games.size() == 2);
  for (const explorer::EndlessGame& g : e.games) {
    INFO("game " << g.game);
    CHECK(g.error.empty());
    CHECK_FALSE(g.ended);
    CHECK(g.plies == 40);
    CHECK(g.seed == 5 + uint64_t(g.game));
    // The setup (nothing placed) never comes back; a piece on three cells repeats within
    // four steps, and the first repeat is at most two plies after the first free position.
    REQUIRE(g.repeat_first >= 1);
    CHECK(g.repeat_again > g.repeat_first);
    CHECK(g.repeat_again <= 5);
    CHECK(g.cycle_moves == g.repeat_again - g.repeat_first);
    CHECK(int(g.cycle.size()) == g.cycle_moves);
    for (const std::string& m : g.cycle) CHECK(m.rfind("step", 0) == 0);

    // Replayed by hand: the two plies hold the same bytes, and no earlier pair does.
    std::vector<std::vector<uint8_t>> line(1, std::vector<uint8_t>(l->engine->info().state_bytes));
    engine::Setup s;
    s.seed = g.seed;
    REQUIRE(l->engine->setup(line[0].data(), s).ok);
    SplitMix64 rng(g.seed);
    std::vector<engine::Move> moves;
    for (int k = 0; k < g.repeat_again; ++k) {
      moves.clear();
      REQUIRE(l->engine->legal_moves(line.back().data(), moves).ok);
      line.push_back(line.back());
      REQUIRE(l->engine->apply(line.back().data(), moves[rng.below(moves.size())]).ok);
    }
    CHECK(line[size_t(g.repeat_first)] == line[size_t(g.repeat_again)]);
    for (int b = 1; b < g.repeat_again; ++b)
      for (int a = 0; a < b; ++a) CHECK(line[size_t(a)] != line[size_t(b)]);

    // Steady since the placement at ply 1: the phase, the piece count and the hand.
    CHECK(g.steady_from == 20);
    const explorer::SteadyQuantity* phase = steady(g, "phase");
    REQUIRE(phase);
    CHECK(phase->value == "walk");
    CHECK(phase->since == 1);
    const explorer::SteadyQuantity* hand = steady(g, "count(in_hand = 0)");
    REQUIRE(hand);
    CHECK(hand->value == "1");
    CHECK(hand->since == 1);
    // The piece moves, so no cell's owner is steady, but the count of empty cells is.
    const explorer::SteadyQuantity* empty = steady(g, "count(owner = none)");
    REQUIRE(empty);
    CHECK(empty->value == "2");
    CHECK(empty->since == 1);
  }
}

TEST_CASE("a finished game examined says so and lists nothing", "[endless]") {
  auto l = load("counter.rules", kCounter);
  // The line climbs and resets at random; give it room to end.
  const explorer::EndlessGame g = explorer::examine_line(*l->engine, {}, 3, 100000);
  CHECK(g.error.empty());
  CHECK(g.ended);
}

TEST_CASE("the directed search finds the one line to a move and proves another unreachable", "[directed]") {
  auto l = load("counter.rules", kCounter);
  const ir::Program& p = *l->program;
  const int bonus = move_index(p, "bonus"), odd = move_index(p, "odd");
  compiler::Coverage sites(p);
  int end_site = -1, bonus_store = -1;
  for (size_t i = 0; i < sites.sites().size(); ++i) {
    const CoverageSite& s = sites.sites()[i];
    if (s.kind == CoverageSite::Kind::EndCondition) end_site = int(i);
    if (s.kind == CoverageSite::Kind::Statement && s.block == "move bonus") bonus_store = int(i);
  }
  REQUIRE(end_site >= 0);
  REQUIRE(bonus_store >= 0);
  using T = explorer::SearchTarget;
  const std::vector<T> targets{{T::Kind::Move, bonus, -1}, {T::Kind::Move, odd, -1},
                               {T::Kind::Site, -1, bonus_store}, {T::Kind::Site, -1, end_site}};
  explorer::SearchPlan plan;
  plan.max_states = 1000;
  const explorer::DirectedSearch d = explorer::search_targets(*l->engine, targets, plan);
  CHECK(d.error.empty());
  CHECK_FALSE(d.setup_random);
  // n in {0, 2, 4, 6, 8} with bonuses 0; then 6 (the bonus), 8 and the end state 0 with
  // bonuses 1: 8 positions, all enumerated.
  CHECK(d.states == 8);
  CHECK(d.exhausted);
  REQUIRE(d.results.size() == 4);
  // Breadth first: the shortest line, three climbs then the bonus.
  const std::vector<std::string> shortest{"climb", "climb", "climb", "bonus"};
  std::vector<std::string> texts;
  for (const std::string& t : shortest)
    texts.push_back(l->engine->move_text({move_index(p, t), {0, 0, 0, 0}}));
  CHECK(d.results[0].reached);
  CHECK(d.results[0].line_text == texts);
  CHECK(d.results[2].reached);
  CHECK(d.results[2].line_text == texts);
  CHECK_FALSE(d.results[1].reached);  // odd: n is always even
  CHECK(d.results[3].reached);
  REQUIRE(d.results[3].line.size() == 5);
  CHECK(d.results[3].line.back().kind == move_index(p, "reset"));

  // The end condition's line replayed in the interpreter ends the game by `end when`,
  // counting the end condition and the bonus's store once each.
  compiler::Coverage cov(p);
  std::vector<uint8_t> state(l->engine->info().state_bytes);
  REQUIRE(l->engine->setup_counted(state.data(), {}, cov).ok);
  for (const engine::Move& m : d.results[3].line) {
    std::vector<engine::Move> legal;
    REQUIRE(l->engine->legal_moves(state.data(), legal).ok);
    REQUIRE(std::find(legal.begin(), legal.end(), m) != legal.end());
    REQUIRE(l->engine->apply_counted(state.data(), m, cov).ok);
  }
  CHECK(l->engine->terminal(state.data()));
  CHECK(cov.counts[size_t(end_site)] == 1);
  CHECK(cov.counts[size_t(bonus_store)] == 1);
  CHECK(cov.ended_by[size_t(compiler::EndCause::EndWhen)] == 1);

  // A budget below the space: nothing is proved.
  plan.max_states = 3;  // n = 0, 2, 4: the bonus is legal only at 6
  const explorer::DirectedSearch small = explorer::search_targets(*l->engine, targets, plan);
  CHECK(small.states == 3);
  CHECK_FALSE(small.exhausted);
  CHECK_FALSE(small.results[0].reached);
}

TEST_CASE("never_seen lists what a coverage run never saw, and nothing it saw", "[directed]") {
  auto l = load("counter.rules", kCounter);
  explorer::CoveragePlan plan;
  plan.games = 4;
  plan.max_plies = 200;
  const explorer::CoverageGames games = explorer::cover_games(*l->engine, plan);
  const std::vector<explorer::SearchTarget> t = explorer::never_seen(games);
  bool odd_listed = false;
  for (const explorer::SearchTarget& x : t) {
    if (x.kind == explorer::SearchTarget::Kind::Move) {
      CHECK(games.counts.chosen[size_t(x.move)] == 0);
      odd_listed = odd_listed || x.move == move_index(*l->program, "odd");
    } else {
      CHECK(games.counts.counts[size_t(x.site)] == 0);
      const CoverageSite::Kind k = games.counts.sites()[size_t(x.site)].kind;
      CHECK((k == CoverageSite::Kind::Statement || k == CoverageSite::Kind::EndCondition ||
             k == CoverageSite::Kind::Transition));
    }
  }
  CHECK(odd_listed);
}

TEST_CASE("termination settled by enumeration: tic-tac-toe's longest game, replayed", "[termination]") {
  for (const char* file : {"/bench/plain/tictactoe.rules", "/tests/explore/tictactoe_symmetric.rules"}) {
    INFO(file);
    auto l = load(std::string(RULEBOOK_SOURCE_DIR) + file);
    const explorer::Termination t = explorer::settle_termination(*l->engine, {}, 100000);
    CHECK(t.error.empty());
    REQUIRE(t.verdict == explorer::Termination::Verdict::Bounded);
    CHECK(t.states == 5478);  // tic-tac-toe's reachable positions, the empty board included
    CHECK(t.longest == 9);
    CHECK(t.longest_line.size() == 9);
    CHECK_FALSE(t.setup_random);
    // Checked a second way: the longest line replayed is legal and ends the game; no random
    // game is longer (the interpreter's perft over 10 plies would take minutes here).
    std::vector<uint8_t> state(l->engine->info().state_bytes);
    REQUIRE(l->engine->setup(state.data(), {}).ok);
    for (const std::string& text : t.longest_line) {
      CHECK_FALSE(l->engine->terminal(state.data()));
      std::vector<engine::Move> moves;
      REQUIRE(l->engine->legal_moves(state.data(), moves).ok);
      bool played = false;
      for (const engine::Move& m : moves)
        if (!played && l->engine->move_text(m) == text) played = l->engine->apply(state.data(), m).ok;
      REQUIRE(played);
    }
    CHECK(l->engine->terminal(state.data()));
    int longest_random = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed)
      longest_random = std::max(longest_random, explorer::examine_line(*l->engine, {}, seed, 100).plies);
    CHECK(longest_random <= t.longest);
    // A budget below the space settles nothing.
    const explorer::Termination small = explorer::settle_termination(*l->engine, {}, 5000);
    CHECK(small.verdict == explorer::Termination::Verdict::Unsettled);
    CHECK(small.states == 5000);
  }
}

TEST_CASE("termination settled by enumeration: a looping game's cycle replays to the same position", "[termination]") {
  auto l = load("shuttle.rules", kShuttle);
  const explorer::Termination t = explorer::settle_termination(*l->engine, {}, 1000);
  REQUIRE(t.verdict == explorer::Termination::Verdict::Endless);
  CHECK(t.states == 1 + 3);  // the setup, then the piece on one of 3 cells (the walk starts at once)
  REQUIRE(t.lead_in.size() >= 1);
  REQUIRE(t.cycle.size() >= 2);
  // Played by name: the lead-in, then the cycle, comes back to the position after the lead-in.
  std::vector<uint8_t> state(l->engine->info().state_bytes);
  REQUIRE(l->engine->setup(state.data(), {}).ok);
  auto play = [&](const std::string& text) {
    std::vector<engine::Move> moves;
    REQUIRE(l->engine->legal_moves(state.data(), moves).ok);
    for (const engine::Move& m : moves)
      if (l->engine->move_text(m) == text) {
        REQUIRE(l->engine->apply(state.data(), m).ok);
        return;
      }
    FAIL("no legal move " << text);
  };
  for (const std::string& m : t.lead_in) play(m);
  const std::vector<uint8_t> entry = state;
  for (const std::string& m : t.cycle) play(m);
  CHECK(state == entry);
}

TEST_CASE("the directed search goes toward the guard: three switches among many distractions", "[directed]") {
  // Ten cells toggled at will make a thousand positions per switch setting; `goal` needs
  // all three switches on. Breadth-first, 300 positions hold only lines of two moves.
  const char* text = R"(game "switches";
board 1 x 10;
players 1;
state mark: Cell -> bool;
state a: 0..1;
state b: 0..1;
state c: 0..1;
state done: bool;
phase play {
  move toggle(x: Cell) { mark[x] := not mark[x]; }
  move set_a requires a == 0; { a := 1; }
  move set_b requires b == 0; { b := 1; }
  move set_c requires c == 0; { c := 1; }
  move goal
    requires a == 1;
    requires b == 1;
    requires c == 1;
    requires not done;
  {
    done := true;
  }
}
end when done;
)";
  auto l = load("switches.rules", text);
  const int goal = move_index(*l->program, "goal");
  explorer::SearchPlan plan;
  plan.max_states = 300;
  const explorer::DirectedSearch d = explorer::search_targets(*l->engine, {{explorer::SearchTarget::Kind::Move, goal, -1}}, plan);
  CHECK(d.guided);
  REQUIRE(d.results[0].reached);
  CHECK(d.results[0].line.size() == 4);  // the three switches in some order, then the goal
  CHECK(d.results[0].line.back().kind == goal);
  CHECK(d.states < 300);
  CHECK_FALSE(d.exhausted);
}
