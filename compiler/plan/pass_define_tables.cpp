// Pass "define-tables": a define that reads no state and no mover, over parameters of
// small domains, becomes a table filled when the engine is loaded.
// Reason: a call becomes one lookup instead of evaluating the body (often loops over
// cells or lines).
// Applies when the define is pure, every parameter is a scalar of a domain, the argument
// combinations number at most 4,096 and the table at most 1 MiB; a constant (no
// parameters) only when its body is more than a literal.
// Costs: the table's memory and filling it once per load of the engine.
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

namespace {

/// C++ bytes of a value of type `t` (an estimate, with the planned list capacities).
uint64_t type_bytes(const PassContext& c, const ir::Type& t) {
  switch (t.kind) {
    case ir::Type::Kind::Scalar: return 8;
    case ir::Type::Kind::Set:
      return 8 * uint64_t(std::max<int>(1, t.domain < 0 ? 1 : int((c.dom(t.domain).size + 63) / 64)));
    case ir::Type::Kind::List: {
      const std::string elem = t.elem ? cpp_type_name(c.program, c.plan.list_caps, *t.elem) : "Int";
      auto it = c.plan.list_caps.find(elem);
      const uint64_t cap = it == c.plan.list_caps.end() ? 1 : uint64_t(it->second);
      return 8 + cap * (t.elem ? type_bytes(c, *t.elem) : 8);
    }
  }
  return 8;
}

/// The entries of define `f`'s table, or 0 with the reason in `why`.
uint64_t entries(const PassContext& c, int f, std::string& why) {
  const ir::Function& F = c.program.functions[size_t(f)];
  if (!c.facts.function_pure(f)) {
    why = "reads the state or the mover";
    return 0;
  }
  uint64_t n = 1;
  for (const ir::TypePtr& p : F.params) {
    if (p->kind != ir::Type::Kind::Scalar || p->domain < 0) {
      why = "a parameter is not a scalar of a domain";
      return 0;
    }
    n *= c.dom(p->domain).size;
    if (n > 4096) {
      why = "more than 4096 argument combinations";
      return 0;
    }
  }
  if (F.params.empty() && (F.body->op == ir::Op::Const || F.body->op == ir::Op::ConstSet)) {
    why = "a literal";
    return 0;
  }
  if (n * type_bytes(c, *F.result) > (uint64_t(1) << 20)) {
    why = "the table would exceed 1 MiB";
    return 0;
  }
  return n;
}

}  // namespace

void pass_define_tables(PassContext& c) {
  for (size_t f = 0; f < c.program.functions.size(); ++f) {
    std::string why;
    const uint64_t n = entries(c, int(f), why);
    c.plan.table_entries[f] = n;
    if (n > 0)
      c.report.lines.push_back(fmt::format("{}: table of {} entries", c.define_name(int(f)), n));
    else
      c.report.lines.push_back(fmt::format("{}: computed at each call: {}", c.define_name(int(f)), why));
  }
}

}  // namespace rulebook::compiler::plan
