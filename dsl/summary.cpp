// The game summary: one line per part of the rulebook, in the order a reader meets them.
#include "dsl/summary.h"

#include <fmt/format.h>

#include "dsl/printer.h"

namespace rulebook::dsl {

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string number(const std::optional<int64_t>& v, const ExprPtr& e) {
  if (v) return std::to_string(*v);
  return e ? format_expr(*e) : "?";
}

// Types as the designer wrote them (`seq of Card`, not the record), ranges worked out.
std::string type_text(const Game& g, const TypeExpr* t) {
  if (!t) return "?";
  auto resolved = g.type_exprs.find(t);
  switch (t->kind) {
    case TypeKind::Bool: return "bool";
    case TypeKind::Int: return "int";
    case TypeKind::Named: return t->name.name;
    case TypeKind::Range:
    case TypeKind::Enum:
    case TypeKind::Record:
      if (resolved != g.type_exprs.end() && !is_error(resolved->second) && t->kind != TypeKind::Record)
        return to_string(resolved->second);
      break;
    case TypeKind::Optional: {
      std::string inner = type_text(g, t->elems[0].get());
      bool wrap = t->elems[0]->kind == TypeKind::Set || t->elems[0]->kind == TypeKind::Seq ||
                  t->elems[0]->kind == TypeKind::Map;
      return (wrap ? "(" + inner + ")" : inner) + "?";
    }
    case TypeKind::Set: return "set of " + type_text(g, t->elems[0].get());
    case TypeKind::Seq: return "seq of " + type_text(g, t->elems[0].get());
    case TypeKind::Map:
      return type_text(g, t->elems[0].get()) + " -> " + type_text(g, t->elems[1].get());
  }
  if (t->kind == TypeKind::Record) {
    std::vector<std::string> fields;
    for (size_t i = 0; i < t->members.size(); ++i)
      fields.push_back(t->members[i].name + ": " + type_text(g, t->elems[i].get()));
    return fmt::format("{{{}}}", join(fields));  // not "{" + ...: GCC 12 warns falsely
  }
  return format_type(*t);
}

std::string params_text(const Game& g, const std::vector<ParamDecl>& params) {
  std::vector<std::string> parts;
  for (const auto& p : params) parts.push_back(p.name.name + ": " + type_text(g, p.type.get()));
  return join(parts);
}


std::string over_text(const PropertySet& s) {
  std::string text = s.moves       ? (s.reachable ? "reachable moves" : "moves")
                     : s.reachable ? "reachable"
                     : s.play      ? "play"
                                   : "boards";
  if (!s.moves && !s.phase.name.empty()) text += " of " + s.phase.name;
  if (s.moves && !s.move_names.empty()) {
    std::vector<std::string> names;
    for (const auto& m : s.move_names) names.push_back(m.name);
    text += ' ';
    text += join(names);
  }
  for (size_t i = 0; i < s.setups.size(); ++i)
    text += (i == 0 ? " with " : ", ") + s.setups[i].first.name + " = " + format_expr(*s.setups[i].second);
  if (s.where) text += " where " + format_expr(*s.where);
  return text;
}

}  // namespace

