// The encoder's expressions: operators lifted over concrete values and tables, Z3 terms
// where selectors mix, quantifiers and aggregates unrolled over the finite domains.
#include <algorithm>
#include <functional>
#include <unordered_map>
#include <limits>

#include <fmt/format.h>

#include "compiler/ir/int_range.h"
#include "dsl/integers.h"
#include "verifier/encode_internal.h"

namespace rulebook::verifier {

using K = Sym::K;
using ir::Op;

SymP Encoder::s_not(const SymP& a0) {
  SymP a = resolve(a0);
  // The negation errs where its operand does: a value known but for its error condition
  // (`x not in S`, x erring in some states) keeps that condition.
  if (a->k == K::Val && !a->err) return a->v ? false_ : true_;
  if (a->k == K::Err) return a;
  if (a->k == K::Table) {
    std::vector<SymP> e;
    for (const SymP& x : a->items) e.push_back(x->k == K::Val ? (x->v ? false_ : true_) : x);
    return from_table(a->sel, std::move(e), scalar_type(ir::kBoolDomain));
  }
  if (a->k == K::Disj) {
    // Remembers the OR it negates, so that a count over it can be regrouped too.
    auto n = std::make_shared<Sym>();
    n->k = K::Bool;
    n->term = !to_bool(a);
    n->v = 1;
    n->items.push_back(a);
    n->err = a->err;
    return n;
  }
  return with_err(boolean(!to_bool(a)), err_of(a));
}

SymP Encoder::s_and(const SymP& a0, const SymP& b0) {
  SymP a = resolve(a0), b = resolve(b0);
  if (a->k == K::Val && !a->err) return a->v ? b : false_;
  if (b->k == K::Val && !b->err && !a->err && a->k != K::Err) return b->v ? a : false_;
  if (a->k == K::Table && b->k == K::Table && a->sel == b->sel) {
    std::vector<SymP> e;
    for (size_t k = 0; k < a->items.size(); ++k) {
      const SymP& x = a->items[k];
      e.push_back(x->k == K::Err ? x : x->v ? b->items[k] : false_);
    }
    return from_table(a->sel, std::move(e), scalar_type(ir::kBoolDomain));
  }
  z3::expr ta = to_bool(a), tb = to_bool(b);
  z3::expr err = (err_of(a) || (ta && err_of(b))).simplify();
  return with_err(boolean(ta && tb), err);
}

SymP Encoder::s_or(const SymP& a0, const SymP& b0) {
  SymP a = resolve(a0), b = resolve(b0);
  if (a->k == K::Val && !a->err) return a->v ? true_ : b;
  if (b->k == K::Val && !b->err && !a->err && a->k != K::Err) return b->v ? true_ : a;
  if (a->k == K::Table && b->k == K::Table && a->sel == b->sel) {
    std::vector<SymP> e;
    for (size_t k = 0; k < a->items.size(); ++k) {
      const SymP& x = a->items[k];
      e.push_back(x->k == K::Err ? x : x->v ? true_ : b->items[k]);
    }
    return from_table(a->sel, std::move(e), scalar_type(ir::kBoolDomain));
  }
  // An OR of tables of different selectors stays structured (see Encoder::regroup).
  auto parts = [&](const SymP& s, std::vector<SymP>& out) {
    if (s->err) return false;
    if (s->k == K::Table) out.push_back(s);
    else if (s->k == K::Disj) out.insert(out.end(), s->items.begin(), s->items.end());
    else return false;
    return true;
  };
  std::vector<SymP> pa, pb;
  if (parts(a, pa) && parts(b, pb)) {
    for (const SymP& t : pb) {
      auto it = std::find_if(pa.begin(), pa.end(), [&](const SymP& x) { return x->sel == t->sel; });
      if (it == pa.end()) pa.push_back(t);
      else *it = s_or(*it, t);
    }
    if (pa.size() == 1) return pa[0];
    std::sort(pa.begin(), pa.end(), [](const SymP& x, const SymP& y) { return x->sel < y->sel; });
    auto d = std::make_shared<Sym>();
    d->k = K::Disj;
    d->items = std::move(pa);
    return d;
  }
  z3::expr ta = to_bool(a), tb = to_bool(b);
  z3::expr err = (err_of(a) || (!ta && err_of(b))).simplify();
  return with_err(boolean(ta || tb), err);
}

SymP Encoder::concrete_binary(Op op, const Sym& a, const Sym& b, const ir::Expr& e) {
  if (a.k == K::Err) return std::make_shared<Sym>(a);
  if (b.k == K::Err) return std::make_shared<Sym>(b);
  const int64_t x = a.v, y = b.v;
  switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: {
      // The engines' arithmetic and texts (dsl/integers.h); `e` tells a unary minus
      // (0 - y) and a step of a sum from a plain operator.
      int64_t r = 0;
      const char* failure = e.op == Op::Neg   ? integers::neg(y, r)
                            : e.op == Op::Sum ? integers::sum_step(x, y, r)
                            : op == Op::Add   ? integers::add(x, y, r)
                            : op == Op::Sub   ? integers::sub(x, y, r)
                            : op == Op::Mul   ? integers::mul(x, y, r)
                            : op == Op::Div   ? integers::div(x, y, r)
                                              : integers::mod(x, y, r);
      if (failure) return err_sym(where(e.span) + ": " + failure);
      return val(r);
    }
    case Op::Lt: return val(x < y);
    case Op::Le: return val(x <= y);
    case Op::Gt: return val(x > y);
    case Op::Ge: return val(x >= y);
    case Op::Eq: return val(x == y);
    case Op::Ne: return val(x != y);
    default: throw Unsupported(where(e.span) + ": internal: not a binary operator");
  }
}

