// Tables and slow-path helpers of the 6x6 placement engine (the hot path is in the header).
#include "garnsi6_placement.h"

namespace hand::garnsi6 {

namespace {

int box_of(int cell) {
  return (cell / kSide) / kBoxRows * (kSide / kBoxCols) + (cell % kSide) / kBoxCols;
}

}  // namespace

Placement::Placement(std::array<int, 2> blocked) : blocked_(blocked) {
  for (int a = 0; a < kCells; ++a) {
    uint64_t m = 0;
    for (int b = 0; b < kCells; ++b) {
      const bool same_row = a / kSide == b / kSide;
      const bool same_col = a % kSide == b % kSide;
      if (same_row || same_col || box_of(a) == box_of(b)) m |= uint64_t{1} << b;
    }
    peers_[a] = m;
  }
  for (int p = 0; p < kPlayers; ++p) next_[p] = static_cast<uint8_t>((p + 1) % kPlayers);
  usable_ = kAllCells;
  for (int c : blocked_) usable_ &= ~(uint64_t{1} << c);
}

Position Placement::initial() const {
  Position pos;
  pos.in_hand.fill(kPiecesEach);
  // Seat 1 moves first and can always place on an empty board, so no pass loop is needed.
  return pos;
}

int Placement::legal_moves(const Position& pos, Move* out) const {
  if (pos.over) return 0;
  uint64_t m = place_mask(pos);
  if (m == 0) {
    out[0] = kPass;
    return 1;
  }
  int n = 0;
  while (m) {
    out[n++] = static_cast<Move>(__builtin_ctzll(m));
    m &= m - 1;
  }
  return n;
}

void Placement::complete(Position& pos) const {
  pos.occupied = 0;
  for (int p = 0; p < kPlayers; ++p) {
    pos.occupied |= pos.own[p];
    pos.barred[p] = 0;
    for (uint64_t m = pos.own[p]; m; m &= m - 1) pos.barred[p] |= peers_[__builtin_ctzll(m)];
    pos.in_hand[p] = static_cast<uint8_t>(kPiecesEach - hand::popcount(pos.own[p]));
  }
  pos.over = !anyone_can_place(pos, 0);
}

bool Placement::is_ok(const Position& pos) const {
  uint64_t seen = 0;
  for (int p = 0; p < kPlayers; ++p) {
    if (pos.own[p] & seen) return false;      // two pieces on one cell
    if (pos.own[p] & ~usable_) return false;  // a piece on a blocked cell
    seen |= pos.own[p];
    uint64_t barred = 0;
    for (uint64_t m = pos.own[p]; m; m &= m - 1) {
      const int c = __builtin_ctzll(m);
      // The sudoku rule: no other own piece among c's peers.
      if ((peers_[c] & pos.own[p]) != (uint64_t{1} << c)) return false;
      barred |= peers_[c];
    }
    if (barred != pos.barred[p]) return false;
    if (pos.in_hand[p] + hand::popcount(pos.own[p]) != kPiecesEach) return false;
  }
  if (seen != pos.occupied || pos.to_move >= kPlayers) return false;
  return pos.over == !anyone_can_place(pos, 0);
}

}  // namespace hand::garnsi6
