// The checker's expression pass: the types of expressions (scopes, symbols and type
// expressions are in check_scope.cpp; statements and constants in check_stmt.cpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include <fmt/format.h>

#include "dsl/check_internal.h"

namespace rulebook::dsl {

namespace {

std::string arguments(const std::string& count) {
  return count == "1" ? "1 argument" : count + " arguments";
}


using Bindings = std::map<std::string, TypeRef>;

// Does an argument of type `arg` fit parameter `param`, binding type variables?
bool match(const TypeRef& param, const TypeRef& arg, Bindings& b) {
  if (is_error(arg)) return true;
  if (param->is(TypeTag::Var)) {
    auto it = b.find(param->name);
    if (it == b.end()) {
      b[param->name] = arg;
      return true;
    }
    TypeRef j = join(it->second, arg);
    if (!j) return false;
    it->second = j;
    return true;
  }
  if ((param->is(TypeTag::Set) || param->is(TypeTag::Seq)) && arg->tag == param->tag)
    return match(param->elem(), arg->elem(), b);
  if (param->is(TypeTag::Seq) && arg->is(TypeTag::Tuple)) {
    return std::all_of(arg->elems.begin(), arg->elems.end(),
                       [&](const TypeRef& e) { return match(param->elem(), e, b); });
  }
  if (param->is(TypeTag::Map) && arg->is(TypeTag::Map))
    return match(param->key(), arg->key(), b) && match(param->value(), arg->value(), b);
  return assignable(arg, param);
}

TypeRef substitute(const TypeRef& t, const Bindings& b) {
  if (t->is(TypeTag::Var)) {
    auto it = b.find(t->name);
    return it == b.end() ? any_type() : it->second;
  }
  if (t->elems.empty() && !t->result) return t;
  auto copy = std::make_shared<Type>(*t);
  for (auto& e : copy->elems) e = substitute(e, b);
  if (copy->result) copy->result = substitute(copy->result, b);
  return copy;
}


}  // namespace

// ------------------------------------------------------------------ expressions

TypeRef Checker::expect(const Expr& e, const TypeRef& want) {
  TypeRef t = check(e, want);
  if (is_error(t) || is_error(want)) return t;
  if (!assignable(t, want)) {
    auto& d = error(e.span, fmt::format("expected {}, found {}", to_string(want), to_string(t)));
    // A `T?` where a T is needed (a map key from `cell(y, x)`): nothing narrows it after a
    // test with none, so the way is to bind the T it holds.
    if (want->is(TypeTag::Map) && assignable(t, want->value()))
      // One value where a map needs one per key (`state stock: Player -> 0..4 = 4;`).
      d.hint = fmt::format("a {} holds a value for every key; to start every key at the same value, "
                           "assign it in 'init {{ for k in {} {{ NAME[k] := ...; }} }}'{}",
                           to_string(want),
                           want->key()->is(TypeTag::Cell)                               ? "cells"
                           : want->key()->is(TypeTag::Player)                           ? "players"
                           : want->key()->is(TypeTag::Int) && want->key()->has_range ? to_string(want->key())
                                                                                        : "KEYS",
                           want->key()->is(TypeTag::Cell) ? ", or write the board as a grid" : "");
    else if (t->is(TypeTag::Optional) && assignable(strip_optional(t), want))
      d.hint = want->is(TypeTag::Cell)
                   ? "a Cell? may be none: bind the cell it holds, as in 'some d in cells where d == cell(y, x): owner[d] == p'"
                   : fmt::format("a {} may be none: bind the {} it holds with a quantifier, "
                                 "'some v in VALUES where v == ...: ...'",
                                 to_string(t), to_string(want));
  } else if (want->is(TypeTag::Int) && want->has_range) {
    if (auto v = eval(e); v && (*v < want->lo || *v > want->hi))
      error(e.span, fmt::format("{} is outside {}", *v, to_string(want)));
  }
  return t;
}

TypeRef Checker::numeric(const Expr& e) {
  TypeRef t = check(e);
  if (is_error(t)) return error_type();
  if (!is_int(t)) {
    error(e.span, fmt::format("expected int, found {}", to_string(t)));
    return error_type();
  }
  return int_type();
}

TypeRef Checker::check(const Expr& e, const TypeRef& expected) {
  TypeRef t;
  const TypeRef inner = expected ? element_type(strip_optional(expected)) : nullptr;
  switch (e.kind) {
    case ExprKind::Int:
      t = int_type();
      break;
    case ExprKind::String:
      t = string_type();
      break;
    case ExprKind::Bool:
      t = bool_type();
      break;
    case ExprKind::None:
      t = none_type();
      break;
    case ExprKind::Name:
      t = check_name(e);
      break;
    case ExprKind::Call:
      t = check_call(e);
      break;
    case ExprKind::Index: {
      // Indexing a `T?` reads the value (it is meant to be compared with none first).
      TypeRef base = strip_optional(check(*e.args[0]));
      const Expr& index = *e.args[1];
      if (is_error(base)) {
        check(index);
        t = error_type();
      } else if (base->is(TypeTag::Map)) {
        expect(index, base->key());
        t = base->value();
      } else if (base->is(TypeTag::Seq) || base->is(TypeTag::Tuple)) {
        numeric(index);
        t = element_type(base);
        if (base->is(TypeTag::Tuple)) {
          if (auto i = eval(index); i && *i >= 0 && size_t(*i) < base->elems.size())
            t = base->elems[size_t(*i)];
        }
      } else {
        check(index);
        error(e.args[0]->span, fmt::format("cannot index a value of type {}", to_string(base)))
            .hint = "only maps and sequences can be indexed";
        t = error_type();
      }
      break;
    }
    case ExprKind::Field: {
      // A field of a `T?` is the field of the value: `if s == none then 0 else s.number`.
      TypeRef base = strip_optional(check(*e.args[0]));
      t = error_type();
      if (is_error(base)) break;
      if (!base->is(TypeTag::Record)) {
        error(e.ident.span, fmt::format("cannot take field '{}' of a value of type {}",
                                        e.ident.name, to_string(base)));
        break;
      }
      auto it = std::find(base->members.begin(), base->members.end(), e.ident.name);
      if (it == base->members.end()) {
        error(e.ident.span, fmt::format("no field '{}' in {}", e.ident.name, to_string(base)))
            .hint = did_you_mean(e.ident.name, base->members);
        break;
      }
      t = base->elems[size_t(it - base->members.begin())];
      break;
    }
    case ExprKind::Unary:
      if (e.op == Op::Not) {
        expect_bool(*e.args[0]);
        t = bool_type();
      } else {
        t = numeric(*e.args[0]);
      }
      break;
    case ExprKind::Binary:
      t = check_binary(e);
      break;
    case ExprKind::If: {
      expect_bool(*e.args[0]);
      TypeRef a = check(*e.args[1], expected);
      TypeRef b = check(*e.args[2], expected);
      t = join(a, b);
      if (!t) {
        error(e.span, fmt::format("the branches of 'if' have different types: {} and {}",
                                  to_string(a), to_string(b)));
        t = error_type();
      }
      break;
    }
    case ExprKind::Quant:
    case ExprKind::Aggregate:
    case ExprKind::SetFilter:
      t = check_binders(e);
      break;
    case ExprKind::SetLit: {
      TypeRef elem = inner ? inner : any_type();
      if (!e.args.empty()) elem = check(*e.args[0], inner);
      for (size_t i = 1; i < e.args.size(); ++i) {
        TypeRef x = check(*e.args[i], inner);
        TypeRef j = join(elem, x);
        if (!j) {
          error(e.args[i]->span, fmt::format("expected {}, found {}", to_string(elem), to_string(x)))
              .hint = "the elements of a set have one type";
          elem = error_type();
        } else {
          elem = j;
        }
      }
      t = set_of(elem);
      break;
    }
    case ExprKind::RecordLit: {
      std::vector<std::string> names;
      std::vector<TypeRef> types;
      for (size_t i = 0; i < e.fields.size(); ++i) {
        if (std::find(names.begin(), names.end(), e.fields[i].name) != names.end())
          error(e.fields[i].span, fmt::format("field '{}' is given twice", e.fields[i].name));
        names.push_back(e.fields[i].name);
        TypeRef want;
        if (expected && expected->is(TypeTag::Record)) {
          auto it = std::find(expected->members.begin(), expected->members.end(), e.fields[i].name);
          if (it != expected->members.end())
            want = expected->elems[size_t(it - expected->members.begin())];
        }
        types.push_back(check(*e.args[i], want));
      }
      t = record_type(std::move(names), std::move(types));
      break;
    }
    case ExprKind::SeqLit: {
      std::vector<TypeRef> types;
      TypeRef elem = inner ? inner : any_type();
      bool same = true;
      for (const auto& a : e.args) {
        types.push_back(check(*a, inner));
        TypeRef j = join(elem, types.back());
        if (j) elem = j;
        else same = false;
      }
      t = same ? seq_of(elem) : tuple_of(std::move(types));
      break;
    }
    case ExprKind::Grid:
      t = check_grid(e, expected);
      break;
    case ExprKind::Comprehension:
      t = check_comprehension(e, expected);
      break;
  }
  if (is_int(t)) check_arith(e);
  return record(e, t);
}

TypeRef Checker::check_name(const Expr& e) {
  const Symbol* found = lookup(e.ident.name);
  if (!found) {
    unknown_name(e.ident.name, e.ident.span);
    return error_type();
  }
  Symbol& s = const_cast<Symbol&>(*found);  // owned by the game; filled in on demand
  game_.referents.emplace(&e, &s);
  switch (s.kind) {
    case NameKind::Param:
      ensure_param(s, e.span);
      note_use(s, Time::Constant, false, e.span);
      return s.type;
    case NameKind::State:
      ensure_typed(s);
      note_use(s, Time::Play, false, e.span);
      return s.type;
    case NameKind::Setup:
      ensure_typed(s);
      note_use(s, Time::Setup, false, e.span);
      return s.type;
    case NameKind::Define: {
      ensure_define(s, e.span);
      const DefineInfo& info = defines_[&s];
      note_use(s, info.time, info.mover, e.span);
      if (!s.type) return error_type();
      if (std::get<Define>(s.decl->body).has_params) {
        size_t n = std::get<Define>(s.decl->body).params.size();
        error(e.span, fmt::format("'{}' takes {}; call it as {}(...)", s.name,
                                  arguments(std::to_string(n)), s.name));
        return error_type();
      }
      return s.type;
    }
    case NameKind::Builtin: {
      const Builtin& b = *s.builtin;
      if (b.is_function) {
        error(e.span, fmt::format("'{}' is a function; call it with {}", s.name,
                                  arguments(arity_text(b))));
        return error_type();
      }
      note_use(s, b.time == BuiltinTime::Constant ? Time::Constant : Time::Play,
               b.time == BuiltinTime::Mover, e.span);
      return b.signatures[0];
    }
    case NameKind::MoveParam:
    case NameKind::RuleParam:
      time_ = Time::Play;
      return s.type;
    default:
      return s.type ? s.type : error_type();
  }
}

TypeRef Checker::check_call(const Expr& e) {
  const Expr& callee = *e.args[0];
  const size_t n = e.args.size() - 1;
  auto check_args = [&] {
    for (size_t i = 1; i < e.args.size(); ++i) check(*e.args[i]);
  };
  if (callee.kind != ExprKind::Name) {
    TypeRef t = check(callee);
    check_args();
    if (!is_error(t)) error(callee.span, "this expression is not a function");
    return error_type();
  }
  const Symbol* found = lookup(callee.ident.name);
  if (!found) {
    unknown_name(callee.ident.name, callee.ident.span);
    check_args();
    return error_type();
  }
  Symbol& s = const_cast<Symbol&>(*found);
  game_.referents.emplace(&callee, &s);
  switch (s.kind) {
    case NameKind::Builtin:
      if (s.builtin->is_function) return check_builtin_call(e, *s.builtin);
      break;
    case NameKind::Define: {
      ensure_define(s, callee.span);
      const DefineInfo& info = defines_[&s];
      note_use(s, info.time, info.mover, callee.span);
      const Define& d = std::get<Define>(s.decl->body);
      if (!d.has_params) break;
      record(callee, s.type);
      if (!s.type || is_error(s.type) || !s.type->is(TypeTag::Function)) {
        check_args();
        return error_type();
      }
      if (n != d.params.size()) {
        error(e.span, fmt::format("'{}' takes {}, {} given", s.name,
                                  arguments(std::to_string(d.params.size())), n));
        check_args();
        return s.type->result;
      }
      for (size_t i = 0; i < n; ++i) expect(*e.args[i + 1], s.type->elems[i]);
      return s.type->result;
    }
    case NameKind::Region:
      record(callee, region_function_type());
      if (n != 1) {
        error(e.span, fmt::format("'{}' takes 1 argument, {} given", s.name, n));
        check_args();
      } else {
        expect(*e.args[1], cell_type());
      }
      return set_of(cell_type());
    default:
      break;
  }
  auto& d = error(callee.span, fmt::format("'{}' is not a function", s.name));
  if (s.type && s.type->is(TypeTag::Map))
    d.hint = fmt::format("'{}' is a map: index it with {}[...]", s.name, s.name);
  else if (s.kind == NameKind::Define)
    d.hint = fmt::format("'{}' is a define without parameters: write '{}'", s.name, s.name);
  check_args();
  return error_type();
}

TypeRef Checker::check_builtin_call(const Expr& e, const Builtin& b) {
  const Expr& callee = *e.args[0];
  const size_t n = e.args.size() - 1;
  const bool needs_mover = b.id == BuiltinId::Can && n == 1;
  const Symbol& sym = *lookup(std::string(b.name));
  note_use(sym, b.time == BuiltinTime::Constant ? Time::Constant : Time::Play, needs_mover,
           callee.span);

  std::vector<TypeRef> candidates;
  for (const auto& sig : b.signatures)
    if (sig->elems.size() == n) candidates.push_back(sig);
  if (candidates.empty()) {
    error(e.span, fmt::format("'{}' takes {}, {} given", b.name, arguments(arity_text(b)), n));
    for (size_t i = 1; i < e.args.size(); ++i) check(*e.args[i]);
    return b.signatures.size() == 1 ? b.signatures[0]->result : error_type();
  }

  std::vector<TypeRef> args;
  for (size_t i = 1; i < e.args.size(); ++i) {
    const Expr& a = *e.args[i];
    // can(m): the first argument names a move, not a value.
    if (b.id == BuiltinId::Can && i == 1 && a.kind == ExprKind::Name) {
      auto m = std::find_if(move_symbols_.begin(), move_symbols_.end(),
                            [&](const Symbol* s) { return s->name == a.ident.name; });
      if (m != move_symbols_.end()) {
        game_.referents.emplace(&a, *m);
        args.push_back(record(a, move_type()));
        continue;
      }
      unknown("move", a.ident.name, a.span, move_names());
      args.push_back(record(a, error_type()));
      continue;
    }
    args.push_back(check(a));
  }

  for (const auto& sig : candidates) {
    Bindings bound;
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i) ok = match(sig->elems[i], args[i], bound);
    if (!ok) continue;
    record(callee, substitute(sig, bound));
    return substitute(sig->result, bound);
  }
  // No overload fits: point at the first argument that no overload accepts.
  for (size_t i = 0; i < n; ++i) {
    std::vector<std::string> wanted;
    bool fits = false;
    for (const auto& sig : candidates) {
      Bindings bound;
      if (match(sig->elems[i], args[i], bound)) fits = true;
      std::string w = to_string(sig->elems[i]);
      if (std::find(wanted.begin(), wanted.end(), w) == wanted.end()) wanted.push_back(w);
    }
    if (fits) continue;
    std::string list;
    for (size_t k = 0; k < wanted.size(); ++k)
      list += (k == 0 ? "" : k + 1 == wanted.size() ? " or " : ", ") + wanted[k];
    error(e.args[i + 1]->span, fmt::format("expected {}, found {}", list, to_string(args[i])));
    break;
  }
  return error_type();
}

