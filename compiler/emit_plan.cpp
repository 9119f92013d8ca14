// What the generated code precomputes or keeps beside the state: list capacities, the
// geometry tables it needs, and the per-value bitboards ("planes") of small variables.
#include <algorithm>

#include "compiler/emit_internal.h"

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
}

bool is_binder(Op op) {
  return op == Op::All || op == Op::Some || op == Op::No || op == Op::Count || op == Op::Sum ||
         op == Op::Max || op == Op::Min || op == Op::Filter;
}

}  // namespace

void Emitter::plan() {
  has_board_rules_ = std::any_of(program_.rules.begin(), program_.rules.end(),
                                 [](const ir::Rule& r) { return r.board_rule; });
  walk_program(program_, [&](const ir::Expr& e) {
    if (e.op == Op::Builtin) geometry_used_.insert(e.builtin);
  });
  plan_list_caps();
  plan_planes();
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

// ---------------------------------------------------------------- analysis helpers

bool Emitter::uses_slot(const ir::Expr& e, int slot) const {
  bool found = false;
  walk(e, [&](const ir::Expr& x) { found = found || (x.op == Op::Local && x.slot == slot); });
  return found;
}

bool Emitter::safe(const ir::Expr& e) const {
  // Cheap, and can neither fail nor loop: may be evaluated once where the rules would
  // evaluate it per element (or not at all).
  switch (e.op) {
    case Op::Const: case Op::ConstSet: case Op::Local: case Op::Mover: case Op::Phase:
      return true;
    case Op::Neg: case Op::Not: case Op::Add: case Op::Sub: case Op::Mul:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
    case Op::And: case Op::Or: case Op::If: case Op::Union: case Op::Diff: case Op::Inter:
      for (const auto& a : e.args)
        if (!safe(*a)) return false;
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
        if (!safe(k) || !k.type || k.type->domain != V.keys[i] || !identity_domain(V.keys[i]))
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
        default:
          return false;
      }
    case Op::At:
      return e.args[0]->op == Op::ConstList && e.args[1]->type &&
             identity_domain(e.args[1]->type->domain) &&
             dom(e.args[1]->type->domain).size <= e.args[0]->args.size() && safe(*e.args[1]);
    case Op::All: case Op::Some: case Op::No: case Op::Count: case Op::Sum: case Op::Filter:
      for (const auto& a : e.args)
        if (a && !safe(*a)) return false;
      return true;
    case Op::SetLit:
      for (const auto& a : e.args) {
        if (!safe(*a)) return false;
        if (e.type->kind == ir::Type::Kind::Set &&
            (!a->type || a->type->domain != e.type->domain || !identity_domain(e.type->domain)))
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

bool Emitter::function_safe(int f) const {
  auto it = safe_functions_.find(f);
  if (it != safe_functions_.end()) return it->second;
  safe_functions_[f] = false;  // while looking (no recursion is safe)
  const ir::Function& F = program_.functions[size_t(f)];
  const bool ok = F.body && safe(*F.body);
  safe_functions_[f] = ok;
  return ok;
}

const ir::Expr* Emitter::inline_call(const ir::Expr& call) {
  const ir::Function& F = program_.functions[size_t(call.function)];
  if (!F.body || call.args.size() != F.params.size()) return nullptr;
  // Only arguments that may be copied freely (evaluated once or many times alike).
  for (const auto& a : call.args)
    if (!safe(*a)) return nullptr;
  const int shift = 1000 + 64 * int(inlined_.size());
  std::function<ir::ExprPtr(const ir::Expr&)> copy = [&](const ir::Expr& e) -> ir::ExprPtr {
    if (e.op == Op::Local && e.slot < int(F.params.size())) return copy_expr(*call.args[size_t(e.slot)]);
    auto x = std::make_unique<ir::Expr>();
    x->op = e.op;
    x->type = e.type;
    x->value = e.value;
    x->bits = e.bits;
    x->slot = e.slot >= 0 ? e.slot + shift : e.slot;
    x->var = e.var;
    x->field = e.field;
    x->function = e.function;
    x->move = e.move;
    x->builtin = e.builtin;
    x->span = e.span;
    for (const auto& a : e.args) x->args.push_back(a ? copy(*a) : nullptr);
    return x;
  };
  inlined_.push_back(copy(*F.body));
  return inlined_.back().get();
}

ir::ExprPtr Emitter::copy_expr(const ir::Expr& e) {
  auto x = std::make_unique<ir::Expr>();
  x->op = e.op;
  x->type = e.type;
  x->value = e.value;
  x->bits = e.bits;
  x->slot = e.slot;
  x->var = e.var;
  x->field = e.field;
  x->function = e.function;
  x->move = e.move;
  x->builtin = e.builtin;
  x->span = e.span;
  for (const auto& a : e.args) x->args.push_back(a ? copy_expr(*a) : nullptr);
  return x;
}

// ---------------------------------------------------------------- masks

std::string Emitter::full_mask(int domain) const { return fmt::format("full_d{}()", domain); }

std::string Emitter::plane_index(int var, const ir::Expr& value, bool& checked) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  checked = false;
  if (value.op == Op::Const) {
    return std::to_string(ir::domain_index(program_.domains, V.domain, value.value));
  }
  const int vd = value.type ? value.type->domain : -1;
  if (vd == V.domain && identity_domain(vd)) return expr(value);
  const ir::Domain& D = dom(V.domain);
  // A value of the inner domain is never none: its index is one more.
  if (D.kind == ir::Domain::Kind::Optional && vd == D.inner && identity_domain(vd))
    return fmt::format("{} + 1", expr(value));
  checked = true;  // may be -1: a value outside the domain
  return fmt::format("idx_d{}({})", V.domain, expr(value));
}

std::string Emitter::plane(int var, const ir::Expr& value) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  const std::string planes = fmt::format("g.{}is_", field_name(var));
  bool checked = false;
  const std::string i = plane_index(var, value, checked);
  if (i == "-1") return fmt::format("Bits<{}>{{}}", words(V.keys[0]));
  if (checked) return fmt::format("plane_at({}, {})", planes, i);
  return fmt::format("{}[{}]", planes, i);
}

std::optional<std::string> Emitter::mask_of(const ir::Expr& e, int slot, int domain) {
  auto independent = [&](const ir::Expr& x) { return !uses_slot(x, slot) && safe(x); };
  auto is_binder = [&](const ir::Expr& x) { return x.op == Op::Local && x.slot == slot; };
  auto planes_read = [&](const ir::Expr& x) {
    if (x.op != Op::Read || x.args.size() != 1 || !is_binder(*x.args[0])) return -1;
    const int pv = plane_of_var_[size_t(x.var)];
    if (pv < 0 || planes_[size_t(pv)].key_domain != domain) return -1;
    return x.var;
  };
  switch (e.op) {
    case Op::Const:
      return e.value ? full_mask(domain) : fmt::format("Bits<{}>{{}}", words(domain));
    case Op::Not: {
      auto m = mask_of(*e.args[0], slot, domain);
      if (!m) return std::nullopt;
      return fmt::format("({} - {})", full_mask(domain), *m);
    }
    case Op::And:
    case Op::Or: {
      auto a = mask_of(*e.args[0], slot, domain);
      if (!a) return std::nullopt;
      auto b = mask_of(*e.args[1], slot, domain);
      if (!b) return std::nullopt;
      return fmt::format("({} {} {})", *a, e.op == Op::And ? "&" : "|", *b);
    }
    case Op::Eq:
    case Op::Ne: {
      for (int side = 0; side < 2; ++side) {
        const ir::Expr& x = *e.args[size_t(side)];
        const ir::Expr& other = *e.args[size_t(1 - side)];
        if (!independent(other)) continue;
        std::string m;
        if (const int var = planes_read(x); var >= 0) {
          m = plane(var, other);
        } else if (is_binder(x) && identity_domain(domain) && other.type &&
                   other.type->kind == ir::Type::Kind::Scalar) {
          m = fmt::format("single<{}>(idx_d{}({}))", words(domain), domain, expr(other));
        } else {
          continue;
        }
        return e.op == Op::Eq ? m : fmt::format("({} - {})", full_mask(domain), m);
      }
      return std::nullopt;
    }
    case Op::Read: {
      // A `T -> bool` element: the keys whose element is true.
      if (const int var = planes_read(e); var >= 0 && dom(program_.vars[size_t(var)].domain).kind ==
                                                           ir::Domain::Kind::Bool)
        return fmt::format("g.{}is_[1]", field_name(var));
      return std::nullopt;
    }
    case Op::In: {
      const ir::Expr& x = *e.args[0];
      const ir::Expr& s = *e.args[1];
      if (!is_binder(x) || s.type->kind != ir::Type::Kind::Set || !independent(s))
        return std::nullopt;
      ir::Type want;
      want.kind = ir::Type::Kind::Set;
      want.domain = domain;
      return paren(expr_as(s, want));
    }
    case Op::Call: {
      const ir::Expr* body = inline_call(e);
      if (!body) return std::nullopt;
      return mask_of(*body, slot, domain);
    }
    default:
      break;
  }
  return disjoint_mask(e, slot, domain);
}

// ---------------------------------------------------------------- disjointness

const ir::Expr& Emitter::through_calls(const ir::Expr& e) {
  const ir::Expr* x = &e;
  for (int depth = 0; x->op == Op::Call && depth < 8; ++depth) {
    const ir::Expr* body = inline_call(*x);
    if (!body) break;
    x = body;
  }
  return *x;
}

std::optional<Emitter::Disjoint> Emitter::disjoint_form(const ir::Expr& whole) {
  const ir::Expr& e = through_calls(whole);
  auto is_count = [&](const ir::Expr& x) { return through_calls(x).op == Op::Count; };
  auto is_const = [](const ir::Expr& x, ir::Value v) { return x.op == Op::Const && x.value == v; };
  // The quantifier whose elements passing its condition must be none.
  const ir::Expr* q = nullptr;
  bool negated_body = false;
  switch (e.op) {
    case Op::No:
      q = &e;
      break;
    case Op::All:
      if (e.args[2] && e.args[2]->op == Op::Not) {
        q = &e;
        negated_body = true;
      }
      break;
    case Op::Not:
      if (through_calls(*e.args[0]).op == Op::Some) q = &through_calls(*e.args[0]);
      break;
    case Op::Eq:
      if (is_count(*e.args[0]) && is_const(*e.args[1], 0)) q = &through_calls(*e.args[0]);
      if (is_count(*e.args[1]) && is_const(*e.args[0], 0)) q = &through_calls(*e.args[1]);
      break;
    case Op::Le:
      if (is_count(*e.args[0]) && is_const(*e.args[1], 0)) q = &through_calls(*e.args[0]);
      break;
    case Op::Lt:
      if (is_count(*e.args[0]) && is_const(*e.args[1], 1)) q = &through_calls(*e.args[0]);
      break;
    default:
      break;
  }
  if (!q) return std::nullopt;
  const ir::Expr& domain = *q->args[0];
  if (domain.type->kind != ir::Type::Kind::Set || domain.type->domain < 0) return std::nullopt;
  const int d = domain.type->domain;
  const ir::Expr* where_e = q->args.size() > 1 ? q->args[1].get() : nullptr;
  const ir::Expr* body_e = q->op == Op::Count ? nullptr : q->args[2].get();
  if (body_e && negated_body) body_e = body_e->args[0].get();
  Disjoint out;
  out.set = &domain;
  out.domain = d;
  std::vector<std::string> parts;
  for (const ir::Expr* c : {where_e, body_e}) {
    if (!c) continue;
    auto m = mask_of(*c, q->slot, d);
    if (!m) return std::nullopt;
    parts.push_back(*m);
    out.conditions.push_back(c);
  }
  out.mask = parts.empty() ? full_mask(d) : parts.size() == 1 ? parts[0]
                                                              : fmt::format("({} & {})", parts[0], parts[1]);
  return out;
}

std::optional<std::string> Emitter::disjoint_mask(const ir::Expr& e, int slot, int domain) {
  // {x | T(x) and P have no element in common}, where T(x) depends on x alone (and is
  // pure and safe) and P not at all: every x but those of the inverse table of T at P.
  const ir::Expr* set = nullptr;
  bool list_union = false;
  std::optional<Disjoint> form;
  if (e.op == Op::All && !e.args[1] && e.args[0]->type->kind == ir::Type::Kind::List) {
    // all h in L(x): h and P have nothing in common  <=>  union(L(x)) and P have not.
    form = disjoint_form(*e.args[2]);
    if (!form || form->set->op != Op::Local || form->set->slot != e.slot) return std::nullopt;
    set = e.args[0].get();
    list_union = true;
  } else {
    form = disjoint_form(e);
    if (!form) return std::nullopt;
    set = form->set;
  }
  for (const ir::Expr* c : form->conditions)
    if (uses_slot(*c, slot) || (list_union && uses_slot(*c, e.slot))) return std::nullopt;
  if (!set || !pure(*set) || !safe(*set)) return std::nullopt;
  bool only_x = true;
  walk(*set, [&](const ir::Expr& x) {
    if (x.op == Op::Local && x.slot != slot && x.slot < 1000) only_x = false;
  });
  if (!only_x || !uses_slot(*set, slot)) return std::nullopt;
  const std::string table = derived_table(*set, list_union, slot, domain, form->domain);
  // P one plane of a variable: the union is kept per plane as the variable changes.
  if (form->conditions.size() == 1) {
    const ir::Expr& c = through_calls(*form->conditions[0]);
    if (c.op == Op::Eq) {
      for (int side = 0; side < 2; ++side) {
        const ir::Expr& r = *c.args[size_t(side)];
        const ir::Expr& value = *c.args[size_t(1 - side)];
        if (r.op != Op::Read || r.args.size() != 1 || r.args[0]->op != Op::Local) continue;
        const int pv = plane_of_var_[size_t(r.var)];
        if (pv < 0 || planes_[size_t(pv)].key_domain != form->domain ||
            uses_slot(value, r.args[0]->slot))
          continue;
        bool checked = false;
        const std::string index = plane_index(r.var, value, checked);
        const std::string name = plane_union(table, r.var, domain);
        return fmt::format("({} - {}(g, {}))", full_mask(domain), name, index);
      }
    }
  }
  return fmt::format("({} - {}().inverse_union({}))", full_mask(domain), table, form->mask);
}

std::string Emitter::plane_union(const std::string& table, int var, int domain) {
  for (const PlaneUnion& u : plane_unions_)
    if (u.table == table && u.var == var) return u.name;
  PlaneUnion u;
  u.table = table;
  u.var = var;
  u.domain = domain;
  u.name = fmt::format("union{}", plane_unions_.size());
  plane_unions_.push_back(u);
  return u.name;
}

std::string Emitter::derived_table(const ir::Expr& set, bool list_union, int slot, int domain,
                                   int set_domain) {
  // The table is built in its own frame: the local `slot` is its loop variable.
  const std::vector<std::string> saved_slots = slots_;
  const int saved_lambda = lambda_depth_;
  slots_.assign(slots_.size(), std::string());
  if (size_t(slot) >= slots_.size()) slots_.resize(size_t(slot) + 1);
  slots_[size_t(slot)] = "x";
  lambda_depth_ = 2;
  const std::string value = expr(set);
  slots_ = saved_slots;
  lambda_depth_ = saved_lambda;
  const std::string key = fmt::format("{}|{}|{}|{}", domain, set_domain, list_union, value);
  auto it = named_constants_.find(key);
  if (it != named_constants_.end()) return it->second;
  const std::string name = fmt::format("derived{}", derived_defs_.size());
  named_constants_[key] = name;
  const int n = int(dom(domain).size), tw = words(set_domain), xw = words(domain);
  std::string d;
  d += fmt::format("/// For each {} x: {}{} (and, inverted, the x whose set holds each element).\n",
                   dom(domain).name, list_union ? "the union of " : "", source_excerpt(set.span));
  d += fmt::format("struct Derived{} {{\n", derived_defs_.size());
  d += fmt::format("  Bits<{}> of[{}];\n", tw, n);
  d += fmt::format("  Bits<{}> holders[{}];\n", xw, dom(set_domain).size);
  d += fmt::format("  /// The x whose set meets `s`.\n");
  d += fmt::format("  Bits<{}> inverse_union(Bits<{}> s) const {{\n", xw, tw);
  d += fmt::format("    Bits<{}> out{{}};\n", xw);
  d += "    while (!s.empty()) out = out | holders[s.pop()];\n";
  d += "    return out;\n  }\n};\n";
  d += fmt::format("const Derived{}& {}() {{\n", derived_defs_.size(), name);
  d += fmt::format("  static const Derived{}& t = *[] {{\n", derived_defs_.size());
  d += fmt::format("    static Derived{} r{{}};\n", derived_defs_.size());
  d += "    static Game scratch{};\n";
  d += "    Game& g = scratch;\n";
  d += "    (void)g;\n";
  d += fmt::format("    for (Int x = 0; x < {}; ++x) {{\n", n);
  if (list_union) {
    d += fmt::format("      for (const auto& s : {}) r.of[x] = r.of[x] | s;\n", value);
  } else {
    d += fmt::format("      r.of[x] = {};\n", value);
  }
  d += "      for (Bits<" + std::to_string(tw) + "> m = r.of[x]; !m.empty();) r.holders[m.pop()].set(x);\n";
  d += "    }\n    return &r;\n  }();\n  return t;\n}";
  derived_defs_.push_back(d);
  return name;
}

}  // namespace rulebook::compiler::emit

