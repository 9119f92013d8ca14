// The board's neighbourhood, line and corner-point tables of a program's geometry, built
// once and read by every stage that evaluates rules on concrete boards.
#pragma once

#include <vector>

#include "compiler/ir/bits.h"
#include "compiler/ir/ir.h"

namespace rulebook::ir {

/// Cells are `y * width + x`; corner points (where grid lines cross) are
/// `py * (width + 1) + px`. Every set is a Bits over cells unless it says points.
struct BoardTables {
  explicit BoardTables(const Geometry& geometry);

  int width = 0, height = 0, cells = 0, points = 0;
  Bits all_cells, edge, corner_cells;
  Bits inner_points, rim_points;  ///< sets of points: off the rim, on it
  /// Per cell: orthogonal, diagonal and all eight neighbours, its row and its column.
  std::vector<Bits> orth, diag, king, row, column;
  std::vector<Bits> corners;  ///< per cell: its four corner points
  std::vector<Bits> around;   ///< per point: the (up to four) cells that touch it
  std::vector<Bits> row_sets, column_sets;  ///< by y, by x
  std::vector<Bits> line_sets;              ///< the rows, then the columns

  /// The orthogonally connected groups of the cells in `set`, by their smallest cell.
  std::vector<Bits> groups(const Bits& set) const;
};

}  // namespace rulebook::ir
