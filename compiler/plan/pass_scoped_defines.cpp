// Pass "scoped-defines": a one-parameter define of the state is remembered per argument
// while the board rules are evaluated (they store nothing, so each argument's value is
// computed once per evaluation).
// Reason: board rules quantify over cells and call the same define for the same cell
// from several rules.
// Applies when the program has board rules, the define has one scalar parameter of a
// domain of at most 64 values, returns no list, reads the state but not the mover, is
// not remembered already and its body loops or calls.
// Costs: a scope object per evaluation of the board rules: a bit and a value per
// argument, cleared at the start of each evaluation.
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

void pass_scoped_defines(PassContext& c) {
  EnginePlan& plan = c.plan;
  if (!plan.board_rules) return;
  for (size_t f = 0; f < c.program.functions.size(); ++f) {
    const ir::Function& F = c.program.functions[f];
    if (F.params.size() != 1 || !F.body || plan.memo_slot[f] >= 0) continue;
    const std::string name = c.define_name(int(f));
    if (F.params[0]->kind != ir::Type::Kind::Scalar || c.dom(F.params[0]->domain).size > 64) {
      c.report.lines.push_back(fmt::format("{}: not scoped: its parameter has over 64 values", name));
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
    plan.scoped[f] = 1;
    ++plan.scoped_count;
    c.report.lines.push_back(fmt::format("{}: remembered per argument while the board rules run", name));
  }
}

}  // namespace rulebook::compiler::plan
