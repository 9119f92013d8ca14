// Termination proved by a ranking: a quantity of the state (or a lexicographic pair) that
// every move and stuck block lowers unless it ends the game, on every state of `over
// reachable`. Candidates come from the state's types; seeded random games rule out most
// of them for nothing, and Z3 checks the few left, simplest first, on a deterministic
// budget (resource units).
#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "verifier/quantities.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

using namespace qty;

/// One quantity a ranking is made of: its IR (an int, locals 0 and 1 free), its text and
/// the bounds its type gives.
struct Measure {
  std::string text;
  ir::ExprPtr expr;
  int64_t lo = 0, hi = 0;
};

namespace {

/// `count c in cells where var[c] op v`.
ir::ExprPtr cells_where(const ir::Program& p, int var, ir::Op op, int64_t v) {
  ir::ExprPtr r = node(ir::Op::Read, p.vars[size_t(var)].domain);
  r->var = var;
  r->args.push_back(local(kCellSlot, ir::kCellDomain));
  ir::ExprPtr want = node(ir::Op::Const, p.vars[size_t(var)].domain);
  want->value = v;
  ir::ExprPtr c = node(ir::Op::Count, -1);
  c->slot = kCellSlot;
  c->args.push_back(full_set(p, ir::kCellDomain));
  c->args.push_back(binary(op, ir::kBoolDomain, std::move(r), std::move(want)));
  return c;
}

/// The candidates' quantities, each in the direction a game may lower it: counts of
/// cells holding and not holding each value of a small cell map, each number kept (summed
/// over the players) and what is left below its type's top, the phase index and the
/// phases after the current one.
std::vector<Measure> measures(const ir::Program& p) {
  constexpr uint32_t kSmallDomain = 16;
  std::vector<Measure> out;
  std::vector<bool> counted(p.vars.size(), false);
  for (const Quantity& q : quantities(p, true)) {
    if (q.kind == Quantity::Kind::PhaseIs) continue;
    const ir::StateVar& v = p.vars[size_t(q.var)];
    if (q.kind == Quantity::Kind::CellsHolding) {
      if (counted[size_t(q.var)]) continue;
      counted[size_t(q.var)] = true;
      const ir::Domain& d = p.domains[size_t(v.domain)];
      if (d.size > kSmallDomain) continue;
      for (uint32_t k = 0; k < d.size; ++k) {
        const int64_t value = ir::domain_value(p.domains, v.domain, k);
        const std::string shown = ir::value_text(p.domains, v.domain, value);
        out.push_back({fmt::format("cells where {}[c] == {}", v.name, shown), cells_where(p, q.var, ir::Op::Eq, value), 0,
                       int64_t(v.count)});
        out.push_back({fmt::format("cells where {}[c] != {}", v.name, shown), cells_where(p, q.var, ir::Op::Ne, value), 0,
                       int64_t(v.count)});
      }
      continue;  // per player: the same counts, one per value
    }
    const ir::Domain& d = p.domains[size_t(v.domain)];
    const int64_t n = q.per_player ? std::max(1, p.players) : 1;
    const int64_t lo = d.lo * n, hi = (d.lo + int64_t(d.size) - 1) * n;
    ir::ExprPtr value = q.expr(p);
    std::string text = v.name;
    if (q.per_player) {
      ir::ExprPtr sum = node(ir::Op::Sum, -1);
      sum->slot = kPlayerSlot;
      sum->args.push_back(full_set(p, ir::kPlayerDomain));
      sum->args.push_back(nullptr);
      sum->args.push_back(std::move(value));
      value = std::move(sum);
      text = fmt::format("sum of {}[p]", v.name);
    }
    ir::ExprPtr left = binary(ir::Op::Sub, -1, number(hi), ir::clone_expr(*value));
    out.push_back({text, std::move(value), lo, hi});
    out.push_back({fmt::format("{} - {}", hi, text), std::move(left), 0, hi - lo});
  }
  if (p.phases.size() > 1) {
    const int64_t last = int64_t(p.phases.size()) - 1;
    out.push_back({"phase index", node(ir::Op::Phase, ir::kPhaseDomain), 0, last});
    out.push_back({"phases after the current one", binary(ir::Op::Sub, -1, number(last), node(ir::Op::Phase, ir::kPhaseDomain)),
                   0, last});
  }
  return out;
}

/// a < b lexicographically.
bool lex_less(const std::vector<int64_t>& a, const std::vector<int64_t>& b, const std::vector<size_t>& order) {
  for (size_t i : order) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}

}  // namespace

