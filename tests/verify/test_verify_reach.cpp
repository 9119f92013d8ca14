// Boards the verifier shows searched for in play (verifier/reach_boards.h), and the alerts
// read off the results (verifier/proof_alerts.h): a witness reached in two plies with its
// line, one no game reaches, one beyond a small budget, one violating a proved invariant,
// and an empty `depends` core.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "verifier/proof_alerts.h"
#include "verifier/reach_boards.h"
#include "verify_testing.h"

using namespace rulebook;
using verify_testing::named;
using verifier::Verdict;

namespace {

const std::string kDir = std::string(RULEBOOK_SOURCE_DIR) + "/tests/";

struct Proved {
  dsl::SourceSet sources;
  std::optional<ir::Program> program;
  std::vector<verifier::Result> results;
  std::vector<explorer::Alert> alerts;
};

void prove(const std::string& path, uint64_t budget, Proved& out) {
  out.program = verify_testing::load(kDir + path, out.sources);
  verifier::Options o;
  o.timeout_seconds = 60;
  out.results = verifier::verify(*out.program, out.sources, o);
  const compiler::Interpreter in(*out.program, out.sources);
  verifier::reach_boards(in, out.results, {budget, nullptr});
  out.alerts = verifier::proof_alerts(out.results, *out.program);
}

const explorer::Alert* alert(const std::vector<explorer::Alert>& as, const std::string& code, const std::string& subject) {
  for (const explorer::Alert& a : as)
    if (a.code == code && a.subject == subject) return &a;
  return nullptr;
}

}  // namespace

TEST_CASE("a witness two plies from the setup is shown with its line, which the interpreter replays to it") {
  Proved p;
  prove("golden/lint/unreachable_witness.rules", 2000, p);
  const auto& two = named(p.results, "placed_two");
  INFO(verifier::result_text(two, false));
  REQUIRE(two.verdict == Verdict::Found);
  REQUIRE(two.reach);
  CHECK(two.reach->reached);
  REQUIRE(two.reach->line.size() == 2);
  CHECK(verifier::result_text(two, false).find("reached by: place(") != std::string::npos);
  // Replayed: the position after the line holds the witness's owners.
  const compiler::Interpreter in(*p.program, p.sources);
  std::vector<uint8_t> s(p.program->state_bytes);
  REQUIRE(in.setup(s.data(), engine::Setup{}).ok);
  for (const std::string& text : two.reach->line) {
    std::vector<engine::Move> moves;
    REQUIRE(in.legal_moves(s.data(), moves).ok);
    auto m = std::find_if(moves.begin(), moves.end(), [&](const engine::Move& x) { return in.move_text(x) == text; });
    REQUIRE(m != moves.end());
    REQUIRE(in.apply(s.data(), *m).ok);
  }
  REQUIRE(!two.board->vars.empty());
  for (int v : two.board->vars) {
    const ir::StateVar& var = p.program->vars[size_t(v)];
    for (uint32_t i = 0; i < var.count; ++i)
      CHECK(ir::load_index(s.data(), var, i) == ir::load_index(two.board->state.data(), var, i));
  }
  // The board shown is the position the line reaches, every element of it.
  CHECK(s == two.board->state);
  CHECK(alert(p.alerts, "unreachable-witness", "placed_two") == nullptr);
}

TEST_CASE("a reached board shows what play counted where the property reads nothing") {
  Proved p;
  prove("verify/reach_counter.rules", 2000, p);
  const auto& r = named(p.results, "two_of_each");
  INFO(verifier::result_text(r, false));
  REQUIRE(r.verdict == Verdict::Found);
  REQUIRE(r.reach);
  REQUIRE(r.reach->reached);
  CHECK(r.reach->line.size() == 4);
  // Four placements count four, whatever the solver chose for the counter.
  CHECK(verifier::result_text(r, false).find("placed = 4") != std::string::npos);
}

