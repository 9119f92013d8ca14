// Bounds Z3 proves on the shipped SMYOZ files against the hand-written fleet search of
// bench/hand (no rulebook code): the most water lines of a legal fleet.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "smyoz_fleets.h"
#include "verify_testing.h"

using namespace rulebook;
using namespace rulebook::verify_testing;

namespace {

const std::string kVariants = RULEBOOK_SOURCE_DIR "/variants/smyoz/";

}  // namespace

TEST_CASE("SMYOZ 8x8: the most water lines Z3 proves is the hand-written search's", "[hand]") {
  // The hand search places the fleet in the file's order and cuts a partial fleet that
  // already crosses too many lines; its answers on the boards the verifier's own brute
  // force reaches (5x5, ships 3, 2, 1: 4 water lines, test_verify_symmetry) and on 9x9
  // are pinned too.
  const hand::smyoz::FleetCounter small({5, {3, 2, 1}}), eight({8, {4, 3, 2, 2, 1, 1, 1}}),
      nine({9, {4, 3, 3, 2, 2, 2, 1, 1, 1, 1}});
  CHECK(small.most_water_lines() == 4);
  const int hand8 = eight.most_water_lines();
  CHECK(hand8 == 6);
  CHECK(nine.most_water_lines() == 5);

  dsl::SourceSet sources;
  auto p = load(kVariants + "smyoz-8x8.rules", sources);
  verifier::Options o;
  o.timeout_seconds = 600;
  o.only = {"most_water_lines"};
  const auto r = named(verifier::verify(*p, sources, o), "most_water_lines");
  REQUIRE(r.verdict == verifier::Verdict::Bound);
  CHECK(*r.value == hand8);
}
