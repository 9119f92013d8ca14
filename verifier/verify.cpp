// The property kinds over the encoder: prove, lemma, find, bound, derive, consistent,
// redundant and depends, each a few questions on the set the property ranges over.
#include "verifier/verify.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "compiler/ir/ir_print.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

/// The names of the rule literals `core` in `sc`.
std::vector<std::string> rule_names(const Scope& sc, const std::vector<int>& core) {
  std::vector<std::string> out;
  for (int i : core) out.push_back(sc.lit_names[size_t(i)]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<Verifier::Case> Verifier::cases(std::vector<Scope>& scopes, const ir::Property& prop,
                                            bool with_regroup) {
  const size_t n = prop.over_moves ? prop.moves.size() : 1;
  std::vector<Case> out;
  for (size_t mi = 0; mi < n; ++mi) {
    scopes.push_back(scope(prop, int(mi)));
    std::vector<Piece> ps = pieces(scopes.back(), *prop.expr, with_regroup);
    // Instances whose value, regrouped value, overlap and error are the same terms read the
    // same cells: one case (hash-consed terms: equal ids are equal terms).
    std::map<std::array<unsigned, 4>, size_t> by_value;
    for (Piece& pc : ps) {
      const std::array<unsigned, 4> key{pc.plain.id(), pc.regrouped.id(), pc.overlap.id(), pc.err.id()};
      auto [it, fresh] = by_value.emplace(key, out.size());
      if (fresh) out.push_back(Case{scopes.size() - 1, {}, z3_.bool_val(false), {}, out.size()});
      Case& c = out[it->second];
      c.guard = c.pieces.empty() ? pc.guard : c.guard || pc.guard;
      c.pieces.push_back(std::move(pc));
    }
  }
  for (Case& c : out) {
    if (!c.pieces[0].plain.is_int()) continue;
    Range a = term_range(c.pieces[0].plain), b = term_range(c.pieces[0].regrouped);
    if (a && b) c.range = Range{{std::min(a->first, b->first), std::max(a->second, b->second)}};
  }
  return out;
}

int64_t Verifier::case_value(const Case& c, const z3::model& m) {
  for (const Piece& pc : c.pieces)
    if (m.eval(pc.guard, true).is_true()) return m.eval(pc.plain, true).get_numeral_int64();
  throw Unsupported("internal: a model plays no instance of its case");
}

void Verifier::prove_like(const ir::Property& prop, Result& r) {
  std::vector<Scope> scopes;
  std::vector<std::string> used;
  // First a generalisation (generalise.cpp): when it proves the property, no rule is used.
  if (!prop.over_moves) {
    scopes.push_back(scope(prop, 0));
    if (!generalised(scopes[0], prop, r)) scopes.clear();
  }
  const std::vector<Case> cs = scopes.empty() ? cases(scopes, prop, true) : std::vector<Case>{};
  size_t settled = 0;
  for (const Case& c : cs) {
    const Scope& sc = scopes[c.scope];
    std::vector<Piece> ps = c.pieces;
    settle(sc, ps);
    const z3::expr q = any_piece(z3_, ps, [](const z3::expr& g) { return !g; });
    Answer a;
    a.result = z3::unsat;  // a case whose value always holds needs no question
    if (truth(q) != -1) a = ask(sc, q);
    if (a.result == z3::sat) {
      r.verdict = Verdict::Refuted;
      r.board = board(*a.model, sc);
      return;
    }
    if (a.result == z3::unknown) {
      r.verdict = Verdict::Unknown;
      r.detail = unknown_ + (cs.size() > 1 ? fmt::format(" ({} of {} cases proved)", settled, cs.size()) : "");
      return;
    }
    ++settled;
    for (const std::string& name : rule_names(sc, a.core)) used.push_back(name);
  }
  if (prop.kind == ir::PropertyKind::Lemma && !prop.over_moves) {
    // A fact for later properties, wherever the rules this proof used hold.
    Scope& sc = scopes[0];
    auto [g, err] = value_pair(sc, *prop.expr);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    Lemma lemma{{}, sc.domain(z3_), {}, used};
    std::vector<z3::expr> parts;
    conjuncts(g && !err, parts);
    for (const z3::expr& c : parts) {
      lemma.facts.push_back(Part{c, -1, std::nullopt});
      support(lemma.facts.back());
    }
    for (const Part& p : sc.parts)
      if (p.lit < 0) lemma.domain_ids.push_back(p.e.id());
    lemmas_.push_back(std::move(lemma));
  }
  r.verdict = Verdict::Proved;
}

std::string Verifier::set_key(const ir::Property& prop) const {
  std::string key = fmt::format("{}|{}|",
                                prop.over_moves  ? "moves"
                                : prop.reachable ? "reachable"
                                : prop.over_play ? "play"
                                                 : "boards",
                                prop.phase);
  if (prop.over_moves)
    for (int m : prop.moves) key += fmt::format("{},", m);
  return key + "|" + (prop.where ? compiler::print_expr(p_, *prop.where) : "");
}

std::optional<bool> Verifier::set_has_element(const ir::Property& prop, std::string& unshown) {
  // Asked once per move's set, on a budget of its own, without lemmas (implied by the set,
  // they cannot help find one of its elements).
  std::vector<Scope> scopes;
  if (!prop.over_moves) scopes.push_back(scope(prop, 0));
  else cases(scopes, prop, false);
  budget_.started = Clock::now();
  budget_.rlimit_base = rlimit_seen_;
  budget_.seconds = opt_.timeout_seconds;
  budget_.rlimit = opt_.rlimit;
  unknown_.clear();
  use_lemmas_ = false;
  bool unknown = false;
  for (const Scope& sc : scopes) {
    const Answer a = ask(sc, z3_.bool_val(true));
    if (a.result == z3::sat) {
      use_lemmas_ = true;
      return true;
    }
    if (a.result == z3::unknown) {
      unknown = true;
      unshown = unknown_;
    }
  }
  use_lemmas_ = true;
  if (unknown) return std::nullopt;
  return false;
}

void Verifier::settle_vacuity(const std::vector<const ir::Property*>& props, std::vector<Result>& out) {
  // A proof over an empty set (contradictory board rules, phase, legality or `where`) holds
  // of nothing, which is no proof. Asked after every property, and only of sets no other
  // property showed an element of (a witness, a counterexample, a bound's board), so the
  // questions of the properties themselves are the same with or without this check.
  for (size_t i = 0; i < out.size(); ++i) {
    Result& r = out[i];
    if (!ir::proves(r.kind) || r.verdict != Verdict::Proved) continue;
    if (opt_.stopped()) {
      r.detail += (r.detail.empty() ? "" : "; ") + std::string("the set was not shown to have an element: interrupted");
      continue;
    }
    const std::string key = set_key(*props[i]);
    auto known = nonempty_.find(key);
    if (known == nonempty_.end()) {
      std::string unshown;
      const std::optional<bool> has = set_has_element(*props[i], unshown);
      if (opt_.progress)
        opt_.progress(fmt::format("  {}: {} ({:.1f} s, rlimit {})", r.name,
                                  !has ? "proved; the set was not shown to have an element"
                                  : *has ? "proved (the set has an element)" : "vacuous (the set is empty)",
                                  std::chrono::duration<double>(Clock::now() - budget_.started).count(),
                                  rlimit_seen_ - budget_.rlimit_base));
      if (!has) {
        // Unknown whether the set has an element: the proof stands, with that said.
        r.detail += (r.detail.empty() ? "" : "; ") + ("the set was not shown to have an element: " + unshown);
        continue;
      }
      known = nonempty_.emplace(key, *has).first;
    }
    if (!known->second) {
      r.verdict = Verdict::Vacuous;
      r.detail = "no state satisfies the conditions of the set (the board rules, the phase, the move's legality, "
                 "the where clause), so the property holds of nothing";
    }
  }
}

void Verifier::find(const ir::Property& prop, Result& r) {
  use_lemmas_ = false;
  struct Restore {
    bool& flag;
    ~Restore() { flag = true; }
  } restore{use_lemmas_};
  std::vector<Scope> scopes;
  const std::vector<Case> cs = cases(scopes, prop, false);
  if (!prop.over_moves && cs.size() == 1) {
    std::vector<z3::expr> values;
    for (const Piece& pc : cs[0].pieces) values.push_back(pc.plain && !pc.err);
    r.symmetry = break_symmetry(scopes[cs[0].scope], values);
  }
  bool unknown = false;
  for (const Case& c : cs) {
    z3::expr_vector any(z3_);
    for (const Piece& pc : c.pieces) {
      const z3::expr q = (pc.plain && !pc.err).simplify();
      if (truth(q) != -1) any.push_back(pc.guard.is_true() ? q : pc.guard && q);
    }
    if (any.empty()) continue;  // the condition cannot hold in this case
    Answer a = ask(scopes[c.scope], z3::mk_or(any));
    if (a.result == z3::sat) {
      r.verdict = Verdict::Found;
      r.board = board(*a.model, scopes[c.scope]);
      return;
    }
    if (a.result == z3::unknown) {
      unknown = true;
      // The budget is the property's: once spent, later cases cannot be asked either.
      if (unknown_.rfind("timeout", 0) == 0 || unknown_.rfind("resource", 0) == 0) break;
    }
  }
  r.verdict = unknown ? Verdict::Unknown : Verdict::None;
  if (unknown) r.detail = unknown_;
}

void Verifier::bound(const ir::Property& prop, Result& r) {
  // No lemma facts, as for a find: every question but the last asks for a board reaching
  // a target, which facts implied by the set cannot help find (SMYOZ's line lemmas, which
  // share the water lines' terms, kept its bound at 2 for a minute; without them it reaches
  // the maximum).
  use_lemmas_ = false;
  struct Restore {
    bool& flag;
    ~Restore() { flag = true; }
  } restore{use_lemmas_};
  std::vector<Scope> scopes;
  std::vector<Case> cs = cases(scopes, prop, true);
  if (!prop.over_moves && cs.size() == 1) {
    std::vector<z3::expr> values;
    for (const Piece& pc : cs[0].pieces) {
      values.push_back(pc.plain);
      values.push_back(pc.err);
    }
    r.symmetry = break_symmetry(scopes[cs[0].scope], values);
  }
  const int64_t sign = prop.maximize ? 1 : -1;
  // The best a case can reach by the shape of its value (LLONG_MAX: no static bound).
  auto reach = [&](const Case& c) {
    if (!c.range) return std::numeric_limits<int64_t>::max();
    return prop.maximize ? c.range->second : -c.range->first;
  };
  // Cases that could reach furthest first: an early best prunes the others.
  std::stable_sort(cs.begin(), cs.end(), [&](const Case& a, const Case& b) { return reach(a) > reach(b); });
  if (cs.size() > 1 && opt_.progress) opt_.progress(fmt::format("  {}: {} cases", prop.name, cs.size()));
  std::optional<int64_t> best;  // times sign: larger is better
  std::string seeded_by;  // the find whose witness is still the best
  if (auto s = seed(prop, sign)) {
    best = s->value;
    r.board = std::move(s->board);
    seeded_by = s->find;
  }
  use_lemmas_ = false;  // a seeding find restores them when it ends
  size_t settled = 0, pruned = 0;
  auto give_up = [&](const std::string& why) {
    r.verdict = Verdict::Unknown;
    r.detail = why + (best ? fmt::format(" (reached {} so far", *best * sign) : " (nothing reached yet") +
               (cs.size() > 1 ? fmt::format("; {} of {} cases settled)", settled, cs.size()) : ")");
  };
  for (size_t i = 0; i < cs.size(); ++i) {
    const Case& c = cs[i];
    // Nothing in this case (and, sorted, in any later one) can beat the best by the shape
    // of its value; but the value may still err there: those errors are asked together,
    // once per move's set.
    if (best && reach(c) <= *best) {
      std::map<size_t, std::vector<z3::expr>> errs;
      for (size_t j = i; j < cs.size(); ++j)
        for (const Piece& pc : cs[j].pieces)
          if (!pc.err.is_false()) errs[cs[j].scope].push_back(pc.guard && pc.err);
      for (const auto& [scope, es] : errs) {
        z3::expr_vector any(z3_);
        for (const z3::expr& e : es) any.push_back(e);
        Answer a = ask(scopes[scope], z3::mk_or(any));
        if (a.result == z3::sat) {
          r.verdict = Verdict::Error;
          r.detail = "the expression cannot be evaluated on this board";
          r.board = board(*a.model, scopes[scope]);
          return;
        }
        if (a.result == z3::unknown) return give_up(unknown_);
      }
      pruned = cs.size() - settled;
      settled = cs.size();
      break;
    }
    const Scope& sc = scopes[c.scope];
    // An expression that errs somewhere in the set has no bound: show where.
    z3::expr_vector errs(z3_);
    for (const Piece& pc : c.pieces)
      if (!pc.err.is_false()) errs.push_back(pc.guard && pc.err);
    if (!errs.empty()) {
      Answer a = ask(sc, z3::mk_or(errs));
      if (a.result == z3::sat) {
        r.verdict = Verdict::Error;
        r.detail = "the expression cannot be evaluated on this board";
        r.board = board(*a.model, sc);
        return;
      }
      if (a.result == z3::unknown) return give_up(unknown_);
    }
    std::vector<Piece> ps = c.pieces;
    settle(sc, ps);
    // Aim at the case's static best first (one question when it is reached), then improve
    // until nothing better exists: the last unsat is the proof for this case.
    bool aim = reach(c) != std::numeric_limits<int64_t>::max() && (!best || reach(c) > *best + 1);
    while (true) {
      const int64_t target = aim ? reach(c) : best ? *best + 1 : 0;
      const bool mx = prop.maximize;
      const bool any = !aim && !best;
      Answer a = ask(sc, any ? c.guard : any_piece(z3_, ps, [&](const z3::expr& x) { return enc_.compare_const(x, mx ? ir::Op::Ge : ir::Op::Le, target * sign); }));
      if (a.result == z3::unknown) return give_up(unknown_);
      if (a.result == z3::unsat) {
        if (!aim) break;
        aim = false;  // the static best is not reached: search upward from the best found
        continue;
      }
      aim = false;
      const int64_t got = case_value(c, *a.model) * sign;
      if (best && got <= *best) throw Unsupported("internal: a bound did not improve");
      best = got;
      seeded_by.clear();
      r.board = board(*a.model, sc);
      if (opt_.progress) opt_.progress(fmt::format("  {}: reached {}", prop.name, got * sign));
      if (got >= reach(c)) break;
    }
    ++settled;
    if (opt_.progress && cs.size() > 1 && settled % 100 == 0)
      opt_.progress(fmt::format("  {}: {} of {} cases settled", prop.name, settled, cs.size()));
  }
  if (!best) {
    r.verdict = Verdict::Empty;
    r.detail = "the set is empty";
    return;
  }
  r.verdict = Verdict::Bound;
  r.value = *best * sign;
  r.detail = fmt::format("{} {} = {}, reached by the board below{}, and nothing {} (proved{})",
                         prop.maximize ? "max" : "min", std::string(sources_.text(prop.expr->span)), *r.value,
                         seeded_by.empty() ? "" : fmt::format(" (the witness of find {}, checked)", seeded_by),
                         prop.maximize ? "exceeds it" : "is below it",
                         cs.size() > 1 ? fmt::format("; {} cases, {} of them by the range of their value", cs.size(), pruned)
                                       : "");
}

namespace {

/// The top-level conjuncts of a condition (`a and (b and c)`: a, b, c).
void and_parts(const ir::Expr& e, std::vector<const ir::Expr*>& out) {
  if (e.op == ir::Op::And) {
    for (const ir::ExprPtr& a : e.args) and_parts(*a, out);
  } else {
    out.push_back(&e);
  }
}

}  // namespace

std::optional<Verifier::Seed> Verifier::seed(const ir::Property& prop, int64_t sign) {
  if (prop.over_moves || !prop.where) return std::nullopt;
  std::vector<const ir::Expr*> base;
  and_parts(*prop.where, base);
  std::optional<Seed> best;
  for (const ir::Property& f : p_.properties) {
    if (f.kind != ir::PropertyKind::Find || f.over_moves || f.phase != prop.phase || !f.where) continue;
    // Narrower: every condition of the bound's `where` is one of the find's, and it has more.
    std::vector<const ir::Expr*> parts;
    and_parts(*f.where, parts);
    if (parts.size() <= base.size() || !std::all_of(base.begin(), base.end(), [&](const ir::Expr* b) {
          return std::any_of(parts.begin(), parts.end(),
                             [&](const ir::Expr* e) { return sources_.text(e->span) == sources_.text(b->span); });
        }))
      continue;
    if (opt_.progress) opt_.progress(fmt::format("  {}: the witness of find {} (a narrower set) first", prop.name, f.name));
    auto it = found_.find(f.name);
    if (it == found_.end()) {
      // The find may use half of what is left, so that the bound's own search keeps time.
      Result fr;
      const Budget whole = budget_;
      const auto t0 = Clock::now();
      const uint64_t units0 = rlimit_seen_;
      budget_.seconds -= (budget_.seconds - std::chrono::duration<double>(t0 - budget_.started).count()) / 2;
      if (budget_.rlimit > 0) {
        const uint64_t spent = std::min(budget_.rlimit, rlimit_seen_ - budget_.rlimit_base);
        budget_.rlimit -= (budget_.rlimit - spent) / 2;
      }
      find(f, fr);
      budget_ = whole;
      if (fr.verdict != Verdict::Found || !fr.board) continue;
      fr.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      fr.rlimit = rlimit_seen_ - units0;
      it = found_.emplace(f.name, std::move(fr)).first;
    }
    const Board& witness = *it->second.board;
    // The board must lie in this set: every board rule, the phase and `where` hold on it
    // (read by the interpreter, not by the encoding that found it).
    std::vector<uint8_t> state = witness.state;
    compiler::Interpreter interpreter(p_, sources_);
    compiler::Evaluator run(interpreter);
    run.start(state.data(), std::max(64, prop.locals + 1));
    std::optional<int64_t> value;
    // A condition or the value that errs on it: not a witness of this set.
    int64_t in = prop.phase < 0 || int64_t(ir::load_index(state.data(), p_.vars[ir::kVarPhase], 0)) == prop.phase;
    for (const ir::Rule& rule : p_.rules)
      if (in && rule.board_rule && !run.scalar(*rule.condition, in).ok) in = 0;
    int64_t v = 0;
    if (in && run.scalar(*prop.where, in).ok && in && run.scalar(*prop.expr, v).ok) value = v * sign;
    if (!value) {
      if (opt_.progress) opt_.progress(fmt::format("  {}: the witness of {} is not in its set", prop.name, f.name));
      continue;
    }
    if (opt_.progress) opt_.progress(fmt::format("  {}: reached {} (the witness of {})", prop.name, *value * sign, f.name));
    if (!best || *value > best->value) best = Seed{*value, witness, f.name};
  }
  return best;
}

void Verifier::derive(const ir::Property& prop, Result& r) {
  // Over moves, each move's set is a scope of its own: the value must be the same on all.
  std::vector<Scope> scopes;
  for (size_t mi = 0; mi < (prop.over_moves ? prop.moves.size() : 1); ++mi) scopes.push_back(scope(prop, int(mi)));
  std::optional<int64_t> first;
  bool unknown = false;
  for (Scope& sc : scopes) {
    auto [ep, err] = value_pair(sc, *prop.expr);
    Answer a = ask(sc, !err);
    if (a.result == z3::unknown) unknown = true;
    if (a.result != z3::sat) continue;
    z3::expr v = a.model->eval(ep, true);
    first = v.is_bool() ? (v.is_true() ? 1 : 0) : v.get_numeral_int64();
    break;
  }
  if (!first && !unknown) {
    // No element where the value can be evaluated: the set is empty, or the value errs on
    // every element (then no constant: one of them is shown).
    for (Scope& sc : scopes) {
      const z3::expr err = value_pair(sc, *prop.expr).second;
      Answer a = ask(sc, err);
      if (a.result == z3::unknown) unknown = true;
      if (a.result != z3::sat) continue;
      r.verdict = Verdict::NotConstant;
      r.detail = "the expression cannot be evaluated on this board, nor on any other of the set";
      r.board = board(*a.model, sc);
      return;
    }
  }
  if (!first) {
    r.verdict = unknown ? Verdict::Unknown : Verdict::Empty;
    r.detail = unknown ? unknown_ : "the set is empty";
    return;
  }
  const int64_t c = *first;
  // Then prove that the value is the same everywhere.
  auto owned = std::make_unique<ir::Expr>();
  owned->op = ir::Op::Const;
  owned->value = c;
  owned->type = prop.expr->type;
  ir::Expr eq;
  eq.op = ir::Op::Eq;
  auto bt = std::make_shared<ir::Type>();
  bt->domain = ir::kBoolDomain;
  eq.type = bt;
  eq.span = prop.expr->span;
  eq.args.push_back(ir::clone_expr(*prop.expr));
  eq.args.push_back(std::move(owned));
  r.value = c;
  for (Scope& sc : scopes) {
    Answer b = ask(sc, refutation(sc, eq));
    if (b.result == z3::sat) {
      r.verdict = Verdict::NotConstant;
      r.board = board(*b.model, sc);
      r.detail = fmt::format("{} is {} on one board but not on the board below", std::string(sources_.text(prop.expr->span)), c);
      return;
    }
    if (b.result == z3::unknown) {
      r.verdict = Verdict::Unknown;
      r.detail = unknown_ + fmt::format(" (one value found: {})", c);
      return;
    }
  }
  r.verdict = Verdict::Derived;
  r.detail = fmt::format("{} = {} on every element (proved)", std::string(sources_.text(prop.expr->span)), c);
}

void Verifier::consistent(Result& r, const std::string& drop) {
  ir::Property none;
  Scope sc = scope(none, 0);
  std::vector<size_t> on;
  for (size_t i = 0; i < sc.lits.size(); ++i)
    if (sc.lit_names[i] != drop) on.push_back(i);
  // Does the dropped rule follow from the others? A model of the others violating it says no.
  z3::expr q = z3_.bool_val(true);
  for (size_t i = 0; i < p_.rules.size(); ++i)
    if (!drop.empty() && p_.rules[i].name == drop && p_.rules[i].board_rule) q = !board_rule(i);
  Answer a = ask(sc, q, &on);
  if (a.result == z3::unknown) {
    r.verdict = Verdict::Unknown;
    r.detail = unknown_;
    return;
  }
  const bool sat = a.result == z3::sat;
  if (sat) r.board = board(*a.model, sc);
  if (drop.empty()) {
    r.verdict = sat ? Verdict::Consistent : Verdict::Inconsistent;
    r.detail = sat ? "every board rule holds on the board below" : "no state satisfies every board rule";
  } else {
    r.verdict = sat ? Verdict::NotRedundant : Verdict::Redundant;
    r.detail = sat ? "the other rules hold and " + drop + " does not on the board below"
                   : drop + " follows from the other board rules (proved)";
  }
}

void Verifier::depends(const ir::Property& prop, Result& r) {
  const ir::Property* subject = nullptr;
  for (const ir::Property& q : p_.properties)
    if (q.name == prop.subject && q.kind != ir::PropertyKind::Depends) subject = &q;
  if (!subject || !ir::proves(subject->kind)) {
    r.verdict = Verdict::Unsupported;
    r.detail = "depends is answered for prove, lemma and criterion properties";
    return;
  }
  if (subject->over_moves && subject->moves.size() != 1) {
    r.verdict = Verdict::Unsupported;
    r.detail = "depends over several moves is not encoded";
    return;
  }
  Scope sc = scope(*subject, 0);
  // Proved by generalisation (generalise.cpp), the subject needs no rule at all.
  if (Result g; generalised(sc, *subject, g, false)) {
    r.verdict = Verdict::Depends;
    r.detail = prop.subject + " needs none of the named rules (" + g.detail + ")";
    return;
  }
  const std::vector<Piece> ps = pieces(sc, *subject->expr, true);
  // Each set of rules is its own question: regrouped sums are used only where their parts
  // are proved exclusive under exactly those rules.
  auto run = [&](const std::vector<size_t>& on) {
    std::vector<Piece> local = ps;
    settle(sc, local, &on);
    return ask(sc, any_piece(z3_, local, [](const z3::expr& g) { return !g; }), &on);
  };
  std::vector<size_t> all;
  for (size_t i = 0; i < sc.lits.size(); ++i) all.push_back(i);
  Answer first = run(all);
  if (first.result != z3::unsat) {
    r.verdict = first.result == z3::sat ? Verdict::Refuted : Verdict::Unknown;
    r.detail = first.result == z3::sat ? prop.subject + " does not hold with every rule" : unknown_;
    if (first.result == z3::sat) r.board = board(*first.model, sc);
    return;
  }
  // A minimal set: start from the rules the proof used, then drop one at a time while the
  // property stays proved (each proof's rules narrow the set further).
  std::vector<size_t> need(first.core.begin(), first.core.end());
  for (size_t i = 0; i < all.size(); ++i) {
    if (std::find(need.begin(), need.end(), all[i]) == need.end()) continue;
    std::vector<size_t> fewer;
    for (size_t j : need)
      if (j != all[i]) fewer.push_back(j);
    if (opt_.progress) opt_.progress(fmt::format("  depends {}: without {}", prop.subject, sc.lit_names[all[i]]));
    Answer a = run(fewer);
    if (a.result == z3::unsat) {
      need.clear();
      for (int c : a.core)
        if (std::find(fewer.begin(), fewer.end(), size_t(c)) != fewer.end()) need.push_back(size_t(c));
      std::sort(need.begin(), need.end());
    } else if (a.result == z3::unknown) {
      r.verdict = Verdict::Unknown;
      r.detail = unknown_ + " (while dropping " + sc.lit_names[all[i]] + ")";
      return;
    }
  }
  for (size_t i : need) r.needs.push_back(sc.lit_names[i]);
  // Each needed rule dropped from all rules: a counterexample shows it is needed.
  for (size_t i : need) {
    std::vector<size_t> others;
    for (size_t j : all)
      if (j != i) others.push_back(j);
    RuleDrop d;
    d.rule = sc.lit_names[i];
    if (opt_.progress) opt_.progress(fmt::format("  depends {}: all rules but {}", prop.subject, d.rule));
    Answer a = run(others);
    d.verdict = a.result == z3::sat ? Verdict::Refuted : a.result == z3::unsat ? Verdict::Proved : Verdict::Unknown;
    if (a.result == z3::sat) d.board = board(*a.model, sc);
    r.drops.push_back(std::move(d));
  }
  r.verdict = Verdict::Depends;
  r.detail = need.empty() ? prop.subject + " needs none of the named rules"
                          : prop.subject + " needs these rules (a minimal set)";
}

StopWatcher::StopWatcher(z3::context& z3, const std::atomic<bool>* stop) {
  if (stop)
    thread_ = std::thread([this, &z3, stop] {
      while (!done_.load()) {
        if (stop->load()) z3.interrupt();  // again while stopped: a later call is cut too
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
}

StopWatcher::~StopWatcher() {
  done_ = true;
  if (thread_.joinable()) thread_.join();
}

void Verifier::prove_invariants(const std::function<bool()>& start) {
  for (const ir::Property& prop : p_.properties) {
    if (prop.kind != ir::PropertyKind::Invariant || opt_.stopped() || !start()) continue;
    Result r;
    try {
      invariant(prop, r);
    } catch (const Unsupported&) {
    } catch (const z3::exception&) {
    }
  }
}

void Verifier::one(const ir::Property& prop, Result& r) {
  if (prop.over_play) over_play(prop, r);
  else if (ir::proves(prop.kind)) prove_like(prop, r);
  else if (prop.kind == ir::PropertyKind::Invariant) invariant(prop, r);
  else if (prop.kind == ir::PropertyKind::Find) find(prop, r);
  else if (prop.kind == ir::PropertyKind::Bound) bound(prop, r);
  else if (prop.kind == ir::PropertyKind::Derive) derive(prop, r);
  else if (prop.kind == ir::PropertyKind::Consistent) consistent(r, "");
  else if (prop.kind == ir::PropertyKind::Redundant) consistent(r, prop.subject);
  else depends(prop, r);
}

std::vector<Result> Verifier::run() {
  StopWatcher watcher(z3_, opt_.stop);
  bind_setups();
  std::vector<Result> out;
  std::vector<const ir::Property*> props;  ///< the property of each result
  if (opt_.candidate_games > 0 && !opt_.candidates_last) found_invariants(out, props);
  for (const ir::Property& prop : p_.properties) {
    if (prop.kind == ir::PropertyKind::Puzzle) continue;  // solved by solve_puzzle, not checked
    // Lemmas and invariants are facts for the others: always checked.
    const bool fact = prop.kind == ir::PropertyKind::Lemma || prop.kind == ir::PropertyKind::Invariant;
    bool wanted = opt_.only.empty() || fact;
    for (const std::string& n : opt_.only) wanted = wanted || n == prop.name;
    if (group_ && fixed_setup(p_, prop) != *group_ &&
        !(fact && fixed_setup(p_, prop).empty()))
      wanted = false;
    if (!wanted) continue;
    Result r;
    // A `depends P` has no name of its own: it is named after its subject.
    r.name = prop.kind == ir::PropertyKind::Depends && prop.name.empty() ? prop.subject : prop.name;
    r.kind = prop.kind;
    r.description = prop.description;
    if (prop.kind == ir::PropertyKind::Depends) {
      for (const ir::Property& q : p_.properties)
        if (q.name == prop.subject && q.kind != ir::PropertyKind::Depends) r.set = set_text(q);
    } else if (prop.kind == ir::PropertyKind::Invariant) {
      r.set = "every reachable state, by induction: every start state, every move and stuck block";
    } else if (prop.kind == ir::PropertyKind::Consistent || prop.kind == ir::PropertyKind::Redundant) {
      r.set = "every state (of the variables' types)";
    } else {
      r.set = set_text(prop);
    }
    // A `depends` is named after the property it is about.
    const std::string& shown = prop.name.empty() ? prop.subject : prop.name;
    if (opt_.stopped()) {
      r.verdict = Verdict::Interrupted;
      r.detail = "not checked: the run was interrupted before it";
      out.push_back(std::move(r));
      props.push_back(&prop);
      continue;
    }
    if (opt_.progress) opt_.progress(fmt::format("{} {} ...", ir::kind_name(prop.kind), shown));
    budget_.started = Clock::now();
    budget_.rlimit_base = rlimit_seen_;
    budget_.seconds = opt_.timeout_seconds;
    budget_.rlimit = opt_.rlimit;
    unknown_.clear();
    if (auto it = prop.kind == ir::PropertyKind::Find ? found_.find(prop.name) : found_.end(); it != found_.end()) {
      // Already asked to seed a bound: the same answer, board and cost.
      const Result& was = it->second;
      r.verdict = was.verdict;
      r.detail = was.detail;
      r.board = was.board;
      r.seconds = was.seconds;
      r.rlimit = was.rlimit;
      if (opt_.progress) opt_.progress(fmt::format("  {}: {} (asked before, to seed a bound)", shown, verdict_name(r.verdict)));
      nonempty_.emplace(set_key(prop), true);
      out.push_back(std::move(r));
      props.push_back(&prop);
      continue;
    }
    try {
      one(prop, r);
    } catch (const Unsupported& u) {
      r.verdict = Verdict::Unsupported;
      r.detail = u.what();
    } catch (const OutOfBudget& o) {
      r.verdict = Verdict::Unknown;
      r.detail = o.what();
    } catch (const z3::exception& z) {
      r.verdict = Verdict::Unknown;  // or interrupted, below: Z3 throws when cancelled mid-way
      r.detail = std::string("solver: ") + z.msg();
    }
    // What was shown before the stop stands; what the stop cut short is marked as such (a
    // `depends` is cut short if any of its questions was).
    const bool cut = opt_.stopped() && (!r.definite() || r.kind == ir::PropertyKind::Depends);
    if (cut) {
      r.verdict = Verdict::Interrupted;
      r.detail = "the run was interrupted while checking it";
      r.board.reset();
      r.needs.clear();
      r.drops.clear();
      r.value.reset();
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - budget_.started).count();
    r.rlimit = rlimit_seen_ - budget_.rlimit_base;
    if (opt_.progress) {
      // A proof whose set may be empty is settled at the end (settle_vacuity).
      const bool pending = r.verdict == Verdict::Proved &&
                           ir::proves(r.kind) &&
                           !nonempty_.count(set_key(prop));
      opt_.progress(fmt::format("  {}: {} ({:.1f} s, rlimit {})", shown,
                                pending ? "holds on its set; whether the set is empty is asked last" : verdict_word(r),
                                r.seconds, r.rlimit));
    }
    if (prop.kind == ir::PropertyKind::Find && r.verdict == Verdict::Found) found_.emplace(prop.name, r);
    // An element of the set shown (or its emptiness proved) spares the vacuity question.
    if (r.board && (r.verdict == Verdict::Found || r.verdict == Verdict::Refuted || r.verdict == Verdict::Bound ||
                    r.verdict == Verdict::NotConstant))
      nonempty_.emplace(set_key(prop), true);
    if (r.verdict == Verdict::Empty) nonempty_.emplace(set_key(prop), false);
    out.push_back(std::move(r));
    props.push_back(&prop);
  }
  if (opt_.candidate_games > 0 && opt_.candidates_last && !opt_.stopped()) found_invariants(out, props);
  settle_vacuity(props, out);
  // Every board shown is read against the proved invariants: one that violates some
  // cannot occur in a game.
  if (!proved_invariants_.empty())
    for (Result& r : out)
      if (r.board) r.violates = violated_invariants(*r.board);
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].board) out[i].board->vars = board_vars(*props[i]);
  ran_ = props;
  return out;
}

}  // namespace rulebook::verifier
