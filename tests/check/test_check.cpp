// Name resolution and type checking: resolved types and referents, constants, diagnostics.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "check_test_util.h"
#include "dsl/summary.h"

using namespace rulebook::dsl;
using rulebook::dsl::testing::check_text;
using rulebook::dsl::testing::kPrelude;

namespace {

/// The messages of every error, in order.
/// The errors' messages (warnings have their own tests, test_warnings.cpp).
std::vector<std::string> messages(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const Diagnostic& x : d.all())
    if (x.severity != Severity::Warning) out.push_back(x.message);
  return out;
}

/// The expression of `define NAME ... = <expr>`.
const Expr* define_body(const Game& g, const std::string& name) {
  for (const Define* d : g.defines)
    if (d->name.name == name) return d->body.get();
  return nullptr;
}

std::string define_type(const Game& g, const std::string& name) {
  const Expr* e = define_body(g, name);
  return e ? to_string(g.type_of(*e)) : "<missing>";
}

/// Checks the prelude plus `decls`, and returns the error messages.
std::vector<std::string> errors_of(const std::string& decls) {
  auto c = check_text(std::string(kPrelude) + decls);
  return messages(c->diags);
}

const Expr* find_name(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::Name && e.ident.name == name) return &e;
  for (const auto& a : e.args)
    if (const Expr* f = find_name(*a, name)) return f;
  for (const auto& b : e.binders)
    if (const Expr* f = find_name(*b.domain, name)) return f;
  if (e.where)
    if (const Expr* f = find_name(*e.where, name)) return f;
  return nullptr;
}

}  // namespace

// ------------------------------------------------------------------ resolved types

TEST_CASE("expressions get their types", "[check]") {
  auto c = check_text(std::string(kPrelude) +
                      "state owner: Cell -> Player?;\n"
                      "define neighbours(c: Cell): set of Cell = orth(c) + diag(c);\n"
                      "define mine = {c in cells | owner[c] == mover};\n"
                      "define counted = count c in cells where owner[c] != none;\n"
                      "define full = all c in cells: owner[c] != none;\n"
                      "define digits = 1..9;\n"
                      "define who = owner[cell(0, 0)];\n"  // cell() gives a Cell?: an error
                      "define pair = [1, 2];\n"
                      "define mixed = [1, true];\n"
                      "define picked = if true then p1 else none;\n"
                      "define groups = components(cells);\n"
                      "define biggest = largest_group(cells);\n"
                      "define the_teams = teams;\n"
                      "define crossings(c: Cell) = corners(c);\n"
                      "define rec = {n: 1, c: p2};\n");
  INFO(c->errors());
  CHECK(c->diags.error_count() == 1);  // owner[cell(0, 0)]: cell() gives a Cell?
  const Game& g = c->game;
  CHECK(define_type(g, "neighbours") == "set of Cell");
  CHECK(define_type(g, "mine") == "set of Cell");
  CHECK(define_type(g, "counted") == "int");
  CHECK(define_type(g, "full") == "bool");
  CHECK(define_type(g, "digits") == "set of 1..9");
  CHECK(define_type(g, "pair") == "seq of int");
  CHECK(define_type(g, "mixed") == "[int, bool]");
  CHECK(define_type(g, "picked") == "Player?");
  CHECK(define_type(g, "groups") == "set of set of Cell");
  CHECK(define_type(g, "biggest") == "int");
  CHECK(define_type(g, "the_teams") == "set of Team");
  CHECK(define_type(g, "crossings") == "set of Point");
  CHECK(to_string(g.global("crossings")->type) == "(Cell) -> set of Point");
  CHECK(define_type(g, "rec") == "{n: int, c: Player}");
  CHECK(messages(c->diags)[0] == "expected Cell, found Cell?");
  // A define with parameters has a function type.
  const Symbol* s = g.global("neighbours");
  REQUIRE(s);
  CHECK(s->kind == NameKind::Define);
  CHECK(to_string(s->type) == "(Cell) -> set of Cell");
}

