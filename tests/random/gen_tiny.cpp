// Programs small enough to enumerate (GenOptions::tiny_for_proofs): a board of 2 to 6
// cells, a few state variables of small domains, and properties of every kind, so that the
// verifier's verdicts can be checked against brute force (tests/random/proof_check.h).
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include "tests/random/gen_internal.h"

namespace rulebook::testing::gen {

namespace {

/// The states of the program's own variables together stay under this many (the engine's
/// mover, out flags and phase multiply it when a question reads them).
constexpr double kStateBudget = 1500;

/// Whether `name` occurs in `text` as a whole word.
bool mentions(const std::string& text, const std::string& name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    auto word = [&](size_t i) { return i < text.size() && (std::isalnum(uint8_t(text[i])) || text[i] == '_'); };
    if ((at == 0 || !word(at - 1)) && !word(at + name.size())) return true;
  }
  return false;
}

}  // namespace

std::string Gen::variable_divisor(const Ctx& c) {
  std::vector<std::string> names;
  // Locals first (a move's parameter, a binder): the verifier divides by one value at a
  // time; a number computed from the state it reports unsupported.
  for (const Local& l : c.locals)
    if (is_int(l.type)) names.push_back(l.name);
  if (!names.empty()) return pick(names);
  for (const Global& g : globals_)
    if (g.kind == Global::State && g.keys.empty() && is_int(g.type) && g.level <= c.level && !shadowed(c, g.name))
      names.push_back(g.name);
  return names.empty() ? "" : pick(names);
}

std::string Gen::satisfiable(Ctx& c, int depth) {
  // A variable against one of its values holds on a part of the states; a random
  // condition, redrawn when it is a constant, on some other part.
  std::vector<const Global*> scalars;
  for (const Global& g : globals_)
    if ((g.kind == Global::State || g.kind == Global::Setup) && g.keys.empty() && !shadowed(c, g.name) &&
        (is_int(g.type) || g.type->k == Ty::Bool))
      scalars.push_back(&g);
  auto atom = [&] {
    const Global& g = *pick(scalars);
    use("tiny.condition_value");
    if (g.type->k == Ty::Bool) return chance(50) ? g.name : "not " + g.name;
    return fmt::format("{} {} {}", g.name, pick(std::vector<std::string>{"==", "!=", "<=", ">="}),
                       between(g.type->lo, g.type->hi));
  };
  if (!scalars.empty() && chance(40)) return atom();
  // Redrawn (a few times) until it reads the state: a condition of constants alone holds
  // everywhere or nowhere.
  auto reads_state = [&](const std::string& e) {
    if (mentions(e, "mover") || mentions(e, "out")) return true;
    for (const Global& g : globals_)
      if (g.kind != Global::Param && mentions(e, g.name)) return true;
    return false;
  };
  std::string e;
  for (int tries = 0; tries < 6; ++tries) {
    e = bool_expr(c, depth + (tries >= 3 ? 1 : 0));
    if (reads_state(e)) break;
  }
  // Or'ed with a value condition now and then, so that it holds somewhere.
  if (!scalars.empty() && chance(35)) return "(" + e + ") or " + atom();
  return e;
}

