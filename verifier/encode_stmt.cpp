// The encoder's statements of move bodies: stores, `let`, `if` and `for` on the state
// after a move, and counts after a move read as changes from the counts before.
#include <functional>

#include <fmt/format.h>

#include "verifier/encode_internal.h"

namespace rulebook::verifier {

using K = Sym::K;
using ir::Op;

void Encoder::assign(const ir::Stmt& s, Frame& f, const z3::expr& path) {
  const ir::StateVar& v = p_.vars[size_t(s.var)];
  std::vector<std::vector<std::pair<int64_t, z3::expr>>> keys;
  for (const auto& k : s.keys) {
    SymP ks = eval(*k, f);
    auto c = to_cases(ks);
    if (!c) throw Unsupported(where(k->span) + ": a key computed as a number from the state");
    keys.push_back(*c);
  }
  SymP value = eval(*s.value, f);
  std::vector<int64_t> chosen;
  std::function<void(size_t, const z3::expr&)> go = [&](size_t i, const z3::expr& g) {
    if (i < keys.size()) {
      for (auto& [kv, kg] : keys[i]) {
        chosen.push_back(kv);
        go(i + 1, kg.is_true() ? g : g && kg);
        chosen.pop_back();
      }
      return;
    }
    int64_t at = 0;
    for (size_t j = 0; j < chosen.size(); ++j) {
      int64_t idx = ir::domain_index(p_.domains, v.keys[j], chosen[j]);
      if (idx < 0) {
        auto& o = overlays_[size_t(overlay_)];
        o.err = o.err || g;
        return;
      }
      at = at * p_.domains[size_t(v.keys[j])].size + idx;
    }
    if (chosen.size() != v.keys.size()) {
      if (!(v.is_set && chosen.size() + 1 == v.keys.size()) || s.assign != 0)
        throw Unsupported(where(s.span) + ": assignment of a whole map");
      const uint32_t n = p_.domains[size_t(v.keys.back())].size;
      SymP el = set_elements(convert_set(value, s.value->type->domain, v.keys.back()), v.keys.back());
      for (uint32_t i = 0; i < n; ++i) store_slot(s.var, uint32_t(at * n + i), el->items[i], g);
      // Where the set's value errs, the store does: its elements alone do not say so.
      auto& o = overlays_[size_t(overlay_)];
      o.err = (o.err || (g && err_of(el))).simplify();
      return;
    }
    SymP now = value;
    if (s.assign != 0) now = lift2(s.assign > 0 ? Op::Add : Op::Sub, read_slot(s.var, uint32_t(at)), value, *s.value);
    store_slot(s.var, uint32_t(at), now, g);
  };
  go(0, path);
}

void Encoder::exec(const ir::Block& block, Frame& f, const z3::expr& path) {
  // Where evaluating a value errs, a list's elements included: the statement errs there,
  // even when nothing reads the value afterwards (a `let`, a loop's domain).
  std::function<z3::expr(const SymP&)> errs = [&](const SymP& v) {
    z3::expr e = err_of(v);
    const SymP r = resolve(v);
    if (r->k == K::List)
      for (const SymP& item : r->items) e = e || errs(item);
    return e;
  };
  for (const ir::StmtPtr& sp : block) {
    const ir::Stmt& s = *sp;
    if (slice && !slice->count(&s)) continue;
    auto& o = overlays_[size_t(overlay_)];
    switch (s.op) {
      case ir::StmtOp::Assign: assign(s, f, path); break;
      case ir::StmtOp::Let: {
        SymP v = eval(*s.value, f);
        o.err = (o.err || (path && errs(v))).simplify();
        f[size_t(s.slot)] = v;
        break;
      }
      case ir::StmtOp::If: {
        SymP c = resolve(eval(*s.value, f));
        o.err = (o.err || (path && err_of(c))).simplify();
        if (c->k == K::Val && !c->err) {
          exec(c->v ? s.body : s.otherwise, f, path);
          break;
        }
        z3::expr b = to_bool(c);
        exec(s.body, f, path && b);
        exec(s.otherwise, f, path && !b);
        break;
      }
      case ir::StmtOp::For: {
        SymP dom = resolve(eval(*s.value, f));
        o.err = (o.err || (path && errs(dom))).simplify();
        std::vector<std::pair<SymP, z3::expr>> elems;
        if (dom->k == K::List) {
          for (const SymP& it : dom->items) elems.emplace_back(it, z3_.bool_val(true));
        } else {
          const int d = s.value->type->domain;
          const bool plain = d < 0 || (p_.domains[size_t(d)].kind != ir::Domain::Kind::Range &&
                                       p_.domains[size_t(d)].kind != ir::Domain::Kind::Optional);
          SymP el = set_elements(dom, d);
          for (uint32_t i = 0; i < el->items.size(); ++i) {
            z3::expr m = to_bool(el->items[i]);
            if (!m.is_false()) elems.emplace_back(val(plain ? int64_t(i) : ir::domain_value(p_.domains, d, i)), m);
          }
        }
        // The `where` is read for every element before the body first runs, on the state
        // before the loop (docs/language.md): the body cannot change which elements it
        // visits, nor whether the `where` errs.
        std::vector<z3::expr> chosen;
        for (auto& [x, m] : elems) {
          f[size_t(s.slot)] = x;
          z3::expr g = m;
          if (s.where) {
            SymP w = eval(*s.where, f);
            o.err = (o.err || (path && m && err_of(w))).simplify();
            g = g && to_bool(w);
          }
          chosen.push_back(g.simplify());
        }
        for (size_t i = 0; i < elems.size(); ++i) {
          const z3::expr& g = chosen[i];
          if (g.is_false()) continue;
          f[size_t(s.slot)] = elems[i].first;
          exec(s.body, f, g.is_true() ? path : path && g);
        }
        break;
      }
      case ir::StmtOp::Again: break;  // the turn's order is not part of the state after
      case ir::StmtOp::Goto: store_slot(ir::kVarPhase, 0, val(s.phase), path); break;
      case ir::StmtOp::End: store_slot(ir::kVarOver, 0, val(1), path); break;
      case ir::StmtOp::Eliminate: {
        auto c = to_cases(eval(*s.value, f));
        if (!c) throw Unsupported(where(s.span) + ": eliminating a player computed as a number");
        for (auto& [q, g] : *c)
          if (q >= 0 && q < p_.players) store_slot(ir::kVarOut, uint32_t(q), val(1), path && g);
        break;
      }
    }
  }
}

SymP Encoder::sum_items(const std::vector<SymP>& items, const ir::Expr& e) {
  // Same-selector tables add pointwise; the rest is one linear sum.
  SymP acc = val(0);
  z3::expr_vector terms(z3_);
  for (const SymP& m0 : items) {
    SymP m = resolve(m0);
    if (m->k == K::Val || (m->k == K::Table && (concrete(*acc) || (acc->k == K::Table && acc->sel == m->sel)))) {
      acc = lift2(Op::Add, acc, m, e);
      continue;
    }
    terms.push_back(to_int(m));
  }
  if (terms.empty()) return acc;
  terms.push_back(to_int(acc));
  return integer(z3::sum(terms));
}

SymP Encoder::size_as_change(const ir::Expr& e, Frame& f) {
  // size(S) on the state after a move: the membership of each element after and before.
  const int domain = e.args[0]->type->domain;
  SymP after = set_elements(resolve(eval(*e.args[0], f)), domain);
  const int o = overlay_;
  overlay_ = -1;
  SymP base = set_elements(resolve(eval(*e.args[0], f)), domain);
  overlay_ = o;
  if (after->items.size() != base->items.size()) return nullptr;
  return count_as_change(after->items, base->items, e, err_of(after));
}

SymP Encoder::count_as_change(const std::vector<SymP>& after, const std::vector<SymP>& base, const ir::Expr& e,
                              const z3::expr& err) {
  // A count on the state after a move, as the count on the state before (the same term
  // the move's set assumes of that state) plus one indicator per element that joined and
  // minus one per element that left: what a count kept or lowered by the move needs is
  // then linear in terms that are never negative, however many elements a loop of
  // writes touches. Exact for any terms: the count before is built from the very items
  // it is compared with.
  z3::expr_vector changes(z3_);
  for (size_t i = 0; i < after.size(); ++i) {
    SymP x = resolve(after[i]), y = resolve(base[i]);
    if (x == y) continue;
    const z3::expr bx = to_bool(x), by = to_bool(y);
    if (z3::eq(bx, by)) continue;
    if (!all_counts_as_changes) {
      changes.push_back(to_int(x) - to_int(y));
      continue;
    }
    const z3::expr gain = (bx && !by).simplify(), loss = (by && !bx).simplify();
    if (!gain.is_false()) changes.push_back(z3::ite(gain, z3_.int_val(1), z3_.int_val(0)));
    if (!loss.is_false()) changes.push_back(-z3::ite(loss, z3_.int_val(1), z3_.int_val(0)));
  }
  if (!all_counts_as_changes && changes.size() * 2 > after.size()) return nullptr;
  SymP before = sum_items(base, e);
  if (changes.empty()) return with_err(before, err);
  // The count before is named by a constant (defined once, among the facts): Z3's
  // simplifier would otherwise merge it with the changes into the plain sum again.
  z3::expr t = to_int(before);
  if (!t.is_numeral()) {
    auto it = named_sums_.find(t.id());
    if (it == named_sums_.end()) {
      z3::expr c = z3_.int_const(fmt::format("count#{}", named_sums_.size()).c_str());
      facts_.push_back(c == t);
      it = named_sums_.emplace(t.id(), std::make_pair(t, c)).first;
    }
    t = it->second.second;
  }
  changes.push_back(t);
  return with_err(integer(z3::sum(changes)), err);
}

}  // namespace rulebook::verifier
