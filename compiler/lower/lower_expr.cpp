// Lowering of expressions: names, calls, operators, binders and literals (indexing:
// lower_index.cpp).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/lower/lower_internal.h"
#include "dsl/integers.h"
#include "dsl/limits.h"

namespace rulebook::compiler {

using dsl::ExprKind;
using dsl::NameKind;
using dsl::TypeTag;
using ir::Op;

namespace {

bool is_const(const ir::ExprPtr& e) { return e && e->op == Op::Const; }

bool all_const(const std::vector<ir::ExprPtr>& args) {
  return std::all_of(args.begin(), args.end(), is_const);
}

bool is_set_like(const dsl::TypeRef& t) { return t && t->is(TypeTag::Set); }

/// A literal whose type the other side of `==` or `+` decides.
bool is_literal(const dsl::Expr& e) {
  return e.kind == ExprKind::SetLit || e.kind == ExprKind::RecordLit ||
         e.kind == ExprKind::None || e.kind == ExprKind::SeqLit ||
         e.kind == ExprKind::Comprehension ||
         (e.kind == ExprKind::Binary && e.op == dsl::Op::Range);
}

}  // namespace

// ------------------------------------------------------------------ helpers

ir::ExprPtr Lowering::node(Op op, ir::TypePtr type, dsl::Span span) {
  auto e = std::make_unique<ir::Expr>();
  e->op = op;
  e->type = std::move(type);
  e->span = span;
  return e;
}

ir::ExprPtr Lowering::constant(ir::Value v, int domain, dsl::Span span) {
  auto e = node(Op::Const, scalar_type(domain), span);
  e->value = v;
  return e;
}

ir::ExprPtr Lowering::full_set(int domain, dsl::Span span, SetOf what) {
  if (what != SetOf::StoredKeys) domain = set_domain(domain, span, what == SetOf::MapKeys);
  auto e = node(Op::ConstSet, set_type(domain), span);
  uint32_t n = domain >= 0 ? prog_.domains[size_t(domain)].size : 0;
  e->bits.assign((n + 63) / 64, 0);
  for (uint32_t i = 0; i < n; ++i) e->bits[i / 64] |= uint64_t(1) << (i % 64);
  return e;
}

ir::ExprPtr Lowering::fold(ir::ExprPtr e) {
  auto& a = e->args;
  auto v = [&](size_t i) { return a[i]->value; };
  auto make = [&](ir::Value x) { return constant(x, e->type->domain, e->span); };
  switch (e->op) {
    case Op::Neg: {
      // An operation that fails is not folded: it fails when it runs, as in every engine
      // (a constant one written in the rules is already a checker error; this one came
      // from inlining and may sit in a branch never taken).
      ir::Value r;
      if (is_const(a[0]) && !integers::neg(v(0), r)) return make(r);
      break;
    }
    case Op::Not:
      if (is_const(a[0])) return make(!v(0));
      break;
    case Op::And:
    case Op::Or:
      if (is_const(a[0])) {
        bool left = v(0) != 0;
        if (left == (e->op == Op::Or)) return make(left);
        return std::move(a[1]);
      }
      break;
    case Op::If:
      if (is_const(a[0])) return std::move(v(0) ? a[1] : a[2]);
      break;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod:
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      if (!is_const(a[0]) || !is_const(a[1])) break;
      if (e->type->kind != ir::Type::Kind::Scalar) break;
      switch (e->op) {
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: {
          ir::Value r;
          const char* failure = e->op == Op::Add   ? integers::add(v(0), v(1), r)
                                : e->op == Op::Sub ? integers::sub(v(0), v(1), r)
                                : e->op == Op::Mul ? integers::mul(v(0), v(1), r)
                                : e->op == Op::Div ? integers::div(v(0), v(1), r)
                                                   : integers::mod(v(0), v(1), r);
          if (!failure) return make(r);
          break;
        }
        case Op::Lt: return make(v(0) < v(1));
        case Op::Le: return make(v(0) <= v(1));
        case Op::Gt: return make(v(0) > v(1));
        default: return make(v(0) >= v(1));
      }
      break;
    case Op::Eq:
    case Op::Ne:
      if (is_const(a[0]) && is_const(a[1])) return make((v(0) == v(1)) == (e->op == Op::Eq));
      break;
    case Op::Builtin:
      if (!all_const(a)) break;
      if (e->builtin == dsl::BuiltinId::Abs) {
        ir::Value r;
        if (!integers::abs(v(0), r)) return make(r);
        break;
      }
      if (e->builtin == dsl::BuiltinId::Min && a.size() == 2) return make(std::min(v(0), v(1)));
      if (e->builtin == dsl::BuiltinId::Max && a.size() == 2) return make(std::max(v(0), v(1)));
      break;
    case Op::RecordLit: {
      if (!all_const(a) || e->type->domain < 0) break;
      const ir::Domain& d = prog_.domains[size_t(e->type->domain)];
      int64_t index = 0;
      for (size_t f = 0; f < a.size(); ++f) {
        int64_t i = ir::domain_index(prog_.domains, d.fields[f], v(f));
        if (i < 0) return e;  // out of its field's domain: reported when evaluated
        index += i * d.strides[f];
      }
      return make(index);
    }
    case Op::Field: {
      if (!is_const(a[0]) || v(0) == ir::kNone) break;
      int d = a[0]->type->domain;
      if (d < 0) break;
      if (prog_.domains[size_t(d)].kind == ir::Domain::Kind::Optional)
        d = prog_.domains[size_t(d)].inner;
      const ir::Domain& rd = prog_.domains[size_t(d)];
      int fd = rd.fields[size_t(e->field)];
      int64_t i = (v(0) / rd.strides[size_t(e->field)]) % prog_.domains[size_t(fd)].size;
      return make(ir::domain_value(prog_.domains, fd, i));
    }
    case Op::At:
      if (a[0]->op == Op::ConstList && is_const(a[1]) && v(1) >= 0 &&
          size_t(v(1)) < a[0]->args.size())
        return std::move(a[0]->args[size_t(v(1))]);
      break;
    case Op::In:
      if (is_const(a[0]) && a[1]->op == Op::ConstSet) {
        int64_t i = ir::domain_index(prog_.domains, a[1]->type->domain, v(0));
        return make(i >= 0 && (a[1]->bits[size_t(i) / 64] >> (i % 64) & 1));
      }
      break;
    case Op::ListLit: {
      bool constant_items = std::all_of(a.begin(), a.end(), [](const ir::ExprPtr& x) {
        return x->op == Op::Const || x->op == Op::ConstSet || x->op == Op::ConstList;
      });
      if (constant_items) e->op = Op::ConstList;
      break;
    }
    default:
      break;
  }
  return e;
}

// ------------------------------------------------------------------ expressions

ir::ExprPtr Lowering::expr(const dsl::Expr& e, const dsl::TypeRef& want) {
  const dsl::TypeRef own = game_.type_of(e);
  switch (e.kind) {
    case ExprKind::Int:
      return constant(e.value, -1, e.span);
    case ExprKind::Bool:
      return constant(e.value, ir::kBoolDomain, e.span);
    case ExprKind::None:
      return constant(ir::kNone, want && want->is(TypeTag::Optional) ? domain_of(want) : -1,
                      e.span);
    case ExprKind::String:
      error(e.span, "a string is not a value here");
      return constant(0, -1, e.span);
    case ExprKind::Name:
      return name(e, want);
    case ExprKind::Comprehension: {
      // The checker wrote it out as the literal it stands for.
      const dsl::Expr* lit = game_.expansion(e);
      if (!lit) {
        error(e.span, "the comprehension was not checked");
        return constant(0, -1, e.span);
      }
      return expr(*lit, want);
    }
    case ExprKind::Call:
      return call(e, want);
    case ExprKind::Index:
      return index(e);
    case ExprKind::Field: {
      ir::ExprPtr base = expr(*e.args[0]);
      dsl::TypeRef rt = dsl::strip_optional(game_.type_of(*e.args[0]));
      auto x = node(Op::Field, ir_type(own, e.span), e.span);
      if (rt && rt->is(TypeTag::Record)) {
        auto it = std::find(rt->members.begin(), rt->members.end(), e.ident.name);
        x->field = int(it - rt->members.begin());
      }
      x->args.push_back(std::move(base));
      return fold(std::move(x));
    }
    case ExprKind::Unary: {
      bool is_not = e.op == dsl::Op::Not;
      auto x = node(is_not ? Op::Not : Op::Neg, scalar_type(is_not ? ir::kBoolDomain : -1), e.span);
      x->args.push_back(expr(*e.args[0]));
      return fold(std::move(x));
    }
    case ExprKind::Binary:
      return binary(e, want);
    case ExprKind::If: {
      dsl::TypeRef w = want && !dsl::is_error(want) ? want : own;
      auto cond = expr(*e.args[0], dsl::bool_type());
      auto a = expr(*e.args[1], w);
      auto b = expr(*e.args[2], w);
      ir::TypePtr t = a->type;
      if ((t->kind == ir::Type::Kind::Set && t->domain < 0) ||
          (t->kind == ir::Type::Kind::Scalar && t->domain < 0))
        t = b->type;
      auto x = node(Op::If, t, e.span);
      x->args.push_back(std::move(cond));
      x->args.push_back(std::move(a));
      x->args.push_back(std::move(b));
      return fold(std::move(x));
    }
    case ExprKind::Quant:
    case ExprKind::Aggregate:
    case ExprKind::SetFilter:
      return binders(e);
    case ExprKind::SetLit:
      return set_literal(e, want);
    case ExprKind::RecordLit:
      return record_literal(e, want);
    case ExprKind::SeqLit: {
      std::vector<ir::ExprPtr> items;
      for (size_t i = 0; i < e.args.size(); ++i) {
        dsl::TypeRef w;
        if (want && want->is(TypeTag::Seq)) w = want->elem();
        else if (want && want->is(TypeTag::Tuple) && i < want->elems.size()) w = want->elems[i];
        items.push_back(expr(*e.args[i], w));
      }
      ir::TypePtr elem = items.empty() ? scalar_type(-1) : items.front()->type;
      if (want && want->is(TypeTag::Seq)) elem = ir_type(want->elem(), e.span);
      auto x = node(Op::ListLit, list_type(elem), e.span);
      x->args = std::move(items);
      return fold(std::move(x));
    }
    case ExprKind::Grid:
      return grid(e, want);
  }
  return constant(0, -1, e.span);
}

ir::ExprPtr Lowering::name(const dsl::Expr& e, const dsl::TypeRef& /*want*/) {
  const dsl::Symbol* s = game_.referent(e);
  if (!s) {
    error(e.span, fmt::format("'{}' was not resolved", e.ident.name));
    return constant(0, -1, e.span);
  }
  auto local = [&](int slot, const dsl::TypeRef& t) {
    auto x = node(Op::Local, ir_type(t, e.span), e.span);
    x->slot = slot;
    return x;
  };
  switch (s->kind) {
    case NameKind::Param: {
      if (s->value) return constant(*s->value, domain_of(s->type), e.span);
      return expr(*std::get<dsl::Param>(s->decl->body).value, s->type);
    }
    case NameKind::State:
    case NameKind::Setup: {
      auto it = vars_.find(s->name);
      if (it == vars_.end()) return constant(0, -1, e.span);
      auto x = node(Op::Read, ir_type(s->type, e.span), e.span);
      x->var = it->second;
      return x;
    }
    case NameKind::Define: {
      const auto* d = &std::get<dsl::Define>(s->decl->body);
      auto x = node(Op::Call, ir_type(s->type, e.span), e.span);
      x->function = functions_.at(d);
      const ir::Function& f = prog_.functions[size_t(x->function)];
      // A constant define (`define orientations = {horizontal, vertical}`) is its value.
      if (f.body && f.params.empty() &&
          (f.body->op == Op::Const || f.body->op == Op::ConstSet || f.body->op == Op::ConstList))
        return clone(*f.body, e.span);
      return x;
    }
    case NameKind::DefineParam:
    case NameKind::MoveParam:
    case NameKind::RuleParam: {
      int slot = s->index;
      if (s->kind == NameKind::RuleParam) {
        if (auto it = rule_args_.find(s->name); it != rule_args_.end()) slot = it->second;
      }
      dsl::TypeRef t = s->type;
      if (size_t(slot) < param_types_.size() && param_types_[size_t(slot)])
        t = param_types_[size_t(slot)];
      return local(slot, t);
    }
    case NameKind::ScoreVar:
      return local(0, s->type);
    case NameKind::Binder:
      return local(slot_of(s->binding, e.span), s->type);
    case NameKind::Let:
      return local(slot_of(s->let, e.span), s->type);
    case NameKind::EnumMember:
      return constant(s->index, domain_of(s->type), e.span);
    case NameKind::Player:
      return constant(s->index, ir::kPlayerDomain, e.span);
    case NameKind::Team:
      return constant(s->index, ir::kTeamDomain, e.span);
    case NameKind::Phase:
      return constant(s->index, ir::kPhaseDomain, e.span);
    case NameKind::Region:
      return region_set(s->index, e.span);
    case NameKind::Move:
      error(e.span, fmt::format("the move '{}' is not a value", s->name));
      return constant(0, -1, e.span);
    case NameKind::ActionParam: {
      // The argument of the call being inlined: a local or a constant (lower_stmt.cpp).
      auto it = action_args_.find(action_param(*s));
      if (it == action_args_.end()) {
        error(e.span, fmt::format("'{}' is used outside its action", s->name));
        return constant(0, -1, e.span);
      }
      return clone(*it->second, e.span);
    }
    case NameKind::Action:
      error(e.span, fmt::format("the action '{}' is not a value", s->name));
      return constant(0, -1, e.span);
    case NameKind::Builtin:
      break;
  }
  using B = dsl::BuiltinId;
  const dsl::Builtin& b = *s->builtin;
  switch (b.id) {
    case B::Width: return constant(width_, -1, e.span);
    case B::Height: return constant(height_, -1, e.span);
    case B::Horizontal: return constant(0, ir::kOrientationDomain, e.span);
    case B::Vertical: return constant(1, ir::kOrientationDomain, e.span);
    case B::Mover: return node(Op::Mover, scalar_type(ir::kPlayerDomain), e.span);
    case B::Cells: return full_set(ir::kCellDomain, e.span);
    case B::Points: return full_set(ir::kPointDomain, e.span);
    case B::Players: return full_set(ir::kPlayerDomain, e.span);
    case B::Teams: return full_set(ir::kTeamDomain, e.span);
    default: {
      auto x = node(Op::Builtin, ir_type(b.signatures[0], e.span), e.span);
      x->builtin = b.id;
      return x;
    }
  }
}

ir::ExprPtr Lowering::call(const dsl::Expr& e, const dsl::TypeRef& /*want*/) {
  const dsl::Symbol* s = game_.referent(*e.args[0]);
  if (!s) {
    error(e.span, "this call was not resolved");
    return constant(0, -1, e.span);
  }
  if (s->kind == NameKind::Builtin) return builtin_call(e, *s->builtin);
  if (s->kind == NameKind::Region) {
    return region_of(s->index, expr(*e.args[1], dsl::cell_type()), e.span);
  }
  if (s->kind != NameKind::Define) {
    error(e.span, fmt::format("'{}' cannot be called", s->name));
    return constant(0, -1, e.span);
  }
  const auto* d = &std::get<dsl::Define>(s->decl->body);
  dsl::TypeRef result = s->type && s->type->is(TypeTag::Function) ? s->type->result : s->type;
  auto x = node(Op::Call, ir_type(result, e.span), e.span);
  x->function = functions_.at(d);
  for (size_t i = 1; i < e.args.size(); ++i) {
    dsl::TypeRef pt;
    if (s->type && s->type->is(TypeTag::Function) && i - 1 < s->type->elems.size())
      pt = s->type->elems[i - 1];
    x->args.push_back(expr(*e.args[i], pt));
  }
  return x;
}

ir::ExprPtr Lowering::builtin_call(const dsl::Expr& e, const dsl::Builtin& b) {
  using B = dsl::BuiltinId;
  const dsl::TypeRef own = game_.type_of(e);
  if (b.id == B::Can) {
    const dsl::Symbol* m = game_.referent(*e.args[1]);
    auto x = node(Op::Can, scalar_type(ir::kBoolDomain), e.span);
    auto it = m && m->move ? moves_.find(m->move) : moves_.end();
    if (it == moves_.end()) {
      error(e.args[1]->span, "this move is in no phase");
      return constant(0, ir::kBoolDomain, e.span);
    }
    x->move = it->second;
    if (e.args.size() > 2) x->args.push_back(expr(*e.args[2], dsl::player_type()));
    else x->args.push_back(node(Op::Mover, scalar_type(ir::kPlayerDomain), e.span));
    return x;
  }
  if (b.id == B::Size && e.args.size() == 2) {
    dsl::TypeRef t = game_.type_of(*e.args[1]);
    if (t && t->is(TypeTag::Map)) {
      int k = require_domain(t->key(), e.span, "a map key");
      return constant(k < 0 ? 0 : prog_.domains[size_t(k)].size, -1, e.span);
    }
  }
  auto x = node(Op::Builtin, ir_type(own, e.span), e.span);
  x->builtin = b.id;
  for (size_t i = 1; i < e.args.size(); ++i) x->args.push_back(expr(*e.args[i]));
  return fold(std::move(x));
}

// ------------------------------------------------------------------ operators

ir::ExprPtr Lowering::binary(const dsl::Expr& e, const dsl::TypeRef& want) {
  const dsl::Expr& l = *e.args[0];
  const dsl::Expr& r = *e.args[1];
  const dsl::TypeRef own = game_.type_of(e);
  auto make = [&](Op op, ir::TypePtr t, ir::ExprPtr a, ir::ExprPtr b) {
    auto x = node(op, std::move(t), e.span);
    x->args.push_back(std::move(a));
    x->args.push_back(std::move(b));
    return fold(std::move(x));
  };
  // Both sides of `==` and of set operators share one type; a literal takes the other's.
  auto pair = [&](const dsl::TypeRef& w) {
    std::pair<ir::ExprPtr, ir::ExprPtr> p;
    if (is_literal(l) && !is_literal(r)) {
      p.second = expr(r, w);
      p.first = expr(l, game_.type_of(r));
    } else {
      p.first = expr(l, w);
      dsl::TypeRef lt = game_.type_of(l);
      p.second = expr(r, lt && !dsl::is_error(lt) ? lt : w);
    }
    return p;
  };
  const ir::TypePtr boolean = scalar_type(ir::kBoolDomain);
  switch (e.op) {
    case dsl::Op::Or:
    case dsl::Op::And:
      return make(e.op == dsl::Op::Or ? Op::Or : Op::And, boolean, expr(l, dsl::bool_type()),
                  expr(r, dsl::bool_type()));
    case dsl::Op::Eq:
    case dsl::Op::Ne: {
      auto [a, b] = pair(nullptr);
      return make(e.op == dsl::Op::Eq ? Op::Eq : Op::Ne, boolean, std::move(a), std::move(b));
    }
    case dsl::Op::Lt: return make(Op::Lt, boolean, expr(l), expr(r));
    case dsl::Op::Le: return make(Op::Le, boolean, expr(l), expr(r));
    case dsl::Op::Gt: return make(Op::Gt, boolean, expr(l), expr(r));
    case dsl::Op::Ge: return make(Op::Ge, boolean, expr(l), expr(r));
    case dsl::Op::In:
    case dsl::Op::NotIn: {
      dsl::TypeRef rt = game_.type_of(r);
      dsl::TypeRef elem = rt ? dsl::element_type(rt) : nullptr;
      ir::ExprPtr x;
      if (r.kind == ExprKind::SetLit && elem && dsl::is_int(elem) && !elem->has_range &&
          std::any_of(r.args.begin(), r.args.end(), [&](const dsl::ExprPtr& a) {
            return !game_.constant(*a);
          })) {
        // `x in {a, b}` over unbounded ints: a chain of comparisons needs no domain.
        x = constant(0, ir::kBoolDomain, e.span);
        ir::ExprPtr value = expr(l);
        for (const auto& item : r.args) {
          auto eq = make(Op::Eq, boolean, clone(*value, value->span), expr(*item));
          x = make(Op::Or, boolean, std::move(x), std::move(eq));
        }
      } else {
        ir::ExprPtr set = rt && rt->is(TypeTag::Map)
                              ? full_set(require_domain(rt->key(), r.span, "a map key"), r.span, SetOf::MapKeys)
                              : expr(r);
        x = make(Op::In, boolean, expr(l, elem), std::move(set));
      }
      if (e.op == dsl::Op::In) return x;
      auto n = node(Op::Not, boolean, e.span);
      n->args.push_back(std::move(x));
      return fold(std::move(n));
    }
    case dsl::Op::Range: {
      int d = -1;
      if (want && want->is(TypeTag::Set)) d = domain_of(want->elem());
      if (d < 0 && own && own->is(TypeTag::Set)) d = domain_of(own->elem());
      auto lo = expr(l), hi = expr(r);
      if (d < 0 && is_const(lo) && is_const(hi) && lo->value <= hi->value) {
        if (uint64_t(hi->value) - uint64_t(lo->value) >= dsl::kMaxSetValues) {
          error(e.span, fmt::format("the range {}..{} is too large for a set: a set ranges over "
                                    "at most {} values",
                                    lo->value, hi->value, dsl::kMaxSetValues))
              .hint = kRangeTooLargeHint;
          return full_set(-1, e.span);
        }
        d = range_domain(lo->value, hi->value);
      }
      if (d >= 0 && (d = set_domain(d, e.span)) < 0) return full_set(-1, e.span);
      if (d < 0) {
        error(e.span, "a range of ints used as a set needs constant bounds or a range type");
        return full_set(-1, e.span);
      }
      if (is_const(lo) && is_const(hi)) {
        auto x = node(Op::ConstSet, set_type(d), e.span);
        x->bits.assign((prog_.domains[size_t(d)].size + 63) / 64, 0);
        for (int64_t v = lo->value; v <= hi->value; ++v) {
          int64_t i = ir::domain_index(prog_.domains, d, v);
          if (i < 0) {
            error(e.span, fmt::format("{} is outside {}", v, prog_.domains[size_t(d)].name));
            break;
          }
          x->bits[size_t(i) / 64] |= uint64_t(1) << (i % 64);
        }
        return x;
      }
      return make(Op::RangeSet, set_type(d), std::move(lo), std::move(hi));
    }
    case dsl::Op::Add:
    case dsl::Op::Sub:
    case dsl::Op::Inter: {
      if (e.op != dsl::Op::Inter && dsl::is_int(game_.type_of(l)))
        return make(e.op == dsl::Op::Add ? Op::Add : Op::Sub, scalar_type(-1), expr(l), expr(r));
      dsl::TypeRef w = is_set_like(want) ? want : own;
      auto [a, b] = pair(w);
      ir::TypePtr t = a->type;
      if (t->kind == ir::Type::Kind::Set && t->domain < 0) t = b->type;
      Op op = e.op == dsl::Op::Add ? Op::Union : e.op == dsl::Op::Sub ? Op::Diff : Op::Inter;
      return make(op, t, std::move(a), std::move(b));
    }
    case dsl::Op::Mul: return make(Op::Mul, scalar_type(-1), expr(l), expr(r));
    case dsl::Op::Div: return make(Op::Div, scalar_type(-1), expr(l), expr(r));
    case dsl::Op::Mod: return make(Op::Mod, scalar_type(-1), expr(l), expr(r));
    default:
      error(e.span, "unexpected operator");
      return constant(0, -1, e.span);
  }
}

}  // namespace rulebook::compiler
