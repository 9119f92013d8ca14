// The property kinds over the encoder: one Z3 query (or a few) per property.
#include "verifier/verify.h"

#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "compiler/interpret.h"
#include "compiler/text.h"
#include "verifier/encoder.h"

namespace rulebook::verifier {

namespace {

using Clock = std::chrono::steady_clock;

/// What a property ranges over, encoded: named-rule literals (each implies its rule),
/// the other conditions of the set, and how to evaluate the property's expressions.
struct Scope {
  std::vector<z3::expr> lits;
  std::vector<std::string> lit_names;
  std::vector<z3::expr> implications;  ///< lit -> rule (board rules, move rules)
  std::vector<z3::expr> domain;        ///< where, phase, legality (not named rules)
  int overlay = -1;
  Encoder::Frame frame;
  int move = -1;
  std::vector<int> params;             ///< selectors of the move's parameters
};

class Verifier {
 public:
  Verifier(const ir::Program& p, const dsl::SourceSet& s, const Options& o)
      : p_(p), sources_(s), opt_(o), enc_(p, s, z3_) {}

  std::vector<Result> run();

 private:
  Scope scope(const ir::Property& prop, int move_index);
  std::string set_text(const ir::Property& prop);
  z3::check_result check(z3::solver& s, const std::vector<z3::expr>& assumptions = {});
  void add_scope(z3::solver& s, const Scope& sc, bool with_lits_on);
  Board board(const z3::model& m, const Scope& sc);
  /// prove/lemma: the query whose models are counterexamples.
  z3::expr refutation(const ir::Property& prop, Scope& sc, const ir::Expr& goal);
  std::pair<z3::expr, z3::expr> value_pair(Scope& sc, const ir::Expr& e, bool regrouped);
  void one(const ir::Property& prop, Result& r);
  void prove_like(const ir::Property& prop, Result& r);
  void find(const ir::Property& prop, Result& r);
  void bound(const ir::Property& prop, Result& r);
  void derive(const ir::Property& prop, Result& r);
  void consistent(Result& r, const std::string& drop_rule);
  void depends(const ir::Property& prop, Result& r);
  double left() const;

