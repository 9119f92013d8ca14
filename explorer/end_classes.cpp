// Classes of the complete states of one depth up to the maps of the board, compared by what
// the rules observe: the classes counted by least forms and by Burnside's lemma while the
// paths are walked, the forms held one entry per orbit, every map then checked on all.
#include "explorer/end_classes.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "explorer/orbit_table.h"
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
    for (const ObservedVar& ov : obs.vars()) {
      const auto& pos = position_[size_t(ov.var)];
      if (pos.empty()) continue;
      for (size_t k = 0; k < pos.size(); ++k)
        if (pos[k] >= 0) reps_.emplace_back(uint32_t(pos[k]), ov.rep[k].data());
      for (const auto& group : ov.alike) {
        std::vector<uint32_t> digits;
        for (uint32_t k : group)
          if (pos[k] >= 0) digits.push_back(uint32_t(pos[k]));
        if (digits.size() >= 2) alike_.push_back(std::move(digits));
      }
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
  /// values of alike keys sorted. An image under an action holds such values already
  /// (`reps_known`): only the sort is left.
  void form(uint32_t* d, bool reps_known = false) const {
    if (!reps_known)
      for (const auto& r : reps_) d[r.first] = r.second[d[r.first]];
    for (const std::vector<uint32_t>& group : alike_) {
      // Insertion sort of a few values, in place along the group's digits.
      for (size_t a = 1; a < group.size(); ++a) {
        const uint32_t v = d[group[a]];
        size_t b = a;
        for (; b > 0 && d[group[b - 1]] > v; --b) d[group[b]] = d[group[b - 1]];
        d[group[b]] = v;
      }
    }
  }

  /// Whether digit `i` holds `v` in some form (an observed value is replaced by the least
  /// one with its cells).
  bool in_forms(size_t i, uint32_t v) const {
    const PackedElement& e = packer_.elements()[i];
    const int o = observed_index(e.var);
    return o < 0 || obs_.vars()[size_t(o)].rep[e.index][v] == v;
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
  std::vector<std::pair<uint32_t, const uint32_t*>> reps_;  ///< observed digits, their least values
  std::vector<std::vector<uint32_t>> alike_;  ///< digits of alike keys, in key order
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

/// The maps with an action on forms as a group of at most 8 elements, by their actions:
/// products, inverses, and per stabiliser (a mask of elements) the tables naming a form in
/// its orbit.
struct ActionGroup {
  uint32_t valid = 0;                   ///< the maps with an action
  size_t n = 0;
  size_t identity = 0;                  ///< the map acting as the identity
  uint8_t mult[8][8] = {};              ///< mult[g][a]: g after a
  uint8_t inv[8] = {};
  uint8_t name[256][8] = {};            ///< per stabiliser S of f, element a: least c with c(a(f)) = f
  uint8_t stab_of_image[256][8] = {};   ///< stabiliser of a(f), from that of f
  uint8_t canon[256][8] = {};           ///< per stabiliser S of m: least c with c(m) = x(m)

  /// "" or why the actions do not make a group.
  std::string build(const std::vector<DigitMap>& actions, const std::vector<SymmetryCheck>& checks,
                    const Packer& packer, const Forms& forms) {
    n = actions.size();
    for (size_t g = 0; g < n; ++g)
      if (checks[g].reason.empty()) valid |= 1u << g;
    auto value = [&](const DigitMap& m, size_t i, uint32_t v) { return m.values[i].empty() ? v : m.values[i][v]; };
    // g after a equals c: digit i goes where a then g send it, through both value maps.
    auto equal_product = [&](const DigitMap& g, const DigitMap& a, const DigitMap& c) {
      for (size_t i = 0; i < a.target.size(); ++i) {
        const uint32_t mid = a.target[i];
        if (g.target[mid] != c.target[i]) return false;
        for (uint32_t v = 0; v < packer.elements()[i].radix; ++v)
          if (forms.in_forms(i, v) && value(g, mid, value(a, i, v)) != value(c, i, v)) return false;
      }
      return true;
    };
    int identity = -1;
    for (size_t g = 0; g < n && identity < 0; ++g) {
      if (!(valid >> g & 1)) continue;
      bool id = true;
      for (size_t i = 0; i < actions[g].target.size() && id; ++i) {
        id = actions[g].target[i] == i;
        for (uint32_t v = 0; id && v < packer.elements()[i].radix; ++v)
          id = !forms.in_forms(i, v) || value(actions[g], i, v) == v;
      }
      if (id) identity = int(g);
    }
    if (identity < 0) return "no map acts as the identity";
    this->identity = size_t(identity);
    for (size_t g = 0; g < n; ++g)
      for (size_t a = 0; a < n; ++a) {
        if (!(valid >> g & 1) || !(valid >> a & 1)) continue;
        size_t c = 0;
        while (c < n && !((valid >> c & 1) && equal_product(actions[g], actions[a], actions[c]))) ++c;
        if (c == n) return fmt::format("{} after {} is no map with an action", actions[g].name, actions[a].name);
        mult[g][a] = uint8_t(c);
        if (c == size_t(identity)) inv[a] = uint8_t(g);
      }
    for (uint32_t s = 0; s < 256; ++s)
      for (size_t a = 0; a < n; ++a) {
        if (!(valid >> a & 1)) continue;
        name[s][a] = canon[s][a] = 0xff;
        for (size_t c = n; c-- > 0;) {
          if (!(valid >> c & 1)) continue;
          if (s >> mult[c][a] & 1) name[s][a] = uint8_t(c);
          if (s >> mult[inv[a]][c] & 1) canon[s][a] = uint8_t(c);
          if (s >> mult[inv[a]][mult[c][a]] & 1) stab_of_image[s][a] |= uint8_t(1u << c);
        }
      }
    return "";
  }
};

/// What one worker counts.
struct Tally {
  std::vector<uint64_t> outside, other, fixed, by_less;  // by_less: per mask of maps giving less
  std::vector<uint8_t> example;  ///< per map: an orbit's key and the name of a form it moves out
  std::vector<bool> has_example;
  uint64_t repeats = 0, wrong_names = 0, seen = 0;
  explicit Tally(size_t nm = 0, size_t kb = 0)
      : outside(nm, 0), other(nm, 0), fixed(nm, 0), by_less(size_t{1} << nm, 0), example(nm * (kb + 1), 0),
        has_example(nm, false) {}
};

}  // namespace

EndClassResult end_classes(const ir::Program& p, const dsl::SourceSet& sources, const engine::Engine& e,
                           const uint8_t* root, const EndClassOptions& options) {
  EndClassResult r;
  const Observation obs(p, sources, root);
  r.observed = obs.describe(p);
  const Packer packer(p, root);
  const Forms forms(p, obs, packer);
  const size_t nd = forms.digits(), kb = packer.key_bytes();
  if (nd > 4096) {
    r.error = "the state has too many parts to compare";
    return r;
  }
  const std::vector<Transform> maps = board_transforms(p);
  const size_t nm = maps.size();
  if (nm > 8) {
    r.error = "more maps of the board than the square has";
    return r;
  }
  std::vector<DigitMap> actions;
  for (const Transform& t : maps) {
    SymmetryCheck c{t, false, "", false, {}, false};
    actions.push_back(forms.action(t, root, c.reason));
    r.checks.push_back(std::move(c));
  }
  auto group_tables = std::make_unique<ActionGroup>();
  const ActionGroup& ag = *group_tables;
  if (std::string why = group_tables->build(actions, r.checks, packer, forms); !why.empty()) {
    r.error = "the maps of the board do not act as a group on the states as observed: " + why;
    return r;
  }
  // Every complete state's form goes to the entry of its orbit under the maps with an
  // action: memory per class. Its images under each map give, without storing anything,
  // the maps that fix it (Burnside) and those giving a lesser form (least forms, for
  // whichever maps are kept in the end).
  const int threads = std::max(1, options.threads);
  OrbitTable table(kb);
  std::vector<Tally> tallies(static_cast<size_t>(threads), Tally(nm, kb));
  std::atomic<bool> stop{false}, over_memory{false};
  auto interrupted = [&] { return options.interrupt && options.interrupt->load(std::memory_order_relaxed); };
  // Each worker's adds wait in a ring a few states long, their slots prefetched.
  constexpr size_t kRing = 8;
  struct Pending {
    std::vector<uint8_t> key;
    uint64_t hash = 0, scores = 0;
    uint8_t name = 0, stabiliser = 0;
    bool used = false;
  };
  struct Scratch {
    std::vector<uint32_t> d, images, named;
    std::vector<int64_t> scores;
    std::vector<Pending> ring;
    uint64_t leaves = 0;
  };
  std::vector<Scratch> scratch(static_cast<size_t>(threads));
  for (Scratch& s : scratch) {
    s.d.resize(nd);
    s.images.resize(nd * nm);
    s.named.resize(nd);
    s.ring.resize(kRing);
    for (Pending& q : s.ring) q.key.resize(kb);
  }
  auto add = [&](Pending& q, Tally& tally) {
    if (!q.used) return;
    q.used = false;
    if (!table.add(q.key.data(), q.hash, q.name, q.stabiliser, q.scores)) ++tally.repeats;
    if (options.max_memory > 0 && table.bytes() > options.max_memory) {
      over_memory = true;
      stop = true;
    }
  };
  PerftOptions po;
  po.threads = threads;
  po.interrupt = &stop;
  po.progress = [&](const PerftProgress& pp) {
    if (interrupted()) stop = true;
    if (!options.progress) return;
    EndClassProgress ep{pp, table.orbits(), table.bytes()};
    options.progress(ep);
  };
  po.on_end = [&](const uint8_t* s, int ply, int worker) {
    if (ply != options.depth - 1) return;
    Scratch& x = scratch[size_t(worker)];
    Tally& tally = tallies[size_t(worker)];
    uint32_t* d = x.d.data();
    packer.gather(s, d);
    forms.form(d);
    uint32_t less = 0, stab = 1u << ag.identity;
    ++tally.fixed[ag.identity];
    size_t best = ag.identity;  // the map giving the least image
    const uint32_t* least = d;
    for (size_t g = 0; g < nm; ++g) {
      if (!(ag.valid >> g & 1) || g == ag.identity) continue;
      uint32_t* img = x.images.data() + g * nd;
      Forms::apply(actions[g], d, img);
      forms.form(img, true);
      const int c = packer.compare_digits(img, d);
      if (c == 0) {
        ++tally.fixed[g];
        stab |= 1u << g;
      }
      if (c < 0) less |= 1u << g;
      if (packer.compare_digits(img, least) < 0) {
        best = g;
        least = img;
      }
    }
    ++tally.by_less[less];
    const uint8_t name = ag.name[stab][best];
    // The name must carry the least form back onto this one: the actions compose as the
    // group's table says (checked on one state in 64, each costs one image).
    if ((++x.leaves & 63) == 0) {
      Forms::apply(actions[name], least, x.named.data());
      forms.form(x.named.data(), true);
      if (packer.compare_digits(x.named.data(), d) != 0) ++tally.wrong_names;
    }
    Pending& q = x.ring[x.leaves % kRing];
    add(q, tally);
    packer.encode(least, q.key.data());
    q.hash = table.hash(q.key.data());
    table.prefetch(q.hash);
    q.scores = 0x9e3779b97f4a7c15ULL;
    x.scores.clear();
    if (e.scores(s, x.scores).ok)
      for (int64_t v : x.scores) q.scores = (q.scores ^ uint64_t(v)) * 0x100000001b3ULL;
    q.name = name;
    q.stabiliser = ag.stab_of_image[stab][best];
    q.used = true;
    if (interrupted()) stop = true;
  };
  const PerftResult pr = perft(e, root, options.depth, po);
  for (size_t w = 0; w < scratch.size(); ++w)
    for (Pending& q : scratch[w].ring) add(q, tallies[w]);
  if (over_memory) {
    r.error = fmt::format("the orbits of the complete states need more than {} bytes ({} orbits when it stopped)",
                          options.max_memory, table.orbits());
    return r;
  }
  if (!pr.status.ok || !pr.complete) {
    r.error = pr.status.ok ? "interrupted" : pr.status.message;
    return r;
  }
  r.paths = pr.ends.empty() ? 0 : pr.ends.back();
  r.orbits = table.orbits();
  r.table_bytes = table.bytes();
  uint64_t repeats = 0, wrong = 0;
  for (const Tally& t : tallies) {
    repeats += t.repeats;
    wrong += t.wrong_names;
  }
  if (wrong > 0) {
    r.error = fmt::format("on {} complete states the maps of the board do not compose as their table says", wrong);
    return r;
  }
  r.forms = r.paths - repeats;
  r.states = r.forms;
  if (repeats > 0) {
    // Without the states themselves a state reached by two paths is not told from two
    // states with one form; either way the counts below would count it twice.
    r.error = fmt::format("{} paths end in a form seen before (a state reached by several paths, or states "
                          "that differ by more than the order of alike keys): classes not counted",
                          repeats);
    return r;
  }
  // Every map on every complete form, orbit by orbit: its image must be a form seen, with
  // the same scores.
  parallel(OrbitTable::shards(), threads, [&](size_t from, size_t to, size_t w) {
    Tally& tally = tallies[w];
    table.each(from, to, [&](const OrbitTable::Entry& en) {
      for (uint32_t i = 0; i < nm; ++i) {
        if (!(en.seen >> i & 1)) continue;
        ++tally.seen;
        for (size_t g = 0; g < nm; ++g) {
          if (!(ag.valid >> g & 1)) continue;
          const uint8_t j = ag.canon[en.stabiliser][ag.mult[g][i]];
          const bool out = !(en.seen >> j & 1);
          if (!out && en.scores[j] == en.scores[i]) continue;
          ++(out ? tally.outside : tally.other)[g];
          // The example: the least orbit key and name, whatever the order of the slots.
          uint8_t* ex = tally.example.data() + g * (kb + 1);
          const int c = std::memcmp(en.key, ex, kb);
          if (tally.has_example[g] && (c > 0 || (c == 0 && i >= ex[kb]))) continue;
          tally.has_example[g] = true;
          std::memcpy(ex, en.key, kb);
          ex[kb] = uint8_t(i);
        }
      }
    });
  });
  uint64_t seen = 0;
  for (const Tally& t : tallies) seen += t.seen;
  if (seen != r.forms) {
    r.error = fmt::format("{} forms walked, {} held", r.forms, seen);
    return r;
  }
  std::vector<Transform> generators;
  uint32_t kept = 0;
  for (size_t g = 0; g < nm; ++g) {
    SymmetryCheck& c = r.checks[g];
    uint64_t out = 0, diff = 0;
    const uint8_t* ex = nullptr;
    for (const Tally& t : tallies) {
      out += t.outside[g];
      diff += t.other[g];
      const uint8_t* mine = t.example.data() + g * (kb + 1);
      if (t.has_example[g] && (!ex || std::memcmp(mine, ex, kb + 1) < 0)) ex = mine;
    }
    if (c.reason.empty() && out + diff > 0) {
      // The example: the form named in the orbit entry, as a state.
      std::vector<uint32_t> m(nd), f(nd), scratch_digits(nd + 1);
      std::vector<uint8_t> key(kb), s(p.state_bytes);
      packer.decode(ex, m.data());
      Forms::apply(actions[ex[kb]], m.data(), f.data());
      forms.form(f.data());
      packer.encode(f.data(), key.data());
      packer.unpack(key.data(), s.data(), scratch_digits.data());
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
  if (r.orbits > 0)
    s += fmt::format("  held as {} orbits under the maps acting on forms ({:.1f} MB)\n", r.orbits, double(r.table_bytes) / 1e6);
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
