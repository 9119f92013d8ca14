// Tables and slow-path helpers of the 9-player placement engine (the hot path is in the header).
#include "garnsi9_placement.h"

namespace hand::garnsi9 {

namespace {

int box_of(int cell) { return (cell / kSide) / 3 * 3 + (cell % kSide) / 3; }

int lowest(Bits b) { return b.lo ? __builtin_ctzll(b.lo) : 64 + __builtin_ctzll(b.hi); }

}  // namespace

Placement::Placement() {
  for (int a = 0; a < kCells; ++a) {
    Bits m;
    for (int b = 0; b < kCells; ++b) {
      const bool same_row = a / kSide == b / kSide;
      const bool same_col = a % kSide == b % kSide;
      if (same_row || same_col || box_of(a) == box_of(b)) m |= Bits::cell(b);
    }
    peers_[a] = m;
  }
  for (int p = 0; p < kPlayers; ++p) next_[p] = static_cast<uint8_t>((p + 1) % kPlayers);
}

Position Placement::initial() const {
  Position pos;
  pos.in_hand.fill(kPiecesEach);
  pos.left = kPlayers * kPiecesEach;
  return pos;
}

int Placement::legal_moves(const Position& pos, Move* out) const {
  if (pos.left == 0 || pos.in_hand[pos.to_move] == 0) return 0;
  int n = 0;
  // Two words, low first, so cells come out in ascending order.
  for (uint64_t m = place_mask(pos).lo; m; m &= m - 1)
    out[n++] = static_cast<Move>(__builtin_ctzll(m));
  for (uint64_t m = place_mask(pos).hi; m; m &= m - 1)
    out[n++] = static_cast<Move>(64 + __builtin_ctzll(m));
  out[n++] = kSacrifice;
  return n;
}

bool Placement::is_ok(const Position& pos) const {
  Bits seen;
  int left = 0;
  for (int p = 0; p < kPlayers; ++p) {
    if ((pos.own[p] & seen).any()) return false;
    seen |= pos.own[p];
    Bits barred;
    for (Bits m = pos.own[p]; m.any();) {
      const int c = lowest(m);
      m &= ~Bits::cell(c);
      const Bits others = peers_[c] & pos.own[p] & ~Bits::cell(c);
      if (others.any()) return false;  // the sudoku rule
      barred |= peers_[c];
    }
    if (barred.lo != pos.barred[p].lo || barred.hi != pos.barred[p].hi) return false;
    if (pos.in_hand[p] + pos.own[p].count() > kPiecesEach) return false;
    left += pos.in_hand[p];
  }
  if (seen.lo != pos.occupied.lo || seen.hi != pos.occupied.hi) return false;
  return left == pos.left && pos.to_move < kPlayers;
}

}  // namespace hand::garnsi9
