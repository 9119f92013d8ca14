// The fact the encoder states of every count of components (encode_components.cpp):
// components >= cells - adjacent pairs + 2x2 blocks, from Euler's formula with the holes
// left out. Checked here apart from the encoder, on every set of cells of small boards:
// components = cells - pairs + blocks + holes exactly, a hole being a region of cells
// outside the set, connected through corners too, that does not reach the board's edge.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

namespace {

struct Figures {
  int components = 0, cells = 0, pairs = 0, blocks = 0, holes = 0;
};

/// The groups of cells `inside` says, under 4 (orthogonal) or 8 (king) neighbourhood;
/// `edge_touching` counts the groups with a cell on the board's edge.
int groups(int w, int h, const std::vector<char>& inside, bool king, int* edge_touching) {
  std::vector<char> seen(inside.size(), 0);
  int count = 0;
  if (edge_touching) *edge_touching = 0;
  for (int start = 0; start < w * h; ++start) {
    if (!inside[size_t(start)] || seen[size_t(start)]) continue;
    ++count;
    bool edge = false;
    std::vector<int> stack{start};
    seen[size_t(start)] = 1;
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      const int x = c % w, y = c / w;
      edge = edge || x == 0 || y == 0 || x == w - 1 || y == h - 1;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || (!king && dx != 0 && dy != 0)) continue;
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const int d = ny * w + nx;
          if (inside[size_t(d)] && !seen[size_t(d)]) {
            seen[size_t(d)] = 1;
            stack.push_back(d);
          }
        }
    }
    if (edge && edge_touching) ++*edge_touching;
  }
  return count;
}

Figures figures(int w, int h, uint32_t set) {
  Figures f;
  std::vector<char> in(size_t(w * h)), out(size_t(w * h));
  for (int c = 0; c < w * h; ++c) {
    in[size_t(c)] = char((set >> c) & 1u);
    out[size_t(c)] = char(!in[size_t(c)]);
  }
  auto at = [&](int x, int y) { return in[size_t(y * w + x)] != 0; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      if (!at(x, y)) continue;
      ++f.cells;
      f.pairs += (x + 1 < w && at(x + 1, y)) + (y + 1 < h && at(x, y + 1));
      f.blocks += x + 1 < w && y + 1 < h && at(x + 1, y) && at(x, y + 1) && at(x + 1, y + 1);
    }
  f.components = groups(w, h, in, false, nullptr);
  int reaching = 0;
  f.holes = groups(w, h, out, true, &reaching) - reaching;
  return f;
}

}  // namespace

TEST_CASE("components = cells - pairs + blocks + holes on every set of 4x4, 5x4 and 3x6 cells") {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{4, 4}, {5, 4}, {3, 6}}) {
    int64_t with_holes = 0, exact_lower = 0;
    for (uint32_t set = 0; set < (1u << (w * h)); ++set) {
      const Figures f = figures(w, h, set);
      INFO(w << "x" << h << " set " << set);
      REQUIRE(f.components == f.cells - f.pairs + f.blocks + f.holes);
      REQUIRE(f.components >= f.cells - f.pairs + f.blocks);  // the fact the encoder states
      with_holes += f.holes > 0;
      exact_lower += f.holes == 0;
    }
    // Both kinds occur: the check is not vacuous on either side.
    CHECK(with_holes > 0);
    CHECK(exact_lower > 0);
  }
}
