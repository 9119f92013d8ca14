// Properties over play: the states play reaches from the setup, searched by the explorer
// (explorer/play_search.h), each read by an engine. A bound whose value never improves
// along a move, proved here by Z3 as an invariant's steps are, is searched by branch and
// bound.
#include <chrono>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "explorer/play_search.h"
#include "verifier/slice.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {
/// The most parameter tuples of a move split into instances for a monotonicity step.
constexpr size_t kPlaySplit = 20000;
}  // namespace

bool Verifier::monotone(const ir::Property& prop, std::string& detail) {
  ensure_steps();
  std::set<int> reads;
  reads_of(p_, *prop.expr, reads);
  with_steps_ = reads.count(ir::kVarPhase) || reads.count(ir::kVarOver);
  const bool mx = prop.maximize;
  // Each move and each stuck block on a share of what is left of the property's budget:
  // the search gets the rest.
  const Budget saved = budget_;
  {
    const double used = std::chrono::duration<double>(Clock::now() - budget_.started).count();
    budget_.seconds = used + 0.4 * std::max(0.0, budget_.seconds - used);
    const uint64_t spent = rlimit_seen_ - budget_.rlimit_base;
    if (budget_.rlimit > 0) budget_.rlimit = spent + uint64_t(0.4 * double(budget_.rlimit - std::min(budget_.rlimit, spent)));
  }
  // Every move from a board of the set, legal or not after it (the board rules are not
  // read after the step): a superset, so a proof stands; and without them an instance per
  // parameter tuple is small, so moves of up to kPlaySplit tuples are split.
  struct Restore {
    Verifier& v;
    Budget b;
    ~Restore() {
      v.budget_ = b;
      v.legal_after_ = true;
      v.split_limit_ = kMaxInstances;
      v.split_steps_ = false;
      v.rules_before_ = true;
      v.split_params_ = 0;
    }
  } restore{*this, saved};
  legal_after_ = false;
  split_limit_ = kPlaySplit;
  auto step = [&](int move, int phase) {
    const std::string what = step_name(move, phase);
    // A move of many instances as one symbolic instance first; then, if that is not
    // settled (or cannot be encoded: a parameter read where a fixed value is needed), an
    // instance per parameter tuple, whose counts after are the counts before plus a known
    // change.
    // From any state of the variables' types first (a small question: no board rule), then
    // from the states where the board rules hold. Each as one symbolic instance, then split
    // on the first parameter only (one that a fixed value is needed of, such as a ship
    // whose length makes its cells), then on all of them.
    Answer a;
    std::string why;
    for (int attempt = 0; attempt < 6 && a.result != z3::unsat; ++attempt) {
      const int how = attempt % 3;  // symbolic, first parameter split, all split
      if (how > 0 && move < 0) continue;
      if (how == 2 && !step_could_split(move)) continue;
      if (how == 1 && p_.moves[size_t(move)].params.size() < 2) continue;
      split_steps_ = how > 0;
      split_params_ = how == 1 ? 1 : 0;
      rules_before_ = attempt >= 3;
      try {
        a = step_answer(prop, move, phase);
        if (a.result == z3::unknown) why = unknown_;
      } catch (const Unsupported& u) {
        a = Answer{};
        why = u.what();
      } catch (const OutOfBudget& u) {
        a = Answer{};
        why = u.what();
      }
      split_steps_ = false;
      split_params_ = 0;
      rules_before_ = true;
      if (opt_.progress)
        opt_.progress(fmt::format("  {}: {}: {} ({}; {:.1f} s)", prop.name, what,
                                  a.result == z3::unsat ? "never better after it" : a.result == z3::sat ? "can be better after it" : why,
                                  how == 0 ? "one symbolic instance" : how == 1 ? "split on its first parameter" : "split",
                                  std::chrono::duration<double>(Clock::now() - budget_.started).count()));
      if (a.result == z3::sat && attempt >= 3) break;  // a step from a board of the set betters it
      if (opt_.stopped()) break;
    }
    if (a.result == z3::unsat) return true;
    detail = a.result == z3::sat
                 ? fmt::format("{} can {} it (from a state where every board rule holds, maybe unreachable)", what,
                               mx ? "raise" : "lower")
                 : fmt::format("{}: {}", what, why);
    return false;
  };
  return each_step(step);
}

