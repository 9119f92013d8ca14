// Compiler bugs the random programs found, each pinned by the smallest program that showed
// it: the generated engine must compile and agree with the interpreter.
#include <catch2/catch.hpp>

#include "tests/random/differential.h"

using namespace rulebook::testing;

namespace {

DiffOptions options() {
  DiffOptions o;
  o.cache_dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/random/engine-cache";
  return o;
}

void agrees(const std::string& name, const std::string& text) {
  const DiffResult r = run_differential(name, text, options());
  INFO(r.message);
  CHECK(r.kind == DiffResult::Agree);
  CHECK(r.perft_depth >= 1);
}

}  // namespace

TEST_CASE("found: a set compared with != to a constant set compiles", "[random][found]") {
  // Was `(!Bits<1>{..} == g.s_)`: `!` bound to the left set alone (random seed 14).
  agrees("set_ne.rules", R"(game "set ne";
board 2 x 2;
players 1;
state marked: set of Cell;
state differs: bool;
phase play {
  move mark(c: Cell)
    requires c not in marked;
  {
    marked += {c};
    differs := (edge != marked);
  }
}
score p = if differs then 1 else 0;
)");
}

TEST_CASE("found: geometry used only by a metric is emitted", "[random][found]") {
  // Was "'kOrth' was not declared": the tables the engine needs were found by a walk
  // that left the metrics out (random seeds 27, 30, 32, 33).
  agrees("metric_geometry.rules", R"(game "metric geometry";
board 2 x 3;
players 2;
state owner: Cell -> Player?;
phase play {
  move place(c: Cell)
    requires owner[c] == none;
  {
    owner[c] := mover;
  }
}
score p = count c in cells where owner[c] == p;
metric group = largest_group({c in cells | owner[c] == p1}) at end;
metric near = sum c in cells: size(king(c)) + size(diag(c)) when true;
)");
}
