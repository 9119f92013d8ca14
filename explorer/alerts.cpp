// The alerts, read off the counts of the coverage games: each code's test, its evidence
// in words, and the suppression of alerts another one already explains (the moves of a
// dead phase, the statements of a dead move, a statement inside a dead one).
#include "explorer/alerts.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dsl/alert_codes.h"

namespace rulebook::explorer {

std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

double binomial_two_sided(uint64_t k, uint64_t n) {
  if (n == 0) return 1;
  const uint64_t low = std::min(k, n - k);
  // P(X <= low) for X ~ Binomial(n, 1/2), summed in logs; the test doubles it.
  double tail = 0;
  for (uint64_t i = 0; i <= low; ++i)
    tail += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) - std::lgamma(double(n - i) + 1) -
                     double(n) * std::log(2.0));
  return std::min(1.0, 2 * tail);
}

int unacknowledged(const std::vector<Alert>& alerts) {
  return int(std::count_if(alerts.begin(), alerts.end(),
                           [](const Alert& a) { return !a.acknowledged && a.severity == Alert::Severity::Warning; }));
}

namespace {

using compiler::CoverageSite;

bool contains(dsl::Span outer, dsl::Span inner) {
  return outer.file == inner.file && outer.begin <= inner.begin && inner.end <= outer.end;
}

bool same_place(dsl::Span a, dsl::Span b) { return a.file == b.file && a.begin == b.begin; }

/// The places of a block's statements, nested ones included.
void statement_places(const ir::Block& block, std::vector<dsl::Span>& out) {
  for (const ir::StmtPtr& s : block) {
    out.push_back(s->span);
    statement_places(s->body, out);
    statement_places(s->otherwise, out);
  }
}

/// The name an `allow` gives the block of a site: "move jump" -> "jump", "when stuck in
/// battle" -> "battle", "init" -> "init".
std::string block_subject(const std::string& block) {
  const size_t space = block.rfind(' ');
  return space == std::string::npos ? block : block.substr(space + 1);
}

class Finder {
 public:
  Finder(const CoverageGames& g, const ir::Program& p, const AlertPlan& plan) : g_(g), p_(p), plan_(plan) {
    const uint64_t last = g.plan.seed + uint64_t(std::max(g.played, 1)) - 1;
    games_ = fmt::format("{} random game{} (seeds {} to {})", grouped(uint64_t(g.played)), g.played == 1 ? "" : "s",
                         g.plan.seed, last);
    not_seen_ = fmt::format("not seen in {} random games, which does not prove it cannot happen", grouped(uint64_t(g.played)));
    game_span_ = p.end_when ? p.end_when->span : (p.phases.empty() ? dsl::Span{} : p.phases[0].span);
    for (size_t s = 0; s < size_t(subjects()); ++s)
      subject_names_.push_back(p.score.per_team ? p.domains[ir::kTeamDomain].members[s] : p.player_names[s]);
  }

  std::vector<Alert> run() {
    if (g_.played == 0) return {};
    if (g_.finished == 0 && g_.cut_off > 0) never_ends();
    if (g_.finished > 0) results();
    phases_and_moves();
    explain_dead();
    sites();
    acknowledge();
    std::stable_sort(out_.begin(), out_.end(), [](const Alert& a, const Alert& b) {
      const int ca = code_rank(a.code), cb = code_rank(b.code);
      if (ca != cb) return ca < cb;
      if (a.span.file != b.span.file) return a.span.file < b.span.file;
      return a.span.begin < b.span.begin;
    });
    return out_;
  }

 private:
  static int code_rank(const std::string& code) {
    const auto& codes = dsl::alert_codes();
    for (size_t i = 0; i < codes.size(); ++i)
      if (code == codes[i].code) return int(i);
    return int(codes.size());
  }

  int subjects() const {
    return p_.score.per_team ? int(p_.domains[ir::kTeamDomain].members.size()) : p_.players;
  }

  Alert& add(const char* code, Alert::Severity sev, std::string subject, dsl::Span span, std::string message) {
    Alert a;
    a.code = code;
    a.severity = sev;
    a.subject = std::move(subject);
    a.span = span;
    a.message = std::move(message);
    out_.push_back(std::move(a));
    return out_.back();
  }

  void never_ends() {
    Alert& a = add("never-ends", Alert::Severity::Warning, "", game_span_, "no game finished: every one was cut off");
    a.evidence.push_back(fmt::format("{} of {} cut off after {} moves each, 0 finished: an end was {}", grouped(uint64_t(g_.cut_off)),
                                     games_, grouped(uint64_t(g_.plan.max_plies)), not_seen_));
  }

