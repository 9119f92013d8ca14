// Known perft counts of the plainly written benchmark games (bench/plain), both engines:
// tic-tac-toe's 255,168 games, Connect-4's 7^n paths less the full columns, breakthrough's
// opening moves.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/engines/open_engine.h"

using namespace rulebook;

namespace {

/// Paths of exactly 1..max_depth moves from the start of bench/plain/FILE.
std::vector<uint64_t> perft_counts(const std::string& file, int max_depth, bool interpreter) {
  testing::OpenedEngine g;
  testing::open_engine(RULEBOOK_SOURCE_DIR "/bench/plain/" + file, interpreter, g);
  engine::Engine* e = g.engine.get();
  uint8_t* s = g.start.data();
  std::vector<uint64_t> out;
  for (int d = 1; d <= max_depth; ++d) {
    uint64_t count = 0;
    REQUIRE(e->perft(s, d, count).ok);
    out.push_back(count);
  }
  return out;
}

/// The first `n` of `counts`.
std::vector<uint64_t> first(std::vector<uint64_t> counts, size_t n) {
  counts.resize(n);
  return counts;
}

// Every game of tic-tac-toe, a win ending it: 255,168 games, 131,184 + 77,904 of them won and
// 46,080 drawn, so 127,872 paths reach the ninth move and none a tenth.
const std::vector<uint64_t> kTicTacToe{9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0};
// 7^n until a column can be full: at the seventh move, the 7 openings that filled one
// column have 6 moves, not 7 (no four can be made before the seventh move).
const std::vector<uint64_t> kConnect4{7, 49, 343, 2401, 16807, 117649, 823536};
// 8 front-row pieces, each straight ahead and diagonally (one diagonal at the edges):
// 8 + 14 = 22; the armies do not meet in three moves.
const std::vector<uint64_t> kBreakthrough{22, 484, 11132};

}  // namespace

TEST_CASE("plain tic-tac-toe: every game, both engines", "[counts][plain]") {
  CHECK(perft_counts("tictactoe.rules", 10, false) == kTicTacToe);
  // The interpreter to the sixth move: the first wins (at the fifth) already cut it.
  CHECK(perft_counts("tictactoe.rules", 6, true) == first(kTicTacToe, 6));
}

TEST_CASE("plain Connect-4 7x6: 7^n less the full columns, both engines", "[counts][plain]") {
  CHECK(perft_counts("connect4.rules", 7, false) == kConnect4);
  CHECK(perft_counts("connect4.rules", 5, true) == first(kConnect4, 5));
}

TEST_CASE("plain breakthrough 8x8: the opening moves, both engines", "[counts][plain]") {
  CHECK(perft_counts("breakthrough.rules", 3, false) == kBreakthrough);
  CHECK(perft_counts("breakthrough.rules", 3, true) == kBreakthrough);
}
