// Designer alerts read off the verifier's results: a witness or counterexample no game was
// shown to reach, and a `depends` whose core is empty (docs/lint.md).
#pragma once

#include <vector>

#include "compiler/ir/ir.h"
#include "explorer/alerts.h"
#include "verifier/verify.h"

namespace rulebook::verifier {

/// unreachable-witness and empty-depends-core for `results` (of `program`, with
/// Result::reach set where searched), in the order of the codes and then of the results,
/// acknowledged by the program's `allow`s; an `allow` of one of these codes that nothing
/// matched gets an unused-allow note.
std::vector<explorer::Alert> proof_alerts(const std::vector<Result>& results, const ir::Program& program);

}  // namespace rulebook::verifier
