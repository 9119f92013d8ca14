// Board symmetries: candidates, the structural and behavioural tests, the group, its action.
#include "explorer/symmetry.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "compiler/runtime/random.h"
#include "explorer/symmetry_graph.h"

namespace rulebook::explorer {
namespace {

using ir::Domain;

/// Fills the maps of records and optionals from those of their parts (identity stays empty).
void complete_maps(const ir::Program& p, std::vector<std::vector<uint32_t>>& maps) {
  std::vector<int> done(p.domains.size(), 0);
  std::function<bool(int)> visit = [&](int d) -> bool {  // true when d's map is not identity
    if (done[size_t(d)]) return !maps[size_t(d)].empty();
    done[size_t(d)] = 1;
    const Domain& dom = p.domains[size_t(d)];
    if (dom.kind == Domain::Kind::Optional) {
      if (visit(dom.inner)) {
        const auto& in = maps[size_t(dom.inner)];
        std::vector<uint32_t> m(dom.size);
        m[0] = 0;
        for (uint32_t i = 1; i < dom.size; ++i) m[i] = in[i - 1] + 1;
        maps[size_t(d)] = std::move(m);
      }
    } else if (dom.kind == Domain::Kind::Record) {
      bool any = false;
      for (int f : dom.fields) any = visit(f) || any;
      if (any) {
        std::vector<uint32_t> m(dom.size);
        for (uint32_t i = 0; i < dom.size; ++i) {
          uint32_t out = 0;
          for (size_t f = 0; f < dom.fields.size(); ++f) {
            const int fd = dom.fields[f];
            uint32_t idx = (i / dom.strides[f]) % p.domains[size_t(fd)].size;
            if (!maps[size_t(fd)].empty()) idx = maps[size_t(fd)][idx];
            out += idx * dom.strides[f];
          }
          m[i] = out;
        }
        maps[size_t(d)] = std::move(m);
      }
    }
    return !maps[size_t(d)].empty();
  };
  for (size_t d = 0; d < p.domains.size(); ++d) visit(int(d));
}

uint32_t map_index(const Transform& t, int d, uint32_t i) {
  if (d < 0 || size_t(d) >= t.index_map.size() || t.index_map[size_t(d)].empty()) return i;
  return t.index_map[size_t(d)][i];
}

bool maps_domain(const Transform& t, int d) {
  return d >= 0 && size_t(d) < t.index_map.size() && !t.index_map[size_t(d)].empty();
}


// ---------------------------------------------------------------- structural test

/// A constant as comparable data, with the transformation applied or not.
using Signature = std::vector<int64_t>;

Signature signature(const ir::Program& p, const ir::Expr& e, const Transform* t) {
  Signature s;
  const int d = e.type ? e.type->domain : -1;
  switch (e.op) {
    case ir::Op::Const: {
      s.push_back(0);
      int64_t idx = ir::domain_index(p.domains, d, e.value);
      if (t && idx >= 0 && maps_domain(*t, d))
        s.push_back(ir::domain_value(p.domains, d, map_index(*t, d, uint32_t(idx))));
      else
        s.push_back(e.value);
      break;
    }
    case ir::Op::ConstSet: {
      s.push_back(1);
      if (t && maps_domain(*t, d)) {
        std::vector<uint64_t> bits(e.bits.size(), 0);
        for (size_t w = 0; w < e.bits.size(); ++w)
          for (uint64_t b = e.bits[w]; b; b &= b - 1) {
            const uint32_t j = map_index(*t, d, uint32_t(w * 64 + size_t(__builtin_ctzll(b))));
            bits[j / 64] |= uint64_t{1} << (j % 64);
          }
        s.insert(s.end(), bits.begin(), bits.end());
      } else {
        s.insert(s.end(), e.bits.begin(), e.bits.end());
      }
      break;
    }
    case ir::Op::ConstList: {
      s.push_back(2);
      for (const auto& a : e.args) {
        Signature sub = signature(p, *a, t);
        s.push_back(int64_t(sub.size()));
        s.insert(s.end(), sub.begin(), sub.end());
      }
      break;
    }
    default:
      s.push_back(-1);
  }
  return s;
}

class StructureWalk {
 public:
  StructureWalk(const ir::Program& p, const dsl::SourceSet& src, const Transform& t)
      : p_(p), src_(src), t_(t) {}

  std::string reason;