TypeRef Checker::check_binary(const Expr& e) {
  const Expr& l = *e.args[0];
  const Expr& r = *e.args[1];
  switch (e.op) {
    case Op::Or:
    case Op::And:
      expect_bool(l);
      expect_bool(r);
      return bool_type();
    case Op::Eq:
    case Op::Ne: {
      TypeRef a = check(l);
      TypeRef b = check(r, a);
      if (!is_error(a) && !is_error(b) && !join(a, b))
        error(e.span, fmt::format("cannot compare {} with {}", to_string(a), to_string(b)));
      return bool_type();
    }
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      numeric(l);
      numeric(r);
      return bool_type();
    case Op::In:
    case Op::NotIn: {
      TypeRef a = check(l);
      TypeRef b = check(r);
      if (is_error(a) || is_error(b)) return bool_type();
      TypeRef elem = element_type(b);
      if (!elem) {
        error(r.span, fmt::format("expected a set, a sequence or a map, found {}", to_string(b)));
      } else if (!join(a, elem)) {
        error(e.span, fmt::format("cannot look for {} in {}", to_string(a), to_string(b)));
      }
      return bool_type();
    }
    case Op::Range: {
      TypeRef a = numeric(l);
      TypeRef b = numeric(r);
      if (is_error(a) || is_error(b)) return error_type();
      auto lo = eval(l), hi = eval(r);
      return set_of(lo && hi && *lo <= *hi ? range_type(*lo, *hi) : int_type());
    }
    case Op::Add:
    case Op::Sub:
    case Op::Inter: {
      TypeRef a = check(l);
      TypeRef b = check(r, a);
      if (is_error(a) || is_error(b)) return error_type();
      if (e.op != Op::Inter && is_int(a)) {
        if (is_int(b)) return int_type();
        error(r.span, fmt::format("expected int, found {}", to_string(b)));
        return error_type();
      }
      if (a->is(TypeTag::Set)) {
        TypeRef j = b->is(TypeTag::Set) ? join(a, b) : nullptr;
        if (j) return j;
        auto& d = error(r.span, fmt::format("expected {}, found {}", to_string(a), to_string(b)));
        if (assignable(b, a->elem())) d.hint = "write a set: { ... }";
        return error_type();
      }
      error(l.span, fmt::format("expected {}, found {}", e.op == Op::Inter ? "a set" : "int or a set",
                                to_string(a)));
      return error_type();
    }
    case Op::Mul: case Op::Div: case Op::Mod: {
      TypeRef a = numeric(l);
      TypeRef b = numeric(r);
      return is_error(a) || is_error(b) ? error_type() : int_type();
    }
    default:
      return error_type();
  }
}

