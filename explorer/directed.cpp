// Breadth-first search over distinct positions (kept whole, compared byte for byte) with
// a parent link per position, so the line to any of them can be read back.
#include "explorer/directed.h"

#include <algorithm>
#include <cstring>
#include <queue>
#include <unordered_map>
#include <utility>

#include "compiler/interp/coverage.h"

namespace rulebook::explorer {
namespace {

using compiler::CoverageSite;

/// The elements of a board target's variables on which `state` agrees with its board, and
/// how many there are.
std::pair<uint32_t, uint32_t> agreement(const ir::Program& p, const SearchTarget& t, const uint8_t* state) {
  uint32_t same = 0, all = 0;
  for (int v : t.vars) {
    const ir::StateVar& var = p.vars[size_t(v)];
    for (uint32_t i = 0; i < var.count; ++i, ++all)
      same += ir::load_index(state, var, i) == ir::load_index(t.board.data(), var, i);
  }
  return {same, all};
}

bool agrees(const ir::Program& p, const SearchTarget& t, const uint8_t* state) {
  const auto [same, all] = agreement(p, t, state);
  return same == all;
}

bool searchable(CoverageSite::Kind k) {
  return k == CoverageSite::Kind::Statement || k == CoverageSite::Kind::Transition ||
         k == CoverageSite::Kind::EndCondition;
}

/// The positions found so far: bytes, the parent's index and the move from it.
class Positions {
 public:
  explicit Positions(size_t bytes) : bytes_(bytes) {}
  size_t size() const { return parent_.size(); }
  const uint8_t* at(size_t i) const { return data_.data() + i * bytes_; }
  int depth(size_t i) const { return depth_[i]; }

  bool contains(const uint8_t* state, uint64_t hash) const {
    auto it = by_hash_.find(hash);
    if (it == by_hash_.end()) return false;
    for (uint32_t i : it->second)
      if (std::memcmp(at(i), state, bytes_) == 0) return true;
    return false;
  }

  /// Adds a position that is not there yet.
  void add(const uint8_t* state, uint64_t hash, int64_t parent, const engine::Move& move) {
    by_hash_[hash].push_back(uint32_t(size()));
    data_.insert(data_.end(), state, state + bytes_);
    parent_.push_back(parent);
    move_.push_back(move);
    depth_.push_back(parent < 0 ? 0 : depth_[size_t(parent)] + 1);
  }

  std::vector<engine::Move> line_to(int64_t i) const {
    std::vector<engine::Move> line;
    for (; i >= 0 && parent_[size_t(i)] >= 0; i = parent_[size_t(i)]) line.push_back(move_[size_t(i)]);
    return {line.rbegin(), line.rend()};
  }

 private:
  size_t bytes_;
  std::vector<uint8_t> data_;
  std::vector<int64_t> parent_;
  std::vector<engine::Move> move_;
  std::vector<int> depth_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_hash_;
};

/// The guard of a target as conjuncts that can be read on a position alone (no move
/// parameter): a move's `requires`, the `requires` of the move whose body holds a
/// statement, an end alternative, an `until` condition. A position's score is how many
/// conjuncts of the unreached targets hold there: the search expands high scores first.
class Guards {
 public:
  Guards(const compiler::Interpreter& interpreter, const compiler::Coverage& cov, const std::vector<SearchTarget>& targets)
      : eval_(interpreter), p_(interpreter.program()), targets_(targets), of_(targets.size()) {
    const ir::Program& p = interpreter.program();
    for (size_t t = 0; t < targets.size(); ++t) {
      const SearchTarget& x = targets[t];
      if (x.kind == SearchTarget::Kind::Board) {
        any_ = true;
        continue;
      }
      int move = x.move;
      if (x.kind == SearchTarget::Kind::Site) {
        const CoverageSite& site = cov.sites()[size_t(x.site)];
        if (site.kind == CoverageSite::Kind::EndCondition) {
          add(t, *cov.end_parts()[size_t(x.site - cov.end_base())], -1, p.end_locals);
          continue;
        }
        if (site.kind == CoverageSite::Kind::Transition) {
          for (const ir::Phase& ph : p.phases)
            for (const ir::Transition& tr : ph.transitions)
              if (tr.span.file == site.span.file && tr.span.begin == site.span.begin) add(t, *tr.condition, -1, ph.locals);
          continue;
        }
        for (size_t m = 0; m < p.moves.size(); ++m)
          if (site.block == "move " + p.moves[m].name) move = int(m);
      }
      if (move < 0) continue;
      const ir::Move& mv = p.moves[size_t(move)];
      for (const ir::ExprPtr& r : mv.requires_) add(t, *r, int(mv.params.size()), mv.locals);
    }
  }