TEST_CASE("a witness no game reaches: every position searched, a warning") {
  Proved p;
  prove("golden/lint/unreachable_witness.rules", 2000, p);
  const auto& all = named(p.results, "one_holds_all");
  INFO(verifier::result_text(all, false));
  REQUIRE(all.verdict == Verdict::Found);
  REQUIRE(all.reach);
  CHECK_FALSE(all.reach->reached);
  CHECK(all.reach->exhausted);
  CHECK(verifier::result_text(all, false).find("not reachable from its setup") != std::string::npos);
  const explorer::Alert* a = alert(p.alerts, "unreachable-witness", "one_holds_all");
  REQUIRE(a);
  CHECK(a->severity == explorer::Alert::Severity::Warning);
  CHECK(a->span.file < p.sources.size());
  CHECK(std::find(a->evidence.begin(), a->evidence.end(), all.reach ? verifier::board_reach_text(all) : "") !=
        a->evidence.end());
}

TEST_CASE("a witness beyond the budget is not shown reachable: a note giving the states searched") {
  Proved p;
  prove("golden/lint/unreachable_witness.rules", 2, p);
  const auto& two = named(p.results, "placed_two");
  INFO(verifier::result_text(two, false));
  REQUIRE(two.reach);
  CHECK_FALSE(two.reach->reached);
  CHECK_FALSE(two.reach->exhausted);
  CHECK(two.reach->states == 2);
  CHECK(verifier::result_text(two, false).find("not shown reachable (searched 2 states)") != std::string::npos);
  const explorer::Alert* a = alert(p.alerts, "unreachable-witness", "placed_two");
  REQUIRE(a);
  CHECK(a->severity == explorer::Alert::Severity::Note);
}

TEST_CASE("a counterexample violating a proved invariant is not searched for, and is a warning") {
  Proved p;
  prove("verify/tiny_placement.rules", 2000, p);
  const auto& few = named(p.results, "few_pieces");
  INFO(verifier::result_text(few, false));
  REQUIRE(few.verdict == Verdict::Refuted);
  REQUIRE(few.violates);
  CHECK_FALSE(few.violates->empty());
  CHECK_FALSE(few.reach);
  const explorer::Alert* a = alert(p.alerts, "unreachable-witness", "few_pieces");
  REQUIRE(a);
  CHECK(a->severity == explorer::Alert::Severity::Warning);
  CHECK(a->message.find("not a reachable board") != std::string::npos);
  // The invariant's own start board is the setup itself, and no alert.
  const auto& start = named(p.results, "hands_empty");
  REQUIRE(start.reach);
  CHECK(start.reach->reached);
  CHECK(start.reach->line.empty());
  CHECK(alert(p.alerts, "unreachable-witness", "hands_empty") == nullptr);
}

TEST_CASE("a depends whose core is empty is an alert; an allow acknowledges it, one matching nothing is noted") {
  Proved p;
  prove("golden/lint/empty_depends_core.rules", 2000, p);
  const auto& d = named(p.results, "stone_placed");
  INFO(verifier::result_text(d, false));
  CHECK(d.verdict == Verdict::Proved);
  const verifier::Result* dep = nullptr;
  for (const auto& r : p.results)
    if (r.kind == ir::PropertyKind::Depends) dep = &r;
  REQUIRE(dep);
  CHECK(dep->verdict == Verdict::Depends);
  CHECK(dep->needs.empty());
  const explorer::Alert* a = alert(p.alerts, "empty-depends-core", "stone_placed");
  REQUIRE(a);
  CHECK(a->severity == explorer::Alert::Severity::Warning);
  CHECK_FALSE(a->acknowledged);
  CHECK(explorer::unacknowledged(p.alerts) == 1);

  std::string text = verify_testing::slurp(kDir + "golden/lint/empty_depends_core.rules");
  text += "allow empty-depends-core stone_placed \"kept to show the alert\";\n";
  // An acknowledgment of a property alert that the verdicts do not raise: a note.
  text += "allow unreachable-witness stone_placed \"stale\";\n";
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto prog = compiler::load_program_text(kDir + "golden/lint/empty_depends_core.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE_FALSE(diags.has_errors());
  verifier::Options o;
  const auto rs = verifier::verify(*prog, sources, o);
  const auto as = verifier::proof_alerts(rs, *prog);
  const explorer::Alert* b = alert(as, "empty-depends-core", "stone_placed");
  REQUIRE(b);
  CHECK(b->acknowledged);
  CHECK(explorer::unacknowledged(as) == 0);
  const explorer::Alert* stale = alert(as, "unused-allow", "unreachable-witness stone_placed");
  REQUIRE(stale);
  CHECK(stale->severity == explorer::Alert::Severity::Note);
}
