// Actions and comprehensions reach the IR as the statements and literals they stand for.
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/ir/ir_print.h"
#include "lower_test_util.h"

using namespace rulebook;
using namespace rulebook::compiler;

namespace {

/// The printed program without its source positions, which differ between two spellings.
std::string program_text(const std::string& rules) {
  auto l = testing::load_text(rules);
  INFO(l->errors());
  REQUIRE(l->program);
  std::string text = print_program(*l->program, l->sources);
  return std::regex_replace(text, std::regex(R"(test\.rules:[0-9]+:[0-9]+)"), "@");
}

/// The scores after the first legal move of a fresh game.
std::vector<int64_t> scores_after_one_move(const std::string& rules) {
  auto l = testing::load_text(rules);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> state(l->engine->info().state_bytes);
  REQUIRE(l->engine->setup(state.data(), engine::Setup{}).ok);
  std::vector<engine::Move> moves;
  REQUIRE(l->engine->legal_moves(state.data(), moves).ok);
  REQUIRE(!moves.empty());
  engine::Status s = l->engine->apply(state.data(), moves[0]);
  INFO(s.message);
  REQUIRE(s.ok);
  std::vector<int64_t> scores;
  REQUIRE(l->engine->scores(state.data(), scores).ok);
  return scores;
}

const char* kHead = R"(game "g";
board 3 x 3;
players 2;
state owner: Cell -> Player?;
state owed: 0..3;
define mills(c: Cell): int = count d in row(c) where owner[d] == mover;
score p = count c in cells where owner[c] == p;
winner highest;
)";

}  // namespace

TEST_CASE("a called action lowers to its body written in place") {
  const std::string with_actions = std::string(kHead) + R"(
action land(from: Cell, to: Cell) {
  owner[from] := none;
  owner[to] := mover;
  owed := mills(to);
  settle();
}
action settle() {
  if owed > 0 and can(take) { again; } else { owed := 0; }
}
phase play {
  move put(c: Cell) requires owner[c] == none; { owner[c] := mover; }
  move slide(from: Cell, to: Cell) requires owner[from] == mover; requires owner[to] == none;
  { land(from, to); }
  move take(c: Cell) requires owed > 0; requires owner[c] != none; {
    owner[c] := none;
    owed -= 1;
    settle();
  }
}
)";
  const std::string written_out = std::string(kHead) + R"(
phase play {
  move put(c: Cell) requires owner[c] == none; { owner[c] := mover; }
  move slide(from: Cell, to: Cell) requires owner[from] == mover; requires owner[to] == none;
  {
    owner[from] := none;
    owner[to] := mover;
    owed := mills(to);
    if owed > 0 and can(take) { again; } else { owed := 0; }
  }
  move take(c: Cell) requires owed > 0; requires owner[c] != none; {
    owner[c] := none;
    owed -= 1;
    if owed > 0 and can(take) { again; } else { owed := 0; }
  }
}
)";
  CHECK(program_text(with_actions) == program_text(written_out));
}

TEST_CASE("an action's arguments are evaluated once, when the call starts") {
  // `bump(count_now)` reads the state before the body changes it: by value, not by name.
  const std::string rules = R"(game "g";
board 1 x 1;
players 2;
state counter: 0..9 = 2;
state total: 0..9;
action bump(v: int) {
  counter := 5;
  total := v;
}
phase play {
  move go { bump(counter); }
}
score p = total * 10 + counter;
winner highest;
)";
  CHECK(scores_after_one_move(rules) == std::vector<int64_t>{25, 25});
}

TEST_CASE("an action called twice in one block keeps each call's locals apart") {
  const std::string rules = R"(game "g";
board 1 x 1;
players 2;
state total: 0..20;
action add_twice(v: int) {
  let w = v + v;
  total += w;
}
phase play {
  move go { add_twice(1); add_twice(total + 1); }
}
score p = total;
winner highest;
)";
  // 0 + 2 = 2, then v = 3: 2 + 6 = 8.
  CHECK(scores_after_one_move(rules) == std::vector<int64_t>{8, 8});
}

TEST_CASE("a comprehension lowers to the literal it lists") {
  const std::string head = R"(game "g";
board 2 x 2;
players 2;
type Card = {number: 1..3, yellow: bool};
state hand: Card -> 0..9;
init {
  for k in deck { hand[k] += 1; }
}
score p = count k in kinds where hand[k] > 1;
winner highest;
phase play { move pass { } }
)";
  const std::string comprehension = head + R"(
define deck: seq of Card = [{number: n, yellow: k == 0} for n in 1..3, k in 0..2];
define kinds: set of Card = {{number: n, yellow: y} for n in 1..3, y in {true, false} where n != 2};
)";
  const std::string literal = head + R"(
define deck: seq of Card = [
  {number: 1, yellow: true}, {number: 1, yellow: false}, {number: 1, yellow: false},
  {number: 2, yellow: true}, {number: 2, yellow: false}, {number: 2, yellow: false},
  {number: 3, yellow: true}, {number: 3, yellow: false}, {number: 3, yellow: false}
];
define kinds: set of Card = {
  {number: 1, yellow: true}, {number: 1, yellow: false},
  {number: 3, yellow: true}, {number: 3, yellow: false}
};
)";
  CHECK(program_text(comprehension) == program_text(literal));
}

TEST_CASE("a run-time error inside a called action points at the action's line") {
  const std::string rules = R"(game "g";
board 1 x 1;
players 2;
state v: 0..3;
action overflow(n: int) {
  v := n;
}
phase play {
  move go { overflow(9); }
}
score p = v;
winner highest;
)";
  auto l = testing::load_text(rules);
  INFO(l->errors());
  REQUIRE(l->program);
  std::vector<uint8_t> state(l->engine->info().state_bytes);
  REQUIRE(l->engine->setup(state.data(), engine::Setup{}).ok);
  std::vector<engine::Move> moves;
  REQUIRE(l->engine->legal_moves(state.data(), moves).ok);
  REQUIRE(moves.size() == 1);
  engine::Status s = l->engine->apply(state.data(), moves[0]);
  CHECK(!s.ok);
  INFO(s.message);
  CHECK(s.message.find("value 9 is outside 0..3") != std::string::npos);
  CHECK(s.message.find("test.rules:6:3") != std::string::npos);  // `v := n;` in the action
}