  bool any() const { return any_; }

  /// The conjuncts of the targets not reached (`open[t]`) that hold on `state`.
  int score(uint8_t* state, const std::vector<bool>& open) {
    int held = 0;
    for (size_t t = 0; t < of_.size(); ++t) {
      if (!open[t]) continue;
      if (targets_[t].kind == SearchTarget::Kind::Board) held += int(agreement(p_, targets_[t], state).first);
      for (const Conjunct& c : of_[t]) {
        eval_.start(state, std::max(64, c.locals));
        int64_t v = 0;
        if (eval_.scalar(*c.expr, v).ok && v) ++held;
      }
    }
    return held;
  }

 private:
  struct Conjunct {
    const ir::Expr* expr;
    int locals;
  };

  /// Adds the conjuncts of `e` (split at its top-level `and`s) that read no parameter
  /// (locals below `params`; -1: none are parameters).
  void add(size_t t, const ir::Expr& e, int params, int locals) {
    if (e.op == ir::Op::And) {
      add(t, *e.args[0], params, locals);
      add(t, *e.args[1], params, locals);
      return;
    }
    if (params > 0 && reads_below(e, params)) return;
    of_[t].push_back({&e, locals});
    any_ = true;
  }

  static bool reads_below(const ir::Expr& e, int slots) {
    if (e.op == ir::Op::Local && e.slot < slots) return true;
    for (const ir::ExprPtr& a : e.args)
      if (a && reads_below(*a, slots)) return true;
    return false;
  }

