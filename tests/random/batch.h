// Many generated programs run differentially on worker threads, and the words that let a
// person reproduce one: the options as flags and the one command for a seed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tests/random/differential.h"
#include "tests/random/program_gen.h"

namespace rulebook::testing {

struct BatchItem {
  uint64_t seed = 0;
  GeneratedProgram program;
  DiffResult diff;
};

/// Generates and runs the programs of seeds first .. first+count-1 on `jobs` threads;
/// `done` is called for each, in seed order, on the calling thread.
void run_batch(uint64_t first, int count, const GenOptions& gen, const DiffOptions& diff, int jobs,
               const std::function<void(const BatchItem&)>& done);

/// The known-bug constructs by name (for --enable): name -> the option it sets.
std::vector<std::pair<std::string, bool GenOptions::*>> gen_features();
/// The flags that give `o` on the command line of random_programs ("" for the defaults).
std::string gen_flags(const GenOptions& o);

/// Drops lines and blocks of `text` while `still_fails` holds for the smaller text and the
/// text still passes check; returns the smallest text found.
std::string reduce_program(const std::string& text, const std::function<bool(const std::string&)>& still_fails);

}  // namespace rulebook::testing