Answer Verifier::step_answer(const ir::Property& prop, int move, int phase) {
  const bool mx = prop.maximize;
  Scope sc = step_scope(prop, move, phase, false);
  enc_.use_overlay(-1);
  Encoder::Frame f(size_t(std::max(prop.locals, 1)), nullptr);
  const SymP was = enc_.eval(*prop.expr, f);
  const z3::expr before = enc_.to_int(was), before_err = enc_.err_of(was);
  // Counts after the step are the counts before (named, the same terms) plus their changes.
  enc_.all_counts_as_changes = true;
  std::vector<Piece> ps = pieces(sc, *prop.expr, false);
  enc_.all_counts_as_changes = false;
  // A sum of as many terms before as after (a count over a set that reads no state: one
  // term per element) is no better after when no term is: asked term by term, a question
  // with no arithmetic (sufficient, not necessary: a term may trade off against another,
  // which then shows as a step that betters the value; the search reads every state then).
  auto terms = [](const z3::expr& e) {
    std::vector<z3::expr> out;
    if (e.is_app() && e.decl().decl_kind() == Z3_OP_ADD)
      for (unsigned i = 0; i < e.num_args(); ++i) out.push_back(e.arg(i));
    else
      out.push_back(e);
    return out;
  };
  const std::vector<z3::expr> was_terms = terms(before);
  z3::expr_vector worse(z3_);
  for (const Piece& pc : ps) {
    const std::vector<z3::expr> now = terms(pc.plain);
    z3::expr_vector any(z3_);
    if (now.size() == was_terms.size() && now.size() > 1) {
      for (size_t i = 0; i < now.size(); ++i)
        if (!z3::eq(now[i], was_terms[i])) any.push_back(mx ? now[i] > was_terms[i] : now[i] < was_terms[i]);
    } else {
      any.push_back(mx ? pc.plain > before : pc.plain < before);
    }
    worse.push_back(pc.guard && (pc.err || (any.empty() ? z3_.bool_val(false) : z3::mk_or(any))));
  }
  return ask(sc, !before_err && z3::mk_or(worse));
}

