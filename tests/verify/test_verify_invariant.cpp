// Invariants proved by induction on small rule files: a conservation fact proved, a true
// fact that is not inductive alone (and proved once the conservation fact is), a false one
// refuted at the start, one broken only by a stuck block or by a phase transition, and the
// boards of other properties read against the proved invariants (`over reachable`).
#include <regex>
#include <string>

#include <catch2/catch.hpp>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "verify_testing.h"

using namespace rulebook;
using verify_testing::named;
using verifier::Verdict;

namespace {

const std::string kTiny = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/tiny_placement.rules";

std::vector<verifier::Result> prove_text(const std::string& text) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(kTiny, text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE_FALSE(diags.has_errors());
  verifier::Options o;
  o.timeout_seconds = 60;
  return verifier::verify(*p, sources, o);
}

/// The tiny game's text with `from` replaced by `to` (which must occur).
std::string edited(const std::string& from, const std::string& to) {
  std::string text = verify_testing::slurp(kTiny);
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// The tiny game's rules without its properties, then `props`.
std::string with_properties(const std::string& props) {
  std::string text = verify_testing::slurp(kTiny);
  text = text.substr(0, text.find("// True in every game"));
  return text + props;
}

}  // namespace

TEST_CASE("a conservation invariant is proved; a true fact alone is not inductive until it is assumed") {
  const auto rs = prove_text(verify_testing::slurp(kTiny));
  const auto& early = named(rs, "at_most_two_early");
  INFO(verifier::result_text(early, false));
  CHECK(early.verdict == Verdict::NotInductive);
  CHECK(early.detail.find("not inductive") != std::string::npos);
  CHECK(early.detail.find("move place") != std::string::npos);
  REQUIRE(early.board);
  CHECK(early.board->move.find("place(") != std::string::npos);
  const auto& conserved = named(rs, "conserved");
  INFO(verifier::result_text(conserved, false));
  CHECK(conserved.verdict == Verdict::Proved);
  CHECK(named(rs, "at_most_two").verdict == Verdict::Proved);
}

TEST_CASE("an invariant false in the start state is refuted there, with the start board") {
  const auto rs = prove_text(verify_testing::slurp(kTiny));
  const auto& r = named(rs, "hands_empty");
  INFO(verifier::result_text(r, false));
  CHECK(r.verdict == Verdict::Refuted);
  CHECK(r.failed());
  REQUIRE(r.board);
  CHECK(r.board->move.empty());
  CHECK(r.detail.find("start state") != std::string::npos);
}

TEST_CASE("boards of other properties are read against the proved invariants; over reachable assumes them") {
  const auto rs = prove_text(verify_testing::slurp(kTiny));
  const auto& boards = named(rs, "few_pieces");
  INFO(verifier::result_text(boards, false));
  REQUIRE(boards.verdict == Verdict::Refuted);
  REQUIRE(boards.board);
  REQUIRE(boards.violates);
  // The counterexample gives a player more pieces than they own: no game reaches it.
  CHECK(std::find(boards.violates->begin(), boards.violates->end(), "conserved") != boards.violates->end());
  CHECK(verifier::result_text(boards, false).find("not a reachable board") != std::string::npos);
  const auto& reachable = named(rs, "few_pieces_reachable");
  INFO(verifier::result_text(reachable, false));
  CHECK(reachable.verdict == Verdict::Proved);
  CHECK(reachable.set.find("proved invariant") != std::string::npos);
  // The start board of the refuted invariant satisfies every proved one.
  const auto& start = named(rs, "hands_empty");
  REQUIRE(start.violates);
  CHECK(start.violates->empty());
}

TEST_CASE("an invariant broken only by a stuck block is not inductive; without the block it is proved") {
  const std::string conserved =
      "invariant exact: all p in players: on_board(p) + in_hand[p] == pieces_each;\n";
  // Without sacrifices and captures, only the stuck block takes pieces off.
  std::string base = with_properties(conserved);
  base = base.replace(base.find("  move sacrifice"), std::string("  move sacrifice\n    requires in_hand[mover] > 0;\n  {\n    in_hand[mover] -= 1;\n  }\n").size(), "");
  const size_t cap = base.find("  move capture(c: Cell)");
  REQUIRE(cap != std::string::npos);
  base = base.replace(cap, base.find("  when stuck") - cap, "");
  {
    const auto rs = prove_text(base);
    const auto& r = named(rs, "exact");
    INFO(base << "\n" << verifier::result_text(r, false));
    CHECK(r.verdict == Verdict::NotInductive);
    CHECK(r.detail.find("stuck block of phase battle") != std::string::npos);
  }
  {
    std::string kept = base;
    const size_t at = kept.find("    for c in cells where owner[c] == mover {");
    REQUIRE(at != std::string::npos);
    kept = kept.replace(at, std::string("    for c in cells where owner[c] == mover {\n      owner[c] := none;\n    }\n").size(), "");
    const auto rs = prove_text(kept);
    const auto& r = named(rs, "exact");
    INFO(kept << "\n" << verifier::result_text(r, false));
    CHECK(r.verdict == Verdict::Proved);
  }
}

namespace {

/// `phase == P` as an invariant of `p` (the language has no expression for the current
/// phase; the invariants the verifier finds read it).
void add_phase_invariant(ir::Program& p, const std::string& name, int phase) {
  auto type = [](int d) {
    auto t = std::make_shared<ir::Type>();
    t->domain = d;
    return t;
  };
  auto e = std::make_unique<ir::Expr>();
  e->op = ir::Op::Eq;
  e->type = type(ir::kBoolDomain);
  auto cur = std::make_unique<ir::Expr>();
  cur->op = ir::Op::Phase;
  cur->type = type(ir::kPhaseDomain);
  auto k = std::make_unique<ir::Expr>();
  k->op = ir::Op::Const;
  k->value = phase;
  k->type = type(ir::kPhaseDomain);
  e->args.push_back(std::move(cur));
  e->args.push_back(std::move(k));
  ir::Property prop;
  prop.kind = ir::PropertyKind::Invariant;
  prop.name = name;
  prop.expr = std::move(e);
  p.properties.push_back(std::move(prop));
}

verifier::Result phase_stays(const std::string& text) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(kTiny, text.substr(0, text.find("// True in every game")), sources, diags);
  INFO(diags.render(sources));
  REQUIRE_FALSE(diags.has_errors());
  add_phase_invariant(*p, "stays", 0);
  verifier::Options o;
  o.timeout_seconds = 60;
  const auto rs = verifier::verify(*p, sources, o);
  REQUIRE(rs.size() == 1);
  INFO(text << "\n" << verifier::result_text(rs[0], false));
  return rs[0];
}

}  // namespace

