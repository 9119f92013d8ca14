// `rulebook solve` on clues that count groups of cells by their size (lazy counts of
// components, cut and asked again within each question): the solutions and whether each
// clue is needed, against brute force over the 2^16 boards.
#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "verifier/puzzle.h"
#include "verify_testing.h"

using namespace rulebook;
using namespace rulebook::verify_testing;

namespace {

constexpr int kN = 4;

/// The sizes of the orthogonally connected groups of the cells in `mask`.
std::vector<int> group_sizes(unsigned mask) {
  std::vector<int> out;
  unsigned seen = 0;
  for (int c = 0; c < kN * kN; ++c) {
    if (!(mask >> c & 1) || (seen >> c & 1)) continue;
    int size = 0;
    std::vector<int> stack{c};
    seen |= 1u << c;
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      ++size;
      const int r = x / kN, q = x % kN;
      const int nb[4][2] = {{r - 1, q}, {r + 1, q}, {r, q - 1}, {r, q + 1}};
      for (const auto& n : nb) {
        if (n[0] < 0 || n[0] >= kN || n[1] < 0 || n[1] >= kN) continue;
        const int y = n[0] * kN + n[1];
        if ((mask >> y & 1) && !(seen >> y & 1)) {
          seen |= 1u << y;
          stack.push_back(y);
        }
      }
    }
    out.push_back(size);
  }
  return out;
}

int with_size(const std::vector<int>& sizes, const std::function<bool(int)>& f) {
  return int(std::count_if(sizes.begin(), sizes.end(), f));
}

/// The boards of six cells where every clue but `dropped` (-1: none) holds.
std::set<unsigned> brute(const std::vector<std::function<bool(unsigned, const std::vector<int>&)>>& clues, int dropped) {
  std::set<unsigned> out;
  for (unsigned m = 0; m < (1u << (kN * kN)); ++m) {
    if (__builtin_popcount(m) != 6) continue;
    const std::vector<int> sizes = group_sizes(m);
    bool ok = true;
    for (size_t i = 0; i < clues.size() && ok; ++i) ok = int(i) == dropped || clues[i](m, sizes);
    if (ok) out.insert(m);
  }
  return out;
}

unsigned land_of(const ir::Program& p, const verifier::Board& b) {
  const auto var = std::find_if(p.vars.begin(), p.vars.end(), [](const ir::StateVar& v) { return v.name == "land"; });
  REQUIRE(var != p.vars.end());
  unsigned out = 0;
  for (uint32_t i = 0; i < var->count; ++i)
    if (ir::load_index(b.state.data(), *var, i) == 1) out |= 1u << i;
  return out;
}

void check_puzzle(const std::string& name,
                  const std::vector<std::function<bool(unsigned, const std::vector<int>&)>>& clues,
                  const std::vector<std::pair<std::string, std::string>>& setup = {}) {
  dsl::SourceSet sources;
  auto p = load(RULEBOOK_SOURCE_DIR "/tests/verify/island_puzzle.rules", sources);
  const ir::Property* prop = nullptr;
  for (const ir::Property& q : p->properties)
    if (q.name == name) prop = &q;
  REQUIRE(prop);
  const std::set<unsigned> all = brute(clues, -1);
  verifier::PuzzleOptions po;
  po.max_solutions = 10000;
  po.timeout_seconds = 300;
  po.clues = true;
  po.setup = setup;
  const verifier::PuzzleResult r = verifier::solve_puzzle(*p, sources, *prop, po);
  REQUIRE(r.exact);
  CHECK(r.solutions.size() == all.size());
  std::set<unsigned> listed;
  for (const verifier::Board& b : r.solutions) {
    const unsigned m = land_of(*p, b);
    CHECK(all.count(m) == 1);
    CHECK(listed.insert(m).second);
  }
  REQUIRE(r.clues.size() == clues.size());
  for (size_t i = 0; i < clues.size(); ++i) {
    INFO(r.clues[i].name);
    const std::set<unsigned> without = brute(clues, int(i));
    const bool needed = without.size() > all.size();
    CHECK(r.clues[i].status ==
          (needed ? verifier::ClueVerdict::Status::Needed : verifier::ClueVerdict::Status::NotNeeded));
    if (needed) {  // the board shown breaks the clue and keeps the others
      REQUIRE(r.clues[i].board);
      const unsigned m = land_of(*p, *r.clues[i].board);
      CHECK(without.count(m) == 1);
      CHECK(all.count(m) == 0);
    }
  }
}

}  // namespace

TEST_CASE("solve: clues counting islands by their size, against brute force", "[puzzle]") {
  // The corners are two clue instances, land_given(r0c0) and land_given(r3c3).
  check_puzzle("three_pairs",
               {[](unsigned, const std::vector<int>& s) { return with_size(s, [](int n) { return n == 2; }) == 3; },
                [](unsigned m, const std::vector<int>&) { return (m & 1u) != 0; },
                [](unsigned m, const std::vector<int>&) { return (m >> 15 & 1u) != 0; },
                [](unsigned, const std::vector<int>& s) { return with_size(s, [](int n) { return n >= 3; }) == 0; }},
               {{"given", "r0c0,r3c3"}, {"pair_count", "3"}, {"large_from", "3"}});
  // r1c1 and r3c0: land_given(r1c1), land_given(r3c0).
  check_puzzle("four_and_singles",
               {[](unsigned m, const std::vector<int>&) { return (m >> 5 & 1u) != 0; },
                [](unsigned m, const std::vector<int>&) { return (m >> 12 & 1u) != 0; },
                [](unsigned, const std::vector<int>& s) { return with_size(s, [](int n) { return n == 4; }) >= 1; },
                [](unsigned, const std::vector<int>& s) { return with_size(s, [](int n) { return n == 1; }) == 2; }},
               {{"given", "r1c1,r3c0"}, {"island_size", "4"}, {"single_count", "2"}});
}
