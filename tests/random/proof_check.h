// One rules text through the verifier (Z3, on a resource limit) and through brute force
// over the same sets: every definite verdict must agree, and every board the verifier
// shows must be in the set and do what it claims when the interpreter reads it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tests/random/brute_force.h"
#include "tests/random/program_gen.h"

namespace rulebook::testing {

struct ProofOptions {
  /// Z3's resource limit per property: the same verdicts on any machine.
  uint64_t rlimit = 4000000;
  /// A backstop only; the resource limit should always come first.
  double timeout_seconds = 120;
  BruteOptions brute;
};

/// One property compared.
struct PropertyCheck {
  enum Outcome {
    Agree,      ///< both definite and the same, boards and values checked
    Unknown,    ///< the verifier gave no definite verdict (unknown, unsupported, timeout)
    TooLarge,   ///< brute force refused: the set is over its budget
    Unchecked,  ///< a kind brute force does not answer (depends)
    Disagree,   ///< a bug: the message says which side and why
  };
  std::string name, kind;
  std::string verifier, brute;  ///< verdicts as text (with their values)
  Outcome outcome = Agree;
  std::string message;
  std::string detail;  ///< the verifier's detail (the reason of an unknown)
  uint64_t elements = 0;  ///< the set's size, by brute force
};

struct ProofResult {
  enum Kind { Agree, CheckFailed, Disagree };
  Kind kind = Agree;
  std::string message;  ///< the checker's diagnostics, or every disagreement
  std::vector<PropertyCheck> properties;
  int agreed = 0, unknown = 0, too_large = 0, unchecked = 0, disagreed = 0;
  double verify_seconds = 0, brute_seconds = 0;
};

/// Loads `text` as the rules file `name` and compares the verifier with brute force on
/// each of its properties. Never throws; safe to call from several threads at once.
ProofResult run_proof_check(const std::string& name, const std::string& text, const ProofOptions& options);

struct ProofItem {
  uint64_t seed = 0;
  GeneratedProgram program;
  ProofResult result;
};

/// The programs of seeds first .. first+count-1 (`gen` as given, normally with
/// tiny_for_proofs) on `jobs` threads; `done` is called for each, in seed order, on the
/// calling thread.
void run_proof_batch(uint64_t first, int count, const GenOptions& gen, const ProofOptions& options, int jobs,
                     const std::function<void(const ProofItem&)>& done);

}  // namespace rulebook::testing
