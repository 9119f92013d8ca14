// `up to` in a puzzle: the solutions are counted one per class of the group the named maps
// generate, among those keeping the puzzle (checked on the encoding), against brute force.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "verifier/puzzle.h"
#include "verify_testing.h"

using namespace rulebook;
using namespace rulebook::verify_testing;

namespace {

const std::string kDir = RULEBOOK_SOURCE_DIR "/tests/verify/";
constexpr int kN = 8;
using Cells = std::vector<int>;  // y * n + x, sorted

/// Map g of the square (0: identity, 1-3: quarter turns, 4-7: mirrors) on cell (x, y).
int image(int g, int cell) {
  const int x = cell % kN, y = cell / kN, m = kN - 1;
  const int gx[8] = {x, m - y, m - x, y, x, m - x, y, m - y};
  const int gy[8] = {y, x, m - y, m - x, m - y, y, x, m - x};
  return gy[g] * kN + gx[g];
}

Cells mapped(int g, const Cells& c) {
  Cells out;
  for (int i : c) out.push_back(image(g, i));
  std::sort(out.begin(), out.end());
  return out;
}

/// Every placement of eight queens none attacking another, by backtracking row by row.
void queens(int row, Cells& placed, std::set<Cells>& out) {
  if (row == kN) {
    out.insert(placed);
    return;
  }
  for (int x = 0; x < kN; ++x) {
    bool ok = true;
    for (int c : placed) {
      const int qx = c % kN, qy = c / kN;
      ok = ok && qx != x && std::abs(qx - x) != std::abs(qy - row);
    }
    if (!ok) continue;
    placed.push_back(row * kN + x);
    queens(row + 1, placed, out);
    placed.pop_back();
  }
}

/// The classes of `sols` under the maps `gs` (with the identity): each as its least image.
std::set<Cells> classes(const std::set<Cells>& sols, const std::vector<int>& gs) {
  std::set<Cells> out;
  for (const Cells& s : sols) {
    Cells least = s;
    for (int g : gs) least = std::min(least, mapped(g, s));
    out.insert(least);
  }
  return out;
}

Cells queens_of(const ir::Program& p, const verifier::Board& b) {
  const auto var = std::find_if(p.vars.begin(), p.vars.end(), [](const ir::StateVar& v) { return v.name == "queen"; });
  REQUIRE(var != p.vars.end());
  Cells out;
  for (uint32_t i = 0; i < var->count; ++i)
    if (ir::load_index(b.state.data(), *var, i) == 1) out.push_back(int(i));
  return out;
}

const ir::Property& puzzle(const ir::Program& p, const std::string& name) {
  for (const ir::Property& q : p.properties)
    if (q.name == name) return q;
  FAIL("no puzzle " << name);
  return p.properties.front();
}

}  // namespace

TEST_CASE("eight queens: 92 solutions, 12 up to the board's maps, one board per class", "[puzzle]") {
  dsl::SourceSet sources;
  auto p = load(kDir + "queens.rules", sources);
  std::set<Cells> all;
  Cells placed;
  queens(0, placed, all);
  REQUIRE(all.size() == 92);
  const std::set<Cells> by_board = classes(all, {1, 2, 3, 4, 5, 6, 7});
  CHECK(by_board.size() == 12);

  verifier::PuzzleOptions po;
  po.max_solutions = 1000;
  po.timeout_seconds = 300;
  const verifier::PuzzleResult r = verifier::solve_puzzle(*p, sources, puzzle(*p, "placement"), po);
  REQUIRE(r.exact);
  CHECK(r.group == 8);
  CHECK(r.solutions.size() == by_board.size());
  std::set<Cells> seen;  // each board listed is a solution, and of a class of its own
  for (const verifier::Board& b : r.solutions) {
    const Cells q = queens_of(*p, b);
    CHECK(all.count(q) == 1);
    CHECK(seen.insert(*classes({q}, {1, 2, 3, 4, 5, 6, 7}).begin()).second);
  }
  CHECK(verifier::uniqueness(r) == "no");
  CHECK(verifier::count_text(r, "") == "12 solutions up to symmetry");

  // Without `up to`: every placement.
  for (ir::Property& q : p->properties) q.up_to.clear();
  const verifier::PuzzleResult all_r = verifier::solve_puzzle(*p, sources, puzzle(*p, "placement"), po);
  REQUIRE(all_r.exact);
  CHECK(all_r.group == 1);
  CHECK(all_r.solutions.size() == 92);
}

TEST_CASE("a clue keeps only the maps that fix it: a queen given in a corner", "[puzzle]") {
  // Given r0c0, only the diagonal mirror (x and y exchanged) keeps the puzzle: the other
  // six maps move the corner, and are rejected with their reason.
  dsl::SourceSet sources;
  auto p = load(kDir + "queens.rules", sources);
  std::set<Cells> all, corner;
  Cells placed;
  queens(0, placed, all);
  for (const Cells& s : all)
    if (std::count(s.begin(), s.end(), 0)) corner.insert(s);
  const std::set<Cells> by_mirror = classes(corner, {6});
  REQUIRE(corner.size() == 4);

  verifier::PuzzleOptions po;
  po.max_solutions = 1000;
  po.timeout_seconds = 300;
  po.setup = {{"fixed", "r0c0"}};
  const verifier::PuzzleResult r = verifier::solve_puzzle(*p, sources, puzzle(*p, "given"), po);
  REQUIRE(r.exact);
  INFO(r.symmetry);
  CHECK(r.group == 2);
  CHECK(r.solutions.size() == by_mirror.size());
  CHECK(r.symmetry.find("not kept: ") != std::string::npos);
  for (const verifier::Board& b : r.solutions) CHECK(corner.count(queens_of(*p, b)) == 1);
}

TEST_CASE("a declared exchange of colours counts the two chequers as one", "[puzzle]") {
  dsl::SourceSet sources;
  auto p = load(kDir + "chequer.rules", sources);
  verifier::PuzzleOptions po;
  const verifier::PuzzleResult r = verifier::solve_puzzle(*p, sources, puzzle(*p, "chequer"), po);
  REQUIRE(r.exact);
  CHECK(r.group == 2);
  CHECK(r.solutions.size() == 1);
  CHECK(verifier::uniqueness(r) == "proved");
  for (ir::Property& q : p->properties) q.up_to.clear();
  const verifier::PuzzleResult both = verifier::solve_puzzle(*p, sources, puzzle(*p, "chequer"), po);
  CHECK(both.solutions.size() == 2);
  CHECK(both.group == 1);
}
