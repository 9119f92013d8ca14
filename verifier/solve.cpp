// Questions on a set: solver calls within the property's budget, relaxations that keep
// only the conditions on the selectors a question reads, and exact regrouped sums.
#include <algorithm>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "verifier/slice.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

/// More split disjuncts than this are grouped by the selectors they read; more groups
/// than this are asked as one question.
constexpr size_t kMaxGroups = 256;

/// The selectors `e` reads (-1 for anything that is not a selector's guard), and whether
/// it has integer terms.
std::pair<std::vector<int>, bool> support_of(const Encoder& enc, const z3::expr& e) {
  std::unordered_set<unsigned> seen;
  std::set<int> out;
  bool arith = false;
  std::vector<z3::expr> stack{e};
  while (!stack.empty()) {
    z3::expr x = stack.back();
    stack.pop_back();
    if (!seen.insert(x.id()).second) continue;
    arith = arith || x.is_int();
    if (!x.is_app()) {
      out.insert(-1);
      continue;
    }
    const unsigned n = x.num_args();
    if (n == 0) {
      if (x.decl().decl_kind() == Z3_OP_UNINTERPRETED) out.insert(enc.selector_of(x.id()));
      continue;
    }
    for (unsigned i = 0; i < n; ++i) stack.push_back(x.arg(i));
  }
  return {{out.begin(), out.end()}, arith};
}

}  // namespace

void RepairedModel::add(z3::solver& s, const z3::expr& e) {
  s.add(e);
  added_.push_back(e);
}

bool RepairedModel::holds(const z3::model& m) {
  // Which assertions read a count is found when first asked (a question whose models
  // never need repair does not pay for the walk).
  for (; scanned_ < added_.size(); ++scanned_)
    if (enc_.reads_counts(added_[scanned_])) reading_.push_back(added_[scanned_]);
  for (const z3::expr& e : reading_)
    if (!m.eval(e, true).is_true()) return false;
  return true;
}

z3::check_result check_with_cuts(z3::solver& s, RepairedModel& repaired, const z3::expr_vector& as,
                                 const std::function<std::vector<z3::expr>(z3::model&)>& cuts,
                                 const std::function<void(const z3::expr&)>& add, const std::function<bool()>& go_on,
                                 std::optional<z3::model>& model) {
  model.reset();
  z3::check_result r = s.check(as);
  while (r == z3::sat) {
    z3::model m = s.get_model();
    const std::vector<z3::expr> cs = cuts ? cuts(m) : std::vector<z3::expr>{};
    if (cs.empty() || repaired.holds(m)) {
      model = m;
      break;
    }
    for (const z3::expr& c : cs) add(c);
    if (!go_on()) return z3::unknown;
    r = s.check(as);
  }
  return r;
}

uint64_t rlimit_count(z3::solver& s) {
  z3::stats st = s.statistics();
  for (unsigned i = 0; i < st.size(); ++i)
    if (st.key(i) == "rlimit count") return st.is_uint(i) ? st.uint_value(i) : uint64_t(st.double_value(i));
  return 0;
}