  void expr(const ir::Expr* e) {
    if (!e || !reason.empty()) return;
    const int d = e->type ? e->type->domain : -1;
    switch (e->op) {
      case ir::Op::Const:
      case ir::Op::ConstSet:
        if (maps_domain(t_, d) && signature(p_, *e, nullptr) != signature(p_, *e, &t_))
          fail(*e, "a constant of the rules is not mapped onto itself");
        return;
      case ir::Op::ConstList: {
        // As a whole: the transformed members are the members (rows, lines, houses).
        std::vector<Signature> a, b;
        for (const auto& x : e->args) {
          a.push_back(signature(p_, *x, nullptr));
          b.push_back(signature(p_, *x, &t_));
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b) fail(*e, "a constant list of the rules is not mapped onto itself");
        return;
      }
      case ir::Op::At:
        if (e->args.size() == 2 && e->args[0]->op == ir::Op::ConstList && e->args[1]->type) {
          // A table indexed by a cell (a region function): the entry of the image cell is
          // the image of the entry.
          const int kd = e->args[1]->type->domain;
          const ir::Expr& list = *e->args[0];
          if (maps_domain(t_, kd) && list.args.size() == p_.domains[size_t(kd)].size) {
            for (uint32_t i = 0; i < list.args.size(); ++i) {
              if (signature(p_, *list.args[i], &t_) !=
                  signature(p_, *list.args[map_index(t_, kd, i)], nullptr)) {
                fail(*e, "a table indexed by cells is not mapped onto itself");
                return;
              }
            }
            expr(e->args[1].get());
            return;
          }
        }
        break;
      case ir::Op::Builtin:
        if ((e->builtin == dsl::BuiltinId::X || e->builtin == dsl::BuiltinId::Y ||
             e->builtin == dsl::BuiltinId::CellAt) &&
            (maps_domain(t_, ir::kCellDomain) || maps_domain(t_, ir::kPointDomain)))
          fail(*e, "the rules read coordinates");
        break;
      default:
        break;
    }
    for (const auto& a : e->args) expr(a.get());
  }

