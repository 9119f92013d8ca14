// Hand-written bitboard engine of the placement phase of Garnsi-Malom on 6x6 (two teams).
//
// An independent baseline for the generated engine of
// variants/garnsi-malom/garnsi-6x6.rules: it shares no code with rulebook. The rules, as
// that file (and the chain garnsi-lesson.rules, garnsi-9.rules) defines them:
// - a 6x6 board, boxes of 2 rows x 3 columns, players p1..p6 in seat order, 6 pieces each;
// - `place(c)` is legal when the mover has a piece in hand, c is empty, c is not one of
//   the two blocked cells, and no piece of the mover stands in c's row, column or box;
// - `pass` is legal when the mover has no legal `place`;
// - after every move the turn passes to the next seat; after a move that leaves no player
//   able to place, the placement phase is over (terminal here: the battle is not modelled).
// Legal moves in canonical order: place by ascending cell (row * 6 + col), then pass.
#pragma once

#include <array>
#include <cstdint>

#include "popcount.h"

namespace hand::garnsi6 {

inline constexpr int kSide = 6;
inline constexpr int kCells = kSide * kSide;
inline constexpr int kBoxRows = 2;
inline constexpr int kBoxCols = 3;
inline constexpr int kPlayers = 6;
inline constexpr int kPiecesEach = 6;
inline constexpr uint64_t kAllCells = (uint64_t{1} << kCells) - 1;

/// A move is a cell index 0..35 (`place(c)`) or kPass.
using Move = uint8_t;
inline constexpr Move kPass = kCells;
/// Upper bound on the legal moves of one position (34 places; pass only when none).
inline constexpr int kMaxMoves = kCells;

/// A position of the placement phase. Plain bytes: copy freely.
struct Position {
  std::array<uint64_t, kPlayers> own{};  ///< cells holding each player's pieces
  /// Cells in a row, column or box of one of the player's pieces (so `place` is barred).
  std::array<uint64_t, kPlayers> barred{};
  uint64_t occupied = 0;
  std::array<uint8_t, kPlayers> in_hand{};
  uint8_t to_move = 0;  ///< seat index 0..5 (p1..p6)
  uint8_t over = 0;     ///< 1 once no player can place: the phase has ended

  int occupied_count() const { return hand::popcount(occupied); }
};

/// What `play` needs to restore the position exactly.
struct Undo {
  uint64_t barred = 0;
  uint8_t mover = 0;
  uint8_t over = 0;
};

class Placement {
 public:
  /// `blocked`: the two cells unusable in phase I (row * 6 + col each).
  explicit Placement(std::array<int, 2> blocked = {0, 35});

  Position initial() const;

  /// The cells where the player to move may place (empty once the phase is over).
  uint64_t place_mask(const Position& pos) const {
    if (pos.in_hand[pos.to_move] == 0) return 0;
    return usable_ & ~pos.occupied & ~pos.barred[pos.to_move];
  }

  /// Writes the legal moves in canonical order; returns how many (0 once over).
  int legal_moves(const Position& pos, Move* out) const;

  /// Number of legal moves, without listing them (the perft leaf count).
  int count_moves(const Position& pos) const {
    if (pos.over) return 0;
    const uint64_t m = place_mask(pos);
    return m ? hand::popcount(m) : 1;
  }

  /// Plays a legal move; `undo` restores the position before it.
  void play(Position& pos, Move m, Undo& u) const {
    const int p = pos.to_move;
    u.mover = static_cast<uint8_t>(p);
    u.over = pos.over;
    u.barred = pos.barred[p];
    if (m != kPass) {
      const uint64_t bit = uint64_t{1} << m;
      pos.own[p] |= bit;
      pos.occupied |= bit;
      pos.barred[p] |= peers_[m];
      pos.in_hand[p] -= 1;
      // Only a placement can end the phase: a pass changes nothing a `can(place)` reads.
      pos.over = !anyone_can_place(pos, next_[p]);
    }
    pos.to_move = next_[p];
  }

  void undo(Position& pos, Move m, const Undo& u) const {
    const int p = u.mover;
    pos.to_move = u.mover;
    pos.over = u.over;
    if (m != kPass) {
      const uint64_t bit = uint64_t{1} << m;
      pos.own[p] &= ~bit;
      pos.occupied &= ~bit;
      pos.barred[p] = u.barred;
      pos.in_hand[p] += 1;
    }
  }

  /// The rows, columns and boxes through `cell`, as one mask (the cell included).
  uint64_t peers(int cell) const { return peers_[cell]; }
  uint64_t usable() const { return usable_; }
  std::array<int, 2> blocked() const { return blocked_; }

  /// Recomputes the derived fields (barred, occupied, in_hand, over) from `own`.
  void complete(Position& pos) const;

  /// Checks the invariants a position reached by play must satisfy (for debug builds and
  /// tests); returns false on the first violation.
  bool is_ok(const Position& pos) const;

 private:
  bool anyone_can_place(const Position& pos, int first) const {
    const uint64_t free_cells = usable_ & ~pos.occupied;
    // Starting at the next seat: that player can usually place, so the loop ends at once.
    int q = first;
    for (int i = 0; i < kPlayers; ++i) {
      if (pos.in_hand[q] != 0 && (free_cells & ~pos.barred[q]) != 0) return true;
      q = next_[q];
    }
    return false;
  }

  std::array<uint64_t, kCells> peers_{};
  std::array<uint8_t, kPlayers> next_{};
  std::array<int, 2> blocked_{};
  uint64_t usable_ = 0;
};

}  // namespace hand::garnsi6
