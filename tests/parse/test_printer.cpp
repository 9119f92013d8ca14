// Formatter tests: canonical layout, minimal parentheses, comments, round trips, idempotence.
#include <catch2/catch.hpp>

#include <filesystem>

#include "dsl/parser.h"
#include "dsl/printer.h"
#include "tests/parse/samples.h"

using namespace rulebook::dsl;

namespace {

struct Parsed {
  SourceSet sources;
  Diagnostics diags;
  std::unique_ptr<File> file;

  explicit Parsed(const std::string& text) {
    uint32_t id = sources.add("t.rules", text);
    file = parse(sources, id, diags);
  }
  std::string errors() const { return diags.render(sources); }
};

/// format(parse(text)), checking that the output parses to the same tree and formats to
/// itself.
std::string format_checked(const std::string& text) {
  Parsed first(text);
  INFO(text);
  REQUIRE(first.errors() == "");
  std::string once = format_file(*first.file);
  Parsed second(once);
  INFO(once);
  REQUIRE(second.errors() == "");
  CHECK(same_tree(*first.file, *second.file));
  CHECK(format_file(*second.file) == once);
  return once;
}

/// The condition of `rule r: text;` formatted alone, checked to parse back the same.
std::string expr_out(const std::string& text) {
  Parsed p("game \"t\";\nrule r: " + text + ";\n");
  INFO(text);
  REQUIRE(p.errors() == "");
  const Expr& e = *std::get<Rule>(p.file->decls[0].body).condition;
  std::string out = format_expr(e);
  Parsed back("game \"t\";\nrule r: " + out + ";\n");
  INFO(out);
  REQUIRE(back.errors() == "");
  CHECK(same_tree(*p.file, *back.file));
  return out;
}

std::string type_out(const std::string& text) {
  Parsed p("game \"t\";\ntype T = " + text + ";\n");
  INFO(text);
  REQUIRE(p.errors() == "");
  return format_type(*std::get<TypeDecl>(p.file->decls[0].body).type);
}

}  // namespace

TEST_CASE("printer: parentheses from precedence, and an and inside an or") {
  CHECK(expr_out("(a + b) * c") == "(a + b) * c");
  CHECK(expr_out("a + (b * c)") == "a + b * c");
  CHECK(expr_out("a - (b - c)") == "a - (b - c)");
  CHECK(expr_out("(a - b) - c") == "a - b - c");
  CHECK(expr_out("(a or b) and c") == "(a or b) and c");
  CHECK(expr_out("a or (b and c)") == "a or (b and c)");  // kept for the reader
  CHECK(expr_out("a and b or c") == "(a and b) or c");
  CHECK(expr_out("a or b or c and d") == "a or b or (c and d)");
  CHECK(expr_out("not (a and b)") == "not (a and b)");
  CHECK(expr_out("(not a) and b") == "not a and b");
  CHECK(expr_out("not (a == b)") == "not a == b");
  CHECK(expr_out("-(a + b)") == "-(a + b)");
  CHECK(expr_out("-(-a)") == "- -a");
  CHECK(expr_out("(-a).f") == "(-a).f");
  CHECK(expr_out("(a == b) == c") == "(a == b) == c");
  CHECK(expr_out("a == (b == c)") == "a == (b == c)");
  CHECK(expr_out("(1..2)..3") == "(1..2)..3");
  CHECK(expr_out("x in (a..b)") == "x in a..b");
  CHECK(expr_out("x not in (S + T)") == "x not in S + T");
  CHECK(expr_out("((f))(x)[(i)].g") == "f(x)[i].g");
  CHECK(expr_out("(a + b).g") == "(a + b).g");
}

