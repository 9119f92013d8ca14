// Interpreter tests: seeded random games of every variant, a count of complete Sudoku grids,
// perft, the turn and stuck rules, texts, setup overrides and run-time error reports.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>

#include "compiler/runtime/random.h"
#include "compiler/ir/text.h"
#include "lower_test_util.h"

namespace rulebook::compiler {
namespace {

using testing::load_file;
using testing::load_text;

std::string variant(const std::string& rel) { return RULEBOOK_SOURCE_DIR "/variants/" + rel; }

struct GameResult {
  bool ended = false;
  int plies = 0;
  std::string error;
};

/// A seeded random game: next() % n over the legal moves, at most `cap` plies.
GameResult random_game(const Interpreter& e, uint64_t seed, int cap) {
  GameResult r;
  std::vector<uint8_t> state(e.info().state_bytes);
  engine::Setup setup;
  setup.seed = seed;
  engine::Status s = e.setup(state.data(), setup);
  SplitMix64 rng(seed);
  std::vector<engine::Move> moves;
  while (s.ok && !e.terminal(state.data()) && r.plies < cap) {
    moves.clear();
    s = e.legal_moves(state.data(), moves);
    if (!s.ok) break;
    if (moves.empty()) {
      s = engine::Status::Error("no legal move in a state that is not terminal");
      break;
    }
    s = e.apply(state.data(), moves[rng.below(moves.size())]);
    ++r.plies;
  }
  if (s.ok) {
    std::vector<int64_t> scores;
    s = e.scores(state.data(), scores);
  }
  r.ended = e.terminal(state.data());
  if (!s.ok) r.error = s.message;
  return r;
}

/// A fresh game of `l` set up with seed 1 and the given overrides.
std::vector<uint8_t> start(const testing::Loaded& l, engine::Setup setup = {}) {
  std::vector<uint8_t> state(l.engine->info().state_bytes);
  engine::Status s = l.engine->setup(state.data(), setup);
  INFO(s.message);
  REQUIRE(s.ok);
  return state;
}

std::vector<std::string> legal_texts(const testing::Loaded& l, const std::vector<uint8_t>& state) {
  std::vector<engine::Move> moves;
  engine::Status s = l.engine->legal_moves(state.data(), moves);
  INFO(s.message);
  REQUIRE(s.ok);
  std::vector<std::string> out;
  for (const auto& m : moves) out.push_back(l.engine->move_text(m));
  return out;
}

/// Plays the legal move whose text is `text`.
engine::Status play(const testing::Loaded& l, std::vector<uint8_t>& state, const std::string& text) {
  std::vector<engine::Move> moves;
  engine::Status s = l.engine->legal_moves(state.data(), moves);
  if (!s.ok) return s;
  for (const auto& m : moves)
    if (l.engine->move_text(m) == text) return l.engine->apply(state.data(), m);
  return engine::Status::Error("not legal: " + text);
}

TEST_CASE("every variant plays 20 seeded random games without an engine error") {
  for (const std::string& path : testing::variant_files()) {
    auto l = load_file(path);
    INFO(testing::short_name(path));
    REQUIRE(l->program);
    int ended = 0, capped = 0;
    for (uint64_t g = 1; g <= 20; ++g) {
      GameResult r = random_game(*l->engine, g, 2000);
      INFO("game " << g << " after " << r.plies << " plies");
      CHECK(r.error == "");
      if (!r.error.empty()) break;
      (r.ended ? ended : capped) += 1;
    }
    WARN(testing::short_name(path) << ": " << ended << " ended naturally, " << capped
                                   << " hit the cap of 2000 plies");
  }
}

TEST_CASE("sudoku fill 4x4 reaches exactly the 288 complete grids") {
  auto l = load_file(variant("sudoku-fill/fill-4x4.rules"));
  REQUIRE(l->program);
  const Interpreter& e = *l->engine;
  uint64_t complete = 0, dead = 0;
  std::function<void(const std::vector<uint8_t>&)> dfs = [&](const std::vector<uint8_t>& state) {
    if (e.terminal(state.data())) {
      std::vector<int64_t> scores;
      REQUIRE(e.scores(state.data(), scores).ok);
      (scores.at(0) == 1 ? complete : dead) += 1;
      return;
    }
    std::vector<engine::Move> moves;
    REQUIRE(e.legal_moves(state.data(), moves).ok);
    for (const auto& m : moves) {
      std::vector<uint8_t> next = state;
      REQUIRE(e.apply(next.data(), m).ok);
      dfs(next);
    }
  };
  dfs(start(*l));
  CHECK(complete == 288);
  CHECK(dead == 144);
}

TEST_CASE("perft of garnsi 6x6 with the blocked cells given") {
  auto l = load_file(variant("garnsi-malom/garnsi-6x6.rules"));
  REQUIRE(l->program);
  engine::Setup setup;
  setup.values = {{"blocked", "r0c0,r5c5"}};
  std::vector<uint8_t> state = start(*l, setup);
  const uint64_t expected[] = {34, 1122, 35904};
  for (int depth = 1; depth <= 3; ++depth) {
    uint64_t count = 0;
    engine::Status s = l->engine->perft(state.data(), depth, count);
    INFO("depth " << depth << ": " << s.message);
    REQUIRE(s.ok);
    CHECK(count == expected[depth - 1]);
  }
  // The same blocked cells written as coordinates give the same state.
  setup.values = {{"blocked", "(0,0) (5,5)"}};
  CHECK(start(*l, setup) == state);
  CHECK_THAT(l->engine->board_text(state.data()),
             Catch::Contains("blocked:\n  x . . . . .\n  . . . . . .\n"));
  const engine::Info& info = l->engine->info();
  CHECK(info.score_per_team);
  CHECK(info.score_subjects == 2);
  CHECK(info.phase_names == std::vector<std::string>{"placement", "battle"});
}

TEST_CASE("setup overrides: entries, sets and values, with clear errors") {
  auto l = load_file(variant("garnsi-malom/garnsi-6x6.rules"));
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  SetupValue v = parse_setup(p, "blocked", "r0c1, r2c3");
  REQUIRE(v.ok());
  CHECK(v.indices.size() == 36);
  CHECK(v.indices[1] == 1);
  CHECK(v.indices[15] == 1);
  CHECK(v.indices[0] == 0);
  CHECK(parse_setup(p, "blocked", "r9c9").error == "'r9c9' is not a value of Cell (write a cell as r0c0 or (0,0))");
  CHECK(parse_setup(p, "nothing", "1").error == "no setup variable 'nothing'; the rules have blocked");

  auto moyo = load_file(variant("sudoku-moyo/moyo.rules"));
  REQUIRE(moyo->program);
  SetupValue e = parse_setup(*moyo->program, "puzzle", "2");
  REQUIRE(e.ok());
  CHECK(e.indices == moyo->program->setups[0].entries[1]);
  CHECK_THAT(parse_setup(*moyo->program, "puzzle", "7").error, Catch::Contains("1 to 6"));
  engine::Setup setup;
  setup.values = {{"puzzle", "6"}};
  std::vector<uint8_t> state = start(*moyo, setup);
  CHECK(state != start(*moyo));
}

TEST_CASE("random setups are drawn from the seed's splitmix64 stream") {
  auto l = load_file(variant("garnsi-malom/garnsi-6x6.rules"));
  REQUIRE(l->program);
  const ir::StateVar* found = nullptr;
  for (const auto& v : l->program->vars)
    if (v.name == "blocked") found = &v;
  REQUIRE(found);
  const ir::StateVar& blocked = *found;
  for (uint64_t seed : {1, 2, 77}) {
    engine::Setup setup;
    setup.seed = seed;
    std::vector<uint8_t> state = start(*l, setup);
    // random 2 of cells: a partial Fisher-Yates over the 36 cells in index order.
    std::vector<int> cells(36);
    for (int i = 0; i < 36; ++i) cells[size_t(i)] = i;
    SplitMix64 rng(seed);
    for (int i = 0; i < 2; ++i) std::swap(cells[size_t(i)], cells[size_t(i) + rng.below(uint64_t(36 - i))]);
    for (int c = 0; c < 36; ++c) {
      bool want = c == cells[0] || c == cells[1];
      CHECK((ir::load_index(state.data(), blocked, uint32_t(c)) == 1) == want);
    }
  }
}

const char* kTurns = R"(game "turns";
board 1 x 3;
players 3;
state taken: Cell -> Player?;
state bonus: bool;
phase take {
  move take(c: Cell)
    requires taken[c] == none;
  {
    taken[c] := mover;
    if mover == p1 and not bonus { bonus := true; again; }
  }
  until count c in cells where taken[c] != none == 2 -> last;
}
phase last {
  move drop { eliminate mover; }
}
)";

TEST_CASE("again keeps the turn, eliminated players are skipped, until switches phase") {
  auto l = load_text(kTurns);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> s = start(*l);
  const Interpreter& e = *l->engine;
  CHECK(e.to_move(s.data()) == 0);
  CHECK(legal_texts(*l, s) == std::vector<std::string>{"take(r0c0)", "take(r0c1)", "take(r0c2)"});
  REQUIRE(play(*l, s, "take(r0c1)").ok);
  CHECK(e.to_move(s.data()) == 0);  // again
  REQUIRE(play(*l, s, "take(r0c0)").ok);
  CHECK(e.phase(s.data()) == 1);    // two cells taken
  CHECK(e.to_move(s.data()) == 1);
  REQUIRE(play(*l, s, "drop").ok);  // p2 is out
  CHECK(e.to_move(s.data()) == 2);
  REQUIRE(play(*l, s, "drop").ok);  // p3 is out
  CHECK(e.to_move(s.data()) == 0);
  REQUIRE(play(*l, s, "drop").ok);  // nobody is left
  CHECK(e.terminal(s.data()));
  CHECK(legal_texts(*l, s).empty());
  CHECK_THAT(e.board_text(s.data()), Catch::Contains("taken:\n  p1 p1  .\n"));
  CHECK_THAT(e.board_text(s.data()), Catch::Contains("bonus = true\n"));
}

const char* kStuck = R"(game "stuck";
board 1 x 2;
players 2;
state stone: Cell -> Player?;
state stuck_runs: 0..9;
phase place {
  move place(c: Cell)
    requires stone[c] == none;
    requires x(c) == seat(mover) - 1;
  {
    stone[c] := mover;
  }
  when stuck { stuck_runs += 1; }
}
)";

