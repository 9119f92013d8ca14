// The values an integer expression of the IR can take, where the IR bounds them: an
// operation whose operands' ranges rule overflow out needs no check at run time.
#pragma once

#include <cstdint>
#include <optional>

#include "compiler/ir/ir.h"

namespace rulebook::compiler {

/// lo <= every value <= hi.
struct IntRange {
  int64_t lo = 0;
  int64_t hi = 0;
};

/// The range of a scalar expression, or nullopt when nothing bounds it. Only what cannot
/// be wrong counts: constants, stored values (checked when stored), what a builtin
/// returns, counts, a define's body; and - + * / % abs min max if-then-else of those,
/// when the result fits in 64 bits. A local is unbounded (a define's argument is not checked against its
/// parameter's type), as is `none`.
std::optional<IntRange> int_range(const ir::Program& p, const ir::Expr& e);

/// Whether `x += value` (or `-=` when `subtract`) of a variable of domain `d` can never
/// overflow (the old value is a member of `d`).
bool assignment_cannot_overflow(const ir::Program& p, int d, const ir::Expr& value, bool subtract);

/// Whether the checked integer operation at the root of `e` (unary -, +, -, *, abs, sum)
/// can never fail, so that its check may be left out.
bool cannot_overflow(const ir::Program& p, const ir::Expr& e);

}  // namespace rulebook::compiler
