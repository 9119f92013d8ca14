// Perfect play of two-sided games: iterative deepening over "value >= t?" questions whose
// answers tighten bounds stored per packed state, so every bound in the table is a fact about
// the game, whatever depth, question or path found it.
#include "explorer/game_value.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>

#include <memory>

#include <fmt/core.h>

#include "explorer/pack.h"

namespace rulebook::explorer {
namespace {

enum class Answer { Yes, No, Unknown };

/// What the table knows of one state: its value lies in [lo, hi]; the pass of depth
/// `unknown_depth` asking `unknown_target` could not tell (so a pass no deeper need not ask
/// again); the move that keeps the value best known so far.
struct Entry {
  int64_t lo = 0, hi = 0;
  int64_t unknown_target = 0;
  int32_t unknown_depth = -1;
  int32_t best = -1;
  bool on_path = false;
  bool expanded = false;
};

/// One ply's scratch: the children of the state searched there, their keys and order.
struct Frame {
  std::vector<engine::Move> moves;
  std::vector<uint8_t> states;
  std::vector<std::string> keys;
  std::vector<uint32_t> order;
};

class Search {
 public:
  Search(const ir::Program& program, const engine::Engine& engine, const uint8_t* root,
         const Sides& sides, const GameValueOptions& options)
      : engine_(engine), sides_(sides), options_(options), packer_(program, root),
        scratch_(packer_.elements().size() + 1), bytes_(engine.info().state_bytes),
        start_(std::chrono::steady_clock::now()) {
    for (const Transform& t : options.symmetry)
      if (keeps_sides(t)) group_.push_back(t);
    if (group_.size() > 1) {
      action_ = std::make_unique<KeyAction>(program, packer_, group_);
      best_.resize(scratch_.size());
      image_.resize(scratch_.size());
    }
    floor_ = options.objective == Objective::Outcome ? -1 : -kNoBound;
    ceiling_ = -floor_;
    progress_.lo = floor_, progress_.hi = ceiling_;
    last_report_ = start_;
  }

  GameValueResult run(const uint8_t* root);

 private:
  /// Whether `t` maps every player to one of the same side (a map exchanging the sides
  /// would store a state under a class whose value is the other side's).
  bool keeps_sides(const Transform& t) const {
    const size_t d = size_t(ir::kPlayerDomain);
    if (d >= t.index_map.size() || t.index_map[d].empty()) return true;
    for (size_t p = 0; p < t.index_map[d].size() && p < sides_.side_of_player.size(); ++p)
      if (t.index_map[d][p] >= sides_.side_of_player.size() ||
          sides_.side_of_player[t.index_map[d][p]] != sides_.side_of_player[p])
        return false;
    return true;
  }
  /// The packed key of the state's class: the least key among its images.
  std::string key_of(const uint8_t* state) {
    std::string key(packer_.key_bytes(), '\0');
    packer_.gather(state, scratch_.data());
    const uint32_t* digits = scratch_.data();
    if (action_) {
      best_ = scratch_;
      for (size_t g = 1; g < action_->size(); ++g) {
        action_->apply(g, scratch_.data(), image_.data());
        if (packer_.compare_digits(image_.data(), best_.data()) < 0) best_.swap(image_);
      }
      digits = best_.data();
    }
    packer_.encode(digits, reinterpret_cast<uint8_t*>(key.data()));
    return key;
  }
  /// The entry of `key`, made when new (-1 when the table is full: the search stops).
  int64_t entry_of(const std::string& key, const uint8_t* state);
  const Entry* find(const std::string& key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &entries_[it->second];
  }
  bool maximizing(const uint8_t* state) const {
    const int p = engine_.to_move(state);
    return p < 0 || size_t(p) >= sides_.side_of_player.size() || sides_.side_of_player[size_t(p)] == 0;
  }
  Answer ask(const uint8_t* state, int depth, int64_t target, size_t ply);
  Answer expand(uint32_t at, const uint8_t* state, int depth, int64_t target, size_t ply);
  void set_bounds(uint32_t at, int64_t lo, int64_t hi);
  bool stopping();
  void principal_line(const uint8_t* root, int64_t value, GameValueResult& out);

