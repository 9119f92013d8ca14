// The states of one depth: packed keys with a 64-bit word of counts and flags, in
// partitions chosen by hash, appended by many threads and deduplicated in place.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

namespace rulebook::explorer {

/// The word stored beside each key: paths to the state (low 48 bits, saturating) and what
/// the state is, so statistics need no decoding: phase, terminal, whether the key is the
/// least of its symmetry class, and the class size as an index into the sorted divisors of
/// the group's order (a class size divides it; a group of order <= 40320 has < 256 divisors).
namespace meta {
inline constexpr uint64_t kPathMask = (uint64_t{1} << 48) - 1;
inline constexpr int kPhaseShift = 48;     // 6 bits
inline constexpr int kMaxPhases = 64;
inline constexpr int kTerminalShift = 54;  // 1 bit
inline constexpr int kLeastShift = 55;     // 1 bit
inline constexpr int kOrbitShift = 56;     // 8 bits: index of the class size among the divisors
inline uint64_t paths(uint64_t m) { return m & kPathMask; }
inline int phase(uint64_t m) { return int((m >> kPhaseShift) & 0x3f); }
inline bool terminal(uint64_t m) { return (m >> kTerminalShift) & 1; }
inline bool least(uint64_t m) { return (m >> kLeastShift) & 1; }
inline uint32_t orbit_index(uint64_t m) { return uint32_t(m >> kOrbitShift); }
/// Adds paths, saturating at the mask (then the path count is reported as unknown).
inline uint64_t add_paths(uint64_t m, uint64_t more) {
  uint64_t p = paths(m) + paths(more);
  if (p > kPathMask) p = kPathMask;
  return (m & ~kPathMask) | p;
}
}  // namespace meta

/// Records of `key_bytes + 8` bytes in fixed-size blocks, so that growth never copies and
/// the memory held is the records plus at most one partly used block per partition.
class LayerStore {
 public:
  static constexpr size_t kBlockBytes = size_t{1} << 12;

  /// `memory` is shared by the stores of one run: it counts the bytes of their blocks.
  LayerStore(uint32_t key_bytes, uint32_t partitions, std::atomic<uint64_t>* memory);
  ~LayerStore();
  LayerStore(const LayerStore&) = delete;
  LayerStore& operator=(const LayerStore&) = delete;

  uint32_t partitions() const { return uint32_t(parts_.size()); }
  uint32_t record_bytes() const { return record_; }
  uint32_t per_block() const { return per_block_; }

  /// Appends `n` records (packed back to back) to partition `p`; safe from any thread. A
  /// partition whose records doubled since it was last deduplicated is deduplicated here.
  void append(uint32_t p, const uint8_t* records, uint32_t n);
  /// How much a partition grows before duplicates are merged (2: often; 16: seldom, for a
  /// layer expected to have few duplicates).
  void set_merge_factor(size_t factor) {
    for (Part& p : parts_) p.factor = factor;
  }
  /// Merges equal keys of partition `p` (summing paths), in place; one thread per partition.
  void dedup(uint32_t p);

  size_t size(uint32_t p) const { return parts_[p].size; }
  size_t blocks(uint32_t p) const { return parts_[p].blocks.size(); }
  const uint8_t* block(uint32_t p, size_t b) const { return parts_[p].blocks[b].get(); }
  /// Records in block b of partition p.
  size_t block_size(uint32_t p, size_t b) const {
    const size_t n = parts_[p].size;
    return std::min<size_t>(per_block_, n - std::min(n, b * per_block_));
  }
  size_t total_records() const;
  /// Frees every block.
  void clear();

 private:
  struct Part {
    std::mutex mutex;
    std::vector<std::unique_ptr<uint8_t[]>> blocks;
    size_t size = 0;
    size_t deduped = 0;  ///< size after the last dedup
    size_t factor = 2;   ///< dedup again once size reaches factor * deduped
  };
  uint8_t* at(Part& part, size_t i) {
    return part.blocks[i / per_block_].get() + (i % per_block_) * record_;
  }
  void dedup_locked(Part& part);
  void shrink(Part& part);

  uint32_t key_;
  uint32_t record_;
  uint32_t per_block_;
  std::vector<Part> parts_;
  std::atomic<uint64_t>* memory_;
};

/// A read-only set of keys (held once, back to back) for membership tests.
class KeySet {
 public:
  explicit KeySet(uint32_t key_bytes) : key_(key_bytes) {}
  void add(const uint8_t* key) { keys_.insert(keys_.end(), key, key + key_); }
  void reserve(size_t keys) { keys_.reserve(keys * key_); }
  /// Builds the index; call once after the last add.
  void seal();
  bool contains(const uint8_t* key) const { return find(key) >= 0; }
  /// The key's number (its place among the adds), or -1.
  int64_t find(const uint8_t* key) const;
  /// find() of `n` keys stored one after the other, into `out`: the look-ups of a batch
  /// are started together (their slots and keys fetched from memory at once), which on a
  /// set larger than the caches is several times faster than one after the other.
  void find_many(const uint8_t* keys, size_t n, int64_t* out) const;
  size_t size() const { return keys_.size() / key_; }
  const uint8_t* key(size_t i) const { return keys_.data() + i * key_; }
  uint64_t bytes() const { return keys_.capacity() + index_.capacity() * sizeof(uint32_t); }

 private:
  uint32_t key_;
  std::vector<uint8_t> keys_;
  std::vector<uint32_t> index_;  ///< key number + 1; 0 is empty
};

/// The hash of a key (also used to choose its partition: its top bits).
uint64_t key_hash(const uint8_t* key, uint32_t n);

}  // namespace rulebook::explorer
