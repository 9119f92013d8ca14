// Depth-first search of the states play reaches (play_search.h).
#include "explorer/play_search.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>

#include <fmt/format.h>

#include "explorer/pack.h"

namespace rulebook::explorer {

namespace {

/// The packed keys of the states stored: open addressing over fixed-size keys, doubled at
/// half load (a state is a dozen bytes, not a node of a tree of strings).
class KeySet {
 public:
  explicit KeySet(uint32_t key_bytes) : width_(key_bytes) { grow(1u << 16); }
  /// Stores `key`; false when it was there already.
  bool insert(const uint8_t* key) {
    if (2 * (size_ + 1) > slots_) grow(slots_ * 2);
    return place(key);
  }
  uint64_t size() const { return size_; }
  uint64_t bytes() const { return keys_.size() + used_.size(); }

 private:
  uint64_t hash(const uint8_t* key) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t i = 0; i < width_; ++i) h = (h ^ key[i]) * 0x100000001b3ull;
    h ^= h >> 29;
    return h * 0xbf58476d1ce4e5b9ull;
  }
  bool place(const uint8_t* key) {
    uint64_t i = hash(key) & (slots_ - 1);
    while (used_[i]) {
      if (std::memcmp(&keys_[i * width_], key, width_) == 0) return false;
      i = (i + 1) & (slots_ - 1);
    }
    used_[i] = 1;
    std::memcpy(&keys_[i * width_], key, width_);
    ++size_;
    return true;
  }
  void grow(uint64_t slots) {
    std::vector<uint8_t> keys(slots * width_), used(slots);
    keys.swap(keys_);
    used.swap(used_);
    const uint64_t old = slots_;
    slots_ = slots;
    size_ = 0;
    for (uint64_t i = 0; i < old; ++i)
      if (used[i]) place(&keys[i * width_]);
  }
  uint32_t width_;
  uint64_t slots_ = 0, size_ = 0;
  std::vector<uint8_t> keys_, used_;
};

/// A state on the line being searched: its children not yet entered, best first.
struct Frame {
  std::vector<engine::Move> moves;
  std::vector<uint8_t> states;
  std::vector<size_t> order;
  std::vector<std::optional<int64_t>> values;  ///< per entry of `order`: the value cut by
  size_t next = 0;
};

}  // namespace

