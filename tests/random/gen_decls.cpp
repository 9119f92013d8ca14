// The declarations of a generated rules file, in an order in which each may use the ones
// before it: params, board, players, types, setups, states, defines, rules, phases, end.
#include <fmt/core.h>

#include <algorithm>

#include "tests/random/gen_internal.h"

namespace rulebook::testing::gen {

namespace {

/// The context of a place of a rules file (docs/language.md, "when a value is known").
Ctx place(int level, bool mover, bool can) {
  Ctx c;
  c.level = level;
  c.mover = mover;
  c.can = can;
  return c;
}

}  // namespace

GeneratedProgram Gen::run() {
  std::string s = fmt::format("game \"random\";\n\n");
  const int depth = o_.max_depth;

  // ---- params and the board
  height_ = between(2, 4);
  width_ = between(2, 4);
  if (height_ * width_ > 12 && chance(50)) height_ = 2;
  std::string rows = std::to_string(height_), cols = std::to_string(width_);
  if (chance(50)) {
    const std::string n = fresh("side");
    s += fmt::format("param {} = {};\n", n, height_ - 1);
    globals_.push_back(Global{Global::Param, n, mk(Ty::Int), {}});
    rows = n + " + 1";
    use("decl.param");
    if (chance(50)) {
      const std::string m = fresh("limit");
      const int v = between(1, 3);
      s += fmt::format("param {}: 1..5 = {} * 1;\n", m, v);
      globals_.push_back(Global{Global::Param, m, mk(Ty::Int), {}});
      use("decl.param_typed");
    }
  }
  s += fmt::format("board {} x {};\n", rows, cols);
  // Regions: blocks that tile the board, or a drawn grid.
  if (chance(40)) {
    const std::string n = fresh("zone");
    std::vector<std::pair<int, int>> tiles;
    for (int r = 1; r <= height_; ++r)
      for (int c = 1; c <= width_; ++c)
        if (height_ % r == 0 && width_ % c == 0) tiles.push_back({r, c});
    if (chance(60)) {
      const auto [r, c] = pick(tiles);
      s += fmt::format("regions {} = blocks {} x {};\n", n, r, c);
      use("decl.regions_blocks");
    } else {
      s += fmt::format("regions {} = grid {{\n", n);
      for (int y = 0; y < height_; ++y) {
        std::string row;
        for (int x = 0; x < width_; ++x) row += "AB.C"[below(4)];
        s += "  \"" + row + "\"\n";
      }
      s += "};\n";
      use("decl.regions_grid");
    }
    region_names_.push_back(n);
  }

  // ---- players and teams
  players_ = between(1, 3);
  if (chance(30)) {
    std::string names;
    for (int i = 0; i < players_; ++i) {
      player_names_.push_back(fresh("pl"));
      names += (i ? ", " : "") + player_names_.back();
    }
    s += fmt::format("players {} named {{{}}};\n", players_, names);
    use("decl.players_named");
  } else {
    for (int i = 1; i <= players_; ++i) player_names_.push_back("p" + std::to_string(i));
    s += fmt::format("players {};\n", players_);
  }
  for (const std::string& p : player_names_) taken_.insert(p);
  if (players_ >= 2 && chance(30)) {
    const int split = between(1, players_ - 1);
    for (int t = 0; t < 2; ++t) {
      team_names_.push_back(fresh("side"));
      team_members_.emplace_back();
      std::string m;
      for (int i = t == 0 ? 0 : split; i < (t == 0 ? split : players_); ++i) {
        m += (m.empty() ? "" : ", ") + player_names_[size_t(i)];
        team_members_.back().push_back(i);
      }
      s += fmt::format("team {} = {{{}}};\n", team_names_.back(), m);
    }
    use("decl.team");
  }

  // ---- types
  level_name_ = fresh("Level");
  const int top = between(2, 4);
  level_ = range(0, top);
  s += fmt::format("\ntype {} = 0..{};\n", level_name_, top);
  for (int e = 0, n = int(below(3)); e < n; ++e) {
    EnumDecl d{fresh("Kind"), {}};
    for (int i = 0, m = between(2, 3); i < m; ++i) d.members.push_back(fresh("kind"));
    std::string members;
    for (const std::string& m : d.members) members += (members.empty() ? "" : ", ") + m;
    s += fmt::format("type {} = {{{}}};\n", d.name, members);
    enums_.push_back(d);
    use("decl.enum");
  }
  if (chance(50)) {
    RecordDecl r{fresh("Rec"), {}, {}};
    r.fields = {fresh("fld"), fresh("fld")};
    r.types = {range(1, between(1, 3)), chance(50) ? mk(Ty::Bool) : level_};
    if (!enums_.empty() && chance(40)) r.types[1] = std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, 0, nullptr});
    s += fmt::format("type {} = {{{}: {}, {}: {}}};\n", r.name, r.fields[0], type_text(r.types[0]),
                     r.fields[1], type_text(r.types[1]));
    records_.push_back(r);
    use("decl.record");
  }

  // ---- the phases and moves, named now: defines and blocks refer to them
  for (int p = 0, n = between(1, 3); p < n; ++p) phase_names_.push_back(fresh("stage"));
  for (int p = 0; p < int(phase_names_.size()); ++p) {
    auto in_phase = [&](const std::string& name) {
      return std::any_of(moves_.begin(), moves_.end(),
                         [&](const MoveDecl& x) { return x.phase == p && x.name == name; });
    };
    for (int m = 0, n = between(1, 2); m < n; ++m) {
      // A move of an earlier phase again: one name is one move (the same parameters, which
      // rules and can() read), and never twice in one phase.
      if (o_.move_in_two_phases && p > 0 && chance(30)) {
        MoveDecl again = pick(moves_);
        if (again.phase < p && !in_phase(again.name)) {
          again.phase = p;
          moves_.push_back(again);
          use("move.in_two_phases");
          continue;
        }
      }
      MoveDecl d;
      d.phase = p;
      d.name = fresh("mv");
      Ctx none;
      for (int k = 0, np = int(below(3)); k < np; ++k) {
        static const std::vector<Ty::K> kinds = {Ty::Cell, Ty::Cell, Ty::Range, Ty::Player, Ty::Bool, Ty::Orient, Ty::Enum};
        Ty::K kind = pick(kinds);
        T t = kind == Ty::Range ? level_ : mk(kind);
        if (kind == Ty::Enum) t = enums_.empty() ? mk(Ty::Bool) : std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, 0, nullptr});
        std::string name = local_name(none);
        none.locals.push_back(Local{name, t});
        d.params.push_back(name);
        d.types.push_back(t);
      }
      moves_.push_back(d);
      // `m_checked` beside `m`: a fresh name, or none when another declaration has it.
      if (o_.checked_suffix_moves && chance(20) && taken_.insert(d.name + "_checked").second) {
        MoveDecl e = d;
        e.name = d.name + "_checked";
        moves_.push_back(e);
        use("move.checked_suffix");
      }
    }
  }

  // ---- setups
  s += "\n";
  for (int k = 0, n = int(below(3)); k < n; ++k) {
    Ctx c = place(1, false, false);
    const std::string name = fresh("drawn");
    const int r = int(below(3));
    if (r == 0) {
      const bool cells = chance(60);
      const T elem = cells ? mk(Ty::Cell) : level_;
      const int max = cells ? width_ * height_ : level_->hi + 1;
      int count = between(0, std::min(max, 3));
      if (chance(o_.risk_percent)) count = max + 1, use("risk.random_too_many");
      s += fmt::format("setup {}: set of {} = random {} of {};\n", name, type_text(elem), count,
                       cells ? "cells" : fmt::format("0..{}", level_->hi));
      globals_.push_back(Global{Global::Setup, name, set_of(elem), {}, false, 1});
      use("setup.random");
    } else if (r == 1) {
      const bool pl = chance(50);
      const T elem = pl ? mk(Ty::Player) : level_;
      s += fmt::format("setup {}: seq of {} = shuffle {};\n", name, type_text(elem),
                       pl ? "players" : fmt::format("0..{}", level_->hi));
      globals_.push_back(Global{Global::Setup, name, seq_of(elem), {}, false, 1});
      use("setup.shuffle");
    } else {
      const T t = chance(50) ? mk(Ty::Player) : level_;
      s += fmt::format("setup {}: {} = {};\n", name, type_text(t), stored(t, c, 1));
      globals_.push_back(Global{Global::Setup, name, t, {}, false, 1});
      use("setup.value");
    }
  }

  // ---- states
  for (int k = 0, n = between(2, 5); k < n; ++k) {
    Ctx c = place(1, false, false);
    Global g{Global::State, fresh("st"), nullptr, {}, false, 2};
    const int r = int(below(100));
    std::string init;
    if (r < 25) {
      static const std::vector<Ty::K> values = {Ty::Range, Ty::Bool, Ty::Opt, Ty::Opt, Ty::Enum};
      const Ty::K v = pick(values);
      g.keys = {mk(Ty::Cell)};
      g.type = v == Ty::Range ? level_ : v == Ty::Opt ? opt(mk(Ty::Player)) : mk(v);
      if (v == Ty::Enum) g.type = enums_.empty() ? mk(Ty::Bool) : std::make_shared<Ty>(Ty{Ty::Enum, 0, 0, int(below(enums_.size())), nullptr});
    } else if (r < 35) {
      g.keys = {mk(Ty::Player)};
      g.type = level_;
    } else if (r < 42) {
      g.keys = {mk(Ty::Player), chance(50) ? mk(Ty::Cell) : level_};
      g.type = chance(50) ? mk(Ty::Bool) : level_;
    } else if (r < 52) {
      g.type = set_of(chance(70) ? mk(Ty::Cell) : level_);
    } else if (r < 58 && (seq_states_ == 0 || o_.two_initialized_seq_states)) {
      ++seq_states_;
      g.seq_len = between(1, 3);
      g.type = seq_of(level_);
      init = "[";
      for (int i = 0; i < g.seq_len; ++i) init += (i ? ", " : "") + std::to_string(between(0, level_->hi));
      init += "]";
      use("state.seq");
    } else if (r < 64 && !records_.empty()) {
      T rt = std::make_shared<Ty>(Ty{Ty::Record, 0, 0, 0, nullptr});
      g.type = chance(50) ? rt : opt(rt);
      if (chance(40)) g.keys = {mk(Ty::Player)};
    } else if (r < 68) {
      g.type = chance(50) ? mk(Ty::Cell) : opt(mk(Ty::Cell));
    } else if (r < 72) {
      g.type = chance(50) ? opt(mk(Ty::Phase)) : mk(Ty::Orient);
    } else if (r < 76 && !team_names_.empty()) {
      g.type = opt(mk(Ty::Team));
    } else {
      g.type = chance(50) ? level_ : mk(Ty::Bool);
      if (chance(50)) init = stored(g.type, c, 1), use("state.initial");
    }
    std::string keys;
    for (const T& key : g.keys) keys += type_text(key) + " -> ";
    s += fmt::format("state {}: {}{}{};\n", g.name, keys, type_text(g.type), init.empty() ? "" : " = " + init);
    use(g.keys.empty() ? "state.scalar" : g.keys.size() == 2 ? "state.map2" : "state.map");
    globals_.push_back(g);
  }

  // ---- defines, each from the ones before
  s += "\n";
  if (chance(25)) {
    Global g{Global::Define, fresh("drawing"), level_, {mk(Ty::Cell)}, false, 0};
    s += fmt::format("define {}: Cell -> {} = grid {{\n", g.name, level_name_);
    for (int y = 0; y < height_; ++y) {
      std::string row;
      for (int x = 0; x < width_; ++x) row += "01L."[below(4)];
      s += "  \"" + row + "\"\n";
    }
    s += fmt::format("}} with {{L = {}}};\n", level_->hi);
    globals_.push_back(g);
    use("literal.grid");
  }
  for (int k = 0, n = between(1, 5); k < n; ++k) {
    const int level = chance(50) ? 3 : 2;
    Ctx c = place(level, level == 3, false);
    Global g{Global::Define, fresh("calc"), nullptr, {}, false, level};
    static const std::vector<Ty::K> results = {Ty::Int, Ty::Int, Ty::Bool, Ty::Bool, Ty::Set, Ty::Player, Ty::Range};
    const Ty::K rk = pick(results);
    g.type = rk == Ty::Set ? set_of(mk(Ty::Cell)) : rk == Ty::Range ? level_ : mk(rk);
    std::string params;
    if (chance(50)) {
      g.call = true;
      for (int i = 0, np = int(below(3)); i < np; ++i) {
        // A set of cells too: the engines remember such a define per set (scoped-defines).
        static const std::vector<Ty::K> kinds = {Ty::Cell, Ty::Player, Ty::Range, Ty::Set};
        const Ty::K pk = pick(kinds);
        Local l{local_name(c), pk == Ty::Range ? level_ : pk == Ty::Set ? set_of(mk(Ty::Cell)) : mk(pk)};
        params += (i ? ", " : "") + l.name + ": " + type_text(l.type);
        c.locals.push_back(l);
        g.keys.push_back(l.type);
      }
      use(g.keys.empty() ? "define.empty_parens" : "define.params");
    }
    const std::string body = expr(g.type, c, depth);
    const bool typed = chance(70) || g.type->k == Ty::Set || g.type->k == Ty::Range;
    s += fmt::format("define {}{}{} = {};\n", g.name, g.call ? "(" + params + ")" : "",
                     typed ? ": " + type_text(g.type) : "", body);
    if (!typed && g.type->k == Ty::Range) g.type = mk(Ty::Int);
    globals_.push_back(g);
    if (o_.compute_suffix_defines && chance(20)) {
      Global h = g;
      h.name = g.name + "_compute";
      taken_.insert(h.name);
      s += fmt::format("define {}{}{} = {};\n", h.name, g.call ? "(" + params + ")" : "",
                       ": " + type_text(g.type), body);
      globals_.push_back(h);
    }
  }

  // ---- init
  for (int k = 0, n = int(below(3)); k < n; ++k) {
    Ctx c = place(2, false, true);
    s += "\ninit " + block(c, Block::Init, 0, 2) + "\n";
    use("decl.init");
  }

  // ---- rules
  s += "\n";
  for (int k = 0, n = int(below(3)); k < n; ++k) {
    Ctx c = place(3, true, false);
    const std::string name = fresh("rule");
    const std::string desc = chance(50) ? " \"a \\\"quoted\\\" rule\"" : "";
    // A board rule over the keys of one map, now and then: the engine plan answers such
    // rules from tables and the others by their code (pass rule-tables).
    if (chance(12)) {
      if (std::string r = keyed_rule(); !r.empty()) {
        s += fmt::format("rule {}{}: {};\n", name, desc, r);
        use("rule.board.keyed");
        board_rules_ = true;
        continue;
      }
    }
    // A board rule that fails leaves no legal move at all: rarer than move rules.
    if (chance(15)) {
      s += fmt::format("rule {}{}: {};\n", name, desc, bool_expr(c, depth - 1));
      use("rule.board");
      board_rules_ = true;
      continue;
    }
    std::string on;
    std::vector<std::string> named;
    for (int m = 0, nm = between(1, 2); m < nm; ++m) {
      const MoveDecl& mv = pick(moves_);
      if (std::find(named.begin(), named.end(), mv.name) != named.end()) continue;
      named.push_back(mv.name);
      // The rule binds its own names to the first move's parameters.
      if (m == 0) {
        std::string binds;
        for (size_t i = 0; i < mv.params.size(); ++i) {
          Local l{local_name(c), mv.types[i]};
          binds += (i ? ", " : "") + l.name;
          c.locals.push_back(l);
        }
        on += mv.name + (mv.params.empty() ? "" : "(" + binds + ")");
      } else {
        // A second move of the same parameter types, bound alike.
        bool alike = mv.types.size() == moves_[0].types.size();
        const MoveDecl& first = *std::find_if(moves_.begin(), moves_.end(),
                                              [&](const MoveDecl& d) { return d.name == named[0]; });
        alike = mv.types.size() == first.types.size();
        for (size_t i = 0; alike && i < mv.types.size(); ++i) alike = same(mv.types[i], first.types[i]);
        if (!alike) continue;
        std::string binds;
        for (size_t i = 0; i < mv.params.size(); ++i) binds += (i ? ", " : "") + c.locals[i].name;
        on += ", " + mv.name + (binds.empty() ? "" : "(" + binds + ")");
        use("rule.two_moves");
      }
    }
    s += fmt::format("rule {}{} on {}: {};\n", name, desc, on, bool_expr(c, depth));
    use("rule.move");
  }

  // ---- phases
  std::string actions;  // the bodies of moves written as actions, declared after the phases
  for (int p = 0; p < int(phase_names_.size()); ++p) {
    s += fmt::format("\nphase {} {{\n", phase_names_[size_t(p)]);
    for (size_t mi = 0; mi < moves_.size(); ++mi) {
      const MoveDecl& m = moves_[mi];
      if (m.phase != p) continue;
      Ctx c = place(3, true, false);
      std::string params;
      for (size_t i = 0; i < m.params.size(); ++i) {
        params += (i ? ", " : "") + m.params[i] + ": " + type_text(m.types[i]);
        c.locals.push_back(Local{m.params[i], m.types[i]});
      }
      s += fmt::format("  move {}{}\n", m.name, m.params.empty() ? "" : "(" + params + ")");
      use(m.params.empty() ? "move.no_params" : m.params.size() == 2 ? "move.two_params" : "move.params");
      for (int r = 0, nr = chance(50) ? 0 : between(1, 2); r < nr; ++r) {
        s += "    requires " + bool_expr(c, depth) + ";\n";
        use("move.requires");
      }
      allow_can_in_block(c, m.name);
      if (chance(25)) {
        // The body as an action the move calls with its own parameters: inlined, it must
        // run exactly as the body written in place.
        // Not one of the move's parameter names: a parameter would hide it at the call.
        std::string action = fresh("act");
        while (std::find(m.params.begin(), m.params.end(), action) != m.params.end()) action = fresh("act");
        std::string args;
        for (size_t i = 0; i < m.params.size(); ++i) args += (i ? ", " : "") + m.params[i];
        actions += fmt::format("\naction {}({}) {}\n", action, params,
                               block(c, Block::Move, 0, depth));
        s += fmt::format("  {{ {}({}); }}\n", action, args);
        use("move.action");
      } else {
        s += "  " + block(c, Block::Move, 1, depth) + "\n";
      }
    }
    if (chance(50)) {
      Ctx c = place(3, true, true);
      s += "  when stuck " + block(c, Block::Stuck, 1, 2) + "\n";
      use("phase.stuck");
    }
    for (int u = 0, nu = int(below(3)); u < nu; ++u) {
      Ctx c = place(3, true, true);
      const bool to_end = chance(30);
      s += fmt::format("  until {} -> {};\n", bool_expr(c, depth - 1),
                       to_end ? "end" : phase_names_[below(phase_names_.size())]);
      use(to_end ? "phase.until_end" : "phase.until");
    }
    s += "}\n";
  }
  s += actions;

  // ---- the end, scores, metrics and properties
  s += "\n";
  if (chance(60)) {
    Ctx c = place(3, true, true);
    s += "end when " + bool_expr(c, depth) + ";\n";
    use("decl.end_when");
  }
  {
    Ctx c = place(2, false, true);
    const bool team = !team_names_.empty() && chance(50);
    Local subject{local_name(c), mk(team ? Ty::Team : Ty::Player)};
    c.locals.push_back(subject);
    std::string value = int_expr(c, depth);
    if (chance(30)) {
      value = "[" + value + ", " + int_expr(c, depth - 1) + "]";
      use("score.tuple");
    }
    s += fmt::format("score {}{} = {};\n", team ? "team " : "", subject.name, value);
    s += fmt::format("winner {}{};\n", chance(50) ? "highest" : "lowest", team ? " team" : "");
    use(team ? "score.team" : "score.player");
  }
  for (int k = 0, n = int(below(3)); k < n; ++k) {
    Ctx c = place(3, true, true);
    const std::string name = fresh("metric");
    const std::string value = chance(70) ? int_expr(c, depth - 1) : bool_expr(c, depth - 1);
    if (chance(50)) {
      s += fmt::format("metric {} = {} at end;\n", name, value);
      use("metric.at_end");
    } else {
      s += fmt::format("metric {} \"d\" = {} when {};\n", name, value, bool_expr(c, depth - 1));
      use("metric.when");
    }
  }
  for (int k = 0, n = int(below(2)); k < n; ++k) {
    Ctx c = place(3, true, false);
    const std::string name = fresh("prop");
    const std::string where = chance(50) ? " where " + bool_expr(c, 1) : "";
    const int r = int(below(3));
    if (r == 0) s += fmt::format("prove {} over boards{}: {};\n", name, where, bool_expr(c, depth - 1));
    if (r == 1) s += fmt::format("find {} over boards{}: {};\n", name, where, bool_expr(c, depth - 1));
    if (r == 2) s += fmt::format("bound {} over boards{}: max {};\n", name, where, int_expr(c, depth - 1));
    use("decl.property");
  }
  out_.text = s;
  return out_;
}

