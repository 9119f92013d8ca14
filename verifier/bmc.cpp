// Bounded model checking over k plies. State 0 is the setup (as an invariant's start
// states: setup values bound, from a data file's entries, or free); each ply chooses one
// move (parameters as fresh selectors) or one phase's stuck block, or stands still once
// the game is over, runs it and the engine's steps, and passes the turn. After each ply
// every element written so far is read into fresh selectors, so that ply i + 1 reads
// plain variables, not ply i's terms. What the encoding leaves free (the stuck block is
// allowed whether or not the mover is stuck, `again` may or may not keep the turn) only
// adds lines: "none within k plies" stays exact, and a line found is replayed by the
// interpreter before it is believed.
#include "verifier/bmc.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/interp/coverage.h"
#include "compiler/ir/text.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {
namespace {

/// Lines the solver proposes that the interpreter does not confirm are excluded and the
/// question asked again, at most this many times.
constexpr int kRetries = 4;

bool has_again(const ir::Block& b) {
  for (const ir::StmtPtr& s : b)
    if (s->op == ir::StmtOp::Again || has_again(s->body) || has_again(s->otherwise)) return true;
  return false;
}

ir::TypePtr type_of(int domain) {
  auto t = std::make_shared<ir::Type>();
  t->domain = domain;
  return t;
}

/// `var` or `var[key]` (key a value of the player domain), as an IR read.
ir::ExprPtr read_expr(const ir::Program& p, int var, std::optional<int64_t> key) {
  auto e = std::make_unique<ir::Expr>();
  e->op = ir::Op::Read;
  e->var = var;
  e->type = type_of(p.vars[size_t(var)].domain);
  if (key) {
    auto k = std::make_unique<ir::Expr>();
    k->op = ir::Op::Const;
    k->value = *key;
    k->type = type_of(ir::kPlayerDomain);
    e->args.push_back(std::move(k));
  }
  return e;
}

}  // namespace

const char* bmc_verdict_name(BmcResult::Verdict v) {
  switch (v) {
    case BmcResult::Verdict::Reached: return "reached";
    case BmcResult::Verdict::NotWithin: return "not within";
    case BmcResult::Verdict::Unknown: return "unknown";
    case BmcResult::Verdict::Unsupported: return "unsupported";
  }
  return "unknown";
}

/// One ply of the unrolling: per option (the moves, then the stuck blocks) whether it is
/// the one played, and each move's parameter selectors.
struct BmcPly {
  std::vector<z3::expr> chosen;
  std::vector<int> stuck_phase;                 ///< per option: -1 for a move
  std::vector<std::vector<int>> params;         ///< per option
};

SymP Verifier::bmc_read(int var, std::optional<int64_t> key) {
  ir::ExprPtr e = read_expr(p_, var, key);
  Encoder::Frame f(1, nullptr);
  return enc_.eval(*e, f);
}

z3::expr Verifier::bmc_is(const SymP& v, int domain, int64_t x) {
  if (domain == ir::kBoolDomain) {
    const z3::expr b = enc_.to_bool(v);
    return x ? b : !b;
  }
  if (auto cases = enc_.to_cases(v)) {
    z3::expr_vector gs(z3_);
    for (const auto& c : *cases)
      if (c.first == x) gs.push_back(c.second);
    return gs.empty() ? z3_.bool_val(false) : gs.size() == 1 ? gs[0] : z3::mk_or(gs);
  }
  return enc_.to_int(v) == z3_.int_val(x);
}

void Verifier::bmc_rebase(std::vector<z3::expr>& cs, int ply) {
  std::vector<std::pair<int, uint32_t>> keys;
  for (const auto& kv : enc_.overlay_at(enc_.overlay()).slots) keys.push_back(kv.first);
  for (const auto& key : keys) {
    const SymP v = enc_.overlay_at(enc_.overlay()).slots.at(key);
    if (Encoder::concrete(*v) && v->k == Sym::K::Val && !v->err) continue;
    const int domain = p_.vars[size_t(key.first)].domain;
    const int s = enc_.fresh_selector(domain, fmt::format("bmc{}.{}.{}", ply, p_.vars[size_t(key.first)].name, key.second));
    const Selector& sel = enc_.selectors()[size_t(s)];
    for (size_t k = 0; k < sel.guard.size(); ++k) cs.push_back(sel.guard[k] == bmc_is(v, domain, sel.values[k]));
    cs.push_back(!enc_.err_of(v));
    enc_.store(key.first, key.second, enc_.identity(s));
  }
}

