// Candidate maps from the structure of the rules (nauty's automorphism generators of a
// coloured graph), relabellings of cell values, and Schreier-Sims for a group's order.
#include "explorer/symmetry_graph.h"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "explorer/pack.h"

// nauty's header defines macros of short common names: it comes after every other header.
#include <nauty.h>

namespace rulebook::explorer {
namespace {

using Bits = std::vector<uint64_t>;
using IValue = compiler::interp::Value;

void put(Bits& b, uint32_t i) { b[i >> 6] |= uint64_t{1} << (i & 63); }

/// A set the interpreter computed, as plain words over `n` indices.
Bits plain(const ir::Bits& set, uint32_t n) {
  Bits b(ir::words(n), 0);
  for (uint32_t i = 0; i < n && (i >> 6) < set.size(); ++i)
    if (ir::test(set, i)) put(b, i);
  return b;
}

/// The graph before colouring: vertices are the cells, then one per hyperedge, then one per
/// neighbourhood edge; a vertex's colour is a key compared as a whole.
class StructureGraph {
 public:
  StructureGraph(const ir::Program& p, const dsl::SourceSet& src)
      : p_(p), cells_(p.domains[ir::kCellDomain].size), interp_(p, src), ev_(interp_),
        state_(p.state_bytes + 8, 0) {
    cell_colour_.assign(cells_, {});
  }

  uint32_t cells() const { return cells_; }

  void walk_program() {
    for_each_rule_expr(p_, [&](const ir::Expr* e) { expr(e); });
  }

  /// The cells' initial contents, per variable keyed by cells, as their colours.
  void colour_by_root(const uint8_t* root) {
    for (const ir::StateVar& var : p_.vars) {
      if (var.keys.size() != 1 || var.keys[0] != ir::kCellDomain) continue;
      for (uint32_t c = 0; c < cells_ && c < var.count; ++c) cell_colour_[c].push_back(ir::load_index(root, var, c));
    }
  }

  /// Automorphism generators restricted to the cells (non-identity, distinct).
  std::vector<std::vector<uint32_t>> automorphisms() const;

  /// Whether the rules gave the graph any structure among cells (a house, a set, a
  /// neighbourhood). Without one every permutation of the cells is an automorphism, and
  /// nauty's generators (swaps of two cells) are no candidates the rules suggest.
  bool structured() const { return !hyperedges_.empty() || !edges_.empty(); }

 private:
  static bool is_cells(const ir::Type* t, ir::Type::Kind kind) {
    return t && t->kind == kind && t->domain == ir::kCellDomain;
  }

  void expr(const ir::Expr* e) {
    if (!e) return;
    // The members of a constant list are parts of it (houses, entries of a table), not
    // constants of their own.
    if (e->op != ir::Op::ConstList)
      for (const auto& a : e->args) expr(a.get());
    const ir::Type* t = e->type.get();
    switch (e->op) {
      case ir::Op::ConstSet:
        if (is_cells(t, ir::Type::Kind::Set)) add_hyperedge(e->bits, "set");
        return;
      case ir::Op::ConstList:
        if (t && t->kind == ir::Type::Kind::List && t->elem && t->elem->domain == ir::kCellDomain)
          for (const auto& m : e->args) add_member(*m, "house");
        return;
      case ir::Op::At:
        if (e->args.size() == 2 && e->args[0]->op == ir::Op::ConstList &&
            is_cells(e->args[1]->type.get(), ir::Type::Kind::Scalar) && e->args[0]->args.size() == cells_)
          table(*e->args[0]);
        return;
      case ir::Op::Builtin:
        builtin(*e);
        return;
      default:
        return;
    }
  }

  void add_member(const ir::Expr& m, const std::string& kind) {
    if (m.op == ir::Op::ConstSet) add_hyperedge(m.bits, kind);
    if (m.op == ir::Op::ConstList) {
      Bits b(ir::words(cells_), 0);
      for (const auto& c : m.args)
        if (c->op == ir::Op::Const) set_cell(b, c->value);
      add_hyperedge(b, kind);
    }
  }

  void set_cell(Bits& b, int64_t value) const {
    const int64_t i = ir::domain_index(p_.domains, ir::kCellDomain, value);
    if (i >= 0) put(b, uint32_t(i));
  }