void Gen::allow_can_in_block(Ctx& c, const std::string& move) const {
  c.can = !board_rules_ || o_.can_through_board_rules;
  if (!board_rules_) return;
  size_t first = 0;
  while (moves_[first].name != move) ++first;
  c.can_below = int(first);
  if (first == 0) c.can = false;
}

std::string Gen::keyed_rule() {
  // A map of ints or bools keyed by a range, the cells or the players.
  std::vector<const Global*> maps;
  for (const Global& g : globals_)
    if (g.kind == Global::State && g.keys.size() == 1 &&
        (g.keys[0]->k == Ty::Range || g.keys[0]->k == Ty::Cell || g.keys[0]->k == Ty::Player) &&
        (is_int(g.type) || g.type->k == Ty::Bool))
      maps.push_back(&g);
  if (maps.empty()) return "";
  const Global& m = *pick(maps);
  const T& key = m.keys[0];
  const std::string keys = key->k == Ty::Range  ? fmt::format("{}..{}", key->lo, key->hi)
                           : key->k == Ty::Cell ? "cells"
                                                : "players";
  const std::string a = fresh("ka"), b = fresh("kb");
  const std::string va = m.name + "[" + a + "]", vb = m.name + "[" + b + "]";
  const int k = between(0, 4);
  std::string body;
  if (chance(30)) {  // one key
    if (is_int(m.type)) body = chance(50) ? fmt::format("{} <= {}", va, k + 1) : fmt::format("{} != {}", va, k);
    else body = chance(50) ? va : "not " + va;
    return fmt::format("all {} in {}: {}", a, keys, body);
  }
  if (is_int(m.type)) {
    const int form = between(0, 2);
    body = form == 0   ? fmt::format("{} != {} or {} == 0", va, vb, va)
           : form == 1 ? fmt::format("{} + {} <= {}", va, vb, k + 2)
                       : fmt::format("abs({} - {}) != {}", va, vb, k + 1);
  } else {
    body = chance(50) ? fmt::format("not ({} and {})", va, vb) : fmt::format("{} or not {}", va, vb);
  }
  return fmt::format("all {} in {}, {} in {} where {} != {}: {}", a, keys, b, keys, a, b, body);
}

}  // namespace rulebook::testing::gen