TEST_CASE("printer: open-ended expressions are closed where something follows") {
  CHECK(expr_out("(sum x in S: f(x)) + 1") == "(sum x in S: f(x)) + 1");
  CHECK(expr_out("1 + (sum x in S: f(x))") == "1 + (sum x in S: f(x))");  // an operand is closed
  CHECK(expr_out("-(sum x in S: f(x))") == "-(sum x in S: f(x))");
  CHECK(expr_out("(count x in S) > 2") == "(count x in S) > 2");
  CHECK(expr_out("2 < (count x in S)") == "2 < (count x in S)");
  CHECK(expr_out("count x in S where some y in T: p") == "count x in S where (some y in T: p)");
  CHECK(expr_out("(all x in S: p) and q") == "(all x in S: p) and q");
  CHECK(expr_out("q and (all x in S: p)") == "q and (all x in S: p)");
  CHECK(expr_out("all x in S: all y in T: p") == "all x in S: all y in T: p");
  CHECK(expr_out("(if a then b else c) + 1") == "(if a then b else c) + 1");
  CHECK(expr_out("if a then b else c") == "if a then b else c");
  CHECK(expr_out("f((count x in S), y)") == "f((count x in S), y)");
  CHECK(expr_out("f(y, count x in S)") == "f(y, count x in S)");
  CHECK(expr_out("f((count x in S where p), y)") == "f(count x in S where p, y)");
  CHECK(expr_out("all x in (count y in T): p") == "all x in (count y in T): p");
  CHECK(expr_out("(max p in P: s[p])[0]") == "(max p in P: s[p])[0]");
}

TEST_CASE("printer: literals") {
  CHECK(expr_out("{ }") == "{}");
  CHECK(expr_out("{a,b}") == "{a, b}");
  CHECK(expr_out("{(x in S)}") == "{x in S}");
  CHECK(expr_out("{x in S|p(x)}") == "{x in S | p(x)}");
  CHECK(expr_out("{f:1,g:[a,b]}") == "{f: 1, g: [a, b]}");
  CHECK(expr_out("\"q\\\"b\\\\s\\n\"") == "\"q\\\"b\\\\s\\n\"");
  CHECK(expr_out("grid {\"a.\" \"b1\"} with {a = 1, \".\" = none, 0 = 2, \"in\" = 3}") ==
        "grid { \"a.\" \"b1\" } with {a = 1, \".\" = none, 0 = 2, \"in\" = 3}");
  CHECK(expr_out("max(a, b) + min(c, d)") == "max(a, b) + min(c, d)");
  CHECK(expr_out("true and not false or none == x") == "(true and not false) or none == x");
  CHECK(expr_out("grid == x") == "(grid) == x");  // a name, kept from reading `grid {`
}

TEST_CASE("printer: types") {
  CHECK(type_out("Cell->Player?") == "Cell -> Player?");
  CHECK(type_out("set of 0..n-1") == "set of 0..n - 1");
  CHECK(type_out("{a,b}") == "{a, b}");
  CHECK(type_out("{f:int,g:bool}") == "{f: int, g: bool}");
  CHECK(type_out("seq of A -> B -> C") == "seq of A -> B -> C");
  CHECK(type_out("0..(count x in S)") == "0..(count x in S)");
}

