// Breadth-first enumeration: each depth is built from the one before by worker threads that
// expand packed states and append their children to a partitioned store, merged at the end.
#include "explorer/enumerate.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "compiler/runtime/engine.h"
#include "explorer/layer_store.h"
#include "explorer/pack.h"
#include "explorer/symmetry_graph.h"

namespace rulebook::explorer {
namespace {

using Clock = std::chrono::steady_clock;

int log2_exact(uint64_t n) {
  int k = 0;
  while ((uint64_t{1} << k) < n) ++k;
  return k;
}

class Explorer {
 public:
  Explorer(const ir::Program& program, const engine::Engine& engine, const uint8_t* root,
           const std::vector<Transform>& group, const ExploreOptions& options)
      : program_(program), engine_(engine), options_(options), packer_(program, root),
        action_(program, packer_, group), root_(root, root + program.state_bytes), group_(group) {
    uint32_t parts = 1;
    while (parts < options.partitions) parts <<= 1;
    part_bits_ = uint32_t(log2_exact(parts));
    parts_ = parts;
    threads_ = std::max(1, options.threads);
    for (uint64_t k = 1; k <= action_.size(); ++k)
      if (action_.size() % k == 0) divisors_.push_back(k);
  }

  ExploreResult run();

 private:
  /// What one thread needs, so the hot loop allocates nothing.
  struct Worker {
    std::vector<uint32_t> digits;
    std::vector<uint64_t> values, parent_values;
    /// Chunk values of the parent's image under each group element but the identity
    /// (chunks() per element), and room for one image's digits.
    std::vector<uint64_t> parent_images;
    std::vector<uint32_t> image_digits;
    std::vector<uint8_t> key, state;
    std::vector<engine::Move> moves;
    std::vector<uint8_t> children;  ///< the state after each of `moves`
    std::vector<uint8_t> staged;  ///< per partition, kStage records
    std::vector<uint32_t> staged_count;
    uint64_t made = 0;  ///< records made, not yet added to appended_
  };
  static constexpr uint32_t kStage = 32;
  static constexpr uint32_t kMaxChanges = 64;

  Worker make_worker() const {
    Worker w;
    const size_t n = packer_.elements().size();
    w.digits.resize(n);
    w.values.resize(packer_.chunks());
    w.parent_values.resize(packer_.chunks());
    w.parent_images.resize((action_.size() - 1) * packer_.chunks());
    w.image_digits.resize(n);
    w.key.resize(packer_.key_bytes());
    w.state.resize(program_.state_bytes);
    w.staged.resize(size_t(parts_) * kStage * record_bytes());
    w.staged_count.assign(parts_, 0);
    return w;
  }
  uint32_t record_bytes() const { return packer_.key_bytes() + 8; }

  /// The elements a move changed (their digits now in w.digits) and their digits before.
  struct Changes {
    const uint32_t* element = nullptr;
    const uint32_t* was = nullptr;
    uint32_t n = 0;
  };
  /// Stages `state` for its partition: w.digits and w.values hold its digits and chunk
  /// values, `hash` its class hash; `changes` leads from the parent (whose images are in
  /// w.parent_images) to it, or is null for a state not derived from the parent.
  void add(Worker& w, LayerStore& next, const uint8_t* state, uint64_t hash, uint64_t paths,
           const Changes* changes);
  /// add() for a state not derived from the worker's parent.
  void add_fresh(Worker& w, LayerStore& next, const uint8_t* state, uint64_t paths) {
    packer_.gather(state, w.digits.data());
    packer_.chunk_values(w.digits.data(), w.values.data());
    add(w, next, state, action_.class_hash(w.digits.data()), paths, nullptr);
  }
  /// The chunk values of the image of w.digits under g (g >= 1), into `out`.
  void image_values(Worker& w, size_t g, uint64_t* out) const {
    action_.apply(g, w.digits.data(), w.image_digits.data());
    packer_.chunk_values(w.image_digits.data(), out);
  }
  void flush(Worker& w, LayerStore& next);
  /// Expands blocks of `cur` into `next` until the work runs out or a stop is asked.
  void expand(LayerStore& cur, LayerStore& next, const std::vector<std::pair<uint32_t, size_t>>& units);
  /// Runs `body(thread)` on every thread while this thread reports progress.
  void parallel(const std::function<void(int)>& body);
  void stop(const std::string& why, const engine::Status& st = {}) {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    if (stop_reason_.empty()) {
      stop_reason_ = why;
      stop_status_ = st;
    }
    stopping_ = true;
  }
  DepthCount count(const LayerStore& layer, int depth) const;
  /// Fills d.end_symmetries and d.terminal_end_classes.
  void end_symmetry(const LayerStore& layer, DepthCount& d);
  /// Runs body(i) for i in [0, n) on every thread, in chunks, until done or stopping.
  void parallel_for(size_t n, const std::function<void(size_t)>& body);

