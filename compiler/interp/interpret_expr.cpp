// The interpreter's expressions: scalars, sets and lists, function calls and binders.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/interp/interpret_internal.h"
#include "compiler/ir/run_errors.h"
#include "dsl/integers.h"
#include "compiler/lower/lower_internal.h"

namespace rulebook::compiler::interp {

using ir::Op;

// ------------------------------------------------------------------ frames and state

size_t Run::push_frame(int locals) {
  size_t saved = base_;
  base_ = top_;
  top_ += size_t(locals);
  if (stack_.size() < top_) {
    if (top_ > 100000) m_.fail(p_.moves.empty() ? dsl::Span{} : p_.moves[0].span, "evaluation nests too deeply");
    stack_.resize(top_ + 64);
  }
  return saved;
}

size_t Run::reserve_frame(int locals) {
  const size_t frame = top_;
  top_ += size_t(locals);
  if (stack_.size() < top_) {
    if (top_ > 100000) m_.fail(dsl::Span{}, "evaluation nests too deeply");
    stack_.resize(top_ + 64);
  }
  return frame;
}

void Run::pop_frame(size_t saved, int locals) {
  top_ -= size_t(locals);
  base_ = saved;
}

int64_t Run::get(int var, int64_t i) const {
  const ir::StateVar& v = p_.vars[size_t(var)];
  return ir::domain_value(p_.domains, v.domain, ir::load_index(state_, v, uint32_t(i)));
}

void Run::put(int var, int64_t i, int64_t value) {
  const ir::StateVar& v = p_.vars[size_t(var)];
  ir::store_index(state_, v, uint32_t(i), uint32_t(ir::domain_index(p_.domains, v.domain, value)));
}

int64_t Run::element(const ir::StateVar& v, const std::vector<ir::ExprPtr>& keys, size_t n,
                     dsl::Span span) {
  int64_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    int d = v.keys[i];
    int64_t k = scalar(*keys[i]);
    int64_t idx = ir::domain_index(p_.domains, d, k);
    if (idx < 0)
      m_.fail(keys[i]->span, run_errors::key_outside(none_text(*keys[i], k), p_.domains[size_t(d)].name, v.name));
    at = at * m_.domain_size(d) + idx;
  }
  (void)span;
  return at;
}

Value Run::read(const ir::StateVar& v, int64_t base, size_t key) {
  Value out;
  if (key == v.keys.size()) {
    out.scalar = ir::domain_value(p_.domains, v.domain, ir::load_index(state_, v, uint32_t(base)));
    return out;
  }
  const uint32_t n = m_.domain_size(v.keys[key]);
  if (v.is_set && key + 1 == v.keys.size()) {
    out.set.assign(words(n), 0);
    for (uint32_t i = 0; i < n; ++i)
      if (ir::load_index(state_, v, uint32_t(base * n + i))) set_bit(out.set, i);
    return out;
  }
  for (uint32_t i = 0; i < n; ++i) out.list.push_back(read(v, base * n + i, key + 1));
  return out;
}

// ------------------------------------------------------------------ scalars

