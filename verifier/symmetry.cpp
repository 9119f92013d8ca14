// Symmetry breaking for find and bound over boards: maps of the board verified on the
// property's own encoding, and a lex-leader constraint for each map kept.
#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "explorer/symmetry.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

namespace {

/// Most state values compared by one map's lex-leader constraint (a prefix of the order:
/// still sound, since a lex-leader of the whole vector is one of every prefix).
constexpr size_t kLexPositions = 4096;
/// Z3 resource units for one local question "does the image of this condition follow from
/// the set's conditions it reads", and for the question over the whole set: budgets in
/// units, not seconds, so the maps kept (and the line printed) are the same on any machine.
constexpr unsigned kLocalRlimit = 2'000'000;
constexpr unsigned kSetRlimit = 10'000'000;
/// The share of a property's budget (its seconds, and its units when it has a resource
/// limit) the checks may spend: past it the maps not yet checked are not kept, and the
/// rest of the budget goes to the property itself (the card game's 7 maps, each asked of
/// Z3 over 289 selectors, took 38 s of a 60 s budget and left its bound unknown).
constexpr double kCheckShare = 0.25;

/// A term up to the order of the arguments of commutative operators (and, or, +, *, =,
/// distinct, xor, at-most, at-least), nested and, or and + flattened: two terms equal up
/// to that order get the same AST, so the images of a set's conditions can be looked up.
class Canon {
 public:
  Canon(z3::context& z3, const Encoder& enc) : z3_(z3), enc_(enc) {}
  z3::expr operator()(const z3::expr& e) {
    if (auto it = memo_.find(e.id()); it != memo_.end()) return it->second;
    z3::expr out = build(e);
    memo_.emplace(e.id(), out);
    keep_.push_back(e);
    return out;
  }