void Checker::bind(const std::vector<Binding>& binders, const ExprPtr& where) {
  for (const Binding& b : binders) {
    TypeRef domain = check(*b.domain);
    TypeRef elem = element_type(domain);
    if (!elem) {
      error(b.domain->span, fmt::format("cannot iterate over a value of type {}", to_string(domain)))
          .hint = "a binder ranges over a set, a sequence or the keys of a map";
      elem = error_type();
    }
    Symbol s;
    s.name = b.var.name;
    s.kind = NameKind::Binder;
    s.type = elem;
    s.span = b.var.span;
    s.binding = &b;
    declare_local(std::move(s));
  }
  if (where) expect_bool(*where);
}

TypeRef Checker::check_binders(const Expr& e) {
  push_scope();
  bind(e.binders, e.where);
  TypeRef t;
  if (e.kind == ExprKind::Quant) {
    expect_bool(*e.args[0]);
    t = bool_type();
  } else if (e.kind == ExprKind::SetFilter) {
    expect_bool(*e.args[0]);
    t = set_of(scopes_.back().empty() ? error_type() : scopes_.back().front()->type);
  } else if (e.agg == AggregateKind::Count) {
    t = int_type();
  } else {
    t = e.args.empty() ? error_type() : numeric(*e.args[0]);
  }
  pop_scope();
  return t;
}

