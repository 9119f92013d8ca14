// Views of a game tree: DOT (boards as HTML-like labels, coloured by the player to move),
// JSON, and SVG/PNG laid out in process by Graphviz's libgvc.
#include <mutex>

#include <fmt/format.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <nlohmann/json.hpp>

#include "explorer/tree.h"
#include "render/board.h"
#include "render/palette.h"

namespace rulebook::explorer {
namespace {

std::string dot_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string subject_name(const engine::Engine& e, const ir::Program& p, int s) {
  return e.info().score_per_team ? p.domains[ir::kTeamDomain].members[size_t(s)]
                                 : e.info().player_names[size_t(s)];
}

std::string result_text(const engine::Engine& e, const ir::Program& p, const std::vector<int64_t>& scores) {
  const engine::Info& info = e.info();
  std::vector<std::string> parts;
  for (int s = 0; s < info.score_subjects; ++s) {
    std::vector<int64_t> v(scores.begin() + s * info.score_width, scores.begin() + (s + 1) * info.score_width);
    parts.push_back(fmt::format("{} {}", subject_name(e, p, s),
                                info.score_width > 1 ? fmt::format("[{}]", fmt::join(v, ",")) : std::to_string(v[0])));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Graphviz reports problems through a callback; they are gathered here, never printed.
std::mutex gv_mutex;
std::string gv_errors;
int gv_error(char* message) {
  gv_errors += message;
  return 0;
}

}  // namespace

std::string tree_dot(const GameTree& t, const engine::Engine& e, const ir::Program& p, const TreeStyle& style) {
  const engine::Info& info = e.info();
  const render::Palette palette = render::palette_of(p);
  std::string s = "digraph tree {\n";
  s += "  graph [rankdir=TB, nodesep=0.2, ranksep=0.45, fontname=\"Helvetica\", fontsize=11";
  if (!style.title.empty()) s += ", labelloc=t, label=" + dot_quote(style.title);
  s += "];\n  node [shape=plain, fontname=\"Helvetica\", fontsize=8];\n";
  s += "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#757575\", arrowsize=0.5];\n";
  const auto n = boost::num_vertices(t.graph);
  for (size_t v = 0; v < n; ++v) {
    const TreeNode& node = t.graph[v];
    if (node.state.empty()) {
      s += fmt::format("  n{} [shape=box, style=\"rounded,dashed\", color=\"#9e9e9e\", label={}];\n", v,
                       dot_quote(fmt::format("+{} more", node.more)));
      continue;
    }
    std::string caption;
    if (v == 0 || node.phase_changed)
      caption += fmt::format("<TR><TD><B>{}phase {}</B></TD></TR>", v == 0 ? "" : "&#8594; ",
                             render::xml_escape(info.phase_names[size_t(node.phase)]));
    if (node.terminal) {
      caption += fmt::format("<TR><TD>end: {}</TD></TR>", render::xml_escape(result_text(e, p, node.scores)));
    } else {
      caption += fmt::format("<TR><TD><FONT COLOR=\"{}\">{} to move{}</FONT></TD></TR>",
                             palette.player(node.to_move),
                             render::xml_escape(info.player_names[size_t(node.to_move)]),
                             node.expanded ? fmt::format(" ({})", node.legal) : "");
    }
    std::string board;
    if (style.cell_points > 0) {
      render::LastMove last{node.path.empty() ? engine::Move{} : node.path.back(), nullptr};
      board = "<TR><TD>" + render::board_html_label(p, node.state.data(), style.cell_points,
                                                    node.path.empty() ? nullptr : &last) + "</TD></TR>";
    }
    const std::string border = node.terminal ? "#212121" : std::string(palette.player(node.to_move));
    s += fmt::format("  n{} [label=<<TABLE BORDER=\"{}\" COLOR=\"{}\" CELLBORDER=\"0\" CELLSPACING=\"1\" "
                     "CELLPADDING=\"1\" BGCOLOR=\"{}\"{}>{}{}</TABLE>>];\n",
                     v, node.phase_changed || node.terminal ? 3 : 1, border, node.terminal ? "#eeeeee" : "#ffffff",
                     node.phase_changed ? " STYLE=\"ROUNDED\"" : "", board, caption);
  }
  boost::graph_traits<TreeGraph>::edge_iterator ei, ee;
  // Edges in creation order: out-edges of each vertex in order, vertices in order.
  for (size_t v = 0; v < n; ++v) {
    for (auto [oi, oe] = boost::out_edges(v, t.graph); oi != oe; ++oi) {
      const TreeEdge& edge = t.graph[*oi];
      const size_t to = boost::target(*oi, t.graph);
      if (edge.text.empty()) s += fmt::format("  n{} -> n{} [style=dashed];\n", v, to);
      else s += fmt::format("  n{} -> n{} [label={}];\n", v, to, dot_quote(edge.text));
    }
  }
  s += "}\n";
  return s;
}

std::string tree_json(const GameTree& t, const engine::Engine& e) {
  const engine::Info& info = e.info();
  nlohmann::json j;
  j["options"] = {{"depth", t.options.depth}, {"breadth", t.options.breadth}, {"merge", t.options.merge}};
  j["nodes_at_depth"] = t.nodes_at_depth;
  j["truncated"] = t.truncated;
  nlohmann::json nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  const auto n = boost::num_vertices(t.graph);
  for (size_t v = 0; v < n; ++v) {
    const TreeNode& node = t.graph[v];
    if (node.state.empty()) {
      nodes.push_back({{"id", v}, {"depth", node.depth}, {"more", node.more}});
      continue;
    }
    nlohmann::json x{{"id", v},
                     {"depth", node.depth},
                     {"phase", info.phase_names[size_t(node.phase)]},
                     {"to_move", info.player_names[size_t(node.to_move)]},
                     {"terminal", node.terminal},
                     {"hash", fmt::format("{:016x}", node.hash)}};
    if (node.expanded) x["legal"] = node.legal;
    if (node.phase_changed) x["phase_changed"] = true;
    if (node.terminal) x["scores"] = node.scores;
    nodes.push_back(std::move(x));
  }
  for (size_t v = 0; v < n; ++v)
    for (auto [oi, oe] = boost::out_edges(v, t.graph); oi != oe; ++oi) {
      nlohmann::json x{{"from", v}, {"to", boost::target(*oi, t.graph)}};
      if (!t.graph[*oi].text.empty()) x["move"] = t.graph[*oi].text;
      edges.push_back(std::move(x));
    }
  j["nodes"] = std::move(nodes);
  j["edges"] = std::move(edges);
  return j.dump(2) + "\n";
}

engine::Status render_dot(const std::string& dot, const std::string& format, std::string& out) {
  std::lock_guard<std::mutex> lock(gv_mutex);
  gv_errors.clear();
  agseterrf(gv_error);
  GVC_t* gvc = gvContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) {
    gvFreeContext(gvc);
    return engine::Status::Error("graphviz could not read the graph: " + gv_errors);
  }
  engine::Status st;
  char* data = nullptr;
  unsigned int length = 0;
  if (gvLayout(gvc, g, "dot") != 0) {
    st = engine::Status::Error("graphviz layout failed: " + gv_errors);
  } else {
    if (gvRenderData(gvc, g, format.c_str(), &data, &length) != 0 || !data)
      st = engine::Status::Error(fmt::format("graphviz could not render {}: {}", format, gv_errors));
    else out.assign(data, length);
    if (data) gvFreeRenderData(data);
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  gvFreeContext(gvc);
  if (st.ok && format == "svg") {
    // Inline-ready and independent of the Graphviz build: drop prolog, doctype, comments.
    const size_t start = out.find("<svg");
    if (start != std::string::npos) out.erase(0, start);
    for (size_t c; (c = out.find("<!--")) != std::string::npos;) {
      size_t end = out.find("-->", c);
      if (end == std::string::npos) break;
      end += 3;
      if (end < out.size() && out[end] == '\n') ++end;
      out.erase(c, end - c);
    }
  }
  return st;
}

}  // namespace rulebook::explorer
