// The board tables of a geometry, and the connected groups of a set of cells.
#include "compiler/ir/board_tables.h"

namespace rulebook::ir {

BoardTables::BoardTables(const Geometry& geometry) {
  width = geometry.width;
  height = geometry.height;
  cells = width * height;
  points = (width + 1) * (height + 1);
  const size_t cw = words(uint32_t(cells)), pw = words(uint32_t(points));
  all_cells.assign(cw, 0);
  edge.assign(cw, 0);
  corner_cells.assign(cw, 0);
  inner_points.assign(pw, 0);
  rim_points.assign(pw, 0);
  auto cell = [&](int y, int x) { return y * width + x; };
  auto inside = [&](int y, int x) { return y >= 0 && y < height && x >= 0 && x < width; };
  for (int y = 0; y < height; ++y) {
    Bits r(cw, 0);
    for (int x = 0; x < width; ++x) set_bit(r, cell(y, x));
    row_sets.push_back(r);
  }
  for (int x = 0; x < width; ++x) {
    Bits c(cw, 0);
    for (int y = 0; y < height; ++y) set_bit(c, cell(y, x));
    column_sets.push_back(c);
  }
  line_sets = row_sets;
  line_sets.insert(line_sets.end(), column_sets.begin(), column_sets.end());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int c = cell(y, x);
      set_bit(all_cells, c);
      if (x == 0 || y == 0 || x == width - 1 || y == height - 1) set_bit(edge, c);
      if ((x == 0 || x == width - 1) && (y == 0 || y == height - 1)) set_bit(corner_cells, c);
      Bits o(cw, 0), d(cw, 0), k(cw, 0), cr(pw, 0);
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || !inside(y + dy, x + dx)) continue;
          set_bit(k, cell(y + dy, x + dx));
          set_bit(dx == 0 || dy == 0 ? o : d, cell(y + dy, x + dx));
        }
      }
      for (int py = y; py <= y + 1; ++py)
        for (int px = x; px <= x + 1; ++px) set_bit(cr, py * (width + 1) + px);
      orth.push_back(o);
      diag.push_back(d);
      king.push_back(k);
      row.push_back(row_sets[size_t(y)]);
      column.push_back(column_sets[size_t(x)]);
      corners.push_back(cr);
    }
  }
  for (int py = 0; py <= height; ++py) {
    for (int px = 0; px <= width; ++px) {
      const int pt = py * (width + 1) + px;
      if (px > 0 && py > 0 && px < width && py < height) set_bit(inner_points, pt);
      else set_bit(rim_points, pt);
      Bits a(cw, 0);
      for (int y = py - 1; y <= py; ++y)
        for (int x = px - 1; x <= px; ++x)
          if (inside(y, x)) set_bit(a, cell(y, x));
      around.push_back(a);
    }
  }
}

std::vector<Bits> BoardTables::groups(const Bits& set) const {
  std::vector<Bits> out;
  Bits seen(set.size(), 0);
  std::vector<int> queue;
  for (int c = 0; c < cells; ++c) {
    if (!test(set, c) || test(seen, c)) continue;
    Bits g(set.size(), 0);
    queue.assign(1, c);
    set_bit(seen, c);
    while (!queue.empty()) {
      const int x = queue.back();
      queue.pop_back();
      set_bit(g, x);
      const Bits& n = orth[size_t(x)];
      for (size_t w = 0; w < n.size(); ++w)
        for (uint64_t word = n[w] & set[w] & ~seen[w]; word; word &= word - 1) {
          const int y = int(w * 64) + __builtin_ctzll(word);
          set_bit(seen, y);
          queue.push_back(y);
        }
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace rulebook::ir
