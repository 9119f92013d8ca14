// The verifier against brute force: every state of a tiny file is enumerated with the
// interpreter's own evaluation of the same expressions, and the verdicts must agree;
// a broken copy of the rules must be refuted with a counterexample.
#include <fstream>
#include <set>
#include <utility>
#include <vector>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "compiler/lower/lower.h"
#include "tests/verify/verify_testing.h"
#include "verifier/verify.h"

using namespace rulebook;
using namespace rulebook::verify_testing;

TEST_CASE("verdicts agree with brute-force enumeration on a tiny fleet") {
  dsl::SourceSet sources;
  auto p = load(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules", sources);
  verifier::Options o;
  o.timeout_seconds = 30;
  auto rs = verifier::verify(*p, sources, o);
  for (const ir::Property& prop : p->properties) {
    Brute b = brute(*p, sources, prop);
    const auto& r = named(rs, prop.name);
    INFO(prop.name << ": " << verifier::result_text(r, false));
    if (prop.kind == ir::PropertyKind::Prove) CHECK(r.verdict == (b.all ? verifier::Verdict::Proved : verifier::Verdict::Refuted));
    if (prop.kind == ir::PropertyKind::Find) CHECK(r.verdict == (b.any ? verifier::Verdict::Found : verifier::Verdict::None));
    if (prop.kind == ir::PropertyKind::Bound) {
      REQUIRE(r.verdict == verifier::Verdict::Bound);
      CHECK(*r.value == (prop.maximize ? b.hi : b.lo));
      REQUIRE(r.board);
    }
  }
}

// Counts of components are refined lazily (cuts on the model's groups, and small sets
// first with exact reachability): every kind of property over them, including bounds
// that need the count's upper side (most groups) and proofs, against all 2^16 choices.
TEST_CASE("verdicts on counts of groups agree with brute-force enumeration on a 4x4 board") {
  dsl::SourceSet sources;
  auto p = load(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_islands.rules", sources);
  verifier::Options o;
  o.timeout_seconds = 60;
  auto rs = verifier::verify(*p, sources, o);
  std::set<std::string> verdicts;
  for (const ir::Property& prop : p->properties) {
    Brute b = brute(*p, sources, prop);
    const auto& r = named(rs, prop.name);
    INFO(prop.name << ": " << verifier::result_text(r, false));
    verdicts.insert(verifier::verdict_name(r.verdict));
    if (prop.kind == ir::PropertyKind::Prove) CHECK(r.verdict == (b.all ? verifier::Verdict::Proved : verifier::Verdict::Refuted));
    if (prop.kind == ir::PropertyKind::Find) CHECK(r.verdict == (b.any ? verifier::Verdict::Found : verifier::Verdict::None));
    if (prop.kind == ir::PropertyKind::Bound) {
      REQUIRE(r.verdict == verifier::Verdict::Bound);
      CHECK(*r.value == (prop.maximize ? b.hi : b.lo));
    }
    if (r.verdict == verifier::Verdict::Bound || r.verdict == verifier::Verdict::Found || r.verdict == verifier::Verdict::Refuted) {
      // The board is in the set, and its value is the interpreter's count.
      REQUIRE(r.board);
      auto [in_set, holds] = interpret_on(*p, sources, prop.name, r.board->state);
      CHECK(in_set);
      if (prop.kind == ir::PropertyKind::Find) CHECK(holds);
      if (prop.kind == ir::PropertyKind::Prove) CHECK_FALSE(holds);
    }
  }
  // Every kind of answer occurs, so none of them passes by default.
  for (const char* v : {"bound", "found", "none", "proved", "refuted"}) CHECK(verdicts.count(v) == 1);
}

TEST_CASE("a broken copy of the rules refutes the proved property with a counterexample") {
  const std::string dir = std::string(RULEBOOK_BINARY_DIR) + "/tests/verify";
  std::string text = slurp(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules");
  // Without the corner rule two ships may overlap.
  auto at = text.find("no a in ship_cells(s), b in ship_cells(t): b == a or b in king(a);");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("no a in ship_cells(s), b in ship_cells(t): b == a or b in king(a);").size(), "true;");
  const std::string path = dir + "/tiny_fleet_broken.rules";
  std::ofstream(path) << text;
  dsl::SourceSet sources;
  auto p = load(path, sources);
  verifier::Options o;
  o.only = {"apart"};
  auto rs = verifier::verify(*p, sources, o);
  const auto& r = named(rs, "apart");
  CHECK(r.verdict == verifier::Verdict::Refuted);
  REQUIRE(r.board);
  CHECK(r.board->text.find("fleet") != std::string::npos);
  Brute b = brute(*p, sources, p->properties[0]);
  CHECK_FALSE(b.all);
}

TEST_CASE("a property the encoding does not support leaves the next verdicts unchanged") {
  // The unsupported construct is met deep inside the encoding of a set (a selector fixed,
  // a call's dependencies being recorded); the properties after it must be encoded from a
  // clean encoder, exactly as when they are checked alone.
  std::string text = slurp(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules");
  const std::string first = "bound most_water_points";
  auto at = text.find(first);
  REQUIRE(at != std::string::npos);
  text.insert(at, "define on_left: bool = some g in components(ship_area): (some c in g: x(c) == 0);\n"
                  "find left_island \"a group of ship cells on the left edge\" over boards where fleet_complete: on_left;\n");
  dsl::SourceSet sources, alone_sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/with_unsupported.rules",
                                       text, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  verifier::Options o;
  o.only = {"left_island", "most_water_points", "least_water_points", "all_moored"};
  auto rs = verifier::verify(*p, sources, o);
  REQUIRE(named(rs, "left_island").verdict == verifier::Verdict::Unsupported);
  auto alone = load(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules", alone_sources);
  o.only = {"most_water_points", "least_water_points", "all_moored"};
  auto ref = verifier::verify(*alone, alone_sources, o);
  for (const std::string& n : o.only) {
    INFO(n);
    CHECK(named(rs, n).verdict == named(ref, n).verdict);
    CHECK(named(rs, n).value == named(ref, n).value);
    CHECK(named(rs, n).definite());
  }
}

TEST_CASE("SMYOZ water points: proved, and refuted without the mooring rule on a board that breaks it") {
  // Seconds on a quiet machine; the wide limit keeps a machine busy with other tests from
  // turning a verdict into "unknown".
  constexpr double kLoadedMachineSeconds = 600;
  // Without the line lemmas, which every run proves first and which this case does not need.
  const std::string base = std::string(RULEBOOK_BINARY_DIR) + "/tests/verify/smyoz_water_points.rules";
  std::ofstream(base) << "variant \"SMYOZ water points\" extends \"" << RULEBOOK_SOURCE_DIR
                      << "/variants/smyoz/smyoz.rules\";\n"
                      << "remove property one_first;\nremove property one_last;\nremove property alone_on_line;\n"
                      << "remove property red_or_outermost;\nremove property line_balance;\n";
  {
    dsl::SourceSet sources;
    auto p = load(base, sources);
    verifier::Options o;
    o.only = {"water_points"};
    o.timeout_seconds = kLoadedMachineSeconds;
    auto rs = verifier::verify(*p, sources, o);
    CHECK(named(rs, "water_points").verdict == verifier::Verdict::Proved);
  }
  const std::string path = std::string(RULEBOOK_BINARY_DIR) + "/tests/verify/smyoz_without_mooring.rules";
  std::ofstream(path) << "variant \"SMYOZ without the mooring rule\" extends \"" << base << "\";\n"
                      << "remove rule mooring_rule;\n";
  dsl::SourceSet sources;
  auto p = load(path, sources);
  verifier::Options o;
  o.only = {"water_points"};
  o.timeout_seconds = kLoadedMachineSeconds;
  auto rs = verifier::verify(*p, sources, o);
  const auto& r = named(rs, "water_points");
  REQUIRE(r.verdict == verifier::Verdict::Refuted);
  REQUIRE(r.board);
  auto [in_set, holds] = interpret_on(*p, sources, "water_points", r.board->state);
  CHECK(in_set);
  CHECK_FALSE(holds);
}

namespace {

const std::string kLines4x4 = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/smyoz_lines_4x4.rules";

/// The 4x4 line file with `from` replaced by `to` (a broken copy), loaded.
std::optional<ir::Program> broken_lines(const std::string& from, const std::string& to, const std::string& name,
                                        dsl::SourceSet& sources) {
  std::string text = slurp(kLines4x4);
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  // Beside the original, so that its relative `extends` still finds the base file.
  const std::string path = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/" + name;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(path, text, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  return p;
}

}  // namespace

TEST_CASE("SMYOZ line identity on a 4x4 board: per-line lemma, identity and constant agree with brute force") {
  dsl::SourceSet sources;
  auto p = load(kLines4x4, sources);
  verifier::Options o;
  o.timeout_seconds = 60;
  o.only = {"coloured_lines", "line_constant"};
  auto rs = verifier::verify(*p, sources, o);
  const auto& lemma = named(rs, "line_balance");
  const auto& identity = named(rs, "coloured_lines");
  const auto& constant = named(rs, "line_constant");
  INFO(verifier::result_text(lemma, false) << verifier::result_text(identity, false) << verifier::result_text(constant, false));
  CHECK(lemma.verdict == verifier::Verdict::Proved);
  CHECK(identity.verdict == verifier::Verdict::Proved);
  REQUIRE(constant.verdict == verifier::Verdict::Derived);
  CHECK(*constant.value == 9);
  // Every complete fleet: the two-cell ship has 24 placements on the board, each one-cell
  // ship 32 (both orientations of one cell).
  Brute b = brute(*p, sources, property(*p, "line_constant"));
  CHECK(b.states == 24 * 32 * 32);
  CHECK(b.lo == 9);
  CHECK(b.hi == 9);  // so coloured_lines (the same equation) holds on every fleet as well
  CHECK(brute(*p, sources, property(*p, "line_balance")).all);
}

TEST_CASE("SMYOZ line identity on a 4x4 board: broken copies are refuted on boards that break them") {
  struct Case {
    std::string from, to, file;
    bool enumerate;  ///< also by brute force (the wrong constant is false wherever 9 is right)
  };
  // A red line that also runs through the last ship; a wrong constant.
  const Case cases[] = {
      {"remove property coloured_lines;",
       "remove property coloured_lines;\noverride define red_through(s: Ship, l: set of Cell): bool =\n"
       "  crosses(s, l) and not first_on(s, l);",
       "lines_red_through_last.rules", true},
      {"2 * VV == P - Z + 9;", "2 * VV == P - Z + 10;", "lines_wrong_constant.rules", false},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    dsl::SourceSet sources;
    auto p = broken_lines(c.from, c.to, c.file, sources);
    verifier::Options o;
    o.timeout_seconds = 60;
    o.only = {"coloured_lines"};
    auto rs = verifier::verify(*p, sources, o);
    const auto& r = named(rs, "coloured_lines");
    INFO(verifier::result_text(r, false));
    REQUIRE(r.verdict == verifier::Verdict::Refuted);
    REQUIRE(r.board);
    auto [in_set, holds] = interpret_on(*p, sources, "coloured_lines", r.board->state);
    CHECK(in_set);
    CHECK_FALSE(holds);
    if (c.enumerate) CHECK_FALSE(brute(*p, sources, property(*p, "coloured_lines")).all);
  }
}

TEST_CASE("fleets a symmetry maps onto itself: the finds agree with a direct count on a 5x5 board") {
  // The tiny fleet (a ship of 2 cells, one of 1) on a 5x5 board, where some fleets are
  // symmetric (both ships on the middle column, for one), with the finds of smyoz.rules.
  std::string text = slurp(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules");
  text.replace(text.find("board 4 x 4;"), 12, "board 5 x 5;");
  // The section of smyoz.rules as it stands, its kinds being the tiny fleet's lengths.
  const std::string smyoz = slurp(std::string(RULEBOOK_SOURCE_DIR) + "/variants/smyoz/smyoz.rules");
  const size_t from = smyoz.find("type Symmetry"), to = smyoz.find("metric moored_ships");
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  text += "\ndefine kind(s: Ship): int = ship_length(s);\n" + smyoz.substr(from, to - from);
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("symmetric_fleet.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  const ir::StateVar* fleet = nullptr;
  for (const auto& v : p->vars)
    if (v.name == "fleet") fleet = &v;
  REQUIRE(fleet);
  constexpr int N = 5;
  const uint32_t values = p->domains[size_t(fleet->domain)].size;  // none, then anchor + 25 * dir
  REQUIRE(values == 1 + N * N * 2);
  // The cells of a ship of `length` from its stored index, by hand (empty off the board).
  auto cells_of = [&](uint32_t index, int length) {
    std::set<std::pair<int, int>> out;
    if (index == 0) return out;
    const int anchor = int(index - 1) % (N * N), dir = int(index - 1) / (N * N);
    const int x = anchor % N, y = anchor / N;
    for (int k = 0; k < length; ++k) out.insert(dir == 0 ? std::pair{x + k, y} : std::pair{x, y + k});
    for (const auto& [cx, cy] : out)
      if (cx >= N || cy >= N) return std::set<std::pair<int, int>>{};
    return out;
  };
  using Map = std::pair<int, int> (*)(int, int);
  const std::pair<const char*, Map> symmetries[] = {
      {"quarter_turn_fleet", [](int x, int y) { return std::pair{N - 1 - y, x}; }},
      {"half_turn_fleet", [](int x, int y) { return std::pair{N - 1 - x, N - 1 - y}; }},
      {"three_quarter_turn_fleet", [](int x, int y) { return std::pair{y, N - 1 - x}; }},
      {"left_right_fleet", [](int x, int y) { return std::pair{N - 1 - x, y}; }},
      {"top_bottom_fleet", [](int x, int y) { return std::pair{x, N - 1 - y}; }},
      {"diagonal_fleet", [](int x, int y) { return std::pair{y, x}; }},
      {"antidiagonal_fleet", [](int x, int y) { return std::pair{N - 1 - y, N - 1 - x}; }},
  };
  verifier::Options o;
  o.timeout_seconds = 30;
  const auto results = verifier::verify(*p, sources, o);
  int symmetric_kinds = 0;
  for (const auto& [name, map] : symmetries) {
    INFO(name);
    // Every legal complete fleet, and whether the symmetry maps each ship length's cells
    // onto themselves.
    int64_t fixed = 0, fleets = 0;
    std::vector<uint8_t> state(p->state_bytes, 0);
    for (uint32_t a = 0; a < values; ++a) {
      for (uint32_t b = 0; b < values; ++b) {
        ir::store_index(state.data(), *fleet, 0, a);
        ir::store_index(state.data(), *fleet, 1, b);
        const auto [in, closed] = interpret_on(*p, sources, name, state);
        if (!in) continue;
        ++fleets;
        bool is_fixed = true;
        for (const auto& [index, length] : {std::pair{a, 2}, std::pair{b, 1}}) {
          const auto cells = cells_of(index, length);
          std::set<std::pair<int, int>> image;
          for (const auto& [x, y] : cells) image.insert(map(x, y));
          is_fixed = is_fixed && image == cells;
        }
        CHECK(closed == is_fixed);  // the rules' closure is the symmetry's fixed fleets
        fixed += is_fixed;
      }
    }
    CHECK(fleets > 0);
    const auto& r = named(results, name);
    CHECK(r.verdict == (fixed > 0 ? verifier::Verdict::Found : verifier::Verdict::None));
    symmetric_kinds += fixed > 0;
  }
  CHECK(symmetric_kinds > 0);  // some symmetries fix fleets here, so "found" is exercised
  CHECK(symmetric_kinds < 7);  // and some do not
}

// A criterion is asked as a prove: the same verdict against brute force, but a criterion
// not met is a finding, not a failure (prove exits 0 on it).
TEST_CASE("a criterion gets a prove's verdict, and not met is no failure") {
  std::string text = slurp(std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_fleet.rules");
  text += "\nprove never_moored \"no ship on the rim\" over boards where fleet_complete: KK == 0;\n"
          "criterion never_moored_criterion \"no ship on the rim\" over boards where fleet_complete: KK == 0;\n"
          "criterion complete_criterion \"complete\" over boards where fleet_complete: fleet_complete;\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("criterion_fleet.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  verifier::Options o;
  o.timeout_seconds = 30;
  o.only = {"never_moored", "never_moored_criterion", "complete_criterion"};
  auto rs = verifier::verify(*p, sources, o);
  for (const std::string name : {"never_moored_criterion", "complete_criterion"}) {
    const ir::Property& prop = property(*p, name);
    CHECK(prop.kind == ir::PropertyKind::Criterion);
    Brute b = brute(*p, sources, prop);
    const auto& r = named(rs, name);
    INFO(verifier::result_text(r, false));
    CHECK(r.verdict == (b.all ? verifier::Verdict::Proved : verifier::Verdict::Refuted));
    CHECK_FALSE(r.failed());
  }
  const auto& not_met = named(rs, "never_moored_criterion");
  REQUIRE(not_met.verdict == verifier::Verdict::Refuted);
  REQUIRE(not_met.board);
  CHECK_FALSE(interpret_on(*p, sources, "never_moored_criterion", not_met.board->state).second);
  CHECK(verifier::result_text(not_met, false).rfind("criterion never_moored_criterion: not met", 0) == 0);
  CHECK(verifier::result_text(named(rs, "complete_criterion"), false).rfind("criterion complete_criterion: met", 0) == 0);
  // The same question as a prove fails.
  const auto& refuted = named(rs, "never_moored");
  CHECK(refuted.verdict == verifier::Verdict::Refuted);
  CHECK(refuted.failed());
}

TEST_CASE("a derive erring on every element is no constant, and its set is not called empty") {
  // The board rule leaves setting = 1, where 7 / (setting - 1) divides by zero: no element
  // has a value, but the set has one. Read as "the set is empty", it made the criterion
  // over the same set vacuous (found by the random programs, seed 13085).
  const std::string text =
      "game \"T\";\nboard 2 x 2;\nplayers 1;\nsetup setting: 0..1 = 1;\nstate mark: Cell -> 0..1;\n"
      "rule positive: setting != 0;\n"
      "phase play { move put(c: Cell) requires mark[c] == 0; { mark[c] := 1; } }\n"
      "derive quotient over boards: 7 / (setting - 1);\n"
      "criterion always over boards: not (not true);\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("errs.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  verifier::Options o;
  o.timeout_seconds = 60;
  const auto rs = verifier::verify(*p, sources, o);
  const verifier::Result& q = named(rs, "quotient");
  CHECK(q.verdict == verifier::Verdict::NotConstant);
  REQUIRE(q.board);
  CHECK(q.detail.find("cannot be evaluated") != std::string::npos);
  CHECK(named(rs, "always").verdict == verifier::Verdict::Proved);
}