  const engine::Engine& engine_;
  const Sides& sides_;
  const GameValueOptions& options_;
  Packer packer_;
  std::vector<uint32_t> scratch_, best_, image_;
  std::vector<Transform> group_;
  std::unique_ptr<KeyAction> action_;
  size_t bytes_;
  int64_t floor_ = -1, ceiling_ = 1;
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<Entry> entries_;
  std::vector<Frame> frames_;
  uint64_t nodes_ = 0;
  uint64_t changes_ = 0;  ///< bounds narrowed: the progress a pass made
  std::string stopped_;
  engine::Status status_;
  std::chrono::steady_clock::time_point start_, last_report_;
  GameValueProgress progress_;
};

int64_t Search::entry_of(const std::string& key, const uint8_t* state) {
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  if (options_.max_states > 0 && entries_.size() >= options_.max_states) {
    if (stopped_.empty()) stopped_ = "states";
    return -1;
  }
  Entry e;
  e.lo = floor_;
  e.hi = ceiling_;
  if (engine_.terminal(state)) {
    int64_t v = 0;
    engine::Status st = terminal_value(engine_, sides_, options_.objective, state, v);
    if (!st.ok) {
      status_ = st;
      stopped_ = "error";
      return -1;
    }
    e.lo = e.hi = v;
    e.expanded = true;
  }
  entries_.push_back(e);
  index_.emplace(key, uint32_t(entries_.size() - 1));
  ++changes_;
  return int64_t(entries_.size() - 1);
}

void Search::set_bounds(uint32_t at, int64_t lo, int64_t hi) {
  Entry& e = entries_[at];
  if (lo > e.lo) e.lo = lo, ++changes_;
  if (hi < e.hi) e.hi = hi, ++changes_;
}

bool Search::stopping() {
  if (!stopped_.empty()) return true;
  if (options_.interrupt && options_.interrupt->load(std::memory_order_relaxed)) {
    stopped_ = "interrupted";
    return true;
  }
  if ((nodes_ & 1023) == 0 && options_.progress) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ >= std::chrono::seconds(1)) {
      last_report_ = now;
      progress_.nodes = nodes_;
      progress_.states = entries_.size();
      progress_.seconds = std::chrono::duration<double>(now - start_).count();
      options_.progress(progress_);
    }
  }
  return false;
}

Answer Search::ask(const uint8_t* state, int depth, int64_t target, size_t ply) {
  if (stopping()) return Answer::Unknown;
  const std::string key = key_of(state);
  // At the horizon a state is stored only where the game is over (a value worth keeping);
  // storing the others would fill the table with states that tell nothing.
  if (depth <= 0 && index_.find(key) == index_.end() && !engine_.terminal(state)) return Answer::Unknown;
  const int64_t at = entry_of(key, state);
  if (at < 0) return Answer::Unknown;
  const Entry& e = entries_[size_t(at)];
  if (e.lo >= target) return Answer::Yes;
  if (e.hi < target) return Answer::No;
  // A state on the line being searched repeats: nothing is forced through it on this line.
  if (depth <= 0 || e.on_path) return Answer::Unknown;
  if (e.unknown_target == target && e.unknown_depth >= depth) return Answer::Unknown;
  entries_[size_t(at)].on_path = true;
  const Answer a = expand(uint32_t(at), state, depth, target, ply);
  entries_[size_t(at)].on_path = false;
  return a;
}

