// The verifier's reasons and names: an exhausted budget says which limit ran out (Z3 says
// "canceled" for both), and a `depends P` result carries the name P.
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "compiler/lower/lower.h"
#include "verifier/verify.h"

using namespace rulebook;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Loads `text` as a rules file named `name` (beside the test's other files).
std::optional<ir::Program> load_text(const std::string& name, const std::string& text, dsl::SourceSet& sources) {
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/" + name, text, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  return p;
}

std::vector<verifier::Result> check(const std::string& file, const std::string& property, double timeout, uint64_t rlimit) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program(std::string(RULEBOOK_SOURCE_DIR) + "/" + file, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  verifier::Options o;
  o.timeout_seconds = timeout;
  o.rlimit = rlimit;
  o.only = {property};
  return verifier::verify(*p, sources, o);
}

}  // namespace

TEST_CASE("an exhausted resource limit is reported as such, not as a timeout") {
  // A bound needs several questions; a budget of a few hundred resource units is spent by
  // the first one, long before the (generous) clock.
  auto rs = check("tests/verify/tiny_fleet.rules", "most_water_points", 120, 300);
  REQUIRE(rs.size() == 1);
  INFO(verifier::result_text(rs[0], false));
  CHECK(rs[0].verdict == verifier::Verdict::Unknown);
  CHECK(rs[0].detail.rfind("resource limit (rlimit 300)", 0) == 0);
}

TEST_CASE("a wall-clock timeout is reported as a timeout, also when a resource limit is set") {
  // The most moored ships of a SMYOZ fleet are not bounded in seconds (the lemmas, proved
  // first, run on the same second each); the resource budget is far larger than what a
  // second of work spends.
  auto rs = check("variants/smyoz/smyoz.rules", "most_moored", 1, 4000000000ull);
  const verifier::Result* r = nullptr;
  for (const auto& x : rs)
    if (x.name == "most_moored") r = &x;
  REQUIRE(r);
  INFO(verifier::result_text(*r, false));
  CHECK(r->verdict == verifier::Verdict::Unknown);
  CHECK(r->detail.rfind("timeout (1 s)", 0) == 0);
  CHECK(r->rlimit < 4000000000ull);
}

TEST_CASE("a depends result is named after its subject, in its text too") {
  std::string text = slurp(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules");
  text += "\ndepends apart;\n";
  dsl::SourceSet sources;
  auto p = load_text("tiny_fleet_depends.rules", text, sources);
  verifier::Options o;
  o.timeout_seconds = 30;
  auto rs = verifier::verify(*p, sources, o);
  const verifier::Result* dep = nullptr;
  for (const auto& r : rs)
    if (r.kind == ir::PropertyKind::Depends) dep = &r;
  REQUIRE(dep);
  INFO(verifier::result_text(*dep, false));
  CHECK(dep->name == "apart");
  CHECK(dep->verdict == verifier::Verdict::Depends);
  // The two ships stay apart only because of the corner rule.
  REQUIRE(dep->needs.size() == 1);
  CHECK(dep->needs[0] == "corner_rule");
  CHECK(verifier::result_text(*dep, false).rfind("depends apart: depends", 0) == 0);
}