TEST_CASE("printer: canonical layout") {
  std::string source =
      "// Header comment.\n"
      "game   \"Demo\" ;\n"
      "param a=1;param b : 1..3 = 2; // trailing b\n"
      "board 3 x 3;\n"
      "// About the state.\n"
      "state owner : Cell -> Player? ;\n"
      "phase main { until count c in cells where owner[c] == none == 0 -> end;\n"
      "  move put ( c : Cell ) requires owner[c]==none ; { owner[c] := mover ;\n"
      "  if a > 1 { again; } else if a < 0 { end; } else { for d in orth(c) where d != c { owner[d] := none; } }\n"
      "  // before the end of the block\n"
      "  }\n"
      "  when stuck { }\n"
      "}\n"
      "rule r on put(c): c != none;\n"
      "// at the end\n";
  CHECK(format_checked(source) ==
        "// Header comment.\n"
        "game \"Demo\";\n"
        "\n"
        "param a = 1;\n"
        "param b: 1..3 = 2;  // trailing b\n"
        "\n"
        "board 3 x 3;\n"
        "\n"
        "// About the state.\n"
        "state owner: Cell -> Player?;\n"
        "\n"
        "phase main {\n"
        "  until (count c in cells where owner[c] == none) == 0 -> end;\n"
        "\n"
        "  move put(c: Cell)\n"
        "    requires owner[c] == none;\n"
        "  {\n"
        "    owner[c] := mover;\n"
        "    if a > 1 {\n"
        "      again;\n"
        "    } else if a < 0 {\n"
        "      end;\n"
        "    } else {\n"
        "      for d in orth(c) where d != c {\n"
        "        owner[d] := none;\n"
        "      }\n"
        "    }\n"
        "    // before the end of the block\n"
        "  }\n"
        "\n"
        "  when stuck {}\n"
        "}\n"
        "\n"
        "rule r on put(c): c != none;\n"
        "// at the end\n");
}

TEST_CASE("printer: comments stay with their declarations, statements and items") {
  std::string source =
      "game \"t\"; // about the game\n"
      "\n"
      "// before the phase\n"
      "phase p { // opening the phase\n"
      "  // before the move\n"
      "  move m { // opening the move\n"
      "    x := 1; // after x\n"
      "    // before y\n"
      "    y := 2;\n"
      "  } // after the move\n"
      "  // before until\n"
      "  until a -> end; // after until\n"
      "  // last in the phase\n"
      "}\n"
      "init {\n"
      "  // only a comment\n"
      "}\n";
  CHECK(format_checked(source) ==
        "game \"t\";  // about the game\n"
        "\n"
        "// before the phase\n"
        "phase p {  // opening the phase\n"
        "  // before the move\n"
        "  move m {   // opening the move\n"
        "    x := 1;  // after x\n"
        "    // before y\n"
        "    y := 2;\n"
        "  }  // after the move\n"
        "\n"
        "  // before until\n"
        "  until a -> end;  // after until\n"
        "  // last in the phase\n"
        "}\n"
        "\n"
        "init {\n"
        "  // only a comment\n"
        "}\n");
}

TEST_CASE("printer: a comment after a block written on one line goes to its opening line") {
  std::string source =
      "game \"t\";\n"
      "phase p {\n"
      "  move m { x := 1; } // sets x\n"
      "  move n requires a; { end; } // ends\n"
      "  when stuck { end; } // no move left\n"
      "  until b -> end; move k { again; } until c -> end; // after until\n"
      "}\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "phase p {\n"
        "  move m {  // sets x\n"
        "    x := 1;\n"
        "  }\n"
        "\n"
        "  move n  // ends\n"
        "    requires a;\n"
        "  {\n"
        "    end;\n"
        "  }\n"
        "\n"
        "  when stuck {  // no move left\n"
        "    end;\n"
        "  }\n"
        "\n"
        "  until b -> end;\n"
        "\n"
        "  move k {\n"
        "    again;\n"
        "  }\n"
        "\n"
        "  until c -> end;  // after until\n"
        "}\n");
}