Answer Search::expand(uint32_t at, const uint8_t* state, int depth, int64_t target, size_t ply) {
  ++nodes_;
  if (frames_.size() <= ply) frames_.resize(ply + 1);
  // Deeper plies may grow frames_, which moves the frames (their buffers stay where they
  // are): `f` is good until the first recursive call only.
  Frame& f = frames_[ply];
  engine::Status st = engine_.children(state, f.moves, f.states);
  if (!st.ok) {
    status_ = st;
    stopped_ = "error";
    return Answer::Unknown;
  }
  if (f.moves.empty()) {
    // Not over, yet no move: the game is decided where it stands.
    int64_t v = 0;
    if (!(st = terminal_value(engine_, sides_, options_.objective, state, v)).ok) {
      status_ = st;
      stopped_ = "error";
      return Answer::Unknown;
    }
    set_bounds(at, v, v);
    entries_[at].expanded = true;
    return v >= target ? Answer::Yes : Answer::No;
  }
  const bool max_node = maximizing(state);
  const size_t n = f.moves.size();
  f.keys.resize(n);
  for (size_t i = 0; i < n; ++i) f.keys[i] = key_of(f.states.data() + i * bytes_);
  // Children that already settle the question first, then the best bound for the mover, the
  // move that kept the value last time first of its equals.
  std::vector<std::pair<bool, int64_t>> rank(n);
  const int32_t best = entries_[at].best;
  for (size_t i = 0; i < n; ++i) {
    const Entry* c = find(f.keys[i]);
    const int64_t lo = c ? c->lo : floor_, hi = c ? c->hi : ceiling_;
    const int64_t middle = lo / 2 + hi / 2;
    rank[i] = max_node ? std::make_pair(lo >= target, middle) : std::make_pair(hi < target, -middle);
  }
  f.order.resize(n);
  std::iota(f.order.begin(), f.order.end(), 0u);
  std::stable_sort(f.order.begin(), f.order.end(), [&rank, best](uint32_t a, uint32_t b) {
    if (rank[a] != rank[b]) return rank[a] > rank[b];
    return int32_t(a) == best && int32_t(b) != best;
  });
  for (size_t k = 0; k < n; ++k) {
    const uint32_t i = frames_[ply].order[k];
    const Answer a = ask(frames_[ply].states.data() + i * bytes_, depth - 1, target, ply + 1);
    if (!stopped_.empty()) return Answer::Unknown;
    if (a == (max_node ? Answer::Yes : Answer::No)) break;  // settled: the rest cannot change it
  }
  // The bounds of a state follow from its children's: the best of them for its mover.
  const Frame& g = frames_[ply];
  int64_t lo = max_node ? floor_ : ceiling_, hi = lo;
  int32_t keep = -1;
  for (size_t i = 0; i < n; ++i) {
    const Entry* c = find(g.keys[i]);
    const int64_t clo = c ? c->lo : floor_, chi = c ? c->hi : ceiling_;
    const bool better = keep < 0 || (max_node ? clo > lo || (clo == lo && chi > hi)
                                               : chi < hi || (chi == hi && clo < lo));
    if (max_node) {
      if (better) keep = int32_t(i);
      lo = std::max(lo, clo), hi = i == 0 ? chi : std::max(hi, chi);
    } else {
      if (better) keep = int32_t(i);
      hi = std::min(hi, chi), lo = i == 0 ? clo : std::min(lo, clo);
    }
  }
  set_bounds(at, lo, hi);
  Entry& e = entries_[at];
  e.best = keep;
  e.expanded = true;
  if (e.lo >= target) return Answer::Yes;
  if (e.hi < target) return Answer::No;
  e.unknown_target = target;
  e.unknown_depth = depth;
  return Answer::Unknown;
}

/// The next question inside (lo, hi]: halves a finite interval, widens its step out of an
/// open one.
int64_t next_target(int64_t lo, int64_t hi) {
  const bool open_lo = lo <= -kNoBound, open_hi = hi >= kNoBound;
  if (open_lo && open_hi) return 0;
  if (open_hi) return lo + std::max<int64_t>(1, lo < 0 ? -lo : lo);
  if (open_lo) return hi - std::max<int64_t>(1, hi < 0 ? -hi : hi) + 1;
  return lo + (hi - lo + 1) / 2;
}

