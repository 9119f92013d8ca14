// The encoder's calls, built-ins, `can` and connectivity (statements: encode_stmt.cpp).
#include <algorithm>
#include <functional>
#include <set>
#include <limits>

#include <fmt/format.h>

#include "compiler/ir/int_range.h"
#include "dsl/integers.h"
#include "verifier/encode_internal.h"

namespace rulebook::verifier {

using K = Sym::K;
using ir::Op;
using B = dsl::BuiltinId;

namespace {

SymP bits_sym(const ir::Bits& b, int domain) {
  auto s = std::make_shared<Sym>();
  s->k = K::Bits;
  s->domain = domain;
  s->bits.assign(b.data(), b.data() + b.size());
  return s;
}

bool reads_state(const ir::Expr& e, const std::function<bool(int)>& impure_call) {
  if (e.op == Op::Read || e.op == Op::Mover || e.op == Op::Phase || e.op == Op::Can) return true;
  if (e.op == Op::Builtin && (e.builtin == B::Out || e.builtin == B::Mover || e.builtin == B::Can)) return true;
  if (e.op == Op::Call && impure_call(e.function)) return true;
  for (const auto& a : e.args)
    if (a && reads_state(*a, impure_call)) return true;
  return false;
}

}  // namespace

bool Encoder::pure(int function) {
  if (pure_.empty()) pure_.assign(p_.functions.size(), -1);
  int& known = pure_[size_t(function)];
  if (known < 0) {
    known = 0;  // while being computed (the language has no recursion)
    known = reads_state(*p_.functions[size_t(function)].body, [&](int g) { return !pure(g); }) ? 0 : 1;
  }
  return known == 1;
}

const std::vector<int>* Encoder::read_vars(int function) {
  if (read_vars_known_.empty()) {
    read_vars_known_.assign(p_.functions.size(), false);
    read_vars_.assign(p_.functions.size(), std::nullopt);
  }
  if (!read_vars_known_[size_t(function)]) {
    read_vars_known_[size_t(function)] = true;  // while being computed (no recursion)
    std::set<int> vars;
    bool all = false;
    std::function<void(const ir::Expr&)> walk = [&](const ir::Expr& e) {
      if (e.op == Op::Read) vars.insert(e.var);
      if (e.op == Op::Phase) vars.insert(ir::kVarPhase);
      if (e.op == Op::Can || (e.op == Op::Builtin && (e.builtin == B::Out || e.builtin == B::Can))) all = true;
      if (e.op == Op::Call) {
        const std::vector<int>* inner = read_vars(e.function);
        if (!inner) all = true;
        else vars.insert(inner->begin(), inner->end());
      }
      for (const auto& a : e.args)
        if (a) walk(*a);
    };
    walk(*p_.functions[size_t(function)].body);
    if (!all) read_vars_[size_t(function)] = std::vector<int>(vars.begin(), vars.end());
  }
  return read_vars_[size_t(function)] ? &*read_vars_[size_t(function)] : nullptr;
}

SymP Encoder::builtin_concrete(const ir::Expr& e, const std::vector<SymP>& args) {
  for (const SymP& x : args)
    if (x->k == K::Err) return x;
  const int d = e.type->domain;
  auto cell = [&](size_t i, int64_t& c) {
    c = args[i]->v;
    return c >= 0 && c < m_.cells;
  };
  auto bad = [&](const std::string& what) { return err_sym(where(e.span) + ": " + what); };
  int64_t c = 0;
  switch (e.builtin) {
    case B::Width: return val(m_.width);
    case B::Height: return val(m_.height);
    case B::Cells: return bits_sym(m_.all_cells, d);
    case B::Edge: return bits_sym(m_.edge, d);
    case B::CornerCells: return bits_sym(m_.corner_cells, d);
    case B::InnerPoints: return bits_sym(m_.inner_points, d);
    case B::RimPoints: return bits_sym(m_.rim_points, d);
    case B::Points: {
      ir::Bits b(ir::words(uint32_t(m_.points)), 0);
      for (int i = 0; i < m_.points; ++i) ir::set_bit(b, i);
      return bits_sym(b, d);
    }
    case B::Players:
    case B::Teams: {
      uint32_t n = e.builtin == B::Players ? uint32_t(p_.players) : uint32_t(p_.geometry.teams.size());
      ir::Bits b(ir::words(n), 0);
      for (uint32_t i = 0; i < n; ++i) ir::set_bit(b, i);
      return bits_sym(b, d);
    }
    case B::Rows:
    case B::Columns:
    case B::Lines: {
      const auto& l = e.builtin == B::Rows ? m_.row_sets : e.builtin == B::Columns ? m_.column_sets : m_.line_sets;
      auto out = std::make_shared<Sym>();
      out->k = K::List;
      for (const ir::Bits& v : l) out->items.push_back(bits_sym(v, ir::kCellDomain));
      return out;
    }
    case B::Row: case B::Column: case B::Orth: case B::Diag: case B::King: case B::Corners: {
      if (!cell(0, c)) return bad("not a cell");
      const auto& t = e.builtin == B::Row ? m_.row : e.builtin == B::Column ? m_.column
                    : e.builtin == B::Orth ? m_.orth : e.builtin == B::Diag ? m_.diag
                    : e.builtin == B::King ? m_.king : m_.corners;
      return bits_sym(t[size_t(c)], d);
    }
    case B::Around: {
      int64_t pt = args[0]->v;
      if (pt < 0 || pt >= m_.points) return bad("not a point");
      return bits_sym(m_.around[size_t(pt)], d);
    }
    case B::X:
    case B::Y: {
      if (e.args[0]->type->domain == ir::kPointDomain) {
        int64_t pt = args[0]->v;
        if (pt < 0 || pt >= m_.points) return bad("not a point");
        return val(e.builtin == B::X ? pt % (m_.width + 1) : pt / (m_.width + 1));
      }
      if (!cell(0, c)) return bad("not a cell");
      return val(e.builtin == B::X ? c % m_.width : c / m_.width);
    }
    case B::CellAt: {
      int64_t y = args[0]->v, x = args[1]->v;
      return val(y >= 0 && y < m_.height && x >= 0 && x < m_.width ? y * m_.width + x : ir::kNone);
    }
    case B::Segment:
    case B::Ends: {
      if (!cell(0, c)) return bad("not a cell");
      const int64_t o = args[1]->v, n = args[2]->v;
      ir::Bits out(ir::words(uint32_t(m_.cells)), 0);
      const int64_t x = c % m_.width, y = c / m_.width, dx = o == 0 ? 1 : 0, dy = o == 0 ? 0 : 1;
      if (n > 0 && (o == 0 ? n <= m_.width - x : n <= m_.height - y))  // any n: no overflow
        for (int64_t i = 0; i < n; ++i)
          if (e.builtin == B::Segment || i == 0 || i == n - 1) ir::set_bit(out, (y + dy * i) * m_.width + x + dx * i);
      return bits_sym(out, d);
    }
    case B::Abs: {
      int64_t r = 0;
      if (const char* failure = integers::abs(args[0]->v, r)) return err_sym(where(e.span) + ": " + failure);
      return val(r);
    }
    case B::Min: return val(std::min(args[0]->v, args[1]->v));
    case B::Max: return val(std::max(args[0]->v, args[1]->v));
    case B::Seat:
    case B::Next:
    case B::TeamOf:
    case B::Members: {
      int64_t q = args[0]->v;
      if (e.builtin == B::Members) {
        if (q < 0 || size_t(q) >= p_.geometry.teams.size()) return bad("not a team");
        ir::Bits b(ir::words(uint32_t(p_.players)), 0);
        for (int m : p_.geometry.teams[size_t(q)]) ir::set_bit(b, m);
        return bits_sym(b, d);
      }
      if (q < 0 || q >= p_.players) return bad("not a player");
      if (e.builtin == B::Seat) return val(q + 1);
      if (e.builtin == B::Next) return val((q + 1) % p_.players);
      for (size_t t = 0; t < p_.geometry.teams.size(); ++t)
        for (int m : p_.geometry.teams[t])
          if (m == q) return val(int64_t(t));
      return bad(p_.player_names[size_t(q)] + " is in no team");
    }
    case B::Horizontal: return val(0);
    case B::Vertical: return val(1);
    default: throw Unsupported(where(e.span) + ": built-in '" + std::string(dsl::builtin(e.builtin).name) + "' on values computed from the state");
  }
}

SymP Encoder::builtin(const ir::Expr& e, Frame& f) {
  const auto& a = e.args;
  if (e.builtin == B::Mover) return mover_override ? mover_override : read_slot(ir::kVarMover, 0);
  if (e.builtin == B::Size) {
    // size(components(S)), also through a define without parameters whose value is
    // components(S) (`islands`, counted as `size(islands)`): its set in the define's frame.
    const ir::Function* via = nullptr;
    if (const ir::Expr* comp = components_of(*a[0], &via)) {
      Frame own(size_t(std::max(via ? via->locals : 0, 1)), nullptr);
      SymP s = resolve(eval(*comp->args[0], via ? own : f));
      if (!concrete(*s)) return components_count(s);
    } else if (count_changes && overlay_ >= 0) {
      if (SymP r = size_as_change(e, f)) return r;
    }
  }
  std::vector<SymP> args;
  for (const auto& x : a) args.push_back(resolve(eval(*x, f)));
  if (e.builtin == B::Size) {
    SymP s = args[0];
    if (s->k == K::List) return val(int64_t(s->items.size()));
    if (s->k == K::Bits) return val(ir::count(ir::Bits(s->bits)));
    if (s->k == K::Table) {
      std::vector<SymP> out;
      for (const SymP& x : s->items) out.push_back(x->k == K::Err ? x : val(ir::count(ir::Bits(x->bits))));
      return from_table(s->sel, std::move(out), e.type);
    }
    SymP el = set_elements(s, a[0]->type->domain);
    return with_err(sum_items(el->items, e), err_of(el));
  }
  if (e.builtin == B::Out)
    return split(args[0], e.type, [&](const SymP& q) -> SymP {
      if (q->k == K::Err) return q;
      if (q->v < 0 || q->v >= p_.players) return err_sym(where(e.span) + ": not a player");
      return read_slot(ir::kVarOut, uint32_t(q->v));
    });
  if (e.builtin == B::Components || e.builtin == B::LargestGroup) {
    SymP s = args[0];
    auto groups = [&](const Sym& set) { return m_.groups(set.bits); };
    auto one = [&](const SymP& set) -> SymP {
      if (set->k == K::Err) return set;
      auto gs = groups(*set);
      if (e.builtin == B::LargestGroup) {
        int64_t best = 0;
        for (const auto& g : gs) best = std::max(best, ir::count(g));
        return val(best);
      }
      auto out = std::make_shared<Sym>();
      out->k = K::List;
      for (const auto& g : gs) out->items.push_back(bits_sym(g, ir::kCellDomain));
      return out;
    };
    if (s->k == K::Bits) return one(s);
    if (s->k == K::Table && e.builtin == B::LargestGroup) {
      std::vector<SymP> out;
      for (const SymP& x : s->items) out.push_back(one(x));
      return from_table(s->sel, std::move(out), e.type);
    }
    if (e.builtin == B::LargestGroup) return largest_lazy(s);
    throw Unsupported(where(e.span) + ": '" + std::string(dsl::builtin(e.builtin).name) +
                      "' of a set computed from the state (encoded: size(components(S)), largest_group(S), and count, "
                      "all, some and no over components(S) whose conditions read a component only by its size)");
  }
  if (e.builtin == B::Abs || e.builtin == B::Min || e.builtin == B::Max) {
    bool raw = false;
    for (const SymP& x : args) raw = raw || (x->k != K::Val && x->k != K::Table && x->k != K::Err);
    if (raw || (args.size() == 2 && args[0]->k == K::Table && args[1]->k == K::Table && args[0]->sel != args[1]->sel)) {
      z3::expr err = z3_.bool_val(false);
      for (const SymP& x : args) err = err || err_of(x);
      z3::expr x = to_int(args[0]);
      if (e.builtin == B::Abs) {
        // abs(INT64_MIN) does not fit: the engines' overflow error.
        if (!compiler::cannot_overflow(p_, e)) err = err || x == z3_.int_val(std::numeric_limits<int64_t>::min());
        return with_err(integer(z3::ite(x < 0, -x, x)), err.simplify());
      }
      z3::expr y = to_int(args[1]);
      return with_err(integer(e.builtin == B::Min ? z3::ite(x < y, x, y) : z3::ite(x > y, x, y)), err.simplify());
    }
  }
  std::function<SymP(size_t, std::vector<SymP>&)> go = [&](size_t i, std::vector<SymP>& cs) -> SymP {
    if (i == args.size()) return builtin_concrete(e, cs);
    return split(args[i], e.type, [&](const SymP& c) -> SymP {
      cs.push_back(c);
      SymP r = go(i + 1, cs);
      cs.pop_back();
      return r;
    });
  };
  std::vector<SymP> cs;
  return go(0, cs);
}

namespace {

/// Appends a value to a memo key: constants by value, anything else by address (kept alive
/// in `keep`, so an address is never reused for another value).
void key_of(const SymP& s, std::vector<int64_t>& out, std::vector<SymP>& keep) {
  switch (s->k) {
    case K::Val:
      out.push_back(0);
      out.push_back(s->v);
      return;
    case K::Bits:
      out.push_back(1 + int64_t(s->bits.size()));
      out.insert(out.end(), s->bits.begin(), s->bits.end());
      return;
    default:
      keep.push_back(s);
      out.push_back(-1);
      out.push_back(int64_t(reinterpret_cast<intptr_t>(s.get())));
  }
}

}  // namespace

SymP Encoder::call(const ir::Expr& e, Frame& f) {
  const ir::Function& fn = p_.functions[size_t(e.function)];
  std::vector<SymP> args;
  for (size_t i = 0; i < e.args.size(); ++i) {
    SymP x = resolve(eval(*e.args[i], f));
    if (e.args[i]->type->kind == ir::Type::Kind::Set) x = convert_set(x, e.args[i]->type->domain, fn.params[i]->domain);
    args.push_back(x);
  }
  // The arguments are evaluated before the body runs: where one errs, the call errs, even
  // when the body never reads that parameter.
  // (Built only when an argument can err: calls are many, inside expanded quantifiers.)
  std::optional<z3::expr> arg_err;
  for (const SymP& x : args) {
    if (x->k == K::Err) return x;
    if (x->err) arg_err = arg_err ? (*arg_err || *x->err) : *x->err;
  }
  auto checked = [&](const SymP& r) { return arg_err ? with_err(r, arg_err->simplify()) : r; };
  // A pure function of concrete arguments is a constant: memoised on the values alone
  // (the common case inside expanded quantifiers, so the key is cheap to build).
  if (pure(e.function)) {
    std::vector<int64_t> key{e.function};
    bool plain = true;
    for (const SymP& x : args) {
      if (x->err || (x->k != K::Val && x->k != K::Bits)) {
        plain = false;
        break;
      }
      key.push_back(x->k == K::Val ? 0 : int64_t(x->bits.size()) + 1);
      if (x->k == K::Val) key.push_back(x->v);
      else key.insert(key.end(), x->bits.begin(), x->bits.end());
    }
    if (plain) {
      auto it = pure_memo_.find(key);
      if (it != pure_memo_.end()) return it->second;
      Frame nf(size_t(std::max(fn.locals, int(args.size()))), nullptr);
      for (size_t i = 0; i < args.size(); ++i) nf[i] = args[i];
      SymP r = eval(*fn.body, nf);
      if (fn.body->type->kind == ir::Type::Kind::Set) r = convert_set(r, fn.body->type->domain, fn.result->domain);
      pure_memo_.emplace(std::move(key), r);
      return r;
    }
  }
  auto body = [&](const std::vector<SymP>& xs) -> SymP {
    // A pure function reads no state: its value is the same under every overlay. Any other
    // is memoised on the overlay as it is now, since a body stores into it: on the stores
    // so far into the variables it reads (into any, when it reads more than variables).
    const bool stateless = pure(e.function);
    std::vector<int64_t> key{e.function, stateless ? -2 : overlay_, (regroup ? 1 : 0) + (abstract ? 2 : 0)};
    if (!stateless && overlay_ >= 0) {
      const Overlay& o = overlays_[size_t(overlay_)];
      if (const std::vector<int>* vars = read_vars(e.function)) {
        for (int v : *vars) {
          auto it = o.var_versions.find(v);
          key.push_back(it == o.var_versions.end() ? 0 : int64_t(it->second));
        }
      } else {
        key.push_back(int64_t(o.version));
      }
    }
    std::vector<SymP> keep;
    for (const SymP& x : xs) key_of(x, key, keep);
    if (mover_override) key_of(mover_override, key, keep);
    auto context = [&](const std::vector<int>& deps) {
      std::vector<int64_t> k = key;
      k.push_back(-3);
      for (int d : deps) {
        k.push_back(d);
        k.push_back(fixed_[size_t(d)]);
        k.push_back(care_[size_t(d)]);
      }
      return k;
    };
    auto dit = memo_deps_.find(key);
    if (dit != memo_deps_.end())
      for (const auto& deps : dit->second) {
        auto it = memo_.find(context(deps));
        if (it != memo_.end()) {
          if (touched_) touched_->insert(touched_->end(), deps.begin(), deps.end());
          // The regrouped sums inside the value still need their parts to be exclusive.
          regroup_pairs.insert(regroup_pairs.end(), it->second.pairs.begin(), it->second.pairs.end());
          counted_disj = counted_disj || it->second.counted_disj;
          return it->second.value;
        }
      }
    Frame nf(size_t(std::max(fn.locals, int(xs.size()))), nullptr);
    for (size_t i = 0; i < xs.size(); ++i) nf[i] = xs[i];
    std::vector<int> deps, *outer = touched_;
    touched_ = &deps;
    // Restored however the body ends: an Unsupported thrown below must not leave the
    // encoder pointing at this frame's vector when it encodes the next property.
    struct Restore {
      std::vector<int>*& slot;
      std::vector<int>* value;
      ~Restore() { slot = value; }
    } restore{touched_, outer};
    const size_t pairs_before = regroup_pairs.size();
    const bool counted_before = counted_disj;
    counted_disj = false;
    SymP r = eval(*fn.body, nf);
    if (fn.body->type->kind == ir::Type::Kind::Set) r = convert_set(r, fn.body->type->domain, fn.result->domain);
    touched_ = outer;
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    if (touched_) touched_->insert(touched_->end(), deps.begin(), deps.end());
    keep_.insert(keep_.end(), keep.begin(), keep.end());
    auto& known = memo_deps_[key];
    if (std::find(known.begin(), known.end(), deps) == known.end()) known.push_back(deps);
    memo_.emplace(context(deps), Memo{r, std::vector<z3::expr>(regroup_pairs.begin() + long(pairs_before), regroup_pairs.end()),
                                      counted_disj});
    counted_disj = counted_disj || counted_before;
    return r;
  };
  // Arguments that depend on the state: one selector (or a few small choices) is split
  // into concrete calls; anything larger is passed on symbolically.
  std::vector<size_t> open;
  size_t product = 1;
  bool scalar_only = true;
  for (size_t i = 0; i < args.size(); ++i) {
    if (concrete(*args[i])) continue;
    open.push_back(i);
    scalar_only = scalar_only && (args[i]->k == K::Table || args[i]->k == K::Cases) &&
                  e.args[i]->type->kind == ir::Type::Kind::Scalar;
    product *= args[i]->k == K::Table ? args[i]->items.size() : args[i]->cases.size();
  }
  if (open.empty() || !scalar_only || (open.size() > 1 && product > 256)) return checked(body(args));
  std::function<SymP(size_t)> go = [&](size_t j) -> SymP {
    if (j == open.size()) return body(args);
    const size_t i = open[j];
    SymP saved = args[i];
    SymP r = split(saved, e.type, [&](const SymP& c) -> SymP {
      if (c->k == K::Err) return c;
      args[i] = c;
      return go(j + 1);
    });
    args[i] = saved;
    return r;
  };
  return checked(go(0));
}

SymP Encoder::can(int m, const SymP& player) {
  const ir::Move& mv = p_.moves[size_t(m)];
  bool board_rules = false;
  for (const ir::Rule& r : p_.rules) board_rules = board_rules || r.board_rule;
  if (board_rules) throw Unsupported(where(mv.span) + ": can(" + mv.name + ") in a game with board rules");
  size_t product = 1;
  for (const ir::MoveParam& q : mv.params) product *= p_.domains[size_t(q.domain)].size;
  if (product > 100000) throw Unsupported(where(mv.span) + ": can(" + mv.name + ") over too many instances");
  SymP saved = mover_override;
  mover_override = player;
  SymP any = false_;
  std::vector<uint32_t> idx(mv.params.size(), 0);
  for (size_t n = 0; n < product; ++n) {
    Frame fr(size_t(std::max(mv.locals, int(mv.params.size()))), nullptr);
    size_t rest = n;
    for (size_t i = mv.params.size(); i-- > 0;) {
      const uint32_t sz = p_.domains[size_t(mv.params[i].domain)].size;
      fr[i] = val(ir::domain_value(p_.domains, mv.params[i].domain, int64_t(rest % sz)));
      rest /= sz;
    }
    SymP ok = true_;
    for (const auto& r : mv.requires_) ok = s_and(ok, eval(*r, fr));
    for (const auto& c : mv.checks) ok = s_and(ok, eval(*c.condition, fr));
    any = s_or(any, ok);
  }
  mover_override = saved;
  return any;
}

const ir::Expr* Encoder::components_of(const ir::Expr& e, const ir::Function** via) const {
  *via = nullptr;
  const ir::Expr* comp = &e;
  if (comp->op == Op::Call && comp->args.empty()) {
    const ir::Function& fn = p_.functions[size_t(comp->function)];
    if (fn.params.empty() && fn.body && fn.body->op == Op::Builtin && fn.body->builtin == B::Components) {
      *via = &fn;
      comp = fn.body.get();
    }
  }
  return comp->op == Op::Builtin && comp->builtin == B::Components ? comp : nullptr;
}

namespace {

/// `e` reads local `slot` only as the argument of size(...).
bool reads_only_size_of(const ir::Expr& e, int slot) {
  if (e.op == Op::Local && e.slot == slot) return false;
  if (e.op == Op::Builtin && e.builtin == B::Size && e.args.size() == 1 && e.args[0]->op == Op::Local &&
      e.args[0]->slot == slot)
    return true;
  for (const auto& x : e.args)
    if (x && !reads_only_size_of(*x, slot)) return false;
  return true;
}

}  // namespace

std::vector<int> Encoder::first_connected(const std::vector<int>& group, size_t m) const {
  // Breadth first from the group's first cell, within the group.
  std::vector<int> out{group.front()};
  std::vector<char> seen(size_t(m_.cells), 0), inside(size_t(m_.cells), 0);
  for (int c : group) inside[size_t(c)] = 1;
  seen[size_t(group.front())] = 1;
  for (size_t i = 0; i < out.size() && out.size() < m; ++i)
    for (int d = 0; d < m_.cells && out.size() < m; ++d)
      if (inside[size_t(d)] && !seen[size_t(d)] && ir::test(m_.orth[size_t(out[i])], d)) {
        seen[size_t(d)] = 1;
        out.push_back(d);
      }
  return out;
}

SymP Encoder::components_aggregate(const ir::Expr& e, Frame& f, const SymP& set) {
  // The condition (and body) read a component only through its size, so their value for
  // every component of n cells is their value for any set of n cells: one table per size,
  // computed here, with the first n cells standing in. Anything else they read must be
  // known here (a constant, a setup fixed, an enclosing loop's value).
  const ir::Expr* where_e = e.args[1].get();
  const ir::Expr* body_e = e.args.size() > 2 ? e.args[2].get() : nullptr;
  const std::string what = fmt::format("{}: a condition on the components of a set computed from the state", where(e.span));
  if ((where_e && !reads_only_size_of(*where_e, e.slot)) || (body_e && !reads_only_size_of(*body_e, e.slot)))
    throw Unsupported(what + " that reads a component otherwise than by its size(...)");
  auto truth = [&](const ir::Expr& x) {
    SymP r = resolve(eval(x, f));
    if (r->k != K::Val || r->err) throw Unsupported(what + " that reads the state, or may fail");
    return r->v != 0;
  };
  const int n = m_.cells;
  std::vector<char> by_size(size_t(n) + 1, 0);
  const SymP saved = f[size_t(e.slot)];
  ir::Bits first(ir::words(uint32_t(n)), 0);
  for (int size = 1; size <= n; ++size) {
    ir::set_bit(first, size - 1);
    f[size_t(e.slot)] = bits_sym(first, ir::kCellDomain);
    const bool w = !where_e || truth(*where_e);
    const bool b = !body_e || truth(*body_e);
    // count: where holds; some, no: where and body hold; all: where holds and body fails.
    by_size[size_t(size)] = e.op == Op::All ? (w && !b) : (w && b);
  }
  f[size_t(e.slot)] = saved;
  SymP count = components_count(set, std::move(by_size));
  if (e.op == Op::Count) return count;
  // All and no hold when the count is 0, some when it is not (its cases: value 0 first;
  // a constant when no size is counted).
  if (count->k == K::Val) return with_err(val((count->v == 0) != (e.op == Op::Some) ? 1 : 0), err_of(count));
  const z3::expr zero = count->cases.at(0).second;
  return with_err(boolean(e.op == Op::Some ? !zero : zero), err_of(count));
}

SymP Encoder::fresh_lazy(const SymP& el, const char* name, LazyCount& lc, z3::expr_vector& any) {
  // One-hot over 0..cells (a number of few values is propositional, and the SAT-based
  // solver keeps its own reasoning on sums of conditions; an integer would send those to
  // arithmetic circuits).
  const int id = fresh_++;
  z3::expr_vector all(z3_);
  for (int c = 0; c < m_.cells; ++c) {
    lc.in.push_back(to_bool(el->items[size_t(c)]));
    if (!lc.in.back().is_false()) any.push_back(lc.in.back());
  }
  auto out = std::make_shared<Sym>();
  out->k = Sym::K::Cases;
  for (int v = 0; v <= m_.cells; ++v) {
    lc.is.push_back(z3_.bool_const(fmt::format("{}{}={}", name, id, v).c_str()));
    count_ids_.insert(lc.is.back().id());
    all.push_back(lc.is.back());
    out->cases.emplace_back(v, lc.is.back());
  }
  count_facts_.push_back(z3::mk_or(all));
  count_facts_.push_back(z3::atmost(all, 1));
  return out;
}

SymP Encoder::components_count(const SymP& s, std::vector<char> by_size) {
  // A fresh number, refined lazily by cuts (component_cuts): an exact encoding (a label
  // and a distance per cell) puts integer orderings over every cell into each question,
  // which the solvers search slowly; without them, a model's count is checked against
  // its set and cut off when wrong.
  // The cuts would join the facts of every later question: not generalised.
  if (abstract) throw Unsupported("components of a set computed from the state, generalised");
  SymP el = set_elements(s, ir::kCellDomain);
  if (!by_size.empty()) {
    // Every size counted: the plain count (with its stronger cuts); none: 0.
    const bool every = std::all_of(by_size.begin() + 1, by_size.end(), [](char c) { return c != 0; });
    const bool none = std::none_of(by_size.begin() + 1, by_size.end(), [](char c) { return c != 0; });
    if (every) by_size.clear();
    else if (none) return with_err(val(0), err_of(el));
  }
  LazyCount lc;
  lc.by_size = std::move(by_size);
  z3::expr_vector any(z3_);
  SymP out = fresh_lazy(el, "components", lc, any);
  const z3::expr nonempty = any.empty() ? z3_.bool_val(false) : z3::mk_or(any);
  // No component in an empty set; a component counted has a cell.
  count_facts_.push_back(lc.by_size.empty() ? lc.is[0] == !nonempty : z3::implies(!nonempty, lc.is[0]));
  // Components of some sizes only, the smallest k: v of them hold at least k * v cells.
  if (!lc.by_size.empty()) {
    const size_t k = lc.smallest();
    for (size_t v = 1; v < lc.is.size(); ++v)
      count_facts_.push_back(z3::implies(lc.is[v], k * v > any.size() ? z3_.bool_val(false) : z3::atleast(any, unsigned(k * v))));
  }
  // The cuts of single cells, known in advance: in a connected set of two or more cells,
  // each cell has a neighbour in the set.
  if (lc.by_size.empty() && any.size() >= 2) {
    const z3::expr connected_pair = (lc.is[0] || lc.is[1]) && z3::atleast(any, 2);
    for (int c = 0; c < m_.cells; ++c) {
      if (lc.in[size_t(c)].is_false()) continue;
      z3::expr_vector nb(z3_);
      for (int d = 0; d < m_.cells; ++d)
        if (ir::test(m_.orth[size_t(c)], d) && !lc.in[size_t(d)].is_false()) nb.push_back(lc.in[size_t(d)]);
      count_facts_.push_back(z3::implies(connected_pair && lc.in[size_t(c)], nb.empty() ? z3_.bool_val(false) : z3::mk_or(nb)));
    }
  }
  lazy_counts_.push_back(std::move(lc));
  return with_err(out, err_of(el));
}

SymP Encoder::largest_lazy(const SymP& s) {
  // As a count of components (components_count), with facts and cuts of its own.
  if (abstract) throw Unsupported("the largest group of a set computed from the state, generalised");
  SymP el = set_elements(s, ir::kCellDomain);
  LazyCount lc;
  lc.largest = true;
  z3::expr_vector any(z3_);
  SymP out = fresh_lazy(el, "largest", lc, any);
  // 0 exactly when the set is empty; a group of v cells needs v cells in the set.
  count_facts_.push_back(lc.is[0] == !(any.empty() ? z3_.bool_val(false) : z3::mk_or(any)));
  for (size_t v = 2; v < lc.is.size(); ++v)
    count_facts_.push_back(z3::implies(lc.is[v], v > any.size() ? z3_.bool_val(false) : z3::atleast(any, unsigned(v))));
  lazy_counts_.push_back(std::move(lc));
  return with_err(out, err_of(el));
}

std::vector<std::vector<z3::expr>> Encoder::counted_sets() const {
  std::vector<std::vector<z3::expr>> out;
  for (const LazyCount& lc : lazy_counts_) out.push_back(lc.in);
  return out;
}

bool Encoder::reads_counts(const z3::expr& e) const {
  if (count_ids_.empty()) return false;
  std::unordered_set<unsigned> seen;
  std::vector<z3::expr> stack{e};
  while (!stack.empty()) {
    z3::expr x = stack.back();
    stack.pop_back();
    if (!seen.insert(x.id()).second || !x.is_app()) continue;
    if (count_ids_.count(x.id())) return true;
    for (unsigned i = 0; i < x.num_args(); ++i) stack.push_back(x.arg(i));
  }
  return false;
}

z3::expr Encoder::few_counted_cells(const z3::model* m, int cap) {
  z3::expr_vector out(z3_);
  for (const LazyCount& lc : lazy_counts_) {
    bool counted = m == nullptr;
    for (const z3::expr& g : lc.is) counted = counted || m->eval(g, false).is_true();
    if (!counted) continue;
    z3::expr_vector in(z3_);
    for (const z3::expr& c : lc.in)
      if (!c.is_false()) in.push_back(c);
    if (int(in.size()) > cap) out.push_back(z3::atmost(in, unsigned(cap)));
    if (!lc.by_size.empty() || lc.largest) continue;  // "at most one" is said of every component only
    // A connected set of at most `cap` cells reaches all its cells from any one of them
    // in cap - 1 steps: exactly connected, so the count's "at most 1" needs no cuts.
    // From the first cell of the set (by index), step by step along neighbours in it.
    const int n = m_.cells;
    std::vector<z3::expr> reached;
    z3::expr none_before = z3_.bool_val(true);
    for (int c = 0; c < n; ++c) {
      reached.push_back(lc.in[size_t(c)] && none_before);
      none_before = none_before && !lc.in[size_t(c)];
    }
    for (int t = 1; t < cap; ++t) {
      std::vector<z3::expr> next;
      for (int c = 0; c < n; ++c) {
        z3::expr_vector from(z3_);
        from.push_back(reached[size_t(c)]);
        for (int d = 0; d < n; ++d)
          if (ir::test(m_.orth[size_t(c)], d)) from.push_back(reached[size_t(d)]);
        next.push_back(lc.in[size_t(c)].is_false() ? lc.in[size_t(c)] : lc.in[size_t(c)] && z3::mk_or(from));
      }
      reached = std::move(next);
    }
    z3::expr_vector all(z3_);
    for (int c = 0; c < n; ++c)
      if (!lc.in[size_t(c)].is_false()) all.push_back(z3::implies(lc.in[size_t(c)], reached[size_t(c)]));
    if (!all.empty()) out.push_back(z3::implies(lc.is[0] || lc.is[1], z3::mk_and(all)));
  }
  return out.empty() ? z3_.bool_val(true) : z3::mk_and(out);
}

std::vector<z3::expr> Encoder::component_cuts(z3::model& m) {
  std::vector<z3::expr> cuts;
  for (LazyCount& lc : lazy_counts_) {
    int64_t claimed = -1;
    for (size_t v = 0; v < lc.is.size() && claimed < 0; ++v)
      if (m.eval(lc.is[v], false).is_true()) claimed = int64_t(v);
    // A count the question does not read is still set to its true value: a value read
    // from the model afterwards (a bound's) must be the rules' own.
    const int n = m_.cells;
    std::vector<char> in(size_t(n), 0);
    ir::Bits set(ir::words(uint32_t(n)), 0);
    for (int c = 0; c < n; ++c)
      if ((in[size_t(c)] = m.eval(lc.in[size_t(c)], true).is_true())) ir::set_bit(set, c);
    // The set's components in the model, each with its rim: the cells around it, none of
    // them in the set.
    std::vector<std::vector<int>> cells, rim;
    for (const ir::Bits& g : m_.groups(set)) {
      ir::Bits around(g.size(), 0);
      cells.emplace_back();
      rim.emplace_back();
      for (int c = 0; c < n; ++c)
        if (ir::test(g, c)) {
          cells.back().push_back(c);
          for (size_t w = 0; w < around.size(); ++w) around[w] |= m_.orth[size_t(c)][w];
        }
      for (int c = 0; c < n; ++c)
        if (ir::test(around, c) && !ir::test(g, c)) rim.back().push_back(c);
    }
    int64_t actual = 0;
    size_t largest = 0;  // the model's largest group (an index into cells)
    for (size_t i = 0; i < cells.size(); ++i) {
      actual += lc.counts(cells[i].size()) ? 1 : 0;
      if (cells[i].size() > cells[largest].size()) largest = i;
    }
    if (lc.largest) actual = cells.empty() ? 0 : int64_t(cells[largest].size());
    for (size_t v = 0; v < lc.is.size(); ++v) {
      z3::func_decl decl = lc.is[v].decl();
      z3::expr value = z3_.bool_val(int64_t(v) == actual);
      m.add_const_interp(decl, value);
    }
    // "The count is at least / at most / exactly k" as the guards of those values.
    auto count_in = [&](int64_t lo, int64_t hi) {
      z3::expr_vector gs(z3_);
      for (int64_t v = std::max<int64_t>(lo, 0); v <= std::min<int64_t>(hi, int64_t(lc.is.size()) - 1); ++v)
        gs.push_back(lc.is[size_t(v)]);
      return gs.empty() ? z3_.bool_val(false) : z3::mk_or(gs);
    };
    if (claimed < 0 || claimed == actual) continue;
    auto in_ = [&](int c) { return lc.in[size_t(c)]; };
    if (lc.largest) {
      if (claimed < actual) {
        // Connected cells of the set lie in one group: claimed + 1 of the largest group's
        // (reached from its first cell) make the largest at least that many, and so do all.
        for (size_t m : {size_t(claimed) + 1, cells[largest].size()}) {
          z3::expr_vector some(z3_);
          for (int c : first_connected(cells[largest], m)) some.push_back(in_(c));
          cuts.push_back(z3::implies(z3::mk_and(some), count_in(int64_t(m), n)));
        }
      } else {
        // A set within the model's has its groups within the model's groups.
        z3::expr_vector outside(z3_);
        for (int c = 0; c < n; ++c)
          if (!in[size_t(c)] && !lc.in[size_t(c)].is_false()) outside.push_back(!in_(c));
        cuts.push_back(z3::implies(outside.empty() ? z3_.bool_val(true) : z3::mk_and(outside), count_in(0, actual)));
      }
      continue;
    }
    if (claimed < actual) {
      // These components (those counted), each with its rim empty, are components: at
      // least that many.
      z3::expr_vector isolated(z3_);
      for (size_t i = 0; i < cells.size(); ++i) {
        if (!lc.counts(cells[i].size())) continue;
        for (int c : cells[i]) isolated.push_back(in_(c));
        for (int b : rim[i]) isolated.push_back(!in_(b));
      }
      cuts.push_back(z3::implies(z3::mk_and(isolated), count_in(actual, n)));
      // When every size from some m on is counted, any m connected cells of the set lie
      // in a counted component: m cells of each counted group (the first reached from
      // its first cell) make the count at least 1, whatever surrounds them.
      const size_t m = lc.tail();
      if (!lc.by_size.empty() && m <= size_t(n))
        for (size_t i = 0; i < cells.size(); ++i) {
          if (cells[i].size() < m) continue;
          z3::expr_vector some(z3_);
          for (int c : first_connected(cells[i], m)) some.push_back(in_(c));
          cuts.push_back(z3::implies(z3::mk_and(some), count_in(1, n)));
        }
      // In a connected set, a path from a component's cells to a cell beyond its rim
      // crosses the rim.
      if (claimed <= 1 && lc.by_size.empty())
        for (size_t i = 0; i < cells.size(); ++i) {
          std::vector<char> near(size_t(n), 0);
          for (int c : cells[i]) near[size_t(c)] = 1;
          for (int b : rim[i]) near[size_t(b)] = 1;
          z3::expr_vector inside(z3_), beyond(z3_), across(z3_);
          for (int c : cells[i]) inside.push_back(in_(c));
          for (int b : rim[i]) across.push_back(in_(b));
          for (int d = 0; d < n; ++d)
            if (!near[size_t(d)] && !lc.in[size_t(d)].is_false()) beyond.push_back(in_(d));
          if (beyond.empty()) continue;
          cuts.push_back(z3::implies(count_in(0, 1) && z3::mk_or(inside) && z3::mk_or(beyond),
                                     across.empty() ? z3_.bool_val(false) : z3::mk_or(across)));
        }
    } else {
      // A component's first cell (by index) has no neighbour of a lower index in the set:
      // there are at least as many such cells as components.
      z3::expr_vector firsts(z3_);
      int64_t firsts_here = 0;
      for (int c = 0; c < n; ++c) {
        if (lc.in[size_t(c)].is_false()) continue;
        z3::expr first = in_(c);
        bool here = in[size_t(c)] != 0;
        for (int d = 0; d < c; ++d)
          if (ir::test(m_.orth[size_t(c)], d)) {
            first = first && !in_(d);
            here = here && !in[size_t(d)];
          }
        firsts.push_back(first);
        firsts_here += here ? 1 : 0;
      }
      // (Components of some sizes only are no more than the components.)
      if (firsts_here < claimed) {
        cuts.push_back(z3::implies(lc.is[size_t(claimed)], z3::atleast(firsts, unsigned(claimed))));
      } else if (!lc.by_size.empty()) {
        // Components of some sizes only. While the model's groups stay as they are (cells
        // in, rims out), every other component lies beyond their rims, where the model has
        // none: its first cell is one of the firsts there, and a counted one has at least
        // the smallest counted size of cells there.
        std::vector<char> near(size_t(n), 0);
        z3::expr_vector isolated(z3_);
        for (size_t i = 0; i < cells.size(); ++i) {
          for (int c : cells[i]) {
            near[size_t(c)] = 1;
            isolated.push_back(in_(c));
          }
          for (int b : rim[i]) {
            near[size_t(b)] = 1;
            isolated.push_back(!in_(b));
          }
        }
        z3::expr_vector firsts_beyond(z3_), beyond(z3_);
        size_t fi = 0;
        for (int c = 0; c < n; ++c) {
          if (lc.in[size_t(c)].is_false()) continue;
          if (!near[size_t(c)]) {
            firsts_beyond.push_back(firsts[unsigned(fi)]);
            beyond.push_back(in_(c));
          }
          ++fi;
        }
        const z3::expr kept = isolated.empty() ? z3_.bool_val(true) : z3::mk_and(isolated);
        const unsigned more = unsigned(claimed - actual);
        const unsigned least = unsigned(lc.smallest()) * more;
        cuts.push_back(z3::implies(kept && lc.is[size_t(claimed)],
                                   firsts_beyond.size() < more || beyond.size() < least
                                       ? z3_.bool_val(false)
                                       : z3::atleast(firsts_beyond, more) && z3::atleast(beyond, least)));
      } else {
        // These connected groups in the set, and nothing beyond their rims: no more
        // components than groups (a rim cell joins a group).
        std::vector<char> near(size_t(n), 0);
        z3::expr_vector same(z3_);
        for (size_t i = 0; i < cells.size(); ++i) {
          for (int c : cells[i]) {
            near[size_t(c)] = 1;
            same.push_back(in_(c));
          }
          for (int b : rim[i]) near[size_t(b)] = 1;
        }
        for (int c = 0; c < n; ++c)
          if (!near[size_t(c)] && !lc.in[size_t(c)].is_false()) same.push_back(!in_(c));
        cuts.push_back(z3::implies(same.empty() ? z3_.bool_val(true) : z3::mk_and(same), count_in(0, actual)));
      }
    }
  }
  for (const z3::expr& c : cuts) count_facts_.push_back(c);
  return cuts;
}

}  // namespace rulebook::verifier