  const ir::Program& program_;
  const engine::Engine& engine_;
  const ExploreOptions& options_;
  Packer packer_;
  KeyAction action_;
  std::vector<uint8_t> root_;
  std::vector<Transform> group_;
  std::vector<uint64_t> divisors_;  ///< of the group's order: the possible class sizes
  uint32_t parts_ = 1, part_bits_ = 0;
  int threads_ = 1;

  std::atomic<uint64_t> memory_{0};
  std::atomic<bool> stopping_{false};
  std::mutex stop_mutex_;
  std::string stop_reason_;
  engine::Status stop_status_;

  std::atomic<size_t> next_unit_{0};
  std::atomic<uint64_t> expanded_{0};
  std::atomic<uint64_t> appended_{0};
  uint64_t frontier_size_ = 0;
  uint64_t counted_ = 0;  ///< distinct states of the complete depths
  int depth_ = 0;
  Clock::time_point start_;
};

void Explorer::add(Worker& w, LayerStore& next, const uint8_t* state, uint64_t hash, uint64_t paths,
                   const Changes* changes) {
  packer_.compose(w.values.data(), w.key.data());
  const uint32_t kb = packer_.key_bytes();
  uint64_t least = 1, stabiliser = 1;
  // Least of its class when no image has smaller digits (a smaller key as a number); an
  // image's chunk values are the parent's image's, brought up to date for the move's
  // changes, so comparing is a few word comparisons, not a walk over the elements.
  const size_t chunks = packer_.chunks();
  uint64_t image[kMaxChunks];
  for (size_t g = 1; g < action_.size(); ++g) {
    if (changes) {
      const uint64_t* parent = w.parent_images.data() + (g - 1) * chunks;
      for (size_t k = 0; k < chunks; ++k) image[k] = parent[k];
      for (uint32_t k = 0; k < changes->n; ++k) {
        const uint32_t e = changes->element[k];
        action_.adjust_image(g, e, changes->was[k], w.digits[e], packer_, image);
      }
    } else {
      image_values(w, g, image);
    }
    const int order = packer_.compare_values(image, w.values.data());
    if (order < 0) least = 0;
    stabiliser += order == 0;
  }
  // Every image of a state has the same class hash, so a partition holds whole classes.
  hash ^= hash >> 31;
  hash *= 0x94d049bb133111ebull;
  hash ^= hash >> 29;
  const uint32_t part = part_bits_ ? uint32_t(hash >> (64 - part_bits_)) : 0;
  const uint64_t orbit = action_.size() / stabiliser;
  const uint64_t orbit_index = uint64_t(std::lower_bound(divisors_.begin(), divisors_.end(), orbit) - divisors_.begin());
  const uint64_t m = (paths & meta::kPathMask) |
                     uint64_t(engine_.phase(state) & 0x3f) << meta::kPhaseShift |
                     uint64_t(engine_.terminal(state)) << meta::kTerminalShift |
                     least << meta::kLeastShift | orbit_index << meta::kOrbitShift;
  uint8_t* slot = w.staged.data() + (size_t(part) * kStage + w.staged_count[part]) * record_bytes();
  std::memcpy(slot, w.key.data(), kb);
  std::memcpy(slot + kb, &m, 8);
  if (++w.staged_count[part] == kStage) {
    next.append(part, w.staged.data() + size_t(part) * kStage * record_bytes(), kStage);
    w.staged_count[part] = 0;
  }
  if (++w.made == 256) {
    appended_ += w.made;
    w.made = 0;
  }
}

void Explorer::flush(Worker& w, LayerStore& next) {
  for (uint32_t p = 0; p < parts_; ++p) {
    if (w.staged_count[p] == 0) continue;
    next.append(p, w.staged.data() + size_t(p) * kStage * record_bytes(), w.staged_count[p]);
    w.staged_count[p] = 0;
  }
  appended_ += w.made;
  w.made = 0;
}

void Explorer::expand(LayerStore& cur, LayerStore& next,
                      const std::vector<std::pair<uint32_t, size_t>>& units) {
  Worker w = make_worker();
  const uint32_t kb = packer_.key_bytes();
  const size_t rb = record_bytes();
  for (size_t u; !stopping_ && (u = next_unit_++) < units.size();) {
    const auto [p, b] = units[u];
    const uint8_t* block = cur.block(p, b);
    const size_t n = cur.block_size(p, b);
    for (size_t i = 0; i < n && !stopping_; ++i) {
      const uint8_t* rec = block + i * rb;
      uint64_t m;
      std::memcpy(&m, rec + kb, 8);
      ++expanded_;
      if (meta::terminal(m)) continue;
      packer_.unpack(rec, w.state.data(), w.digits.data());
      packer_.chunk_values(w.digits.data(), w.parent_values.data());
      const uint64_t parent_hash = action_.class_hash(w.digits.data());
      for (size_t g = 1; g < action_.size(); ++g)
        image_values(w, g, w.parent_images.data() + (g - 1) * packer_.chunks());
      engine::Status st = engine_.children(w.state.data(), w.moves, w.children);
      if (!st.ok) return stop("error", st);
      for (size_t c = 0; c < w.moves.size(); ++c) {
        const uint8_t* child = w.children.data() + c * w.state.size();
        // A move changes few elements: update the parent's digits (in place, undone
        // after), chunks and hash.
        uint32_t changed[kMaxChanges], old[kMaxChanges];
        std::memcpy(w.values.data(), w.parent_values.data(), w.values.size() * sizeof(uint64_t));
        const uint32_t n_changed = packer_.update(w.state.data(), child, w.digits.data(),
                                                  w.values.data(), changed, old, kMaxChanges);
        if (n_changed > kMaxChanges) {
          add_fresh(w, next, child, meta::paths(m));
          packer_.gather(w.state.data(), w.digits.data());
          continue;
        }
        uint64_t hash = parent_hash;
        for (uint32_t k = 0; k < n_changed; ++k)
          hash += action_.class_term(changed[k], w.digits[changed[k]]) -
                  action_.class_term(changed[k], old[k]);
        const Changes changes{changed, old, n_changed};
        add(w, next, child, hash, meta::paths(m), &changes);
        for (uint32_t k = 0; k < n_changed; ++k) w.digits[changed[k]] = old[k];
      }
      if (options_.max_memory && memory_ > options_.max_memory) stop("memory");
      if (options_.max_states && counted_ + appended_ > options_.max_states) stop("states");
    }
  }
  flush(w, next);
}

void Explorer::parallel(const std::function<void(int)>& body) {
  if (options_.interrupt && *options_.interrupt) stop("interrupted");
  // The workers say when they are done; this thread wakes then, or every 20 ms to look
  // for an interrupt and to report progress (a pass of a few milliseconds, like an end
  // candidate rejected by its first images, no longer waits out a whole sleep).
  int done = 0;
  std::mutex done_mutex;
  std::condition_variable done_cv;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads_; ++t)
    pool.emplace_back([&, t] {
      body(t);
      std::lock_guard<std::mutex> lock(done_mutex);
      ++done;
      done_cv.notify_one();
    });
  auto last = Clock::now();
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(done_mutex);
      if (done_cv.wait_for(lock, std::chrono::milliseconds(20), [&] { return done == threads_; })) break;
    }
    if (options_.interrupt && *options_.interrupt) stop("interrupted");
    if (options_.progress && Clock::now() - last >= std::chrono::seconds(1)) {
      last = Clock::now();
      Progress pr;
      pr.depth = depth_;
      pr.expanded = expanded_;
      pr.frontier = frontier_size_;
      pr.records = appended_;
      pr.memory = memory_;
      pr.seconds = std::chrono::duration<double>(last - start_).count();
      options_.progress(pr);
    }
  }
  for (std::thread& th : pool) th.join();
  if (options_.interrupt && *options_.interrupt) stop("interrupted");
}

