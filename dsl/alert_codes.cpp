// The table of alert codes: one place, so the checker, `rulebook lint` and the report agree.
#include "dsl/alert_codes.h"

namespace rulebook::dsl {

const std::vector<AlertCode>& alert_codes() {
  static const std::vector<AlertCode> codes = {
      {"never-ends", AlertSubject::Game, "no game finished: every one was cut off by the length limit"},
      {"constant-result", AlertSubject::Game, "every finished game had the same result"},
      {"seat-never-wins", AlertSubject::Seat, "a player (or team) never won nor shared a win"},
      {"seat-imbalance", AlertSubject::Symmetry,
       "seats a declared symmetry swaps won significantly different shares of the games"},
      {"dead-phase", AlertSubject::Phase, "a phase play never entered"},
      {"dead-move", AlertSubject::Move, "a move never legal"},
      {"unreached-end", AlertSubject::Game, "an alternative of `end when` never held when a game ended"},
      {"dead-transition", AlertSubject::Phase, "an `until` of a phase never fired"},
      {"dead-statement", AlertSubject::Block, "a statement never ran"},
      {"never-blocks", AlertSubject::Rule, "a rule or `requires` never alone kept a move out"},
      // From the verifier's results (docs/lint.md): only when the properties are checked.
      {"unreachable-witness", AlertSubject::Property,
       "a property's witness or counterexample needs a board no game was shown to reach", false, true},
      {"empty-depends-core", AlertSubject::Property,
       "a property's `depends` needs none of the named rules: it holds without them", false, true},
      // The checker's warnings (docs/language.md, "Warnings"): known without playing.
      {"changed-users", AlertSubject::Name,
       "an override changes what base declarations that use it mean", true},
      {"dropped-override", AlertSubject::Name, "an `override phase` drops an earlier override of one of its moves",
       true},
      {"unused", AlertSubject::Name, "a declaration nothing uses", true},
      {"shadowed-name", AlertSubject::Name, "a parameter or bound variable hides a global name", true},
      {"rule-never-applies", AlertSubject::Name, "a rule that never keeps any move out", true},
      {"rule-blocks-all", AlertSubject::Name, "a rule whose condition is always false", true},
      {"stale-allow", AlertSubject::Name, "an `allow` of a checker warning that acknowledges nothing", true},
  };
  return codes;
}

const AlertCode* find_alert_code(const std::string& code) {
  for (const AlertCode& c : alert_codes())
    if (code == c.code) return &c;
  return nullptr;
}

const char* alert_subject_text(AlertSubject subject) {
  switch (subject) {
    case AlertSubject::Game: return "nothing (the alert is about the whole game)";
    case AlertSubject::Move: return "a move";
    case AlertSubject::Phase: return "a phase";
    case AlertSubject::Block: return "a move, a phase or init";
    case AlertSubject::Rule: return "a rule, or a move for its requires";
    case AlertSubject::Seat: return "a player or a team";
    case AlertSubject::Symmetry: return "a symmetry";
    case AlertSubject::Property: return "a property";
    case AlertSubject::Name: return "the name the warning is about";
  }
  return "?";
}

}  // namespace rulebook::dsl
