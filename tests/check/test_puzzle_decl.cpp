// `puzzle NAME: solution c; clue k for x in S where w: d;`: parsed, checked (what each part
// may read), and formatted back to the same tree.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "check_test_util.h"
#include "dsl/parser.h"
#include "dsl/printer.h"

using namespace rulebook::dsl;
using rulebook::dsl::testing::check_text;

namespace {

const char* kGame =
    "game \"T\";\n"
    "board 3 x 4;\n"
    "players 1;\n"
    "setup marked: set of Cell = random 2 of cells;\n"
    "state digit: Cell -> 0..3;\n";

std::vector<std::string> errors_of(const std::string& decls) {
  auto c = check_text(std::string(kGame) + decls);
  std::vector<std::string> out;
  for (const Diagnostic& d : c->diags.all())
    if (d.severity == Severity::Error) out.push_back(d.message);
  return out;
}

}  // namespace

TEST_CASE("a puzzle declaration is checked and formatted back to itself", "[check][puzzle]") {
  const std::string puzzle = "puzzle full \"every cell filled\":\n"
                           "  solution all c in cells: digit[c] != 0;\n"
                           "  clue given for c in marked where x(c) > 0: digit[c] == 1;\n"
                           "  clue pair for c in marked, d in marked where c != d: digit[c] != digit[d];\n"
                           "  clue threes: (count c in cells where digit[c] == 3) == size(marked);\n";
  const std::string text = std::string(kGame) + puzzle;
  auto c = check_text(text);
  INFO(c->errors());
  REQUIRE(c->errors().empty());
  REQUIRE(c->game.properties.size() == 1);
  const Property& p = *c->game.properties[0];
  CHECK(p.kind == PropertyKind::Puzzle);
  REQUIRE(p.clues.size() == 3);
  CHECK(p.clues[0].name.name == "given");
  CHECK(p.clues[0].binders.size() == 1);
  CHECK(p.clues[0].where != nullptr);
  CHECK(p.clues[1].binders.size() == 2);
  CHECK(p.clues[2].binders.empty());

  SourceSet sources;
  Diagnostics diags;
  auto file = parse(sources, sources.add("t.rules", text), diags);
  REQUIRE(!diags.has_errors());
  const std::string once = format_file(*file);
  CHECK(once.substr(once.size() - puzzle.size()) == puzzle);  // the layout it was written in
  auto again = parse(sources, sources.add("u.rules", once), diags);
  REQUIRE(!diags.has_errors());
  CHECK(same_tree(*file, *again));
}

TEST_CASE("a long clue breaks like a property, and stays the same tree", "[check][puzzle]") {
  const std::string text = std::string(kGame) +
                           "puzzle p: solution all c in cells: digit[c] != 0 and digit[c] != 3 and "
                           "(no d in row(c) + column(c) where d != c: digit[d] == digit[c]);\n"
                           "clue given for c in marked where x(c) > 0 and y(c) > 0: digit[c] == 1 and "
                           "(all d in marked where d != c: digit[d] != digit[c]);\n";
  SourceSet sources;
  Diagnostics diags;
  auto file = parse(sources, sources.add("t.rules", text), diags);
  REQUIRE(!diags.has_errors());
  const std::string once = format_file(*file);
  INFO(once);
  for (size_t at = 0, next; at < once.size(); at = next + 1) {
    next = once.find('\n', at);
    CHECK(next - at <= 96);
  }
  auto again = parse(sources, sources.add("u.rules", once), diags);
  REQUIRE(!diags.has_errors());
  CHECK(same_tree(*file, *again));
  CHECK(format_file(*again) == once);
}

TEST_CASE("puzzle, solution and clue stay ordinary names elsewhere", "[check][puzzle]") {
  CHECK(errors_of("define puzzle: int = 3;\ndefine solution(clue: Cell): bool = digit[clue] == puzzle;\n").empty());
}

TEST_CASE("what each part of a puzzle may read", "[check][puzzle]") {
  using Catch::Matchers::Contains;
  SECTION("a solution on no state solves nothing") {
    auto e = errors_of("puzzle p: solution size(marked) == 2;\n");
    REQUIRE(e.size() == 1);
    CHECK_THAT(e[0], Contains("a puzzle's solution must read the state"));
  }
  SECTION("a clue reads setup data") {
    auto e = errors_of("puzzle p: solution all c in cells: digit[c] != 0;\nclue fixed: all c in cells: digit[c] != 2;\n");
    REQUIRE(e.size() == 1);
    CHECK_THAT(e[0], Contains("the clue 'fixed' reads no setup value"));
  }
  SECTION("a clue's instances are known before play") {
    auto e = errors_of("puzzle p: solution all c in cells: digit[c] != 0;\nclue c for d in marked where digit[d] != 0: digit[d] == 1;\n");
    REQUIRE(e.size() == 1);
    CHECK_THAT(e[0], Contains("'digit' changes during play; the binders and 'where' of a clue is fixed before play starts"));
  }
  SECTION("conditions are bools, clue names unique") {
    auto e = errors_of("puzzle p: solution count c in cells where digit[c] == 1;\nclue c for d in marked: digit[d] == 1;\nclue c for d in marked: 1;\n");
    REQUIRE(e.size() == 3);
    CHECK_THAT(e[0], Contains("expected bool"));
    CHECK_THAT(e[1], Contains("two clues named 'c'"));
    CHECK_THAT(e[2], Contains("expected bool"));
  }
}

TEST_CASE("'up to' takes the board and declared symmetries, each once", "[check][puzzle]") {
  const std::string good = "puzzle full:\n"
                           "  solution all c in cells: digit[c] != 0;\n"
                           "  up to board;\n"
                           "  clue given for c in marked: digit[c] == 1;\n";
  auto c = check_text(std::string(kGame) + good);
  INFO(c->errors());
  CHECK(c->errors().empty());
  REQUIRE(c->game.properties.size() == 1);
  REQUIRE(c->game.properties[0]->up_to.size() == 1);
  CHECK(c->game.properties[0]->up_to[0].name == "board");
  // Formatted back as written.
  SourceSet sources;
  Diagnostics diags;
  const std::string text = std::string(kGame) + good;
  auto file = parse(sources, sources.add("t.rules", text), diags);
  REQUIRE(!diags.has_errors());
  const std::string once = format_file(*file);
  CHECK(once.find("  up to board;\n") != std::string::npos);

  const auto bad = errors_of("puzzle full:\n  solution all c in cells: digit[c] != 0;\n  up to rotations, board, board;\n");
  REQUIRE(bad.size() == 2);
  CHECK(bad[0].find("'rotations' is no symmetry") != std::string::npos);
  CHECK(bad[1] == "'up to' names 'board' twice");
  const auto word = errors_of("puzzle full:\n  solution all c in cells: digit[c] != 0;\n  up board;\n");
  REQUIRE(word.size() == 1);
  CHECK(word[0].find("expected 'to' after 'up'") != std::string::npos);
}
