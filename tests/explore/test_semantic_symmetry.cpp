// Board symmetry from what the rules compute: tic-tac-toe written with coordinates keeps the
// 8 maps of the square (765 classes of 5,478 states), and a map that breaks a value the
// rules compute is rejected with the reason, wherever the rules compute it.
#include <fstream>
#include <numeric>
#include <set>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/enumerate.h"
#include "explorer/symmetry.h"

using namespace rulebook;

namespace {

struct Loaded {
  dsl::SourceSet sources;
  std::unique_ptr<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
  std::vector<uint8_t> root;
};

std::unique_ptr<Loaded> load_text(const std::string& name, const std::string& text) {
  auto g = std::make_unique<Loaded>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(name, text, g->sources, diags);
  INFO(diags.render(g->sources));
  REQUIRE(p);
  g->program = std::make_unique<ir::Program>(std::move(*p));
  g->engine = std::make_unique<compiler::Interpreter>(*g->program, g->sources);
  g->root.resize(g->program->state_bytes);
  REQUIRE(g->engine->setup(g->root.data(), engine::Setup{}).ok);
  return g;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::unique_ptr<Loaded> load_file(const std::string& path) { return load_text(path, read(path)); }

const explorer::SymmetryCheck* check_named(const explorer::SymmetryGroup& g, const std::string& name) {
  for (const auto& c : g.checks)
    if (c.transform.name == name) return &c;
  return nullptr;
}

/// The whole game explored with the group found: distinct states and classes, all depths.
void require_765_of_5478(Loaded& g) {
  explorer::SymmetryGroup group = explorer::find_symmetries(*g.program, g.sources, *g.engine, g.root.data());
  for (const auto& c : group.checks) INFO(c.transform.name << ": " << c.reason);
  CHECK(group.elements.size() == 8);
  explorer::ExploreOptions opt;
  opt.threads = 1;
  explorer::ExploreResult r = explorer::explore(*g.program, *g.engine, g.root.data(), group.elements, opt);
  REQUIRE(r.status.ok);
  CHECK(r.stopped.empty());
  uint64_t distinct = 0, classes = 0;
  for (const auto& d : r.depths) {
    distinct += d.distinct;
    classes += d.symmetric;
  }
  CHECK(distinct == 5478);
  CHECK(classes == 765);
}

}  // namespace

TEST_CASE("tic-tac-toe with coordinate diagonals keeps the 8 maps: 765 classes of 5,478",
          "[explore][symmetry][semantic]") {
  auto g = load_file("tests/explore/rules/tictactoe_coordinates.rules");
  require_765_of_5478(*g);
}

TEST_CASE("tic-tac-toe with every line a coordinate test keeps the 8 maps",
          "[explore][symmetry][semantic]") {
  auto g = load_file("tests/explore/rules/tictactoe_diagonal_tests.rules");
  require_765_of_5478(*g);
}

TEST_CASE("tic-tac-toe with lines along directions keeps the 8 maps", "[explore][symmetry][semantic]") {
  auto g = load_file("bench/plain/tictactoe.rules");
  require_765_of_5478(*g);
}

TEST_CASE("a map that breaks a value the rules compute is rejected, naming it",
          "[explore][symmetry][semantic]") {
  // Only the main diagonal wins: the half turn and the two transposes keep it, a quarter
  // turn or a mirror does not.
  std::string text = read("tests/explore/rules/tictactoe_coordinates.rules");
  const std::string both = "{diagonal, anti_diagonal}";
  text.replace(text.find(both), both.size(), "{diagonal}");
  auto g = load_text("one_diagonal.rules", text);
  explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  std::vector<std::string> kept;
  for (const auto& t : group.elements) kept.push_back(t.name);
  CHECK(kept == std::vector<std::string>{"identity", "rotate 180", "transpose", "anti-transpose"});
  const explorer::SymmetryCheck* r = check_named(group, "rotate 90");
  REQUIRE(r);
  CHECK(!r->kept);
  CHECK(r->reason.find("not mapped onto itself") != std::string::npos);
  CHECK(r->reason.find("one_diagonal.rules:") != std::string::npos);

  // A first-empty-cell order read through coordinates: no map keeps it, and play agrees.
  auto order = load_text("order.rules", R"(game "row-major order";
board 3 x 3;
players 1;
state owner: Cell -> Player?;
define position(c: Cell): int = y(c) * 3 + x(c);
define first_empty(c: Cell): bool = owner[c] == none and (all d in cells where position(d) < position(c): owner[d] != none);
phase play {
  move place(c: Cell) requires first_empty(c); { owner[c] := mover; }
}
score p = 0;
winner highest;
)");
  group = explorer::find_symmetries(*order->program, order->sources, *order->engine, order->root.data());
  CHECK(group.elements.size() == 1);
  for (const auto& c : group.checks) {
    if (c.transform.is_identity()) continue;
    INFO(c.transform.name);
    CHECK(!c.reason.empty());
    CHECK(explorer::check_structure(*order->program, order->sources, c.transform) == c.reason);
  }
}

TEST_CASE("a define counts once play reaches it, and a state value read through a coordinate",
          "[explore][symmetry][semantic]") {
  // The unused define `left_column` of the file, now a condition of the move: only the
  // mirror that keeps columns keeps the game.
  std::string text = read("tests/explore/rules/tictactoe_coordinates.rules");
  const std::string place = "requires owner[c] == none;";
  text.replace(text.find(place), place.size(), place + "\n    requires not left_column(c);");
  auto g = load_text("left_column.rules", text);
  explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  std::vector<std::string> kept;
  for (const auto& t : group.elements) kept.push_back(t.name);
  CHECK(kept == std::vector<std::string>{"identity", "mirror rows"});

  // The column of the last move, read from the state: a map that changes columns does not
  // commute with x(last); the mirror of the rows does, and is only stopped by the initial
  // value of `last` (r0c0), which it moves.
  auto last = load_text("last.rules", R"(game "not the column of the last move";
board 3 x 3;
players 2;
state owner: Cell -> Player?;
state moved: bool;
state last: Cell;
phase play {
  move place(c: Cell)
    requires owner[c] == none;
    requires not moved or x(c) != x(last);
  {
    owner[c] := mover;
    last := c;
    moved := true;
  }
}
score p = 0;
winner highest;
)");
  group = explorer::find_symmetries(*last->program, last->sources, *last->engine, last->root.data());
  CHECK(group.elements.size() == 1);
  const explorer::SymmetryCheck* r = check_named(group, "rotate 90");
  REQUIRE(r);
  CHECK(r->reason.find("a value read from the state") != std::string::npos);
  CHECK(r->reason.find("last.rules:10:") != std::string::npos);
  const explorer::SymmetryCheck* m = check_named(group, "mirror rows");
  REQUIRE(m);
  CHECK(m->reason.find("initial state") != std::string::npos);
}

TEST_CASE("a relabelling of values no state holds is no candidate: the Latin duel's group has 2 elements",
          "[explore][symmetry][semantic]") {
  // The openings are digits 0..9 of which 0..4 occur, and play never writes the opening:
  // relabelling 5..9 changes no state. Proposed, it joined the group as an element acting
  // as the identity (4 elements printed, end groups of 240 = 2 x 5!).
  auto g = load_file("tests/explore/rules/latin_duel.rules");
  const explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  for (const auto& c : group.checks) {
    INFO(c.transform.name << ": " << c.reason);
    CHECK(c.transform.name.find("opening values") == std::string::npos);
  }
  // Opening 1 has its givens at r0c0, r1c2, r2c1, r3c3: kept by the transposition that also
  // swaps rows and columns 1 and 2, which the structure proposes; the plain one moves them.
  REQUIRE(group.elements.size() == 2);
  CHECK(check_named(group, "transpose")->reason.find("moves the initial state") != std::string::npos);
  explorer::ExploreOptions opt;
  opt.threads = 1;
  opt.max_depth = 1;
  const explorer::ExploreResult r = explorer::explore(*g->program, *g->engine, g->root.data(), group.elements, opt);
  REQUIRE(r.depths.size() == 2);
  // Every empty cell takes the two numbers its row's and its column's givens leave; no
  // write is its own image, so the 24 writes make 12 classes.
  CHECK(r.depths[1].distinct == 24);
  CHECK(r.depths[1].symmetric == 12);
}

TEST_CASE("a `for` over cells whose iterations do not commute keeps no map that reorders them",
          "[explore][symmetry][semantic]") {
  // Every move marks a cell and then walks the marked cells in order: `newest` ends as the
  // last of them in the order of the cells, which a map of the board changes. Written as a
  // loop whose iterations store only at their own cell (and a count), the same game keeps
  // the 8 maps.
  const std::string head = R"(game "walks";
board 3 x 3;
players 1;
state mark: Cell -> bool;
state seen: Cell -> bool;
state marks: 0..9;
state newest: Cell? = none;
phase play {
  move put(c: Cell)
    requires not mark[c];
  {
    mark[c] := true;
    marks := 0;
)";
  const std::string tail = R"(  }
}
score p = 0;
winner highest;
)";
  auto order = load_text("order.rules", head + "    for d in cells where mark[d] { newest := d; }\n" + tail);
  explorer::SymmetryGroup group =
      explorer::find_symmetries(*order->program, order->sources, *order->engine, order->root.data());
  CHECK(group.elements.size() == 1);
  for (const char* name : {"rotate 90", "mirror rows", "transpose"}) {
    const explorer::SymmetryCheck* r = check_named(group, name);
    REQUIRE(r);
    INFO(r->reason);
    CHECK(r->reason.find("a `for` over a set runs in the order of its elements") != std::string::npos);
    CHECK(r->reason.find("order.rules:14:") != std::string::npos);
  }
  // The same walk reading what an earlier iteration stored at another cell.
  auto reads = load_text("reads.rules", head + "    for d in cells { seen[d] := some e in cells: seen[e] or mark[d]; }\n" + tail);
  group = explorer::find_symmetries(*reads->program, reads->sources, *reads->engine, reads->root.data());
  CHECK(group.elements.size() == 1);
  // One place stored by two statements, whichever the last cell's mark picks.
  auto branches = load_text(
      "branches.rules", head + "    for d in cells { if mark[d] { marks := 1; } else { marks := 2; } }\n" + tail);
  group = explorer::find_symmetries(*branches->program, branches->sources, *branches->engine, branches->root.data());
  CHECK(group.elements.size() == 1);
  REQUIRE(check_named(group, "rotate 90"));
  CHECK(check_named(group, "rotate 90")->reason.find("a `for` over a set") != std::string::npos);
  auto own = load_text("own.rules",
                       head + "    for d in cells where mark[d] { seen[d] := not seen[d]; marks += 1; }\n" + tail);
  group = explorer::find_symmetries(*own->program, own->sources, *own->engine, own->root.data());
  for (const auto& c : group.checks) INFO(c.transform.name << ": " << c.reason);
  CHECK(group.elements.size() == 8);
}