Ranking prove_ranking(const ir::Program& program, const dsl::SourceSet& sources, const Options& options) {
  Verifier v(program, sources, options);
  return v.ranking();
}

Ranking Verifier::ranking() {
  Ranking out;
  std::vector<Measure> ms = measures(p_);
  // Candidates: each measure, then each ordered pair of measures (not one with its mirror).
  std::vector<std::vector<size_t>> cands;
  for (size_t i = 0; i < ms.size(); ++i) cands.push_back({i});
  for (size_t i = 0; i < ms.size(); ++i)
    for (size_t j = 0; j < ms.size(); ++j)
      if (i != j && i / 2 != j / 2) cands.push_back({i, j});
  out.candidates = cands.size();
  if (cands.empty()) return out;
  // Seeded random games: a candidate that does not decrease on one of their plies (that
  // leaves the game running) is no ranking.
  compiler::Interpreter in(p_, sources_);
  std::vector<bool> alive(cands.size(), true);
  size_t left = cands.size();
  auto read = [&](std::vector<uint8_t>& s) {
    std::vector<int64_t> v(ms.size(), 0);
    compiler::Evaluator run(in);
    run.start(s.data(), 8);
    for (size_t i = 0; i < ms.size(); ++i)
      if (!run.scalar(*ms[i].expr, v[i]).ok) v[i] = INT64_MIN;
    return v;
  };
  std::mt19937_64 rng(1);
  std::vector<engine::Move> moves;
  std::vector<int64_t> first;  // the measures at the first game's start
  for (int g = 0; g < opt_.ranking_games && left > 0; ++g) {
    std::vector<uint8_t> s(p_.state_bytes, 0);
    engine::Setup setup;
    setup.seed = uint64_t(g + 1);
    setup.values = opt_.setup;
    if (!in.setup(s.data(), setup).ok) break;
    std::vector<int64_t> before = read(s);
    if (g == 0) first = before;
    for (int ply = 0; ply < opt_.candidate_plies && left > 0 && !in.terminal(s.data()); ++ply) {
      moves.clear();
      if (!in.legal_moves(s.data(), moves).ok || moves.empty()) break;
      if (!in.apply(s.data(), moves[rng() % moves.size()]).ok) break;
      std::vector<int64_t> after = read(s);
      if (!in.terminal(s.data()))
        for (size_t c = 0; c < cands.size(); ++c)
          if (alive[c] && !lex_less(after, before, cands[c])) alive[c] = false, --left;
      before = std::move(after);
    }
  }
  out.sampled_out = cands.size() - left;
  if (left == 0 || first.empty()) {
    out.detail = "every candidate failed to decrease in a sampled game";
    return out;
  }
  // The declared invariants first: the ranking is checked on the reachable states.
  bind_setups();
  const uint64_t started = rlimit_seen_;
  // One budget for the whole search: what is left of it when each question starts.
  auto left_units = [&]() -> uint64_t {
    const uint64_t spent = rlimit_seen_ - started;
    return spent >= opt_.ranking_rlimit ? 0 : opt_.ranking_rlimit - spent;
  };
  auto start_budget = [&] {
    budget_.started = Clock::now();
    budget_.rlimit_base = rlimit_seen_;
    budget_.seconds = opt_.timeout_seconds;
    budget_.rlimit = left_units();
  };
  prove_invariants([&] {
    if (left_units() == 0) return false;
    start_budget();
    return true;
  });
  for (const ir::Property* inv : proved_invariants_) out.invariants.push_back(inv->name);
  for (size_t c = 0; c < cands.size() && int(out.checked) < opt_.ranking_checks && !opt_.stopped(); ++c) {
    if (!alive[c]) continue;
    if (left_units() == 0) {
      out.detail += out.detail.empty() ? "the budget is spent" : "; then the budget is spent";
      break;
    }
    ++out.checked;
    std::vector<const Measure*> order;
    for (size_t i : cands[c]) order.push_back(&ms[i]);
    start_budget();
    std::string why;
    bool ok = false;
    try {
      ok = ranking_decreases(order, why);
    } catch (const Unsupported& u) {
      why = u.what();
    } catch (const z3::exception& z) {
      why = std::string("solver: ") + z.msg();
    }
    if (!ok) {
      out.detail = fmt::format("({}): {}", order.size() == 1 ? order[0]->text : order[0]->text + ", " + order[1]->text, why);
      continue;
    }
    out.proved = true;
    for (const Measure* m : order) out.order.push_back(m->text);
    // Distinct values of the ranking from a start: each ply but the last lowers it.
    const int64_t top = start_most(*order[0], first[cands[c][0]]);
    int64_t values = top - order[0]->lo + 1;
    if (order.size() > 1) values *= order[1]->hi - order[1]->lo + 1;
    out.plies = values;
    break;
  }
  out.rlimit = rlimit_seen_ - started;
  return out;
}