  std::string names(const std::vector<int>& best) const {
    std::string out;
    for (size_t i = 0; i < best.size(); ++i) out += (i ? ", " : "") + subject_names_[size_t(best[i])];
    return out;
  }

  std::string scores_text(const std::vector<int64_t>& s) const {
    const size_t w = size_t(std::max(p_.score.width, 1));
    std::string out;
    for (size_t x = 0; x < subject_names_.size() && (x + 1) * w <= s.size(); ++x) {
      std::string v;
      for (size_t k = 0; k < w; ++k) v += (k ? ", " : "") + std::to_string(s[x * w + k]);
      out += (x ? ", " : "") + subject_names_[x] + " " + (w > 1 ? "[" + v + "]" : v);
    }
    return out;
  }

  void results() {
    const int k = subjects();
    if (k < 2) return;
    const std::vector<GameOutcome>& o = g_.outcomes;
    const uint64_t f = o.size();
    const std::string cut = g_.cut_off ? fmt::format(" ({} cut off, not counted)", grouped(uint64_t(g_.cut_off))) : "";
    const bool constant = f >= 2 && std::all_of(o.begin(), o.end(), [&](const GameOutcome& x) { return x.best == o[0].best; });
    if (constant) {
      const std::string what = o[0].best.size() == 1 ? "was won by " + names(o[0].best)
                               : int(o[0].best.size()) == k ? fmt::format("ended in a tie between all {}", k)
                                                            : "ended in a tie between " + names(o[0].best);
      Alert& a = add("constant-result", Alert::Severity::Warning, "", game_span_,
                     fmt::format("every finished game {}", what));
      a.evidence.push_back(fmt::format("{} of {} finished games of {}{}; another result was {}", grouped(f), grouped(f),
                                       games_, cut, not_seen_));
      if (std::all_of(o.begin(), o.end(), [&](const GameOutcome& x) { return x.scores == o[0].scores; }))
        a.evidence.push_back("every one with the same scores: " + scores_text(o[0].scores));
      a.evidence.push_back(fmt::format("e.g. the game of seed {} ({} moves): {} --seed {}", o[0].seed, o[0].plies,
                                       plan_.replay, o[0].seed));
      return;  // every other seat never wins: said once
    }
    // A seat without a win is an alert only when equal chances would make that unlikely.
    const double chance_without = std::pow(1.0 - 1.0 / k, double(f));
    if (chance_without < plan_.never_wins_level) {
      for (int s = 0; s < k; ++s) {
        const bool won = std::any_of(o.begin(), o.end(), [&](const GameOutcome& x) {
          return std::find(x.best.begin(), x.best.end(), s) != x.best.end();
        });
        if (won) continue;
        Alert& a = add("seat-never-wins", Alert::Severity::Warning, subject_names_[size_t(s)], game_span_,
                       fmt::format("{} never won nor shared a win", subject_names_[size_t(s)]));
        a.evidence.push_back(fmt::format("0 of {} finished games of {}{}: a win was {}", grouped(f), games_, cut, not_seen_));
        a.evidence.push_back(fmt::format("were all {} equally likely to win, {} games without one would have probability "
                                         "{:.2g} (alert below {})", k, grouped(f), chance_without, plan_.never_wins_level));
      }
    }
    imbalance(cut);
  }

  uint64_t outright(int s) const {
    return uint64_t(std::count_if(g_.outcomes.begin(), g_.outcomes.end(),
                                  [s](const GameOutcome& x) { return x.best.size() == 1 && x.best[0] == s; }));
  }

  /// Only seats a declared symmetry swaps are taken as alike: nothing else says they are.
  void imbalance(const std::string& cut) {
    const int domain = p_.score.per_team ? ir::kTeamDomain : ir::kPlayerDomain;
    for (const ir::Symmetry& sym : p_.symmetries) {
      for (const ir::Symmetry::Swap& sw : sym.swaps) {
        if (sw.kind != ir::Symmetry::Swap::Kind::Value || sw.domain != domain) continue;
        const int a = int(sw.a), b = int(sw.b);
        if (a < 0 || b < 0 || a >= subjects() || b >= subjects()) continue;
        const uint64_t wa = outright(a), wb = outright(b), n = wa + wb;
        const double pv = binomial_two_sided(wa, n);
        if (n == 0 || pv >= plan_.imbalance_level) continue;
        const std::string na = subject_names_[size_t(a)], nb = subject_names_[size_t(b)];
        Alert& al = add("seat-imbalance", Alert::Severity::Warning, sym.name, sw.span,
                        fmt::format("{} and {} win unequally, though symmetry '{}' swaps them", na, nb, sym.name));
        al.evidence.push_back(fmt::format("{} won {} and {} won {} of {} finished games of {}{}", na, grouped(wa), nb,
                                          grouped(wb), grouped(g_.outcomes.size()), games_, cut));
        al.evidence.push_back(fmt::format("two-sided binomial test of {} against {} over the {} games one of them won "
                                          "alone: p = {:.2g}, below the level {}",
                                          grouped(wa), grouped(wb), grouped(n), pv, plan_.imbalance_level));
      }
    }
  }

