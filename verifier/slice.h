// Which parts of a move body a property needs: the state variables an expression reads,
// whether evaluating IR can err, and the statements of a body that can change what is
// read after it (or can err, which excludes the move from the set).
#pragma once

#include <set>
#include <unordered_set>
#include <vector>

#include <z3++.h>

#include "compiler/ir.h"

namespace rulebook::verifier {

/// Adds to `vars` every state variable `e` reads, through calls and `can` as well.
void reads_of(const ir::Program& p, const ir::Expr& e, std::set<int>& vars);

/// False only when evaluating `e` provably cannot err on any state whose elements hold
/// values of their types (semantics.md, Errors); conservative: true when unsure.
bool may_err(const ir::Program& p, const ir::Expr& e);

/// The statements of `body` to execute so that every variable in `read_after` and the
/// body's error condition come out as with the whole body: a statement is skipped only
/// when it writes none of the variables read after it (or by a kept statement) and
/// provably cannot err. Skipping the others is exact: they change nothing that is read.
std::unordered_set<const ir::Stmt*> slice_body(const ir::Program& p, const ir::Block& body,
                                               std::set<int> read_after);

/// The cone of influence of a solver question: of the `partitions` (at-most-one facts over
/// disjunctions, Encoder::partition_facts), those with at least two of their disjunctions
/// occurring in `used` (the formulas of the question). The others constrain nothing the
/// question reads beyond what the one-hot constraints already say, so leaving them out is
/// exact; they only slow the solver down.
std::vector<z3::expr> relevant_partitions(const std::vector<z3::expr>& partitions,
                                          const std::vector<z3::expr>& used);

}  // namespace rulebook::verifier
