// The verifier reads integers as the engines compute them: Z3's integers are unbounded, so
// an operation whose result leaves 64 bits is an error condition, as it is an error in
// every engine, not a value that makes a property hold. A prove whose expression errs on a
// board of the set is refuted with that board, as with a division by zero.
#include <string>

#include <catch2/catch.hpp>

#include "compiler/lower/lower.h"
#include "verifier/verify.h"

using namespace rulebook;

namespace {

/// A board of three cells, each holding 0..3; the property on the last line.
verifier::Result one(const std::string& property) {
  const std::string text =
      "game \"Ints\";\nboard 1 x 3;\nplayers 1;\n"
      "type V = 0..3;\nstate v: Cell -> V;\n"
      "phase p {\n  move m(c: Cell) requires v[c] == 0; { v[c] := 1; }\n}\n" +
      property + "\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("test.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  verifier::Options o;
  o.timeout_seconds = 60;
  auto rs = verifier::verify(*p, sources, o);
  REQUIRE(rs.size() == 1);
  INFO(verifier::result_text(rs[0], false));
  return rs[0];
}

}  // namespace

TEST_CASE("a product that would hold in unbounded integers is an error where it overflows",
          "[verify][integers]") {
  // k * 2^62 >= 0 holds for k in 0..3 in mathematics; 2 * 2^62 does not fit in 64 bits.
  const auto r = one(
      "prove big over boards: all c in cells: v[c] * 4611686018427387904 >= 0;");
  CHECK(r.verdict == verifier::Verdict::Refuted);
  REQUIRE(r.board);
  CHECK(r.board->text.find_first_of("23") != std::string::npos);  // a cell of 2 or 3 overflows
  // The same with factors that fit is proved (no overflow condition to refute it).
  CHECK(one("prove small over boards: all c in cells: v[c] * 1000 >= 0;").verdict ==
        verifier::Verdict::Proved);
}

TEST_CASE("a sum whose running total overflows is an error, as in the engines", "[verify][integers]") {
  // Three cells holding 2^62 + value: the second term already leaves 64 bits.
  const auto r = one(
      "prove total over boards: (sum c in cells: v[c] + 4611686018427387904) >= 0;");
  CHECK(r.verdict == verifier::Verdict::Refuted);
}

TEST_CASE("INT64_MIN / -1 is an error to the verifier, INT64_MIN % -1 is 0", "[verify][integers]") {
  const auto d = one(
      "prove quotient over boards: all c in cells where v[c] == 0: "
      "(-9223372036854775807 - 1) / (v[c] - 1) != 0;");
  CHECK(d.verdict == verifier::Verdict::Refuted);
  CHECK(one("prove remainder over boards: all c in cells where v[c] == 0: "
            "(-9223372036854775807 - 1) % (v[c] - 1) == 0;").verdict == verifier::Verdict::Proved);
}
