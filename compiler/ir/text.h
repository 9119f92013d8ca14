// Texts every engine host shares: moves as `place(r2c3)`, boards as grids of short labels,
// and `--setup name=value` overrides parsed into element indices.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"

namespace rulebook::compiler {

/// `place(r2c3)`, `jump(r0c0, r1c1)`, `pass`: cells as r{row}c{col}, players and enum
/// members by name, records as `{number: 1, yellow: true}`.
std::string move_text(const ir::Program& program, const engine::Move& move);

/// Every non-system variable keyed by exactly [Cell] as a grid of short labels (`.` for
/// none, false and 0 of an optional), one line per other variable; ends with a newline.
std::string board_text(const ir::Program& program, const uint8_t* state);

/// One value of domain `d` written as text: `5`, `true`, `none`, `light`, `r2c3` or `(2,3)`
/// for a cell, `p2.3` for a point. Nullopt when it is not a value of the domain.
std::optional<ir::Value> parse_value(const ir::Program& program, int d, std::string_view text);

/// A `--setup name=value` override: which setup variable, and the element indices to
/// store in it (state layout order), or an error saying what was expected.
struct SetupValue {
  int setup = -1;
  std::vector<uint32_t> indices;
  std::string error;
  bool ok() const { return error.empty(); }
};

/// Parses an override: for a data-file setup an entry number (1-based); for a set a list
/// of elements (`r0c0,r5c5` or `(0,0) (5,5)`); for a scalar one value; for a map or
/// sequence every element in order (separated by spaces or commas, or one character each).
SetupValue parse_setup(const ir::Program& program, std::string_view name, std::string_view text);

/// Resolves every override of `setup` into one entry per setup variable of the program
/// (empty: computed as the rules say), as Interpreter::setup_indices takes them.
engine::Status setup_overrides(const ir::Program& program, const engine::Setup& setup,
                               std::vector<std::vector<uint32_t>>& out);

}  // namespace rulebook::compiler