TEST_CASE("printer: blank lines of the source are kept, one at most") {
  std::string source =
      "// About the file.\n"
      "\n"
      "\n"
      "game \"t\";\n"
      "param a = 1;\n"
      "param b = 2;\n"
      "\n"
      "\n"
      "\n"
      "param c = 3;\n"
      "// A comment with a blank line after it.\n"
      "\n"
      "param d = 4;\n"
      "\n"
      "// A comment after a blank line.\n"
      "param e = 5;\n"
      "define f = 1;\n"  // another kind: a blank line as always
      "phase p {\n"
      "\n"
      "  until a -> end;\n"
      "  until b -> end;\n"
      "\n"
      "  until c -> end;\n"
      "  move m {\n"
      "\n"
      "    x := 1;\n"
      "    y := 2;\n"
      "\n"
      "\n"
      "    // about z\n"
      "    z := 3;\n"
      "    if x > 0 {\n"
      "      x := 0;\n"
      "\n"
      "      y := 0;\n"
      "\n"
      "    }\n"
      "  }\n"
      "\n"
      "}\n";
  CHECK(format_checked(source) ==
        "// About the file.\n"
        "\n"
        "game \"t\";\n"
        "\n"
        "param a = 1;\n"
        "param b = 2;\n"
        "\n"
        "param c = 3;\n"
        "// A comment with a blank line after it.\n"
        "\n"
        "param d = 4;\n"
        "\n"
        "// A comment after a blank line.\n"
        "param e = 5;\n"
        "\n"
        "define f = 1;\n"
        "\n"
        "phase p {\n"
        "  until a -> end;\n"
        "  until b -> end;\n"
        "\n"
        "  until c -> end;\n"
        "\n"
        "  move m {\n"
        "    x := 1;\n"
        "    y := 2;\n"
        "\n"
        "    // about z\n"
        "    z := 3;\n"
        "    if x > 0 {\n"
        "      x := 0;\n"
        "\n"
        "      y := 0;\n"
        "    }\n"
        "  }\n"
        "}\n");
}

TEST_CASE("printer: trailing comments of consecutive lines share a column") {
  std::string source =
      "game \"t\";\n"
      "param pieces = 9; // each player's\n"
      "param mills = 6;      // per move\n"
      "param players_out = 5; // \"az első öt\"\n"
      "\n"
      "param alone = 1; // a blank line ends the run\n"
      "\n"
      "param x = 1; // a line without a comment\n"
      "param longer_name = 2;\n"
      "param y = 3; // ends it too\n"
      "phase p {\n"
      "  move m(c: Cell)\n"
      "    requires c != none; // short\n"
      "    requires owner[c] == none and (some d in orth(c): owner[d] == mover); // too far to share a column\n"
      "    requires a; // run\n"
      "    requires bb; // again\n"
      "  { }\n"
      "}\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "param pieces = 9;       // each player's\n"
        "param mills = 6;        // per move\n"
        "param players_out = 5;  // \"az első öt\"\n"
        "\n"
        "param alone = 1;  // a blank line ends the run\n"
        "\n"
        "param x = 1;  // a line without a comment\n"
        "param longer_name = 2;\n"
        "param y = 3;  // ends it too\n"
        "\n"
        "phase p {\n"
        "  move m(c: Cell)\n"
        "    requires c != none;  // short\n"
        "    requires owner[c] == none and (some d in orth(c): owner[d] == mover);  // too far to share a column\n"
        "    requires a;   // run\n"
        "    requires bb;  // again\n"
        "  {}\n"
        "}\n");
}