z3::expr Encoder::fits_int64(const z3::expr& x) {
  return x >= z3_.int_val(std::numeric_limits<int64_t>::min()) &&
         x <= z3_.int_val(std::numeric_limits<int64_t>::max());
}

std::optional<std::pair<int, std::vector<int64_t>>> Encoder::one_selector_sum(const z3::expr& x) const {
  std::vector<z3::expr> terms;
  if (x.is_app() && x.decl().decl_kind() == Z3_OP_ADD)
    for (unsigned i = 0; i < x.num_args(); ++i) terms.push_back(x.arg(i));
  else
    terms.push_back(x);
  int64_t base = 0;
  int sel = -1;
  std::unordered_map<unsigned, int64_t> coef;  // guard's AST id -> its coefficient
  for (const z3::expr& t : terms) {
    int64_t c = 1, v = 0;
    z3::expr g = t;
    if (t.is_numeral_i64(v)) {
      base += v;
      continue;
    }
    if (t.is_app() && t.decl().decl_kind() == Z3_OP_MUL && t.num_args() == 2 && t.arg(0).is_numeral_i64(c)) g = t.arg(1);
    int64_t one = 0, zero = 1;
    if (!g.is_app() || g.decl().decl_kind() != Z3_OP_ITE || !g.arg(1).is_numeral_i64(one) ||
        !g.arg(2).is_numeral_i64(zero) || zero != 0)
      return std::nullopt;
    const int s = selector_of(g.arg(0).id());
    if (s < 0 || (sel >= 0 && s != sel)) return std::nullopt;
    sel = s;
    int64_t add = 0;
    if (__builtin_mul_overflow(c, one, &add) || __builtin_add_overflow(coef[g.arg(0).id()], add, &coef[g.arg(0).id()]))
      return std::nullopt;
  }
  if (sel < 0) return std::nullopt;
  std::vector<int64_t> out;
  for (const z3::expr& g : sels_[size_t(sel)].guard) {
    auto it = coef.find(g.id());
    int64_t v = base;
    if (it != coef.end() && __builtin_add_overflow(base, it->second, &v)) return std::nullopt;
    out.push_back(v);
  }
  return std::make_pair(sel, std::move(out));
}

