// The fixed colours of every drawing: players by index, shades by enum member, and the
// escaping every SVG, DOT and HTML writer shares.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rulebook::ir {
struct Program;
}

namespace rulebook::render {

/// The one colour decision of a game, used by its boards, trees and charts alike: a colour
/// per player and per team. In a team game every member wears a shade of the team's colour,
/// so a board reads as the sides a chart counts; a player or team named after a colour
/// ("red", "white") wears that colour; the others take the fixed palette in order.
struct Palette {
  std::vector<std::string> players;
  std::vector<std::string> teams;
  /// Player `index`'s colour (black outside the game's players).
  std::string_view player(int index) const;
  /// Team `index`'s colour (black outside the game's teams).
  std::string_view team(int index) const;
};

/// The palette of `program`'s players and teams.
Palette palette_of(const ir::Program& program);

/// Text that reads on `background` (`#rrggbb`): white on dark colours, near-black on light.
std::string_view text_on(std::string_view background);

/// A very light background of `colour` (a player's tint of a cell).
std::string light_tint(std::string_view colour);

/// A colour in words for legends: the nearest of a few plain names ("red", "grey-blue",
/// "light green", ...) to a `#rgb`/`#rrggbb` colour, or the text itself when it is a name.
std::string colour_words(std::string_view colour);

/// A piece colour for player `index` (the palette repeats after its last colour).
std::string_view player_colour(int index);
/// A light fill for shade `index` (enum members, true bool fields).
std::string_view shade_colour(int index);

/// `&`, `<`, `>`, `"` and `'` escaped for XML text and attributes (also HTML).
std::string xml_escape(std::string_view text);
/// A caller's colour made safe for an attribute: `#rgb`, `#rrggbb` or a plain name; any
/// other text becomes black.
std::string safe_colour(std::string_view colour);
/// A coordinate with at most two decimals and no trailing zeros: "12", "12.5", "-0.25".
std::string num(double value);

}  // namespace rulebook::render