  void phases_and_moves() {
    const compiler::Coverage& c = g_.counts;
    dead_phase_.assign(p_.phases.size(), false);
    for (size_t ph = 1; ph < p_.phases.size() && ph < g_.phase_games.size(); ++ph) {
      if (g_.phase_games[ph] > 0) continue;
      dead_phase_[ph] = true;
      Alert& a = add("dead-phase", Alert::Severity::Warning, p_.phases[ph].name, p_.phases[ph].span,
                     fmt::format("phase '{}' was never entered", p_.phases[ph].name));
      a.evidence.push_back(fmt::format("play was in it in 0 of {}: {}", games_, not_seen_));
    }
    dead_move_.assign(p_.moves.size(), false);
    for (size_t m = 0; m < p_.moves.size(); ++m) {
      if (c.legal_in[m] > 0) continue;
      dead_move_[m] = true;
      if (dead_phase_[size_t(p_.moves[m].phase)]) continue;
      Alert& a = add("dead-move", Alert::Severity::Warning, p_.moves[m].name, p_.moves[m].span,
                     fmt::format("move '{}' was never legal", p_.moves[m].name));
      a.evidence.push_back(fmt::format("legal in 0 of {} decisions ({} moves played) over {}: {}", grouped(c.decisions),
                                       grouped(g_.plies), games_, not_seen_));
      const uint64_t in_phase = g_.phase_games[size_t(p_.moves[m].phase)];
      a.evidence.push_back(fmt::format("play was in its phase '{}' in {} of the games",
                                       p_.phases[size_t(p_.moves[m].phase)].name, grouped(in_phase)));
    }
  }

  /// The places where a dead move or phase already says nothing runs: the statements of
  /// dead moves, the `when stuck` and `until`s of dead phases, the `until`s into them.
  void explain_dead() {
    for (size_t m = 0; m < p_.moves.size(); ++m)
      if (dead_move_[m]) statement_places(p_.moves[m].body, explained_);
    for (size_t ph = 0; ph < p_.phases.size(); ++ph) {
      if (dead_phase_[ph]) statement_places(p_.phases[ph].stuck, explained_);
      for (const ir::Transition& t : p_.phases[ph].transitions)
        if (dead_phase_[ph] || (t.target >= 0 && dead_phase_[size_t(t.target)])) explained_.push_back(t.span);
    }
  }

  /// Whether a site stands where an alert already says nothing runs.
  bool explained(const CoverageSite& s) const {
    if (s.move >= 0 && dead_move_[size_t(s.move)]) return true;
    for (const dsl::Span d : explained_)
      if (same_place(d, s.span)) return true;
    for (const dsl::Span d : dead_statements_)
      if (contains(d, s.span)) return true;
    return false;
  }

