// Known counts: a cooperative Sudoku fill reaches exactly the complete grids, 288 on 4x4
// and 28,200,960 on 6x6 with 2x3 boxes (the published counts of Sudoku grids).
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/engines/open_engine.h"

using namespace rulebook;

namespace {

/// Paths of exactly `cells` moves from the start: every game that fills the whole grid.
uint64_t complete_grids(const char* file, int cells, bool interpreter) {
  testing::OpenedEngine g;
  testing::open_engine(std::string(RULEBOOK_SOURCE_DIR "/variants/sudoku-fill/") + file, interpreter, g);
  engine::Engine* e = g.engine.get();
  uint8_t* s = g.start.data();
  uint64_t count = 0;
  REQUIRE(e->perft(s, cells, count).ok);
  uint64_t beyond = 1;
  REQUIRE(e->perft(s, cells + 1, beyond).ok);
  CHECK(beyond == 0);  // a complete grid ends the game
  return count;
}

}  // namespace

TEST_CASE("4x4 fill: 288 complete grids, both engines", "[counts]") {
  CHECK(complete_grids("fill-4x4.rules", 16, false) == 288);
  CHECK(complete_grids("fill-4x4.rules", 16, true) == 288);
}

TEST_CASE("6x6 fill: 28,200,960 complete grids", "[counts]") {
  CHECK(complete_grids("fill-6x6.rules", 36, false) == 28200960);
}
