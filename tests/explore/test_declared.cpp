// Declared label symmetries (`symmetry NAME: swap a <-> b, ...;`): a true one is used and its
// counts equal a brute-force enumeration written here from the rules' text; a false one is
// refuted with an error at its declaration, naming a state and a move where it fails.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "explorer/enumerate.h"
#include "explorer/symmetry.h"

using namespace rulebook;

namespace {

/// Colouring a 3x3 board with three colours, no two orthogonal neighbours alike, one cell
/// per move until no move is left. `extra` adds declarations (symmetries, counters).
std::string colouring(const std::string& extra, bool counters) {
  std::string text = R"(game "three colours";
board 3 x 3;
players 1;
type Colour = {red, blue, green};
state paint: Cell -> Colour?;
)";
  if (counters) text += "state reds: 0..9;\nstate blues: 0..9;\n";
  text += R"(rule proper "no two orthogonal neighbours of one colour"
  on colour(c, k): no d in orth(c): paint[d] == k;
phase colouring {
  move colour(c: Cell, k: Colour)
    requires paint[c] == none;
  {
    paint[c] := k;
)";
  if (counters) text += "    if k == red { reds += 1; }\n    if k == blue { blues += 1; }\n";
  text += "  }\n  when stuck { end; }\n}\n";
  text += counters ? "score p = reds + blues;\n" : "score p = 0;\n";
  text += "winner highest;\n" + extra;
  return text;
}

struct Loaded {
  dsl::SourceSet sources;
  std::unique_ptr<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
  std::vector<uint8_t> root;
};

std::unique_ptr<Loaded> load_text(const std::string& text) {
  auto g = std::make_unique<Loaded>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("colours.rules", text, g->sources, diags);
  INFO(diags.render(g->sources));
  REQUIRE(p);
  g->program = std::make_unique<ir::Program>(std::move(*p));
  g->engine = std::make_unique<compiler::Interpreter>(*g->program, g->sources);
  g->root.resize(g->program->state_bytes);
  REQUIRE(g->engine->setup(g->root.data(), engine::Setup{}).ok);
  return g;
}

/// The game, written again without rulebook: a grid of 9 cells, 0 empty, 1..3 the colours.
using Grid = std::array<int, 9>;

bool may_colour(const Grid& g, int c, int k) {
  if (g[size_t(c)] != 0) return false;
  const int x = c % 3, y = c / 3;
  const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
  for (int i = 0; i < 4; ++i) {
    const int nx = x + dx[i], ny = y + dy[i];
    if (nx >= 0 && nx < 3 && ny >= 0 && ny < 3 && g[size_t(ny * 3 + nx)] == k) return false;
  }
  return true;
}

/// The 8 maps of the square's cells.
std::vector<std::array<int, 9>> square_maps() {
  std::vector<std::array<int, 9>> out;
  for (int m = 0; m < 8; ++m) {
    std::array<int, 9> a{};
    for (int c = 0; c < 9; ++c) {
      int x = c % 3, y = c / 3;
      if (m & 1) std::swap(x, y);
      if (m & 2) x = 2 - x;
      if (m & 4) y = 2 - y;
      a[size_t(c)] = y * 3 + x;
    }
    out.push_back(a);
  }
  return out;
}

struct BruteDepth {
  size_t distinct = 0, classes = 0, terminal = 0, terminal_classes = 0;
};

/// States per depth by breadth-first search over grids, and their classes under the
/// square's maps combined with the colour permutations `perms` (each maps 1..3, index 0 = 0).
std::vector<BruteDepth> brute_force(const std::vector<std::array<int, 4>>& perms) {
  std::vector<BruteDepth> out;
  std::set<Grid> layer = {Grid{}};
  const auto maps = square_maps();
  while (!layer.empty()) {
    BruteDepth d;
    std::set<Grid> classes, terminal_classes, next;
    for (const Grid& g : layer) {
      Grid least = g;
      for (const auto& m : maps)
        for (const auto& perm : perms) {
          Grid img{};
          for (int c = 0; c < 9; ++c) img[size_t(m[size_t(c)])] = perm[size_t(g[size_t(c)])];
          least = std::min(least, img);
        }
      classes.insert(least);
      bool any = false;
      for (int c = 0; c < 9; ++c)
        for (int k = 1; k <= 3; ++k)
          if (may_colour(g, c, k)) {
            Grid h = g;
            h[size_t(c)] = k;
            next.insert(h);
            any = true;
          }
      if (!any) {
        ++d.terminal;
        terminal_classes.insert(least);
      }
    }
    d.distinct = layer.size();
    d.classes = classes.size();
    d.terminal_classes = terminal_classes.size();
    out.push_back(d);
    layer = std::move(next);
  }
  return out;
}

std::vector<std::string> names(const std::vector<explorer::Transform>& ts) {
  std::vector<std::string> out;
  for (const auto& t : ts) out.push_back(t.name);
  return out;
}

void check_against(const explorer::ExploreResult& r, const std::vector<BruteDepth>& brute) {
  REQUIRE(r.stopped.empty());
  REQUIRE(r.depths.size() == brute.size());
  for (size_t d = 0; d < brute.size(); ++d) {
    INFO("depth " << d);
    CHECK(r.depths[d].distinct == brute[d].distinct);
    CHECK(r.depths[d].symmetric == brute[d].classes);
    CHECK(r.depths[d].class_sum == r.depths[d].distinct);
    CHECK(r.depths[d].terminal == brute[d].terminal);
    CHECK(r.depths[d].terminal_symmetric == brute[d].terminal_classes);
  }
}

}  // namespace