TEST_CASE("phase transitions, goto and end conditions are steps of the induction, in the engines' order") {
  const std::string tiny = verify_testing::slurp(kTiny);
  // The transition to battle breaks it (no move's block does).
  const auto by_transition = phase_stays(tiny);
  CHECK(by_transition.verdict == Verdict::NotInductive);
  // `end when` holds first whenever the transition would: the game ends in placement.
  CHECK(phase_stays(edited("end when (count p in players where out(p)) >= 1;", "end when placement_over;")).verdict ==
        Verdict::Proved);
  // Without the transition nothing leaves placement; a goto in a move's block does.
  std::string text = edited("until placement_over -> battle;", "");
  CHECK(phase_stays(text).verdict == Verdict::Proved);
  text = text.replace(text.find("    in_hand[mover] -= 1;\n  }\n\n  move sacrifice"), std::string("    in_hand[mover] -= 1;\n").size(),
                      "    in_hand[mover] -= 1;\n    goto battle;\n");
  const auto by_goto = phase_stays(text);
  CHECK(by_goto.verdict == Verdict::NotInductive);
  CHECK(by_goto.detail.find("move place") != std::string::npos);
}

TEST_CASE("invariants found from random games: on board + in hand == pieces per player, proved") {
  // Without sacrifices and captures a piece is either in hand or on the board.
  std::string text = with_properties("");
  text = text.replace(text.find("  move sacrifice"), std::string("  move sacrifice\n    requires in_hand[mover] > 0;\n  {\n    in_hand[mover] -= 1;\n  }\n").size(), "");
  const size_t cap = text.find("  move capture(c: Cell)");
  text = text.replace(cap, text.find("  when stuck") - cap, "");
  const size_t stuck = text.find("    for c in cells where owner[c] == mover {");
  text = text.replace(stuck, std::string("    for c in cells where owner[c] == mover {\n      owner[c] := none;\n    }\n").size(), "");
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(kTiny, text, sources, diags);
  REQUIRE_FALSE(diags.has_errors());
  verifier::Options o;
  o.candidate_games = 10;
  const auto rs = verifier::verify(*p, sources, o);
  bool conservation = false;
  std::string all;
  for (const auto& r : rs) {
    all += verifier::result_text(r, false);
    CHECK(r.found);
    CHECK_FALSE(r.failed());
    if (r.description == "all p in players: (count c in cells where owner[c] == p) + in_hand[p] == 2") {
      conservation = true;
      CHECK(r.verdict == Verdict::Proved);
    }
  }
  INFO(all);
  CHECK(conservation);
  // That the game is in exactly one phase holds on every sample too, but the phase's type
  // says so: it is not proposed (its induction would run the engine's steps after every
  // move for nothing).
  for (const auto& r : rs)
    CHECK(r.description != "(if phase == placement then 1 else 0) + (if phase == battle then 1 else 0) == 1");
  CHECK(rs.size() >= 1);
}
