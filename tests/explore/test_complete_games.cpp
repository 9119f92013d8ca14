// Complete games (paths that end in a terminal state) counted by perft and by the
// enumeration, against known and brute-force figures: tic-tac-toe's 255,168 games (with and
// without a symmetry group), and the dead ends and full grids of the shipped 4x4 Sudoku fill,
// each counted several ways.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "explorer/enumerate.h"
#include "explorer/perft.h"
#include "tests/engines/open_engine.h"

using namespace rulebook;

namespace {

// Tic-tac-toe's games by length: the first win can come at the fifth move; the 127,872
// games of nine moves are 81,792 won on the last move and 46,080 draws.
const std::vector<uint64_t> kTicTacToeEnds{0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872};
const std::vector<uint64_t> kTicTacToePaths{9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};

/// Complete games of a row-major 4x4 Sudoku fill by length, by backtracking: a prefix after
/// which no number fits the next cell is a dead end of that length, and the 16-cell grids
/// end the game too.
void fill_ends(std::vector<int>& grid, int filled, std::vector<uint64_t>& ends) {
  if (filled == 16) {
    ++ends[15];
    return;
  }
  const int r = filled / 4, c = filled % 4;
  bool any = false;
  for (int v = 1; v <= 4; ++v) {
    bool ok = true;
    for (int k = 0; k < filled && ok; ++k) {
      const int kr = k / 4, kc = k % 4;
      const bool shared = kr == r || kc == c || (kr / 2 == r / 2 && kc / 2 == c / 2);
      ok = !(shared && grid[size_t(k)] == v);
    }
    if (!ok) continue;
    any = true;
    grid[size_t(filled)] = v;
    fill_ends(grid, filled + 1, ends);
  }
  if (!any && filled > 0) ++ends[size_t(filled - 1)];
}

/// The complete games of each depth 1..n of an enumeration (depth 0 is the start).
std::vector<uint64_t> explored_ends(const explorer::ExploreResult& r, size_t n) {
  std::vector<uint64_t> out;
  for (size_t d = 1; d <= n && d < r.depths.size(); ++d) {
    CHECK(r.depths[d].ends_exact);
    out.push_back(uint64_t(r.depths[d].ends));
  }
  return out;
}

explorer::Survey survey_of(const testing::OpenedEngine& g, bool symmetry) {
  explorer::SurveyOptions o;
  o.symmetry = symmetry;
  o.threads = 2;
  explorer::Survey s = explorer::survey(*g.program, g.sources, *g.engine, g.start.data(), o);
  REQUIRE(s.result.stopped.empty());
  return s;
}

/// The first `n` of `counts`.
std::vector<uint64_t> first(std::vector<uint64_t> counts, size_t n) {
  counts.resize(n);
  return counts;
}

}  // namespace

TEST_CASE("complete games: plain tic-tac-toe's 255,168 by perft, both engines", "[explore][complete]") {
  testing::OpenedEngine g;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/bench/plain/tictactoe.rules", false, g);
  for (const int threads : {1, 2}) {
    INFO(threads << " threads");
    explorer::PerftOptions o;
    o.threads = threads;
    const explorer::PerftResult r = explorer::perft(*g.engine, g.start.data(), 9, o);
    REQUIRE(r.status.ok);
    REQUIRE(r.complete);
    CHECK(r.paths == kTicTacToePaths);
    CHECK(r.ends == kTicTacToeEnds);
    CHECK(explorer::wide_sum(r.ends) == 255168);
  }
  // Paths only: the engine's fast count of the last plies, the same paths, no games.
  explorer::PerftOptions fast;
  fast.count_ends = false;
  const explorer::PerftResult paths_only = explorer::perft(*g.engine, g.start.data(), 9, fast);
  CHECK(paths_only.paths == kTicTacToePaths);
  CHECK(paths_only.ends.empty());
  // Past the longest game: no path and no game of ten moves.
  const explorer::PerftResult deeper = explorer::perft(*g.engine, g.start.data(), 10);
  CHECK(deeper.paths.back() == 0);
  CHECK(deeper.ends.back() == 0);
  // Per first move: a corner, an edge and the centre each open their own number of games,
  // 4 x 27,732 + 4 x 29,592 + 25,872 in all.
  engine::Status st;
  const std::vector<explorer::DivideEntry> div = explorer::divide(*g.engine, g.start.data(), 9, st);
  REQUIRE(st.ok);
  REQUIRE(div.size() == 9);
  explorer::WideCount total = 0;
  for (const explorer::DivideEntry& e : div) total += e.ends;
  CHECK(total == 255168);
  CHECK(div[4].ends == 25872);  // the centre (cell 4 in row-major order)
  CHECK(div[0].ends == 27732);  // a corner
  CHECK(div[1].ends == 29592);  // an edge

  // The interpreter, some 30 times slower, to the sixth move: the first wins are in it.
  testing::OpenedEngine slow;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/bench/plain/tictactoe.rules", true, slow);
  explorer::PerftOptions o;
  o.threads = 2;
  const explorer::PerftResult r = explorer::perft(*slow.engine, slow.start.data(), 6, o);
  REQUIRE(r.complete);
  CHECK(r.paths == first(kTicTacToePaths, 6));
  CHECK(r.ends == first(kTicTacToeEnds, 6));
}

