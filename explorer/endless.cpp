// The line of a cut-off game replayed and examined: positions kept whole to find the first
// one that comes back, and per quantity the last ply it changed.
#include "explorer/endless.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <unordered_map>

#include "compiler/runtime/random.h"

namespace rulebook::explorer {
namespace {

/// Keyed variables whose element domain is larger than this are not counted per value: a
/// count per value of a wide integer range says little and costs a lot.
constexpr uint32_t kMaxCountedValues = 64;

/// A quantity read from a state: element 0 of a scalar variable, or how many elements of a
/// keyed variable hold value index `value`. A count of one value among several is listed
/// only while the value is present: that a piece count went to 0 and stayed there is the
/// history of the game, not why it goes on.
struct Probe {
  int var = 0;
  int64_t value = -1;  ///< -1: the scalar's own value index
  std::string name;
  bool only_present = false;
};

std::string var_label(const ir::StateVar& v, int index) {
  switch (index) {
    case ir::kVarPhase: return "phase";
    case ir::kVarMover: return "player to move";
    case ir::kVarOut: return "players out";
    default: return v.name;
  }
}

std::vector<Probe> probes_of(const ir::Program& p) {
  std::vector<Probe> out;
  for (size_t i = 0; i < p.vars.size(); ++i) {
    const ir::StateVar& v = p.vars[i];
    if (int(i) == ir::kVarOver || v.origin == ir::StateVar::Origin::Setup) continue;
    const std::string label = var_label(v, int(i));
    if (v.keys.empty()) {
      out.push_back({int(i), -1, label});
      continue;
    }
    const ir::Domain& d = p.domains[size_t(v.domain)];
    if (d.size > kMaxCountedValues) continue;
    if (d.kind == ir::Domain::Kind::Bool) {  // a set, or a map to bool: its true elements
      out.push_back({int(i), 1, "count(" + label + ")"});
      continue;
    }
    for (uint32_t k = 0; k < d.size; ++k)
      out.push_back({int(i), int64_t(k),
                     "count(" + label + " = " + ir::value_text(p.domains, v.domain, ir::domain_value(p.domains, v.domain, k)) + ")",
                     true});
  }
  return out;
}

void read_probes(const ir::Program& p, const std::vector<Probe>& probes, const uint8_t* state, std::vector<int64_t>& out) {
  out.assign(probes.size(), 0);
  // Counts of one variable are computed in one pass over its elements.
  std::unordered_map<int, std::vector<int64_t>> hist;
  for (size_t i = 0; i < probes.size(); ++i) {
    const ir::StateVar& v = p.vars[size_t(probes[i].var)];
    if (probes[i].value < 0) {
      out[i] = ir::load_index(state, v, 0);
      continue;
    }
    auto it = hist.find(probes[i].var);
    if (it == hist.end()) {
      std::vector<int64_t> h(p.domains[size_t(v.domain)].size, 0);
      for (uint32_t e = 0; e < v.count; ++e) {
        const uint32_t k = ir::load_index(state, v, e);
        if (k < h.size()) ++h[k];
      }
      it = hist.emplace(probes[i].var, std::move(h)).first;
    }
    out[i] = it->second[size_t(probes[i].value)];
  }
}

std::string probe_text(const ir::Program& p, const Probe& probe, int64_t v) {
  if (probe.value >= 0) return std::to_string(v);
  const int d = p.vars[size_t(probe.var)].domain;
  return ir::value_text(p.domains, d, ir::domain_value(p.domains, d, v));
}

}  // namespace

EndlessGame examine_line(const compiler::Interpreter& interpreter, const engine::Setup& setup, uint64_t seed,
                         int max_plies) {
  const ir::Program& p = interpreter.program();
  const size_t n = interpreter.info().state_bytes;
  EndlessGame out;
  out.seed = seed;
  engine::Setup s = setup;
  s.seed = seed;
  std::vector<uint8_t> line(n);  // every position of the line, ply after ply
  engine::Status st = interpreter.setup(line.data(), s);
  const std::vector<Probe> probes = probes_of(p);
  std::vector<int64_t> now, last;
  std::vector<int> changed(probes.size(), 0);
  read_probes(p, probes, line.data(), last);
  // Per quantity, (ply, value) at each change: the value at any ply is read back from it.
  std::vector<std::vector<std::pair<int, int64_t>>> history(probes.size());
  for (size_t i = 0; i < probes.size(); ++i) history[i].push_back({0, last[i]});
  std::unordered_map<uint64_t, std::vector<int>> at;  // hash -> plies with it
  at[interpreter.hash(line.data())].push_back(0);
  std::vector<engine::Move> moves, played;
  SplitMix64 rng(seed);
  while (st.ok && !interpreter.terminal(line.data() + size_t(out.plies) * n) && out.plies < max_plies) {
    const uint8_t* cur = line.data() + size_t(out.plies) * n;
    moves.clear();
    if (!(st = interpreter.legal_moves(cur, moves)).ok) break;
    if (moves.empty()) {
      st = engine::Status::Error("a state that is not over has no legal move");
      break;
    }
    const engine::Move m = moves[rng.below(moves.size())];
    played.push_back(m);
    line.resize(line.size() + n);
    uint8_t* next = line.data() + size_t(out.plies + 1) * n;
    std::memcpy(next, line.data() + size_t(out.plies) * n, n);
    if (!(st = interpreter.apply(next, m)).ok) break;
    ++out.plies;
    read_probes(p, probes, next, now);
    for (size_t i = 0; i < probes.size(); ++i) {
      if (now[i] != last[i]) changed[i] = out.plies, history[i].push_back({out.plies, now[i]});
    }
    std::swap(now, last);
    if (out.repeat_first >= 0) continue;
    std::vector<int>& same = at[interpreter.hash(next)];
    for (int a : same)
      if (std::memcmp(line.data() + size_t(a) * n, next, n) == 0) {
        out.repeat_first = a;
        out.repeat_again = out.plies;
        break;
      }
    same.push_back(out.plies);
  }
  if (!st.ok) {
    out.error = st.message;
    return out;
  }
  out.ended = interpreter.terminal(line.data() + size_t(out.plies) * n);
  if (out.repeat_first >= 0) {
    out.cycle_moves = out.repeat_again - out.repeat_first;
    for (int k = out.repeat_first; k < out.repeat_again; ++k) {
      if (int(out.cycle.size()) == kCycleMovesKept) {
        out.cycle.push_back("...");
        break;
      }
      out.cycle.push_back(interpreter.move_text(played[size_t(k)]));
    }
  }
  out.steady_from = out.plies / 2;
  // Variables and the phase first, then the counts per value, each by `since`.
  for (int counts = 0; counts < 2; ++counts) {
    const size_t first = out.steady.size();
    for (size_t i = 0; i < probes.size(); ++i)
      if (probes[i].only_present == bool(counts) && changed[i] <= out.steady_from &&
          (!probes[i].only_present || last[i] != 0))
        out.steady.push_back({probes[i].name, probe_text(p, probes[i], last[i]), changed[i]});
    std::stable_sort(out.steady.begin() + long(first), out.steady.end(),
                     [](const SteadyQuantity& a, const SteadyQuantity& b) { return a.since < b.since; });
  }
  for (size_t i = 0; i < probes.size(); ++i) {
    const auto& h = history[i];
    // The changes after steady_from, and the value at steady_from (the last change before).
    auto first_after = std::upper_bound(h.begin(), h.end(), out.steady_from,
                                        [](int ply, const std::pair<int, int64_t>& c) { return ply < c.first; });
    const int changes = int(h.end() - first_after);
    if (changes == 0 || changes > kSlowChanges) continue;
    if (probes[i].only_present && (first_after - 1)->second == 0 && last[i] == 0) continue;
    std::vector<int> plies;
    for (auto it = first_after; it != h.end(); ++it) plies.push_back(it->first);
    out.slow.push_back({probes[i].name, probe_text(p, probes[i], (first_after - 1)->second),
                        probe_text(p, probes[i], last[i]), plies});
  }
  return out;
}

EndlessGames examine_cut_off(const compiler::Interpreter& interpreter, const CoverageGames& games, int examine) {
  EndlessGames out;
  out.cut_off = games.cut_off;
  out.max_plies = games.plan.max_plies;
  for (int g : games.cut_off_games) {
    if (int(out.games.size()) >= examine) break;
    if (games.plan.stop && games.plan.stop->load()) break;
    EndlessGame e = examine_line(interpreter, games.plan.setup, games.plan.seed + uint64_t(g), games.plan.max_plies);
    e.game = g;
    out.games.push_back(std::move(e));
  }
  return out;
}

}  // namespace rulebook::explorer