PlaySearchResult search_play(const engine::Engine& engine, const ir::Program& program,
                             const std::vector<uint8_t>& start, const PlaySearchOptions& o) {
  using Goal = PlaySearchOptions::Goal;
  using End = PlaySearchResult::End;
  PlaySearchResult r;
  const size_t n = engine.info().state_bytes;
  const Packer packer(program, start.data());
  KeySet seen(std::max<uint32_t>(1, packer.key_bytes()));
  std::vector<uint8_t> key(std::max<uint32_t>(1, packer.key_bytes()));
  std::vector<uint32_t> scratch(packer.elements().size() + 1);
  const bool maximize = o.goal == Goal::Max;
  const bool bound = o.goal == Goal::Max || o.goal == Goal::Min;
  // Larger is better, for either direction.
  auto better = [&](int64_t a, int64_t b) { return maximize ? a > b : a < b; };
  std::vector<Frame> stack;
  std::vector<engine::Move> line;
  auto show = [&](const uint8_t* state, const engine::Move* move) {
    r.board.assign(state, state + n);
    r.line = line;
    if (move) r.line.push_back(*move);
  };
  const auto started = std::chrono::steady_clock::now();
  auto last = started;
  // Reads the property on a state newly stored. Returns false when the search ends there;
  // `value` is the value a monotone bound cuts by (unset: none known there).
  auto visit = [&](const uint8_t* state, const engine::Move* move, std::optional<int64_t>& value) {
    value.reset();
    bool in = false;
    int64_t v = 0;
    engine::Status st = engine.observe(state, o.property, false, in, v);
    if (!st.ok) {
      r.end = End::Error;
      r.error = st.message;
      show(state, move);
      return false;
    }
    if (in) {
      ++r.in_set;
      value = v;
      switch (o.goal) {
        case Goal::Holds:
          if (v == 0) {
            r.end = End::Found;
            show(state, move);
            return false;
          }
          break;
        case Goal::Witness:
          if (v != 0) {
            r.end = End::Found;
            show(state, move);
            return false;
          }
          break;
        case Goal::Constant:
          if (!r.best) {
            r.best = v;
            show(state, move);
          } else if (v != *r.best) {
            r.other = v;
            r.end = End::Found;
            show(state, move);
            return false;
          }
          break;
        case Goal::Max:
        case Goal::Min:
          if (!r.best || better(v, *r.best)) {
            r.best = v;
            show(state, move);
          }
          break;
      }
    } else if (bound && o.monotone) {
      // Outside the set the value may not be defined yet: then nothing is cut here.
      bool unused = false;
      if (engine.observe(state, o.property, true, unused, v).ok) value = v;
    }
    return true;
  };
  auto stopped = [&] { return o.stop && o.stop->load(); };
  auto expand = [&](const uint8_t* state, Frame& f) -> bool {
    engine::Status st = engine.children(state, f.moves, f.states);
    if (!st.ok) {
      r.end = End::Error;
      r.error = st.message;
      show(state, nullptr);
      return false;
    }
    // Each child new to the search is stored and read now; the others were searched (or
    // are on the line being searched) from where they were first met.
    std::vector<std::pair<std::optional<int64_t>, size_t>> keep;
    bool valued = true;
    for (size_t i = 0; i < f.moves.size(); ++i) {
      const uint8_t* child = f.states.data() + i * n;
      packer.pack(child, key.data(), scratch.data());
      if (!seen.insert(key.data())) continue;
      ++r.states;
      std::optional<int64_t> value;
      if (!visit(child, &f.moves[i], value)) return false;
      if (bound && o.monotone && value && r.best && !better(*value, *r.best)) {
        ++r.cut;  // nothing after it can beat the best
        continue;
      }
      if (!value) valued = false;
      keep.emplace_back(value, i);
    }
    // The most promising first, so that the best is found early and cuts more.
    if (bound && o.monotone && valued)
      std::stable_sort(keep.begin(), keep.end(), [&](const auto& a, const auto& b) { return better(*a.first, *b.first); });
    f.order.clear();
    f.values.clear();
    for (const auto& k : keep) {
      f.order.push_back(k.second);
      f.values.push_back(k.first);
    }
    f.next = 0;
    return true;
  };

  std::vector<uint8_t> root = start;
  packer.pack(root.data(), key.data(), scratch.data());
  seen.insert(key.data());
  r.states = 1;
  std::optional<int64_t> root_value;
  if (!visit(root.data(), nullptr, root_value)) return r;
  stack.emplace_back();
  if (!engine.terminal(root.data()) && !expand(root.data(), stack.back())) return r;
  // The clock is read once per 256 steps of the search (a step expands or leaves a state).
  uint64_t steps = 0;
  while (!stack.empty()) {
    const bool look = (++steps & 0xff) == 0;
    if (stopped()) {
      r.end = End::Stopped;
      break;
    }
    if (o.max_states && r.states >= o.max_states) {
      r.end = End::Budget;
      break;
    }
    if (look && o.max_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > o.max_seconds) {
      r.end = End::Timeout;
      break;
    }
    if (look && o.progress) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last >= std::chrono::seconds(1)) {
        last = now;
        const double s = std::chrono::duration<double>(now - started).count();
        o.progress(fmt::format("  play: {} states stored ({:.0f}/s), {} in the set, {} cut, depth {}{}, keys {} MB",
                               r.states, double(r.states) / std::max(s, 1e-9), r.in_set, r.cut, stack.size(),
                               r.best ? fmt::format(", best {}", *r.best) : "", seen.bytes() >> 20));
      }
    }
    Frame& f = stack.back();
    if (f.next >= f.order.size()) {
      stack.pop_back();
      if (!line.empty()) line.pop_back();
      continue;
    }
    const size_t i = f.order[f.next];
    const std::optional<int64_t> value = f.values[f.next++];
    const uint8_t* child = f.states.data() + i * n;
    if (engine.terminal(child)) continue;
    if (bound && o.monotone && value && r.best && !better(*value, *r.best)) {
      ++r.cut;  // the best has improved since it was stored
      continue;
    }
    std::vector<uint8_t> here(child, child + n);
    line.push_back(f.moves[i]);
    stack.emplace_back();
    r.depth = std::max(r.depth, int(stack.size()) - 1);
    if (!expand(here.data(), stack.back())) return r;
  }
  if (r.end == End::Complete || !bound || !o.monotone) return r;
  // Stopped early: what the states stored but not expanded could still reach.
  for (const Frame& f : stack)
    for (size_t k = f.next; k < f.order.size(); ++k) {
      if (engine.terminal(f.states.data() + f.order[k] * n)) continue;
      if (!f.values[k]) {
        r.open_bound.reset();
        return r;
      }
      if (!r.open_bound || better(*f.values[k], *r.open_bound)) r.open_bound = f.values[k];
    }
  return r;
}

}  // namespace rulebook::explorer