TEST_CASE("complete games: tic-tac-toe's enumeration agrees with and without symmetry", "[explore][complete]") {
  // The plain file reads coordinates, so no symmetry is used; the symmetric one is the same
  // game told by rows, columns and diagonal neighbours, and is explored under the square's
  // eight symmetries.
  for (const std::string file : {"/bench/plain/tictactoe.rules", "/tests/explore/tictactoe_symmetric.rules"}) {
    INFO(file);
    testing::OpenedEngine g;
    testing::open_engine(RULEBOOK_SOURCE_DIR + file, false, g);
    const explorer::Survey with = survey_of(g, true);
    const explorer::Survey without = survey_of(g, false);
    CHECK(without.group.elements.size() == 1);
    for (const explorer::Survey* s : {&with, &without}) {
      CHECK(explored_ends(s->result, 9) == kTicTacToeEnds);
      CHECK(s->result.total_ends == 255168);
      CHECK(s->result.total_ends_exact);
    }
    const nlohmann::json j = nlohmann::json::parse(explorer::survey_json(*g.program, with));
    CHECK(j["complete_games_total"] == 255168);
    CHECK(j["depths"][5]["complete_games"] == 1440);
    CHECK(j["depths"][5]["complete_games_exact"] == true);
  }
  testing::OpenedEngine g;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/tests/explore/tictactoe_symmetric.rules", false, g);
  const explorer::Survey with = survey_of(g, true);
  CHECK(with.group.elements.size() == 8);
  // The group is really used: the 78 full boards of nine moves fall into 15 classes.
  CHECK(with.result.depths[9].terminal == 78);
  CHECK(with.result.depths[9].terminal_symmetric == 15);
  // The same game: its perft agrees with the plain file's.
  const explorer::PerftResult r = explorer::perft(*g.engine, g.start.data(), 9);
  CHECK(r.ends == kTicTacToeEnds);
}

TEST_CASE("complete games: the 4x4 Sudoku fill's dead ends and grids, four ways", "[explore][complete]") {
  std::vector<int> grid(16, 0);
  std::vector<uint64_t> brute(16, 0);
  fill_ends(grid, 0, brute);
  REQUIRE(brute[15] == 288);  // the complete grids

  testing::OpenedEngine compiled, interp;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/variants/sudoku-fill/fill-4x4.rules", false, compiled);
  testing::open_engine(RULEBOOK_SOURCE_DIR "/variants/sudoku-fill/fill-4x4.rules", true, interp);
  for (const testing::OpenedEngine* g : {&compiled, &interp}) {
    const explorer::PerftResult r = explorer::perft(*g->engine, g->start.data(), 16);
    REQUIRE(r.complete);
    CHECK(r.ends == brute);
  }
  CHECK(explored_ends(survey_of(compiled, true).result, 16) == brute);
  CHECK(explored_ends(survey_of(compiled, false).result, 16) == brute);
}

TEST_CASE("complete games: sums past 64 bits are written whole", "[explore][complete]") {
  const std::vector<uint64_t> big{UINT64_MAX, 1};
  const explorer::WideCount sum = explorer::wide_sum(big);
  CHECK(explorer::wide_text(sum) == "18446744073709551616");
  CHECK(explorer::wide_json(sum) == "18446744073709551616");
  CHECK(explorer::wide_json(explorer::WideCount(UINT64_MAX)) == UINT64_MAX);
  CHECK(explorer::wide_text(0) == "0");
  CHECK(explorer::complete_games_text(sum, false) == "more than 18446744073709551616");
}
