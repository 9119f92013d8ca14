// The checker's set-up of the board, the players, the teams and the regions: the constants
// every later declaration is checked against.
#include <algorithm>

#include <fmt/format.h>

#include "dsl/check_internal.h"
#include "dsl/limits.h"

namespace rulebook::dsl {

// ------------------------------------------------------------------ board, players, regions

void Checker::setup_board() {
  const Board* b = game_.board;
  if (!b) {
    // After a syntax or loading error the board may just have been lost: say nothing more.
    if (!game_.loaded.chain.empty() && !main_diags_.has_errors()) {
      error(game_.loaded.chain.front().file->title_span, "the game declares no board").hint =
          "add a board: 'board ROWS x COLUMNS;'";
    }
    return;
  }
  {
    ContextScope scope(*this, constant_context("the board size"));
    auto rows = constant_int(*b->rows, "the board size");
    auto cols = constant_int(*b->columns, "the board size");
    if (rows && *rows < 1) error(b->rows->span, "the board needs at least one row");
    else game_.rows = rows;
    if (cols && *cols < 1) error(b->columns->span, "the board needs at least one column");
    else game_.columns = cols;
    if (game_.rows && game_.columns &&
        capped_product(uint64_t(*game_.rows), uint64_t(*game_.columns), uint64_t(kMaxBoardCells)) >
            uint64_t(kMaxBoardCells)) {
      error(join_spans(b->rows->span, b->columns->span),
            fmt::format("the board of {} x {} cells is too large: a board has at most {} cells",
                        *game_.rows, *game_.columns, kMaxBoardCells));
      game_.rows.reset();
      game_.columns.reset();
    }
  }
}

void Checker::setup_players() {
  const Players* p = game_.players;
  if (!p) return;
  std::optional<int64_t> count;
  {
    ContextScope scope(*this, constant_context("the number of players"));
    count = constant_int(*p->count, "the number of players");
  }
  if (!count) return;
  if (*count < 1) {
    error(p->count->span, "a game needs at least one player");
    return;
  }
  if (*count > kMaxPlayers) {
    error(p->count->span, fmt::format("{} players are too many: a game has at most {}", *count,
                                      kMaxPlayers));
    return;
  }
  if (!p->names.empty() && static_cast<int64_t>(p->names.size()) != *count) {
    error(join_spans(p->names.front().span, p->names.back().span),
          fmt::format("{} named, but the game has {}", plural(int64_t(p->names.size()), "player"),
                      plural(*count, "player")));
  }
  const Decl* decl = nullptr;
  for (const Decl* d : game_.decls)
    if (std::get_if<Players>(&d->body) == p) decl = d;
  for (int64_t i = 0; i < *count; ++i) {
    Symbol s;
    s.kind = NameKind::Player;
    s.type = player_type();
    s.decl = decl;
    s.index = static_cast<int>(i);
    if (!p->names.empty()) {
      if (i >= static_cast<int64_t>(p->names.size())) break;
      s.name = p->names[size_t(i)].name;
      s.span = p->names[size_t(i)].span;
    } else {
      s.name = fmt::format("p{}", i + 1);
      s.span = p->count->span;
    }
    game_.player_names.push_back(s.name);
    declare_global(std::move(s));
  }
}

void Checker::setup_teams() {
  std::map<std::string, std::string> team_of;
  for (TeamInfo& t : game_.teams) {
    for (const Ident& m : t.team->members) {
      const Symbol* s = lookup(m.name);
      if (!s || s->kind != NameKind::Player) {
        auto& d = error(m.span, fmt::format("unknown player '{}'", m.name));
        std::string guess = closest_name(m.name, game_.player_names);
        if (!guess.empty()) d.hint = fmt::format("did you mean '{}'?", guess);
        continue;
      }
      auto [it, fresh] = team_of.emplace(m.name, t.name);
      if (!fresh) {
        error(m.span, fmt::format("'{}' is already in team '{}'", m.name, it->second));
        continue;
      }
      t.members.push_back(s->index);
    }
  }
}

void Checker::setup_regions(RegionInfo& info) {
  const Regions& r = *info.regions;
  ContextScope scope(*this, constant_context("a region size"));
  if (r.grid) {
    const Expr& g = *r.grid;
    if (!g.grid.keys.empty())
      error(g.grid.keys.front().span, "a regions grid takes no 'with' table").hint =
          "every letter of the grid is a region; '.' is a cell in no region";
    check_grid_shape(g);
    record(g, map_of(cell_type(), int_type()));
    if (!game_.rows || !game_.columns) return;
    // One region per letter, numbered in reading order.
    std::vector<int> cells;
    for (const std::string& row : g.grid.rows) {
      for (char c : row) {
        if (c == '.') {
          cells.push_back(-1);
          continue;
        }
        std::string label(1, c);
        auto it = std::find(info.labels.begin(), info.labels.end(), label);
        if (it == info.labels.end()) {
          info.labels.push_back(label);
          it = info.labels.end() - 1;
        }
        cells.push_back(static_cast<int>(it - info.labels.begin()));
      }
    }
    if (cells.size() == static_cast<size_t>(*game_.rows * *game_.columns)) {
      info.cell_region = std::move(cells);
      info.count = static_cast<int>(info.labels.size());
    }
    return;
  }
  auto br = constant_int(*r.block_rows, "a block size");
  auto bc = constant_int(*r.block_columns, "a block size");
  if (!br || !bc) return;
  Span span = join_spans(r.block_rows->span, r.block_columns->span);
  if (*br < 1 || *bc < 1) {
    error(span, "a block needs at least one row and one column");
    return;
  }
  if (!game_.rows || !game_.columns) return;
  int64_t rows = *game_.rows, cols = *game_.columns;
  if (rows % *br != 0 || cols % *bc != 0) {
    auto& d = error(span, fmt::format("blocks {} x {} do not tile the {} x {} board", *br, *bc,
                                      rows, cols));
    d.hint = rows % *br != 0
                 ? fmt::format("{} is not a multiple of {}", plural(rows, "row"), *br)
                 : fmt::format("{} is not a multiple of {}", plural(cols, "column"), *bc);
    return;
  }
  int64_t across = cols / *bc;
  for (int64_t y = 0; y < rows; ++y)
    for (int64_t x = 0; x < cols; ++x)
      info.cell_region.push_back(static_cast<int>((y / *br) * across + x / *bc));
  info.count = static_cast<int>((rows / *br) * across);
}

}  // namespace rulebook::dsl