TEST_CASE("names resolve to what they refer to", "[check]") {
  auto c = check_text(std::string(kPrelude) +
                      "param k = 2;\n"
                      "type Colour = {red, blue};\n"
                      "team odd = {p1};\n"
                      "regions box = blocks 1 x 2;\n"
                      "state owner: Cell -> Player?;\n"
                      "state paint: Cell -> Colour;\n"
                      "setup start: Cell = cell(0, 0) ;\n"
                      "define d(x: Cell): bool = owner[x] == p1 and paint[x] == red and k > 1\n"
                      "    and x in box(x) and odd in teams and size(box) == 6;\n"
                      "phase play {\n"
                      "  move put(c: Cell) { let n = 1; for q in orth(c) { owner[q] := mover; } }\n"
                      "}\n");
  INFO(c->errors());
  // `setup start: Cell = cell(0, 0)`: a Cell? is not a Cell.
  CHECK(messages(c->diags) == std::vector<std::string>{"expected Cell, found Cell?"});
  const Game& g = c->game;
  const Expr* body = define_body(g, "d");
  REQUIRE(body);
  auto kind_of = [&](const std::string& name) {
    const Expr* e = find_name(*body, name);
    REQUIRE(e);
    const Symbol* s = g.referent(*e);
    REQUIRE(s);
    return s->kind;
  };
  CHECK(kind_of("owner") == NameKind::State);
  CHECK(kind_of("x") == NameKind::DefineParam);
  CHECK(kind_of("p1") == NameKind::Player);
  CHECK(kind_of("red") == NameKind::EnumMember);
  CHECK(kind_of("k") == NameKind::Param);
  CHECK(kind_of("box") == NameKind::Region);
  CHECK(kind_of("odd") == NameKind::Team);
  CHECK(kind_of("teams") == NameKind::Builtin);
  CHECK(kind_of("size") == NameKind::Builtin);
  CHECK(g.global("red")->index == 0);
  CHECK(g.global("blue")->index == 1);
  CHECK(g.global("p2")->index == 1);
  CHECK(g.global("start")->kind == NameKind::Setup);

  // Inside the move: a move parameter, a binder and a let.
  const Move* put = g.phases.at(0).moves.at(0);
  const Stmt& loop = *put->body.at(1);
  const Expr& target = *loop.body.at(0)->target;  // owner[q]
  const Symbol* q = g.referent(*target.args[1]);
  REQUIRE(q);
  CHECK(q->kind == NameKind::Binder);
  const Symbol* cpar = g.referent(*loop.binders[0].domain->args[1]);  // orth(c)
  REQUIRE(cpar);
  CHECK(cpar->kind == NameKind::MoveParam);
  CHECK(cpar->index == 0);
  CHECK(cpar->move == put);
  CHECK(to_string(g.type_of(*loop.binders[0].domain)) == "set of Cell");
}

TEST_CASE("params are evaluated, also from later params and the board", "[check]") {
  auto c = check_text("game \"T\";\n"
                      "param side = base * 2 + 1;\n"
                      "param base = 4;\n"
                      "param half = width / 2;\n"
                      "param far = max(abs(0 - 7), 3) % 5;\n"
                      "param flag = base > 3 and not false;\n"
                      "param pick = if flag then 10 else 20;\n"
                      "board side x 4;\n"
                      "players base - 1;\n"
                      "regions box = blocks 3 x 2;\n");
  INFO(c->errors());
  CHECK(c->diags.error_count() == 0);
  const Game& g = c->game;
  CHECK(g.param_value("side") == 9);
  CHECK(g.param_value("half") == 2);
  CHECK(g.param_value("far") == 2);
  CHECK(g.param_value("flag") == 1);
  CHECK(g.param_value("pick") == 10);
  CHECK(g.rows == 9);
  CHECK(g.columns == 4);
  CHECK(g.player_names == std::vector<std::string>{"p1", "p2", "p3"});
  REQUIRE(g.regions.size() == 1);
  CHECK(g.regions[0].count == 6);
  REQUIRE(g.regions[0].cell_region.size() == 36);
  CHECK(g.regions[0].cell_region[0] == 0);
  CHECK(g.regions[0].cell_region[3] == 1);   // row 0, column 3
  CHECK(g.regions[0].cell_region[35] == 5);  // row 8, column 3
}

