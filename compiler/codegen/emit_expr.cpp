// The C++ emitter's expressions (ExprEmitter): each IR node becomes C++ text over the
// working state `g` (binders and aggregates become immediately invoked lambdas).
#include <algorithm>

#include "compiler/codegen/emit_internal.h"
#include "compiler/ir/int_range.h"

namespace rulebook::compiler::emit {

using ir::Op;
using B = dsl::BuiltinId;

// ---------------------------------------------------------------- dispatch

std::string ExprEmitter::cond(const ir::Expr& e) { return expr(e); }

std::string ExprEmitter::expr(const ir::Expr& e) { return expr_inner(e); }

std::string ExprEmitter::expr_as(const ir::Expr& e, const ir::Type& want, bool strict) {
  if (!is_set(want) || !is_set(*e.type)) return expr(e);
  const int from = e.type->domain, to = want.domain;
  if (from == to) return expr(e);
  if (from < 0 || to < 0) {
    // A set of no domain (`{}`) is empty: only its width may need to change.
    if (names_.words(from) == names_.words(to)) return expr(e);
    return fmt::format("Bits<{}>{{}}", names_.words(to));
  }
  // Elements move by value; those the target domain lacks are dropped (or, strict, an error).
  const std::string fn = fmt::format("convert_d{}_d{}{}", from, to, strict ? "_strict" : "");
  if (!s_.named_constants_.count(fn)) {
    s_.named_constants_[fn] = fn;
    std::string def = fmt::format("/// A set of d{} as a set of d{}.\n", from, to);
    def += fmt::format("Bits<{}> {}(Bits<{}> in{}) {{\n", names_.words(to), fn, names_.words(from),
                       strict ? ", const char* where" : "");
    def += fmt::format("  Bits<{}> out{{}};\n", names_.words(to));
    def += "  while (!in.empty()) {\n";
    def += fmt::format("    const Int v = val_d{}(in.pop());\n", from);
    def += fmt::format("    const Int j = idx_d{}(v);\n", to);
    def += "    if (j >= 0) out.set(j);\n";
    if (strict) {
      def += fmt::format("    else fail_value(where, {}, v{});\n",
                         names_.quote(run_errors::element_outside(run_errors::kHole1, names_.dom(to).name)),
                         run_errors::may_be_none(program_.domains, from) ? ", true" : "");
    }
    def += "  }\n  return out;\n}";
    s_.constant_defs_.push_back(def);
  }
  return strict ? fmt::format("{}({}, {})", fn, expr(e), names_.where(e.span))
                : fmt::format("{}({})", fn, expr(e));
}

std::string ExprEmitter::expr_inner(const ir::Expr& e) {
  const auto& a = e.args;
  switch (e.op) {
    case Op::Const:
      if (names_.is_bool(*e.type)) return e.value ? "true" : "false";
      return names_.value_literal(e.type->domain, e.value);
    case Op::ConstSet:
      return constant_set(e);
    case Op::ConstList:
      return constant_list(e) ;
    case Op::Local:
      return names_.slot_name(e.slot);
    case Op::Read:
      return read(e);
    case Op::Mover:
      return "g.mover_";
    case Op::Phase:
      return fmt::format("Int(g.s.{})", names_.field_name(ir::kVarPhase));
    case Op::Neg:
      if (cannot_overflow(program_, e)) return fmt::format("(-{})", expr(*a[0]));
      return fmt::format("neg_chk({}, {})", expr(*a[0]), names_.where(e.span));
    case Op::Not:
      return fmt::format("!{}", names_.paren(expr(*a[0])));
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      if (is_set(*e.type)) return set_op(e);
      // Checked unless the operands' ranges rule overflow out (compiler/ir/int_range.h).
      if (cannot_overflow(program_, e))
        return fmt::format("({} {} {})", expr(*a[0]),
                           e.op == Op::Add ? "+" : e.op == Op::Sub ? "-" : "*", expr(*a[1]));
      return fmt::format("{}_chk({{{}, {}}}, {})", e.op == Op::Add ? "add" : e.op == Op::Sub ? "sub" : "mul",
                         expr(*a[0]), expr(*a[1]), names_.where(e.span));
    case Op::Div:
      return fmt::format("floor_div({{{}, {}}}, {})", expr(*a[0]), expr(*a[1]), names_.where(e.span));
    case Op::Mod:
      return fmt::format("floor_mod({{{}, {}}}, {})", expr(*a[0]), expr(*a[1]), names_.where(e.span));
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      return compare(e);
    case Op::And:
      return fmt::format("({} && {})", expr(*a[0]), expr(*a[1]));
    case Op::Or:
      return fmt::format("({} || {})", expr(*a[0]), expr(*a[1]));
    case Op::If:
      return fmt::format("({} ? {} : {})", expr(*a[0]), expr_as(*a[1], *e.type),
                         expr_as(*a[2], *e.type));
    case Op::In:
      return in(e);
    case Op::Union:
    case Op::Diff:
    case Op::Inter:
      return set_op(e);
    case Op::SetLit:
      return set_literal(e);
    case Op::RangeSet:
      return range_set(e);
    case Op::ListLit: {
      std::vector<std::string> body = {fmt::format("{} out{{}};", names_.cpp_type(*e.type))};
      for (const auto& x : a) body.push_back(fmt::format("out.push({});", expr(*x)));
      body.push_back("return out;");
      return names_.lambda(names_.cpp_type(*e.type), body);
    }
    case Op::RecordLit:
      return record_literal(e);
    case Op::Field:
      return field(e);
    case Op::At:
      return at(e);
    case Op::All:
    case Op::Some:
    case Op::No:
    case Op::Count:
    case Op::Sum:
    case Op::Max:
    case Op::Min:
    case Op::Filter:
      return quantifier(e);
    case Op::Builtin:
      return builtin(e);
    case Op::Call:
      return call(e);
    case Op::Can: {
      // A player value is a player: only another argument is checked (where the move is,
      // as the interpreter reports it).
      const ir::Type* t = a[0]->type.get();
      const bool player = t && is_scalar(*t) && t->domain == ir::kPlayerDomain &&
                          names_.identity_domain(ir::kPlayerDomain);
      return fmt::format("{}_{}(g, {})", player ? "can" : "cancheck", names_.move_name(e.move), expr(*a[0]));
    }
  }
  return "0";
}

// ---------------------------------------------------------------- state reads

bool ExprEmitter::holds_none(const ir::Expr& e) const {
  return e.type && run_errors::holds_none(program_.domains, *e.type);
}

std::string ExprEmitter::checked_index(int d, const ir::Expr& v, dsl::Span span, const std::string& what) {
  if (v.type && is_scalar(*v.type) && v.type->domain == d && names_.identity_domain(d) &&
      names_.dom(d).kind != ir::Domain::Kind::Record) {
    return expr(v);  // a value of the domain itself is its own index
  }
  if (v.op == Op::Const) {
    const int64_t i = ir::domain_index(program_.domains, d, v.value);
    if (i >= 0) return std::to_string(i);
  }
  return fmt::format("chk_d{}({}, {}, {}{})", d, expr(v), names_.where(span), names_.quote(what),
                     holds_none(v) ? ", true" : "");
}

std::string ExprEmitter::read(const ir::Expr& e) {
  const ir::StateVar& V = program_.vars[size_t(e.var)];
  std::vector<const ir::Expr*> keys;
  for (const auto& k : e.args) keys.push_back(k.get());
  if (keys.size() == V.keys.size()) {
    return stmts_.element_value(e.var, stmts_.element(e.var, stmts_.element_index(e.var, keys, e.span)));
  }
  // A whole set or sequence (or the rest of a map after some keys).
  const size_t rest = V.keys.size() - keys.size();
  if (rest != 1) {
    s_.errors_.push_back(fmt::format("{}: a map read with {} keys missing", names_.where_text(e.span), rest));
    return "0";
  }
  const int last = V.keys.back();
  const uint32_t n = names_.dom(last).size;
  std::string base =
      keys.empty()
          ? "0"
          : fmt::format("{} * {}", names_.paren(stmts_.element_index(e.var, keys, e.span)), n);
  if (is_set(*e.type)) {
    const int pv = s_.plane_of_var_.empty() ? -1 : s_.plane_of_var_[size_t(e.var)];
    if (pv >= 0 && keys.empty() && names_.dom(V.domain).kind == ir::Domain::Kind::Bool) {
      return masks_.plane_ref(e.var, "1");
    }
    std::vector<std::string> body = {
        fmt::format("Bits<{}> out{{}};", names_.words(last)),
        fmt::format("const Int base = {};", base),
        fmt::format("for (Int i = 0; i < {}; ++i) {{", n),
        fmt::format("  if (g.s.{}[base + i]) out.set(i);", names_.field_name(e.var)),
        "}",
        "return out;"};
    return names_.lambda(names_.cpp_type(*e.type), body);
  }
  std::vector<std::string> body = {
      fmt::format("{} out{{}};", names_.cpp_type(*e.type)),
      fmt::format("const Int base = {};", base),
      fmt::format("for (Int i = 0; i < {}; ++i) out.push({});", n,
                  stmts_.element_value(e.var, fmt::format("g.s.{}[base + i]", names_.field_name(e.var)))),
      "return out;"};
  return names_.lambda(names_.cpp_type(*e.type), body);
}

// ---------------------------------------------------------------- operators

std::string ExprEmitter::compare(const ir::Expr& e) {
  const ir::Expr& l = *e.args[0];
  const ir::Expr& r = *e.args[1];
  const char* op = e.op == Op::Eq   ? "=="
                   : e.op == Op::Ne ? "!="
                   : e.op == Op::Lt ? "<"
                   : e.op == Op::Le ? "<="
                   : e.op == Op::Gt ? ">"
                                    : ">=";
  if ((e.op == Op::Eq || e.op == Op::Ne) && (is_set(*l.type) || is_list(*l.type))) {
    const std::string same = fmt::format("({} == {})", expr(l), expr_as(r, *l.type));
    return e.op == Op::Ne ? "(!" + same + ")" : same;
  }
  if (e.op == Op::Eq || e.op == Op::Ne) {
    // A stored element against a constant compares indices: no conversion of the element.
    const ir::Expr* read = l.op == Op::Read ? &l : r.op == Op::Read ? &r : nullptr;
    const ir::Expr* other = read == &l ? &r : &l;
    if (read && is_scalar(*read->type)) {
      const ir::StateVar& V = program_.vars[size_t(read->var)];
      std::vector<const ir::Expr*> keys;
      for (const auto& k : read->args) keys.push_back(k.get());
      if (read->args.size() == V.keys.size() && other->op == Op::Const) {
        const int64_t i = ir::domain_index(program_.domains, V.domain, other->value);
        if (i >= 0) {
          return fmt::format("({} {} {})", stmts_.element(read->var, stmts_.element_index(read->var, keys, read->span)),
                             op, i);
        }
      }
      // Against a value of the element's domain (or of the inner domain of an optional
      // one, never none), indices compare as well: the index is the value (plus one).
      const int vd = other->type ? other->type->domain : -1;
      const ir::Domain& D = names_.dom(V.domain);
      if (read->args.size() == V.keys.size() && other->op != Op::Const && vd >= 0 &&
          names_.identity_domain(vd) && D.kind != ir::Domain::Kind::Record) {
        const std::string elem = stmts_.element(read->var, stmts_.element_index(read->var, keys, read->span));
        if (vd == V.domain) return fmt::format("(Int({}) {} {})", elem, op, expr(*other));
        if (D.kind == ir::Domain::Kind::Optional && D.inner == vd)
          return fmt::format("(Int({}) {} {} + 1)", elem, op, expr(*other));
      }
    }
  }
  return fmt::format("({} {} {})", expr(l), op, expr(r));
}

std::string ExprEmitter::in(const ir::Expr& e) {
  const ir::Expr& x = *e.args[0];
  const ir::Expr& s = *e.args[1];
  if (is_list(*s.type)) {
    return fmt::format("{}.contains({})", names_.paren(expr(s)), expr(x));
  }
  const int d = s.type->domain;
  if (d < 0) return "false";
  // Membership needs the element's index; a value outside the domain (or none) is not in.
  std::string index;
  if (x.type && is_scalar(*x.type) && x.type->domain == d && names_.identity_domain(d)) {
    index = expr(x);
    if (s.op == Op::Builtin || s.op == Op::ConstSet || s.op == Op::Read || s.op == Op::Call ||
        s.op == Op::At || s.op == Op::Local) {
      return fmt::format("{}.has({})", names_.paren(expr(s)), index);
    }
    return fmt::format("{}.has({})", names_.paren(expr(s)), index);
  }
  if (x.op == Op::Const) {
    const int64_t i = ir::domain_index(program_.domains, d, x.value);
    if (i < 0) return "false";
    return fmt::format("{}.has({})", names_.paren(expr(s)), i);
  }
  return fmt::format("in_set(idx_d{}({}), {})", d, expr(x), expr(s));
}

std::string ExprEmitter::set_op(const ir::Expr& e) {
  const ir::Expr& l = *e.args[0];
  const ir::Expr& r = *e.args[1];
  if (is_list(*e.type)) {
    const char* fn = e.op == Op::Union ? "list_union" : e.op == Op::Diff ? "list_diff" : "list_inter";
    return fmt::format("{}({}, {})", fn, expr_as(l, *e.type), expr_as(r, *e.type));
  }
  const char* op = e.op == Op::Union || e.op == Op::Add ? "|"
                   : e.op == Op::Diff || e.op == Op::Sub ? "-"
                                                         : "&";
  return fmt::format("({} {} {})", expr_as(l, *e.type), op,
                     expr_as(r, *e.type, e.op == Op::Union || e.op == Op::Add));
}

std::string ExprEmitter::set_literal(const ir::Expr& e) {
  std::vector<std::string> body;
  if (is_list(*e.type)) {
    // A set of sets: its elements in order, each once.
    body.push_back(fmt::format("{} out{{}};", names_.cpp_type(*e.type)));
    for (const auto& x : e.args) {
      body.push_back(fmt::format("{{ const auto x = {}; if (!out.contains(x)) out.push(x); }}",
                                 expr_as(*x, *e.type->elem)));
    }
    body.push_back("return out;");
    return names_.lambda(names_.cpp_type(*e.type), body);
  }
  const int d = e.type->domain;
  body.push_back(fmt::format("Bits<{}> out{{}};", names_.words(d)));
  for (const auto& x : e.args) {
    body.push_back(fmt::format(
        "out.set({});",
        checked_index(d, *x, x->span,
                      run_errors::element_outside(run_errors::kHole1, names_.dom(d).name))));
  }
  body.push_back("return out;");
  return names_.lambda(names_.cpp_type(*e.type), body);
}

std::string ExprEmitter::range_set(const ir::Expr& e) {
  const int d = e.type->domain;
  std::vector<std::string> body = {
      fmt::format("Bits<{}> out{{}};", names_.words(d)),
      fmt::format("const Int hi = {};", expr(*e.args[1])),
      fmt::format(
          "for (Int v = {}; v <= hi; ++v) out.set(chk_d{}(v, {}, {}));", expr(*e.args[0]), d,
          names_.where(e.span),
          names_.quote(run_errors::range_element_outside(run_errors::kHole1, names_.dom(d).name))),
      "return out;"};
  return names_.lambda(names_.cpp_type(*e.type), body);
}

std::string ExprEmitter::record_literal(const ir::Expr& e) {
  const int d = e.type->domain;
  const ir::Domain& D = names_.dom(d);
  std::string sum;
  for (size_t f = 0; f < e.args.size() && f < D.fields.size(); ++f) {
    std::string term = checked_index(D.fields[f], *e.args[f], e.args[f]->span,
                                     run_errors::field_value_outside(run_errors::kHole1, names_.dom(D.fields[f]).name,
                                                                     D.field_names[f], D.name));
    if (D.strides[f] != 1) term = fmt::format("{} * {}", names_.paren(term), D.strides[f]);
    sum += (sum.empty() ? "" : " + ") + term;
  }
  return sum.empty() ? "Int(0)" : "Int(" + sum + ")";
}

std::string ExprEmitter::field(const ir::Expr& e) {
  const ir::Expr& r = *e.args[0];
  int d = r.type->domain;
  const bool optional = d >= 0 && names_.dom(d).kind == ir::Domain::Kind::Optional;
  if (optional) d = names_.dom(d).inner;
  if (d < 0 || names_.dom(d).kind != ir::Domain::Kind::Record) {
    s_.errors_.push_back(fmt::format("{}: a field of a value that is no record", names_.where_text(e.span)));
    return "0";
  }
  const ir::Domain& D = names_.dom(d);
  const size_t f = size_t(e.field);
  const int fd = D.fields[f];
  std::string idx = fmt::format("field_index({}, {}, {}, {}, {})", expr(r), D.strides[f], names_.dom(fd).size,
                                names_.where(e.span), names_.quote(run_errors::field_of_none(D.field_names[f])));
  return names_.identity_domain(fd) ? idx : fmt::format("val_d{}({})", fd, idx);
}

std::string ExprEmitter::at(const ir::Expr& e) {
  const ir::Expr& list = *e.args[0];
  const ir::Expr& key = *e.args[1];
  const std::string index_text = names_.quote(run_errors::index_outside(run_errors::kHole1, run_errors::kHole2));
  if (list.op == Op::ConstList) {
    const std::string table = constant_table(list);
    const size_t n = list.args.size();
    // A key known to lie in the table needs no check: a cell into a table over cells.
    if (key.type && is_scalar(*key.type) && key.type->domain >= 0 &&
        names_.identity_domain(key.type->domain) && names_.dom(key.type->domain).size <= n) {
      return fmt::format("{}[{}]", table, expr(key));
    }
    return fmt::format("{}[at_index({}, {}, {}, {})]", table, expr(key), n, names_.where(e.span), index_text);
  }
  const std::string l = expr(list);
  return fmt::format("list_at({}, {}, {}, {})", l, expr(key), names_.where(e.span), index_text);
}

}  // namespace rulebook::compiler::emit
