// Breadth-first distinct-position counts of the 6x6 placement phase, with symmetry orbits.
#include "garnsi6_states.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <tuple>

namespace hand::garnsi6 {

namespace {

constexpr uint64_t kPlane = (uint64_t{1} << kCells) - 1;

uint64_t mix(uint64_t lo, uint64_t hi, uint64_t seed) {
  uint64_t h = (lo ^ seed) * 0x9e3779b97f4a7c15ull;
  h ^= ((hi + seed) * 0xc2b2ae3d27d4eb4full) >> 7 | (hi * 0xc2b2ae3d27d4eb4full) << 57;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 32;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 29);
}

// Multiply-shift range reduction: uses the high bits, so tables need no power-of-two size.
size_t reduce(uint64_t h, size_t n) {
  return static_cast<size_t>((static_cast<unsigned __int128>(h) * n) >> 64);
}

// Distinct seeds keep the pass choice and the slot choice independent; with one hash the
// keys of a pass would all fall into one slice of the table.
constexpr uint64_t kSlotSeed = 0x243f6a8885a308d3ull;
constexpr uint64_t kPassSeed = 0x13198a2e03707344ull;

/// Open addressing with linear probing; a key's `hi` never has bit 63 set, so all-ones
/// marks an empty slot. The table is far larger than the caches, so keys come in batches:
/// every slot of a batch is prefetched before the first probe, and the table asks for huge
/// pages, which cuts the TLB misses of random probes.
class KeySet {
 public:
  static constexpr int kBatch = 32;

  KeySet() = default;
  KeySet(const KeySet&) = delete;
  KeySet& operator=(const KeySet&) = delete;
  ~KeySet() { std::free(slots_); }

  void reset(size_t capacity) {
    std::free(slots_);
    cap_ = std::max<size_t>(capacity, 1024);
    const size_t bytes = (cap_ * sizeof(Key) + kHuge - 1) / kHuge * kHuge;
    void* p = nullptr;
    if (posix_memalign(&p, kHuge, bytes) != 0) std::abort();
    madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without it, only slower
    slots_ = static_cast<Key*>(p);
    std::memset(static_cast<void*>(slots_), 0xff, cap_ * sizeof(Key));
    size_ = 0;
  }
  /// Inserts keys[0..n), n <= kBatch.
  void insert(const Key* keys, int n) {
    if ((size_ + size_t(n)) * 10 > cap_ * 8) grow();
    size_t at[kBatch];
    for (int i = 0; i < n; ++i) {
      at[i] = reduce(mix(keys[i].lo, keys[i].hi, kSlotSeed), cap_);
      __builtin_prefetch(slots_ + at[i], 1);
    }
    for (int i = 0; i < n; ++i) place(keys[i], at[i]);
  }
  /// How many of keys[0..n) are absent, n <= kBatch.
  int count_missing(const Key* keys, int n) const {
    size_t at[kBatch];
    for (int i = 0; i < n; ++i) {
      at[i] = reduce(mix(keys[i].lo, keys[i].hi, kSlotSeed), cap_);
      __builtin_prefetch(slots_ + at[i]);
    }
    int missing = 0;
    for (int i = 0; i < n; ++i) {
      size_t j = at[i];
      while (!is_empty(slots_[j]) && !(slots_[j] == keys[i]))
        if (++j == cap_) j = 0;
      missing += is_empty(slots_[j]);
    }
    return missing;
  }
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < cap_; ++i)
      if (!is_empty(slots_[i])) f(slots_[i]);
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kHuge = size_t{2} << 20;
  static bool is_empty(const Key& k) { return k.hi == ~uint64_t{0}; }
  void place(const Key& k, size_t j) {
    while (!is_empty(slots_[j])) {
      if (slots_[j] == k) return;
      if (++j == cap_) j = 0;
    }
    slots_[j] = k;
    ++size_;
  }
  void grow() {
    Key* old = slots_;
    const size_t old_cap = cap_;
    slots_ = nullptr;
    reset(old_cap * 2);
    for (size_t i = 0; i < old_cap; ++i)
      if (!is_empty(old[i])) place(old[i], reduce(mix(old[i].lo, old[i].hi, kSlotSeed), cap_));
    std::free(old);
  }
  Key* slots_ = nullptr;
  size_t cap_ = 0;
  size_t size_ = 0;
};

uint64_t image(uint64_t cells, const std::array<uint8_t, kCells>& map) {
  uint64_t out = 0;
  for (; cells; cells &= cells - 1) out |= uint64_t{1} << map[__builtin_ctzll(cells)];
  return out;
}

}  // namespace

