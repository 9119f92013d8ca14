// Random scalar expressions: ints, bools, players, cells, enums, records and optionals,
// with the guards that keep run-time errors to the share the options ask for.
#include <fmt/core.h>

#include <cctype>

#include "tests/random/gen_internal.h"

namespace rulebook::testing::gen {

namespace {

std::string par(const std::string& s) { return "(" + s + ")"; }

using Ways = std::vector<std::function<std::string()>>;

}  // namespace

/// A global read with its keys (a state or setup map) or a define call with its arguments.
static std::string read_global(Gen& g, const Global& v, Ctx& c, int depth) {
  std::string s = v.name;
  if (v.call) s += "(";
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const std::string k = v.call ? g.stored(v.keys[i], c, depth - 1) : g.key(v.keys[i], c, depth - 1);
    s += v.call ? (i ? ", " : "") + k : "[" + k + "]";
  }
  if (v.call) s += ")";
  g.use(v.kind == Global::Define ? (v.call ? "call.define_params" : "read.define")
        : v.keys.empty()          ? "read.scalar"
        : v.keys.size() == 2      ? "read.map2"
                                  : "read.map");
  return s;
}

/// Whether `text` reads a state, a setup or a local: check folds an expression of
/// literals, params and the board's size, and rejects it when it divides by zero.
static bool reads_variable(const Gen& g, const std::string& text, const Ctx& c) {
  auto is_ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (size_t i = 0; i < text.size();) {
    if (!is_ident(text[i])) {
      ++i;
      continue;
    }
    const size_t b = i;
    while (i < text.size() && is_ident(text[i])) ++i;
    const std::string word = text.substr(b, i - b);
    for (const Local& l : c.locals)
      if (l.name == word) return true;
    for (const Global& v : g.globals_)
      if (v.name == word && (v.kind == Global::State || v.kind == Global::Setup)) return true;
  }
  return false;
}

/// Reads of every global and local of type t.
static void add_reads(Gen& g, Ways& ways, const T& t, Ctx& c, int depth) {
  for (const Local& l : c.locals)
    if (same(l.type, t)) ways.push_back([&g, name = l.name] { g.use("read.local"); return name; });
  for (const Global* v : g.readable(c, t, depth > 0))
    ways.push_back([&g, v, &c, depth] { return read_global(g, *v, c, depth); });
}

/// A quantifier, aggregate or filter may nest two deep: more makes perft slow.
static bool may_bind(const Ctx& c, int depth) { return depth > 0 && c.binders < 2; }

