#include "smyoz_fleets.h"

#include <algorithm>
#include <cstdlib>

namespace hand::smyoz {

using Mask = unsigned __int128;

struct FleetCounter::Stack {
  std::vector<const Placement*> placed;
  std::vector<Mask> halo;  ///< halo[k]: the union of the halos of ships 0..k-1
  std::vector<uint64_t> counts;
  bool symmetric = false;  ///< count the complete fleets each symmetry fixes
  std::vector<uint64_t> fixed;
  /// For the ships before the last: per symmetry, per kind, the image of their cells.
  std::vector<std::vector<Mask>> images;
};

const char* FleetCounter::symmetry_name(int g) {
  static const char* const kNames[kSymmetries] = {
      "identity", "rotate 90", "rotate 180", "rotate 270",
      "mirror rows", "mirror columns", "transpose", "anti-transpose"};
  return kNames[g];
}

FleetCounter::FleetCounter(const Fleet& fleet) : fleet_(fleet) {
  const int n = fleet_.side;
  auto bit = [n](int x, int y) { return Mask{1} << (y * n + x); };
  auto rim = [n](int x, int y) { return x == 0 || y == 0 || x == n - 1 || y == n - 1; };
  auto corner = [n](int x, int y) { return (x == 0 || x == n - 1) && (y == 0 || y == n - 1); };
  for (size_t s = 0; s < fleet_.lengths.size(); ++s)
    kind_.push_back(s == 0 ? 0 : fleet_.lengths[s] == fleet_.lengths[s - 1] ? kind_.back() : kind_.back() + 1);
  for (int len : fleet_.lengths) {
    std::vector<Placement> opts;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        for (int h = 1; h >= 0; --h) {
          if (len == 1 && !h) continue;  // a one-cell ship lies horizontal
          Placement p;
          p.horizontal = h;
          p.length = len;
          p.anchor = y * n + x;
          p.x0 = x;
          p.y0 = y;
          p.x1 = h ? x + len - 1 : x;
          p.y1 = h ? y : y + len - 1;
          if (p.x1 >= n || p.y1 >= n) continue;
          int on_rim = 0;
          bool ok = true;
          for (int k = 0; k < len; ++k) {
            const int cx = h ? x + k : x, cy = h ? y : y + k;
            p.cells |= bit(cx, cy);
            const int m = n - 1;
            const int gx[kSymmetries] = {cx, m - cy, m - cx, cy, cx, m - cx, cy, m - cy};
            const int gy[kSymmetries] = {cy, cx, m - cy, m - cx, m - cy, cy, cx, m - cx};
            for (int g = 0; g < kSymmetries; ++g) p.image[g] |= bit(gx[g], gy[g]);
            for (int dy = -1; dy <= 1; ++dy)
              for (int dx = -1; dx <= 1; ++dx)
                if (cx + dx >= 0 && cx + dx < n && cy + dy >= 0 && cy + dy < n) p.halo |= bit(cx + dx, cy + dy);
            if (rim(cx, cy)) {
              ++on_rim;
              if (corner(cx, cy) || (k != 0 && k != len - 1)) ok = false;  // a tip, not a corner
            }
          }
          if (ok && on_rim <= 1) opts.push_back(p);
        }
    // Row-major anchors, horizontal first at one anchor: the canonical move order.
    options_.push_back(std::move(opts));
  }
}

bool FleetCounter::compatible(const Placement& a, const Placement& b, bool same_kind) const {
  if (a.cells & b.halo) return false;  // corner rule
  // Tip rule: both along one row (or one column): the nearest cells at least 3 apart.
  if (a.y0 == a.y1 && b.y0 == b.y1 && a.y0 == b.y0 &&
      std::max(a.x0, b.x0) - std::min(a.x1, b.x1) < 3)
    return false;
  if (a.x0 == a.x1 && b.x0 == b.x1 && a.x0 == b.x0 &&
      std::max(a.y0, b.y0) - std::min(a.y1, b.y1) < 3)
    return false;
  // Centre rule.
  if (same_kind && (a.x0 + a.x1 == b.x0 + b.x1 || a.y0 + a.y1 == b.y0 + b.y1)) return false;
  // Side rule.
  if (a.length > 1 && b.length > 1 && a.horizontal == b.horizontal) {
    const int overlap = a.horizontal ? std::min(a.x1, b.x1) - std::max(a.x0, b.x0) + 1
                                     : std::min(a.y1, b.y1) - std::max(a.y0, b.y0) + 1;
    const int across = a.horizontal ? std::abs(a.y0 - b.y0) : std::abs(a.x0 - b.x0);
    if (overlap > 1 && across < 3) return false;
  }
  return true;
}

uint64_t FleetCounter::count(Stack& st, int ship, int depth) const {
  // Legal placements of `ship` on top of st.placed; with depth > 1, the subtrees below.
  const int first_anchor =
      ship > 0 && kind_[ship] == kind_[ship - 1] ? st.placed[ship - 1]->anchor + 1 : 0;
  if (st.symmetric && ship + 1 == ships()) images_before(st, ship);
  uint64_t legal = 0;
  for (const Placement& p : options_[ship]) {
    if (p.anchor < first_anchor) continue;
    if (p.cells & st.halo[ship]) continue;
    bool ok = true;
    for (int j = 0; j < ship && ok; ++j) ok = compatible(p, *st.placed[j], kind_[j] == kind_[ship]);
    if (!ok) continue;
    ++legal;
    if (st.symmetric && ship + 1 == ships()) count_fixed(st, ship, p);
    if (depth > 1 && ship + 1 < ships()) {
      st.placed[ship] = &p;
      st.halo[ship + 1] = st.halo[ship] | p.halo;
      count(st, ship + 1, depth - 1);
    }
  }
  st.counts[size_t(ship) + 1] += legal;
  return legal;
}

void FleetCounter::images_before(Stack& st, int ship) const {
  st.images.assign(kSymmetries, std::vector<Mask>(size_t(kind_.back()) + 1, 0));
  for (int j = 0; j < ship; ++j)
    for (int g = 0; g < kSymmetries; ++g) st.images[size_t(g)][size_t(kind_[j])] |= st.placed[j]->image[g];
}

void FleetCounter::count_fixed(Stack& st, int ship, const Placement& last) const {
  // A fleet is fixed by g when g maps the cells of each kind onto themselves: ships of one
  // kind are interchangeable, and as they never touch, each segment maps onto a segment.
  const int kinds = kind_.back() + 1;
  const std::vector<Mask>& own = st.images[0];
  for (int g = 1; g < kSymmetries; ++g) {
    const std::vector<Mask>& img = st.images[size_t(g)];
    bool fixed = true;
    for (int k = 0; k < kinds && fixed; ++k) {
      const bool here = k == kind_[ship];
      fixed = (img[size_t(k)] | (here ? last.image[g] : 0)) == (own[size_t(k)] | (here ? last.cells : 0));
    }
    if (fixed) ++st.fixed[size_t(g)];
  }
  ++st.fixed[0];
}

std::vector<uint64_t> FleetCounter::perft(int depth, void (*progress)(int, int),
                                          std::vector<uint64_t>* fixed) const {
  Stack st;
  st.symmetric = fixed && depth == ships();
  st.fixed.assign(kSymmetries, 0);
  st.placed.assign(ships(), nullptr);
  st.halo.assign(size_t(ships()) + 1, 0);
  st.counts.assign(size_t(ships()) + 1, 0);
  st.counts[0] = 1;
  if (depth >= 1) {
    // The first ship by hand, for progress.
    const auto& first = options_[0];
    int done = 0;
    if (st.symmetric && ships() == 1) images_before(st, 0);
    for (const Placement& p : first) {
      ++st.counts[1];
      if (st.symmetric && ships() == 1) count_fixed(st, 0, p);
      if (depth > 1 && ships() > 1) {
        st.placed[0] = &p;
        st.halo[1] = p.halo;
        count(st, 1, depth - 1);
      }
      if (progress) progress(++done, int(first.size()));
    }
  }
  if (fixed) *fixed = st.symmetric ? st.fixed : std::vector<uint64_t>{};
  std::vector<uint64_t> out(size_t(depth) + 1, 0);
  for (int d = 0; d <= depth && d <= ships(); ++d) out[d] = st.counts[d];
  return out;
}

void FleetCounter::most_water(std::vector<const Placement*>& placed, std::vector<Mask>& halo, int ship,
                              uint32_t lines, int& best, std::vector<const Placement*>& best_fleet) const {
  const int n = fleet_.side;
  if (ship == ships()) {
    const int water = 2 * n - __builtin_popcount(lines);
    if (water > best) {
      best = water;
      best_fleet = placed;
    }
    return;
  }
  const int first_anchor = ship > 0 && kind_[ship] == kind_[ship - 1] ? placed[ship - 1]->anchor + 1 : 0;
  for (const Placement& p : options_[ship]) {
    if (p.anchor < first_anchor) continue;
    if (p.cells & halo[ship]) continue;
    // Rows y0..y1 are bits 0..n-1, columns x0..x1 bits n..2n-1.
    uint32_t more = lines;
    for (int y = p.y0; y <= p.y1; ++y) more |= 1u << y;
    for (int x = p.x0; x <= p.x1; ++x) more |= 1u << (n + x);
    if (2 * n - __builtin_popcount(more) <= best) continue;  // cannot beat the best
    bool ok = true;
    for (int j = 0; j < ship && ok; ++j) ok = compatible(p, *placed[j], kind_[j] == kind_[ship]);
    if (!ok) continue;
    placed[ship] = &p;
    halo[ship + 1] = halo[ship] | p.halo;
    most_water(placed, halo, ship + 1, more, best, best_fleet);
  }
}

int FleetCounter::most_water_lines(std::vector<std::pair<int, bool>>* fleet) const {
  std::vector<const Placement*> placed(size_t(ships()), nullptr), best_fleet;
  std::vector<Mask> halo(size_t(ships()) + 1, 0);
  int best = -1;
  most_water(placed, halo, 0, 0, best, best_fleet);
  if (fleet) {
    fleet->clear();
    for (const Placement* p : best_fleet) fleet->emplace_back(p->anchor, p->horizontal);
  }
  return best;
}

}  // namespace hand::smyoz
