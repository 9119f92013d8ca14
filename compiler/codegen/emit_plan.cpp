// What the generated code precomputes or keeps beside the state: list capacities, the
// geometry tables it needs, per-value bitboards ("planes") of small variables, tables of
// pure defines, and remembered values with what each store forgets.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

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

namespace {

/// Every expression and block the generated engine evaluates.
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
}

}  // namespace

bool is_binder(Op op) {
  return op == Op::All || op == Op::Some || op == Op::No || op == Op::Count || op == Op::Sum ||
         op == Op::Max || op == Op::Min || op == Op::Filter;
}

void Emitter::plan() {
  has_board_rules_ = std::any_of(program_.rules.begin(), program_.rules.end(),
                                 [](const ir::Rule& r) { return r.board_rule; });
  walk_program(program_, [&](const ir::Expr& e) {
    if (e.op == Op::Builtin) geometry_used_.insert(e.builtin);
  });
  plan_list_caps();
  plan_planes();
  plan_rule_tables();
  plan_memos();
}

void Emitter::plan_list_caps() {
  // Constant lists consumed in place (indexed, or iterated) are plain arrays: they do not
  // set the capacity of List values.
  std::set<const ir::Expr*> in_place;
  walk_program(program_, [&](const ir::Expr& e) {
    if ((e.op == Op::At || is_binder(e.op)) && !e.args.empty() && e.args[0] &&
        e.args[0]->op == Op::ConstList)
      in_place.insert(e.args[0].get());
  });
  auto note = [&](const ir::Type& t, int n) {
    if (t.kind != ir::Type::Kind::List || !t.elem) return;
    int& cap = list_caps_[cpp_type(*t.elem)];
    cap = std::max(cap, std::max(n, 1));
  };
  const int W = program_.geometry.width, H = program_.geometry.height;
  bool has_union = false;
  walk_program(program_, [&](const ir::Expr& e) {
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
        note(*e.type, int(program_.vars[size_t(e.var)].count));
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
    for (auto& [type, cap] : list_caps_) cap *= 2;
  // Lists of lists take their element type from the map above; settle it once more.
  std::map<std::string, int> settled;
  walk_program(program_, [&](const ir::Expr& e) {
    if (e.type && e.type->kind == ir::Type::Kind::List && e.type->elem) {
      const std::string elem = cpp_type(*e.type->elem);
      settled[elem] = std::max(settled[elem], list_caps_[elem]);
    }
  });
  for (auto& [type, cap] : settled) list_caps_[type] = std::max(cap, 1);
}

int Emitter::list_cap(const std::string& elem_type) const {
  auto it = list_caps_.find(elem_type);
  return it == list_caps_.end() ? 1 : it->second;
}

// ---------------------------------------------------------------- planes

bool Emitter::plane_eligible(int var) const {
  const ir::StateVar& V = program_.vars[size_t(var)];
  return V.keys.size() == 1 && identity_domain(V.keys[0]) &&
         dom(V.keys[0]).kind != ir::Domain::Kind::Record && dom(V.keys[0]).size <= 1024 &&
         dom(V.domain).size <= uint32_t(kMaxPlaneValues) && V.width == 1;
}

void Emitter::plan_planes() {
  plane_of_var_.assign(program_.vars.size(), -1);
  // A variable gets planes when some expression asks which keys hold a value:
  // `v[x] == e` with x a binder or parameter, or the whole of a `set of T`.
  std::set<int> wanted;
  auto is_local_read = [&](const ir::Expr& e) {
    return e.op == Op::Read && e.args.size() == 1 && e.args[0]->op == Op::Local &&
           program_.vars[size_t(e.var)].keys.size() == 1;
  };
  walk_program(program_, [&](const ir::Expr& e) {
    if (e.op == Op::Eq || e.op == Op::Ne) {
      for (int side = 0; side < 2; ++side) {
        const ir::Expr& r = *e.args[size_t(side)];
        const ir::Expr& o = *e.args[size_t(1 - side)];
        if (is_local_read(r) && !uses_slot(o, r.args[0]->slot)) wanted.insert(r.var);
      }
    }
    if (e.op == Op::Read && e.args.empty() && program_.vars[size_t(e.var)].is_set)
      wanted.insert(e.var);
  });
  for (int v : wanted) {
    if (v < ir::kSystemVars || !plane_eligible(v)) continue;
    const ir::StateVar& V = program_.vars[size_t(v)];
    plane_of_var_[size_t(v)] = int(planes_.size());
    planes_.push_back({v, int(dom(V.domain).size), V.keys[0]});
  }
}

// ---------------------------------------------------------------- pure defines

bool Emitter::pure(const ir::Expr& e) const {
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

bool Emitter::function_pure(int f) const {
  auto it = pure_functions_.find(f);
  if (it != pure_functions_.end()) return it->second;
  pure_functions_[f] = false;
  const ir::Function& F = program_.functions[size_t(f)];
  const bool ok = F.body && pure(*F.body);
  pure_functions_[f] = ok;
  return ok;
}

uint64_t Emitter::type_bytes(const ir::Type& t) const {
  switch (t.kind) {
    case ir::Type::Kind::Scalar: return 8;
    case ir::Type::Kind::Set: return 8 * uint64_t(words(t.domain));
    case ir::Type::Kind::List:
      return 8 + uint64_t(list_cap(t.elem ? cpp_type(*t.elem) : "Int")) * (t.elem ? type_bytes(*t.elem) : 8);
  }
  return 8;
}

uint64_t Emitter::table_entries(int f) const {
  const ir::Function& F = program_.functions[size_t(f)];
  if (!function_pure(f)) return 0;
  uint64_t n = 1;
  for (const ir::TypePtr& p : F.params) {
    if (p->kind != ir::Type::Kind::Scalar || p->domain < 0) return 0;
    n *= dom(p->domain).size;
    if (n > 4096) return 0;
  }
  // A constant (no parameters) is worth a table only when it takes work to compute.
  if (F.params.empty() && (F.body->op == Op::Const || F.body->op == Op::ConstSet)) return 0;
  if (n * type_bytes(*F.result) > (uint64_t(1) << 20)) return 0;
  return n;
}

// ---------------------------------------------------------------- remembered values

void Emitter::reads_of(const ir::Expr& e, Reads& out) const {
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

void Emitter::reads_of(const ir::Block& b, Reads& out) const {
  // A variable a block stores counts as read too: what follows sees the store.
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

Emitter::Reads Emitter::everything() const {
  Reads all;
  for (size_t v = 0; v < program_.vars.size(); ++v) all.vars.insert(int(v));
  all.mover = true;
  return all;
}

const Emitter::Reads& Emitter::function_reads(int f) const {
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

const Emitter::Reads& Emitter::move_reads(int m) const {
  auto it = move_reads_.find(m);
  if (it != move_reads_.end()) return it->second;
  Reads& r = move_reads_[m];
  r = everything();
  Reads found;
  const ir::Move& M = program_.moves[size_t(m)];
  for (const auto& c : M.requires_) reads_of(*c, found);
  for (const ir::Check& c : M.checks) reads_of(*c.condition, found);
  if (has_board_rules_) {
    // Legality then also runs the block and reads the board rules after it.
    reads_of(M.body, found);
    for (const ir::Rule& rule : program_.rules)
      if (rule.board_rule && rule.condition) reads_of(*rule.condition, found);
  }
  r = found;
  return r;
}

bool Emitter::can_direct(int m) const {
  // No parameter to search and only cheap conditions that cannot fail: testing them costs
  // less than remembering the answer (and forgetting it at every store).
  const ir::Move& M = program_.moves[size_t(m)];
  if (!M.params.empty() || has_board_rules_) return false;
  for (const auto& c : M.requires_)
    if (!safe(*c)) return false;
  for (const ir::Check& c : M.checks)
    if (!safe(*c.condition)) return false;
  return true;
}

bool Emitter::constant_time(const ir::Expr& e) const {
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

void Emitter::plan_memos() {
  memo_slot_.assign(program_.functions.size(), -1);
  can_memo_base_.assign(program_.moves.size(), -1);
  can_by_mask_.assign(program_.moves.size(), 0);
  forget_defines_.assign(program_.vars.size(), 0);
  forget_cans_.assign(program_.vars.size(), 0);
  // Parameterless defines of the state (not of the mover): remembered until a store.
  for (size_t f = 0; f < program_.functions.size() && memo_defines_ < 64; ++f) {
    const ir::Function& F = program_.functions[f];
    if (!F.params.empty() || !F.body || F.result->kind != ir::Type::Kind::Scalar) continue;
    if (function_pure(int(f))) continue;
    const Reads& r = function_reads(int(f));
    if (r.mover) continue;
    if (constant_time(*F.body)) continue;  // reading the value costs less than the test
    memo_slot_[f] = memo_defines_++;
    for (int v : r.vars) forget_defines_[size_t(v)] |= uint64_t(1) << memo_slot_[f];
  }
  // The verdict of the tabulated board rules on a state.
  if (tabulated() && memo_defines_ < 64) {
    rule_tables_.memo_slot = memo_defines_++;
    forget_defines_[size_t(rule_tables_.var)] |= uint64_t(1) << rule_tables_.memo_slot;
  }
  // One-parameter defines of the state, remembered while the board rules are evaluated.
  scoped_.assign(program_.functions.size(), 0);
  bool board_rules = false;
  for (const ir::Rule& r : program_.rules) board_rules |= r.board_rule;
  for (size_t f = 0; f < program_.functions.size() && board_rules; ++f) {
    const ir::Function& F = program_.functions[f];
    if (F.params.size() != 1 || !F.body || memo_slot_[f] >= 0) continue;
    if (F.params[0]->kind != ir::Type::Kind::Scalar || dom(F.params[0]->domain).size > 64) continue;
    if (F.result->kind == ir::Type::Kind::List) continue;
    if (function_pure(int(f)) || function_reads(int(f)).mover) continue;
    if (constant_time(*F.body)) continue;  // a lookup would cost more than the value
    scoped_[f] = 1;
    ++scoped_count_;
  }
  // can(move, player): one bit per player, as long as 64 bits last.
  int next = 0;
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    if (can_direct(int(m))) continue;
    if (next + program_.players > 64) break;
    can_memo_base_[m] = next;
    const uint64_t bits = (program_.players >= 64 ? ~uint64_t(0) : ((uint64_t(1) << program_.players) - 1)) << next;
    for (int v : move_reads(int(m)).vars) forget_cans_[size_t(v)] |= bits;
    next += program_.players;
  }
}

}  // namespace rulebook::compiler::emit
