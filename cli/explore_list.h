// `rulebook explore --list FILE`: the states of the last depth, each with the values the
// rules' defines give on it (`--observe NAME`), as one JSON document. A designer (or a
// script playing a deduction game over them) reads what every candidate state answers.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::cli {

/// The defines to evaluate on each listed state: each of no parameter, or of one over a
/// finite domain (every value of it, in the domain's order). Returns "" or why a name
/// cannot be observed.
std::string observed_defines(const ir::Program& program, const std::vector<std::string>& names,
                             std::vector<int>& defines);

/// Collects states (any order, duplicates not expected) and writes them sorted by their
/// bytes, with the observed values evaluated by the interpreter.
class StateList {
 public:
  StateList(const ir::Program& program, const dsl::SourceSet& sources, std::vector<int> defines)
      : program_(program), sources_(sources), defines_(std::move(defines)) {}
  /// At most `most` states are kept; more() then says how many came in all.
  void limit(uint64_t most) { most_ = most; }
  void add(const uint8_t* state) {
    if (++seen_ > most_) return;
    states_.insert(states_.end(), state, state + program_.state_bytes);
  }
  size_t size() const { return program_.state_bytes ? states_.size() / program_.state_bytes : 0; }
  bool overflowed() const { return seen_ > most_; }
  uint64_t seen() const { return seen_; }
  /// The JSON text: {"file", "depth", "states", "observe": [{"name", "parameter",
  /// "values"}], "list": [{"state", "values": {NAME: value or [value per parameter]}}]}.
  /// A define that fails on a state gives null there (counted in "failures"). `progress`
  /// is called about once a second with the states done; "" when `interrupt` was set
  /// (nothing is to be written then).
  std::string json(const std::string& file, int depth, const std::atomic<bool>* interrupt,
                   const std::function<void(size_t done, size_t total)>& progress);

 private:
  const ir::Program& program_;
  const dsl::SourceSet& sources_;
  std::vector<int> defines_;
  std::vector<uint8_t> states_;  ///< one after another
  uint64_t most_ = UINT64_MAX, seen_ = 0;
};

}  // namespace rulebook::cli
