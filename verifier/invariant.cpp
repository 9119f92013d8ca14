// Invariants proved by induction: true in every start state and kept by every move and
// every `when stuck` block, the engine's own steps after them (end conditions, phase
// transitions, the next player) included. Proved ones narrow `over reachable`.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "compiler/ir/text.h"
#include "verifier/slice.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

ir::TypePtr scalar_type(int domain) {
  auto t = std::make_shared<ir::Type>();
  t->domain = domain;
  return t;
}

ir::ExprPtr constant(int domain, int64_t v) {
  auto e = std::make_unique<ir::Expr>();
  e->op = ir::Op::Const;
  e->value = v;
  e->type = scalar_type(domain);
  return e;
}

ir::StmtPtr stmt(ir::StmtOp op) {
  auto s = std::make_unique<ir::Stmt>();
  s->op = op;
  return s;
}

/// `if cond { then } else { otherwise }`.
ir::StmtPtr if_stmt(ir::ExprPtr cond, ir::Block then, ir::Block otherwise) {
  ir::StmtPtr s = stmt(ir::StmtOp::If);
  s->value = std::move(cond);
  s->body = std::move(then);
  s->otherwise = std::move(otherwise);
  return s;
}

/// `goto target`, or `end` when the target is -1.
ir::Block go(int target) {
  ir::Block b;
  ir::StmtPtr s = stmt(target < 0 ? ir::StmtOp::End : ir::StmtOp::Goto);
  s->phase = target;
  b.push_back(std::move(s));
  return b;
}

}  // namespace

ir::Block engine_steps(const ir::Program& p) {
  // semantics.md, Applying a move, step 2, as statements: unless the game is over, `end
  // when` ends it, else the first transition of the phase now in effect that holds fires.
  // The phases are an else-chain so that a transition's goto does not fire another's.
  ir::Block chain;
  for (size_t i = p.phases.size(); i-- > 0;) {
    const ir::Phase& ph = p.phases[i];
    if (ph.transitions.empty()) continue;
    ir::Block fire;
    for (size_t t = ph.transitions.size(); t-- > 0;) {
      ir::Block rest = std::move(fire);
      fire.clear();
      fire.push_back(if_stmt(ir::clone_expr(*ph.transitions[t].condition), go(ph.transitions[t].target), std::move(rest)));
    }
    auto is = std::make_unique<ir::Expr>();
    is->op = ir::Op::Eq;
    is->type = scalar_type(ir::kBoolDomain);
    auto cur = std::make_unique<ir::Expr>();
    cur->op = ir::Op::Phase;
    cur->type = scalar_type(ir::kPhaseDomain);
    is->args.push_back(std::move(cur));
    is->args.push_back(constant(ir::kPhaseDomain, ir::domain_value(p.domains, ir::kPhaseDomain, uint32_t(i))));
    ir::Block rest = std::move(chain);
    chain.clear();
    chain.push_back(if_stmt(std::move(is), std::move(fire), std::move(rest)));
  }
  if (p.end_when) {
    ir::Block rest = std::move(chain);
    chain.clear();
    chain.push_back(if_stmt(ir::clone_expr(*p.end_when), go(-1), std::move(rest)));
  }
  auto over = std::make_unique<ir::Expr>();
  over->op = ir::Op::Read;
  over->var = ir::kVarOver;
  over->type = scalar_type(ir::kBoolDomain);
  auto running = std::make_unique<ir::Expr>();
  running->op = ir::Op::Not;
  running->type = scalar_type(ir::kBoolDomain);
  running->args.push_back(std::move(over));
  ir::Block out;
  if (!chain.empty()) out.push_back(if_stmt(std::move(running), std::move(chain), {}));
  return out;
}

int Verifier::steps_locals() const {
  int n = std::max(1, p_.end_locals);
  for (const ir::Phase& ph : p_.phases) n = std::max(n, ph.locals);
  return n;
}

