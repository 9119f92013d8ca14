// Setup values in the verifier: `--setup` fixes one (a data-file entry or a value), a free
// data-file setup is one of the file's entries, and the Moyo puzzle criteria proved per
// puzzle agree with the criteria computed here from puzzles.txt read on its own.
#include <algorithm>
#include <array>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "verify_testing.h"

using namespace rulebook;
using rulebook::verify_testing::named;
using rulebook::verify_testing::slurp;

namespace {

const std::string kMoyo = std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-moyo/moyo.rules";

using Grid = std::array<std::array<int, 9>, 9>;  // 0: no given

/// The puzzles of puzzles.txt: 9 lines of 9 characters each, '.' empty, '#' comments.
std::vector<Grid> read_puzzles() {
  std::ifstream in(std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-moyo/puzzles.txt");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (line.size() == 9 && line[0] != '#') lines.push_back(line);
  REQUIRE(lines.size() % 9 == 0);
  std::vector<Grid> out(lines.size() / 9);
  for (size_t i = 0; i < lines.size(); ++i)
    for (int x = 0; x < 9; ++x) out[i / 9][i % 9][size_t(x)] = lines[i][size_t(x)] == '.' ? 0 : lines[i][size_t(x)] - '0';
  return out;
}

/// The criteria of RULES.md section 5 on the default split (areas: the 3x3 boxes; the
/// Azumaya: the centre box), counted directly; names as in moyo.rules.
std::vector<std::pair<std::string, bool>> criteria(const Grid& g, int most_givens) {
  int givens = 0;
  std::array<int, 9> in_box{};
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x)
      if (g[size_t(y)][size_t(x)] != 0) {
        ++givens;
        ++in_box[size_t(y / 3 * 3 + x / 3)];
      }
  bool empty_box = false;
  for (int n : in_box) empty_box = empty_box || n == 0;
  bool three = false;
  for (int a = 0; a < 9; ++a)
    for (int b = 0; b + 2 < 9; ++b) {
      if (b / 3 != (b + 2) / 3) continue;  // the three cells in one box
      bool row = true, column = true;
      for (int i = 0; i < 3; ++i) {
        row = row && g[size_t(a)][size_t(b + i)] != 0;
        column = column && g[size_t(b + i)][size_t(a)] != 0;
      }
      three = three || row || column;
    }
  return {{"no_empty_box", !empty_box},
          {"few_azumaya_givens", in_box[4] >= 1 && in_box[4] <= 4},
          {"no_three_adjacent_givens", !three},
          {"not_too_many_givens", givens <= most_givens}};
}

int most_givens() {
  std::smatch m;
  const std::string text = slurp(kMoyo);
  REQUIRE(std::regex_search(text, m, std::regex(R"(param most_givens = (\d+);)")));
  return std::stoi(m[1]);
}

std::vector<verifier::Result> prove(const ir::Program& p, const dsl::SourceSet& sources,
                                    std::vector<std::pair<std::string, std::string>> setup) {
  verifier::Options o;
  o.timeout_seconds = 60;
  o.setup = std::move(setup);
  return verifier::verify(p, sources, o);
}

std::vector<verifier::Result> prove_text(const std::string& path, const std::string& text,
                                         std::vector<std::pair<std::string, std::string>> setup) {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto p = compiler::load_program_text(path, text, sources, diags);
  INFO(diags.render(sources));
  REQUIRE_FALSE(diags.has_errors());
  return prove(*p, sources, std::move(setup));
}

}  // namespace

