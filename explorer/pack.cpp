// The minimal bit encoding of states: which elements are stored, the chunks, encode/decode.
#include "explorer/pack.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rulebook::explorer {
namespace {

void assigned_in(const ir::Block& block, std::vector<bool>& out) {
  for (const ir::StmtPtr& s : block) {
    if (s->op == ir::StmtOp::Assign && s->var >= 0) out[size_t(s->var)] = true;
    assigned_in(s->body, out);
    assigned_in(s->otherwise, out);
  }
}

uint32_t bits_for(unsigned __int128 product) {
  uint32_t b = 0;
  while (b < 128 && (unsigned __int128)1 << b < product) ++b;
  return b;
}

constexpr uint32_t kMaxWords = kMaxKeyBytes / 8;

}  // namespace

std::vector<bool> assigned_in_play(const ir::Program& program) {
  std::vector<bool> assigned(program.vars.size(), false);
  for (const ir::Move& m : program.moves) assigned_in(m.body, assigned);
  for (const ir::Phase& ph : program.phases) assigned_in(ph.stuck, assigned);
  return assigned;
}

Packer::Packer(const ir::Program& program, const uint8_t* root)
    : root_(root, root + program.state_bytes), state_bytes_(program.state_bytes) {
  const std::vector<bool> assigned = assigned_in_play(program);
  for (size_t v = 0; v < program.vars.size(); ++v) {
    const ir::StateVar& var = program.vars[v];
    // Setup variables keep their set-up value unless play assigns them.
    if (var.origin == ir::StateVar::Origin::Setup && !assigned[v]) {
      constant_vars_.push_back(var.name);
      continue;
    }
    const uint32_t radix = program.domains[size_t(var.domain)].size;
    if (radix <= 1) continue;
    for (uint32_t i = 0; i < var.count; ++i) {
      elements_.push_back({int(v), i, radix});
      radix_div_.emplace_back(radix);
      offsets_.push_back(var.offset + i * var.width);
      widths_.push_back(uint8_t(var.width));
      if (var.width != 1) all_bytes_ = false;
    }
  }
  // Greedy chunks: as many consecutive elements as keep the radix product within 64 bits.
  uint32_t shift = 0;
  for (uint32_t i = 0; i < elements_.size();) {
    Chunk c;
    c.first = i;
    unsigned __int128 product = 1;
    while (i < elements_.size() && product * elements_[i].radix <= ((unsigned __int128)1 << 64)) {
      product *= elements_[i].radix;
      ++i;
    }
    c.last = i;
    uint64_t place = 1;
    for (uint32_t k = c.first; k < c.last; ++k) {
      place_.push_back(place);
      chunk_of_.push_back(uint32_t(chunks_.size()));
      place *= elements_[k].radix;  // wraps only after the last element of the chunk
    }
    c.middle = c.first + (c.last - c.first) / 2;
    c.middle_div = Divider(c.middle < c.last ? place_[c.middle] : 1);
    c.bits = bits_for(product);
    c.shift = shift;
    shift += c.bits;
    chunks_.push_back(c);
  }
  bits_ = shift;
  element_at_.assign(state_bytes_, -1);
  for (size_t e = 0; e < elements_.size(); ++e)
    for (uint32_t b = 0; b < widths_[e]; ++b) element_at_[offsets_[e] + b] = int32_t(e);
  key_bytes_ = (bits_ + 7) / 8;
  if (key_bytes_ == 0) key_bytes_ = 1;  // a game of one state still needs a key
}

void Packer::gather(const uint8_t* state, uint32_t* digits) const {
  const size_t n = elements_.size();
  if (all_bytes_) {
    for (size_t i = 0; i < n; ++i) digits[i] = state[offsets_[i]];
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = state + offsets_[i];
    switch (widths_[i]) {
      case 1: digits[i] = p[0]; break;
      case 2: digits[i] = uint32_t(p[0]) | uint32_t(p[1]) << 8; break;
      default: std::memcpy(&digits[i], p, 4); break;
    }
  }
}

void Packer::scatter(const uint32_t* digits, uint8_t* state) const {
  const size_t n = elements_.size();
  for (size_t i = 0; i < n; ++i) {
    uint8_t* p = state + offsets_[i];
    for (uint32_t b = 0; b < widths_[i]; ++b) p[b] = uint8_t(digits[i] >> (8 * b));
  }
}

void Packer::chunk_values(const uint32_t* digits, uint64_t* values) const {
  for (size_t k = 0; k < chunks_.size(); ++k) {
    // Place values instead of Horner's rule: independent multiplications, no chain.
    uint64_t v = 0;
    for (uint32_t i = chunks_[k].first; i < chunks_[k].last; ++i) v += digits[i] * place_[i];
    values[k] = v;
  }
}