std::vector<BmcResult> Verifier::bmc(const compiler::Interpreter& in, const std::vector<BmcTarget>& targets,
                                     const BmcPlan& plan) {
  std::vector<BmcResult> out(targets.size());
  for (BmcResult& r : out) r.plies = plan.plies;
  StopWatcher watch(z3_, plan.stop);
  bind_setups();
  ensure_steps();
  const compiler::Coverage cov(p_);
  std::vector<z3::expr> cs;
  std::vector<std::vector<z3::expr>> at(targets.size());  // per target, per ply
  std::vector<std::string> why(targets.size());           // a target the encoding cannot ask
  std::vector<BmcPly> plies;
  std::vector<int> top_move(targets.size(), -1);  // a statement's move, when it runs with it
  for (size_t t = 0; t < targets.size(); ++t) {
    const int site = targets[t].site;
    if (targets[t].move >= 0) continue;
    const auto kind = site >= 0 && size_t(site) < cov.sites().size() ? cov.sites()[size_t(site)].kind
                                                                      : compiler::CoverageSite::Kind::Statement;
    if (kind == compiler::CoverageSite::Kind::Transition || kind == compiler::CoverageSite::Kind::EndCondition) continue;
    // A statement at the top level of a move's block is asked for as the move played; the
    // replay's counter of the statement confirms that it ran.
    if (kind == compiler::CoverageSite::Kind::Statement)
      for (size_t m = 0; m < p_.moves.size(); ++m)
        if (cov.sites()[size_t(site)].block == "move " + p_.moves[m].name)
          for (const ir::StmtPtr& st : p_.moves[m].body)
            if (st->span.file == cov.sites()[size_t(site)].span.file && st->span.begin == cov.sites()[size_t(site)].span.begin)
              top_move[t] = int(m);
    if (top_move[t] < 0)
      why[t] = "bounded model checking asks for moves, statements at the top of a move's block, `until`s and end "
               "conditions, not for other statements";
  }
  std::string unsupported;
  try {
    ir::Property none;
    none.kind = ir::PropertyKind::Invariant;
    none.locals = 1;
    none.expr = std::make_unique<ir::Expr>();
    none.expr->op = ir::Op::Const;
    none.expr->value = 1;
    none.expr->type = type_of(ir::kBoolDomain);
    Scope sc = start_scope(none);
    for (const Part& pt : sc.parts) cs.push_back(pt.e);
    enc_.use_overlay(sc.overlay);
    enc_.slice = nullptr;
    bmc_rebase(cs, 0);
    bool any_again = false;
    for (const ir::Move& mv : p_.moves) any_again = any_again || has_again(mv.body);
    for (const ir::Phase& ph : p_.phases) any_again = any_again || (ph.has_stuck && has_again(ph.stuck));
    const int players = std::max(1, p_.players);
    for (int i = 0; i < plan.plies; ++i) {
      BmcPly ply;
      const z3::expr running = !enc_.to_bool(bmc_read(ir::kVarOver, std::nullopt));
      const SymP phase = bmc_read(ir::kVarPhase, std::nullopt);
      const SymP mover = bmc_read(ir::kVarMover, std::nullopt);
      const z3::expr still = z3_.bool_const(fmt::format("bmc{}.still", i).c_str());
      cs.push_back(still == !running);
      z3::expr_vector all(z3_);
      all.push_back(still);
      auto option = [&](const std::string& name, int stuck) {
        ply.chosen.push_back(z3_.bool_const(fmt::format("bmc{}.{}", i, name).c_str()));
        ply.stuck_phase.push_back(stuck);
        ply.params.emplace_back();
        all.push_back(ply.chosen.back());
        return ply.chosen.back();
      };
      z3::expr_vector moved(z3_);
      for (size_t m = 0; m < p_.moves.size(); ++m) {
        const ir::Move& mv = p_.moves[m];
        const z3::expr c = option("move " + mv.name, -1);
        moved.push_back(c);
        Encoder::Frame mf(size_t(std::max(mv.locals, int(mv.params.size()) + 1)), nullptr);
        for (size_t k = 0; k < mv.params.size(); ++k) {
          const int s = enc_.fresh_selector(mv.params[k].domain, fmt::format("bmc{}.{}.{}", i, mv.name, mv.params[k].name));
          ply.params.back().push_back(s);
          mf[k] = enc_.identity(s);
        }
        cs.push_back(z3::implies(c, bmc_is(phase, ir::kPhaseDomain, ir::domain_value(p_.domains, ir::kPhaseDomain, uint32_t(mv.phase)))));
        for (const ir::ExprPtr& r : mv.requires_) {
          auto [b, err] = enc_.condition(*r, mf);
          cs.push_back(z3::implies(c, b && !err));
        }
        for (const ir::Check& chk : mv.checks) {
          auto [b, err] = enc_.condition(*chk.condition, mf);
          cs.push_back(z3::implies(c, b && !err));
        }
        enc_.exec(mv.body, mf, c);
      }
      for (size_t ph = 0; ph < p_.phases.size(); ++ph) {
        if (!p_.phases[ph].has_stuck) continue;
        const z3::expr c = option("stuck " + p_.phases[ph].name, int(ph));
        cs.push_back(z3::implies(c, bmc_is(phase, ir::kPhaseDomain, ir::domain_value(p_.domains, ir::kPhaseDomain, uint32_t(ph)))));
        Encoder::Frame f(size_t(std::max(p_.phases[ph].stuck_locals, 1)), nullptr);
        enc_.exec(p_.phases[ph].stuck, f, c);
      }
      cs.push_back(z3::atleast(all, 1));
      cs.push_back(z3::atmost(all, 1));
      // A move is legal only where the board rules hold after it.
      for (const ir::Rule& r : p_.rules) {
        if (!r.board_rule || moved.empty()) continue;
        Encoder::Frame f(size_t(std::max(r.locals, 1)), nullptr);
        auto [b, err] = enc_.condition(*r.condition, f);
        cs.push_back(z3::implies(z3::mk_or(moved), b && !err));
      }
      // The targets, after the block and before the engine's steps.
      const z3::expr ran = !still && !enc_.to_bool(bmc_read(ir::kVarOver, std::nullopt));
      const SymP phase_now = bmc_read(ir::kVarPhase, std::nullopt);
      z3::expr ends = z3_.bool_val(false);
      if (p_.end_when) {
        Encoder::Frame f(size_t(std::max(p_.end_locals, 1)), nullptr);
        auto [b, err] = enc_.condition(*p_.end_when, f);
        ends = b;
        cs.push_back(z3::implies(ran, !err));
      }
      for (size_t t = 0; t < targets.size(); ++t) {
        if (!why[t].empty()) continue;
        if (targets[t].move >= 0 || top_move[t] >= 0) {
          at[t].push_back(ply.chosen[size_t(targets[t].move >= 0 ? targets[t].move : top_move[t])]);
          continue;
        }
        const compiler::CoverageSite& site = cov.sites()[size_t(targets[t].site)];
        if (site.kind == compiler::CoverageSite::Kind::EndCondition) {
          Encoder::Frame f(size_t(std::max(p_.end_locals, 1)), nullptr);
          auto [b, err] = enc_.condition(*cov.end_parts()[size_t(targets[t].site - cov.end_base())], f);
          at[t].push_back(ran && b && !err);
          continue;
        }
        for (size_t ph = 0; ph < p_.phases.size(); ++ph)
          for (size_t k = 0; k < p_.phases[ph].transitions.size(); ++k) {
            if (cov.transition_site(int(ph), int(k)) != targets[t].site) continue;
            Encoder::Frame f(size_t(std::max(p_.phases[ph].locals, 1)), nullptr);
            z3::expr fires = ran && !ends &&
                             bmc_is(phase_now, ir::kPhaseDomain, ir::domain_value(p_.domains, ir::kPhaseDomain, uint32_t(ph)));
            for (size_t e = 0; e <= k; ++e) {
              auto [b, err] = enc_.condition(*p_.phases[ph].transitions[e].condition, f);
              fires = fires && (e == k ? b : !b) && !err;
            }
            at[t].push_back(fires);
          }
      }
      Encoder::Frame sf(size_t(steps_locals()), nullptr);
      enc_.exec(steps_, sf, z3_.bool_val(true));
      // The turn: the next seat not out, or the same when `again` may have kept it.
      const SymP who = bmc_read(ir::kVarMover, std::nullopt);
      std::vector<z3::expr> out_now;
      for (int q = 0; q < players; ++q)
        out_now.push_back(enc_.to_bool(bmc_read(ir::kVarOut, ir::domain_value(p_.domains, ir::kPlayerDomain, uint32_t(q)))));
      const int next = enc_.fresh_selector(ir::kPlayerDomain, fmt::format("bmc{}.next", i));
      const Selector& ns = enc_.selectors()[size_t(next)];
      z3::expr_vector all_out(z3_);
      for (const z3::expr& o : out_now) all_out.push_back(o);
      for (int w = 0; w < players; ++w) {
        const z3::expr is_w = bmc_is(who, ir::kPlayerDomain, ns.values[size_t(w)]);
        z3::expr turn = z3_.bool_val(false), earlier_out = z3_.bool_val(true);
        for (int k = 1; k <= players; ++k) {
          const int q = (w + k) % players;
          turn = turn || (earlier_out && !out_now[size_t(q)] && ns.guard[size_t(q)]);
          earlier_out = earlier_out && out_now[size_t(q)];
        }
        if (any_again) turn = turn || (!out_now[size_t(w)] && ns.guard[size_t(w)]);
        cs.push_back(z3::implies(is_w && !still, turn || z3::mk_and(all_out)));
        cs.push_back(z3::implies(is_w && still, ns.guard[size_t(w)]));
      }
      const z3::expr over_after = enc_.to_bool(bmc_read(ir::kVarOver, std::nullopt));
      enc_.store(ir::kVarMover, 0, enc_.identity(next));
      enc_.store(ir::kVarOver, 0, enc_.boolean(over_after || (!still && z3::mk_and(all_out))));
      cs.push_back(!enc_.overlay_at(enc_.overlay()).err);
      enc_.overlay_at(enc_.overlay()).err = z3_.bool_val(false);
      bmc_rebase(cs, i + 1);
      plies.push_back(std::move(ply));
      if (opt_.stopped()) break;
    }
    if (!enc_.count_facts().empty()) unsupported = "counts of connected components are not unrolled";
  } catch (const Unsupported& u) {
    unsupported = u.what();
  } catch (const z3::exception& e) {
    unsupported = std::string("solver: ") + e.msg();
  }
  enc_.use_overlay(-1);
  if (!unsupported.empty()) {
    for (BmcResult& r : out) r.verdict = BmcResult::Verdict::Unsupported, r.detail = unsupported;
    return out;
  }
  // Every base element the unrolling read and the setup leaves alone is zero.
  std::vector<bool> setup_var(p_.vars.size(), false);
  for (const ir::SetupVar& sv : p_.setups) setup_var[size_t(sv.var)] = true;
  for (const Selector& sel : enc_.selectors())
    if (sel.var >= 0 && !setup_var[size_t(sel.var)]) cs.push_back(sel.guard[0]);
  z3::solver s(z3_);
  for (const z3::expr& c : cs) s.add(c);
  for (const z3::expr& c : enc_.facts()) s.add(c);
  for (size_t t = 0; t < targets.size(); ++t) {
    BmcResult& r = out[t];
    if (!why[t].empty()) {
      r.verdict = BmcResult::Verdict::Unsupported;
      r.detail = why[t];
      continue;
    }
    if (opt_.stopped() || plies.size() < size_t(plan.plies)) {
      r.detail = "interrupted";
      continue;
    }
    s.push();
    z3::expr_vector any(z3_);
    for (const z3::expr& x : at[t]) any.push_back(x);
    s.add(any.empty() ? z3_.bool_val(false) : z3::mk_or(any));
    for (int attempt = 0; attempt <= kRetries; ++attempt) {
      // One budget per item, the retries included.
      if (r.rlimit >= plan.rlimit) {
        r.verdict = BmcResult::Verdict::Unknown;
        r.detail = fmt::format("resource limit ({} units spent)", r.rlimit);
        break;
      }
      z3::params ps(z3_);
      ps.set("rlimit", unsigned(std::min<uint64_t>(plan.rlimit - r.rlimit, UINT32_MAX)));
      ps.set("ctrl_c", false);
      s.set(ps);
      const uint64_t before = rlimit_count(s);
      const z3::check_result res = s.check();
      r.rlimit += rlimit_count(s) - before;
      if (res == z3::unsat) {
        r.verdict = BmcResult::Verdict::NotWithin;
        break;
      }
      if (res == z3::unknown) {
        r.verdict = BmcResult::Verdict::Unknown;
        r.detail = opt_.stopped() ? std::string("interrupted")
                   : r.rlimit >= plan.rlimit ? fmt::format("resource limit ({} units spent)", r.rlimit)
                                             : s.reason_unknown();
        break;
      }
      const z3::model m = s.get_model();
      if (bmc_confirm(in, cov, targets[t], plies, at[t], m, r)) break;
      // Exclude this line's choices and ask again.
      z3::expr_vector other(z3_);
      for (size_t i = 0; i < plies.size(); ++i) {
        for (const z3::expr& c : plies[i].chosen)
          if (m.eval(c, true).is_true()) other.push_back(!c);
        if (m.eval(at[t][i], true).is_true()) break;
      }
      r.verdict = BmcResult::Verdict::Unknown;
      r.detail = fmt::format("{} line(s) found by the solver were not lines of play (a stuck block where a move was "
                             "legal, a turn kept without `again`)", attempt + 1);
      r.line.clear();
      if (other.empty()) break;
      s.add(z3::mk_or(other));
    }
    s.pop();
  }
  return out;
}

