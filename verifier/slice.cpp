// Dependency analysis over the IR's reads and writes (see slice.h).
#include "verifier/slice.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <unordered_set>

#include "compiler/ir/int_range.h"

namespace rulebook::verifier {

namespace {

using ir::Op;
using B = dsl::BuiltinId;

/// The slots of the expression's own frame it reads (a call's body has a frame of its own).
void locals_read(const ir::Expr& e, std::set<int>& slots) {
  if (e.op == Op::Local) slots.insert(e.slot);
  for (const ir::ExprPtr& a : e.args)
    if (a) locals_read(*a, slots);
}

void reads_rec(const ir::Program& p, const ir::Expr& e, std::set<int>& vars, std::set<int>& seen_fn,
               std::set<int>& seen_move) {
  switch (e.op) {
    case Op::Read: vars.insert(e.var); break;
    case Op::Mover: vars.insert(ir::kVarMover); break;
    case Op::Phase: vars.insert(ir::kVarPhase); break;
    case Op::Builtin:
      if (e.builtin == B::Out) vars.insert(ir::kVarOut);
      if (e.builtin == B::Mover) vars.insert(ir::kVarMover);
      break;
    case Op::Call:
      if (seen_fn.insert(e.function).second) reads_rec(p, *p.functions[size_t(e.function)].body, vars, seen_fn, seen_move);
      break;
    case Op::Can:
      if (seen_move.insert(e.move).second) {
        const ir::Move& m = p.moves[size_t(e.move)];
        vars.insert(ir::kVarMover);
        for (const auto& r : m.requires_) reads_rec(p, *r, vars, seen_fn, seen_move);
        for (const auto& c : m.checks) reads_rec(p, *c.condition, vars, seen_fn, seen_move);
      }
      break;
    default: break;
  }
  for (const auto& a : e.args)
    if (a) reads_rec(p, *a, vars, seen_fn, seen_move);
}

/// Values of this domain are always members of it (no none, no arithmetic overflow).
bool closed_domain(const ir::Program& p, int d) {
  if (d < 0) return false;
  const auto k = p.domains[size_t(d)].kind;
  return k != ir::Domain::Kind::Range && k != ir::Domain::Kind::Optional;
}

bool scalar_in(const ir::Program& p, const ir::Expr& e, int d) {
  return e.type && e.type->kind == ir::Type::Kind::Scalar && e.type->domain == d && closed_domain(p, d);
}

class ErrAnalysis {
 public:
  explicit ErrAnalysis(const ir::Program& p) : p_(p) {}

  bool expr(const ir::Expr& e) {
    for (const auto& a : e.args)
      if (a && expr(*a)) return true;
    switch (e.op) {
      case Op::Const: case Op::ConstSet: case Op::ConstList: case Op::Local: case Op::Mover:
      case Op::Phase: case Op::Not:
      case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      case Op::And: case Op::Or: case Op::If: case Op::In: case Op::Union: case Op::Diff:
      case Op::Inter: case Op::ListLit: case Op::All: case Op::Some: case Op::No: case Op::Count:
      case Op::Filter:
        return false;
      case Op::Neg: case Op::Add: case Op::Sub: case Op::Mul: case Op::Sum:
        // Integer arithmetic errs on overflow unless the operands' ranges rule it out.
        return e.type->kind == ir::Type::Kind::Scalar && !compiler::cannot_overflow(p_, e);
      case Op::Div:
      case Op::Mod: {
        // By zero, and INT64_MIN / -1.
        int64_t d = e.args[1]->op == Op::Const ? int64_t(e.args[1]->value) : 0;
        return d == 0 || (e.op == Op::Div && d == -1);
      }
      case Op::Read: {
        const ir::StateVar& v = p_.vars[size_t(e.var)];
        for (size_t i = 0; i < e.args.size(); ++i)
          if (!scalar_in(p_, *e.args[i], v.keys[i])) return true;
        return false;
      }
      case Op::SetLit:
        if (e.type->kind != ir::Type::Kind::Set) return false;
        for (const auto& a : e.args)
          if (!scalar_in(p_, *a, e.type->domain)) return true;
        return false;
      case Op::Field: return !closed_domain(p_, e.args[0]->type->domain);
      case Op::Builtin: return builtin(e);
      case Op::Call: return function(e.function);
      case Op::Can: {
        const ir::Move& m = p_.moves[size_t(e.move)];
        for (const auto& r : m.requires_)
          if (expr(*r)) return true;
        for (const auto& c : m.checks)
          if (expr(*c.condition)) return true;
        return false;
      }
      case Op::At: {
        // A constant table indexed by a cell, player, ... (values 0 .. size-1) that has an
        // entry for each of them (regions: box(c)).
        const ir::Expr& i = *e.args[1];
        if (e.args[0]->op != Op::ConstList || !i.type || i.type->kind != ir::Type::Kind::Scalar ||
            !closed_domain(p_, i.type->domain))
          return true;
        const ir::Domain& d = p_.domains[size_t(i.type->domain)];
        return d.kind == ir::Domain::Kind::Record || d.size > e.args[0]->args.size();
      }
      default: return true;  // RangeSet, RecordLit, Max, Min: can err
    }
  }

