// The complete forms seen so far, one entry per orbit under a group of at most 8 maps: the
// orbit's least form, which of its forms were seen and its stabiliser, so memory grows with
// the classes and not with the states.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rulebook::explorer {

/// An orbit's forms are named by the least group element carrying the least form onto them
/// (so a form fixed by more than the identity has one name). Safe to add from many threads.
class OrbitTable {
 public:
  struct Entry {
    const uint8_t* key;     ///< the orbit's least form
    uint8_t seen;           ///< bit i: the form named i was seen
    uint8_t stabiliser;     ///< bit c: element c fixes the least form
    /// The scores' hash of each form seen (index: its name).
    std::array<uint64_t, 8> scores;
  };

  explicit OrbitTable(size_t key_bytes);
  ~OrbitTable();
  OrbitTable(const OrbitTable&) = delete;
  OrbitTable& operator=(const OrbitTable&) = delete;

  /// The hash that places `key`.
  uint64_t hash(const uint8_t* key) const;
  /// Asks the memory for where `hash` goes, some time before adding it: the table is far
  /// larger than the caches, so each add would otherwise wait for memory.
  void prefetch(uint64_t hash) const;
  /// Records the form named `name` of the orbit of least form `key` (of hash `hash`). False
  /// when that form was seen before (nothing changes then).
  bool add(const uint8_t* key, uint64_t hash, uint32_t name, uint8_t stabiliser, uint64_t scores);
  /// Orbits held.
  uint64_t orbits() const { return orbits_.load(std::memory_order_relaxed); }
  /// Bytes held by the table (slots and the rare orbits whose forms differ in scores).
  uint64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  /// Calls f(entry) for every orbit of shards [from, to) (shards() of them); not while adding.
  template <class F>
  void each(size_t from, size_t to, F&& f) const;
  static constexpr size_t shards() { return kShards; }

 private:
  static constexpr size_t kShards = 1024;  ///< chosen by the hash's top 10 bits
  // Slot layout: key | seen | stabiliser | mixed flag | scores' hash (the first form's).
  size_t slot_bytes() const { return kb_ + 3 + 8; }
  struct Shard {
    std::mutex mutex;
    std::vector<uint8_t> slots;
    size_t used = 0;
    /// Orbits whose forms differ in scores: every form's hash, by key.
    std::map<std::string, std::array<uint64_t, 8>> mixed;
  };
  void grow(Shard& s);
  Entry entry(const Shard& s, const uint8_t* slot) const;

  size_t kb_;
  std::unique_ptr<Shard[]> shards_;
  /// Per shard: where its slots are and how many, for prefetching without the lock (apart
  /// from the shards, so that these few kilobytes stay in the cache).
  struct Where {
    std::atomic<const uint8_t*> base{nullptr};
    std::atomic<size_t> capacity{0};
  };
  std::unique_ptr<Where[]> where_;
  std::atomic<uint64_t> orbits_{0}, bytes_{0};
};

template <class F>
void OrbitTable::each(size_t from, size_t to, F&& f) const {
  const size_t sb = slot_bytes();
  for (size_t i = from; i < to && i < kShards; ++i) {
    const Shard& s = shards_[i];
    for (size_t at = 0; at < s.slots.size(); at += sb)
      if (s.slots[at + kb_] != 0) f(entry(s, s.slots.data() + at));
  }
}

}  // namespace rulebook::explorer
