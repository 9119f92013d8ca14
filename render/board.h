// Board diagrams of any game, read from the IR and the state bytes only: one model of what
// each cell shows, and its views as SVG, as text and as a Graphviz HTML-like label.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"

namespace rulebook::render {

/// What one cell shows, derived from the state variables keyed by Cell.
struct CellView {
  std::string label;     ///< short text of the main value ("" when empty)
  int player = -1;       ///< a piece of this player (its colour), -1 for none
  int shade = -1;        ///< a fill from the shade palette (enum member, true bool field)
  std::string shade_text;  ///< the shade's enum member, short (text boards show it: no colour there)
  int tint = -1;         ///< a light background in this player's colour (a second variable)
  bool filled = false;   ///< a plain `true` of a bool variable
  bool blocked = false;  ///< in a setup `set of Cell` (or Cell -> bool)
  bool given = false;    ///< set by a setup map (a puzzle's given)
  bool moved = false;    ///< named by the last move
  bool captured = false; ///< emptied by the last move (not the cell a piece moved from)
  std::vector<std::string> notes;  ///< other Cell-keyed variables, as `name=value`
};

/// The whole board: cells row-major, the first region set and a legend of what was used.
struct BoardModel {
  int width = 0, height = 0;
  std::vector<CellView> cells;
  std::string region_set;        ///< name of the first region set ("" when none)
  std::vector<int> region_of;    ///< its region per cell (empty when none)
  std::string main_var;          ///< the variable whose values are the labels
  std::vector<std::string> blocked_vars, given_vars, tint_vars;
  std::vector<std::string> player_colours;  ///< the game's palette (palette_of), per player
  std::string pieces_legend;  ///< who wears which colour, in words ("" when no piece shows)
  /// Player `index`'s piece colour.
  std::string_view piece_colour(int index) const {
    return index < 0 || size_t(index) >= player_colours.size() ? "#000000"
                                                                : std::string_view(player_colours[size_t(index)]);
  }
};

/// The move that led to a state and the state before it, to mark the move and captures.
struct LastMove {
  engine::Move move;
  const uint8_t* before = nullptr;  ///< may be null: captures are then not marked
};

/// Builds the model. The main variable is the first `state` variable keyed by Cell; other
/// state variables keyed by Cell holding players tint the cell, the rest become notes.
BoardModel board_model(const ir::Program& program, const uint8_t* state,
                       const LastMove* last = nullptr);

/// Drawings a caller adds on top of a board, in board units: (0,0) is the top-left corner
/// of the board, (x + 0.5, y + 0.5) the centre of cell (x, y), (px, py) the crossing point.
struct Annotations {
  struct Line {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::string colour = "#000000";
    bool dashed = false;
    std::string title;  ///< a tooltip
  };
  struct Mark {
    double x = 0, y = 0;
    std::string colour = "#000000";
    std::string label;  ///< drawn beside the dot ("" for none)
  };
  struct CellLabel {
    int cell = 0;
    std::string text;
    std::string colour = "#000000";
  };
  struct CellFill {
    int cell = 0;
    std::string colour = "#cccccc";
  };
  std::vector<CellFill> fills;    ///< under everything else
  std::vector<Line> lines;
  std::vector<Mark> marks;
  std::vector<CellLabel> labels;  ///< small, in the cell's lower-right corner
  std::vector<std::string> legend;
  bool empty() const { return fills.empty() && lines.empty() && marks.empty() && labels.empty(); }
};

struct DrawOptions {
  int cell = 36;                      ///< pixels per cell
  bool coordinates = true;            ///< row and column numbers around the board
  std::string title;                  ///< drawn above the board ("" for none)
  std::optional<LastMove> last;       ///< mark the last move and what it emptied
  const Annotations* annotations = nullptr;
};

/// The colours board_svg marks a last move, a capture and a blocked cell with.
inline constexpr std::string_view kMoveColour = "#ffb300";
inline constexpr std::string_view kCaptureColour = "#b00020";
inline constexpr std::string_view kBlockedColour = "#9e9e9e";

/// A cell's background in board_svg: blocked grey, a shade, a player's tint, or white.
std::string cell_fill(const BoardModel& model, const CellView& cell);

/// The lines under a board: which variables were read for what, who wears which colour.
std::vector<std::string> board_legend(const BoardModel& model, const DrawOptions& options);

/// A standalone SVG document (no XML prolog, so it can also be inlined in HTML).
/// Same inputs, same bytes.
std::string board_svg(const ir::Program& program, const uint8_t* state, const DrawOptions& options);

/// The board as a text grid: labels, `#` blocked, `*` given, `[..]` last move, `~` captured, `x` a true bool,
/// then a legend line; annotations' labels are listed below.
std::string board_text(const ir::Program& program, const uint8_t* state, const DrawOptions& options);

/// A Graphviz HTML-like label (a <TABLE>) of the board with cells of `cell_points` points.
std::string board_html_label(const ir::Program& program, const uint8_t* state, int cell_points,
                             const LastMove* last = nullptr);

}  // namespace rulebook::render