std::string Gen::int_expr(Ctx& c, int depth) {
  Ways ways;
  ways.push_back([&] {
    use("literal.int");
    if (chance(10)) return par(std::string("-") + std::to_string(between(1, 5)));
    return std::to_string(between(0, 9));
  });
  add_reads(*this, ways, mk(Ty::Int), c, depth);
  add_reads(*this, ways, level_, c, depth);
  for (const Global& v : globals_)
    if (v.type->k == Ty::Range && !same(v.type, level_)) add_reads(*this, ways, v.type, c, depth);
  ways.push_back([&] { std::string s = chance(50) ? "width" : "height"; use("builtin." + s); return s; });
  if (depth > 0) {
    ways.push_back([&] {
      static const std::vector<std::string> ops = {"+", "-", "*"};
      const std::string op = pick(ops);
      use(std::string("int.") + (op == "+" ? "add" : op == "-" ? "sub" : "mul"));
      return par(int_expr(c, depth - 1) + " " + op + " " + int_expr(c, depth - 1));
    });
    ways.push_back([&] {
      const bool div = chance(50);
      use(div ? "int.div" : "int.mod");
      std::string d;
      if (chance(o_.risk_percent)) {
        // May be 0: a run-time error. Tiny programs divide by a variable: their few
        // globals make constant expressions common, and check rejects a constant x / 0.
        d = o_.tiny_for_proofs ? variable_divisor(c) : int_expr(c, depth - 1);
      }
      if (!d.empty() && (o_.tiny_for_proofs || reads_variable(*this, d, c))) {
        use("risk.divisor");
      } else {
        int k = between(1, 4);
        if (chance(30)) k = -k;  // floor division and modulo of negatives
        d = k < 0 ? par(std::to_string(k)) : std::to_string(k);
      }
      return par(int_expr(c, depth - 1) + (div ? " / " : " % ") + d);
    });
    ways.push_back([&] { use("int.neg"); return par(std::string("-") + int_expr(c, depth - 1)); });
    if (o_.int64_min_division) {
      // The divisor reads a setup or state value, so that check cannot fold the division:
      // it is -1 (the quotient 2^63 does not fit) when the value is its range's least,
      // and 0 one above, both errors of play that the engines must word alike.
      for (const Global& v : globals_) {
        if (v.kind == Global::Param || v.kind == Global::Define || v.level < 1 || v.level > c.level ||
            !v.keys.empty() || v.type->k != Ty::Range || shadowed(c, v.name))
          continue;
        ways.push_back([&, name = v.name, lo = v.type->lo] {
          use("risk.int64_min_division");
          return par("(-9223372036854775807 - 1) / " + par(name + " - " + par(std::to_string(lo)) + " - 1"));
        });
        break;
      }
    }
    ways.push_back([&] {
      const int k = int(below(3));
      use(k == 0 ? "builtin.abs" : k == 1 ? "builtin.min" : "builtin.max");
      if (k == 0) return "abs(" + int_expr(c, depth - 1) + ")";
      return std::string(k == 1 ? "min(" : "max(") + int_expr(c, depth - 1) + ", " + int_expr(c, depth - 1) + ")";
    });
    ways.push_back([&] {
      use("builtin.size");
      if (chance(15)) {
        for (const Global& v : globals_)
          if (v.type->k == Ty::Seq && v.keys.empty() && v.level <= c.level && !shadowed(c, v.name)) {
            use("builtin.size_seq");
            return "size(" + v.name + ")";
          }
      }
      static const std::vector<Ty::K> kinds = {Ty::Cell, Ty::Cell, Ty::Player, Ty::Point};
      return "size(" + set_expr(mk(pick(kinds)), c, depth - 1) + ")";
    });
    if (can_make(mk(Ty::Cell), c)) {
      ways.push_back([&] {
        const bool x = chance(50);
        use(x ? "builtin.x" : "builtin.y");
        return std::string(x ? "x(" : "y(") + expr(mk(Ty::Cell), c, depth - 1) + ")";
      });
    }
    if (can_make(mk(Ty::Point), c)) {
      ways.push_back([&] { use("builtin.x_point"); return "x(" + expr(mk(Ty::Point), c, 0) + ")"; });
    }
    ways.push_back([&] { use("builtin.seat"); return "seat(" + expr(mk(Ty::Player), c, depth - 1) + ")"; });
    ways.push_back([&] {
      use("builtin.largest_group");
      return "largest_group(" + set_expr(mk(Ty::Cell), c, depth - 1) + ")";
    });
    ways.push_back([&] {
      use("expr.if_int");
      return par("if " + bool_expr(c, depth - 1) + " then " + int_expr(c, depth - 1) + " else " +
                 int_expr(c, depth - 1));
    });
    if (!records_.empty()) {
      ways.push_back([&] {
        const int id = int(below(records_.size()));
        const RecordDecl& r = records_[size_t(id)];
        for (size_t f = 0; f < r.fields.size(); ++f) {
          if (!is_int(r.types[f])) continue;
          T rt = std::make_shared<Ty>(Ty{Ty::Record, 0, 0, id, nullptr});
          // An optional record read through a guard, or (at risk) straight.
          std::vector<const Global*> opts = readable(c, opt(rt), true);
          if (!opts.empty() && chance(40)) {
            const std::string v = read_global(*this, *pick(opts), c, depth);
            if (chance(o_.risk_percent)) {
              use("risk.field_of_none");
              return v + "." + r.fields[f];
            }
            use("expr.guarded_field");
            return par("if " + v + " == none then 0 else " + v + "." + r.fields[f]);
          }
          if (!can_make(rt, c)) break;
          use("expr.field");
          return par(expr(rt, c, depth - 1)) + "." + r.fields[f];
        }
        return std::to_string(between(0, 3));
      });
    }
    for (const Global& v : globals_) {
      if (v.type->k == Ty::Seq && is_int(v.type->inner) && v.keys.empty() && v.level <= c.level &&
          !shadowed(c, v.name)) {
        ways.push_back([&, name = v.name] {
          use("seq.index");
          const std::string i = int_expr(c, depth - 1);
          if (o_.key_errors && chance(o_.risk_percent)) return name + "[" + i + "]";
          return name + "[" + par(i) + " % size(" + name + ")]";
        });
        break;
      }
    }
    if (may_bind(c, depth)) {
      ways.push_back([&] {
        std::vector<Local> b;
        const std::string bind = binder(c, depth, b, true, true);
        use("agg.count");
        return par("count " + bind);
      });
      ways.push_back([&] {
        const int k = int(below(3));
        const std::string word = k == 0 ? "sum" : k == 1 ? "max" : "min";
        use("agg." + word);
        std::vector<Local> b;
        // max and min over nothing is an error: their domains have a where only at risk.
        const bool where = k == 0 || chance(o_.risk_percent);
        std::string bind = binder(c, depth, b, where, true);
        if (k != 0 && where) use("risk.empty_aggregate");
        ++c.binders;
        c.locals.insert(c.locals.end(), b.begin(), b.end());
        const std::string body = int_expr(c, depth - 1);
        c.locals.resize(c.locals.size() - b.size());
        --c.binders;
        return par(word + " " + bind + ": " + body);
      });
    }
  }
  return pick(ways)();
}

