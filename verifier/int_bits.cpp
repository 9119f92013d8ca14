#include "verifier/int_bits.h"

#include <algorithm>
#include <vector>

namespace rulebook::verifier {

namespace {

bool add(int64_t a, int64_t b, int64_t& out) { return !__builtin_add_overflow(a, b, &out); }
bool mul(int64_t a, int64_t b, int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

bool comparison(Z3_decl_kind k) {
  return k == Z3_OP_EQ || k == Z3_OP_DISTINCT || k == Z3_OP_LE || k == Z3_OP_GE || k == Z3_OP_LT || k == Z3_OP_GT;
}

}  // namespace

unsigned signed_width(int64_t lo, int64_t hi) {
  unsigned w = 1;
  while (w < 64 && (lo < -(int64_t(1) << (w - 1)) || hi > (int64_t(1) << (w - 1)) - 1)) ++w;
  return w;
}

std::optional<IntsAsBits::Range> IntsAsBits::range(const z3::expr& e) {
  if (auto it = ranges_.find(e.id()); it != ranges_.end()) return it->second.second;
  std::optional<Range> r;
  int64_t v = 0;
  if (e.is_numeral_i64(v)) {
    r = Range{v, v};
  } else if (e.is_app() && e.num_args() > 0) {
    const Z3_decl_kind k = e.decl().decl_kind();
    std::vector<Range> a;
    for (unsigned i = 0; i < e.num_args(); ++i) {
      if (k == Z3_OP_ITE && i == 0) {  // the condition, rewritten as well
        if (!rewrite(e.arg(0))) break;
        continue;
      }
      const std::optional<Range> ai = range(e.arg(i));
      if (!ai) break;
      a.push_back(*ai);
    }
    const size_t n = k == Z3_OP_ITE ? 2 : e.num_args();
    if (a.size() == n) {
      Range out = a[0];
      bool ok = true;
      switch (k) {
        case Z3_OP_ITE:
          out = {std::min(a[0].first, a[1].first), std::max(a[0].second, a[1].second)};
          break;
        case Z3_OP_ADD:
          for (size_t i = 1; i < n && ok; ++i) ok = add(out.first, a[i].first, out.first) && add(out.second, a[i].second, out.second);
          break;
        case Z3_OP_SUB:
          for (size_t i = 1; i < n && ok; ++i) ok = add(out.first, -a[i].second, out.first) && add(out.second, -a[i].first, out.second);
          break;
        case Z3_OP_UMINUS:
          ok = a[0].first > INT64_MIN;
          out = {-a[0].second, -a[0].first};
          break;
        case Z3_OP_MUL:
          for (size_t i = 1; i < n && ok; ++i) {
            int64_t p[4];
            ok = mul(out.first, a[i].first, p[0]) && mul(out.first, a[i].second, p[1]) &&
                 mul(out.second, a[i].first, p[2]) && mul(out.second, a[i].second, p[3]);
            if (ok) out = {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
          }
          break;
        default:
          ok = false;  // a division, a remainder, an absolute value Z3 kept: the arithmetic solvers'
      }
      // Room for the sign and one carry: each width below stays under 64 bits.
      if (ok && out.first > -(int64_t(1) << 61) && out.second < (int64_t(1) << 61)) r = out;
    }
  }
  ranges_.emplace(e.id(), std::make_pair(e, r));
  return r;
}

z3::expr IntsAsBits::bits(const z3::expr& e, unsigned width) {
  const uint64_t key = (uint64_t(e.id()) << 7) | width;
  if (auto it = bits_.find(key); it != bits_.end()) return it->second.second;
  z3::expr out(c_);
  int64_t v = 0;
  if (e.is_numeral_i64(v)) {
    out = c_.bv_val(v, width);
  } else {
    const Z3_decl_kind k = e.decl().decl_kind();
    if (k == Z3_OP_ITE) {
      out = z3::ite(*rewrite(e.arg(0)), bits(e.arg(1), width), bits(e.arg(2), width));
    } else {
      out = bits(e.arg(0), width);
      if (k == Z3_OP_UMINUS) out = -out;
      for (unsigned i = 1; i < e.num_args(); ++i) {
        const z3::expr b = bits(e.arg(i), width);
        out = k == Z3_OP_ADD ? out + b : k == Z3_OP_SUB ? out - b : out * b;
      }
    }
  }
  bits_.emplace(key, std::make_pair(e, out));
  return out;
}

std::optional<z3::expr> IntsAsBits::rewrite(const z3::expr& e) {
  if (auto it = memo_.find(e.id()); it != memo_.end()) return it->second.second;
  std::optional<z3::expr> out = e;
  if (e.is_int()) {
    out.reset();  // an integer outside a comparison: the caller decides
  } else if (!e.is_bool() && !e.is_bv()) {
    out.reset();  // reals, arrays, ...: not these questions
  } else if (e.is_quantifier()) {
    out.reset();
  } else if (e.is_app() && e.num_args() > 0) {
    const Z3_decl_kind k = e.decl().decl_kind();
    if (comparison(k) && e.arg(0).is_int()) {
      int64_t lo = 0, hi = 0;
      bool ok = true;
      for (unsigned i = 0; i < e.num_args() && ok; ++i) {
        const std::optional<Range> r = range(e.arg(i));
        ok = r.has_value();
        if (ok) lo = i == 0 ? r->first : std::min(lo, r->first), hi = i == 0 ? r->second : std::max(hi, r->second);
      }
      if (!ok) {
        out.reset();
      } else {
        // Every argument's value is exact in this width, and so is their order.
        const unsigned w = signed_width(lo, hi);
        z3::expr_vector as(c_);
        for (unsigned i = 0; i < e.num_args(); ++i) as.push_back(bits(e.arg(i), w));
        z3::expr_vector eqs(c_);
        switch (k) {
          case Z3_OP_EQ:  // a chain a = b = c as its pairs
            for (unsigned i = 1; i < as.size(); ++i) eqs.push_back(as[0] == as[i]);
            out = z3::mk_and(eqs);
            break;
          case Z3_OP_DISTINCT: out = z3::distinct(as); break;
          case Z3_OP_LE: out = z3::sle(as[0], as[1]); break;
          case Z3_OP_GE: out = z3::sge(as[0], as[1]); break;
          case Z3_OP_LT: out = z3::slt(as[0], as[1]); break;
          default: out = z3::sgt(as[0], as[1]); break;
        }
      }
    } else {
      std::vector<Z3_ast> args;
      std::vector<z3::expr> keep;  // the new arguments alive until the term is updated
      bool changed = false;
      for (unsigned i = 0; i < e.num_args() && out; ++i) {
        std::optional<z3::expr> a = rewrite(e.arg(i));
        if (!a) {
          out.reset();
          break;
        }
        changed = changed || a->id() != e.arg(i).id();
        keep.push_back(*a);
        args.push_back(keep.back());
      }
      if (out && changed) out = z3::expr(c_, Z3_update_term(c_, e, unsigned(args.size()), args.data()));
    }
  }
  memo_.emplace(e.id(), std::make_pair(e, out));
  return out;
}

std::optional<z3::expr> IntsAsBits::operator()(const z3::expr& e) { return rewrite(e); }

}  // namespace rulebook::verifier
