// Counts of components and the largest group of symbolic sets: lazy one-hot numbers,
// their facts known in advance and the cuts of a model whose values are wrong.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "verifier/encode_internal.h"

namespace rulebook::verifier {

using K = Sym::K;
using ir::Op;
using B = dsl::BuiltinId;

const ir::Expr* Encoder::components_of(const ir::Expr& e, const ir::Function** via) const {
  *via = nullptr;
  const ir::Expr* comp = &e;
  if (comp->op == Op::Call && comp->args.empty()) {
    const ir::Function& fn = p_.functions[size_t(comp->function)];
    if (fn.params.empty() && fn.body && fn.body->op == Op::Builtin && fn.body->builtin == B::Components) {
      *via = &fn;
      comp = fn.body.get();
    }
  }
  return comp->op == Op::Builtin && comp->builtin == B::Components ? comp : nullptr;
}

namespace {

/// Whether `e` reads local `slot` at all.
bool reads_local(const ir::Expr& e, int slot) {
  if (e.op == Op::Local && e.slot == slot) return true;
  for (const auto& x : e.args)
    if (x && reads_local(*x, slot)) return true;
  return false;
}

/// The conjuncts of `e` (through `and`).
void conjuncts_of(const ir::Expr* e, std::vector<const ir::Expr*>& out) {
  if (!e) return;
  if (e->op == Op::And) {
    for (const auto& a : e->args) conjuncts_of(a.get(), out);
    return;
  }
  out.push_back(e);
}

/// `e` reads local `slot` only as the argument of size(...).
bool reads_only_size_of(const ir::Expr& e, int slot) {
  if (e.op == Op::Local && e.slot == slot) return false;
  if (e.op == Op::Builtin && e.builtin == B::Size && e.args.size() == 1 && e.args[0]->op == Op::Local &&
      e.args[0]->slot == slot)
    return true;
  for (const auto& x : e.args)
    if (x && !reads_only_size_of(*x, slot)) return false;
  return true;
}

}  // namespace

std::vector<int> Encoder::first_connected(const std::vector<int>& group, size_t m) const {
  // Breadth first from the group's first cell, within the group.
  std::vector<int> out{group.front()};
  std::vector<char> seen(size_t(m_.cells), 0), inside(size_t(m_.cells), 0);
  for (int c : group) inside[size_t(c)] = 1;
  seen[size_t(group.front())] = 1;
  for (size_t i = 0; i < out.size() && out.size() < m; ++i)
    for (int d = 0; d < m_.cells && out.size() < m; ++d)
      if (inside[size_t(d)] && !seen[size_t(d)] && ir::test(m_.orth[size_t(out[i])], d)) {
        seen[size_t(d)] = 1;
        out.push_back(d);
      }
  return out;
}

SymP Encoder::components_aggregate(const ir::Expr& e, Frame& f, const SymP& set) {
  // The condition (and body) read a component only through its size, so their value for
  // every component of n cells is their value for any set of n cells: one table per size,
  // computed here, with the first n cells standing in. Anything else they read must be
  // known here (a constant, a setup fixed, an enclosing loop's value).
  const ir::Expr* where_e = e.args[1].get();
  const ir::Expr* body_e = e.args.size() > 2 ? e.args[2].get() : nullptr;
  const std::string what = fmt::format("{}: a condition on the components of a set computed from the state", where(e.span));
  auto truth = [&](const ir::Expr& x) {
    SymP r = resolve(eval(x, f));
    if (r->k != K::Val || r->err) throw Unsupported(what + " that reads the state, or may fail");
    return r->v != 0;
  };
  const int n = m_.cells;
  // `x in g` as a conjunct of the where or the body of some, no or count, x a cell known
  // here: the one component holding x, if any, read through its size (group_size_lazy).
  if (e.op != Op::All) {
    std::vector<const ir::Expr*> conj;
    conjuncts_of(where_e, conj);
    conjuncts_of(body_e, conj);
    const ir::Expr* member = nullptr;
    for (const ir::Expr* c : conj)
      if (!member && c->op == Op::In && c->args.size() == 2 && c->args[1]->op == Op::Local &&
          c->args[1]->slot == e.slot && !reads_local(*c->args[0], e.slot))
        member = c;
    if (member) {
      const SymP x = resolve(eval(*member->args[0], f));
      if (x->k != K::Val || x->err || x->v < 0 || x->v >= n)
        throw Unsupported(what + " that asks whether a cell the state decides is in a component");
      for (const ir::Expr* c : conj)
        if (c != member && !reads_only_size_of(*c, e.slot))
          throw Unsupported(what + " that reads a component otherwise than by its size(...) and a cell in it");
      const SymP saved = f[size_t(e.slot)];
      ir::Bits first(ir::words(uint32_t(n)), 0);
      const SymP size = group_size_lazy(set, int(x->v));
      // Per size v: the other conjuncts with a stand-in set of v cells for the component
      // (they may read the state or the setup otherwise: symbolic then).
      z3::expr_vector holds(z3_), errs(z3_);
      errs.push_back(err_of(size));
      for (int v = 1; v <= n; ++v) {
        ir::set_bit(first, v - 1);
        f[size_t(e.slot)] = bits_sym(first, ir::kCellDomain);
        z3::expr all_hold = z3_.bool_val(true), err = z3_.bool_val(false);
        for (const ir::Expr* c : conj) {
          if (c == member) continue;
          auto [b, c_err] = condition(*c, f);
          all_hold = all_hold && b;
          err = err || c_err;
        }
        const z3::expr is_v = size->cases.at(size_t(v)).second;
        all_hold = all_hold.simplify();
        err = err.simplify();
        if (!all_hold.is_false()) holds.push_back(all_hold.is_true() ? is_v : is_v && all_hold);
        if (!err.is_false()) errs.push_back(is_v && err);
      }
      f[size_t(e.slot)] = saved;
      const z3::expr h = holds.empty() ? z3_.bool_val(false) : z3::mk_or(holds);
      const z3::expr err = z3::mk_or(errs).simplify();
      if (e.op == Op::Count) {
        auto out = std::make_shared<Sym>();
        out->k = K::Cases;
        out->cases.emplace_back(0, !h);
        out->cases.emplace_back(1, h);
        return with_err(out, err);
      }
      return with_err(boolean(e.op == Op::Some ? h : !h), err);
    }
  }
  if ((where_e && !reads_only_size_of(*where_e, e.slot)) || (body_e && !reads_only_size_of(*body_e, e.slot)))
    throw Unsupported(what + " that reads a component otherwise than by its size(...) (or by `c in g` for a cell c "
                             "known there, in some, no or count)");
  std::vector<char> by_size(size_t(n) + 1, 0);
  const SymP saved = f[size_t(e.slot)];
  ir::Bits first(ir::words(uint32_t(n)), 0);
  for (int size = 1; size <= n; ++size) {
    ir::set_bit(first, size - 1);
    f[size_t(e.slot)] = bits_sym(first, ir::kCellDomain);
    const bool w = !where_e || truth(*where_e);
    const bool b = !body_e || truth(*body_e);
    // count: where holds; some, no: where and body hold; all: where holds and body fails.
    by_size[size_t(size)] = e.op == Op::All ? (w && !b) : (w && b);
  }
  f[size_t(e.slot)] = saved;
  SymP count = components_count(set, std::move(by_size));
  if (e.op == Op::Count) return count;
  // All and no hold when the count is 0, some when it is not (its cases: value 0 first;
  // a constant when no size is counted).
  if (count->k == K::Val) return with_err(val((count->v == 0) != (e.op == Op::Some) ? 1 : 0), err_of(count));
  const z3::expr zero = count->cases.at(0).second;
  return with_err(boolean(e.op == Op::Some ? !zero : zero), err_of(count));
}

SymP Encoder::fresh_lazy(const SymP& el, const char* name, LazyCount& lc, z3::expr_vector& any) {
  // One-hot over 0..cells (a number of few values is propositional, and the SAT-based
  // solver keeps its own reasoning on sums of conditions; an integer would send those to
  // arithmetic circuits).
  const int id = fresh_++;
  z3::expr_vector all(z3_);
  for (int c = 0; c < m_.cells; ++c) {
    lc.in.push_back(to_bool(el->items[size_t(c)]));
    if (!lc.in.back().is_false()) any.push_back(lc.in.back());
  }
  auto out = std::make_shared<Sym>();
  out->k = Sym::K::Cases;
  for (int v = 0; v <= m_.cells; ++v) {
    lc.is.push_back(z3_.bool_const(fmt::format("{}{}={}", name, id, v).c_str()));
    count_ids_.insert(lc.is.back().id());
    all.push_back(lc.is.back());
    out->cases.emplace_back(v, lc.is.back());
  }
  count_facts_.push_back(z3::mk_or(all));
  count_facts_.push_back(z3::atmost(all, 1));
  return out;
}

SymP Encoder::components_count(const SymP& s, std::vector<char> by_size) {
  // A fresh number, refined lazily by cuts (component_cuts): an exact encoding (a label
  // and a distance per cell) puts integer orderings over every cell into each question,
  // which the solvers search slowly; without them, a model's count is checked against
  // its set and cut off when wrong.
  // The cuts would join the facts of every later question: not generalised.
  if (abstract) throw Unsupported("components of a set computed from the state, generalised");
  SymP el = set_elements(s, ir::kCellDomain);
  if (!by_size.empty()) {
    // Every size counted: the plain count (with its stronger cuts); none: 0.
    const bool every = std::all_of(by_size.begin() + 1, by_size.end(), [](char c) { return c != 0; });
    const bool none = std::none_of(by_size.begin() + 1, by_size.end(), [](char c) { return c != 0; });
    if (every) by_size.clear();
    else if (none) return with_err(val(0), err_of(el));
  }
  LazyCount lc;
  lc.by_size = std::move(by_size);
  z3::expr_vector any(z3_);
  SymP out = fresh_lazy(el, "components", lc, any);
  const z3::expr nonempty = any.empty() ? z3_.bool_val(false) : z3::mk_or(any);
  // No component in an empty set; a component counted has a cell.
  count_facts_.push_back(lc.by_size.empty() ? lc.is[0] == !nonempty : z3::implies(!nonempty, lc.is[0]));
  // Components of some sizes only, the smallest k: v of them hold at least k * v cells.
  if (!lc.by_size.empty()) {
    const size_t k = lc.smallest();
    for (size_t v = 1; v < lc.is.size(); ++v)
      count_facts_.push_back(z3::implies(lc.is[v], k * v > any.size() ? z3_.bool_val(false) : z3::atleast(any, unsigned(k * v))));
  }
  // The cuts of single cells, known in advance: in a connected set of two or more cells,
  // each cell has a neighbour in the set.
  if (lc.by_size.empty() && any.size() >= 2) {
    const z3::expr connected_pair = (lc.is[0] || lc.is[1]) && z3::atleast(any, 2);
    for (int c = 0; c < m_.cells; ++c) {
      if (lc.in[size_t(c)].is_false()) continue;
      z3::expr_vector nb(z3_);
      for (int d = 0; d < m_.cells; ++d)
        if (ir::test(m_.orth[size_t(c)], d) && !lc.in[size_t(d)].is_false()) nb.push_back(lc.in[size_t(d)]);
      count_facts_.push_back(z3::implies(connected_pair && lc.in[size_t(c)], nb.empty() ? z3_.bool_val(false) : z3::mk_or(nb)));
    }
  }
  lazy_counts_.push_back(std::move(lc));
  return with_err(out, err_of(el));
}

SymP Encoder::group_size_lazy(const SymP& s, int cell) {
  // As a count of components (components_count), with facts and cuts of its own.
  if (abstract)
    throw Unsupported(cell < 0 ? "the largest group of a set computed from the state, generalised"
                               : "the component of a cell in a set computed from the state, generalised");
  SymP el = set_elements(s, ir::kCellDomain);
  LazyCount lc;
  lc.largest = cell < 0;
  lc.at = cell;
  z3::expr_vector any(z3_);
  SymP out = fresh_lazy(el, cell < 0 ? "largest" : "component_at", lc, any);
  auto or_of = [this](const z3::expr_vector& v) { return v.empty() ? z3_.bool_val(false) : z3::mk_or(v); };
  if (cell < 0) {
    // 0 exactly when the set is empty.
    count_facts_.push_back(lc.is[0] == !or_of(any));
  } else {
    // 0 exactly when the cell is not in the set; 1 exactly when none of its neighbours is.
    const z3::expr here = lc.in[size_t(cell)];
    z3::expr_vector around(z3_);
    for (int d = 0; d < m_.cells; ++d)
      if (ir::test(m_.orth[size_t(cell)], d) && !lc.in[size_t(d)].is_false()) around.push_back(lc.in[size_t(d)]);
    count_facts_.push_back(lc.is[0] == !here);
    count_facts_.push_back(lc.is[1] == (here && !or_of(around)));
  }
  // The largest group of v cells needs v cells in the set. (Not said of a cell's
  // component: a puzzle's table has one per cell, and their cardinalities, one per cell
  // and size, made a million clauses on a 6x6 board, where the SAT-based solver spent
  // seconds on each new solver and round; the cuts bound those sizes as well.)
  if (cell < 0)
    for (size_t v = 2; v < lc.is.size(); ++v)
      count_facts_.push_back(z3::implies(lc.is[v], v > any.size() ? z3_.bool_val(false) : z3::atleast(any, unsigned(v))));
  lazy_counts_.push_back(std::move(lc));
  return with_err(out, err_of(el));
}

z3::expr Encoder::euler_bound(const LazyCount& lc) const {
  // Euler's formula for the set's cells as a plane graph (the grid's cells and their
  // orthogonal neighbours): cells - adjacent pairs + 2x2 blocks + holes = components, a
  // hole being a region outside the set that the set encloses
  // (tests/verify/test_euler_components.cpp). With holes >= 0, the count is at least
  // cells - pairs + blocks: as one pseudo-boolean sum over positive literals, cells +
  // blocks + (pairs not both in) + the sum of v * (the count is not v) <= pairs + the sum
  // of v.
  z3::expr_vector lits(z3_);
  std::vector<int> coeffs;
  int64_t bound = 0;
  auto lit = [&](const z3::expr& e, int64_t w) {
    if (e.is_false()) return;
    lits.push_back(e);
    coeffs.push_back(int(w));
  };
  const int w = m_.width, h = m_.height;
  auto in = [&](int c) { return lc.in[size_t(c)]; };
  for (int c = 0; c < m_.cells; ++c) {
    lit(in(c), 1);
    const int x = c % w, y = c / w;
    for (const int d : {x + 1 < w ? c + 1 : -1, y + 1 < h ? c + w : -1}) {
      if (d < 0) continue;
      ++bound;
      lit(!(in(c) && in(d)), 1);  // true where a cell is never in the set
    }
    if (x + 1 < w && y + 1 < h) lit(in(c) && in(c + 1) && in(c + w) && in(c + w + 1), 1);
  }
  for (size_t v = 1; v < lc.is.size(); ++v) {
    lit(!lc.is[v], int64_t(v));
    bound += int64_t(v);
  }
  return z3::pble(lits, coeffs.data(), int(bound));
}

std::vector<int> Encoder::counted_cells() const {
  std::vector<int> out;
  for (const LazyCount& lc : lazy_counts_) out.push_back(lc.at);
  return out;
}

std::vector<std::vector<z3::expr>> Encoder::counted_sets() const {
  std::vector<std::vector<z3::expr>> out;
  for (const LazyCount& lc : lazy_counts_) out.push_back(lc.in);
  return out;
}

bool Encoder::reads_counts(const z3::expr& e) const {
  if (count_ids_.empty()) return false;
  std::unordered_set<unsigned> seen;
  std::vector<z3::expr> stack{e};
  while (!stack.empty()) {
    z3::expr x = stack.back();
    stack.pop_back();
    if (!seen.insert(x.id()).second || !x.is_app()) continue;
    if (count_ids_.count(x.id())) return true;
    for (unsigned i = 0; i < x.num_args(); ++i) stack.push_back(x.arg(i));
  }
  return false;
}

z3::expr Encoder::reaches_all(const LazyCount& lc, int steps) {
  // From the first cell of the set (by index), step by step along neighbours in it.
  const int n = m_.cells;
  std::vector<z3::expr> reached;
  z3::expr none_before = z3_.bool_val(true);
  for (int c = 0; c < n; ++c) {
    reached.push_back(lc.in[size_t(c)] && none_before);
    none_before = none_before && !lc.in[size_t(c)];
  }
  for (int t = 0; t < steps; ++t) {
    std::vector<z3::expr> next;
    for (int c = 0; c < n; ++c) {
      z3::expr_vector from(z3_);
      from.push_back(reached[size_t(c)]);
      for (int d = 0; d < n; ++d)
        if (ir::test(m_.orth[size_t(c)], d)) from.push_back(reached[size_t(d)]);
      next.push_back(lc.in[size_t(c)].is_false() ? lc.in[size_t(c)] : lc.in[size_t(c)] && z3::mk_or(from));
    }
    reached = std::move(next);
  }
  z3::expr_vector all(z3_);
  for (int c = 0; c < n; ++c)
    if (!lc.in[size_t(c)].is_false()) all.push_back(z3::implies(lc.in[size_t(c)], reached[size_t(c)]));
  return all.empty() ? z3_.bool_val(true) : z3::mk_and(all);
}

z3::expr Encoder::few_counted_cells(const z3::model* m, int cap) {
  z3::expr_vector out(z3_);
  for (const LazyCount& lc : lazy_counts_) {
    bool counted = m == nullptr;
    for (const z3::expr& g : lc.is) counted = counted || m->eval(g, false).is_true();
    if (!counted) continue;
    z3::expr_vector in(z3_);
    for (const z3::expr& c : lc.in)
      if (!c.is_false()) in.push_back(c);
    if (int(in.size()) > cap) out.push_back(z3::atmost(in, unsigned(cap)));
    if (!lc.by_size.empty() || lc.largest || lc.at >= 0) continue;  // "at most one" is said of every component only
    // A connected set of at most `cap` cells reaches all its cells from any one of them
    // in cap - 1 steps: exactly connected, so the count's "at most 1" needs no cuts.
    const z3::expr all = reaches_all(lc, cap - 1);
    if (!all.is_true()) out.push_back(z3::implies(lc.is[0] || lc.is[1], all));
  }
  return out.empty() ? z3_.bool_val(true) : z3::mk_and(out);
}

std::vector<z3::expr> Encoder::component_cuts(z3::model& m, std::vector<char>* euler_stated) {
  std::vector<z3::expr> cuts;
  if (euler_stated) euler_stated->resize(lazy_counts_.size(), 0);
  for (size_t k = 0; k < lazy_counts_.size(); ++k) {
    LazyCount& lc = lazy_counts_[k];
    int64_t claimed = -1;
    for (size_t v = 0; v < lc.is.size() && claimed < 0; ++v)
      if (m.eval(lc.is[v], false).is_true()) claimed = int64_t(v);
    // A count the question does not read is still set to its true value: a value read
    // from the model afterwards (a bound's) must be the rules' own.
    const int n = m_.cells;
    std::vector<char> in(size_t(n), 0);
    ir::Bits set(ir::words(uint32_t(n)), 0);
    for (int c = 0; c < n; ++c)
      if ((in[size_t(c)] = m.eval(lc.in[size_t(c)], true).is_true())) ir::set_bit(set, c);
    // The set's components in the model, each with its rim: the cells around it, none of
    // them in the set.
    std::vector<std::vector<int>> cells, rim;
    for (const ir::Bits& g : m_.groups(set)) {
      ir::Bits around(g.size(), 0);
      cells.emplace_back();
      rim.emplace_back();
      for (int c = 0; c < n; ++c)
        if (ir::test(g, c)) {
          cells.back().push_back(c);
          for (size_t w = 0; w < around.size(); ++w) around[w] |= m_.orth[size_t(c)][w];
        }
      for (int c = 0; c < n; ++c)
        if (ir::test(around, c) && !ir::test(g, c)) rim.back().push_back(c);
    }
    int64_t actual = 0;
    size_t largest = 0;  // the model's largest group (an index into cells)
    for (size_t i = 0; i < cells.size(); ++i) {
      actual += lc.counts(cells[i].size()) ? 1 : 0;
      if (cells[i].size() > cells[largest].size()) largest = i;
    }
    if (lc.largest) actual = cells.empty() ? 0 : int64_t(cells[largest].size());
    size_t holding = cells.size();  // the model's group holding cell `at`
    if (lc.at >= 0) {
      for (size_t i = 0; i < cells.size(); ++i)
        if (std::find(cells[i].begin(), cells[i].end(), lc.at) != cells[i].end()) holding = i;
      actual = holding < cells.size() ? int64_t(cells[holding].size()) : 0;
    }
    for (size_t v = 0; v < lc.is.size(); ++v) {
      z3::func_decl decl = lc.is[v].decl();
      z3::expr value = z3_.bool_val(int64_t(v) == actual);
      m.add_const_interp(decl, value);
    }
    // "The count is at least / at most / exactly k" as the guards of those values.
    auto count_in = [&](int64_t lo, int64_t hi) {
      z3::expr_vector gs(z3_);
      for (int64_t v = std::max<int64_t>(lo, 0); v <= std::min<int64_t>(hi, int64_t(lc.is.size()) - 1); ++v)
        gs.push_back(lc.is[size_t(v)]);
      return gs.empty() ? z3_.bool_val(false) : z3::mk_or(gs);
    };
    if (claimed < 0 || claimed == actual) continue;
    auto in_ = [&](int c) { return lc.in[size_t(c)]; };
    if (lc.at >= 0) {
      // (The facts make the claim 0 exactly when the cell is out of the set: it is in here.)
      if (holding == cells.size()) continue;
      std::vector<int> group = cells[holding];
      std::iter_swap(group.begin(), std::find(group.begin(), group.end(), lc.at));
      if (claimed < actual) {
        // Connected cells of the set with the cell lie in its component: claimed + 1 of
        // them (reached from the cell), and all of them, make it at least that large.
        for (size_t m : {size_t(claimed) + 1, group.size()}) {
          z3::expr_vector some(z3_);
          for (int c : first_connected(group, m)) some.push_back(in_(c));
          cuts.push_back(z3::implies(z3::mk_and(some), count_in(int64_t(m), n)));
        }
      } else {
        // With the group's rim out of the set, the cell's component is within the group.
        z3::expr_vector closed(z3_);
        closed.push_back(in_(lc.at));
        for (int b : rim[holding])
          if (!lc.in[size_t(b)].is_false()) closed.push_back(!in_(b));
        cuts.push_back(z3::implies(z3::mk_and(closed), count_in(1, actual)));
      }
      continue;
    }
    if (lc.largest) {
      if (claimed < actual) {
        // Connected cells of the set lie in one group: claimed + 1 of the largest group's
        // (reached from its first cell) make the largest at least that many, and so do all.
        for (size_t m : {size_t(claimed) + 1, cells[largest].size()}) {
          z3::expr_vector some(z3_);
          for (int c : first_connected(cells[largest], m)) some.push_back(in_(c));
          cuts.push_back(z3::implies(z3::mk_and(some), count_in(int64_t(m), n)));
        }
      } else {
        // A set within the model's has its groups within the model's groups.
        z3::expr_vector outside(z3_);
        for (int c = 0; c < n; ++c)
          if (!in[size_t(c)] && !lc.in[size_t(c)].is_false()) outside.push_back(!in_(c));
        cuts.push_back(z3::implies(outside.empty() ? z3_.bool_val(true) : z3::mk_and(outside), count_in(0, actual)));
      }
      continue;
    }
    if (claimed < actual) {
      // Euler's bound, once a model claims too few. (As a fact from the start it made
      // generating six islands on 7x7 about three times faster again, but one question of
      // a SMYOZ puzzle, whose island count it also bounds, went from 5 s to unknown at 180 s.)
      char& stated = euler_stated ? (*euler_stated)[k] : lc.euler;
      if (lc.by_size.empty() && !stated) {
        stated = 1;
        cuts.push_back(euler_bound(lc));
      }
      // These components (those counted), each with its rim empty, are components: at
      // least that many.
      z3::expr_vector isolated(z3_);
      for (size_t i = 0; i < cells.size(); ++i) {
        if (!lc.counts(cells[i].size())) continue;
        for (int c : cells[i]) isolated.push_back(in_(c));
        for (int b : rim[i]) isolated.push_back(!in_(b));
      }
      cuts.push_back(z3::implies(z3::mk_and(isolated), count_in(actual, n)));
      // When every size from some m on is counted, any m connected cells of the set lie
      // in a counted component: m cells of each counted group (the first reached from
      // its first cell) make the count at least 1, whatever surrounds them.
      const size_t m = lc.tail();
      if (!lc.by_size.empty() && m <= size_t(n))
        for (size_t i = 0; i < cells.size(); ++i) {
          if (cells[i].size() < m) continue;
          z3::expr_vector some(z3_);
          for (int c : first_connected(cells[i], m)) some.push_back(in_(c));
          cuts.push_back(z3::implies(z3::mk_and(some), count_in(1, n)));
        }
      // In a connected set, a path from a component's cells to a cell beyond its rim
      // crosses the rim.
      if (claimed <= 1 && lc.by_size.empty())
        for (size_t i = 0; i < cells.size(); ++i) {
          std::vector<char> near(size_t(n), 0);
          for (int c : cells[i]) near[size_t(c)] = 1;
          for (int b : rim[i]) near[size_t(b)] = 1;
          z3::expr_vector inside(z3_), beyond(z3_), across(z3_);
          for (int c : cells[i]) inside.push_back(in_(c));
          for (int b : rim[i]) across.push_back(in_(b));
          for (int d = 0; d < n; ++d)
            if (!near[size_t(d)] && !lc.in[size_t(d)].is_false()) beyond.push_back(in_(d));
          if (beyond.empty()) continue;
          cuts.push_back(z3::implies(count_in(0, 1) && z3::mk_or(inside) && z3::mk_or(beyond),
                                     across.empty() ? z3_.bool_val(false) : z3::mk_or(across)));
        }
    } else {
      // A component's first cell (by index) has no neighbour of a lower index in the set:
      // there are at least as many such cells as components.
      z3::expr_vector firsts(z3_);
      int64_t firsts_here = 0;
      for (int c = 0; c < n; ++c) {
        if (lc.in[size_t(c)].is_false()) continue;
        z3::expr first = in_(c);
        bool here = in[size_t(c)] != 0;
        for (int d = 0; d < c; ++d)
          if (ir::test(m_.orth[size_t(c)], d)) {
            first = first && !in_(d);
            here = here && !in[size_t(d)];
          }
        firsts.push_back(first);
        firsts_here += here ? 1 : 0;
      }
      // (Components of some sizes only are no more than the components.)
      if (firsts_here < claimed) {
        cuts.push_back(z3::implies(lc.is[size_t(claimed)], z3::atleast(firsts, unsigned(claimed))));
      } else if (!lc.by_size.empty()) {
        // Components of some sizes only. While the model's groups stay as they are (cells
        // in, rims out), every other component lies beyond their rims, where the model has
        // none: its first cell is one of the firsts there, and a counted one has at least
        // the smallest counted size of cells there.
        std::vector<char> near(size_t(n), 0);
        z3::expr_vector isolated(z3_);
        for (size_t i = 0; i < cells.size(); ++i) {
          for (int c : cells[i]) {
            near[size_t(c)] = 1;
            isolated.push_back(in_(c));
          }
          for (int b : rim[i]) {
            near[size_t(b)] = 1;
            isolated.push_back(!in_(b));
          }
        }
        z3::expr_vector firsts_beyond(z3_), beyond(z3_);
        size_t fi = 0;
        for (int c = 0; c < n; ++c) {
          if (lc.in[size_t(c)].is_false()) continue;
          if (!near[size_t(c)]) {
            firsts_beyond.push_back(firsts[unsigned(fi)]);
            beyond.push_back(in_(c));
          }
          ++fi;
        }
        const z3::expr kept = isolated.empty() ? z3_.bool_val(true) : z3::mk_and(isolated);
        const unsigned more = unsigned(claimed - actual);
        const unsigned least = unsigned(lc.smallest()) * more;
        cuts.push_back(z3::implies(kept && lc.is[size_t(claimed)],
                                   firsts_beyond.size() < more || beyond.size() < least
                                       ? z3_.bool_val(false)
                                       : z3::atleast(firsts_beyond, more) && z3::atleast(beyond, least)));
      } else {
        // These connected groups in the set, and nothing beyond their rims: no more
        // components than groups (a rim cell joins a group).
        std::vector<char> near(size_t(n), 0);
        z3::expr_vector same(z3_);
        for (size_t i = 0; i < cells.size(); ++i) {
          for (int c : cells[i]) {
            near[size_t(c)] = 1;
            same.push_back(in_(c));
          }
          for (int b : rim[i]) near[size_t(b)] = 1;
        }
        for (int c = 0; c < n; ++c)
          if (!near[size_t(c)] && !lc.in[size_t(c)].is_false()) same.push_back(!in_(c));
        cuts.push_back(z3::implies(same.empty() ? z3_.bool_val(true) : z3::mk_and(same), count_in(0, actual)));
      }
    }
  }
  for (const z3::expr& c : cuts) count_facts_.push_back(c);
  return cuts;
}

}  // namespace rulebook::verifier