 private:
  void fail(const ir::Expr& e, const char* what) {
    if (reason.empty()) reason = fmt::format("{} ({})", what, ir::location(src_, e.span));
  }
  const ir::Program& p_;
  const dsl::SourceSet& src_;
  const Transform& t_;
};

// ---------------------------------------------------------------- behavioural test

std::vector<engine::Move> sorted_moves(std::vector<engine::Move> v) {
  std::sort(v.begin(), v.end(), [](const engine::Move& a, const engine::Move& b) {
    return std::memcmp(&a, &b, sizeof(engine::Move)) < 0;
  });
  return v;
}

}  // namespace

/// Element `i` of `var` after the transformation moves its keys.
uint32_t map_element(const ir::Program& p, const Transform& t, const ir::StateVar& var, uint32_t i) {
  uint32_t out = 0, rest = i, scale = 1;
  for (size_t k = var.keys.size(); k-- > 0;) {
    const uint32_t size = p.domains[size_t(var.keys[k])].size;
    out += map_index(t, var.keys[k], rest % size) * scale;
    rest /= size;
    scale *= size;
  }
  return out;
}

bool Transform::is_identity() const {
  for (const auto& m : index_map)
    for (uint32_t i = 0; i < m.size(); ++i)
      if (m[i] != i) return false;
  for (size_t v = 0; v < var_map.size(); ++v)
    if (var_map[v] != int(v)) return false;
  return true;
}

Transform declared_transform(const ir::Program& p, const ir::Symmetry& sym) {
  Transform t;
  t.name = sym.name;
  t.index_map.assign(p.domains.size(), {});
  for (const ir::Symmetry::Swap& sw : sym.swaps) {
    if (sw.kind == ir::Symmetry::Swap::Kind::Value) {
      auto& m = t.index_map[size_t(sw.domain)];
      if (m.empty())
        for (uint32_t i = 0; i < p.domains[size_t(sw.domain)].size; ++i) m.push_back(i);
      const int64_t ia = ir::domain_index(p.domains, sw.domain, sw.a);
      const int64_t ib = ir::domain_index(p.domains, sw.domain, sw.b);
      if (ia >= 0 && ib >= 0) std::swap(m[size_t(ia)], m[size_t(ib)]);
    } else if (sw.kind == ir::Symmetry::Swap::Kind::Var) {
      if (t.var_map.empty())
        for (size_t v = 0; v < p.vars.size(); ++v) t.var_map.push_back(int(v));
      std::swap(t.var_map[size_t(sw.var_a)], t.var_map[size_t(sw.var_b)]);
    }
  }
  complete_maps(p, t.index_map);
  return t;
}

Transform compose(const ir::Program& p, const Transform& a, const Transform& b) {
  Transform ab;
  ab.name = b.name == "identity" ? a.name : a.name == "identity" ? b.name : a.name + " * " + b.name;
  ab.index_map.assign(p.domains.size(), {});
  for (size_t d = 0; d < p.domains.size(); ++d) {
    if (a.index_map[d].empty() && b.index_map[d].empty()) continue;
    ab.index_map[d].resize(p.domains[d].size);
    for (uint32_t i = 0; i < p.domains[d].size; ++i)
      ab.index_map[d][i] = map_index(a, int(d), map_index(b, int(d), i));
  }
  if (!a.var_map.empty() || !b.var_map.empty())
    for (size_t v = 0; v < p.vars.size(); ++v) ab.var_map.push_back(a.var(b.var(int(v))));
  return ab;
}

Transform inverse(const ir::Program& p, const Transform& t) {
  Transform inv;
  inv.name = t.name == "identity" ? t.name : "inverse of " + t.name;
  inv.index_map.assign(p.domains.size(), {});
  for (size_t d = 0; d < p.domains.size() && d < t.index_map.size(); ++d) {
    const auto& m = t.index_map[d];
    if (m.empty()) continue;
    inv.index_map[d].resize(m.size());
    for (uint32_t i = 0; i < m.size(); ++i) inv.index_map[d][m[i]] = i;
  }
  if (!t.var_map.empty()) {
    inv.var_map.resize(t.var_map.size());
    for (size_t v = 0; v < t.var_map.size(); ++v) inv.var_map[size_t(t.var_map[v])] = int(v);
  }
  return inv;
}

bool same_transform(const ir::Program& p, const Transform& a, const Transform& b) {
  for (size_t d = 0; d < p.domains.size(); ++d)
    for (uint32_t i = 0; i < p.domains[d].size; ++i)
      if (map_index(a, int(d), i) != map_index(b, int(d), i)) return false;
  for (size_t v = 0; v < p.vars.size(); ++v)
    if (a.var(int(v)) != b.var(int(v))) return false;
  return true;
}

std::vector<Transform> board_transforms(const ir::Program& p) {
  const int w = p.geometry.width, h = p.geometry.height;
  struct Kind {
    const char* name;
    bool square_only, swaps;
    int (*fx)(int x, int y, int mx, int my);
    int (*fy)(int x, int y, int mx, int my);
  };
  static const Kind kinds[] = {
      {"identity", false, false, [](int x, int, int, int) { return x; }, [](int, int y, int, int) { return y; }},
      {"rotate 90", true, true, [](int, int y, int, int my) { return my - y; }, [](int x, int, int, int) { return x; }},
      {"rotate 180", false, false, [](int x, int, int mx, int) { return mx - x; }, [](int, int y, int, int my) { return my - y; }},
      {"rotate 270", true, true, [](int, int y, int, int) { return y; }, [](int x, int, int mx, int) { return mx - x; }},
      {"mirror rows", false, false, [](int x, int, int, int) { return x; }, [](int, int y, int, int my) { return my - y; }},
      {"mirror columns", false, false, [](int x, int, int mx, int) { return mx - x; }, [](int, int y, int, int) { return y; }},
      {"transpose", true, true, [](int, int y, int, int) { return y; }, [](int x, int, int, int) { return x; }},
      {"anti-transpose", true, true, [](int, int y, int, int my) { return my - y; }, [](int x, int, int mx, int) { return mx - x; }},
  };
  std::vector<Transform> out;
  if (w <= 0 || h <= 0) return out;
  for (const Kind& k : kinds) {
    if (k.square_only && w != h) continue;
    Transform t;
    t.name = k.name;
    t.index_map.assign(p.domains.size(), {});
    if (out.empty()) {  // the identity
      out.push_back(t);
      continue;
    }
    auto grid = [&](int cols, int rows) {
      std::vector<uint32_t> m(size_t(cols * rows));
      for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x)
          m[size_t(y * cols + x)] =
              uint32_t(k.fy(x, y, cols - 1, rows - 1) * cols + k.fx(x, y, cols - 1, rows - 1));
      return m;
    };
    t.index_map[ir::kCellDomain] = grid(w, h);
    if (p.domains[ir::kPointDomain].size == uint32_t((w + 1) * (h + 1)))
      t.index_map[ir::kPointDomain] = grid(w + 1, h + 1);
    if (k.swaps) t.index_map[ir::kOrientationDomain] = {1, 0};
    complete_maps(p, t.index_map);
    out.push_back(std::move(t));
  }
  return out;
}

