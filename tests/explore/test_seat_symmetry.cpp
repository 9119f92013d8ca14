// Relabellings of the players found by the explorer: swapping the two players of
// tic-tac-toe is a symmetry of the rules that moves the initial state (whose turn it is);
// with three players cycling the seats keeps the turn order and swapping two does not.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/symmetry.h"

using namespace rulebook;

namespace {

struct Seated {
  dsl::SourceSet sources;
  std::unique_ptr<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
  std::vector<uint8_t> root;
  explorer::SymmetryGroup group;
};

std::unique_ptr<Seated> explore_file(const std::string& path) {
  auto g = std::make_unique<Seated>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program(path, g->sources, diags);
  INFO(diags.render(g->sources));
  REQUIRE(p);
  g->program = std::make_unique<ir::Program>(std::move(*p));
  g->engine = std::make_unique<compiler::Interpreter>(*g->program, g->sources);
  g->root.resize(g->program->state_bytes);
  REQUIRE(g->engine->setup(g->root.data(), engine::Setup{}).ok);
  g->group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  return g;
}

const explorer::SymmetryCheck& named(const explorer::SymmetryGroup& g, const std::string& name) {
  for (const auto& c : g.checks)
    if (c.transform.name == name) return c;
  FAIL("no candidate " << name);
  return g.checks.front();
}

}  // namespace

TEST_CASE("seats: tic-tac-toe's two players swap, a symmetry that moves whose turn it is", "[explore][symmetry][seats]") {
  auto g = explore_file(RULEBOOK_SOURCE_DIR "/tests/explore/tictactoe_symmetric.rules");
  const explorer::SymmetryCheck& swap = named(g->group, "seats cross <-> nought");
  INFO(swap.reason);
  // Both tests passed: only the initial state (cross to move) is not kept.
  CHECK(swap.reason == "a symmetry of the rules, but it moves the initial state (its setup)");
  CHECK_FALSE(swap.kept);
  CHECK_FALSE(swap.refuted);
  CHECK(g->group.elements.size() == 8);  // the maps of the square, unchanged
  // The swap exchanges the marks on the board and whose turn it is: the root (cross to
  // move, empty board) maps to the empty board with nought to move.
  std::vector<uint8_t> image(g->program->state_bytes);
  explorer::transform_state(*g->program, swap.transform, g->root.data(), image.data());
  CHECK(g->engine->to_move(g->root.data()) == 0);
  CHECK(g->engine->to_move(image.data()) == 1);
}

TEST_CASE("seats: with three players the cycle keeps the turn order, a swap does not", "[explore][symmetry][seats]") {
  auto g = explore_file(RULEBOOK_SOURCE_DIR "/tests/explore/rules/three_in_a_row_3p.rules");
  const explorer::SymmetryCheck& swap = named(g->group, "seats p1 <-> p2");
  INFO(swap.reason);
  CHECK(swap.reason.find("the turn order tells them apart") != std::string::npos);
  const explorer::SymmetryCheck& cycle = named(g->group, "seats cycled p1 -> p2 -> p3 -> p1");
  INFO(cycle.reason);
  CHECK(cycle.reason == "a symmetry of the rules, but it moves the initial state (its setup)");
  CHECK(g->group.elements.size() == 8);
}

TEST_CASE("seats: a rule that names a player rejects every relabelling moving it", "[explore][symmetry][seats]") {
  // Three players filling a board, p1's marks counting double: the score tells the seats
  // apart.
  std::string text = "game \"Three in a row, p1 favoured\";\nboard 4 x 4;\nplayers 3;\nstate owner: Cell -> Player?;\n"
                     "phase play {\n  move mark(c: Cell)\n    requires owner[c] == none;\n  {\n    owner[c] := mover;\n  }\n}\n"
                     "end when no c in cells: owner[c] == none;\n"
                     "score q = (if q == p1 then 2 else 1) * count c in cells where owner[c] == q;\nwinner highest;\n";
  dsl::SourceSet src2;
  dsl::Diagnostics d2;
  auto p2 = compiler::load_program_text("favoured.rules", text, src2, d2);
  INFO(d2.render(src2));
  REQUIRE(p2);
  compiler::Interpreter e(*p2, src2);
  std::vector<uint8_t> root(p2->state_bytes);
  REQUIRE(e.setup(root.data(), engine::Setup{}).ok);
  const explorer::SymmetryGroup group = explorer::find_symmetries(*p2, src2, e, root.data());
  const explorer::SymmetryCheck& cycle = named(group, "seats cycled p1 -> p2 -> p3 -> p1");
  INFO(cycle.reason);
  CHECK_FALSE(cycle.reason.empty());
  CHECK(cycle.reason.find("a symmetry of the rules") == std::string::npos);
}