TEST_CASE("players, teams and grid regions", "[check]") {
  auto c = check_text("game \"T\";\n"
                      "board 2 x 3;\n"
                      "players 3 named {north, east, south};\n"
                      "team a = {north, south};\n"
                      "team b = {east};\n"
                      "regions area = grid { \"AAB\" \"C.B\" };\n");
  INFO(c->errors());
  CHECK(c->diags.error_count() == 0);
  const Game& g = c->game;
  CHECK(g.player_names == std::vector<std::string>{"north", "east", "south"});
  REQUIRE(g.teams.size() == 2);
  CHECK(g.teams[0].members == std::vector<int>{0, 2});
  CHECK(g.teams[1].members == std::vector<int>{1});
  REQUIRE(g.regions.size() == 1);
  CHECK(g.regions[0].count == 3);
  CHECK(g.regions[0].labels == std::vector<std::string>{"A", "B", "C"});
  CHECK(g.regions[0].cell_region == std::vector<int>{0, 0, 1, 2, -1, 1});
}

TEST_CASE("grid literals: with-table, digits and dots", "[check]") {
  auto c = check_text("game \"T\";\nboard 2 x 3;\nplayers 2 named {light, dark};\n"
                      "define owners = grid { \"LLD\" \"D.L\" } with { L = light, D = dark };\n"
                      "define numbers = grid { \"123\" \"4.6\" };\n"
                      "define givens: Cell -> 1..9? = grid { \"123\" \"4.6\" };\n");
  INFO(c->errors());
  CHECK(c->diags.error_count() == 0);
  CHECK(define_type(c->game, "owners") == "Cell -> Player?");
  CHECK(define_type(c->game, "numbers") == "Cell -> int");
  CHECK(define_type(c->game, "givens") == "Cell -> 1..9?");
}

TEST_CASE("fields and indexes of an optional read the value", "[check]") {
  auto c = check_text(std::string(kPrelude) +
                      "type Stone = {number: 1..9, light: bool};\n"
                      "state stone: Cell -> Stone?;\n"
                      "define number_at(c: Cell): 0..9 = if stone[c] == none then 0 else stone[c].number;\n");
  INFO(c->errors());
  CHECK(c->diags.error_count() == 0);
}

// ------------------------------------------------------------------ diagnostics, exact text

TEST_CASE("unknown name suggests a close one", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "define n = size(celss);\n");
  CHECK(c->errors() ==
        "test.rules:4:17: error: unknown name 'celss'\n"
        "    4 | define n = size(celss);\n"
        "      |                 ^~~~~\n"
        "help: did you mean 'cells'?\n");
}

TEST_CASE("a cell written as a board writes it is no name: the hint says how to reach it", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "define here: bool = r1c2 in cells;\n");
  CHECK(c->errors() ==
        "test.rules:4:21: error: unknown name 'r1c2'\n"
        "    4 | define here: bool = r1c2 in cells;\n"
        "      |                     ^~~~\n"
        "help: a cell is no name in the rules: bind it, 'some c in cells where y(c) == 1 and x(c) == 2: ...', "
        "or use cell(1, 2), a Cell? that is none off the board\n");
}

TEST_CASE("a type where a set to range over is expected: the hint lists an enum's members", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) +
                      "type Colour = {red, blue};\n"
                      "type Pair = {a: 1..3, b: Colour};\n"
                      "define n: int = count k in Colour where k == red;\n"
                      "define m: int = count k in Pair where true;\n");
  CHECK(c->errors() ==
        "test.rules:6:28: error: unknown name 'Colour'\n"
        "    6 | define n: int = count k in Colour where k == red;\n"
        "      |                            ^~~~~~\n"
        "help: 'Colour' is a type, not a value: to range over its members, list them ({red, blue})\n"
        "test.rules:7:28: error: unknown name 'Pair'\n"
        "    7 | define m: int = count k in Pair where true;\n"
        "      |                            ^~~~\n"
        "help: 'Pair' is a type, not a value: range over a set of its values\n");
}

TEST_CASE("type mismatch says what was expected", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "rule r: 1 + 2;\n");
  CHECK(c->errors() ==
        "test.rules:4:9: error: expected bool, found int\n"
        "    4 | rule r: 1 + 2;\n"
        "      |         ^~~~~\n");
}

