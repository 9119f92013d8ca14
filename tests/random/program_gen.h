// A seeded generator of random valid rules files, the input of the random differential tests.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace rulebook::testing {

/// What the generator may write. Constructs that hit a known compiler bug are off by
/// default; turning one on is one line here (and in the CI test's options).
struct GenOptions {
  // ---- constructs that once hit compiler bugs, on since their fixes
  /// Locals named with a numeric suffix (`c_1`) beside a binder named `c` (perft differed
  /// before binders got a slot suffix).
  bool numeric_suffix_locals = true;
  /// Globals named `over` or `passes`, the engine's own variables (did not compile before
  /// user names got a prefix of their own).
  bool system_names = true;
  /// A move `m` beside a move `m_checked` (did not compile before the naming scheme).
  bool checked_suffix_moves = true;
  /// A define `f` beside a define `f_compute` (did not compile before the naming scheme).
  bool compute_suffix_defines = true;
  /// One move name in two phases, with the same parameters (did not compile before moves
  /// were numbered).
  bool move_in_two_phases = true;
  /// Guards of stores as `lo + e % n` with e negative (the checker folded `/` and `%`
  /// truncating where the engines floor). Off: the guard takes abs(e).
  bool negative_constant_modulo = true;
  /// `INT64_MIN / (v - lo - 1)` with v a setup or state value: -1 or 0 in play, an error
  /// there (it was written constant, and check rejected the program).
  bool int64_min_division = true;
  /// Map keys and sequence positions that may leave their domain in play (the engines
  /// reported the error at different columns, in different words).
  bool key_errors = true;

  // ---- known bugs, excluded until fixed
  /// A set filter inside the domain of a quantifier, aggregate, filter or `for`
  /// (`sum k in {x in S | c}: k`): the generated engine read the filter's binder where
  /// the outer one is meant, and did not compile (found by this generator).
  bool filter_in_binder_domain = true;
  /// can() in a move's block when the game has board rules: legality then plays the
  /// block. can(m) of its own move there recursed until the engine's stack overflowed;
  /// check now rejects such a cycle, so a block asks only of moves declared before it.
  bool can_through_board_rules = true;
  /// Two `state s: seq of T = [...]` declarations: the engine's setup declared the
  /// locals of both initial values in one scope and did not compile (found here).
  bool two_initialized_seq_states = true;

  // ---- choices
  /// Programs small enough to enumerate, with properties of every kind (gen_tiny.cpp):
  /// the verifier's verdicts are checked against brute force (proof_check.h). Off, the
  /// generator writes what it always wrote.
  bool tiny_for_proofs = false;
  /// Out of 100: how often a value is left unguarded, so that play may hit a run-time
  /// error (a store out of range, a division by zero, a field of none, ...).
  int risk_percent = 8;
  /// Deepest expression nesting.
  int max_depth = 3;
};

/// A generated rules file and which constructs it used (for the coverage table).
struct GeneratedProgram {
  std::string text;
  std::map<std::string, int> constructs;  ///< construct tag -> times used
};

/// The program of `seed`: the same seed and options always give the same text.
GeneratedProgram generate_program(uint64_t seed, const GenOptions& options = {});

}  // namespace rulebook::testing
