// The reachable graph as adjacency lists over position indices, then one iterative
// depth-first walk: a position met again on the walk's own path is a cycle; otherwise
// each position's longest remaining game is one more than its longest child's.
#include "explorer/termination.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "explorer/directed.h"

namespace rulebook::explorer {
namespace {

struct Graph {
  std::vector<uint8_t> data;
  std::vector<std::vector<std::pair<uint32_t, engine::Move>>> edges;
  std::vector<bool> terminal;
};

/// Stores every reachable position and its edges; false when the budget, a stop or an
/// error came first.
bool enumerate(const compiler::Interpreter& interpreter, const engine::Setup& setup, uint64_t max_states,
               const std::atomic<bool>* stop, Graph& g, std::string& error) {
  const size_t n = interpreter.info().state_bytes;
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_hash;
  std::vector<uint8_t> state(n);
  engine::Status st = interpreter.setup(state.data(), setup);
  if (!st.ok) return error = st.message, false;
  auto find_or_add = [&](const uint8_t* s, bool& full) -> uint32_t {
    std::vector<uint32_t>& same = by_hash[interpreter.hash(s)];
    for (uint32_t i : same)
      if (std::memcmp(g.data.data() + size_t(i) * n, s, n) == 0) return i;
    if (g.edges.size() >= max_states) return full = true, 0;
    const uint32_t i = uint32_t(g.edges.size());
    same.push_back(i);
    g.data.insert(g.data.end(), s, s + n);
    g.edges.emplace_back();
    g.terminal.push_back(interpreter.terminal(s));
    return i;
  };
  bool full = false;
  find_or_add(state.data(), full);
  std::vector<engine::Move> moves;
  for (size_t next = 0; next < g.edges.size(); ++next) {
    if (stop && stop->load()) return false;
    if (g.terminal[next]) continue;
    moves.clear();
    if (!(st = interpreter.legal_moves(g.data.data() + next * n, moves)).ok) return error = st.message, false;
    if (moves.empty()) return error = "a state that is not over has no legal move", false;
    for (const engine::Move& m : moves) {
      std::memcpy(state.data(), g.data.data() + next * n, n);
      if (!(st = interpreter.apply(state.data(), m)).ok) return error = st.message, false;
      const uint32_t child = find_or_add(state.data(), full);
      if (full) return false;
      g.edges[next].push_back({child, m});
    }
  }
  return true;
}

}  // namespace

Termination settle_termination(const compiler::Interpreter& interpreter, const engine::Setup& setup,
                               uint64_t max_states, const std::atomic<bool>* stop) {
  Termination out;
  out.budget = max_states;
  out.setup_random = setup_draws(interpreter.program());
  Graph g;
  const bool whole = enumerate(interpreter, setup, max_states, stop, g, out.error);
  out.states = g.edges.size();
  if (!whole) return out;
  // Depth-first from the setup; colour 0 unseen, 1 on the path, 2 done (longest known).
  const size_t count = g.edges.size();
  std::vector<uint8_t> colour(count, 0);
  std::vector<int> longest(count, 0);
  std::vector<uint32_t> best(count, UINT32_MAX);  // the edge index of a longest continuation
  struct Frame {
    uint32_t node;
    size_t edge;
  };
  std::vector<Frame> path{{0, 0}};
  colour[0] = 1;
  while (!path.empty()) {
    Frame& f = path.back();
    const auto& edges = g.edges[f.node];
    if (f.edge == edges.size()) {
      colour[f.node] = 2;
      path.pop_back();
      continue;
    }
    const uint32_t child = edges[f.edge].first;
    if (colour[child] == 1) {  // back on the path: the path from child to here repeats
      size_t k = 0;
      while (path[k].node != child) ++k;
      for (size_t i = 0; i < k; ++i)
        out.lead_in.push_back(interpreter.move_text(g.edges[path[i].node][path[i].edge].second));
      for (size_t i = k; i < path.size(); ++i)
        out.cycle.push_back(interpreter.move_text(g.edges[path[i].node][path[i].edge].second));
      out.verdict = Termination::Verdict::Endless;
      return out;
    }
    if (colour[child] == 0) {
      colour[child] = 1;
      path.push_back({child, 0});
      continue;
    }
    if (longest[child] + 1 > longest[f.node]) longest[f.node] = longest[child] + 1, best[f.node] = uint32_t(f.edge);
    ++f.edge;
  }
  out.verdict = Termination::Verdict::Bounded;
  out.longest = longest[0];
  for (uint32_t v = 0; best[v] != UINT32_MAX; v = g.edges[v][best[v]].first)
    out.longest_line.push_back(interpreter.move_text(g.edges[v][best[v]].second));
  return out;
}

}  // namespace rulebook::explorer
