// The boards the verifier shows for the shipped 6x6 Garnsi-Malom files (witnesses, bounds'
// boards, counterexamples) are boards a game can have: each satisfies every invariant the
// run proved (read by the interpreter), and no player has more pieces on the board and in
// hand than they own at the start. Checked on fresh verifier runs, not on reports/.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "verify_testing.h"

using namespace rulebook;
using verifier::Verdict;

namespace {

const std::string kDir = std::string(RULEBOOK_SOURCE_DIR) + "/variants/garnsi-malom";

const ir::StateVar& var(const ir::Program& p, const std::string& name) {
  for (const ir::StateVar& v : p.vars)
    if (v.name == name) return v;
  FAIL("no state variable " << name);
  return p.vars.front();
}

/// Per player: the pieces on the board plus those in hand, in `state`.
std::vector<int64_t> pieces(const ir::Program& p, const uint8_t* state) {
  const ir::StateVar& owner = var(p, "owner");
  const ir::StateVar& hand = var(p, "in_hand");
  std::vector<int64_t> n(size_t(p.players), 0);
  for (uint32_t c = 0; c < owner.count; ++c) {
    const int64_t who = ir::domain_value(p.domains, owner.domain, ir::load_index(state, owner, c));
    if (who != ir::kNone && who >= 0 && who < p.players) ++n[size_t(who)];
  }
  for (uint32_t q = 0; q < hand.count && q < uint32_t(p.players); ++q)
    n[q] += ir::domain_value(p.domains, hand.domain, ir::load_index(state, hand, q));
  return n;
}

/// The 6x6 files: their properties are checked in seconds. The 9x9 files state the same
/// properties (garnsi-9.rules, garnsi-lesson.rules) and take minutes each.
std::vector<std::string> garnsi_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kDir))
    if (e.path().extension() == ".rules" && e.path().filename().string().find("6x6") != std::string::npos)
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every Garnsi proof board satisfies the proved invariants and gives no player more pieces than they own") {
  const std::vector<std::string> files = garnsi_files();
  REQUIRE(files.size() >= 3);
  size_t boards = 0;
  for (const std::string& file : files) {
    INFO(file);
    dsl::SourceSet sources;
    auto p = verify_testing::load(file, sources);
    REQUIRE(p);
    compiler::Interpreter in(*p, sources);
    // What each player owns: the pieces of the start state (seed 1), on the board or in hand.
    std::vector<uint8_t> start(p->state_bytes, 0);
    engine::Setup setup;
    setup.seed = 1;
    REQUIRE(in.setup(start.data(), setup).ok);
    const std::vector<int64_t> owned = pieces(*p, start.data());
    verifier::Options o;
    o.timeout_seconds = 120;
    o.rlimit = 20000000;
    const std::vector<verifier::Result> rs = verifier::verify(*p, sources, o);
    std::vector<const ir::Property*> proved;
    for (const verifier::Result& r : rs)
      if (r.kind == ir::PropertyKind::Invariant && r.verdict == Verdict::Proved)
        for (const ir::Property& prop : p->properties)
          if (prop.name == r.name) proved.push_back(&prop);
    for (const verifier::Result& r : rs) {
      if (!r.board || r.kind == ir::PropertyKind::Invariant) continue;
      INFO(verifier::result_text(r, false));
      ++boards;
      std::vector<uint8_t> s = r.board->state;
      REQUIRE(s.size() == size_t(p->state_bytes));
      // (a) every proved invariant holds on it, as the interpreter reads it.
      for (const ir::Property* inv : proved) {
        INFO("invariant " << inv->name);
        compiler::Evaluator run(in);
        run.start(s.data(), std::max(64, inv->locals + 1));
        CHECK(verify_testing::truth(run, *inv->expr));
      }
      if (r.violates) CHECK(r.violates->empty());
      // (b) nobody has more pieces than at the start.
      const std::vector<int64_t> have = pieces(*p, s.data());
      for (size_t q = 0; q < owned.size(); ++q) {
        INFO("player " << q + 1 << ": " << have[q] << " pieces, owns " << owned[q]);
        CHECK(have[q] <= owned[q]);
      }
    }
  }
  CHECK(boards >= files.size());
}
