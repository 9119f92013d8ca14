// The search for a rulebook's allowed / not-allowed examples: seeded games walked position
// by position, every instance of the moves a rule governs tried there (requires first, a
// parameter at a time, so most instances cost one condition), then the explorer's directed
// search for an allowed example the games did not give.
#include "cli/rule_examples.h"

#include <algorithm>

#include "compiler/runtime/random.h"
#include "explorer/directed.h"

namespace rulebook::cli {
namespace {

class Finder {
 public:
  Finder(const compiler::Interpreter& interp, const engine::Engine& play, const dsl::SourceSet& sources,
         const ExamplePlan& plan, ExampleSearch& out)
      : interp_(interp), play_(play), p_(interp.program()), sources_(sources), plan_(plan), out_(out) {}

  void init_rules() {
    std::vector<bool> played(p_.moves.size(), false);
    for (const ir::Phase& ph : p_.phases)
      for (int m : ph.moves) played[size_t(m)] = true;
    for (size_t r = 0; r < p_.rules.size(); ++r) {
      RuleExamples re;
      re.rule = int(r);
      for (size_t m = 0; m < p_.moves.size(); ++m) {
        const ir::Move& mv = p_.moves[m];
        const bool governed = p_.rules[r].board_rule ||
            std::any_of(mv.checks.begin(), mv.checks.end(), [&](const ir::Check& c) { return c.rule == int(r); });
        if (governed && played[m]) re.moves.push_back(int(m));
      }
      out_.rules.push_back(re);
    }
  }

  bool done() const {
    if (out_.budget_spent || (plan_.stop && plan_.stop->load())) return true;
    return std::all_of(out_.rules.begin(), out_.rules.end(),
                       [](const RuleExamples& r) { return r.allowed.found && r.forbidden.found; });
  }

  /// Walks game `k` as `play --seed` plays it, examining each position before its move.
  void walk_game(int k) {
    const uint64_t seed = plan_.seed + uint64_t(k);
    std::vector<uint8_t> state(p_.state_bytes, 0);
    engine::Setup setup;
    setup.seed = seed;
    if (engine::Status st = play_.setup(state.data(), setup); !st.ok) {
      if (out_.error.empty()) out_.error = st.message;
      return;
    }
    SplitMix64 rng(seed);
    std::vector<std::string> line;
    std::vector<engine::Move> legal;
    for (int ply = 0; ply < plan_.max_plies && !play_.terminal(state.data()) && !done(); ++ply) {
      legal.clear();
      if (engine::Status st = play_.legal_moves(state.data(), legal); !st.ok || legal.empty()) {
        if (!st.ok && out_.error.empty()) out_.error = st.message;
        return;
      }
      ++out_.positions;
      examine(state, legal, seed, line);
      const engine::Move move = legal[rng.below(legal.size())];
      line.push_back(played_text(state.data(), move));
      if (engine::Status st = play_.apply(state.data(), move); !st.ok) {
        if (out_.error.empty()) out_.error = st.message;
        return;
      }
    }
  }

  /// Where a rule forbids a move, a move of the same kind that it allows on the same board
  /// makes the clearest pair ("this, not that"): it replaces the allowed example found
  /// elsewhere.
  void pair_on_one_board() {
    std::vector<engine::Move> legal;
    for (RuleExamples& re : out_.rules) {
      const Example& no = re.forbidden;
      if (!no.found) continue;
      legal.clear();
      if (!play_.legal_moves(no.state.data(), legal).ok) continue;
      for (const engine::Move& m : legal)
        if (m.kind == no.move.kind) {
          record(re.allowed, no.state, m, no.seed, no.line, no.how);
          break;
        }
    }
  }