void Packer::compose(const uint64_t* values, uint8_t* key) const {
  uint64_t words[kMaxWords + 1];
  const uint32_t used = (bits_ + 63) / 64 + 1;
  for (uint32_t w = 0; w < used && w <= kMaxWords; ++w) words[w] = 0;
  for (size_t k = 0; k < chunks_.size(); ++k) {
    const Chunk& c = chunks_[k];
    const uint32_t w = c.shift / 64, b = c.shift % 64;
    words[w] |= values[k] << b;
    if (b && b + c.bits > 64) words[w + 1] |= values[k] >> (64 - b);
  }
  std::memcpy(key, words, key_bytes_);
}

uint32_t Packer::update(const uint8_t* before, const uint8_t* after, uint32_t* digits,
                        uint64_t* values, uint32_t* changed, uint32_t* old, uint32_t max) const {
  uint32_t n = 0;
  // The differing bytes, 16 at a time (a move changes a handful of a state's bytes); a
  // byte of no element (a constant) is skipped, and so is a repeat of the element noted
  // last (bytes of one element are adjacent).
  auto note_mask = [&](uint32_t base, uint32_t mask) {
    for (; mask; mask &= mask - 1) {
      const int32_t e = element_at_[base + uint32_t(__builtin_ctz(mask))];
      if (e < 0 || (n > 0 && changed[n - 1] == uint32_t(e))) continue;
      if (n == max) return false;
      changed[n++] = uint32_t(e);
    }
    return true;
  };
  uint32_t i = 0;
#if defined(__SSE2__)
  auto differ16 = [&](uint32_t at) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(before + at));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(after + at));
    return ~uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b))) & 0xffffu;
  };
  for (; i + 16 <= state_bytes_; i += 16) {
    const uint32_t differ = differ16(i);
    if (differ && !note_mask(i, differ)) return max + 1;
  }
  if (i < state_bytes_ && state_bytes_ >= 16) {
    // The tail: the last 16 bytes, without the ones compared already.
    const uint32_t at = state_bytes_ - 16;
    const uint32_t differ = differ16(at) & ~((1u << (i - at)) - 1);
    if (differ && !note_mask(at, differ)) return max + 1;
    i = state_bytes_;
  }
#endif
  for (; i < state_bytes_; ++i)
    if (before[i] != after[i] && !note_mask(i, 1)) return max + 1;
  if (!all_bytes_) {
    // Bytes of one element may differ apart: drop repeats before applying the changes (an
    // insertion sort: there are few).
    for (uint32_t a = 1; a < n; ++a)
      for (uint32_t b = a; b > 0 && changed[b - 1] > changed[b]; --b) std::swap(changed[b - 1], changed[b]);
    n = uint32_t(std::unique(changed, changed + n) - changed);
  }
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t e = changed[k];
    const uint8_t* p = after + offsets_[e];
    uint32_t d = p[0];
    if (widths_[e] >= 2) d |= uint32_t(p[1]) << 8;
    if (widths_[e] == 4) d |= uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    old[k] = digits[e];
    adjust(e, digits[e], d, values);
    digits[e] = d;
  }
  return n;
}

void Packer::decode(const uint8_t* key, uint32_t* digits) const {
  uint64_t words[kMaxWords + 1];
  words[(key_bytes_ - 1) / 8] = 0;  // the last word may be partly filled
  std::memcpy(words, key, key_bytes_);
  for (const Chunk& c : chunks_) {
    const uint32_t w = c.shift / 64, b = c.shift % 64;
    uint64_t v = words[w] >> b;
    if (b && b + c.bits > 64) v |= words[w + 1] << (64 - b);
    if (c.bits < 64) v &= (uint64_t{1} << c.bits) - 1;
    uint64_t hi = c.middle_div.quotient(v);
    uint64_t lo = v - hi * c.middle_div.divisor();
    uint32_t i = c.first, j = c.middle;
    for (; i < c.middle && j < c.last; ++i, ++j) {
      const uint64_t qi = radix_div_[i].quotient(lo), qj = radix_div_[j].quotient(hi);
      digits[i] = uint32_t(lo - qi * elements_[i].radix);
      digits[j] = uint32_t(hi - qj * elements_[j].radix);
      lo = qi;
      hi = qj;
    }
    for (; i < c.middle; ++i) {
      const uint64_t q = radix_div_[i].quotient(lo);
      digits[i] = uint32_t(lo - q * elements_[i].radix);
      lo = q;
    }
    for (; j < c.last; ++j) {
      const uint64_t q = radix_div_[j].quotient(hi);
      digits[j] = uint32_t(hi - q * elements_[j].radix);
      hi = q;
    }
  }
}

void Packer::unpack(const uint8_t* key, uint8_t* state, uint32_t* scratch) const {
  std::memcpy(state, root_.data(), state_bytes_);
  decode(key, scratch);
  scatter(scratch, state);
}

}  // namespace rulebook::explorer
