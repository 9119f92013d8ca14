// The masks that answer a condition for every value at once (planes, sets, pure tables,
// and inverse tables of disjointness from derived sets); what they rest on is in
// emit_mask_analysis.cpp.
#include <algorithm>
#include <initializer_list>

#include "compiler/codegen/emit_internal.h"
#include "compiler/ir/int_range.h"

namespace rulebook::compiler::emit {

using ir::Op;

// ---------------------------------------------------------------- masks

std::string MaskBuilder::full_mask(int domain) const { return fmt::format("full_d{}()", domain); }

std::string MaskBuilder::plane_index(int var, const ir::Expr& value, bool& checked,
                                     uint64_t* planes) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  const size_t values = names_.dom(V.domain).size;
  const uint64_t all = values >= 64 ? ~uint64_t(0) : (uint64_t(1) << values) - 1;
  checked = false;
  if (value.op == Op::Const) {
    const int64_t i = ir::domain_index(program_.domains, V.domain, value.value);
    if (planes) *planes = i >= 0 && i < 64 ? uint64_t(1) << i : 0;
    checked = i < 0;  // a value outside the domain: index -1, in no plane
    return std::to_string(i);
  }
  if (planes) *planes = all;
  const int vd = value.type ? value.type->domain : -1;
  if (vd == V.domain && names_.identity_domain(vd)) return exprs_.expr(value);
  const ir::Domain& D = names_.dom(V.domain);
  // A value of the inner domain is never none: its index is one more.
  if (D.kind == ir::Domain::Kind::Optional && vd == D.inner && names_.identity_domain(vd)) {
    if (planes) *planes = all & ~uint64_t(1);
    return fmt::format("{} + 1", exprs_.expr(value));
  }
  checked = true;  // may be -1: a value outside the domain
  return fmt::format("idx_d{}({})", V.domain, exprs_.expr(value));
}

std::string MaskBuilder::plane_ref(int var, const std::string& index) {
  PlaneVar& p = s_.planes_[size_t(s_.plane_of_var_[size_t(var)])];
  const bool constant = !index.empty() && std::all_of(index.begin(), index.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  p.kept = std::max(p.kept, constant ? std::min(std::stoi(index) + 1, p.values) : p.values);
  return fmt::format("g.{}is_[{}]", names_.field_name(var), index);
}

void MaskBuilder::keep_all_planes(int var) {
  PlaneVar& p = s_.planes_[size_t(s_.plane_of_var_[size_t(var)])];
  p.kept = p.values;
}

std::string MaskBuilder::plane(int var, const ir::Expr& value) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  bool checked = false;
  const std::string i = plane_index(var, value, checked);
  if (i == "-1") return fmt::format("Bits<{}>{{}}", names_.words(V.keys[0]));
  if (checked) {
    keep_all_planes(var);
    return fmt::format("plane_at(g.{}is_, {})", names_.field_name(var), i);
  }
  return plane_ref(var, i);
}

namespace {

/// The locals `exprs` read that are not `binder` and that no binder inside them binds.
std::vector<const ir::Expr*> free_locals(std::initializer_list<const ir::Expr*> exprs, int binder) {
  std::set<int> bound{binder};
  std::map<int, const ir::Expr*> locals;
  for (const ir::Expr* e : exprs) {
    walk(*e, [&](const ir::Expr& x) {
      if (is_binder(x.op)) bound.insert(x.slot);
      if (x.op == Op::Local) locals.emplace(x.slot, &x);
    });
  }
  std::vector<const ir::Expr*> out;
  for (const auto& [slot, local] : locals)
    if (!bound.count(slot)) out.push_back(local);
  return out;
}

}  // namespace

std::optional<std::string> MaskBuilder::mask_of(const ir::Expr& e, int slot, int domain) {
  if (auto m = mask_form(e, slot, domain)) return m;
  if (auto m = pure_mask(e, slot, domain)) return m;
  return constant_mask(e, slot, domain);
}