  /// A table of cells: to sets (a house when the set holds its cell, else neighbours), to
  /// cells (a directed neighbour) or to other values (a colour of the cell).
  void table(const ir::Expr& list) {
    const int kind = int(tables_.size());
    tables_.push_back(&list);
    for (uint32_t c = 0; c < cells_; ++c) {
      const ir::Expr& entry = *list.args[c];
      const ir::Type* et = entry.type.get();
      if (entry.op == ir::Op::ConstSet && is_cells(et, ir::Type::Kind::Set)) {
        Bits b = entry.bits;
        b.resize(ir::words(cells_), 0);
        neighbourhood(c, b, fmt::format("table {}", kind));
      } else if (entry.op == ir::Op::Const && is_cells(et, ir::Type::Kind::Scalar)) {
        const int64_t d = ir::domain_index(p_.domains, ir::kCellDomain, entry.value);
        if (d >= 0) edges_.insert({fmt::format("table {} ->", kind), {c, uint32_t(d)}});
      } else if (entry.op == ir::Op::Const) {
        cell_colour_[c].push_back(int64_t(kind) << 32 | (entry.value & 0xffffffff));
      }
    }
  }

  void neighbourhood(uint32_t c, const Bits& b, const std::string& kind) {
    if (ir::test(b, c)) {
      add_hyperedge(b, "house");
      return;
    }
    for (uint32_t d = 0; d < cells_; ++d)
      if (ir::test(b, d)) edges_.insert({kind, {std::min(c, d), std::max(c, d)}});
  }

  /// Rows, columns, lines and neighbourhoods, as the interpreter computes them.
  void builtin(const ir::Expr& e) {
    using dsl::BuiltinId;
    const BuiltinId id = e.builtin;
    const bool per_cell = id == BuiltinId::Row || id == BuiltinId::Column || id == BuiltinId::Orth ||
                          id == BuiltinId::Diag || id == BuiltinId::King;
    const bool whole = id == BuiltinId::Rows || id == BuiltinId::Columns || id == BuiltinId::Lines;
    if (!per_cell && !whole) return;
    if (!done_.insert(int(id)).second) return;
    if (whole) {
      if (!e.args.empty()) return;
      IValue v;
      ev_.start(state_.data(), 1);
      if (!ev_.value(e, v).ok) return;
      for (const IValue& m : v.list) {
        Bits b(ir::words(cells_), 0);
        if (!m.list.empty()) {
          for (const IValue& c : m.list) set_cell(b, c.scalar);
        } else {
          b = plain(m.set, cells_);
        }
        add_hyperedge(b, "house");
      }
      return;
    }
    if (e.args.size() != 1 || !is_cells(e.args[0]->type.get(), ir::Type::Kind::Scalar) ||
        !is_cells(e.type.get(), ir::Type::Kind::Set))
      return;
    ir::ExprPtr probe = ir::clone_expr(e);
    auto hole = std::make_unique<ir::Expr>();
    hole->op = ir::Op::Local;
    hole->slot = 0;
    hole->type = e.args[0]->type;
    probe->args[0] = std::move(hole);
    for (uint32_t c = 0; c < cells_; ++c) {
      IValue v;
      ev_.start(state_.data(), 2);
      ev_.set_local(0, int64_t(ir::domain_value(p_.domains, ir::kCellDomain, c)));
      if (!ev_.value(*probe, v).ok) continue;
      neighbourhood(c, plain(v.set, cells_), fmt::format("builtin {}", int(id)));
    }
  }

  void add_hyperedge(Bits b, const std::string& kind) {
    b.resize(ir::words(cells_), 0);
    // No cells or every cell (`cells` itself): kept by every permutation, it tells nothing.
    uint32_t members = 0;
    for (uint32_t c = 0; c < cells_; ++c) members += ir::test(b, c) ? 1 : 0;
    if (members == 0 || members == cells_) return;
    // A constant set stands for itself: its own colour; houses share one.
    hyperedges_.insert({kind == "set" ? fmt::format("set {}", fmt::join(b, ",")) : kind, b});
  }

