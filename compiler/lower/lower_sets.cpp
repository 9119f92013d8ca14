// Lowering of binders (quantifiers, aggregates, set filters) and of set, record, grid and
// region values; expression utilities (clone, stage).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/lower/lower_internal.h"

namespace rulebook::compiler {

using dsl::ExprKind;
using dsl::TypeTag;
using ir::Op;

namespace {

/// What the innermost binder of a chain computes.
enum class Leaf { All, Some, No, Exists, Count, Sum, Max, Min, Filter };

void set_bit(std::vector<uint64_t>& bits, int64_t i) {
  bits[size_t(i) / 64] |= uint64_t(1) << (i % 64);
}

}  // namespace

// ------------------------------------------------------------------ binders

dsl::TypeRef Lowering::binder_type(const dsl::Expr& domain_expr) {
  dsl::TypeRef t = game_.type_of(domain_expr);
  return t ? dsl::element_type(t) : nullptr;
}

ir::ExprPtr Lowering::binder_domain(const dsl::Binding& b) {
  dsl::TypeRef dt = game_.type_of(*b.domain);
  return dt && dt->is(TypeTag::Map) ? full_set(require_domain(dt->key(), b.domain->span, "a map key"), b.domain->span, SetOf::MapKeys)
                                    : expr(*b.domain);
}

ir::ExprPtr Lowering::clue_family(const dsl::Clue& c, size_t i) {
  if (i == c.binders.size()) return expr(*c.body, dsl::bool_type());
  // One `all` per binder, the clue's `where` on the innermost: the verifier reads the
  // instances off this chain (ir::Clue), the same shape a quantifier lowers to.
  const dsl::Binding& b = c.binders[i];
  auto x = node(Op::All, scalar_type(ir::kBoolDomain), c.span);
  x->args.push_back(binder_domain(b));
  const int saved = frame_->next;
  x->slot = take_slot(&b);
  const bool last = i + 1 == c.binders.size();
  x->args.push_back(last && c.where ? expr(*c.where, dsl::bool_type()) : nullptr);
  x->args.push_back(clue_family(c, i + 1));
  release_to(saved);
  return x;
}

ir::ExprPtr Lowering::binders(const dsl::Expr& e) {
  Leaf leaf = Leaf::Filter;
  if (e.kind == ExprKind::Quant) {
    leaf = e.quant == dsl::Quantifier::All    ? Leaf::All
           : e.quant == dsl::Quantifier::Some ? Leaf::Some
                                              : Leaf::No;
  } else if (e.kind == ExprKind::Aggregate) {
    leaf = e.agg == dsl::AggregateKind::Count ? Leaf::Count
           : e.agg == dsl::AggregateKind::Sum ? Leaf::Sum
           : e.agg == dsl::AggregateKind::Max ? Leaf::Max
                                              : Leaf::Min;
  }
  const ir::TypePtr boolean = scalar_type(ir::kBoolDomain);
  // Binders nest left to right (a later domain may use an earlier binder); `where` and
  // the body belong to the innermost. Several binders of `max`/`min` take an element only
  // where the inner binders have one, so that "max over nothing" means the whole product.
  std::function<ir::ExprPtr(size_t, Leaf)> nest = [&](size_t i, Leaf kind) -> ir::ExprPtr {
    const dsl::Binding& b = e.binders[i];
    ir::ExprPtr domain = binder_domain(b);
    const int saved = frame_->next;
    const int slot = take_slot(&b);
    const bool last = i + 1 == e.binders.size();
    ir::ExprPtr where = last && e.where ? expr(*e.where, dsl::bool_type()) : nullptr;
    auto make = [&](Op op, ir::TypePtr t, ir::ExprPtr w, ir::ExprPtr body) {
      auto x = node(op, std::move(t), e.span);
      x->slot = slot;
      x->args.push_back(std::move(domain));
      x->args.push_back(std::move(w));
      if (body || op != Op::Count) x->args.push_back(std::move(body));
      return x;
    };
    auto body = [&]() { return expr(*e.args[0]); };
    ir::ExprPtr x;
    switch (kind) {
      case Leaf::All:
      case Leaf::Some:
        x = last ? make(kind == Leaf::All ? Op::All : Op::Some, boolean, std::move(where),
                        expr(*e.args[0], dsl::bool_type()))
                 : make(kind == Leaf::All ? Op::All : Op::Some, boolean, nullptr, nest(i + 1, kind));
        break;
      case Leaf::No:
        x = last ? make(Op::No, boolean, std::move(where), expr(*e.args[0], dsl::bool_type()))
                 : make(Op::No, boolean, nullptr, nest(i + 1, Leaf::Some));
        break;
      case Leaf::Exists:
        x = last ? make(Op::Some, boolean, std::move(where), constant(1, ir::kBoolDomain, e.span))
                 : make(Op::Some, boolean, nullptr, nest(i + 1, Leaf::Exists));
        break;
      case Leaf::Count:
        x = last ? make(Op::Count, scalar_type(-1), std::move(where), nullptr)
                 : make(Op::Sum, scalar_type(-1), nullptr, nest(i + 1, Leaf::Count));
        break;
      case Leaf::Sum:
        x = last ? make(Op::Sum, scalar_type(-1), std::move(where), body())
                 : make(Op::Sum, scalar_type(-1), nullptr, nest(i + 1, Leaf::Sum));
        break;
      case Leaf::Max:
      case Leaf::Min: {
        Op op = kind == Leaf::Max ? Op::Max : Op::Min;
        if (last) {
          x = make(op, scalar_type(-1), std::move(where), body());
        } else {
          ir::ExprPtr inner_exists = nest(i + 1, Leaf::Exists);
          x = make(op, scalar_type(-1), std::move(inner_exists), nest(i + 1, kind));
        }
        break;
      }
      case Leaf::Filter: {
        ir::TypePtr t = ir_type(game_.type_of(e), e.span);
        const ir::TypePtr& dt_ir = domain->type;
        if (dt_ir->kind == ir::Type::Kind::Set) t = set_type(dt_ir->domain);
        else if (t->kind == ir::Type::Kind::Set && t->domain < 0 && dt_ir->elem)
          t = set_type(dt_ir->elem->domain);
        auto f = node(Op::Filter, t, e.span);
        f->slot = slot;
        f->args.push_back(std::move(domain));
        f->args.push_back(expr(*e.args[0], dsl::bool_type()));
        x = std::move(f);
        break;
      }
    }
    release_to(saved);
    return x;
  };
  if (e.binders.empty()) return constant(0, -1, e.span);
  return nest(0, leaf);
}

// ------------------------------------------------------------------ literals

ir::ExprPtr Lowering::set_literal(const dsl::Expr& e, const dsl::TypeRef& want) {
  dsl::TypeRef own = game_.type_of(e);
  dsl::TypeRef elem = own && own->is(TypeTag::Set) ? own->elem() : dsl::any_type();
  if (want && want->is(TypeTag::Set) && !want->elem()->is(TypeTag::Any)) elem = want->elem();
  if (elem->is(TypeTag::Any) || dsl::is_error(elem)) {
    if (!e.args.empty() || dsl::is_error(elem)) {
      error(e.span, "cannot tell the type of this set");
    }
    return full_set(-1, e.span);  // `{}` where nothing says what of: empty either way
  }
  if (elem->is(TypeTag::Set) || elem->is(TypeTag::Seq) || elem->is(TypeTag::Map)) {
    auto x = node(Op::SetLit, list_type(ir_type(elem, e.span)), e.span);
    for (const auto& a : e.args) x->args.push_back(expr(*a, elem));
    return x;
  }
  std::vector<ir::ExprPtr> items;
  for (const auto& a : e.args) items.push_back(expr(*a, elem));
  int d = domain_of(elem);
  bool constant_items = std::all_of(items.begin(), items.end(),
                                    [](const ir::ExprPtr& x) { return x->op == Op::Const; });
  if (d < 0 && constant_items && !items.empty() && dsl::is_int(elem)) {
    // `{3, 6, 9}`: a set of constant ints is over the range they span.
    int64_t lo = items.front()->value, hi = lo;
    for (const auto& x : items) lo = std::min(lo, x->value), hi = std::max(hi, x->value);
    if (hi - lo < 4096) d = range_domain(lo, hi);
  }
  if (d < 0) {
    error(e.span, fmt::format("a set of {} is not finite: give its elements a range type",
                              dsl::to_string(elem)));
    return full_set(-1, e.span);
  }
  if (set_domain(d, e.span) < 0) return full_set(-1, e.span);
  if (constant_items) {
    auto x = node(Op::ConstSet, set_type(d), e.span);
    x->bits.assign((prog_.domains[size_t(d)].size + 63) / 64, 0);
    for (const auto& item : items) {
      int64_t i = ir::domain_index(prog_.domains, d, item->value);
      if (i < 0) {
        error(item->span, fmt::format("{} is not a value of {}",
                                      ir::value_text(prog_.domains, item->type->domain, item->value),
                                      prog_.domains[size_t(d)].name));
        continue;
      }
      set_bit(x->bits, i);
    }
    return x;
  }
  auto x = node(Op::SetLit, set_type(d), e.span);
  x->args = std::move(items);
  return x;
}

ir::ExprPtr Lowering::record_literal(const dsl::Expr& e, const dsl::TypeRef& want) {
  dsl::TypeRef rt = game_.type_of(e);
  dsl::TypeRef w = dsl::strip_optional(want);
  if (w && w->is(TypeTag::Record) && rt && w->members == rt->members) rt = w;
  int d = require_domain(rt, e.span, "a record");
  auto x = node(Op::RecordLit, scalar_type(d), e.span);
  if (!rt || !rt->is(TypeTag::Record)) return x;
  for (size_t f = 0; f < rt->members.size(); ++f) {
    for (size_t i = 0; i < e.fields.size(); ++i)
      if (e.fields[i].name == rt->members[f]) x->args.push_back(expr(*e.args[i], rt->elems[f]));
  }
  return fold(std::move(x));
}

ir::ExprPtr Lowering::grid(const dsl::Expr& e, const dsl::TypeRef& want) {
  dsl::TypeRef own = game_.type_of(e);
  dsl::TypeRef value = own && own->is(TypeTag::Map) ? own->value() : dsl::int_type();
  if (want && want->is(TypeTag::Map) && dsl::assignable(value, want->value()))
    value = want->value();
  const int d = domain_of(value);
  std::map<char, ir::Value> keyed;
  for (const dsl::GridKey& k : e.grid.keys) {
    ir::ExprPtr v = expr(*k.value, dsl::strip_optional(value));
    if (v->op != Op::Const) {
      error(k.value->span, "a grid value must be a constant");
      continue;
    }
    for (char c : k.key) keyed[c] = v->value;
  }
  auto x = node(Op::ConstList, list_type(scalar_type(d)), e.span);
  for (int y = 0; y < height_; ++y) {
    const std::string row = size_t(y) < e.grid.rows.size() ? e.grid.rows[size_t(y)] : "";
    for (int c = 0; c < width_; ++c) {
      char ch = size_t(c) < row.size() ? row[size_t(c)] : '.';
      ir::Value v = 0;
      if (auto it = keyed.find(ch); it != keyed.end()) v = it->second;
      else if (ch >= '0' && ch <= '9') v = ch - '0';
      else if (ch == '.') v = value->is(TypeTag::Optional) ? ir::kNone : 0;
      x->args.push_back(constant(v, d, e.span));
    }
  }
  return x;
}

ir::ExprPtr Lowering::region_set(int region, dsl::Span span) {
  auto x = node(Op::ConstList, list_type(set_type(ir::kCellDomain)), span);
  if (region < 0 || size_t(region) >= prog_.geometry.region_sets.size()) return x;
  for (const auto& bits : prog_.geometry.region_sets[size_t(region)].regions) {
    auto s = node(Op::ConstSet, set_type(ir::kCellDomain), span);
    s->bits = bits;
    x->args.push_back(std::move(s));
  }
  return x;
}

ir::ExprPtr Lowering::region_of(int region, ir::ExprPtr cell, dsl::Span span) {
  // A table of the region holding each cell (empty for a cell in none), indexed by cell.
  auto table = node(Op::ConstList, list_type(set_type(ir::kCellDomain)), span);
  const size_t cells = size_t(width_ * height_);
  if (region >= 0 && size_t(region) < prog_.geometry.region_sets.size()) {
    const auto& rs = prog_.geometry.region_sets[size_t(region)];
    for (size_t c = 0; c < cells; ++c) {
      auto s = node(Op::ConstSet, set_type(ir::kCellDomain), span);
      s->bits.assign((cells + 63) / 64, 0);
      if (rs.region_of[c] >= 0) s->bits = rs.regions[size_t(rs.region_of[c])];
      table->args.push_back(std::move(s));
    }
  }
  return at(std::move(table), dsl::cell_type(), std::move(cell), set_type(ir::kCellDomain), span);
}

// ------------------------------------------------------------------ utilities

ir::ExprPtr Lowering::clone(const ir::Expr& e, dsl::Span span) {
  ir::ExprPtr x = ir::clone_expr(e);
  x->span = span;
  return x;
}

int Lowering::stage(const ir::Expr& e, int params) {
  int s = e.op == Op::Local && e.slot < params ? e.slot + 1 : 0;
  for (const auto& a : e.args)
    if (a) s = std::max(s, stage(*a, params));
  return s;
}

}  // namespace rulebook::compiler
