// Coverage of the rules over random games: exact counts on a forced little game worked out
// by hand, and on the 6x6 Garnsi games the acceptance of the four-move reading (no capture
// ever runs) against the shipped reading (captures run), each count checked a second way.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/interp/coverage.h"
#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"
#include "explorer/coverage_games.h"
#include "explorer/metrics.h"

using namespace rulebook;
using compiler::CoverageSite;

namespace {

struct Loaded {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  std::optional<ir::Program> program;
  std::unique_ptr<compiler::Interpreter> engine;
};

std::unique_ptr<Loaded> load(const std::string& path, const std::string& text = "") {
  auto l = std::make_unique<Loaded>();
  l->program = text.empty() ? compiler::load_program(path, l->sources, l->diags)
                            : compiler::load_program_text(path, text, l->sources, l->diags);
  INFO(l->diags.render(l->sources));
  REQUIRE(l->program);
  l->engine = std::make_unique<compiler::Interpreter>(*l->program, l->sources);
  return l;
}

/// The site of `kind` in `block` named `needle` (a rule) or whose source starts with it.
int site_at(const compiler::Coverage& c, const dsl::SourceSet& sources, CoverageSite::Kind kind,
            const std::string& block, const std::string& needle) {
  for (size_t i = 0; i < c.sites().size(); ++i) {
    const CoverageSite& s = c.sites()[i];
    if (s.kind != kind || s.block != block) continue;
    if (s.what == needle || sources.text(s.span).substr(0, needle.size()) == needle) return int(i);
  }
  FAIL("no site " << block << ": " << needle);
  return -1;
}

// Three cells in a row, filled left to right (the rule allows only the leftmost empty
// cell): every game is take(r0c0), take(r0c1), take(r0c2), then `end when` holds.
const char* kForced = R"(game "forced";
board 1 x 3;
players 2;
state taken: Cell -> Player?;
state flag: bool;
define full: bool = all c in cells: taken[c] != none;
init { flag := false; }
rule left_first "the leftmost empty cell is taken first"
  on take(c): all d in cells where x(d) < x(c): taken[d] != none;
rule idle "a rule that allows everything" on take(c): x(c) >= 0;
phase play {
  move take(c: Cell)
    requires taken[c] == none;
  {
    taken[c] := mover;
    if flag { eliminate mover; }
  }
}
end when flag or full;
)";

}  // namespace

TEST_CASE("coverage of a forced game: every count as worked out by hand", "[coverage]") {
  auto l = load("forced.rules", kForced);
  explorer::CoveragePlan plan;
  plan.games = 7;
  plan.seed = 11;
  const explorer::CoverageGames g = explorer::cover_games(*l->engine, plan);
  const compiler::Coverage& c = g.counts;
  CHECK(g.played == 7);
  CHECK(g.finished == 7);
  CHECK(g.errors == 0);
  CHECK(g.plies == 21);
  CHECK(c.decisions == 21);
  REQUIRE(c.chosen.size() == 1);
  CHECK(c.chosen[0] == 21);
  CHECK(c.legal_in[0] == 21);
  CHECK(c.instances[0] == 21);  // one legal cell at each decision
  CHECK(c.games_chosen[0] == 7);
  using K = CoverageSite::Kind;
  const auto count = [&](K kind, const std::string& block, const std::string& needle) {
    return c.counts[size_t(site_at(c, l->sources, kind, block, needle))];
  };
  CHECK(count(K::Statement, "init", "flag := false") == 7);
  CHECK(count(K::Statement, "move take", "taken[c] := mover") == 21);
  CHECK(count(K::Statement, "move take", "if flag") == 21);
  CHECK(count(K::Statement, "move take", "eliminate mover") == 0);
  // Per game: r0c1 and r0c2 are kept out by left_first alone at the first move, r0c2 at the
  // second; taken[c] == none alone keeps out r0c0 at the second move, r0c0 and r0c1 at the
  // third. `idle` never keeps anything out.
  CHECK(count(K::Requires, "move take", "taken[c] == none") == 3 * 7);
  CHECK(count(K::Rule, "move take", "left_first") == 3 * 7);
  CHECK(count(K::Rule, "move take", "idle") == 0);
  CHECK(count(K::EndCondition, "end when", "flag") == 0);
  CHECK(count(K::EndCondition, "end when", "full") == 7);
  CHECK(c.ended_by[size_t(compiler::EndCause::EndWhen)] == 7);
  CHECK(c.ended_by[size_t(compiler::EndCause::NobodyCanMove)] == 0);

  // Without the blocked counts the rest is the same.
  plan.blocked = false;
  const explorer::CoverageGames quick = explorer::cover_games(*l->engine, plan);
  CHECK(quick.counts.counts[size_t(site_at(quick.counts, l->sources, K::Rule, "move take", "left_first"))] == 0);
  CHECK(quick.counts.chosen == c.chosen);
  CHECK(quick.plies == g.plies);
}

