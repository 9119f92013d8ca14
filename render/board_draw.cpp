// The views of a board model: SVG (reports, `rulebook draw`), text (terminals, witnesses)
// and a Graphviz HTML-like label (game-tree nodes). Every number is formatted by num(), so
// the same state always gives the same bytes.
#include <algorithm>

#include <fmt/format.h>

#include "render/board.h"
#include "render/palette.h"

namespace rulebook::render {
std::string cell_fill(const BoardModel& m, const CellView& c) {
  if (c.blocked) return std::string(kBlockedColour);
  if (c.shade >= 0) return std::string(shade_colour(c.shade));
  if (c.tint >= 0) return light_tint(m.piece_colour(c.tint));
  return "#ffffff";
}

std::vector<std::string> board_legend(const BoardModel& m, const DrawOptions& o) {
  std::vector<std::string> out;
  if (!m.main_var.empty()) out.push_back("cells: " + m.main_var);
  if (!m.pieces_legend.empty()) out.push_back(m.pieces_legend);
  if (!m.blocked_vars.empty()) out.push_back(fmt::format("grey: {}", fmt::join(m.blocked_vars, ", ")));
  if (!m.given_vars.empty()) out.push_back(fmt::format("bold: {}", fmt::join(m.given_vars, ", ")));
  if (!m.tint_vars.empty()) out.push_back(fmt::format("tint: {}", fmt::join(m.tint_vars, ", ")));
  if (o.annotations)
    for (const std::string& s : o.annotations->legend) out.push_back(s);
  return out;
}

std::string board_svg(const ir::Program& p, const uint8_t* state, const DrawOptions& o) {
  const BoardModel m = board_model(p, state, o.last ? &*o.last : nullptr);
  const double c = o.cell;
  const double margin = o.coordinates ? c * 0.6 : 4;
  const double title_h = o.title.empty() ? 0 : c * 0.7;
  const std::vector<std::string> lines = board_legend(m, o);
  const double legend_line = 15;
  const double ox = margin, oy = title_h + margin;
  const double bw = m.width * c, bh = m.height * c;
  // Wide enough for the longest legend line (12-point text, about 6.6 units a character).
  size_t longest = 0;
  for (const std::string& l : lines) longest = std::max(longest, l.size());
  const double width = std::max({bw + 2 * margin, 200.0, ox + 6.6 * double(longest) + 4});
  const double height = oy + bh + margin + legend_line * double(lines.size());
  auto X = [&](double bx) { return num(ox + bx * c); };
  auto Y = [&](double by) { return num(oy + by * c); };

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" class=\"board\">\n",
      num(width), num(height));
  s += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", num(width), num(height));
  if (!o.title.empty())
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\">{}</text>\n",
                     num(ox), num(title_h * 0.75), num(c * 0.4), xml_escape(o.title));
  // Cells: background, then the caller's fills, then the grid.
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) {
      const CellView& cv = m.cells[size_t(y * m.width + x)];
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", X(x), Y(y),
                       num(c), num(c), cell_fill(m, cv));
      if (cv.blocked)
        s += fmt::format("<path d=\"M{} {}L{} {}\" stroke=\"#ffffff\" stroke-width=\"1\"/>\n", X(x), Y(y + 1),
                         X(x + 1), Y(y));
    }
  if (o.annotations)
    for (const Annotations::CellFill& f : o.annotations->fills) {
      if (f.cell < 0 || f.cell >= m.width * m.height) continue;
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", X(f.cell % m.width),
                       Y(f.cell / m.width), num(c), num(c), safe_colour(f.colour));
    }
  std::string grid;
  for (int x = 1; x < m.width; ++x) grid += fmt::format("M{} {}V{}", X(x), Y(0), Y(m.height));
  for (int y = 1; y < m.height; ++y) grid += fmt::format("M{} {}H{}", X(0), Y(y), X(m.width));
  if (!grid.empty()) s += fmt::format("<path d=\"{}\" stroke=\"#9e9e9e\" stroke-width=\"1\" fill=\"none\"/>\n", grid);
  // Region borders: a thick segment wherever two neighbours lie in different regions.
  std::string borders;
  if (!m.region_of.empty()) {
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x) {
        const int r = m.region_of[size_t(y * m.width + x)];
        if (x + 1 < m.width && m.region_of[size_t(y * m.width + x + 1)] != r)
          borders += fmt::format("M{} {}V{}", X(x + 1), Y(y), Y(y + 1));
        if (y + 1 < m.height && m.region_of[size_t((y + 1) * m.width + x)] != r)
          borders += fmt::format("M{} {}H{}", X(x), Y(y + 1), X(x + 1));
      }
  }
  borders += fmt::format("M{} {}H{}V{}H{}Z", X(0), Y(0), X(m.width), Y(m.height), X(0));
  s += fmt::format("<path d=\"{}\" stroke=\"#212121\" stroke-width=\"{}\" fill=\"none\" stroke-linecap=\"square\"/>\n",
                   borders, num(std::max(2.0, c / 14)));
  if (o.coordinates) {
    const double fs = c * 0.3;
    for (int x = 0; x < m.width; ++x)
      s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#757575\">{}</text>\n",
                       X(x + 0.5), num(oy - margin * 0.3), num(fs), x);
    for (int y = 0; y < m.height; ++y)
      s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"#757575\">{}</text>\n",
                       num(ox - margin * 0.5), num(oy + (y + 0.5) * c + fs * 0.35), num(fs), y);
  }
  // Contents: pieces and labels, notes, the last move and captures.
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) {
      const CellView& cv = m.cells[size_t(y * m.width + x)];
      const std::string cx = X(x + 0.5), cy = Y(y + 0.5);
      const double fs = c * (cv.label.size() <= 2 ? 0.42 : 0.3);
      std::string text_colour = "#212121";
      if (cv.player >= 0) {
        s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>\n", cx, cy, num(c * 0.38),
                         m.piece_colour(cv.player));
        text_colour = std::string(text_on(m.piece_colour(cv.player)));
      } else if (cv.filled) {
        s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#424242\"/>\n", X(x + 0.12),
                         Y(y + 0.12), num(c * 0.76), num(c * 0.76));
      }
      if (!cv.label.empty())
        s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{}\"{}>{}</text>\n",
                         cx, num(oy + (y + 0.5) * c + fs * 0.36), num(fs), text_colour,
                         cv.given ? " font-weight=\"bold\" text-decoration=\"underline\"" : "",
                         xml_escape(cv.label));
      if (!cv.notes.empty())
        s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#616161\">{}</text>\n", X(x + 0.06),
                         Y(y + 0.24), num(c * 0.18), xml_escape(fmt::format("{}", fmt::join(cv.notes, " "))));
      if (cv.moved)
        s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" "
                         "stroke-width=\"{}\"/>\n",
                         X(x + 0.06), Y(y + 0.06), num(c * 0.88), num(c * 0.88), kMoveColour, num(c / 10));
      if (cv.captured)
        s += fmt::format("<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"{}\"/>\n", X(x + 0.25),
                         Y(y + 0.25), X(x + 0.75), Y(y + 0.75), X(x + 0.75), Y(y + 0.25), X(x + 0.25), Y(y + 0.75),
                         kCaptureColour, num(c / 12));
    }
  if (o.annotations) {
    for (const Annotations::Line& l : o.annotations->lines)
      s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\" "
                       "stroke-linecap=\"round\" opacity=\"0.8\"{}>{}</line>\n",
                       X(l.x0), Y(l.y0), X(l.x1), Y(l.y1), safe_colour(l.colour), num(c / 9),
                       l.dashed ? fmt::format(" stroke-dasharray=\"{} {}\"", num(c / 5), num(c / 8)) : "",
                       l.title.empty() ? "" : "<title>" + xml_escape(l.title) + "</title>");
    for (const Annotations::Mark& mk : o.annotations->marks) {
      s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>\n", X(mk.x), Y(mk.y), num(c * 0.09),
                       safe_colour(mk.colour));
      if (!mk.label.empty())
        s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>\n", num(ox + mk.x * c + c * 0.1),
                         num(oy + mk.y * c - c * 0.08), num(c * 0.2), safe_colour(mk.colour), xml_escape(mk.label));
    }
    for (const Annotations::CellLabel& lb : o.annotations->labels) {
      if (lb.cell < 0 || lb.cell >= m.width * m.height) continue;
      const int x = lb.cell % m.width, y = lb.cell / m.width;
      s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"end\" fill=\"{}\">{}</text>\n",
                       X(x + 0.94), Y(y + 0.92), num(c * 0.24), safe_colour(lb.colour), xml_escape(lb.text));
    }
  }
  for (size_t i = 0; i < lines.size(); ++i)
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#424242\">{}</text>\n", num(ox),
                     num(oy + bh + margin + legend_line * (double(i) + 0.7)), xml_escape(lines[i]));
  s += "</svg>\n";
  return s;
}