 private:
  static bool flat(Z3_decl_kind k) { return k == Z3_OP_AND || k == Z3_OP_OR || k == Z3_OP_ADD; }
  static bool commutes(Z3_decl_kind k) {
    return flat(k) || k == Z3_OP_MUL || k == Z3_OP_EQ || k == Z3_OP_IFF || k == Z3_OP_DISTINCT || k == Z3_OP_XOR ||
           k == Z3_OP_PB_AT_MOST || k == Z3_OP_PB_AT_LEAST;
  }
  void gather(const z3::expr& e, Z3_decl_kind k, std::vector<z3::expr>& out) {
    for (unsigned i = 0; i < e.num_args(); ++i) {
      const z3::expr a = e.arg(i);
      if (a.is_app() && a.decl().decl_kind() == k) gather(a, k, out);
      else out.push_back((*this)(a));
    }
  }
  /// A sum of c * [guard] over the guards of one selector (and a constant): its value
  /// per index, keyed by value, as the disjunction of the guards that give it.
  std::optional<std::pair<int, std::map<int64_t, std::vector<z3::expr>>>> table(const z3::expr& e) {
    auto t = enc_.one_selector_sum(e);
    if (!t) return std::nullopt;
    std::map<int64_t, std::vector<z3::expr>> by_value;
    const std::vector<z3::expr>& guard = enc_.selectors()[size_t(t->first)].guard;
    for (size_t k = 0; k < guard.size(); ++k) by_value[t->second[k]].push_back(guard[k]);
    return std::make_pair(t->first, std::move(by_value));
  }
  /// a = b for two tables of different selectors: some value both take, each a
  /// disjunction of guards (the values themselves, which a map of the board may change
  /// consistently, are left out).
  std::optional<z3::expr> equal_tables(const z3::expr& a, const z3::expr& b) {
    auto ta = table(a), tb = table(b);
    if (!ta || !tb || ta->first == tb->first) return std::nullopt;
    z3::expr_vector any(z3_);
    for (const auto& [v, ga] : ta->second) {
      auto it = tb->second.find(v);
      if (it == tb->second.end()) continue;
      z3::expr_vector x(z3_), y(z3_);
      for (const z3::expr& g : ga) x.push_back(g);
      for (const z3::expr& g : it->second) y.push_back(g);
      any.push_back((*this)(z3::mk_or(x) && z3::mk_or(y)));
    }
    return (*this)(z3::mk_or(any));
  }
  z3::expr build(const z3::expr& e) {
    if (!e.is_app() || e.num_args() == 0) return e;
    const Z3_decl_kind k = e.decl().decl_kind();
    if ((k == Z3_OP_EQ || k == Z3_OP_DISTINCT) && e.num_args() == 2 && e.arg(0).is_int())
      if (auto eq = equal_tables(e.arg(0), e.arg(1))) return k == Z3_OP_EQ ? *eq : (*this)(!*eq);
    std::vector<z3::expr> args;
    if (flat(k)) gather(e, k, args);
    else
      for (unsigned i = 0; i < e.num_args(); ++i) args.push_back((*this)(e.arg(i)));
    if (commutes(k))
      std::sort(args.begin(), args.end(), [](const z3::expr& a, const z3::expr& b) { return a.id() < b.id(); });
    z3::expr_vector v(z3_);
    for (const z3::expr& a : args) v.push_back(a);
    if (k == Z3_OP_AND) return z3::mk_and(v);
    if (k == Z3_OP_OR) return z3::mk_or(v);
    if (k == Z3_OP_ADD) return z3::sum(v);
    return e.decl()(v);
  }
  z3::context& z3_;
  const Encoder& enc_;
  std::unordered_map<unsigned, z3::expr> memo_;
  std::vector<z3::expr> keep_;  ///< keeps the ids of memo_'s keys from being reused
};

/// A concrete table entry moved by the map (sets and cells of the domains it maps).
/// (t null: the entry itself).
std::vector<int64_t> image_key(const ir::Program& p, const explorer::Transform* t, const Sym& s, int domain) {
  static const std::vector<uint32_t> identity;
  auto map_of = [&](int d) -> const std::vector<uint32_t>& {
    return t && d >= 0 && size_t(d) < t->index_map.size() ? t->index_map[size_t(d)] : identity;
  };
  std::vector<int64_t> key{int64_t(s.k)};
  if (s.k == Sym::K::Bits) {
    const auto& m = map_of(s.domain);
    std::vector<uint64_t> bits(s.bits.size(), 0);
    for (size_t i = 0; i < s.bits.size() * 64; ++i)
      if (s.bits[i / 64] >> (i % 64) & 1) {
        const size_t j = m.empty() ? i : m[i];
        bits[j / 64] |= uint64_t(1) << (j % 64);
      }
    key.push_back(s.domain);
    for (uint64_t b : bits) key.push_back(int64_t(b));
  } else if (s.k == Sym::K::Val) {
    int64_t v = s.v;
    if (const auto& m = map_of(domain); !m.empty()) {
      const int64_t i = ir::domain_index(p.domains, domain, v);
      if (i >= 0) v = ir::domain_value(p.domains, domain, int64_t(m[size_t(i)]));
    }
    key.push_back(v);
  }
  return key;
}

/// The value map of a selector read through a table of sets or cells: value k goes to the
/// value whose entry is the image of k's (values with equal entries paired in order).
/// Empty when some image is no entry of the table.
std::vector<size_t> through_table(const ir::Program& p, const explorer::Transform& t, const Sym& table) {
  std::map<std::vector<int64_t>, std::vector<size_t>> by_entry, by_image;
  for (size_t k = 0; k < table.items.size(); ++k) {
    by_entry[image_key(p, nullptr, *table.items[k], table.domain)].push_back(k);
    by_image[image_key(p, &t, *table.items[k], table.domain)].push_back(k);
  }
  std::vector<size_t> out(table.items.size());
  for (const auto& [key, from] : by_image) {
    auto it = by_entry.find(key);
    if (it == by_entry.end() || it->second.size() != from.size()) return {};
    for (size_t i = 0; i < from.size(); ++i) out[from[i]] = it->second[i];
  }
  return out;
}

size_t distinct_entries(const ir::Program& p, const Sym& table) {
  std::map<std::vector<int64_t>, int> seen;
  for (const SymP& e : table.items) seen[image_key(p, nullptr, *e, -1)] = 1;
  return seen.size();
}

}  // namespace