int64_t Run::scalar(const ir::Expr& e) {
  // The common operators stay in this small function; the rest live in helpers so that
  // this one keeps a small frame (it is the interpreter's innermost loop).
  const auto& a = e.args;
  switch (e.op) {
    case Op::Const:
      return e.value;
    case Op::Local:
      return local(e.slot).scalar;
    case Op::Read: {
      const ir::StateVar& v = p_.vars[size_t(e.var)];
      int64_t at = element(v, a, a.size(), e.span);
      return ir::domain_value(p_.domains, v.domain, ir::load_index(state_, v, uint32_t(at)));
    }
    case Op::Mover:
      return mover_;
    case Op::Phase:
      return get(ir::kVarPhase);
    case Op::Neg:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      return arith(e);
    case Op::Not:
      return !truth(*a[0]);
    case Op::Eq:
    case Op::Ne:
      if (a[0]->type->kind != ir::Type::Kind::Scalar) return compare(e);
      return (scalar(*a[0]) == scalar(*a[1])) == (e.op == Op::Eq);
    case Op::Lt: return scalar(*a[0]) < scalar(*a[1]);
    case Op::Le: return scalar(*a[0]) <= scalar(*a[1]);
    case Op::Gt: return scalar(*a[0]) > scalar(*a[1]);
    case Op::Ge: return scalar(*a[0]) >= scalar(*a[1]);
    case Op::And: return truth(*a[0]) && truth(*a[1]);
    case Op::Or: return truth(*a[0]) || truth(*a[1]);
    case Op::If: return truth(*a[0]) ? scalar(*a[1]) : scalar(*a[2]);
    case Op::In: return member(e);
    case Op::All:
    case Op::Some:
    case Op::No:
    case Op::Count:
    case Op::Sum:
    case Op::Max:
    case Op::Min:
      return aggregate(e);
    case Op::Builtin:
      return builtin_scalar(e);
    case Op::Call:
      return call_scalar(e);
    case Op::Can:
      return can(e.move, scalar(*a[0]));
    default:
      return scalar_rest(e);
  }
}

int64_t Run::compare(const ir::Expr& e) {
  const auto& a = e.args;
  bool eq;
  if (a[0]->type->kind == ir::Type::Kind::Set) {
    Bits x, y;
    set(*a[0], x);
    set_in(*a[1], a[0]->type->domain, y);
    eq = x == y;
  } else {
    eq = value(*a[0]) == value(*a[1]);
  }
  return eq == (e.op == Op::Eq);
}

int64_t Run::member(const ir::Expr& e) {
  const ir::Expr& s = *e.args[1];
  if (s.type->kind == ir::Type::Kind::List) {
    Value x = value(*e.args[0]);
    std::vector<Value> items = list(s);
    return std::find(items.begin(), items.end(), x) != items.end();
  }
  int64_t x = scalar(*e.args[0]);
  int64_t i = ir::domain_index(p_.domains, s.type->domain, x);
  if (i < 0) return 0;
  if (s.op == Op::ConstSet) return test(s.bits, i);
  if (s.op == Op::Read) {
    const ir::StateVar& v = p_.vars[size_t(s.var)];
    if (v.is_set && s.args.size() + 1 == v.keys.size()) {
      int64_t at = element(v, s.args, s.args.size(), s.span);
      return ir::load_index(state_, v, uint32_t(at * m_.domain_size(v.keys.back()) + i)) != 0;
    }
  }
  Bits b;
  set(s, b);
  return test(b, i);
}

int64_t Run::aggregate(const ir::Expr& e) {
  const auto& a = e.args;
  switch (e.op) {
    case Op::All:
    case Op::Some:
    case Op::No: {
      bool want = e.op == Op::All;
      bool result = want;
      each(*a[0], e.slot, [&] {
        if (a[1] && !truth(*a[1])) return true;
        if (truth(*a[2]) != want) {
          result = !want;
          return false;
        }
        return true;
      });
      return e.op == Op::No ? !result : result;
    }
    case Op::Count: {
      int64_t n = 0;
      each(*a[0], e.slot, [&] {
        if (!a[1] || truth(*a[1])) ++n;
        return true;
      });
      return n;
    }
    default: {
      int64_t acc = 0;
      bool any = false;
      each(*a[0], e.slot, [&] {
        if (a[1] && !truth(*a[1])) return true;
        int64_t v = scalar(*a[2]);
        if (e.op == Op::Sum) {
          if (const char* failure = integers::sum_step(acc, v, acc)) m_.fail(e.span, failure);
        }
        else if (!any) acc = v;
        else acc = e.op == Op::Max ? std::max(acc, v) : std::min(acc, v);
        any = true;
        return true;
      });
      if (!any && e.op != Op::Sum) m_.fail(e.span, run_errors::over_nothing(e.op == Op::Max ? "max" : "min"));
      return acc;
    }
  }
}

