// Lowering tests: every variant lowers; domains, layout, stages, folding, data files, the
// printed program and the diagnostics only the lowering can give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "compiler/ir/ir_print.h"
#include "lower_test_util.h"

namespace rulebook::compiler {
namespace {

using testing::load_file;
using testing::load_text;

std::string variant(const std::string& rel) { return RULEBOOK_SOURCE_DIR "/variants/" + rel; }

const ir::Move& move_named(const ir::Program& p, const std::string& name) {
  for (const auto& m : p.moves)
    if (m.name == name) return m;
  FAIL("no move " << name);
  return p.moves.front();
}

/// A scratch folder holding rule and data files for one test.
struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    static int counter = 0;
    dir = std::filesystem::temp_directory_path() /
          ("rulebook_lower_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

TEST_CASE("every shipped variant lowers without errors") {
  for (const std::string& path : testing::variant_files()) {
    auto l = load_file(path);
    INFO(testing::short_name(path) << "\n" << l->errors());
    CHECK(l->program);
  }
}

TEST_CASE("the state layout: system variables first, aligned, no overlap, padding counted") {
  for (const std::string& path : testing::variant_files()) {
    auto l = load_file(path);
    INFO(testing::short_name(path));
    REQUIRE(l->program);
    const ir::Program& p = *l->program;
    REQUIRE(p.vars.size() >= size_t(ir::kSystemVars));
    CHECK(p.vars[ir::kVarPhase].name == "phase");
    CHECK(p.vars[ir::kVarMover].name == "mover");
    CHECK(p.vars[ir::kVarOut].name == "out");
    CHECK(p.vars[ir::kVarOver].name == "over");
    CHECK(p.vars[ir::kVarPasses].name == "passes");
    uint32_t end = 0;
    for (size_t i = 0; i < p.vars.size(); ++i) {
      const ir::StateVar& v = p.vars[i];
      INFO(v.name);
      CHECK((i < size_t(ir::kSystemVars)) == (v.origin == ir::StateVar::Origin::System));
      CHECK((v.width == 1 || v.width == 2 || v.width == 4));
      CHECK(v.offset % v.width == 0);
      CHECK(v.offset >= end);
      uint32_t size = p.domains[size_t(v.domain)].size;
      CHECK(uint64_t(size) <= (uint64_t(1) << (8 * v.width)));
      if (v.width > 1) CHECK(size > (1u << (8 * (v.width / 2))));
      uint64_t count = 1;
      for (int k : v.keys) count *= p.domains[size_t(k)].size;
      CHECK(v.count == count);
      end = v.offset + v.count * v.width;
    }
    CHECK(p.state_bytes == end);
  }
}

const char* kShapes = R"(game "shapes";
param N = 4;
board N x N;
players 2;
type Card = {number: 1..9, yellow: bool};
state digit: Cell -> 0..N;
state wide: 0..300;
state flag: bool;
state table: Cell -> Card?;
state hand: Player -> Card -> 0..5;
define complete: bool = (count c in cells where digit[c] != 0) == N * N;
rule not_two "no 2" on place(c, n): n != 2;
rule never_first_row on place(c, n): y(c) > 0 or flag;
phase p {
  move place(c: Cell, n: 1..N)
    requires digit[c] == 0;
    requires not complete;
    requires hand[mover][{number: n, yellow: false}] > 0;
  {
    digit[c] := n;
  }
}
bound most "the most digits a move leaves" over moves place: max count d in cells where digit[d] == n;
)";

TEST_CASE("layout, folded params, stages, records and move properties of a small program") {
  auto l = load_text(kShapes);
  INFO(l->errors());
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  // phase, mover, out[2], over, passes, digit[16] (1 byte each); wide needs 2 bytes and
  // is aligned to them; then flag, table[16], hand[2 x 18].
  REQUIRE(p.vars.size() == 10);
  CHECK(p.vars[5].name == "digit");
  CHECK(p.vars[5].offset == 6);
  CHECK(p.vars[6].name == "wide");
  CHECK(p.vars[6].width == 2);
  CHECK(p.vars[6].offset == 22);
  CHECK(p.vars[7].offset == 24);
  CHECK(p.vars[8].offset == 25);
  CHECK(p.vars[9].count == 36);
  CHECK(p.state_bytes == 25 + 16 + 36);
  CHECK(p.domains[size_t(p.vars[8].domain)].name == "Card?");
  const ir::Domain& card = p.domains[size_t(p.domains[size_t(p.vars[8].domain)].inner)];
  CHECK(card.kind == ir::Domain::Kind::Record);
  CHECK(card.name == "Card");
  CHECK(card.size == 18);
  CHECK(card.field_names == std::vector<std::string>{"number", "yellow"});
  CHECK(card.strides == std::vector<uint32_t>{1, 9});

  const ir::Move& place = move_named(p, "place");
  CHECK(p.domains[size_t(place.params[1].domain)].name == "1..4");
  CHECK(place.requires_stage == std::vector<int>{1, 0, 2});
  REQUIRE(place.checks.size() == 2);
  CHECK(p.rules[size_t(place.checks[0].rule)].name == "not_two");
  CHECK(place.checks_stage == std::vector<int>{2, 1});
  // `complete`: the params are folded (N * N is 16).
  for (const auto& f : p.functions)
    if (f.name == "complete")
      CHECK(print_expr(p, *f.body) == "((count $0 in {r0c0, r0c1, r0c2, r0c3, r1c0, r1c1, r1c2, "
                                      "r1c3, ... 16 in all} where (digit[$0] != 0)) == 16)");

  REQUIRE(p.properties.size() == 1);
  const ir::Property& most = p.properties[0];
  CHECK(most.kind == ir::PropertyKind::Bound);
  CHECK(most.over_moves);
  CHECK(most.maximize);
  CHECK(most.moves == std::vector<int>{0});
  CHECK(most.move_params == std::vector<std::vector<int>>{{0, 1}});
  CHECK(print_expr(p, *most.expr) ==
        "(count $2 in {r0c0, r0c1, r0c2, r0c3, r1c0, r1c1, r1c2, r1c3, ... 16 in all} where "
        "(digit[$2] == $1))");
}

TEST_CASE("domain_index and domain_value are inverse on every domain of every variant") {
  for (const std::string& path : testing::variant_files()) {
    auto l = load_file(path);
    REQUIRE(l->program);
    const auto& ds = l->program->domains;
    for (size_t d = 0; d < ds.size(); ++d) {
      INFO(testing::short_name(path) << " " << ds[d].name);
      for (uint32_t i = 0; i < ds[d].size; ++i)
        REQUIRE(ir::domain_index(ds, int(d), ir::domain_value(ds, int(d), i)) == int64_t(i));
      CHECK(ir::domain_index(ds, int(d), int64_t(1) << 40) == -1);
    }
  }
}

TEST_CASE("a data file is read at lowering time, relative to the rules file") {
  auto l = load_file(variant("sudoku-moyo/moyo.rules"));
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  REQUIRE(p.setups.size() == 1);
  const ir::SetupVar& s = p.setups[0];
  CHECK(s.source == ir::SetupVar::Source::Entries);
  CHECK(s.entries.size() == 6);
  CHECK(s.default_entry == 0);
  // Puzzle 1 starts "...8....9".
  REQUIRE(s.entries[0].size() == 81);
  CHECK(std::vector<uint32_t>(s.entries[0].begin(), s.entries[0].begin() + 9) ==
        std::vector<uint32_t>{0, 0, 0, 8, 0, 0, 0, 0, 9});
}

TEST_CASE("a bad data file is reported with its file and line") {
  Scratch dir;
  dir.write("grid.txt", "# two entries\n12\n3.\n\n1x\n..\n");
  std::string rules = dir.write("game.rules",
                                "game \"g\";\nboard 2 x 2;\nplayers 1;\n"
                                "setup given: Cell -> 0..9 = file \"grid.txt\" entry 1;\n"
                                "phase p { move m { } }\n");
  auto l = load_file(rules);
  CHECK_FALSE(l->program);
  std::string errors = l->errors();
  CHECK_THAT(errors, Catch::Contains("grid.txt:5:2: error: unexpected character 'x' in a data file"));

  Scratch other;
  other.write("grid.txt", "12\n34\n");
  std::string wrong_entry = other.write(
      "game.rules",
      "game \"g\";\nboard 2 x 2;\nplayers 1;\n"
      "setup given: Cell -> 0..9 = file \"grid.txt\" entry 3;\nphase p { move m { } }\n");
  auto w = load_file(wrong_entry);
  CHECK_FALSE(w->program);
  CHECK_THAT(w->errors(), Catch::Contains("game.rules:4:51: error: entry 3 does not exist"));

  std::string missing = other.write(
      "missing.rules",
      "game \"g\";\nboard 2 x 2;\nplayers 1;\n"
      "setup given: Cell -> 0..9 = file \"nowhere.txt\";\nphase p { move m { } }\n");
  auto m = load_file(missing);
  CHECK_FALSE(m->program);
  CHECK_THAT(m->errors(), Catch::Contains("missing.rules:4:34: error: cannot read data file"));
}

TEST_CASE("a grid row written with spaces between its cells is too wide, and the hint says why") {
  Scratch dir;
  dir.write("grid.txt", "1 .\n. 2\n");
  std::string rules = dir.write("game.rules",
                                "game \"g\";\nboard 2 x 2;\nplayers 1;\n"
                                "setup given: Cell -> 0..9 = file \"grid.txt\" entry 1;\n"
                                "phase p { move m { } }\n");
  auto l = load_file(rules);
  CHECK_FALSE(l->program);
  CHECK_THAT(l->errors(), Catch::Contains("grid.txt:1:1: error: a row of 3 cells, the board has 2 columns"));
  CHECK_THAT(l->errors(), Catch::Contains("each character of a row is one cell: write it without spaces"));
}

TEST_CASE("a data file fills any map as a list of values in key order, comments allowed") {
  Scratch dir;
  dir.write("records.txt", "# one entry of four cells\nr0c0 r0c1   # the first two\n. r1c1\n");
  std::string rules = dir.write("game.rules",
                                "game \"g\";\nboard 2 x 2;\nplayers 1;\ntype Field = 1..4;\n"
                                "setup data: Field -> Cell? = file \"records.txt\";\n"
                                "phase p { move m { } }\n");
  auto l = load_file(rules);
  INFO(l->errors());
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  const ir::SetupVar& cells = p.setups[0];
  const int d = p.vars[size_t(cells.var)].domain;
  REQUIRE(cells.entries.size() == 1);
  CHECK(cells.entries[0] == std::vector<uint32_t>{uint32_t(ir::domain_index(p.domains, d, 0)),
                                                  uint32_t(ir::domain_index(p.domains, d, 1)),
                                                  uint32_t(ir::domain_index(p.domains, d, ir::kNone)),
                                                  uint32_t(ir::domain_index(p.domains, d, 3))});

  std::string ints = dir.write("ints.rules",
                               "game \"g\";\nboard 2 x 2;\nplayers 1;\ntype Field = 1..4;\n"
                               "setup data: Field -> 0..9 = file \"numbers.txt\" entry 2;\n"
                               "phase p { move m { } }\n");
  dir.write("numbers.txt", "# two entries of four values\n1 2   # the first two\n3 4\n\n5 6\n7 0\n");
  auto n = load_file(ints);
  INFO(n->errors());
  REQUIRE(n->program);
  const ir::SetupVar& s = n->program->setups[0];
  REQUIRE(s.entries.size() == 2);
  CHECK(s.entries[0] == std::vector<uint32_t>{1, 2, 3, 4});
  CHECK(s.entries[1] == std::vector<uint32_t>{5, 6, 7, 0});
  CHECK(s.default_entry == 1);

  dir.write("numbers.txt", "1 2 3\n\n1 2 3 4 5\n\n1 2 x 4\n");
  auto bad = load_file(ints);
  CHECK_FALSE(bad->program);
  CHECK_THAT(bad->errors(), Catch::Contains("numbers.txt:1:1: error: entry 1 has 3 values, 'data' holds 4"));
  CHECK_THAT(bad->errors(), Catch::Contains("numbers.txt:3:1: error: entry 2 has 5 values, 'data' holds 4"));
  CHECK_THAT(bad->errors(), Catch::Contains("numbers.txt:5:5: error: 'x' is not a value of 0..9"));
}

TEST_CASE("a set whose element type is not finite is a diagnostic, not a crash") {
  auto l = load_text(
      "game \"g\";\nboard 2 x 2;\nplayers 1;\n"
      "define pair(a: int): bool = size({a, a + 1}) == 2;\n"
      "phase p { move m requires pair(1); { } }\n");
  CHECK_FALSE(l->program);
  CHECK_THAT(l->errors(), Catch::Contains("test.rules:4:34: error: a set of int is not finite"));
}

TEST_CASE("a move with more parameters than the engine interface carries is reported") {
  auto l = load_text(
      "game \"g\";\nboard 2 x 2;\nplayers 1;\n"
      "phase p { move m(a: Cell, b: Cell, c: Cell, d: Cell, e: Cell) { } }\n");
  CHECK_FALSE(l->program);
  CHECK_THAT(l->errors(), Catch::Contains("test.rules:4:16: error: a move takes at most 4 parameters"));
}

TEST_CASE("a sequence state needs a known length") {
  auto l = load_text("game \"g\";\nboard 2 x 2;\nplayers 1;\nstate s: seq of 0..3;\n"
                     "phase p { move m { } }\n");
  CHECK_FALSE(l->program);
  CHECK_THAT(l->errors(), Catch::Contains("the length of 's' must be known"));
  auto ok = load_text("game \"g\";\nboard 2 x 2;\nplayers 1;\nstate s: seq of 0..3 = [1, 2, 3];\n"
                      "phase p { move m { } }\n");
  REQUIRE(ok->program);
  CHECK(ok->program->vars.back().count == 3);
  CHECK(ok->program->initial.size() == 2);  // let the list, then a for over its keys
}

TEST_CASE("the printed program is deterministic and names source locations") {
  auto a = load_file(variant("sudoku-moyo/horikomi.rules"));
  auto b = load_file(variant("sudoku-moyo/horikomi.rules"));
  REQUIRE(a->program);
  REQUIRE(b->program);
  std::string text = print_program(*a->program, a->sources);
  CHECK(text == print_program(*b->program, b->sources));
  CHECK_THAT(text, Catch::Contains("  @0    phase: Phase  [1 x 1B] system\n"));
  CHECK_THAT(text, Catch::Contains("moyo.rules:"));
  CHECK_THAT(text, Catch::Contains("horikomi.rules:"));
  CHECK_THAT(text, Catch::Contains("score per player, highest wins (width 10)"));
  CHECK_THAT(text, Catch::Contains("Stone = {number: 1..9 *1, colour: StoneSet *9}  size 27"));
}

}  // namespace
}  // namespace rulebook::compiler
