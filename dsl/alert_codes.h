// The codes of the designer alerts of `rulebook lint` (docs/lint.md) and of the checker's
// warnings, and what each names: `allow CODE SUBJECT "reason";` acknowledges either.
#pragma once

#include <string>
#include <vector>

namespace rulebook::dsl {

/// What an alert of a code is about, and so what an `allow` of it must name.
enum class AlertSubject {
  Game,      ///< the whole game: `allow never-ends "why";`
  Move,      ///< a move
  Phase,     ///< a phase
  Block,     ///< where a statement stands: a move, a phase (its `when stuck`) or `init`
  Rule,      ///< a named rule, or a move (for its `requires`)
  Seat,      ///< a player, or a team when the score is per team
  Symmetry,  ///< a declared symmetry
  Property,  ///< a property (prove, find, bound, ...)
  Name,      ///< checker warnings: the name the warning is about (any kind)
};

struct AlertCode {
  const char* code;
  AlertSubject subject;
  const char* summary;  ///< one line, for docs and messages
  bool checker = false;  ///< a warning of `rulebook check`, not an alert of `rulebook lint`
  /// Raised from the verifier's results (`lint --prove`, the report), not from games: an
  /// `allow` of it is stale only when the properties were checked.
  bool proof = false;
};

/// Every code, in the order alerts are listed.
const std::vector<AlertCode>& alert_codes();

/// The code's entry, or null.
const AlertCode* find_alert_code(const std::string& code);

/// "a move", "a phase", ... as a hint says what to name.
const char* alert_subject_text(AlertSubject subject);

}  // namespace rulebook::dsl
