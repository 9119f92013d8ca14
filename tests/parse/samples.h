// Sample sources shared by the parser and formatter tests: every construct of the language.
#pragma once

namespace rulebook::dsl::test {

inline constexpr const char* kEveryConstruct = R"rules(// A file that uses every construct of the language.
game "Everything";

param n = 9;
param k: 1..9 = 3;   // trailing
param layout = grid {
  "ab."
  "ba."
} with { a = 1, "b" = 2, 0 = none };
board n x n;
regions box = blocks 3 x 3;
regions shape = grid { "aab" "abb" };
players 4 named { north, east, south, west };
team ns = { north, south };
type Kind = { small, large };
type Piece = { owner: Player, kind: Kind };
type Mapping = Cell -> Player?;
type Nested = set of seq of 0..n - 1;
setup start: set of Cell = random 2 of cells;
setup order: seq of Player = shuffle players;
setup puzzle: Cell -> 0..9 = file "puzzles.txt" entry 3;
setup fixed: int = 4;
state owner: Cell -> Player?;
state placed: Player -> 0..81 = 0;
state flag: bool = true;

init {
  placed[mover] := 1;
  for c in cells where x(c) == 0 {
    owner[c] := none;
  }
}

define free(c: Cell): bool = owner[c] == none;
define total = sum p in players: placed[p];
define f() = 3;
define piece(c: Cell, p: Player): Piece = {owner: p, kind: small};
rule distinct "no two in a row" on place(c), jump(a, b): all d in row(c) where d != c: owner[d] != mover;
rule board_rule: count c in cells <= 81;

phase placement {
  move place(c: Cell)
    requires free(c);
    requires not (c in start);
  {
    owner[c] := mover;
    placed[mover] += 1;
    if placed[mover] > 3 {
      again;
    } else if placed[mover] < 0 {
      eliminate mover;
    } else {
      let t = placed[mover] - 1;
      placed[mover] -= t;
    }
  }
  when stuck {
    end;
  }
  until total >= 81 -> battle;
  until total > 100 -> end;
}

phase battle {
  move jump(a: Cell, b: Cell) {
    owner[b] := owner[a];
    owner[a] := none;
    goto placement;
  }
}

score p = count c in cells where owner[c] == p;
score team t = sum p in members(t): placed[p];
winner highest team;
end when no c in cells: free(c);
prove p1 "a property" over boards of placement where flag: total <= 81;
find f1 over moves place, jump where true: some c in cells: free(c);
derive d1 over boards: total;
lemma l1 over moves: true;
bound b1 over boards: max count c in cells where free(c);
depends p1;
consistent all_rules;
redundant r1: distinct;
metric m1 "pieces" = total when flag;
metric m2 = max p in players: placed[p] at end;
symmetry mirror: swap north <-> south, east <-> west;
define chosen = {c in cells | free(c) and x(c) > 0};
define record = {a: 1, b: [1, 2], c: {}};
define choice = if flag then 1 else 2;
// Nested binders.
define nested = all a in cells, b in row(a) where a != b: some c in cells: c in row(b) or c not in column(a);
define arith = min v in 1..9: max(v, 3) + -v * 2 % 3 & 1 - (4 - 5);
define literals = {north, south} + {} - [true, "s\"q\\ \n", none];
define small_grid = grid { "ab" } with { a = 1, "." = 0 };
rule last: true;
)rules";

inline constexpr const char* kVariant = R"rules(variant "House" extends "base.rules";
override param n = 6;
override move place(c: Cell) { owner[c] := mover; }
remove rule distinct;
remove property p1;
override end when false;
override winner lowest;
)rules";

}  // namespace rulebook::dsl::test