 private:
  bool builtin(const ir::Expr& e) {
    switch (e.builtin) {
      case B::Width: case B::Height: case B::Cells: case B::Rows: case B::Columns: case B::Lines:
      case B::Edge: case B::CornerCells: case B::Points: case B::InnerPoints: case B::RimPoints:
      case B::Size: case B::Abs: case B::Min: case B::Max: case B::Players: case B::Teams:
      case B::Mover: case B::Horizontal: case B::Vertical:
        return false;
      case B::Row: case B::Column: case B::X: case B::Y: case B::Orth: case B::Diag: case B::King:
      case B::Corners: case B::Around: case B::Segment: case B::Ends: case B::Seat: case B::Next:
      case B::Out:
        // Error-free on members of their argument's domain.
        for (const auto& a : e.args)
          if (a->type->kind == ir::Type::Kind::Scalar && !closed_domain(p_, a->type->domain) &&
              !(e.builtin == B::Segment || e.builtin == B::Ends))
            return true;
        if ((e.builtin == B::Segment || e.builtin == B::Ends) && !closed_domain(p_, e.args[0]->type->domain))
          return true;
        return false;
      case B::Members: return !closed_domain(p_, e.args[0]->type->domain);
      case B::TeamOf: {
        // Errs only on a player in no team.
        if (!closed_domain(p_, e.args[0]->type->domain)) return true;
        std::vector<bool> in_team(size_t(p_.players), false);
        for (const auto& t : p_.geometry.teams)
          for (int q : t) in_team[size_t(q)] = true;
        return std::find(in_team.begin(), in_team.end(), false) != in_team.end();
      }
      default: return true;  // components, cell_at, can(...): not claimed
    }
  }

  bool function(int f) {
    auto it = fn_.find(f);
    if (it != fn_.end()) return it->second;
    fn_[f] = true;  // while being computed (the language has no recursion)
    const ir::Function& fn = p_.functions[size_t(f)];
    bool err = expr(*fn.body);
    fn_[f] = err;
    return err;
  }

