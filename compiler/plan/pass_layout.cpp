// Layout: facts of the program every later pass and the printer read, and the capacity of
// each kind of List value. Always runs: it decides no speed-up, only sizes (a List too
// small for its values would be wrong, so there is no "off").
#include <algorithm>

#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

using ir::Op;

namespace {

/// One round: the capacities the program's lists need, naming element types (a list's C++
/// name holds its capacity) by the capacities `named` of the round before.
std::map<std::string, int> list_caps_round(const ir::Program& program, const std::map<std::string, int>& named) {
  std::map<std::string, int> caps;
  auto type_name = [&](const ir::Type& t) { return cpp_type_name(program, named, t); };
  // Constant lists consumed in place (indexed, or iterated) are plain arrays: they do not
  // set the capacity of List values.
  std::set<const ir::Expr*> in_place;
  walk_program(program, [&](const ir::Expr& e) {
    if ((e.op == Op::At || is_binder(e.op)) && !e.args.empty() && e.args[0] &&
        e.args[0]->op == Op::ConstList)
      in_place.insert(e.args[0].get());
  });
  auto note = [&](const ir::Type& t, int n) {
    if (t.kind != ir::Type::Kind::List || !t.elem) return;
    int& cap = caps[type_name(*t.elem)];
    cap = std::max(cap, std::max(n, 1));
  };
  const int W = program.geometry.width, H = program.geometry.height;
  bool has_union = false;
  walk_program(program, [&](const ir::Expr& e) {
    if (!e.type || e.type->kind != ir::Type::Kind::List) return;
    switch (e.op) {
      case Op::ConstList:
        if (!in_place.count(&e)) note(*e.type, int(e.args.size()));
        break;
      case Op::ListLit:
      case Op::SetLit:
        note(*e.type, int(e.args.size()));
        break;
      case Op::Read:
        note(*e.type, int(program.vars[size_t(e.var)].count));
        break;
      case Op::Builtin:
        if (e.builtin == dsl::BuiltinId::Rows) note(*e.type, H);
        if (e.builtin == dsl::BuiltinId::Columns) note(*e.type, W);
        if (e.builtin == dsl::BuiltinId::Lines) note(*e.type, W + H);
        if (e.builtin == dsl::BuiltinId::Components) note(*e.type, W * H);
        break;
      case Op::Union:
        has_union = true;
        break;
      default:
        note(*e.type, 1);
        break;
    }
  });
  // Concatenations may hold two lists' worth.
  if (has_union)
    for (auto& [type, cap] : caps) cap *= 2;
  // Lists of lists take their element type from the map above; settle it once more.
  std::map<std::string, int> settled;
  walk_program(program, [&](const ir::Expr& e) {
    if (e.type && e.type->kind == ir::Type::Kind::List && e.type->elem) {
      const std::string elem = type_name(*e.type->elem);
      settled[elem] = std::max(settled[elem], caps[elem]);
    }
  });
  for (auto& [type, cap] : settled) caps[type] = std::max(cap, 1);
  return caps;
}

/// The capacities, to a fixed point: a list of lists is named after its elements'
/// capacity, which the same walk may raise (a literal of literals is seen before its
/// elements), so a round names types by the round before until nothing changes. Each round
/// settles one more level of nesting, so this ends within the program's deepest type.
void list_caps(PassContext& c) {
  std::map<std::string, int> caps;
  for (;;) {
    std::map<std::string, int> next = list_caps_round(c.program, caps);
    if (next == caps) break;
    caps = std::move(next);
  }
  c.plan.list_caps = std::move(caps);
}

}  // namespace

void pass_layout(PassContext& c) {
  c.plan.board_rules = c.facts.board_rules();
  walk_program(c.program, [&](const ir::Expr& e) {
    if (e.op == Op::Builtin) c.plan.geometry_used.insert(e.builtin);
  });
  list_caps(c);
  c.report.lines.push_back(fmt::format("board rules: {}", c.plan.board_rules ? "yes" : "no"));
  for (const auto& [type, cap] : c.plan.list_caps)
    c.report.lines.push_back(fmt::format("list of {}: capacity {}", type, cap));
}

}  // namespace rulebook::compiler::plan
