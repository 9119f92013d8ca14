// The encoder's evaluation of IR expressions: each operator, binders, calls and built-ins.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "compiler/ir/int_range.h"
#include "dsl/integers.h"
#include "verifier/encode_internal.h"

namespace rulebook::verifier {

using K = Sym::K;
using ir::Op;
using B = dsl::BuiltinId;

namespace {

bool plain_domain(const ir::Program& p, int d) {
  return d < 0 || (p.domains[size_t(d)].kind != ir::Domain::Kind::Range &&
                   p.domains[size_t(d)].kind != ir::Domain::Kind::Optional);
}

/// Whether two concrete values are the same value: the equality the interpreter's list
/// operations use (a set's trailing empty words aside).
bool same_concrete(const Sym& x, const Sym& y) {
  if (x.k != y.k || x.v != y.v || x.items.size() != y.items.size()) return false;
  const size_t n = std::max(x.bits.size(), y.bits.size());
  for (size_t i = 0; i < n; ++i)
    if ((i < x.bits.size() ? x.bits[i] : 0) != (i < y.bits.size() ? y.bits[i] : 0)) return false;
  for (size_t i = 0; i < x.items.size(); ++i)
    if (!same_concrete(*x.items[i], *y.items[i])) return false;
  return true;
}

}  // namespace

SymP Encoder::eval(const ir::Expr& e, Frame& f) {
  const auto& a = e.args;
  switch (e.op) {
    case Op::Const: return val(e.value);
    case Op::ConstSet: {
      auto s = std::make_shared<Sym>();
      s->k = K::Bits;
      s->domain = e.type->domain;
      s->bits = e.bits;
      return s;
    }
    case Op::ConstList:
    case Op::ListLit: {
      auto s = std::make_shared<Sym>();
      s->k = K::List;
      for (const auto& x : a) s->items.push_back(eval(*x, f));
      return s;
    }
    case Op::Local: return resolve(f[size_t(e.slot)]);
    case Op::Read: return read(e, f);
    case Op::Mover: return mover_override ? mover_override : read_slot(ir::kVarMover, 0);
    case Op::Phase: return read_slot(ir::kVarPhase, 0);
    case Op::Neg: return lift2(Op::Sub, val(0), eval(*a[0], f), e);
    case Op::Not: return s_not(eval(*a[0], f));
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod:
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      return lift2(e.op, eval(*a[0], f), eval(*a[1], f), e);
    case Op::Eq:
    case Op::Ne: {
      SymP x = eval(*a[0], f), y = eval(*a[1], f), r;
      if (a[0]->type->kind == ir::Type::Kind::Scalar) {
        r = s_eq(x, y, e);
      } else if (a[0]->type->kind == ir::Type::Kind::Set) {
        const int d = a[0]->type->domain;
        SymP ex = set_elements(x, d), ey = set_elements(convert_set(y, a[1]->type->domain, d), d);
        r = true_;
        for (size_t i = 0; i < ex->items.size(); ++i) {
          SymP same = s_or(s_and(ex->items[i], ey->items[i]), s_and(s_not(ex->items[i]), s_not(ey->items[i])));
          r = s_and(r, same);
        }
        r = with_err(r, (err_of(ex) || err_of(ey)).simplify());
      } else {
        if (!concrete(*x) || !concrete(*y)) throw Unsupported(where(e.span) + ": comparison of lists computed from the state");
        std::function<bool(const Sym&, const Sym&)> same = [&](const Sym& p, const Sym& q) {
          if (p.k != q.k || p.v != q.v || p.bits != q.bits || p.items.size() != q.items.size()) return false;
          for (size_t i = 0; i < p.items.size(); ++i)
            if (!same(*p.items[i], *q.items[i])) return false;
          return true;
        };
        r = val(same(*x, *y));
      }
      return e.op == Op::Eq ? r : s_not(r);
    }
    case Op::And: {
      // A chain a and b and c: each operand is evaluated knowing the tables among the
      // earlier ones hold (Care), and combined with them outside that restriction.
      std::vector<const ir::Expr*> ops;
      const ir::Expr* cur = &e;
      for (; cur->op == Op::And; cur = cur->args[0].get()) ops.push_back(cur->args[1].get());
      ops.push_back(cur);
      std::reverse(ops.begin(), ops.end());
      Care care(*this);
      SymP acc = true_;
      for (const ir::Expr* op : ops) {
        SymP x = eval(*op, f);
        {
          Care::Suspend all(*this);
          acc = s_and(acc, x);
        }
        SymP r = resolve(acc);
        if (r->k == K::Val && !r->err && !r->v) return false_;
        care.add(x);
      }
      return acc;
    }
    case Op::Or: {
      SymP x = eval(*a[0], f);
      if (x->k == K::Val && !x->err && x->v) return true_;
      return s_or(x, eval(*a[1], f));
    }
    case Op::If: {
      SymP c = resolve(eval(*a[0], f));
      if (c->k == K::Err) return c;
      if (c->k == K::Val && !c->err) return eval(*a[c->v ? 1 : 2], f);
      return split(c, e.type, [&](const SymP& v) -> SymP {
        if (v->k == K::Err) return v;
        SymP r = eval(*a[v->v ? 1 : 2], f);
        if (e.type->kind == ir::Type::Kind::Set) r = convert_set(r, a[v->v ? 1 : 2]->type->domain, e.type->domain);
        return r;
      });
    }
    case Op::In: {
      const ir::Expr& s = *a[1];
      if (s.type->kind == ir::Type::Kind::List) {
        SymP x = eval(*a[0], f), l = eval(s, f);
        if (!concrete(*l)) throw Unsupported(where(e.span) + ": membership in a list computed from the state");
        SymP r = false_;
        for (const SymP& item : l->items) r = s_or(r, s_eq(x, item, e));
        return r;
      }
      return member(eval(*a[0], f), eval(s, f), s.type->domain);
    }
    case Op::Union:
    case Op::Diff:
    case Op::Inter: {
      if (e.type->kind == ir::Type::Kind::List) {
        SymP x = eval(*a[0], f), y = eval(*a[1], f);
        if (!concrete(*x) || !concrete(*y))
          throw Unsupported(where(e.span) + ": a union, difference or intersection of sets of sets computed from the state" +
                            " (hint: name the sets as constants, or quantify over each operand in turn)");
        // Both known: the list the interpreter computes, x's order then y's new items.
        auto in = [](const Sym& l, const Sym& v) {
          return std::any_of(l.items.begin(), l.items.end(), [&](const SymP& o) { return same_concrete(*o, v); });
        };
        auto out = std::make_shared<Sym>();
        out->k = K::List;
        for (const SymP& v : x->items)
          if (e.op == Op::Union || (e.op == Op::Diff) != in(*y, *v)) out->items.push_back(v);
        if (e.op == Op::Union)
          for (const SymP& v : y->items)
            if (!in(*out, *v)) out->items.push_back(v);
        return out;
      }
      const int d = e.type->domain;
      SymP x = convert_set(eval(*a[0], f), a[0]->type->domain, d);
      SymP y = convert_set(eval(*a[1], f), a[1]->type->domain, d);
      auto bitop = [&](const Sym& p, const Sym& q) -> SymP {
        if (p.k == K::Err) return std::make_shared<Sym>(p);
        if (q.k == K::Err) return std::make_shared<Sym>(q);
        auto out = std::make_shared<Sym>();
        out->k = K::Bits;
        out->domain = d;
        out->bits = p.bits;
        out->bits.resize(std::max(p.bits.size(), q.bits.size()), 0);
        for (size_t i = 0; i < out->bits.size(); ++i) {
          uint64_t w = i < q.bits.size() ? q.bits[i] : 0;
          out->bits[i] = e.op == Op::Union ? out->bits[i] | w : e.op == Op::Diff ? out->bits[i] & ~w : out->bits[i] & w;
        }
        return out;
      };
      const bool cx = concrete(*x), cy = concrete(*y);
      if (cx && cy) return bitop(*x, *y);
      if ((x->k == K::Table || cx) && (y->k == K::Table || cy) && (cx || cy || x->sel == y->sel)) {
        const Sym& t = cx ? *y : *x;
        std::vector<SymP> out;
        for (size_t k = 0; k < t.items.size(); ++k) out.push_back(bitop(cx ? *x : *x->items[k], cy ? *y : *y->items[k]));
        return from_table(t.sel, std::move(out), e.type);
      }
      SymP ex = set_elements(x, d), ey = set_elements(y, d);
      auto out = std::make_shared<Sym>();
      out->k = K::Set;
      out->domain = d;
      for (size_t i = 0; i < ex->items.size(); ++i) {
        const SymP &p = ex->items[i], &q = ey->items[i];
        out->items.push_back(e.op == Op::Union ? s_or(p, q) : e.op == Op::Diff ? s_and(p, s_not(q)) : s_and(p, q));
      }
      z3::expr err = (err_of(ex) || err_of(ey)).simplify();
      if (!err.is_false()) out->err = err;
      return out;
    }
    case Op::SetLit: {
      if (e.type->kind == ir::Type::Kind::List) {
        auto out = std::make_shared<Sym>();
        out->k = K::List;
        for (const auto& x : a) {
          SymP v = eval(*x, f);
          if (!concrete(*v)) throw Unsupported(where(e.span) + ": a set of sets computed from the state");
          bool dup = false;
          for (const SymP& o : out->items) dup = dup || (o->k == v->k && o->v == v->v && o->bits == v->bits);
          if (!dup) out->items.push_back(v);
        }
        return out;
      }
      const int d = e.type->domain;
      const uint32_t n = p_.domains[size_t(d)].size;
      auto out = std::make_shared<Sym>();
      out->k = K::Set;
      out->domain = d;
      out->items.assign(n, false_);
      z3::expr err = z3_.bool_val(false);
      for (const auto& x : a) {
        SymP v = eval(*x, f);
        err = err || err_of(v);
        auto cases = to_cases(v);
        if (!cases) throw Unsupported(where(x->span) + ": a set element computed as a number from the state");
        for (auto& [value, g] : *cases) {
          int64_t i = ir::domain_index(p_.domains, d, value);
          if (i < 0) {
            err = err || g;
            continue;
          }
          out->items[size_t(i)] = s_or(out->items[size_t(i)], boolean(g));
        }
      }
      err = err.simplify();
      if (!err.is_false()) out->err = err;
      bool all = true;
      for (const SymP& i : out->items) all = all && i->k == K::Val;
      if (!all) return out;
      out->k = K::Bits;
      out->bits.assign(ir::words(n), 0);
      for (uint32_t i = 0; i < n; ++i)
        if (out->items[i]->v) out->bits[i >> 6] |= uint64_t(1) << (i & 63);
      out->items.clear();
      return out;
    }
    case Op::RangeSet: {
      SymP lo = eval(*a[0], f);
      return split(lo, e.type, [&](const SymP& l) -> SymP {
        return split(eval(*a[1], f), e.type, [&](const SymP& h) -> SymP {
          if (l->k == K::Err) return l;
          if (h->k == K::Err) return h;
          const int d = e.type->domain;
          auto out = std::make_shared<Sym>();
          out->k = K::Bits;
          out->domain = d;
          out->bits.assign(ir::words(p_.domains[size_t(d)].size), 0);
          for (int64_t v = l->v; v <= h->v; ++v) {
            int64_t i = ir::domain_index(p_.domains, d, v);
            if (i < 0) return err_sym(fmt::format("{}: {} is outside {}", where(e.span), v, p_.domains[size_t(d)].name));
            out->bits[size_t(i) >> 6] |= uint64_t(1) << (i & 63);
          }
          return out;
        });
      });
    }
    case Op::RecordLit: {
      const ir::Domain& d = p_.domains[size_t(e.type->domain)];
      std::function<SymP(size_t, int64_t)> go = [&](size_t fi, int64_t index) -> SymP {
        if (fi == a.size()) return val(index);
        return split(eval(*a[fi], f), e.type, [&](const SymP& v) -> SymP {
          if (v->k == K::Err) return v;
          int64_t i = ir::domain_index(p_.domains, d.fields[fi], v->v);
          if (i < 0) return err_sym(fmt::format("{}: value outside {}", where(a[fi]->span), p_.domains[size_t(d.fields[fi])].name));
          return go(fi + 1, index + i * d.strides[fi]);
        });
      };
      return go(0, 0);
    }
    case Op::Field: {
      int d = a[0]->type->domain;
      if (p_.domains[size_t(d)].kind == ir::Domain::Kind::Optional) d = p_.domains[size_t(d)].inner;
      const ir::Domain& rd = p_.domains[size_t(d)];
      const int fd = rd.fields[size_t(e.field)];
      return split(eval(*a[0], f), e.type, [&](const SymP& v) -> SymP {
        if (v->k == K::Err) return v;
        if (v->v == ir::kNone) return err_sym(fmt::format("{}: field '{}' of none", where(e.span), rd.field_names[size_t(e.field)]));
        return val(ir::domain_value(p_.domains, fd, (v->v / rd.strides[size_t(e.field)]) % p_.domains[size_t(fd)].size));
      });
    }
    case Op::At: {
      SymP l = eval(*a[0], f);
      return split(eval(*a[1], f), e.type, [&](const SymP& i) -> SymP {
        if (i->k == K::Err) return i;
        if (l->k != K::List) throw Unsupported(where(e.span) + ": indexing a value computed from the state");
        if (i->v < 0 || size_t(i->v) >= l->items.size())
          return err_sym(fmt::format("{}: index {} is outside 0..{}", where(e.span), i->v, int64_t(l->items.size()) - 1));
        return l->items[size_t(i->v)];
      });
    }
    case Op::All: case Op::Some: case Op::No: case Op::Count:
    case Op::Sum: case Op::Max: case Op::Min: case Op::Filter:
      return aggregate(e, f);
    case Op::Builtin: return builtin(e, f);
    case Op::Call: return call(e, f);
    case Op::Can: return can(e.move, eval(*a[0], f));
  }
  throw Unsupported(where(e.span) + ": internal: unknown operator");
}

// ------------------------------------------------------------------ binders

SymP Encoder::quantify_one_selector(Op op, const std::vector<SymP>& conds, const std::vector<SymP>& bodies) {
  // Conditions that are tables of one selector (or constants) and constant bodies: the
  // result is computed entry by entry, without a table per intermediate step.
  int sel = -1;
  for (size_t i = 0; i < conds.size(); ++i) {
    SymP c = resolve(conds[i]), b = resolve(bodies[i]);
    if (b->k != K::Val || b->err) return nullptr;
    if (c->k == K::Val && !c->err) continue;
    if (c->k != K::Table || (sel >= 0 && c->sel != sel)) return nullptr;
    for (const SymP& x : c->items)
      if (x->k != K::Val) return nullptr;
    sel = c->sel;
  }
  if (sel < 0) return nullptr;
  const size_t n = sels_[size_t(sel)].guard.size();
  // all: every element in the domain satisfies the body; some/no: one does.
  std::vector<char> acc(n, op == Op::All ? 1 : 0);
  for (size_t i = 0; i < conds.size(); ++i) {
    SymP c = resolve(conds[i]);
    const bool body = resolve(bodies[i])->v != 0;
    if (op == Op::All ? body : !body) continue;
    for (size_t k = 0; k < n; ++k) {
      const bool in = c->k == K::Val ? c->v != 0 : c->items[k]->v != 0;
      if (in) acc[k] = op == Op::All ? 0 : 1;
    }
  }
  std::vector<SymP> out;
  for (size_t k = 0; k < n; ++k) out.push_back(val((op == Op::No ? !acc[k] : acc[k]) ? 1 : 0));
  return from_table(sel, std::move(out), scalar_type(ir::kBoolDomain));
}

SymP Encoder::aggregate(const ir::Expr& e, Frame& f) {
  const auto& a = e.args;
  if (e.op == Op::Count || e.op == Op::All || e.op == Op::Some || e.op == Op::No) {
    // Over the components of a symbolic set: a lazy count (components_aggregate).
    const ir::Function* via = nullptr;
    if (const ir::Expr* comp = components_of(*a[0], &via)) {
      Frame own(size_t(std::max(via ? via->locals : 0, 1)), nullptr);
      SymP set = resolve(eval(*comp->args[0], via ? own : f));
      if (!concrete(*set)) return components_aggregate(e, f, set);
    }
  }
  SymP dom = resolve(eval(*a[0], f));
  if (e.op == Op::Count && all_counts_as_changes && overlay_ >= 0 && dom->k == K::Bits && !dom->err)
    if (SymP r = count_change(e, f, dom)) return r;
  // A domain that depends on one selector is expanded over its values (Shannon), so the
  // body sees concrete elements; nested deeper, it is unrolled over the whole domain.
  const int depth_limit = (e.op == Op::Max || e.op == Op::Min) ? 2 : 1;
  if (dom->k == K::Table && expand_depth_ < depth_limit)
    return split(dom, e.type, [&](const SymP& d) -> SymP {
      if (d->k == K::Err) return d;
      return aggregate_over(e, f, d);
    });
  return aggregate_over(e, f, dom);
}

SymP Encoder::count_change(const ir::Expr& e, Frame& f, const SymP& dom) {
  // Each element's condition after and before (the same concrete elements both times).
  const int o = overlay_;
  overlay_ = -1;
  SymP dom_before = resolve(eval(*e.args[0], f));
  overlay_ = o;
  if (dom_before->k != K::Bits || dom_before->bits != dom->bits || dom_before->err) return nullptr;
  const int d = e.args[0]->type->domain;
  const bool plain = plain_domain(p_, d);
  std::vector<SymP> after, before;
  z3::expr err = z3_.bool_val(false);
  for (uint32_t i = 0; i < p_.domains[size_t(d)].size; ++i) {
    if (!ir::test(dom->bits, i)) continue;
    f[size_t(e.slot)] = val(plain ? int64_t(i) : ir::domain_value(p_.domains, d, i));
    SymP x = e.args[1] ? resolve(eval(*e.args[1], f)) : true_;
    overlay_ = -1;
    SymP y = e.args[1] ? resolve(eval(*e.args[1], f)) : true_;
    overlay_ = o;
    err = err || err_of(x);
    after.push_back(x);
    before.push_back(y);
  }
  return count_as_change(after, before, e, err.simplify());
}

SymP Encoder::aggregate_over(const ir::Expr& e, Frame& f, const SymP& dom0) {
  SymP r = aggregate_body(e, f, dom0);
  z3::expr err = err_of(resolve(dom0));
  return err.is_false() ? r : with_err(r, err);
}

SymP Encoder::checked_sum(const std::vector<SymP>& conds, const std::vector<SymP>& bodies) {
  // The engines add the terms in the order of the elements and fail when a running total
  // leaves 64 bits (Z3's integers would not): every running total must fit, so the terms
  // are not regrouped here.
  z3::expr total = z3_.int_val(0);
  z3::expr err = z3_.bool_val(false);
  for (size_t i = 0; i < conds.size(); ++i) {
    SymP c = resolve(conds[i]);
    if (c->k == K::Val && !c->err && !c->v) continue;
    z3::expr cb = to_bool(c);
    err = err || err_of(c) || (cb && err_of(bodies[i]));
    total = (total + z3::ite(cb, to_int(bodies[i]), z3_.int_val(0))).simplify();
    err = err || (cb && !fits_int64(total));
  }
  return with_err(integer(total), err.simplify());
}

SymP Encoder::aggregate_body(const ir::Expr& e, Frame& f, const SymP& dom0) {
  const auto& a = e.args;
  SymP dom = resolve(dom0);
  const ir::Expr* where_e = a[1].get();
  const ir::Expr* body_e = a.size() > 2 ? a[2].get() : nullptr;
  if (e.op == Op::Filter) body_e = nullptr;
  // The elements and their membership conditions.
  std::vector<SymP> elems, member_of;
  z3::expr dom_err = err_of(dom);
  if (dom->k == K::List) {
    for (const SymP& it : dom->items) {
      elems.push_back(it);
      member_of.push_back(true_);
    }
  } else {
    const int d = a[0]->type->domain;
    const bool plain = plain_domain(p_, d);
    SymP el = dom->k == K::Bits ? nullptr : set_elements(dom, d);
    for (uint32_t i = 0; i < p_.domains[size_t(d)].size; ++i) {
      SymP m = el ? el->items[i] : val(ir::test(dom->bits, i));
      if (m->k == K::Val && !m->v) continue;
      elems.push_back(val(plain ? int64_t(i) : ir::domain_value(p_.domains, d, i)));
      member_of.push_back(m);
    }
    if (el && el->err) dom_err = *el->err;
  }
  std::vector<SymP> conds, bodies, kept;
  for (size_t i = 0; i < elems.size(); ++i) {
    f[size_t(e.slot)] = elems[i];
    SymP c = member_of[i];
    // A body that holds (all) or fails (some, no) whatever the element's condition adds
    // nothing: skip it before building the condition.
    const bool quant = e.op == Op::All || e.op == Op::Some || e.op == Op::No;
    SymP early;
    if (quant && !where_e && !c->err) {
      early = resolve(eval(*body_e, f));
      if (early->k == K::Val && !early->err && (early->v != 0) == (e.op == Op::All)) continue;
    }
    if (where_e) {
      c = s_and(c, eval(*where_e, f));
    }
    SymP rc = resolve(c);
    if (rc->k == K::Val && !rc->err && !rc->v) continue;
    conds.push_back(c);
    kept.push_back(elems[i]);
    bodies.push_back(early ? early : body_e && e.op != Op::Count ? eval(*body_e, f) : nullptr);
  }
  switch (e.op) {
    case Op::All:
    case Op::Some:
    case Op::No: {
      if (SymP quick = quantify_one_selector(e.op, conds, bodies)) return quick;
      SymP acc = e.op == Op::All ? true_ : false_;
      for (size_t i = 0; i < conds.size(); ++i)
        acc = e.op == Op::All ? s_and(acc, s_or(s_not(conds[i]), bodies[i])) : s_or(acc, s_and(conds[i], bodies[i]));
      return e.op == Op::No ? s_not(acc) : acc;
    }
    case Op::Count:
    case Op::Sum: {
      if (e.op == Op::Sum && !compiler::cannot_overflow(p_, e)) return checked_sum(conds, bodies);
      // Same-selector tables add pointwise; the rest is one linear sum.
      SymP acc = val(0);
      z3::expr_vector terms(z3_);
      z3::expr err = z3_.bool_val(false);
      for (size_t i = 0; i < conds.size(); ++i) {
        SymP term = e.op == Op::Count ? conds[i] : nullptr;
        if (e.op == Op::Sum) {
          SymP c = resolve(conds[i]);
          if (c->k == K::Val && !c->err) term = bodies[i];
          else if (c->k == K::Table && resolve(bodies[i])->k == K::Table && resolve(bodies[i])->sel == c->sel) {
            SymP b = resolve(bodies[i]);
            std::vector<SymP> out;
            for (size_t k = 0; k < c->items.size(); ++k)
              out.push_back(c->items[k]->k == K::Err ? c->items[k] : c->items[k]->v ? b->items[k] : val(0));
            term = from_table(c->sel, std::move(out), e.type);
          } else {
            z3::expr cb = to_bool(c);
            err = err || err_of(c) || (cb && err_of(bodies[i]));
            terms.push_back(z3::ite(cb, to_int(bodies[i]), z3_.int_val(0)));
            continue;
          }
        }
        SymP t = resolve(term);
        SymP r = resolve(acc);
        if (concrete(*r) && concrete(*t)) acc = concrete_binary(Op::Add, *r, *t, e);
        else if ((r->k == K::Table || concrete(*r)) && t->k == K::Table && (concrete(*r) || r->sel == t->sel))
          acc = lift2(Op::Add, r, t, e);
        else {
          err = err || err_of(t);
          terms.push_back(to_int(t));
        }
      }
      if (terms.empty()) return with_err(acc, err.simplify());
      terms.push_back(to_int(acc));
      return with_err(integer(z3::sum(terms)), (err || err_of(acc)).simplify());
    }
    case Op::Max:
    case Op::Min: {
      const bool mx = e.op == Op::Max;
      bool all_concrete = true;
      for (size_t i = 0; i < conds.size(); ++i) {
        SymP c = resolve(conds[i]);
        all_concrete = all_concrete && c->k == K::Val && !c->err && concrete(*resolve(bodies[i]));
      }
      if (all_concrete) {
        SymP best;
        for (const SymP& b0 : bodies) {
          SymP b = resolve(b0);
          if (b->k == K::Err) return b;
          if (!best || (mx ? b->v > best->v : b->v < best->v)) best = b;
        }
        if (!best) return err_sym(where(e.span) + (mx ? ": max over nothing" : ": min over nothing"));
        return best;
      }
      z3::expr acc = z3_.int_val(0), any = z3_.bool_val(false), err = z3_.bool_val(false);
      Extremum ex{mx, acc, {}, {}};
      for (size_t i = 0; i < conds.size(); ++i) {
        z3::expr c = to_bool(conds[i]), v = to_int(bodies[i]);
        err = err || err_of(conds[i]) || (c && err_of(bodies[i]));
        acc = z3::ite(c && (!any || (mx ? v > acc : v < acc)), v, acc);
        any = any || c;
        if (!c.is_false()) {
          ex.conds.push_back(c);
          ex.values.push_back(v);
        }
      }
      ex.term = acc;
      extrema_.emplace(acc.id(), std::move(ex));
      return with_err(integer(acc), (err || !any).simplify());
    }
    case Op::Filter: {
      const int d = e.type->domain;
      auto out = std::make_shared<Sym>();
      out->k = K::Set;
      out->domain = d;
      out->items.assign(p_.domains[size_t(d)].size, false_);
      z3::expr err = z3_.bool_val(false);
      for (size_t i = 0; i < conds.size(); ++i) {
        int64_t j = ir::domain_index(p_.domains, d, kept[i]->v);
        err = err || err_of(conds[i]);
        if (j >= 0) out->items[size_t(j)] = s_or(out->items[size_t(j)], conds[i]);
      }
      err = err.simplify();
      if (!err.is_false()) out->err = err;
      bool all = true;
      for (const SymP& i : out->items) all = all && i->k == K::Val;
      if (!all) return out;
      out->k = K::Bits;
      out->bits.assign(ir::words(uint32_t(out->items.size())), 0);
      for (size_t i = 0; i < out->items.size(); ++i)
        if (out->items[i]->v) out->bits[i >> 6] |= uint64_t(1) << (i & 63);
      out->items.clear();
      return out;
    }
    default:
      throw Unsupported(where(e.span) + ": internal: not a binder");
  }
}

}  // namespace rulebook::verifier