Transform make_transform(const ir::Program& p, std::string name, std::vector<std::vector<uint32_t>> index_map) {
  Transform t;
  t.name = std::move(name);
  t.index_map = std::move(index_map);
  t.index_map.resize(p.domains.size());
  complete_maps(p, t.index_map);
  return t;
}

void transform_state(const ir::Program& p, const Transform& t, const uint8_t* in, uint8_t* out) {
  std::memcpy(out, in, p.state_bytes);
  for (size_t v = 0; v < p.vars.size(); ++v) {
    const ir::StateVar& var = p.vars[v];
    const ir::StateVar& to = p.vars[size_t(t.var(int(v)))];
    const bool keys_move = std::any_of(var.keys.begin(), var.keys.end(),
                                       [&](int k) { return maps_domain(t, k); });
    if (!keys_move && !maps_domain(t, var.domain) && &to == &var) continue;
    for (uint32_t i = 0; i < var.count; ++i) {
      const uint32_t j = keys_move ? map_element(p, t, var, i) : i;
      ir::store_index(out, to, j, map_index(t, var.domain, ir::load_index(in, var, i)));
    }
  }
}

engine::Move transform_move(const ir::Program& p, const Transform& t, const engine::Move& m) {
  engine::Move out = m;
  if (m.kind < 0) return out;
  const ir::Move& mv = p.moves[size_t(m.kind)];
  for (size_t i = 0; i < mv.params.size() && i < size_t(engine::kMaxMoveArgs); ++i) {
    const int d = mv.params[i].domain;
    if (!maps_domain(t, d)) continue;
    const int64_t idx = ir::domain_index(p.domains, d, m.args[i]);
    if (idx >= 0) out.args[i] = int32_t(ir::domain_value(p.domains, d, map_index(t, d, uint32_t(idx))));
  }
  return out;
}

void for_each_rule_expr(const ir::Program& p, const std::function<void(const ir::Expr*)>& f) {
  std::function<void(const ir::Block&)> block = [&](const ir::Block& b) {
    for (const ir::StmtPtr& s : b) {
      for (const auto& k : s->keys) f(k.get());
      f(s->value.get());
      f(s->where.get());
      block(s->body);
      block(s->otherwise);
    }
  };
  for (const ir::Function& fn : p.functions) f(fn.body.get());
  for (const ir::Rule& r : p.rules) f(r.condition.get());
  for (const ir::Move& m : p.moves) {
    for (const auto& e : m.requires_) f(e.get());
    for (const ir::Check& c : m.checks) f(c.condition.get());
    block(m.body);
  }
  for (const ir::Phase& ph : p.phases) {
    block(ph.stuck);
    for (const ir::Transition& tr : ph.transitions) f(tr.condition.get());
  }
  f(p.end_when.get());
  f(p.score.value.get());
}

/// The test on how the rules are written, for rules too large for RuleImage.
static std::string check_written(const ir::Program& p, const dsl::SourceSet& sources, const Transform& t) {
  StructureWalk w(p, sources, t);
  for_each_rule_expr(p, [&](const ir::Expr* e) { w.expr(e); });
  return w.reason;
}

std::string check_structure(const ir::Program& p, const dsl::SourceSet& sources, const Transform& t) {
  RuleImage image(p, sources, {t});
  return image.complete() ? image.check(0) : check_written(p, sources, t);
}

std::vector<std::vector<uint8_t>> sample_states(const engine::Engine& engine, const uint8_t* root,
                                                int games, size_t limit, uint64_t seed) {
  const size_t bytes = engine.info().state_bytes;
  std::vector<std::vector<uint8_t>> all;
  std::vector<engine::Move> moves;
  for (int g = 0; g < games; ++g) {
    SplitMix64 rng(seed + uint64_t(g));
    std::vector<uint8_t> s(root, root + bytes);
    for (int ply = 0; ply < 2000; ++ply) {
      all.push_back(s);
      moves.clear();
      if (engine.terminal(s.data()) || !engine.legal_moves(s.data(), moves).ok || moves.empty()) break;
      if (!engine.apply(s.data(), moves[rng.below(moves.size())]).ok) break;
    }
  }
  if (all.size() <= limit) return all;
  // Evenly spaced, so late phases stay represented.
  std::vector<std::vector<uint8_t>> out;
  for (size_t i = 0; i < limit; ++i) out.push_back(std::move(all[i * all.size() / limit]));
  return out;
}

