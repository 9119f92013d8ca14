// Colours and escaping shared by every drawing.
#include "render/palette.h"

#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace rulebook::render {
namespace {

// Chosen to stay apart from each other for the first players; white text reads on all.
constexpr std::array<std::string_view, 12> kPlayers = {
    "#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f",
    "#ad1457", "#4e342e", "#9e9d24", "#37474f", "#283593", "#00695c"};
constexpr std::array<std::string_view, 8> kShades = {
    "#fff3c4", "#d6e9f8", "#dcefd6", "#f8dde0", "#e6def3", "#e0e0e0", "#ffe0c2", "#d0f0ee"};
constexpr std::array<std::string_view, 12> kTints = {
    "#fbe4e4", "#e3edf9", "#e4f2e5", "#fdeedd", "#efe4f4", "#ddf1f3",
    "#f9e1ec", "#ece5e2", "#f3f3d9", "#e5e9eb", "#e3e5f4", "#ddf0ed"};

}  // namespace

std::string_view player_colour(int index) {
  return index < 0 ? "#000000" : kPlayers[size_t(index) % kPlayers.size()];
}
std::string_view shade_colour(int index) {
  return index < 0 ? "#ffffff" : kShades[size_t(index) % kShades.size()];
}
std::string_view tint_colour(int index) {
  return index < 0 ? "#ffffff" : kTints[size_t(index) % kTints.size()];
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string safe_colour(std::string_view colour) {
  if (colour.empty() || colour.size() > 32) return "#000000";
  size_t start = colour[0] == '#' ? 1 : 0;
  for (size_t i = start; i < colour.size(); ++i)
    if (!std::isalnum(static_cast<unsigned char>(colour[i]))) return "#000000";
  return std::string(colour);
}

std::string num(double value) {
  double r = std::round(value * 100.0) / 100.0;
  if (r == 0) r = 0;  // no "-0"
  std::string s = fmt::format("{:.2f}", r);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace rulebook::render