TEST_CASE("coverage counts end statements and games ended by nobody being able to move", "[coverage]") {
  // One player paints three cells of a row in two colours, neighbours differing; a board
  // rule forbids blue in the middle. When no cell can be painted, `when stuck` ends it.
  const char* text = R"(game "paint";
board 1 x 3;
players 1;
type Colour = {red, blue};
state paint: Cell -> Colour?;
rule proper "no two neighbours of one colour" on colour(c, k): no d in orth(c): paint[d] == k;
rule red_middle "the middle is never blue": all c in cells where x(c) == 1: paint[c] != blue;
phase painting {
  move colour(c: Cell, k: Colour)
    requires paint[c] == none;
  {
    paint[c] := k;
  }
  when stuck { end; }
}
)";
  auto l = load("paint.rules", text);
  explorer::CoveragePlan plan;
  plan.games = 20;
  const explorer::CoverageGames g = explorer::cover_games(*l->engine, plan);
  const compiler::Coverage& c = g.counts;
  CHECK(g.finished == 20);
  using K = CoverageSite::Kind;
  const uint64_t ends = c.counts[size_t(site_at(c, l->sources, K::Statement, "when stuck in painting", "end"))];
  CHECK(ends == 20);
  CHECK(c.ended_by[size_t(compiler::EndCause::EndStatement)] == 20);
  // The board rule alone keeps out colour(r0c1, blue) at every decision where r0c1 is
  // empty and no neighbour is blue (the first decision always: the board is empty).
  const uint64_t blue_middle = c.counts[size_t(site_at(c, l->sources, K::BoardRule, "board", "red_middle"))];
  CHECK(blue_middle >= 20);
  CHECK(blue_middle <= c.decisions);
}

namespace {

struct SixBySix {
  std::unique_ptr<Loaded> game;
  explorer::CoverageGames cov;
  uint64_t capture_stores = 0;  ///< runs of the capture's `owner[c] := none`
};

SixBySix cover_6x6(const std::string& file, int games) {
  auto l = load(RULEBOOK_SOURCE_DIR "/variants/garnsi-malom/" + file);
  explorer::CoveragePlan plan;
  plan.games = games;
  plan.seed = 1;
  plan.blocked = false;
  explorer::CoverageGames g = explorer::cover_games(*l->engine, plan);
  uint64_t stores = 0;
  for (size_t i = 0; i < g.counts.sites().size(); ++i) {
    const CoverageSite& s = g.counts.sites()[i];
    if (s.kind == CoverageSite::Kind::Statement && s.block == "move capture" && s.what == "store owner")
      stores += g.counts.counts[i];
  }
  return {std::move(l), std::move(g), stores};
}

int move_index(const ir::Program& p, const std::string& name) {
  for (size_t m = 0; m < p.moves.size(); ++m)
    if (p.moves[m].name == name) return int(m);
  return -1;
}

/// The capture moves of the same seeded games, counted by playing them with the plain
/// interpreter (no coverage), as `rulebook play` chooses moves.
uint64_t captures_played(const Loaded& l, int games, int capture) {
  uint64_t n = 0;
  std::vector<uint8_t> state(l.engine->info().state_bytes);
  std::vector<engine::Move> moves;
  for (int g = 0; g < games; ++g) {
    engine::Setup setup;
    setup.seed = 1 + uint64_t(g);
    REQUIRE(l.engine->setup(state.data(), setup).ok);
    SplitMix64 rng(setup.seed);
    for (int ply = 0; ply < 2000 && !l.engine->terminal(state.data()); ++ply) {
      moves.clear();
      REQUIRE(l.engine->legal_moves(state.data(), moves).ok);
      const engine::Move m = moves[rng.below(moves.size())];
      n += m.kind == capture;
      REQUIRE(l.engine->apply(state.data(), m).ok);
    }
  }
  return n;
}

}  // namespace

TEST_CASE("6x6 Garnsi: the four-move end never captures, the two-round end does", "[coverage][garnsi]") {
  const int games = 12;
  for (const char* file : {"garnsi-6x6-four-moves.rules", "garnsi-6x6.rules"}) {
    INFO(file);
    SixBySix six = cover_6x6(file, games);
    const compiler::Coverage& c = six.cov.counts;
    const ir::Program& p = *six.game->program;
    CHECK(six.cov.finished == games);
    const int capture = move_index(p, "capture");
    REQUIRE(capture >= 0);
    // Chosen counts add up to the moves played, and the same games played by the random
    // playouts' driver (on the same interpreter) have that many moves.
    uint64_t chosen = 0;
    for (uint64_t n : c.chosen) chosen += n;
    CHECK(chosen == six.cov.plies);
    explorer::PlayoutPlan pp;
    pp.games = games;
    pp.seed = 1;
    const explorer::PlayoutStats st = explorer::play_games(*six.game->engine, p, pp);
    CHECK(st.finished == games);
    CHECK(uint64_t(st.length.mean * double(st.length.count) + 0.5) == six.cov.plies);
    CHECK(st.decisions == c.decisions);
    // Each capture move empties one cell: its store ran as often as the move was chosen,
    // and as often as the plain interpreter plays it in the same games.
    CHECK(six.capture_stores == c.chosen[size_t(capture)]);
    CHECK(captures_played(*six.game, games, capture) == c.chosen[size_t(capture)]);
    // Every game ends by `end when stalled`, after passing from placement to battle once.
    CHECK(c.ended_by[size_t(compiler::EndCause::EndWhen)] == uint64_t(games));
    uint64_t to_battle = 0;
    for (size_t i = 0; i < c.sites().size(); ++i)
      if (c.sites()[i].kind == CoverageSite::Kind::Transition && c.sites()[i].what == "until -> battle")
        to_battle += c.counts[i];
    CHECK(to_battle == uint64_t(games));
    for (size_t m = 0; m < c.chosen.size(); ++m) {
      CHECK(c.games_chosen[m] <= uint64_t(games));
      CHECK(c.games_chosen[m] <= c.chosen[m]);
      CHECK((c.games_chosen[m] > 0) == (c.chosen[m] > 0));
    }
    if (std::string(file) == "garnsi-6x6-four-moves.rules") {
      CHECK(c.legal_in[size_t(capture)] == 0);
      CHECK(c.chosen[size_t(capture)] == 0);
      CHECK(six.capture_stores == 0);
    } else {
      CHECK(c.chosen[size_t(capture)] > 0);
      CHECK(six.capture_stores > 0);
    }
  }
}