namespace {

/// Values computed once per node: the terms share subterms (a loop's stores nest
/// if-then-else over the same parts), so a walk without memo is exponential in their depth.
struct Memo {
  std::unordered_map<unsigned, Range> ranges;
  std::unordered_map<unsigned, int> truths;
};

Range range_rec(const z3::expr& e, Memo& m);
int truth_rec(const z3::expr& b, Memo& m);

Range range_of(const z3::expr& e, Memo& m) {
  if (auto it = m.ranges.find(e.id()); it != m.ranges.end()) return it->second;
  Range r = range_rec(e, m);
  m.ranges.emplace(e.id(), r);
  return r;
}

Range range_rec(const z3::expr& e, Memo& m) {
  int64_t v;
  if (e.is_numeral_i64(v)) return Range{{v, v}};
  if (!e.is_app()) return {};
  const auto k = e.decl().decl_kind();
  const unsigned n = e.num_args();
  switch (k) {
    case Z3_OP_ITE: {
      Range a = range_of(e.arg(1), m), b = range_of(e.arg(2), m);
      if (!a || !b) return {};
      return Range{{std::min(a->first, b->first), std::max(a->second, b->second)}};
    }
    case Z3_OP_ADD:
    case Z3_OP_SUB: {
      // A bound that leaves 64 bits is no bound (the terms are unbounded integers).
      Range acc;
      for (unsigned i = 0; i < n; ++i) {
        Range a = range_of(e.arg(i), m);
        if (!a) return {};
        if (i == 0) {
          acc = a;
          continue;
        }
        int64_t lo, hi;
        const bool over = k == Z3_OP_ADD ? __builtin_add_overflow(acc->first, a->first, &lo) ||
                                               __builtin_add_overflow(acc->second, a->second, &hi)
                                         : __builtin_sub_overflow(acc->first, a->second, &lo) ||
                                               __builtin_sub_overflow(acc->second, a->first, &hi);
        if (over) return {};
        acc = Range{{lo, hi}};
      }
      return acc;
    }
    case Z3_OP_UMINUS: {
      Range a = range_of(e.arg(0), m);
      if (!a || a->first == INT64_MIN) return {};
      return Range{{-a->second, -a->first}};
    }
    case Z3_OP_MUL: {
      Range acc{{1, 1}};
      for (unsigned i = 0; i < n; ++i) {
        Range a = range_of(e.arg(i), m);
        if (!a) return {};
        int64_t c[4];
        if (__builtin_mul_overflow(acc->first, a->first, &c[0]) ||
            __builtin_mul_overflow(acc->first, a->second, &c[1]) ||
            __builtin_mul_overflow(acc->second, a->first, &c[2]) ||
            __builtin_mul_overflow(acc->second, a->second, &c[3]))
          return {};
        acc = Range{{*std::min_element(c, c + 4), *std::max_element(c, c + 4)}};
      }
      return acc;
    }
    default: return {};
  }
}

int truth_of(const z3::expr& b, Memo& m) {
  if (auto it = m.truths.find(b.id()); it != m.truths.end()) return it->second;
  const int t = truth_rec(b, m);
  m.truths.emplace(b.id(), t);
  return t;
}

int truth_rec(const z3::expr& b, Memo& m) {
  if (b.is_true()) return 1;
  if (b.is_false()) return -1;
  if (!b.is_app()) return 0;
  const auto k = b.decl().decl_kind();
  const unsigned n = b.num_args();
  switch (k) {
    case Z3_OP_NOT: return -truth_of(b.arg(0), m);
    case Z3_OP_AND:
    case Z3_OP_OR: {
      // and: false if any is false, true if all are true (or dually).
      const int stop = k == Z3_OP_AND ? -1 : 1;
      bool all = true;
      for (unsigned i = 0; i < n; ++i) {
        const int t = truth_of(b.arg(i), m);
        if (t == stop) return stop;
        all = all && t == -stop;
      }
      return all ? -stop : 0;
    }
    case Z3_OP_IMPLIES: {
      const int a = truth_of(b.arg(0), m), c = truth_of(b.arg(1), m);
      return a == -1 || c == 1 ? 1 : a == 1 && c == -1 ? -1 : 0;
    }
    case Z3_OP_EQ: case Z3_OP_LE: case Z3_OP_GE: case Z3_OP_LT: case Z3_OP_GT: {
      if (n != 2 || !b.arg(0).is_int()) return 0;
      const Range x = range_of(b.arg(0), m), y = range_of(b.arg(1), m);
      if (!x || !y) return 0;
      const auto [xl, xh] = *x;
      const auto [yl, yh] = *y;
      switch (k) {
        case Z3_OP_EQ: return xh < yl || yh < xl ? -1 : xl == xh && yl == yh && xl == yl ? 1 : 0;
        case Z3_OP_LE: return xh <= yl ? 1 : xl > yh ? -1 : 0;
        case Z3_OP_GE: return xl >= yh ? 1 : xh < yl ? -1 : 0;
        case Z3_OP_LT: return xh < yl ? 1 : xl >= yh ? -1 : 0;
        default: return xl > yh ? 1 : xh <= yl ? -1 : 0;
      }
    }
    default: return 0;
  }
}

}  // namespace

