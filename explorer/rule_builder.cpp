// The parts of RuleImage's builder: what an expression reads, parts, and expressions with
// the test of operations that may not commute with a board map.
#include "explorer/rule_builder.h"

#include <algorithm>

#include "compiler/runtime/random.h"

namespace rulebook::explorer::semantic {

bool Builder::fn_reads(int f) {
  int8_t& r = fn_reads_[size_t(f)];
  if (r < 0) {
    r = 1;  // a (forbidden) recursion reads as state-dependent
    r = reads(p_.functions[size_t(f)].body.get()) ? 1 : 0;
  }
  return r == 1;
}

const Builder::Info& Builder::info(const ir::Expr& e) {
  auto it = info_.find(&e);
  if (it != info_.end()) return it->second;
  Info in;
  switch (e.op) {
    case ir::Op::Read: case ir::Op::Mover: case ir::Op::Phase: case ir::Op::Can:
      in.reads = true;
      break;
    case ir::Op::Builtin:
      in.reads = dsl::builtin(e.builtin).time != dsl::BuiltinTime::Constant;
      break;
    case ir::Op::Call:
      in.reads = fn_reads(e.function);
      break;
    case ir::Op::Local:
      in.free.push_back(e.slot);
      break;
    default:
      break;
  }
  for (const auto& a : e.args) {
    if (!a) continue;
    const Info& ai = info(*a);
    in.reads = in.reads || ai.reads;
    in.free.insert(in.free.end(), ai.free.begin(), ai.free.end());
  }
  std::sort(in.free.begin(), in.free.end());
  in.free.erase(std::unique(in.free.begin(), in.free.end()), in.free.end());
  if (binds(e.op)) in.free.erase(std::remove(in.free.begin(), in.free.end(), e.slot), in.free.end());
  return info_.emplace(&e, std::move(in)).first->second;
}

bool Builder::binds(ir::Op op) {
  switch (op) {
    case ir::Op::All: case ir::Op::Some: case ir::Op::No: case ir::Op::Count: case ir::Op::Sum:
    case ir::Op::Max: case ir::Op::Min: case ir::Op::Filter:
      return true;
    default:
      return false;
  }
}

bool Builder::permuted(const ir::Type* t) const {
  if (!t) return false;
  if (t->kind == ir::Type::Kind::List) return permuted(t->elem.get());
  return t->domain >= 0 && permuted_[size_t(t->domain)];
}

bool Builder::scalar_leaf(const SigPtr& s) {
  return s && s->kind == Kind::Leaf && !s->error && s->type && s->type->kind == ir::Type::Kind::Scalar;
}

/// Every local `e` uses holds a known scalar: the interpreter can compute it.
bool Builder::closed(const ir::Expr& e, const Env& env) {
  for (int s : info(e).free)
    if (size_t(s) >= env.slots.size() || !scalar_leaf(env.slots[size_t(s)])) return false;
  return true;
}

SigPtr Builder::make(RuleSig&& s) {
  if (++built_ > kBudget) over_ = true;
  return store_.intern(std::move(s));
}

SigPtr Builder::leaf(const ir::Type* type, Value v, bool error, dsl::Span span) {
  RuleSig s;
  s.kind = Kind::Leaf;
  s.type = type;
  s.a = type ? int64_t(type->domain) * 4 + int64_t(type->kind) : -1;
  s.error = error;
  if (!error) {
    map_value(p_, nullptr, type, v);
    s.value = std::move(v);
  }
  s.moves = permuted(type);
  s.span = span;
  s.has_span = true;
  return make(std::move(s));
}

SigPtr Builder::scalar_leaf_of(int domain, int64_t value) {
  if (size_t(domain) >= scalar_types_.size()) scalar_types_.resize(size_t(domain) + 1);
  if (!scalar_types_[size_t(domain)]) {
    auto t = std::make_shared<ir::Type>();
    t->domain = domain;
    scalar_types_[size_t(domain)] = t;
  }
  Value v;
  v.scalar = value;
  return leaf(scalar_types_[size_t(domain)].get(), v, false, {});
}

SigPtr Builder::sym(int id) {
  RuleSig s;
  s.kind = Kind::Sym;
  s.tag = id;
  s.syms.push_back(id);
  return make(std::move(s));
}

SigPtr Builder::node(int tag, int64_t a, std::vector<SigPtr> kids, dsl::Span span, Kind kind,
                     std::vector<RuleSig::Flag> extra) {
  RuleSig s;
  s.kind = kind;
  s.tag = tag;
  s.a = a;
  s.span = span;
  s.has_span = true;
  if (kind == Kind::Set && (tag == kTagAnd || tag == kTagOr)) {  // flatten nested and/or
    std::vector<SigPtr> flat;
    for (SigPtr& k : kids)
      if (k && k->kind == Kind::Set && k->tag == tag) flat.insert(flat.end(), k->kids.begin(), k->kids.end());
      else flat.push_back(std::move(k));
    kids = std::move(flat);
  }
  if (kind != Kind::Node) sort_parts(kids, kind == Kind::Set);
  for (const SigPtr& k : kids) {
    if (!k) continue;
    s.moves = s.moves || k->moves;
    s.syms.insert(s.syms.end(), k->syms.begin(), k->syms.end());
    for (const RuleSig::Flag& f : k->flags) add_flag(s.flags, f);
  }
  for (const RuleSig::Flag& f : extra) add_flag(s.flags, f);
  std::sort(s.syms.begin(), s.syms.end());
  s.syms.erase(std::unique(s.syms.begin(), s.syms.end()), s.syms.end());
  s.kids = std::move(kids);
  return make(std::move(s));
}

void Builder::add_flag(std::vector<RuleSig::Flag>& to, const RuleSig::Flag& f) {
  for (RuleSig::Flag& g : to)
    if (g.sym == f.sym) {
      g.mask |= f.mask;
      return;
    }
  to.push_back(f);
}

bool Builder::flagged(const SigPtr& s, int id) {
  return s && std::any_of(s->flags.begin(), s->flags.end(), [&](const RuleSig::Flag& f) { return f.sym == id; });
}

Env Builder::fresh(int locals, int tag) {
  Env env;
  env.slots.assign(size_t(std::max(locals, 0)) + 1, nullptr);
  env.tag = tag;
  env.frame = std::max(locals, 0);
  return env;
}

SigPtr Builder::top(const ir::Expr& e, int locals, int tag) {
  Env env = fresh(locals, tag);
  return expr(e, env);
}

/// 1 or 0 for a known truth, -1 when not known.
int Builder::truth_of(const SigPtr& s) {
  if (!s || s->kind != Kind::Leaf || s->error || !s->type || s->type->kind != ir::Type::Kind::Scalar) return -1;
  return s->value.scalar != 0 ? 1 : 0;
}

/// A known value outside the domain of the set it is looked up in (none in a set of
/// cells): the membership is false whatever the state.
bool Builder::outside(const SigPtr& v, const ir::Type* set) const {
  if (!v || v->kind != Kind::Leaf || v->error || !set || set->kind != ir::Type::Kind::Set || set->domain < 0)
    return false;
  if (!v->type || v->type->kind != ir::Type::Kind::Scalar) return false;
  return ir::domain_index(p_.domains, set->domain, v->value.scalar) < 0;
}

/// and/or of parts (or the instances of all/some): known parts decide or drop out, so
/// what cannot hold in any state (a line running off the board) leaves no trace.
SigPtr Builder::junction(bool conj, std::vector<SigPtr> kids, dsl::Span span) {
  std::vector<SigPtr> open;
  for (SigPtr& k : kids) {
    const int t = truth_of(k);
    if (t == (conj ? 0 : 1)) return truth(!conj);
    if (t < 0) open.push_back(std::move(k));
  }
  if (open.empty()) return truth(conj);
  return node(conj ? kTagAnd : kTagOr, 0, std::move(open), span, Kind::Set);
}

SigPtr Builder::fold_equal_if(const ir::Expr& e, const std::vector<SigPtr>& kids) {
  if ((e.op != ir::Op::Eq && e.op != ir::Op::Ne) || kids.size() != 2) return nullptr;
  auto known = [](const SigPtr& s) { return s && s->kind == Kind::Leaf && !s->error; };
  for (int side = 0; side < 2; ++side) {
    const SigPtr& k = kids[size_t(side)];
    const SigPtr& f = kids[size_t(1 - side)];
    if (!known(k) || !f || f->kind != Kind::Node || f->tag != int(ir::Op::If) || f->kids.size() != 3) continue;
    if (!f->kids[0] || !known(f->kids[1]) || !known(f->kids[2])) continue;
    const bool neg = e.op == ir::Op::Ne;
    const bool ea = (cmp_value(k->value, f->kids[1]->value) == 0) != neg;
    const bool eb = (cmp_value(k->value, f->kids[2]->value) == 0) != neg;
    if (ea == eb) return truth(ea);
    if (ea) return f->kids[0];
    // `not (x == v)` of a type of two values is `x == w`, the other one (so that `mover ==
    // p2` and `not (mover == p1)` of two players are one condition, as a relabelling of the
    // seats compares them).
    const SigPtr& c = f->kids[0];
    if (c->kind == Kind::Node && c->tag == int(ir::Op::Eq) && c->kids.size() == 2)
      for (int s = 0; s < 2; ++s) {
        const SigPtr& v = c->kids[size_t(s)];
        if (!known(v) || !v->type || v->type->kind != ir::Type::Kind::Scalar || v->type->domain < 0) continue;
        const ir::Domain& dom = p_.domains[size_t(v->type->domain)];
        if (dom.size != 2) continue;
        const int64_t at = ir::domain_index(p_.domains, v->type->domain, v->value.scalar);
        if (at < 0) continue;
        SigPtr other = scalar_leaf_of(v->type->domain, ir::domain_value(p_.domains, v->type->domain, 1 - at));
        return node(int(ir::Op::Eq), 0, s == 0 ? std::vector<SigPtr>{other, c->kids[1]}
                                                : std::vector<SigPtr>{c->kids[0], other}, c->span);
      }
    return node(int(ir::Op::Not), 0, {f->kids[0]}, e.span);
  }
  return nullptr;
}

SigPtr Builder::evaluate(const ir::Expr& e, const Env& env) {
  ev_.start(state_.data(), env.frame + 1);
  for (int s : info(e).free) ev_.set_local(s, env.slots[size_t(s)]->value.scalar);
  Value v;
  const bool ok = ev_.value(e, v).ok;
  return leaf(e.type.get(), std::move(v), !ok, e.span);
}

SigPtr Builder::expr(const ir::Expr& e, Env& env) {
  if (over_) return nullptr;
  if (e.op == ir::Op::Local) {
    const SigPtr& s = size_t(e.slot) < env.slots.size() ? env.slots[size_t(e.slot)] : nullptr;
    return s ? s : sym(sym_id(env.tag, e.slot));
  }
  if (!info(e).reads && closed(e, env)) return evaluate(e, env);
  if (binds(e.op)) return quantifier(e, env);
  if (e.op == ir::Op::Call) return call(e, env);
  std::vector<SigPtr> kids;
  for (const auto& a : e.args) kids.push_back(a ? expr(*a, env) : nullptr);
  if (e.op == ir::Op::And || e.op == ir::Op::Or) return junction(e.op == ir::Op::And, std::move(kids), e.span);
  if (e.op == ir::Op::In && kids.size() == 2 && outside(kids[0], e.args[1]->type.get())) return truth(false);
  if (SigPtr folded = fold_equal_if(e, kids)) return folded;
  int64_t a = 0;
  if (e.op == ir::Op::Read) a = e.var;
  if (e.op == ir::Op::Field) a = e.field;
  if (e.op == ir::Op::Builtin) a = int64_t(e.builtin);
  if (e.op == ir::Op::Can) a = e.move;
  std::vector<RuleSig::Flag> flags = equivariance(e, env, kids);
  return node(int(e.op), a, std::move(kids), e.span, Kind::Node, std::move(flags));
}

/// A define's body with its parameters bound to the arguments' parts (a define is a
/// function of those, so each distinct call is built once).
SigPtr Builder::call(const ir::Expr& e, Env& env) {
  const ir::Function& f = p_.functions[size_t(e.function)];
  Env callee = fresh(f.locals, e.function + 1);
  CallKey key{e.function, {}};
  for (size_t i = 0; i < e.args.size() && i < callee.slots.size(); ++i) {
    callee.slots[i] = expr(*e.args[i], env);
    key.args.push_back(callee.slots[i]);
  }
  auto it = calls_.find(key);
  if (it != calls_.end()) return it->second;
  if (++depth_ > 64) over_ = true;  // the rules do not recurse; a deep chain is too large
  SigPtr s = over_ ? nullptr : expr(*f.body, callee);
  --depth_;
  calls_.emplace(std::move(key), s);
  return s;
}

/// Operations that commute with every map of the board by their meaning (equality,
/// membership, sets, records, reading a variable at mapped keys) need no test.
bool Builder::generic(ir::Op op) {
  switch (op) {
    case ir::Op::Eq: case ir::Op::Ne: case ir::Op::Not: case ir::Op::And: case ir::Op::Or:
    case ir::Op::If: case ir::Op::In: case ir::Op::Union: case ir::Op::Diff: case ir::Op::Inter:
    case ir::Op::SetLit: case ir::Op::ListLit: case ir::Op::RecordLit: case ir::Op::Field:
    case ir::Op::Read: case ir::Op::Mover: case ir::Op::Phase: case ir::Op::Can: case ir::Op::Const:
    case ir::Op::ConstSet: case ir::Op::ConstList: case ir::Op::Local:
      return true;
    default:
      return false;
  }
}

/// Flags for an operation that may not commute with the maps (a coordinate, a table, an
/// order) applied to parts not yet known: tested point by point when one part is unknown.
std::vector<RuleSig::Flag> Builder::equivariance(const ir::Expr& e, const Env& env, const std::vector<SigPtr>& kids) {
  if (generic(e.op)) return {};
  bool involved = permuted(e.type.get());
  std::vector<size_t> open;
  for (size_t i = 0; i < kids.size(); ++i) {
    if (!e.args[i]) continue;
    involved = involved || permuted(e.args[i]->type.get());
    if (!kids[i] || kids[i]->kind != Kind::Leaf) open.push_back(i);
  }
  if (!involved || open.empty()) return {};
  const uint64_t all = moving_;
  uint64_t bad = all;
  if (open.size() == 1) bad = pointwise(e, env, open[0]);
  std::vector<RuleSig::Flag> flags;
  if (!bad) return flags;
  for (size_t i : open) {
    if (!kids[i] || kids[i]->syms.empty()) flags.push_back({-1, bad, e.span});
    for (int s : kids[i] ? kids[i]->syms : std::vector<int>{}) flags.push_back({s, bad, e.span});
  }
  return flags;
}

/// The candidates under which `e`, as a function of its argument `i` (the others known
/// and mapped too), does not commute with the map: f(σa, σv) != σ f(a, v) for some v. A
/// scalar argument is tried on its whole domain; a set of cells (a group, a
/// neighbourhood) on every single element, the empty and the full set and a fixed
/// sample of others.
uint64_t Builder::pointwise(const ir::Expr& e, const Env& env, size_t i) {
  const uint64_t all = moving_;
  const ir::Type* at = e.args[i]->type.get();
  if (!at || at->domain < 0 || at->kind == ir::Type::Kind::List) return all;
  const int d = at->domain;
  const uint32_t n = p_.domains[size_t(d)].size;
  if (n > kUnroll) return all;
  // Every argument becomes a hole: a local for a scalar, a constant for a set.
  std::vector<Value> args(e.args.size());
  ir::ExprPtr probe = ir::clone_expr(e);
  std::vector<ir::Expr*> holes(e.args.size(), nullptr);
  bool constant_rest = true;
  for (size_t j = 0; j < e.args.size(); ++j) {
    if (!e.args[j]) continue;
    const ir::Type* t = e.args[j]->type.get();
    if (!t || t->kind == ir::Type::Kind::List) return all;
    if (j != i) {
      if (info(*e.args[j]).reads || !closed(*e.args[j], env)) return all;
      constant_rest = constant_rest && info(*e.args[j]).free.empty();
      SigPtr v = evaluate(*e.args[j], env);
      if (v->error) return all;
      args[j] = v->value;
    }
    auto hole = std::make_unique<ir::Expr>();
    hole->op = t->kind == ir::Type::Kind::Set ? ir::Op::ConstSet : ir::Op::Local;
    hole->slot = env.frame + int(j);
    hole->type = e.args[j]->type;
    holes[j] = hole.get();
    probe->args[j] = std::move(hole);
  }
  const auto key = std::make_pair(&e, i);
  if (constant_rest) {
    auto it = pointwise_.find(key);
    if (it != pointwise_.end()) return it->second;
  }
  auto eval = [&](const std::vector<Value>& in, Value& out) {
    ev_.start(state_.data(), env.frame + int(in.size()) + 1);
    for (size_t j = 0; j < in.size(); ++j) {
      if (!holes[j]) continue;
      if (holes[j]->op == ir::Op::ConstSet) holes[j]->bits.assign(in[j].set.data(), in[j].set.data() + in[j].set.size());
      else ev_.set_local(holes[j]->slot, in[j].scalar);
    }
    const bool ok = ev_.value(*probe, out).ok;
    if (ok) map_value(p_, nullptr, e.type.get(), out);
    return ok;
  };
  std::vector<Value> samples;
  if (at->kind == ir::Type::Kind::Scalar) {
    for (uint32_t k = 0; k < n; ++k) samples.emplace_back().scalar = ir::domain_value(p_.domains, d, k);
  } else {
    const size_t w = ir::words(n);
    samples.emplace_back().set.assign(w, 0);
    for (uint32_t k = 0; k < n; ++k) {
      samples.emplace_back().set.assign(w, 0);
      ir::set_bit(samples.back().set, k);
    }
    SplitMix64 rng(n);
    for (int r = 0; r < 48; ++r) {
      samples.emplace_back().set.assign(w, 0);
      for (uint32_t k = 0; k < n; ++k)
        if (rng.below(uint64_t(r % 3 + 2)) == 0) ir::set_bit(samples.back().set, k);
    }
    samples.emplace_back().set.assign(w, 0);
    for (uint32_t k = 0; k < n; ++k) ir::set_bit(samples.back().set, k);
  }
  uint64_t bad = 0;
  Value fv, fimage;
  for (const Value& v : samples) {
    args[i] = v;
    const bool ok = eval(args, fv);
    for (size_t c = 0; c < cands_.size() && c < 64; ++c) {
      if ((bad >> c) & 1) continue;
      const Transform& t = cands_[c];
      std::vector<Value> image = args;
      for (size_t j = 0; j < image.size(); ++j)
        if (e.args[j]) map_value(p_, &t, e.args[j]->type.get(), image[j]);
      const bool image_ok = eval(image, fimage);
      if (ok != image_ok) { bad |= uint64_t{1} << c; continue; }
      if (!ok) continue;
      Value mapped = fv;
      map_value(p_, &t, e.type.get(), mapped);
      if (cmp_value(mapped, fimage) != 0) bad |= uint64_t{1} << c;
    }
  }
  if (constant_rest) pointwise_[key] = bad;
  return bad;
}

}  // namespace rulebook::explorer::semantic
