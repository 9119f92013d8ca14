// The encoder's values: selectors, conversions between symbolic forms, merging of values
// computed under exclusive guards, and the states before and after a move.
#include "verifier/encode_internal.h"

#include <algorithm>

#include <fmt/format.h>

namespace rulebook::verifier {

using K = Sym::K;

Encoder::Encoder(const ir::Program& program, const dsl::SourceSet& sources, z3::context& ctx)
    : p_(program), sources_(sources), z3_(ctx), m_(program.geometry) {
  for (int v = 0; v < 1024; ++v) {
    auto s = std::make_shared<Sym>();
    s->v = v;
    small_.push_back(s);
  }
  true_ = small_[1];
  false_ = small_[0];
}

std::string Encoder::where(dsl::Span span) const { return ir::location(sources_, span); }

SymP Encoder::val(int64_t v) {
  if (v >= 0 && v < 1024) return small_[size_t(v)];
  auto s = std::make_shared<Sym>();
  s->v = v;
  return s;
}

SymP Encoder::boolean(const z3::expr& b) {
  if (b.is_true()) return true_;
  if (b.is_false()) return false_;
  auto s = std::make_shared<Sym>();
  s->k = K::Bool;
  s->term = b;
  return s;
}

SymP Encoder::integer(const z3::expr& i) {
  int64_t v;
  if (i.is_numeral_i64(v)) return val(v);
  auto s = std::make_shared<Sym>();
  s->k = K::Int;
  s->term = i;
  return s;
}

SymP Encoder::err_sym(const std::string& msg) {
  auto s = std::make_shared<Sym>();
  s->k = K::Err;
  s->msg = msg;
  return s;
}

SymP Encoder::with_err(SymP s, const z3::expr& err) {
  if (err.is_false()) return s;
  if (s->k == K::Err) return s;
  if (s->k == K::Table) {
    if (s->err && z3::eq(*s->err, err)) return s;
    // Operators on tables rebuild a table's error condition from its entries: one that
    // comes from elsewhere (the condition of an `if`, an operand of another selector)
    // would be dropped there, so the table becomes terms that carry it.
    s = untable(*s);
    if (s->k == K::Err) return s;
  }
  auto c = std::make_shared<Sym>(*s);
  c->err = c->err ? (*c->err || err).simplify() : err;
  return c;
}

bool Encoder::concrete(const Sym& s) {
  if (s.k == K::Val || s.k == K::Bits || s.k == K::Err) return !s.err;
  if (s.k == K::List) {
    if (s.err) return false;
    for (const SymP& i : s.items)
      if (!concrete(*i)) return false;
    return true;
  }
  return false;
}

SymP Encoder::resolve(const SymP& s) {
  if (touched_) {
    if (s->k == K::Table) touched_->push_back(s->sel);
    else if (s->k == K::Disj)
      for (const SymP& t : s->items) touched_->push_back(t->sel);
  }
  if (s->k == K::Table && fixed_[size_t(s->sel)] >= 0) return s->items[size_t(fixed_[size_t(s->sel)])];
  if (s->k == K::Disj) {
    bool any = false;
    for (const SymP& t : s->items) any = any || fixed_[size_t(t->sel)] >= 0;
    if (!any) return s;
    SymP acc = false_;
    for (const SymP& t : s->items) acc = s_or(acc, resolve(t));
    return acc;
  }
  return s;
}

z3::expr Encoder::err_of(const SymP& s0) {
  SymP s = resolve(s0);
  if (s->k == K::Err) return z3_.bool_val(true);
  return s->err ? *s->err : z3_.bool_val(false);
}

z3::expr Encoder::to_bool(const SymP& s0) {
  SymP s = resolve(s0);
  switch (s->k) {
    case K::Val: return z3_.bool_val(s->v != 0);
    case K::Err: return z3_.bool_val(false);
    case K::Bool: return *s->term;
    case K::Table: {
      if (abstract && sels_[size_t(s->sel)].var >= 0) return truth_atom(*s);
      const bool restricted = care_[size_t(s->sel)] >= 0;
      if (s->bool_cache && !restricted) return *s->bool_cache;
      z3::expr_vector on(z3_), off(z3_);
      const Selector& sel = sels_[size_t(s->sel)];
      for (size_t k = 0; k < s->items.size(); ++k)
        if (cared(s->sel, k)) (s->items[k]->k == K::Val && s->items[k]->v != 0 ? on : off).push_back(sel.guard[k]);
      // Don't-care indices (Care) may go on either side: the shorter one is written.
      z3::expr b = on.size() <= off.size() ? (on.empty() ? z3_.bool_val(false) : z3::mk_or(on))
                                           : (off.empty() ? z3_.bool_val(true) : !z3::mk_or(off));
      if (!restricted) s->bool_cache = b;
      return b;
    }
    case K::Disj: {
      z3::expr_vector parts(z3_);
      for (const SymP& t : s->items) parts.push_back(to_bool(t));
      return z3::mk_or(parts);
    }
    case K::Cases: {
      z3::expr_vector on(z3_);
      for (auto& [v, g] : s->cases)
        if (v != 0) on.push_back(g);
      return on.empty() ? z3_.bool_val(false) : z3::mk_or(on);
    }
    case K::Int: return *s->term != 0;
    default: throw Unsupported("a set or list used as a truth value");
  }
}

z3::expr Encoder::to_int(const SymP& s0) {
  SymP s = resolve(s0);
  auto indicator = [&](const z3::expr& g) { return z3::ite(g, z3_.int_val(1), z3_.int_val(0)); };
  switch (s->k) {
    case K::Val:
      if (s->v == ir::kNone) throw Unsupported("'none' used as a number");
      return z3_.int_val(int64_t(s->v));
    case K::Err: return z3_.int_val(0);
    case K::Int: return *s->term;
    case K::Bool:
      if (s->v == 1 && s->items.size() == 1) {
        counted_disj = true;
        if (regroup) return 1 - to_int(s->items[0]);
      }
      return indicator(*s->term);
    case K::Table: {
      if (abstract && sels_[size_t(s->sel)].var >= 0) return int_atom(*s);
      const bool restricted = care_[size_t(s->sel)] >= 0;
      if (s->int_cache && !restricted) return *s->int_cache;
      // Grouped by value: one indicator per selector index, weighted.
      const Selector& sel = sels_[size_t(s->sel)];
      z3::expr_vector terms(z3_);
      for (size_t k = 0; k < s->items.size(); ++k) {
        const Sym& e = *s->items[k];
        if (e.k != K::Val || e.v == 0 || !cared(s->sel, k)) continue;
        if (e.v == ir::kNone) throw Unsupported("'none' used as a number");
        terms.push_back(e.v == 1 ? indicator(sel.guard[k]) : z3_.int_val(int64_t(e.v)) * indicator(sel.guard[k]));
      }
      z3::expr sum = terms.empty() ? z3_.int_val(0) : z3::sum(terms);
      if (!restricted) s->int_cache = sum;
      return sum;
    }
    case K::Cases: {
      z3::expr_vector terms(z3_);
      for (auto& [v, g] : s->cases) {
        if (v == 0) continue;
        if (v == ir::kNone) throw Unsupported("'none' used as a number");
        terms.push_back(z3_.int_val(int64_t(v)) * indicator(g));
      }
      return terms.empty() ? z3_.int_val(0) : z3::sum(terms);
    }
    case K::Disj: {
      counted_disj = true;
      if (!regroup) return indicator(to_bool(s));
      // Sum of the parts: equal to the OR's indicator when the parts are exclusive.
      z3::expr_vector terms(z3_);
      for (size_t i = 0; i < s->items.size(); ++i) {
        terms.push_back(to_int(s->items[i]));
        for (size_t j = 0; j < i; ++j) regroup_pairs.push_back(to_bool(s->items[i]) && to_bool(s->items[j]));
      }
      return z3::sum(terms);
    }
    default: throw Unsupported("a set or list used as a number");
  }
}

std::optional<std::vector<std::pair<int64_t, z3::expr>>> Encoder::to_cases(const SymP& s0) {
  SymP s = resolve(s0);
  std::vector<std::pair<int64_t, z3::expr>> out;
  switch (s->k) {
    case K::Val: out.emplace_back(s->v, z3_.bool_val(true)); return out;
    case K::Cases: return s->cases;
    case K::Bool:
      out.emplace_back(1, *s->term);
      out.emplace_back(0, !*s->term);
      return out;
    case K::Disj: {
      z3::expr b = to_bool(s);
      out.emplace_back(1, b);
      out.emplace_back(0, !b);
      return out;
    }
    case K::Table: {
      if (abstract && sels_[size_t(s->sel)].var >= 0) return atom_cases(*s);
      const Selector& sel = sels_[size_t(s->sel)];
      std::map<int64_t, z3::expr_vector> by;
      for (size_t k = 0; k < s->items.size(); ++k) {
        if (s->items[k]->k != K::Val || !cared(s->sel, k)) continue;
        auto it = by.try_emplace(s->items[k]->v, z3_).first;
        it->second.push_back(sel.guard[k]);
      }
      for (auto& [v, gs] : by) out.emplace_back(v, gs.size() == 1 ? gs[0] : z3::mk_or(gs));
      // The values of a table are exclusive (the selector is one-hot); said once per
      // partition, so the SAT core need not rediscover it from the guards.
      if (out.size() > 1) {
        std::vector<int64_t> key{s->sel};
        for (size_t k = 0; k < s->items.size(); ++k)
          key.push_back(!cared(s->sel, k) ? ir::kNone + 1 : s->items[k]->k == K::Val ? s->items[k]->v : ir::kNone);
        if (partitions_.insert(key).second) {
          z3::expr_vector values(z3_);
          for (auto& [v, g] : out) values.push_back(g);
          partition_facts_.push_back(z3::atmost(values, 1));
        }
      }
      return out;
    }
    default: return std::nullopt;
  }
}

ir::TypePtr Encoder::scalar_type(int domain) {
  auto t = std::make_shared<ir::Type>();
  t->domain = domain;
  return t;
}

SymP Encoder::from_table(int sel, std::vector<SymP> entries, const ir::TypePtr& type) {
  bool all_concrete = true, same = true;
  for (const SymP& e : entries) {
    all_concrete = all_concrete && concrete(*e);
    same = same && e->k == K::Val && entries[0]->k == K::Val && e->v == entries[0]->v;
  }
  if (!all_concrete) {
    std::vector<z3::expr> guards(sels_[size_t(sel)].guard.begin(), sels_[size_t(sel)].guard.end());
    return merge(guards, entries, type);
  }
  if (same && !entries.empty()) return entries[0];
  if (type->kind != ir::Type::Kind::Scalar) {
    // Tables of sets and lists are kept only when every entry is concrete; merge() turns
    // them into per-element values when they meet other selectors.
    bool simple = true;
    for (const SymP& e : entries) simple = simple && (e->k == K::Bits || e->k == K::Err);
    if (!simple) {
      std::vector<z3::expr> guards(sels_[size_t(sel)].guard.begin(), sels_[size_t(sel)].guard.end());
      return merge(guards, entries, type);
    }
  }
  auto t = std::make_shared<Sym>();
  t->k = K::Table;
  t->sel = sel;
  t->domain = type->domain;
  z3::expr_vector errs(z3_);
  for (size_t k = 0; k < entries.size(); ++k)
    if (entries[k]->k == K::Err) errs.push_back(sels_[size_t(sel)].guard[k]);
  if (!errs.empty()) t->err = z3::mk_or(errs);
  t->items = std::move(entries);
  note_geometry(t);
  return t;
}

SymP Encoder::untable(const Sym& t) {
  // Where an entry errs its value is never read: another entry stands in for it there.
  SymP some;
  bool set = false;
  for (const SymP& e : t.items) {
    if (!some && e->k != K::Err) some = e;
    set = set || e->k == K::Bits;
  }
  if (!some) return t.items[0];  // it errs for every index
  std::vector<SymP> values;
  for (const SymP& e : t.items) values.push_back(e->k == K::Err ? some : e);
  auto type = std::make_shared<ir::Type>();
  type->kind = set ? ir::Type::Kind::Set : ir::Type::Kind::Scalar;
  type->domain = t.domain;
  const Selector& sel = sels_[size_t(t.sel)];
  SymP out = merge(std::vector<z3::expr>(sel.guard.begin(), sel.guard.end()), values, type);
  return t.err ? with_err(out, *t.err) : out;
}

SymP Encoder::set_elements(const SymP& s0, int domain) {
  SymP s = resolve(s0);
  if (s->k == K::Set) return s;
  const uint32_t n = p_.domains[size_t(domain)].size;
  auto out = std::make_shared<Sym>();
  out->k = K::Set;
  out->domain = domain;
  out->err = s->err;
  if (s->k == K::Bits) {
    for (uint32_t i = 0; i < n; ++i) out->items.push_back(val(ir::test(s->bits, i) ? 1 : 0));
    return out;
  }
  if (s->k == K::Table) {
    if (s->set_cache) return s->set_cache;
    for (uint32_t i = 0; i < n; ++i) {
      std::vector<SymP> e;
      for (const SymP& x : s->items)
        e.push_back(val(x->k == K::Bits && ir::test(x->bits, i) ? 1 : 0));
      out->items.push_back(from_table(s->sel, std::move(e), scalar_type(ir::kBoolDomain)));
    }
    s->set_cache = out;
    return out;
  }
  if (s->k == K::Err) {
    for (uint32_t i = 0; i < n; ++i) out->items.push_back(false_);
    out->err = z3_.bool_val(true);
    return out;
  }
  throw Unsupported("a set of an unexpected form");
}

SymP Encoder::merge(const std::vector<z3::expr>& guards, const std::vector<SymP>& values,
                    const ir::TypePtr& type) {
  z3::expr_vector errs(z3_);
  bool same = true;
  for (size_t k = 0; k < values.size(); ++k) {
    z3::expr e = err_of(values[k]);
    if (!e.is_false()) errs.push_back(guards[k] && e);
    same = same && values[k] == values[0];
  }
  z3::expr err = errs.empty() ? z3_.bool_val(false) : z3::mk_or(errs);
  // One value under every guard: its own error condition is the whole of `err`.
  if (same) return values[0];
  if (type->kind == ir::Type::Kind::Scalar) {
    const int d = type->domain;
    const auto kind = d < 0 ? ir::Domain::Kind::Range : p_.domains[size_t(d)].kind;
    if (kind == ir::Domain::Kind::Bool) {
      z3::expr_vector on(z3_);
      for (size_t k = 0; k < values.size(); ++k) {
        z3::expr b = to_bool(values[k]);
        if (!b.is_false()) on.push_back(b.is_true() ? guards[k] : guards[k] && b);
      }
      return with_err(boolean(on.empty() ? z3_.bool_val(false) : z3::mk_or(on)), err);
    }
    if (kind != ir::Domain::Kind::Range) {
      std::map<int64_t, z3::expr_vector> by;
      bool ok = true;
      for (size_t k = 0; k < values.size() && ok; ++k) {
        auto c = to_cases(values[k]);
        if (!c) {
          ok = false;
          break;
        }
        for (auto& [v, g] : *c) by.try_emplace(v, z3_).first->second.push_back(g.is_true() ? guards[k] : guards[k] && g);
      }
      if (ok) {
        auto out = std::make_shared<Sym>();
        out->k = K::Cases;
        out->domain = d;
        for (auto& [v, gs] : by) out->cases.emplace_back(v, (gs.size() == 1 ? gs[0] : z3::mk_or(gs)).simplify());
        return with_err(out, err);
      }
    }
    z3::expr acc = to_int(values.back());
    for (size_t k = values.size() - 1; k-- > 0;) acc = z3::ite(guards[k], to_int(values[k]), acc);
    return with_err(integer(acc), err);
  }
  if (type->kind == ir::Type::Kind::Set) {
    const int d = type->domain;
    std::vector<SymP> sets;
    for (const SymP& v : values) sets.push_back(set_elements(v, d));
    auto out = std::make_shared<Sym>();
    out->k = K::Set;
    out->domain = d;
    auto bt = scalar_type(ir::kBoolDomain);
    for (uint32_t i = 0; i < p_.domains[size_t(d)].size; ++i) {
      std::vector<SymP> e;
      for (const SymP& s : sets) e.push_back(s->items[i]);
      out->items.push_back(merge(guards, e, bt));
    }
    return with_err(out, err);
  }
  size_t n = values[0]->items.size();
  for (const SymP& v : values)
    if (v->k != K::List || v->items.size() != n) throw Unsupported("a list whose length depends on the state");
  auto out = std::make_shared<Sym>();
  out->k = K::List;
  for (size_t i = 0; i < n; ++i) {
    std::vector<SymP> e;
    for (const SymP& v : values) e.push_back(v->items[i]);
    out->items.push_back(merge(guards, e, type->elem));
  }
  return with_err(out, err);
}

// ------------------------------------------------------------------ atoms (generalisation)

z3::expr Encoder::truth_atom(const Sym& t) {
  // Per index: 1 true, 0 false, 2 an error (an error entry reads as false, but such a
  // table is never the same atom as an error-free one).
  std::vector<int64_t> key{t.sel, -1};
  bool all = true, none = true;
  for (const SymP& e : t.items) {
    const int64_t b = e->k != K::Val ? 2 : e->v != 0 ? 1 : 0;
    key.push_back(b);
    all = all && b == 1;
    none = none && b == 0;
  }
  if (all || none) return z3_.bool_val(all);
  auto it = atoms_.find(key);
  if (it != atoms_.end()) return it->second;
  z3::expr x = z3_.bool_const(fmt::format("atom!{}", atoms_.size()).c_str());
  atoms_.emplace(std::move(key), x);
  atom_facts_.emplace(x.id(), z3_.bool_val(true));
  return x;
}

std::vector<int64_t> Encoder::atom_values(const Sym& t) {
  std::set<int64_t> values;
  for (const SymP& e : t.items)
    if (e->k == K::Val) values.insert(e->v);
  return {values.begin(), values.end()};
}

z3::expr Encoder::int_atom(const Sym& t) {
  const std::vector<int64_t> values = atom_values(t);
  for (int64_t v : values)
    if (v == ir::kNone) throw Unsupported("'none' used as a number");
  // Two values a < b: a + (b - a)·[it is b], over the truth atom of "it is b" (so a count
  // of a bool table and the table itself read the same atom).
  if (values.size() <= 2) {
    std::vector<SymP> is_b;
    for (const SymP& e : t.items) is_b.push_back(e->k != K::Val ? e : val(values.size() == 2 && e->v == values[1]));
    Sym b = t;
    b.items = std::move(is_b);
    const z3::expr x = z3::ite(truth_atom(b), z3_.int_val(1), z3_.int_val(0));
    if (values.empty()) return z3_.int_val(0);
    if (values.size() == 1) return z3_.int_val(int64_t(values[0]));
    const z3::expr lo = z3_.int_val(int64_t(values[0]));
    return values[0] == 0 ? (values[1] == 1 ? x : z3_.int_val(int64_t(values[1])) * x)
                          : lo + z3_.int_val(int64_t(values[1] - values[0])) * x;
  }
  std::vector<int64_t> key{t.sel, -2};
  for (const SymP& e : t.items) key.push_back(e->k == K::Val ? e->v : ir::kNone + 2);
  auto it = atoms_.find(key);
  if (it != atoms_.end()) return it->second;
  z3::expr x = z3_.int_const(fmt::format("atom!{}", atoms_.size()).c_str());
  // A value of a finite type other than a number (a kind, a cell, a record) is one of the
  // table's values: said, so that cases over them are exhaustive. A number is left free:
  // only its order and sums are read, and atoms of tables with different values (a row's
  // cell indices and another row's) stay alike up to renaming.
  const int d = t.domain;
  const bool number = d < 0 || p_.domains[size_t(d)].kind == ir::Domain::Kind::Range;
  z3::expr fact = z3_.bool_val(true);
  if (!number) {
    z3::expr_vector any(z3_);
    for (int64_t v : values) any.push_back(x == z3_.int_val(int64_t(v)));
    fact = z3::mk_or(any);
  }
  atoms_.emplace(std::move(key), x);
  atom_facts_.emplace(x.id(), fact);
  return x;
}

std::optional<std::vector<std::pair<int64_t, z3::expr>>> Encoder::atom_cases(const Sym& t) {
  std::vector<std::pair<int64_t, z3::expr>> out;
  const std::vector<int64_t> values = atom_values(t);
  if (values.size() <= 2) {
    std::vector<SymP> is_b;
    for (const SymP& e : t.items) is_b.push_back(e->k != K::Val ? e : val(values.size() == 2 && e->v == values[1]));
    Sym b = t;
    b.items = std::move(is_b);
    const z3::expr x = truth_atom(b);
    if (values.size() == 2) out.emplace_back(values[1], x);
    if (!values.empty()) out.emplace_back(values[0], values.size() == 2 ? !x : z3_.bool_val(true));
    return out;
  }
  // Otherwise cases only where the atom's fact says its values (exhaustive guards), else
  // it is a number (comparisons and equalities of ints).
  const z3::expr x = int_atom(t);
  if (atom_fact(x).is_true()) return std::nullopt;
  for (int64_t v : values) out.emplace_back(v, x == z3_.int_val(int64_t(v)));
  return out;
}

// ------------------------------------------------------------------ selectors and states

int Encoder::fresh_selector(int d, const std::string& name) {
  const ir::Domain& dom = p_.domains[size_t(d)];
  Selector s;
  s.name = name;
  // Z3 names a constant by its string, so two selectors of one name would be one: the
  // selector's index keeps them apart (a rules file may name a state like an engine variable).
  const std::string unique = fmt::format("{}!{}", name, sels_.size());
  if (dom.size == 2) {
    z3::expr b = z3_.bool_const(unique.c_str());
    s.guard = {!b, b};
    guard_ids_[b.id()] = int(sels_.size());
  } else {
    z3::expr_vector all(z3_), ind(z3_);
    for (uint32_t k = 0; k < dom.size; ++k) {
      z3::expr b = z3_.bool_const(fmt::format("{}={}", unique, k).c_str());
      s.guard.push_back(b);
      guard_ids_[b.id()] = int(sels_.size());
      all.push_back(b);
      ind.push_back(z3::ite(b, z3_.int_val(1), z3_.int_val(0)));
    }
    // Exactly one: as clauses for the SAT core and, for questions that count, as a linear
    // sum the arithmetic sees (asked for only there: it slows boolean questions down).
    facts_.push_back(z3::mk_or(all));
    facts_.push_back(z3::atmost(all, 1));
    sum_facts_.push_back(z3::sum(ind) == 1);
  }
  for (uint32_t k = 0; k < dom.size; ++k) s.values.push_back(ir::domain_value(p_.domains, d, k));
  sels_.push_back(std::move(s));
  fixed_.push_back(-1);
  care_.push_back(-1);
  identities_.push_back(nullptr);
  return int(sels_.size()) - 1;
}

int Encoder::base_selector(int var, uint32_t element) {
  auto key = std::make_pair(var, element);
  auto it = base_sels_.find(key);
  if (it != base_sels_.end()) return it->second;
  const ir::StateVar& v = p_.vars[size_t(var)];
  int s = fresh_selector(v.domain, fmt::format("{}#{}", v.name, element));
  sels_[size_t(s)].var = var;
  sels_[size_t(s)].element = element;
  base_sels_[key] = s;
  return s;
}

void Encoder::note_geometry(const SymP& t) {
  if (sels_[size_t(t->sel)].var < 0) return;
  bool cells = !t->items.empty() &&
               (t->items[0]->k == K::Bits || t->domain == ir::kCellDomain || t->domain == ir::kPointDomain);
  for (const SymP& e : t->items) cells = cells && (e->k == K::Bits || e->k == K::Val || e->k == K::Err);
  if (!cells) return;
  if (geometry_.size() <= size_t(t->sel)) geometry_.resize(size_t(t->sel) + 1);
  std::vector<SymP>& g = geometry_[size_t(t->sel)];
  if (g.size() >= kGeometryTables) return;
  auto same = [&](const SymP& o) {
    if (o->items.size() != t->items.size()) return false;
    for (size_t k = 0; k < o->items.size(); ++k) {
      const Sym &a = *o->items[k], &b = *t->items[k];
      if (a.k != b.k || a.v != b.v || a.bits != b.bits || a.domain != b.domain) return false;
    }
    return true;
  };
  if (std::none_of(g.begin(), g.end(), same)) g.push_back(t);
}

const std::vector<SymP>& Encoder::geometry_tables(int s) const {
  static const std::vector<SymP> none;
  return size_t(s) < geometry_.size() ? geometry_[size_t(s)] : none;
}

SymP Encoder::identity(int s) {
  if (!identities_[size_t(s)]) {
    std::vector<SymP> e;
    for (int64_t v : sels_[size_t(s)].values) e.push_back(val(v));
    auto t = std::make_shared<Sym>();
    t->k = K::Table;
    t->sel = s;
    t->items = std::move(e);
    identities_[size_t(s)] = t;
  }
  return identities_[size_t(s)];
}

int Encoder::new_overlay() {
  overlays_.push_back(Overlay{{}, z3_.bool_val(false), 0, {}});
  return int(overlays_.size()) - 1;
}

SymP Encoder::read_slot(int var, uint32_t element) {
  if (overlay_ >= 0) {
    auto& o = overlays_[size_t(overlay_)];
    auto it = o.slots.find({var, element});
    if (it != o.slots.end()) return resolve(it->second);
  }
  auto fixed = bound_.find({var, element});
  if (fixed != bound_.end()) return val(fixed->second);
  return resolve(identity(base_selector(var, element)));
}

void Encoder::store_slot(int var, uint32_t element, SymP value, const z3::expr& guard) {
  const ir::StateVar& v = p_.vars[size_t(var)];
  auto t = scalar_type(v.domain);
  // A value outside the variable's domain is an error (semantics.md, Errors).
  SymP rv = resolve(value), checked;
  const ir::Domain& dom = p_.domains[size_t(v.domain)];
  if (rv->k == K::Int) {
    if (dom.kind != ir::Domain::Kind::Range) throw Unsupported("a number stored in '" + v.name + "'");
    z3::expr x = *rv->term;
    checked = with_err(rv, !(x >= z3_.int_val(int64_t(dom.lo)) && x <= z3_.int_val(int64_t(dom.lo + dom.size - 1))));
  } else if (rv->k == K::Bool || rv->k == K::Disj) {
    checked = rv;
  } else {
    checked = split(rv, t, [&](const SymP& c) -> SymP {
      if (c->k == K::Err) return c;
      if (ir::domain_index(p_.domains, v.domain, c->v) < 0)
        return err_sym(fmt::format("value outside {} (stored in '{}')", dom.name, v.name));
      return c;
    });
  }
  SymP old = read_slot(var, element);
  SymP now = guard.is_true() ? checked : merge({guard, !guard}, {checked, old}, t);
  auto& o = overlays_[size_t(overlay_)];
  o.err = (o.err || (guard && err_of(checked))).simplify();
  o.slots[{var, element}] = now;
  ++o.version;
  ++o.var_versions[var];
}

}  // namespace rulebook::verifier