TEST_CASE("declared colour exchanges generate all six colour permutations", "[explore][declared]") {
  auto g = load_text(colouring("symmetry rb: swap red <-> blue;\nsymmetry bg: swap blue <-> green;\n", false));
  REQUIRE(g->program->symmetries.size() == 2);
  auto group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  for (const auto& c : group.checks) {
    INFO(c.transform.name << ": " << c.reason);
    CHECK(c.kept);
    CHECK(!c.refuted);
  }
  // The square's 8 maps times the 6 permutations of the colours; classes need not have a
  // power of two members (one coloured corner has 12 images).
  REQUIRE(group.elements.size() == 48);
  explorer::ExploreOptions opt;
  opt.threads = 2;
  auto r = explorer::explore(*g->program, *g->engine, g->root.data(), group.elements, opt);
  const std::vector<std::array<int, 4>> s3 = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 2, 1},
                                             {0, 1, 3, 2}, {0, 2, 3, 1}, {0, 3, 1, 2}};
  const auto brute = brute_force(s3);
  check_against(r, brute);
  CHECK(brute[9].distinct == 246);  // proper 3-colourings of the 3x3 grid
  // Without the declarations: the square alone.
  auto plain = load_text(colouring("", false));
  auto board_only = explorer::find_symmetries(*plain->program, plain->sources, *plain->engine, plain->root.data());
  CHECK(board_only.elements.size() == 8);
  auto r8 = explorer::explore(*plain->program, *plain->engine, plain->root.data(), board_only.elements, opt);
  check_against(r8, brute_force({{0, 1, 2, 3}}));
}

TEST_CASE("a declared exchange of labels and of the variables counting them", "[explore][declared]") {
  auto g = load_text(colouring("symmetry rb: swap red <-> blue, reds <-> blues;\n", true));
  auto group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  REQUIRE(group.elements.size() == 16);
  const std::vector<std::string> used = names(group.elements);
  CHECK(used[1] == "rotate 90");
  CHECK(std::count(used.begin(), used.end(), "rb") == 1);
  explorer::ExploreOptions opt;
  auto r = explorer::explore(*g->program, *g->engine, g->root.data(), group.elements, opt);
  // The counters are functions of the grid: the same states as without them.
  check_against(r, brute_force({{0, 1, 2, 3}, {0, 2, 1, 3}}));
}

TEST_CASE("a false declared symmetry is refuted at its declaration", "[explore][declared]") {
  // blue is counted and green is not; red and blue are exchanged but not their counters.
  const std::string extra = "symmetry rb: swap red <-> blue, reds <-> blues;\n"
                            "symmetry bg: swap blue <-> green;\n"
                            "symmetry half: swap red <-> blue;\n";
  const std::string text = colouring(extra, true);
  auto g = load_text(text);
  auto group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  std::map<std::string, const explorer::SymmetryCheck*> by_name;
  for (const auto& c : group.checks) by_name[c.transform.name] = &c;
  REQUIRE(by_name.count("rb"));
  CHECK(by_name["rb"]->kept);
  CHECK(by_name["bg"]->refuted);
  CHECK(by_name["half"]->refuted);
  CHECK(!by_name["rotate 90"]->refuted);  // board transformations are never "refuted"
  CHECK(group.elements.size() == 16);     // the refuted ones are not used

  dsl::Diagnostics diags;
  group.refutations(diags);
  CHECK(diags.error_count() == 2);
  const std::string out = diags.render(g->sources);
  // Their declarations' lines and columns, found in the text.
  auto line_of = [&](const std::string& what) {
    const size_t at = text.find(what);
    return std::count(text.begin(), text.begin() + long(at), '\n') + 1;
  };
  CAPTURE(out);
  CHECK(out.find("colours.rules:" + std::to_string(line_of("symmetry bg")) + ":10: error: symmetry 'bg' "
                 "does not map the game onto itself") != std::string::npos);
  CHECK(out.find("colours.rules:" + std::to_string(line_of("symmetry half")) + ":10: error: symmetry 'half'") !=
        std::string::npos);
  // The place where play tells them apart: a move and the state it was played in.
  CHECK(out.find("playing colour(") != std::string::npos);
  CHECK(out.find("in this state (reached by random play)") != std::string::npos);
}

TEST_CASE("an exchange of players who do not move alike is refuted", "[explore][declared]") {
  // Two players take turns; the first may not colour a corner. Exchanging them maps the
  // rules onto themselves only if they were alike.
  std::string text = R"(game "two painters";
board 3 x 3;
players 2;
state paint: Cell -> Player?;
phase painting {
  move paint(c: Cell)
    requires paint[c] == none;
    requires not (mover == p1 and c in corner_cells);
  {
    paint[c] := mover;
  }
  when stuck { end; }
}
score p = count c in cells where paint[c] == p;
winner highest;
symmetry players: swap p1 <-> p2;
)";
  auto g = load_text(text);
  auto group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  const explorer::SymmetryCheck& c = group.checks.back();
  CHECK(c.transform.name == "players");
  CHECK(c.refuted);
  INFO(c.reason);
  CHECK(!c.reason.empty());

  // Alike, they are exchanged by a symmetry of the rules, which is no error; it is not
  // used because it moves the initial state (p1 moves first).
  const std::string fair = "    requires not (mover == p1 and c in corner_cells);\n";
  text.erase(text.find(fair), fair.size());
  auto h = load_text(text);
  auto group2 = explorer::find_symmetries(*h->program, h->sources, *h->engine, h->root.data());
  const explorer::SymmetryCheck& c2 = group2.checks.back();
  INFO(c2.reason);
  CHECK(!c2.refuted);
  CHECK(!c2.kept);
  CHECK(c2.reason.find("moves the initial state") != std::string::npos);
}