std::vector<Symmetry> rule_symmetries(const Placement& game) {
  const int n = kSide - 1;
  const std::array<std::pair<const char*, std::function<std::pair<int, int>(int, int)>>, 8> square =
      {{
          {"identity",
           [](int r, int c) {
             return std::pair{r, c};
           }},
          {"rotate 90",
           [n](int r, int c) {
             return std::pair{c, n - r};
           }},
          {"rotate 180",
           [n](int r, int c) {
             return std::pair{n - r, n - c};
           }},
          {"rotate 270",
           [n](int r, int c) {
             return std::pair{n - c, r};
           }},
          {"mirror rows",
           [n](int r, int c) {
             return std::pair{n - r, c};
           }},
          {"mirror columns",
           [n](int r, int c) {
             return std::pair{r, n - c};
           }},
          {"transpose",
           [](int r, int c) {
             return std::pair{c, r};
           }},
          {"anti-transpose",
           [n](int r, int c) {
             return std::pair{n - c, n - r};
           }},
      }};
  // The houses: rows, columns and boxes, the regions the sudoku rule reads.
  std::vector<uint64_t> houses;
  for (int i = 0; i < kSide; ++i) {
    uint64_t row = 0, col = 0, box = 0;
    for (int j = 0; j < kSide; ++j) {
      row |= uint64_t{1} << (i * kSide + j);
      col |= uint64_t{1} << (j * kSide + i);
    }
    // Box i: boxes are numbered row-major, kSide / kBoxCols of them per band of rows.
    const int top = i / (kSide / kBoxCols) * kBoxRows, left = i % (kSide / kBoxCols) * kBoxCols;
    for (int r = top; r < top + kBoxRows; ++r)
      for (int c = left; c < left + kBoxCols; ++c) box |= uint64_t{1} << (r * kSide + c);
    houses.insert(houses.end(), {row, col, box});
  }
  // The engine's peer masks must be exactly the union of the houses through a cell.
  for (int c = 0; c < kCells; ++c) {
    uint64_t union_of = 0;
    for (uint64_t h : houses)
      if ((h >> c) & 1) union_of |= h;
    if (union_of != game.peers(c)) return {};
  }
  uint64_t blocked = 0;
  for (int c : game.blocked()) blocked |= uint64_t{1} << c;

  std::vector<Symmetry> out;
  for (const auto& [name, f] : square) {
    Symmetry s;
    s.name = name;
    for (int c = 0; c < kCells; ++c) {
      auto [r2, c2] = f(c / kSide, c % kSide);
      s.map[c] = static_cast<uint8_t>(r2 * kSide + c2);
    }
    bool keeps = image(blocked, s.map) == blocked;
    for (uint64_t h : houses)
      keeps = keeps && std::find(houses.begin(), houses.end(), image(h, s.map)) != houses.end();
    if (keeps) out.push_back(s);
  }
  return out;
}

StateCounter::StateCounter(const Placement& game, size_t memory_budget, const Position& root)
    : game_(game), budget_(memory_budget), syms_(rule_symmetries(game)) {
  tables_.resize(syms_.size());
  for (size_t g = 0; g < syms_.size(); ++g)
    for (int byte = 0; byte < 5; ++byte)
      for (int v = 0; v < 256; ++v)
        tables_[g][byte][v] = image((uint64_t(v) << (8 * byte)) & kPlane, syms_[g].map);
  level_.push_back(key_of(root));
}

// Owner numbers 1..6 written in binary across three planes.
StateCounter::Planes StateCounter::planes_of(const Position& pos) const {
  const auto& o = pos.own;
  return {o[0] | o[2] | o[4], o[1] | o[2] | o[5], o[3] | o[4] | o[5]};
}

Key StateCounter::with_planes(Key k, Planes p) const {
  return {p.b0 | (p.b1 << 36), (p.b1 >> 28) | (p.b2 << 8) | (k.hi & ~((uint64_t{1} << 44) - 1))};
}

Key StateCounter::key_of(const Position& pos) const {
  const Key flags{0, uint64_t{pos.to_move} << 44 | uint64_t{pos.over} << 47};
  return with_planes(flags, planes_of(pos));
}

StateCounter::Planes StateCounter::planes_of(Key k) const {
  return {k.lo & kPlane, (k.lo >> 36) | ((k.hi & 0xff) << 28), (k.hi >> 8) & kPlane};
}

Position StateCounter::position_of(Key k) const {
  const auto [b0, b1, b2] = planes_of(k);
  Position pos;
  for (int p = 0; p < kPlayers; ++p) {
    const int v = p + 1;
    pos.own[p] = (v & 1 ? b0 : ~b0) & (v & 2 ? b1 : ~b1) & (v & 4 ? b2 : ~b2) & kPlane;
  }
  pos.to_move = static_cast<uint8_t>((k.hi >> 44) & 7);
  game_.complete(pos);
  return pos;
}

