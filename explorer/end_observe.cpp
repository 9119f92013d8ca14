// What the rules observe of a label-keyed variable of records: the cells each value stands
// for (through the defines of one key that compute cells from it) and which keys no fixed
// define tells apart; a map of the board acts on the values through those cells.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "compiler/ir/bits.h"
#include "dsl/builtins.h"
#include "explorer/end_classes.h"

namespace rulebook::explorer {
namespace {

/// Whether `e` reads variable `var` (any state when `var` is -1), following calls.
bool reads(const ir::Program& p, const ir::Expr* e, int var, std::vector<int8_t>& memo) {
  if (!e) return false;
  switch (e->op) {
    case ir::Op::Read:
      if (var < 0 || e->var == var) return true;
      break;
    case ir::Op::Mover:
    case ir::Op::Phase:
    case ir::Op::Can:
      if (var < 0) return true;
      break;
    case ir::Op::Builtin:
      if (var < 0 && dsl::builtin(e->builtin).time != dsl::BuiltinTime::Constant) return true;
      break;
    case ir::Op::Call: {
      int8_t& m = memo[size_t(e->function)];
      if (m < 0) {
        m = 0;  // a (forbidden) recursion reads nothing more
        m = reads(p, p.functions[size_t(e->function)].body.get(), var, memo) ? 1 : 0;
      }
      if (m == 1) return true;
      break;
    }
    default:
      break;
  }
  for (const auto& a : e->args)
    if (reads(p, a.get(), var, memo)) return true;
  return false;
}

bool moved_by_board(const ir::Program& p, int d) {
  for (const Transform& t : board_transforms(p))
    if (size_t(d) < t.index_map.size() && !t.index_map[size_t(d)].empty()) return true;
  return false;
}

bool one_key_define(const ir::Function& f, int key) {
  return f.params.size() == 1 && f.params[0] && f.params[0]->kind == ir::Type::Kind::Scalar &&
         f.params[0]->domain == key;
}

std::vector<uint64_t> flatten(const compiler::interp::Value& v) {
  std::vector<uint64_t> out(v.set.data(), v.set.data() + v.set.size());
  out.push_back(uint64_t(v.scalar));
  for (const compiler::interp::Value& x : v.list) {
    std::vector<uint64_t> sub = flatten(x);
    out.push_back(sub.size());
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

}  // namespace

Observation::Observation(const ir::Program& p, const dsl::SourceSet& sources, const uint8_t* root)
    : program_(p) {
  compiler::Interpreter interp(p, sources);
  compiler::Evaluator ev(interp);
  std::vector<uint8_t> probe(p.state_bytes + 8, 0);
  const uint32_t cell_words = uint32_t(ir::words(p.domains[ir::kCellDomain].size));
  for (size_t v = 0; v < p.vars.size(); ++v) {
    const ir::StateVar& var = p.vars[v];
    if (var.origin != ir::StateVar::Origin::State || var.keys.size() != 1 || var.is_set || var.is_seq) continue;
    const int key = var.keys[0];
    const ir::Domain& kd = p.domains[size_t(key)];
    if ((kd.kind != ir::Domain::Kind::Range && kd.kind != ir::Domain::Kind::Enum) || moved_by_board(p, key) ||
        !moved_by_board(p, var.domain))
      continue;
    ObservedVar ov;
    ov.var = int(v);
    std::vector<int8_t> memo(p.functions.size(), -1);
    for (size_t f = 0; f < p.functions.size(); ++f) {
      const ir::Function& fn = p.functions[f];
      std::fill(memo.begin(), memo.end(), int8_t(-1));
      if (one_key_define(fn, key) && fn.result && fn.result->kind == ir::Type::Kind::Set &&
          fn.result->domain == ir::kCellDomain && reads(p, fn.body.get(), int(v), memo))
        ov.functions.push_back(int(f));
    }
    if (ov.functions.empty()) continue;
    // The cells of every value at every key, on the initial state with only that element
    // changed; a value whose define fails is known by the failure.
    const uint32_t values = p.domains[size_t(var.domain)].size;
    std::vector<std::vector<std::vector<uint64_t>>> cells(kd.size);
    ov.rep.assign(kd.size, std::vector<uint32_t>(values));
    for (uint32_t k = 0; k < kd.size; ++k) {
      std::map<std::vector<uint64_t>, uint32_t> least;
      for (uint32_t x = 0; x < values; ++x) {
        std::copy(root, root + p.state_bytes, probe.begin());
        ir::store_index(probe.data(), var, k, x);
        std::vector<uint64_t> all;
        for (int f : ov.functions) {
          ev.start(probe.data());
          compiler::interp::Value arg, out;
          arg.scalar = ir::domain_value(p.domains, key, k);
          if (!ev.call(f, {arg}, out).ok || out.set.size() != cell_words) {
            all.assign(cell_words * ov.functions.size(), ~uint64_t{0});  // no cell set
            all.push_back(x);  // known only as itself
            break;
          }
          all.insert(all.end(), out.set.data(), out.set.data() + out.set.size());
        }
        ov.rep[k][x] = least.emplace(all, x).first->second;
        cells[k].push_back(std::move(all));
      }
    }
    // Keys alike: every fixed define of one key (a ship's kind, its length) agrees on them.
    // Only when no other state variable is keyed the same: their values move together.
    bool alone = true;
    for (size_t w = 0; w < p.vars.size(); ++w)
      if (w != v && p.vars[w].origin == ir::StateVar::Origin::State &&
          std::find(p.vars[w].keys.begin(), p.vars[w].keys.end(), key) != p.vars[w].keys.end())
        alone = false;
    std::map<std::vector<uint64_t>, std::vector<uint32_t>> groups;
    for (uint32_t k = 0; k < kd.size; ++k) {
      std::vector<uint64_t> sig;
      if (!alone) sig.push_back(k);
      for (size_t f = 0; f < p.functions.size() && alone; ++f) {
        std::fill(memo.begin(), memo.end(), int8_t(-1));
        const ir::Function& fn = p.functions[f];
        if (!one_key_define(fn, key) || reads(p, fn.body.get(), -1, memo)) continue;
        std::copy(root, root + p.state_bytes, probe.begin());
        ev.start(probe.data());
        compiler::interp::Value arg, out;
        arg.scalar = ir::domain_value(p.domains, key, k);
        if (!ev.call(int(f), {arg}, out).ok) {
          sig.push_back(k);  // a failure tells this key apart
          continue;
        }
        std::vector<uint64_t> flat = flatten(out);
        sig.push_back(flat.size());
        sig.insert(sig.end(), flat.begin(), flat.end());
      }
      groups[sig].push_back(k);
    }
    for (auto& g : groups) ov.alike.push_back(std::move(g.second));
    std::sort(ov.alike.begin(), ov.alike.end());
    vars_.push_back(std::move(ov));
    cells_.push_back(std::move(cells));
  }
}

std::vector<std::vector<std::vector<uint32_t>>> Observation::value_maps(const Transform& t, std::string& why) const {
  std::vector<std::vector<std::vector<uint32_t>>> out;
  const std::vector<uint32_t>* cell_map =
      t.index_map.size() > ir::kCellDomain && !t.index_map[ir::kCellDomain].empty() ? &t.index_map[ir::kCellDomain]
                                                                                     : nullptr;
  const uint32_t ncells = program_.domains[ir::kCellDomain].size;
  const size_t cell_words = ir::words(ncells);
  for (size_t o = 0; o < vars_.size(); ++o) {
    const ObservedVar& ov = vars_[o];
    const ir::StateVar& var = program_.vars[size_t(ov.var)];
    out.emplace_back();
    for (size_t k = 0; k < cells_[o].size(); ++k) {
      std::map<std::vector<uint64_t>, uint32_t> by_cells;
      for (uint32_t x = 0; x < cells_[o][k].size(); ++x) by_cells.emplace(cells_[o][k][x], ov.rep[k][x]);
      std::vector<uint32_t> m(cells_[o][k].size());
      for (uint32_t x = 0; x < m.size(); ++x) {
        const std::vector<uint64_t>& c = cells_[o][k][x];
        std::vector<uint64_t> image(c.size(), 0);
        if (c.size() != cell_words * ov.functions.size() || !cell_map) {
          image = c;  // a failure (or the identity) stays as it is
        } else {
          for (size_t f = 0; f < ov.functions.size(); ++f)
            for (uint32_t i = 0; i < ncells; ++i)
              if ((c[f * cell_words + i / 64] >> (i % 64)) & 1) {
                const uint32_t j = (*cell_map)[i];
                image[f * cell_words + j / 64] |= uint64_t{1} << (j % 64);
              }
        }
        auto it = by_cells.find(image);
        if (it == by_cells.end()) {
          if (why.empty())
            why = fmt::format("no value of {}[{}] has the image under {} of the cells of {}", var.name,
                              ir::value_text(program_.domains, var.keys[0], ir::domain_value(program_.domains, var.keys[0], int64_t(k))),
                              t.name, ir::value_text(program_.domains, var.domain, ir::domain_value(program_.domains, var.domain, x)));
          m[x] = x;
        } else {
          m[x] = it->second;
        }
      }
      out.back().push_back(std::move(m));
    }
  }
  return out;
}

std::string Observation::describe(const ir::Program& p) const {
  std::string s;
  for (const ObservedVar& ov : vars_) {
    const ir::StateVar& var = p.vars[size_t(ov.var)];
    std::vector<std::string> fns, groups;
    for (int f : ov.functions) fns.push_back(p.functions[size_t(f)].name);
    for (const auto& g : ov.alike) {
      if (g.size() < 2) continue;
      std::vector<std::string> keys;
      for (uint32_t k : g) keys.push_back(ir::value_text(p.domains, var.keys[0], ir::domain_value(p.domains, var.keys[0], k)));
      groups.push_back(fmt::format("{}", fmt::join(keys, " ")));
    }
    if (!s.empty()) s += "; ";
    s += fmt::format("{} by the cells of {}", var.name, fmt::join(fns, ", "));
    if (!groups.empty()) s += fmt::format(", keys alike (compared as a multiset): {}", fmt::join(groups, ", "));
  }
  return s;
}

}  // namespace rulebook::explorer