std::string describe(const Game& g) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };

  line(g.title);
  for (size_t i = g.files.size(); i-- > 0;) {
    const GameFile& f = g.files[i];
    std::string text = fmt::format("  {} \"{}\" in {}", f.is_variant ? "variant" : "game", f.title, f.path);
    if (f.is_variant) text += fmt::format(", extends \"{}\"", f.extends);
    line(text);
  }

  if (g.board) line(fmt::format("board: {} x {}", number(g.rows, g.board->rows),
                                number(g.columns, g.board->columns)));
  for (const RegionInfo& r : g.regions) {
    std::string shape = r.regions->grid
                            ? "grid"
                            : fmt::format("blocks {} x {}",
                                          number(g.constant(*r.regions->block_rows), r.regions->block_rows),
                                          number(g.constant(*r.regions->block_columns),
                                                 r.regions->block_columns));
    std::string count = r.count ? fmt::format(" ({} regions)", r.count) : "";
    line(fmt::format("regions {} = {}{}", r.name, shape, count));
  }

  if (g.players) {
    line(fmt::format("players: {}{}", g.player_names.size(),
                     g.player_names.empty() ? "" : " (" + join(g.player_names) + ")"));
  }
  for (const TeamInfo& t : g.teams) {
    std::vector<std::string> members;
    for (int seat : t.members)
      if (seat >= 0 && size_t(seat) < g.player_names.size()) members.push_back(g.player_names[size_t(seat)]);
    line(fmt::format("team {} = {{{}}}", t.name, join(members)));
  }

  for (const Param* p : g.params) {
    const Symbol* s = g.global(p->name.name);
    std::string value = s && s->value && s->type && is_int(s->type) ? std::to_string(*s->value)
                                                                     : format_expr(*p->value);
    line(fmt::format("param {} = {}", p->name.name, value));
  }
  for (const Setup* s : g.setups) line(fmt::format("setup {}: {}", s->name.name, type_text(g, s->type.get())));
  for (const State* s : g.states) line(fmt::format("state {}: {}", s->name.name, type_text(g, s->type.get())));

  for (size_t i = 0; i < g.phases.size(); ++i) {
    const PhaseInfo& p = g.phases[i];
    line(fmt::format("phase {}{}", p.name, i == 0 ? " (play starts here)" : ""));
    for (const Move* m : p.moves) {
      const std::string params = m->params.empty() ? "" : fmt::format("({})", params_text(g, m->params));
      line(fmt::format("  move {}{}", m->name.name, params));
    }
    for (const Transition& t : p.phase->transitions)
      line(fmt::format("  until {} -> {}", format_expr(*t.condition), t.is_end ? "end" : t.target.name));
    if (p.phase->has_stuck) line("  when stuck { ... }");
  }

  std::vector<std::string> board_rules, move_rules;
  for (const Rule* r : g.rules) {
    if (r->on.empty()) {
      board_rules.push_back(r->name.name);
      continue;
    }
    std::vector<std::string> on;
    for (const MoveRef& m : r->on) on.push_back(m.move.name);
    move_rules.push_back(r->name.name + " on " + join(on, " & "));
  }
  if (!board_rules.empty()) line("board rules: " + join(board_rules));
  if (!move_rules.empty()) line("move rules: " + join(move_rules));

  if (g.score) {
    line(fmt::format("score {}{} = {}", g.score->per_team ? "team " : "", g.score->var.name,
                     format_expr(*g.score->value)));
  }
  if (g.winner) {
    line(fmt::format("winner: {}{}", g.winner->highest ? "highest" : "lowest",
                     g.winner->per_team ? " team" : ""));
  }
  if (g.end_when) line("end when " + format_expr(*g.end_when->condition));

  for (const Property* p : g.properties) {
    switch (p->kind) {
      case PropertyKind::Depends:
        line(fmt::format("depends {}", p->subject.name.empty() ? p->name.name : p->subject.name));
        break;
      case PropertyKind::Consistent:
        line(fmt::format("consistent {}", p->name.name));
        break;
      case PropertyKind::Redundant:
        line(fmt::format("redundant {}: {}", p->name.name, p->subject.name));
        break;
      default:
        line(fmt::format("{} {} over {}", property_keyword(p->kind), p->name.name, over_text(p->over)));
    }
  }
  for (const Metric* m : g.metrics) {
    line(fmt::format("metric {} {}", m->name.name,
                     m->when ? "when " + format_expr(*m->when) : std::string("at end")));
  }
  for (const Symmetry* s : g.symmetries) {
    std::vector<std::string> swaps;
    for (const auto& [a, b] : s->swaps) swaps.push_back(a.name + " <-> " + b.name);
    line(fmt::format("symmetry {}: swap {}", s->name.name, join(swaps)));
  }
  return out;
}

}  // namespace rulebook::dsl