TEST_CASE("comparing different types", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "rule r: all c in cells: c == p1;\n");
  CHECK(c->errors() ==
        "test.rules:4:25: error: cannot compare Cell with Player\n"
        "    4 | rule r: all c in cells: c == p1;\n"
        "      |                         ^~~~~~~\n");
}

TEST_CASE("wrong number of arguments", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "define n = orth(cell(0, 0), 2);\n");
  CHECK(c->errors() ==
        "test.rules:4:12: error: 'orth' takes 1 argument, 2 given\n"
        "    4 | define n = orth(cell(0, 0), 2);\n"
        "      |            ^~~~~~~~~~~~~~~~~~~\n");
  CHECK(errors_of("define f(a: int, b: int): int = a + b;\ndefine n = f(1);\n") ==
        std::vector<std::string>{"'f' takes 2 arguments, 1 given"});
  CHECK(errors_of("define n = can();\n") ==
        std::vector<std::string>{"'can' takes 1 or 2 arguments, 0 given"});
}

TEST_CASE("assigning to something that is not state", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "phase p { move m { cells := {}; } }\n");
  CHECK(c->errors() ==
        "test.rules:4:20: error: 'cells' is not state; only 'state' declarations can be assigned\n"
        "    4 | phase p { move m { cells := {}; } }\n"
        "      |                    ^~~~~\n");
}

TEST_CASE("state must be finite", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "state v: Player -> int;\n");
  CHECK(c->errors() ==
        "test.rules:4:20: error: state values must be finite: give a range such as 0..9\n"
        "    4 | state v: Player -> int;\n"
        "      |                    ^~~\n");
  CHECK(errors_of("setup s: int = 3;\n") ==
        std::vector<std::string>{"setup values must be finite: give a range such as 0..9"});
  CHECK(errors_of("phase p { move m(n: int) { } }\n") ==
        std::vector<std::string>{"move parameters must be finite: give a range such as 0..9"});
  CHECK(errors_of("type Big = int;\nstate v: Big;\n") ==
        std::vector<std::string>{"state values must be finite: give a range such as 0..9"});
}

TEST_CASE("blocks must tile the board", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "regions box = blocks 2 x 3;\n");
  CHECK(c->errors() ==
        "test.rules:4:22: error: blocks 2 x 3 do not tile the 3 x 4 board\n"
        "    4 | regions box = blocks 2 x 3;\n"
        "      |                      ^~~~~\n"
        "help: 3 rows is not a multiple of 2\n");
}

TEST_CASE("grid literal shape and characters", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) +
                      "define g = grid { \"LLDD\" \"LLD\" } with { L = p1, D = p2 };\n"
                      "define h = grid { \"1234\" \"12X4\" \"....\" };\n");
  CHECK(c->errors() ==
        "test.rules:4:12: error: the grid has 2 rows, the board has 3\n"
        "    4 | define g = grid { \"LLDD\" \"LLD\" } with { L = p1, D = p2 };\n"
        "      |            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "test.rules:4:26: error: row 2 of the grid has 3 columns, the board has 4\n"
        "    4 | define g = grid { \"LLDD\" \"LLD\" } with { L = p1, D = p2 };\n"
        "      |                          ^~~~~\n"
        "test.rules:5:29: error: unknown character 'X' in the grid\n"
        "    5 | define h = grid { \"1234\" \"12X4\" \"....\" };\n"
        "      |                             ^\n"
        "help: map it with 'with { X = ... }'\n");
}