TEST_CASE("the stuck loop passes the turn, then ends when every player was stuck in a row") {
  auto l = load_text(kStuck);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> s = start(*l);
  const Interpreter& e = *l->engine;
  REQUIRE(play(*l, s, "place(r0c0)").ok);
  REQUIRE(play(*l, s, "place(r0c1)").ok);
  // p1 is stuck (passes 1), then p2 (passes 2), then p1 again: passes == players: the end.
  CHECK(e.terminal(s.data()));
  const ir::StateVar& runs = l->program->vars.back();
  CHECK(ir::load_index(s.data(), runs, 0) == 2);
  CHECK(ir::load_index(s.data(), l->program->vars[ir::kVarPasses], 0) == 2);
}

const char* kRules = R"(game "rules";
board 2 x 2;
players 2;
state stone: Cell -> Player?;
define stones(p: Player): int = count c in cells where stone[c] == p;
rule apart "no two stones of one player side by side":
  all c in cells where stone[c] != none: no d in orth(c): stone[d] == stone[c];
rule first_row "p1 plays on the top row" on put(c): mover != p1 or y(c) == 0;
phase play {
  move put(c: Cell)
    requires stone[c] == none;
  {
    stone[c] := mover;
  }
  move wait
    requires not can(put);
  { }
  until stones(p1) + stones(p2) == 3 -> end;
}
)";

