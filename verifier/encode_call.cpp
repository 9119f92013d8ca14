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

SymP bits_sym(const ir::Bits& b, int domain) {
  auto s = std::make_shared<Sym>();
  s->k = K::Bits;
  s->domain = domain;
  s->bits.assign(b.data(), b.data() + b.size());
  return s;
}

namespace {

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
    if (e.builtin == B::LargestGroup) return group_size_lazy(s);
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

}  // namespace rulebook::verifier