TEST_CASE("mover only where there is a player to move", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "score p = if mover == p then 1 else 0;\n");
  CHECK(c->errors() ==
        "test.rules:4:14: error: 'mover' is not defined in a score\n"
        "    4 | score p = if mover == p then 1 else 0;\n"
        "      |              ^~~~~\n"
        "help: 'mover' is the player to move: use it in moves, rules, phases and properties\n");
  CHECK(errors_of("phase ph { move m { } }\nscore p = if can(m) then 1 else 0;\n") ==
        std::vector<std::string>{"'can(m)' asks about 'mover', which is not defined in a score"});
  CHECK(errors_of("phase ph { move m { } }\nscore p = if can(m, p) then 1 else 0;\n").empty());
  CHECK(errors_of("param q = seat(mover);\n") ==
        std::vector<std::string>{"'mover' is not defined in a param value"});
  CHECK(errors_of("define mine(c: Cell): bool = c in cells and mover == p1;\n"
                  "define corner: Cell = 0;\n"
                  "state s: bool = mine(corner);\n")
            .at(1) == "'mine' uses 'mover', which is not defined in an initial state value");
  // In moves, rules, phases, defines and properties it is fine.
  CHECK(errors_of("state owner: Cell -> Player?;\n"
                  "rule r on m(c): owner[c] != mover;\n"
                  "phase ph { move m(c: Cell) requires owner[c] == none; { owner[c] := mover; }\n"
                  "  when stuck { eliminate mover; } until can(m, mover) -> ph; }\n"
                  "end when not can(m);\n"
                  "prove pr over boards: mover in players;\n")
            .empty());
}

TEST_CASE("compile-time contexts reject state", "[check][diagnostics]") {
  CHECK(errors_of("state s: 0..3;\nparam q = s + 1;\n") ==
        std::vector<std::string>{"'s' changes during play; a param value must be a compile-time constant"});
  CHECK(errors_of("setup s: 1..3 = 2;\nstate t: 0..s;\n") ==
        std::vector<std::string>{"'s' is chosen at setup; a range bound must be a compile-time constant"});
  CHECK(errors_of("state s: 0..3;\nsetup u: 0..3 = s;\n") ==
        std::vector<std::string>{"'s' changes during play; a setup value is fixed before play starts"});
  // Setups may start state.
  CHECK(errors_of("setup s: 1..3 = 2;\nstate t: 0..3 = s;\n").empty());
  CHECK(errors_of("param a = b;\nparam b = a;\n") ==
        std::vector<std::string>{"'a' is defined in terms of itself"});
}

TEST_CASE("play statements only in moves and stuck blocks", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "init { again; eliminate p1; goto nowhere; }\n");
  CHECK(messages(c->diags) == std::vector<std::string>{
                                  "'again' can only be used in a move or a 'when stuck' block",
                                  "'eliminate' can only be used in a move or a 'when stuck' block",
                                  "'goto' can only be used in a move or a 'when stuck' block",
                                  "unknown phase 'nowhere'"});
}

TEST_CASE("unknown phases in goto and until", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) +
                      "phase opening { move m { goto batle; } until true -> closing; }\n"
                      "phase battle { move n { } until false -> end; }\n");
  CHECK(c->errors() ==
        "test.rules:4:31: error: unknown phase 'batle'\n"
        "    4 | phase opening { move m { goto batle; } until true -> closing; }\n"
        "      |                               ^~~~~\n"
        "help: did you mean 'battle'?\n"
        "test.rules:4:54: error: unknown phase 'closing'\n"
        "    4 | phase opening { move m { goto batle; } until true -> closing; }\n"
        "      |                                                      ^~~~~~~\n");
}

TEST_CASE("move rules name known moves with the right parameters", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) +
                      "phase p { move place(c: Cell, n: 1..9) { } }\n"
                      "rule a on plase(c, n): true;\n"
                      "rule b on place(c): true;\n"
                      "rule ok on place(c, n): n > 0 and c in cells;\n");
  CHECK(c->errors() ==
        "test.rules:5:11: error: unknown move 'plase'\n"
        "    5 | rule a on plase(c, n): true;\n"
        "      |           ^~~~~\n"
        "help: did you mean 'place'?\n"
        "test.rules:6:11: error: move 'place' has 2 parameters, 1 given\n"
        "    6 | rule b on place(c): true;\n"
        "      |           ^~~~~~~\n"
        "test.rules:4:16: note: 'place' is declared here\n"
        "    4 | phase p { move place(c: Cell, n: 1..9) { } }\n"
        "      |                ^~~~~\n");
}

TEST_CASE("a rule on several moves is checked for each, errors once", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) +
                      "phase p { move a(c: Cell) { } move b(c: Point) { } }\n"
                      "rule r on a(c), b(c): c in edge and 1;\n");
  // `c in edge` fails only for b (a Point); `and 1` fails for both but is reported once.
  CHECK(messages(c->diags) == std::vector<std::string>{"expected bool, found int",
                                                       "cannot look for Point in set of Cell"});
}