void Verifier::over_play(const ir::Property& prop, Result& r) {
  using Goal = explorer::PlaySearchOptions::Goal;
  using End = explorer::PlaySearchResult::End;
  int index = -1;
  for (size_t i = 0; i < p_.properties.size(); ++i)
    if (&p_.properties[i] == &prop || (p_.properties[i].name == prop.name && p_.properties[i].over_play)) {
      index = int(i);
      break;
    }
  if (index < 0) throw Unsupported("internal: a property over play that is not one of the rules'");
  std::unique_ptr<compiler::Interpreter> own;
  const engine::Engine* engine = opt_.play_engine;
  if (!engine) {
    own = std::make_unique<compiler::Interpreter>(p_, sources_);
    engine = own.get();
  }
  // The setup: `--setup` values, then the set's `with`, the rest as seed 1 draws them.
  engine::Setup setup;
  setup.seed = 1;
  setup.values = opt_.setup;
  for (const auto& [name, value] : prop.setup) {
    bool replaced = false;
    for (auto& v : setup.values)
      if (v.first == name) {
        v.second = value;
        replaced = true;
      }
    if (!replaced) setup.values.emplace_back(name, value);
  }
  std::vector<uint8_t> start(engine->info().state_bytes);
  if (engine::Status st = engine->setup(start.data(), setup); !st.ok) {
    r.verdict = Verdict::Error;
    r.detail = "the setup cannot be played: " + st.message;
    return;
  }
  explorer::PlaySearchOptions o;
  o.property = index;
  o.max_states = opt_.play_states;
  o.stop = opt_.stop;
  o.progress = opt_.progress;
  switch (prop.kind) {
    case ir::PropertyKind::Find: o.goal = Goal::Witness; break;
    case ir::PropertyKind::Derive: o.goal = Goal::Constant; break;
    case ir::PropertyKind::Bound: o.goal = prop.maximize ? Goal::Max : Goal::Min; break;
    default: o.goal = Goal::Holds; break;
  }
  std::string not_monotone;
  if (prop.kind == ir::PropertyKind::Bound) {
    o.monotone = monotone(prop, not_monotone);
    if (opt_.progress)
      opt_.progress(fmt::format("  {}: the value {}", prop.name,
                                o.monotone ? fmt::format("never {} along a move (proved): branch and bound",
                                                         prop.maximize ? "rises" : "falls")
                                           : "is not shown monotone (" + not_monotone + "): every state is read"));
  }
  // With a resource limit the count of states decides (the same verdict on any machine);
  // else the time left.
  if (opt_.rlimit == 0) {
    const double left = budget_.seconds - std::chrono::duration<double>(Clock::now() - budget_.started).count();
    o.max_seconds = std::max(0.001, left);
  }
  const explorer::PlaySearchResult s = explorer::search_play(*engine, p_, start, o);
  const std::string expr = std::string(sources_.text(prop.expr->span));
  const std::string searched =
      fmt::format("{} states of play stored, {} of them in the set{}", s.states, s.in_set,
                  s.cut ? fmt::format(", {} not expanded by the bound", s.cut) : "");
  auto show = [&](const std::vector<uint8_t>& state, const std::vector<engine::Move>& line) {
    Board b;
    b.state = state;
    b.text = engine->board_text(state.data());
    r.board = std::move(b);
    Reach reach;
    reach.reached = true;
    for (const engine::Move& m : line) reach.line.push_back(engine->move_text(m));
    reach.states = s.states;
    r.reach = std::move(reach);
  };
  const std::string key = set_key(prop);
  if (s.in_set > 0) nonempty_[key] = true;
  else if (s.end == End::Complete) nonempty_[key] = false;
  const std::string unfinished = s.end == End::Budget    ? fmt::format("state budget reached ({} states)", o.max_states)
                                 : s.end == End::Timeout ? fmt::format("timeout ({} s)", opt_.timeout_seconds)
                                                         : "interrupted";
  if (s.end == End::Error) {
    r.verdict = Verdict::Error;
    r.detail = "cannot be evaluated on the board below, reached in play: " + s.error;
    show(s.board, s.line);
    return;
  }
  const bool complete = s.end == End::Complete;
  const std::string how = fmt::format("every state play reaches searched ({})", searched);
  switch (o.goal) {
    case Goal::Holds:
      if (s.end == End::Found) {
        r.verdict = Verdict::Refuted;
        r.detail = "false on the board below, reached in play";
        show(s.board, s.line);
      } else if (complete && s.in_set == 0) {
        r.verdict = Verdict::Vacuous;
        r.detail = "no state play reaches is in the set (its phase and where clause), so the property holds of nothing";
      } else if (complete) {
        r.verdict = Verdict::Proved;
        r.detail = how;
      } else {
        r.verdict = Verdict::Unknown;
        r.detail = fmt::format("{}: true on every state searched ({})", unfinished, searched);
      }
      return;
    case Goal::Witness:
      if (s.end == End::Found) {
        r.verdict = Verdict::Found;
        r.detail = "reached in play";
        show(s.board, s.line);
      } else if (complete) {
        r.verdict = Verdict::None;
        r.detail = how;
      } else {
        r.verdict = Verdict::Unknown;
        r.detail = fmt::format("{}: none among the states searched ({})", unfinished, searched);
      }
      return;
    case Goal::Constant:
      if (s.end == End::Found) {
        r.verdict = Verdict::NotConstant;
        r.value = s.best;
        r.detail = fmt::format("{} is {} on one state of play but {} on the board below, reached in play", expr, *s.best,
                               *s.other);
        show(s.board, s.line);
      } else if (complete && !s.best) {
        r.verdict = Verdict::Empty;
        r.detail = "no state play reaches is in the set";
      } else if (complete) {
        r.verdict = Verdict::Derived;
        r.value = s.best;
        r.detail = fmt::format("{} = {} on every element ({})", expr, *s.best, how);
      } else {
        r.verdict = Verdict::Unknown;
        r.detail = fmt::format("{}{} ({})", unfinished, s.best ? fmt::format(" (one value found: {})", *s.best) : "",
                               searched);
      }
      return;
    case Goal::Max:
    case Goal::Min: {
      const char* word = prop.maximize ? "max" : "min";
      if (complete && !s.best) {
        r.verdict = Verdict::Empty;
        r.detail = "no state play reaches is in the set";
      } else if (complete) {
        r.verdict = Verdict::Bound;
        r.value = s.best;
        r.detail = fmt::format(
            "{} {} = {}, reached by the board below, and nothing {} ({}{})", word, expr, *s.best,
            prop.maximize ? "exceeds it" : "is below it", how,
            o.monotone ? fmt::format("; the value never {} along a move, proved, so no state after one no better than "
                                     "the best was expanded",
                                     prop.maximize ? "rises" : "falls")
                       : "");
        show(s.board, s.line);
      } else {
        r.verdict = Verdict::Unknown;
        r.detail = fmt::format("{} ({}{}{})", unfinished,
                               s.best ? fmt::format("reached {} so far", *s.best) : "nothing reached yet",
                               s.open_bound ? fmt::format(", nothing {} {} left open", prop.maximize ? "above" : "below",
                                                          *s.open_bound)
                                            : "",
                               "; " + searched);
        if (s.best) show(s.board, s.line);
      }
      return;
    }
  }
}

}  // namespace rulebook::verifier
