// A board as the report's step-through viewer holds it: each cell's look as a few plain
// values (what board_svg draws in it), so a page can keep many boards compactly (a table
// of distinct looks, one index per cell) and an inline script can draw them as board_svg
// does, in the same colours and with the same labels.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/ir/ir.h"
#include "render/board.h"

namespace rulebook::render {

/// What board_svg draws in one cell.
struct CellLook {
  enum Flag { kBlocked = 1, kFilled = 2, kGiven = 4, kMoved = 8, kCaptured = 16 };
  std::string fill;   ///< the background (cell_fill)
  std::string disc;   ///< the piece's colour, "" when no piece
  std::string label;  ///< the cell's text
  std::string ink;    ///< the text's colour
  std::string notes;  ///< the other Cell-keyed variables, space separated
  int flags = 0;
  bool operator<(const CellLook& o) const {
    return std::tie(fill, disc, label, ink, notes, flags) < std::tie(o.fill, o.disc, o.label, o.ink, o.notes, o.flags);
  }
  bool operator==(const CellLook& o) const { return !(*this < o) && !(o < *this); }
};

/// A board's cells (row-major) and the legend board_svg writes under it.
struct BoardLooks {
  std::vector<CellLook> cells;
  std::vector<std::string> legend;
};

/// The looks of `state`'s cells, the last move marked as board_svg marks it.
BoardLooks board_looks(const ir::Program& program, const uint8_t* state, const LastMove* last = nullptr);

/// What every board of a game shares: its size and the region of each cell (empty when the
/// rules have no region set), from which the thick borders are drawn.
struct BoardFrame {
  int width = 0, height = 0;
  std::vector<int> region_of;
};
BoardFrame board_frame(const ir::Program& program);

}  // namespace rulebook::render
