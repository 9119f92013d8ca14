#include "verifier/cardinality.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace rulebook::verifier {

namespace {

/// base + sum of weight * condition.
struct Linear {
  int64_t base = 0;
  std::vector<z3::expr> conds;
  std::vector<int64_t> weights;
  std::unordered_map<unsigned, size_t> index;  ///< condition id -> position
};

bool mul(int64_t a, int64_t b, int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }
bool add(int64_t a, int64_t b, int64_t& out) { return !__builtin_add_overflow(a, b, &out); }

}  // namespace

std::optional<z3::expr> Cardinalities::comparison(const z3::expr& e) {
  const Z3_decl_kind k = e.decl().decl_kind();
  const bool eq = k == Z3_OP_EQ || (k == Z3_OP_DISTINCT && e.num_args() == 2);
  if (!eq && k != Z3_OP_LE && k != Z3_OP_GE && k != Z3_OP_LT && k != Z3_OP_GT) return std::nullopt;
  if (e.num_args() != 2 || !e.arg(0).is_int()) return std::nullopt;
  Linear lin;
  // Adds mult * t to lin; false when t is not a pseudo-boolean sum.
  std::function<bool(const z3::expr&, int64_t)> take = [&](const z3::expr& t, int64_t m) -> bool {
    int64_t v = 0;
    if (t.is_numeral_i64(v)) return mul(m, v, v) && add(lin.base, v, lin.base);
    if (!t.is_app()) return false;
    const Z3_decl_kind tk = t.decl().decl_kind();
    if (tk == Z3_OP_ADD) {
      for (unsigned i = 0; i < t.num_args(); ++i)
        if (!take(t.arg(i), m)) return false;
      return true;
    }
    if (tk == Z3_OP_SUB) {
      for (unsigned i = 0; i < t.num_args(); ++i)
        if (!take(t.arg(i), i == 0 ? m : -m)) return false;
      return true;
    }
    if (tk == Z3_OP_UMINUS) return take(t.arg(0), -m);
    if (tk == Z3_OP_MUL && t.num_args() == 2) {
      int64_t f = 0;
      if (t.arg(0).is_numeral_i64(f) && mul(m, f, f)) return take(t.arg(1), f);
      if (t.arg(1).is_numeral_i64(f) && mul(m, f, f)) return take(t.arg(0), f);
      return false;
    }
    int64_t a = 0, b = 0;
    if (tk == Z3_OP_ITE && t.arg(1).is_numeral_i64(a) && t.arg(2).is_numeral_i64(b)) {
      // ite(c, a, b) = b + (a - b) * c
      int64_t w = 0, mb = 0;
      if (!add(a, -b, w) || !mul(w, m, w) || !mul(m, b, mb) || !add(lin.base, mb, lin.base)) return false;
      if (w == 0) return true;
      const z3::expr c = rewrite(t.arg(0));
      auto [it, fresh] = lin.index.emplace(c.id(), lin.conds.size());
      if (fresh) {
        lin.conds.push_back(c);
        lin.weights.push_back(w);
        return true;
      }
      return add(lin.weights[it->second], w, lin.weights[it->second]);
    }
    return false;
  };
  if (!take(e.arg(0), 1) || !take(e.arg(1), -1) || lin.conds.empty()) return std::nullopt;
  // sum(w c) + base (op) 0, i.e. sum(w c) (op) K with K = -base; a negative weight w on c
  // is w + |w| on not c.
  int64_t bound = 0, total = 0;
  if (!mul(lin.base, -1, bound)) return std::nullopt;
  z3::expr_vector conds(c_);
  std::vector<int64_t> weights;
  for (size_t i = 0; i < lin.conds.size(); ++i) {
    const int64_t w = lin.weights[i];
    if (w == 0) continue;
    if (w > 0) {
      conds.push_back(lin.conds[i]);
      weights.push_back(w);
    } else {
      conds.push_back(!lin.conds[i]);
      weights.push_back(-w);
      if (!add(bound, -w, bound)) return std::nullopt;
    }
    if (!add(total, weights.back(), total)) return std::nullopt;
  }
  if (total > int64_t(std::numeric_limits<unsigned>::max())) return std::nullopt;
  // Strict comparisons as non-strict ones; `b - a (op) 0` read as `a (op') b` is the same.
  enum { Ge, Le, Eq } op = eq ? Eq : (k == Z3_OP_GE || k == Z3_OP_GT) ? Ge : Le;
  if (k == Z3_OP_GT) ++bound;
  if (k == Z3_OP_LT) --bound;
  // Weighted sums stay arithmetic: an identity between counts (SMYOZ's 2*KK + 4 = VP, or
  // its lines' balance summed over the lines) is linear reasoning, which the general
  // solver does and the SAT-based one, on pseudo-boolean constraints, does not.
  if (!std::all_of(weights.begin(), weights.end(), [](int64_t w) { return w == 1; })) return std::nullopt;
  auto ge = [&](int64_t b) -> z3::expr {
    if (b <= 0) return c_.bool_val(true);
    if (b > total) return c_.bool_val(false);
    return b == 1 ? z3::mk_or(conds) : b == total ? z3::mk_and(conds) : z3::atleast(conds, unsigned(b));
  };
  auto le = [&](int64_t b) -> z3::expr {
    if (b < 0) return c_.bool_val(false);
    if (b >= total) return c_.bool_val(true);
    return b == 0 ? !z3::mk_or(conds) : z3::atmost(conds, unsigned(b));
  };
  z3::expr out = c_.bool_val(true);
  if (op == Ge) out = ge(bound);
  else if (op == Le) out = le(bound);
  else if (bound < 0 || bound > total) out = c_.bool_val(false);
  else out = ge(bound) && le(bound);
  if (k == Z3_OP_DISTINCT) out = !out;
  return out;
}

z3::expr Cardinalities::rewrite(const z3::expr& e) {
  if (auto it = memo_.find(e.id()); it != memo_.end()) return it->second.second;
  z3::expr out = e;
  if (e.is_app() && e.num_args() > 0) {
    std::optional<z3::expr> pb;
    if (e.is_bool()) pb = comparison(e);
    if (pb) {
      out = *pb;
    } else {
      std::vector<Z3_ast> args;
      bool changed = false;
      std::vector<z3::expr> keep;  // the new arguments alive until the term is updated
      for (unsigned i = 0; i < e.num_args(); ++i) {
        keep.push_back(rewrite(e.arg(i)));
        changed = changed || keep.back().id() != e.arg(i).id();
        args.push_back(keep.back());
      }
      if (changed) out = z3::expr(c_, Z3_update_term(c_, e, unsigned(args.size()), args.data()));
    }
  }
  memo_.emplace(e.id(), std::make_pair(e, out));
  return out;
}

z3::expr Cardinalities::operator()(const z3::expr& e) { return rewrite(e); }

bool Cardinalities::arithmetic(const z3::expr& e) {
  if (e.is_int() || e.is_real()) return true;
  if (auto it = arith_.find(e.id()); it != arith_.end()) return it->second.second;
  bool any = false;
  if (e.is_app())
    for (unsigned i = 0; i < e.num_args() && !any; ++i) any = arithmetic(e.arg(i));
  arith_.emplace(e.id(), std::make_pair(e, any));
  return any;
}

}  // namespace rulebook::verifier