std::string check_behaviour(const ir::Program& p, const engine::Engine& e, const Transform& t,
                            const std::vector<std::vector<uint8_t>>& samples, SampleMoves* legal) {
  const size_t bytes = p.state_bytes;
  std::vector<uint8_t> image(bytes), after_image(bytes), image_after(bytes), own_after;
  std::vector<engine::Move> own_moves, image_moves, mapped;
  std::vector<int64_t> sa, sb;
  const std::vector<std::string>& seats = p.domains[ir::kPlayerDomain].members;
  auto seat = [&](int i) { return i >= 0 && size_t(i) < seats.size() ? seats[size_t(i)] : std::string("nobody"); };
  if (legal && legal->known.size() != samples.size()) {
    legal->moves.assign(samples.size(), {});
    legal->after.assign(samples.size(), {});
    legal->known.assign(samples.size(), 0);
  }
  for (size_t n = 0; n < samples.size(); ++n) {
    const uint8_t* s = samples[n].data();
    transform_state(p, t, s, image.data());
    // The state's text only for a difference: drawing it for every sample costs more than
    // the checks.
    auto where = [&] { return fmt::format("in this state (reached by random play):\n{}", e.board_text(s)); };
    if (e.terminal(s) != e.terminal(image.data())) return "the terminal test differs " + where();
    if (e.phase(s) != e.phase(image.data())) return "the phase differs " + where();
    if (map_index(t, ir::kPlayerDomain, uint32_t(e.to_move(s))) != uint32_t(e.to_move(image.data())))
      return "the player to move differs " + where();
    // Scores go with their players (or teams) when the transformation exchanges them.
    if (e.scores(s, sa).ok != e.scores(image.data(), sb).ok || sa.size() != sb.size())
      return "the scores differ " + where();
    const int width = std::max(1, e.info().score_width);
    const int subjects = e.info().score_per_team ? ir::kTeamDomain : ir::kPlayerDomain;
    for (size_t k = 0; k < sa.size(); ++k) {
      const size_t to = map_index(t, subjects, uint32_t(k / size_t(width))) * size_t(width) + k % size_t(width);
      if (to >= sb.size() || sa[k] != sb[to]) return "the scores differ " + where();
    }
    sa.clear();
    sb.clear();
    image_moves.clear();
    // The sample's own moves and the states after some of them, once for all candidates.
    std::vector<engine::Move>& moves = legal ? legal->moves[n] : own_moves;
    std::vector<uint8_t>& played = legal ? legal->after[n] : own_after;
    if (!legal || !legal->known[n]) {
      moves.clear();
      played.clear();
      if (!e.legal_moves(s, moves).ok) return "the engine failed " + where();
      for (size_t i = 0; i < moves.size(); i += std::max<size_t>(1, moves.size() / 12)) {
        const size_t at = played.size();
        played.insert(played.end(), s, s + bytes);
        if (!e.apply(played.data() + at, moves[i]).ok) return "the engine failed " + where();
      }
      if (legal) legal->known[n] = 1;
    }
    if (!e.legal_moves(image.data(), image_moves).ok) return "the engine failed " + where();
    mapped.clear();
    for (const engine::Move& m : moves) mapped.push_back(transform_move(p, t, m));
    // The moves' parameters need not map one by one (a move naming two cells, the upper
    // first, names them the other way in the mirror; a move whose cell only picks a value moves
    // the state alike from several cells): what must correspond is where they lead, the
    // states after every move of the sample mapped against the states after every move of
    // its image, as multisets (paths are counted). Asked when the moves do not map one by
    // one, or a move mapped one by one does not commute with the map.
    auto successors_correspond = [&]() -> std::optional<std::string> {
      if (moves.size() != image_moves.size()) return std::nullopt;
      std::vector<std::string> ours, theirs;  // the states' bytes
      std::vector<uint8_t> next(bytes), mapped_next(bytes);
      for (const engine::Move& m : moves) {
        std::memcpy(next.data(), s, bytes);
        if (!e.apply(next.data(), m).ok) return "the engine failed " + where();
        transform_state(p, t, next.data(), mapped_next.data());
        ours.emplace_back(reinterpret_cast<const char*>(mapped_next.data()), bytes);
      }
      for (const engine::Move& m : image_moves) {
        std::memcpy(next.data(), image.data(), bytes);
        if (!e.apply(next.data(), m).ok) return "the engine failed " + where();
        theirs.emplace_back(reinterpret_cast<const char*>(next.data()), bytes);
      }
      std::sort(ours.begin(), ours.end());
      std::sort(theirs.begin(), theirs.end());
      if (ours != theirs) return std::nullopt;
      return std::string();
    };
    if (sorted_moves(mapped) != sorted_moves(image_moves)) {
      const auto why = successors_correspond();
      if (!why) return "the legal moves do not correspond, nor the states they lead to, " + where();
      if (!why->empty()) return *why;
      continue;
    }
    // Playing a move and then transforming is transforming and then playing its image.
    std::string differs;
    for (size_t i = 0, k = 0; i < moves.size() && differs.empty(); i += std::max<size_t>(1, moves.size() / 12), ++k) {
      const uint8_t* after = played.data() + k * bytes;
      std::memcpy(image_after.data(), image.data(), bytes);
      if (!e.apply(image_after.data(), mapped[i]).ok) return "the engine failed " + where();
      transform_state(p, t, after, after_image.data());
      if (e.to_move(after_image.data()) != e.to_move(image_after.data()))
        differs = fmt::format("the turn order tells them apart: after {} the player to move maps to {}, after {} "
                              "it is {} ", e.move_text(moves[i]), seat(e.to_move(after_image.data())),
                              e.move_text(mapped[i]), seat(e.to_move(image_after.data()))) + where();
      else if (std::memcmp(after_image.data(), image_after.data(), bytes) != 0)
        differs = fmt::format("playing {} and then transforming differs from transforming and then playing {} ",
                              e.move_text(moves[i]), e.move_text(mapped[i])) + where();
    }
    if (!differs.empty()) {
      const auto why = successors_correspond();
      if (!why) return differs;
      if (!why->empty()) return *why;
    }
  }
  return "";
}