z3::expr Encoder::compare_const(const z3::expr& x, Op op, int64_t k) {
  auto holds = [&](int64_t t) { return op == Op::Lt ? t < k : op == Op::Le ? t <= k : op == Op::Gt ? t > k : t >= k; };
  // A sum over the guards of one selector (a table the encoder could not keep as one,
  // e.g. under a conjunction's don't-care indices) takes one value per index, exactly one
  // of which holds: the comparison is the disjunction of the guards whose value passes.
  // An if-then-else (a Shannon expansion over another selector) is compared branch by
  // branch. Propositional, so the SAT-based solver reads it without arithmetic.
  std::unordered_map<unsigned, z3::expr> memo;
  std::function<std::optional<z3::expr>(const z3::expr&)> boolean_form = [&](const z3::expr& t) -> std::optional<z3::expr> {
    int64_t v = 0;
    if (t.is_numeral_i64(v)) return z3_.bool_val(holds(v));
    if (auto it = memo.find(t.id()); it != memo.end()) return it->second;
    std::optional<z3::expr> out;
    if (t.is_app() && t.decl().decl_kind() == Z3_OP_ITE) {
      auto a = boolean_form(t.arg(1));
      auto b = a ? boolean_form(t.arg(2)) : std::nullopt;
      if (b) out = z3::ite(t.arg(0), *a, *b);
    } else if (auto table = one_selector_sum(t)) {
      const auto& guard = sels_[size_t(table->first)].guard;
      z3::expr_vector pass(z3_);
      for (size_t i = 0; i < guard.size(); ++i)
        if (holds(table->second[i])) pass.push_back(guard[i]);
      out = pass.empty()                  ? z3_.bool_val(false)
            : pass.size() == guard.size() ? z3_.bool_val(true)
            : pass.size() == 1            ? pass[0]
                                          : z3::mk_or(pass);
    }
    if (out) memo.emplace(t.id(), *out);
    return out;
  };
  auto plain = [&](const z3::expr& t) {
    if (std::optional<z3::expr> b = boolean_form(t)) return *b;
    const z3::expr v = z3_.int_val(k);
    return op == Op::Lt ? t < v : op == Op::Le ? t <= v : op == Op::Gt ? t > v : t >= v;
  };
  auto it = extrema_.find(x.id());
  if (it == extrema_.end()) return plain(x);
  const Extremum& ex = it->second;
  // max >= k: some element taken is >= k; max <= k: every element taken is <= k (and
  // the other way round for min). With no element taken the term is 0.
  const bool upward = op == Op::Gt || op == Op::Ge;
  const bool some = ex.max == upward;
  z3::expr_vector parts(z3_), taken(z3_);
  for (size_t i = 0; i < ex.conds.size(); ++i) {
    const z3::expr c = compare_const(ex.values[i], op, k);
    parts.push_back(some ? ex.conds[i] && c : !ex.conds[i] || c);
    taken.push_back(ex.conds[i]);
  }
  const z3::expr none = taken.empty() ? z3_.bool_val(true) : !z3::mk_or(taken);
  const z3::expr on_none = plain(z3_.int_val(0)).simplify();
  if (some) return (parts.empty() ? z3_.bool_val(false) : z3::mk_or(parts)) || (none && on_none);
  return parts.empty() ? on_none : z3::mk_and(parts) && (!none || on_none);
}