TEST_CASE("printer: a long declaration goes on below its = or :, indented by 2") {
  std::string source =
      "game \"t\";\n"
      "define enemy_piece(c: Cell, p: Player): bool = owner[c] != none and (no q in allies(p): "
      "owner[c] == q and q != p);\n"
      "define parallel(s: Ship, t: Ship): bool = placed(s) and placed(t) and ship_length(s) > 1 "
      "and ship_length(t) > 1 and direction(s) == direction(t);\n"
      "define red_through(s: Ship, l: set of Cell): bool = line_colour(l) == red and crosses(s, l) "
      "and (some t in ships_in(l): first_index(t, l) < first_index(s, l)) and (some u in "
      "ships_in(l): first_index(u, l) > first_index(s, l));\n"
      "define dead_place(c: Cell): bool = yellow_spot(c) and not occupied(c) and (repeats_in_square(c) "
      "or (all n in 1..9 where not yellow_on_table(n): number_in_square(c, n)));\n"
      "define line_colour(l: set of Cell): LineColour = if size(ships_in(l)) == 0 then water else "
      "if size(ships_in(l)) == 1 then green else red;\n"
      "define short_chain: int = if a then 1 else if b then 2 else 3;\n"
      "param start_position = min i in 0..deck_size - 1 where order[i] == start_card and i > first_one: i;\n"
      "state longest_possible_name_for_a_state: Cell -> 0..9 = if some_condition_holds then 100 else 20;\n"
      "score p = if last_into_own_shima == p and captures_made_by(p) > threshold_value then 1 else 0 - 1000;\n"
      "end when (count p in players where out(p) and on_board(p) == 0) >= players_out_to_end - 10 + xyz;\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "define enemy_piece(c: Cell, p: Player): bool =\n"
        "  owner[c] != none and (no q in allies(p): owner[c] == q and q != p);\n"
        "define parallel(s: Ship, t: Ship): bool =\n"
        "  placed(s) and placed(t) and ship_length(s) > 1 and ship_length(t) > 1\n"
        "  and direction(s) == direction(t);\n"
        "define red_through(s: Ship, l: set of Cell): bool =\n"
        "  line_colour(l) == red and crosses(s, l)\n"
        "  and (some t in ships_in(l): first_index(t, l) < first_index(s, l))\n"
        "  and (some u in ships_in(l): first_index(u, l) > first_index(s, l));\n"
        "define dead_place(c: Cell): bool =\n"
        "  yellow_spot(c) and not occupied(c)\n"
        "  and (repeats_in_square(c)\n"
        "       or (all n in 1..9 where not yellow_on_table(n): number_in_square(c, n)));\n"
        "define line_colour(l: set of Cell): LineColour =\n"
        "  if size(ships_in(l)) == 0 then water\n"
        "  else if size(ships_in(l)) == 1 then green\n"
        "  else red;\n"
        "define short_chain: int = if a then 1 else if b then 2 else 3;\n"
        "\n"
        "param start_position =\n"
        "  min i in 0..deck_size - 1 where order[i] == start_card and i > first_one: i;\n"
        "\n"
        "state longest_possible_name_for_a_state: Cell -> 0..9 =\n"
        "  if some_condition_holds then 100 else 20;\n"
        "\n"
        "score p =\n"
        "  if last_into_own_shima == p and captures_made_by(p) > threshold_value then 1 else 0 - 1000;\n"
        "\n"
        "end when\n"
        "  (count p in players where out(p) and on_board(p) == 0) >= players_out_to_end - 10 + xyz;\n");
}

TEST_CASE("printer: a long rule, property or metric breaks before on, over or =") {
  std::string source =
      "game \"t\";\n"
      "rule sudoku \"no two pieces of the same player in a row, a column or a box\" on place(c): "
      "all h in houses(c): own_count(h, mover) == 0;\n"
      "rule next_to_a_card \"a card goes beside, above or below a placed card, never diagonally\" "
      "on play(k, c): (all q in square(c) where yellow_at(q): not number_in_square(q, k.number)) "
      "and (not k.yellow or not repeats_in_square(c));\n"
      "rule live_cells_only \"pieces stand only on the part of the board that is left\": all c in "
      "cells where owner[c] != none: live(c);\n"
      "rule corner_rule \"ships must not touch, not even at a corner\": all s in ships, t in ships "
      "where s < t: no a in ship_cells(s), b in ship_cells(t): b == a or b in king(a);\n"
      "bound most_mills \"one move forms at most six mills (the text: 'in theory up to six')\" "
      "over moves step, jump: max mills_formed(from, to, mover);\n"
      "metric penalty_total \"penalty points of all players together\" = sum p in players: "
      "penalty[p] at end;\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "rule sudoku \"no two pieces of the same player in a row, a column or a box\"\n"
        "  on place(c): all h in houses(c): own_count(h, mover) == 0;\n"
        "rule next_to_a_card \"a card goes beside, above or below a placed card, never diagonally\"\n"
        "  on play(k, c):\n"
        "  (all q in square(c) where yellow_at(q): not number_in_square(q, k.number))\n"
        "  and (not k.yellow or not repeats_in_square(c));\n"
        "rule live_cells_only \"pieces stand only on the part of the board that is left\":\n"
        "  all c in cells where owner[c] != none: live(c);\n"
        "rule corner_rule \"ships must not touch, not even at a corner\":\n"
        "  all s in ships, t in ships where s < t:\n"
        "    no a in ship_cells(s), b in ship_cells(t): b == a or b in king(a);\n"
        "\n"
        "bound most_mills \"one move forms at most six mills (the text: 'in theory up to six')\"\n"
        "  over moves step, jump: max mills_formed(from, to, mover);\n"
        "\n"
        "metric penalty_total \"penalty points of all players together\"\n"
        "  = (sum p in players: penalty[p]) at end;\n");
}