  const ir::Program& p_;
  std::map<int, bool> fn_;
};

/// Bounds [lo, hi] on the value of an int expression on every state (nullopt: unknown):
/// enough to see that `x := min(x + 1, limit)` stays in x's range, so it cannot err.
std::optional<std::pair<int64_t, int64_t>> int_range(const ir::Program& p, const ir::Expr& e) {
  using R = std::optional<std::pair<int64_t, int64_t>>;
  auto arg = [&](size_t i) { return i < e.args.size() && e.args[i] ? int_range(p, *e.args[i]) : R{}; };
  switch (e.op) {
    case Op::Const: return R{{int64_t(e.value), int64_t(e.value)}};
    case Op::Read: {
      const ir::Domain& d = p.domains[size_t(p.vars[size_t(e.var)].domain)];
      if (d.kind != ir::Domain::Kind::Range) return {};
      return R{{d.lo, d.lo + int64_t(d.size) - 1}};
    }
    case Op::Neg: {
      R a = arg(0);
      return a ? R{{-a->second, -a->first}} : R{};
    }
    case Op::Add:
    case Op::Sub: {
      R a = arg(0), b = arg(1);
      if (!a || !b) return {};
      return e.op == Op::Add ? R{{a->first + b->first, a->second + b->second}}
                             : R{{a->first - b->second, a->second - b->first}};
    }
    case Op::If: {
      R a = arg(1), b = arg(2);
      if (!a || !b) return {};
      return R{{std::min(a->first, b->first), std::max(a->second, b->second)}};
    }
    case Op::Builtin:
      if ((e.builtin == B::Min || e.builtin == B::Max) && e.args.size() == 2) {
        R a = arg(0), b = arg(1);
        if (!a || !b) return {};
        if (e.builtin == B::Min) return R{{std::min(a->first, b->first), std::min(a->second, b->second)}};
        return R{{std::max(a->first, b->first), std::max(a->second, b->second)}};
      }
      return {};
    default: return {};
  }
}

/// The variable a statement writes directly (-1: none).
int writes(const ir::Stmt& s) {
  switch (s.op) {
    case ir::StmtOp::Assign: return s.var;
    case ir::StmtOp::Goto: return ir::kVarPhase;
    case ir::StmtOp::End: return ir::kVarOver;
    case ir::StmtOp::Eliminate: return ir::kVarOut;
    default: return -1;
  }
}

}  // namespace

void reads_of(const ir::Program& p, const ir::Expr& e, std::set<int>& vars) {
  std::set<int> fns, moves;
  reads_rec(p, e, vars, fns, moves);
}

bool may_err(const ir::Program& p, const ir::Expr& e) { return ErrAnalysis(p).expr(e); }

std::unordered_set<const ir::Stmt*> slice_body(const ir::Program& p, const ir::Block& body,
                                               std::set<int> needed, bool keep_erring) {
  ErrAnalysis err(p);
  // A statement by itself (its own expressions and store) may err.
  auto own_err = [&](const ir::Stmt& s) {
    if (s.value && err.expr(*s.value)) return true;
    if (s.where && err.expr(*s.where)) return true;
    if (s.op == ir::StmtOp::Assign) {
      const ir::StateVar& v = p.vars[size_t(s.var)];
      if (s.keys.size() != v.keys.size()) return true;
      for (size_t i = 0; i < s.keys.size(); ++i)
        if (err.expr(*s.keys[i]) || !scalar_in(p, *s.keys[i], v.keys[i])) return true;
      if (s.assign != 0) return true;
      const ir::Expr& x = *s.value;
      if (x.op == Op::Const) return ir::domain_index(p.domains, v.domain, x.value) < 0;
      const ir::Domain& vd = p.domains[size_t(v.domain)];
      if (vd.kind == ir::Domain::Kind::Range) {
        auto r = int_range(p, x);
        if (r && r->first >= vd.lo && r->second <= vd.lo + int64_t(vd.size) - 1) return false;
      }
      return !(x.type->kind == ir::Type::Kind::Scalar && x.type->domain == v.domain &&
               (closed_domain(p, v.domain) || p.domains[size_t(v.domain)].kind == ir::Domain::Kind::Optional));
    }
    if (s.op == ir::StmtOp::Eliminate) return true;
    return false;
  };
  std::unordered_set<const ir::Stmt*> keep;
  // The frame's slots that kept statements read: a `let` is needed only when its slot is
  // read (a quantifier's binder read under the same slot keeps it too: more, never less),
  // or, with keep_erring, when its value may err.
  std::set<int> slots;
  // Grows `needed` and `slots` with the reads of kept statements until nothing changes
  // (flow-insensitive, so it may keep more than strictly needed; never less).
  std::function<bool(const ir::Block&)> visit = [&](const ir::Block& b) {
    bool any = false;
    for (const ir::StmtPtr& sp : b) {
      const ir::Stmt& s = *sp;
      bool k = s.op == ir::StmtOp::Let
                   ? slots.count(s.slot) > 0 || (keep_erring && (!s.value || err.expr(*s.value)))
                   : (keep_erring && own_err(s)) || (writes(s) >= 0 && needed.count(writes(s)));
      bool inner = visit(s.body);
      inner = visit(s.otherwise) || inner;
      k = k || inner;
      if (!k) continue;
      any = true;
      if (keep.insert(&s).second) {
        if (s.value) reads_of(p, *s.value, needed);
        // `x += v` and `x -= v` read x too: the stores before it to x are needed.
        if (s.op == ir::StmtOp::Assign && s.assign != 0) needed.insert(s.var);
        if (s.where) reads_of(p, *s.where, needed);
        for (const auto& key : s.keys) reads_of(p, *key, needed);
        if (s.value) locals_read(*s.value, slots);
        if (s.where) locals_read(*s.where, slots);
        for (const auto& key : s.keys) locals_read(*key, slots);
      }
    }
    return any;
  };
  size_t before;
  do {
    before = keep.size() + needed.size() * 100000 + slots.size() * 10000000000;
    visit(body);
  } while (keep.size() + needed.size() * 100000 + slots.size() * 10000000000 != before);
  return keep;
}

std::vector<z3::expr> relevant_partitions(const std::vector<z3::expr>& partitions,
                                          const std::vector<z3::expr>& used) {
  std::vector<z3::expr> out;
  if (partitions.empty()) return out;
  std::unordered_set<unsigned> seen;
  std::vector<z3::expr> stack(used.begin(), used.end());
  while (!stack.empty()) {
    z3::expr e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.id()).second || !e.is_app()) continue;
    for (unsigned i = 0; i < e.num_args(); ++i) stack.push_back(e.arg(i));
  }
  for (const z3::expr& f : partitions) {
    unsigned present = 0;
    for (unsigned i = 0; i < f.num_args() && present < 2; ++i) present += seen.count(f.arg(i).id()) ? 1 : 0;
    if (present >= 2) out.push_back(f);
  }
  return out;
}

