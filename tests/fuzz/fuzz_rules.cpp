// libFuzzer target, structure-aware: rules files mutated as declarations, statements and
// expressions (mutate_rules.h) go through check, lowering and a few interpreted plies. Any
// input must end in diagnostics or in a game; a crash, a sanitizer report or a hang is a find.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/fuzz/mutate_rules.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  // One time in four the bytes themselves, so that the lexer and parser keep being fuzzed.
  if (seed % 4 != 0) {
    std::optional<std::string> m = rulebook::fuzz::mutate_rules(
        std::string(reinterpret_cast<const char*>(data), size), seed / 4);
    if (m && m->size() <= max_size) {
      std::memcpy(data, m->data(), m->size());
      return m->size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rulebook::fuzz::Reached r = rulebook::fuzz::exercise(
      "fuzz.rules", std::string(reinterpret_cast<const char*>(data), size), size + 1, 24);
  if (!r.problem.empty()) {
    std::fprintf(stderr, "fuzz_rules: %s\n", r.problem.c_str());
    std::abort();
  }
  return 0;
}
