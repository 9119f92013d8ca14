// Perft over the engine interface: a breadth-first pass down to a split depth, then one
// depth-first walk per state of that depth, shared out among threads; every path's last
// state is looked at, so the paths that end the game are counted by length too.
#include "explorer/perft.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

namespace rulebook::explorer {
namespace {

using Clock = std::chrono::steady_clock;

/// Subtrees per thread the split depth aims at: enough that threads finish together and
/// progress moves in small steps, few enough that the split depth's states fit easily.
constexpr size_t kSubtreesPerThread = 64;

/// Paths and complete games by depth below some state (index: ply - 1 from the root).
struct Counts {
  std::vector<uint64_t> paths, ends;
  explicit Counts(int depth) : paths(size_t(depth), 0), ends(size_t(depth), 0) {}
  void clear() {
    std::fill(paths.begin(), paths.end(), 0);
    std::fill(ends.begin(), ends.end(), 0);
  }
  void add(const Counts& o) {
    for (size_t d = 0; d < paths.size(); ++d) {
      paths[d] += o.paths[d];
      ends[d] += o.ends[d];
    }
  }
};

/// Reusable buffers so the walk allocates only while the first path goes down.
class Walker {
 public:
  /// `stop` and `interrupt` (may be null) end the walk; `tick`, when given, is called
  /// every few thousand states (the calling thread reports progress from it).
  Walker(const engine::Engine& engine, int depth, const PerftOptions& options, int worker,
         const std::atomic<bool>* stop, std::function<void()> tick = {})
      : engine_(engine), bytes_(engine.info().state_bytes), count_ends_(options.count_ends),
        on_end_(options.count_ends && options.on_end ? &options.on_end : nullptr), worker_(worker),
        stop_(stop), interrupt_(options.interrupt), tick_(std::move(tick)),
        moves_(static_cast<size_t>(depth + 1)),
        children_(static_cast<size_t>(depth + 1)) {}

  /// Adds to counts[ply .. depth-1] the paths below `state`, at `ply`. A state's children
  /// come from the engine in one call (no call per move, no rebuild per sibling). Counting
  /// complete games, that goes down to the last ply: whether a path ends the game is known
  /// only from the state it reaches. Otherwise the last one or two plies are the engine's
  /// own perft, which plays the moves on copies of its working state and counts the last
  /// ply without playing it. A terminal child has no moves and is not walked. False when
  /// the engine failed (`status` says why) or a stop was asked.
  bool walk(const uint8_t* state, int ply, int depth, Counts& counts, engine::Status& status) {
    if (stop_->load(std::memory_order_relaxed)) return false;
    if (interrupt_ && interrupt_->load(std::memory_order_relaxed)) return false;
    if (tick_ && ++calls_ % 4096 == 0) tick_();
    if (!count_ends_ && ply + 2 >= depth) {
      uint64_t n = 0;
      if (!(status = engine_.perft(state, 1, n)).ok) return false;
      counts.paths[static_cast<size_t>(ply)] += n;
      if (ply + 2 == depth) {
        if (!(status = engine_.perft(state, 2, n)).ok) return false;
        counts.paths[static_cast<size_t>(ply) + 1] += n;
      }
      return true;
    }
    std::vector<engine::Move>& moves = moves_[static_cast<size_t>(ply)];
    std::vector<uint8_t>& children = children_[static_cast<size_t>(ply)];
    status = engine_.children(state, moves, children);
    if (!status.ok) return false;
    counts.paths[static_cast<size_t>(ply)] += moves.size();
    for (size_t i = 0; i < moves.size(); ++i) {
      const uint8_t* child = children.data() + i * bytes_;
      if (engine_.terminal(child)) {
        ++counts.ends[static_cast<size_t>(ply)];
        if (on_end_) (*on_end_)(child, ply, worker_);
      } else if (ply + 1 < depth && !walk(child, ply + 1, depth, counts, status)) {
        return false;
      }
    }
    return true;
  }

