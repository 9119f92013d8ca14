// Small rules programs the engine plan's tests share: each pass has something to decide
// and something to refuse in one of them.
#pragma once

#include <string>

namespace plan_test {

// Stones on a small board: a plane test of a parameter, a state too wide for planes, pure
// and state-reading defines, and moves with and without parameters.
inline constexpr const char* kStones = R"(
game "Plan";
board 4 x 4;
players 2;
state stone: Cell -> Player?;
state tally: Cell -> 0..40;
state turns: 0..100;

define stones: int = count c in cells where stone[c] != none;
define late: bool = turns > 90;
define mine: int = count c in cells where stone[c] == mover;
define distance(a: Cell, b: Cell): int = abs(x(a) - x(b)) + abs(y(a) - y(b));
define far(a: Cell, b: Cell, c: Cell, d: Cell): bool = distance(a, b) + distance(c, d) > 8;
define seven: int = 7;
define taken(c: Cell): bool = stone[c] != none;

phase play {
  move wait
    requires turns < 100;
  {
    turns += 1;
  }
  move put(c: Cell)
    requires stone[c] == none;
    requires tally[c] != 3;
  {
    stone[c] := mover;
    turns += 1;
  }
}

end when turns == 100 or stones == 16 or mine > 20 or late or (some a in cells: far(a, a, a, a))
  or seven == 8 or (some a in cells: taken(a)) or not can(put);
)";

// The same kind of board with a board rule calling a one-parameter define.
inline constexpr const char* kRuled = R"(
game "Ruled";
board 4 x 4;
players 2;
state stone: Cell -> 0..2;
state turns: 0..20;

define crowd(c: Cell): int = count d in king(c) where stone[d] != 0;
define here(c: Cell): bool = stone[c] != 0;

rule roomy "no stone is surrounded": all c in cells where here(c): crowd(c) < 8;

phase play {
  move put(c: Cell)
    requires stone[c] == 0;
  {
    stone[c] := 1;
    turns += 1;
  }
}

end when turns == 20;
)";

// Defines of a set of cells called by the board rules: with the lines (remembered per set)
// and with every cell's neighbourhood (72 sets, more than a scope remembers). 72 cells:
// sets of two words.
inline constexpr const char* kLined = R"(
game "Lined";
board 8 x 9;
players 2;
state stone: Cell -> 0..2;
state turns: 0..30;

define line_count(l: set of Cell): int = count c in l where stone[c] != 0;
define rival_near(s: set of Cell): bool = some c in s: stone[c] == 2;

rule sparse "no line holds more than three stones": all l in lines: line_count(l) <= 3;
rule apart "no stone of the first player next to one of the second":
  all c in cells where stone[c] == 1: not rival_near(king(c));
rule roomy "no cell with more than two stones around it": all c in cells: line_count(king(c)) <= 2;

phase play {
  move put(c: Cell)
    requires stone[c] == 0 and (x(c) + 2 * y(c)) % 3 == 0;
  {
    stone[c] := if mover == p1 then 1 else 2;
    turns += 1;
  }
}

end when turns == 30;
)";

// Ships kept apart by a board rule over pairs of ships: a rule the plan tabulates.
inline constexpr const char* kShips = R"(
game "Ships";
board 4 x 4;
players 1;
type Ship = 1..3;
state at: Ship -> Cell?;
define ships: set of Ship = 1..3;

rule apart "two ships never share a cell":
  all s in ships, t in ships where s < t: at[s] == none or at[s] != at[t];

phase placing {
  move place(s: Ship, c: Cell)
    requires at[s] == none;
  {
    at[s] := c;
  }
}

end when all s in ships: at[s] != none;
)";

// Maps of one cell on a 3x4 board (board-maps): a step down (a shift by the width), a
// mirror image (a table), one failing where x is 1, one reading the state, one with a loop.
inline constexpr const char* kMaps = R"(game "maps";
board 3 x 4;
players 2;
state owner: Cell -> Player?;
define below(c: Cell): Cell? = cell(y(c) + 1, x(c));
define mirror(c: Cell): Cell? = cell(y(c), width - 1 - x(c));
define odd(c: Cell): Cell? = cell(y(c), 6 / (x(c) - 1));
define held(c: Cell): Cell? = if owner[c] == none then none else c;
define far(c: Cell): Cell? = if (sum d in cells: x(d)) > 0 then c else none;
define taken: set of Cell = {c in cells | owner[c] != none};
phase play {
  move drop(c: Cell)
    requires owner[c] == none;
    requires below(c) == none or below(c) in taken;
  {
    owner[c] := mover;
  }
}
score p = count c in cells where mirror(c) in taken;
)";

// Ships kept apart by rules over pairs of ships (tabulated) beside rules reading more of the
// state (checked by their code): `limit` after the tabulated rules, `room` before them.
inline constexpr const char* kFleetRestAfter = R"(
game "Fleet";
board 4 x 4;
players 1;
type Ship = 1..3;
state at: Ship -> Cell?;
state shots: 0..6;
define ships: set of Ship = 1..3;
define placed: int = count s in ships where at[s] != none;

rule apart "two ships never share a cell":
  all s in ships, t in ships where s < t: at[s] == none or at[s] != at[t];
rule rows "no two ships in one row":
  all s in ships, t in ships where s < t: no c in cells, d in cells: at[s] == c and at[t] == d and y(c) == y(d);
rule inside "no ship in the first column": all s in ships: no c in cells: at[s] == c and x(c) == 0;
rule limit "a ship in the last row only after a shot":
  shots > 0 or (no s in ships, c in cells: at[s] == c and y(c) == 3);

phase placing {
  move place(s: Ship, c: Cell)
    requires at[s] == none;
  {
    at[s] := c;
  }
  move shoot
    requires shots < 6;
  {
    shots += 1;
  }
}

end when placed == 3 and shots >= 2;
)";

/// kFleetRestAfter with a rule by its code before the tabulated ones.
inline std::string fleet_rest_before() {
  std::string text = kFleetRestAfter;
  const std::string first = "rule apart";
  text.insert(text.find(first), "rule room \"no more ships than shots and two\": placed <= shots + 2;\n");
  return text;
}

}  // namespace plan_test