SymP Encoder::raw_binary(Op op, const SymP& a, const SymP& b, const ir::Expr& e) {
  z3::expr err = (err_of(a) || err_of(b)).simplify();
  z3::expr x = to_int(a), y = to_int(b);
  // A comparison with a constant reads a max or min element by element (compare_const).
  int64_t kx = 0, ky = 0;
  const bool cx = x.is_numeral_i64(kx), cy = y.is_numeral_i64(ky);
  if ((op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge) && cx != cy) {
    if (cy) return with_err(boolean(compare_const(x, op, ky)), err);
    const Op flipped = op == Op::Lt ? Op::Gt : op == Op::Le ? Op::Ge : op == Op::Gt ? Op::Lt : Op::Le;
    return with_err(boolean(compare_const(y, flipped, kx)), err);
  }
  // Z3's integers are unbounded: a result outside 64 bits is the engines' overflow error,
  // asked only where the operands' ranges do not rule it out.
  auto checked = [&](const z3::expr& r) {
    if (compiler::cannot_overflow(p_, e)) return with_err(integer(r), err);
    return with_err(integer(r), (err || !fits_int64(r)).simplify());
  };
  switch (op) {
    case Op::Add: return checked(x + y);
    case Op::Sub: return checked(x - y);
    case Op::Mul: return checked(x * y);
    case Op::Div:
    case Op::Mod: {
      int64_t d;
      if (!y.is_numeral_i64(d) || d <= 0)
        throw Unsupported(where(e.span) + ": division by a number computed from the state");
      // Z3's div/mod round towards minus infinity for a positive divisor, as `floor`.
      return with_err(integer(op == Op::Div ? x / y : z3::mod(x, y)), err);
    }
    case Op::Lt: return with_err(boolean(x < y), err);
    case Op::Le: return with_err(boolean(x <= y), err);
    case Op::Gt: return with_err(boolean(x > y), err);
    case Op::Ge: return with_err(boolean(x >= y), err);
    default: throw Unsupported(where(e.span) + ": internal: not an arithmetic operator");
  }
}

SymP Encoder::lift2(Op op, const SymP& a0, const SymP& b0, const ir::Expr& e) {
  SymP a = resolve(a0), b = resolve(b0);
  const bool ca = concrete(*a), cb = concrete(*b);
  if (ca && cb) return concrete_binary(op, *a, *b, e);
  if ((a->k == K::Table || ca) && (b->k == K::Table || cb) &&
      (ca || cb || a->sel == b->sel)) {
    const Sym& t = ca ? *b : *a;
    std::vector<SymP> out;
    for (size_t k = 0; k < t.items.size(); ++k)
      out.push_back(concrete_binary(op, ca ? *a : *a->items[k], cb ? *b : *b->items[k], e));
    return from_table(t.sel, std::move(out), e.type);
  }
  // A comparison of two finite scalars with few values each: propositional, which the SAT
  // core handles better than comparisons of sums. Written as an order encoding: per value
  // w of b, "b is w and a is below w", where "a is below w" is the disjunction of a's
  // guards of the values below w (one term per value of b, not per pair of values; the
  // same threshold terms serve every comparison with a, so a chain of comparisons shares
  // them, which is what a proof that some element is least needs).
  if (op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge) {
    auto x = to_cases(a), y = to_cases(b);
    if (x && y && x->size() * y->size() <= 1024) {
      std::sort(x->begin(), x->end(), [](const auto& p, const auto& q) { return p.first < q.first; });
      if (op == Op::Gt || op == Op::Ge) std::reverse(x->begin(), x->end());
      z3::expr_vector any(z3_);
      for (auto& [w, h] : *y) {
        z3::expr_vector below(z3_);
        for (auto& [v, g] : *x) {
          const bool holds = op == Op::Lt ? v < w : op == Op::Le ? v <= w : op == Op::Gt ? v > w : v >= w;
          if (holds) below.push_back(g);
        }
        if (below.empty()) continue;
        z3::expr under = below.size() == 1 ? below[0] : z3::mk_or(below);
        any.push_back(h.is_true() ? under : h && under);
      }
      z3::expr err = (err_of(a) || err_of(b)).simplify();
      return with_err(boolean(any.empty() ? z3_.bool_val(false) : z3::mk_or(any)), err);
    }
  }
  return raw_binary(op, a, b, e);
}