int64_t Run::arith(const ir::Expr& e) {
  // Checked as docs/semantics.md ("Integers") says, with the generated engines' texts.
  const auto& a = e.args;
  int64_t r = 0;
  const char* failure;
  if (e.op == Op::Neg) {
    failure = integers::neg(scalar(*a[0]), r);
  } else {
    const int64_t x = scalar(*a[0]), y = scalar(*a[1]);
    switch (e.op) {
      case Op::Add: failure = integers::add(x, y, r); break;
      case Op::Sub: failure = integers::sub(x, y, r); break;
      case Op::Mul: failure = integers::mul(x, y, r); break;
      case Op::Div: failure = integers::div(x, y, r); break;
      default: failure = integers::mod(x, y, r); break;
    }
  }
  if (failure) m_.fail(e.span, failure);
  return r;
}

int64_t Run::scalar_rest(const ir::Expr& e) {
  const auto& a = e.args;
  switch (e.op) {
    case Op::Div:
    case Op::Mod:
      return arith(e);
    case Op::RecordLit: {
      const ir::Domain& d = p_.domains[size_t(e.type->domain)];
      int64_t index = 0;
      for (size_t f = 0; f < a.size(); ++f) {
        int64_t v = scalar(*a[f]);
        int64_t i = ir::domain_index(p_.domains, d.fields[f], v);
        if (i < 0)
          m_.fail(a[f]->span, run_errors::field_value_outside(none_text(*a[f], v), p_.domains[size_t(d.fields[f])].name,
                                                              d.field_names[f], d.name));
        index += i * d.strides[f];
      }
      return index;
    }
    case Op::Field: {
      int64_t v = scalar(*a[0]);
      int d = a[0]->type->domain;
      if (p_.domains[size_t(d)].kind == ir::Domain::Kind::Optional) d = p_.domains[size_t(d)].inner;
      const ir::Domain& rd = p_.domains[size_t(d)];
      if (v == ir::kNone)
        m_.fail(e.span, run_errors::field_of_none(rd.field_names[size_t(e.field)]));
      int fd = rd.fields[size_t(e.field)];
      return ir::domain_value(p_.domains, fd, (v / rd.strides[size_t(e.field)]) % m_.domain_size(fd));
    }
    case Op::At: {
      int64_t i = scalar(*a[1]);
      if (a[0]->op == Op::ConstList) {
        if (i < 0 || size_t(i) >= a[0]->args.size())
          m_.fail(e.span, run_errors::index_outside(std::to_string(i), std::to_string(int64_t(a[0]->args.size()) - 1)));
        return scalar(*a[0]->args[size_t(i)]);
      }
      std::vector<Value> items = list(*a[0]);
      if (i < 0 || size_t(i) >= items.size())
        m_.fail(e.span, run_errors::index_outside(std::to_string(i), std::to_string(int64_t(items.size()) - 1)));
      return items[size_t(i)].scalar;
    }
    default:
      m_.fail(e.span, "internal error: not a number");
  }
}

// ------------------------------------------------------------------ sets

void Run::convert(const Bits& in, int from, int to, Bits& out, dsl::Span span, bool strict) {
  out.assign(words(m_.domain_size(to)), 0);
  for (size_t w = 0; w < in.size(); ++w) {
    for (uint64_t word = in[w]; word; word &= word - 1) {
      int64_t v = ir::domain_value(p_.domains, from, int64_t(w * 64 + size_t(__builtin_ctzll(word))));
      int64_t j = ir::domain_index(p_.domains, to, v);
      if (j >= 0) set_bit(out, j);
      else if (strict)
        m_.fail(span, run_errors::element_outside(run_errors::value_text(v, run_errors::may_be_none(p_.domains, from)),
                                                  p_.domains[size_t(to)].name));
    }
  }
}

void Run::set_in(const ir::Expr& e, int d, Bits& out) {
  if (e.type->domain == d || d < 0 || e.type->domain < 0) {
    set(e, out);
    return;
  }
  Bits tmp;
  set(e, tmp);
  convert(tmp, e.type->domain, d, out, e.span, false);
}