TEST_CASE("printer: a long comparison breaks before its operator, a long sum before + or -") {
  std::string source =
      "game \"t\";\n"
      "lemma balance \"per line\" over boards where done: all l in lines: 2 * (if colour(l) == "
      "water then 1 else 0) == (count s in ships where red_through(s, l)) - (count s in ships "
      "where green_through(s, l)) - (count s in ships where crosses(s, l)) + 2;\n"
      "prove short \"fits\" over boards where done: 2 * vv == p - z + 6;\n"
      "prove nested \"a sum inside a product stays whole\" over boards where done: 3 * (first_long_term "
      "+ second_long_term + third_long_term + fourth_long_term) <= fifth_long_term - sixth_long_term;\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "lemma balance \"per line\" over boards where done:\n"
        "  all l in lines:\n"
        "    2 * (if colour(l) == water then 1 else 0)\n"
        "    == (count s in ships where red_through(s, l)) - (count s in ships where green_through(s, l))\n"
        "    - (count s in ships where crosses(s, l)) + 2;\n"
        "prove short \"fits\" over boards where done: 2 * vv == p - z + 6;\n"
        "prove nested \"a sum inside a product stays whole\" over boards where done:\n"
        "  3 * (first_long_term + second_long_term + third_long_term + fourth_long_term)\n"
        "  <= fifth_long_term - sixth_long_term;\n");
}

TEST_CASE("printer: a long list keeps its source lines, filled to the width") {
  std::string source =
      "game \"t\";\n"
      "score p = [\n"
      "  -moyo_cells(p),\n"
      "  shimas_holding(p, 9), shimas_holding(p, 8), shimas_holding(p, 7), shimas_holding(p, 6), "
      "shimas_holding(p, 5), shimas_holding(p, 4),\n"
      "  shimas_holding(p, 3), shimas_holding(p, 2), shimas_holding(p, 1)];\n"
      "define kinds: set of Card = {{number: 1, yellow: true}, {number: 1, yellow: false}, "
      "{number: 2, yellow: true}, {number: 2, yellow: false}};\n"
      "define short: seq of int = [\n  1,\n  2\n];\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "score p = [\n"
        "  -moyo_cells(p),\n"
        "  shimas_holding(p, 9), shimas_holding(p, 8), shimas_holding(p, 7), shimas_holding(p, 6),\n"
        "  shimas_holding(p, 5), shimas_holding(p, 4),\n"
        "  shimas_holding(p, 3), shimas_holding(p, 2), shimas_holding(p, 1)\n"
        "];\n"
        "\n"
        "define kinds: set of Card = {\n"
        "  {number: 1, yellow: true}, {number: 1, yellow: false}, {number: 2, yellow: true},\n"
        "  {number: 2, yellow: false}\n"
        "};\n"
        "define short: seq of int = [1, 2];\n");
}

