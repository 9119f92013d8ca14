// Classes of the complete states of one depth up to the maps of the board, compared by what
// the rules observe: every map checked on every complete state, then the classes counted
// by least forms and by Burnside's lemma.
#include "explorer/end_classes.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "explorer/pack.h"

namespace rulebook::explorer {
namespace {

/// A group element acting on packed digits: where each digit goes, through which values.
struct DigitMap {
  std::string name;
  std::vector<uint32_t> target;
  std::vector<std::vector<uint32_t>> values;  ///< per element; empty: unchanged
};

class Forms {
 public:
  Forms(const ir::Program& p, const Observation& obs, const Packer& packer) : p_(p), obs_(obs), packer_(packer) {
    position_.resize(p.vars.size());
    for (size_t i = 0; i < packer.elements().size(); ++i) {
      const PackedElement& e = packer.elements()[i];
      auto& pos = position_[size_t(e.var)];
      if (pos.empty()) pos.assign(p.vars[size_t(e.var)].count, -1);
      pos[e.index] = int32_t(i);
    }
  }

  size_t digits() const { return packer_.elements().size(); }

  /// The action of board map `t` on packed digits, or "" replaced by why it has none.
  DigitMap action(const Transform& t, const uint8_t* root, std::string& why) const {
    DigitMap m;
    m.name = t.name;
    std::vector<uint8_t> image(p_.state_bytes);
    transform_state(p_, t, root, image.data());
    if (std::memcmp(image.data(), root, p_.state_bytes) != 0) {
      why = "it moves the initial state (its setup)";
      return m;
    }
    const auto observed = obs_.value_maps(t, why);
    if (!why.empty()) return m;
    m.target.resize(digits());
    m.values.resize(digits());
    for (size_t i = 0; i < digits(); ++i) {
      const PackedElement& e = packer_.elements()[i];
      const ir::StateVar& var = p_.vars[size_t(e.var)];
      const int to = t.var(e.var);
      const uint32_t j = map_element(p_, t, var, e.index);
      const auto& pos = position_[size_t(to)];
      if (pos.empty() || pos[j] < 0) {
        why = fmt::format("it moves {} onto a part of the state that never changes", var.name);
        return m;
      }
      m.target[i] = uint32_t(pos[j]);
      const int o = observed_index(e.var);
      if (o >= 0) m.values[i] = observed[size_t(o)][e.index];
      else if (size_t(var.domain) < t.index_map.size()) m.values[i] = t.index_map[size_t(var.domain)];
    }
    return m;
  }

  /// `d` as observed: each observed value replaced by the least one with its cells, the
  /// values of alike keys sorted.
  void form(uint32_t* d) const {
    for (const ObservedVar& ov : obs_.vars()) {
      const auto& pos = position_[size_t(ov.var)];
      if (pos.empty()) continue;
      for (size_t k = 0; k < pos.size(); ++k)
        if (pos[k] >= 0) d[pos[k]] = ov.rep[k][d[pos[k]]];
      for (const auto& group : ov.alike) {
        if (group.size() < 2) continue;
        uint32_t vals[256];
        size_t n = 0;
        for (uint32_t k : group)
          if (pos[k] >= 0 && n < 256) vals[n++] = d[pos[k]];
        std::sort(vals, vals + n);
        n = 0;
        for (uint32_t k : group)
          if (pos[k] >= 0 && n < 256) d[pos[k]] = vals[n++];
      }
    }
  }

  static void apply(const DigitMap& m, const uint32_t* in, uint32_t* out) {
    for (size_t i = 0; i < m.target.size(); ++i)
      out[m.target[i]] = m.values[i].empty() ? in[i] : m.values[i][in[i]];
  }

