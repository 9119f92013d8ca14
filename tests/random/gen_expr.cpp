// Random typed expressions of the rules language: every operator, quantifier, aggregate,
// set and sequence operation and built-in, written fully parenthesised.
#include <fmt/core.h>

#include "tests/random/gen_internal.h"

namespace rulebook::testing::gen {

namespace {

std::string par(const std::string& s) { return "(" + s + ")"; }

}  // namespace

bool Gen::shadowed(const Ctx& c, const std::string& name) const {
  for (const Local& l : c.locals)
    if (l.name == name) return true;
  return false;
}

std::vector<const Global*> Gen::readable(const Ctx& c, const T& t, bool keyed) const {
  std::vector<const Global*> out;
  for (const Global& g : globals_) {
    if (g.level > c.level || shadowed(c, g.name) || !same(g.type, t)) continue;
    if (!keyed && !g.keys.empty()) continue;
    bool ok = true;
    for (const T& k : g.keys)
      if (k->k == Ty::Cell || k->k == Ty::Point) ok = ok && can_make(k, c);
    if (ok) out.push_back(&g);
  }
  return out;
}

bool Gen::can_make(const T& t, const Ctx& c) const {
  switch (t->k) {
    case Ty::Cell:
    case Ty::Point:
    case Ty::Seq:
    case Ty::Record:
      for (const Local& l : c.locals)
        if (same(l.type, t)) return true;
      for (const Global& g : globals_)
        if (g.keys.empty() && g.level <= c.level && same(g.type, t) && !shadowed(c, g.name))
          return true;
      return false;
    case Ty::Team:
      return !team_names_.empty();
    case Ty::Set:
      return t->inner->k != Ty::Opt && t->inner->k != Ty::Set && t->inner->k != Ty::Seq &&
             t->inner->k != Ty::Phase;
    default:
      return true;
  }
}

std::string Gen::local_name(const Ctx& c) {
  static const std::vector<std::string> pool = {
      "c", "d", "e", "k", "n", "i", "q", "t", "u", "v", "w", "a", "b", "m", "f", "g",
      "s", "st", "rng", "self", "this_", "result", "value", "index", "new", "delete", "class",
      "auto", "int64_t", "std", "main", "count", "sum", "set", "of", "random", "entry"};
  for (int tries = 0; tries < 50; ++tries) {
    std::string n = pick(pool);
    // On, numbered names meet their stems often: a parameter c_1 beside a binder c.
    if (o_.numeric_suffix_locals && chance(40)) n = std::string(chance(50) ? "c" : "d") + (chance(50) ? "_1" : "");
    // Shadowing a global is allowed, and a good test; two locals of one name in one
    // scope are not.
    if (shadowed(c, n)) continue;
    if (taken_.count(n) && !chance(20)) continue;
    if (taken_.count(n)) use("local.shadows_global");
    return n;
  }
  return fresh("loc");
}

std::string Gen::binder(Ctx& c, int depth, std::vector<Local>& bound, bool allow_where,
                        bool two_ok) {
  // The element type: cells mostly, then the other finite kinds.
  const bool no_filter = c.no_filter;
  c.no_filter = no_filter || !o_.filter_in_binder_domain;
  std::string domain;
  T elem;
  const int r = int(below(100));
  if (r < 40) {
    elem = mk(Ty::Cell);
    domain = set_expr(elem, c, depth - 1);
  } else if (r < 52) {
    elem = mk(Ty::Player);
    domain = set_expr(elem, c, depth - 1);
  } else if (r < 62) {
    elem = level_;
    domain = set_expr(elem, c, depth - 1);
  } else if (r < 68 && !enums_.empty()) {
    elem = std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, int(below(enums_.size())), nullptr});
    domain = set_expr(elem, c, depth - 1);
  } else if (r < 74) {
    elem = mk(Ty::Point);
    domain = set_expr(elem, c, depth - 1);
    use("binder.point");
  } else if (r < 82) {
    elem = set_of(mk(Ty::Cell));
    static const std::vector<std::string> groups = {"rows", "columns", "lines"};
    if (!region_names_.empty() && chance(40)) {
      domain = pick(region_names_);
      use("binder.regions");
    } else if (chance(30)) {
      domain = "components(" + set_expr(mk(Ty::Cell), c, depth - 1) + ")";
      use("builtin.components");
    } else {
      domain = pick(groups);
      use("binder." + domain);
    }
  } else if (r < 88) {
    // A sequence: a setup shuffle, a state sequence or a literal.
    std::vector<const Global*> seqs;
    for (const Global& g : globals_)
      if (g.type->k == Ty::Seq && g.keys.empty() && g.level <= c.level && !shadowed(c, g.name))
        seqs.push_back(&g);
    if (!seqs.empty()) {
      const Global* g = pick(seqs);
      elem = g->type->inner;
      domain = g->name;
      use("binder.seq");
    } else {
      elem = level_;
      domain = "[" + stored(level_, c, 0) + ", " + stored(level_, c, 0) + "]";
      use("literal.seq");
    }
  } else if (r < 92) {
    elem = mk(Ty::Orient);
    domain = set_expr(elem, c, depth - 1);
  } else if (r < 95 && !team_names_.empty()) {
    elem = mk(Ty::Team);
    domain = "teams";
    use("builtin.teams");
  } else {
    elem = mk(Ty::Int);
    const int lo = between(-2, 2);
    domain = fmt::format("{}..{}", lo, lo + between(0, 3));
    use("binder.int_range");
  }
  c.no_filter = no_filter;
  bound.clear();
  bound.push_back(Local{local_name(c), elem});
  std::string text = bound[0].name + " in " + domain;
  c.locals.push_back(bound[0]);
  // A second binder now and then (`a in S, b in T`); its domain may use the first.
  if (two_ok && depth > 1 && chance(15)) {
    Local second{local_name(c), mk(Ty::Player)};
    text += ", " + second.name + " in " + set_expr(second.type, c, 0);
    bound.push_back(second);
    c.locals.push_back(second);
    use("binder.two");
  }
  if (allow_where && chance(35)) {
    text += " where " + bool_expr(c, depth - 1);
    use("binder.where");
  }
  c.locals.resize(c.locals.size() - bound.size());
  return text;
}