namespace {

/// Domineering's positions by depth and their classes under the half turn and the two
/// mirrors, counted here on bit masks (the first player lays down a column, the second
/// along a row), apart from the rules file and the explorer.
void domineering_by_hand(int n, std::vector<uint64_t>& distinct, std::vector<uint64_t>& classes) {
  auto image = [n](uint64_t cov, int k) {
    uint64_t r = 0;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        if ((cov >> (y * n + x)) & 1) {
          const int yy = (k & 1) ? n - 1 - y : y, xx = (k & 2) ? n - 1 - x : x;
          r |= uint64_t{1} << (yy * n + xx);
        }
    return r;
  };
  std::set<uint64_t> layer{0};
  for (int depth = 0; !layer.empty(); ++depth) {
    std::set<uint64_t> canon, next;
    for (uint64_t s : layer) {
      uint64_t least = s;
      for (int k = 1; k < 4; ++k) least = std::min(least, image(s, k));
      canon.insert(least);
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          const int c = y * n + x;
          const bool down = depth % 2 == 0;
          if (down ? y + 1 >= n : x + 1 >= n) continue;
          const int d = down ? c + n : c + 1;
          if (((s >> c) & 1) || ((s >> d) & 1)) continue;
          next.insert(s | uint64_t{1} << c | uint64_t{1} << d);
        }
    }
    distinct.push_back(layer.size());
    classes.push_back(canon.size());
    layer = std::move(next);
  }
}

}  // namespace

