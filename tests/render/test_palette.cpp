// The one colour decision of a game: teams wear one hue each (boards, trees and charts
// alike), named players and teams wear their names, legends say colours in words.
#include <set>

#include "render/palette.h"
#include "render_test_util.h"

using namespace rulebook;
using rulebook::test::load_variant;

namespace {

// The hue of a #rrggbb colour, in degrees.
double hue(std::string_view c) {
  auto byte = [&c](size_t i) { return std::stoi(std::string(c.substr(i, 2)), nullptr, 16) / 255.0; };
  const double r = byte(1), g = byte(3), b = byte(5);
  const double mx = std::max({r, g, b}), mn = std::min({r, g, b}), d = mx - mn;
  if (d == 0) return 0;
  if (mx == r) return 60 * std::fmod((g - b) / d + 6, 6.0);
  if (mx == g) return 60 * ((b - r) / d + 2);
  return 60 * ((r - g) / d + 4);
}

}  // namespace

TEST_CASE("a team game dresses every member in a shade of the team's colour, named by the team") {
  auto l = load_variant("garnsi-malom/garnsi-6x6.rules");
  const ir::Program& p = *l->program;
  REQUIRE(p.geometry.teams.size() == 2);
  const render::Palette pal = render::palette_of(p);
  REQUIRE(pal.teams.size() == 2);
  REQUIRE(pal.players.size() == size_t(p.players));
  const auto& names = p.domains[size_t(ir::kTeamDomain)].members;
  std::set<std::string> distinct(pal.players.begin(), pal.players.end());
  CHECK(distinct.size() == pal.players.size());  // members stay told apart
  for (size_t t = 0; t < 2; ++t) {
    INFO("team " << names[t]);
    CHECK(render::colour_words(pal.teams[t]) == names[t]);  // "red" wears red, "blue" blue
    for (int q : p.geometry.teams[t]) {
      CHECK(std::abs(hue(pal.player(q)) - hue(pal.team(int(t)))) < 8);
      CHECK(render::colour_words(pal.player(q)).find(names[t]) != std::string::npos);
    }
  }
}

TEST_CASE("players without teams take the palette in order, and text reads on every piece") {
  auto l = load_variant("sudoku-cards/cards-5p.rules");
  const render::Palette pal = render::palette_of(*l->program);
  REQUIRE(pal.teams.empty());
  std::set<std::string> distinct(pal.players.begin(), pal.players.end());
  CHECK(distinct.size() == pal.players.size());
  CHECK(pal.players[0] == render::player_colour(0));
  CHECK(pal.player(99) == "#000000");
  CHECK(render::text_on("#f5f5f5") == "#212121");  // a white piece gets dark text
  CHECK(render::text_on("#c62828") == "#ffffff");
  CHECK(render::text_on("#f9a825") == "#212121");  // so does a yellow one
}

TEST_CASE("legends say colours in words") {
  CHECK(render::colour_words("#90a4ae") == "grey-blue");
  CHECK(render::colour_words("#d32f2f") == "red");
  CHECK(render::colour_words("#388e3c") == "green");
  CHECK(render::colour_words("#000000") == "black");
  CHECK(render::colour_words("#fff") == "white");
  CHECK(render::colour_words("#1565c0") == "blue");
  CHECK(render::colour_words("#fdd835") == "yellow");
  CHECK(render::colour_words("#bbdefb") == "light blue");
  CHECK(render::colour_words("#4e342e") == "brown");
  CHECK(render::colour_words("teal") == "teal");  // a name stays a name
}
