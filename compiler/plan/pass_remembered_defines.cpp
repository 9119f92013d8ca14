// Pass "remembered-defines": a parameterless define of the state is computed once and
// remembered until a store into a variable it reads.
// Reason: end tests, scores and conditions ask the same define many times per state.
// Applies to defines without parameters whose value is a scalar, that read the state but
// not the mover, are not tables already (define-tables) and whose body loops or calls
// (a constant-time body costs less than the test of the remembered bit); 64 at most.
// Costs: one bit and one value in the state's working copy; every store into a variable
// the define reads clears its bit (and undoing a move restores it).
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

void pass_remembered_defines(PassContext& c) {
  EnginePlan& plan = c.plan;
  for (size_t f = 0; f < c.program.functions.size(); ++f) {
    const ir::Function& F = c.program.functions[f];
    if (!F.params.empty() || !F.body || F.result->kind != ir::Type::Kind::Scalar) continue;
    const std::string name = c.define_name(int(f));
    if (plan.memo_defines >= 64) {
      c.report.lines.push_back(fmt::format("{}: not remembered: the 64 slots are taken", name));
      continue;
    }
    if (c.facts.function_pure(int(f))) continue;  // a constant: define-tables' business
    const Reads& r = c.facts.function_reads(int(f));
    if (r.mover) {
      c.report.lines.push_back(fmt::format("{}: not remembered: reads the mover", name));
      continue;
    }
    if (constant_time(*F.body)) {
      c.report.lines.push_back(fmt::format("{}: not remembered: constant time", name));
      continue;
    }
    plan.memo_slot[f] = plan.memo_defines++;
    for (int v : r.vars) plan.forget_defines[size_t(v)] |= uint64_t(1) << plan.memo_slot[f];
    c.report.lines.push_back(fmt::format("{}: slot {}, forgotten by stores into {}", name,
                                         plan.memo_slot[f], c.var_list(r.vars)));
  }
}

}  // namespace rulebook::compiler::plan