GeneratedProgram Gen::run_tiny() {
  std::string s = "game \"proofs\";\n\n";
  // One level shallower than the usual programs (2 by default): the sets are enumerated.
  const int depth = std::max(1, o_.max_depth - 1);

  // ---- the board: 2 to 6 cells
  static const std::vector<std::pair<int, int>> boards = {{1, 2}, {1, 3}, {2, 2}, {2, 2}, {1, 4}, {2, 3},
                                                          {3, 2}, {1, 5}, {1, 6}, {2, 1}, {3, 1}};
  std::tie(height_, width_) = pick(boards);
  const int cells = width_ * height_;
  s += fmt::format("board {} x {};\n", height_, width_);
  use("tiny.board_" + std::to_string(cells));
  if (chance(25)) {
    std::vector<std::pair<int, int>> tiles;
    for (int r = 1; r <= height_; ++r)
      for (int c = 1; c <= width_; ++c)
        if (height_ % r == 0 && width_ % c == 0 && r * c < cells) tiles.push_back({r, c});
    if (!tiles.empty()) {
      const std::string n = fresh("zone");
      const auto [r, c] = pick(tiles);
      s += fmt::format("regions {} = blocks {} x {};\n", n, r, c);
      region_names_.push_back(n);
      use("decl.regions_blocks");
    }
  }

  // ---- players and teams
  players_ = pick(std::vector<int>{1, 2, 2, 2, 3});
  if (chance(20)) {
    std::string names;
    for (int i = 0; i < players_; ++i) {
      player_names_.push_back(fresh("pl"));
      names += (i ? ", " : "") + player_names_.back();
    }
    s += fmt::format("players {} named {{{}}};\n", players_, names);
  } else {
    for (int i = 1; i <= players_; ++i) player_names_.push_back("p" + std::to_string(i));
    s += fmt::format("players {};\n", players_);
  }
  for (const std::string& p : player_names_) taken_.insert(p);
  if (players_ >= 2 && chance(20)) {
    for (int t = 0; t < 2; ++t) {
      team_names_.push_back(fresh("side"));
      team_members_.emplace_back();
      std::string m;
      for (int i = t == 0 ? 0 : 1; i < (t == 0 ? 1 : players_); ++i) {
        m += (m.empty() ? "" : ", ") + player_names_[size_t(i)];
        team_members_.back().push_back(i);
      }
      s += fmt::format("team {} = {{{}}};\n", team_names_.back(), m);
    }
    use("decl.team");
  }

  // ---- types: a level of 2 or 3 values, an enum, a record of at most 6 values
  level_name_ = fresh("Level");
  level_ = range(0, between(1, 2));
  s += fmt::format("\ntype {} = 0..{};\n", level_name_, level_->hi);
  if (chance(40)) {
    EnumDecl d{fresh("Kind"), {fresh("kind"), fresh("kind")}};
    s += fmt::format("type {} = {{{}, {}}};\n", d.name, d.members[0], d.members[1]);
    enums_.push_back(d);
    use("decl.enum");
  }
  if (chance(25)) {
    RecordDecl r{fresh("Rec"), {fresh("fld"), fresh("fld")}, {range(1, between(1, 2)), mk(Ty::Bool)}};
    s += fmt::format("type {} = {{{}: {}, {}: bool}};\n", r.name, r.fields[0], type_text(r.types[0]), r.fields[1]);
    records_.push_back(r);
    use("decl.record");
  }
  auto size_of = [&](const T& t) -> double {
    switch (t->k) {
      case Ty::Bool: return 2;
      case Ty::Range: return t->hi - t->lo + 1;
      case Ty::Enum: return double(enums_[size_t(t->id)].members.size());
      case Ty::Record: return double(records_[size_t(t->id)].types[0]->hi) * 2;
      case Ty::Cell: return cells;
      case Ty::Player: return players_;
      case Ty::Orient: return 2;
      case Ty::Phase: return double(phase_names_.size());
      case Ty::Team: return double(team_names_.size());
      default: return 2;
    }
  };

  // ---- phases and moves; parameters are drawn from three named slots, so that moves
  // share parameters by name and type and a property over several moves can read them
  for (int p = 0, n = between(1, 2); p < n; ++p) phase_names_.push_back(fresh("stage"));
  std::vector<Local> slots;
  {
    Ctx none;
    static const std::vector<Ty::K> kinds = {Ty::Range, Ty::Player, Ty::Bool, Ty::Orient, Ty::Enum};
    for (int i = 0; i < 3; ++i) {
      T t = i == 0 ? mk(Ty::Cell) : i == 1 ? (chance(50) ? mk(Ty::Cell) : level_) : nullptr;
      if (!t) {
        const Ty::K k = pick(kinds);
        t = k == Ty::Range ? level_ : mk(k);
        if (k == Ty::Enum) t = enums_.empty() ? mk(Ty::Bool) : std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, 0, nullptr});
      }
      // Never a global's name: a property over moves reads these beside copied rule texts.
      std::string name;
      for (int tries = 0; tries < 20 && (name.empty() || taken_.count(name)); ++tries) name = local_name(none);
      if (taken_.count(name)) name = fresh("prm");
      taken_.insert(name);
      none.locals.push_back(Local{name, t});
      slots.push_back(none.locals.back());
    }
  }
  for (int p = 0; p < int(phase_names_.size()); ++p) {
    for (int m = 0, n = between(1, 2); m < n; ++m) {
      MoveDecl d;
      d.phase = p;
      d.name = fresh("mv");
      for (size_t i = 0; i < slots.size(); ++i) {
        if (d.params.size() == 2 || !chance(i == 0 ? 60 : 35)) continue;
        d.params.push_back(slots[i].name);
        d.types.push_back(slots[i].type);
      }
      moves_.push_back(d);
    }
  }

  // ---- a setup now and then (a variable of the set like any other)
  double states = 1;
  s += "\n";
  if (chance(15)) {
    Ctx c;
    c.level = 1;
    c.mover = false;
    const T t = chance(50) ? mk(Ty::Player) : level_;
    const std::string name = fresh("drawn");
    s += fmt::format("setup {}: {} = {};\n", name, type_text(t), stored(t, c, 1));
    globals_.push_back(Global{Global::Setup, name, t, {}, false, 1});
    states *= size_of(t);
    use("setup.value");
  }

  // ---- states, under the budget
  for (int k = 0, n = between(1, 3), tries = 0; k < n && tries < 20; ++tries) {
    Global g{Global::State, fresh("st"), nullptr, {}, false, 2};
    const int r = int(below(100));
    double size = 1;
    if (r < 30) {
      static const std::vector<Ty::K> values = {Ty::Bool, Ty::Bool, Ty::Range, Ty::Opt};
      const Ty::K v = pick(values);
      g.keys = {mk(Ty::Cell)};
      g.type = v == Ty::Range ? level_ : v == Ty::Opt ? opt(mk(Ty::Player)) : mk(v);
      size = std::pow(v == Ty::Opt ? players_ + 1 : size_of(g.type), cells);
    } else if (r < 40) {
      g.keys = {mk(Ty::Player)};
      g.type = chance(50) ? level_ : mk(Ty::Bool);
      size = std::pow(size_of(g.type), players_);
    } else if (r < 52) {
      g.type = set_of(chance(70) ? mk(Ty::Cell) : level_);
      size = std::pow(2, g.type->inner->k == Ty::Cell ? cells : level_->hi + 1);
    } else if (r < 57 && seq_states_ == 0) {
      ++seq_states_;
      g.seq_len = between(1, 2);
      g.type = seq_of(level_);
      size = std::pow(size_of(level_), g.seq_len);
      use("state.seq");
    } else if (r < 63 && !records_.empty()) {
      T rt = std::make_shared<Ty>(Ty{Ty::Record, 0, 0, 0, nullptr});
      g.type = chance(50) ? rt : opt(rt);
      size = size_of(rt) + (g.type->k == Ty::Opt ? 1 : 0);
    } else if (r < 70) {
      g.type = chance(50) ? mk(Ty::Cell) : opt(mk(Ty::Cell));
      size = cells + (g.type->k == Ty::Opt ? 1 : 0);
    } else if (r < 74) {
      g.type = chance(50) ? opt(mk(Ty::Phase)) : mk(Ty::Orient);
      size = g.type->k == Ty::Opt ? double(phase_names_.size()) + 1 : 2;
    } else if (r < 78 && !team_names_.empty()) {
      g.type = opt(mk(Ty::Team));
      size = double(team_names_.size()) + 1;
    } else if (r < 84 && !enums_.empty()) {
      g.type = std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, 0, nullptr});
      size = size_of(g.type);
    } else {
      g.type = chance(50) ? level_ : mk(Ty::Bool);
      size = size_of(g.type);
    }
    if (states * size > kStateBudget) {
      taken_.erase(g.name);
      continue;
    }
    states *= size;
    ++k;
    std::string keys;
    for (const T& key : g.keys) keys += type_text(key) + " -> ";
    std::string init;
    if (g.seq_len > 0) {
      init = " = [";
      for (int i = 0; i < g.seq_len; ++i) init += (i ? ", " : "") + std::to_string(between(0, level_->hi));
      init += "]";
    }
    s += fmt::format("state {}: {}{}{};\n", g.name, keys, type_text(g.type), init);
    use(g.keys.empty() ? "state.scalar" : "state.map");
    globals_.push_back(g);
  }

  // ---- defines, each from the ones before
  s += "\n";
  for (int k = 0, n = between(0, 2); k < n; ++k) {
    const int level = chance(50) ? 3 : 2;
    Ctx c;
    c.level = level;
    c.mover = level == 3;
    Global g{Global::Define, fresh("calc"), nullptr, {}, false, level};
    static const std::vector<Ty::K> results = {Ty::Int, Ty::Int, Ty::Bool, Ty::Bool, Ty::Set, Ty::Player};
    const Ty::K rk = pick(results);
    g.type = rk == Ty::Set ? set_of(mk(Ty::Cell)) : mk(rk);
    std::string params;
    if (chance(40)) {
      g.call = true;
      for (int i = 0, np = between(0, 1); i < np; ++i) {
        static const std::vector<Ty::K> kinds = {Ty::Cell, Ty::Player, Ty::Range};
        const Ty::K pk = pick(kinds);
        Local l{local_name(c), pk == Ty::Range ? level_ : mk(pk)};
        params += (i ? ", " : "") + l.name + ": " + type_text(l.type);
        c.locals.push_back(l);
        g.keys.push_back(l.type);
      }
    }
    s += fmt::format("define {}{}: {} = {};\n", g.name, g.call ? "(" + params + ")" : "", type_text(g.type),
                     expr(g.type, c, depth));
    globals_.push_back(g);
  }

  // ---- board rules: what the sets are made of. Some pin a variable (derive then has a
  // value), some repeat an earlier rule weakened (redundant by construction), rarely one
  // contradicts an earlier one (every set empty).
  std::vector<std::pair<std::string, std::string>> rules;  // name, condition
  for (int k = 0, n = pick(std::vector<int>{0, 1, 1, 2, 2, 3}); k < n; ++k) {
    Ctx c;
    const std::string name = fresh("rule");
    std::string cond;
    const int r = int(below(100));
    std::vector<const Global*> scalars;
    for (const Global& g : globals_)
      if (g.kind == Global::State && g.keys.empty() && (is_int(g.type) || g.type->k == Ty::Bool)) scalars.push_back(&g);
    if (r < 25 && !scalars.empty()) {
      const Global& g = *pick(scalars);
      cond = fmt::format("{} {} {}", g.name, chance(70) ? "==" : "!=", g.type->k == Ty::Bool ? (chance(50) ? "true" : "false")
                                                                      : std::to_string(between(g.type->lo, g.type->hi)));
      use("tiny.rule_pin");
    } else if (r < 40 && !rules.empty()) {
      cond = fmt::format("({}) or {}", pick(rules).second, bool_expr(c, 1));
      use("tiny.rule_weakened");
    } else if (r < 43 && !rules.empty()) {
      cond = fmt::format("not ({})", pick(rules).second);
      use("tiny.rule_contradicts");
    } else {
      cond = satisfiable(c, depth);
    }
    s += fmt::format("rule {}: {};\n", name, cond);
    rules.push_back({name, cond});
    board_rules_ = true;
    use("rule.board");
  }
  for (int k = 0, n = between(0, 1); k < n; ++k) {
    Ctx c;
    const MoveDecl& mv = pick(moves_);
    std::string binds;
    for (size_t i = 0; i < mv.params.size(); ++i) {
      Local l{local_name(c), mv.types[i]};
      binds += (i ? ", " : "") + l.name;
      c.locals.push_back(l);
    }
    s += fmt::format("rule {} on {}{}: {};\n", fresh("rule"), mv.name, binds.empty() ? "" : "(" + binds + ")",
                     bool_expr(c, depth));
    use("rule.move");
  }

  // ---- phases
  for (int p = 0; p < int(phase_names_.size()); ++p) {
    s += fmt::format("\nphase {} {{\n", phase_names_[size_t(p)]);
    for (const MoveDecl& m : moves_) {
      if (m.phase != p) continue;
      Ctx c;
      std::string params;
      for (size_t i = 0; i < m.params.size(); ++i) {
        params += (i ? ", " : "") + m.params[i] + ": " + type_text(m.types[i]);
        c.locals.push_back(Local{m.params[i], m.types[i]});
      }
      s += fmt::format("  move {}{}\n", m.name, m.params.empty() ? "" : "(" + params + ")");
      if (chance(40)) s += "    requires " + bool_expr(c, depth) + ";\n";
      allow_can_in_block(c, m.name);
      s += "  " + block(c, Block::Move, 1, depth) + "\n";
    }
    s += "}\n";
  }
  {
    Ctx c;
    c.level = 2;
    c.mover = false;
    Local subject{local_name(c), mk(Ty::Player)};
    c.locals.push_back(subject);
    s += fmt::format("\nscore {} = {};\nwinner highest;\n\n", subject.name, int_expr(c, 1));
  }

  // ---- properties of every kind, over every kind of set
  for (int k = 0, n = between(4, 7); k < n; ++k) {
    Ctx c;
    // can(m) reads the moves' legality (the verifier encodes it in games without board rules).
    c.can = !board_rules_;
    const std::string name = fresh("prop");
    const int kind = int(below(100));
    if (kind < 6) {
      s += fmt::format("consistent {};\n", name);
      use("tiny.consistent");
      continue;
    }
    if (kind < 12) {
      if (rules.empty()) continue;
      s += fmt::format("redundant {}: {};\n", name, pick(rules).first);
      use("tiny.redundant");
      continue;
    }
    // The set: boards, boards of a phase, every move, or one or two named moves.
    std::string set;
    const int r = int(below(100));
    std::vector<const MoveDecl*> over;
    if (r < 35) {
      set = "boards";
      use("tiny.over_boards");
    } else if (r < 50) {
      set = "boards of " + pick(phase_names_);
      use("tiny.over_boards_of");
    } else if (r < 65) {
      set = "moves";
      for (const MoveDecl& m : moves_) over.push_back(&m);
      use("tiny.over_all_moves");
    } else {
      const MoveDecl& a = pick(moves_);
      const MoveDecl& b = pick(moves_);
      over.push_back(&a);
      set = "moves " + a.name;
      if (&a != &b && chance(40)) {
        over.push_back(&b);
        set += ", " + b.name;
      }
      use(over.size() == 1 ? "tiny.over_move" : "tiny.over_two_moves");
    }
    // Over moves: the parameters every named move has, bound by name.
    if (!over.empty()) {
      for (size_t i = 0; i < over[0]->params.size(); ++i) {
        bool all = true;
        for (const MoveDecl* m : over)
          all = all && std::find(m->params.begin(), m->params.end(), over[0]->params[i]) != m->params.end();
        if (all) c.locals.push_back(Local{over[0]->params[i], over[0]->types[i]});
      }
    }
    std::string where;
    if (chance(45)) {
      where = satisfiable(c, 1);
      set += " where " + where;
      use("tiny.where");
    }
    // A board rule's text fits here unless it names one of the bound parameters.
    std::vector<std::string> fitting;
    for (const auto& [rule, cond] : rules) {
      bool ok = true;
      for (const Local& l : c.locals) ok = ok && !mentions(cond, l.name);
      if (ok) fitting.push_back(cond);
    }
    const int how = int(below(100));
    if (kind < 55) {
      // prove / lemma: a third true by construction (a board rule, the where clause or an
      // excluded middle), the rest free (mostly refuted).
      std::string goal;
      if (how < 15 && !fitting.empty()) goal = "(" + pick(fitting) + ")", use("tiny.true_rule");
      else if (how < 25 && !where.empty()) goal = fmt::format("({}) or {}", where, bool_expr(c, 1)), use("tiny.true_where");
      else if (how < 33) {
        const std::string x = bool_expr(c, depth);
        goal = fmt::format("({}) or not ({})", x, x);
        use("tiny.true_excluded_middle");
      } else {
        goal = bool_expr(c, depth);
      }
      // Three in ten a lemma (a fact the later ones assume), two a criterion (asked as a
      // prove, not met no failure), the rest a prove.
      const int role = int(below(10));
      const std::string word = role < 3 ? "lemma" : role < 5 ? "criterion" : "prove";
      s += fmt::format("{} {} over {}: {};\n", word, name, set, goal);
      use("tiny." + word);
      // Which rules it rests on (answered over boards and over one move).
      if (over.size() <= 1 && chance(30)) {
        s += fmt::format("depends {};\n", name);
        use("tiny.depends");
      }
    } else if (kind < 75) {
      // find: some none by construction (a board rule's negation), the rest free.
      std::string goal;
      if (how < 20 && !fitting.empty()) goal = "not (" + pick(fitting) + ")", use("tiny.none_rule");
      else if (how < 28 && !where.empty()) goal = "not (" + where + ")", use("tiny.none_where");
      else goal = bool_expr(c, depth);
      s += fmt::format("find {} over {}: {};\n", name, set, goal);
      use("tiny.find");
    } else if (kind < 90) {
      const bool maximize = chance(50);
      const std::string value = int_expr(c, depth);
      s += fmt::format("bound {} over {}: {} {};\n", name, set, maximize ? "max" : "min", value);
      use("tiny.bound");
      // A find over a narrower set (the bound's where and more) seeds the bound with its
      // witness (docs/verifier.md, Bounds seeded by finds).
      if (set.rfind("boards", 0) == 0 && chance(40)) {
        const std::string narrower = where.empty() ? set + " where " + satisfiable(c, 1)
                                                   : set + " and " + satisfiable(c, 1);
        s += fmt::format("find {} over {}: ({}) {} {};\n", fresh("seed"), narrower, value, maximize ? ">=" : "<=",
                         between(-1, 3));
        use("tiny.bound_seed");
      }
    } else {
      // derive: a pinned variable has one value on the whole set.
      std::string value = int_expr(c, depth);
      if (how < 50) {
        std::vector<std::string> pinned;
        for (const auto& [rule, cond] : rules) {
          const std::smatch m = [&] {
            std::smatch x;
            std::regex_match(cond, x, std::regex(R"((\w+) == (\w+))"));
            return x;
          }();
          if (!m.empty() && !shadowed(c, m[1].str())) pinned.push_back(m[1].str());
        }
        if (!pinned.empty()) value = pick(pinned), use("tiny.derive_pinned");
      }
      s += fmt::format("derive {} over {}: {};\n", name, set, value);
      use("tiny.derive");
    }
  }
  out_.text = s;
  return out_;
}

}  // namespace rulebook::testing::gen
