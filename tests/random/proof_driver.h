// The `--proofs` mode of the random_programs driver (tests/random/README.md).
#pragma once

#include <cstdint>
#include <string>

#include "tests/random/proof_check.h"

namespace rulebook::testing {

struct ProofDriverFlags {
  bool print = false, reduce = false, quiet = false, coverage = false;
  std::string keep = "random-failures";
  std::string self = "random_programs";  ///< the driver's path, for the reproduce line
};

/// The flags that give `o` on the command line ("" for the defaults).
std::string proof_flags(const ProofOptions& o);

/// Runs seeds seed .. seed+count-1 as tiny programs, prints each failure and a summary;
/// returns the exit code (0 when everything agrees).
int run_proofs(uint64_t seed, int count, int jobs, const GenOptions& gen, const ProofOptions& options,
               const ProofDriverFlags& flags);

}  // namespace rulebook::testing
