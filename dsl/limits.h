// The sizes a rules file may ask for, in one place: beyond them a state, a board or a loop
// over a move's parameters would take more memory or time than any board game needs, and a
// hostile file could stall every tool that reads it. docs/language.md lists them ("Limits").
#pragma once

#include <cstdint>

namespace rulebook::dsl {

/// Cells of the board (rows x columns). Region sets keep a bitset of the board per region,
/// so the geometry grows with the square of this: 16,384 cells (128 x 128) is at most
/// 32 MiB per region set.
inline constexpr int64_t kMaxBoardCells = int64_t{1} << 14;

/// Players of a game. Every player has a name, a score and an entry in `out`.
inline constexpr int64_t kMaxPlayers = 256;

/// Elements of one state variable (the product of its key domains' sizes, or a sequence's
/// length): a map over 16 Mi keys is already beyond what explore or perft can copy.
inline constexpr uint64_t kMaxVariableElements = uint64_t{1} << 24;

/// Bytes of a whole game state. Engines copy the state at every move they try; states are
/// stored by the million when a game is explored.
inline constexpr uint64_t kMaxStateBytes = uint64_t{1} << 20;

/// Values a set may range over (the size of its element type): engines keep a set as a
/// bitset over every value its elements could take, so a set of 0..2000000000 would be
/// 250 MB. 65,536 values (8 KiB) covers the cells and points of the largest board.
inline constexpr uint64_t kMaxSetValues = uint64_t{1} << 16;

/// Parameter combinations of one move (the product of its parameters' domain sizes): the
/// engines try each combination in every state, so this bounds the work of one turn.
inline constexpr uint64_t kMaxMoveChoices = uint64_t{1} << 24;

/// Steps one move may take in the worst case to find its legal instances in one state and
/// play one, as compiler/lower/lower_cost.h counts them: every loop at its domain's full size, as
/// if no `where` ever cut it short. That overestimates real work by orders of magnitude
/// (shipped games count up to ~2^41 and play in microseconds per move), so the limit is
/// far above them and stops only files whose loops multiply out of any proportion.
inline constexpr uint64_t kMaxMoveWork = uint64_t{1} << 48;

/// a * b, or `cap` when the product is larger (no overflow on hostile sizes).
inline uint64_t capped_product(uint64_t a, uint64_t b, uint64_t cap) {
  if (a != 0 && b > cap / a) return cap + 1;
  return a * b > cap ? cap + 1 : a * b;
}

}  // namespace rulebook::dsl
