// A readable, deterministic dump of a lowered program (what `rulebook compile` shows).
#pragma once

#include <string>

#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::compiler {

/// Domains, the state layout with byte offsets, a geometry summary, functions, rules, moves
/// with the stage of each condition, phases, setups, end, score, properties and metrics;
/// every item with its `file:line:col`. The same program always prints the same text.
std::string print_program(const ir::Program& program, const dsl::SourceSet& sources);

/// One expression in its printed form (see the comments of ir::Op).
std::string print_expr(const ir::Program& program, const ir::Expr& e);

}  // namespace rulebook::compiler
