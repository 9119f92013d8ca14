// Pass "planes": keep a one-key variable also as one bitset of keys per value, so that
// "which keys hold value x" is a word operation instead of a loop over the keys.
// Reason: masks of move parameters and bit-parallel quantifiers read planes.
// Applies when some expression asks which keys hold a value (`v[x] == e` with x a binder
// or parameter that e does not read, or the whole of a `set of T`), the variable has one
// key over a domain whose values are their indices (at most 1,024 keys, not a record),
// at most kMaxPlaneValues values, and one-byte elements.
// Costs: a bitset of the key domain per value kept in the state's working copy, updated
// at every store into the variable (and restored when a move is undone).
#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

using ir::Op;

namespace {

/// Why variable `v` cannot have planes, or "" when it can.
std::string refusal(const PassContext& c, int v) {
  const ir::StateVar& V = c.program.vars[size_t(v)];
  if (V.keys.size() != 1) return fmt::format("{} keys (planes need one)", V.keys.size());
  if (!identity_domain(c.program, V.keys[0])) return "its keys are not indices";
  if (c.dom(V.keys[0]).kind == ir::Domain::Kind::Record) return "its keys are records";
  if (c.dom(V.keys[0]).size > 1024) return fmt::format("{} keys (at most 1024)", c.dom(V.keys[0]).size);
  if (c.dom(V.domain).size > uint32_t(kMaxPlaneValues))
    return fmt::format("{} values (at most {})", c.dom(V.domain).size, kMaxPlaneValues);
  if (V.width != 1) return "its elements take more than one byte";
  return "";
}

}  // namespace

void pass_planes(PassContext& c) {
  const ir::Program& p = c.program;
  std::set<int> wanted;
  auto is_local_read = [&](const ir::Expr& e) {
    return e.op == Op::Read && e.args.size() == 1 && e.args[0]->op == Op::Local &&
           p.vars[size_t(e.var)].keys.size() == 1;
  };
  walk_program(p, [&](const ir::Expr& e) {
    if (e.op == Op::Eq || e.op == Op::Ne) {
      for (int side = 0; side < 2; ++side) {
        const ir::Expr& r = *e.args[size_t(side)];
        const ir::Expr& o = *e.args[size_t(1 - side)];
        if (is_local_read(r) && !uses_slot(o, r.args[0]->slot)) wanted.insert(r.var);
      }
    }
    if (e.op == Op::Read && e.args.empty() && p.vars[size_t(e.var)].is_set) wanted.insert(e.var);
  });
  for (int v : wanted) {
    if (v < ir::kSystemVars) continue;
    const std::string no = refusal(c, v);
    if (!no.empty()) {
      c.report.lines.push_back(fmt::format("{}: no planes: {}", c.var_name(v), no));
      continue;
    }
    const ir::StateVar& V = p.vars[size_t(v)];
    c.plan.plane_of_var[size_t(v)] = int(c.plan.planes.size());
    c.plan.planes.push_back({v, int(c.dom(V.domain).size), V.keys[0]});
    c.report.lines.push_back(fmt::format("{}: {} planes over {} ({} keys)", c.var_name(v),
                                         c.dom(V.domain).size, c.dom(V.keys[0]).name,
                                         c.dom(V.keys[0]).size));
  }
}

}  // namespace rulebook::compiler::plan