TEST_CASE("move rules, board rules after the move and can() decide legality") {
  auto l = load_text(kRules);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> s = start(*l);
  CHECK(legal_texts(*l, s) == std::vector<std::string>{"put(r0c0)", "put(r0c1)"});
  REQUIRE(play(*l, s, "put(r0c0)").ok);
  CHECK(legal_texts(*l, s) == std::vector<std::string>{"put(r0c1)", "put(r1c0)", "put(r1c1)"});
  REQUIRE(play(*l, s, "put(r1c1)").ok);
  // p1 may only use the top row, and r0c1 would touch r0c0: p1 waits.
  CHECK(legal_texts(*l, s) == std::vector<std::string>{"wait"});
  CHECK_FALSE(l->engine->apply(s.data(), engine::Move{0, {1, 0, 0, 0}}).ok);
  REQUIRE(play(*l, s, "wait").ok);
  // p2's free cells both touch r1c1: the board rule leaves p2 nothing but waiting too.
  CHECK(legal_texts(*l, s) == std::vector<std::string>{"wait"});
  CHECK(l->engine->to_move(s.data()) == 1);
}

const char* kStages = R"(game "stages";
board 1 x 1;
players 1;
state done: bool;
phase p {
  move pick(a: 0..2, b: 0..2)
    requires 6 / a > b;
    requires a > 0;
  {
    done := true;
  }
  until done -> end;
}
)";

TEST_CASE("a condition is tested as soon as its stage is reached, not before") {
  auto l = load_text(kStages);
  REQUIRE(l->program);
  const ir::Move& m = l->program->moves[0];
  CHECK(m.requires_stage == std::vector<int>{2, 1});
  // `a > 0` (stage 1) prunes a = 0 before `6 / a` (stage 2) is ever evaluated.
  std::vector<uint8_t> s = start(*l);
  CHECK(legal_texts(*l, s).size() == 6);
}

const char* kFields = R"(game "fields";
board 1 x 1;
players 1;
type Inner = {a: 0..3, b: bool};
type Outer = {inner: Inner, n: 0..5};
state o: Outer;
state start: 0..5 = 1;
state done: bool;
phase p {
  move m {
    o.inner.a := 2;
    o.n += start + 2;
    o.inner.b := true;
    done := true;
  }
  until done -> end;
}
)";

