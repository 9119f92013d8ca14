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

TEST_CASE("printer: minimal parentheses from precedence") {
  CHECK(expr_out("(a + b) * c") == "(a + b) * c");
  CHECK(expr_out("a + (b * c)") == "a + b * c");
  CHECK(expr_out("a - (b - c)") == "a - (b - c)");
  CHECK(expr_out("(a - b) - c") == "a - b - c");
  CHECK(expr_out("(a or b) and c") == "(a or b) and c");
  CHECK(expr_out("a or (b and c)") == "a or b and c");
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
  CHECK(expr_out("1 + (sum x in S: f(x))") == "1 + sum x in S: f(x)");
  CHECK(expr_out("(count x in S) > 2") == "(count x in S) > 2");
  CHECK(expr_out("2 < (count x in S)") == "2 < count x in S");
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
  CHECK(expr_out("true and not false or none == x") == "true and not false or none == x");
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
        "\n"
        "  until (count c in cells where owner[c] == none) == 0 -> end;\n"
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
        "  move m {  // opening the move\n"
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

TEST_CASE("printer: long lines break at the top-level and/or") {
  std::string source =
      "game \"t\";\n"
      "rule long_rule_name: first_condition_of_many(c) and second_condition_of_many(c) and "
      "third_condition(c) or fallback_condition(c);\n"
      "define very_long_definition_name(c: Cell, p: Player): bool = "
      "some_long_function_name(c, p) and another_long_function_name(c, p) and "
      "yet_another_function(c);\n"
      "rule described \"a description that is long enough to push the line past the limit\" on "
      "place(c): all d in row(c): d != c;\n"
      "define flat = count s in cells, o in orientations where c in triple(s, o) and owns(p, s, o, extra);\n";
  CHECK(format_checked(source) ==
        "game \"t\";\n"
        "\n"
        "rule long_rule_name:\n"
        "    first_condition_of_many(c) and second_condition_of_many(c) and third_condition(c)\n"
        "    or fallback_condition(c);\n"
        "\n"
        "define very_long_definition_name(c: Cell, p: Player): bool = some_long_function_name(c, p)\n"
        "    and another_long_function_name(c, p)\n"
        "    and yet_another_function(c);\n"
        "\n"
        "rule described \"a description that is long enough to push the line past the limit\"\n"
        "    on place(c): all d in row(c): d != c;\n"
        "\n"
        "define flat =\n"
        "    count s in cells, o in orientations where c in triple(s, o) and owns(p, s, o, extra);\n");
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
  if (!fs::exists(root)) return;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".rules") continue;
    SourceSet sources;
    uint32_t id = 0;
    std::string error;
    REQUIRE(sources.load(entry.path().string(), id, error));
    Diagnostics diags;
    auto file = parse(sources, id, diags);
    INFO(entry.path().string());
    if (diags.has_errors()) continue;  // reported by the parser test
    std::string once = format_file(*file);
    uint32_t again_id = sources.add("formatted", once);
    Diagnostics again_diags;
    auto again = parse(sources, again_id, again_diags);
    CHECK(again_diags.render(sources) == "");
    CHECK(same_tree(*file, *again));
    CHECK(format_file(*again) == once);
  }
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