Verifier::CheckedGroup Verifier::checked_group(const Scope& sc, const std::vector<z3::expr>& values,
                                               const std::vector<explorer::Transform>& maps, size_t limit) {
  const auto& sels = enc_.selectors();
  Canon canon(z3_, enc_);
  // The set's conditions up to argument order, and the values.
  // The set's own conditions (the constraints added below are not among them).
  const std::vector<Part> parts = sc.parts;
  std::unordered_map<unsigned, int> conds;
  for (const Part& part : parts) conds.emplace(canon(part.e).id(), 1);
  std::vector<z3::expr> vals;
  for (const z3::expr& v : values) vals.push_back(canon(v));
  const auto counted = enc_.counted_sets();
  const std::vector<int> counted_at = enc_.counted_cells();
  const ir::BoardTables& bt = enc_.board_tables();

  // Orders each selector's table candidates once: the table with most distinct entries
  // tells values apart best (a ship's cells, rather than its anchor).
  std::vector<std::vector<const Sym*>> tables(sels.size());
  for (size_t s = 0; s < sels.size(); ++s) {
    for (const SymP& t : enc_.geometry_tables(int(s))) tables[s].push_back(t.get());
    std::stable_sort(tables[s].begin(), tables[s].end(),
                     [&](const Sym* a, const Sym* b) { return distinct_entries(p_, *a) > distinct_entries(p_, *b); });
  }

  std::vector<std::string> rejected, kept_names;
  const auto started = Clock::now();
  std::vector<explorer::Transform> kept_maps{maps[0]};
  std::vector<SelectorMap> gens;
  const uint64_t units_at_start = rlimit_seen_;
  const double share_seconds = kCheckShare * budget_.seconds;
  const uint64_t share_units = budget_.rlimit > 0 ? uint64_t(kCheckShare * double(budget_.rlimit)) : 0;
  // What the checks may still spend: seconds (at least a millisecond) and units (0: no limit
  // but the per-question ones); `over` when the share is spent.
  auto seconds_left = [&] { return share_seconds - std::chrono::duration<double>(Clock::now() - started).count(); };
  auto over = [&] { return seconds_left() <= 0 || (share_units > 0 && rlimit_seen_ - units_at_start >= share_units); };
  auto limits = [&](unsigned units) {
    z3::params ps(z3_);
    ps.set("timeout", unsigned(std::max(1.0, seconds_left() * 1000)));
    ps.set("ctrl_c", false);
    uint64_t u = units;
    if (share_units > 0) u = std::min<uint64_t>(u, std::max<uint64_t>(1, share_units - std::min(share_units, rlimit_seen_ - units_at_start)));
    ps.set("rlimit", unsigned(u));
    return ps;
  };
  for (size_t mi = 1; mi < maps.size(); ++mi) {
    const explorer::Transform& t = maps[mi];
    if (opt_.stopped()) break;
    // A composition of maps kept keeps the set and the value too: only generators are
    // checked (the rotation by a quarter and a mirror, on a square).
    const auto group = explorer::close_group(p_, kept_maps, maps.size());
    if (std::any_of(group.begin(), group.end(),
                    [&](const explorer::Transform& g) { return explorer::same_transform(p_, g, t); }))
      continue;
    if (over()) {
      rejected.push_back(fmt::format("{} (not checked: the checks' share of the property's budget, {:.0f}%, is spent)",
                                     t.name, 100 * kCheckShare));
      continue;
    }
    // The map of selectors and their values.
    SelectorMap sm;
    sm.to.assign(sels.size(), -1);
    sm.index.resize(sels.size());
    std::string why;
    for (size_t s = 0; s < sels.size() && why.empty(); ++s) {
      const Selector& sel = sels[s];
      std::vector<size_t> id(sel.guard.size());
      for (size_t k = 0; k < id.size(); ++k) id[k] = k;
      if (sel.var < 0) {
        sm.to[s] = int(s);
        sm.index[s] = id;
        continue;
      }
      const ir::StateVar& var = p_.vars[size_t(sel.var)];
      const uint32_t e = explorer::map_element(p_, t, var, sel.element);
      const int to = enc_.base_selector_if_any(t.var(sel.var), e);  // a declared swap may exchange variables
      if (to < 0 || sels[size_t(to)].guard.size() != sel.guard.size()) {
        why = fmt::format("{} is read but not its image", sel.name);
        break;
      }
      sm.to[s] = to;
      std::vector<size_t> ix;
      if (to == int(s))
        for (const Sym* table : tables[s])
          if (!(ix = through_table(p_, t, *table)).empty()) break;
      if (ix.empty()) {
        // The explorer's map of the variable's values.
        const int d = var.domain;
        const auto& m = t.index_map[size_t(d)];
        for (size_t k = 0; k < sel.values.size() && why.empty(); ++k) {
          int64_t v = sel.values[k];
          const int64_t i = m.empty() ? -1 : ir::domain_index(p_.domains, d, v);
          if (i >= 0) v = ir::domain_value(p_.domains, d, int64_t(m[size_t(i)]));
          auto at = std::find(sels[size_t(to)].values.begin(), sels[size_t(to)].values.end(), v);
          if (at == sels[size_t(to)].values.end()) why = fmt::format("{}: a value has no image", sel.name);
          else ix.push_back(size_t(at - sels[size_t(to)].values.begin()));
        }
      }
      sm.index[s] = std::move(ix);
    }
    // A permutation of the guards: no two values go to the same image.
    if (why.empty()) {
      std::vector<std::vector<char>> hit(sels.size());
      for (size_t s = 0; s < sels.size(); ++s) hit[s].assign(sels[s].guard.size(), 0);
      for (size_t s = 0; s < sels.size() && why.empty(); ++s)
        for (size_t k : sm.index[s])
          if (hit[size_t(sm.to[s])][k]++) why = fmt::format("{}: two values have one image", sels[s].name);
    }
    // The state after the map, in terms of the state before: its element `to` holds the
    // image of what `s` holds, so the guard (to, index[k]) reads as (s, k).
    z3::expr_vector from(z3_), into(z3_);
    if (why.empty())
      for (size_t s = 0; s < sels.size(); ++s)
        for (size_t k = 0; k < sels[s].guard.size(); ++k) {
          from.push_back(sels[size_t(sm.to[s])].guard[sm.index[s][k]]);
          into.push_back(sels[s].guard[k]);
        }
    auto image = [&](const z3::expr& x) { return z3::expr(x).substitute(from, into); };
    // Every count of components: the image of its set is its set with cells relabelled
    // by a map that keeps orthogonal neighbours among the cells that can be in it.
    for (size_t c = 0; c < counted.size() && why.empty(); ++c) {
      std::unordered_map<unsigned, int> cell_of;
      for (size_t i = 0; i < counted[c].size(); ++i)
        if (!counted[c][i].is_false() && !cell_of.emplace(canon(counted[c][i]).id(), int(i)).second)
          why = "two cells of a counted set read alike";
      std::vector<int> tau(counted[c].size(), -1);
      for (size_t i = 0; i < counted[c].size() && why.empty(); ++i) {
        if (counted[c][i].is_false()) continue;
        auto it = cell_of.find(canon(image(counted[c][i])).id());
        if (it == cell_of.end()) why = "the image of a counted set is not the set relabelled";
        else tau[i] = it->second;
      }
      for (size_t a = 0; a < tau.size() && why.empty(); ++a)
        for (size_t b = 0; b < tau.size() && why.empty() && tau[a] >= 0; ++b)
          if (tau[b] >= 0 && ir::test(bt.orth[a], int64_t(b)) != ir::test(bt.orth[size_t(tau[a])], tau[b]))
            why = "the relabelling of a counted set does not keep neighbours";
      // The component of a cell is that of its image only where the map keeps the cell.
      if (why.empty() && counted_at[c] >= 0 && tau[size_t(counted_at[c])] != counted_at[c])
        why = "a component read at a cell the map moves";
    }
    // The set and the values map onto themselves: first up to argument order, and what
    // that does not show, by Z3 on the set (a share of the budget).
    std::vector<z3::expr> open;
    if (why.empty()) {
      for (const Part& part : parts)
        if (!conds.count(canon(image(part.e)).id())) open.push_back(image(part.e));
      for (size_t i = 0; i < values.size(); ++i)
        if (!z3::eq(canon(image(values[i])), vals[i])) open.push_back(image(values[i]) == values[i]);
    }
    if (why.empty() && !open.empty() && opt_.progress)
      opt_.progress(fmt::format("  symmetry: {}: {} conditions or values not matched up to argument order; asking Z3",
                                t.name, open.size()));
    // Each on its own first: implied by the set's conditions on the selectors it reads
    // alone (a rule for two ships: the same rule, its values mirrored)?
    std::vector<z3::expr> hard;
    for (const z3::expr& o : open) {
      if (!why.empty() || opt_.stopped()) break;
      Part probe{o, -1, std::nullopt, false, -2, -1};
      const std::vector<int> reads = support(probe);
      bool local = !reads.empty() && reads.front() >= 0;
      // The question, by the AST ids of the image and of the conditions it is asked on
      // (kept alive with it): asked once per run.
      std::vector<unsigned> key{o.id()};
      std::vector<z3::expr> used{o};
      for (const Part& part : parts)
        if (local && std::all_of(support(part).begin(), support(part).end(), [&](int x) {
              return std::binary_search(reads.begin(), reads.end(), x);
            })) {
          key.push_back(part.e.id());
          used.push_back(part.e);
        }
      if (implied_.count(key)) continue;
      z3::solver s(z3_);
      s.set(limits(kLocalRlimit));
      for (int x : reads) {
        if (!local) break;
        z3::expr_vector g(z3_), one(z3_);
        for (const z3::expr& e : sels[size_t(x)].guard) {
          g.push_back(e);
          one.push_back(z3::ite(e, z3_.int_val(1), z3_.int_val(0)));
        }
        s.add(z3::mk_or(g));
        s.add(z3::atmost(g, 1));
        s.add(z3::sum(one) == 1);
      }
      for (size_t i = 1; i < used.size(); ++i) s.add(used[i]);
      s.add(!o);
      const z3::check_result r = local ? s.check() : z3::unknown;
      if (local) rlimit_seen_ = rlimit_count(s);
      if (r != z3::unsat) hard.push_back(o);
      else implied_.emplace(std::move(key), std::move(used));
    }
    if (why.empty() && !hard.empty()) {
      z3::solver s(z3_);
      s.set(limits(kSetRlimit));
      for (const z3::expr& f : enc_.facts()) s.add(f);
      for (const Part& part : parts) s.add(part.e);
      z3::expr_vector all(z3_);
      for (const z3::expr& o : hard) all.push_back(o);
      s.add(!z3::mk_and(all));
      const z3::check_result r = s.check();
      rlimit_seen_ = rlimit_count(s);
      if (r != z3::unsat) why = r == z3::sat ? "the set or the value changes" : "not shown to keep the set and the value";
    }
    if (!why.empty()) {
      rejected.push_back(fmt::format("{} ({})", t.name, why));
      continue;
    }
    kept_maps.push_back(t);
    kept_names.push_back(t.name);
    gens.push_back(std::move(sm));
  }
  // The group the checked maps generate, as maps of the selectors (compositions of theirs).
  auto identity_map = [&] {
    SelectorMap id;
    for (size_t s = 0; s < sels.size(); ++s) {
      id.to.push_back(int(s));
      id.index.emplace_back(sels[s].guard.size());
      for (size_t k = 0; k < sels[s].guard.size(); ++k) id.index.back()[k] = k;
    }
    return id;
  };
  auto same = [](const SelectorMap& a, const SelectorMap& b) { return a.to == b.to && a.index == b.index; };
  std::vector<SelectorMap> elements{identity_map()};
  for (size_t i = 0; i < elements.size() && elements.size() <= limit; ++i)
    for (const SelectorMap& g : gens) {
      SelectorMap c;  // g after elements[i]
      const SelectorMap& h = elements[i];
      for (size_t s = 0; s < sels.size(); ++s) {
        const size_t mid = size_t(h.to[s]);
        c.to.push_back(g.to[mid]);
        c.index.emplace_back();
        for (size_t k : h.index[s]) c.index.back().push_back(g.index[mid][k]);
      }
      if (std::none_of(elements.begin(), elements.end(), [&](const SelectorMap& e) { return same(e, c); }))
        elements.push_back(std::move(c));
    }
  if (opt_.progress) {
    for (const std::string& r : rejected) opt_.progress("  symmetry: not kept: " + r);
    opt_.progress(fmt::format("  symmetry: {} maps checked, a group of {}, in {:.1f} s", gens.size(),
                              elements.size(), std::chrono::duration<double>(Clock::now() - started).count()));
  }
  CheckedGroup out;
  out.closed = elements.size() <= limit;
  out.elements = std::move(elements);
  out.kept = std::move(kept_names);
  out.rejected = std::move(rejected);
  return out;
}

