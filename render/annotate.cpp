// Annotations from definitions: each layer checks its definition's type, evaluates it with
// the interpreter in the given state, and places the values on cells, lines and points.
#include "render/annotate.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "render/palette.h"

namespace rulebook::render {
namespace {

using TK = ir::Type::Kind;

std::string type_text(const ir::Program& p, const ir::TypePtr& t) {
  if (!t) return "nothing";
  std::string d = t->domain >= 0 ? p.domains[size_t(t->domain)].name : "int";
  if (t->kind == TK::Set) return "set of " + d;
  if (t->kind == TK::List) return "a list";
  return d;
}

bool is(const ir::TypePtr& t, TK kind, int domain = -2) {
  return t && t->kind == kind && (domain == -2 || t->domain == domain);
}

}  // namespace

bool parse_layer(const std::string& text, Layer& out, std::string& error) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, ':');) parts.push_back(part);
  if (parts.size() < 2 || parts[1].empty()) {
    error = fmt::format("layer '{}': write kind:define[:option...]", text);
    return false;
  }
  const std::string& k = parts[0];
  if (k == "cells") out.kind = Layer::Kind::Cells;
  else if (k == "line-cells") out.kind = Layer::Kind::LineCells;
  else if (k == "points") out.kind = Layer::Kind::Points;
  else if (k == "cell-labels") out.kind = Layer::Kind::CellLabels;
  else if (k == "group-labels") out.kind = Layer::Kind::GroupLabels;
  else {
    error = fmt::format("layer '{}': unknown kind '{}' (cells, line-cells, points, cell-labels, group-labels)",
                        text, k);
    return false;
  }
  out.define = parts[1];
  for (size_t i = 2; i < parts.size(); ++i) {
    const std::string& o = parts[i];
    const size_t eq = o.find('=');
    const std::string key = o.substr(0, eq), value = eq == std::string::npos ? "" : o.substr(eq + 1);
    if (key == "colour" || key == "color") out.colour = value;
    else if (key == "title") out.title = value;
    else if (key == "cells") out.cells = value;
    else if (key == "only") out.only = value;
    else if (key == "dashed") out.dashed = true;
    else if (key == "components") out.components = true;
    else if (key == "digits" && !value.empty() && value.size() < 3 &&
             std::all_of(value.begin(), value.end(), ::isdigit))
      out.digits = std::stoi(value);
    else {
      error = fmt::format("layer '{}': unknown option '{}'", text, o);
      return false;
    }
  }
  if (out.kind == Layer::Kind::GroupLabels && out.cells.empty()) {
    error = fmt::format("layer '{}': group-labels needs cells=DEFINE", text);
    return false;
  }
  return true;
}

Annotator::Annotator(const ir::Program& program, const dsl::SourceSet& sources)
    : program_(program), interp_(program, sources), eval_(interp_) {}

Annotator::~Annotator() = default;

engine::Status Annotator::find(const std::string& name, int& index) const {
  for (size_t i = 0; i < program_.functions.size(); ++i)
    if (program_.functions[i].name == name) {
      index = int(i);
      return engine::Status::Ok();
    }
  return engine::Status::Error(fmt::format("{}: no define '{}'", program_.source_path, name));
}

engine::Status Annotator::eval(int f, const std::vector<Arg>& args, const uint8_t* state,
                               compiler::interp::Value& out) {
  const ir::Function& fn = program_.functions[size_t(f)];
  std::vector<compiler::interp::Value> values(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].is_set) values[i].set = args[i].bits;
    else values[i].scalar = args[i].value;
  }
  state_.assign(state, state + program_.state_bytes);
  eval_.start(state_.data(), fn.locals);
  return eval_.call(f, values, out);
}

engine::Status Annotator::eval(int f, const std::vector<Arg>& args, const uint8_t* state, int64_t& out) {
  compiler::interp::Value v;
  engine::Status st = eval(f, args, state, v);
  out = v.scalar;
  return st;
}

engine::Status Annotator::members(int f, const std::vector<Arg>& args, int domain, const uint8_t* state,
                                  std::vector<int64_t>& out) {
  out.clear();
  compiler::interp::Value set;
  if (engine::Status st = eval(f, args, state, set); !st.ok) return st;
  const ir::Domain& d = program_.domains[size_t(domain)];
  for (uint32_t i = 0; i < d.size; ++i)
    if (ir::test(set.set, i)) out.push_back(ir::domain_value(program_.domains, domain, i));
  return engine::Status::Ok();
}

engine::Status Annotator::draw(const std::vector<Layer>& layers, const uint8_t* state, Annotations& out) {
  for (const Layer& l : layers)
    if (engine::Status st = draw_layer(l, state, out); !st.ok) return st;
  return engine::Status::Ok();
}