std::optional<std::string> MaskBuilder::pure_mask(const ir::Expr& e, int slot, int domain) {
  constexpr uint64_t kMaxEntries = 4096;
  if (domain < 0 || !s_.ir_facts_.safe(e)) return std::nullopt;
  // Pure, or reading no state but the mover, which is then a key of the table like a local.
  bool mover = false;
  if (!s_.ir_facts_.pure(e)) {
    // (Tables per player to move came with the board maps; off with them.)
    if (!s_.plan_.board_maps) return std::nullopt;
    plan::Reads r;
    s_.ir_facts_.reads_of(e, r);
    if (!r.vars.empty() || !r.mover) return std::nullopt;
    mover = true;
  }
  // The other locals it reads (not bound inside it), each over a small domain.
  std::vector<const ir::Expr*> keys;
  uint64_t entries = mover ? uint64_t(program_.players) : 1;
  for (const ir::Expr* local : free_locals({&e}, slot)) {
    if (!local->type || local->type->kind != ir::Type::Kind::Scalar || local->type->domain < 0) return std::nullopt;
    entries *= names_.dom(local->type->domain).size;
    if (entries == 0 || entries > kMaxEntries || keys.size() >= 3) return std::nullopt;
    keys.push_back(local);
  }
  // The mask computed per value of the binder, in a frame of its own.
  const std::vector<std::string> saved_slots = s_.slots_;
  const int saved_lambda = s_.lambda_depth_;
  s_.slots_.assign(s_.slots_.size(), std::string());
  auto name_slot = [&](int s, const std::string& n) {
    if (size_t(s) >= s_.slots_.size()) s_.slots_.resize(size_t(s) + 1);
    s_.slots_[size_t(s)] = n;
  };
  for (size_t k = 0; k < keys.size(); ++k) name_slot(keys[k]->slot, fmt::format("a{}", k));
  name_slot(slot, "x");
  s_.lambda_depth_ = 2;
  const std::string value = exprs_.cond(e);
  s_.slots_ = saved_slots;
  s_.lambda_depth_ = saved_lambda;
  std::string id = fmt::format("pure|{}|{}{}", domain, value, mover ? "|mover" : "");
  for (const ir::Expr* k : keys) id += fmt::format("|{}", k->type->domain);
  std::string name;
  if (auto it = s_.named_constants_.find(id); it != s_.named_constants_.end()) {
    name = it->second;
  } else {
    const size_t n = s_.derived_defs_.size();
    name = fmt::format("pure_mask{}", n);
    s_.named_constants_[id] = name;
    const int w = names_.words(domain);
    std::string params, args, loops, close, index = "0";
    for (size_t k = 0; k < keys.size(); ++k) {
      const int kd = keys[k]->type->domain;
      params += fmt::format(", Int a{}", k);
      args += fmt::format(", {}", names_.identity_domain(kd) ? fmt::format("i{}", k)
                                                             : fmt::format("val_d{}(i{})", kd, k));
      loops += fmt::format("{}for (Int i{} = 0; i{} < {}; ++i{}) {{\n", std::string(2 + 2 * k, ' '), k, k,
                           names_.dom(kd).size, k);
      close = std::string(2 + 2 * k, ' ') + "}\n" + close;
      index = k == 0 ? "i0" : fmt::format("({}) * {} + i{}", index, names_.dom(kd).size, k);
    }
    if (mover) {  // the last key: the table's entries are per player to move
      const size_t k = keys.size();
      loops += fmt::format("{0}for (Int im = 0; im < {1}; ++im) {{\n{0}  scratch.mover_ = im;\n",
                           std::string(2 + 2 * k, ' '), program_.players);
      close = std::string(2 + 2 * k, ' ') + "}\n" + close;
      index = k == 0 ? "im" : fmt::format("({}) * {} + im", index, program_.players);
    }
    const size_t depth = keys.size() + (mover ? 1 : 0);
    const std::string x = names_.identity_domain(domain) ? "v" : fmt::format("val_d{}(v)", domain);
    std::string d;
    d += fmt::format("/// The values of the binder for which the condition at {} holds, per value of the\n"
                     "/// other locals.\n",
                     names_.line_of(e.span));
    d += fmt::format("Bits<{}> {}_compute([[maybe_unused]] Game& g{}) {{\n", w, name, params);
    d += fmt::format("  Bits<{}> out{{}};\n", w);
    d += fmt::format("  for (Int v = 0; v < {}; ++v) {{\n", names_.dom(domain).size);
    d += fmt::format("    [[maybe_unused]] const Int x = {};\n", x);
    d += fmt::format("    if ({}) out.set(v);\n", value);
    d += "  }\n  return out;\n}\n";
    d += fmt::format("struct PureMask{} {{\n  Bits<{}> of[{}];\n}};\n", n, w, entries);
    // Made when first used (not when the engine is loaded: the defines it calls may use
    // tables of their own, made in any order).
    d += fmt::format("PureMask{0} build_{1}() {{\n  PureMask{0} r{{}};\n  static Game scratch{{}};\n", n, name);
    d += loops;
    d += fmt::format("{}r.of[{}] = {}_compute(scratch{});\n", std::string(2 + 2 * depth, ' '), index, name, args);
    d += close;
    d += "  return r;\n}\n";
    d += fmt::format("const PureMask{0} k{1} = build_{1}();\n", n, name);
    d += fmt::format("[[gnu::always_inline]] inline Bits<{}> {}(Game& g{}) {{\n", w, name, params);
    std::string at = "0", ok;
    for (size_t k = 0; k < keys.size(); ++k) {
      const int kd = keys[k]->type->domain;
      d += fmt::format("  const Int i{} = idx_d{}(a{});\n", k, kd, k);
      ok += fmt::format("{}i{} >= 0", k ? " && " : "", k);
      at = k == 0 ? "i0" : fmt::format("({}) * {} + i{}", at, names_.dom(kd).size, k);
    }
    if (mover) at = keys.empty() ? "g.mover_" : fmt::format("({}) * {} + g.mover_", at, program_.players);
    std::string call_args;
    for (size_t k = 0; k < keys.size(); ++k) call_args += fmt::format(", a{}", k);
    if (keys.empty()) {
      d += fmt::format("  return tables_made ? k{}.of[{}] : {}_compute(g);\n", name, mover ? at : "0", name);
    } else {
      d += fmt::format("  return tables_made && {} ? k{}.of[{}] : {}_compute(g{});\n", ok, name, at, name, call_args);
    }
    d += "}";
    s_.derived_defs_.push_back(d);
  }
  std::string call = name + "(g";
  for (const ir::Expr* k : keys) call += ", " + names_.slot_name(k->slot);
  return call + ")";
}