StateCounter::Planes StateCounter::apply(int sym, Planes p) const {
  const auto& t = tables_[sym];
  auto one = [&t](uint64_t x) {
    return t[0][x & 255] | t[1][(x >> 8) & 255] | t[2][(x >> 16) & 255] | t[3][(x >> 24) & 255] |
           t[4][(x >> 32) & 255];
  };
  return {one(p.b0), one(p.b1), one(p.b2)};
}

StateCounter::Planes StateCounter::canonical(Planes p) const {
  Planes best = p;
  for (size_t g = 1; g < syms_.size(); ++g) {
    const Planes q = apply(static_cast<int>(g), p);
    if (std::tie(q.b2, q.b1, q.b0) < std::tie(best.b2, best.b1, best.b0)) best = q;
  }
  return best;
}

LevelCount StateCounter::advance(bool keep) {
  uint64_t children = 0;
  for (const Key& k : level_) children += game_.count_moves(position_of(k));

  constexpr double kLoad = 0.7;
  const double need = double(children) * sizeof(Key) / kLoad;
  const uint64_t passes = std::max<uint64_t>(1, uint64_t(std::ceil(need / double(budget_))));
  passes_last_ = static_cast<int>(passes);

  LevelCount out;
  out.edges = children;
  std::vector<Key> next;
  KeySet set;
  Move moves[kMaxMoves];
  Key batch[KeySet::kBatch];
  int batched = 0;
  for (uint64_t pass = 0; pass < passes; ++pass) {
    set.reset(size_t(double(children) / double(passes) / kLoad * 1.05));
    for (const Key& parent : level_) {
      Position pos = position_of(parent);
      const Planes pp = planes_of(pos);
      const int v = pos.to_move + 1;
      const uint64_t next_mover = uint64_t((pos.to_move + 1) % kPlayers);
      const int n = game_.legal_moves(pos, moves);
      for (int i = 0; i < n; ++i) {
        Planes cp = pp;
        if (moves[i] != kPass) {
          const uint64_t bit = uint64_t{1} << moves[i];
          cp = {pp.b0 | (v & 1 ? bit : 0), pp.b1 | (v & 2 ? bit : 0), pp.b2 | (v & 4 ? bit : 0)};
        }
        if (passes > 1) {
          // The phase-over flag is a function of the board, so the choice may ignore it.
          const Key ck = with_planes(Key{0, next_mover << 44}, canonical(cp));
          if (reduce(mix(ck.lo, ck.hi, kPassSeed), passes) != pass) continue;
        }
        Undo u;
        game_.play(pos, moves[i], u);
        batch[batched++] = key_of(pos);
        game_.undo(pos, moves[i], u);
        if (batched == KeySet::kBatch) {
          set.insert(batch, batched);
          batched = 0;
        }
      }
    }
    set.insert(batch, batched);
    batched = 0;

    // Closure: each symmetric image of a position of this pass must be in the pass too.
    // From the initial position it always is (the rules cannot tell the images apart).
    std::vector<Key> images[8];
    bool closed = true;
    auto check_images = [&](int g) {
      if (set.count_missing(images[g].data(), int(images[g].size())) != 0) closed = false;
      images[g].clear();
    };
    set.for_each([&](const Key& k) {
      ++out.distinct;
      const Planes p = planes_of(k);
      for (size_t g = 1; g < syms_.size(); ++g) {
        images[g].push_back(with_planes(k, apply(static_cast<int>(g), p)));
        if (images[g].size() == KeySet::kBatch) check_images(int(g));
      }
      if (keep) next.push_back(k);
    });
    for (size_t g = 1; g < syms_.size(); ++g) check_images(int(g));
    out.closed = out.closed && closed;

    // A class is counted at its least member present; when the pass is closed, that is
    // the canonical form, and no lookups are needed.
    set.for_each([&](const Key& k) {
      const Planes p = planes_of(k);
      bool least = true;
      for (size_t g = 1; g < syms_.size() && least; ++g) {
        const Planes q = apply(static_cast<int>(g), p);
        if (std::tie(q.b2, q.b1, q.b0) < std::tie(p.b2, p.b1, p.b0)) {
          const Key image = with_planes(k, q);
          least = !closed && set.count_missing(&image, 1) == 1;
        }
      }
      out.symmetric += least;
    });
  }
  level_.swap(next);
  return out;
}

}  // namespace hand::garnsi6