  const ir::Program& p_;
  uint32_t cells_;
  compiler::Interpreter interp_;
  compiler::Evaluator ev_;
  std::vector<uint8_t> state_;
  std::vector<std::vector<int64_t>> cell_colour_;
  std::set<std::pair<std::string, Bits>> hyperedges_;
  std::set<std::pair<std::string, std::pair<uint32_t, uint32_t>>> edges_;
  std::vector<const ir::Expr*> tables_;
  std::set<int> done_;
};

/// nauty calls back without user data: the collector is set under a lock.
std::mutex nauty_mutex;
std::vector<std::vector<int>>* nauty_found = nullptr;

void on_automorphism(int, int* perm, int*, int, int, int n) {
  if (nauty_found) nauty_found->emplace_back(perm, perm + n);
}

std::vector<std::vector<uint32_t>> StructureGraph::automorphisms() const {
  // Vertices: cells, hyperedges, edges; colours: the keys, sorted.
  std::vector<std::string> colour;
  for (uint32_t c = 0; c < cells_; ++c) colour.push_back(fmt::format("cell {}", fmt::join(cell_colour_[c], ",")));
  std::vector<std::pair<int, int>> links;
  for (const auto& h : hyperedges_) {
    const int v = int(colour.size());
    colour.push_back("hyperedge " + h.first);
    for (uint32_t c = 0; c < cells_; ++c)
      if (ir::test(h.second, c)) links.push_back({v, int(c)});
  }
  for (const auto& e : edges_) {
    const int v = int(colour.size());
    colour.push_back("edge " + e.first);
    links.push_back({v, int(e.second.first)});
    // A directed neighbour: its head through a vertex of its own colour.
    if (e.first.back() == '>') {
      const int head = int(colour.size());
      colour.push_back("head " + e.first);
      links.push_back({v, head});
      links.push_back({head, int(e.second.second)});
    } else {
      links.push_back({v, int(e.second.second)});
    }
  }
  const int n = int(colour.size());
  if (n == 0) return {};
  const int m = SETWORDSNEEDED(n);
  std::vector<setword> g(size_t(m) * size_t(n), 0);
  for (const auto& l : links) {
    ADDONEEDGE(g.data(), l.first, l.second, m);
  }
  std::vector<int> lab(static_cast<size_t>(n)), ptn(lab), orbits(lab);
  for (int i = 0; i < n; ++i) lab[size_t(i)] = i;
  std::stable_sort(lab.begin(), lab.end(), [&](int a, int b) { return colour[size_t(a)] < colour[size_t(b)]; });
  for (int i = 0; i < n; ++i)
    ptn[size_t(i)] = i + 1 < n && colour[size_t(lab[size_t(i)])] == colour[size_t(lab[size_t(i + 1)])] ? 1 : 0;
  std::vector<std::vector<int>> found;
  {
    std::lock_guard<std::mutex> lock(nauty_mutex);
    nauty_check(WORDSIZE, m, n, NAUTYVERSIONID);
    DEFAULTOPTIONS_GRAPH(options);
    options.defaultptn = FALSE;
    options.userautomproc = on_automorphism;
    statsblk stats;
    nauty_found = &found;
    densenauty(g.data(), lab.data(), ptn.data(), orbits.data(), &options, &stats, m, n, nullptr);
    nauty_found = nullptr;
  }
  std::vector<std::vector<uint32_t>> out;
  for (const auto& perm : found) {
    std::vector<uint32_t> cells(cells_);
    bool moves = false;
    for (uint32_t c = 0; c < cells_; ++c) {
      cells[c] = uint32_t(perm[c]);
      moves = moves || cells[c] != c;
    }
    if (moves && std::find(out.begin(), out.end(), cells) == out.end()) out.push_back(std::move(cells));
  }
  return out;
}

std::string cycles(const std::vector<uint32_t>& perm, const std::function<std::string(uint32_t)>& name) {
  std::string out;
  std::vector<bool> seen(perm.size(), false);
  for (uint32_t i = 0; i < perm.size(); ++i) {
    if (seen[i] || perm[i] == i) continue;
    std::vector<std::string> c;
    for (uint32_t j = i; !seen[j]; j = perm[j]) {
      seen[j] = true;
      c.push_back(name(j));
    }
    out += fmt::format("({})", fmt::join(c, " "));
  }
  return out;
}

}  // namespace

std::string describe_cell_map(const ir::Program& p, const std::vector<uint32_t>& cells) {
  const uint32_t w = uint32_t(p.geometry.width), h = uint32_t(p.geometry.height);
  auto cell_name = [&](uint32_t c) {
    return ir::value_text(p.domains, ir::kCellDomain, ir::domain_value(p.domains, ir::kCellDomain, c));
  };
  auto number = [](uint32_t i) { return std::to_string(i); };
  if (w * h == cells.size() && w > 0) {
    // (x, y) -> (fx(x), fy(y)), or with the axes exchanged on a square.
    for (int swap = 0; swap < (w == h ? 2 : 1); ++swap) {
      std::vector<uint32_t> fx(swap ? h : w, UINT32_MAX), fy(swap ? w : h, UINT32_MAX);
      bool ok = true;
      for (uint32_t c = 0; c < cells.size() && ok; ++c) {
        const uint32_t x = c % w, y = c / w, tx = cells[c] % w, ty = cells[c] / w;
        uint32_t& a = swap ? fx[y] : fx[x];
        uint32_t& b = swap ? fy[x] : fy[y];
        const uint32_t va = swap ? tx : tx, vb = ty;
        if ((a != UINT32_MAX && a != va) || (b != UINT32_MAX && b != vb)) ok = false;
        a = va;
        b = vb;
      }
      if (!ok) continue;
      std::vector<std::string> parts;
      if (swap) parts.push_back("transpose");
      // fy: image row of each row; fx: image column of each column (after the exchange).
      const std::string rows = cycles(fy, number), columns = cycles(fx, number);
      if (!rows.empty()) parts.push_back(fmt::format("{} {}", swap ? "columns to rows" : "rows", rows));
      if (!columns.empty()) parts.push_back(fmt::format("{} {}", swap ? "rows to columns" : "columns", columns));
      return fmt::format("{}", fmt::join(parts, ", "));
    }
  }
  return "cells " + cycles(cells, cell_name);
}

std::vector<Transform> graph_candidates(const ir::Program& p, const dsl::SourceSet& sources, const uint8_t* root) {
  if (p.domains[ir::kCellDomain].size == 0) return {};
  StructureGraph graph(p, sources);
  graph.walk_program();
  if (!graph.structured()) return {};
  graph.colour_by_root(root);
  const std::vector<Transform> square = board_transforms(p);
  std::vector<Transform> out;
  for (std::vector<uint32_t>& cells : graph.automorphisms()) {
    if (out.size() >= kMaxGraphCandidates) break;
    std::vector<std::vector<uint32_t>> maps(p.domains.size());
    const std::string name = "automorphism: " + describe_cell_map(p, cells);
    maps[ir::kCellDomain] = std::move(cells);
    Transform t = make_transform(p, name, std::move(maps));
    // A map of the square moves the points too: compared on the cells.
    const bool known = std::any_of(square.begin(), square.end(), [&](const Transform& s) {
      return s.index_map[ir::kCellDomain] == t.index_map[ir::kCellDomain];
    });
    if (!known) out.push_back(std::move(t));
  }
  return out;
}

std::vector<Transform> label_candidates(const ir::Program& p, const uint8_t* root) {
  std::vector<Transform> out;
  std::set<int> seen;
  // A relabelling that moves only the values of setup variables play never assigns (values
  // their set-up contents lack, so those stay as they are) changes no state: it would join
  // the group as an element acting as the identity and only inflate its order.
  const std::vector<bool> assigned = assigned_in_play(p);
  auto changes_states = [&](const Transform& t) {
    for (size_t v = 0; v < p.vars.size(); ++v) {
      const ir::StateVar& var = p.vars[v];
      if (var.origin == ir::StateVar::Origin::Setup && !assigned[v]) continue;
      const std::vector<uint32_t>& m = t.index_map[size_t(var.domain)];
      for (uint32_t i = 0; i < m.size(); ++i)
        if (m[i] != i) return true;
    }
    return false;
  };
  for (const ir::StateVar& var : p.vars) {
    if (var.keys.size() != 1 || var.keys[0] != ir::kCellDomain || var.is_set) continue;
    const int d = var.domain;
    const ir::Domain& dom = p.domains[size_t(d)];
    if ((dom.kind != ir::Domain::Kind::Range && dom.kind != ir::Domain::Kind::Enum) || !seen.insert(d).second) continue;
    std::vector<bool> initial(dom.size, false);
    for (uint32_t c = 0; c < var.count; ++c) initial[ir::load_index(root, var, c)] = true;
    std::vector<int64_t> free;  // values, not indices: other domains are mapped by value
    for (uint32_t i = 0; i < dom.size; ++i)
      if (!initial[i]) free.push_back(ir::domain_value(p.domains, d, i));
    if (free.size() < 2) continue;
    // A value permutation on every range or enum of the same kind holding all of `free`
    // and inside the variable's domain.
    auto relabel = [&](const std::map<int64_t, int64_t>& perm, const std::string& name) {
      std::vector<std::vector<uint32_t>> maps(p.domains.size());
      for (size_t e = 0; e < p.domains.size(); ++e) {
        const ir::Domain& other = p.domains[e];
        if (other.kind != dom.kind || (dom.kind == ir::Domain::Kind::Enum && other.members != dom.members)) continue;
        bool inside = true, holds = true;
        for (uint32_t i = 0; i < other.size && inside; ++i)
          inside = ir::domain_index(p.domains, d, ir::domain_value(p.domains, int(e), i)) >= 0;
        for (int64_t v : free) holds = holds && ir::domain_index(p.domains, int(e), v) >= 0;
        if (!inside || !holds) continue;
        std::vector<uint32_t> m(other.size);
        for (uint32_t i = 0; i < other.size; ++i) {
          int64_t v = ir::domain_value(p.domains, int(e), i);
          auto it = perm.find(v);
          if (it != perm.end()) v = it->second;
          m[i] = uint32_t(ir::domain_index(p.domains, int(e), v));
        }
        maps[e] = std::move(m);
      }
      Transform t = make_transform(p, name, std::move(maps));
      if (changes_states(t)) out.push_back(std::move(t));
    };
    auto text = [&](int64_t v) { return ir::value_text(p.domains, d, v); };
    relabel({{free[0], free[1]}, {free[1], free[0]}}, fmt::format("{} values {} <-> {}", var.name, text(free[0]), text(free[1])));
    if (free.size() > 2) {
      std::map<int64_t, int64_t> cycle;
      std::vector<std::string> names;
      for (size_t i = 0; i < free.size(); ++i) {
        cycle[free[i]] = free[(i + 1) % free.size()];
        names.push_back(text(free[i]));
      }
      relabel(cycle, fmt::format("{} values cycled {} -> {}", var.name, fmt::join(names, " -> "), names.front()));
    }
  }
  return out;
}

namespace {

using Perm = std::vector<uint32_t>;

Perm inverse(const Perm& a) {
  Perm r(a.size());
  for (uint32_t i = 0; i < a.size(); ++i) r[a[i]] = i;
  return r;
}

/// a then b.
Perm then(const Perm& a, const Perm& b) {
  Perm r(a.size());
  for (uint32_t i = 0; i < a.size(); ++i) r[i] = b[a[i]];
  return r;
}

bool identity(const Perm& a) {
  for (uint32_t i = 0; i < a.size(); ++i)
    if (a[i] != i) return false;
  return true;
}

/// A base and strong generating set built by the deterministic Schreier-Sims algorithm.
class StabChain {
 public:
  explicit StabChain(uint32_t n) : n_(n) {}

