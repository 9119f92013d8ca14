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

/// The distinct forms of the complete states' records (form key, own key, scores' hash),
/// by an open-addressing table: a state reached by several paths counts once; two states
/// with one form are clashes.
class FormSet {
 public:
  FormSet(const std::vector<uint8_t>& records, size_t rec, size_t kb) : all_(records), rec_(rec), kb_(kb) {
    const size_t n = records.size() / rec;
    size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    slots_.assign(cap, 0);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* x = records.data() + i * rec;
      size_t h = hash(x) & (cap - 1);
      for (;; h = (h + 1) & (cap - 1)) {
        if (slots_[h] == 0) {
          slots_[h] = uint32_t(i + 1);
          firsts_.push_back(uint32_t(i));
          break;
        }
        const uint8_t* y = records.data() + size_t(slots_[h] - 1) * rec;
        if (std::memcmp(x, y, kb) != 0) continue;
        if (std::memcmp(x + kb, y + kb, kb) != 0) ++clashes_;
        break;
      }
    }
  }
  size_t size() const { return firsts_.size(); }
  uint64_t clashes() const { return clashes_; }
  const uint8_t* record(size_t i) const { return all_.data() + size_t(firsts_[i]) * rec_; }
  /// The record of the form `key`, or null.
  const uint8_t* find(const uint8_t* key) const {
    for (size_t h = hash(key) & (slots_.size() - 1);; h = (h + 1) & (slots_.size() - 1)) {
      if (slots_[h] == 0) return nullptr;
      const uint8_t* y = all_.data() + size_t(slots_[h] - 1) * rec_;
      if (std::memcmp(key, y, kb_) == 0) return y;
    }
  }

 private:
  size_t hash(const uint8_t* key) const {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < kb_; ++i) h = (h ^ key[i]) * 0x100000001b3ULL;
    return size_t(h ^ (h >> 29));
  }
  const std::vector<uint8_t>& all_;
  size_t rec_, kb_;
  std::vector<uint32_t> slots_;   ///< record index + 1; 0: empty
  std::vector<uint32_t> firsts_;  ///< the first record of each form
  uint64_t clashes_ = 0;
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
  if (all.size() / rec >= UINT32_MAX) {
    r.error = "too many complete states to hold";
    return r;
  }
  const FormSet set(all, rec, kb);
  r.forms = set.size();
  r.states = r.forms + set.clashes();
  if (set.clashes() > 0) {
    r.error = fmt::format("{} complete states make only {} forms as observed: the rules tell apart states "
                          "that differ by more than the order of alike keys",
                          r.states, r.forms);
    return r;
  }
  // Every map of the board on every complete state, in one pass: its image must be a
  // complete state with the same scores; which images are less than the state and which
  // equal it give the least forms and the fixed ones under whichever maps are kept.
  const std::vector<Transform> maps = board_transforms(p);
  std::vector<DigitMap> actions;
  for (const Transform& t : maps) {
    SymmetryCheck c{t, false, "", false, {}, false};
    actions.push_back(forms.action(t, root, c.reason));
    r.checks.push_back(std::move(c));
  }
  const size_t nm = maps.size();
  if (nm > 8) {
    r.error = "more maps of the board than the square has";
    return r;
  }
  struct Tally {
    std::vector<uint64_t> outside, other, fixed, by_less;  // by_less: per mask of maps giving less
    std::vector<size_t> example;
  };
  std::vector<Tally> tallies(static_cast<size_t>(threads));
  for (Tally& t : tallies) {
    t.outside.assign(nm, 0);
    t.other.assign(nm, 0);
    t.fixed.assign(nm, 0);
    t.by_less.assign(size_t{1} << nm, 0);
    t.example.assign(nm, SIZE_MAX);
  }
  parallel(set.size(), threads, [&](size_t from, size_t to, size_t w) {
    Tally& tally = tallies[w];
    std::vector<uint32_t> d(nd), img(nd);
    std::vector<uint8_t> key(kb);
    for (size_t i = from; i < to; ++i) {
      const uint8_t* x = set.record(i);
      packer.decode(x, d.data());
      uint32_t less = 0;
      for (size_t g = 0; g < nm; ++g) {
        if (!r.checks[g].reason.empty()) continue;
        Forms::apply(actions[g], d.data(), img.data());
        forms.form(img.data());
        const int c = packer.compare_digits(img.data(), d.data());
        if (c == 0) ++tally.fixed[g];
        if (c < 0) less |= 1u << g;
        packer.encode(img.data(), key.data());
        const uint8_t* hit = set.find(key.data());
        if (hit && std::memcmp(hit + 2 * kb, x + 2 * kb, 8) == 0) continue;
        ++(hit ? tally.other : tally.outside)[g];
        if (tally.example[g] == SIZE_MAX) tally.example[g] = i;
      }
      ++tally.by_less[less];
    }
  });
  std::vector<Transform> generators;
  uint32_t kept = 0;
  for (size_t g = 0; g < nm; ++g) {
    SymmetryCheck& c = r.checks[g];
    uint64_t out = 0, diff = 0;
    size_t ex = SIZE_MAX;
    for (const Tally& t : tallies) {
      out += t.outside[g];
      diff += t.other[g];
      if (ex == SIZE_MAX) ex = t.example[g];
    }
    if (c.reason.empty() && out + diff > 0) {
      std::vector<uint8_t> s(p.state_bytes);
      std::vector<uint32_t> scratch(nd + 1);
      packer.unpack(set.record(ex) + kb, s.data(), scratch.data());
      c.reason = fmt::format("of {} complete states it maps {} outside them and {} onto one with other scores, "
                             "e.g. this one:\n{}",
                             r.forms, out, diff, e.board_text(s.data()));
    }
    c.kept = c.reason.empty();
    if (!c.kept) continue;
    kept |= 1u << g;
    generators.push_back(c.transform);
  }
  // The kept maps of the square form a group themselves (a generated element outside them
  // would be a map of the square that was not kept).
  const std::vector<Transform> group = close_group(p, generators, kMaxGroup);
  for (const Transform& t : group) {
    size_t g = 0;
    while (g < nm && !same_transform(p, maps[g], t)) ++g;
    if (g == nm || !(kept >> g & 1)) {
      r.error = fmt::format("the kept maps generate {}, which was not kept", t.name);
      return r;
    }
    EndClassElement el{maps[g].name, 0};
    for (const Tally& tl : tallies) el.fixed += tl.fixed[g];
    r.group.push_back(el);
    r.fixed_sum += el.fixed;
  }
  for (const Tally& t : tallies)
    for (uint32_t m = 0; m < t.by_less.size(); ++m)
      if ((m & kept) == 0) r.classes += t.by_less[m];
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
