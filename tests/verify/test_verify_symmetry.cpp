// Symmetry breaking of find and bound questions: the same verdicts and values with and
// without it (and as brute force gives them), the maps kept only where the set and the
// value map onto themselves, and a find whose solutions are one orbit of 8 boards, so
// that all but one of them are not lex-leaders.
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tests/verify/verify_testing.h"
#include "verifier/verify.h"

using namespace rulebook;
using namespace rulebook::verify_testing;

namespace {

const std::string kDir = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/";

std::vector<verifier::Result> run(const ir::Program& p, const dsl::SourceSet& sources,
                                  const std::vector<std::string>& only, bool symmetry) {
  verifier::Options o;
  o.timeout_seconds = 60;
  o.only = only;
  o.symmetry = symmetry;
  return verifier::verify(p, sources, o);
}

/// Checks each property with and without symmetry breaking: the same verdict and value.
/// Returns the results with breaking.
std::vector<verifier::Result> both_ways(const ir::Program& p, const dsl::SourceSet& sources,
                                        const std::vector<std::string>& names) {
  const auto with = run(p, sources, names, true);
  const auto without = run(p, sources, names, false);
  for (const std::string& n : names) {
    INFO(n);
    const auto& a = named(with, n);
    const auto& b = named(without, n);
    CHECK(a.definite());
    CHECK(verifier::verdict_name(a.verdict) == std::string(verifier::verdict_name(b.verdict)));
    CHECK(a.value == b.value);
    CHECK(b.symmetry.empty());
    if (a.board) {
      auto [in_set, holds] = interpret_on(p, sources, n, a.board->state);
      CHECK(in_set);
      if (a.kind == ir::PropertyKind::Find) CHECK(holds);
    }
  }
  return with;
}

}  // namespace

TEST_CASE("symmetry breaking keeps the bounds and finds of a small fleet, as brute force gives them") {
  // The long ship covers a corner and the short one stands in the opposite corner: 8
  // fleets, one orbit of the square's maps, so 7 of them are not lex-leaders.
  const std::string extra = R"(
define far(a: Cell, b: Cell): bool = abs(x(a) - x(b)) == 3 and abs(y(a) - y(b)) == 3;
find one_orbit "the long ship covers a corner, the short one the opposite corner"
  over boards where fleet_complete:
    size(ship_cells(1) & corner_cells) == 1 and (some a in ship_cells(1), b in ship_cells(2): far(a, b));
)";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(kDir + "tiny_fleet_orbit.rules", slurp(kDir + "tiny_fleet.rules") + extra,
                                       sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  const std::vector<std::string> names{"most_water_points", "least_water_points", "all_moored", "impossible",
                                       "one_water_group", "most_water_groups", "one_orbit"};
  const auto rs = both_ways(*p, sources, names);
  for (const std::string& n : names) {
    INFO(n);
    const auto& r = named(rs, n);
    // Each is about the fleet up to the square's maps: every map is kept.
    CHECK(r.symmetry.rfind("symmetry: 8 of the 8 board maps keep the set and the value", 0) == 0);
    const Brute b = brute(*p, sources, property(*p, n));
    if (r.kind == ir::PropertyKind::Bound) CHECK(*r.value == (property(*p, n).maximize ? b.hi : b.lo));
    else CHECK((r.verdict == verifier::Verdict::Found) == b.any);
  }
  CHECK(named(rs, "one_orbit").verdict == verifier::Verdict::Found);
  CHECK(named(rs, "impossible").verdict == verifier::Verdict::None);
}

TEST_CASE("symmetry breaking keeps only the maps that keep the set: groups of chosen cells") {
  dsl::SourceSet sources;
  auto p = load(kDir + "tiny_islands.rules", sources);
  // shortest_link names two opposite corners: kept by the half turn and the mirror in
  // the diagonal through them (the identity, and 3 of the 7 others).
  const std::vector<std::string> names{"most_islands_of_six", "fewest_islands_of_six", "shortest_link",
                                       "three_islands_of_five"};
  const auto rs = both_ways(*p, sources, names);
  CHECK(named(rs, "most_islands_of_six").symmetry.rfind("symmetry: 8 of the 8", 0) == 0);
  CHECK(named(rs, "three_islands_of_five").symmetry.rfind("symmetry: 8 of the 8", 0) == 0);
  CHECK(named(rs, "shortest_link").symmetry.rfind("symmetry: 4 of the 8", 0) == 0);
  CHECK(named(rs, "three_islands_of_five").verdict == verifier::Verdict::Found);
  for (const std::string n : {"most_islands_of_six", "shortest_link"}) {
    INFO(n);
    const Brute b = brute(*p, sources, property(*p, n));
    CHECK(*named(rs, n).value == (property(*p, n).maximize ? b.hi : b.lo));
  }
}

TEST_CASE("SMYOZ's rules on a 5x5 board: bounds with and without breaking, as brute force gives them") {
  // The side rule compares each pair of ships' overlap with a constant for every placement
  // of the first (a comparison the encoder writes as guards), and the water lines are
  // pseudo-boolean counts: both readings are checked against every fleet.
  dsl::SourceSet sources;
  auto p = load(kDir + "smyoz_5x5.rules", sources);
  const std::vector<std::string> names{"most_water_lines", "fewest_water_lines", "most_moored", "most_water_points"};
  const auto rs = both_ways(*p, sources, names);
  for (const std::string& n : names) {
    INFO(n);
    const Brute b = brute(*p, sources, property(*p, n));
    REQUIRE(b.states > 0);
    REQUIRE(named(rs, n).value);
    CHECK(*named(rs, n).value == (property(*p, n).maximize ? b.hi : b.lo));
  }
  CHECK(*named(rs, "most_water_lines").value == 4);
}

TEST_CASE("the symmetry checks spend at most a quarter of a property's budget, in units when it has them") {
  // On the 5x5 fleet the mirror's check asks Z3 (the centre rule's image is not one of the
  // set's conditions up to argument order). With 100,000 units for the property the
  // checks' quarter is spent by the quarter turn's: the mirror is not checked, and only the
  // quarter turns are kept. With no unit budget all 8 maps are.
  dsl::SourceSet sources;
  auto p = load(kDir + "smyoz_5x5.rules", sources);
  verifier::Options o;
  o.timeout_seconds = 60;
  o.only = {"fewest_water_lines"};
  o.symmetry = true;
  std::vector<std::string> lines;
  o.progress = [&](const std::string& line) { lines.push_back(line); };
  o.rlimit = 100000;
  const auto small = named(verifier::verify(*p, sources, o), "fewest_water_lines");
  CHECK(small.symmetry.find("4 of the 8 board maps") != std::string::npos);
  CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
          return l.find("not checked: the checks' share of the property's budget, 25%, is spent") != std::string::npos;
        }) >= 1);
  o.rlimit = 0;
  const auto whole = named(verifier::verify(*p, sources, o), "fewest_water_lines");
  CHECK(whole.symmetry.find("8 of the 8 board maps") != std::string::npos);
  CHECK(whole.verdict == verifier::Verdict::Bound);
}