TEST_CASE("each Moyo puzzle criterion proved or refuted per puzzle as counted from puzzles.txt") {
  dsl::SourceSet sources;
  auto p = verify_testing::load(kMoyo, sources);
  const std::vector<Grid> puzzles = read_puzzles();
  REQUIRE(puzzles.size() == 6);
  const int most = most_givens();
  int refuted = 0;
  for (size_t k = 0; k < puzzles.size(); ++k) {
    const auto rs = prove(*p, sources, {{"puzzle", std::to_string(k + 1)}});
    for (const auto& [name, holds] : criteria(puzzles[k], most)) {
      const auto& r = named(rs, name);
      INFO("puzzle " << k + 1 << ": " << verifier::result_text(r, false));
      CHECK(r.verdict == (holds ? verifier::Verdict::Proved : verifier::Verdict::Refuted));
      CHECK(r.set.find("setup puzzle: entry " + std::to_string(k + 1) + " of") != std::string::npos);
      if (!holds) {
        ++refuted;
        // The counterexample is puzzle k itself: its givens are the board's puzzle.
        REQUIRE(r.board);
        const ir::StateVar* v = nullptr;
        for (const auto& sv : p->vars)
          if (sv.name == "puzzle") v = &sv;
        REQUIRE(v);
        for (uint32_t c = 0; c < 81; ++c)
          CHECK(int(ir::load_index(r.board->state.data(), *v, c)) == puzzles[k][c / 9][c % 9]);
      }
    }
  }
  // Puzzle 6 has 7 5 3 side by side in its second row: the criteria are not all met.
  CHECK(refuted >= 1);
}

TEST_CASE("without --setup a data-file setup ranges over the file's entries only") {
  dsl::SourceSet sources;
  auto p = verify_testing::load(kMoyo, sources);
  const std::vector<Grid> puzzles = read_puzzles();
  const auto rs = prove(*p, sources, {});
  for (const auto& [name, holds_everywhere] : criteria(puzzles[0], most_givens())) {
    bool all = true;
    for (const Grid& g : puzzles)
      for (const auto& [n, holds] : criteria(g, most_givens()))
        if (n == name) all = all && holds;
    const auto& r = named(rs, name);
    INFO(verifier::result_text(r, false));
    CHECK(r.verdict == (all ? verifier::Verdict::Proved : verifier::Verdict::Refuted));
    CHECK(r.set.find("any of the 6 entries of") != std::string::npos);
    if (all) continue;
    // The counterexample is a puzzle that fails, set up as such: its givens are the
    // board's stones (r0c1 holds a given in puzzle 6, not in puzzle 1, the default).
    REQUIRE(r.board);
    const ir::StateVar *puzzle = nullptr, *stone = nullptr;
    for (const auto& v : p->vars) {
      if (v.name == "puzzle") puzzle = &v;
      if (v.name == "stone") stone = &v;
    }
    REQUIRE((puzzle && stone));
    Grid shown{};
    for (uint32_t c = 0; c < 81; ++c) shown[c / 9][c % 9] = int(ir::load_index(r.board->state.data(), *puzzle, c));
    bool fails = false;
    for (const auto& [n, holds] : criteria(shown, most_givens())) fails = fails || (n == name && !holds);
    CHECK(fails);
    CHECK(std::find(puzzles.begin(), puzzles.end(), shown) != puzzles.end());
    for (uint32_t c = 0; c < 81; ++c)
      CHECK((ir::load_index(r.board->state.data(), *stone, c) != 0) == (shown[c / 9][c % 9] != 0));
  }
  // A made-up puzzle is not found: no entry has a 5 in the top left cell, nor 82 givens.
  const auto found = prove_text(std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-moyo/made-up.rules",
                                "variant \"made up\" extends \"moyo.rules\";\n"
                                "find five_top_left over boards: some c in cells where x(c) + y(c) == 0: puzzle[c] == 5;\n"
                                "find four_top_left over boards: some c in cells where x(c) + y(c) == 0: puzzle[c] == 4;\n",
                                {});
  CHECK(named(found, "five_top_left").verdict == verifier::Verdict::None);
  CHECK(named(found, "four_top_left").verdict == verifier::Verdict::Found);
}