  compiler::Evaluator eval_;
  const ir::Program& p_;
  const std::vector<SearchTarget>& targets_;
  std::vector<std::vector<Conjunct>> of_;
  bool any_ = false;
};

}  // namespace

bool setup_draws(const ir::Program& p) {
  for (const ir::SetupVar& s : p.setups)
    if (s.source == ir::SetupVar::Source::Random || s.source == ir::SetupVar::Source::Shuffle) return true;
  return false;
}

std::vector<SearchTarget> never_seen(const CoverageGames& games) {
  std::vector<SearchTarget> out;
  const compiler::Coverage& c = games.counts;
  for (size_t m = 0; m < c.chosen.size(); ++m)
    if (c.chosen[m] == 0) out.push_back({SearchTarget::Kind::Move, int(m), -1});
  for (size_t i = 0; i < c.sites().size(); ++i)
    if (searchable(c.sites()[i].kind) && c.counts[i] == 0) out.push_back({SearchTarget::Kind::Site, -1, int(i)});
  return out;
}

DirectedSearch search_targets(const compiler::Interpreter& interpreter, const std::vector<SearchTarget>& targets,
                              const SearchPlan& plan) {
  DirectedSearch out;
  out.plan = plan;
  out.setup_random = setup_draws(interpreter.program());
  for (const SearchTarget& t : targets) out.results.push_back({t, false, {}, {}, 0, {}});
  size_t open = out.results.size();
  const size_t n = interpreter.info().state_bytes;
  compiler::Coverage cov(interpreter.program());
  auto reach = [&](SearchResult& r, std::vector<engine::Move> line, uint64_t states) {
    r.reached = true;
    r.states = states;
    for (const engine::Move& m : line) r.line_text.push_back(interpreter.move_text(m));
    r.line = std::move(line);
    --open;
  };
  // Sites that fired since `before` was taken are reached by `line`.
  auto fired = [&](const std::vector<uint64_t>& before, const std::vector<engine::Move>& line, uint64_t states) {
    for (SearchResult& r : out.results)
      if (!r.reached && r.target.kind == SearchTarget::Kind::Site &&
          cov.counts[size_t(r.target.site)] != before[size_t(r.target.site)])
        reach(r, line, states);
  };
  Positions seen(n);
  std::vector<uint8_t> state(n);
  engine::Status st;
  if (plan.start.size() == n) state = plan.start;
  else st = interpreter.setup_counted(state.data(), plan.setup, cov);
  if (!st.ok) {
    out.error = st.message;
    return out;
  }
  fired(std::vector<uint64_t>(cov.counts.size(), 0), {}, 1);
  const ir::Program& p = interpreter.program();
  // A board target without a move is reached by the line to the first position agreeing
  // with it (`at`: that position's index).
  auto board_reached = [&](int64_t at) {
    for (SearchResult& r : out.results)
      if (!r.reached && r.target.kind == SearchTarget::Kind::Board && !r.target.played &&
          agrees(p, r.target, seen.at(size_t(at)))) {
        r.position.assign(seen.at(size_t(at)), seen.at(size_t(at)) + n);
        reach(r, seen.line_to(at), seen.size());
      }
  };
  Guards guards(interpreter, cov, targets);
  out.guided = guards.any();
  std::vector<bool> open_now(targets.size());
  // The frontier: highest score first, then the order found (breadth-first among equals).
  std::priority_queue<std::pair<int, int64_t>> frontier;
  auto push = [&](int64_t parent, const engine::Move& m, uint64_t h) {
    seen.add(state.data(), h, parent, m);
    out.depth = std::max(out.depth, seen.depth(seen.size() - 1));
    int score = 0;
    if (out.guided) {
      for (size_t t = 0; t < targets.size(); ++t) open_now[t] = !out.results[t].reached;
      score = guards.score(state.data(), open_now);
    }
    frontier.push({score, -int64_t(seen.size() - 1)});
    board_reached(int64_t(seen.size() - 1));
  };
  push(-1, {}, interpreter.hash(state.data()));
  std::vector<engine::Move> moves;
  std::vector<uint64_t> before;
  bool full = false;
  while (!frontier.empty() && open > 0 && !full) {
    if (plan.stop && plan.stop->load()) break;
    const size_t next = size_t(-frontier.top().second);
    frontier.pop();
    if (interpreter.terminal(seen.at(next))) continue;
    moves.clear();
    if (!(st = interpreter.legal_moves(seen.at(next), moves)).ok) {
      if (out.error.empty()) out.error = st.message;
      continue;
    }
    for (const engine::Move& m : moves) {
      for (SearchResult& r : out.results)
        if (!r.reached && ((r.target.kind == SearchTarget::Kind::Move && r.target.move == m.kind) ||
                           (r.target.kind == SearchTarget::Kind::Board && r.target.played && *r.target.played == m &&
                            agrees(p, r.target, seen.at(next))))) {
          std::vector<engine::Move> line = seen.line_to(int64_t(next));
          line.push_back(m);
          if (r.target.kind == SearchTarget::Kind::Board) r.position.assign(seen.at(next), seen.at(next) + n);
          reach(r, std::move(line), seen.size());
        }
      std::memcpy(state.data(), seen.at(next), n);
      before = cov.counts;
      if (!(st = interpreter.apply_counted(state.data(), m, cov)).ok) {
        if (out.error.empty()) out.error = st.message;
        continue;
      }
      if (cov.counts != before) {
        std::vector<engine::Move> line = seen.line_to(int64_t(next));
        line.push_back(m);
        fired(before, line, seen.size());
      }
      const uint64_t h = interpreter.hash(state.data());
      if (seen.contains(state.data(), h)) continue;
      if (seen.size() >= plan.max_states) {
        full = true;  // a new position would go past the budget
        break;
      }
      push(int64_t(next), m, h);
    }
  }
  out.states = seen.size();
  out.exhausted = !full && frontier.empty() && out.error.empty() && !(plan.stop && plan.stop->load());
  return out;
}

}  // namespace rulebook::explorer
