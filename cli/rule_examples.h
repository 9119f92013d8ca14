// Examples for a rulebook: for each named rule, a reachable board where a move it governs
// is legal and one where that rule alone forbids a move, each with the line of play that
// reaches it, found within a budget in counts so that the page is the same everywhere.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/play_moves.h"
#include "compiler/interp/interpret.h"
#include "dsl/source.h"

namespace rulebook::cli {

/// How much play is searched for examples (counts only).
struct ExamplePlan {
  uint64_t seed = 1;        ///< game k is set up and played as `play --seed seed+k` plays it
  int games = 20;           ///< seeded random games walked position by position
  int max_plies = 1000;     ///< of each game
  /// Conditions (requires and rules) evaluated over every move instance tried; the search
  /// stops when it is spent, so pages do not depend on the machine.
  uint64_t budget = 400000;
  /// Positions of the explorer's directed search for a rule's "allowed" example that the
  /// games did not give (0: none).
  uint64_t search_states = 300;
  /// Then Z3's resource units for each board still missing (0: the verifier is not asked):
  /// a board of `over reachable moves` (the board rules and the proved invariants), read
  /// again by the interpreter, and searched for in play within `reach_states` positions.
  uint64_t verifier_rlimit = 0;
  uint64_t reach_states = 200;
  /// Invariants the verifier proposes from this many random games, each tried within
  /// `invariant_rlimit` units, assumed with the declared ones (0: only the declared).
  int invariant_games = 0;
  uint64_t invariant_rlimit = 3000000;
  std::function<void(const std::string&)> progress;  ///< the verifier's lines, for stderr
  const std::atomic<bool>* stop = nullptr;
};

/// One example board: `state` is the position before `move`, reached from the setup of
/// seed `seed` by `line` (move texts as `play` prints them, the player first).
struct Example {
  bool found = false;
  std::vector<uint8_t> state;
  engine::Move move;
  std::string move_text;
  uint64_t seed = 0;
  std::vector<std::string> line;
  std::string how;     ///< "seeded game N", "directed search", "the verifier"
  Refusal refusal;     ///< the interpreter's reading of the move on `state`
  /// False for a board of the verifier that no line of play was found to reach: `line`
  /// is empty and `seed` names no setup.
  bool reachable = true;
  /// What the verifier said when play gave no example ("" when it was not asked):
  /// "found", "none" (proved: no board of its set has one), "unknown", "unsupported",
  /// "interrupted"; `verifier_detail` gives the reason of an unknown.
  std::string verifier;
  std::string verifier_detail;
  uint64_t verifier_rlimit = 0;  ///< Z3's units spent on it
  uint64_t reach_searched = 0;   ///< positions the search for a line of play stored
};

/// The examples of one named rule (ir::Program::rules[rule]).
struct RuleExamples {
  int rule = -1;
  std::vector<int> moves;  ///< the moves it governs (every move of play for a board rule)
  Example allowed;
  Example forbidden;
};

struct ExampleSearch {
  std::vector<RuleExamples> rules;  ///< one per named rule, in declaration order
  uint64_t positions = 0;           ///< positions of the seeded games examined
  uint64_t evaluated = 0;           ///< conditions evaluated (against plan.budget)
  uint64_t searched = 0;            ///< positions stored by the directed search
  bool budget_spent = false;
  std::string error;                ///< a run-time error of the rules that cut a game short
  /// The verifier's part: questions asked, units spent (invariants included), the
  /// invariants proved and assumed, and the set its boards range over, in words.
  int verifier_questions = 0;
  uint64_t verifier_rlimit = 0;
  std::vector<std::string> invariants;
  std::string verifier_set;
};

/// Whether `move` is rejected on `state` by rule `rule` and nothing else: every `requires`
/// and every other rule of the move holds, and every board rule after its body except
/// `rule` (read by why_not_legal with the board rules always read).
bool forbidden_only_by(const Refusal& refusal, const ir::Rule& rule);

/// The examples still missing in `found`, asked of the verifier (plan.verifier_rlimit units
/// per move tried); each board is read again by the interpreter and kept only when it
/// confirms it, then searched for in play from seed 1's setup.
void ask_verifier(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources, const ExamplePlan& plan,
                  ExampleSearch& found);

/// Finds the examples of every named rule within `plan`. The games are played by `engine`
/// when given (a compiled engine of the same rules: the same states, much faster), else by
/// the interpreter, which reads every condition.
ExampleSearch find_rule_examples(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources,
                                 const ExamplePlan& plan, const engine::Engine* engine = nullptr);

}  // namespace rulebook::cli