bool Verifier::bmc_confirm(const compiler::Interpreter& in, const compiler::Coverage& cov, const BmcTarget& target,
                           const std::vector<BmcPly>& plies, const std::vector<z3::expr>& at, const z3::model& m,
                           BmcResult& r) {
  // The setup the model chose (the values bound, a data file's entry, a random value).
  std::vector<std::vector<uint32_t>> chosen(p_.setups.size());
  std::vector<std::string> setup_text;
  for (size_t i = 0; i < p_.setups.size(); ++i) {
    const ir::StateVar& v = p_.vars[size_t(p_.setups[i].var)];
    std::vector<uint32_t> value(v.count, 0);
    for (const Selector& sel : enc_.selectors())
      if (sel.var == p_.setups[i].var)
        for (size_t k = 0; k < sel.guard.size(); ++k)
          if (m.eval(sel.guard[k], true).is_true()) value[sel.element] = uint32_t(k);
    chosen[i] = value;
  }
  engine::Setup bound;
  bound.values = opt_.setup;
  std::vector<std::vector<uint32_t>> given;
  (void)compiler::setup_overrides(p_, bound, given);
  for (size_t i = 0; i < chosen.size(); ++i) {
    if (i < given.size() && !given[i].empty()) {
      chosen[i] = given[i];
      continue;
    }
    const ir::SetupVar& sv = p_.setups[i];
    const ir::StateVar& v = p_.vars[size_t(sv.var)];
    if (sv.source == ir::SetupVar::Source::Entries) {
      for (size_t e = 0; e < sv.entries.size(); ++e)
        if (sv.entries[e] == chosen[i]) setup_text.push_back(fmt::format("{}={}", sv.name, e + 1));
    } else if (sv.source != ir::SetupVar::Source::Value && v.count == 1) {
      setup_text.push_back(fmt::format("{}={}", sv.name,
                                       ir::value_text(p_.domains, v.domain, ir::domain_value(p_.domains, v.domain, chosen[i][0]))));
    } else if (sv.source != ir::SetupVar::Source::Value) {
      setup_text.push_back(sv.name + " as the solver chose it");
    }
  }
  std::vector<uint8_t> state(p_.state_bytes, 0);
  if (!in.setup_indices(state.data(), 1, chosen).ok) return false;
  compiler::Coverage counts(p_);
  std::vector<engine::Move> legal;
  int last_kind = -1;
  r.line.clear();
  for (size_t i = 0; i < plies.size(); ++i) {
    const BmcPly& ply = plies[i];
    size_t o = 0;
    while (o < ply.chosen.size() && !m.eval(ply.chosen[o], true).is_true()) ++o;
    if (o == ply.chosen.size()) return false;  // the game was over before the target
    if (ply.stuck_phase[o] < 0) {
      engine::Move mv;
      mv.kind = int(o);
      for (size_t k = 0; k < ply.params[o].size() && k < size_t(engine::kMaxMoveArgs); ++k) {
        const Selector& sel = enc_.selectors()[size_t(ply.params[o][k])];
        for (size_t g = 0; g < sel.guard.size(); ++g)
          if (m.eval(sel.guard[g], true).is_true()) mv.args[k] = int32_t(sel.values[g]);
      }
      // The interpreter runs stuck blocks itself; a move it does not list is no line.
      legal.clear();
      if (in.terminal(state.data()) || !in.legal_moves(state.data(), legal).ok ||
          std::find(legal.begin(), legal.end(), mv) == legal.end())
        return false;
      r.line.push_back(in.move_text(mv));
      last_kind = mv.kind;
      if (!in.apply_counted(state.data(), mv, counts).ok) return false;
    }
    if (m.eval(at[i], true).is_true()) break;
  }
  const bool reached = target.move >= 0 ? last_kind == target.move
                                        : size_t(target.site) < cov.sites().size() && counts.counts[size_t(target.site)] > 0;
  if (!reached) return false;
  r.verdict = BmcResult::Verdict::Reached;
  r.setup = setup_text;
  r.detail.clear();
  return true;
}

std::vector<BmcResult> bounded_search(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources,
                                      const std::vector<BmcTarget>& targets, const BmcPlan& plan) {
  Options o;
  o.setup = plan.setup;
  o.stop = plan.stop;
  Verifier v(interpreter.program(), sources, o);
  return v.bmc(interpreter, targets, plan);
}

}  // namespace rulebook::verifier