TEST_CASE("calling, indexing and fields", "[check][diagnostics]") {
  CHECK(errors_of("state owner: Cell -> Player?;\ndefine v = owner(p1);\n") ==
        std::vector<std::string>{"'owner' is not a function"});
  auto c = check_text(std::string(kPrelude) + "state owner: Cell -> Player?;\ndefine v = owner(p1);\n");
  REQUIRE(c->diags.all().size() == 1);
  CHECK(c->diags.all()[0].hint == "'owner' is a map: index it with owner[...]");
  CHECK(errors_of("define v = width[1];\n") ==
        std::vector<std::string>{"cannot index a value of type int"});
  CHECK(errors_of("type S = {length: 1..4};\nstate s: S;\ndefine v = s.lenght;\n") ==
        std::vector<std::string>{"no field 'lenght' in {length: 1..4}"});
  auto f = check_text(std::string(kPrelude) + "type S = {length: 1..4};\nstate s: S;\ndefine v = s.lenght;\n");
  CHECK(f->diags.all().at(0).hint == "did you mean 'length'?");
  CHECK(errors_of("define v = orth;\n") ==
        std::vector<std::string>{"'orth' is a function; call it with 1 argument"});
  CHECK(errors_of("define v = x(p1);\n") ==
        std::vector<std::string>{"expected Cell or Point, found Player"});
  CHECK(errors_of("define v = size(3);\n") ==
        std::vector<std::string>{"expected set of T, seq of T or T -> U, found int"});
}

TEST_CASE("duplicate names across kinds", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "state owner: Cell -> Player?;\ndefine owner = 1;\n");
  CHECK(c->errors() ==
        "test.rules:5:8: error: 'owner' is already defined\n"
        "    5 | define owner = 1;\n"
        "      |        ^~~~~\n"
        "test.rules:4:7: note: first defined here as a state\n"
        "    4 | state owner: Cell -> Player?;\n"
        "      |       ^~~~~\n");
  CHECK(errors_of("state edge: bool;\n") == std::vector<std::string>{"'edge' is a built-in name"});
  CHECK(errors_of("define p1 = 3;\n") == std::vector<std::string>{"'p1' is already defined"});
  // One enum written twice is one type; a clash with another enum is not.
  CHECK(errors_of("state a: {red, blue};\nstate b: {red, blue};\ndefine same = a == b;\n").empty());
  CHECK(errors_of("state a: {red, blue};\nstate b: {red, green};\n") ==
        std::vector<std::string>{"'red' is already defined"});
  CHECK(errors_of("define f(a: int, a: int): int = a;\n") ==
        std::vector<std::string>{"'a' is already defined"});
}

TEST_CASE("properties, depends, redundant and symmetry", "[check][diagnostics]") {
  CHECK(errors_of("rule r: true;\nprove p over boards: true;\ndepends p;\nredundant q: r;\n").empty());
  CHECK(errors_of("prove p over boards: true;\ndepends pp;\n") ==
        std::vector<std::string>{"unknown property 'pp'"});
  CHECK(errors_of("rule tip: true;\nredundant q: tp;\n") == std::vector<std::string>{"unknown rule 'tp'"});
  CHECK(errors_of("prove p over boards of nowhere: true;\n") ==
        std::vector<std::string>{"unknown phase 'nowhere'"});
  CHECK(errors_of("bound b over boards: max true;\n") ==
        std::vector<std::string>{"expected int, found bool"});
  CHECK(errors_of("symmetry s: swap p1 <-> p3;\n") == std::vector<std::string>{"unknown name 'p3'"});
  CHECK(errors_of("team t = {p1};\nsymmetry s: swap p1 <-> t;\n") ==
        std::vector<std::string>{"cannot swap 'p1' (a player) with 't' (a team)"});
  // Over moves, the parameters the moves share are in scope.
  CHECK(errors_of("phase ph { move a(c: Cell) { } move b(c: Cell, d: Cell) { } }\n"
                  "find f over moves a, b where c in edge: true;\n"
                  "find g over moves a, b: d in edge;\n") ==
        std::vector<std::string>{"unknown name 'd'"});
}