/// Whether the last depth holds the same states as an earlier one (the same count and the
/// same fingerprint); `earlier` is set to that depth. Looks back a few depths, which covers
/// cycles of that many moves; longer ones are still stopped by the budgets.
bool repeats(const std::vector<DepthCount>& depths, int& earlier) {
  constexpr size_t kLookBack = 8;
  const DepthCount& last = depths.back();
  for (size_t k = 1; k <= kLookBack && k < depths.size(); ++k) {
    const DepthCount& e = depths[depths.size() - 1 - k];
    if (e.distinct == last.distinct && e.fingerprint == last.fingerprint && e.terminal == last.terminal) {
      earlier = e.depth;
      return true;
    }
  }
  return false;
}

DepthCount Explorer::count(const LayerStore& layer, int depth) const {
  DepthCount d;
  d.depth = depth;
  d.per_phase.assign(program_.phases.size(), 0);
  const uint32_t kb = packer_.key_bytes();
  const size_t rb = record_bytes();
  for (uint32_t p = 0; p < layer.partitions(); ++p)
    for (size_t b = 0; b < layer.blocks(p); ++b) {
      const uint8_t* block = layer.block(p, b);
      for (size_t i = 0, n = layer.block_size(p, b); i < n; ++i) {
        uint64_t m;
        std::memcpy(&m, block + i * rb + kb, 8);
        ++d.distinct;
        d.fingerprint += engine::hash_bytes(block + i * rb, kb);
        if (meta::paths(m) == meta::kPathMask) d.paths_known = false;
        d.paths += meta::paths(m);
        const int ph = meta::phase(m);
        if (size_t(ph) < d.per_phase.size()) ++d.per_phase[size_t(ph)];
        d.terminal += meta::terminal(m);
        if (meta::terminal(m)) {
          d.ends += meta::paths(m);
          if (meta::paths(m) == meta::kPathMask) d.ends_exact = false;
        }
        if (meta::least(m)) {
          ++d.symmetric;
          d.class_sum += divisors_[meta::orbit_index(m)];
          d.terminal_symmetric += meta::terminal(m);
        }
      }
    }
  return d;
}

