// The symmetry group of the Sudoku fill games as the explorer finds it (graph automorphisms
// of the houses, digit relabellings, the maps of the square) against a group built by hand
// and the classes of the complete grids counted three ways: the explorer, orbits of a
// brute-force enumeration, and Burnside's lemma over every element of the group.
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "explorer/enumerate.h"
#include "explorer/symmetry.h"
#include "explorer/symmetry_graph.h"

using namespace rulebook;

namespace {

struct Fill {
  dsl::SourceSet sources;
  std::unique_ptr<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
  std::vector<uint8_t> root;
};

std::unique_ptr<Fill> load_fill(const std::string& file) {
  auto g = std::make_unique<Fill>();
  dsl::Diagnostics diags;
  auto p = compiler::load_program(RULEBOOK_SOURCE_DIR "/variants/sudoku-fill/" + file, g->sources, diags);
  INFO(diags.render(g->sources));
  REQUIRE(p);
  g->program = std::make_unique<ir::Program>(std::move(*p));
  g->engine = std::make_unique<compiler::Interpreter>(*g->program, g->sources);
  g->root.resize(g->program->state_bytes);
  REQUIRE(g->engine->setup(g->root.data(), engine::Setup{}).ok);
  return g;
}

/// A symmetry of a grid as plain data: where each cell goes, and each digit 1..n (index 0
/// unused).
struct GridMap {
  std::vector<uint32_t> cell;
  std::vector<int> digit;
  bool operator<(const GridMap& o) const { return cell != o.cell ? cell < o.cell : digit < o.digit; }
  bool operator==(const GridMap& o) const { return cell == o.cell && digit == o.digit; }
};

GridMap grid_map(const ir::Program& p, const explorer::Transform& t, int n) {
  GridMap m;
  const auto& cells = t.index_map[ir::kCellDomain];
  for (uint32_t c = 0; c < uint32_t(n * n); ++c) m.cell.push_back(cells.empty() ? c : cells[c]);
  // The digits' domain is the `digit` variable's (0..n, index = value).
  int d = -1;
  for (const ir::StateVar& v : p.vars)
    if (v.name == "digit") d = v.domain;
  REQUIRE(d >= 0);
  for (int v = 0; v <= n; ++v) m.digit.push_back(t.index_map[size_t(d)].empty() ? v : int(t.index_map[size_t(d)][size_t(v)]));
  return m;
}

std::vector<int> map_grid(const GridMap& m, const std::vector<int>& g) {
  std::vector<int> out(g.size());
  for (size_t c = 0; c < g.size(); ++c) out[m.cell[c]] = m.digit[size_t(g[c])];
  return out;
}

GridMap then(const GridMap& a, const GridMap& b) {
  GridMap r = a;
  for (size_t c = 0; c < a.cell.size(); ++c) r.cell[c] = b.cell[a.cell[c]];
  for (size_t v = 0; v < a.digit.size(); ++v) r.digit[v] = b.digit[size_t(a.digit[v])];
  return r;
}

/// Every element of the group the maps generate.
std::set<GridMap> elements(const std::vector<GridMap>& gens) {
  std::set<GridMap> all;
  std::vector<GridMap> todo = {gens.front()};
  for (uint32_t c = 0; c < todo[0].cell.size(); ++c) todo[0].cell[c] = c;
  for (size_t v = 0; v < todo[0].digit.size(); ++v) todo[0].digit[v] = int(v);
  all.insert(todo[0]);
  while (!todo.empty()) {
    GridMap x = todo.back();
    todo.pop_back();
    for (const GridMap& g : gens) {
      GridMap y = then(x, g);
      if (all.insert(y).second) todo.push_back(y);
    }
  }
  return all;
}

/// The standard group of an n x n Sudoku with boxes br x bc, by hand: rows within a band,
/// bands, columns within a stack, stacks, the transposition when boxes are square, and the
/// digits (a transposition and a cycle).
std::vector<GridMap> sudoku_generators(int n, int br, int bc) {
  std::vector<GridMap> out;
  auto board = [&](auto f) {
    GridMap m;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const auto [tx, ty] = f(x, y);
        m.cell.push_back(uint32_t(ty * n + tx));
      }
    for (int v = 0; v <= n; ++v) m.digit.push_back(v);
    out.push_back(m);
  };
  auto swap_in = [](int i, int a, int b) { return i == a ? b : i == b ? a : i; };
  for (int band = 0; band < n / br; ++band)
    for (int r = 0; r + 1 < br; ++r)
      board([&](int x, int y) { return std::make_pair(x, swap_in(y, band * br + r, band * br + r + 1)); });
  for (int b = 0; b + 1 < n / br; ++b)
    board([&](int x, int y) { return std::make_pair(x, y / br == b ? y + br : y / br == b + 1 ? y - br : y); });
  for (int stack = 0; stack < n / bc; ++stack)
    for (int c = 0; c + 1 < bc; ++c)
      board([&](int x, int y) { return std::make_pair(swap_in(x, stack * bc + c, stack * bc + c + 1), y); });
  for (int s = 0; s + 1 < n / bc; ++s)
    board([&](int x, int y) { return std::make_pair(x / bc == s ? x + bc : x / bc == s + 1 ? x - bc : x, y); });
  if (br == bc) board([&](int x, int y) { return std::make_pair(y, x); });
  GridMap swap12 = out.front(), cycle = out.front();
  for (uint32_t c = 0; c < swap12.cell.size(); ++c) swap12.cell[c] = cycle.cell[c] = c;
  std::swap(swap12.digit[1], swap12.digit[2]);
  for (int v = 1; v <= n; ++v) cycle.digit[size_t(v)] = v % n + 1;
  out.push_back(swap12);
  out.push_back(cycle);
  return out;
}