  void add(const Perm& g) {
    size_t at = 0;
    const Perm h = sift(g, 0, at);
    if (!identity(h)) insert(0, at, h);
  }

  uint64_t order() const {
    uint64_t o = 1;
    for (const Level& l : levels_) {
      const uint64_t k = l.orbit.size();
      o = o > UINT64_MAX / k ? UINT64_MAX : o * k;
    }
    return o;
  }

 private:
  struct Level {
    uint32_t base = 0;
    std::vector<Perm> gens;  ///< the strong generators fixing the earlier bases
    std::vector<uint32_t> orbit;
    std::map<uint32_t, Perm> trans;  ///< point -> an element taking the base there
  };

  /// Strips g through the levels from `from`; `at` is where it stopped.
  Perm sift(Perm g, size_t from, size_t& at) const {
    for (at = from; at < levels_.size(); ++at) {
      const Level& l = levels_[at];
      auto it = l.trans.find(g[l.base]);
      if (it == l.trans.end()) return g;
      g = then(g, inverse(it->second));
    }
    return g;
  }

  /// h fixes the bases before `to` (and is in none of the groups from `to` on): a strong
  /// generator of the levels from..to, which are closed again from the deepest.
  void insert(size_t from, size_t to, const Perm& h) {
    if (to == levels_.size()) {
      Level l;
      while (h[l.base] == l.base) ++l.base;
      l.orbit = {l.base};
      Perm id(n_);
      for (uint32_t k = 0; k < n_; ++k) id[k] = k;
      l.trans[l.base] = std::move(id);
      levels_.push_back(std::move(l));
    }
    for (size_t k = from; k <= to; ++k) levels_[k].gens.push_back(h);
    for (size_t k = to + 1; k-- > from;) close(k);
  }