bool Verifier::ranking_decreases(const std::vector<const Measure*>& order, std::string& why) {
  ensure_steps();
  with_steps_ = true;
  // The step's property reads the measures (so the block's writes to them are kept) and
  // holds everywhere: each is at least its type's least value.
  ir::Property prop;
  prop.kind = ir::PropertyKind::Invariant;
  prop.name = "ranking";
  prop.locals = 2;
  for (const Measure* m : order) {
    ir::ExprPtr ge = binary(ir::Op::Ge, ir::kBoolDomain, ir::clone_expr(*m->expr), number(m->lo));
    prop.expr = prop.expr ? binary(ir::Op::And, ir::kBoolDomain, std::move(prop.expr), std::move(ge)) : std::move(ge);
  }
  auto over = node(ir::Op::Read, ir::kBoolDomain);
  over->var = ir::kVarOver;
  auto step = [&](int move, int phase) {
    Scope sc = step_scope(prop, move, phase);
    enc_.use_overlay(-1);
    Encoder::Frame f(2, nullptr);
    std::vector<z3::expr> before;
    for (const Measure* m : order) before.push_back(enc_.to_int(enc_.eval(*m->expr, f)));
    enc_.all_counts_as_changes = true;
    std::vector<std::vector<Piece>> after;
    for (const Measure* m : order) after.push_back(pieces(sc, *m->expr, false));
    const std::vector<Piece> ended = pieces(sc, *over, false);
    enc_.all_counts_as_changes = false;
    z3::expr_vector bad(z3_);
    for (size_t i = 0; i < ended.size(); ++i) {
      // Lower: the first measure lower, or equal and the next lower.
      z3::expr lower = z3_.bool_val(false), equal = z3_.bool_val(true);
      for (size_t k = 0; k < order.size(); ++k) {
        lower = lower || (equal && after[k][i].plain < before[k]);
        equal = equal && after[k][i].plain == before[k];
      }
      const z3::expr b = (!ended[i].plain && !lower).simplify();
      if (!b.is_false()) bad.push_back(ended[i].guard.is_true() ? b : ended[i].guard && b);
    }
    const Answer a = bad.empty() ? Answer{z3::unsat, std::nullopt, {}} : ask(sc, z3::mk_or(bad));
    const std::string what = step_name(move, phase);
    if (a.result == z3::unsat) return true;
    // The messages name the options' limit; this search has a budget of its own.
    const std::string unknown = unknown_.rfind("resource limit", 0) == 0
                                    ? fmt::format("resource limit (the search's {} units spent)", opt_.ranking_rlimit)
                                    : unknown_;
    why = a.result == z3::sat ? what + " does not lower it from some reachable-looking state" : what + ": " + unknown;
    return false;
  };
  return each_step(step);
}

int64_t Verifier::start_most(const Measure& m, int64_t seen) {
  ir::Property prop;
  prop.kind = ir::PropertyKind::Invariant;
  prop.locals = 2;
  prop.expr = binary(ir::Op::Le, ir::kBoolDomain, ir::clone_expr(*m.expr), number(seen));
  Scope sc = start_scope(prop);
  const std::vector<Piece> ps = pieces(sc, *prop.expr, false);
  const Answer a = ask(sc, any_piece(z3_, ps, [](const z3::expr& g) { return !g; }));
  return a.result == z3::unsat ? seen : m.hi;
}

}  // namespace rulebook::verifier
