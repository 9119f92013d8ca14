// Lowering tests: every variant lowers; domains, layout, stages, folding, data files, the
// printed program and the diagnostics only the lowering can give.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "compiler/ir_print.h"
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

TEST_CASE("sudoku fill 4x4: layout, folded constants and stages") {
  auto l = load_file(variant("sudoku-fill/fill-4x4.rules"));
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  CHECK(p.state_bytes == 21);
  REQUIRE(p.vars.size() == 6);
  CHECK(p.vars[5].name == "digit");
  CHECK(p.vars[5].offset == 5);
  CHECK(p.vars[5].count == 16);
  CHECK(p.domains[size_t(p.vars[5].domain)].name == "0..4");
  const ir::Move& place = move_named(p, "place");
  REQUIRE(place.params.size() == 1);
  CHECK(p.domains[size_t(place.params[0].domain)].name == "1..4");
  CHECK(place.requires_stage == std::vector<int>{0});
  REQUIRE(place.checks.size() == 1);
  CHECK(p.rules[size_t(place.checks[0].rule)].name == "sudoku_rule");
  CHECK(place.checks_stage == std::vector<int>{1});
  // `complete = filled == N * N`: the params are folded to 16.
  for (const auto& f : p.functions)
    if (f.name == "complete") CHECK(print_expr(p, *f.body) == "(filled() == 16)");
}

TEST_CASE("stages count the move parameters a condition reads") {
  auto l = load_file(variant("garnsi-malom/garnsi-9.rules"));
  REQUIRE(l->program);
  const ir::Move& step = move_named(*l->program, "step");
  CHECK(step.requires_stage == std::vector<int>{0, 1, 2, 2});
  CHECK(step.checks_stage == std::vector<int>{0});  // step_otherwise reads only the mover
  auto cards = load_file(variant("sudoku-cards/cards.rules"));
  REQUIRE(cards->program);
  const ir::Move& play = move_named(*cards->program, "play");
  CHECK(play.requires_stage == std::vector<int>{1, 2});
  CHECK(play.checks_stage == std::vector<int>{2, 2, 2, 2});
  const ir::Move& discard = move_named(*cards->program, "discard");
  CHECK(discard.requires_stage == std::vector<int>{1, 0});
}

TEST_CASE("records and optionals get mixed-radix domains") {
  auto l = load_file(variant("sudoku-cards/cards.rules"));
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  const ir::Domain* card = nullptr;
  for (const auto& d : p.domains)
    if (d.name == "Card") card = &d;
  REQUIRE(card);
  CHECK(card->kind == ir::Domain::Kind::Record);
  CHECK(card->size == 18);
  CHECK(card->field_names == std::vector<std::string>{"number", "yellow"});
  CHECK(card->strides == std::vector<uint32_t>{1, 9});
  for (const auto& v : p.vars) {
    if (v.name == "table") CHECK(p.domains[size_t(v.domain)].name == "Card?");
    if (v.name == "order") {
      CHECK(v.is_seq);
      CHECK(v.count == 54);
    }
    if (v.name == "starting_yellow") CHECK(v.is_set);
  }
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
  CHECK_THAT(text, Catch::Contains("state: 169 bytes"));
  CHECK_THAT(text, Catch::Contains("moyo.rules:"));
  CHECK_THAT(text, Catch::Contains("horikomi.rules:"));
  CHECK_THAT(text, Catch::Contains("score per player, highest wins (width 10)"));
  CHECK_THAT(text, Catch::Contains("Stone = {number: 1..9 *1, colour: StoneSet *9}  size 27"));
  CHECK_THAT(text, Catch::Contains("move 1 place(n: 1..9, c: Cell) in filling"));
}

TEST_CASE("properties over moves bind the moves' parameters as leading locals") {
  auto l = load_file(variant("garnsi-malom/garnsi-9.rules"));
  REQUIRE(l->program);
  const ir::Program& p = *l->program;
  const ir::Property* most = nullptr;
  for (const auto& prop : p.properties)
    if (prop.name == "most_mills") most = &prop;
  REQUIRE(most);
  CHECK(most->kind == "bound");
  CHECK(most->over_moves);
  REQUIRE(most->moves.size() == 2);
  CHECK(p.moves[size_t(most->moves[0])].name == "step");
  CHECK(p.moves[size_t(most->moves[1])].name == "jump");
  CHECK(most->move_params == std::vector<std::vector<int>>{{0, 1}, {0, 1}});
  CHECK(print_expr(p, *most->expr) == "mills_formed($0, $1, mover)");
}

}  // namespace
}  // namespace rulebook::compiler
