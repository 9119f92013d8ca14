// Masks through maps the rules compute (codegen/emit_mask_maps.cpp): conditions on a
// neighbour, a step along a direction or a mirror image of the binder, and binders over a
// few constant values inside conditions, answered for the whole board at once. Each file
// here is played by the generated engine and the interpreter (perft and random games, with
// state hashes after every move), and its source is checked for the form it should get, so
// a change that stops using a form, or uses it wrongly, fails here.
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "explorer/playout.h"

using namespace rulebook;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// Plays `text` with both engines: perft to `depth` from the start, then `games` random
/// games compared move by move. Returns the generated source.
std::string agree(const std::string& text, int depth, int games) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text("maps.rules", text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE(p);
  auto program = std::make_shared<const ir::Program>(std::move(*p));
  compiler::LoadedEngine loaded = compiler::load_engine(program, sources);
  INFO(loaded.status.message);
  REQUIRE(loaded.engine);
  const engine::Engine& gen = *loaded.engine;
  compiler::Interpreter interp(*program, sources);
  std::vector<uint8_t> a(program->state_bytes), b(program->state_bytes);
  for (int game = 1; game <= games; ++game) {
    engine::Setup setup;
    setup.seed = uint64_t(game);
    REQUIRE(gen.setup(a.data(), setup).ok);
    REQUIRE(interp.setup(b.data(), setup).ok);
    REQUIRE(gen.hash(a.data()) == interp.hash(b.data()));
    if (game == 1) {
      for (int d = 1; d <= depth; ++d) {
        uint64_t want = 0, got = 0;
        const engine::Status si = interp.perft(b.data(), d, want), sg = gen.perft(a.data(), d, got);
        INFO("perft depth " << d << ": " << si.message << " | " << sg.message);
        REQUIRE(si.ok == sg.ok);
        REQUIRE(si.message == sg.message);
        CHECK(got == want);
      }
    }
    const explorer::PlayoutOptions opt{uint64_t(game), 200};
    const explorer::Playout x = explorer::random_playout(gen, a.data(), opt);
    const explorer::Playout y = explorer::random_playout(interp, b.data(), opt);
    INFO(fmt::format("game {}: {} | {}", game, x.status.message, y.status.message));
    REQUIRE(x.status.ok == y.status.ok);
    REQUIRE(x.status.message == y.status.message);
    REQUIRE(x.steps.size() == y.steps.size());
    for (size_t i = 0; i < x.steps.size(); ++i) {
      INFO("move " << i + 1);
      REQUIRE(x.steps[i].move == y.steps[i].move);
      REQUIRE(x.steps[i].hash == y.steps[i].hash);
    }
    REQUIRE(x.finished == y.finished);
    REQUIRE(x.scores == y.scores);
  }
  return compiler::emit_cpp(*program, sources).source;
}

// Lines of three in four directions on a 4x5 board, written with a step function; a
// move's cell must see none of the mover's pieces one diagonal step away (where there is
// such a cell), unless few cells are left like that.
const char* kLines = R"(game "lines";
board 4 x 5;
players 2;
state owner: Cell -> Player?;
type Direction = {east, south, south_east, south_west};
define row_step(d: Direction): int = if d == east then 0 else 1;
define column_step(d: Direction): int = if d == south then 0 else if d == south_west then -1 else 1;
define along(c: Cell, d: Direction, k: int): Cell? = cell(y(c) + k * row_step(d), x(c) + k * column_step(d));
define mine(p: Player): set of Cell = {c in cells | owner[c] == p};
define line(p: Player): bool =
  some c in cells, d in {east, south, south_east, south_west}: all k in 0..2: along(c, d, k) in mine(p);
define apart: set of Cell =
  {c in cells | all d in {south_east, south_west} where along(c, d, 1) != none: no k in 1..1: along(c, d, k) in mine(mover)};
phase play {
  move place(c: Cell)
    requires owner[c] == none;
    requires c in apart or size(apart) < 4;
  {
    owner[c] := mover;
  }
}
end when some p in players: line(p);
score p = if line(p) then 1 else 0;
winner highest;
)";

// A map that is no translation: a cell's mirror image, and its transpose (none where the
// board is not square).
const char* kMirror = R"(game "mirror";
board 3 x 4;
players 2;
state owner: Cell -> Player?;
define mine(p: Player): set of Cell = {c in cells | owner[c] == p};
define mirror(c: Cell): Cell? = cell(y(c), width - 1 - x(c));
define transpose(c: Cell): Cell? = cell(x(c), y(c));
phase play {
  move place(c: Cell)
    requires owner[c] == none;
    requires not (mirror(c) in mine(mover)) or transpose(c) in mine(mover);
  {
    owner[c] := mover;
  }
}
score p = count c in cells where mirror(c) in mine(p) and owner[c] == p;
winner highest;
)";

// A map that fails for some cells (a division by zero where x is 1): no table of it can be
// made, and the rules never evaluate it there.
const char* kFailing = R"(game "failing";
board 3 x 4;
players 2;
state owner: Cell -> Player?;
define mine(p: Player): set of Cell = {c in cells | owner[c] == p};
define odd(c: Cell): Cell? = cell(y(c), 6 / (x(c) - 1));
phase play {
  move place(c: Cell)
    requires owner[c] == none;
    requires y(c) > 0 or x(c) == 1 or odd(c) in mine(mover);
  {
    owner[c] := mover;
  }
}
score p = size(mine(p));
winner highest;
)";

}  // namespace

TEST_CASE("masks through steps of the board: shifts, as the interpreter plays", "[differential][maps]") {
  const std::string source = agree(kLines, 4, 200);
  CHECK(source.find("pulled<") != std::string::npos);
}

TEST_CASE("masks through other maps: tables of where each cell goes", "[differential][maps]") {
  const std::string source = agree(kMirror, 4, 200);
  CHECK(source.find("preimage<") != std::string::npos);
}

TEST_CASE("a map that fails somewhere gets no mask, and both engines agree", "[differential][maps]") {
  const std::string source = agree(kFailing, 4, 100);
  CHECK(source.find("preimage<") == std::string::npos);
  CHECK(source.find("pulled<") == std::string::npos);
}

TEST_CASE("the plainly written benchmark games on other boards", "[differential][maps]") {
  const std::string dir = RULEBOOK_SOURCE_DIR "/bench/plain/";
  SECTION("tic-tac-toe on 4 x 4, lines of three") {
    std::string t = replaced(read_file(dir + "tictactoe.rules"), "board 3 x 3;", "board 4 x 4;");
    CHECK(agree(t, 4, 300).find("pulled<") != std::string::npos);
  }
  SECTION("Connect-4 on 5 x 4, lines of three (gravity: the cell below, none on the bottom row)") {
    std::string t = replaced(read_file(dir + "connect4.rules"), "board 6 x 7;", "board 5 x 4;");
    t = replaced(t, "param line_length = 4;", "param line_length = 3;");
    const std::string source = agree(t, 5, 300);
    CHECK(source.find("pulled<") != std::string::npos);
  }
  SECTION("breakthrough on 5 x 4 (the step's row depends on the mover)") {
    const std::string t = replaced(read_file(dir + "breakthrough.rules"), "board 8 x 8;", "board 5 x 4;");
    const std::string source = agree(t, 4, 300);
    CHECK(source.find("scratch.mover_ = im;") != std::string::npos);
  }
}