void Explorer::parallel_for(size_t n, const std::function<void(size_t)>& body) {
  std::atomic<size_t> next{0};
  constexpr size_t kChunk = 4096;
  if (n <= kChunk) {  // one chunk: no threads to start and wait for
    for (size_t i = 0; i < n && !stopping_; ++i) body(i);
    return;
  }
  parallel([&](int) {
    for (size_t c; !stopping_ && (c = next.fetch_add(kChunk)) < n;)
      for (size_t i = c; i < std::min(n, c + kChunk); ++i) body(i);
  });
}

void Explorer::end_symmetry(const LayerStore& layer, DepthCount& d) {
  if (options_.end_candidates.empty() || d.terminal == 0) return;
  const uint32_t kb = packer_.key_bytes();
  const size_t rb = record_bytes();
  KeySet ends(kb);
  ends.reserve(d.terminal);
  for (uint32_t p = 0; p < layer.partitions(); ++p)
    for (size_t b = 0; b < layer.blocks(p); ++b)
      for (size_t i = 0, n = layer.block_size(p, b); i < n; ++i) {
        const uint8_t* rec = layer.block(p, b) + i * rb;
        uint64_t m;
        std::memcpy(&m, rec + kb, 8);
        if (meta::terminal(m)) ends.add(rec);
      }
  ends.seal();
  const size_t n = packer_.elements().size();
  // The image of each terminal state under t, as its number among them (-1: not one).
  std::vector<int64_t> image_of(ends.size());
  // With `first_outside`, the pass ends at the first image outside the terminal states: a
  // candidate is rejected by one, and most candidates are (a count of them all cost more
  // than the exploration itself on the 6x6 fill's dead ends).
  std::atomic<bool> outside{false};
  // The terminal states' digits, decoded on the first pass and read on the others, when
  // each fits a byte and they take at most 256 MB (decoding is a division per digit).
  const bool byte_digits = std::all_of(packer_.elements().begin(), packer_.elements().end(),
                                       [](const PackedElement& e) { return e.radix <= 256; });
  std::vector<uint8_t> decoded(byte_digits && ends.size() * n <= (size_t{1} << 28) ? ends.size() * n : 0);
  std::vector<uint8_t> have(decoded.empty() ? 0 : ends.size(), 0);
  // The image of each terminal state under t, or with `only` of those states alone.
  auto images = [&](const Transform& t, bool first_outside, const std::vector<uint32_t>* only) {
    KeyAction action(program_, packer_, {group_.front(), t});
    outside = false;
    const size_t count = only ? only->size() : ends.size();
    // In blocks: the images of a block are looked up together (KeySet::find_many).
    constexpr size_t kBlock = 64;
    parallel_for((count + kBlock - 1) / kBlock, [&](size_t blk) {
      if (first_outside && outside.load(std::memory_order_relaxed)) return;
      thread_local std::vector<uint32_t> digits, image;
      thread_local std::vector<uint8_t> keys;
      int64_t found[kBlock];
      size_t looked[kBlock], m = 0;  // the states of the block whose images are looked up
      digits.resize(n);
      image.resize(n);
      keys.resize(kBlock * kb);
      const size_t from = blk * kBlock, to = std::min(count, from + kBlock);
      for (size_t j = from; j < to; ++j) {
        const size_t i = only ? (*only)[j] : j;
        if (!have.empty() && have[i]) {
          for (size_t k = 0; k < n; ++k) digits[k] = decoded[i * n + k];
        } else {
          packer_.decode(ends.key(i), digits.data());
          if (!have.empty()) {
            for (size_t k = 0; k < n; ++k) decoded[i * n + k] = uint8_t(digits[k]);
            have[i] = 1;
          }
        }
        action.apply(1, digits.data(), image.data());
        // A state the map fixes is its own image: no key to make and look up.
        if (std::equal(digits.begin(), digits.end(), image.begin())) {
          image_of[i] = int64_t(i);
          continue;
        }
        packer_.encode(image.data(), keys.data() + m * kb);
        looked[m++] = i;
      }
      ends.find_many(keys.data(), m, found);
      for (size_t k = 0; k < m; ++k) {
        image_of[looked[k]] = found[k];
        if (found[k] < 0) outside = true;
      }
    });
  };
  // The end classes are the orbits under generators: joined by union-find, one pass each.
  std::vector<uint32_t> parent(ends.size());
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = uint32_t(i);
  auto root = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  auto join = [&](const std::vector<uint32_t>* only) {
    const size_t count = only ? only->size() : image_of.size();
    for (size_t j = 0; j < count; ++j) {
      const size_t i = only ? (*only)[j] : j;
      const uint32_t a = root(uint32_t(i)), b = root(uint32_t(image_of[i]));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  };
  // The maps joined so far generate a group K whose orbits the union-find holds. A map t
  // that normalises K (t k t^-1 in K for each generator k) needs one state per orbit: for
  // s = k(r), t(s) = (t k t^-1)(t(r)) lies in the orbit of t(r), so t keeps the terminal
  // states when it keeps the roots, and t's orbits join the roots' (on the 6x6 fill's dead
  // ends, most maps kept commute with those before them).
  std::vector<Transform> joined;
  uint64_t joined_order = 1;
  std::vector<uint32_t> roots;
  auto one_per_orbit = [&](const Transform& t) -> const std::vector<uint32_t>* {
    if (joined.empty()) return nullptr;
    const Transform inv = inverse(program_, t);
    std::vector<Transform> with = joined;
    for (const Transform& k : joined) {
      with.push_back(compose(program_, t, compose(program_, k, inv)));
      const uint64_t order = group_order(program_, with);
      with.pop_back();
      if (order == UINT64_MAX || order != joined_order) return nullptr;
    }
    roots.clear();
    for (size_t i = 0; i < parent.size(); ++i)
      if (parent[i] == i) roots.push_back(uint32_t(i));
    return &roots;
  };
  auto note_joined = [&](const Transform& t) {
    joined.push_back(t);
    joined_order = group_order(program_, joined);
    if (joined_order == UINT64_MAX) joined_order = 0;  // no map is then shown to normalise
  };
  // The candidates first: the group's own passes are needed only when one is kept (the
  // orbits are the same whatever the order of the joins).
  std::vector<Transform> kept;
  // The play group's generators and the candidates checked and kept: a candidate in the
  // group they generate keeps the terminal states too (each of them maps the finite set
  // into, hence onto, itself) and adds no orbit, so it needs no pass (on the 6x6 fill's
  // dead ends, most kept candidates are compositions of two of them).
  std::vector<Transform> known = options_.generators.empty() ? group_ : options_.generators;
  uint64_t known_order = 0;
  for (const Transform& t : options_.end_candidates) {
    if (!kept.empty()) {
      if (known_order == 0) known_order = group_order(program_, known);
      known.push_back(t);
      if (known_order != UINT64_MAX && group_order(program_, known) == known_order) {
        d.end_symmetries.push_back(t.name);
        kept.push_back(t);
        continue;
      }
      known.pop_back();
    }
    // Each candidate is checked on every terminal state (or one per orbit, above): its
    // image must be one of them.
    const std::vector<uint32_t>* only = one_per_orbit(t);
    images(t, true, only);
    if (stopping_) return;
    if (outside) {
      d.end_rejected.emplace_back(t.name, fmt::format("it maps a terminal state of depth {} (of {}) to a state "
                                                      "that is not among them",
                                                      d.depth, ends.size()));
      continue;
    }
    d.end_symmetries.push_back(t.name);
    kept.push_back(t);
    known.push_back(t);
    known_order = 0;
    join(only);
    note_joined(t);
  }
  if (d.end_symmetries.empty()) return;
  std::vector<Transform> generators = options_.generators.empty() ? group_ : options_.generators;
  for (const Transform& t : generators) {
    if (t.is_identity()) continue;
    const std::vector<uint32_t>* only = one_per_orbit(t);
    images(t, false, only);
    if (stopping_) return;
    // The group keeps the states of a depth; a terminal state's image is terminal (else
    // nothing is said of the terminal states).
    if (outside) {
      d.end_symmetries.clear();
      d.end_rejected.clear();
      return;
    }
    join(only);
    note_joined(t);
  }
  generators.insert(generators.end(), kept.begin(), kept.end());
  if (d.end_symmetries.empty()) return;
  uint64_t classes = 0;
  for (size_t i = 0; i < parent.size(); ++i) classes += parent[i] == i;
  d.terminal_end_classes = classes;
  d.end_group_order = group_order(program_, generators);
}

ExploreResult Explorer::run() {
  ExploreResult r;
  start_ = Clock::now();
  r.key_bytes = packer_.key_bytes();
  r.key_bits = packer_.bits();
  r.record_bytes = record_bytes();
  r.constant_vars = packer_.constant_vars();
  if (packer_.key_bytes() > kMaxKeyBytes) {
    r.stopped = "error";
    r.status = engine::Status::Error("the state needs more than " + std::to_string(kMaxKeyBytes) +
                                     " bytes packed: too large to enumerate");
    return r;
  }
  if (program_.phases.size() > size_t(meta::kMaxPhases) || divisors_.size() > 256) {
    r.stopped = "error";
    r.status = engine::Status::Error(fmt::format(
        "{} phases and a group of {} elements: the explorer handles at most {} phases and class "
        "sizes of at most 256 kinds", program_.phases.size(), action_.size(), meta::kMaxPhases));
    return r;
  }
  auto cur = std::make_unique<LayerStore>(packer_.key_bytes(), parts_, &memory_);
  {
    Worker w = make_worker();
    add_fresh(w, *cur, root_.data(), 1);
    flush(w, *cur);
    cur->dedup(0);
    for (uint32_t p = 0; p < parts_; ++p) cur->dedup(p);
  }
  auto note_peak = [&](uint64_t records) {
    if (memory_ > r.peak_memory) {
      r.peak_memory = memory_;
      r.peak_records = records;
    }
  };
  bool few_duplicates = false;
  for (int depth = 0;; ++depth) {
    DepthCount d = count(*cur, depth);
    end_symmetry(*cur, d);
    counted_ += d.distinct;
    if (stopping_) {  // the depth's counts are complete, its end symmetries are not
      d.end_symmetries.clear();
      d.end_rejected.clear();
      d.terminal_end_classes = 0;
      d.end_group_order = 0;
      r.depths.push_back(d);
      r.stopped = stop_reason_;
      r.status = stop_status_;
      break;
    }
    r.depths.push_back(d);
    if (d.distinct == d.terminal) break;  // nothing left to expand
    // With no depth bound, a game whose moves cycle would build depths forever: a depth
    // holding exactly the states of an earlier one makes every later depth a repeat.
    if (options_.max_depth < 0 && repeats(r.depths, r.repeats_depth)) {
      r.stopped = "repeats";
      break;
    }
    if (options_.max_depth >= 0 && depth >= options_.max_depth) {
      r.stopped = "depth";
      break;
    }
    // Build depth + 1.
    depth_ = depth + 1;
    frontier_size_ = d.distinct;
    expanded_ = 0;
    appended_ = 0;
    next_unit_ = 0;
    std::vector<std::pair<uint32_t, size_t>> units;
    for (uint32_t p = 0; p < parts_; ++p)
      for (size_t b = 0; b < cur->blocks(p); ++b) units.emplace_back(p, b);
    auto next = std::make_unique<LayerStore>(packer_.key_bytes(), parts_, &memory_);
    if (few_duplicates) next->set_merge_factor(16);
    parallel([&](int) { expand(*cur, *next, units); });
    // Checked again on the final count, so whether a depth is complete does not depend on
    // when the threads looked (appended_ is exact once they are done).
    if (!stopping_ && options_.max_states && counted_ + appended_ > options_.max_states) stop("states");
    if (!stopping_) {
      std::atomic<uint32_t> part{0};
      parallel([&](int) {
        for (uint32_t p; !stopping_ && (p = part++) < parts_;) next->dedup(p);
      });
    }
    // The last layer's duplicate rate predicts the next one's.
    few_duplicates = depth > 0 && next->total_records() * 10 >= appended_ * 9;
    note_peak(d.distinct + next->total_records());
    if (stopping_) {
      r.stopped = stop_reason_;
      r.status = stop_status_;
      break;
    }
    cur = std::move(next);
  }
  note_peak(cur->total_records());
  if (options_.visit_last && options_.max_depth >= 0 && !r.depths.empty() &&
      r.depths.back().depth == options_.max_depth && (r.stopped.empty() || r.stopped == "depth")) {
    Worker w = make_worker();
    const size_t rb = record_bytes();
    for (uint32_t p = 0; p < cur->partitions(); ++p)
      for (size_t b = 0; b < cur->blocks(p); ++b)
        for (size_t i = 0, n = cur->block_size(p, b); i < n; ++i) {
          packer_.unpack(cur->block(p, b) + i * rb, w.state.data(), w.digits.data());
          options_.visit_last(w.state.data());
        }
  }
  for (const DepthCount& d : r.depths) {
    r.total_distinct += d.distinct;
    r.total_ends += d.ends;
    r.total_ends_exact = r.total_ends_exact && d.ends_exact;
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  return r;
}

}  // namespace

ExploreResult explore(const ir::Program& program, const engine::Engine& engine, const uint8_t* root,
                      const std::vector<Transform>& group, const ExploreOptions& options) {
  std::vector<Transform> g = group;
  if (g.empty()) {  // the identity
    g.push_back(Transform{"identity", std::vector<std::vector<uint32_t>>(program.domains.size()), {}});
  }
  Explorer e(program, engine, root, g, options);
  return e.run();
}

}  // namespace rulebook::explorer
