// The fixed colours of every drawing: players by index, shades by enum member, and the
// escaping every SVG, DOT and HTML writer shares.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rulebook::render {

/// A piece colour for player `index` (the palette repeats after its last colour).
std::string_view player_colour(int index);
/// A light fill for shade `index` (enum members, true bool fields).
std::string_view shade_colour(int index);
/// A very light background for player `index`.
std::string_view tint_colour(int index);

/// `&`, `<`, `>`, `"` and `'` escaped for XML text and attributes (also HTML).
std::string xml_escape(std::string_view text);
/// A caller's colour made safe for an attribute: `#rgb`, `#rrggbb` or a plain name; any
/// other text becomes black.
std::string safe_colour(std::string_view colour);
/// A coordinate with at most two decimals and no trailing zeros: "12", "12.5", "-0.25".
std::string num(double value);

}  // namespace rulebook::render