Range term_range(const z3::expr& e) {
  Memo m;
  return range_of(e, m);
}

int truth(const z3::expr& b) {
  Memo m;
  return truth_of(b, m);
}

int Verifier::instance_of_part(const Scope& sc, const Part& part) {
  if (part.inst != -2) return part.inst;
  part.inst = -1;
  if (sc.inst.empty()) return -1;
  if (sc.guard_index.empty())
    for (size_t i = 0; i < sc.inst.size(); ++i) sc.guard_index.emplace(sc.inst[i].guard.id(), int(i));
  if (part.e.is_app() && part.e.decl().decl_kind() == Z3_OP_IMPLIES) {
    auto it = sc.guard_index.find(part.e.arg(0).id());
    if (it != sc.guard_index.end()) part.inst = it->second;
  }
  return part.inst;
}

std::vector<bool> Verifier::focus_of(const Scope& sc, const z3::expr& q) {
  if (sc.inst.empty()) return {};
  if (sc.guard_index.empty())
    for (size_t i = 0; i < sc.inst.size(); ++i) sc.guard_index.emplace(sc.inst[i].guard.id(), int(i));
  std::vector<bool> focus(sc.inst.size(), false);
  std::vector<z3::expr> ds;
  disjuncts(q, ds);
  for (const z3::expr& d : ds) {
    int found = -1;
    auto it = sc.guard_index.find(d.id());
    if (it != sc.guard_index.end()) found = it->second;
    else if (d.is_app() && d.decl().decl_kind() == Z3_OP_AND)
      for (unsigned i = 0; i < d.num_args() && found < 0; ++i) {
        auto jt = sc.guard_index.find(d.arg(i).id());
        if (jt != sc.guard_index.end()) found = jt->second;
      }
    if (found < 0) return {};  // a disjunct not tied to one instance: no focus
    focus[size_t(found)] = true;
  }
  return focus;
}

z3::expr any_piece(z3::context& z3, const std::vector<Piece>& ps, const std::function<z3::expr(const z3::expr&)>& bad) {
  z3::expr_vector any(z3);
  for (const Piece& pc : ps) {
    z3::expr b = z3::eq(pc.regrouped, pc.plain) ? bad(pc.plain)
                 : pc.overlap.is_false()            ? bad(pc.regrouped)
                                                    : (!pc.overlap && bad(pc.regrouped)) || (pc.overlap && bad(pc.plain));
    z3::expr q = (b || pc.err).simplify();
    if (q.is_false()) continue;
    any.push_back(pc.guard.is_true() ? q : pc.guard && q);
  }
  return any.empty() ? z3.bool_val(false) : z3::mk_or(any);
}

const std::vector<int>& Verifier::support(const Part& part) {
  if (!part.support) std::tie(part.support, part.arith) = support_of(enc_, part.e);
  return *part.support;
}

void Verifier::unknown_from(z3::solver& s, uint64_t spent, uint64_t rlimit) {
  if (opt_.stopped()) {  // Z3 says "canceled" for an interrupt too
    unknown_ = "interrupted";
    return;
  }
  const std::string why = s.reason_unknown();
  // Z3 says "canceled" for both limits: the resource count, the same on every machine,
  // decides first; the clock only when the resources were not used up.
  if (why.find("resource") != std::string::npos || (rlimit > 0 && spent >= rlimit))
    unknown_ = fmt::format("resource limit (rlimit {})", opt_.rlimit);
  else if (why.find("timeout") != std::string::npos || why.find("canceled") != std::string::npos)
    unknown_ = fmt::format("timeout ({} s)", opt_.timeout_seconds);
  else if (why.find("giveup") != std::string::npos)  // the SAT-based solver: a term it cannot take
    unknown_ = "arithmetic the SAT-based solver cannot take";
  else unknown_ = why;
}

