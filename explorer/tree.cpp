// Building a game tree breadth first: canonical move order, optional merging of equal
// states, the moves past the breadth limit folded into one summary node per parent.
#include "explorer/tree.h"

#include <deque>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

namespace rulebook::explorer {

GameTree build_tree(const engine::Engine& e, const uint8_t* root, const TreeOptions& o) {
  GameTree t;
  t.options = o;
  t.nodes_at_depth.assign(size_t(std::max(0, o.depth)) + 1, 0);
  const size_t n = e.info().state_bytes;
  std::unordered_map<std::string, TreeGraph::vertex_descriptor> seen;

  auto make_node = [&](const uint8_t* state, int depth, int parent_phase, std::vector<engine::Move> path) {
    TreeNode node;
    node.state.assign(state, state + n);
    node.depth = depth;
    node.phase = e.phase(state);
    node.to_move = e.to_move(state);
    node.terminal = e.terminal(state);
    node.phase_changed = parent_phase >= 0 && node.phase != parent_phase;
    node.hash = e.hash(state);
    node.path = std::move(path);
    if (node.terminal) {
      engine::Status st = e.scores(state, node.scores);
      if (!st.ok && t.status.ok) t.status = st;
    }
    ++t.nodes_at_depth[size_t(depth)];
    auto v = boost::add_vertex(std::move(node), t.graph);
    if (o.merge) seen.emplace(std::string(reinterpret_cast<const char*>(state), n), v);
    return v;
  };

  std::deque<TreeGraph::vertex_descriptor> queue{make_node(root, 0, -1, {})};
  std::vector<engine::Move> moves;
  std::vector<uint8_t> child(n);
  while (!queue.empty() && t.status.ok) {
    const auto v = queue.front();
    queue.pop_front();
    if (t.graph[v].terminal || t.graph[v].depth >= o.depth) continue;
    moves.clear();
    if (engine::Status st = e.legal_moves(t.graph[v].state.data(), moves); !st.ok) {
      t.status = st;
      break;
    }
    t.graph[v].legal = moves.size();
    t.graph[v].expanded = true;
    const size_t take = o.breadth > 0 ? std::min(moves.size(), size_t(o.breadth)) : moves.size();
    for (size_t i = 0; i < take; ++i) {
      if (boost::num_vertices(t.graph) >= o.max_nodes) {
        t.truncated = true;
        t.status = engine::Status::Error(fmt::format("the tree was cut at {} nodes", o.max_nodes));
        break;
      }
      std::memcpy(child.data(), t.graph[v].state.data(), n);
      if (engine::Status st = e.apply(child.data(), moves[i]); !st.ok) {
        t.status = st;
        break;
      }
      TreeEdge edge{moves[i], e.move_text(moves[i])};
      if (o.merge) {
        auto it = seen.find(std::string(reinterpret_cast<const char*>(child.data()), n));
        if (it != seen.end()) {
          boost::add_edge(v, it->second, edge, t.graph);
          continue;
        }
      }
      std::vector<engine::Move> path = t.graph[v].path;
      path.push_back(moves[i]);
      const auto c = make_node(child.data(), t.graph[v].depth + 1, t.graph[v].phase, std::move(path));
      boost::add_edge(v, c, edge, t.graph);
      queue.push_back(c);
    }
    if (take < moves.size() && t.status.ok) {
      TreeNode more;
      more.depth = t.graph[v].depth + 1;
      more.more = moves.size() - take;
      const auto m = boost::add_vertex(std::move(more), t.graph);
      boost::add_edge(v, m, TreeEdge{}, t.graph);
    }
  }
  return t;
}

}  // namespace rulebook::explorer
