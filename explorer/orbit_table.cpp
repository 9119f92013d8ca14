// The orbit table: open addressing in shards chosen by the key's hash, each under its own
// lock, so two workers rarely wait and a shard grows without stopping the others.
#include "explorer/orbit_table.h"

#include <cstring>

namespace rulebook::explorer {

OrbitTable::OrbitTable(size_t key_bytes) : kb_(key_bytes), shards_(new Shard[kShards]), where_(new Where[kShards]) {}

OrbitTable::~OrbitTable() = default;

uint64_t OrbitTable::hash(const uint8_t* key) const {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < kb_; ++i) h = (h ^ key[i]) * 0x100000001b3ULL;
  // FNV's low bits are weak: mix before the shard (high bits) and the slot (low bits).
  h ^= h >> 31;
  h *= 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

void OrbitTable::grow(Shard& s) {
  const size_t sb = slot_bytes();
  const size_t old_cap = s.slots.size() / sb, cap = old_cap == 0 ? 64 : 2 * old_cap;
  std::vector<uint8_t> slots(cap * sb, 0);
  for (size_t at = 0; at < s.slots.size(); at += sb) {
    const uint8_t* x = s.slots.data() + at;
    if (x[kb_] == 0) continue;
    for (size_t h = hash(x) & (cap - 1);; h = (h + 1) & (cap - 1))
      if (slots[h * sb + kb_] == 0) {
        std::memcpy(slots.data() + h * sb, x, sb);
        break;
      }
  }
  bytes_ += (cap - old_cap) * sb;
  s.slots.swap(slots);
  Where& w = where_[size_t(&s - shards_.get())];
  w.base.store(s.slots.data(), std::memory_order_relaxed);
  w.capacity.store(cap, std::memory_order_relaxed);
}

void OrbitTable::prefetch(uint64_t h) const {
  __builtin_prefetch(&shards_[h >> 54]);
  // The slots may move before the add (another worker grows the shard): only a hint.
  const Where& w = where_[h >> 54];
  const uint8_t* base = w.base.load(std::memory_order_relaxed);
  const size_t cap = w.capacity.load(std::memory_order_relaxed);
  if (cap > 0) __builtin_prefetch(base + (h & (cap - 1)) * slot_bytes());
}

bool OrbitTable::add(const uint8_t* key, uint64_t h, uint32_t name, uint8_t stabiliser, uint64_t scores) {
  Shard& s = shards_[h >> 54];
  const size_t sb = slot_bytes();
  const uint8_t bit = uint8_t(1u << name);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (10 * (s.used + 1) > 7 * (s.slots.size() / sb)) grow(s);
  const size_t cap = s.slots.size() / sb;
  for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
    uint8_t* x = s.slots.data() + i * sb;
    if (x[kb_] == 0) {
      std::memcpy(x, key, kb_);
      x[kb_] = bit;
      x[kb_ + 1] = stabiliser;
      x[kb_ + 2] = 0;
      std::memcpy(x + kb_ + 3, &scores, 8);
      ++s.used;
      ++orbits_;
      return true;
    }
    if (std::memcmp(x, key, kb_) != 0) continue;
    if (x[kb_] & bit) return false;
    uint64_t first;
    std::memcpy(&first, x + kb_ + 3, 8);
    if (x[kb_ + 2] == 0 && scores != first) {
      // The first form of the orbit whose scores differ: from now on every form's own.
      std::array<uint64_t, 8> all{};
      for (uint32_t n = 0; n < 8; ++n)
        if (x[kb_] >> n & 1) all[n] = first;
      s.mixed.emplace(std::string(reinterpret_cast<const char*>(key), kb_), all);
      bytes_ += kb_ + 64 + 48;  // about a map node
      x[kb_ + 2] = 1;
    }
    if (x[kb_ + 2] != 0) s.mixed[std::string(reinterpret_cast<const char*>(key), kb_)][name] = scores;
    x[kb_] |= bit;
    return true;
  }
}

OrbitTable::Entry OrbitTable::entry(const Shard& s, const uint8_t* slot) const {
  Entry e{slot, slot[kb_], slot[kb_ + 1], {}};
  if (slot[kb_ + 2] != 0) {
    e.scores = s.mixed.at(std::string(reinterpret_cast<const char*>(slot), kb_));
  } else {
    uint64_t first;
    std::memcpy(&first, slot + kb_ + 3, 8);
    e.scores.fill(first);
  }
  return e;
}

}  // namespace rulebook::explorer
