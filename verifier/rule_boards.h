// Boards for a rulebook's allowed / not-allowed examples asked of Z3: a board of `over
// reachable moves` (the board rules and the proved invariants) where a move is legal, or
// where every condition of the move but one named rule holds and that rule does not.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "verifier/verify.h"

namespace rulebook::verifier {

/// A board wanted for named rule `rule` (ir::Program::rules) on one of `moves` (tried in
/// order until one gives a board).
struct RuleQuestion {
  int rule = -1;
  std::vector<int> moves;
  /// true: the move is legal there. false: every `requires`, every other move rule and
  /// every other board rule (before and after the move) holds, and `rule` does not (a
  /// board rule: it holds before the move and not after).
  bool allowed = true;
};

struct RuleAnswer {
  /// Found (`board` holds it, with the move played), None (proved for every move: no
  /// board of the set has one), Unknown (the units ran out on some move and none gave a
  /// board: `detail` says), Unsupported, Interrupted.
  Verdict verdict = Verdict::Unknown;
  std::optional<Board> board;
  std::string detail;
  uint64_t rlimit = 0;  ///< Z3's units spent on this question (all its moves)
};

struct RuleBoards {
  std::vector<RuleAnswer> answers;      ///< one per question, in order
  std::vector<std::string> invariants;  ///< proved first and assumed by every question
  uint64_t rlimit = 0;                  ///< Z3's units spent in all (invariants included)
};

/// Answers `questions`: the declared invariants (and those found, Options::candidate_games)
/// are proved first, each on Options::rlimit units; then each move of each question on
/// Options::rlimit units of its own (deterministic: the same answers on every machine).
RuleBoards rule_boards(const ir::Program& program, const dsl::SourceSet& sources, const Options& options,
                       const std::vector<RuleQuestion>& questions);

}  // namespace rulebook::verifier