namespace rulebook::verifier {

// ------------------------------------------------------------------ don't-care indices

Encoder::Care::~Care() {
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) enc_.care_[size_t(it->first)] = it->second;
}

void Encoder::Care::add(const SymP& x0) {
  if (enc_.abstract) return;  // atoms are whole tables: nothing is left out of them
  SymP x = enc_.resolve(x0);
  if (x->k != K::Table || x->err) return;
  const int sel = x->sel;
  std::vector<char> keep(x->items.size(), 0);
  bool any_dropped = false;
  for (size_t k = 0; k < x->items.size(); ++k) {
    const Sym& v = *x->items[k];
    keep[k] = enc_.cared(sel, k) && v.k == K::Val && v.v != 0;
    any_dropped = any_dropped || (enc_.cared(sel, k) && !keep[k]);
  }
  if (!any_dropped) return;
  auto it = enc_.care_ids_.find(keep);
  if (it == enc_.care_ids_.end()) {
    it = enc_.care_ids_.emplace(keep, int(enc_.cares_.size())).first;
    enc_.cares_.push_back(keep);
  }
  saved_.emplace_back(sel, enc_.care_[size_t(sel)]);
  enc_.care_[size_t(sel)] = it->second;
}

Encoder::Care::Suspend::Suspend(Encoder& e) : enc(e), saved(e.care_) {
  std::fill(enc.care_.begin(), enc.care_.end(), -1);
}

Encoder::Care::Suspend::~Suspend() {
  for (size_t i = 0; i < saved.size(); ++i) enc.care_[i] = saved[i];
}

}  // namespace rulebook::verifier
