// Which parts of a move body a property needs: the state variables an expression reads,
// whether evaluating IR can err, and the statements of a body that can change what is
// read after it (or can err, which excludes the move from the set).
#pragma once

#include <set>
#include <unordered_set>
#include <vector>

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

}  // namespace rulebook::verifier
