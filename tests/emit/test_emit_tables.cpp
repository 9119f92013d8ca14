// Tables the emitter makes for what reads no state or only a few entries of it: board rules
// answered per pair of keys, `where` filters of a binder and one other local, and conditions
// of move parameters. Each is checked against the interpreter on states a game reaches and
// on arbitrary states (rules broken, entries no move would store, conditions that fail with
// an error), where the tables must give way to the rules' own code.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"

using namespace rulebook;

namespace {

/// Ships on a small board, kept apart by rules over pairs of ships. Ships of two cells may
/// lie off the board (no `requires` keeps them on it), where they have no cells: the
/// `columns` rule then fails with an error ("min over nothing"), as does the `order` filter
/// for ship 3 (a division by zero) when ship 3 is the one placed.
constexpr const char* kFleet = R"(
game "Tables";
board 4 x 4;
players 1;
type Ship = 1..4;
type Placement = {anchor: Cell, dir: Orientation};
state fleet: Ship -> Placement?;
define ships: set of Ship = 1..4;
define length(s: Ship): int = if s <= 2 then 2 else 1;
define placed(s: Ship): bool = fleet[s] != none;
define placed_count: int = count s in ships where placed(s);
define cells_of(s: Ship): set of Cell =
  if fleet[s] == none then {} else segment(fleet[s].anchor, fleet[s].dir, length(s));
define ordered(s: Ship, c: Cell): bool =
  all t in ships where t < s and 12 / (s - 3) != 100 and length(t) == length(s):
    y(fleet[t].anchor) * width + x(fleet[t].anchor) < y(c) * width + x(c);

rule apart "ships do not touch":
  all s in ships, t in ships where s < t:
    no a in cells_of(s), b in cells_of(t): b == a or b in king(a);
rule columns "ships of two cells start in different columns":
  all s in ships, t in ships where s < t and placed(s) and placed(t) and length(s) == 2 and length(t) == 2:
    (min a in cells_of(s): x(a)) != (min b in cells_of(t): x(b));
rule inside "a ship of one cell is not in a corner":
  all s in ships where length(s) == 1: size(cells_of(s) & corner_cells) == 0;

phase placement {
  move place(s: Ship, c: Cell, o: Orientation)
    requires not placed(s);
    requires s == placed_count + 1;
    requires ordered(s, c);
    requires length(s) > 1 or o == horizontal;
  {
    fleet[s] := {anchor: c, dir: o};
  }
  until all s in ships: placed(s) -> end;
}
)";

struct Both {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  std::unique_ptr<engine::Engine> gen, interp;
  std::string source;

  explicit Both(const std::string& text) {
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("tables.rules", text, sources, diags);
    INFO(diags.render(sources));
    REQUIRE(p);
    program = std::make_shared<const ir::Program>(std::move(*p));
    source = compiler::emit_cpp(*program, sources).source;
    compiler::LoadedEngine e = compiler::load_engine(program, sources);
    INFO(e.status.message);
    REQUIRE(e.engine);
    gen = std::move(e.engine);
    interp = std::make_unique<compiler::Interpreter>(*program, sources);
  }

  int var(const std::string& name) const {
    for (size_t v = 0; v < program->vars.size(); ++v)
      if (program->vars[v].name == name) return int(v);
    FAIL("no variable " << name);
    return -1;
  }

  /// The legal moves of `state` agree, or both engines fail with the same message.
  void same_moves(const std::vector<uint8_t>& state) const {
    std::vector<engine::Move> a, b;
    const engine::Status x = gen->legal_moves(state.data(), a);
    const engine::Status y = interp->legal_moves(state.data(), b);
    INFO(interp->board_text(state.data()));
    REQUIRE(x.ok == y.ok);
    if (!x.ok) {
      CHECK(x.message == y.message);
      return;
    }
    REQUIRE(a == b);
  }

  /// `boards` arbitrary boards of the fleet (rules broken, ships off the board, entries no
  /// move would store), the legal moves of each compared: how many failed with an error.
  int arbitrary(int boards) const {
    const ir::StateVar& fleet = program->vars[size_t(var("fleet"))];
    const uint32_t values = program->domains[size_t(fleet.domain)].size;
    SplitMix64 rng(7);
    int failed = 0;
    for (int k = 0; k < boards; ++k) {
      std::vector<uint8_t> s(program->state_bytes);
      engine::Setup setup;
      REQUIRE(gen->setup(s.data(), setup).ok);
      const uint32_t placed = uint32_t(rng.below(fleet.count + 1));
      for (uint32_t i = 0; i < fleet.count; ++i)
        ir::store_index(s.data(), fleet, i, i < placed ? uint32_t(1 + rng.below(values - 1)) : 0);
      std::vector<engine::Move> moves;
      failed += !interp->legal_moves(s.data(), moves).ok;
      same_moves(s);
    }
    return failed;
  }

  /// Random games from seeds 1..`games`, both engines side by side: how many stopped on an
  /// error of the rules (the same in both), and how many ended.
  std::pair<int, int> play(uint64_t games) const {
    int errors = 0, finished = 0;
    for (uint64_t seed = 1; seed <= games; ++seed) {
      std::vector<uint8_t> s(program->state_bytes);
      engine::Setup setup;
      setup.seed = seed;
      REQUIRE(gen->setup(s.data(), setup).ok);
      SplitMix64 rng(seed);
      while (!interp->terminal(s.data())) {
        same_moves(s);
        std::vector<engine::Move> moves;
        if (!interp->legal_moves(s.data(), moves).ok) {
          ++errors;
          break;
        }
        const engine::Move m = moves[rng.below(moves.size())];
        std::vector<uint8_t> t = s;
        // Playing a move also asks whether the next player has a move: that may fail too.
        const engine::Status x = gen->apply(s.data(), m);
        const engine::Status y = interp->apply(t.data(), m);
        REQUIRE(x.ok == y.ok);
        CHECK(x.message == y.message);
        if (!x.ok) {
          ++errors;
          break;
        }
        REQUIRE(s == t);
      }
      finished += interp->terminal(s.data());
    }
    return {errors, finished};
  }
};

}  // namespace