  /// The allowed examples still missing, from the explorer's directed search: a move the
  /// rule governs being played is a board where it allows that move.
  void search_allowed() {
    std::vector<explorer::SearchTarget> targets;
    std::vector<size_t> owner;
    for (size_t i = 0; i < out_.rules.size(); ++i) {
      if (out_.rules[i].allowed.found) continue;
      for (int m : out_.rules[i].moves) {
        explorer::SearchTarget t;
        t.kind = explorer::SearchTarget::Kind::Move;
        t.move = m;
        targets.push_back(t);
        owner.push_back(i);
      }
    }
    if (targets.empty() || plan_.search_states == 0) return;
    explorer::SearchPlan sp;
    sp.max_states = plan_.search_states;
    sp.setup.seed = plan_.seed;
    sp.stop = plan_.stop;
    const explorer::DirectedSearch ds = explorer::search_targets(interp_, targets, sp);
    out_.searched = ds.states;
    for (size_t t = 0; t < ds.results.size(); ++t) {
      const explorer::SearchResult& r = ds.results[t];
      Example& ex = out_.rules[owner[t]].allowed;
      if (ex.found || !r.reached || r.line.empty()) continue;
      // The board before the line's last move, replayed from the same setup.
      std::vector<uint8_t> state(p_.state_bytes, 0);
      engine::Setup setup;
      setup.seed = plan_.seed;
      if (!play_.setup(state.data(), setup).ok) continue;
      std::vector<std::string> line;
      bool ok = true;
      for (size_t i = 0; i + 1 < r.line.size() && ok; ++i) {
        line.push_back(played_text(state.data(), r.line[i]));
        ok = play_.apply(state.data(), r.line[i]).ok;
      }
      if (ok) record(ex, state, r.line.back(), plan_.seed, line, "the explorer's directed search");
    }
  }

 private:
  std::string played_text(const uint8_t* state, const engine::Move& move) const {
    const std::vector<std::string>& players = p_.domains[ir::kPlayerDomain].members;
    const int who = play_.to_move(state);
    const std::string text = play_.move_text(move);
    return who >= 0 && size_t(who) < players.size() ? players[size_t(who)] + " " + text : text;
  }

  void record(Example& ex, const std::vector<uint8_t>& state, const engine::Move& move, uint64_t seed,
              const std::vector<std::string>& line, const std::string& how) {
    ex.found = true;
    ex.state = state;
    ex.move = move;
    ex.move_text = played_text(state.data(), move);
    ex.seed = seed;
    ex.line = line;
    ex.how = how;
    ex.refusal = why_not_legal(interp_, sources_, state.data(), move, true);
  }

  void examine(const std::vector<uint8_t>& state, const std::vector<engine::Move>& legal, uint64_t seed,
               const std::vector<std::string>& line) {
    for (RuleExamples& re : out_.rules) {
      if (re.allowed.found) continue;
      for (const engine::Move& m : legal)
        if (std::find(re.moves.begin(), re.moves.end(), m.kind) != re.moves.end()) {
          record(re.allowed, state, m, seed, line, "seeded game " + std::to_string(seed));
          break;
        }
    }
    const ir::Phase& ph = p_.phases[size_t(play_.phase(state.data()))];
    for (int m : ph.moves) {
      if (!wanted(m)) continue;
      const ir::Move& mv = p_.moves[size_t(m)];
      std::vector<uint8_t> copy = state;
      compiler::Evaluator ev(interp_);
      ev.start(copy.data(), std::max(64, mv.locals));
      Instance inst;
      inst.move.kind = m;
      if (stage_passes(ev, mv, 0, inst)) try_params(ev, mv, inst, 0, state, legal, seed, line);
      if (out_.budget_spent) return;
    }
  }

  /// An instance being built a parameter at a time, and the one move rule failing so far.
  struct Instance {
    engine::Move move;
    int failing = -1;
  };

  /// Whether some rule governing move `m` still lacks its not-allowed example.
  bool wanted(int m) const {
    for (const RuleExamples& re : out_.rules)
      if (!re.forbidden.found && std::find(re.moves.begin(), re.moves.end(), m) != re.moves.end()) return true;
    return false;
  }

  bool spend(uint64_t n) {
    out_.evaluated += n;
    if (plan_.budget && out_.evaluated >= plan_.budget) out_.budget_spent = true;
    return !out_.budget_spent;
  }

  /// Reads the conditions that need exactly `stage` parameters: false (prune) when a
  /// `requires` fails, or a rule fails that already has its example or besides another.
  bool stage_passes(compiler::Evaluator& ev, const ir::Move& mv, int stage, Instance& inst) {
    for (size_t i = 0; i < mv.requires_.size(); ++i) {
      if (mv.requires_stage[i] != stage) continue;
      if (!spend(1)) return false;
      int64_t v = 0;
      if (!ev.scalar(*mv.requires_[i], v).ok || v == 0) return false;
    }
    for (size_t i = 0; i < mv.checks.size(); ++i) {
      if (mv.checks_stage[i] != stage) continue;
      if (!spend(1)) return false;
      int64_t v = 0;
      if (!ev.scalar(*mv.checks[i].condition, v).ok) return false;
      if (v != 0) continue;
      if (inst.failing >= 0 || out_.rules[size_t(mv.checks[i].rule)].forbidden.found) return false;
      inst.failing = mv.checks[i].rule;
    }
    return true;
  }

