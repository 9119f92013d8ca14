// A symmetry group acting on packed keys: where each element's digit goes under each map,
// the comparison of images digit by digit, and the class hash shared by a state's images.
#include <algorithm>

#include "compiler/runtime/random.h"
#include "explorer/symmetry.h"

namespace rulebook::explorer {

KeyAction::KeyAction(const ir::Program& p, const Packer& packer, const std::vector<Transform>& group) {
  const auto& els = packer.elements();
  // Where each (variable, element) sits among the packed elements.
  std::vector<int64_t> base(p.vars.size(), -1);
  for (size_t i = 0; i < els.size(); ++i)
    if (base[size_t(els[i].var)] < 0) base[size_t(els[i].var)] = int64_t(i) - int64_t(els[i].index);
  tables_.reserve(group.size() * p.domains.size());
  for (const Transform& t : group) {
    std::vector<const uint32_t*> values(p.domains.size(), nullptr);
    for (size_t d = 0; d < p.domains.size(); ++d)
      if (!t.index_map[d].empty()) {
        tables_.push_back(t.index_map[d]);
        values[d] = tables_.back().data();
      }
    std::vector<ElementMap> m(els.size());
    for (size_t i = 0; i < els.size(); ++i) {
      const ir::StateVar& var = p.vars[size_t(els[i].var)];
      m[i].target = uint32_t(base[size_t(t.var(els[i].var))] + map_element(p, t, var, els[i].index));
      m[i].values = values[size_t(var.domain)];
    }
    std::vector<ElementMap> src(els.size());
    for (size_t i = 0; i < els.size(); ++i) src[m[i].target] = {uint32_t(i), m[i].values};
    sources_.push_back(std::move(src));
    maps_.push_back(std::move(m));
  }
  // Orbits of the elements (least member), then the class-hash terms.
  std::vector<uint32_t> orbit(els.size());
  for (size_t i = 0; i < els.size(); ++i) {
    uint32_t least = uint32_t(i);
    for (const auto& m : maps_) least = std::min(least, m[i].target);
    orbit[i] = least;
  }
  for (bool changed = true; changed;) {  // close: the least member of the whole orbit
    changed = false;
    for (size_t i = 0; i < els.size(); ++i)
      for (const auto& m : maps_)
        if (orbit[m[i].target] != orbit[i]) {
          const uint32_t least = std::min(orbit[m[i].target], orbit[i]);
          changed = changed || orbit[m[i].target] != least || orbit[i] != least;
          orbit[m[i].target] = orbit[i] = least;
        }
  }
  for (size_t i = 0; i < els.size(); ++i) {
    base_.push_back(terms_.size());
    for (uint32_t v = 0; v < els[i].radix; ++v) {
      uint32_t rep = v;
      for (const auto& m : maps_) rep = std::min(rep, m[i].values ? m[i].values[v] : v);
      SplitMix64 mix((uint64_t(orbit[i]) << 32) ^ rep);
      terms_.push_back(mix.next());
    }
  }
}

int KeyAction::compare(size_t g, const uint32_t* digits, const uint32_t* best, bool& fixed) const {
  const std::vector<ElementMap>& src = sources_[g];
  int order = 0;
  bool fixed_known = false;
  fixed = true;
  for (size_t j = src.size(); j-- > 0;) {
    const uint32_t d = digits[src[j].target];
    const uint32_t v = src[j].values ? src[j].values[d] : d;
    if (!fixed_known && v != digits[j]) {
      fixed = false;
      fixed_known = true;
    }
    if (order == 0 && v != best[j]) order = v < best[j] ? -1 : 1;
    if (order != 0 && fixed_known) break;
  }
  return order;
}

void KeyAction::apply(size_t g, const uint32_t* digits, uint32_t* out) const {
  const std::vector<ElementMap>& m = maps_[g];
  for (size_t i = 0; i < m.size(); ++i)
    out[m[i].target] = m[i].values ? m[i].values[digits[i]] : digits[i];
}

}  // namespace rulebook::explorer
