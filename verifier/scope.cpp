// The set a property ranges over: board rules, move rules and legality as conjuncts,
// move instances and their states after, and the property's value on each instance.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "compiler/interp/interpret.h"
#include "compiler/ir/text.h"
#include "verifier/slice.h"
#include "verifier/verifier_internal.h"

namespace rulebook::verifier {

void conjuncts(const z3::expr& e, std::vector<z3::expr>& out) {
  if (e.is_true()) return;
  if (e.is_app()) {
    const auto k = e.decl().decl_kind();
    if (k == Z3_OP_AND) {
      for (unsigned i = 0; i < e.num_args(); ++i) conjuncts(e.arg(i), out);
      return;
    }
    if (k == Z3_OP_NOT && e.arg(0).is_app() && e.arg(0).decl().decl_kind() == Z3_OP_OR) {
      for (unsigned i = 0; i < e.arg(0).num_args(); ++i) conjuncts(!e.arg(0).arg(i), out);
      return;
    }
    if (k == Z3_OP_IMPLIES) {
      std::vector<z3::expr> inner;
      conjuncts(e.arg(1), inner);
      if (inner.size() != 1 || !z3::eq(inner[0], e.arg(1))) {
        for (const z3::expr& c : inner) out.push_back(z3::implies(e.arg(0), c));
        return;
      }
    }
  }
  out.push_back(e);
}

void disjuncts(const z3::expr& e, std::vector<z3::expr>& out) {
  if (e.is_false()) return;
  if (e.is_app()) {
    const auto k = e.decl().decl_kind();
    if (k == Z3_OP_OR) {
      for (unsigned i = 0; i < e.num_args(); ++i) disjuncts(e.arg(i), out);
      return;
    }
    if (k == Z3_OP_NOT && e.arg(0).is_app() && e.arg(0).decl().decl_kind() == Z3_OP_AND) {
      for (unsigned i = 0; i < e.arg(0).num_args(); ++i) disjuncts(!e.arg(0).arg(i), out);
      return;
    }
  }
  out.push_back(e);
}

z3::expr Scope::domain(z3::context& z3) const {
  z3::expr_vector all(z3);
  for (const Part& p : parts)
    if (p.lit < 0) all.push_back(p.e);
  return all.empty() ? z3.bool_val(true) : z3::mk_and(all);
}

namespace {

/// `x` on the instance `g` (true: on every instance).
z3::expr when(const z3::expr& g, const z3::expr& x) { return g.is_true() ? x : z3::implies(g, x); }

void add_parts(Scope& sc, const z3::expr& cond, int lit = -1) {
  std::vector<z3::expr> cs;
  conjuncts(cond, cs);
  for (const z3::expr& c : cs) sc.parts.push_back(Part{c, lit, std::nullopt});
}

}  // namespace

z3::expr Verifier::board_rule(size_t i) {
  auto it = board_rules_.find(i);
  if (it != board_rules_.end()) return it->second;
  const ir::Rule& r = p_.rules[i];
  const int saved = enc_.overlay();
  enc_.use_overlay(-1);
  Encoder::Frame f(size_t(std::max(r.locals, 1)), nullptr);
  auto [c, err] = enc_.condition(*r.condition, f);
  enc_.use_overlay(saved);
  return board_rules_.emplace(i, c && !err).first->second;
}

std::string Verifier::set_text(const ir::Property& prop) {
  std::string out;
  if (prop.over_moves) {
    std::vector<std::string> names;
    for (int m : prop.moves) names.push_back(p_.moves[size_t(m)].name);
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
      list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    out = "every legal " + list + " from a well-formed state (every board rule" +
          (prop.reachable ? " and every proved invariant holds)" : " holds)");
  } else if (prop.over_play) {
    // Set up as the engines do: given values (`--setup`, then the set's `with`), the rest
    // as seed 1 makes them.
    std::vector<std::pair<std::string, std::string>> given = opt_.setup;
    for (const auto& v : prop.setup) {
      auto it = std::find_if(given.begin(), given.end(), [&](const auto& g) { return g.first == v.first; });
      if (it != given.end()) it->second = v.second;
      else given.push_back(v);
    }
    out = "every state play reaches from the setup (seed 1";
    for (const auto& [name, value] : given) out += fmt::format("; {} = {}", name, value);
    out += ")";
    if (prop.phase >= 0) out += " in phase " + p_.phases[size_t(prop.phase)].name;
  } else {
    out = prop.reachable ? "every state where every board rule and every proved invariant holds"
                         : "every state where every board rule holds";
    if (prop.phase >= 0) out += " in phase " + p_.phases[size_t(prop.phase)].name;
  }
  if (prop.where) out += " and " + std::string(sources_.text(prop.where->span));
  if (std::string setups = prop.over_play ? "" : setup_text(prop); !setups.empty()) out += "; " + setups;
  return out;
}

Scope Verifier::scope(const ir::Property& prop, int mi) {
  Scope sc;
  enc_.use_overlay(-1);
  enc_.mover_override = nullptr;
  enc_.slice = nullptr;
  auto add_rule = [&](const std::string& name, const z3::expr& cond) {
    size_t i = 0;
    while (i < sc.lit_names.size() && sc.lit_names[i] != name) ++i;
    if (i == sc.lit_names.size()) {
      sc.lits.push_back(z3_.bool_const(("rule:" + name).c_str()));
      sc.lit_names.push_back(name);
    }
    add_parts(sc, cond, int(i));
  };
  for (size_t i = 0; i < p_.rules.size(); ++i)
    if (p_.rules[i].board_rule && rules_before_) add_rule(p_.rules[i].name, board_rule(i));
  entry_parts(prop, sc);
  if (prop.phase >= 0) {
    int s = enc_.base_selector(ir::kVarPhase, 0);
    add_parts(sc, enc_.selectors()[size_t(s)].guard[size_t(prop.phase)]);
  }
  sc.frame.assign(size_t(std::max(prop.locals, 1)), nullptr);
  if (prop.over_moves) move_scope(prop, sc, mi, add_rule);
  if (prop.reachable) assume_invariants(sc, nullptr);
  if (prop.where && prop.over_moves) {
    // Over moves, `where` is read on the state before the move (the parameters as their
    // selectors): the board a witness shows is the one it describes, and it is read once,
    // not once per instance.
    enc_.use_overlay(-1);
    auto [c, err] = enc_.condition(*prop.where, sc.frame);
    add_parts(sc, c && !err);
  } else if (prop.where) {
    each_instance(sc, [&](const z3::expr& g) {
      auto [c, err] = enc_.condition(*prop.where, sc.frame);
      add_parts(sc, when(g, c && !err));
    });
  }
  if (opt_.progress)
    opt_.progress(fmt::format("  encoded the set ({} selectors{}) after {:.1f} s", enc_.selectors().size(),
                              sc.inst.empty() ? "" : fmt::format(", {} move instances", sc.inst.size()),
                              std::chrono::duration<double>(Clock::now() - budget_.started).count()));
  return sc;
}

bool Verifier::step_could_split(int m) const {
  const ir::Move& mv = p_.moves[size_t(m)];
  size_t product = 1;
  for (const ir::MoveParam& q : mv.params) product *= p_.domains[size_t(q.domain)].size;
  return !mv.params.empty() && product > kFewInstances && product <= std::min(split_limit_, max_instances_);
}

void Verifier::move_scope(const ir::Property& prop, Scope& sc, int mi,
                          const std::function<void(const std::string&, const z3::expr&)>& add_rule) {
  const int m = prop.moves[size_t(mi)];
  const ir::Move& mv = p_.moves[size_t(m)];
  sc.move = m;
  Encoder::Frame mf(size_t(std::max(mv.locals, int(mv.params.size()) + 1)), nullptr);
  size_t product = 1;
  for (size_t i = 0; i < mv.params.size(); ++i) {
    int s = enc_.fresh_selector(mv.params[i].domain, fmt::format("{}.{}.{}", prop.name, mv.name, mv.params[i].name));
    sc.params.push_back(s);
    mf[i] = enc_.identity(s);
    product *= p_.domains[size_t(mv.params[i].domain)].size;
  }
  const auto& mp = prop.move_params[size_t(mi)];
  for (size_t s = 0; s < mp.size() && s < sc.frame.size(); ++s)
    if (mp[s] >= 0) sc.frame[s] = enc_.identity(sc.params[size_t(mp[s])]);
  int ph = enc_.base_selector(ir::kVarPhase, 0);
  add_parts(sc, enc_.selectors()[size_t(ph)].guard[size_t(mv.phase)]);
  // No move is played once the game is over.
  add_parts(sc, enc_.selectors()[size_t(enc_.base_selector(ir::kVarOver, 0))].guard[0]);
  // Only the statements that can change what is read after the move (the property, its
  // `where`, the board rules) or that can err are run: exact, see slice_body.
  std::set<int> after = extra_reads_;
  if (prop.expr) reads_of(p_, *prop.expr, after);
  if (prop.where) reads_of(p_, *prop.where, after);
  for (const ir::Rule& r : p_.rules)
    if (r.board_rule) reads_of(p_, *r.condition, after);
  // An invariant's step (symbolic_moves_) may range over a superset: a statement that
  // only errs is left out there.
  sc.slice = slice_body(p_, mv.body, after, !symbolic_moves_ && keep_erring_);
  enc_.slice = &sc.slice;
  auto after_rules = [&](const z3::expr& g) {
    if (!legal_after_) return;
    for (const ir::Rule& r : p_.rules) {
      if (!r.board_rule) continue;
      Encoder::Frame f(size_t(std::max(r.locals, 1)), nullptr);
      auto [c, err] = enc_.condition(*r.condition, f);
      add_rule(r.name, when(g, c && !err));
    }
  };
  // split_params_ > 0: only the first parameters are split, the others stay selectors.
  const size_t split = split_params_ > 0 ? std::min(split_params_, mv.params.size()) : mv.params.size();
  size_t split_product = 1;
  for (size_t i = 0; i < split; ++i) split_product *= p_.domains[size_t(mv.params[i].domain)].size;
  if (split_params_ > 0 && split_steps_) product = split_product;
  if (mv.params.empty() || product > std::min(split_limit_, max_instances_) ||
      (symbolic_moves_ && !split_steps_ && product > kFewInstances)) {
    for (const auto& r : mv.requires_) {
      if (!legal_after_) {
        // A superset of the moves is asked: a condition the encoding cannot read with
        // symbolic parameters is left out.
        try {
          auto [c, err] = enc_.condition(*r, mf);
          add_parts(sc, c && !err);
        } catch (const Unsupported&) {
        }
        continue;
      }
      auto [c, err] = enc_.condition(*r, mf);
      add_parts(sc, c && !err);
    }
    for (const ir::Check& c : mv.checks) {
      auto [b, err] = enc_.condition(*c.condition, mf);
      add_rule(p_.rules[size_t(c.rule)].name, b && !err);
    }
    sc.overlay = enc_.new_overlay();
    enc_.use_overlay(sc.overlay);
    enc_.exec(mv.body, mf, z3_.bool_val(true));
    add_parts(sc, !enc_.overlay_at(sc.overlay).err);
    after_rules(z3_.bool_val(true));  // legal: the board rules hold after the move too
    enc_.slice = nullptr;
    return;
  }
  // One instance per parameter tuple: the state after is a substitution of the state
  // before, and the property reads concrete cells.
  std::vector<std::vector<std::pair<z3::expr, z3::expr>>> checks(mv.checks.size());
  for (size_t n = 0; n < product; ++n) {
    // Encoding is part of the property's budget, and a stop ends it too.
    if (n % 64 == 0) {
      if (opt_.stopped()) throw OutOfBudget("the run was interrupted while encoding the move");
      const double spent = std::chrono::duration<double>(Clock::now() - budget_.started).count();
      if (budget_.seconds > 0 && spent > budget_.seconds)
        throw OutOfBudget(fmt::format("the time limit ({:g} s) ran out while encoding move '{}' ({} of its {} "
                                      "instances encoded)",
                                      budget_.seconds, mv.name, n, product));
    }
    // The parameters not split stay selectors (index -1).
    const size_t fixed = split_params_ > 0 && split_steps_ ? split : mv.params.size();
    std::vector<int> index(mv.params.size(), -1);
    size_t rest = n;
    z3::expr_vector gs(z3_);
    for (size_t i = fixed; i-- > 0;) {
      const uint32_t sz = p_.domains[size_t(mv.params[i].domain)].size;
      index[i] = int(rest % sz);
      rest /= sz;
    }
    for (size_t i = 0; i < fixed; ++i) {
      enc_.fix(sc.params[i], index[i]);
      gs.push_back(enc_.selectors()[size_t(sc.params[i])].guard[size_t(index[i])]);
    }
    z3::expr g = gs.size() == 1 ? gs[0] : z3::mk_and(gs);
    enc_.use_overlay(-1);
    z3::expr_vector req(z3_);
    bool impossible = false;
    for (const auto& r : mv.requires_) {
      if (!legal_after_ && fixed < mv.params.size()) {
        // A superset of the moves: a condition not readable with the parameters left
        // symbolic is left out (as for the symbolic instance above).
        try {
          auto [c, err] = enc_.condition(*r, mf);
          z3::expr ok = (c && !err).simplify();
          impossible = impossible || ok.is_false();
          if (impossible) break;
          if (!ok.is_true()) req.push_back(ok);
        } catch (const Unsupported&) {
        }
        continue;
      }
      auto [c, err] = enc_.condition(*r, mf);
      z3::expr ok = (c && !err).simplify();
      impossible = impossible || ok.is_false();
      if (impossible) break;
      if (!ok.is_true()) req.push_back(ok);
    }
    if (impossible) {
      add_parts(sc, !g);
      continue;
    }
    for (size_t i = 0; i < mv.checks.size(); ++i) {
      auto [b, err] = enc_.condition(*mv.checks[i].condition, mf);
      checks[i].emplace_back(g, b && !err);
    }
    int o = enc_.new_overlay();
    enc_.use_overlay(o);
    Encoder::Frame f = mf;
    enc_.exec(mv.body, f, z3_.bool_val(true));
    req.push_back(!enc_.overlay_at(o).err);
    add_parts(sc, when(g, z3::mk_and(req)));
    after_rules(g);
    sc.inst.push_back({g, o, index});
  }
  for (int s : sc.params) enc_.fix(s, -1);
  enc_.use_overlay(-1);
  enc_.slice = nullptr;
  // A move rule that reads no parameter is one condition, not one per instance.
  for (size_t i = 0; i < checks.size(); ++i) {
    const std::string& name = p_.rules[size_t(mv.checks[i].rule)].name;
    bool same = !checks[i].empty();
    for (const auto& [g, c] : checks[i]) same = same && z3::eq(c, checks[i][0].second);
    if (same) add_rule(name, checks[i][0].second);
    else
      for (const auto& [g, c] : checks[i]) add_rule(name, z3::implies(g, c));
  }
}

void Verifier::each_instance(Scope& sc, const std::function<void(const z3::expr&)>& fn) {
  if (sc.inst.empty()) {
    enc_.use_overlay(sc.overlay);
    fn(z3_.bool_val(true));
    return;
  }
  for (const Scope::Instance& in : sc.inst) {
    for (size_t i = 0; i < in.index.size(); ++i) enc_.fix(sc.params[i], in.index[i]);
    enc_.use_overlay(in.overlay);
    fn(in.guard);
  }
  for (int s : sc.params) enc_.fix(s, -1);
}

std::vector<Piece> Verifier::pieces(Scope& sc, const ir::Expr& e, bool with_regroup) {
  std::vector<Piece> out;
  const bool is_bool = e.type->domain == ir::kBoolDomain;
  auto value = [&](const SymP& v) { return is_bool ? enc_.to_bool(v) : enc_.to_int(v); };
  each_instance(sc, [&](const z3::expr& g) {
    enc_.regroup = false;
    enc_.counted_disj = false;
    SymP v = enc_.eval(e, sc.frame);
    Piece pc{g, value(v), value(v), z3_.bool_val(false), enc_.err_of(v)};
    // Regrouping changes the value only where a count over an OR of tables was taken.
    if (with_regroup && enc_.counted_disj) {
      enc_.regroup_pairs.clear();
      enc_.regroup = true;
      SymP r = enc_.eval(e, sc.frame);
      pc.regrouped = value(r);
      enc_.regroup = false;
      if (!enc_.regroup_pairs.empty()) {
        z3::expr_vector pairs(z3_);
        for (const z3::expr& x : enc_.regroup_pairs) pairs.push_back(x);
        pc.overlap = z3::mk_or(pairs);
      } else {
        pc.regrouped = pc.plain;
      }
      enc_.regroup_pairs.clear();
    }
    out.push_back(pc);
  });
  return out;
}

Board Verifier::board(const z3::model& m, const Scope& sc) {
  Board b;
  compiler::Interpreter in(p_, sources_);
  b.state.assign(p_.state_bytes, 0);
  // The setup as the model chose it (bound values have no selectors; a setup value whose
  // every element the model chose is set up with that value), so that what `init` derives
  // from it (a puzzle's givens laid as stones) belongs to the same setup.
  engine::Setup setup;
  setup.values = opt_.setup;
  std::vector<std::vector<uint32_t>> given;
  (void)compiler::setup_overrides(p_, setup, given);
  std::vector<std::vector<uint32_t>> chosen = given;
  for (size_t i = 0; i < p_.setups.size() && i < chosen.size(); ++i) {
    const ir::StateVar& v = p_.vars[size_t(p_.setups[i].var)];
    if (!chosen[i].empty()) continue;
    std::vector<uint32_t> value(v.count, UINT32_MAX);
    for (const Selector& s : enc_.selectors())
      if (s.var == p_.setups[i].var)
        for (size_t k = 0; k < s.guard.size(); ++k)
          if (m.eval(s.guard[k], true).is_true()) value[s.element] = uint32_t(k);
    if (std::find(value.begin(), value.end(), UINT32_MAX) == value.end()) chosen[i] = std::move(value);
  }
  if (!in.setup_indices(b.state.data(), 1, chosen).ok) (void)in.setup_indices(b.state.data(), 1, given);
  for (const Selector& s : enc_.selectors()) {
    if (s.var < 0) continue;
    for (size_t k = 0; k < s.guard.size(); ++k)
      if (m.eval(s.guard[k], true).is_true()) {
        ir::store_index(b.state.data(), p_.vars[size_t(s.var)], s.element, uint32_t(k));
        break;
      }
  }
  b.text = compiler::board_text(p_, b.state.data());
  if (sc.move >= 0) {
    const ir::Move& mv = p_.moves[size_t(sc.move)];
    std::string args;
    for (size_t i = 0; i < sc.params.size(); ++i) {
      const Selector& s = enc_.selectors()[size_t(sc.params[i])];
      for (size_t k = 0; k < s.guard.size(); ++k)
        if (m.eval(s.guard[k], true).is_true())
          args += (i ? ", " : "") + ir::value_text(p_.domains, mv.params[i].domain, s.values[k]);
    }
    engine::Move played;
    played.kind = sc.move;
    for (size_t i = 0; i < sc.params.size() && i < size_t(engine::kMaxMoveArgs); ++i) {
      const Selector& s = enc_.selectors()[size_t(sc.params[i])];
      for (size_t k = 0; k < s.guard.size(); ++k)
        if (m.eval(s.guard[k], true).is_true()) played.args[i] = int32_t(s.values[k]);
    }
    b.played = played;
    int mover = int(ir::load_index(b.state.data(), p_.vars[ir::kVarMover], 0));
    b.move = fmt::format("{} plays {}({})", p_.player_names[size_t(mover)], mv.name, args);
  }
  return b;
}

std::pair<z3::expr, z3::expr> Verifier::value_pair(Scope& sc, const ir::Expr& e) {
  std::vector<Piece> ps = pieces(sc, e, false);
  if (ps.size() == 1) return {ps[0].plain, ps[0].err};
  // Exactly one instance's guard holds.
  const bool is_bool = e.type->domain == ir::kBoolDomain;
  z3::expr_vector vs(z3_), errs(z3_);
  for (const Piece& pc : ps) {
    if (!pc.err.is_false()) errs.push_back(pc.guard && pc.err);
    if (is_bool ? pc.plain.is_false() : z3::eq(pc.plain, z3_.int_val(0))) continue;
    vs.push_back(is_bool ? (pc.guard && pc.plain) : z3::ite(pc.guard, pc.plain, z3_.int_val(0)));
  }
  z3::expr v = vs.empty() ? (is_bool ? z3_.bool_val(false) : z3_.int_val(0)) : is_bool ? z3::mk_or(vs) : z3::sum(vs);
  return {v, errs.empty() ? z3_.bool_val(false) : z3::mk_or(errs)};
}

}  // namespace rulebook::verifier