SymP Encoder::s_eq(const SymP& a0, const SymP& b0, const ir::Expr& e) {
  SymP a = resolve(a0), b = resolve(b0);
  const bool ca = concrete(*a), cb = concrete(*b);
  if ((a->k == K::Table || ca) && (b->k == K::Table || cb) && (ca || cb || a->sel == b->sel))
    return lift2(Op::Eq, a, b, e);
  z3::expr err = (err_of(a) || err_of(b)).simplify();
  auto x = to_cases(a), y = to_cases(b);
  if (x && y) {
    z3::expr_vector any(z3_);
    for (auto& [v, g] : *x)
      for (auto& [w, h] : *y)
        if (v == w) any.push_back(g && h);
    return with_err(boolean(any.empty() ? z3_.bool_val(false) : z3::mk_or(any)), err);
  }
  return with_err(boolean(to_int(a) == to_int(b)), err);
}

SymP Encoder::convert_set(const SymP& s0, int from, int to) {
  SymP s = resolve(s0);
  if (from == to || from < 0 || to < 0) return s;
  const uint32_t n = p_.domains[size_t(to)].size;
  if (s->k == K::Bits) {
    auto out = std::make_shared<Sym>();
    out->k = K::Bits;
    out->domain = to;
    out->bits.assign(ir::words(n), 0);
    for (uint32_t i = 0; i < p_.domains[size_t(from)].size; ++i) {
      if (!ir::test(s->bits, i)) continue;
      int64_t j = ir::domain_index(p_.domains, to, ir::domain_value(p_.domains, from, i));
      if (j >= 0) out->bits[size_t(j) >> 6] |= uint64_t(1) << (j & 63);
    }
    return out;
  }
  SymP el = set_elements(s, from);
  auto out = std::make_shared<Sym>();
  out->k = K::Set;
  out->domain = to;
  out->err = el->err;
  out->items.assign(n, false_);
  for (uint32_t i = 0; i < p_.domains[size_t(from)].size; ++i) {
    int64_t j = ir::domain_index(p_.domains, to, ir::domain_value(p_.domains, from, i));
    if (j >= 0) out->items[size_t(j)] = el->items[i];
  }
  return out;
}

SymP Encoder::member(const SymP& x0, const SymP& s0, int d) {
  SymP x = resolve(x0), s = resolve(s0);
  if (x->k == K::Err) return x;
  if (concrete(*x) && (s->k == K::Bits || s->k == K::Table)) {
    int64_t i = ir::domain_index(p_.domains, d, x->v);
    if (s->k == K::Bits) return val(i >= 0 && ir::test(s->bits, i));
    std::vector<SymP> e;
    for (const SymP& b : s->items)
      e.push_back(b->k == K::Err ? b : val(i >= 0 && ir::test(b->bits, i)));
    return from_table(s->sel, std::move(e), scalar_type(ir::kBoolDomain));
  }
  if (x->k == K::Table && (s->k == K::Bits || (s->k == K::Table && s->sel == x->sel))) {
    std::vector<SymP> e;
    for (size_t k = 0; k < x->items.size(); ++k) {
      const Sym& set = s->k == K::Bits ? *s : *s->items[k];
      const SymP& xv = x->items[k];
      if (xv->k == K::Err || set.k == K::Err) {
        e.push_back(xv->k == K::Err ? xv : err_sym(set.msg));
        continue;
      }
      int64_t i = ir::domain_index(p_.domains, d, xv->v);
      e.push_back(val(i >= 0 && ir::test(set.bits, i)));
    }
    return from_table(x->sel, std::move(e), scalar_type(ir::kBoolDomain));
  }
  SymP el = set_elements(s, d);
  if (concrete(*x)) {
    int64_t i = ir::domain_index(p_.domains, d, x->v);
    return with_err(i < 0 ? false_ : el->items[size_t(i)], err_of(el));
  }
  auto cases = to_cases(x);
  if (!cases) {
    // A number: equal to one of the set's members that is in it.
    z3::expr xi = to_int(x);
    z3::expr_vector any(z3_);
    for (uint32_t i = 0; i < el->items.size(); ++i) {
      z3::expr m = to_bool(el->items[i]);
      if (!m.is_false()) any.push_back(m && xi == z3_.int_val(int64_t(ir::domain_value(p_.domains, d, i))));
    }
    return with_err(boolean(any.empty() ? z3_.bool_val(false) : z3::mk_or(any)),
                    (err_of(x) || err_of(el)).simplify());
  }
  z3::expr_vector any(z3_);
  for (auto& [v, g] : *cases) {
    int64_t i = ir::domain_index(p_.domains, d, v);
    if (i >= 0) any.push_back(g && to_bool(el->items[size_t(i)]));
  }
  return with_err(boolean(any.empty() ? z3_.bool_val(false) : z3::mk_or(any)),
                  (err_of(x) || err_of(el)).simplify());
}