  void sites() {
    const compiler::Coverage& c = g_.counts;
    const std::vector<CoverageSite>& all = c.sites();
    for (size_t i = 0; i < all.size(); ++i) {
      const CoverageSite& s = all[i];
      if (c.counts[i] > 0 || explained(s)) continue;
      switch (s.kind) {
        case CoverageSite::Kind::Statement: {
          dead_statements_.push_back(s.span);
          Alert& a = add("dead-statement", Alert::Severity::Note, block_subject(s.block), s.span,
                         fmt::format("statement '{}' in {} never ran", s.what, s.block));
          std::string ran;
          for (size_t m = 0; m < p_.moves.size(); ++m)
            if (s.block == "move " + p_.moves[m].name && g_.counts.chosen[m] > 0)
              ran = fmt::format(", though the move was played {} times", grouped(g_.counts.chosen[m]));
          a.evidence.push_back(fmt::format("ran 0 times in {}{}: {}", games_, ran, not_seen_));
          break;
        }
        case CoverageSite::Kind::EndCondition: {
          if (g_.finished == 0) break;  // never-ends says it
          Alert& a = add("unreached-end", Alert::Severity::Warning, "", s.span,
                         "this alternative of 'end when' never held when a game ended");
          a.evidence.push_back(fmt::format("held at the end of 0 of {} finished games of {}: {}", grouped(uint64_t(g_.finished)),
                                           games_, not_seen_));
          std::string ended;
          for (size_t k = 0; k < compiler::kEndCauses; ++k)
            if (c.ended_by[k])
              ended += fmt::format("{}{} {}", ended.empty() ? "" : ", ", compiler::end_cause_text(compiler::EndCause(k)),
                                   grouped(c.ended_by[k]));
          if (!ended.empty()) a.evidence.push_back("the games ended by: " + ended);
          break;
        }
        case CoverageSite::Kind::Transition: {
          Alert& a = add("dead-transition", Alert::Severity::Note, block_subject(s.block), s.span,
                         fmt::format("'{}' of {} never fired", s.what, s.block));
          size_t ph = 0;
          while (ph < p_.phases.size() && "phase " + p_.phases[ph].name != s.block) ++ph;
          const uint64_t in = ph < g_.phase_games.size() ? g_.phase_games[ph] : 0;
          a.evidence.push_back(fmt::format("fired 0 times in {}, play was in the phase in {} of them: {}", games_,
                                           grouped(in), not_seen_));
          break;
        }
        case CoverageSite::Kind::Requires:
        case CoverageSite::Kind::Rule:
        case CoverageSite::Kind::BoardRule: {
          if (!g_.plan.blocked) break;
          const bool req = s.kind == CoverageSite::Kind::Requires;
          const std::string subject = req ? block_subject(s.block) : s.what;
          Alert& a = add("never-blocks", Alert::Severity::Note, subject, s.span,
                         req ? fmt::format("a 'requires' of {} never alone kept an instance out", s.block)
                             : fmt::format("rule '{}'{} never alone kept an instance out", s.what,
                                           s.kind == CoverageSite::Kind::Rule ? " on " + s.block : ""));
          // Counting what a condition kept out may stop at a budget: the evidence is over
          // the decisions where it was counted.
          const std::string counted = c.blocked_decisions < c.decisions
                                          ? fmt::format("the first {} of {} decisions", grouped(c.blocked_decisions),
                                                        grouped(c.decisions))
                                          : fmt::format("{} decisions", grouped(c.decisions));
          a.evidence.push_back(
              fmt::format("0 instances over {} of {} were legal but for it alone: {}", counted, games_, not_seen_));
          break;
        }
      }
    }
  }

  void acknowledge() {
    std::vector<bool> used(p_.allows.size(), false);
    for (Alert& a : out_)
      for (size_t i = 0; i < p_.allows.size(); ++i) {
        const ir::Allow& al = p_.allows[i];
        if (al.code == a.code && al.subject == a.subject) {
          a.acknowledged = true;
          a.reason = al.reason;
          used[i] = true;
        }
      }
    // An acknowledgment nothing matched may be stale: inherited from a base whose defect
    // the variant does not have, or kept after the rules changed. A note, since a rare
    // event can also go unseen in a few games.
    for (size_t i = 0; i < p_.allows.size(); ++i) {
      if (used[i]) continue;
      const ir::Allow& al = p_.allows[i];
      // The checker's warnings are matched by `rulebook check` (stale-allow), not by games.
      // Those of proofs are matched where the properties are checked (verifier/proof_alerts.h).
      if (const dsl::AlertCode* c = dsl::find_alert_code(al.code); c && (c->checker || c->proof)) continue;
      const std::string what = al.subject.empty() ? al.code : al.code + " " + al.subject;
      Alert& a = add("unused-allow", Alert::Severity::Note, what, al.span,
                     fmt::format("'allow {}' acknowledges an alert these games did not raise", what));
      a.evidence.push_back(fmt::format("no {} alert in {}: the acknowledgment may be stale (inherited from a base "
                                       "file, or kept after the rules changed)",
                                       al.code, games_));
    }
  }

  const CoverageGames& g_;
  const ir::Program& p_;
  const AlertPlan& plan_;
  std::string games_, not_seen_;
  dsl::Span game_span_;
  std::vector<std::string> subject_names_;
  std::vector<bool> dead_phase_, dead_move_;
  std::vector<dsl::Span> dead_statements_, explained_;
  std::vector<Alert> out_;
};

}  // namespace

std::vector<Alert> find_alerts(const CoverageGames& games, const ir::Program& program, const AlertPlan& plan) {
  return Finder(games, program, plan).run();
}

}  // namespace rulebook::explorer
