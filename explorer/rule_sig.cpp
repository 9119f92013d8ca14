// Parts of the rules as data: their order, hashes, interning and images under a map.
#include "explorer/rule_sig.h"

#include <algorithm>

namespace rulebook::explorer {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

uint64_t hash_value(const Value& v) {
  uint64_t h = mix(0x51, uint64_t(v.scalar));
  for (size_t i = 0; i < v.set.size(); ++i) h = mix(h, v.set[i]);
  for (const Value& x : v.list) h = mix(h, hash_value(x));
  return mix(h, v.list.size());
}

bool same(const RuleSig& a, const RuleSig& b) {
  if (a.kind != b.kind || a.tag != b.tag || a.a != b.a || a.error != b.error || a.kids != b.kids) return false;
  return a.kind != RuleSig::Kind::Leaf || cmp_value(a.value, b.value) == 0;
}

}  // namespace

int cmp_value(const Value& a, const Value& b) {
  if (a.scalar != b.scalar) return a.scalar < b.scalar ? -1 : 1;
  if (a.set.size() != b.set.size()) return a.set.size() < b.set.size() ? -1 : 1;
  for (size_t i = 0; i < a.set.size(); ++i)
    if (a.set[i] != b.set[i]) return a.set[i] < b.set[i] ? -1 : 1;
  if (a.list.size() != b.list.size()) return a.list.size() < b.list.size() ? -1 : 1;
  for (size_t i = 0; i < a.list.size(); ++i)
    if (int c = cmp_value(a.list[i], b.list[i])) return c;
  return 0;
}

int cmp(const SigPtr& a, const SigPtr& b) {
  if (a == b) return 0;
  if (!a || !b) return a ? 1 : -1;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
  if (a->a != b->a) return a->a < b->a ? -1 : 1;
  if (a->error != b->error) return a->error ? 1 : -1;
  if (int c = cmp_value(a->value, b->value)) return c;
  if (a->kids.size() != b->kids.size()) return a->kids.size() < b->kids.size() ? -1 : 1;
  for (size_t i = 0; i < a->kids.size(); ++i)
    if (int c = cmp(a->kids[i], b->kids[i])) return c;
  return 0;
}

void sort_parts(std::vector<SigPtr>& v, bool unique) {
  std::sort(v.begin(), v.end(), [](const SigPtr& x, const SigPtr& y) { return cmp(x, y) < 0; });
  if (unique)
    v.erase(std::unique(v.begin(), v.end(), [](const SigPtr& x, const SigPtr& y) { return cmp(x, y) == 0; }),
            v.end());
}

void map_value(const ir::Program& p, const Transform* t, const ir::Type* ty, Value& v) {
  if (!ty) return;
  const int d = ty->domain;
  switch (ty->kind) {
    case ir::Type::Kind::Scalar:
      if (t && maps_domain(*t, d)) {
        const int64_t i = ir::domain_index(p.domains, d, v.scalar);
        if (i >= 0) v.scalar = ir::domain_value(p.domains, d, t->index_map[size_t(d)][size_t(i)]);
      }
      break;
    case ir::Type::Kind::Set:
      if (t && maps_domain(*t, d)) {
        ir::Bits out(v.set.size(), 0);
        const auto& m = t->index_map[size_t(d)];
        for (size_t w = 0; w < v.set.size(); ++w)
          for (uint64_t b = v.set[w]; b; b &= b - 1) {
            const size_t i = w * 64 + size_t(__builtin_ctzll(b));
            if (i < m.size()) ir::set_bit(out, m[i]);
          }
        v.set = std::move(out);
      }
      break;
    case ir::Type::Kind::List:
      for (Value& x : v.list) map_value(p, t, ty->elem.get(), x);
      if (ty->elem && ty->elem->kind != ir::Type::Kind::Scalar)
        std::sort(v.list.begin(), v.list.end(), [](const Value& a, const Value& b) { return cmp_value(a, b) < 0; });
      break;
  }
}

SigPtr SigStore::intern(RuleSig&& s) {
  uint64_t h = mix(uint64_t(s.kind) + 1, uint64_t(s.tag));
  h = mix(h, uint64_t(s.a));
  h = mix(h, s.error ? 1 : 0);
  if (s.kind == RuleSig::Kind::Leaf && !s.error) h = mix(h, hash_value(s.value));
  for (const SigPtr& k : s.kids) h = mix(h, k ? k->hash : 0x77);
  s.hash = h;
  std::vector<SigPtr>& bucket = table_[h];
  for (const SigPtr& x : bucket)
    if (same(*x, s)) return x;
  bucket.push_back(std::make_shared<const RuleSig>(std::move(s)));
  return bucket.back();
}


SigPtr map_sig(const ir::Program& p, const SigPtr& s, const Transform& t, SigStore& store,
               std::unordered_map<const RuleSig*, SigPtr>& memo) {
  if (!s || !s->moves) return s;
  auto it = memo.find(s.get());
  if (it != memo.end()) return it->second;
  RuleSig out = *s;
  if (s->kind == RuleSig::Kind::Leaf) {
    if (!s->error) map_value(p, &t, s->type, out.value);
  } else {
    for (SigPtr& k : out.kids) k = map_sig(p, k, t, store, memo);
    if (s->kind != RuleSig::Kind::Node) sort_parts(out.kids, s->kind == RuleSig::Kind::Set);
  }
  SigPtr r = store.intern(std::move(out));
  memo.emplace(s.get(), r);
  return r;
}

}  // namespace rulebook::explorer