 private:
  const engine::Engine& engine_;
  size_t bytes_;
  bool count_ends_;
  const std::function<void(const uint8_t*, int, int)>* on_end_;
  int worker_;
  const std::atomic<bool>* stop_;
  const std::atomic<bool>* interrupt_;
  std::function<void()> tick_;
  uint64_t calls_ = 0;
  std::vector<std::vector<engine::Move>> moves_;
  std::vector<std::vector<uint8_t>> children_;
};

/// What the workers share: the subtrees to take, the sums of the finished ones, the first
/// error, and the flag that stops them all.
struct Shared {
  explicit Shared(int depth) : counts(depth) {}
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::atomic<uint64_t> deepest{0};
  std::atomic<bool> stop{false};  ///< an error or an interruption: every worker ends
  std::mutex mutex;  ///< guards `counts` and `error`
  Counts counts;
  engine::Status error;
};

}  // namespace

PerftResult perft(const engine::Engine& engine, const uint8_t* root, int depth,
                  const PerftOptions& options) {
  PerftResult result;
  if (depth <= 0) return result;
  const auto start = Clock::now();
  result.paths.assign(static_cast<size_t>(depth), 0);
  result.ends.assign(options.count_ends ? static_cast<size_t>(depth) : 0, 0);
  const size_t bytes = engine.info().state_bytes;
  const int threads = std::max(1, options.threads);
  auto interrupted = [&] { return options.interrupt && options.interrupt->load(); };

  // Breadth-first down to the split depth: deep enough for kSubtreesPerThread subtrees per
  // thread, leaving at least the last two plies to the walks. A finished game is counted
  // here and not carried down: it has no moves.
  std::vector<uint8_t> level(root, root + bytes), next;
  std::vector<engine::Move> moves;
  std::vector<uint8_t> children;
  int split = 0;
  while (split + 2 < depth && level.size() / bytes < kSubtreesPerThread * size_t(threads)) {
    next.clear();
    for (size_t i = 0; i < level.size() / bytes; ++i) {
      if (interrupted()) {
        result.complete = false;
        result.split_depth = split;
        return result;
      }
      result.status = engine.children(level.data() + i * bytes, moves, children);
      if (!result.status.ok) {
        result.complete = false;
        return result;
      }
      result.paths[static_cast<size_t>(split)] += moves.size();
      for (size_t c = 0; c < moves.size(); ++c) {
        const uint8_t* child = children.data() + c * bytes;
        if (!engine.terminal(child)) next.insert(next.end(), child, child + bytes);
        else if (options.count_ends) {
          ++result.ends[static_cast<size_t>(split)];
          if (options.on_end) options.on_end(child, split, 0);
        }
      }
    }
    level.swap(next);
    ++split;
  }
  const size_t units = level.size() / bytes;
  result.split_depth = split;
  result.subtrees = units;

  Shared shared(depth);
  // Progress, from the calling thread only: between its subtrees and every few thousand
  // states inside one.
  auto last = Clock::now();
  auto report = [&] {
    if (!options.progress || Clock::now() - last < std::chrono::seconds(1)) return;
    last = Clock::now();
    PerftProgress p;
    p.subtrees = units;
    p.subtrees_done = shared.done;
    p.split_depth = split;
    p.deepest = shared.deepest;
    p.seconds = std::chrono::duration<double>(last - start).count();
    options.progress(p);
  };
  auto work = [&](int worker) {
    const bool calling = worker == 0;
    Walker walker(engine, depth, options, worker, &shared.stop,
                  calling ? std::function<void()>(report) : std::function<void()>());
    Counts mine(depth), unit(depth);
    for (size_t u; !shared.stop && (u = shared.next++) < units;) {
      unit.clear();
      engine::Status st;
      if (!walker.walk(level.data() + u * bytes, split, depth, unit, st)) {
        std::lock_guard<std::mutex> lock(shared.mutex);
        if (!st.ok && shared.error.ok) shared.error = st;
        shared.stop = true;  // an error or an interruption: this subtree is not counted
        break;
      }
      mine.add(unit);
      shared.deepest += unit.paths.back();
      ++shared.done;
      if (calling) report();
    }
    std::lock_guard<std::mutex> lock(shared.mutex);
    shared.counts.add(mine);
  };
  // The calling thread works too: with one thread nothing is started (and a caller timing
  // its own thread sees the whole count).
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& t : pool) t.join();

  for (size_t d = 0; d < result.paths.size(); ++d) result.paths[d] += shared.counts.paths[d];
  for (size_t d = 0; d < result.ends.size(); ++d) result.ends[d] += shared.counts.ends[d];
  result.subtrees_done = shared.done;
  if (!shared.error.ok) result.status = shared.error;
  result.complete = result.status.ok && shared.done == units;
  return result;
}

std::vector<DivideEntry> divide(const engine::Engine& engine, const uint8_t* root, int depth,
                                engine::Status& status, const PerftOptions& options) {
  std::vector<DivideEntry> out;
  std::vector<engine::Move> first;
  status = engine.legal_moves(root, first);
  if (!status.ok) return out;
  std::vector<uint8_t> child(engine.info().state_bytes);
  for (const engine::Move& m : first) {
    DivideEntry e{m, 1, 0};
    std::memcpy(child.data(), root, child.size());
    status = engine.apply(child.data(), m);
    if (!status.ok) return out;
    if (engine.terminal(child.data())) {
      e.ends = 1;
      if (depth > 1) e.paths = 0;
    } else if (depth > 1) {
      const PerftResult r = perft(engine, child.data(), depth - 1, options);
      if (!r.status.ok) {
        status = r.status;
        return out;
      }
      if (!r.complete) {
        status = engine::Status::Error("interrupted");
        return out;
      }
      e.paths = r.paths.back();
      e.ends = wide_sum(r.ends);
    }
    out.push_back(e);
  }
  return out;
}

WideCount wide_sum(const std::vector<uint64_t>& counts) {
  WideCount sum = 0;
  for (uint64_t n : counts) sum += n;
  return sum;
}

std::string wide_text(WideCount n) {
  std::string digits;
  do {
    digits.insert(digits.begin(), char('0' + int(n % 10)));
    n /= 10;
  } while (n != 0);
  return digits;
}

nlohmann::json wide_json(WideCount n) {
  if (n <= WideCount(UINT64_MAX)) return nlohmann::json(uint64_t(n));
  return nlohmann::json(wide_text(n));
}

}  // namespace rulebook::explorer