void Verifier::after_steps(Scope& sc) {
  // Per instance: the engine's steps after the block, then the next player to move, taken
  // as any player (what `again` and eliminations decide is not followed: a superset of
  // the states after, so a proof stays a proof). Where the steps err, the engine stops.
  each_instance(sc, [&](const z3::expr& g) {
    Encoder::Frame f(size_t(steps_locals()), nullptr);
    if (with_steps_) enc_.exec(steps_, f, z3_.bool_val(true));
    const int who = enc_.fresh_selector(ir::kPlayerDomain, fmt::format("next mover {}", enc_.selectors().size()));
    enc_.store(ir::kVarMover, 0, enc_.identity(who));
    const int o = enc_.overlay();
    const z3::expr ok = !enc_.overlay_at(o).err;
    sc.parts.push_back(Part{g.is_true() ? ok : z3::implies(g, ok), -1, std::nullopt});
  });
  enc_.use_overlay(-1);
}

void Verifier::assume_invariants(Scope& sc, const ir::Property* except) {
  // Read in the state before (overlay -1): what every reachable state satisfies.
  const int saved = enc_.overlay();
  enc_.use_overlay(-1);
  for (const ir::Property* inv : proved_invariants_) {
    if (inv == except) continue;
    Encoder::Frame f(size_t(std::max(inv->locals, 1)), nullptr);
    auto [c, err] = enc_.condition(*inv->expr, f);
    std::vector<z3::expr> cs;
    conjuncts(c && !err, cs);
    for (const z3::expr& x : cs) sc.parts.push_back(Part{x, -1, std::nullopt});
  }
  enc_.use_overlay(saved);
}

Scope Verifier::start_scope(const ir::Property& prop) {
  // The start states: every byte zero but the setup values, then the initial values and
  // `init` run (semantics.md, Setup). A setup value the rules compute (`setup x = 3`) is
  // the interpreter's; a data file's is one of its entries; a random one any value of
  // its type (a superset of what the stream draws).
  ir::Property none;
  Scope sc = scope(none, 0);
  sc.parts.erase(std::remove_if(sc.parts.begin(), sc.parts.end(), [](const Part& pt) { return pt.lit >= 0; }),
                 sc.parts.end());
  sc.lits.clear();
  sc.lit_names.clear();
  sc.frame.assign(size_t(std::max(prop.locals, 1)), nullptr);
  compiler::Interpreter in(p_, sources_);
  std::vector<uint8_t> given(p_.state_bytes, 0);
  engine::Setup bound;
  bound.values = opt_.setup;
  std::vector<std::vector<uint32_t>> overrides;
  const bool computed = compiler::setup_overrides(p_, bound, overrides).ok &&
                        in.setup_indices(given.data(), 1, overrides).ok;
  std::vector<bool> setup_var(p_.vars.size(), false);
  for (size_t i = 0; i < p_.setups.size(); ++i) {
    const ir::SetupVar& sv = p_.setups[i];
    setup_var[size_t(sv.var)] = true;
    const ir::StateVar& v = p_.vars[size_t(sv.var)];
    if (!bound_[i].empty()) continue;
    if (sv.source == ir::SetupVar::Source::Value && computed) {
      for (uint32_t k = 0; k < v.count; ++k)
        sc.parts.push_back(Part{enc_.selectors()[size_t(enc_.base_selector(sv.var, k))]
                                    .guard[ir::load_index(given.data(), v, k)], -1, std::nullopt});
    } else if (sv.source == ir::SetupVar::Source::Entries) {
      z3::expr_vector entries(z3_);
      for (const std::vector<uint32_t>& entry : sv.entries) {
        if (entry.size() != v.count) continue;
        z3::expr_vector is(z3_);
        for (uint32_t k = 0; k < v.count; ++k)
          is.push_back(enc_.selectors()[size_t(enc_.base_selector(sv.var, k))].guard[entry[k]]);
        entries.push_back(z3::mk_and(is));
      }
      sc.parts.push_back(Part{entries.empty() ? z3_.bool_val(false) : z3::mk_or(entries), -1, std::nullopt});
    }
  }
  sc.overlay = enc_.new_overlay();
  enc_.use_overlay(sc.overlay);
  Encoder::Frame f0(size_t(std::max(p_.initial_locals, 1)), nullptr);
  enc_.exec(p_.initial, f0, z3_.bool_val(true));
  Encoder::Frame f1(size_t(std::max(p_.init_locals, 1)), nullptr);
  enc_.exec(p_.init, f1, z3_.bool_val(true));
  sc.parts.push_back(Part{!enc_.overlay_at(sc.overlay).err, -1, std::nullopt});
  // Read the value now, so that every base element it reads has its selector.
  (void)pieces(sc, *prop.expr, false);
  enc_.use_overlay(-1);
  for (size_t s = 0; s < enc_.selectors().size(); ++s) {
    const Selector& sel = enc_.selectors()[s];
    if (sel.var >= 0 && !setup_var[size_t(sel.var)]) sc.parts.push_back(Part{sel.guard[0], -1, std::nullopt});
  }
  return sc;
}

