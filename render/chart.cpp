// Bar charts as plain SVG: axes, a few ticks, labels thinned out when bars are many.
#include "render/chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/palette.h"

namespace rulebook::render {
namespace {

/// A round axis maximum at or above `v`: 1, 2 or 5 times a power of ten.
double nice_max(double v) {
  if (v <= 0) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= v) return m * p;
  return 10 * p;
}

std::string tick_text(double v, bool percent) {
  return percent ? num(v * 100) + "%" : num(v);
}

}  // namespace

std::string bar_chart_svg(const std::vector<Bar>& bars, const ChartOptions& o) {
  const double left = 48, right = 10, top = o.title.empty() ? 10 : 26, bottom = 40;
  const double w = o.width, h = o.height;
  const double pw = w - left - right, ph = h - top - bottom;
  double top_value = 0;
  for (const Bar& b : bars) top_value = std::max({top_value, b.value, b.hi.value_or(0)});
  const double ymax = o.percent ? std::min(1.0, nice_max(top_value)) : nice_max(top_value);
  auto Y = [&](double v) { return top + ph - ph * std::clamp(v / ymax, 0.0, 1.0); };

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" class=\"chart\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n",
      num(w), num(h));
  if (!o.title.empty())
    s += fmt::format("<text x=\"{}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>\n", num(left),
                     xml_escape(o.title));
  for (int i = 0; i <= 4; ++i) {
    const double v = ymax * i / 4;
    s += fmt::format("<path d=\"M{} {}H{}\" stroke=\"#e0e0e0\"/>\n", num(left), num(Y(v)), num(left + pw));
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\" fill=\"#616161\">{}</text>\n",
                     num(left - 4), num(Y(v) + 3), tick_text(v, o.percent));
  }
  const size_t n = bars.size();
  const double slot = n ? pw / double(n) : pw;
  const size_t every = std::max<size_t>(1, (n + 19) / 20);  // at most ~20 axis labels
  for (size_t i = 0; i < n; ++i) {
    const Bar& b = bars[i];
    const double x = left + slot * double(i);
    const double y = Y(b.value);
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {}</title></rect>\n",
                     num(x + slot * 0.1), num(y), num(slot * 0.8), num(top + ph - y),
                     b.colour.empty() ? "#5c6bc0" : safe_colour(b.colour), xml_escape(b.label),
                     tick_text(b.value, o.percent));
    if (b.lo && b.hi) {
      const double cx = x + slot / 2;
      s += fmt::format("<path d=\"M{0} {1}V{2}M{3} {1}H{4}M{3} {2}H{4}\" stroke=\"#212121\" stroke-width=\"1.2\"/>\n",
                       num(cx), num(Y(*b.lo)), num(Y(*b.hi)), num(cx - slot * 0.15), num(cx + slot * 0.15));
    }
    if (i % every == 0)
      s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\n",
                       num(x + slot / 2), num(top + ph + 13), xml_escape(b.label));
  }
  s += fmt::format("<path d=\"M{0} {1}V{2}H{3}\" stroke=\"#424242\" fill=\"none\"/>\n", num(left), num(top),
                   num(top + ph), num(left + pw));
  if (!o.x_label.empty())
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#424242\">{}</text>\n",
                     num(left + pw / 2), num(h - 6), xml_escape(o.x_label));
  if (!o.y_label.empty())
    s += fmt::format("<text x=\"12\" y=\"{0}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#424242\" "
                     "transform=\"rotate(-90 12 {0})\">{1}</text>\n",
                     num(top + ph / 2), xml_escape(o.y_label));
  s += "</svg>\n";
  return s;
}

}  // namespace rulebook::render