std::string Gen::bool_expr(Ctx& c, int depth) {
  Ways ways;
  ways.push_back([&] { use("literal.bool"); return std::string(chance(50) ? "true" : "false"); });
  add_reads(*this, ways, mk(Ty::Bool), c, depth);
  if (depth > 0) {
    ways.push_back([&] { use("bool.not"); return par("not " + bool_expr(c, depth - 1)); });
    ways.push_back([&] {
      const bool a = chance(50);
      use(a ? "bool.and" : "bool.or");
      return par(bool_expr(c, depth - 1) + (a ? " and " : " or ") + bool_expr(c, depth - 1));
    });
    ways.push_back([&] {
      static const std::vector<std::string> ops = {"<", "<=", ">", ">=", "==", "!="};
      const std::string op = pick(ops);
      use("cmp.int");
      return par(int_expr(c, depth - 1) + " " + op + " " + int_expr(c, depth - 1));
    });
    ways.push_back([&] {
      // Equality of any other kind of value, optionals against none and values.
      std::vector<T> kinds = {mk(Ty::Player), mk(Ty::Orient), opt(mk(Ty::Player))};
      if (can_make(mk(Ty::Cell), c)) kinds.push_back(mk(Ty::Cell)), kinds.push_back(opt(mk(Ty::Cell)));
      if (can_make(mk(Ty::Point), c)) kinds.push_back(mk(Ty::Point));
      if (!team_names_.empty()) kinds.push_back(mk(Ty::Team));
      for (size_t i = 0; i < enums_.size(); ++i)
        kinds.push_back(std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, int(i), nullptr}));
      for (size_t i = 0; i < records_.size(); ++i) {
        T rt = std::make_shared<Ty>(Ty{Ty::Record, 0, 0, int(i), nullptr});
        if (!can_make(rt, c)) continue;
        kinds.push_back(rt);
        kinds.push_back(opt(rt));
      }
      kinds.push_back(set_of(mk(Ty::Cell)));
      kinds.push_back(set_of(mk(Ty::Player)));
      const T t = pick(kinds);
      use(t->k == Ty::Opt ? "cmp.optional" : t->k == Ty::Set ? "cmp.set" : "cmp.eq");
      const std::string op = chance(50) ? " == " : " != ";
      if (t->k == Ty::Opt && chance(50)) {
        // A value of T against a T?.
        return par(expr(t->inner, c, depth - 1) + op + expr(t, c, depth - 1));
      }
      return par(expr(t, c, depth - 1) + op + expr(t, c, depth - 1));
    });
    ways.push_back([&] {
      std::vector<T> kinds = {mk(Ty::Player), level_};
      if (can_make(mk(Ty::Cell), c)) kinds.push_back(mk(Ty::Cell)), kinds.push_back(mk(Ty::Cell));
      const T t = pick(kinds);
      const bool neg = chance(30);
      use(neg ? "cmp.not_in" : "cmp.in");
      // `x in S` with x: T? is allowed too (false for none).
      std::string x = (t->k == Ty::Cell && chance(20)) ? expr(opt(t), c, depth - 1) : expr(t, c, depth - 1);
      return par(x + (neg ? " not in " : " in ") + set_expr(t, c, depth - 1));
    });
    for (const Global& v : globals_) {
      if (v.type->k == Ty::Seq && v.keys.empty() && v.level <= c.level && !shadowed(c, v.name)) {
        ways.push_back([&, name = v.name, elem = v.type->inner] {
          use("seq.in");
          return par(expr(elem, c, depth - 1) + " in " + name);
        });
        break;
      }
    }
    if (c.level >= 2)  // out() changes in play: not in setups and initial values
      ways.push_back([&] { use("builtin.out"); return "out(" + expr(mk(Ty::Player), c, depth - 1) + ")"; });
    if (c.can && !moves_.empty() && c.can_below != 0) {
      ways.push_back([&] {
        const MoveDecl& m = c.can_below < 0 ? pick(moves_) : moves_[below(uint64_t(c.can_below))];
        if (c.can_below > 0) use("builtin.can_board_rules");
        if (c.mover && chance(50)) {
          use("builtin.can1");
          return "can(" + m.name + ")";
        }
        use("builtin.can2");
        return "can(" + m.name + ", " + expr(mk(Ty::Player), c, depth - 1) + ")";
      });
    }
    ways.push_back([&] {
      use("expr.if_bool");
      return par("if " + bool_expr(c, depth - 1) + " then " + bool_expr(c, depth - 1) + " else " +
                 bool_expr(c, depth - 1));
    });
    if (may_bind(c, depth)) {
      ways.push_back([&] {
        static const std::vector<std::string> words = {"all", "some", "no"};
        const std::string w = pick(words);
        use("quant." + w);
        std::vector<Local> b;
        const std::string bind = binder(c, depth, b, true, true);
        ++c.binders;
        c.locals.insert(c.locals.end(), b.begin(), b.end());
        const std::string body = bool_expr(c, depth - 1);
        c.locals.resize(c.locals.size() - b.size());
        --c.binders;
        return par(w + " " + bind + ": " + body);
      });
    }
  }
  return pick(ways)();
}