TEST_CASE("scores and winners", "[check][diagnostics]") {
  CHECK(errors_of("score p = [seat(p), 2];\nwinner lowest;\n").empty());
  CHECK(errors_of("score p = p;\n") ==
        std::vector<std::string>{"a score must be an int or a list [a, b, ...] of ints, found Player"});
  CHECK(errors_of("winner highest team;\n") == std::vector<std::string>{"'winner ... team' needs teams"});
  CHECK(errors_of("team a = {p1};\nteam b = {p2};\nscore team t = size(members(t));\nwinner highest team;\n")
            .empty());
}

TEST_CASE("setups: random, shuffle, file", "[check][diagnostics]") {
  CHECK(errors_of("setup blocked: set of Cell = random 2 of cells;\n"
                  "setup order: seq of Player = shuffle players;\n"
                  "setup puzzle: Cell -> 0..9 = file \"p.txt\" entry 2;\n")
            .empty());
  CHECK(errors_of("setup blocked: set of Player = random 2 of cells;\n") ==
        std::vector<std::string>{"'random' gives a set of Cell, but 'blocked' is set of Player"});
}

TEST_CASE("many errors per run, no cascades", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) +
                      "define a = nope + 1;\n"          // unknown name: one error, not two
                      "define b = a * 2 and true;\n"     // a is an error type: nothing more
                      "rule r: orth(3);\n"               // bad argument: one error
                      "rule s: size(cells) == p1;\n");   // cannot compare
  CHECK(messages(c->diags) == std::vector<std::string>{"unknown name 'nope'", "expected Cell, found int",
                                                       "cannot compare int with Player"});
}

TEST_CASE("one value where a map needs one per key: the hint says how to start every key", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "state stock: Player -> 0..4 = 4;\n");
  REQUIRE(c->diags.all().size() == 1);
  CHECK(c->diags.all()[0].message == "expected Player -> 0..4, found int");
  CHECK(c->diags.all()[0].hint ==
        "a Player -> 0..4 holds a value for every key; to start every key at the same value, assign it in "
        "'init { for k in players { NAME[k] := ...; } }'");
  auto b = check_text(std::string(kPrelude) + "state marks: Cell -> bool = true;\n");
  REQUIRE(b->diags.all().size() == 1);
  CHECK(b->diags.all()[0].hint.find("for k in cells") != std::string::npos);
  CHECK(b->diags.all()[0].hint.find("as a grid") != std::string::npos);
  // A value that is no value of the map either: no such hint.
  auto n = check_text(std::string(kPrelude) + "state stock: Player -> 0..4 = true;\n");
  REQUIRE(n->diags.all().size() == 1);
  CHECK(n->diags.all()[0].hint.empty());
}

TEST_CASE("ranges check constant values", "[check][diagnostics]") {
  CHECK(errors_of("state v: 0..9 = 12;\n") == std::vector<std::string>{"12 is outside 0..9"});
  CHECK(errors_of("param n: 1..4 = 2 + 3;\n") == std::vector<std::string>{"5 is outside 1..4"});
  CHECK(errors_of("state v: 5..1;\n") == std::vector<std::string>{"empty range 5..1"});
}

TEST_CASE("board, players and teams must make sense", "[check][diagnostics]") {
  CHECK(errors_of("state s: 0..3;\nregions r = blocks s x 1;\n") ==
        std::vector<std::string>{"'s' changes during play; a region size must be a compile-time constant"});
  auto c = check_text("game \"T\";\nboard 0 x 3;\nplayers 2 named {a, b, c};\n");
  CHECK(messages(c->diags) ==
        std::vector<std::string>{"the board needs at least one row", "3 players named, but the game has 2 players"});
  CHECK(errors_of("team t = {p1, p9};\nteam u = {p1};\n") ==
        std::vector<std::string>{"unknown player 'p9'", "'p1' is already in team 't'"});
  auto t = check_text(std::string(kPrelude) + "team t = {p3};\n");
  CHECK(t->diags.all().at(0).hint == "did you mean 'p1'?");  // the first of equally close names
}