TEST_CASE("board rules over pairs of entries are answered from tables", "[emit][tables]") {
  Both both(kFleet);
  CHECK(both.source.find("struct RuleTables") != std::string::npos);
  CHECK(both.source.find("rules_allow(g, key, allowed, decided)") != std::string::npos);

  SECTION("games: the same moves and states in both engines") {
    const auto [errors, finished] = both.play(300);
    // Both ways a game stops are seen: the rules' errors, and a full fleet.
    CHECK(errors > 0);
    CHECK(finished > 0);
  }

  SECTION("arbitrary boards: rules broken, ships off the board") {
    CHECK(both.arbitrary(3000) > 0);
  }
}

TEST_CASE("board rules reading other state keep their own code beside the tables", "[emit][tables]") {
  // A rule reading an entry at a key no quantifier binds is checked by its code, the others
  // from the tables; once ship 3 is placed it fails with an error when the columns of ships 1
  // and 2 add up to 5 (a division by zero). Put
  // before every tabulated rule, between them and after them: a board the tables reject
  // must still report the error of a rule before the one failing.
  const std::string first =
      "rule first \"ship 1 is placed first\": all s in ships where placed(s): placed(1) and (not placed(3) or 6 / (x(fleet[1].anchor) + x(fleet[2].anchor) - 5) != 7);\n";
  for (const char* before : {"rule apart", "rule inside", "phase placement"}) {
    INFO("the rule by its code before: " << before);
    std::string text = kFleet;
    text.replace(text.find(before), 0, first);
    Both both(text);
    CHECK(both.source.find("struct RuleTables") != std::string::npos);
    CHECK(both.source.find("bool rest_rules_hold(Game& g)") != std::string::npos);
    const auto [errors, finished] = both.play(300);
    CHECK(errors > 0);
    CHECK(finished > 0);
    CHECK(both.arbitrary(3000) > 0);
  }
}

TEST_CASE("tables made when the engine is loaded may read each other", "[emit][tables]") {
  // `early` is emitted before `late`; the mask of its `where` is made from late(t), whose
  // count is itself read through a mask made after it.
  Both both(R"(
game "Order";
board 4 x 4;
players 1;
type Piece = 1..6;
state at: Piece -> Cell?;
define pieces: set of Piece = 1..6;
define early(s: Piece): int = count t in pieces where t < s and late(t) == 2;
define late(t: Piece): int = count u in pieces where u < t and u > 1;
phase placing {
  move put(p: Piece, c: Cell)
    requires at[p] == none;
    requires early(p) > 0 or p == 1;
    requires x(c) >= early(p) / 2;
  {
    at[p] := c;
  }
  until all p in pieces: at[p] != none -> end;
}
)");
  const auto [errors, finished] = both.play(20);
  CHECK(errors == 0);
  CHECK(finished == 20);
}

namespace {

/// The fleet of kFleet with rules over lines whose defines of a ship and a line are
/// remembered per pair while the board rules run (`first_at`, `leads`: they loop), each
/// pair asked again by the second rule; `first_at(3, l)` fails ("min over nothing") when
/// ship 3 is not on a line that ship 2 leads and ship 1 crosses: the error must come, and
/// be the same, whether values were remembered or not.
std::string fleet_with_lines() {
  std::string text = kFleet;
  const std::string rules = R"(
define first_at(s: Ship, l: set of Cell): int = min a in cells_of(s) & l: y(a) * width + x(a);
define crosses(s: Ship, l: set of Cell): bool = size(cells_of(s) & l) > 0;
define leads(s: Ship, l: set of Cell): bool =
  crosses(s, l) and (no t in ships where t != s and crosses(t, l): first_at(t, l) < first_at(s, l));
rule leaders "a line a ship crosses has one leader":
  all l in rows + columns:
    (count s in ships where crosses(s, l)) == 0 or (count s in ships where leads(s, l)) == 1;
rule second "ship 2 leads no line ship 1 crosses, unless ship 3 is on it":
  all l in rows + columns: not (leads(2, l) and crosses(1, l)) or first_at(3, l) >= 0;
)";
  text.insert(text.find("phase placement"), rules);
  return text;
}

}  // namespace

TEST_CASE("defines of a ship and a line are remembered per pair while the board rules run", "[emit][scoped]") {
  const Both both(fleet_with_lines());
  REQUIRE(both.source.find("remembered per pair") == std::string::npos);  // the plan says it, not the code
  REQUIRE(both.source.find("r.known") != std::string::npos);
  // first_at and leads are remembered per pair, crosses (no loop of its own) is not.
  CHECK(both.source.find("int sets") != std::string::npos);
  CHECK(both.source.find("uint64_t known" + std::to_string([&] {
          for (size_t f = 0; f < both.program->functions.size(); ++f)
            if (both.program->functions[f].name == "first_at") return int(f);
          return -1;
        }()) + "_[32]") != std::string::npos);
  const auto [errors, finished] = both.play(300);
  INFO(errors << " games stopped on an error, " << finished << " ended");
  CHECK(errors > 0);
  CHECK(finished > 0);
  CHECK(both.arbitrary(3000) > 0);
}
