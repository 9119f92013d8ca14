// Seeded structure-aware mutations of every shipped variant (the fuzz target's mutator, run
// deterministically): each mutant ends in located diagnostics or in a game the interpreter
// plays, never in a crash or an error without words.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "lower_test_util.h"
#include "tests/fuzz/mutate_rules.h"

namespace rulebook::compiler {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_CASE("mutated variants end in diagnostics or in a game, never in a crash", "[mutate]") {
  constexpr uint32_t kMutantsPerFile = 40;
  int lowered = 0, played = 0, changed = 0, total = 0;
  for (const std::string& path : testing::variant_files()) {
    const std::string text = read(path);
    for (uint32_t seed = 1; seed <= kMutantsPerFile; ++seed) {
      std::optional<std::string> mutant = fuzz::mutate_rules(text, seed);
      // Every shipped file parses, so every seed finds something to mutate in it (a name
      // may now and then be replaced by itself).
      INFO(path << " seed " << seed);
      REQUIRE(mutant.has_value());
      changed += *mutant != text;
      fuzz::Reached r = fuzz::exercise(path, *mutant, seed, 16);
      CHECK(r.problem == "");
      ++total;
      lowered += r.lowered;
      played += r.played;
    }
  }
  // The mutations keep files mostly whole: a good share still passes check and lowers, so
  // the lowering and the interpreter are exercised, not only the checker's errors.
  CHECK(changed * 20 > total * 19);
  CHECK(lowered * 5 > total);
  CHECK(played * 10 > total);
  WARN(total << " mutants, " << changed << " changed: " << lowered << " lowered, " << played
             << " played");
}

}  // namespace
}  // namespace rulebook::compiler
