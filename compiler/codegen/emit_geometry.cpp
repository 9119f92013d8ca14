// The C++ emitter's geometry tables: the board's cells, points, neighbours, lines and
// regions as constant arrays, only those the engine's code reads (plan: geometry used).
#include <algorithm>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

void Emitter::geometry_tables() {
  const int W = program_.geometry.width, H = program_.geometry.height;
  const int cells = W * H;
  w_.line("// ================================================================ geometry");
  w_.linef("// A board of {} rows x {} columns; cells are y * {} + x, points y * {} + x.", H, W,
           W, W + 1);
  w_.blank();
  w_.linef("constexpr Int kWidth = {};", W);
  w_.linef("constexpr Int kHeight = {};", H);
  w_.linef("constexpr Int kPlayers = {};", program_.players);
  const int cw = names_.words(ir::kCellDomain), pw = names_.words(ir::kPointDomain);
  auto cell_table = [&](const char* name, const char* what, auto member) {
    w_.linef("/// {}", what);
    w_.linef("constexpr Bits<{}> {}[{}] = {{", cw, name, std::max(cells, 1));
    for (int c = 0; c < cells; ++c) {
      std::vector<uint64_t> bits(size_t(cw), 0);
      for (int d : member(c / W, c % W)) bits[size_t(d) / 64] |= uint64_t(1) << (d % 64);
      w_.linef("  {},", names_.bits_literal(ir::kCellDomain, bits));
    }
    if (cells == 0) w_.line("  {},");
    w_.line("};");
  };
  auto in = [&](int y, int x) { return y >= 0 && y < H && x >= 0 && x < W; };
  const bool need_orth = s_.geometry_used_.count(dsl::BuiltinId::Orth) ||
                         s_.geometry_used_.count(dsl::BuiltinId::Components) ||
                         s_.geometry_used_.count(dsl::BuiltinId::LargestGroup);
  if (need_orth) {
    cell_table("kOrth", "orth(c): the 4-neighbours of c", [&](int y, int x) {
      std::vector<int> out;
      const int dy[] = {-1, 0, 0, 1}, dx[] = {0, -1, 1, 0};
      for (int k = 0; k < 4; ++k)
        if (in(y + dy[k], x + dx[k])) out.push_back((y + dy[k]) * W + x + dx[k]);
      return out;
    });
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::Diag)) {
    cell_table("kDiag", "diag(c): the diagonal neighbours of c", [&](int y, int x) {
      std::vector<int> out;
      for (int dy : {-1, 1})
        for (int dx : {-1, 1})
          if (in(y + dy, x + dx)) out.push_back((y + dy) * W + x + dx);
      return out;
    });
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::King)) {
    cell_table("kKing", "king(c): the 8-neighbours of c", [&](int y, int x) {
      std::vector<int> out;
      for (int dy : {-1, 0, 1})
        for (int dx : {-1, 0, 1})
          if ((dy || dx) && in(y + dy, x + dx)) out.push_back((y + dy) * W + x + dx);
      return out;
    });
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::Row)) {
    cell_table("kRow", "row(c): the cells of c's row", [&](int y, int) {
      std::vector<int> out;
      for (int x = 0; x < W; ++x) out.push_back(y * W + x);
      return out;
    });
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::Column)) {
    cell_table("kColumn", "column(c): the cells of c's column", [&](int, int x) {
      std::vector<int> out;
      for (int y = 0; y < H; ++y) out.push_back(y * W + x);
      return out;
    });
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::Corners)) {
    w_.line("/// corners(c): the four points around cell c");
    w_.linef("constexpr Bits<{}> kCorners[{}] = {{", pw, std::max(cells, 1));
    for (int c = 0; c < cells; ++c) {
      std::vector<uint64_t> bits(size_t(pw), 0);
      const int y = c / W, x = c % W;
      for (int py : {y, y + 1})
        for (int px : {x, x + 1}) {
          const int p = py * (W + 1) + px;
          bits[size_t(p) / 64] |= uint64_t(1) << (p % 64);
        }
      w_.linef("  {},", names_.bits_literal(ir::kPointDomain, bits));
    }
    w_.line("};");
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::Around)) {
    const int points = (W + 1) * (H + 1);
    w_.line("/// around(pt): the cells touching point pt");
    w_.linef("constexpr Bits<{}> kAround[{}] = {{", cw, points);
    for (int p = 0; p < points; ++p) {
      std::vector<uint64_t> bits(size_t(cw), 0);
      const int py = p / (W + 1), px = p % (W + 1);
      for (int y : {py - 1, py})
        for (int x : {px - 1, px})
          if (in(y, x)) bits[size_t(y * W + x) / 64] |= uint64_t(1) << ((y * W + x) % 64);
      w_.linef("  {},", names_.bits_literal(ir::kCellDomain, bits));
    }
    w_.line("};");
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::CellAt)) {
    w_.line("/// cell(y, x): the cell there, or none off the board");
    w_.line("constexpr Int cell_at(Int y, Int x) {");
    w_.line("  return y >= 0 && y < kHeight && x >= 0 && x < kWidth ? y * kWidth + x : kNone;");
    w_.line("}");
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::Segment) || s_.geometry_used_.count(dsl::BuiltinId::Ends)) {
    w_.line("/// segment(c, o, n): n cells from c rightward (horizontal) or downward; empty");
    w_.line("/// when they leave the board. With `tips`, only its first and last cells.");
    w_.linef("inline Bits<{}> segment_of(Int c, Int o, Int n, bool tips) {{", cw);
    w_.linef("  Bits<{}> out{{}};", cw);
    w_.line("  if (n <= 0) return out;");
    w_.line("  const Int y = c / kWidth, x = c % kWidth;");
    w_.line("  if (o == 0 ? n > kWidth - x : n > kHeight - y) return out;  // any n: no overflow");
    w_.line("  const Int step = o == 0 ? 1 : kWidth;");
    w_.line("  for (Int k = 0; k < n; ++k) {");
    w_.line("    if (!tips || k == 0 || k == n - 1) out.set(c + k * step);");
    w_.line("  }");
    w_.line("  return out;");
    w_.line("}");
    w_.linef("inline Bits<{}> segment(Int c, Int o, Int n) {{ return segment_of(c, o, n, false); }}", cw);
    w_.linef("inline Bits<{}> ends(Int c, Int o, Int n) {{ return segment_of(c, o, n, true); }}", cw);
  }
  if (s_.geometry_used_.count(dsl::BuiltinId::TeamOf) || s_.geometry_used_.count(dsl::BuiltinId::Members)) {
    const auto& teams = program_.geometry.teams;
    std::vector<int> team_of(size_t(program_.players), -1);
    w_.line("/// members(t): the players of each team");
    w_.linef("constexpr Bits<{}> kMembers[{}] = {{", names_.words(ir::kPlayerDomain),
             std::max<size_t>(teams.size(), 1));
    for (size_t t = 0; t < teams.size(); ++t) {
      std::vector<uint64_t> bits(size_t(names_.words(ir::kPlayerDomain)), 0);
      for (int p : teams[t]) {
        bits[size_t(p) / 64] |= uint64_t(1) << (p % 64);
        if (p >= 0 && p < program_.players && team_of[size_t(p)] < 0) team_of[size_t(p)] = int(t);
      }
      w_.linef("  {},", names_.bits_literal(ir::kPlayerDomain, bits));
    }
    if (teams.empty()) w_.line("  {},");
    w_.line("};");
    std::string list;
    for (int t : team_of) list += fmt::format("{}{}", list.empty() ? "" : ", ", t < 0 ? "kNone" : std::to_string(t));
    w_.linef("/// team_of(p): each player's team");
    w_.linef("constexpr Int kTeamOf[{}] = {{{}}};", std::max(program_.players, 1),
             list.empty() ? "0" : list);
    w_.linef("constexpr const char* kNoTeam[{}] = {{", std::max(program_.players, 1));
    for (int p = 0; p < std::max(program_.players, 1); ++p)
      w_.linef("  {},", names_.quote(run_errors::in_no_team(size_t(p) < program_.player_names.size()
                                                          ? program_.player_names[size_t(p)]
                                                          : std::string())));
    w_.line("};");
    w_.line("inline Int team_of(Int p, const char* where) {");
    w_.line("  if (kTeamOf[p] == kNone) fail(where, kNoTeam[p]);");
    w_.line("  return kTeamOf[p];");
    w_.line("}");
  }
  w_.blank();
}

}  // namespace rulebook::compiler::emit
