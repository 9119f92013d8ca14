// Counts after an invariant's step read as changes: Garnsi-Malom's conservation fact is
// proved by induction on a 4 x 4 board (placement, steps, jumps, captures and the
// zugzwang block that clears a stuck player's cells), and the verifier's own candidates
// prove it too. A parity over Domineering's move of 256 instances: symbolic, then split.
#include <string>

#include <catch2/catch.hpp>

#include "verify_testing.h"

using namespace rulebook;
using verify_testing::named;
using verifier::Verdict;

namespace {

const std::string kGarnsi = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/garnsi_4x4.rules";

}  // namespace

TEST_CASE("Garnsi-Malom's conservation fact is inductive on a 4 x 4 board, the zugzwang block included", "[invariant]") {
  dsl::SourceSet sources;
  auto p = verify_testing::load(kGarnsi, sources);
  verifier::Options o;
  o.timeout_seconds = 600;
  o.rlimit = 30000000;
  const auto rs = verifier::verify(*p, sources, o);
  const auto& r = named(rs, "conserved_pieces");
  INFO(verifier::result_text(r, false));
  CHECK(r.verdict == Verdict::Proved);
  CHECK(r.detail.find("6 steps") != std::string::npos);  // 5 moves and the stuck block
}

TEST_CASE("the verifier's own candidates prove the conservation fact on the 4 x 4 board", "[invariant]") {
  dsl::SourceSet sources;
  auto p = verify_testing::load(kGarnsi, sources);
  verifier::Options o;
  o.candidate_games = 5;
  o.candidate_seconds = 600;  // the resource limit decides, not a loaded machine's clock
  o.candidate_rlimit = 15000000;  // above the default: the counts of found candidates take more
  o.only = {"conserved_pieces"};
  const auto rs = verifier::verify(*p, sources, o);
  bool seen = false;
  for (const auto& r : rs) {
    if (!r.found || r.description != "all p in players: (count c in cells where owner[c] == p) + in_hand[p] <= 4") continue;
    seen = true;
    INFO(verifier::result_text(r, false));
    CHECK(r.verdict == Verdict::Proved);
  }
  CHECK(seen);
}

TEST_CASE("a parity invariant over a move of a few hundred instances: asked symbolically, then split", "[invariant]") {
  // Domineering on 4 x 4 (tests/explore/rules/domineering.rules): a domino covers two cells,
  // so the covered cells are even. Its move has 256 parameter tuples, so the step is asked
  // first as one symbolic instance (where the parity needs case splits: unknown at 60 s
  // before the retry), then split, each instance's count after the count before plus 2.
  std::string text = verify_testing::slurp(std::string(RULEBOOK_SOURCE_DIR) + "/tests/explore/rules/domineering.rules");
  text += "\ninvariant even_cover: (count c in cells where covered[c]) % 2 == 0;\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("even_cover.rules", text, sources, diags);
  REQUIRE(p);
  verifier::Options o;
  o.timeout_seconds = 600;  // the resource limit decides
  o.rlimit = 40000000;
  const auto rs = verifier::verify(*p, sources, o);
  const auto& r = named(rs, "even_cover");
  INFO(verifier::result_text(r, false));
  CHECK(r.verdict == Verdict::Proved);
  // Half the units: the symbolic instance's share alone, not enough for the split one.
  o.rlimit = 20000000;
  const auto short_of = verifier::verify(*p, sources, o);
  CHECK(named(short_of, "even_cover").verdict == Verdict::Unknown);
}