std::string Gen::set_expr(const T& elem, Ctx& c, int depth) {
  const T st = set_of(elem);
  std::vector<std::function<std::string()>> ways;
  // Leaves first: they always work.
  switch (elem->k) {
    case Ty::Cell: {
      static const std::vector<std::string> all = {"cells", "edge", "corner_cells"};
      ways.push_back([&] { std::string s = pick(all); use("builtin." + s); return s; });
      if (can_make(elem, c) && depth > 0) {
        ways.push_back([&] {
          static const std::vector<std::string> fns = {"row", "column", "orth", "diag", "king"};
          std::string f = pick(fns);
          use("builtin." + f);
          return f + "(" + expr(elem, c, depth - 1) + ")";
        });
        ways.push_back([&] {
          const bool ends = chance(40);
          use(ends ? "builtin.ends" : "builtin.segment");
          return fmt::format("{}({}, {}, {})", ends ? "ends" : "segment", expr(elem, c, depth - 1),
                             expr(mk(Ty::Orient), c, 0), between(0, 3));
        });
        if (!region_names_.empty()) {
          ways.push_back([&] {
            use("builtin.region_of");
            return pick(region_names_) + "(" + expr(elem, c, depth - 1) + ")";
          });
        }
      }
      if (can_make(mk(Ty::Point), c) && depth > 0) {
        ways.push_back([&] { use("builtin.around"); return "around(" + expr(mk(Ty::Point), c, 0) + ")"; });
      }
      break;
    }
    case Ty::Point: {
      static const std::vector<std::string> all = {"points", "inner_points", "rim_points"};
      ways.push_back([&] { std::string s = pick(all); use("builtin." + s); return s; });
      if (can_make(mk(Ty::Cell), c) && depth > 0)
        ways.push_back([&] { use("builtin.corners"); return "corners(" + expr(mk(Ty::Cell), c, depth - 1) + ")"; });
      break;
    }
    case Ty::Player:
      ways.push_back([&] { use("builtin.players"); return std::string("players"); });
      if (!team_names_.empty())
        ways.push_back([&] { use("builtin.members"); return "members(" + expr(mk(Ty::Team), c, depth - 1) + ")"; });
      break;
    case Ty::Team:
      ways.push_back([&] { use("builtin.teams"); return std::string("teams"); });
      break;
    case Ty::Range: {
      ways.push_back([&] {
        // The whole range: the checker types a constant range set by its bounds, and
        // the sets it meets must have the same element type.
        use("expr.range_set");
        return fmt::format("({}..{})", elem->lo, elem->hi);
      });
      break;
    }
    case Ty::Int:
      ways.push_back([&] {
        use("expr.range_set");
        const int a = between(-3, 3);
        return fmt::format("({}..{})", a, a + between(0, 3));
      });
      break;
    case Ty::Enum: {
      // Only the members no local shadows (a parameter `class` beside a member `class`
      // names the parameter there).
      std::vector<std::string> members;
      for (const std::string& m : enums_[size_t(elem->id)].members)
        if (!shadowed(c, m)) members.push_back(m);
      if (!members.empty())
        ways.push_back([&, members] {
          std::string s = "{";
          for (size_t i = 0; i < members.size(); ++i)
            if (i == 0 || chance(60)) s += (s.size() > 1 ? ", " : "") + members[i];
          use("literal.set");
          return s + "}";
        });
      break;
    }
    case Ty::Orient:
      ways.push_back([&] { use("literal.set"); return std::string("{horizontal, vertical}"); });
      break;
    default:
      break;
  }
  for (const Global* g : readable(c, st, depth > 0)) {
    ways.push_back([this, g, &c, depth] {
      std::string s = g->name;
      if (g->call) s += "(";
      for (size_t i = 0; i < g->keys.size(); ++i) {
        if (g->call) {
          if (i) s += ", ";
          s += stored(g->keys[i], c, depth - 1);
        } else {
          s += '[';
          s += key(g->keys[i], c, depth - 1);
          s += ']';
        }
      }
      if (g->call) s += ")";
      use(g->kind == Global::Define ? "read.define_set" : "read.set_var");
      return s;
    });
  }
  if (depth > 0) {
    ways.push_back([&] {
      static const std::vector<std::string> ops = {"+", "-", "&"};
      const std::string op = pick(ops);
      use(op == "+" ? "set.union" : op == "-" ? "set.difference" : "set.intersection");
      return par(set_expr(elem, c, depth - 1) + " " + op + " " + set_expr(elem, c, depth - 1));
    });
    if (!c.no_filter) ways.push_back([&] {
      Local x{local_name(c), elem};
      // A filter's domain is a binder's domain too.
      const bool outer = c.no_filter;
      c.no_filter = !o_.filter_in_binder_domain;
      std::string dom = set_expr(elem, c, depth - 1);
      c.no_filter = outer;
      c.locals.push_back(x);
      std::string cond = bool_expr(c, depth - 1);
      c.locals.pop_back();
      use("set.filter");
      return "{" + x.name + " in " + dom + " | " + cond + "}";
    });
    if (can_make(elem, c) && elem->k != Ty::Int && elem->k != Ty::Range) {
      ways.push_back([&] {
        std::string s = "{" + expr(elem, c, depth - 1);
        if (chance(50)) s += ", " + expr(elem, c, depth - 1);
        use("literal.set");
        return s + "}";
      });
    }
  }
  return pick(ways)();
}