TEST_CASE("moves compare by what they do: Domineering keeps the half turn and both mirrors",
          "[explore][symmetry][semantic]") {
  // A domino named by its top (or left) cell and the other: a mirror names it from the
  // other end, so no instance maps onto the instance of the mapped parameters, but every
  // instance maps onto one that does the same (the same condition on the mover, the same
  // two cells covered).
  auto g = load_file("tests/explore/rules/domineering.rules");
  explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  std::vector<std::string> kept;
  for (const auto& t : group.elements) kept.push_back(t.name);
  CHECK(kept == std::vector<std::string>{"identity", "rotate 180", "mirror rows", "mirror columns"});
  for (const auto& c : group.checks) {
    INFO(c.transform.name << ": " << c.reason);
    const bool keeps = c.transform.name == "rotate 180" || c.transform.name == "mirror rows" ||
                       c.transform.name == "mirror columns" || c.transform.is_identity();
    // A quarter turn or a transpose makes upright dominoes flat: with the players
    // exchanged, a symmetry of the rules that moves the start (upright moves first).
    const bool exchanges = c.transform.name == "rotate 90 with seats upright <-> flat" ||
                           c.transform.name == "rotate 270 with seats upright <-> flat" ||
                           c.transform.name == "transpose with seats upright <-> flat" ||
                           c.transform.name == "anti-transpose with seats upright <-> flat";
    if (exchanges) CHECK(c.reason == "a symmetry of the rules, but it moves the initial state (its setup)");
    // The structural test alone says the same.
    CHECK(explorer::check_structure(*g->program, g->sources, c.transform).empty() == (keeps || exchanges));
  }
  CHECK(group.checks.size() == 8 + 1 + 7);  // the square's maps, the seats, and both
  explorer::ExploreOptions opt;
  opt.threads = 1;
  explorer::ExploreResult r = explorer::explore(*g->program, *g->engine, g->root.data(), group.elements, opt);
  REQUIRE(r.status.ok);
  std::vector<uint64_t> distinct, classes, hand_distinct, hand_classes;
  for (const auto& d : r.depths) {
    distinct.push_back(d.distinct);
    classes.push_back(d.symmetric);
  }
  domineering_by_hand(4, hand_distinct, hand_classes);
  CHECK(distinct == hand_distinct);
  CHECK(classes == hand_classes);
  CHECK(std::accumulate(classes.begin(), classes.end(), uint64_t{0}) == 648);

  // What a move does must still map: recording the domino's first cell tells the ends apart,
  // and the mirrors go (the structural test and play agree).
  std::string text = read("tests/explore/rules/domineering.rules");
  auto add = [&](const std::string& after, const std::string& what) {
    const size_t at = text.find(after);
    REQUIRE(at != std::string::npos);
    text.insert(at + after.size(), what);
  };
  add("state last: Player?;", "\nstate first: Cell?;");
  add("last := mover;", "\n    first := c;");
  auto named = load_text("first_cell.rules", text);
  group = explorer::find_symmetries(*named->program, named->sources, *named->engine, named->root.data());
  CHECK(group.elements.size() == 1);
  for (const char* name : {"rotate 180", "mirror rows", "mirror columns"}) {
    const explorer::SymmetryCheck* c = check_named(group, name);
    REQUIRE(c);
    INFO(name << ": " << c->reason);
    CHECK_FALSE(c->kept);
    CHECK(c->reason.find("is not carried onto a move of the rules") != std::string::npos);
    // Play alone shows it too, from the start and after a first move: a mirror of the rows
    // lays the first player's dominoes from their other end (the states they lead to do
    // not map); a mirror of the columns, the second player's.
    std::vector<engine::Move> first_moves;
    REQUIRE(named->engine->legal_moves(named->root.data(), first_moves).ok);
    REQUIRE(!first_moves.empty());
    std::vector<uint8_t> after = named->root;
    REQUIRE(named->engine->apply(after.data(), first_moves[0]).ok);
    const std::string played = explorer::check_behaviour(*named->program, *named->engine, c->transform,
                                                         {named->root, after}, nullptr);
    INFO(played);
    CHECK_FALSE(played.empty());
    if (std::string(name) == "mirror rows")
      CHECK(played.find("the legal moves do not correspond, nor the states they lead to") != std::string::npos);
  }
  // Without the recorded cell, play keeps them: the same check passes.
  const explorer::SymmetryGroup plain = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  for (const char* name : {"rotate 180", "mirror rows", "mirror columns"}) {
    const explorer::SymmetryCheck* c = check_named(plain, name);
    REQUIRE(c);
    CHECK(explorer::check_behaviour(*g->program, *g->engine, c->transform, {g->root}, nullptr).empty());
  }
}

TEST_CASE("a domino laid from either end is two moves to one state: the classes count paths twice",
          "[explore][symmetry][semantic]") {
  std::string text = read("tests/explore/rules/domineering.rules");
  const std::string req = "requires d == partner(c, mover);";
  const size_t at = text.find(req);
  REQUIRE(at != std::string::npos);
  text.replace(at, req.size(), "requires d == partner(c, mover) or c == partner(d, mover);");
  auto g = load_text("either_end.rules", text);
  explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  CHECK(group.elements.size() == 4);
  explorer::ExploreOptions opt;
  opt.threads = 1;
  explorer::ExploreResult r = explorer::explore(*g->program, *g->engine, g->root.data(), group.elements, opt);
  REQUIRE(r.status.ok);
  std::vector<uint64_t> hand_distinct, hand_classes;
  domineering_by_hand(4, hand_distinct, hand_classes);
  REQUIRE(r.depths.size() == hand_distinct.size());
  for (size_t d = 0; d < r.depths.size(); ++d) {
    CHECK(r.depths[d].distinct == hand_distinct[d]);
    CHECK(r.depths[d].symmetric == hand_classes[d]);
  }
  CHECK(r.depths[1].paths == 24);  // 12 dominoes, each laid from either end
}
