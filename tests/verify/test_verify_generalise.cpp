// Proof by generalisation: what it proves holds on every fleet (checked by enumeration),
// alike questions are asked once, and where the generalisation is too weak the concrete
// question gives the answer (a proof, or a counterexample board checked by the interpreter),
// never a refutation drawn from the generalisation's own model.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/lower/lower.h"
#include "tests/verify/verify_testing.h"
#include "verifier/verify.h"

using namespace rulebook;
using namespace rulebook::verify_testing;

namespace {

const std::string kLines4x4 = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/smyoz_lines_4x4.rules";

/// The 4x4 line file with `text` appended, loaded beside it (its `extends` is relative).
std::optional<ir::Program> lines_with(const std::string& text, const std::string& name, dsl::SourceSet& sources) {
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/" + name,
                                       slurp(kLines4x4) + text, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  return p;
}

/// Runs the verifier on `only` (and the lemmas), collecting its progress lines.
std::vector<verifier::Result> run(const ir::Program& p, const dsl::SourceSet& sources, std::vector<std::string> only,
                                  std::string& progress) {
  verifier::Options o;
  o.timeout_seconds = 60;
  o.only = std::move(only);
  o.progress = [&](const std::string& line) { progress += line + "\n"; };
  return verifier::verify(p, sources, o);
}

}  // namespace

TEST_CASE("lemmas proved by generalisation hold on every fleet, each line's question asked once") {
  dsl::SourceSet sources;
  auto p = load(kLines4x4, sources);
  std::string progress;
  auto rs = run(*p, sources, {"coloured_lines"}, progress);
  INFO(progress);
  for (const std::string n : {"one_first", "one_last", "alone_on_line", "line_balance"}) {
    INFO(n);
    const auto& r = named(rs, n);
    CHECK(r.verdict == verifier::Verdict::Proved);
    // The 8 lines of a 4x4 board read their ships alike: one question up to renaming.
    CHECK(r.detail == "proved by generalisation: 8 questions over the values read from the state, "
                      "1 of them distinct up to renaming; no rule used");
    CHECK(brute(*p, sources, property(*p, n)).all);
  }
  const auto& per_ship = named(rs, "red_or_outermost");
  CHECK(per_ship.verdict == verifier::Verdict::Proved);
  CHECK(per_ship.detail.rfind("proved by generalisation: 24 questions", 0) == 0);
  CHECK(brute(*p, sources, property(*p, "red_or_outermost")).all);
  CHECK(named(rs, "coloured_lines").verdict == verifier::Verdict::Proved);
}

TEST_CASE("a lemma proved by generalisation depends on no rule, even in a file with rules") {
  // The 4x4 copy removes the placement rules; this one keeps the corner rule.
  dsl::SourceSet sources;
  auto p = lines_with("rule corner_again \"ships apart\":\n"
                      "  all s in ships, t in ships where s < t:\n"
                      "    no a in ship_cells(s), b in ship_cells(t): b == a or b in king(a);\n"
                      "depends line_balance;\n",
                      "lines_depends.rules", sources);
  std::string progress;
  auto rs = run(*p, sources, {}, progress);  // every property (a depends has no name of its own)
  INFO(progress);
  const verifier::Result* d = nullptr;
  for (const auto& r : rs)
    if (r.kind == ir::PropertyKind::Depends && r.name == "line_balance") d = &r;
  REQUIRE(d);
  CHECK(d->verdict == verifier::Verdict::Depends);
  CHECK(d->needs.empty());
  CHECK(d->detail.rfind("line_balance needs none of the named rules (proved by generalisation", 0) == 0);
}

TEST_CASE("a generalisation too weak to prove a true lemma falls back to the concrete proof") {
  // Each ship crosses length + 1 lines: true of every placement, but a ship's crossings of
  // different lines are independent values once generalised.
  dsl::SourceSet sources;
  auto p = lines_with("lemma crossings \"a ship crosses length + 1 lines\" over boards where fleet_complete:\n"
                      "  all s in ships: (count l in lines where crosses(s, l)) == ship_length(s) + 1;\n",
                      "lines_crossings.rules", sources);
  std::string progress;
  auto rs = run(*p, sources, {"crossings"}, progress);
  INFO(progress);
  const auto& r = named(rs, "crossings");
  CHECK(r.verdict == verifier::Verdict::Proved);
  CHECK(r.detail.find("generalisation") == std::string::npos);
  CHECK(progress.find("generalised: not valid") != std::string::npos);
  CHECK(brute(*p, sources, property(*p, "crossings")).all);
}

TEST_CASE("a false lemma is refuted by the concrete question, on a board the interpreter confirms") {
  // A wrong per-line count: its generalisation has models too, but the refutation's board
  // must be a fleet of the set that breaks it.
  dsl::SourceSet sources;
  auto p = lines_with("lemma two_first \"(wrong) a line with ships has two first ships\"\n"
                      "  over boards where fleet_complete:\n"
                      "  all l in lines: (count s in ships where first_on(s, l))\n"
                      "    == (if line_colour(l) == red then 2 else if line_colour(l) == green then 1 else 0);\n",
                      "lines_two_first.rules", sources);
  std::string progress;
  auto rs = run(*p, sources, {"two_first"}, progress);
  INFO(progress);
  const auto& r = named(rs, "two_first");
  REQUIRE(r.verdict == verifier::Verdict::Refuted);
  REQUIRE(r.board);
  CHECK(progress.find("generalised: not valid") != std::string::npos);
  auto [in_set, holds] = interpret_on(*p, sources, "two_first", r.board->state);
  CHECK(in_set);
  CHECK_FALSE(holds);
  CHECK_FALSE(brute(*p, sources, property(*p, "two_first")).all);
}

TEST_CASE("SMYOZ 9x9: the line lemmas are proved by generalisation, then the identity follows") {
  dsl::SourceSet sources;
  auto p = load(std::string(RULEBOOK_SOURCE_DIR) + "/variants/smyoz/smyoz.rules", sources);
  std::string progress;
  auto rs = run(*p, sources, {"coloured_lines"}, progress);
  INFO(progress);
  for (const std::string n : {"one_first", "one_last", "alone_on_line", "red_or_outermost", "line_balance"}) {
    INFO(n);
    CHECK(named(rs, n).verdict == verifier::Verdict::Proved);
    CHECK(named(rs, n).detail.rfind("proved by generalisation", 0) == 0);
  }
  CHECK(named(rs, "line_balance").detail.find("18 questions") != std::string::npos);
  CHECK(named(rs, "coloured_lines").verdict == verifier::Verdict::Proved);
}
