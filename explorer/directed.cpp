// Breadth-first search over distinct positions (kept whole, compared byte for byte) with
// a parent link per position, so the line to any of them can be read back.
#include "explorer/directed.h"

#include <cstring>
#include <unordered_map>

#include "compiler/interp/coverage.h"

namespace rulebook::explorer {
namespace {

using compiler::CoverageSite;

bool searchable(CoverageSite::Kind k) {
  return k == CoverageSite::Kind::Statement || k == CoverageSite::Kind::Transition ||
         k == CoverageSite::Kind::EndCondition;
}

bool setup_draws(const ir::Program& p) {
  for (const ir::SetupVar& s : p.setups)
    if (s.source == ir::SetupVar::Source::Random || s.source == ir::SetupVar::Source::Shuffle) return true;
  return false;
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

}  // namespace

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
  for (const SearchTarget& t : targets) out.results.push_back({t, false, {}, {}, 0});
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
  engine::Status st = interpreter.setup_counted(state.data(), plan.setup, cov);
  if (!st.ok) {
    out.error = st.message;
    return out;
  }
  fired(std::vector<uint64_t>(cov.counts.size(), 0), {}, 1);
  seen.add(state.data(), interpreter.hash(state.data()), -1, {});
  std::vector<engine::Move> moves;
  std::vector<uint64_t> before;
  size_t next = 0;  // the queue is the positions themselves, in the order found
  bool full = false;
  for (; next < seen.size() && open > 0 && !full; ++next) {
    if (plan.stop && plan.stop->load()) break;
    if (interpreter.terminal(seen.at(next))) continue;
    moves.clear();
    if (!(st = interpreter.legal_moves(seen.at(next), moves)).ok) {
      if (out.error.empty()) out.error = st.message;
      continue;
    }
    for (const engine::Move& m : moves) {
      for (SearchResult& r : out.results)
        if (!r.reached && r.target.kind == SearchTarget::Kind::Move && r.target.move == m.kind) {
          std::vector<engine::Move> line = seen.line_to(int64_t(next));
          line.push_back(m);
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
      seen.add(state.data(), h, int64_t(next), m);
    }
  }
  out.states = seen.size();
  out.depth = seen.size() ? seen.depth(seen.size() - 1) : 0;
  out.exhausted = !full && next >= seen.size() && out.error.empty() && !(plan.stop && plan.stop->load());
  return out;
}

}  // namespace rulebook::explorer