  const ir::Program& p_;
  const dsl::SourceSet& sources_;
  const Options& opt_;
  z3::context z3_;
  Encoder enc_;
  std::vector<z3::expr> lemma_facts_;
  std::vector<std::string> lemma_names_;
  Clock::time_point started_;
  std::string unknown_;
};

double Verifier::left() const {
  double used = std::chrono::duration<double>(Clock::now() - started_).count();
  return std::max(0.001, opt_.timeout_seconds - used);
}

z3::check_result Verifier::check(z3::solver& s, const std::vector<z3::expr>& assumptions) {
  z3::params ps(z3_);
  ps.set("timeout", unsigned(left() * 1000));
  s.set(ps);
  z3::expr_vector as(z3_);
  for (const z3::expr& a : assumptions) as.push_back(a);
  z3::check_result r = assumptions.empty() ? s.check() : s.check(as);
  if (r == z3::unknown) unknown_ = s.reason_unknown();
  return r;
}

std::string Verifier::set_text(const ir::Property& prop) {
  std::string out;
  if (prop.over_moves) {
    std::vector<std::string> names;
    for (int m : prop.moves) names.push_back(p_.moves[size_t(m)].name);
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
      list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    out = "every legal " + list + " from a well-formed state (every board rule holds)";
  } else {
    out = "every state where every board rule holds";
    if (prop.phase >= 0) out += " in phase " + p_.phases[size_t(prop.phase)].name;
  }
  if (prop.where) out += " and " + std::string(sources_.text(prop.where->span));
  return out;
}

Scope Verifier::scope(const ir::Property& prop, int mi) {
  Scope sc;
  enc_.use_overlay(-1);
  enc_.mover_override = nullptr;
  auto add_rule = [&](const std::string& name, const z3::expr& cond) {
    for (size_t i = 0; i < sc.lit_names.size(); ++i)
      if (sc.lit_names[i] == name) {
        sc.implications.push_back(z3::implies(sc.lits[i], cond));
        return;
      }
    sc.lits.push_back(z3_.bool_const(("rule:" + name).c_str()));
    sc.lit_names.push_back(name);
    sc.implications.push_back(z3::implies(sc.lits.back(), cond));
  };
  auto board_rules = [&]() {
    for (const ir::Rule& r : p_.rules) {
      if (!r.board_rule) continue;
      Encoder::Frame f(size_t(std::max(r.locals, 1)), nullptr);
      auto [c, err] = enc_.condition(*r.condition, f);
      add_rule(r.name, c && !err);
    }
  };
  board_rules();
  if (prop.phase >= 0) {
    auto [c, err] = std::pair{enc_.to_bool(enc_.val(0)), z3_.bool_val(false)};
    (void)c;
    (void)err;
    int s = enc_.base_selector(ir::kVarPhase, 0);
    sc.domain.push_back(enc_.selectors()[size_t(s)].guard[size_t(prop.phase)]);
  }
  sc.frame.assign(size_t(std::max(prop.locals, 1)), nullptr);
  if (prop.over_moves) {
    const int m = prop.moves[size_t(mi)];
    const ir::Move& mv = p_.moves[size_t(m)];
    sc.move = m;
    Encoder::Frame mf(size_t(std::max(mv.locals, int(mv.params.size()) + 1)), nullptr);
    for (size_t i = 0; i < mv.params.size(); ++i) {
      int s = enc_.fresh_selector(mv.params[i].domain, fmt::format("{}.{}.{}", prop.name, mv.name, mv.params[i].name));
      sc.params.push_back(s);
      mf[i] = enc_.identity(s);
    }
    int ph = enc_.base_selector(ir::kVarPhase, 0);
    sc.domain.push_back(enc_.selectors()[size_t(ph)].guard[size_t(mv.phase)]);
    for (const auto& r : mv.requires_) {
      auto [c, err] = enc_.condition(*r, mf);
      sc.domain.push_back(c && !err);
    }
    for (const ir::Check& c : mv.checks) {
      auto [b, err] = enc_.condition(*c.condition, mf);
      add_rule(p_.rules[size_t(c.rule)].name, b && !err);
    }
    sc.overlay = enc_.new_overlay();
    enc_.use_overlay(sc.overlay);
    enc_.exec(mv.body, mf, z3_.bool_val(true));
    sc.domain.push_back(!enc_.overlay_at(sc.overlay).err);
    board_rules();  // legal: the board rules hold after the move too
    const auto& mp = prop.move_params[size_t(mi)];
    for (size_t s = 0; s < mp.size() && s < sc.frame.size(); ++s)
      if (mp[s] >= 0) sc.frame[s] = enc_.identity(sc.params[size_t(mp[s])]);
  }
  if (prop.where) {
    auto [c, err] = enc_.condition(*prop.where, sc.frame);
    sc.domain.push_back(c && !err);
  }
  if (opt_.progress)
    opt_.progress(fmt::format("  encoded the set ({} selectors) after {:.1f} s", enc_.selectors().size(),
                              std::chrono::duration<double>(Clock::now() - started_).count()));
  return sc;
}

void Verifier::add_scope(z3::solver& s, const Scope& sc, bool lits_on) {
  for (const z3::expr& f : enc_.facts()) s.add(f);
  for (const z3::expr& f : sc.implications) s.add(f);
  for (const z3::expr& f : sc.domain) s.add(f);
  if (lits_on)
    for (const z3::expr& l : sc.lits) s.add(l);
  // Proved lemmas hold wherever every named rule holds.
  z3::expr_vector all(z3_);
  for (const z3::expr& l : sc.lits) all.push_back(l);
  for (const z3::expr& f : lemma_facts_) s.add(z3::implies(all.empty() ? z3_.bool_val(true) : z3::mk_and(all), f));
}

Board Verifier::board(const z3::model& m, const Scope& sc) {
  Board b;
  compiler::Interpreter in(p_, sources_);
  b.state.assign(p_.state_bytes, 0);
  engine::Setup setup;
  (void)in.setup(b.state.data(), setup);
  for (const Selector& s : enc_.selectors()) {
    if (s.var < 0) continue;
    for (size_t k = 0; k < s.guard.size(); ++k)
      if (m.eval(s.guard[k], true).is_true()) {
        ir::store_index(b.state.data(), p_.vars[size_t(s.var)], s.element, uint32_t(k));
        break;
      }
  }
  b.text = compiler::board_text(p_, b.state.data());
  if (sc.move >= 0) {
    const ir::Move& mv = p_.moves[size_t(sc.move)];
    std::string args;
    for (size_t i = 0; i < sc.params.size(); ++i) {
      const Selector& s = enc_.selectors()[size_t(sc.params[i])];
      for (size_t k = 0; k < s.guard.size(); ++k)
        if (m.eval(s.guard[k], true).is_true())
          args += (i ? ", " : "") + ir::value_text(p_.domains, mv.params[i].domain, s.values[k]);
    }
    int mover = int(ir::load_index(b.state.data(), p_.vars[ir::kVarMover], 0));
    b.move = fmt::format("{} plays {}({})", p_.player_names[size_t(mover)], mv.name, args);
  }
  return b;
}

std::pair<z3::expr, z3::expr> Verifier::value_pair(Scope& sc, const ir::Expr& e, bool regrouped) {
  enc_.use_overlay(sc.overlay);
  enc_.regroup = regrouped;
  SymP v = enc_.eval(e, sc.frame);
  z3::expr x = e.type->domain == ir::kBoolDomain ? enc_.to_bool(v) : enc_.to_int(v);
  z3::expr err = enc_.err_of(v);
  enc_.regroup = false;
  return {x, err};
}

z3::expr Verifier::refutation(const ir::Property&, Scope& sc, const ir::Expr& goal) {
  auto [gp, err] = value_pair(sc, goal, false);
  enc_.regroup_pairs.clear();
  auto [gr, err2] = value_pair(sc, goal, true);
  (void)err2;
  if (enc_.regroup_pairs.empty()) return !gp || err;
  z3::expr_vector pairs(z3_);
  for (const z3::expr& x : enc_.regroup_pairs) pairs.push_back(x);
  enc_.regroup_pairs.clear();
  // Where the regrouped parts are exclusive the regrouped goal is the goal; elsewhere
  // the plain one is used: one exact query.
  z3::expr overlap = z3::mk_or(pairs);
  return (!overlap && !gr) || (overlap && !gp) || err;
}

void Verifier::prove_like(const ir::Property& prop, Result& r) {
  const size_t n = prop.over_moves ? prop.moves.size() : 1;
  for (size_t mi = 0; mi < n; ++mi) {
    Scope sc = scope(prop, int(mi));
    z3::expr q = refutation(prop, sc, *prop.expr);
    z3::solver s(z3_);
    add_scope(s, sc, true);
    s.add(q);
    auto res = check(s);
    if (res == z3::sat) {
      r.verdict = "refuted";
      r.board = board(s.get_model(), sc);
      return;
    }
    if (res == z3::unknown) {
      r.verdict = "unknown";
      r.detail = unknown_;
      return;
    }
  }
  r.verdict = "proved";
  if (prop.kind == "lemma" && !prop.over_moves) {
    Scope sc = scope(prop, 0);
    auto [g, err] = value_pair(sc, *prop.expr, false);
    z3::expr dom = z3_.bool_val(true);
    for (const z3::expr& d : sc.domain) dom = dom && d;
    lemma_facts_.push_back(z3::implies(dom, g && !err));
    lemma_names_.push_back(prop.name);
  }
}

void Verifier::find(const ir::Property& prop, Result& r) {
  const size_t n = prop.over_moves ? prop.moves.size() : 1;
  for (size_t mi = 0; mi < n; ++mi) {
    Scope sc = scope(prop, int(mi));
    auto [g, err] = value_pair(sc, *prop.expr, false);
    z3::solver s(z3_);
    add_scope(s, sc, true);
    s.add(g && !err);
    auto res = check(s);
    if (res == z3::sat) {
      r.verdict = "found";
      r.board = board(s.get_model(), sc);
      return;
    }
    if (res == z3::unknown) {
      r.verdict = "unknown";
      r.detail = unknown_;
      return;
    }
  }
  r.verdict = "none";
}

void Verifier::bound(const ir::Property& prop, Result& r) {
  const size_t n = prop.over_moves ? prop.moves.size() : 1;
  std::optional<int64_t> best;
  const int64_t sign = prop.maximize ? 1 : -1;
  for (size_t mi = 0; mi < n; ++mi) {
    Scope sc = scope(prop, int(mi));
    auto [ep, err] = value_pair(sc, *prop.expr, false);
    enc_.regroup_pairs.clear();
    auto [er, err2] = value_pair(sc, *prop.expr, true);
    (void)err2;
    z3::expr_vector pairs(z3_);
    for (const z3::expr& x : enc_.regroup_pairs) pairs.push_back(x);
    enc_.regroup_pairs.clear();
    z3::expr overlap = pairs.empty() ? z3_.bool_val(false) : z3::mk_or(pairs);
    // An expression that errs somewhere in the set has no bound: show where.
    {
      z3::solver s(z3_);
      add_scope(s, sc, true);
      s.add(err);
      auto res = check(s);
      if (res == z3::sat) {
        r.verdict = "error";
        r.detail = "the expression cannot be evaluated on this board";
        r.board = board(s.get_model(), sc);
        return;
      }
      if (res == z3::unknown) {
        r.verdict = "unknown";
        r.detail = unknown_;
        return;
      }
    }
    // Improve until nothing better exists: the last unsat is the proof of optimality.
    while (true) {
      z3::solver s(z3_);
      add_scope(s, sc, true);
      if (best) {
        z3::expr v = z3_.int_val(int64_t(*best));
        s.add(prop.maximize ? ((!overlap && er > v) || (overlap && ep > v)) : ((!overlap && er < v) || (overlap && ep < v)));
      }
      auto res = check(s);
      if (res == z3::unknown) {
        r.verdict = "unknown";
        r.detail = unknown_ + (best ? fmt::format(" (reached {} so far)", *best) : "");
        return;
      }
      if (res == z3::unsat) break;
      z3::model m = s.get_model();
      int64_t v = m.eval(ep, true).get_numeral_int64();
      if (best && v * sign <= *best * sign) throw Unsupported("internal: a bound did not improve");
      best = v;
      r.board = board(m, sc);
      if (opt_.progress) opt_.progress(fmt::format("  {}: reached {}", prop.name, v));
    }
  }
  if (!best) {
    r.verdict = "empty";
    r.detail = "the set is empty";
    return;
  }
  r.verdict = "bound";
  r.value = best;
  r.detail = fmt::format("{} {} = {}, reached by the board below, and nothing {} (proved)",
                         prop.maximize ? "max" : "min", std::string(sources_.text(prop.expr->span)), *best,
                         prop.maximize ? "exceeds it" : "is below it");
}

void Verifier::derive(const ir::Property& prop, Result& r) {
  Scope sc = scope(prop, 0);
  auto [ep, err] = value_pair(sc, *prop.expr, false);
  z3::solver s(z3_);
  add_scope(s, sc, true);
  s.add(!err);
  auto res = check(s);
  if (res != z3::sat) {
    r.verdict = res == z3::unsat ? "empty" : "unknown";
    r.detail = res == z3::unsat ? "the set is empty" : unknown_;
    return;
  }
  z3::model m = s.get_model();
  z3::expr v = m.eval(ep, true);
  int64_t c = v.is_bool() ? (v.is_true() ? 1 : 0) : v.get_numeral_int64();
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
  z3::expr q = refutation(prop, sc, eq);
  z3::solver s2(z3_);
  add_scope(s2, sc, true);
  s2.add(q);
  auto res2 = check(s2);
  r.value = c;
  if (res2 == z3::unsat) {
    r.verdict = "derived";
    r.detail = fmt::format("{} = {} on every element (proved)", std::string(sources_.text(prop.expr->span)), c);
  } else if (res2 == z3::sat) {
    r.verdict = "not-constant";
    r.board = board(s2.get_model(), sc);
    r.detail = fmt::format("{} is {} on one board but not on the board below", std::string(sources_.text(prop.expr->span)), c);
  } else {
    r.verdict = "unknown";
    r.detail = unknown_ + fmt::format(" (one value found: {})", c);
  }
}

void Verifier::consistent(Result& r, const std::string& drop) {
  ir::Property none;
  Scope sc = scope(none, 0);
  z3::solver s(z3_);
  add_scope(s, sc, false);
  z3::expr target = z3_.bool_val(true);
  for (size_t i = 0; i < sc.lits.size(); ++i) {
    if (sc.lit_names[i] == drop) continue;
    s.add(sc.lits[i]);
  }
  if (!drop.empty()) {
    // Does the rule follow from the others? A model of the others violating it says no.
    for (const ir::Rule& rule : p_.rules)
      if (rule.name == drop && rule.board_rule) {
        Encoder::Frame f(size_t(std::max(rule.locals, 1)), nullptr);
        auto [c, err] = enc_.condition(*rule.condition, f);
        s.add(!c || err);
      }
  }
  auto res = check(s);
  if (res == z3::unknown) {
    r.verdict = "unknown";
    r.detail = unknown_;
    return;
  }
  if (drop.empty()) {
    r.verdict = res == z3::sat ? "consistent" : "inconsistent";
    if (res == z3::sat) r.board = board(s.get_model(), sc);
    r.detail = res == z3::sat ? "every board rule holds on the board below" : "no state satisfies every board rule";
  } else {
    r.verdict = res == z3::sat ? "not-redundant" : "redundant";
    if (res == z3::sat) r.board = board(s.get_model(), sc);
    r.detail = res == z3::sat ? "the other rules hold and " + drop + " does not on the board below"
                              : drop + " follows from the other board rules (proved)";
  }
}

void Verifier::depends(const ir::Property& prop, Result& r) {
  const ir::Property* subject = nullptr;
  for (const ir::Property& q : p_.properties)
    if (q.name == prop.subject && q.kind != "depends") subject = &q;
  if (!subject || (subject->kind != "prove" && subject->kind != "lemma")) {
    r.verdict = "unsupported";
    r.detail = "depends is answered for prove and lemma properties";
    return;
  }
  if (subject->over_moves && subject->moves.size() != 1) {
    r.verdict = "unsupported";
    r.detail = "depends over several moves is not encoded";
    return;
  }
  Scope sc = scope(*subject, 0);
  z3::expr q = refutation(*subject, sc, *subject->expr);
  z3::solver s(z3_);
  add_scope(s, sc, false);
  s.add(q);
  auto run = [&](const std::vector<size_t>& on) {
    std::vector<z3::expr> as;
    for (size_t i = 0; i < sc.lits.size(); ++i) {
      bool in = std::find(on.begin(), on.end(), i) != on.end();
      as.push_back(in ? sc.lits[i] : !sc.lits[i]);
    }
    return check(s, as);
  };
  std::vector<size_t> all;
  for (size_t i = 0; i < sc.lits.size(); ++i) all.push_back(i);
  auto res = run(all);
  if (res != z3::unsat) {
    r.verdict = res == z3::sat ? "refuted" : "unknown";
    r.detail = res == z3::sat ? prop.subject + " does not hold with every rule" : unknown_;
    if (res == z3::sat) r.board = board(s.get_model(), sc);
    return;
  }
  // Drop one rule at a time while the property stays proved: a minimal set.
  std::vector<size_t> need = all;
  for (size_t i = 0; i < all.size(); ++i) {
    std::vector<size_t> fewer;
    for (size_t j : need)
      if (j != all[i]) fewer.push_back(j);
    if (fewer.size() == need.size()) continue;
    if (opt_.progress) opt_.progress(fmt::format("  depends {}: without {}", prop.subject, sc.lit_names[all[i]]));
    auto rr = run(fewer);
    if (rr == z3::unsat) need = fewer;
    else if (rr == z3::unknown) {
      r.verdict = "unknown";
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
    auto rr = run(others);
    d.verdict = rr == z3::sat ? "refuted" : rr == z3::unsat ? "proved" : "unknown";
    if (rr == z3::sat) d.board = board(s.get_model(), sc);
    r.drops.push_back(std::move(d));
  }
  r.verdict = "depends";
  r.detail = need.empty() ? prop.subject + " needs none of the named rules"
                          : prop.subject + " needs these rules (a minimal set)";
}

void Verifier::one(const ir::Property& prop, Result& r) {
  if (prop.kind == "prove" || prop.kind == "lemma") prove_like(prop, r);
  else if (prop.kind == "find") find(prop, r);
  else if (prop.kind == "bound") bound(prop, r);
  else if (prop.kind == "derive") derive(prop, r);
  else if (prop.kind == "consistent") consistent(r, "");
  else if (prop.kind == "redundant") consistent(r, prop.subject);
  else if (prop.kind == "depends") depends(prop, r);
  else {
    r.verdict = "unsupported";
    r.detail = "unknown property kind " + prop.kind;
  }
}

std::vector<Result> Verifier::run() {
  std::vector<Result> out;
  for (const ir::Property& prop : p_.properties) {
    bool wanted = opt_.only.empty() || prop.kind == "lemma";
    for (const std::string& n : opt_.only) wanted = wanted || n == prop.name;
    if (!wanted) continue;
    Result r;
    r.name = prop.name;
    r.kind = prop.kind;
    r.description = prop.description;
    if (prop.kind == "depends") {
      for (const ir::Property& q : p_.properties)
        if (q.name == prop.subject && q.kind != "depends") r.set = set_text(q);
    } else if (prop.kind == "consistent" || prop.kind == "redundant") {
      r.set = "every state (of the variables' types)";
    } else {
      r.set = set_text(prop);
    }
    if (opt_.progress) opt_.progress(fmt::format("{} {} ...", prop.kind, prop.name));
    started_ = Clock::now();
    unknown_.clear();
    try {
      one(prop, r);
    } catch (const Unsupported& u) {
      r.verdict = "unsupported";
      r.detail = u.what();
    } catch (const z3::exception& z) {
      r.verdict = "unknown";
      r.detail = std::string("solver: ") + z.msg();
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    if (opt_.progress) opt_.progress(fmt::format("  {}: {} ({:.1f} s)", prop.name, r.verdict, r.seconds));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::vector<Result> verify(const ir::Program& program, const dsl::SourceSet& sources,
                           const Options& options) {
  Verifier v(program, sources, options);
  return v.run();
}

std::string result_text(const Result& r, bool times) {
  std::string out = fmt::format("{} {}: {}", r.kind, r.name, r.verdict);
  if (r.value && r.verdict != "bound") out += fmt::format(" ({})", *r.value);
  if (r.verdict == "bound") out += fmt::format(" = {}", *r.value);
  if (times) out += fmt::format("  [{:.2f} s]", r.seconds);
  out += "\n  over: " + r.set + "\n";
  if (!r.detail.empty()) out += "  " + r.detail + "\n";
  for (const std::string& n : r.needs) out += "  needs " + n + "\n";
  for (const RuleDrop& d : r.drops) {
    out += fmt::format("  without {} (all other rules kept): {}\n", d.rule, d.verdict);
    if (d.board) out += d.board->text;
  }
  if (r.board) {
    if (!r.board->move.empty()) out += "  move: " + r.board->move + "\n";
    out += r.board->text;
  }
  return out;
}

}  // namespace rulebook::verifier
