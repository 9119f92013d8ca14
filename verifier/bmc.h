// Bounded model checking: k plies of a game unrolled from its setup with Z3 (the
// verifier's move encoding chained k times), asked whether a move is played, an `until`
// fires or an end alternative ends a game within them. A line of play found is replayed
// by the interpreter before it is shown; "unsat" says only "not within k plies".
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/interp/interpret.h"
#include "dsl/source.h"

namespace rulebook::verifier {

/// What is asked for: a move played (`move` >= 0), or a coverage site (an index of
/// compiler::Coverage::sites()) that fires: an `until` or an alternative of `end when`.
struct BmcTarget {
  int move = -1;
  int site = -1;
};

struct BmcResult {
  enum class Verdict {
    Reached,      ///< a line of play, confirmed by the interpreter
    NotWithin,    ///< no line of at most `plies` plies (not a proof beyond them)
    Unknown,      ///< the solver's budget ran out, or its lines were not confirmed
    Unsupported,  ///< the encoding does not cover a construct the question needs
  };
  Verdict verdict = Verdict::Unknown;
  int plies = 0;                   ///< the plies unrolled
  std::vector<std::string> line;   ///< Reached: the moves, as `play` prints them
  std::vector<std::string> setup;  ///< Reached: the setup values the line starts from
  std::string detail;              ///< Unknown and Unsupported: why
  uint64_t rlimit = 0;             ///< Z3's units spent on this target
};

struct BmcPlan {
  int plies = 6;
  /// Z3's resource units per target (deterministic: the same answer on every machine).
  uint64_t rlimit = 20000000;
  std::vector<std::pair<std::string, std::string>> setup;  ///< --setup values fixed
  const std::atomic<bool>* stop = nullptr;
};

const char* bmc_verdict_name(BmcResult::Verdict v);

/// Unrolls `plan.plies` plies once and asks for each target in turn (one result each, in
/// order). Throws std::invalid_argument when a setup value is not one of the rules'.
std::vector<BmcResult> bounded_search(const compiler::Interpreter& interpreter, const dsl::SourceSet& sources,
                                      const std::vector<BmcTarget>& targets, const BmcPlan& plan);

}  // namespace rulebook::verifier