TEST_CASE("cycles among types and defines", "[check][diagnostics]") {
  CHECK(errors_of("type A = set of A;\nstate s: A;\n") ==
        std::vector<std::string>{"type 'A' is defined in terms of itself"});
  CHECK(errors_of("define f(n: 0..3): int = f(n);\n") ==
        std::vector<std::string>{"'f' is defined in terms of itself"});
  // Order does not matter otherwise: a define may use one declared later.
  CHECK(errors_of("define a: int = b + 1;\ndefine b: int = 2;\n").empty());
}

TEST_CASE("unknown types and moves suggest close names", "[check][diagnostics]") {
  auto c = check_text(std::string(kPrelude) + "state s: Cel;\nphase p { move place { } }\nrule r: can(plce);\n");
  CHECK(messages(c->diags) == std::vector<std::string>{"unknown type 'Cel'", "unknown move 'plce'"});
  CHECK(c->diags.all().at(0).hint == "did you mean 'Cell'?");
  CHECK(c->diags.all().at(1).hint == "did you mean 'place'?");
}

TEST_CASE("constants fold sizes of built-in sets", "[check]") {
  auto c = check_text(std::string(kPrelude) +
                      "regions box = blocks 1 x 2;\n"
                      "param n = size(cells) + size(players) * 100;\n"
                      "param boxes = size(box);\n"
                      "param unknown = count c in cells where x(c) == 0;\n"
                      "state s: 0..n;\n");
  INFO(c->errors());
  CHECK(c->diags.error_count() == 0);
  CHECK(c->game.param_value("n") == 212);
  CHECK(c->game.param_value("boxes") == 6);
  CHECK_FALSE(c->game.param_value("unknown").has_value());  // constant, but not folded here
  const Symbol* s = c->game.global("s");
  REQUIRE(s);
  CHECK(to_string(s->type) == "0..212");
  // Game::constant folds any checked expression the same way.
  const Param* n = c->game.params.at(0);
  CHECK(c->game.constant(*n->value) == 212);
}

TEST_CASE("summary of a game", "[check][summary]") {
  auto c = check_text("game \"Tiny\";\n"
                      "param n = 4;\n"
                      "board n x n;\n"
                      "regions box = blocks 2 x 2;\n"
                      "players 2 named {light, dark};\n"
                      "state owner: Cell -> Player?;\n"
                      "rule free on place(c): owner[c] == none;\n"
                      "rule full: true;\n"
                      "phase play { move place(c: Cell) { owner[c] := mover; } }\n"
                      "winner highest;\n"
                      "find f over boards: true;\n");
  INFO(c->errors());
  REQUIRE(c->diags.error_count() == 0);
  std::string s = describe(c->game);
  CHECK(s ==
        "Tiny\n"
        "  game \"Tiny\" in test.rules\n"
        "board: 4 x 4\n"
        "regions box = blocks 2 x 2 (4 regions)\n"
        "players: 2 (light, dark)\n"
        "param n = 4\n"
        "state owner: Cell -> Player?\n"
        "phase play (play starts here)\n"
        "  move place(c: Cell)\n"
        "board rules: full\n"
        "move rules: free on place\n"
        "winner: highest\n"
        "find f over boards\n");
  CHECK(describe(c->game) == s);  // deterministic
}

// ------------------------------------------------------------------ the shipped variants

TEST_CASE("every shipped variant checks without errors", "[variants]") {
  namespace fs = std::filesystem;
  fs::path root = fs::path(RULEBOOK_SOURCE_DIR) / "variants";
  std::vector<fs::path> files;
  if (fs::exists(root)) {
    for (const auto& dir : fs::directory_iterator(root)) {
      if (!dir.is_directory()) continue;
      for (const auto& f : fs::directory_iterator(dir.path()))
        if (f.path().extension() == ".rules") files.push_back(f.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    SourceSet sources;
    Diagnostics diags;
    Game g = check_file(f.string(), sources, diags);
    INFO(diags.render(sources));
    CHECK(diags.error_count() == 0);
    CHECK_FALSE(g.phases.empty());
    CHECK(g.rows.has_value());
  }
}
