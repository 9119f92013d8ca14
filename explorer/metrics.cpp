// Many seeded games: each game is played on its own (setup and moves from seed + i) into a
// per-game record, then records are summed in game order, so threads never change a result.
#include "explorer/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "compiler/runtime/random.h"

namespace rulebook::explorer {
namespace {

/// What one game contributes.
struct GameRecord {
  enum class End { Finished, CutOff, Error } end = End::Error;
  std::string error;
  int plies = 0;
  std::vector<int> phase_plies;
  std::vector<int64_t> scores;
  std::vector<uint64_t> branching;  ///< legal moves at each decision
  std::vector<char> recorded;       ///< per metric
  std::vector<int64_t> values;
};

/// Lexicographic comparison of two subjects' score tuples: >0 when a is better.
int compare(const std::vector<int64_t>& s, int a, int b, int width, bool highest) {
  for (int k = 0; k < width; ++k) {
    const int64_t x = s[size_t(a * width + k)], y = s[size_t(b * width + k)];
    if (x != y) return (x > y) == highest ? 1 : -1;
  }
  return 0;
}

/// The score subject a player counts for: itself, or its team.
int subject_of(const ir::Program& p, bool per_team, int player) {
  if (!per_team) return player;
  for (size_t t = 0; t < p.geometry.teams.size(); ++t)
    for (int m : p.geometry.teams[t])
      if (m == player) return int(t);
  return -1;
}

GameRecord play_one(const engine::Engine& e, const ir::Program& p,
                    const PlayoutPlan& plan, uint64_t seed) {
  GameRecord r;
  const engine::Info& info = e.info();
  r.phase_plies.assign(info.phase_names.size(), 0);
  r.recorded.assign(p.metrics.size(), 0);
  r.values.assign(p.metrics.size(), 0);
  std::vector<uint8_t> state(info.state_bytes), child(info.state_bytes);
  engine::Setup setup;
  setup.seed = seed;
  engine::Status st = e.setup(state.data(), setup);
  SplitMix64 rng(seed);
  std::vector<engine::Move> moves;
  std::vector<int64_t> scores;
  // `when` metrics are recorded at the first state where their condition holds.
  auto record_when = [&]() -> engine::Status {
    for (size_t m = 0; m < p.metrics.size(); ++m) {
      if (!p.metrics[m].when || r.recorded[m]) continue;
      bool rec = false;
      int64_t v = 0;
      if (engine::Status s = e.metric(state.data(), int(m), rec, v); !s.ok) return s;
      if (rec) r.recorded[m] = 1, r.values[m] = v;
    }
    return engine::Status::Ok();
  };
  if (st.ok) st = record_when();
  while (st.ok && !e.terminal(state.data())) {
    if (r.plies >= plan.max_plies) {
      r.end = GameRecord::End::CutOff;
      return r;
    }
    moves.clear();
    if (!(st = e.legal_moves(state.data(), moves)).ok) break;
    if (moves.empty()) {
      st = engine::Status::Error("a state that is not over has no legal move");
      break;
    }
    r.branching.push_back(moves.size());
    size_t pick = 0;
    if (plan.policy == Policy::Random || info.score_subjects == 0) {
      pick = rng.below(moves.size());
    } else {
      // Greedy: score every child for the mover's subject; keep the best, ties by the stream.
      const int subject = subject_of(p, info.score_per_team, e.to_move(state.data()));
      std::vector<size_t> best;
      std::vector<int64_t> best_scores, cand;
      const int w = info.score_width;
      for (size_t i = 0; i < moves.size() && st.ok; ++i) {
        std::memcpy(child.data(), state.data(), child.size());
        if (!(st = e.apply(child.data(), moves[i])).ok) break;
        scores.clear();
        if (!(st = e.scores(child.data(), scores)).ok) break;
        if (subject < 0) {
          best.push_back(i);
          continue;
        }
        cand.assign(scores.begin() + subject * w, scores.begin() + (subject + 1) * w);
        int c = best.empty() ? 1 : 0;
        for (int k = 0; k < w && c == 0 && !best.empty(); ++k)
          if (cand[size_t(k)] != best_scores[size_t(k)])
            c = (cand[size_t(k)] > best_scores[size_t(k)]) == info.highest_wins ? 1 : -1;
        if (c > 0) best.clear(), best_scores = cand;
        if (c >= 0) best.push_back(i);
      }
      if (!st.ok) break;
      pick = best[rng.below(best.size())];
    }
    const int phase = e.phase(state.data());
    if (phase >= 0 && size_t(phase) < r.phase_plies.size()) ++r.phase_plies[size_t(phase)];
    if (!(st = e.apply(state.data(), moves[pick])).ok) break;
    ++r.plies;
    if (!(st = record_when()).ok) break;
  }
  if (st.ok) st = e.scores(state.data(), r.scores);
  if (st.ok) {
    for (size_t m = 0; m < p.metrics.size() && st.ok; ++m) {
      if (p.metrics[m].when) continue;
      bool rec = false;
      int64_t v = 0;
      st = e.metric(state.data(), int(m), rec, v);
      if (rec) r.recorded[m] = 1, r.values[m] = v;
    }
  }
  if (!st.ok) {
    r.end = GameRecord::End::Error;
    r.error = st.message;
    return r;
  }
  r.end = GameRecord::End::Finished;
  return r;
}

}  // namespace

void Summary::add(int64_t v) {
  min = count ? std::min(min, v) : v;
  max = count ? std::max(max, v) : v;
  ++count;
  mean += (double(v) - mean) / double(count);
  ++histogram[v];
}

Share wilson(uint64_t k, uint64_t n) {
  Share s;
  s.count = k;
  if (n == 0) {
    s.lo = 0, s.hi = 1;
    return s;
  }
  const double z = 1.959963984540054, nn = double(n), ph = double(k) / nn;
  const double denom = 1 + z * z / nn;
  const double centre = (ph + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(ph * (1 - ph) / nn + z * z / (4 * nn * nn)) / denom;
  s.share = ph;
  s.lo = std::max(0.0, centre - half);
  s.hi = std::min(1.0, centre + half);
  return s;
}

PlayoutStats play_games(const engine::Engine& e, const ir::Program& p, const PlayoutPlan& plan) {
  PlayoutStats out;
  out.plan = plan;
  const engine::Info& info = e.info();
  std::vector<GameRecord> records(size_t(std::max(0, plan.games)));
  std::vector<char> done(records.size(), 0);
  std::atomic<int> next{0}, finished_count{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (int g; (g = next.fetch_add(1)) < plan.games;) {
      if (plan.stop && plan.stop->load()) return;
      records[size_t(g)] = play_one(e, p, plan, plan.seed + uint64_t(g));
      done[size_t(g)] = 1;
      const int n = ++finished_count;
      if (plan.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        plan.progress(n, plan.games);
      }
    }
  };
  const int threads = std::clamp(plan.threads, 1, std::max(1, plan.games));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();

  out.phase_names = info.phase_names;
  out.phase_length.resize(info.phase_names.size());
  out.per_team = info.score_per_team;
  for (int s = 0; s < info.score_subjects; ++s)
    out.subjects.push_back(info.score_per_team ? p.domains[ir::kTeamDomain].members[size_t(s)]
                                               : info.player_names[size_t(s)]);
  for (size_t t = 0; t < p.geometry.teams.size(); ++t) out.teams.push_back(p.domains[ir::kTeamDomain].members[t]);
  for (const ir::Metric& m : p.metrics) out.metrics.push_back({m.name, m.description, m.when == nullptr, {}});
  std::vector<uint64_t> wins(size_t(info.score_subjects), 0), ties(wins.size(), 0);
  std::vector<uint64_t> team_wins(out.teams.size(), 0), team_ties(out.teams.size(), 0);
  out.scores.resize(size_t(info.score_subjects));
  uint64_t branching_sum = 0;
  // Only the first games that all completed count, so a stop leaves a prefix of the plan.
  for (size_t g = 0; g < records.size() && done[g]; ++g) {
    const GameRecord& r = records[g];
    ++out.played;
    for (uint64_t b : r.branching) {
      branching_sum += b;
      out.branching_max = std::max(out.branching_max, b);
      ++out.decisions;
    }
    if (r.end == GameRecord::End::Error) {
      if (out.errors++ == 0) out.first_error = r.error;
      continue;
    }
    if (r.end == GameRecord::End::CutOff) {
      ++out.cut_off;
      continue;
    }
    ++out.finished;
    out.length.add(r.plies);
    for (size_t ph = 0; ph < r.phase_plies.size(); ++ph) out.phase_length[ph].add(r.phase_plies[ph]);
    for (size_t m = 0; m < r.recorded.size(); ++m)
      if (r.recorded[m]) out.metrics[m].values.add(r.values[m]);
    for (int s = 0; s < info.score_subjects; ++s) out.scores[size_t(s)].add(r.scores[size_t(s * info.score_width)]);
    // The best subjects of the game; one alone wins, several share a tie.
    std::vector<int> best;
    for (int s = 0; s < info.score_subjects; ++s) {
      int c = best.empty() ? 1 : compare(r.scores, s, best[0], info.score_width, info.highest_wins);
      if (c > 0) best.clear();
      if (c >= 0) best.push_back(s);
    }
    if (best.size() == 1) ++wins[size_t(best[0])];
    else for (int s : best) ++ties[size_t(s)];
    if (best.size() > 1 && info.score_subjects > 1) ++out.drawn;
    if (!out.teams.empty()) {
      // A team wins when its best subjects are exactly the winners (scored per team: itself).
      std::vector<int> best_teams;
      for (int s : best) {
        const int t = info.score_per_team ? s : subject_of(p, true, s);
        if (t >= 0 && std::find(best_teams.begin(), best_teams.end(), t) == best_teams.end()) best_teams.push_back(t);
      }
      if (best_teams.size() == 1) ++team_wins[size_t(best_teams[0])];
      else for (int t : best_teams) ++team_ties[size_t(t)];
    }
  }
  for (size_t s = 0; s < wins.size() && wins.size() > 1; ++s) {
    out.wins.push_back(wilson(wins[s], uint64_t(out.finished)));
    out.wins.back().ties = ties[s];
  }
  for (size_t t = 0; t < team_wins.size(); ++t) {
    out.team_wins.push_back(wilson(team_wins[t], uint64_t(out.finished)));
    out.team_wins.back().ties = team_ties[t];
  }
  out.branching_mean = out.decisions ? double(branching_sum) / double(out.decisions) : 0;
  return out;
}

GameEnd seeded_game(const engine::Engine& e, uint64_t seed, int plies, const engine::Setup& setup_values) {
  GameEnd g;
  const size_t n = e.info().state_bytes;
  g.start.assign(n, 0);
  engine::Setup setup = setup_values;
  setup.seed = seed;
  if (!(g.status = e.setup(g.start.data(), setup)).ok) return g;
  g.after = g.start;
  g.before = g.start;
  SplitMix64 rng(seed);
  std::vector<engine::Move> moves;
  while (g.plies < plies && !e.terminal(g.after.data())) {
    moves.clear();
    if (!(g.status = e.legal_moves(g.after.data(), moves)).ok) return g;
    if (moves.empty()) {
      g.status = engine::Status::Error("a state that is not over has no legal move");
      return g;
    }
    g.last = moves[rng.below(moves.size())];
    g.before = g.after;
    if (!(g.status = e.apply(g.after.data(), g.last)).ok) return g;
    ++g.plies;
  }
  g.over = e.terminal(g.after.data());
  return g;
}

}  // namespace rulebook::explorer