TEST_CASE("a field is assigned at any depth; initial values are set") {
  auto l = load_text(kFields);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> s = start(*l);
  CHECK_THAT(l->engine->board_text(s.data()), Catch::Contains("o = {inner: {a: 0, b: false}, n: 0}\nstart = 1\n"));
  REQUIRE(play(*l, s, "m").ok);
  CHECK_THAT(l->engine->board_text(s.data()), Catch::Contains("o = {inner: {a: 2, b: true}, n: 3}\n"));
  CHECK(l->engine->terminal(s.data()));
}

/// The error message of the first move of a one-move game, after `plies` moves.
std::string run_error(const std::string& text, int plies) {
  auto l = load_text(text);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> s(l->engine->info().state_bytes);
  engine::Status st = l->engine->setup(s.data(), {});
  for (int i = 0; st.ok && i < plies; ++i) {
    std::vector<engine::Move> moves;
    st = l->engine->legal_moves(s.data(), moves);
    if (st.ok && !moves.empty()) st = l->engine->apply(s.data(), moves[0]);
  }
  return st.message;
}

TEST_CASE("run-time errors name the rule's file, line and column") {
  const std::string head = "game \"e\";\nboard 1 x 3;\nplayers 1;\n";
  // A value stored outside its state's range.
  CHECK(run_error(head + "state n: 0..2;\nphase p {\n  move bump {\n    n += 1;\n  }\n}\n", 3) ==
        "test.rules:7:5: error: value 3 is outside 0..2 (stored in 'n')");
  // Division by zero in a condition.
  CHECK(run_error(head + "state n: 0..2;\nphase p {\n  move m requires 6 / n > 0; { n := 1; }\n}\n", 0) ==
        "test.rules:6:19: error: division by zero");
  // A key that is none.
  CHECK(run_error(head + "state s: 0..2 -> bool;\nstate n: 0..9 = 5;\n"
                         "phase p {\n  move m requires s[n]; { }\n}\n", 0) ==
        "test.rules:7:21: error: key 5 is outside 0..2 (a key of 's')");
  // A field of none.
  CHECK(run_error(head + "type R = {a: 0..3, b: bool};\nstate r: R?;\n"
                         "phase p {\n  move m requires r.a == 0; { }\n}\n", 0) ==
        "test.rules:7:19: error: field 'a' of none");
  // max over nothing.
  CHECK(run_error(head + "define top: int = max c in cells where x(c) > 5: x(c);\n"
                         "phase p {\n  move m requires top > 0; { }\n}\n", 0) ==
        "test.rules:4:19: error: max over nothing");
  // A move whose legality asks about itself: rejected before play, at the can().
  CHECK(load_text(head + "phase p {\n  move m requires not can(m); { }\n}\n")->errors().find(
            "test.rules:5:23: error: can(m) depends on itself") != std::string::npos);
  // random k of S with k > |S|.
  CHECK(run_error(head + "setup two: set of Cell = random 4 of cells;\nphase p {\n  move m { }\n}\n", 0) ==
        "test.rules:4:7: error: random 4 of a set of 3");
}

TEST_CASE("texts of moves, boards and scores") {
  auto l = load_file(variant("sudoku-cards/cards-2p.rules"));
  REQUIRE(l->program);
  std::vector<uint8_t> s = start(*l);
  std::vector<std::string> moves = legal_texts(*l, s);
  REQUIRE_FALSE(moves.empty());
  CHECK_THAT(moves.front(), Catch::StartsWith("play({number: "));
  std::string board = l->engine->board_text(s.data());
  CHECK_THAT(board, Catch::Contains("table:\n"));
  CHECK_THAT(board, Catch::Contains("top = 10\n"));
  CHECK(l->engine->hash(s.data()) == engine::hash_bytes(s.data(), s.size()));
  const engine::Info& info = l->engine->info();
  CHECK(info.players == 2);
  CHECK_FALSE(info.highest_wins);
  REQUIRE_FALSE(info.move_names.empty());
  CHECK(info.move_names[0] == "play");
  CHECK(info.move_arity[0] == 2);

  auto h = load_file(variant("sudoku-moyo/horikomi.rules"));
  REQUIRE(h->program);
  std::vector<uint8_t> hs = start(*h);
  std::vector<int64_t> scores;
  REQUIRE(h->engine->scores(hs.data(), scores).ok);
  CHECK(h->engine->info().score_width == 10);
  CHECK(scores.size() == 20);
  CHECK(scores[0] == -22);  // light's Shima: 36 cells, 14 of them given by puzzle 1
}

}  // namespace
}  // namespace rulebook::compiler
