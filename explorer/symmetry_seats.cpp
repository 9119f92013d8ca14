// Candidate relabellings of the players: seats that only the turn order tells apart.
#include <numeric>

#include <fmt/format.h>

#include "explorer/symmetry_graph.h"

namespace rulebook::explorer {

std::vector<Transform> seat_candidates(const ir::Program& p) {
  std::vector<Transform> out;
  const uint32_t n = p.domains[ir::kPlayerDomain].size;
  if (n < 2) return out;
  // The seats of each team of two or more; with no such team, all seats at once. Team
  // labels stay where they are: a seat moves within its team only.
  std::vector<std::vector<int>> groups;
  for (const std::vector<int>& team : p.geometry.teams)
    if (team.size() >= 2) groups.push_back(team);
  const bool teams = !groups.empty();
  if (!teams) {
    groups.emplace_back(n);
    std::iota(groups.back().begin(), groups.back().end(), 0);
  }
  auto seat = [&](int i) { return p.domains[ir::kPlayerDomain].members[size_t(i)]; };
  auto relabel = [&](const std::vector<int>& from, const std::vector<int>& to, std::string name) {
    std::vector<std::vector<uint32_t>> maps(p.domains.size());
    maps[ir::kPlayerDomain].resize(n);
    std::iota(maps[ir::kPlayerDomain].begin(), maps[ir::kPlayerDomain].end(), 0u);
    for (size_t i = 0; i < from.size(); ++i) maps[ir::kPlayerDomain][size_t(from[i])] = uint32_t(to[i]);
    out.push_back(make_transform(p, std::move(name), std::move(maps)));
  };
  // A transposition and a cycle generate every permutation of a group's seats; the turn
  // order, which the play test follows, keeps only those that commute with it.
  for (const std::vector<int>& g : groups) {
    const std::string within = teams ? " (within a team)" : "";
    relabel({g[0], g[1]}, {g[1], g[0]}, fmt::format("seats {} <-> {}{}", seat(g[0]), seat(g[1]), within));
    if (g.size() > 2) {
      std::vector<int> next(g.begin() + 1, g.end());
      next.push_back(g[0]);
      std::vector<std::string> names;
      for (int s : g) names.push_back(seat(s));
      relabel(g, next, fmt::format("seats cycled {} -> {}{}", fmt::join(names, " -> "), names.front(), within));
    }
  }
  // Teams of one size seated in turn (p1 p3 p5 against p2 p4 p6): cycling one team alone
  // breaks the turn order, cycling every team at once keeps it.
  bool same_size = teams && groups.size() > 1;
  for (const std::vector<int>& g : groups) same_size = same_size && g.size() == groups[0].size();
  if (same_size) {
    std::vector<int> from, to;
    for (const std::vector<int>& g : groups)
      for (size_t i = 0; i < g.size(); ++i) {
        from.push_back(g[i]);
        to.push_back(g[(i + 1) % g.size()]);
      }
    relabel(from, to, "seats cycled in every team at once");
  }
  return out;
}

}  // namespace rulebook::explorer
