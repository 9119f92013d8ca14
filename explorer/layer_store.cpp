// Partitioned record storage of one depth, and its in-place deduplication.
#include "explorer/layer_store.h"

#include <algorithm>

namespace rulebook::explorer {
namespace {

bool same_key(const uint8_t* a, const uint8_t* b, uint32_t n) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a + i, 8);
    std::memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

uint64_t key_hash(const uint8_t* key, uint32_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, key + i, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
  }
  if (i < n) {
    uint64_t w = 0;
    std::memcpy(&w, key + i, n - i);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
  }
  h ^= h >> 29;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 32);
}

LayerStore::LayerStore(uint32_t key_bytes, uint32_t partitions, std::atomic<uint64_t>* memory)
    : key_(key_bytes), record_(key_bytes + 8),
      per_block_(uint32_t(kBlockBytes / (key_bytes + 8))), parts_(partitions), memory_(memory) {}

LayerStore::~LayerStore() { clear(); }

void LayerStore::clear() {
  for (Part& p : parts_) {
    *memory_ -= p.blocks.size() * kBlockBytes;
    p.blocks.clear();
    p.size = p.deduped = 0;
    p.factor = 2;
  }
}

size_t LayerStore::total_records() const {
  size_t n = 0;
  for (const Part& p : parts_) n += p.size;
  return n;
}

void LayerStore::append(uint32_t p, const uint8_t* records, uint32_t n) {
  Part& part = parts_[p];
  std::lock_guard<std::mutex> lock(part.mutex);
  for (uint32_t i = 0; i < n; ++i) {
    if (part.size == part.blocks.size() * per_block_) {
      part.blocks.emplace_back(new uint8_t[kBlockBytes]);
      *memory_ += kBlockBytes;
    }
    std::memcpy(at(part, part.size), records + size_t(i) * record_, record_);
    ++part.size;
  }
  // Duplicates are merged as they pile up, so a layer with many transpositions holds at
  // most about twice its distinct states. Where merging finds few duplicates, it is done
  // less often, up to once per 16-fold growth.
  if (part.size >= 2048 * part.factor && part.size >= part.factor * part.deduped) {
    const size_t before = part.size;
    dedup_locked(part);
    part.factor = part.size * 10 > before * 9 ? std::min<size_t>(part.factor * 2, 16) : 2;
  }
}

void LayerStore::dedup(uint32_t p) {
  Part& part = parts_[p];
  std::lock_guard<std::mutex> lock(part.mutex);
  if (part.size != part.deduped) dedup_locked(part);
}

void LayerStore::dedup_locked(Part& part) {
  size_t cap = 16;
  while (cap < 2 * part.size) cap <<= 1;
  // Record number + 1; 0 is empty. Kept per thread: a fresh table each time would be
  // fresh pages from the kernel each time, which cost more than the merging itself.
  thread_local std::vector<uint32_t> index;
  index.assign(cap, 0);
  size_t kept = 0;
  for (size_t i = 0; i < part.size; ++i) {
    uint8_t* r = at(part, i);
    size_t j = key_hash(r, key_) & (cap - 1);
    for (;;) {
      if (index[j] == 0) {
        if (kept != i) std::memcpy(at(part, kept), r, record_);
        index[j] = uint32_t(kept + 1);
        ++kept;
        break;
      }
      uint8_t* q = at(part, index[j] - 1);
      if (same_key(q, r, key_)) {
        uint64_t mq, mr;
        std::memcpy(&mq, q + key_, 8);
        std::memcpy(&mr, r + key_, 8);
        mq = meta::add_paths(mq, mr);
        std::memcpy(q + key_, &mq, 8);
        break;
      }
      j = (j + 1) & (cap - 1);
    }
  }
  part.size = part.deduped = kept;
  shrink(part);
}

void LayerStore::shrink(Part& part) {
  const size_t need = (part.size + per_block_ - 1) / per_block_;
  if (part.blocks.size() > need) {
    *memory_ -= (part.blocks.size() - need) * kBlockBytes;
    part.blocks.resize(need);
  }
}

}  // namespace rulebook::explorer

namespace rulebook::explorer {

void KeySet::seal() {
  size_t cap = 16;
  while (cap < 2 * size()) cap <<= 1;
  index_.assign(cap, 0);
  // In batches, as find_many: a batch's slots are fetched from memory together.
  constexpr size_t kBatch = 16;
  size_t slot[kBatch];
  for (size_t b = 0; b < size(); b += kBatch) {
    const size_t m = std::min(kBatch, size() - b);
    for (size_t i = 0; i < m; ++i) {
      slot[i] = key_hash(key(b + i), key_) & (cap - 1);
      __builtin_prefetch(&index_[slot[i]], 1);
    }
    for (size_t i = 0; i < m; ++i) {
      size_t j = slot[i];
      while (index_[j] != 0) j = (j + 1) & (cap - 1);
      index_[j] = uint32_t(b + i + 1);
    }
  }
}

int64_t KeySet::find(const uint8_t* k) const {
  const size_t cap = index_.size();
  for (size_t j = key_hash(k, key_) & (cap - 1);; j = (j + 1) & (cap - 1)) {
    if (index_[j] == 0) return -1;
    if (same_key(key(index_[j] - 1), k, key_)) return int64_t(index_[j]) - 1;
  }
}

void KeySet::find_many(const uint8_t* keys, size_t n, int64_t* out) const {
  constexpr size_t kBatch = 16;
  const size_t cap = index_.size();
  size_t slot[kBatch];
  for (size_t b = 0; b < n; b += kBatch) {
    const size_t m = std::min(kBatch, n - b);
    for (size_t i = 0; i < m; ++i) {
      slot[i] = key_hash(keys + (b + i) * key_, key_) & (cap - 1);
      __builtin_prefetch(&index_[slot[i]]);
    }
    for (size_t i = 0; i < m; ++i)
      if (const uint32_t e = index_[slot[i]]; e != 0) __builtin_prefetch(key(e - 1));
    for (size_t i = 0; i < m; ++i) {
      const uint8_t* k = keys + (b + i) * key_;
      int64_t found = -1;
      for (size_t j = slot[i];; j = (j + 1) & (cap - 1)) {
        if (index_[j] == 0) break;
        if (same_key(key(index_[j] - 1), k, key_)) {
          found = int64_t(index_[j]) - 1;
          break;
        }
      }
      out[b + i] = found;
    }
  }
}

}  // namespace rulebook::explorer