bool Verifier::kept(const Part& p, const Relaxation& r) {
  if (p.lit >= 0 && !r.on[size_t(p.lit)]) return false;  // a rule not assumed
  if (!focus_.empty() && focus_scope_) {
    const int i = instance_of_part(*focus_scope_, p);
    if (i >= 0 && !focus_[size_t(i)]) return false;  // another instance's condition
  }
  if (!r.reads) return true;
  const std::vector<int>& s = support(p);
  if (s.size() > size_t(r.width)) return false;
  for (int x : s)
    if (!std::binary_search(r.reads->begin(), r.reads->end(), x)) return false;
  return true;
}

Answer Verifier::check(const Scope& sc, const Relaxation& r, const z3::expr& q, bool q_arith, double share) {
  Answer a;
  if (opt_.stopped()) {  // no new question once stopped: the run ends with what it has
    unknown_ = "interrupted";
    return a;
  }
  const double used = std::chrono::duration<double>(Clock::now() - budget_.started).count();
  const double seconds = (budget_.seconds - used) * share;
  const uint64_t spent = rlimit_seen_ - budget_.rlimit_base;
  if (seconds <= 0.001) {
    unknown_ = fmt::format("timeout ({} s)", opt_.timeout_seconds);
    return a;
  }
  if (budget_.rlimit > 0 && spent >= budget_.rlimit) {
    unknown_ = fmt::format("resource limit (rlimit {})", opt_.rlimit);
    return a;
  }
  // The rules assumed are asserted, the others left out (no assumption literals: they
  // slow the solver down); the rules a proof used are those with a part in it.
  std::vector<const Part*> use;
  std::vector<bool> rule_used(sc.lits.size(), false);
  for (const Part& f : facts_)
    if (kept(f, r)) use.push_back(&f);
  for (const Part& p : sc.parts)
    if (kept(p, r)) {
      use.push_back(&p);
      if (p.lit >= 0) rule_used[size_t(p.lit)] = true;
    }
  // A proved lemma holds wherever its set's conditions and the rules its proof used hold.
  // In a set with all of those conditions its facts hold outright, so they may join any
  // relaxation (what the whole set implies can be added to a part of it).
  std::unordered_set<unsigned> domain;
  for (const Part& p : sc.parts)
    if (p.lit < 0) domain.insert(p.e.id());
  std::vector<z3::expr> lemma_facts;
  std::optional<SharedTerms> shared;  // what the question reads that facts may speak of (slice.h)
  if (use_lemmas_ && !lemmas_.empty()) shared.emplace(q, [&](unsigned id) { return enc_.selector_of(id); });
  const std::vector<Lemma> no_lemmas;
  for (const Lemma& l : use_lemmas_ ? lemmas_ : no_lemmas) {
    std::vector<size_t> need;
    bool assumed = true;
    for (const std::string& name : l.rules) {
      auto it = std::find(sc.lit_names.begin(), sc.lit_names.end(), name);
      const size_t i = size_t(it - sc.lit_names.begin());
      if (it == sc.lit_names.end() || !r.on[i]) assumed = false;
      else need.push_back(i);
    }
    if (!assumed) continue;
    bool inside = true;
    for (unsigned id : l.domain_ids) inside = inside && domain.count(id) > 0;
    bool added = false;
    if (inside) {
      for (const Part& f : l.facts)
        if ((!r.reads || std::includes(r.reads->begin(), r.reads->end(), support(f).begin(), support(f).end())) &&
            shared->shares(f.e)) {
          lemma_facts.push_back(f.e);
          q_arith = q_arith || f.arith;
          added = true;
        }
    } else if (!r.reads) {
      z3::expr_vector all(z3_);
      for (const Part& f : l.facts)
        if (shared->shares(f.e)) all.push_back(f.e);
      if (!all.empty()) {
        lemma_facts.push_back(z3::implies(l.domain, z3::mk_and(all)));
        q_arith = true;
        added = true;
      }
    }
    if (added)
      for (size_t i : need) rule_used[i] = true;
  }
  // The one-hot sums only where something counts; without counting the question is
  // propositional (with cardinalities) and the SAT-based solver answers it faster.
  bool arith = q_arith;
  for (const Part* p : use) arith = arith || p->arith;
  // Without counting, the SAT-based solver. With counting, the general solver in its
  // incremental mode (its SMT core: the one-hot sums stay linear, and sums of facts are
  // found at once; the non-incremental mode may pick a strategy that bit-blasts them) on a
  // slice of the budget, then the SAT-based solver with its pseudo-boolean reasoning (small
  // counts of conditions that mix selectors need cardinality reasoning, which the
  // arithmetic lacks), then the general solver again on what is left.
  std::vector<z3::expr> partitions;
  {  // the partition facts on what this question reads (slice.h)
    std::vector<z3::expr> used(lemma_facts);
    used.push_back(q);
    for (const Part* p : use) used.push_back(p->e);
    partitions = relevant_partitions(enc_.partition_facts(), used);
  }
  // Whether the question reads a count of components (refined lazily, see below).
  bool counted = enc_.reads_counts(q);
  for (const Part* p : use) {
    if (p->counts < 0) p->counts = enc_.reads_counts(p->e) ? 1 : 0;
    counted = counted || p->counts == 1;
  }
  // The SAT-based solver gets counts compared with constants as cardinality constraints
  // (cardinality.h); a question with no integer term left then goes to it first.
  bool cardinal = false;
  if (arith) {
    bool left = cards_.arithmetic(cards_(q));
    for (size_t i = 0; i < use.size() && !left; ++i) left = cards_.arithmetic(cards_(use[i]->e));
    for (size_t i = 0; i < lemma_facts.size() && !left; ++i) left = cards_.arithmetic(cards_(lemma_facts[i]));
    for (size_t i = 0; i < partitions.size() && !left; ++i) left = cards_.arithmetic(cards_(partitions[i]));
    if (counted)
      for (size_t i = 0; i < enc_.count_facts().size() && !left; ++i) left = cards_.arithmetic(cards_(enc_.count_facts()[i]));
    cardinal = !left;
  }
  auto attempt = [&](bool fd, double part) {
    z3::solver s = fd ? z3::solver(z3_, "QF_FD") : z3::solver(z3_);
    RepairedModel repaired(enc_);
    if (!fd) s.push();
    auto put = [&](const z3::expr& e) { repaired.add(s, fd ? cards_(e) : e); };
    for (const Part* p : use) put(p->e);
    if (arith && !(fd && cardinal))  // the sums' facts are the SMT core's
      for (const Part& f : sum_facts_)
        if (kept(f, r)) put(f.e);
    for (const z3::expr& f : lemma_facts) put(f);
    put(q);
    for (const z3::expr& f : partitions) put(f);
    if (counted)
      for (const z3::expr& f : enc_.count_facts()) put(f);
    const uint64_t now_spent = rlimit_seen_ - budget_.rlimit_base;
    const double left = budget_.seconds - std::chrono::duration<double>(Clock::now() - budget_.started).count();
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(std::max(0.001, left * share * part)));
    const uint64_t rlimit =
        budget_.rlimit > 0 ? std::max<uint64_t>(1, uint64_t(double(budget_.rlimit - std::min(budget_.rlimit, now_spent)) * share * part))
                        : 0;
    const uint64_t before = rlimit_count(s);
    // Counts of components are refined lazily (Encoder::component_cuts): a model whose
    // counts are wrong is repaired when it can be, otherwise cut off, and asked again.
    // While counts are refined, models with few cells in the counted sets are asked for
    // first (an assumption, doubled whenever nothing is found under it): a solver left to
    // itself fills the board, and every stray group of cells costs a round of cuts.
    std::optional<z3::expr> cap_lit;
    int cap = 0;
    std::optional<z3::model> last;
    auto restrict_to = [&](int n) {
      cap = n;
      cap_lit.reset();
      if (cap >= enc_.cells()) return;
      cap_lit = z3_.bool_const(fmt::format("few_cells#{}", cap).c_str());
      repaired.add(s, z3::implies(*cap_lit, enc_.few_counted_cells(last ? &*last : nullptr, cap)));
    };
    if (counted) restrict_to(8);
    while (true) {
      const double seconds = std::chrono::duration<double>(deadline - Clock::now()).count();
      z3::params ps(z3_);
      // A stage with few cells gets a slice: the next one may find what it misses.
      ps.set("timeout", unsigned(std::max(1.0, (cap_lit ? 0.3 : 1.0) * seconds * 1000)));
      // Z3 would take SIGINT for itself during a check and carry on with the next one; the
      // caller's handler and stop flag decide (Options::stop).
      ps.set("ctrl_c", false);
      // With counts of components, the SAT-based solver's own pseudo-boolean reasoning
      // was slow on sums over many cells (the card game's "at most 5 cards of each
      // number"): the totalizer encoding turns them into clauses. Elsewhere the native
      // reasoning stays (the cardinalities of SMYOZ's lines need it).
      if (fd && counted) ps.set("pb.solver", "totalizer");
      const uint64_t spent_here = rlimit_count(s) - before;
      if (rlimit > 0 && spent_here >= rlimit) {
        a.result = z3::unknown;
        unknown_ = fmt::format("resource limit (rlimit {})", opt_.rlimit);
        return;
      }
      if (rlimit > 0) {
        const uint64_t slice = cap_lit ? std::max<uint64_t>(1, uint64_t(0.3 * double(rlimit - spent_here))) : rlimit - spent_here;
        ps.set("rlimit", unsigned(std::min<uint64_t>(slice, std::numeric_limits<unsigned>::max())));
      }
      s.set(ps);
      if (opt_.stopped()) {
        a.result = z3::unknown;
        unknown_ = "interrupted";
        return;
      }
      if (seconds <= 0) {
        a.result = z3::unknown;
        unknown_ = fmt::format("timeout ({} s)", opt_.timeout_seconds);
        return;
      }
      if (cap_lit) {
        z3::expr_vector as(z3_);
        as.push_back(*cap_lit);
        a.result = s.check(as);
      } else {
        a.result = s.check();
      }
      const uint64_t count = rlimit_count(s);
      rlimit_seen_ = std::max(rlimit_seen_, count);
      if (a.result == z3::unknown) unknown_from(s, count > before ? count - before : 0, rlimit);
      if (a.result != z3::sat && cap_lit && Clock::now() < deadline) {  // none found with so few cells: allow more
        restrict_to(cap * 2);
        continue;
      }
      if (a.result != z3::sat) break;
      a.model = s.get_model();
      const std::vector<z3::expr> cuts = enc_.component_cuts(*a.model);
      if (cuts.empty() || repaired.holds(*a.model)) break;
      for (const z3::expr& cut : cuts) repaired.add(s, cut);
      last = a.model;
    }
  };
  // Counts of components are refined by rounds of cuts, which the SAT-based solver
  // answers in a fraction of a second each: it goes first then, and the SMT core after it
  // (the SAT-based solver gives up on arithmetic beyond sums of conditions).
  // A question whose counts are all cardinalities goes to the SAT-based solver first too,
  // on 90% of its budget, and to the SMT core (with the sums as integers) on the rest:
  // SMYOZ 8x8's water-line bound takes 14 s so, 22 s with 60% first and 36 s with the
  // SMT core first; an example board of a Garnsi rule (2 million units) is found only by
  // the SMT core, on what the SAT-based solver leaves.
  const std::vector<std::pair<bool, double>> order =
      counted ? std::vector<std::pair<bool, double>>{{true, 0.6}, {false, 1.0}}
      : cardinal ? std::vector<std::pair<bool, double>>{{true, 0.9}, {false, 1.0}}
      : !arith ? std::vector<std::pair<bool, double>>{{true, 1.0}}
               : std::vector<std::pair<bool, double>>{{false, 0.15}, {true, 0.4}, {false, 1.0}};
  for (const auto& [fd, part] : order) {
    attempt(fd, part);
    if (a.result != z3::unknown) break;
  }
  if (a.result == z3::unsat)
    for (size_t i = 0; i < rule_used.size(); ++i)
      if (rule_used[i]) a.core.push_back(int(i));
  return a;
}