namespace rulebook::compiler::emit {

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

}  // namespace rulebook::compiler::emit

namespace rulebook::compiler::emit {

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

void Emitter::reads_of(const ir::Block& b, Reads& out) const {
  // A variable a block stores counts as read too: what follows sees the store.
  std::function<void(const ir::Block&)> stores = [&](const ir::Block& block) {
    for (const auto& s : block) {
      if (s->op == ir::StmtOp::Assign) out.vars.insert(s->var);
      if (s->op == ir::StmtOp::Eliminate) out.vars.insert(ir::kVarOut);
      if (s->op == ir::StmtOp::Goto) out.vars.insert(ir::kVarPhase);
      if (s->op == ir::StmtOp::End) out.vars.insert(ir::kVarOver);
      stores(s->body);
      stores(s->otherwise);
    }
  };
  stores(b);
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

void Emitter::plan_memos() {
  memo_slot_.assign(program_.functions.size(), -1);
  can_memo_base_.assign(program_.moves.size(), -1);
  forget_defines_.assign(program_.vars.size(), 0);
  forget_cans_.assign(program_.vars.size(), 0);
  // Parameterless defines of the state (not of the mover): remembered until a store.
  for (size_t f = 0; f < program_.functions.size() && memo_defines_ < 64; ++f) {
    const ir::Function& F = program_.functions[f];
    if (!F.params.empty() || !F.body || F.result->kind != ir::Type::Kind::Scalar) continue;
    if (function_pure(int(f))) continue;
    const Reads& r = function_reads(int(f));
    if (r.mover) continue;
    memo_slot_[f] = memo_defines_++;
    for (int v : r.vars) forget_defines_[size_t(v)] |= uint64_t(1) << memo_slot_[f];
  }
  // can(move, player): one bit per player, as long as 64 bits last.
  int next = 0;
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    if (next + program_.players > 64) break;
    can_memo_base_[m] = next;
    const uint64_t bits = (program_.players >= 64 ? ~uint64_t(0) : ((uint64_t(1) << program_.players) - 1)) << next;
    for (int v : move_reads(int(m)).vars) forget_cans_[size_t(v)] |= bits;
    next += program_.players;
  }
}

}  // namespace rulebook::compiler::emit
