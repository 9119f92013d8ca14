// The semantic structural test of board maps: what the rules compute without the state,
// evaluated, and kept when the map carries it onto itself as a value.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "dsl/source.h"
#include "explorer/symmetry.h"

namespace rulebook::explorer {

struct RuleSig;
class SigStore;

/// The rules of play (moves, board rules, phase changes, the end and the score) as one
/// comparable value: every part that does not read the state is evaluated by the
/// interpreter; quantifiers and move parameters are unrolled over their finite domains
/// where a computation (a coordinate, a table) does not commute with the maps; and/or,
/// quantifiers over a fixed set and sets of sets compare as sets. A map keeps the rules
/// when it carries this value onto itself. Defines are followed from their calls, so a
/// define that nothing reachable uses does not count.
class RuleImage {
 public:
  /// `candidates` are the maps that check() is asked about (at most 64).
  RuleImage(const ir::Program& program, const dsl::SourceSet& sources,
            const std::vector<Transform>& candidates);
  ~RuleImage();
  RuleImage(const RuleImage&) = delete;
  RuleImage& operator=(const RuleImage&) = delete;

  /// False when the rules were too large to unroll within the budget (or an evaluation
  /// failed outright): then check() knows nothing and the caller decides otherwise.
  bool complete() const { return complete_; }
  /// "" when candidate `k` maps the rules onto themselves, else why not, at a location.
  std::string check(size_t k) const;

 private:
  const ir::Program& program_;
  const dsl::SourceSet& sources_;
  std::vector<Transform> candidates_;
  std::vector<std::shared_ptr<ir::Type>> types_;  ///< of the values the rules do not type
  std::unique_ptr<SigStore> store_;  ///< check() interns the images it builds
  std::shared_ptr<const RuleSig> root_;
  bool complete_ = false;
};

}  // namespace rulebook::explorer