Answer Verifier::ask(const Scope& sc, const z3::expr& q, const std::vector<size_t>* on) {
  while (facts_.size() < enc_.facts().size()) facts_.push_back(Part{enc_.facts()[facts_.size()], -1, std::nullopt});
  while (sum_facts_.size() < enc_.sum_facts().size())
    sum_facts_.push_back(Part{enc_.sum_facts()[sum_facts_.size()], -1, std::nullopt});
  std::vector<bool> assumed(sc.lits.size(), on == nullptr);
  if (on)
    for (size_t i : *on) assumed[i] = true;
  std::vector<z3::expr> ds;
  disjuncts(q, ds);
  Answer out;
  out.result = z3::unsat;
  if (ds.empty()) return out;
  // Each disjunct (or group of disjuncts on the same selectors) is its own question.
  std::vector<z3::expr> groups;
  if (ds.size() <= kMaxGroups) {
    groups = ds;
  } else {
    std::map<std::vector<int>, z3::expr_vector> by;
    std::vector<std::vector<int>> order;
    for (const z3::expr& d : ds) {
      std::vector<int> s = support_of(enc_, d).first;
      auto it = by.find(s);
      if (it == by.end()) {
        it = by.emplace(s, z3::expr_vector(z3_)).first;
        order.push_back(s);
      }
      it->second.push_back(d);
    }
    if (order.size() > kMaxGroups) groups.push_back(q);
    else
      for (const auto& s : order) groups.push_back(by.at(s).size() == 1 ? by.at(s)[0] : z3::mk_or(by.at(s)));
  }
  std::set<int> core;
  bool unknown = false;
  for (const z3::expr& group : groups) {
    // Relaxations: only the conditions on the selectors the question reads, each on one
    // (then two) of them. Fewer conditions allow more models, so an unsat relaxation
    // proves the question unsat; otherwise the next one is tried, and last the whole set.
    const auto [reads, q_arith] = support_of(enc_, group);
    focus_ = focus_of(sc, group);
    focus_scope_ = &sc;
    Answer a;
    if (std::find(reads.begin(), reads.end(), -1) == reads.end()) {
      size_t total = 0, before = 0;
      for (const Part& f : facts_) total += kept(f, Relaxation{assumed}) ? 1 : 0;
      for (const Part& p : sc.parts) total += kept(p, Relaxation{assumed}) ? 1 : 0;
      for (int width : {1, 2}) {
        const Relaxation r{assumed, &reads, width};
        size_t n = 0;
        for (const Part& f : facts_) n += kept(f, r) ? 1 : 0;
        for (const Part& p : sc.parts) n += kept(p, r) ? 1 : 0;
        if (n == total) break;
        if (n == before) continue;
        before = n;
        a = check(sc, r, group, q_arith, width == 1 ? 0.1 : 0.2);
        if (a.result == z3::unsat) break;
      }
    }
    if (a.result != z3::unsat) a = check(sc, Relaxation{assumed}, group, q_arith, 1.0);
    focus_.clear();
    focus_scope_ = nullptr;
    if (a.result == z3::sat) return a;
    if (a.result == z3::unknown) unknown = true;
    core.insert(a.core.begin(), a.core.end());
  }
  out.result = unknown ? z3::unknown : z3::unsat;
  out.core.assign(core.begin(), core.end());
  return out;
}

bool Verifier::settle(const Scope& sc, std::vector<Piece>& ps, const std::vector<size_t>* on) {
  z3::expr_vector any(z3_);
  for (const Piece& pc : ps)
    if (!pc.overlap.is_false()) any.push_back(pc.guard.is_true() ? pc.overlap : pc.guard && pc.overlap);
  if (any.empty()) return true;
  if (ask(sc, z3::mk_or(any), on).result != z3::unsat) return false;
  if (opt_.progress) opt_.progress("  regrouped sums: their parts are exclusive on the set (proved)");
  for (Piece& pc : ps) pc.overlap = z3_.bool_val(false);
  return true;
}

z3::expr Verifier::refutation(Scope& sc, const ir::Expr& goal, const std::vector<size_t>* on) {
  std::vector<Piece> ps = pieces(sc, goal, true);
  settle(sc, ps, on);
  return any_piece(z3_, ps, [](const z3::expr& g) { return !g; });
}

}  // namespace rulebook::verifier