TEST_CASE("a random setup is any value of its type unless --setup fixes it") {
  const std::string text = R"(game "Blocked";
board 3 x 3;
players 1;
setup blocked: set of Cell = random 2 of cells;
state mark: Cell -> bool;
phase only {
  move put(c: Cell) requires not mark[c] and c not in blocked; { mark[c] := true; }
}
prove corner_free "the corner is never blocked" over boards: cell(0, 0) not in blocked;
prove unread "reads no setup value" over boards: (count c in cells where mark[c]) <= 9;
)";
  const std::string path = std::string(RULEBOOK_SOURCE_DIR) + "/tests/verify/blocked.rules";
  const auto free = prove_text(path, text, {});
  CHECK(named(free, "corner_free").verdict == verifier::Verdict::Refuted);
  CHECK(named(free, "corner_free").set.find("setup blocked: any value of its type") != std::string::npos);
  CHECK(named(free, "unread").set.find("setup") == std::string::npos);
  const auto away = prove_text(path, text, {{"blocked", "r1c1,r2c2"}});
  CHECK(named(away, "corner_free").verdict == verifier::Verdict::Proved);
  CHECK(named(away, "corner_free").set.find("setup blocked = r1c1,r2c2 (given)") != std::string::npos);
  const auto there = prove_text(path, text, {{"blocked", "r0c0,r2c2"}});
  CHECK(named(there, "corner_free").verdict == verifier::Verdict::Refuted);
  CHECK_THROWS_AS(prove_text(path, text, {{"nothing", "1"}}), std::invalid_argument);
}

TEST_CASE("a property fixes a data-file setup in the file with 'with NAME = K'") {
  const std::string path = std::string(RULEBOOK_SOURCE_DIR) + "/variants/sudoku-moyo/fixed.rules";
  const std::string text = "variant \"fixed puzzles\" extends \"moyo.rules\";\n"
                           "prove first_spread over boards with puzzle = 1: no a in areas: three_givens_in_line(a);\n"
                           "prove sixth_spread over boards with puzzle = 6: no a in areas: three_givens_in_line(a);\n"
                           "find sixth_top_left_empty over boards with puzzle = 6 where givens == 30: "
                           "some c in cells where x(c) + y(c) == 0: puzzle[c] == 0;\n";
  const auto rs = prove_text(path, text, {});
  // The file's own criteria (no `with`) keep ranging over every puzzle, in file order first.
  REQUIRE(rs.size() == 7);
  CHECK(rs[0].name == "no_empty_box");
  CHECK(rs[4].name == "first_spread");
  CHECK(named(rs, "no_three_adjacent_givens").verdict == verifier::Verdict::Refuted);
  CHECK(named(rs, "no_three_adjacent_givens").set.find("any of the 6 entries") != std::string::npos);
  CHECK(named(rs, "first_spread").verdict == verifier::Verdict::Proved);
  CHECK(named(rs, "first_spread").set.find("setup puzzle: entry 1 of") != std::string::npos);
  CHECK(named(rs, "sixth_spread").verdict == verifier::Verdict::Refuted);
  CHECK(named(rs, "sixth_top_left_empty").verdict == verifier::Verdict::Found);
  // The file's `with` wins over the command line's value for its own set only.
  const auto over = prove_text(path, text, {{"puzzle", "6"}});
  CHECK(named(over, "first_spread").verdict == verifier::Verdict::Proved);
  CHECK(named(over, "no_three_adjacent_givens").verdict == verifier::Verdict::Refuted);
  CHECK(named(over, "no_three_adjacent_givens").set.find("setup puzzle: entry 6 of") != std::string::npos);

  // Only a data-file setup, and only an entry the file has.
  for (const char* bad : {"with puzzle = 7", "with stone = 1", "with nothing = 1"}) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    (void)compiler::load_program_text(path, std::string("variant \"bad\" extends \"moyo.rules\";\n"
                                                        "prove bad over boards ") + bad + ": givens > 0;\n",
                                      sources, diags);
    INFO(bad);
    CHECK(diags.has_errors());
  }
}