/// Complete n x n grids (boxes br x bc) by backtracking, row-major.
void grids(int n, int br, int bc, std::vector<int>& g, int i, std::vector<std::vector<int>>& out) {
  if (i == n * n) {
    out.push_back(g);
    return;
  }
  const int r = i / n, c = i % n;
  for (int v = 1; v <= n; ++v) {
    bool ok = true;
    for (int k = 0; k < n && ok; ++k) ok = g[size_t(r * n + k)] != v && g[size_t(k * n + c)] != v;
    for (int a = r / br * br; a < r / br * br + br && ok; ++a)
      for (int b = c / bc * bc; b < c / bc * bc + bc && ok; ++b) ok = g[size_t(a * n + b)] != v;
    if (!ok) continue;
    g[size_t(i)] = v;
    grids(n, br, bc, g, i + 1, out);
    g[size_t(i)] = 0;
  }
}

/// Orbits of `all` under the generators, by a walk from each grid not yet reached.
size_t orbits(const std::vector<std::vector<int>>& all, const std::vector<GridMap>& gens) {
  std::set<std::vector<int>> seen;
  size_t count = 0;
  for (const auto& g : all) {
    if (!seen.insert(g).second) continue;
    ++count;
    std::vector<std::vector<int>> todo = {g};
    while (!todo.empty()) {
      std::vector<int> x = todo.back();
      todo.pop_back();
      for (const GridMap& m : gens) {
        std::vector<int> y = map_grid(m, x);
        if (seen.insert(y).second) todo.push_back(y);
      }
    }
  }
  return count;
}

}  // namespace

