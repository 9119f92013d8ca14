// Pass "scoped-defines": a one-parameter define of the state is remembered per argument
// while the board rules are evaluated (they store nothing, so each argument's value is
// computed once per evaluation); so is a define of a scalar and a set (a ship and a line),
// per pair.
// Reason: board rules quantify over cells and lines and call the same define for the same
// cell or line from several rules.
// Applies when the program has board rules, the define has one parameter, a scalar of a
// domain of at most 64 values (remembered by its index) or a set over at most 256 values
// (remembered by its bits: a line, a region), or two, such a scalar then such a set (and
// then its body itself loops), returns no list, reads the state but not the mover, is not
// remembered already and its body loops or calls.
// Costs: a scope object per evaluation of the board rules: a bit and a value per
// argument, cleared at the start of each evaluation; for a set, up to kScopedSets sets
// and their values, compared word by word when looked up (a set past them is computed
// each time); for a pair, per such set a word of bits and a value per scalar index.
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {
namespace {

/// Whether `e` itself loops (a quantifier, a count, a sum, a min or max, a filter): a pair
/// is remembered only then, as looking one up among the sets costs about as much as a few
/// calls and reads (`crosses(s, l)`: slower remembered, measured on SMYOZ).
bool loops(const ir::Expr& e) {
  bool found = false;
  walk(e, [&](const ir::Expr& x) {
    switch (x.op) {
      case ir::Op::All: case ir::Op::Some: case ir::Op::No: case ir::Op::Count: case ir::Op::Sum:
      case ir::Op::Max: case ir::Op::Min: case ir::Op::Filter:
        found = true;
        break;
      default:
        break;
    }
  });
  return found;
}

}  // namespace

void pass_scoped_defines(PassContext& c) {
  EnginePlan& plan = c.plan;
  if (!plan.board_rules) return;
  for (size_t f = 0; f < c.program.functions.size(); ++f) {
    const ir::Function& F = c.program.functions[f];
    if (F.params.empty() || F.params.size() > 2 || !F.body || plan.memo_slot[f] >= 0) continue;
    const std::string name = c.define_name(int(f));
    const ir::Type& param = *F.params[0];
    if (F.params.size() == 2) {
      const ir::Type& second = *F.params[1];
      const bool pair = param.kind == ir::Type::Kind::Scalar && param.domain >= 0 &&
                        c.dom(param.domain).size <= 64 && second.kind == ir::Type::Kind::Set &&
                        second.domain >= 0 && c.dom(second.domain).size <= kScopedSetValues &&
                        F.result->kind != ir::Type::Kind::List && !c.facts.function_pure(int(f)) &&
                        !c.facts.function_reads(int(f)).mover && loops(*F.body);
      if (!pair) continue;  // the other two-parameter defines are not candidates: not listed
      plan.scoped[f] = kScopedByIndexAndSet;
      ++plan.scoped_count;
      c.report.lines.push_back(fmt::format(
          "{}: remembered per pair of arguments (the first {} sets) while the board rules run", name, kScopedSets));
      continue;
    }
    const bool by_set = param.kind == ir::Type::Kind::Set && param.domain >= 0 &&
                        c.dom(param.domain).size <= kScopedSetValues;
    if (!by_set && (param.kind != ir::Type::Kind::Scalar || param.domain < 0 || c.dom(param.domain).size > 64)) {
      c.report.lines.push_back(
          param.kind == ir::Type::Kind::Scalar && param.domain < 0
              ? fmt::format("{}: not scoped: its parameter is an integer of no bounded type", name)
          : param.kind == ir::Type::Kind::Scalar ? fmt::format("{}: not scoped: its parameter has over 64 values", name)
          : param.kind == ir::Type::Kind::Set
              ? fmt::format("{}: not scoped: its parameter is a set over more than {} values", name, kScopedSetValues)
              : fmt::format("{}: not scoped: its parameter is a list", name));
      continue;
    }
    if (F.result->kind == ir::Type::Kind::List) {
      c.report.lines.push_back(fmt::format("{}: not scoped: returns a list", name));
      continue;
    }
    if (c.facts.function_pure(int(f)) || c.facts.function_reads(int(f)).mover) {
      c.report.lines.push_back(fmt::format("{}: not scoped: pure or reads the mover", name));
      continue;
    }
    if (constant_time(*F.body)) {
      c.report.lines.push_back(fmt::format("{}: not scoped: constant time", name));
      continue;
    }
    plan.scoped[f] = by_set ? kScopedBySet : kScopedByIndex;
    ++plan.scoped_count;
    c.report.lines.push_back(
        by_set ? fmt::format("{}: remembered per set argument (the first {}) while the board rules run", name,
                             kScopedSets)
               : fmt::format("{}: remembered per argument while the board rules run", name));
  }
}

}  // namespace rulebook::compiler::plan
