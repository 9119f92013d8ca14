// Shared analyses of the rules IR (see analysis.h): moved out of the emitter so that the
// plan's passes and the printer of C++ ask the same questions the same way.
#include "compiler/plan/analysis.h"

#include <algorithm>

#include "compiler/ir/int_range.h"

namespace rulebook::compiler::plan {

using ir::Op;

void walk(const ir::Expr& e, const std::function<void(const ir::Expr&)>& f) {
  f(e);
  for (const auto& a : e.args)
    if (a) walk(*a, f);
}

void walk(const ir::Block& b, const std::function<void(const ir::Expr&)>& f) {
  for (const auto& s : b) {
    for (const auto& k : s->keys)
      if (k) walk(*k, f);
    if (s->value) walk(*s->value, f);
    if (s->where) walk(*s->where, f);
    walk(s->body, f);
    walk(s->otherwise, f);
  }
}

void walk_program(const ir::Program& p, const std::function<void(const ir::Expr&)>& f) {
  for (const ir::Function& fn : p.functions)
    if (fn.body) walk(*fn.body, f);
  for (const ir::Rule& r : p.rules)
    if (r.condition) walk(*r.condition, f);
  for (const ir::Move& m : p.moves) {
    for (const auto& r : m.requires_) walk(*r, f);
    for (const ir::Check& c : m.checks) walk(*c.condition, f);
    walk(m.body, f);
  }
  for (const ir::Phase& ph : p.phases) {
    walk(ph.stuck, f);
    for (const ir::Transition& t : ph.transitions) walk(*t.condition, f);
  }
  for (const ir::SetupVar& s : p.setups) {
    if (s.value) walk(*s.value, f);
    if (s.from) walk(*s.from, f);
  }
  walk(p.initial, f);
  walk(p.init, f);
  if (p.end_when) walk(*p.end_when, f);
  if (p.score.value) walk(*p.score.value, f);
  for (const ir::Metric& m : p.metrics) {
    if (m.value) walk(*m.value, f);
    if (m.when) walk(*m.when, f);
  }
  for (const ir::Property& q : p.properties) {
    if (!q.over_play) continue;
    if (q.where) walk(*q.where, f);
    if (q.expr) walk(*q.expr, f);
  }
}

void stores_of(const ir::Block& b, std::set<int>& vars) {
  for (const auto& s : b) {
    if (s->op == ir::StmtOp::Assign) vars.insert(s->var);
    if (s->op == ir::StmtOp::Eliminate) vars.insert(ir::kVarOut);
    if (s->op == ir::StmtOp::Goto) vars.insert(ir::kVarPhase);
    if (s->op == ir::StmtOp::End) vars.insert(ir::kVarOver);
    stores_of(s->body, vars);
    stores_of(s->otherwise, vars);
  }
}

bool is_binder(Op op) {
  return op == Op::All || op == Op::Some || op == Op::No || op == Op::Count || op == Op::Sum ||
         op == Op::Max || op == Op::Min || op == Op::Filter;
}

bool has_board_rules(const ir::Program& p) {
  return std::any_of(p.rules.begin(), p.rules.end(), [](const ir::Rule& r) { return r.board_rule; });
}

bool constant_time(const ir::Expr& e) {
  // No loop, no call: a few reads, comparisons and table lookups.
  bool quick = true;
  walk(e, [&](const ir::Expr& x) {
    switch (x.op) {
      case Op::All: case Op::Some: case Op::No: case Op::Count: case Op::Sum: case Op::Max:
      case Op::Min: case Op::Filter: case Op::Call: case Op::Can: case Op::SetLit:
      case Op::RangeSet: case Op::ListLit:
        quick = false;
        break;
      case Op::Builtin:
        switch (x.builtin) {
          case dsl::BuiltinId::Row: case dsl::BuiltinId::Column: case dsl::BuiltinId::Orth:
          case dsl::BuiltinId::Diag: case dsl::BuiltinId::King: case dsl::BuiltinId::Corners:
          case dsl::BuiltinId::Edge: case dsl::BuiltinId::CornerCells:
          case dsl::BuiltinId::InnerPoints: case dsl::BuiltinId::RimPoints:
            break;
          default:
            quick = false;
        }
        break;
      default:
        break;
    }
  });
  return quick;
}

bool uses_slot(const ir::Expr& e, int slot) {
  bool found = false;
  walk(e, [&](const ir::Expr& x) { found = found || (x.op == Op::Local && x.slot == slot); });
  return found;
}

bool identity_domain(const ir::Program& p, int d) {
  if (d < 0) return false;
  const ir::Domain& D = p.domains[size_t(d)];
  return D.kind != ir::Domain::Kind::Range && D.kind != ir::Domain::Kind::Optional;
}

// ---------------------------------------------------------------- ProgramFacts

ProgramFacts::ProgramFacts(const ir::Program& program)
    : program_(program), board_rules_(has_board_rules(program)) {}

bool ProgramFacts::pure(const ir::Expr& e) const {
  bool ok = true;
  walk(e, [&](const ir::Expr& x) {
    switch (x.op) {
      case Op::Read: case Op::Mover: case Op::Phase: case Op::Can:
        ok = false;
        break;
      case Op::Builtin:
        if (x.builtin == dsl::BuiltinId::Out || x.builtin == dsl::BuiltinId::Mover) ok = false;
        break;
      case Op::Call:
        if (!function_pure(x.function)) ok = false;
        break;
      default:
        break;
    }
  });
  return ok;
}

bool ProgramFacts::function_pure(int f) const {
  auto it = pure_functions_.find(f);
  if (it != pure_functions_.end()) return it->second;
  // While looking, a call back into it (recursion) is impure.
  pure_functions_[f] = false;
  const ir::Function& F = program_.functions[size_t(f)];
  const bool ok = F.body && pure(*F.body);
  pure_functions_[f] = ok;
  return ok;
}

bool ProgramFacts::safe(const ir::Expr& e) const {
  // Cheap, and can neither fail nor loop: may be evaluated once where the rules would
  // evaluate it per element (or not at all).
  switch (e.op) {
    case Op::Const: case Op::ConstSet: case Op::Local: case Op::Mover: case Op::Phase:
      return true;
    case Op::Neg: case Op::Not: case Op::Add: case Op::Sub: case Op::Mul:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
    case Op::And: case Op::Or: case Op::If: case Op::In:
    case Op::Union: case Op::Diff: case Op::Inter:
      for (const auto& a : e.args)
        if (!safe(*a)) return false;
      // Integer arithmetic fails on overflow unless the operands' ranges rule it out.
      if (e.type->kind == ir::Type::Kind::Scalar && !cannot_overflow(program_, e)) return false;
      if ((e.op == Op::Union || e.op == Op::Diff || e.op == Op::Inter) &&
          (e.type->kind != ir::Type::Kind::Set ||
           e.args[0]->type->domain != e.type->domain || e.args[1]->type->domain != e.type->domain))
        return false;
      return true;
    case Op::Read: {
      const ir::StateVar& V = program_.vars[size_t(e.var)];
      if (e.args.size() != V.keys.size() && !(e.args.empty() && V.is_set)) return false;
      for (size_t i = 0; i < e.args.size(); ++i) {
        const ir::Expr& k = *e.args[i];
        if (!safe(k) || !k.type || k.type->domain != V.keys[i] || !identity_domain(program_, V.keys[i]))
          return false;
      }
      return true;
    }
    case Op::Builtin:
      switch (e.builtin) {
        case dsl::BuiltinId::Row: case dsl::BuiltinId::Column: case dsl::BuiltinId::Orth:
        case dsl::BuiltinId::Diag: case dsl::BuiltinId::King: case dsl::BuiltinId::Corners:
          return e.args[0]->type && e.args[0]->type->domain == ir::kCellDomain && safe(*e.args[0]);
        case dsl::BuiltinId::Edge: case dsl::BuiltinId::CornerCells:
        case dsl::BuiltinId::InnerPoints: case dsl::BuiltinId::RimPoints:
          return true;
        case dsl::BuiltinId::Size:
          return e.args.size() == 1 && safe(*e.args[0]);
        case dsl::BuiltinId::X: case dsl::BuiltinId::Y:
          // Of a cell or a point, never none: a division of its index.
          return e.args.size() == 1 && e.args[0]->type &&
                 (e.args[0]->type->domain == ir::kCellDomain || e.args[0]->type->domain == ir::kPointDomain) &&
                 safe(*e.args[0]);
        case dsl::BuiltinId::Abs:
          return e.args.size() == 1 && e.args[0]->type->kind == ir::Type::Kind::Scalar &&
                 safe(*e.args[0]) && cannot_overflow(program_, e);
        case dsl::BuiltinId::CellAt:
          // none off the board, never an error.
          return e.args.size() == 2 && safe(*e.args[0]) && safe(*e.args[1]);
        case dsl::BuiltinId::Segment: case dsl::BuiltinId::Ends:
          // Cells from a cell, an orientation and a length: empty when off the board.
          return e.args.size() == 3 && e.args[0]->type && e.args[0]->type->domain == ir::kCellDomain &&
                 e.args[1]->type && e.args[1]->type->domain == ir::kOrientationDomain &&
                 safe(*e.args[0]) && safe(*e.args[1]) && safe(*e.args[2]);
        default:
          return false;
      }
    case Op::At:
      return e.args[0]->op == Op::ConstList && e.args[1]->type &&
             identity_domain(program_, e.args[1]->type->domain) &&
             program_.domains[size_t(e.args[1]->type->domain)].size <= e.args[0]->args.size() && safe(*e.args[1]);
    case Op::All: case Op::Some: case Op::No: case Op::Count: case Op::Sum: case Op::Filter:
      for (const auto& a : e.args)
        if (a && !safe(*a)) return false;
      return e.op != Op::Sum || cannot_overflow(program_, e);
    case Op::SetLit:
      for (const auto& a : e.args) {
        if (!safe(*a)) return false;
        if (e.type->kind == ir::Type::Kind::Set &&
            (!a->type || a->type->domain != e.type->domain || !identity_domain(program_, e.type->domain)))
          return false;
      }
      return true;
    case Op::Call: {
      for (const auto& a : e.args)
        if (!safe(*a)) return false;
      return function_safe(e.function);
    }
    default:
      return false;
  }
}

bool ProgramFacts::function_safe(int f) const {
  auto it = safe_functions_.find(f);
  if (it != safe_functions_.end()) return it->second;
  safe_functions_[f] = false;  // while looking (no recursion is safe)
  const ir::Function& F = program_.functions[size_t(f)];
  const bool ok = F.body && safe(*F.body);
  safe_functions_[f] = ok;
  return ok;
}

bool ProgramFacts::total(const ir::Expr& e) const {
  if (safe(e)) return true;
  auto args_total = [&] {
    for (const auto& a : e.args)
      if (a && !total(*a)) return false;
    return true;
  };
  switch (e.op) {
    // Binders over a finite set and set algebra: no arithmetic of their own to overflow.
    case Op::All: case Op::Some: case Op::No: case Op::Count: case Op::Filter:
    case Op::Not: case Op::And: case Op::Or: case Op::If: case Op::In:
      return args_total();
    case Op::Union: case Op::Diff: case Op::Inter:
      return e.type->kind == ir::Type::Kind::Set && e.args[0]->type->domain == e.type->domain &&
             e.args[1]->type->domain == e.type->domain && args_total();
    case Op::Eq: case Op::Ne:
      return e.args[0]->type->kind != ir::Type::Kind::List && args_total();
    case Op::Call:
      return args_total() && function_total(e.function);
    default:
      return false;
  }
}

bool ProgramFacts::function_total(int f) const {
  auto it = total_functions_.find(f);
  if (it != total_functions_.end()) return it->second;
  total_functions_[f] = false;  // while looking (a recursive define may not end)
  const ir::Function& F = program_.functions[size_t(f)];
  const bool ok = F.body && total(*F.body);
  total_functions_[f] = ok;
  return ok;
}

void ProgramFacts::reads_of(const ir::Expr& e, Reads& out) const {
  walk(e, [&](const ir::Expr& x) {
    switch (x.op) {
      case Op::Read: out.vars.insert(x.var); break;
      case Op::Mover: out.mover = true; break;
      case Op::Phase: out.vars.insert(ir::kVarPhase); break;
      case Op::Builtin:
        if (x.builtin == dsl::BuiltinId::Out) out.vars.insert(ir::kVarOut);
        if (x.builtin == dsl::BuiltinId::Mover) out.mover = true;
        break;
      case Op::Call: {
        const Reads& r = function_reads(x.function);
        out.vars.insert(r.vars.begin(), r.vars.end());
        out.mover = out.mover || r.mover;
        break;
      }
      case Op::Can: {
        // The move's conditions see the player asked about as their mover.
        const Reads& r = move_reads(x.move);
        out.vars.insert(r.vars.begin(), r.vars.end());
        break;
      }
      default:
        break;
    }
  });
}

void ProgramFacts::reads_of(const ir::Block& b, Reads& out) const {
  stores_of(b, out.vars);
  walk(b, [&](const ir::Expr& x) {
    Reads one;
    // Each node is visited by walk itself; reads_of(x) would walk x's children again.
    switch (x.op) {
      case Op::Read: case Op::Mover: case Op::Phase: case Op::Builtin: case Op::Call: case Op::Can: {
        ir::Expr shallow;
        shallow.op = x.op;
        shallow.var = x.var;
        shallow.builtin = x.builtin;
        shallow.function = x.function;
        shallow.move = x.move;
        reads_of(shallow, one);
        break;
      }
      default:
        break;
    }
    out.vars.insert(one.vars.begin(), one.vars.end());
    out.mover = out.mover || one.mover;
  });
}

Reads ProgramFacts::everything() const {
  Reads all;
  for (size_t v = 0; v < program_.vars.size(); ++v) all.vars.insert(int(v));
  all.mover = true;
  return all;
}

const Reads& ProgramFacts::function_reads(int f) const {
  auto it = function_reads_.find(f);
  if (it != function_reads_.end()) return it->second;
  // While looking, a call back into it (recursion) reads everything.
  Reads& r = function_reads_[f];
  r = everything();
  Reads found;
  const ir::Function& F = program_.functions[size_t(f)];
  if (F.body) reads_of(*F.body, found);
  r = found;
  return r;
}

const Reads& ProgramFacts::move_reads(int m) const {
  auto it = move_reads_.find(m);
  if (it != move_reads_.end()) return it->second;
  Reads& r = move_reads_[m];
  r = everything();
  Reads found;
  const ir::Move& M = program_.moves[size_t(m)];
  for (const auto& c : M.requires_) reads_of(*c, found);
  for (const ir::Check& c : M.checks) reads_of(*c.condition, found);
  if (board_rules_) {
    // Legality then also runs the block and reads the board rules after it.
    reads_of(M.body, found);
    for (const ir::Rule& rule : program_.rules)
      if (rule.board_rule && rule.condition) reads_of(*rule.condition, found);
  }
  r = found;
  return r;
}

}  // namespace rulebook::compiler::plan
