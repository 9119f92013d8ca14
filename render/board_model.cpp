// What each cell of a board shows, found from the IR's state layout alone: the first
// Cell-keyed state variable gives the labels, setup sets of cells are blocked, setup maps
// are givens, Player-valued variables tint, and a last move marks its cells and captures.
#include "render/board.h"
#include "render/palette.h"

#include <fmt/format.h>

namespace rulebook::render {
namespace {

using Kind = ir::Domain::Kind;

/// How one value looks in a cell.
struct Look {
  std::string label;
  int player = -1;
  int shade = -1;
  std::string shade_text;  ///< the enum member the shade stands for, short
  bool filled = false;
};

/// A short form of a name: the name itself up to 3 characters, else its first 2.
std::string abbreviate(const std::string& name) {
  return name.size() <= 3 ? name : name.substr(0, 2);
}

void look_into(const ir::Program& p, int d, ir::Value v, int field, Look& out) {
  if (v == ir::kNone) return;
  const ir::Domain& dom = p.domains[size_t(d)];
  auto add_label = [&](const std::string& s) {
    if (s.empty()) return;
    out.label += out.label.empty() ? s : "/" + s;
  };
  switch (dom.kind) {
    case Kind::Optional:
      look_into(p, dom.inner, v, field, out);
      return;
    case Kind::Bool:
      // A bool of a record marks the cell with a shade; a plain bool fills it.
      if (v && field >= 0 && out.shade < 0) out.shade = field;
      if (v && field < 0) out.filled = true;
      return;
    case Kind::Range:
      // The 0 of a range starting at 0 is the empty cell of a grid of numbers.
      if (!(dom.lo == 0 && v == 0 && field < 0)) add_label(std::to_string(v));
      return;
    case Kind::Player:
      out.player = int(v);
      add_label(abbreviate(dom.members[size_t(v)]));
      return;
    case Kind::Enum:
    case Kind::Team:
    case Kind::Phase:
      if (out.shade < 0) {
        out.shade = int(v);
        out.shade_text = abbreviate(dom.members[size_t(v)]);
      } else {
        add_label(abbreviate(dom.members[size_t(v)]));
      }
      return;
    case Kind::Record:
      for (size_t f = 0; f < dom.fields.size(); ++f) {
        const int fd = dom.fields[f];
        const int64_t i = (v / dom.strides[f]) % p.domains[size_t(fd)].size;
        look_into(p, fd, ir::domain_value(p.domains, fd, i), int(f), out);
      }
      return;
    default:
      add_label(ir::value_text(p.domains, d, v));
  }
}

Look look(const ir::Program& p, int d, ir::Value v) {
  Look out;
  look_into(p, d, v, -1, out);
  return out;
}

bool keyed_by_cell(const ir::StateVar& v) {
  return v.keys.size() == 1 && v.keys[0] == ir::kCellDomain;
}

bool holds_player(const ir::Program& p, int d) {
  const ir::Domain& dom = p.domains[size_t(d)];
  if (dom.kind == Kind::Optional) return holds_player(p, dom.inner);
  return dom.kind == Kind::Player;
}

ir::Value element(const ir::Program& p, const uint8_t* state, const ir::StateVar& v, uint32_t i) {
  return ir::domain_value(p.domains, v.domain, ir::load_index(state, v, i));
}

/// Who wears which colour, in words: per team when the game has teams ("team red (p1, p3,
/// p5) in shades of red"), else per player ("p1 red, p2 blue"); only players on the board.
std::string pieces_legend(const ir::Program& p, const Palette& pal, const std::vector<bool>& shown) {
  auto name = [&p](int i) { return size_t(i) < p.player_names.size() ? p.player_names[size_t(i)] : fmt::format("p{}", i + 1); };
  std::vector<std::string> parts;
  const auto& teams = p.geometry.teams;
  if (!teams.empty()) {
    const auto& team_names = p.domains[size_t(ir::kTeamDomain)].members;
    for (size_t t = 0; t < teams.size(); ++t) {
      std::vector<std::string> members;
      bool any = false;
      for (int q : teams[t]) {
        members.push_back(name(q));
        any = any || (size_t(q) < shown.size() && shown[size_t(q)]);
      }
      if (any)
        parts.push_back(fmt::format("team {} ({}) in shades of {}", t < team_names.size() ? team_names[t] : std::to_string(t + 1),
                                    fmt::join(members, ", "), colour_words(pal.team(int(t)))));
    }
  } else {
    for (size_t q = 0; q < shown.size(); ++q)
      if (shown[q]) parts.push_back(name(int(q)) + " " + colour_words(pal.player(int(q))));
  }
  return parts.empty() ? std::string() : fmt::format("pieces: {}", fmt::join(parts, "; "));
}

}  // namespace

BoardModel board_model(const ir::Program& p, const uint8_t* state, const LastMove* last) {
  BoardModel m;
  const Palette palette = palette_of(p);
  m.player_colours = palette.players;
  m.width = p.geometry.width;
  m.height = p.geometry.height;
  const size_t n = size_t(m.width) * size_t(m.height);
  m.cells.resize(n);
  if (!p.geometry.region_sets.empty()) {
    m.region_set = p.geometry.region_sets[0].name;
    m.region_of = p.geometry.region_sets[0].region_of;
  }
  for (size_t vi = ir::kSystemVars; vi < p.vars.size(); ++vi) {
    const ir::StateVar& v = p.vars[vi];
    if (!keyed_by_cell(v) || v.count != n) continue;
    const bool boolean = p.domains[size_t(v.domain)].kind == Kind::Bool;
    if (v.origin == ir::StateVar::Origin::Setup) {
      (boolean ? m.blocked_vars : m.given_vars).push_back(v.name);
      for (uint32_t c = 0; c < n; ++c) {
        if (ir::load_index(state, v, c) == 0) continue;
        (boolean ? m.cells[c].blocked : m.cells[c].given) = true;
      }
      continue;
    }
    if (v.origin != ir::StateVar::Origin::State) continue;
    if (m.main_var.empty()) {
      m.main_var = v.name;
      for (uint32_t c = 0; c < n; ++c) {
        Look l = look(p, v.domain, element(p, state, v, c));
        CellView& cv = m.cells[c];
        cv.label = l.label;
        cv.player = l.player;
        cv.shade = l.shade;
        cv.shade_text = l.shade_text;
        cv.filled = l.filled;
      }
      std::vector<bool> shown(size_t(std::max(p.players, 0)), false);
      for (const CellView& cv : m.cells)
        if (cv.player >= 0 && size_t(cv.player) < shown.size()) shown[size_t(cv.player)] = true;
      m.pieces_legend = pieces_legend(p, palette, shown);
    } else if (holds_player(p, v.domain)) {
      m.tint_vars.push_back(v.name);
      for (uint32_t c = 0; c < n; ++c) {
        ir::Value x = element(p, state, v, c);
        if (x != ir::kNone) m.cells[c].tint = int(x);
      }
    } else {
      for (uint32_t c = 0; c < n; ++c) {
        if (ir::load_index(state, v, c) == 0) continue;
        Look l = look(p, v.domain, element(p, state, v, c));
        m.cells[c].notes.push_back(l.label.empty() ? v.name : v.name + "=" + l.label);
      }
    }
  }
  if (last && last->move.kind >= 0 && size_t(last->move.kind) < p.moves.size()) {
    const ir::Move& mv = p.moves[size_t(last->move.kind)];
    std::vector<bool> named(n, false);
    for (size_t i = 0; i < mv.params.size() && i < size_t(engine::kMaxMoveArgs); ++i) {
      const int32_t a = last->move.args[i];
      if (mv.params[i].domain == ir::kCellDomain && a >= 0 && size_t(a) < n) named[size_t(a)] = true;
    }
    for (size_t c = 0; c < n; ++c) m.cells[c].moved = named[c];
    // A capture: a cell of a state variable that held a value and was reset to its first
    // index (none, false, 0) by the move, unless it is where a piece moved from: a named
    // cell whose old value is now found in another named cell the move filled.
    if (last->before) {
      for (size_t vi = ir::kSystemVars; vi < p.vars.size(); ++vi) {
        const ir::StateVar& v = p.vars[vi];
        if (v.origin != ir::StateVar::Origin::State || !keyed_by_cell(v) || v.count != n) continue;
        for (uint32_t c = 0; c < n; ++c) {
          const uint32_t old = ir::load_index(last->before, v, c);
          if (old == 0 || ir::load_index(state, v, c) != 0) continue;
          bool moved_away = false;
          for (uint32_t d = 0; d < n && named[c] && !moved_away; ++d)
            moved_away = d != c && named[d] && ir::load_index(state, v, d) == old &&
                         ir::load_index(last->before, v, d) != old;
          if (!moved_away) m.cells[c].captured = true;
        }
      }
    }
  }
  return m;
}

}  // namespace rulebook::render