void Search::principal_line(const uint8_t* root, int64_t value, GameValueResult& out) {
  std::vector<uint8_t> state(root, root + bytes_), next;
  std::vector<engine::Move> moves;
  std::vector<uint8_t> children;
  for (size_t ply = 0; ply <= entries_.size() && !engine_.terminal(state.data()); ++ply) {
    if (!engine_.children(state.data(), moves, children).ok || moves.empty()) return;
    const bool max_node = maximizing(state.data());
    int64_t pick = -1;
    for (size_t i = 0; i < moves.size() && pick < 0; ++i) {
      const Entry* c = find(key_of(children.data() + i * bytes_));
      if (c && (max_node ? c->lo >= value : c->hi <= value)) pick = int64_t(i);
    }
    if (pick < 0) return;
    out.line.push_back(moves[size_t(pick)]);
    out.line_text.push_back(engine_.move_text(moves[size_t(pick)]));
    std::memcpy(state.data(), children.data() + size_t(pick) * bytes_, bytes_);
  }
}

GameValueResult Search::run(const uint8_t* root) {
  GameValueResult out;
  const std::string root_key = key_of(root);
  const int64_t at = entry_of(root_key, root);
  int stale = 0;
  while (at >= 0 && stopped_.empty()) {
    const Entry& e = entries_[size_t(at)];
    if (e.lo >= e.hi) break;
    const int64_t target = next_target(e.lo, e.hi);
    progress_.target = target;
    for (int depth = 1; stopped_.empty(); ++depth) {
      if (options_.max_depth > 0 && depth > options_.max_depth) {
        stopped_ = "depth";
        break;
      }
      progress_.depth = depth;
      out.depth = std::max(out.depth, depth);
      const uint64_t before = changes_;
      const Answer a = ask(root, depth, target, 0);
      progress_.lo = entries_[size_t(at)].lo;
      progress_.hi = entries_[size_t(at)].hi;
      if (a != Answer::Unknown) break;
      stale = changes_ == before ? stale + 1 : 0;
      if (stale >= options_.stale_passes && stopped_.empty()) stopped_ = "stale";
    }
  }
  if (at >= 0) {
    out.lo = entries_[size_t(at)].lo;
    out.hi = entries_[size_t(at)].hi;
  } else {
    out.lo = floor_, out.hi = ceiling_;
  }
  out.solved = out.lo == out.hi;
  if (out.solved) {
    stopped_.clear();
    principal_line(root, out.lo, out);
  }
  for (const Transform& t : group_) out.symmetry.push_back(t.name);
  if (out.symmetry.empty()) out.symmetry.push_back("identity");
  out.nodes = nodes_;
  out.states = entries_.size();
  out.stopped = stopped_;
  out.status = status_;
  return out;
}

}  // namespace

Sides two_sides(const ir::Program& program, const engine::Info& info, int first_player) {
  Sides s;
  const bool per_team = info.score_per_team;
  const int subjects = per_team ? int(program.geometry.teams.size()) : info.players;
  if (subjects != 2) {
    if (per_team)
      s.error = fmt::format("it scores {} teams: perfect play is computed for two sides only (two players, or "
                            "two teams scored with `score team`)", subjects);
    else if (info.players == 1)
      s.error = "it has one player: perfect play is computed for two sides (two players, or two teams "
                "scored with `score team`)";
    else
      s.error = fmt::format("it has {} players scored each on their own: perfect play is computed for two sides "
                            "only (two players, or two teams scored with `score team`)", info.players);
    return s;
  }
  s.side_of_player.assign(size_t(info.players), -1);
  if (first_player < 0 || first_player >= info.players) {
    s.error = "nobody is to move in the initial state";
    return s;
  }
  if (!per_team) {
    s.subject[0] = first_player;
    s.subject[1] = 1 - first_player;
    for (int p = 0; p < 2; ++p) s.side_of_player[size_t(p)] = p == first_player ? 0 : 1;
    for (int k = 0; k < 2; ++k) s.name[k] = info.player_names[size_t(s.subject[k])];
    return s;
  }
  s.teams = true;
  for (size_t t = 0; t < program.geometry.teams.size(); ++t)
    for (int p : program.geometry.teams[t]) s.side_of_player[size_t(p)] = int(t);
  for (size_t p = 0; p < s.side_of_player.size(); ++p)
    if (s.side_of_player[p] < 0) {
      s.error = fmt::format("player {} is in no team, and the score is per team", info.player_names[p]);
      return s;
    }
  const int first_team = s.side_of_player[size_t(first_player)];
  s.subject[0] = first_team;
  s.subject[1] = 1 - first_team;
  for (int& side : s.side_of_player) side = side == first_team ? 0 : 1;
  const std::vector<std::string>& names = program.domains[ir::kTeamDomain].members;
  for (int k = 0; k < 2; ++k)
    s.name[k] = size_t(s.subject[k]) < names.size() ? names[size_t(s.subject[k])]
                                                      : fmt::format("team {}", s.subject[k] + 1);
  return s;
}

