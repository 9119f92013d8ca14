// Cell looks for the step-through viewer, read off the same board model and colour choices
// as board_svg, so the viewer's boards and the report's diagrams agree.
#include "render/viewer.h"

#include <fmt/format.h>

#include "render/palette.h"

namespace rulebook::render {

BoardLooks board_looks(const ir::Program& program, const uint8_t* state, const LastMove* last) {
  const BoardModel m = board_model(program, state, last);
  BoardLooks out;
  out.legend = board_legend(m, DrawOptions{});
  out.cells.reserve(m.cells.size());
  for (const CellView& cv : m.cells) {
    CellLook l;
    l.fill = cell_fill(m, cv);
    l.label = cv.label;
    l.ink = "#212121";
    if (cv.player >= 0) {
      l.disc = std::string(m.piece_colour(cv.player));
      l.ink = std::string(text_on(l.disc));
    }
    l.notes = fmt::format("{}", fmt::join(cv.notes, " "));
    l.flags = (cv.blocked ? CellLook::kBlocked : 0) | (cv.player < 0 && cv.filled ? CellLook::kFilled : 0) |
              (cv.given ? CellLook::kGiven : 0) | (cv.moved ? CellLook::kMoved : 0) |
              (cv.captured ? CellLook::kCaptured : 0);
    out.cells.push_back(std::move(l));
  }
  return out;
}

BoardFrame board_frame(const ir::Program& program) {
  BoardFrame f;
  f.width = program.geometry.width;
  f.height = program.geometry.height;
  if (!program.geometry.region_sets.empty()) f.region_of = program.geometry.region_sets[0].region_of;
  return f;
}

}  // namespace rulebook::render
