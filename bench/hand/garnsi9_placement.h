// Hand-written bitboard engine of the placement phase of Garnsi-Malom for 9 players (9x9).
//
// An independent baseline for the generated engine of variants/garnsi-malom/garnsi-9.rules;
// it shares no code with rulebook. The rules, as that file defines them:
// - a 9x9 board, boxes of 3 x 3, players p1..p9 in seat order, 9 pieces each;
// - `place(c)` is legal when the mover has a piece in hand, c is empty and no piece of the
//   mover stands in c's row, column or box (the rule `sudoku`);
// - `sacrifice` is legal whenever the mover has a piece in hand: the piece leaves the game;
// - the turn passes to the next seat; the phase is over when every hand is empty (terminal
//   here). Every move empties one hand slot, so that is after exactly 81 moves.
// Legal moves in canonical order: place by ascending cell (row * 9 + col), then sacrifice.
#pragma once

#include <array>
#include <cstdint>

#include "popcount.h"

namespace hand::garnsi9 {

inline constexpr int kSide = 9;
inline constexpr int kCells = kSide * kSide;
inline constexpr int kPlayers = 9;
inline constexpr int kPiecesEach = 9;

/// 81 cells in two words: cells 0..63 in `lo`, 64..80 in `hi`.
struct Bits {
  uint64_t lo = 0;
  uint64_t hi = 0;
  Bits operator&(Bits o) const { return {lo & o.lo, hi & o.hi}; }
  Bits operator|(Bits o) const { return {lo | o.lo, hi | o.hi}; }
  Bits operator~() const { return {~lo, ~hi}; }
  Bits& operator|=(Bits o) {
    lo |= o.lo;
    hi |= o.hi;
    return *this;
  }
  Bits& operator&=(Bits o) {
    lo &= o.lo;
    hi &= o.hi;
    return *this;
  }
  bool any() const { return (lo | hi) != 0; }
  int count() const { return hand::popcount(lo) + hand::popcount(hi); }
  static Bits cell(int c) {
    return c < 64 ? Bits{uint64_t{1} << c, 0} : Bits{0, uint64_t{1} << (c - 64)};
  }
};
inline constexpr Bits kAllCells = {~uint64_t{0}, (uint64_t{1} << (kCells - 64)) - 1};

/// A move is a cell index 0..80 (`place(c)`) or kSacrifice.
using Move = uint8_t;
inline constexpr Move kSacrifice = kCells;
inline constexpr int kMaxMoves = kCells + 1;

struct Position {
  std::array<Bits, kPlayers> own{};
  std::array<Bits, kPlayers> barred{};  ///< cells sharing a row, column or box with own
  Bits occupied{};
  std::array<uint8_t, kPlayers> in_hand{};
  uint8_t to_move = 0;  ///< seat index 0..8
  uint8_t left = 0;     ///< pieces in all hands; the phase is over at 0

  int occupied_count() const { return occupied.count(); }
};

struct Undo {
  Bits barred{};
  uint8_t mover = 0;
};

class Placement {
 public:
  Placement();

  Position initial() const;

  Bits place_mask(const Position& pos) const {
    if (pos.in_hand[pos.to_move] == 0) return {};
    return kAllCells & ~pos.occupied & ~pos.barred[pos.to_move];
  }

  int legal_moves(const Position& pos, Move* out) const;

  int count_moves(const Position& pos) const {
    if (pos.left == 0 || pos.in_hand[pos.to_move] == 0) return 0;
    return place_mask(pos).count() + 1;
  }

  void play(Position& pos, Move m, Undo& u) const {
    const int p = pos.to_move;
    u.mover = static_cast<uint8_t>(p);
    pos.in_hand[p] -= 1;
    pos.left -= 1;
    if (m != kSacrifice) {
      u.barred = pos.barred[p];
      const Bits bit = Bits::cell(m);
      pos.own[p] |= bit;
      pos.occupied |= bit;
      pos.barred[p] |= peers_[m];
    }
    pos.to_move = next_[p];
  }

  void undo(Position& pos, Move m, const Undo& u) const {
    const int p = u.mover;
    pos.to_move = u.mover;
    pos.in_hand[p] += 1;
    pos.left += 1;
    if (m != kSacrifice) {
      const Bits bit = ~Bits::cell(m);
      pos.own[p] &= bit;
      pos.occupied &= bit;
      pos.barred[p] = u.barred;
    }
  }

  bool is_ok(const Position& pos) const;

 private:
  std::array<Bits, kCells> peers_{};
  std::array<uint8_t, kPlayers> next_{};
};

}  // namespace hand::garnsi9
