// Random statements: assignments to every shape of state, +=/-= on ints and sets, if/else,
// for, let, again, eliminate, goto and end, in init, move and when-stuck blocks.
#include <fmt/core.h>

#include "tests/random/gen_internal.h"

namespace rulebook::testing::gen {

namespace {

std::string pad(int indent) { return std::string(size_t(indent) * 2, ' '); }

}  // namespace

std::string Gen::block(Ctx& c, Block kind, int indent, int depth) {
  std::string s = "{\n";
  const size_t locals = c.locals.size();
  const int n = depth <= 0 ? between(0, 1) : between(1, 3);
  for (int i = 0; i < n; ++i) s += statement(c, kind, indent + 1, depth);
  c.locals.resize(locals);  // a `let` lasts to the end of its block
  return s + pad(indent) + "}";
}

std::string Gen::statement(Ctx& c, Block kind, int indent, int depth) {
  const std::string at = pad(indent);
  std::vector<const Global*> states;
  for (const Global& g : globals_)
    if (g.kind == Global::State && !shadowed(c, g.name)) states.push_back(&g);
  const bool in_play = kind != Block::Init;
  for (int tries = 0; tries < 20; ++tries) {
    const int r = int(below(100));
    if (r < 40 && !states.empty()) {
      const Global& g = *pick(states);
      std::string target = g.name;
      bool keys_ok = true;
      for (const T& k : g.keys) keys_ok = keys_ok && can_make(k, c);
      if (!keys_ok) continue;
      for (const T& k : g.keys) target += "[" + key(k, c, depth - 1) + "]";
      T type = g.type;
      if (type->k == Ty::Seq) {
        // An element of a state sequence, by a position that is (mostly) inside it.
        const bool out = o_.key_errors && chance(o_.risk_percent);
        const std::string i = std::to_string(out ? g.seq_len : between(0, g.seq_len - 1));
        target += "[" + i + "]";
        type = type->inner;
        use("assign.seq_element");
      }
      if (type->k == Ty::Record && chance(40)) {
        const RecordDecl& rec = records_[size_t(type->id)];
        const size_t f = below(rec.fields.size());
        target += "." + rec.fields[f];
        type = rec.types[f];
        use("assign.field");
      }
      use(g.keys.empty() ? "assign.scalar" : g.keys.size() == 2 ? "assign.map2" : "assign.map");
      if (is_int(type) && chance(40)) {
        const bool add = chance(50);
        const std::string step = std::to_string(between(1, 2));
        use(add ? "assign.add" : "assign.sub");
        if (type->k == Ty::Range && !chance(o_.risk_percent)) {
          // Guarded so that the store stays in range.
          const std::string bound = add ? std::to_string(type->hi - std::stoi(step))
                                        : std::to_string(type->lo + std::stoi(step));
          return fmt::format("{}if {} {} {} {{\n{}  {} {} {};\n{}}}\n", at, target, add ? "<=" : ">=",
                             bound, at, target, add ? "+=" : "-=", step, at);
        }
        return fmt::format("{}{} {} {};\n", at, target, add ? "+=" : "-=", step);
      }
      if (type->k == Ty::Set && chance(50)) {
        const bool add = chance(50);
        use(add ? "assign.set_add" : "assign.set_remove");
        return fmt::format("{}{} {} {};\n", at, target, add ? "+=" : "-=", set_expr(type->inner, c, depth - 1));
      }
      if (type->k == Ty::Cell && !can_make(type, c)) continue;
      return fmt::format("{}{} := {};\n", at, target, stored(type, c, depth));
    }
    if (r < 55 && depth > 0) {
      use("stmt.if");
      std::string s = at + "if " + bool_expr(c, depth - 1) + " " + block(c, kind, indent, depth - 1);
      if (chance(40)) {
        if (chance(30)) {
          use("stmt.else_if");
          s += " else if " + bool_expr(c, depth - 1) + " " + block(c, kind, indent, depth - 1);
        }
        use("stmt.else");
        s += " else " + block(c, kind, indent, depth - 1);
      }
      return s + "\n";
    }
    if (r < 67 && depth > 0) {
      use("stmt.for");
      std::vector<Local> b;
      const std::string bind = binder(c, depth, b, true, false);
      c.locals.insert(c.locals.end(), b.begin(), b.end());
      const std::string body = block(c, kind, indent, depth - 1);
      c.locals.resize(c.locals.size() - b.size());
      return at + "for " + bind + " " + body + "\n";
    }
    if (r < 75) {
      use("stmt.let");
      static const std::vector<Ty::K> kinds = {Ty::Int, Ty::Bool, Ty::Player, Ty::Set};
      const Ty::K k = pick(kinds);
      const T t = k == Ty::Set ? set_of(mk(Ty::Cell)) : mk(k);
      const std::string value = expr(t, c, depth);
      Local l{local_name(c), t};
      c.locals.push_back(l);
      return fmt::format("{}let {} = {};\n", at, l.name, value);
    }
    if (!in_play) continue;
    if (r < 81) {
      use("stmt.again");
      return at + "again;\n";
    }
    if (r < 85 && chance(40)) {
      use("stmt.eliminate");
      return at + "eliminate " + expr(mk(Ty::Player), c, depth - 1) + ";\n";
    }
    if (r < 92 && phase_names_.size() > 1) {
      std::vector<std::string> targets;
      for (const std::string& p : phase_names_)
        if (!shadowed(c, p)) targets.push_back(p);
      if (targets.empty()) continue;
      use("stmt.goto");
      return at + "goto " + pick(targets) + ";\n";
    }
    if (r < 96 && chance(40)) {
      use("stmt.end");
      return at + "end;\n";
    }
  }
  // Nothing fit: a harmless let.
  use("stmt.let");
  Local l{local_name(c), mk(Ty::Int)};
  const std::string value = int_expr(c, 0);
  c.locals.push_back(l);
  return fmt::format("{}let {} = {};\n", at, l.name, value);
}

}  // namespace rulebook::testing::gen