std::string Verifier::break_symmetry(Scope& sc, const std::vector<z3::expr>& values) {
  if (!opt_.symmetry) return "";
  const std::vector<explorer::Transform> maps = explorer::board_transforms(p_);
  if (maps.size() <= 1) return "";
  const CheckedGroup group = checked_group(sc, values, maps, explorer::kMaxFoundGroup);
  const std::vector<SelectorMap>& elements = group.elements;
  const auto& sels = enc_.selectors();
  size_t kept = 0, positions = 0;
  // Per element: x <=lex image(x) over the guards in selector order, false before true;
  // positions the map fixes are left out. e_i: the positions before i are equal.
  for (size_t gi = 1; gi < elements.size(); ++gi) {
    const SelectorMap& g = elements[gi];
    std::vector<std::vector<std::pair<size_t, size_t>>> source(sels.size());
    for (size_t s = 0; s < sels.size(); ++s) source[s].resize(sels[s].guard.size());
    for (size_t s = 0; s < sels.size(); ++s)
      for (size_t k = 0; k < g.index[s].size(); ++k) source[size_t(g.to[s])][g.index[s][k]] = {s, k};
    z3::expr_vector clauses(z3_);
    z3::expr eq = z3_.bool_val(true);
    size_t n = 0;
    for (size_t s = 0; s < sels.size() && n < kLexPositions; ++s)
      for (size_t k = 0; k < sels[s].guard.size() && n < kLexPositions; ++k) {
        const z3::expr x = sels[s].guard[k];
        const z3::expr y = sels[source[s][k].first].guard[source[s][k].second];
        if (z3::eq(x, y)) continue;
        clauses.push_back(z3::implies(eq && x, y));
        const z3::expr next = z3_.bool_const(fmt::format("lex{}:{}", gi, n).c_str());
        clauses.push_back(z3::implies(eq && (x == y), next));
        eq = next;
        ++n;
      }
    if (n == 0) continue;  // the map fixes every value read: nothing to break
    sc.parts.push_back(Part{z3::mk_and(clauses), -1, std::nullopt, false, -2, -1});
    positions = std::max(positions, n);
    ++kept;
  }
  if (kept == 0) return "";
  return fmt::format("symmetry: {} of the {} board maps keep the set and the value ({} checked on the encoding, "
                     "the others their compositions); lex-leader on {} state values for each of the {} besides the "
                     "identity",
                     elements.size(), maps.size(), group.kept.size(), positions, kept);
}

}  // namespace rulebook::verifier