engine::Status Annotator::draw_layer(const Layer& layer, const uint8_t* state, Annotations& out) {
  const ir::Program& p = program_;
  const int w = p.geometry.width, h = p.geometry.height;
  int f = -1;
  if (engine::Status st = find(layer.define, f); !st.ok) return st;
  const ir::Function& fn = p.functions[size_t(f)];
  auto wrong = [&](const char* needs) {
    std::vector<std::string> ps;
    for (const auto& t : fn.params) ps.push_back(type_text(p, t));
    return engine::Status::Error(fmt::format("{}: define '{}' ({}) -> {}: this layer needs {}", p.source_path,
                                             fn.name, fmt::join(ps, ", "), type_text(p, fn.result), needs));
  };
  const std::string colour = layer.colour.empty() ? "#37474f" : layer.colour;
  const std::string title = layer.title.empty() ? layer.define : layer.title;
  auto pad = [&](int domain, int64_t v) {
    if (domain < 0 || p.domains[size_t(domain)].kind == ir::Domain::Kind::Range)
      return layer.digits > 0 ? fmt::format("{:0{}}", v, layer.digits) : std::to_string(v);
    return ir::value_text(p.domains, domain, v);
  };
  std::vector<int64_t> found;
  switch (layer.kind) {
    case Layer::Kind::Cells: {
      if (!fn.params.empty() || !is(fn.result, TK::Set, ir::kCellDomain)) return wrong("no parameters, set of Cell");
      if (engine::Status st = members(f, {}, ir::kCellDomain, state, found); !st.ok) return st;
      for (int64_t c : found) out.fills.push_back({int(c), layer.colour.empty() ? "#cfd8dc" : layer.colour});
      out.legend.push_back(fmt::format("{} cells: {} ({})", colour_words(layer.colour.empty() ? "#cfd8dc" : layer.colour),
                                       title, found.size()));
      return engine::Status::Ok();
    }
    case Layer::Kind::LineCells: {
      if (fn.params.size() != 2 || !is(fn.params[0], TK::Set, ir::kCellDomain) ||
          !is(fn.params[1], TK::Scalar, ir::kCellDomain) || !is(fn.result, TK::Scalar, ir::kBoolDomain))
        return wrong("(set of Cell, Cell) -> bool");
      const size_t words = (size_t(w * h) + 63) / 64;
      int drawn = 0;
      for (int axis = 0; axis < 2; ++axis) {
        const int lines = axis == 0 ? h : w, len = axis == 0 ? w : h;
        for (int l = 0; l < lines; ++l) {
          Arg line{true, 0, std::vector<uint64_t>(words, 0)};
          auto cell_at = [&](int i) { return axis == 0 ? l * w + i : i * w + l; };
          for (int i = 0; i < len; ++i) line.bits[size_t(cell_at(i)) / 64] |= uint64_t(1) << (cell_at(i) % 64);
          std::vector<bool> on(size_t(len), false);
          for (int i = 0; i < len; ++i) {
            int64_t v = 0;
            if (engine::Status st = eval(f, {line, Arg{false, cell_at(i), {}}}, state, v); !st.ok) return st;
            on[size_t(i)] = v != 0;
          }
          // One line per run of consecutive cells where the definition holds.
          for (int i = 0; i < len;) {
            if (!on[size_t(i)]) {
              ++i;
              continue;
            }
            int j = i;
            while (j + 1 < len && on[size_t(j + 1)]) ++j;
            Annotations::Line ln;
            const double a0 = i + 0.2, a1 = j + 0.8, across = l + 0.5;
            if (axis == 0) ln = {a0, across, a1, across, colour, layer.dashed, fmt::format("{} row {}", title, l)};
            else ln = {across, a0, across, a1, colour, layer.dashed, fmt::format("{} column {}", title, l)};
            out.lines.push_back(ln);
            ++drawn;
            i = j + 1;
          }
        }
      }
      out.legend.push_back(fmt::format("{}{} lines: {} ({})", colour_words(colour), layer.dashed ? " dashed" : "", title, drawn));
      return engine::Status::Ok();
    }
    case Layer::Kind::Points: {
      if (!fn.params.empty() || !is(fn.result, TK::Set, ir::kPointDomain)) return wrong("no parameters, set of Point");
      if (engine::Status st = members(f, {}, ir::kPointDomain, state, found); !st.ok) return st;
      const int pw = w + 1, ph = h + 1;
      std::vector<int> group(size_t(pw * ph), -1);
      std::vector<int> sizes;
      if (layer.components) {
        std::vector<bool> in(size_t(pw * ph), false);
        for (int64_t pt : found) in[size_t(pt)] = true;
        // Orthogonally connected groups, numbered in the order of their first point.
        for (int64_t start : found) {
          if (group[size_t(start)] >= 0) continue;
          const int g = int(sizes.size());
          sizes.push_back(0);
          std::vector<int> stack{int(start)};
          group[size_t(start)] = g;
          while (!stack.empty()) {
            const int q = stack.back();
            stack.pop_back();
            ++sizes[size_t(g)];
            const int qx = q % pw, qy = q / pw;
            const int nb[4][2] = {{qx - 1, qy}, {qx + 1, qy}, {qx, qy - 1}, {qx, qy + 1}};
            for (const auto& n : nb) {
              if (n[0] < 0 || n[0] >= pw || n[1] < 0 || n[1] >= ph) continue;
              const int r = n[1] * pw + n[0];
              if (in[size_t(r)] && group[size_t(r)] < 0) {
                group[size_t(r)] = g;
                stack.push_back(r);
              }
            }
          }
        }
      }
      std::vector<bool> labelled(sizes.size(), false);
      for (int64_t pt : found) {
        Annotations::Mark mk;
        mk.x = double(pt % pw);
        mk.y = double(pt / pw);
        mk.colour = colour;
        if (layer.components) {
          const int g = group[size_t(pt)];
          mk.colour = std::string(player_colour(g));
          if (!labelled[size_t(g)]) mk.label = std::to_string(sizes[size_t(g)]);
          labelled[size_t(g)] = true;
        }
        out.marks.push_back(mk);
      }
      if (layer.components)
        out.legend.push_back(fmt::format("dots: {} ({} points; {} {} {})", title, found.size(), sizes.size(),
                                         sizes.size() == 1 ? "group of size" : "groups of sizes", fmt::join(sizes, ", ")));
      else
        out.legend.push_back(fmt::format("{} dots: {} ({})", colour_words(colour), title, found.size()));
      return engine::Status::Ok();
    }
    case Layer::Kind::CellLabels: {
      if (fn.params.size() != 1 || !is(fn.params[0], TK::Scalar, ir::kCellDomain) || !is(fn.result, TK::Scalar))
        return wrong("(Cell) -> a scalar");
      std::vector<int64_t> cells;
      if (!layer.only.empty()) {
        int g = -1;
        if (engine::Status st = find(layer.only, g); !st.ok) return st;
        const ir::Function& gf = p.functions[size_t(g)];
        if (!gf.params.empty() || !is(gf.result, TK::Set, ir::kCellDomain))
          return engine::Status::Error(fmt::format("{}: define '{}' must be a set of Cell without parameters",
                                                   p.source_path, layer.only));
        if (engine::Status st = members(g, {}, ir::kCellDomain, state, cells); !st.ok) return st;
      } else {
        for (int c = 0; c < w * h; ++c) cells.push_back(c);
      }
      for (int64_t c : cells) {
        int64_t v = 0;
        if (engine::Status st = eval(f, {Arg{false, c, {}}}, state, v); !st.ok) return st;
        out.labels.push_back({int(c), pad(fn.result->domain, v), colour});
      }
      out.legend.push_back(fmt::format("{} corner numbers: {}", colour_words(colour), title));
      return engine::Status::Ok();
    }
    case Layer::Kind::GroupLabels: {
      int g = -1;
      if (engine::Status st = find(layer.cells, g); !st.ok) return st;
      const ir::Function& gf = p.functions[size_t(g)];
      if (fn.params.size() != 1 || !is(fn.params[0], TK::Scalar) || fn.params[0]->domain < 0 ||
          !is(fn.result, TK::Scalar))
        return wrong("one parameter of a finite type -> a scalar");
      if (gf.params.size() != 1 || !is(gf.params[0], TK::Scalar, fn.params[0]->domain) ||
          !is(gf.result, TK::Set, ir::kCellDomain))
        return engine::Status::Error(fmt::format("{}: define '{}' must take the parameter of '{}' and give a set of Cell",
                                                 p.source_path, layer.cells, layer.define));
      const int d = fn.params[0]->domain;
      int groups = 0;
      for (uint32_t i = 0; i < p.domains[size_t(d)].size; ++i) {
        const int64_t t = ir::domain_value(p.domains, d, i);
        std::vector<int64_t> cells;
        if (engine::Status st = members(g, {Arg{false, t, {}}}, ir::kCellDomain, state, cells); !st.ok) return st;
        if (cells.empty()) continue;
        int64_t v = 0;
        if (engine::Status st = eval(f, {Arg{false, t, {}}}, state, v); !st.ok) return st;
        out.labels.push_back({int(cells.front()), pad(fn.result->domain, v), colour});
        ++groups;
      }
      out.legend.push_back(fmt::format("{} numbers: {} of each {} ({} shown)", colour_words(colour), title, layer.cells, groups));
      return engine::Status::Ok();
    }
  }
  return engine::Status::Ok();
}

}  // namespace rulebook::render