std::optional<std::string> MaskBuilder::mask_form(const ir::Expr& e, int slot, int domain) {
  auto independent = [&](const ir::Expr& x) { return !plan::uses_slot(x, slot) && s_.ir_facts_.safe(x); };
  auto is_local = [&](const ir::Expr& x) { return x.op == Op::Local && x.slot == slot; };
  auto planes_read = [&](const ir::Expr& x) {
    if (x.op != Op::Read || x.args.size() != 1 || !is_local(*x.args[0])) return -1;
    const int pv = s_.plane_of_var_[size_t(x.var)];
    if (pv < 0 || s_.planes_[size_t(pv)].key_domain != domain) return -1;
    return x.var;
  };
  switch (e.op) {
    case Op::Const:
      return e.value ? full_mask(domain) : fmt::format("Bits<{}>{{}}", names_.words(domain));
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
        } else if (is_local(x) && names_.identity_domain(domain) && other.type &&
                   other.type->kind == ir::Type::Kind::Scalar) {
          m = fmt::format("single<{}>(idx_d{}({}))", names_.words(domain), domain, exprs_.expr(other));
        } else {
          continue;
        }
        return e.op == Op::Eq ? m : fmt::format("({} - {})", full_mask(domain), m);
      }
      return std::nullopt;
    }
    case Op::Read: {
      // A `T -> bool` element: the keys whose element is true.
      if (const int var = planes_read(e); var >= 0 && names_.dom(program_.vars[size_t(var)].domain).kind ==
                                                           ir::Domain::Kind::Bool)
        return plane_ref(var, "1");
      return std::nullopt;
    }
    case Op::In: {
      const ir::Expr& x = *e.args[0];
      const ir::Expr& s = *e.args[1];
      if (!is_local(x)) return mask_through_map(e, slot, domain);
      if (s.type->kind != ir::Type::Kind::Set || !independent(s)) return std::nullopt;
      ir::Type want;
      want.kind = ir::Type::Kind::Set;
      want.domain = domain;
      return names_.paren(exprs_.expr_as(s, want));
    }
    case Op::Call: {
      const ir::Expr* body = inline_call(e);
      if (!body) return std::nullopt;
      return mask_of(*body, slot, domain);
    }
    case Op::Some:
      return mask_unrolled(e, slot, domain);
    case Op::All:
    case Op::No:
      if (auto m = disjoint_mask(e, slot, domain)) return m;
      return mask_unrolled(e, slot, domain);
    default:
      break;
  }
  return disjoint_mask(e, slot, domain);
}

// ---------------------------------------------------------------- disjointness