std::string value_text(Objective objective, int64_t value) {
  if (objective == Objective::Margin) return std::to_string(value);
  return value > 0 ? "win" : value < 0 ? "loss" : "draw";
}

engine::Status terminal_value(const engine::Engine& engine, const Sides& sides, Objective objective,
                              const uint8_t* state, int64_t& value) {
  std::vector<int64_t> scores;
  engine::Status st = engine.scores(state, scores);
  if (!st.ok) return st;
  const engine::Info& info = engine.info();
  const size_t w = size_t(std::max(1, info.score_width));
  const size_t a = size_t(sides.subject[0]) * w, b = size_t(sides.subject[1]) * w;
  if (scores.size() < std::max(a, b) + w) return engine::Status::Error("the engine gave fewer scores than subjects");
  const int64_t sign = info.highest_wins ? 1 : -1;
  if (objective == Objective::Margin) {
    value = sign * (scores[a] - scores[b]);
    return st;
  }
  value = 0;
  for (size_t k = 0; k < w && value == 0; ++k)
    if (scores[a + k] != scores[b + k]) value = scores[a + k] > scores[b + k] ? sign : -sign;
  return st;
}

namespace {

/// Plain minimax; `frames` holds each ply's moves and children, reused across the walk.
engine::Status minimax(const engine::Engine& engine, const Sides& sides, Objective objective,
                       const uint8_t* state, size_t ply, int plies_left, std::vector<Frame>& frames,
                       int64_t& value, uint64_t& nodes) {
  ++nodes;
  if (engine.terminal(state)) return terminal_value(engine, sides, objective, state, value);
  if (frames.size() <= ply) frames.resize(ply + 1);
  engine::Status st = engine.children(state, frames[ply].moves, frames[ply].states);
  if (!st.ok) return st;
  const size_t n = frames[ply].moves.size();
  if (n == 0) return terminal_value(engine, sides, objective, state, value);
  if (plies_left <= 0) return engine::Status::Error("a line of play longer than the bound: the moves may cycle");
  const int p = engine.to_move(state);
  const bool max_node = p < 0 || sides.side_of_player[size_t(p)] == 0;
  const size_t bytes = engine.info().state_bytes;
  for (size_t i = 0; i < n; ++i) {
    int64_t v = 0;
    st = minimax(engine, sides, objective, frames[ply].states.data() + i * bytes, ply + 1, plies_left - 1,
                 frames, v, nodes);
    if (!st.ok) return st;
    if (i == 0 || (max_node ? v > value : v < value)) value = v;
  }
  return st;
}

}  // namespace

GameValueResult game_value(const ir::Program& program, const engine::Engine& engine, const uint8_t* root,
                           const Sides& sides, const GameValueOptions& options) {
  Search search(program, engine, root, sides, options);
  return search.run(root);
}

engine::Status exhaustive_value(const engine::Engine& engine, const Sides& sides, Objective objective,
                                const uint8_t* root, int64_t& value, uint64_t& nodes, int max_plies) {
  nodes = 0;
  value = 0;
  std::vector<Frame> frames;
  return minimax(engine, sides, objective, root, 0, max_plies, frames, value, nodes);
}

}  // namespace rulebook::explorer
