// Layout: facts of the program every later pass and the printer read, and the capacity of
// each kind of List value. Always runs: it decides no speed-up, only sizes (a List too
// small for its values would be wrong, so there is no "off").
#include <algorithm>

#include <fmt/format.h>

#include "compiler/plan/passes.h"

namespace rulebook::compiler::plan {

using ir::Op;

namespace {

/// How many elements a list expression can hold, with the capacities of the round before
/// for what it cannot see into.
class ListBound {
 public:
  ListBound(const ir::Program& program, const std::map<std::string, int>& named)
      : program_(program), named_(named) {}

  /// The element capacity by the C++ name of a list's element type, as the round before
  /// settled it.
  int before(const ir::Type& t) const {
    if (!t.elem) return 1;
    auto it = named_.find(cpp_type_name(program_, named_, *t.elem));
    return it == named_.end() ? 1 : it->second;
  }

  /// The bound of `e` (a List), its parameters' arguments bounded by `env` (slot -> bound).
  int64_t of(const ir::Expr& e, const std::map<int, int64_t>& env, int depth = 0) const {
    const int W = program_.geometry.width, H = program_.geometry.height;
    if (depth > 64) return kFar;
    switch (e.op) {
      case Op::ConstList: case Op::ListLit: case Op::SetLit:
        return int64_t(e.args.size());
      case Op::Read:
        return int64_t(program_.vars[size_t(e.var)].count);
      case Op::Builtin:
        if (e.builtin == dsl::BuiltinId::Rows) return H;
        if (e.builtin == dsl::BuiltinId::Columns) return W;
        if (e.builtin == dsl::BuiltinId::Lines) return W + H;
        if (e.builtin == dsl::BuiltinId::Components) return int64_t(W) * H;
        return before(*e.type);
      // A concatenation holds both lists; what is taken from a list, at most that list.
      case Op::Union:
        return std::min(kFar, of(*e.args[0], env, depth + 1) + of(*e.args[1], env, depth + 1));
      case Op::Diff:
        return of(*e.args[0], env, depth + 1);
      case Op::Inter:
        return std::min(of(*e.args[0], env, depth + 1), of(*e.args[1], env, depth + 1));
      case Op::Filter:
        return e.args[0] && e.args[0]->type && e.args[0]->type->kind == ir::Type::Kind::List
                   ? of(*e.args[0], env, depth + 1) : before(*e.type);
      case Op::If:
        return std::max(of(*e.args[1], env, depth + 1), of(*e.args[2], env, depth + 1));
      case Op::Local:
        if (auto it = env.find(e.slot); it != env.end()) return it->second;
        return before(*e.type);
      case Op::Call: {
        // The body, its parameters bounded by the arguments (defines do not recurse).
        const ir::Function& F = program_.functions[size_t(e.function)];
        if (!F.body || F.body->type->kind != ir::Type::Kind::List) return before(*e.type);
        std::map<int, int64_t> inner;
        for (size_t i = 0; i < e.args.size() && i < F.params.size(); ++i)
          if (F.params[i] && F.params[i]->kind == ir::Type::Kind::List)
            inner[int(i)] = of(*e.args[i], env, depth + 1);
        return of(*F.body, inner, depth + 1);
      }
      default:
        return before(*e.type);
    }
  }

  static constexpr int64_t kFar = int64_t(1) << 30;

 private:
  const ir::Program& program_;
  const std::map<std::string, int>& named_;
};

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
  const ListBound bound(program, named);
  const std::map<int, int64_t> none;
  walk_program(program, [&](const ir::Expr& e) {
    if (!e.type || e.type->kind != ir::Type::Kind::List || !e.type->elem || in_place.count(&e)) return;
    int& cap = caps[type_name(*e.type->elem)];
    cap = int(std::max<int64_t>({cap, bound.of(e, none), 1}));
  });
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
/// elements), and a list bound to a local has the capacity of its type the round before,
/// so a round names types by the round before until nothing changes. Each round settles
/// one more level of nesting; a local list joined to more elements inside a loop over
/// lists of lists could raise its own type's capacity every round, so the rounds stop at
/// a bound and the capacity is then the most a list may ever hold (kFar).
void list_caps(PassContext& c) {
  std::map<std::string, int> caps;
  for (int round = 0;; ++round) {
    std::map<std::string, int> next = list_caps_round(c.program, caps);
    if (next == caps) break;
    caps = std::move(next);
    if (round == 32) {
      c.plan.list_caps_unbounded = true;
      break;
    }
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
  if (c.plan.list_caps_unbounded) c.report.lines.push_back("list capacities: not bounded");
  for (const auto& [type, cap] : c.plan.list_caps)
    c.report.lines.push_back(fmt::format("list of {}: capacity {}", type, cap));
}

}  // namespace rulebook::compiler::plan