std::string Gen::expr(const T& t, Ctx& c, int depth) {
  if (t->k == Ty::Bool) return bool_expr(c, depth);
  if (t->k == Ty::Int) return int_expr(c, depth);
  if (t->k == Ty::Range) return stored(t, c, depth);
  if (t->k == Ty::Set) return set_expr(t->inner, c, depth);
  Ways ways;
  add_reads(*this, ways, t, c, depth);
  switch (t->k) {
    case Ty::Player:
      for (const std::string& p : player_names_)
        if (!shadowed(c, p)) ways.push_back([&, p] { use("literal.player"); return p; });
      if (c.mover) ways.push_back([&] { use("builtin.mover"); return std::string("mover"); });
      if (depth > 0) {
        ways.push_back([&] { use("builtin.next"); return "next(" + expr(t, c, depth - 1) + ")"; });
        ways.push_back([&] {
          use("expr.if_player");
          return par("if " + bool_expr(c, depth - 1) + " then " + expr(t, c, depth - 1) + " else " +
                     expr(t, c, depth - 1));
        });
      }
      break;
    case Ty::Team:
      for (const std::string& n : team_names_)
        if (!shadowed(c, n)) ways.push_back([&, n] { use("literal.team"); return n; });
      if (depth > 0) ways.push_back([&] { use("builtin.team_of"); return "team_of(" + expr(mk(Ty::Player), c, depth - 1) + ")"; });
      break;
    case Ty::Phase:
      for (const std::string& n : phase_names_)
        if (!shadowed(c, n)) ways.push_back([&, n] { use("literal.phase"); return n; });
      break;
    case Ty::Orient:
      ways.push_back([&] { use("literal.orientation"); return std::string(chance(50) ? "horizontal" : "vertical"); });
      break;
    case Ty::Enum:
      for (const std::string& n : enums_[size_t(t->id)].members)
        if (!shadowed(c, n)) ways.push_back([&, n] { use("literal.enum"); return n; });
      if (depth > 0) {
        ways.push_back([&] {
          use("expr.if_enum");
          return par("if " + bool_expr(c, depth - 1) + " then " + expr(t, c, depth - 1) + " else " +
                     expr(t, c, depth - 1));
        });
      }
      break;
    case Ty::Record:
      break;  // reads only: a record literal has a type only where a store gives it one
    case Ty::Opt:
      ways.push_back([&] { use("literal.none"); return std::string("none"); });
      if (can_make(t->inner, c)) ways.push_back([&] { return expr(t->inner, c, depth); });
      if (t->inner->k == Ty::Cell && depth > 0) {
        ways.push_back([&] {
          use("builtin.cell");
          return "cell(" + int_expr(c, depth - 1) + ", " + int_expr(c, depth - 1) + ")";
        });
      }
      break;
    default:
      break;
  }
  if (ways.empty()) return "none";  // callers ask can_make first; this is a generator bug
  return pick(ways)();
}

}  // namespace rulebook::testing::gen
