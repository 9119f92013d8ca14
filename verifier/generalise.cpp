// Proof by generalisation: a prove or lemma over boards whose value, with every value read
// from the state through one selector replaced by a free constant (an atom, see
// Encoder::abstract), is valid for every value of those constants. The questions are small
// (no placements, no rules) and alike up to renaming, so each shape is asked once.
#include <algorithm>
#include <limits>
#include <map>
#include <unordered_set>

#include <fmt/format.h>

#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

/// What a generalisation may spend: this share of the property's time and resources
/// (the concrete question gets the rest when it does not prove).
constexpr double kShare = 0.4;

/// The uninterpreted constants of `e` in order of first visit (depth first, arguments left
/// to right), so that two formulas alike up to renaming list theirs in corresponding order.
/// Iterative: value terms can be deep.
void constants_of(const z3::expr& e, std::unordered_set<unsigned>& seen, std::vector<z3::expr>& out) {
  std::vector<z3::expr> stack{e};
  while (!stack.empty()) {
    z3::expr x = stack.back();
    stack.pop_back();
    if (!seen.insert(x.id()).second || !x.is_app()) continue;
    const unsigned n = x.num_args();
    if (n == 0 && x.decl().decl_kind() == Z3_OP_UNINTERPRETED) out.push_back(x);
    for (unsigned i = n; i-- > 0;) stack.push_back(x.arg(i));
  }
}

}  // namespace

bool Verifier::generalised(Scope& sc, const ir::Property& prop, Result& r, bool remember) {
  if (prop.over_moves) return false;
  std::vector<Piece> ps;
  {
    struct Restore {
      Encoder& enc;
      ~Restore() { enc.abstract = false; }
    } restore{enc_};
    enc_.abstract = true;
    try {
      ps = pieces(sc, *prop.expr, false);
    } catch (const Unsupported&) {
      return false;  // a construct not generalised: the concrete question decides
    } catch (const z3::exception&) {
      return false;
    }
  }
  // Over boards: one piece. Its value is taken as built, not simplified, so that its terms
  // are those of the generalised lemmas assumed below (Z3 terms are hash-consed).
  if (ps.size() != 1 || !ps[0].err.is_false()) return false;
  const z3::expr q = !ps[0].plain;
  std::vector<z3::expr> ds;
  disjuncts(q, ds);
  // Only a formula over atoms alone is a generalisation asked without the set: one that
  // still reads a selector's guards (or anything else) is left to the concrete question.
  {
    std::unordered_set<unsigned> seen;
    std::vector<z3::expr> all;
    constants_of(q, seen, all);
    if (all.empty()) return false;
    for (const z3::expr& c : all)
      if (!enc_.is_atom(c)) return false;
  }
  const double started = std::chrono::duration<double>(Clock::now() - budget_.started).count();
  const double seconds = (budget_.seconds - started) * kShare;
  const uint64_t spent0 = rlimit_seen_ - budget_.rlimit_base;
  const uint64_t rlimit = budget_.rlimit > 0 ? uint64_t(double(budget_.rlimit - std::min(budget_.rlimit, spent0)) * kShare) : 0;
  const uint64_t base = rlimit_seen_;
  const Clock::time_point t0 = Clock::now();
  // Each disjunct is its own question, renamed to a canonical form (atoms numbered in order
  // of first occurrence): equal forms are one question (Z3 terms are hash-consed).
  std::map<unsigned, z3::check_result> asked;
  std::vector<z3::expr> keep;  // the canonical forms, alive while their ids are keys
  size_t questions = 0;
  for (const z3::expr& d : ds) {
    std::unordered_set<unsigned> seen;
    std::vector<z3::expr> atoms;
    constants_of(d, seen, atoms);
    z3::expr_vector from(z3_), to(z3_);
    z3::expr_vector whole(z3_);
    whole.push_back(d);
    // Generalised lemmas on these atoms only (valid, so they may be assumed).
    std::vector<unsigned> ids;
    for (const z3::expr& a : atoms) ids.push_back(a.id());
    std::sort(ids.begin(), ids.end());
    for (const Encoder::ValidFact& f : enc_.valid_facts)
      if (std::includes(ids.begin(), ids.end(), f.atoms.begin(), f.atoms.end())) whole.push_back(f.e);
    for (size_t i = 0; i < atoms.size(); ++i) {
      from.push_back(atoms[i]);
      const std::string name = fmt::format("generalised!{}", i);
      to.push_back(atoms[i].is_bool() ? z3_.bool_const(name.c_str()) : z3_.int_const(name.c_str()));
      const z3::expr fact = enc_.atom_fact(atoms[i]);
      if (!fact.is_true()) whole.push_back(fact);
    }
    z3::expr canonical = z3::mk_and(whole).substitute(from, to);
    keep.push_back(canonical);
    auto it = asked.find(canonical.id());
    if (it == asked.end()) {
      const double left = seconds - std::chrono::duration<double>(Clock::now() - t0).count();
      const uint64_t used = rlimit_seen_ - base;
      if (left <= 0.001 || (rlimit > 0 && used >= rlimit)) return false;
      z3::solver s(z3_);
      s.add(canonical);
      z3::params p(z3_);
      p.set("timeout", unsigned(std::max(1.0, left * 1000)));
      p.set("ctrl_c", false);  // SIGINT is the caller's (Options::stop), not Z3's
      if (rlimit > 0) p.set("rlimit", unsigned(std::min<uint64_t>(rlimit - used, std::numeric_limits<unsigned>::max())));
      s.set(p);
      const z3::check_result got = s.check();
      rlimit_seen_ = std::max(rlimit_seen_, rlimit_count(s));
      ++questions;
      it = asked.emplace(canonical.id(), got).first;
    }
    if (it->second != z3::unsat) {
      // Sat: some values of the atoms break it, maybe none a state gives them. Unknown:
      // out of this share of the budget. Either way the concrete question decides.
      if (opt_.progress)
        opt_.progress(fmt::format("  generalised: {} on one of {} questions; asking the concrete question",
                                  it->second == z3::sat ? "not valid" : "unknown", ds.size()));
      return false;
    }
  }
  if (prop.kind == ir::PropertyKind::Lemma && remember) {
    // Its generalised value is valid: later generalisations may assume it.
    std::vector<z3::expr> parts;
    conjuncts(ps[0].plain, parts);
    for (const z3::expr& c : parts) {
      std::unordered_set<unsigned> seen;
      std::vector<z3::expr> atoms;
      constants_of(c, seen, atoms);
      std::vector<unsigned> ids;
      for (const z3::expr& a : atoms) ids.push_back(a.id());
      std::sort(ids.begin(), ids.end());
      enc_.valid_facts.push_back({c, ids});
    }
  }
  r.detail = fmt::format("proved by generalisation: {} questions over the values read from the state, "
                         "{} of them distinct up to renaming; no rule used",
                         ds.size(), questions);
  if (opt_.progress) opt_.progress("  " + r.detail);
  return true;
}

}  // namespace rulebook::verifier
