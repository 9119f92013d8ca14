// Pass "rule-tables": board rules answered from tables. A rule such as
//
//   all s in ships, t in ships where s < t: <something of fleet[s] and fleet[t]>
//
// reads the state only through the entries of one map variable at its quantified keys, so
// its verdict for a pair of keys is a function of the two stored values.
// Reason: a board is then checked with one lookup per pair of keys, and after a move that
// stored a few entries only the pairs holding a changed key are looked at.
// Applies to the board rules of that form over one variable (one or two quantified keys over
// a set that reads no state; the variable is the first such rule's) when the tables take at
// most 16 MiB and 64 Mi evaluations of the rules to fill. The other board rules are checked
// by their own code once the tables say the tabulated ones hold; when one of them comes
// before a tabulated rule, a board the tables reject is checked by the code of every rule
// (an earlier rule may fail or err first).
// Costs: the tables, filled when first needed; the verdict of a state is remembered (a
// slot after the defines') and forgotten by stores into the variable. An entry whose
// evaluation fails is marked unknown and such states are checked by the rules' own code.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/plan/passes.h"
#include "dsl/builtins.h"

namespace rulebook::compiler::plan {

using ir::Op;

namespace {

/// Tables are made only when they are small enough to build in a moment and to keep.
constexpr uint64_t kMaxTableBytes = uint64_t(16) << 20;
constexpr uint64_t kMaxTableEvaluations = uint64_t(64) << 20;

ir::ExprPtr node(Op op, const ir::TypePtr& type, dsl::Span span) {
  auto e = std::make_unique<ir::Expr>();
  e->op = op;
  e->type = type;
  e->span = span;
  return e;
}

/// `$slot in domain`, for a quantifier's binder over `domain` (a set of scalars).
ir::ExprPtr member(int slot, const ir::Expr& domain, const ir::TypePtr& boolean) {
  auto type = std::make_shared<ir::Type>();
  type->kind = ir::Type::Kind::Scalar;
  type->domain = domain.type->domain;
  ir::ExprPtr local = node(Op::Local, type, domain.span);
  local->slot = slot;
  ir::ExprPtr e = node(Op::In, boolean, domain.span);
  e->args.push_back(std::move(local));
  e->args.push_back(ir::clone_expr(domain));
  return e;
}

/// `e` reads the state only as var[$q] for locals bound (in `env`, per slot) to a
/// quantified key q >= 0; `var` is that variable (-1 until one is read).
bool keyed_reads(const ir::Program& program, const ir::Expr& e, std::vector<int>& env, int& var, int depth) {
  switch (e.op) {
    case Op::Read: {
      // Only var[q] for a quantified key q, always of one variable.
      if (e.args.size() != 1 || !e.args[0] || e.args[0]->op != Op::Local) return false;
      const int slot = e.args[0]->slot;
      if (slot < 0 || size_t(slot) >= env.size() || env[size_t(slot)] < 0) return false;
      if (var >= 0 && var != e.var) return false;
      var = e.var;
      return true;
    }
    case Op::Mover: case Op::Phase: case Op::Can:
      return false;
    case Op::Builtin:
      if (dsl::builtin(e.builtin).time != dsl::BuiltinTime::Constant) return false;
      break;
    case Op::Call: {
      if (depth > 32) return false;
      const ir::Function& F = program.functions[size_t(e.function)];
      if (!F.body) return false;
      std::vector<int> inner(size_t(std::max(F.locals, int(e.args.size()))), -1);
      for (size_t i = 0; i < e.args.size(); ++i) {
        const ir::Expr& a = *e.args[i];
        if (!keyed_reads(program, a, env, var, depth)) return false;
        if (a.op == Op::Local && a.slot >= 0 && size_t(a.slot) < env.size()) inner[i] = env[size_t(a.slot)];
      }
      return keyed_reads(program, *F.body, inner, var, depth + 1);
    }
    default:
      break;
  }
  if (is_binder(e.op) && e.slot >= 0) {
    if (size_t(e.slot) >= env.size()) env.resize(size_t(e.slot) + 1, -1);
    env[size_t(e.slot)] = -1;  // an element of a set, never a quantified key itself
  }
  for (const auto& a : e.args)
    if (a && !keyed_reads(program, *a, env, var, depth)) return false;
  return true;
}

/// Plans the table of board rule `r` into `plan`; returns "" or why it cannot be had.
std::string tabulate_rule(const PassContext& c, size_t r, RuleTablePlan& plan) {
  const ir::Program& program = c.program;
  {
    const ir::Rule& R = program.rules[r];
    const std::string rule = "rule " + R.name + ": ";
    if (!R.condition || R.condition->op != Op::All || R.condition->args.size() != 3)
      return rule + "not of the form all $a in D: ...";
    // all $a in D1 where W1: [all $b in D2 where W2:] B
    const ir::Expr& outer = *R.condition;
    const ir::Expr* inner = outer.args[2].get();
    const bool pair = inner && inner->op == Op::All && inner->args.size() == 3 &&
                      inner->args[0] && c.facts.pure(*inner->args[0]) &&
                      inner->args[0]->type->kind == ir::Type::Kind::Set;
    const ir::Expr& d1 = *outer.args[0];
    if (!c.facts.pure(d1) || d1.type->kind != ir::Type::Kind::Set)
      return rule + "its keys are not a set that reads no state";
    TabulatedRule t;
    t.rule = int(r);
    t.arity = pair ? 2 : 1;
    t.slots[0] = outer.slot;
    t.slots[1] = pair ? inner->slot : -1;
    const int key_domain = d1.type->domain;
    if (pair && inner->args[0]->type->domain != key_domain)
      return rule + "its two keys are of different domains";
    std::vector<int> env(size_t(std::max(R.locals, 1)) + 1, -1);
    env[size_t(t.slots[0])] = 0;
    if (pair) env[size_t(t.slots[1])] = 1;
    int var = plan.var;
    const ir::Expr* w1 = outer.args[1].get();
    const ir::Expr* w2 = pair ? inner->args[1].get() : nullptr;
    const ir::Expr& body = pair ? *inner->args[2] : *outer.args[2];
    if ((w1 && !keyed_reads(program, *w1, env, var, 0)) || (w2 && !keyed_reads(program, *w2, env, var, 0)) ||
        !keyed_reads(program, body, env, var, 0))
      return rule + "reads the state otherwise than one variable at its keys";
    if (var < 0) return rule + "reads no state";  // nothing to tabulate
    const ir::StateVar& V = program.vars[size_t(var)];
    if (V.keys.size() != 1 || V.keys[0] != key_domain)
      return rule + "its variable is not keyed by the rule's keys alone";
    plan.var = var;
    // The rule for one tuple: fine unless $a in D1, W1, $b in D2 and W2 all hold; then B.
    const ir::TypePtr& boolean = R.condition->type;
    t.guards.push_back(member(t.slots[0], d1, boolean));
    if (w1) t.guards.push_back(ir::clone_expr(*w1));
    if (pair) t.guards.push_back(member(t.slots[1], *inner->args[0], boolean));
    if (w2) t.guards.push_back(ir::clone_expr(*w2));
    t.body = &body;
    plan.rules.push_back(std::move(t));
  }
  return "";
}

/// Plans the tables of the board rules that have the form into `plan`, the others into
/// `plan.rest` (each with why, in `why`); returns "" or why no table can be had.
std::string tabulate(const PassContext& c, RuleTablePlan& plan, std::vector<std::string>& why) {
  const ir::Program& program = c.program;
  std::string first_refusal;
  for (size_t r = 0; r < program.rules.size(); ++r) {
    if (!program.rules[r].board_rule) continue;
    const std::string no = tabulate_rule(c, r, plan);
    if (no.empty()) continue;
    if (first_refusal.empty()) first_refusal = no;
    plan.rest.push_back(int(r));
    why.push_back(no);
  }
  if (plan.rules.empty()) return first_refusal.empty() ? "no board rules" : first_refusal;
  for (int r : plan.rest) plan.rest_after = plan.rest_after && r > plan.rules.back().rule;
  const ir::StateVar& V = program.vars[size_t(plan.var)];
  const uint64_t keys = c.dom(V.keys[0]).size, values = c.dom(V.domain).size;
  const uint64_t bytes = keys * keys * values * uint64_t(std::max<uint64_t>(1, (c.dom(V.domain).size + 63) / 64)) * 8;
  uint64_t evaluations = 0;
  for (const TabulatedRule& t : plan.rules) evaluations += t.arity == 2 ? keys * keys * values * values : keys * values;
  if (bytes > kMaxTableBytes || evaluations > kMaxTableEvaluations)
    return fmt::format("{} bytes and {} evaluations (at most {} and {})", bytes, evaluations,
                       kMaxTableBytes, kMaxTableEvaluations);
  plan.keys = V.keys[0];
  plan.values = V.domain;
  return "";
}

}  // namespace

void pass_rule_tables(PassContext& c) {
  if (!c.plan.board_rules) return;
  RuleTablePlan plan;
  std::vector<std::string> why;
  const std::string no = tabulate(c, plan, why);
  if (!no.empty()) {
    c.report.lines.push_back("board rules not tabulated: " + no);
    return;
  }
  EnginePlan& p = c.plan;
  p.rule_tables = std::move(plan);
  RuleTablePlan& t = p.rule_tables;
  for (const TabulatedRule& r : t.rules)
    c.report.lines.push_back(fmt::format("rule {}: tabulated per {} over {}", c.program.rules[size_t(r.rule)].name,
                                         r.arity == 2 ? "pair of keys" : "key", c.var_name(t.var)));
  for (size_t k = 0; k < t.rest.size(); ++k)
    c.report.lines.push_back(fmt::format("{}; checked by its code when the tables say the others hold", why[k]));
  if (!t.rest_after)
    c.report.lines.push_back("a rule checked by its code comes before a tabulated one: a board the tables reject "
                             "is checked by the code of every rule");
  // The verdict of a whole state is remembered too, in the slot after the defines'.
  if (p.memo_defines < 64) {
    t.memo_slot = p.memo_defines++;
    p.forget_defines[size_t(t.var)] |= uint64_t(1) << t.memo_slot;
    c.report.lines.push_back(fmt::format("verdict of a state: slot {}, forgotten by stores into {}",
                                         t.memo_slot, c.var_name(t.var)));
  }
}



}  // namespace rulebook::compiler::plan