SharedTerms::SharedTerms(const z3::expr& question, std::function<int(unsigned)> selector_of)
    : selector_of_(std::move(selector_of)) {
  reads(question);
}

int SharedTerms::reads(const z3::expr& e0) {
  // Post-order without recursion (questions can be deep).
  std::vector<std::pair<z3::expr, bool>> stack{{e0, false}};
  while (!stack.empty()) {
    auto [e, done] = stack.back();
    stack.pop_back();
    if (reads_.count(e.id())) continue;
    if (!e.is_app()) {
      reads_[e.id()] = -2;
      continue;
    }
    const unsigned n = e.num_args();
    if (n == 0) {
      const bool constant = e.decl().decl_kind() == Z3_OP_UNINTERPRETED;
      const int s = constant ? selector_of_(e.id()) : -1;
      reads_[e.id()] = constant && s < 0 ? -2 : s;
      continue;
    }
    if (!done) {
      stack.push_back({e, true});
      for (unsigned i = 0; i < n; ++i) stack.push_back({e.arg(i), false});
      continue;
    }
    int r = -1;
    for (unsigned i = 0; i < n && r != -2; ++i) {
      const int a = reads_.at(e.arg(i).id());
      r = a == -1 ? r : r == -1 ? a : r == a ? r : -2;
    }
    reads_[e.id()] = r;
    if (r == -2) mixed_.insert(e.id());
  }
  return reads_.at(e0.id());
}

bool SharedTerms::shares(const z3::expr& fact) const {
  std::unordered_set<unsigned> seen;
  std::vector<z3::expr> stack{fact};
  while (!stack.empty()) {
    z3::expr e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.id()).second) continue;
    if (mixed_.count(e.id())) return true;
    if (!e.is_app()) continue;
    for (unsigned i = 0; i < e.num_args(); ++i) stack.push_back(e.arg(i));
  }
  return false;
}

}  // namespace rulebook::verifier
