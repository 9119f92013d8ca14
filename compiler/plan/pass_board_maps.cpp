// Pass "board-maps": a condition on where the binder goes through a map the rules compute
// (`below(c) in filled`, `along(c, d, k) in mine(p)`, `mirror(c) in taken`) is answered
// for the whole domain at once: the set pulled back through the map, a shift of its bits
// when the map moves every index by one amount (on a grid, a step by a fixed row and
// column), else through a table of where each value goes; a binder over a few constants
// inside such a condition (`some d in directions`, `all k in 0..2`) is unrolled into one
// such mask per value; a pure condition of the binder alone becomes a constant mask.
// Reason: rules written plainly test lines, neighbours and gravity per cell, each test a
// few arithmetic steps; a mask answers all cells in a few word operations.
// Applies to maps that read no state and no mover, loop nowhere (calls followed) and
// evaluate without an error for every value: the reference interpreter evaluates them when
// the engine is planned, so the masks say what the rules say. Binders are unrolled when
// they have at most 16 values, fewer than the mask's domain, and at most 64 conditions
// come of one mask (codegen/emit_mask_maps.cpp). Costs: the set is computed once per mask
// instead of once per element; a table of the domain's size per map that is no shift.
// This section lists the maps of the one-parameter defines; the masks meet other maps too
// (a define's call with constants for its other parameters).
#include <fmt/format.h>

#include "compiler/plan/passes.h"
#include "compiler/plan/pure_maps.h"

namespace rulebook::compiler::plan {

void pass_board_maps(PassContext& c) {
  c.plan.board_maps = true;
  PureMaps maps(c.program, c.facts);
  for (size_t f = 0; f < c.program.functions.size(); ++f) {
    const ir::Function& F = c.program.functions[f];
    if (F.params.size() != 1 || !F.params[0] || F.params[0]->kind != ir::Type::Kind::Scalar ||
        !F.result || F.result->kind != ir::Type::Kind::Scalar)
      continue;
    const int from = F.params[0]->domain;
    int to = F.result->domain;
    if (from < 0 || to < 0 || !identity_domain(c.program, from) || from == ir::kBoolDomain) continue;
    if (c.dom(to).kind == ir::Domain::Kind::Optional) to = c.dom(to).inner;
    if (to < 0 || !identity_domain(c.program, to) || to == ir::kBoolDomain) continue;
    ir::Expr call;
    call.op = ir::Op::Call;
    call.function = int(f);
    call.type = F.result;
    call.span = F.span;
    auto arg = std::make_unique<ir::Expr>();
    arg->op = ir::Op::Local;
    arg->slot = 0;
    arg->type = F.params[0];
    call.args.push_back(std::move(arg));
    const std::string name = c.define_name(int(f));
    const std::optional<PureMap> m = maps.map(call, 0, from, to);
    if (!m) {
      c.report.lines.push_back(fmt::format("{}: no map: reads the state or the mover, loops, or fails somewhere", name));
      continue;
    }
    size_t defined = 0;
    for (int64_t t : m->to) defined += t >= 0;
    const std::optional<int64_t> offset = m->offset();
    const std::string kind = offset && from == to ? fmt::format("a shift by {:+}", *offset) : "a table";
    c.report.lines.push_back(fmt::format("{}: {}, {} of {} values map", name, kind, defined, m->to.size()));
  }
}

}  // namespace rulebook::compiler::plan