  void try_params(compiler::Evaluator& ev, const ir::Move& mv, Instance& inst, size_t i,
                  const std::vector<uint8_t>& state, const std::vector<engine::Move>& legal, uint64_t seed,
                  const std::vector<std::string>& line) {
    if (i == mv.params.size()) {
      try_instance(mv, inst, state, legal, seed, line);
      return;
    }
    if (i >= size_t(engine::kMaxMoveArgs)) return;  // the checker allows no more
    const int d = mv.params[i].domain;
    const int failing = inst.failing;
    for (uint32_t v = 0; v < p_.domains[size_t(d)].size && !out_.budget_spent; ++v) {
      inst.move.args[i] = int32_t(ir::domain_value(p_.domains, d, v));
      inst.failing = failing;
      ev.set_local(int(i), inst.move.args[i]);
      if (stage_passes(ev, mv, int(i) + 1, inst)) try_params(ev, mv, inst, i + 1, state, legal, seed, line);
      if (!wanted(inst.move.kind)) return;
    }
    inst.failing = failing;
  }

  /// An instance whose requires hold and whose move rules fail at most one wanted rule:
  /// the interpreter's full reading decides whether that rule (or, when none fails, a
  /// board rule) forbids it alone.
  void try_instance(const ir::Move& mv, const Instance& inst, const std::vector<uint8_t>& state,
                    const std::vector<engine::Move>& legal, uint64_t seed, const std::vector<std::string>& line) {
    std::vector<size_t> candidates;
    for (size_t r = 0; r < out_.rules.size(); ++r) {
      const RuleExamples& re = out_.rules[r];
      if (re.forbidden.found || std::find(re.moves.begin(), re.moves.end(), inst.move.kind) == re.moves.end()) continue;
      if (inst.failing >= 0 ? int(r) == inst.failing : p_.rules[r].board_rule) candidates.push_back(r);
    }
    if (candidates.empty()) return;
    if (inst.failing < 0 && std::find(legal.begin(), legal.end(), inst.move) != legal.end()) return;
    if (!spend(mv.requires_.size() + mv.checks.size() + p_.rules.size())) return;
    const Refusal refusal = why_not_legal(interp_, sources_, state.data(), inst.move, true);
    for (size_t r : candidates)
      if (forbidden_only_by(refusal, p_.rules[r])) {
        record(out_.rules[r].forbidden, state, inst.move, seed, line, "seeded game " + std::to_string(seed));
        return;
      }
  }

  const compiler::Interpreter& interp_;
  const engine::Engine& play_;  ///< plays the games: the interpreter or a compiled engine
  const ir::Program& p_;
  const dsl::SourceSet& sources_;
  const ExamplePlan& plan_;
  ExampleSearch& out_;
};

}  // namespace

bool forbidden_only_by(const Refusal& refusal, const ir::Rule& rule) {
  if (refusal.blockers.size() != 1 || refusal.reason.rfind("blocked by ", 0) != 0) return false;
  const Blocker& b = refusal.blockers[0];
  return b.error.empty() && b.name == rule.name && b.kind == (rule.board_rule ? "board rule" : "rule");
}

ExampleSearch find_rule_examples(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources,
                                 const ExamplePlan& plan, const engine::Engine* engine) {
  ExampleSearch out;
  Finder f(interpreter, engine ? *engine : interpreter, sources, plan, out);
  f.init_rules();
  for (int k = 0; k < plan.games && !f.done(); ++k) f.walk_game(k);
  f.pair_on_one_board();
  if (!(plan.stop && plan.stop->load())) f.search_allowed();
  if (plan.verifier_rlimit > 0 && !(plan.stop && plan.stop->load())) ask_verifier(interpreter, sources, plan, out);
  return out;
}

}  // namespace rulebook::cli