Scope Verifier::step_scope(const ir::Property& prop, int move, int stuck_phase, bool assume) {
  // One move (or one phase's stuck block) from a state of the game not yet over, where
  // every board rule, the proved invariants and this one hold.
  ir::Property step;
  step.kind = ir::PropertyKind::Prove;
  step.name = prop.name;
  step.expr = ir::clone_expr(*prop.expr);
  step.locals = prop.locals;
  if (move >= 0) {
    step.over_moves = true;
    step.moves = {move};
    step.move_params.assign(1, std::vector<int>{});
  } else {
    step.phase = stuck_phase;
  }
  struct Restore {
    Verifier& v;
    ~Restore() {
      v.symbolic_moves_ = false;
      v.extra_reads_.clear();
    }
  } restore{*this};
  if (with_steps_) extra_reads_ = steps_reads_;
  symbolic_moves_ = true;
  Scope sc = scope(step, 0);
  symbolic_moves_ = false;
  extra_reads_.clear();
  sc.parts.push_back(Part{enc_.selectors()[size_t(enc_.base_selector(ir::kVarOver, 0))].guard[0], -1, std::nullopt});
  assume_invariants(sc, nullptr);
  if (assume) {
    enc_.use_overlay(-1);
    Encoder::Frame f(size_t(std::max(prop.locals, 1)), nullptr);
    auto [c, err] = enc_.condition(*prop.expr, f);
    std::vector<z3::expr> cs;
    conjuncts(c && !err, cs);
    for (const z3::expr& x : cs) sc.parts.push_back(Part{x, -1, std::nullopt});
  }
  if (move < 0) {
    const ir::Phase& ph = p_.phases[size_t(stuck_phase)];
    sc.overlay = enc_.new_overlay();
    enc_.use_overlay(sc.overlay);
    Encoder::Frame f(size_t(std::max(ph.stuck_locals, 1)), nullptr);
    enc_.exec(ph.stuck, f, z3_.bool_val(true));
  }
  after_steps(sc);
  return sc;
}

std::string Verifier::step_after_text(const Board& before, const z3::model& m, const Scope& sc, int stuck_phase) {
  // The state after, played by the interpreter from the board before (the move's block,
  // or the stuck block, and the engine's steps after it).
  compiler::Interpreter in(p_, sources_);
  std::vector<uint8_t> s = before.state;
  engine::Status st;
  if (sc.move >= 0) {
    engine::Move mv;
    mv.kind = sc.move;
    for (size_t i = 0; i < sc.params.size() && i < size_t(engine::kMaxMoveArgs); ++i) {
      const Selector& sel = enc_.selectors()[size_t(sc.params[i])];
      for (size_t k = 0; k < sel.guard.size(); ++k)
        if (m.eval(sel.guard[k], true).is_true()) mv.args[i] = int32_t(sel.values[k]);
    }
    st = in.apply(s.data(), mv);
  } else {
    compiler::Evaluator run(in);
    run.start(s.data(), std::max(64, p_.phases[size_t(stuck_phase)].stuck_locals + 1));
    st = run.exec(p_.phases[size_t(stuck_phase)].stuck);
  }
  if (!st.ok) return "  (the interpreter could not play it: " + st.message + ")\n";
  return compiler::board_text(p_, s.data());
}

