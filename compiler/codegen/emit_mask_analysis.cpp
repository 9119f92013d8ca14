// What the masks rest on: calls inlined into conditions, which expressions may be
// evaluated in any order, a move's conditions by the parameters they need, and the moves
// whose can() is a mask search tested each time rather than remembered.
#include <algorithm>
#include <functional>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

using ir::Op;

// ---------------------------------------------------------------- calls

const ir::Expr* MaskBuilder::inline_call(const ir::Expr& call) {
  const ir::Function& F = program_.functions[size_t(call.function)];
  if (!F.body || call.args.size() != F.params.size()) return nullptr;
  // Only arguments that may be copied freely (evaluated once or many times alike).
  for (const auto& a : call.args)
    if (!s_.ir_facts_.safe(*a)) return nullptr;
  // A copy of the body: the arguments in place of the parameters (not renumbered: their
  // locals are the caller's), the body's own locals moved past the caller's.
  const int shift = 1000 + 64 * int(s_.inlined_.size());
  const int params = int(F.params.size());
  std::function<void(ir::ExprPtr&)> rewrite = [&](ir::ExprPtr& x) {
    if (x->op == Op::Local && x->slot < params) {
      x = ir::clone_expr(*call.args[size_t(x->slot)]);
      return;
    }
    if (x->slot >= 0) x->slot += shift;
    for (auto& a : x->args)
      if (a) rewrite(a);
  };
  ir::ExprPtr body = ir::clone_expr(*F.body);
  rewrite(body);
  s_.inlined_.push_back(std::move(body));
  return s_.inlined_.back().get();
}

const ir::Expr& MaskBuilder::through_calls(const ir::Expr& e) {
  const ir::Expr* x = &e;
  for (int depth = 0; x->op == Op::Call && depth < 8; ++depth) {
    const ir::Expr* body = inline_call(*x);
    if (!body) break;
    x = body;
  }
  return *x;
}

// ---------------------------------------------------------------- order of evaluation

bool MaskBuilder::order_free(const ir::Expr& e) const {
  // Like safe(), and `can` of a move whose conditions are too (no board rules: those run
  // the move's block, which may fail).
  if (e.op == Op::Can) {
    if (s_.has_board_rules_ || !s_.ir_facts_.safe(*e.args[0])) return false;
    const ir::Move& M = program_.moves[size_t(e.move)];
    for (const auto& c : M.requires_)
      if (!order_free(*c)) return false;
    for (const ir::Check& c : M.checks)
      if (!order_free(*c.condition)) return false;
    return true;
  }
  if (e.op == Op::Call) {
    for (const auto& a : e.args)
      if (!order_free(*a)) return false;
    const ir::Function& F = program_.functions[size_t(e.function)];
    return F.body && order_free(*F.body);
  }
  switch (e.op) {
    case Op::Not: case Op::And: case Op::Or: case Op::If:
    case Op::All: case Op::Some: case Op::No: case Op::Count: case Op::Sum: case Op::Filter:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      for (const auto& a : e.args)
        if (a && !order_free(*a)) return false;
      return safe_shallow(e);
    default:
      return s_.ir_facts_.safe(e);
  }
}

bool MaskBuilder::safe_shallow(const ir::Expr& e) const {
  // The node itself cannot fail (its arguments are checked by the caller).
  switch (e.op) {
    case Op::Not: case Op::And: case Op::Or: case Op::If:
    case Op::All: case Op::Some: case Op::No: case Op::Count: case Op::Sum: case Op::Filter:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      return true;
    default:
      return false;
  }
}

bool MaskBuilder::uses_can(const ir::Expr& e) const {
  bool found = false;
  walk(e, [&](const ir::Expr& x) { found = found || x.op == Op::Can || x.op == Op::Call; });
  return found;
}

// ---------------------------------------------------------------- a move's conditions and can()

std::vector<std::vector<StagedCondition>> MaskBuilder::staged_conditions(int m) const {
  const ir::Move& M = program_.moves[size_t(m)];
  const size_t n = M.params.size();
  // Each condition is tested as soon as the parameters it reads are chosen; within a
  // stage, `requires` lines first, then the move rules, each in declaration order.
  std::vector<std::vector<StagedCondition>> stages(n + 1);
  for (size_t i = 0; i < M.requires_.size(); ++i) {
    const size_t st = std::min<size_t>(size_t(std::max(M.requires_stage[i], 0)), n);
    stages[st].push_back({M.requires_[i].get(), fmt::format("requires {}", i + 1), M.requires_[i]->span});
  }
  for (size_t i = 0; i < M.checks.size(); ++i) {
    const size_t st = std::min<size_t>(size_t(std::max(M.checks_stage[i], 0)), n);
    const ir::Rule& R = program_.rules[size_t(M.checks[i].rule)];
    stages[st].push_back({M.checks[i].condition.get(), fmt::format("rule {}", M.checks[i].rule), R.span});
  }
  return stages;
}

bool MaskBuilder::cheap_mask_search(int m, const std::vector<std::string>& masks) const {
  // The conditions before the parameter: a few reads and comparisons, that cannot fail.
  const ir::Move& M = program_.moves[size_t(m)];
  for (const auto& c : M.requires_)
    if (!s_.ir_facts_.safe(*c)) return false;
  for (const ir::Check& c : M.checks)
    if (!s_.ir_facts_.safe(*c.condition)) return false;
  const std::vector<std::vector<StagedCondition>> stages = staged_conditions(m);
  for (const StagedCondition& c : stages[0])
    if (!plan::constant_time(*c.expr)) return false;
  // The mask: planes, kept unions, constant tables. A derived union made from a plane on
  // the spot, a table made on first use, a define or a search loops.
  for (const std::string& k : masks) {
    const std::string code = k.substr(0, k.find("  //"));
    for (const char* costly : {"inverse_union", "_compute(", "compute_", "define_", "can_", "cancheck_", "[&]"})
      if (code.find(costly) != std::string::npos) return false;
  }
  return true;
}

void MaskBuilder::test_can_each_time(int m) {
  s_.can_by_mask_[size_t(m)] = 1;
  const int base = s_.can_memo_base_[size_t(m)];
  if (base < 0) return;
  // Nothing is remembered: no store forgets it.
  const int players = program_.players;
  const uint64_t bits = (players >= 64 ? ~uint64_t(0) : (uint64_t(1) << players) - 1) << base;
  for (uint64_t& f : s_.forget_cans_) f &= ~bits;
  s_.can_memo_base_[size_t(m)] = -1;
}

}  // namespace rulebook::compiler::emit