std::string board_text(const ir::Program& p, const uint8_t* state, const DrawOptions& o) {
  const BoardModel m = board_model(p, state, o.last ? &*o.last : nullptr);
  std::vector<std::string> tokens;
  size_t w = 1;
  for (const CellView& cv : m.cells) {
    // A shade alone (an enum member, no other label) is a colour in pictures: here its name.
    std::string t = !cv.label.empty()       ? cv.label
                    : !cv.shade_text.empty() ? cv.shade_text
                    : cv.filled             ? "x"
                    : cv.captured           ? "~"
                    : cv.blocked            ? "#"
                                            : ".";
    if (cv.given) t += "*";
    if (!cv.label.empty() && cv.blocked) t += "#";
    if (cv.moved) t = "[" + t + "]";
    w = std::max(w, t.size());
    tokens.push_back(std::move(t));
  }
  std::string out;
  if (!o.title.empty()) out += o.title + "\n";
  for (int y = 0; y < m.height; ++y) {
    std::string line;
    for (int x = 0; x < m.width; ++x) {
      // Region borders as a `|` between columns of different regions.
      bool border = x > 0 && !m.region_of.empty() &&
                    m.region_of[size_t(y * m.width + x)] != m.region_of[size_t(y * m.width + x - 1)];
      line += border ? " | " : " ";
      line += fmt::format("{:>{}}", tokens[size_t(y * m.width + x)], w);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  for (const std::string& l : board_legend(m, o)) out += "  " + l + "\n";
  if (o.annotations)
    for (const Annotations::CellLabel& lb : o.annotations->labels)
      if (lb.cell >= 0 && lb.cell < m.width * m.height)
        out += fmt::format("  r{}c{}: {}\n", lb.cell / m.width, lb.cell % m.width, lb.text);
  return out;
}

std::string board_html_label(const ir::Program& p, const uint8_t* state, int cell_points,
                             const LastMove* last) {
  const BoardModel m = board_model(p, state, last);
  // A fixed size: in a node wider than the board (a long caption) the cells stay together
  // instead of spreading over the width.
  std::string s = fmt::format(
      "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\" COLOR=\"#9e9e9e\" "
      "FIXEDSIZE=\"TRUE\" WIDTH=\"{}\" HEIGHT=\"{}\">",
      m.width * cell_points, m.height * cell_points);
  for (int y = 0; y < m.height; ++y) {
    s += "<TR>";
    for (int x = 0; x < m.width; ++x) {
      const CellView& cv = m.cells[size_t(y * m.width + x)];
      std::string bg = cv.player >= 0 ? std::string(m.piece_colour(cv.player)) : cv.filled ? "#424242" : cell_fill(m, cv);
      std::string fg = cv.player >= 0 || cv.filled ? std::string(text_on(bg)) : "#212121";
      s += fmt::format("<TD WIDTH=\"{0}\" HEIGHT=\"{0}\" FIXEDSIZE=\"TRUE\" BGCOLOR=\"{1}\"{2}>", cell_points, bg,
                       cv.moved ? fmt::format(" COLOR=\"{}\"", kMoveColour) : "");
      if (!cv.label.empty())
        s += fmt::format("<FONT POINT-SIZE=\"{}\" COLOR=\"{}\">{}</FONT>", num(cell_points * 0.6), fg,
                         xml_escape(cv.label));
      s += "</TD>";
    }
    s += "</TR>";
  }
  s += "</TABLE>";
  return s;
}

}  // namespace rulebook::render
