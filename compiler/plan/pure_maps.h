// Maps of one local computed before the engine exists: a pure, loop-free expression of a
// local (a cell's neighbour, `cell(y(c) + 1, x(c))`, a step along a direction) evaluated by
// the interpreter for every value of the local's domain, so that a condition on the value
// it maps to can be answered for the whole domain at once (see codegen's masks).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::compiler {
class Interpreter;
class Evaluator;
}  // namespace rulebook::compiler

namespace rulebook::compiler::plan {

class ProgramFacts;

/// `e` with every read of local `slot` replaced by the constant `value` (of the local's
/// type): a binder over a constant set unrolled.
ir::ExprPtr substitute(const ir::Expr& e, int slot, ir::Value value);

/// An expression of one local, tabulated: `to[v]` is the index, in the target domain, of
/// the value at the v-th value of the local's domain (-1: none, or outside the target).
struct PureMap {
  std::vector<int64_t> to;
  /// Every value maps into the target.
  bool total() const;
  /// The d with to[v] == v + d wherever to[v] >= 0, when there is one (a translation of
  /// the indices: on a grid, a step by a fixed row and column).
  std::optional<int64_t> offset() const;
  /// The values that map into the target (bit v of word v / 64).
  std::vector<uint64_t> defined() const;
};

/// Evaluates pure expressions with the reference interpreter, each at most once per value.
class PureMaps {
 public:
  /// Errors of the rules are only failures here: their messages are never shown, so the
  /// interpreter gets placeholder sources.
  PureMaps(const ir::Program& program, const ProgramFacts& facts);
  ~PureMaps();
  PureMaps(const PureMaps&) = delete;
  PureMaps& operator=(const PureMaps&) = delete;

  /// The map of `e` over the values of local `slot` of domain `from` into domain `to`,
  /// when `e` reads no state, no mover and no other local, loops nowhere (calls followed),
  /// and evaluates without an error for every value; else nothing.
  std::optional<PureMap> map(const ir::Expr& e, int slot, int from, int to);

 private:
  bool loop_free(const ir::Expr& e, int depth) const;

  const ir::Program& program_;
  const ProgramFacts& facts_;
  dsl::SourceSet placeholders_;
  std::unique_ptr<Interpreter> interpreter_;
  std::unique_ptr<Evaluator> evaluator_;
  std::vector<uint8_t> state_;
};

}  // namespace rulebook::compiler::plan
