// Game trees: the first plies from a position as a Boost.Graph graph, with depth and
// breadth limits, optionally with transpositions merged; exported as DOT, JSON, and SVG or
// PNG laid out in process by Graphviz. Node ids are creation order (breadth first, legal
// moves in canonical order), so every export is deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"

namespace rulebook::explorer {

struct TreeNode {
  std::vector<uint8_t> state;   ///< empty for a "+N more" summary node
  int depth = 0;                ///< plies from the root (the first time reached, when merged)
  int phase = 0;
  int to_move = 0;
  bool terminal = false;
  bool phase_changed = false;   ///< its phase differs from the phase of the node it came from
  uint64_t hash = 0;
  uint64_t legal = 0;           ///< legal moves (counted when the node was expanded)
  bool expanded = false;        ///< its children were generated (depth < limit, not terminal)
  uint64_t more = 0;            ///< a summary node: this many moves were left out
  std::vector<int64_t> scores;  ///< terminal nodes
  std::vector<engine::Move> path;  ///< moves from the root (first path, when merged)
};

struct TreeEdge {
  engine::Move move;
  std::string text;  ///< move text ("" for the edge to a summary node)
};

using TreeGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, TreeNode, TreeEdge>;

struct TreeOptions {
  int depth = 2;        ///< plies below the root
  int breadth = 0;      ///< children per node, the rest summarised ("+N more"); 0: all
  bool merge = false;   ///< one node per distinct state (transpositions merged)
  size_t max_nodes = 200000;  ///< stop growing beyond this many nodes (status says so)
};

struct GameTree {
  TreeGraph graph;               ///< vertex 0 is the root
  TreeOptions options;
  std::vector<uint64_t> nodes_at_depth;  ///< state nodes (not summaries) per depth 0..depth
  engine::Status status;         ///< an engine error or the node limit; the graph holds the rest
  bool truncated = false;        ///< stopped by max_nodes
};

GameTree build_tree(const engine::Engine& engine, const uint8_t* root, const TreeOptions& options);

/// How nodes are drawn: boards as HTML-like tables of `cell_points` (0: no board).
struct TreeStyle {
  int cell_points = 9;
  std::string title;
};

std::string tree_dot(const GameTree& tree, const engine::Engine& engine, const ir::Program& program,
                     const TreeStyle& style);
/// {options, nodes: [{id, depth, phase, to_move, terminal, ...}], edges: [{from, to, move}]}
std::string tree_json(const GameTree& tree, const engine::Engine& engine);

/// Lays out DOT with Graphviz's `dot` in process and renders `format` ("svg" or "png").
/// SVG comes without the XML prolog and the generator's version comment, ready to inline.
engine::Status render_dot(const std::string& dot, const std::string& format, std::string& out);

}  // namespace rulebook::explorer