TEST_CASE("4x4 fill: the Sudoku group found, 3072 elements, 2 classes of the 288 grids",
          "[explore][symmetry][fill]") {
  auto g = load_fill("fill-4x4.rules");
  explorer::SurveyOptions o;
  o.threads = 1;
  const explorer::Survey s = explorer::survey(*g->program, g->sources, *g->engine, g->root.data(), o);
  // Play keeps the digits' relabellings (24) and no map of the board: cells are filled in
  // row-major order.
  CHECK(s.group.elements.size() == 24);
  for (const auto& c : s.group.checks)
    if (!c.transform.index_map[ir::kCellDomain].empty()) CHECK(!c.kept);
  REQUIRE(s.result.depths.size() == 17);
  const explorer::DepthCount& d = s.result.depths[16];
  CHECK(d.terminal == 288);
  CHECK(d.terminal_symmetric == 12);  // 288 / 24: no grid is fixed by a relabelling
  CHECK(d.end_rejected.empty());
  CHECK(d.end_group_order == 3072);
  CHECK(d.terminal_end_classes == 2);

  // The group found is the one built by hand: each generates the other.
  std::vector<GridMap> found;
  for (const auto& t : s.group.generators) found.push_back(grid_map(*g->program, t, 4));
  for (const auto& c : s.group.checks)
    for (const std::string& name : d.end_symmetries)
      if (c.transform.name == name) found.push_back(grid_map(*g->program, c.transform, 4));
  const std::set<GridMap> group = elements(found);
  CHECK(group.size() == 3072);
  CHECK(group == elements(sudoku_generators(4, 2, 2)));

  // Brute force: every grid, its orbit under the generators, and Burnside.
  std::vector<std::vector<int>> all;
  std::vector<int> grid(16, 0);
  grids(4, 2, 2, grid, 0, all);
  REQUIRE(all.size() == 288);
  CHECK(orbits(all, found) == 2);
  uint64_t fixed = 0;
  for (const GridMap& m : group)
    for (const auto& x : all) fixed += map_grid(m, x) == x;
  CHECK(fixed % group.size() == 0);
  CHECK(fixed / group.size() == 2);
  // Dead ends at 10 moves (48): two rows filled, the third stuck; their set keeps rows
  // (0 1) and columns (0 1) but none of the maps of the square.
  const explorer::DepthCount& dead = s.result.depths[10];
  CHECK(dead.terminal == 48);
  for (const std::string& name : dead.end_symmetries) CHECK(name.rfind("automorphism", 0) == 0);
  CHECK(dead.end_rejected.size() >= 7);
}

TEST_CASE("the group order of Schreier-Sims against the elements enumerated",
          "[explore][symmetry][fill]") {
  auto g = load_fill("fill-6x6.rules");
  const explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  // Candidates for the 6x6 grid: the nauty generators of the houses' structure and the
  // relabellings. Play keeps the relabellings, but 720 elements are too many to count
  // with: the cycle of the six digits is left out of the group (the end classes use it).
  CHECK(group.elements.size() == 2);
  bool left_out = false;
  for (const auto& c : group.checks)
    left_out = left_out || c.reason.find("left out of the group used for counting") != std::string::npos;
  CHECK(left_out);
  std::vector<explorer::Transform> all;
  for (const auto& c : group.checks) all.push_back(c.transform);
  // The maps of the square that keep the houses (rotate 180, the two mirrors) and nauty's
  // automorphisms with the relabellings: the whole 6x6 Sudoku group (boxes 2 x 3, no
  // transposition), 3! 2^3 bands and rows x 2! 3!^2 stacks and columns x 6! digits.
  std::vector<explorer::Transform> keeping;
  for (const auto& t : all)
    if (t.name != "rotate 90" && t.name != "rotate 270" && t.name != "transpose" && t.name != "anti-transpose")
      keeping.push_back(t);
  CHECK(explorer::group_order(*g->program, keeping) == 48ull * 72 * 720);
  std::vector<GridMap> found, hand = sudoku_generators(6, 2, 3);
  for (const auto& t : keeping) found.push_back(grid_map(*g->program, t, 6));
  // Without the digits the groups are small enough to list: the same 3456 board maps.
  std::vector<GridMap> found_board, hand_board;
  for (const GridMap& m : found)
    if (m.digit == hand.front().digit) found_board.push_back(m);
  for (const GridMap& m : hand)
    if (m.digit == hand.front().digit) hand_board.push_back(m);
  const std::set<GridMap> a = elements(found_board), b = elements(hand_board);
  CHECK(a.size() == 3456);
  CHECK(a == b);
}

