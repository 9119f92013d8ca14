// Small SVG charts for reports: bar charts (win shares with confidence intervals) and
// histograms. Same data, same bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rulebook::render {

struct Bar {
  std::string label;
  double value = 0;
  std::optional<double> lo, hi;  ///< an interval drawn as an error bar
  std::string colour;            ///< "" for the default
};

struct ChartOptions {
  std::string title;
  std::string x_label, y_label;
  int width = 440, height = 220;
  bool percent = false;  ///< values are shares in [0, 1], shown as percentages
};

/// A vertical bar chart (also a histogram when the labels are consecutive values).
std::string bar_chart_svg(const std::vector<Bar>& bars, const ChartOptions& options);

}  // namespace rulebook::render
