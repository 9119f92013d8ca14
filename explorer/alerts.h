// Designer alerts: what a rules file's random games say the designer must know (dead
// moves, statements, phases and end conditions, games that never end, constant results,
// seats that never win or that the rules treat alike but win unequally), each with a
// stable code (dsl/alert_codes.h, docs/lint.md), the place in the rules and its evidence.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "explorer/coverage_games.h"

namespace rulebook::explorer {

struct Alert {
  enum class Severity { Warning, Note };
  std::string code;      ///< "dead-move"
  Severity severity = Severity::Warning;
  std::string subject;   ///< what an `allow` names: a move, phase, rule, player, team,
                         ///< symmetry, `init`; empty for the whole game
  std::string message;   ///< one line: "move 'capture' was never legal"
  std::vector<std::string> evidence;  ///< lines of counts, seeds and games to replay
  dsl::Span span;        ///< the rule, statement or declaration it names
  bool acknowledged = false;
  std::string reason;    ///< the `allow`'s reason when acknowledged
};

struct AlertPlan {
  /// seat-imbalance: the two-sided binomial test's level.
  double imbalance_level = 0.01;
  /// seat-never-wins: reported only when, were every seat equally likely to win, going
  /// without a win over the finished games would have a probability below this.
  double never_wins_level = 0.001;
  /// The command that replays a game, the seed appended ("rulebook play FILE --setup k=v").
  std::string replay = "rulebook play FILE";
};

/// The alerts the coverage games show, in the order of dsl::alert_codes() and then of the
/// rules, each marked acknowledged when the program has a matching `allow`. Deterministic
/// for the games. `games.counts` must be of `program`.
std::vector<Alert> find_alerts(const CoverageGames& games, const ir::Program& program, const AlertPlan& plan = {});

/// The warnings not acknowledged: what makes `rulebook lint` exit 1. Notes (a statement or
/// condition not seen doing anything) are listed but do not count: a rare branch goes
/// unseen in a few random games without anything being wrong.
int unacknowledged(const std::vector<Alert>& alerts);

/// Two-sided exact binomial test of k successes in n trials against p = 1/2.
double binomial_two_sided(uint64_t k, uint64_t n);

/// 41230 -> "41,230".
std::string grouped(uint64_t n);

}  // namespace rulebook::explorer
