// Which parts of a move body a property needs: the state variables an expression reads,
// whether evaluating IR can err, and the statements of a body that can change what is
// read after it (or can err, which excludes the move from the set).
#pragma once

#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <z3++.h>

#include "compiler/ir/ir.h"

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
/// Without `keep_erring`, a statement that may err but writes nothing read is skipped too:
/// the states where it errs (which have no state after) are then kept, a superset.
std::unordered_set<const ir::Stmt*> slice_body(const ir::Program& p, const ir::Block& body,
                                               std::set<int> read_after, bool keep_erring = true);

/// The cone of influence of a solver question: of the `partitions` (at-most-one facts over
/// disjunctions, Encoder::partition_facts), those with at least two of their disjunctions
/// occurring in `used` (the formulas of the question). The others constrain nothing the
/// question reads beyond what the one-hot constraints already say, so leaving them out is
/// exact; they only slow the solver down.
std::vector<z3::expr> relevant_partitions(const std::vector<z3::expr>& partitions,
                                          const std::vector<z3::expr>& used);

/// The terms of a question that combine several selectors (or read anything that is not a
/// selector's guard): what a lemma fact must mention to say something about the question
/// beyond the one-hot constraints. A fact sharing none of them only relates values of
/// single selectors (or terms the question never reads); it is implied by the set and
/// slows a solver searching for a model down, so it is left out (exact: only implied facts
/// are ever added).
class SharedTerms {
 public:
  /// `selector_of(id)`: the selector whose guard is the constant with that Z3 id, or -1.
  SharedTerms(const z3::expr& question, std::function<int(unsigned)> selector_of);
  /// Whether `fact` has a subterm that is a mixed term of the question.
  bool shares(const z3::expr& fact) const;

 private:
  /// -1: reads nothing; s >= 0: reads only selector s; -2: mixed (or not a selector).
  int reads(const z3::expr& e);
  std::function<int(unsigned)> selector_of_;
  std::unordered_map<unsigned, int> reads_;
  std::unordered_set<unsigned> mixed_;
};

}  // namespace rulebook::verifier