TEST_CASE("printer: long statements break inside, 4 more columns in") {
  std::string source =
      "game \"t\";\n"
      "phase p {\n"
      "  move m(c: Cell)\n"
      "    requires owner[c] == none and (no d in orth(c): owner[d] == mover and d != c and "
      "some_other_test(d));\n"
      "  {\n"
      "    if first_long_condition(c) and second_long_condition(c) and third_long_condition(c, mover, other) { end; }\n"
      "    the_counter_with_a_long_name := count d in cells where owner[d] == mover and d != c and d in orth(c);\n"
      "  }\n"
      "}\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "phase p {\n"
        "  move m(c: Cell)\n"
        "    requires owner[c] == none\n"
        "        and (no d in orth(c): owner[d] == mover and d != c and some_other_test(d));\n"
        "  {\n"
        "    if first_long_condition(c) and second_long_condition(c)\n"
        "        and third_long_condition(c, mover, other) {\n"
        "      end;\n"
        "    }\n"
        "    the_counter_with_a_long_name :=\n"
        "        count d in cells where owner[d] == mover and d != c and d in orth(c);\n"
        "  }\n"
        "}\n");
}

TEST_CASE("printer: setup values that look like setup forms keep parentheses") {
  CHECK(format_checked("game \"t\";\nsetup s: int = (random(3));\nsetup u: int = random + 1;\n") ==
        "game \"t\";\n\nsetup s: int = (random(3));\nsetup u: int = (random + 1);\n");
}

TEST_CASE("printer: every construct round-trips and is idempotent") {
  std::string once = format_checked(test::kEveryConstruct);
  CHECK(once.find("param layout = grid {\n  \"ab.\"\n  \"ba.\"\n} with {a = 1, b = 2, 0 = none};\n") !=
        std::string::npos);
  format_checked(test::kVariant);
}

TEST_CASE("printer: every shipped variant round-trips and is idempotent") {
  namespace fs = std::filesystem;
  fs::path root = fs::path(RULEBOOK_SOURCE_DIR) / "variants";
  REQUIRE(fs::is_directory(root));
  size_t files = 0;
  for (const auto& game : fs::directory_iterator(root)) {  // variants/*/*.rules
    if (!game.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(game.path())) {
      if (entry.path().extension() != ".rules") continue;
      ++files;
      INFO(entry.path().string());
      SourceSet sources;
      uint32_t id = 0;
      std::string error;
      REQUIRE(sources.load(entry.path().string(), id, error));
      Diagnostics diags;
      auto file = parse(sources, id, diags);
      REQUIRE(diags.render(sources) == "");
      std::string once = format_file(*file);
      uint32_t again_id = sources.add("formatted", once);
      Diagnostics again_diags;
      auto again = parse(sources, again_id, again_diags);
      REQUIRE(again_diags.render(sources) == "");
      CHECK(same_tree(*file, *again));
      CHECK(format_file(*again) == once);
      // Every comment of the file is still there.
      CHECK(again->comments.size() == file->comments.size());
    }
  }
  CHECK(files > 0);
}

TEST_CASE("same_tree: ignores spans and comments, sees every field") {
  Parsed a("game \"t\";\nrule r: a + b; // c\n");
  Parsed b("game \"t\";\n\n  rule r:\n a+b;\n");
  Parsed c("game \"t\";\nrule r: a - b;\n");
  Parsed d("game \"t\";\nrule r \"text\": a + b;\n");
  Parsed e("game \"u\";\nrule r: a + b;\n");
  CHECK(same_tree(*a.file, *b.file));
  CHECK_FALSE(same_tree(*a.file, *c.file));
  CHECK_FALSE(same_tree(*a.file, *d.file));
  CHECK_FALSE(same_tree(*a.file, *e.file));
}

TEST_CASE("printer: a set fixing setup values keeps 'with' between the set and 'where'") {
  CHECK(format_checked("game \"t\";\nprove third over boards with puzzle=3 where done: ok;\n"
                       "find both over moves place with puzzle = 2, deck = 1: ok;\n") ==
        "game \"t\";\n"
        "\n"
        "prove third over boards with puzzle = 3 where done: ok;\n"
        "find both over moves place with puzzle = 2, deck = 1: ok;\n");
}