  /// The orbit of level k's base, then its Schreier generators sifted into the levels below.
  void close(size_t k) {
    for (size_t o = 0; o < levels_[k].orbit.size(); ++o)
      for (size_t s = 0; s < levels_[k].gens.size(); ++s) {
        const uint32_t x = levels_[k].orbit[o];
        const uint32_t y = levels_[k].gens[s][x];
        if (levels_[k].trans.count(y)) continue;
        Perm t = then(levels_[k].trans[x], levels_[k].gens[s]);
        levels_[k].trans[y] = std::move(t);
        levels_[k].orbit.push_back(y);
      }
    for (size_t o = 0; o < levels_[k].orbit.size(); ++o)
      for (size_t s = 0; s < levels_[k].gens.size(); ++s) {
        const uint32_t x = levels_[k].orbit[o];
        const Perm& gen = levels_[k].gens[s];
        const Perm sg = then(then(levels_[k].trans[x], gen), inverse(levels_[k].trans[gen[x]]));
        size_t at = 0;
        const Perm h = sift(sg, k + 1, at);
        if (!identity(h)) insert(k + 1, at, h);
      }
  }

  uint32_t n_;
  std::vector<Level> levels_;
};

}  // namespace

namespace {

/// The domains states and moves hold, with the parts of records and optionals.
std::vector<bool> held_domains(const ir::Program& p) {
  std::vector<bool> held(p.domains.size(), false);
  std::function<void(int)> hold = [&](int d) {
    if (d < 0 || held[size_t(d)]) return;
    held[size_t(d)] = true;
    for (int f : p.domains[size_t(d)].fields) hold(f);
    hold(p.domains[size_t(d)].inner);
  };
  for (const ir::StateVar& v : p.vars) {
    for (int k : v.keys) hold(k);
    hold(v.domain);
  }
  for (const ir::Move& m : p.moves)
    for (const auto& param : m.params) hold(param.domain);
  return held;
}

}  // namespace

std::vector<Transform> close_group(const ir::Program& p, const std::vector<Transform>& generators, size_t limit) {
  const std::vector<bool> held = held_domains(p);
  auto flat = [&](const Transform& t) {
    std::vector<uint32_t> key;
    for (size_t d = 0; d < p.domains.size(); ++d)
      if (held[d])
        for (uint32_t i = 0; i < p.domains[d].size; ++i) key.push_back(t.index_map[d].empty() ? i : t.index_map[d][i]);
    for (size_t v = 0; v < p.vars.size(); ++v) key.push_back(uint32_t(t.var(int(v))));
    return key;
  };
  std::vector<Transform> all = {generators.front()};
  std::set<std::vector<uint32_t>> seen = {flat(all.front())};
  for (size_t i = 0; i < all.size() && all.size() <= limit; ++i)
    for (size_t k = 1; k < generators.size() && all.size() <= limit; ++k) {
      Transform x = compose(p, generators[k], all[i]);
      if (seen.insert(flat(x)).second) all.push_back(std::move(x));
    }
  return all;
}

uint64_t group_order(const ir::Program& p, const std::vector<Transform>& generators) {
  // Points: the indices of every domain some generator moves, records and optionals
  // excepted (they follow their parts), then the variables.
  // Only the domains states and moves hold count: a map of the cells that leaves the
  // points alone acts on a game without points as the map of the square it equals.
  const std::vector<bool> held = held_domains(p);
  std::vector<uint32_t> base(p.domains.size(), UINT32_MAX);
  uint32_t n = 0;
  for (size_t d = 0; d < p.domains.size(); ++d) {
    const auto k = p.domains[d].kind;
    if (k == ir::Domain::Kind::Record || k == ir::Domain::Kind::Optional || !held[d]) continue;
    const bool moved = std::any_of(generators.begin(), generators.end(),
                                   [&](const Transform& t) { return d < t.index_map.size() && !t.index_map[d].empty(); });
    if (!moved) continue;
    base[d] = n;
    n += p.domains[d].size;
  }
  const uint32_t vars = n;
  n += uint32_t(p.vars.size());
  StabChain chain(n);
  for (const Transform& t : generators) {
    Perm g(n);
    for (uint32_t i = 0; i < n; ++i) g[i] = i;
    for (size_t d = 0; d < p.domains.size(); ++d)
      if (base[d] != UINT32_MAX && !t.index_map[d].empty())
        for (uint32_t i = 0; i < p.domains[d].size; ++i) g[base[d] + i] = base[d] + t.index_map[d][i];
    for (size_t v = 0; v < p.vars.size(); ++v) g[vars + v] = vars + uint32_t(t.var(int(v)));
    chain.add(g);
  }
  return chain.order();
}

}  // namespace rulebook::explorer