std::optional<MaskBuilder::Disjoint> MaskBuilder::disjoint_form(const ir::Expr& whole) {
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

std::optional<std::string> MaskBuilder::disjoint_mask(const ir::Expr& e, int slot, int domain) {
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
    if (plan::uses_slot(*c, slot) || (list_union && plan::uses_slot(*c, e.slot))) return std::nullopt;
  if (!set || !s_.ir_facts_.pure(*set) || !s_.ir_facts_.safe(*set)) return std::nullopt;
  bool only_x = true;
  walk(*set, [&](const ir::Expr& x) {
    if (x.op == Op::Local && x.slot != slot && x.slot < 1000) only_x = false;
  });
  if (!only_x || !plan::uses_slot(*set, slot)) return std::nullopt;
  const std::string table = derived_table(*set, list_union, slot, domain, form->domain);
  // P one plane of a variable: the union is kept per plane as the variable changes.
  if (form->conditions.size() == 1) {
    const ir::Expr& c = through_calls(*form->conditions[0]);
    if (c.op == Op::Eq) {
      for (int side = 0; side < 2; ++side) {
        const ir::Expr& r = *c.args[size_t(side)];
        const ir::Expr& value = *c.args[size_t(1 - side)];
        if (r.op != Op::Read || r.args.size() != 1 || r.args[0]->op != Op::Local) continue;
        const int pv = s_.plane_of_var_[size_t(r.var)];
        if (pv < 0 || s_.planes_[size_t(pv)].key_domain != form->domain ||
            plan::uses_slot(value, r.args[0]->slot))
          continue;
        bool checked = false;
        uint64_t planes = 0;
        const std::string index = plane_index(r.var, value, checked, &planes);
        const std::string name = plane_union(table, r.var, domain, planes, checked);
        return fmt::format("({} - {}(g, {}))", full_mask(domain), name, index);
      }
    }
  }
  return fmt::format("({} - {}().inverse_union({}))", full_mask(domain), table, form->mask);
}

std::string MaskBuilder::plane_union(const std::string& table, int var, int domain, uint64_t read,
                                     bool checked) {
  keep_all_planes(var);  // a union is made from its plane's keys
  for (PlaneUnion& u : s_.plane_unions_) {
    if (u.table == table && u.var == var) {
      u.read |= read;
      u.checked = u.checked || checked;
      return u.name;
    }
  }
  PlaneUnion u;
  u.table = table;
  u.var = var;
  u.domain = domain;
  u.read = read;
  u.checked = checked;
  u.name = fmt::format("union{}", s_.plane_unions_.size());
  s_.plane_unions_.push_back(u);
  return u.name;
}

std::string MaskBuilder::derived_table(const ir::Expr& set, bool list_union, int slot, int domain,
                                       int set_domain) {
  // The table is built in its own frame: the local `slot` is its loop variable.
  const std::vector<std::string> saved_slots = s_.slots_;
  const int saved_lambda = s_.lambda_depth_;
  s_.slots_.assign(s_.slots_.size(), std::string());
  if (size_t(slot) >= s_.slots_.size()) s_.slots_.resize(size_t(slot) + 1);
  s_.slots_[size_t(slot)] = std::string("x");  // (a move: GCC 12 warns wrongly about assigning a literal)
  s_.lambda_depth_ = 2;
  const std::string value = exprs_.expr(set);
  s_.slots_ = saved_slots;
  s_.lambda_depth_ = saved_lambda;
  const std::string key = fmt::format("{}|{}|{}|{}", domain, set_domain, list_union, value);
  auto it = s_.named_constants_.find(key);
  if (it != s_.named_constants_.end()) return it->second;
  const std::string name = fmt::format("derived{}", s_.derived_defs_.size());
  s_.named_constants_[key] = name;
  const int n = int(names_.dom(domain).size), tw = names_.words(set_domain), xw = names_.words(domain);
  std::string d;
  d += fmt::format("/// For each x of d{}: {}the set at {} (and, inverted, the x whose set holds each\n"
                   "/// element).\n",
                   domain, list_union ? "the union of " : "", names_.line_of(set.span));
  d += fmt::format("struct Derived{} {{\n", s_.derived_defs_.size());
  d += fmt::format("  Bits<{}> of[{}];\n", tw, n);
  d += fmt::format("  Bits<{}> holders[{}];\n", xw, names_.dom(set_domain).size);
  d += fmt::format("  /// The x whose set meets `s`.\n");
  d += fmt::format("  Bits<{}> inverse_union(Bits<{}> s) const {{\n", xw, tw);
  d += fmt::format("    Bits<{}> out{{}};\n", xw);
  d += "    while (!s.empty()) out = out | holders[s.pop()];\n";
  d += "    return out;\n  }\n};\n";
  // Built once when the engine is loaded (the expression is pure and cannot fail), so a
  // lookup is a plain load: no guard of a function-local static on the hot path.
  d += fmt::format("Derived{} build_{}() {{\n", s_.derived_defs_.size(), name);
  d += fmt::format("  Derived{} r{{}};\n", s_.derived_defs_.size());
  d += "  static Game scratch{};\n";
  d += "  Game& g = scratch;\n";
  d += "  (void)g;\n";
  d += fmt::format("  for (Int x = 0; x < {}; ++x) {{\n", n);
  if (list_union) {
    d += fmt::format("    for (const auto& s : {}) r.of[x] = r.of[x] | s;\n", value);
  } else {
    d += fmt::format("    r.of[x] = {};\n", value);
  }
  d += "    for (Bits<" + std::to_string(tw) + "> m = r.of[x]; !m.empty();) r.holders[m.pop()].set(x);\n";
  d += "  }\n  return r;\n}\n";
  d += fmt::format("const Derived{0} kDerived{0} = build_{1}();\n", s_.derived_defs_.size(), name);
  d += fmt::format("[[gnu::always_inline]] inline const Derived{0}& {1}() {{ return kDerived{0}; }}",
                   s_.derived_defs_.size(), name);
  s_.derived_defs_.push_back(d);
  return name;
}

std::optional<MaskBuilder::FilterTable> MaskBuilder::filter_table(const ir::Expr& e) {
  constexpr uint32_t kMaxKeys = 4096;
  const ir::Expr& domain = *e.args[0];
  const ir::Expr& where_e = *e.args[1];
  if (domain.type->kind != ir::Type::Kind::Set || domain.type->domain < 0) return std::nullopt;
  if (!s_.ir_facts_.pure(domain) || !s_.ir_facts_.pure(where_e)) return std::nullopt;
  // The locals read that no binder inside binds: the binder's own, and one other.
  const std::vector<const ir::Expr*> others = free_locals({&domain, &where_e}, e.slot);
  if (others.size() != 1) return std::nullopt;
  const ir::Expr* key = others[0];
  if (!key->type || !key->type || key->type->kind != ir::Type::Kind::Scalar || key->type->domain < 0)
    return std::nullopt;
  const int kd = key->type->domain;
  const uint32_t n = names_.dom(kd).size;
  if (n == 0 || n > kMaxKeys) return std::nullopt;
  // {binder in domain | where}, computed in the table's own frame (the key is `x`).
  ir::Expr filter;
  filter.op = Op::Filter;
  filter.slot = e.slot;
  filter.type = domain.type;
  filter.span = e.span;
  filter.args.push_back(ir::clone_expr(domain));
  filter.args.push_back(ir::clone_expr(where_e));
  const std::vector<std::string> saved_slots = s_.slots_;
  const int saved_lambda = s_.lambda_depth_;
  s_.slots_.assign(s_.slots_.size(), std::string());
  if (size_t(key->slot) >= s_.slots_.size()) s_.slots_.resize(size_t(key->slot) + 1);
  s_.slots_[size_t(key->slot)] = std::string("x");
  s_.lambda_depth_ = 2;
  const std::string value = exprs_.expr(filter);
  s_.slots_ = saved_slots;
  s_.lambda_depth_ = saved_lambda;
  FilterTable out;
  out.key_slot = key->slot;
  out.key_domain = kd;
  const std::string id = fmt::format("filter|{}|{}", kd, value);
  if (auto it = s_.named_constants_.find(id); it != s_.named_constants_.end()) {
    out.name = it->second;
    return out;
  }
  const size_t k = s_.derived_defs_.size();
  out.name = fmt::format("kFilter{}", k);
  s_.named_constants_[id] = out.name;
  const int w = names_.words(domain.type->domain);
  std::string d;
  d += fmt::format("/// For each x of d{}: the elements of the set at {} passing the filter at {} (known:\n"
                   "/// no error).\n",
                   kd, names_.line_of(domain.span), names_.line_of(where_e.span));
  d += fmt::format("struct Filter{} {{\n  Bits<{}> of[{}];\n  bool known[{}];\n}};\n", k, w, n, n);
  d += fmt::format("Filter{0} build_filter{0}() {{\n  Filter{0} r{{}};\n", k);
  d += "  static Game scratch{};\n  Game& g = scratch;\n  (void)g;\n";
  d += fmt::format("  for (Int i = 0; i < {}; ++i) {{\n", n);
  d += fmt::format("    const Int x = {};\n", names_.identity_domain(kd) ? "i" : fmt::format("val_d{}(i)", kd));
  d += "    try {\n";
  d += fmt::format("      r.of[i] = {};\n", value);
  d += "      r.known[i] = true;\n";
  d += "    } catch (const RuleError&) {\n    }\n  }\n  return r;\n}\n";
  d += fmt::format("const Filter{0} kFilter{0} = build_filter{0}();", k);
  s_.derived_defs_.push_back(d);
  return out;
}

}  // namespace rulebook::compiler::emit
