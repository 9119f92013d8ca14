// The second reading of every verifier fact: a property's set enumerated state by state and
// evaluated by the interpreter, for programs small enough to enumerate.
//
// The set is the one docs/language.md (Properties) and docs/verifier.md (Sets) define:
// every state whose variables hold values of their types and in which every board rule
// holds (evaluated without error), narrowed by `of PHASE` and `where`; over moves, each
// legal instance (requires and move rules holding before, the body run without error, the
// board rules holding after), read in the state after the body with `mover` the player
// who moved. Only the variables the question reads are enumerated (the others cannot
// change an answer); the count of states and of move instances is capped.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/interp/interpret_internal.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::testing {

struct BruteOptions {
  /// States enumerated for one set (per move over moves): above it, "too large".
  uint64_t max_states = 300000;
  /// States times move instances tried: above it, "too large".
  uint64_t max_work = 3000000;
};

/// One element of a property's set as the interpreter reads it.
struct Element {
  bool in_set = false;
  bool err = false;  ///< the property's value errs on it
  std::string error;
  compiler::interp::Value value;  ///< its value (a bool or int in `value.scalar`)
};

/// What brute force says of one property, in the verifier's words (verifier::Result).
struct BruteVerdict {
  /// proved, vacuous, refuted, found, none, bound, empty, error, derived, not-constant,
  /// consistent, inconsistent, redundant, not-redundant; "too large" when refused;
  /// "unsupported" for a kind it does not answer (depends).
  std::string verdict;
  std::optional<int64_t> value;  ///< bound: max or min; derived: the value
  uint64_t states = 0;           ///< states enumerated
  uint64_t elements = 0;         ///< elements of the set
  bool any_error = false;        ///< the value errs on some element
  std::string detail;
};

class BruteForce {
 public:
  /// `program` and `sources` must outlive this object.
  BruteForce(const ir::Program& program, const dsl::SourceSet& sources, BruteOptions options = {});
  ~BruteForce();

  /// The verdict of `prop` over its whole set.
  BruteVerdict verdict(const ir::Property& prop);

  /// Named rules (board rules and move rules) not assumed from now on, as `depends` drops
  /// them: the sets, verdicts and elements then ignore them. Empty: every rule holds.
  void drop_rules(const std::set<std::string>& names);

  /// The element a verifier board names: the state (and over moves the move, as
  /// verifier::Board::move writes it, "P plays m(a, b)"). Nullopt when the move text names
  /// no instance of the property's moves. consistent: in_set = every board rule holds;
  /// redundant R: in_set = the other board rules hold, value = R holds.
  std::optional<Element> element(const ir::Property& prop, const std::vector<uint8_t>& state,
                                 const std::string& move_text);

  /// The board rules (and the move's parts) read: the variables enumerated for `prop`'s
  /// set over move `move` (-1: over boards). For tests and messages.
  std::vector<int> enumerated_vars(const ir::Property& prop, int move) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rulebook::testing
