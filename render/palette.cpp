// Colours and escaping shared by every drawing.
#include "render/palette.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "compiler/ir/ir.h"

namespace rulebook::render {
namespace {

// Chosen to stay apart from each other for the first players; white text reads on all.
constexpr std::array<std::string_view, 12> kPlayers = {
    "#c62828", "#1565c0", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f",
    "#ad1457", "#4e342e", "#9e9d24", "#37474f", "#283593", "#00695c"};
constexpr std::array<std::string_view, 8> kShades = {
    "#fff3c4", "#d6e9f8", "#dcefd6", "#f8dde0", "#e6def3", "#e0e0e0", "#ffe0c2", "#d0f0ee"};

// Names a designer may give a player or a team, and the colour each then wears.
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kNamed = {{
    {"red", "#c62828"}, {"blue", "#1565c0"}, {"green", "#2e7d32"}, {"orange", "#ef6c00"},
    {"purple", "#6a1b9a"}, {"violet", "#6a1b9a"}, {"teal", "#00838f"}, {"cyan", "#00838f"},
    {"pink", "#ad1457"}, {"brown", "#6d4c41"}, {"yellow", "#f9a825"}, {"gold", "#c9a227"},
    {"black", "#212121"}, {"white", "#f5f5f5"}, {"grey", "#757575"}, {"gray", "#757575"},
    {"silver", "#9e9e9e"}, {"navy", "#283593"}}};

std::string_view named_colour(std::string_view name) {
  for (const auto& [n, c] : kNamed)
    if (n == name) return c;
  return {};
}

struct Rgb {
  double r = 0, g = 0, b = 0;  // 0..1
};

bool parse_hex(std::string_view c, Rgb& out) {
  if (c.empty() || c[0] != '#') return false;
  c.remove_prefix(1);
  if (c.size() != 3 && c.size() != 6) return false;
  auto digit = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
  };
  int v[6];
  for (size_t i = 0; i < c.size(); ++i)
    if ((v[i] = digit(c[i])) < 0) return false;
  if (c.size() == 3) {
    out = {v[0] * 17 / 255.0, v[1] * 17 / 255.0, v[2] * 17 / 255.0};
  } else {
    out = {(v[0] * 16 + v[1]) / 255.0, (v[2] * 16 + v[3]) / 255.0, (v[4] * 16 + v[5]) / 255.0};
  }
  return true;
}

std::string hex_of(const Rgb& c) {
  auto byte = [](double v) { return int(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(c.r), byte(c.g), byte(c.b));
}

/// Member `k` of a team wears the team's colour, darker or lighter by turns, so that
/// members stay told apart while the side stays one hue.
std::string shade_of(std::string_view base, int k) {
  Rgb c;
  if (k == 0 || !parse_hex(base, c)) return std::string(base);
  static constexpr double kSteps[] = {-0.28, 0.22, -0.45, 0.38, -0.15, 0.12};
  const double t = kSteps[size_t(k - 1) % std::size(kSteps)];
  auto mix = [t](double v) { return t < 0 ? v * (1 + t) : v + (1 - v) * t; };
  return hex_of({mix(c.r), mix(c.g), mix(c.b)});
}

}  // namespace

std::string_view Palette::player(int index) const {
  return index < 0 || size_t(index) >= players.size() ? "#000000" : std::string_view(players[size_t(index)]);
}
std::string_view Palette::team(int index) const {
  return index < 0 || size_t(index) >= teams.size() ? "#000000" : std::string_view(teams[size_t(index)]);
}

Palette palette_of(const ir::Program& program) {
  // Colours named by the game come first; the others take the fixed palette in order,
  // skipping colours already worn.
  auto assign = [](const std::vector<std::string>& names, size_t n) {
    std::vector<std::string> out(n);
    for (size_t i = 0; i < n && i < names.size(); ++i) out[i] = std::string(named_colour(names[i]));
    size_t next = 0;
    for (std::string& c : out) {
      if (!c.empty()) continue;
      for (size_t tries = 0; tries < kPlayers.size(); ++tries) {
        std::string_view cand = kPlayers[next++ % kPlayers.size()];
        if (std::find(out.begin(), out.end(), cand) == out.end()) {
          c = std::string(cand);
          break;
        }
      }
      if (c.empty()) c = std::string(kPlayers[(next - 1) % kPlayers.size()]);
    }
    return out;
  };
  Palette pal;
  const auto& teams = program.geometry.teams;
  const size_t players = size_t(std::max(program.players, 0));
  if (teams.empty()) {
    pal.players = assign(program.player_names, players);
    return pal;
  }
  const std::vector<std::string>& team_names = program.domains.size() > size_t(ir::kTeamDomain)
                                                   ? program.domains[size_t(ir::kTeamDomain)].members
                                                   : std::vector<std::string>{};
  pal.teams = assign(team_names, teams.size());
  pal.players.assign(players, "#000000");
  std::vector<bool> seated(players, false);
  for (size_t t = 0; t < teams.size(); ++t)
    for (size_t k = 0; k < teams[t].size(); ++k) {
      const int p = teams[t][k];
      if (p < 0 || size_t(p) >= players || seated[size_t(p)]) continue;
      pal.players[size_t(p)] = shade_of(pal.teams[t], int(k));
      seated[size_t(p)] = true;
    }
  // A seat in no team keeps a colour of its own, apart from the teams'.
  for (size_t p = 0; p < players; ++p)
    if (!seated[p]) pal.players[p] = std::string(kPlayers[(teams.size() + p) % kPlayers.size()]);
  return pal;
}

std::string light_tint(std::string_view colour) {
  Rgb c;
  if (!parse_hex(colour, c)) return "#f5f5f5";
  auto mix = [](double v) { return v + (1 - v) * 0.86; };
  return hex_of({mix(c.r), mix(c.g), mix(c.b)});
}

std::string_view text_on(std::string_view background) {
  Rgb c;
  if (!parse_hex(background, c)) return "#ffffff";
  const double luminance = 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
  return luminance > 0.55 ? "#212121" : "#ffffff";
}

std::string colour_words(std::string_view colour) {
  Rgb c;
  if (!parse_hex(colour, c)) return std::string(colour);
  const double mx = std::max({c.r, c.g, c.b}), mn = std::min({c.r, c.g, c.b});
  const double l = (mx + mn) / 2, d = mx - mn;
  const double s = d == 0 ? 0 : d / (1 - std::abs(2 * l - 1));
  double h = 0;
  if (d > 0) {
    if (mx == c.r) h = 60 * std::fmod((c.g - c.b) / d + 6, 6.0);
    else if (mx == c.g) h = 60 * ((c.b - c.r) / d + 2);
    else h = 60 * ((c.r - c.g) / d + 4);
  }
  if (l >= 0.93) return "white";
  if (l <= 0.1) return "black";
  if (s < 0.12) return l > 0.7 ? "light grey" : l < 0.3 ? "dark grey" : "grey";
  std::string hue = h < 15 || h >= 345 ? "red"
                    : h < 40           ? "orange"
                    : h < 65           ? "yellow"
                    : h < 165          ? "green"
                    : h < 195          ? "teal"
                    : h < 255          ? "blue"
                    : h < 290          ? "purple"
                                       : "pink";
  // Dark reds and oranges read as brown, even when greyish.
  if ((hue == "orange" || (hue == "red" && h < 30 && h > 0)) && l < 0.35) return "brown";
  if (s < 0.3) return "grey-" + hue;
  if (l > 0.75) return "light " + hue;
  if (l < 0.28) return "dark " + hue;
  return hue;
}

std::string_view player_colour(int index) {
  return index < 0 ? "#000000" : kPlayers[size_t(index) % kPlayers.size()];
}
std::string_view shade_colour(int index) {
  return index < 0 ? "#ffffff" : kShades[size_t(index) % kShades.size()];
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