TEST_CASE("6x6 fill: classes of the 28,200,960 complete grids under the group found",
          "[explore][symmetry][fill]") {
  // Every 6x6 grid is one relabelling (of 720) away from exactly one grid whose first row
  // is 1 2 3 4 5 6: enumerating those gives the total by formula, and the classes under
  // (board maps) x (relabellings) are the orbits of the board maps on the normalised grids
  // (map, then relabel the first row back to 1..6). Orbits by union-find over the
  // generators found; the same count by the least normalised image over all 3456 board
  // maps of the hand-built group.
  auto g = load_fill("fill-6x6.rules");
  const explorer::SymmetryGroup group = explorer::find_symmetries(*g->program, g->sources, *g->engine, g->root.data());
  std::vector<GridMap> board;
  for (const auto& c : group.checks)
    if (!c.transform.index_map[ir::kCellDomain].empty() && c.transform.name != "rotate 90" &&
        c.transform.name != "rotate 270" && c.transform.name != "transpose" && c.transform.name != "anti-transpose")
      board.push_back(grid_map(*g->program, c.transform, 6));
  std::vector<std::vector<int>> normal;
  std::vector<int> grid(36, 0);
  for (int c = 0; c < 6; ++c) grid[size_t(c)] = c + 1;
  grids(6, 2, 3, grid, 6, normal);
  CHECK(normal.size() == 39168);
  CHECK(normal.size() * 720 == 28200960);
  auto normalise = [](std::vector<int> x) {
    std::vector<int> to(7, 0);
    for (int c = 0; c < 6; ++c) to[size_t(x[size_t(c)])] = c + 1;
    for (int& v : x) v = to[size_t(v)];
    return x;
  };
  std::map<std::vector<int>, uint32_t> index;
  for (uint32_t i = 0; i < normal.size(); ++i) index[normal[i]] = i;
  std::vector<uint32_t> parent(normal.size());
  for (uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
  std::function<uint32_t(uint32_t)> root = [&](uint32_t i) { return parent[i] == i ? i : parent[i] = root(parent[i]); };
  for (const GridMap& m : board)
    for (uint32_t i = 0; i < normal.size(); ++i) {
      auto it = index.find(normalise(map_grid(m, normal[i])));
      REQUIRE(it != index.end());
      const uint32_t a = root(i), b = root(it->second);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  size_t classes = 0;
  for (uint32_t i = 0; i < parent.size(); ++i) classes += parent[i] == i;
  CHECK(classes == 49);
  // Second way: the least normalised image over every board map, as a set of classes.
  std::vector<GridMap> hand;
  for (const GridMap& m : sudoku_generators(6, 2, 3))
    if (m.digit == std::vector<int>{0, 1, 2, 3, 4, 5, 6}) hand.push_back(m);
  const std::set<GridMap> all_board = elements(hand);
  REQUIRE(all_board.size() == 3456);
  std::set<std::vector<int>> least;
  for (uint32_t i = 0; i < normal.size(); ++i) {
    if (parent[i] != i) continue;  // one grid per class suffices to name its class
    std::vector<int> best = normal[i];
    for (const GridMap& m : all_board) best = std::min(best, normalise(map_grid(m, normal[i])));
    least.insert(best);
  }
  CHECK(least.size() == classes);
}

TEST_CASE("rules that tell no cells apart by structure propose no automorphisms") {
  // Lines made by `segment` and quantifiers over `cells` give the structure graph nothing
  // but the set of every cell: every permutation of the cells would be an automorphism,
  // and swaps of two cells are no candidates the rules suggest. The houses of a board
  // (rows) do tell cells apart: they propose the row and column permutations.
  const std::string flat =
      "game \"flat\";\nboard 3 x 3;\nplayers 2;\nstate owner: Cell -> Player?;\n"
      "define three(p: Player): bool = some c in cells, o in {horizontal, vertical}:\n"
      "  size(segment(c, o, 3)) == 3 and (all d in segment(c, o, 3): owner[d] == p);\n"
      "phase play { move place(c: Cell) requires owner[c] == none; { owner[c] := mover; } }\n"
      "end when some p in players: three(p);\nscore p = if three(p) then 1 else 0;\nwinner highest;\n";
  const std::string housed = flat.substr(0, flat.find("define three")) +
                             "define three(p: Player): bool = some l in rows: all d in l: owner[d] == p;\n" +
                             flat.substr(flat.find("phase play"));
  for (const bool structured : {false, true}) {
    const std::string& text = structured ? housed : flat;
    INFO(text);
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("flat.rules", text, sources, diags);
    INFO(diags.render(sources));
    REQUIRE(p);
    compiler::Interpreter engine(*p, sources);
    std::vector<uint8_t> root(p->state_bytes);
    REQUIRE(engine.setup(root.data(), engine::Setup{}).ok);
    const std::vector<explorer::Transform> found = explorer::graph_candidates(*p, sources, root.data());
    CHECK(found.empty() == !structured);
  }
}

namespace {
/// The dead ends of an n x n fill after `stop` cells (row-major): the cells before filled
/// by the Sudoku rule, none of the digits fits cell `stop`.
void dead_ends(int n, int br, int bc, std::vector<int>& g, int i, int stop, std::vector<std::vector<int>>& out) {
  auto fits = [&](int at, int v) {
    const int r = at / n, c = at % n;
    for (int k = 0; k < n; ++k)
      if (g[size_t(r * n + k)] == v || g[size_t(k * n + c)] == v) return false;
    for (int a = r / br * br; a < r / br * br + br; ++a)
      for (int b = c / bc * bc; b < c / bc * bc + bc; ++b)
        if (g[size_t(a * n + b)] == v) return false;
    return true;
  };
  if (i == stop) {
    for (int v = 1; v <= n; ++v)
      if (fits(i, v)) return;
    out.push_back(g);
    return;
  }
  for (int v = 1; v <= n; ++v) {
    if (!fits(i, v)) continue;
    g[size_t(i)] = v;
    dead_ends(n, br, bc, g, i + 1, stop, out);
    g[size_t(i)] = 0;
  }
}
}  // namespace

TEST_CASE("6x6 fill: the end classes of the dead ends at 16 moves against their orbits by brute force",
          "[explore][symmetry][fill]") {
  // The explorer checks a kept map that normalises the maps joined before it on one state
  // per orbit of theirs, and joins those orbits alone; here some kept maps do (rows (0 1)
  // commutes with the column swaps before it) and some do not (columns (0 1) after
  // columns (1 2)). The orbits of the dead ends enumerated by backtracking, walked under
  // the same generators, give the same count.
  auto g = load_fill("fill-6x6.rules");
  // The compiled engine: 3.6 million states to depth 16.
  const std::shared_ptr<const ir::Program> program(g->program.get(), [](const ir::Program*) {});  // g owns it
  compiler::LoadedEngine e = compiler::load_engine(program, g->sources);
  INFO(e.status.message);
  REQUIRE(e.engine);
  explorer::SurveyOptions o;
  o.threads = 2;
  o.max_depth = 16;
  const explorer::Survey s = explorer::survey(*program, g->sources, *e.engine, g->root.data(), o);
  REQUIRE(s.result.depths.size() == 17);
  const explorer::DepthCount& d = s.result.depths[16];
  std::vector<std::vector<int>> dead;
  std::vector<int> grid(36, 0);
  dead_ends(6, 2, 3, grid, 0, 16, dead);
  CHECK(dead.size() == 103680);
  CHECK(d.terminal == dead.size());
  REQUIRE(d.end_symmetries.size() >= 2);
  std::vector<GridMap> gens;
  for (const auto& t : s.group.generators) gens.push_back(grid_map(*g->program, t, 6));
  for (const auto& c : s.group.checks)
    for (const std::string& name : d.end_symmetries)
      if (c.transform.name == name) gens.push_back(grid_map(*g->program, c.transform, 6));
  CHECK(gens.size() == s.group.generators.size() + d.end_symmetries.size());
  const size_t walked = orbits(dead, gens);
  CHECK(walked == 12);
  CHECK(d.terminal_end_classes == walked);
  // Every kept map does keep the set.
  const std::set<std::vector<int>> set(dead.begin(), dead.end());
  size_t outside = 0;
  for (const GridMap& m : gens)
    for (const auto& x : dead) outside += set.count(map_grid(m, x)) == 0;
  CHECK(outside == 0);
}