void Verifier::ensure_steps() {
  if (!steps_.empty() || !steps_reads_.empty()) return;
  steps_ = engine_steps(p_);
  steps_reads_ = {ir::kVarPhase, ir::kVarOver};
  if (p_.end_when) reads_of(p_, *p_.end_when, steps_reads_);
  for (const ir::Phase& ph : p_.phases)
    for (const ir::Transition& t : ph.transitions) reads_of(p_, *t.condition, steps_reads_);
}

void Verifier::invariant(const ir::Property& prop, Result& r) {
  ensure_steps();
  // The engine's steps write only the phase and whether the game is over: an invariant
  // that reads neither is the same after them (and leaving out the states where they err
  // would only narrow the set), so they are run only for one that does.
  std::set<int> reads;
  reads_of(p_, *prop.expr, reads);
  with_steps_ = reads.count(ir::kVarPhase) || reads.count(ir::kVarOver);
  auto violated = [&](Scope& sc) {
    std::vector<Piece> ps = pieces(sc, *prop.expr, false);
    return any_piece(z3_, ps, [](const z3::expr& g) { return !g; });
  };
  // The start states.
  {
    Scope sc = start_scope(prop);
    const Answer a = ask(sc, violated(sc));
    if (a.result == z3::unknown) {
      r.verdict = Verdict::Unknown;
      r.detail = "in the start states: " + unknown_;
      return;
    }
    if (a.result == z3::sat) {
      r.verdict = Verdict::Refuted;
      r.detail = "false in the start state below";
      r.board = start_board(*a.model);
      return;
    }
  }
  // Every move and every stuck block keeps it. Counts after the step are the counts
  // before (which the invariant constrains) plus their changes.
  size_t steps = 0;
  auto step = [&](int move, int phase) {
    const uint64_t units_before = rlimit_seen_;
    // A move of a few hundred instances is asked first as one symbolic instance, on 40% of
    // what is left; unknown there, again with an instance per parameter tuple, whose counts
    // after are the counts before plus a known change (a parity `count % 2 == 0` the
    // symbolic instance leaves to case splits: a move of two cell parameters on a 4x4
    // board, unknown at 60 s, proved in seconds split; docs/verifier.md).
    const bool retry = move >= 0 && step_could_split(move);
    const Budget saved = budget_;
    if (retry) {
      const double used = std::chrono::duration<double>(Clock::now() - budget_.started).count();
      budget_.seconds = used + 0.4 * std::max(0.0, budget_.seconds - used);
      const uint64_t spent = rlimit_seen_ - budget_.rlimit_base;
      if (budget_.rlimit > 0)
        budget_.rlimit = spent + uint64_t(0.4 * double(budget_.rlimit - std::min(budget_.rlimit, spent)));
    }
    Scope sc = step_scope(prop, move, phase);
    enc_.all_counts_as_changes = true;
    z3::expr bad = violated(sc);
    enc_.all_counts_as_changes = false;
    Answer a = ask(sc, bad);
    budget_ = saved;
    if (retry && a.result == z3::unknown && !opt_.stopped()) {
      split_steps_ = true;
      sc = step_scope(prop, move, phase);
      split_steps_ = false;
      enc_.all_counts_as_changes = true;
      bad = violated(sc);
      enc_.all_counts_as_changes = false;
      a = ask(sc, bad);
    }
    const std::string what = step_name(move, phase);
    if (opt_.progress)
      opt_.progress(fmt::format("  {}: {}: {} after {:.1f} s ({} units)", prop.name, what,
                                a.result == z3::unsat ? "kept" : a.result == z3::sat ? "broken" : "unknown",
                                std::chrono::duration<double>(Clock::now() - budget_.started).count(),
                                rlimit_seen_ - units_before));
    if (a.result == z3::unsat) {
      ++steps;
      return true;
    }
    if (a.result == z3::unknown) {
      r.verdict = Verdict::Unknown;
      r.detail = fmt::format("true in every start state; {}: {}", what, unknown_);
      return false;
    }
    r.verdict = Verdict::NotInductive;
    r.board = board(*a.model, sc);
    if (move < 0) r.board->move = fmt::format("{} is stuck", p_.player_names[size_t(ir::load_index(r.board->state.data(), p_.vars[ir::kVarMover], 0))]);
    r.detail = fmt::format(
        "true in every start state, but not inductive: {} from the board below (where it and every proved invariant "
        "hold) gives a board where it is false. The board before may be unreachable: a stronger invariant may still "
        "be proved.\n  after:\n{}",
        what, step_after_text(*r.board, *a.model, sc, phase));
    return false;
  };
  if (!each_step(step)) return;
  r.verdict = Verdict::Proved;
  r.detail = fmt::format("true in every start state and kept by every move and stuck block ({} steps; induction)", steps);
  proved_invariants_.push_back(&prop);
}

