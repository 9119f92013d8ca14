// Distinct positions per depth of the 6x6 placement phase, exactly and up to board symmetry.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "garnsi6_placement.h"

namespace hand::garnsi6 {

/// A board symmetry as a cell permutation: cell c goes to map[c].
struct Symmetry {
  std::string name;
  std::array<uint8_t, kCells> map{};
};

/// Of the 8 symmetries of the square, those that map the set of houses (rows, columns,
/// boxes) onto itself and the blocked cells onto themselves: the ones the rules cannot
/// tell apart. The identity comes first.
std::vector<Symmetry> rule_symmetries(const Placement& game);

/// A position packed in 128 bits: the board as three bit planes of the owner number
/// (1..6, 0 empty), then the player to move and the phase-over flag. The hands are not
/// stored: in phase I a player's hand is 6 minus their pieces on the board.
struct Key {
  uint64_t lo = 0;  ///< plane 0 (36 bits), low 28 bits of plane 1
  uint64_t hi = 0;  ///< high 8 bits of plane 1, plane 2 (36 bits), to_move (3), over (1)
  bool operator==(const Key& o) const { return lo == o.lo && hi == o.hi; }
};

struct LevelCount {
  /// Moves out of the distinct positions of the level before: the transitions a model
  /// checker takes into this level (distinct + revisits).
  uint64_t edges = 0;
  uint64_t distinct = 0;
  /// Classes of the distinct positions under rule_symmetries (orbits, when `closed`).
  uint64_t symmetric = 0;
  /// Every symmetric image of a position is at the level too: always so from the initial
  /// position, usually not from an asymmetric `--after` opening.
  bool closed = true;
};

/// Breadth-first search over positions with exact deduplication. Each level is deduped in
/// as many passes as `memory_budget` bytes of hash table require; the positions of a pass
/// are those whose canonical form hashes into it, so a position and its images meet in
/// the same pass and the orbit count is exact.
class StateCounter {
 public:
  /// Starts at `root` (depth 0).
  StateCounter(const Placement& game, size_t memory_budget, const Position& root);

  /// Expands the current level to the next; keeps the new level only when `keep` (the
  /// last requested depth does not need it stored).
  LevelCount advance(bool keep);
  const std::vector<Symmetry>& symmetries() const { return syms_; }
  int passes_last() const { return passes_last_; }

 private:
  struct Planes {
    uint64_t b0, b1, b2;
  };
  Planes planes_of(const Position& pos) const;
  Planes planes_of(Key k) const;
  Key key_of(const Position& pos) const;
  Position position_of(Key k) const;
  Planes apply(int sym, Planes p) const;
  Planes canonical(Planes p) const;
  Key with_planes(Key k, Planes p) const;

  const Placement& game_;
  size_t budget_;
  std::vector<Symmetry> syms_;
  /// Per symmetry, per byte of a 36-bit plane (5 bytes), the image of each byte value.
  std::vector<std::array<std::array<uint64_t, 256>, 5>> tables_;
  std::vector<Key> level_;
  int passes_last_ = 0;
};

}  // namespace hand::garnsi6
