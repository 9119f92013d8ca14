// Board maps tested on what the rules mean: quantifiers, statements and moves unrolled
// where needed, and the whole program compared with its image under each map.
#include "explorer/symmetry.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "explorer/rule_builder.h"

namespace rulebook::explorer {
namespace semantic {

SigPtr Builder::program() {
  std::vector<SigPtr> parts;
  for (size_t m = 0; m < p_.moves.size(); ++m) parts.push_back(move(int(m)));
  for (const ir::Rule& r : p_.rules)
    if (r.board_rule && r.condition)
      parts.push_back(node(kTagRule, 0, {top(*r.condition, r.locals, tag_of_context(0))}, r.span));
  for (size_t ph = 0; ph < p_.phases.size(); ++ph) {
    const ir::Phase& P = p_.phases[ph];
    std::vector<SigPtr> k;
    Env env = fresh(std::max(P.stuck_locals, P.locals), tag_of_context(1 + int(ph)));
    k.push_back(block(P.stuck, env));
    for (const ir::Transition& t : P.transitions)
      k.push_back(node(kTagParts, t.target, {t.condition ? expr(*t.condition, env) : nullptr}, t.span));
    parts.push_back(node(kTagPhase, int64_t(ph), std::move(k), P.span));
  }
  if (p_.end_when) parts.push_back(top(*p_.end_when, p_.end_locals, tag_of_context(-1)));
  if (p_.score.value) parts.push_back(top(*p_.score.value, p_.score.locals, tag_of_context(-2)));
  return node(kTagProgram, 0, std::move(parts), {});
}

/// The condition of an unrolled element that depends on an outer name only: which
/// elements it selects is known once that name is, so that name is unrolled too.
SigPtr Builder::open_condition(const SigPtr& c, const ir::Expr& where) {
  std::vector<RuleSig::Flag> flags;
  const uint64_t all = moving_;
  for (int id : c->syms) flags.push_back({id, all, where.span});
  return node(kTagParts, 2, {c}, where.span, Kind::Node, std::move(flags));
}

/// The elements of a known domain value, as parts, or false when too many.
bool Builder::elements(const SigPtr& dom, std::vector<SigPtr>& out) {
  if (!dom || dom->kind != Kind::Leaf || dom->error || !dom->type) return false;
  const ir::Type& t = *dom->type;
  if (t.kind == ir::Type::Kind::Set) {
    if (t.domain < 0 || p_.domains[size_t(t.domain)].size > kUnroll) return false;
    for (uint32_t i = 0; i < p_.domains[size_t(t.domain)].size; ++i)
      if (size_t(i / 64) < dom->value.set.size() && ir::test(dom->value.set, i))
        out.push_back(scalar_leaf_of(t.domain, ir::domain_value(p_.domains, t.domain, i)));
    return true;
  }
  if (t.kind == ir::Type::Kind::List && dom->value.list.size() <= kUnroll) {
    for (const Value& v : dom->value.list) out.push_back(leaf(t.elem.get(), v, false, dom->span));
    return true;
  }
  return false;
}

/// A quantifier, aggregate or filter: with its bound name left open, or, when a use of
/// that name does not commute with some map, unrolled over its (known) domain.
SigPtr Builder::quantifier(const ir::Expr& e, Env& env) {
  const bool filter = e.op == ir::Op::Filter;
  const ir::Expr* where = filter || e.args.size() < 2 ? nullptr : e.args[1].get();
  const ir::Expr* body = filter ? e.args[1].get() : e.args.size() > 2 ? e.args[2].get() : nullptr;
  if (size_t(e.slot) >= env.slots.size()) env.slots.resize(size_t(e.slot) + 1);
  SigPtr dom = expr(*e.args[0], env);
  const int id = sym_id(env.tag, e.slot);
  SigPtr saved = env.slots[size_t(e.slot)];
  env.slots[size_t(e.slot)] = nullptr;
  SigPtr w = where ? expr(*where, env) : nullptr;
  SigPtr b = body ? expr(*body, env) : nullptr;
  std::vector<SigPtr> elems;
  SigPtr out;
  if ((flagged(w, id) || flagged(b, id)) && elements(dom, elems)) {
    std::vector<SigPtr> inst;
    for (SigPtr& v : elems) {
      if (over_) break;
      env.slots[size_t(e.slot)] = v;
      SigPtr wi = where ? expr(*where, env) : nullptr;
      if (wi && wi->kind == Kind::Leaf && !wi->error && wi->value.scalar == 0) continue;
      if (wi && wi->kind == Kind::Leaf && !wi->error) wi = nullptr;  // true: no condition
      if (wi && !info(*where).reads) wi = open_condition(wi, *where);
      SigPtr bi = body ? expr(*body, env) : nullptr;
      if (filter && bi && !info(*body).reads) bi = open_condition(bi, *body);
      inst.push_back(node(kTagInstance, 0, {filter ? v : nullptr, wi, bi}, e.span));
    }
    const bool bag = e.op == ir::Op::Count || e.op == ir::Op::Sum;
    if (e.op == ir::Op::All || e.op == ir::Op::Some || e.op == ir::Op::No) {
      // all: and of the instances; some: or; no: not or (each instance where ⇒ body).
      std::vector<SigPtr> terms;
      for (const SigPtr& i : inst) {
        const SigPtr& wi = i->kids[1];
        const SigPtr& bi = i->kids[2];
        terms.push_back(wi ? node(kTagInstance, 0, {nullptr, wi, bi}, e.span) : bi);
      }
      out = junction(e.op == ir::Op::All, std::move(terms), e.span);
      if (e.op == ir::Op::No && truth_of(out) >= 0) out = truth(truth_of(out) == 0);
      else if (e.op == ir::Op::No) out = node(int(ir::Op::Not), 0, {out}, e.span);
      env.slots[size_t(e.slot)] = saved;
      return out;
    }
    if (bag) {
      // A count is a sum of ones (a missing body), and a sum over one name of sums over
      // another is one sum over the pairs: `count s in cells, o in orientations` counts
      // pairs, whichever name is outer.
      std::vector<SigPtr> terms;
      for (const SigPtr& i : inst) {
        const SigPtr& wi = i->kids[1];
        const SigPtr& bi = i->kids[2];
        if (!wi && bi && bi->kind == Kind::Node && bi->tag == kTagUnrolled && bi->a == int64_t(ir::Op::Sum))
          terms.insert(terms.end(), bi->kids[0]->kids.begin(), bi->kids[0]->kids.end());
        else if (!wi && truth_of(bi) == 0 && bi->type && bi->type->domain < 0)
          continue;  // adds 0
        else
          terms.push_back(i);
      }
      out = node(kTagUnrolled, int64_t(ir::Op::Sum), {node(kTagParts, 0, std::move(terms), e.span, Kind::Bag)}, e.span);
    } else {
      out = node(kTagUnrolled, int64_t(e.op), {node(kTagParts, 0, std::move(inst), e.span, Kind::Set)}, e.span);
    }
  } else {
    // A domain known but not unrolled is a set whatever order it was written in.
    if (dom && dom->kind == Kind::Leaf && !dom->error && dom->type && dom->type->kind == ir::Type::Kind::List) {
      std::vector<SigPtr> members;
      elements(dom, members);
      dom = node(kTagParts, 1, std::move(members), e.span, Kind::Set);
    }
    out = node(int(e.op), 0, {dom, w, b}, e.span);
  }
  env.slots[size_t(e.slot)] = saved;
  return out;
}

/// `env` by value: a let binds to the block's end.
SigPtr Builder::block(const ir::Block& blk, Env env) {
  std::vector<SigPtr> parts;
  for (const ir::StmtPtr& s : blk) {
    if (over_) return nullptr;
    switch (s->op) {
      case ir::StmtOp::Assign: {
        std::vector<SigPtr> k;
        for (const auto& key : s->keys) k.push_back(expr(*key, env));
        k.push_back(s->value ? expr(*s->value, env) : nullptr);
        // `+=` and `-=` are arithmetic on the value held: no relabelling of it commutes.
        std::vector<RuleSig::Flag> flags;
        const int vd = p_.vars[size_t(s->var)].domain;
        uint64_t relabelled = 0;
        for (size_t c = 0; c < cands_.size() && c < 64; ++c)
          if (vd >= 0 && size_t(vd) < cands_[c].index_map.size() && !cands_[c].index_map[size_t(vd)].empty())
            relabelled |= uint64_t{1} << c;
        if (s->assign != 0 && relabelled) flags.push_back({-1, relabelled, s->span});
        parts.push_back(node(kTagAssign, int64_t(s->var) * 4 + s->assign + 1, std::move(k), s->span, Kind::Node,
                             std::move(flags)));
        break;
      }
      case ir::StmtOp::If:
        parts.push_back(node(kTagIf, 0, {expr(*s->value, env), block(s->body, env), block(s->otherwise, env)}, s->span));
        break;
      case ir::StmtOp::For:
        parts.push_back(for_loop(*s, env));
        break;
      case ir::StmtOp::Let:
        if (size_t(s->slot) >= env.slots.size()) env.slots.resize(size_t(s->slot) + 1);
        env.slots[size_t(s->slot)] = expr(*s->value, env);
        break;
      case ir::StmtOp::Again: parts.push_back(node(kTagAgain, 0, {}, s->span)); break;
      case ir::StmtOp::End: parts.push_back(node(kTagEnd, 0, {}, s->span)); break;
      case ir::StmtOp::Goto: parts.push_back(node(kTagGoto, s->phase, {}, s->span)); break;
      case ir::StmtOp::Eliminate: parts.push_back(node(kTagEliminate, 0, {expr(*s->value, env)}, s->span)); break;
    }
  }
  // A run of stores of known values at known, distinct places runs in any order: such a run
  // is a set (`covered[c] := true; covered[d] := true;` of a move's instance, whose image
  // stores the same two cells the other way round).
  std::vector<SigPtr> out;
  auto plain_store = [](const SigPtr& a) {
    if (!a || a->kind != Kind::Node || a->tag != kTagAssign || (a->a - 1) % 4 != 0) return false;
    return std::all_of(a->kids.begin(), a->kids.end(),
                       [](const SigPtr& k) { return k && k->kind == Kind::Leaf && !k->error; });
  };
  auto same_place = [](const SigPtr& a, const SigPtr& b) {
    if (a->a != b->a || a->kids.size() != b->kids.size()) return false;
    for (size_t i = 0; i + 1 < a->kids.size(); ++i)
      if (cmp_value(a->kids[i]->value, b->kids[i]->value) != 0) return false;
    return true;
  };
  for (size_t i = 0; i < parts.size();) {
    size_t j = i;
    while (j < parts.size() && plain_store(parts[j]) &&
           std::none_of(parts.begin() + long(i), parts.begin() + long(j),
                        [&](const SigPtr& q) { return same_place(q, parts[j]); }))
      ++j;
    if (j - i >= 2) {
      out.push_back(node(kTagParts, 3, std::vector<SigPtr>(parts.begin() + long(i), parts.begin() + long(j)), {},
                         Kind::Set));
      i = j;
    } else {
      out.push_back(parts[i]);
      ++i;
    }
  }
  return node(kTagBlock, 0, std::move(out), {});
}

bool Builder::iterations_commute(const ir::Stmt& loop) {
  const int slot = loop.slot;
  // What the loop stores: per variable the key position holding the element (-1: added to,
  // -2: stored, at a place the same in every iteration), and the locals the body binds.
  std::map<int, int> stored;
  std::vector<bool> bound;
  auto bind = [&](int sl) {
    if (sl < 0) return;
    if (size_t(sl) >= bound.size()) bound.resize(size_t(sl) + 1, false);
    bound[size_t(sl)] = true;
  };
  bind(slot);
  std::vector<const ir::Expr*> read;  // every expression the loop evaluates
  if (loop.where) read.push_back(loop.where.get());
  std::vector<const ir::Stmt*> invariant;
  std::function<bool(const ir::Block&)> walk = [&](const ir::Block& blk) {
    for (const ir::StmtPtr& st : blk) {
      switch (st->op) {
        case ir::StmtOp::Assign: {
          int at = -1;
          for (size_t i = 0; i < st->keys.size() && at < 0; ++i)
            if (st->keys[i] && st->keys[i]->op == ir::Op::Local && st->keys[i]->slot == slot) at = int(i);
          // Not at the element: the same place and value in every iteration (checked below),
          // added to (-1) or stored (-2), and read nowhere in the loop.
          // One statement each: two (`x := 1` and `x := 2` in the branches of an `if`)
          // would leave the value of whichever iteration came last.
          if (at < 0) {
            at = st->assign != 0 ? -1 : -2;
            for (const ir::Stmt* other : invariant)
              if (other->var == st->var) return false;
            invariant.push_back(st.get());
          } else {
            for (const auto& k : st->keys) read.push_back(k.get());
            read.push_back(st->value.get());
          }
          auto [it, fresh] = stored.emplace(st->var, at);
          if (!fresh && it->second != at) return false;
          break;
        }
        case ir::StmtOp::If:
          read.push_back(st->value.get());
          if (!walk(st->body) || !walk(st->otherwise)) return false;
          break;
        case ir::StmtOp::For:
          read.push_back(st->value.get());
          if (st->where) read.push_back(st->where.get());
          bind(st->slot);
          if (!walk(st->body)) return false;
          break;
        case ir::StmtOp::Let:
          read.push_back(st->value.get());
          bind(st->slot);
          break;
        default:  // again, end, goto, eliminate: what follows depends on which came first
          return false;
      }
    }
    return true;
  };
  if (!walk(loop.body)) return false;
  if (stored.empty()) return true;
  // Reads of what the loop stores, at the element's own keys only, followed into the defines
  // called (a parameter given the element holds it there); can() and built-ins of the state
  // are refused. `elem`: the slots of the frame holding the element; `frame`: 0 the loop's.
  std::function<bool(const ir::Expr&, bool, const std::vector<int>&, int)> reads_ok =
      [&](const ir::Expr& e, bool same_each, const std::vector<int>& elem, int frame) -> bool {
    auto holds_elem = [&](const ir::ExprPtr& a) {
      return a && a->op == ir::Op::Local && std::find(elem.begin(), elem.end(), a->slot) != elem.end();
    };
    for (const auto& a : e.args)
      if (a && !reads_ok(*a, same_each, elem, frame)) return false;
    switch (e.op) {
      case ir::Op::Read: {
        auto it = stored.find(e.var);
        if (it == stored.end()) return true;
        if (it->second < 0 || same_each) return false;
        const size_t at = size_t(it->second);
        return at < e.args.size() && holds_elem(e.args[at]);
      }
      case ir::Op::Can:
        return false;
      case ir::Op::Builtin:
        return dsl::builtin(e.builtin).time == dsl::BuiltinTime::Constant;
      case ir::Op::Local:
        // A place or value the same in every iteration: no local of the loop.
        return !(same_each && frame == 0 && e.slot >= 0 && size_t(e.slot) < bound.size() && bound[size_t(e.slot)]);
      case ir::Op::Call: {
        if (!fn_reads(e.function)) return true;
        const ir::Function& F = p_.functions[size_t(e.function)];
        if (!F.body || frame > 32) return false;
        std::vector<int> inner;
        for (size_t i = 0; i < e.args.size(); ++i)
          if (holds_elem(e.args[i])) inner.push_back(int(i));
        return reads_ok(*F.body, same_each, inner, frame + 1);
      }
      default:
        return true;
    }
  };
  const std::vector<int> element{slot};
  for (const ir::Expr* e : read)
    if (e && !reads_ok(*e, false, element, 0)) return false;
  for (const ir::Stmt* c : invariant) {
    if (!c->value || !reads_ok(*c->value, true, element, 0)) return false;
    for (const auto& k : c->keys)
      if (k && !reads_ok(*k, true, element, 0)) return false;
  }
  return true;
}

SigPtr Builder::for_loop(const ir::Stmt& s, Env& env) {
  // A loop over a set runs in the order of its elements: when its iterations do not
  // commute, a map that reorders those elements is no symmetry of it.
  std::vector<RuleSig::Flag> order;
  const ir::Type* over = s.value ? s.value->type.get() : nullptr;
  if (over && over->kind == ir::Type::Kind::Set && !iterations_commute(s)) {
    uint64_t mask = 0;
    for (size_t c = 0; c < cands_.size() && c < 64; ++c)
      if (maps_domain(cands_[c], over->domain)) mask |= uint64_t{1} << c;
    if (mask) order.push_back({RuleSig::kOrderFlag, mask, s.span});
  }
  SigPtr dom = expr(*s.value, env);
  const int id = sym_id(env.tag, s.slot);
  if (size_t(s.slot) >= env.slots.size()) env.slots.resize(size_t(s.slot) + 1);
  env.slots[size_t(s.slot)] = nullptr;
  SigPtr w = s.where ? expr(*s.where, env) : nullptr;
  SigPtr b = block(s.body, env);
  std::vector<SigPtr> elems;
  if ((flagged(w, id) || flagged(b, id)) && elements(dom, elems)) {
    std::vector<SigPtr> inst;
    for (SigPtr& v : elems) {
      env.slots[size_t(s.slot)] = v;
      SigPtr wi = s.where ? expr(*s.where, env) : nullptr;
      if (wi && wi->kind == Kind::Leaf && !wi->error && wi->value.scalar == 0) continue;
      if (wi && wi->kind == Kind::Leaf && !wi->error) wi = nullptr;
      if (wi && !info(*s.where).reads) wi = open_condition(wi, *s.where);
      inst.push_back(node(kTagInstance, 0, {wi, block(s.body, env)}, s.span));
    }
    env.slots[size_t(s.slot)] = nullptr;
    return node(kTagUnrolled, kTagFor, {node(kTagParts, 0, std::move(inst), s.span, Kind::Set)}, s.span,
                Kind::Node, std::move(order));
  }
  return node(kTagFor, 0, {dom, w, b}, s.span, Kind::Node, std::move(order));
}

SigPtr Builder::move_parts(const ir::Move& m, Env& env) {
  std::vector<SigPtr> req, chk;
  for (const auto& r : m.requires_) req.push_back(expr(*r, env));
  for (const ir::Check& c : m.checks) chk.push_back(node(kTagRule, c.rule, {expr(*c.condition, env)}, c.condition->span));
  return node(kTagMove, 0, {node(kTagParts, 0, std::move(req), m.span, Kind::Set),
                            node(kTagParts, 0, std::move(chk), m.span, Kind::Set), block(m.body, env)},
              m.span);
}

/// A move with its parameters open, or, when a use of one does not commute with some
/// map, as the set of its instances (parameters and what they make of the move).
SigPtr Builder::move(int mi) {
  const ir::Move& m = p_.moves[size_t(mi)];
  const int tag = int(p_.functions.size()) + 1 + mi;
  Env env = fresh(m.locals, tag);
  SigPtr out = node(kTagMove, mi, {move_parts(m, env)}, m.span);
  // Unroll the parameters whose uses do not commute with some map, and then those that
  // this uncovers (a table of a parameter indexed by another), the rest left open.
  std::vector<bool> unrolled(m.params.size(), false);
  for (;;) {
    bool more = false;
    uint64_t count = 1;
    for (size_t i = 0; i < m.params.size(); ++i) {
      if (!unrolled[i] && flagged(out, sym_id(tag, int(i)))) unrolled[i] = more = true;
      if (unrolled[i]) count *= p_.domains[size_t(m.params[i].domain)].size;
    }
    if (!more || count > kMoveInstances || over_) return out;
    // Every parameter unrolled, when they are few enough: an instance is then only what it
    // does (its conditions and effects), so the instances compare as a bag of those, each
    // made by whichever parameters (two cells named in either order); one that can never be
    // played (a condition known false) is left out.
    // Only when the instances fit well within what is left of the budget (estimated from
    // the first one), so that unrolling every parameter never costs a file its maps.
    uint64_t all = 1;
    for (const ir::MoveParam& q : m.params) all *= p_.domains[size_t(q.domain)].size;
    bool whole = all != count && all <= kMoveInstances;
    if (whole) {
      Env e = fresh(m.locals, tag);
      for (size_t i = 0; i < m.params.size(); ++i)
        e.slots[i] = scalar_leaf_of(m.params[i].domain, ir::domain_value(p_.domains, m.params[i].domain, 0));
      const size_t before = built_;
      move_parts(m, e);
      const uint64_t each = std::max<uint64_t>(1, built_ - before);
      whole = !over_ && each * all < (kBudget - std::min(kBudget, built_)) / 4;
    } else {
      whole = all == count;
    }
    if (whole) {
      std::fill(unrolled.begin(), unrolled.end(), true);
      count = all;
    }
    std::vector<SigPtr> inst;
    for (uint64_t k = 0; k < count && !over_; ++k) {
      Env e = fresh(m.locals, tag);
      std::vector<SigPtr> parts;
      uint64_t rest = k;
      std::string args;
      for (size_t i = 0; i < m.params.size(); ++i) {
        if (!unrolled[i]) continue;
        const int d = m.params[i].domain;
        const uint32_t n = p_.domains[size_t(d)].size;
        const int64_t v = ir::domain_value(p_.domains, d, int64_t(rest % n));
        e.slots[i] = scalar_leaf_of(d, v);
        rest /= n;
        if (!whole) parts.push_back(e.slots[i]);
        args += (args.empty() ? "" : ", ") + ir::value_text(p_.domains, d, v);
      }
      SigPtr what = move_parts(m, e);
      if (whole && never_legal(what)) continue;
      parts.push_back(std::move(what));
      inst.push_back(node(kTagInstance, whole ? 1 : 0, std::move(parts), m.span));
      if (whole) instance_args_.emplace(inst.back().get(), std::move(args));
    }
    out = node(kTagMoveUnrolled, mi, {node(kTagParts, 0, std::move(inst), m.span, whole ? Kind::Bag : Kind::Set)},
               m.span);
    if (whole) return out;
  }
}

bool Builder::never_legal(const SigPtr& move_parts) {
  if (!move_parts || move_parts->kids.empty() || !move_parts->kids[0]) return false;
  for (const SigPtr& r : move_parts->kids[0]->kids)
    if (truth_of(r) == 0) return true;
  return false;
}

}  // namespace semantic

RuleImage::RuleImage(const ir::Program& program, const dsl::SourceSet& sources,
                     const std::vector<Transform>& candidates)
    : program_(program), sources_(sources), candidates_(candidates), store_(std::make_unique<SigStore>()) {
  semantic::Builder b(program, sources, candidates_, types_, *store_);
  root_ = b.program();
  instance_args_ = std::move(b.instance_args());
  complete_ = !b.over() && root_;
}

RuleImage::~RuleImage() = default;

std::string RuleImage::check(size_t k) const {
  if (!complete_ || k >= candidates_.size() || k >= 64) return "";
  for (const RuleSig::Flag& f : root_->flags)
    if (((f.mask >> k) & 1) && f.sym == RuleSig::kOrderFlag)
      return "a `for` over a set runs in the order of its elements, which the map changes, and its iterations "
             "are not shown to commute (one stores at keys other than its element, or reads what another may "
             "have stored: " +
             ir::location(sources_, f.span) + ")";
  for (const RuleSig::Flag& f : root_->flags)
    if ((f.mask >> k) & 1)
      return (f.sym < 0 ? std::string("a value read from the state goes through a computation the map does not "
                                      "commute with, such as a coordinate (")
                        : std::string("a computation the map does not commute with, such as a coordinate, of a name "
                                      "whose values depend on the state or are too many to enumerate (")) +
             ir::location(sources_, f.span) + ")";
  std::unordered_map<const RuleSig*, SigPtr> memo;
  SigPtr image = map_sig(program_, root_, candidates_[k], *store_, memo);
  if (image == root_) return "";
  // Down to where the rules and their image part ways, remembering the last located part.
  const RuleSig* a = root_.get();
  const RuleSig* b = image.get();
  const RuleSig* parent = nullptr;
  const RuleSig* located = nullptr;
  while (a && b && a->kind == RuleSig::Kind::Node && b->kind == a->kind && a->kids.size() == b->kids.size()) {
    if (a->has_span) located = a;
    size_t i = 0;
    while (i < a->kids.size() && cmp(a->kids[i], b->kids[i]) == 0) ++i;
    if (i == a->kids.size()) break;
    parent = a;
    a = a->kids[i].get();
    b = b->kids[i].get();
  }
  if (a && a->has_span) located = a;
  const std::string where = located ? ir::location(sources_, located->span) : std::string("the rules");
  // An unrolled move: name an instance whose image is no instance of the move.
  if (parent && parent->tag == semantic::kTagMoveUnrolled && a &&
      (a->kind == RuleSig::Kind::Set || a->kind == RuleSig::Kind::Bag)) {
    for (const SigPtr& x : a->kids) {
      auto it = memo.find(x.get());
      const SigPtr img = it == memo.end() ? x : it->second;
      if (std::find(a->kids.begin(), a->kids.end(), img) != a->kids.end()) continue;
      std::string args;
      if (auto named = instance_args_.find(x.get()); named != instance_args_.end()) args = named->second;
      for (const SigPtr& part : x->kids)
        if (part && part->kind == RuleSig::Kind::Leaf && part->type && part->type->kind == ir::Type::Kind::Scalar)
          args += (args.empty() ? "" : ", ") + ir::value_text(program_.domains, part->type->domain, part->value.scalar);
      return fmt::format("move {}({}) is not carried onto a move of the rules: its conditions or effects "
                         "are not mapped with the board ({})",
                         program_.moves[size_t(parent->a)].name, args, where);
    }
  }
  return fmt::format("a value the rules compute is not mapped onto itself ({})", where);
}

}  // namespace rulebook::explorer