 private:
  int observed_index(int var) const {
    for (size_t o = 0; o < obs_.vars().size(); ++o)
      if (obs_.vars()[o].var == var) return int(o);
    return -1;
  }
  const ir::Program& p_;
  const Observation& obs_;
  const Packer& packer_;
  std::vector<std::vector<int32_t>> position_;  ///< per variable and element: its digit
};

/// Runs f(begin, end, worker) over [0, n) on `threads` threads.
template <class F>
void parallel(size_t n, int threads, F&& f) {
  std::vector<std::thread> pool;
  const size_t t = size_t(std::max(1, threads));
  for (size_t w = 1; w < t; ++w) pool.emplace_back([&f, n, t, w] { f(n * w / t, n * (w + 1) / t, w); });
  f(0, n / t, 0);
  for (std::thread& th : pool) th.join();
}

}  // namespace

EndClassResult end_classes(const ir::Program& p, const dsl::SourceSet& sources, const engine::Engine& e,
                           const uint8_t* root, const EndClassOptions& options) {
  EndClassResult r;
  const Observation obs(p, sources, root);
  r.observed = obs.describe(p);
  const Packer packer(p, root);
  const Forms forms(p, obs, packer);
  const size_t nd = forms.digits(), kb = packer.key_bytes();
  // A record per complete state: its observed form's key, its own key, its scores' hash.
  const size_t rec = 2 * kb + 8;
  const int threads = std::max(1, options.threads);
  std::vector<std::vector<uint8_t>> found(static_cast<size_t>(threads));
  std::vector<std::vector<int64_t>> score_buffers(static_cast<size_t>(threads));
  PerftOptions po;
  po.threads = threads;
  po.interrupt = options.interrupt;
  po.on_end = [&](const uint8_t* s, int ply, int worker) {
    if (ply != options.depth - 1) return;
    uint32_t d[4096];
    std::vector<int64_t>& scores = score_buffers[size_t(worker)];
    scores.clear();
    if (nd > 4096) return;
    packer.gather(s, d);
    std::vector<uint8_t>& out = found[size_t(worker)];
    const size_t at = out.size();
    out.resize(at + rec);
    packer.encode(d, out.data() + at + kb);
    forms.form(d);
    packer.encode(d, out.data() + at);
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    if (e.scores(s, scores).ok)
      for (int64_t v : scores) h = (h ^ uint64_t(v)) * 0x100000001b3ULL;
    std::memcpy(out.data() + at + 2 * kb, &h, 8);
  };
  if (nd > 4096) {
    r.error = "the state has too many parts to compare";
    return r;
  }
  const PerftResult pr = perft(e, root, options.depth, po);
  if (!pr.status.ok || !pr.complete) {
    r.error = pr.status.ok ? "interrupted" : pr.status.message;
    return r;
  }
  r.paths = pr.ends.empty() ? 0 : pr.ends.back();
  std::vector<uint8_t> all;
  for (auto& f : found) {
    all.insert(all.end(), f.begin(), f.end());
    std::vector<uint8_t>().swap(f);
  }
  const size_t n = all.size() / rec;
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::memcmp(all.data() + a * rec, all.data() + b * rec, 2 * kb) < 0;
  });
  // Distinct states (a state reached by two paths is one) and distinct forms; a form shared
  // by two states means the rules tell apart what the observation does not.
  std::vector<uint8_t> keys;  // distinct forms, with the scores' hash
  std::vector<size_t> first;  // a record of each
  const size_t fk = kb + 8;
  bool scores_split = false;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* x = all.data() + order[i] * rec;
    if (i > 0 && std::memcmp(x, all.data() + order[i - 1] * rec, 2 * kb) == 0) continue;
    ++r.states;
    if (!keys.empty() && std::memcmp(x, keys.data() + keys.size() - fk, kb) == 0) {
      scores_split = scores_split || std::memcmp(x + 2 * kb, keys.data() + keys.size() - 8, 8) != 0;
      continue;
    }
    keys.insert(keys.end(), x, x + kb);
    keys.insert(keys.end(), x + 2 * kb, x + 2 * kb + 8);
    first.push_back(order[i]);
  }
  r.forms = keys.size() / fk;
  if (r.forms != r.states) {
    r.error = fmt::format("{} complete states make only {} forms as observed: the rules tell apart states "
                          "that differ by more than the order of alike keys",
                          r.states, r.forms);
    return r;
  }
  (void)scores_split;
  auto find = [&](const uint8_t* key) -> const uint8_t* {
    size_t lo = 0, hi = r.forms;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (std::memcmp(keys.data() + mid * fk, key, kb) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < r.forms && std::memcmp(keys.data() + lo * fk, key, kb) == 0 ? keys.data() + lo * fk : nullptr;
  };
  // Every map of the board on every complete state: its image must be a complete state
  // with the same scores.
  std::vector<Transform> generators;
  std::vector<DigitMap> actions;
  for (Transform& t : board_transforms(p)) {
    SymmetryCheck c{t, false, "", false, {}, false};
    if (generators.empty()) {
      generators.push_back(t);
      c.kept = true;
      r.checks.push_back(std::move(c));
      continue;
    }
    const DigitMap m = forms.action(t, root, c.reason);
    if (c.reason.empty()) {
      std::vector<uint64_t> outside(static_cast<size_t>(threads), 0), other(static_cast<size_t>(threads), 0);
      std::vector<size_t> example(static_cast<size_t>(threads), SIZE_MAX);
      parallel(r.forms, threads, [&](size_t from, size_t to, size_t w) {
        std::vector<uint32_t> d(nd), img(nd);
        std::vector<uint8_t> key(kb);
        for (size_t i = from; i < to; ++i) {
          packer.decode(keys.data() + i * fk, d.data());
          Forms::apply(m, d.data(), img.data());
          forms.form(img.data());
          packer.encode(img.data(), key.data());
          const uint8_t* hit = find(key.data());
          if (!hit) ++outside[w];
          else if (std::memcmp(hit + kb, keys.data() + i * fk + kb, 8) != 0) ++other[w];
          else continue;
          if (example[w] == SIZE_MAX) example[w] = i;
        }
      });
      uint64_t out = 0, diff = 0;
      size_t ex = SIZE_MAX;
      for (int w = 0; w < threads; ++w) {
        out += outside[size_t(w)];
        diff += other[size_t(w)];
        if (ex == SIZE_MAX) ex = example[size_t(w)];
      }
      if (out + diff > 0) {
        std::vector<uint8_t> s(p.state_bytes);
        std::vector<uint32_t> scratch(nd + 1);
        packer.unpack(all.data() + first[ex] * rec + kb, s.data(), scratch.data());
        c.reason = fmt::format("of {} complete states it maps {} outside them and {} onto one with other scores, "
                               "e.g. this one:\n{}",
                               r.forms, out, diff, e.board_text(s.data()));
      }
    }
    c.kept = c.reason.empty();
    if (c.kept) generators.push_back(t);
    r.checks.push_back(std::move(c));
  }
  std::vector<Transform> group = close_group(p, generators, kMaxGroup);
  for (const Transform& t : group) {
    std::string why;
    actions.push_back(forms.action(t, root, why));
    r.group.push_back({t.name, 0});
    if (!why.empty()) {
      r.error = fmt::format("the group element {} has no action: {}", t.name, why);
      return r;
    }
  }
  // Least forms and fixed forms, one pass; every image is checked to be a form again.
  const size_t ng = actions.size();
  std::vector<std::vector<uint64_t>> fixed(static_cast<size_t>(threads), std::vector<uint64_t>(ng, 0));
  std::vector<uint64_t> least(static_cast<size_t>(threads), 0), lost(static_cast<size_t>(threads), 0);
  parallel(r.forms, threads, [&](size_t from, size_t to, size_t w) {
    std::vector<uint32_t> d(nd), img(nd);
    std::vector<uint8_t> key(kb);
    for (size_t i = from; i < to; ++i) {
      packer.decode(keys.data() + i * fk, d.data());
      bool is_least = true;
      for (size_t g = 0; g < ng; ++g) {
        Forms::apply(actions[g], d.data(), img.data());
        forms.form(img.data());
        const int c = packer.compare_digits(img.data(), d.data());
        if (c == 0) ++fixed[w][g];
        if (c < 0) is_least = false;
        if (g > 0) {
          packer.encode(img.data(), key.data());
          if (!find(key.data())) ++lost[w];
        }
      }
      if (is_least) ++least[w];
    }
  });
  uint64_t lost_all = 0;
  for (int w = 0; w < threads; ++w) {
    r.classes += least[size_t(w)];
    lost_all += lost[size_t(w)];
    for (size_t g = 0; g < ng; ++g) r.group[g].fixed += fixed[size_t(w)][g];
  }
  for (const EndClassElement& g : r.group) r.fixed_sum += g.fixed;
  if (lost_all > 0) r.error = fmt::format("the group maps {} complete states outside them", lost_all);
  return r;
}