std::string Gen::key(const T& t, Ctx& c, int depth) {
  if (o_.key_errors) return stored(t, c, depth);
  const int risk = o_.risk_percent;
  o_.risk_percent = 0;
  std::string k = stored(t, c, depth);
  o_.risk_percent = risk;
  return k;
}

std::string Gen::stored(const T& t, Ctx& c, int depth) {
  if (t->k == Ty::Range) {
    if (depth <= 0 || chance(40)) return std::to_string(between(t->lo, t->hi));
    if (chance(o_.risk_percent)) {
      // A value that may leave the range in play; never a constant, which the checker
      // would reject.
      std::vector<const Global*> vars;
      for (const Global& g : globals_)
        if (g.kind == Global::State && g.type->k == Ty::Range && g.level <= c.level && !shadowed(c, g.name) &&
            g.keys.empty())
          vars.push_back(&g);
      if (!vars.empty()) {
        use("risk.unguarded_store");
        return par(pick(vars)->name + " + " + std::to_string(between(1, 3)));
      }
    }
    std::string e = int_expr(c, depth);
    // Floor modulo keeps any int in range: lo + (e % n) is in lo..hi.
    if (!o_.negative_constant_modulo) e = "abs(" + e + ")";
    return par(std::to_string(t->lo) + " + " + par(e) + " % " + std::to_string(t->hi - t->lo + 1));
  }
  if (t->k == Ty::Opt) {
    if (chance(30)) {
      use("literal.none");
      return "none";
    }
    return stored(t->inner, c, depth);
  }
  if (t->k == Ty::Record) {
    const RecordDecl& r = records_[size_t(t->id)];
    if (depth > 0 && can_make(t, c) && chance(30)) return expr(t, c, depth);
    std::string s = "{";
    for (size_t i = 0; i < r.fields.size(); ++i)
      s += (i ? ", " : "") + r.fields[i] + ": " + stored(r.types[i], c, depth - 1);
    use("literal.record");
    return s + "}";
  }
  if (t->k == Ty::Set) return set_expr(t->inner, c, depth);
  return expr(t, c, depth);
}

}  // namespace rulebook::testing::gen
