// The quantities a state's types make easy to read (counts of cells per value of a cell
// map, numbers kept per player or alone, the phase), each readable off a state by the
// interpreter's layout and as IR the encoder evaluates: what found invariants relate and
// what termination rankings are built from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"

namespace rulebook::verifier::qty {

ir::TypePtr type_of(int domain, ir::Type::Kind kind = ir::Type::Kind::Scalar);
ir::ExprPtr node(ir::Op op, int domain);
ir::ExprPtr binary(ir::Op op, int domain, ir::ExprPtr a, ir::ExprPtr b);
ir::ExprPtr number(int64_t v);
ir::ExprPtr local(int slot, int domain);
ir::ExprPtr full_set(const ir::Program& p, int domain);

/// Where a quantity's IR reads its player (per player) and its cell (counts).
constexpr int kPlayerSlot = 0, kCellSlot = 1;

/// One quantity read off a state: its value there, its IR (the player in slot 0 when
/// per player) and its text.
struct Quantity {
  enum class Kind { CellsHolding, Number, PhaseIs };
  Kind kind = Kind::Number;
  int var = -1;
  int64_t value = 0;      ///< CellsHolding: the value counted (unless per player); PhaseIs
  bool per_player = false;
  std::string text;       ///< with `p` for the player

  int64_t read(const ir::Program& p, const uint8_t* s, int64_t player) const;
  ir::ExprPtr expr(const ir::Program& p) const;
  /// The largest value the types allow.
  int64_t top(const ir::Program& p) const;
};

/// The quantities the state's types make easy to read. With `empty_cells`, the cells of
/// a small cell map holding none are counted too (otherwise they follow from the others).
std::vector<Quantity> quantities(const ir::Program& p, bool empty_cells = false);

}  // namespace rulebook::verifier::qty