bool Verifier::each_step(const std::function<bool(int, int)>& step) const {
  for (size_t m = 0; m < p_.moves.size(); ++m)
    if (!step(int(m), -1)) return false;
  for (size_t ph = 0; ph < p_.phases.size(); ++ph)
    if (p_.phases[ph].has_stuck && !step(-1, int(ph))) return false;
  return true;
}

std::string Verifier::step_name(int move, int stuck_phase) const {
  return move >= 0 ? "move " + p_.moves[size_t(move)].name : "the stuck block of phase " + p_.phases[size_t(stuck_phase)].name;
}

Board Verifier::start_board(const z3::model& m) {
  // The start state of the setup values the model chose (the others as seed 1 draws them).
  Board b;
  compiler::Interpreter in(p_, sources_);
  b.state.assign(p_.state_bytes, 0);
  std::vector<std::vector<uint32_t>> chosen(p_.setups.size());
  for (size_t i = 0; i < p_.setups.size(); ++i) {
    const ir::StateVar& v = p_.vars[size_t(p_.setups[i].var)];
    std::vector<uint32_t> value(v.count, UINT32_MAX);
    for (const Selector& s : enc_.selectors())
      if (s.var == p_.setups[i].var)
        for (size_t k = 0; k < s.guard.size(); ++k)
          if (m.eval(s.guard[k], true).is_true()) value[s.element] = uint32_t(k);
    if (std::find(value.begin(), value.end(), UINT32_MAX) == value.end()) chosen[i] = std::move(value);
  }
  engine::Setup bound;
  bound.values = opt_.setup;
  std::vector<std::vector<uint32_t>> given;
  (void)compiler::setup_overrides(p_, bound, given);
  for (size_t i = 0; i < chosen.size() && i < given.size(); ++i)
    if (!given[i].empty()) chosen[i] = given[i];
  if (!in.setup_indices(b.state.data(), 1, chosen).ok) (void)in.setup_indices(b.state.data(), 1, given);
  b.text = compiler::board_text(p_, b.state.data());
  return b;
}

std::vector<std::string> Verifier::violated_invariants(const Board& b) {
  // Read by the interpreter on the board itself, as the engines would.
  std::vector<std::string> out;
  compiler::Interpreter in(p_, sources_);
  for (const ir::Property* inv : proved_invariants_) {
    std::vector<uint8_t> s = b.state;
    compiler::Evaluator run(in);
    run.start(s.data(), std::max(64, inv->locals + 1));
    int64_t v = 0;
    if (!run.scalar(*inv->expr, v).ok || !v) out.push_back(inv->name);
  }
  return out;
}

}  // namespace rulebook::verifier