void Run::set(const ir::Expr& e, Bits& out) {
  const auto& a = e.args;
  const int d = e.type->domain;
  switch (e.op) {
    case Op::ConstSet:
      out = e.bits;
      return;
    case Op::Local:
      out = local(e.slot).set;
      return;
    case Op::Read: {
      const ir::StateVar& v = p_.vars[size_t(e.var)];
      out = read(v, element(v, a, a.size(), e.span), a.size()).set;
      return;
    }
    case Op::Union:
    case Op::Diff:
    case Op::Inter: {
      set_in(*a[0], d, out);
      Bits b;
      if (a[1]->type->domain == d || a[1]->type->domain < 0) {
        set(*a[1], b);
      } else {
        Bits tmp;
        set(*a[1], tmp);
        convert(tmp, a[1]->type->domain, d, b, e.span, e.op == Op::Union);
      }
      b.resize(out.size(), 0);
      for (size_t i = 0; i < out.size(); ++i)
        out[i] = e.op == Op::Union ? out[i] | b[i] : e.op == Op::Diff ? out[i] & ~b[i] : out[i] & b[i];
      return;
    }
    case Op::SetLit: {
      out.assign(words(m_.domain_size(d)), 0);
      for (const auto& x : a) {
        int64_t v = scalar(*x);
        int64_t i = ir::domain_index(p_.domains, d, v);
        if (i < 0) m_.fail(x->span, run_errors::element_outside(none_text(*x, v), p_.domains[size_t(d)].name));
        set_bit(out, i);
      }
      return;
    }
    case Op::RangeSet: {
      int64_t lo = scalar(*a[0]), hi = scalar(*a[1]);
      out.assign(words(m_.domain_size(d)), 0);
      for (int64_t v = lo; v <= hi; ++v) {
        int64_t i = ir::domain_index(p_.domains, d, v);
        if (i < 0) m_.fail(e.span, run_errors::range_element_outside(std::to_string(v), p_.domains[size_t(d)].name));
        set_bit(out, i);
      }
      return;
    }
    case Op::Filter: {
      Bits result(words(m_.domain_size(d)), 0);
      each(*a[0], e.slot, [&] {
        if (!truth(*a[1])) return true;
        int64_t i = ir::domain_index(p_.domains, d, local(e.slot).scalar);
        if (i >= 0) set_bit(result, i);
        return true;
      });
      out = std::move(result);
      return;
    }
    case Op::If:
      set_in(truth(*a[0]) ? *a[1] : *a[2], d, out);
      return;
    case Op::Builtin:
      builtin_set(e, out);
      return;
    case Op::Call:
      out = call(e).set;
      return;
    case Op::At: {
      int64_t i = scalar(*a[1]);
      if (a[0]->op == Op::ConstList) {
        if (i < 0 || size_t(i) >= a[0]->args.size())
          m_.fail(e.span, run_errors::index_outside(std::to_string(i), std::to_string(int64_t(a[0]->args.size()) - 1)));
        set(*a[0]->args[size_t(i)], out);
        return;
      }
      std::vector<Value> items = list(*a[0]);
      if (i < 0 || size_t(i) >= items.size())
        m_.fail(e.span, run_errors::index_outside(std::to_string(i), std::to_string(int64_t(items.size()) - 1)));
      out = std::move(items[size_t(i)].set);
      return;
    }
    default:
      m_.fail(e.span, "internal error: not a set");
  }
}

// ------------------------------------------------------------------ lists and values

