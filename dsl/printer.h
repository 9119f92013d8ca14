// Formatter: prints a File in the canonical layout; the output parses to the same tree.
#pragma once

#include <string>

#include "dsl/ast.h"

namespace rulebook::dsl {

/// The whole file in canonical form, comments kept (see `Comment`).
std::string format_file(const File& file);

/// One expression / type on one line, fully parenthesised only where precedence needs it.
std::string format_expr(const Expr& expr);
std::string format_type(const TypeExpr& type);

}  // namespace rulebook::dsl