std::string end_classes_text(const EndClassResult& r, int depth) {
  std::string s = fmt::format("complete states of {} moves up to the maps of the board\n", depth);
  if (!r.observed.empty()) s += fmt::format("  observed: {}\n", r.observed);
  if (!r.error.empty() && r.checks.empty()) return s + fmt::format("  not counted: {}\n", r.error);
  s += fmt::format("  paths ending the game: {}; complete states: {}; forms: {}\n", r.paths, r.states, r.forms);
  for (const SymmetryCheck& c : r.checks)
    s += c.kept ? fmt::format("  kept      {}\n", c.transform.name)
                : fmt::format("  rejected  {}: {}\n", c.transform.name, c.reason);
  std::vector<std::string> names;
  for (const EndClassElement& g : r.group) names.push_back(g.name);
  s += fmt::format("  group ({} elements): {}\n", r.group.size(), fmt::join(names, ", "));
  for (const EndClassElement& g : r.group) s += fmt::format("  fixed by {}: {}\n", g.name, g.fixed);
  s += fmt::format("  classes: {} by least forms, {}{} by Burnside ({} / {})\n", r.classes, r.burnside(),
                   r.burnside_whole() ? "" : " (not whole)", wide_text(r.fixed_sum), r.group.size());
  if (!r.error.empty()) s += fmt::format("  error: {}\n", r.error);
  return s;
}

nlohmann::json end_classes_json(const EndClassResult& r, int depth) {
  nlohmann::json j;
  j["depth"] = depth;
  j["observed"] = r.observed;
  j["paths"] = r.paths;
  j["states"] = r.states;
  j["forms"] = r.forms;
  j["checks"] = nlohmann::json::array();
  for (const SymmetryCheck& c : r.checks) j["checks"].push_back({{"name", c.transform.name}, {"kept", c.kept}, {"reason", c.reason}});
  j["group"] = nlohmann::json::array();
  for (const EndClassElement& g : r.group) j["group"].push_back({{"name", g.name}, {"fixed", g.fixed}});
  j["group_order"] = r.group.size();
  j["classes"] = r.classes;
  j["burnside"] = r.burnside();
  j["burnside_whole"] = r.burnside_whole();
  j["error"] = r.error;
  return j;
}

}  // namespace rulebook::explorer