SymmetryGroup find_symmetries(const ir::Program& p, const dsl::SourceSet& sources,
                              const engine::Engine& e, const uint8_t* root) {
  SymmetryGroup g;
  std::vector<SymmetryCheck> candidates;
  for (Transform& t : board_transforms(p)) candidates.push_back({std::move(t), false, "", false, {}, false});
  if (candidates.empty())
    candidates.push_back({Transform{"identity", std::vector<std::vector<uint32_t>>(p.domains.size()), {}},
                          false, "", false, {}, false});
  // Beyond the square: automorphisms of the structure the rules compute, relabellings.
  const size_t first_found = candidates.size();
  for (Transform& t : graph_candidates(p, sources, root)) candidates.push_back({std::move(t), false, "", false, {}, false});
  for (Transform& t : label_candidates(p, root)) candidates.push_back({std::move(t), false, "", false, {}, false});
  const std::vector<Transform> seats = seat_candidates(p);
  for (const Transform& t : seats) candidates.push_back({t, false, "", false, {}, false});
  // A map of the board with the two players exchanged: the sides of a game that differ by
  // where they sit (a player moving down the columns and one along the rows under the
  // transpose, or two players owning mirrored areas under the half turn). Two players
  // only: with more, a seat relabelling is a question of the turn order first, which a
  // board map does not change. The maps are the candidates above the first found one.
  const size_t board_maps = p.domains[ir::kPlayerDomain].size == 2 ? first_found : 0;
  for (const Transform& s : seats)
    for (size_t k = 0; k < board_maps; ++k) {
      const Transform& b = candidates[k].transform;
      if (b.is_identity()) continue;
      Transform t = compose(p, b, s);
      t.name = b.name + " with " + s.name;
      candidates.push_back({std::move(t), false, "", false, {}, false});
    }
  if (candidates.size() > 64) candidates.resize(64);  // RuleImage tells at most 64 apart
  for (const ir::Symmetry& s : p.symmetries)
    candidates.push_back({declared_transform(p, s), false, "", true, s.span, false});
  std::vector<Transform> board;
  for (const SymmetryCheck& c : candidates)
    if (!c.declared) board.push_back(c.transform);
  const RuleImage rules_image(p, sources, board);
  std::vector<std::vector<uint8_t>> samples, first_game;
  SampleMoves sample_moves;
  // Generators: the candidates that keep the rules (the identity first).
  std::vector<Transform> generators, found;  // found: the graph and label candidates kept
  for (size_t k = 0; k < candidates.size(); ++k) {
    SymmetryCheck& c = candidates[k];
    if (!generators.empty()) {
      // A declared exchange of labels meets the constants it exchanges in the rules (`if k
      // == red ... if k == blue ...`), which is no fault when the rules treat both alike:
      // only play can tell, and it is checked on more states than a board transformation.
      if (!c.declared)
        c.reason = rules_image.complete() ? rules_image.check(k) : check_written(p, sources, c.transform);
      if (c.reason.empty()) {
        // One game first (the first of the samples' games): most candidates play rejects
        // are rejected there, before the other 23 games are played (on a 9-player board,
        // most of the cost of finding no symmetry at all).
        if (first_game.empty()) first_game = sample_states(e, root, 1, 50, 1);
        c.reason = check_behaviour(p, e, c.transform, first_game, nullptr);
        if (c.reason.empty() && samples.empty()) samples = sample_states(e, root, 24, 400, 1);
        if (c.reason.empty()) c.reason = check_behaviour(p, e, c.transform, samples, &sample_moves);
        if (c.reason.empty() && c.declared) c.reason = check_behaviour(p, e, c.transform, sample_states(e, root, 200, 4000, 2));
      }
      c.refuted = c.declared && !c.reason.empty();
    }
    if (c.reason.empty()) (k >= first_found && !c.declared ? found : generators).push_back(c.transform);
  }
  g.checks = std::move(candidates);
  // The maps of the square and the declared symmetries before those found beyond them.
  const size_t first_found_generator = generators.size();
  generators.insert(generators.end(), found.begin(), found.end());
  // The group they generate, one generator at a time: one that would take the group past
  // its limit is left out, then the elements that fix the initial state (a subgroup). A
  // canonical form costs an image per element and state: a generator found beyond the
  // square joins only while the group stays small (the end classes still use it).
  std::vector<Transform> all = {generators.front()};
  std::vector<Transform> used = {generators.front()};
  std::vector<std::string> too_many;
  std::vector<size_t> limits;  // of each left out
  for (size_t k = 1; k < generators.size(); ++k) {
    std::vector<Transform> gens = used;
    gens.push_back(generators[k]);
    const size_t limit = k < first_found_generator ? kMaxGroup : kMaxFoundGroup;
    std::vector<Transform> closed = close_group(p, gens, limit);
    if (closed.size() > limit) {
      too_many.push_back(generators[k].name);
      limits.push_back(limit);
      continue;
    }
    used = std::move(gens);
    all = std::move(closed);
  }
  if (!too_many.empty())
    g.note = fmt::format("left out of the group, which would grow past {} elements with them ({} for those "
                         "found beyond the square): {}", kMaxGroup, kMaxFoundGroup, fmt::join(too_many, ", "));
  std::vector<uint8_t> image(p.state_bytes);
  for (const Transform& t : all) {
    transform_state(p, t, root, image.data());
    if (std::memcmp(image.data(), root, p.state_bytes) == 0) g.elements.push_back(t);
  }
  if (g.elements.size() == all.size()) g.generators = used;
  for (SymmetryCheck& c : g.checks) {
    if (!c.reason.empty()) continue;
    c.kept = std::any_of(g.elements.begin(), g.elements.end(),
                         [&](const Transform& y) { return same_transform(p, c.transform, y); });
    if (c.kept) continue;
    const size_t out = size_t(std::find(too_many.begin(), too_many.end(), c.transform.name) - too_many.begin());
    c.reason = out < too_many.size() ? fmt::format("a symmetry of the rules, left out of the group used for "
                                                   "counting: with it the group would have more than {} elements",
                                                   limits[out])
                                     : "a symmetry of the rules, but it moves the initial state (its setup)";
  }
  return g;
}

void SymmetryGroup::refutations(dsl::Diagnostics& diags) const {
  for (const SymmetryCheck& c : checks)
    if (c.refuted)
      diags.error(c.span, fmt::format("symmetry '{}' does not map the game onto itself: {}",
                                      c.transform.name, c.reason));
}

}  // namespace rulebook::explorer