std::vector<Value> Run::list(const ir::Expr& e) {
  const auto& a = e.args;
  switch (e.op) {
    case Op::ConstList:
    case Op::ListLit: {
      std::vector<Value> out;
      out.reserve(a.size());
      for (const auto& x : a) out.push_back(value(*x));
      return out;
    }
    case Op::SetLit: {
      std::vector<Value> out;
      for (const auto& x : a) {
        Value v = value(*x);
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(std::move(v));
      }
      return out;
    }
    case Op::Local:
      return local(e.slot).list;
    case Op::Read: {
      const ir::StateVar& v = p_.vars[size_t(e.var)];
      return read(v, element(v, a, a.size(), e.span), a.size()).list;
    }
    case Op::Filter: {
      std::vector<Value> out;
      each(*a[0], e.slot, [&] {
        if (truth(*a[1])) out.push_back(local(e.slot));
        return true;
      });
      return out;
    }
    case Op::Union:
    case Op::Diff:
    case Op::Inter: {
      std::vector<Value> x = list(*a[0]), y = list(*a[1]), out;
      auto in_y = [&](const Value& v) { return std::find(y.begin(), y.end(), v) != y.end(); };
      for (Value& v : x)
        if ((e.op == Op::Union) || (e.op == Op::Diff) != in_y(v)) out.push_back(std::move(v));
      if (e.op == Op::Union)
        for (Value& v : y)
          if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(std::move(v));
      return out;
    }
    case Op::If:
      return list(truth(*a[0]) ? *a[1] : *a[2]);
    case Op::Builtin:
      return builtin_list(e).list;
    case Op::Call:
      return call(e).list;
    case Op::At: {
      int64_t i = scalar(*a[1]);
      std::vector<Value> items = list(*a[0]);
      if (i < 0 || size_t(i) >= items.size())
        m_.fail(e.span, run_errors::index_outside(std::to_string(i), std::to_string(int64_t(items.size()) - 1)));
      return std::move(items[size_t(i)].list);
    }
    default:
      m_.fail(e.span, "internal error: not a list");
  }
}

Value Run::value(const ir::Expr& e) {
  Value v;
  switch (e.type->kind) {
    case ir::Type::Kind::Scalar:
      if (e.op == Op::Call) return call(e);
      v.scalar = scalar(e);
      break;
    case ir::Type::Kind::Set:
      set(e, v.set);
      break;
    case ir::Type::Kind::List:
      v.list = list(e);
      break;
  }
  return v;
}

size_t Run::bind_args(const ir::Function& f, const ir::Expr& e) {
  // The callee's frame is reserved first; its arguments are evaluated in the caller's.
  const size_t frame = reserve_frame(f.locals);
  for (size_t i = 0; i < e.args.size(); ++i) {
    const ir::Expr& x = *e.args[i];
    if (x.type->kind == ir::Type::Kind::Scalar) {
      int64_t v = scalar(x);
      stack_[frame + i].scalar = v;
    } else if (x.type->kind == ir::Type::Kind::Set) {
      Bits b;
      set_in(x, f.params[i]->domain, b);
      stack_[frame + i].set = std::move(b);
    } else {
      Value v = value(x);
      stack_[frame + i] = std::move(v);
    }
  }
  return frame;
}

int64_t Run::call_scalar(const ir::Expr& e) {
  const ir::Function& f = p_.functions[size_t(e.function)];
  if (f.body->type->kind != ir::Type::Kind::Scalar || (remember_ && e.args.empty())) return call(e).scalar;
  const size_t frame = bind_args(f, e);
  const size_t saved = base_;
  base_ = frame;
  int64_t result = scalar(*f.body);
  base_ = saved;
  top_ = frame;
  return result;
}

Value Run::call(const ir::Expr& e) {
  const ir::Function& f = p_.functions[size_t(e.function)];
  if (remember_ && e.args.empty()) {
    const size_t id = size_t(e.function);
    if (remembered_known_[id]) return remembered_[id];
    Value v = call_bound(f, bind_args(f, e));
    remembered_[id] = v;
    remembered_known_[id] = 1;
    return v;
  }
  return call_bound(f, bind_args(f, e));
}

Value Run::call_bound(const ir::Function& f, size_t frame) {
  const size_t saved = base_;
  base_ = frame;
  Value result;
  if (f.body->type->kind == ir::Type::Kind::Scalar) result.scalar = scalar(*f.body);
  else if (f.body->type->kind == ir::Type::Kind::Set) set_in(*f.body, f.result->domain, result.set);
  else result = value(*f.body);
  base_ = saved;
  top_ = frame;
  return result;
}

}  // namespace rulebook::compiler::interp
