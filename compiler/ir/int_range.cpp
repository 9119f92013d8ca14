// Ranges of integer expressions, computed in 128 bits so that the analysis itself never
// overflows; a range that leaves 64 bits means the operation may fail.
#include "compiler/ir/int_range.h"

#include <algorithm>
#include <limits>

namespace rulebook::compiler {

namespace {

using R = std::optional<IntRange>;
using Wide = __int128;

R fits(Wide lo, Wide hi) {
  if (lo < std::numeric_limits<int64_t>::min() || hi > std::numeric_limits<int64_t>::max())
    return std::nullopt;
  return IntRange{int64_t(lo), int64_t(hi)};
}

/// The values of a domain's members (indices, or lo.. for a range); none has no range.
R domain_range(const ir::Program& p, int d) {
  if (d < 0 || size_t(d) >= p.domains.size()) return std::nullopt;
  const ir::Domain& dom = p.domains[size_t(d)];
  if (dom.kind == ir::Domain::Kind::Optional || dom.size == 0) return std::nullopt;
  const Wide lo = dom.kind == ir::Domain::Kind::Range ? dom.lo : 0;
  return fits(lo, lo + Wide(dom.size) - 1);
}

/// At most how many elements a quantifier over `domain` visits.
std::optional<uint64_t> element_bound(const ir::Program& p, const ir::Expr& domain) {
  if (domain.op == ir::Op::ConstList) return domain.args.size();
  if (domain.op == ir::Op::Builtin) {
    // The board's rows, columns or both: fewer than twice the cells.
    using B = dsl::BuiltinId;
    if (domain.builtin == B::Rows || domain.builtin == B::Columns || domain.builtin == B::Lines)
      return 2 * uint64_t(p.domains[size_t(ir::kCellDomain)].size) + 2;
  }
  if (domain.type->kind != ir::Type::Kind::Set || domain.type->domain < 0) return std::nullopt;
  return p.domains[size_t(domain.type->domain)].size;
}

R product(const IntRange& a, const IntRange& b) {
  const Wide c[] = {Wide(a.lo) * b.lo, Wide(a.lo) * b.hi, Wide(a.hi) * b.lo, Wide(a.hi) * b.hi};
  return fits(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
}

R sum_range(const ir::Program& p, const ir::Expr& e) {
  // count: one per element; sum: the body's range once per element, and 0 for none.
  const ir::Expr* body = e.args.size() > 2 ? e.args[2].get() : nullptr;
  auto n = element_bound(p, *e.args[0]);
  if (!n) return std::nullopt;
  if (e.op == ir::Op::Count) return fits(0, Wide(*n));
  if (!body) return std::nullopt;
  R b = int_range(p, *body);
  if (!b) return std::nullopt;
  return fits(std::min<Wide>(0, Wide(b->lo) * Wide(*n)), std::max<Wide>(0, Wide(b->hi) * Wide(*n)));
}

R builtin_range(const ir::Program& p, const ir::Expr& e) {
  using B = dsl::BuiltinId;
  auto arg = [&](size_t i) { return i < e.args.size() ? int_range(p, *e.args[i]) : R{}; };
  switch (e.builtin) {
    case B::X:
    case B::Y:
      // A coordinate of a checked cell or point: below the number of cells or points.
      if (e.args.empty()) return std::nullopt;
      return domain_range(p, e.args[0]->type->domain);
    case B::Abs: {
      R a = arg(0);
      if (!a) return std::nullopt;
      if (a->lo >= 0) return a;
      if (a->hi <= 0) return fits(-Wide(a->hi), -Wide(a->lo));
      return fits(0, std::max(-Wide(a->lo), Wide(a->hi)));
    }
    case B::Min:
    case B::Max: {
      R a = arg(0), b = arg(1);
      if (!a || !b) return std::nullopt;
      if (e.builtin == B::Min) return IntRange{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
      return IntRange{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    }
    case B::Seat:
      return fits(1, std::max(1, p.players));
    case B::Mover:
    case B::Next:
      return fits(0, std::max(0, p.players - 1));
    case B::LargestGroup:
      // A group of cells of a set: no more than the cells.
      return fits(0, Wide(p.domains[size_t(ir::kCellDomain)].size));
    case B::Size:
      // A set has at most as many elements as its domain.
      if (e.args.size() != 1 || e.args[0]->type->kind != ir::Type::Kind::Set) return std::nullopt;
      if (auto n = element_bound(p, *e.args[0])) return fits(0, Wide(*n));
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<IntRange> int_range(const ir::Program& p, const ir::Expr& e) {
  if (!e.type || e.type->kind != ir::Type::Kind::Scalar) return std::nullopt;
  using ir::Op;
  auto arg = [&](size_t i) { return i < e.args.size() && e.args[i] ? int_range(p, *e.args[i]) : R{}; };
  switch (e.op) {
    case Op::Const:
      return IntRange{e.value, e.value};
    case Op::Read:
      return domain_range(p, p.vars[size_t(e.var)].domain);
    case Op::Mover:
      return fits(0, std::max(0, p.players - 1));
    case Op::Phase:
    case Op::Field:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
    case Op::And: case Op::Or: case Op::Not: case Op::In:
      // Comparisons are bools; a field is taken modulo its domain's size.
      return domain_range(p, e.type->domain);
    case Op::Neg: {
      R a = arg(0);
      return a ? fits(-Wide(a->hi), -Wide(a->lo)) : R{};
    }
    case Op::Add:
    case Op::Sub: {
      R a = arg(0), b = arg(1);
      if (!a || !b) return std::nullopt;
      return e.op == Op::Add ? fits(Wide(a->lo) + b->lo, Wide(a->hi) + b->hi)
                             : fits(Wide(a->lo) - b->hi, Wide(a->hi) - b->lo);
    }
    case Op::Mul: {
      R a = arg(0), b = arg(1);
      return a && b ? product(*a, *b) : R{};
    }
    case Op::Div:
    case Op::Mod: {
      // Only by a positive constant: floor division is monotonic in the dividend then.
      R a = arg(0), b = arg(1);
      if (!a || !b || b->lo != b->hi || b->lo <= 0) return std::nullopt;
      const int64_t k = b->lo;
      if (e.op == Op::Mod) return IntRange{0, k - 1};
      auto floor_div = [&](int64_t x) { return x / k - (x % k != 0 && x < 0); };
      return IntRange{floor_div(a->lo), floor_div(a->hi)};
    }
    case Op::If: {
      R a = arg(1), b = arg(2);
      if (!a || !b) return std::nullopt;
      return IntRange{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
    }
    case Op::Count:
    case Op::Sum:
      return sum_range(p, e);
    case Op::Max:
    case Op::Min:
      // One of the body's values (over nothing it fails, with no value).
      return e.args.size() > 2 && e.args[2] ? int_range(p, *e.args[2]) : R{};
    case Op::At: {
      if (e.args[0]->op != Op::ConstList || e.args[0]->args.empty()) return std::nullopt;
      IntRange r{std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
      for (const auto& x : e.args[0]->args) {
        if (x->op != Op::Const) return std::nullopt;
        r.lo = std::min(r.lo, x->value);
        r.hi = std::max(r.hi, x->value);
      }
      return r;
    }
    case Op::Builtin:
      return builtin_range(p, e);
    case Op::Call: {
      // The body's range with its parameters unbounded; a few calls deep at most.
      static thread_local int depth = 0;
      const ir::Function& f = p.functions[size_t(e.function)];
      if (!f.body || depth >= 8) return std::nullopt;
      ++depth;
      R r = int_range(p, *f.body);
      --depth;
      return r;
    }
    default:
      return std::nullopt;
  }
}

bool assignment_cannot_overflow(const ir::Program& p, int d, const ir::Expr& value, bool subtract) {
  R a = domain_range(p, d), b = int_range(p, value);
  if (!a || !b) return false;
  return subtract ? fits(Wide(a->lo) - b->hi, Wide(a->hi) - b->lo).has_value()
                  : fits(Wide(a->lo) + b->lo, Wide(a->hi) + b->hi).has_value();
}

bool cannot_overflow(const ir::Program& p, const ir::Expr& e) {
  // The root's own range is computed from its operands' only when it fits.
  switch (e.op) {
    case ir::Op::Neg: case ir::Op::Add: case ir::Op::Sub: case ir::Op::Mul: case ir::Op::Sum:
      return int_range(p, e).has_value();
    case ir::Op::Builtin:
      return e.builtin != dsl::BuiltinId::Abs || int_range(p, e).has_value();
    default:
      return true;
  }
}

}  // namespace rulebook::compiler
