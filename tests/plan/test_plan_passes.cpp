// The engine plan's passes, each on the printed plan of a small rules program written
// here: what the pass decides, what it refuses and why, and that switching it off leaves
// the "no" answer (and the engine still agrees with the interpreter: see test_plan_off).
#include <catch2/catch.hpp>
#include <string>

#include "compiler/lower/lower.h"
#include "compiler/plan/engine_plan.h"
#include "tests/plan/plan_programs.h"

using namespace rulebook;

namespace {

using plan_test::kLined;
using plan_test::kRuled;
using plan_test::kShips;
using plan_test::kStones;

std::string printed(const char* text, const std::vector<std::string>& off = {}) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("plan.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  compiler::plan::PassSwitches switches;
  REQUIRE(compiler::plan::switch_off(off, switches).empty());
  return compiler::plan::print_plan(compiler::plan::make_plan(*p, switches), *p);
}

/// The lines of section `pass` of a printed plan.
std::string section(const std::string& plan, const std::string& pass) {
  const std::string head = "\n## " + pass;
  const size_t at = plan.find(head);
  if (at == std::string::npos) return "";
  const size_t end = plan.find("\n## ", at + head.size());
  return plan.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
}

bool has(const std::string& text, const std::string& part) {
  INFO(text);
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("plan: passes run in a fixed order and print a section each", "[plan]") {
  const std::string plan = printed(kStones);
  CHECK(has(plan, "passes off: none"));
  size_t last = 0;
  for (std::string_view pass : compiler::plan::pass_names()) {
    const size_t at = plan.find("\n## " + std::string(pass) + "\n");
    CHECK(at != std::string::npos);
    CHECK(at > last);
    last = at;
  }
  CHECK(printed(kStones) == plan);  // deterministic
}

TEST_CASE("plan: planes for a small variable asked which keys hold a value", "[plan]") {
  const std::string s = section(printed(kStones), "planes");
  CHECK(has(s, "stone: 3 planes over Cell (16 keys)"));
  // tally is asked the same question but has 41 values.
  CHECK(has(s, "tally: no planes: 41 values (at most 16)"));
  CHECK(!has(s, "turns"));
  CHECK(has(section(printed(kStones, {"planes"}), "planes (off)"), "switched off"));
}

TEST_CASE("plan: tables of pure defines over small domains", "[plan]") {
  const std::string s = section(printed(kStones), "define-tables");
  CHECK(has(s, "distance: table of 256 entries"));
  CHECK(has(s, "far: computed at each call: more than 4096 argument combinations"));
  CHECK(has(s, "seven: computed at each call: a literal"));
  CHECK(has(s, "taken: computed at each call: reads the state or the mover"));
  CHECK(has(section(printed(kStones, {"define-tables"}), "define-tables (off)"), "switched off"));
}

TEST_CASE("plan: parameterless defines remembered until a store", "[plan]") {
  const std::string s = section(printed(kStones), "remembered-defines");
  CHECK(has(s, "stones: slot 0, forgotten by stores into stone"));
  CHECK(has(s, "late: not remembered: constant time"));
  CHECK(has(s, "mine: not remembered: reads the mover"));
  CHECK(!has(s, "seven"));  // pure: nothing to forget
  CHECK(has(section(printed(kStones, {"remembered-defines"}), "remembered-defines (off)"),
            "switched off"));
}

TEST_CASE("plan: one-parameter defines scoped to an evaluation of the board rules", "[plan]") {
  const std::string s = section(printed(kRuled), "scoped-defines");
  CHECK(has(s, "crowd: remembered per argument while the board rules run"));
  CHECK(has(s, "here: not scoped: constant time"));
  // A set argument: remembered by its bits.
  const std::string lined = section(printed(kLined), "scoped-defines");
  CHECK(has(lined, "line_count: remembered per set argument (the first 32) while the board rules run"));
  CHECK(has(lined, "rival_near: remembered per set argument (the first 32) while the board rules run"));
  // Without board rules there is nothing to scope.
  CHECK(has(section(printed(kStones), "scoped-defines"), "nothing to decide"));
}

TEST_CASE("plan: board rules over pairs of keys answered from tables", "[plan]") {
  const std::string plan = printed(kShips);
  const std::string s = section(plan, "rule-tables");
  CHECK(has(s, "rule apart: tabulated per pair of keys over at"));
  // The verdict of a state takes the slot after the remembered defines' (none here).
  CHECK(has(s, "verdict of a state: slot 0, forgotten by stores into at"));
  // A rule reading cells around its key is not a function of the key's value alone.
  CHECK(has(section(printed(kRuled), "rule-tables"),
            "board rules not tabulated: rule roomy: reads the state otherwise than one variable at its keys"));
  CHECK(has(section(printed(kStones), "rule-tables"), "nothing to decide"));
  CHECK(has(section(printed(kShips, {"rule-tables"}), "rule-tables (off)"), "switched off"));
}

TEST_CASE("plan: tables for the rules over pairs of keys, code for the others", "[plan]") {
  const std::string after = section(printed(plan_test::kFleetRestAfter), "rule-tables");
  CHECK(has(after, "rule apart: tabulated per pair of keys over at"));
  CHECK(has(after, "rule rows: tabulated per pair of keys over at"));
  CHECK(has(after, "rule inside: tabulated per key over at"));
  CHECK(has(after, "rule limit: not of the form all $a in D: ...; checked by its code when the tables say the others hold"));
  CHECK(!has(after, "comes before a tabulated one"));
  const std::string before = section(printed(plan_test::fleet_rest_before().c_str()), "rule-tables");
  CHECK(has(before, "rule room: not of the form all $a in D: ...; checked by its code"));
  CHECK(has(before, "a rule checked by its code comes before a tabulated one: a board the tables reject is "
                    "checked by the code of every rule"));
}

TEST_CASE("plan: can() tested directly or remembered per player", "[plan]") {
  const std::string plan = printed(kStones);
  const std::string direct = section(plan, "can-direct");
  CHECK(has(direct, "wait: can() tests its conditions"));
  CHECK(has(direct, "put: not direct: has parameters"));
  const std::string memo = section(plan, "can-memo");
  CHECK(has(memo, "put: bits 0..1, forgotten by stores into stone, tally"));
  CHECK(!has(memo, "wait"));
  // With board rules a move's block runs for can(): never direct.
  CHECK(has(section(printed(kRuled), "can-direct"), "put: not direct: has parameters"));
  // can-direct off: every move is remembered.
  const std::string all_memo = section(printed(kStones, {"can-direct"}), "can-memo");
  CHECK(has(all_memo, "wait: bits 0..1, forgotten by stores into turns"));
  CHECK(has(all_memo, "put: bits 2..3"));
}

TEST_CASE("plan: can bits share the word of the remembered defines", "[plan]") {
  // kStones remembers one define (stones) and can(put) for two players: the can bits
  // move after the define's slot, so a store into stone forgets both by one write.
  const std::string shared = section(printed(kStones), "shared-known");
  CHECK(has(shared, "can bits 1..2 follow the 1 define slot in one word"));
  // Without remembered defines there is no word to share.
  CHECK(has(section(printed(kStones, {"remembered-defines"}), "shared-known"),
            "no define remembered: the can bits keep their word"));
  // Without remembered can() answers there is nothing to share.
  CHECK(has(section(printed(kStones, {"can-memo"}), "shared-known"), "no can() remembered: nothing to share"));
  // can-direct off: both moves remembered, four bits after the define's.
  CHECK(has(section(printed(kStones, {"can-direct"}), "shared-known"), "can bits 1..4 follow the 1 define slot"));
  CHECK(has(section(printed(kStones, {"shared-known"}), "shared-known (off)"), "switched off"));
}

TEST_CASE("plan: short blocks without loops inlined into the move's play", "[plan]") {
  const std::string blocks = section(printed(kStones), "inline-blocks");
  CHECK(has(blocks, "wait: block inlined (1 statements)"));
  CHECK(has(blocks, "put: block inlined (2 statements)"));
  // A loop in a branch keeps the block out of line.
  const char* looped = R"(
game "Looped";
board 3 x 3;
players 2;
state stone: Cell -> Player?;
state turns: 0..100;
phase play {
  move put(c: Cell)
    requires stone[c] == none;
  {
    stone[c] := mover;
    turns += 1;
    if turns > 4 {
      for d in cells where d != c { stone[d] := none; }
    }
  }
}
end when turns == 100;
)";
  CHECK(has(section(printed(looped), "inline-blocks"), "put: block called: its block loops"));
  CHECK(has(section(printed(kStones, {"inline-blocks"}), "inline-blocks (off)"), "switched off"));
}

TEST_CASE("plan: switches by name, all, and unknown names refused", "[plan]") {
  compiler::plan::PassSwitches s;
  CHECK(compiler::plan::switch_off({"can-memo", "planes"}, s).empty());
  CHECK(s.key() == "planes,can-memo");
  compiler::plan::PassSwitches all;
  CHECK(compiler::plan::switch_off({"all"}, all).empty());
  CHECK(all.off.size() == compiler::plan::pass_names().size());
  compiler::plan::PassSwitches bad;
  CHECK(has(compiler::plan::switch_off({"plane"}, bad), "unknown pass 'plane'"));
  const std::string off = printed(kStones, {"all"});
  for (std::string_view pass : compiler::plan::pass_names())
    CHECK(has(off, "## " + std::string(pass) + " (off)"));
}

TEST_CASE("plan: board maps evaluated for every cell", "[plan]") {
  const std::string s = section(printed(plan_test::kMaps), "board-maps");
  CHECK(has(s, "below: a shift by +4, 8 of 12 values map"));
  CHECK(has(s, "mirror: a table, 12 of 12 values map"));
  CHECK(has(s, "odd: no map: reads the state or the mover, loops, or fails somewhere"));
  CHECK(has(s, "held: no map"));
  CHECK(has(s, "far: no map"));
  CHECK(has(section(printed(plan_test::kMaps, {"board-maps"}), "board-maps (off)"), "switched off"));
}