void Checker::check_grid_shape(const Expr& e) {
  const GridLit& g = e.grid;
  if (!game_.rows || !game_.columns) return;
  if (static_cast<int64_t>(g.rows.size()) != *game_.rows) {
    error(e.span, fmt::format("the grid has {} rows, the board has {}", g.rows.size(), *game_.rows));
  }
  for (size_t i = 0; i < g.rows.size(); ++i) {
    if (static_cast<int64_t>(g.rows[i].size()) == *game_.columns) continue;
    Span span = i < g.row_spans.size() ? g.row_spans[i] : e.span;
    error(span, fmt::format("row {} of the grid has {} columns, the board has {}", i + 1,
                            g.rows[i].size(), *game_.columns));
  }
}

TypeRef Checker::check_grid(const Expr& e, const TypeRef& expected) {
  const GridLit& g = e.grid;
  const TypeRef want = expected && expected->is(TypeTag::Map) ? expected->value() : nullptr;
  std::map<char, Span> keyed;
  TypeRef value;
  for (const GridKey& k : g.keys) {
    TypeRef t = check(*k.value, want ? strip_optional(want) : nullptr);
    for (char c : k.key) {
      if (!keyed.emplace(c, k.span).second)
        error(k.span, fmt::format("'{}' is mapped twice", std::string(1, c)));
    }
    if (!value) {
      value = t;
    } else if (TypeRef j = join(value, t)) {
      value = j;
    } else {
      error(k.value->span, fmt::format("expected {}, found {}", to_string(value), to_string(t)))
          .hint = "every value of a grid has one type";
      value = error_type();
    }
  }
  check_grid_shape(e);
  bool digits = false, dots = false;
  std::string reported;
  for (size_t i = 0; i < g.rows.size(); ++i) {
    const std::string& row = g.rows[i];
    for (size_t j = 0; j < row.size(); ++j) {
      char c = row[j];
      if (keyed.count(c)) continue;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        digits = true;
      } else if (c == '.') {
        dots = true;
      } else if (reported.find(c) == std::string::npos) {
        reported += c;
        Span span = i < g.row_spans.size() ? g.row_spans[i] : e.span;
        if (span.end - span.begin == row.size() + 2) {
          span.begin += static_cast<uint32_t>(j + 1);
          span.end = span.begin + 1;
        }
        std::string ch(1, c);
        error(span, fmt::format("unknown character '{}' in the grid", ch)).hint =
            fmt::format("map it with 'with {{ {} = ... }}'", std::isalpha(static_cast<unsigned char>(c))
                                                                  ? ch
                                                                  : "\"" + ch + "\"");
      }
    }
  }
  if (digits) {
    TypeRef j = value ? join(value, int_type()) : int_type();
    if (!j) {
      error(e.span, fmt::format("digits in the grid are ints, but its 'with' values are {}",
                                to_string(value)));
      j = error_type();
    }
    value = j;
  }
  // '.' is none, or 0 in an int map.
  if (dots) {
    if (want && want->is(TypeTag::Optional))
      value = optional_of(value ? value : strip_optional(want));
    else if (!value || is_int(value))
      value = int_type();
    else
      value = optional_of(value);
  }
  if (!value) value = want ? want : int_type();
  // Where the declared type is known it decides the grid's type (and so what '.' means).
  if (want && assignable(value, want)) value = want;
  return map_of(cell_type(), value);
}

}  // namespace rulebook::dsl