std::pair<z3::expr, z3::expr> Encoder::condition(const ir::Expr& e, Frame& f) {
  SymP s = eval(e, f);
  return {to_bool(s), err_of(s)};
}

SymP Encoder::read(const ir::Expr& e, Frame& f) {
  std::vector<SymP> keys;
  for (const auto& k : e.args) keys.push_back(resolve(eval(*k, f)));
  // Keys computed from the state are split into their concrete values.
  std::function<SymP(size_t, std::vector<int64_t>&)> go = [&](size_t i, std::vector<int64_t>& ks) -> SymP {
    if (i == keys.size()) return read_at(e.var, ks);
    return split(keys[i], e.type, [&](const SymP& c) -> SymP {
      if (c->k == K::Err) return c;
      ks.push_back(c->v);
      SymP r = go(i + 1, ks);
      ks.pop_back();
      return r;
    });
  };
  std::vector<int64_t> ks;
  SymP r = go(0, ks);
  if (r->k == K::Err) return err_sym(where(e.span) + ": " + r->msg);
  return r;
}

SymP Encoder::read_at(int var, const std::vector<int64_t>& keys) {
  const ir::StateVar& v = p_.vars[size_t(var)];
  int64_t at = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    int64_t idx = ir::domain_index(p_.domains, v.keys[i], keys[i]);
    if (idx < 0) return err_sym(fmt::format("key outside {} (in '{}')", p_.domains[size_t(v.keys[i])].name, v.name));
    at = at * p_.domains[size_t(v.keys[i])].size + idx;
  }
  std::function<SymP(int64_t, size_t)> whole = [&](int64_t base, size_t key) -> SymP {
    if (key == v.keys.size()) return read_slot(var, uint32_t(base));
    const uint32_t n = p_.domains[size_t(v.keys[key])].size;
    auto out = std::make_shared<Sym>();
    if (v.is_set && key + 1 == v.keys.size()) {
      out->k = K::Set;
      out->domain = v.keys[key];
      bool all = true;
      for (uint32_t i = 0; i < n; ++i) {
        out->items.push_back(read_slot(var, uint32_t(base * n + i)));
        all = all && out->items.back()->k == K::Val;
      }
      if (all) {
        out->k = K::Bits;
        out->bits.assign(ir::words(n), 0);
        for (uint32_t i = 0; i < n; ++i)
          if (out->items[i]->v) out->bits[i >> 6] |= uint64_t(1) << (i & 63);
        out->items.clear();
      }
      return out;
    }
    out->k = K::List;
    for (uint32_t i = 0; i < n; ++i) out->items.push_back(whole(base * n + i, key + 1));
    return out;
  };
  return whole(at, keys.size());
}

}  // namespace rulebook::verifier
