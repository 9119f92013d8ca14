// The printed form of a Program: one section per part, every item with its source location.
#include "compiler/ir/ir_print.h"

#include <fmt/format.h>

namespace rulebook::compiler {

namespace {

using ir::Op;

/// Sets and lists longer than this print their first elements and a count.
constexpr size_t kShown = 8;

class Printer {
 public:
  Printer(const ir::Program& p, const dsl::SourceSet* sources) : p_(p), sources_(sources) {}

  std::string where(dsl::Span span) const {
    return sources_ ? fmt::format("  ({})", ir::location(*sources_, span)) : std::string();
  }

  std::string domain(int d) const {
    return d >= 0 && size_t(d) < p_.domains.size() ? p_.domains[size_t(d)].name : "int";
  }

  std::string type(const ir::TypePtr& t) const {
    if (!t) return "?";
    switch (t->kind) {
      case ir::Type::Kind::Scalar: return domain(t->domain);
      case ir::Type::Kind::Set: return fmt::format("set of {}", domain(t->domain));
      case ir::Type::Kind::List: return fmt::format("list of {}", type(t->elem));
    }
    return "?";
  }

  std::string bits(const std::vector<uint64_t>& b, int d) const {
    std::vector<std::string> items;
    size_t count = 0;
    for (size_t i = 0; i < b.size() * 64; ++i) {
      if (!(b[i / 64] >> (i % 64) & 1)) continue;
      ++count;
      if (items.size() < kShown)
        items.push_back(d >= 0 ? ir::value_text(p_.domains, d, ir::domain_value(p_.domains, d, int64_t(i)))
                               : std::to_string(i));
    }
    std::string s = fmt::format("{{{}", fmt::join(items, ", "));
    if (count > items.size()) s += fmt::format(", ... {} in all", count);
    return s + "}";
  }

  std::string local(int slot) const {
    if (slot >= 0 && size_t(slot) < names_.size() && !names_[size_t(slot)].empty())
      return fmt::format("${}:{}", slot, names_[size_t(slot)]);
    return fmt::format("${}", slot);
  }

  std::string binder(const ir::Expr& e, const char* word) const {
    std::string s = fmt::format("{} {} in {}", word, local(e.slot), expr(*e.args[0]));
    if (e.args.size() > 1 && e.args[1]) s += fmt::format(" where {}", expr(*e.args[1]));
    if (e.args.size() > 2 && e.args[2]) s += fmt::format(": {}", expr(*e.args[2]));
    return fmt::format("({})", s);
  }

  std::string list(const std::vector<ir::ExprPtr>& args, size_t from = 0) const {
    std::vector<std::string> items;
    for (size_t i = from; i < args.size() && items.size() < kShown; ++i)
      items.push_back(args[i] ? expr(*args[i]) : "_");
    std::string s = fmt::format("{}", fmt::join(items, ", "));
    if (args.size() - from > items.size()) s += fmt::format(", ... {} in all", args.size() - from);
    return s;
  }

  std::string expr(const ir::Expr& e) const {
    auto a = [&](size_t i) { return i < e.args.size() && e.args[i] ? expr(*e.args[i]) : "_"; };
    auto bin = [&](const char* op) { return fmt::format("({} {} {})", a(0), op, a(1)); };
    switch (e.op) {
      case Op::Const: return ir::value_text(p_.domains, e.type ? e.type->domain : -1, e.value);
      case Op::ConstSet: return bits(e.bits, e.type ? e.type->domain : -1);
      case Op::ConstList: return fmt::format("[{}]", list(e.args));
      case Op::Local: return local(e.slot);
      case Op::Read: {
        std::string s = e.var >= 0 && size_t(e.var) < p_.vars.size() ? p_.vars[size_t(e.var)].name : "?";
        for (size_t i = 0; i < e.args.size(); ++i) s += fmt::format("[{}]", a(i));
        return s;
      }
      case Op::Mover: return "mover";
      case Op::Phase: return "phase";
      case Op::Neg: return fmt::format("-{}", a(0));
      case Op::Not: return fmt::format("not {}", a(0));
      case Op::Add: case Op::Union: return bin("+");
      case Op::Sub: case Op::Diff: return bin("-");
      case Op::Mul: return bin("*");
      case Op::Div: return bin("/");
      case Op::Mod: return bin("%");
      case Op::Eq: return bin("==");
      case Op::Ne: return bin("!=");
      case Op::Lt: return bin("<");
      case Op::Le: return bin("<=");
      case Op::Gt: return bin(">");
      case Op::Ge: return bin(">=");
      case Op::And: return bin("and");
      case Op::Or: return bin("or");
      case Op::In: return bin("in");
      case Op::Inter: return bin("&");
      case Op::If: return fmt::format("(if {} then {} else {})", a(0), a(1), a(2));
      case Op::SetLit: return fmt::format("{{{}}}", list(e.args));
      case Op::RangeSet: return bin("..");
      case Op::ListLit: return fmt::format("[{}]", list(e.args));
      case Op::RecordLit: {
        const ir::Domain* d = e.type && e.type->domain >= 0 ? &p_.domains[size_t(e.type->domain)] : nullptr;
        std::vector<std::string> items;
        for (size_t i = 0; i < e.args.size(); ++i)
          items.push_back(fmt::format("{}: {}", d && i < d->field_names.size() ? d->field_names[i] : "?", a(i)));
        return fmt::format("{{{}}}", fmt::join(items, ", "));
      }
      case Op::Field: return fmt::format("{}.{}", a(0), field_name(e));
      case Op::At: return fmt::format("{}[{}]", a(0), a(1));
      case Op::All: return binder(e, "all");
      case Op::Some: return binder(e, "some");
      case Op::No: return binder(e, "no");
      case Op::Count: return binder(e, "count");
      case Op::Sum: return binder(e, "sum");
      case Op::Max: return binder(e, "max");
      case Op::Min: return binder(e, "min");
      case Op::Filter: return fmt::format("{{{} in {} | {}}}", local(e.slot), a(0), a(1));
      case Op::Builtin: {
        std::string name(dsl::builtin(e.builtin).name);
        return e.args.empty() ? name : fmt::format("{}({})", name, list(e.args));
      }
      case Op::Call: {
        std::string name = e.function >= 0 && size_t(e.function) < p_.functions.size()
                               ? p_.functions[size_t(e.function)].name
                               : "?";
        return fmt::format("{}({})", name, list(e.args));
      }
      case Op::Can: {
        std::string name = e.move >= 0 && size_t(e.move) < p_.moves.size() ? p_.moves[size_t(e.move)].name : "?";
        return fmt::format("can({}, {})", name, a(0));
      }
    }
    return "?";
  }

  std::string field_name(const ir::Expr& e) const {
    int d = e.args.empty() || !e.args[0] || !e.args[0]->type ? -1 : e.args[0]->type->domain;
    if (d >= 0 && p_.domains[size_t(d)].kind == ir::Domain::Kind::Optional) d = p_.domains[size_t(d)].inner;
    if (d >= 0 && e.field >= 0 && size_t(e.field) < p_.domains[size_t(d)].field_names.size())
      return p_.domains[size_t(d)].field_names[size_t(e.field)];
    return fmt::format("#{}", e.field);
  }

  void block(const ir::Block& b, int indent, std::string& out) const {
    std::string pad(size_t(indent), ' ');
    for (const auto& s : b) {
      switch (s->op) {
        case ir::StmtOp::Assign: {
          std::string target = p_.vars[size_t(s->var)].name;
          for (const auto& k : s->keys) target += fmt::format("[{}]", expr(*k));
          const char* op = s->assign == 0 ? ":=" : s->assign > 0 ? "+=" : "-=";
          out += fmt::format("{}{} {} {}{}\n", pad, target, op, expr(*s->value), where(s->span));
          break;
        }
        case ir::StmtOp::If:
          out += fmt::format("{}if {} {{{}\n", pad, expr(*s->value), where(s->span));
          block(s->body, indent + 2, out);
          if (!s->otherwise.empty()) {
            out += pad + "} else {\n";
            block(s->otherwise, indent + 2, out);
          }
          out += pad + "}\n";
          break;
        case ir::StmtOp::For:
          out += fmt::format("{}for {} in {}{} {{{}\n", pad, local(s->slot), expr(*s->value),
                             s->where ? fmt::format(" where {}", expr(*s->where)) : std::string(), where(s->span));
          block(s->body, indent + 2, out);
          out += pad + "}\n";
          break;
        case ir::StmtOp::Let:
          out += fmt::format("{}let {} = {}{}\n", pad, local(s->slot), expr(*s->value), where(s->span));
          break;
        case ir::StmtOp::Again:
          out += fmt::format("{}again{}\n", pad, where(s->span));
          break;
        case ir::StmtOp::Eliminate:
          out += fmt::format("{}eliminate {}{}\n", pad, expr(*s->value), where(s->span));
          break;
        case ir::StmtOp::Goto:
          out += fmt::format("{}goto {}{}\n", pad,
                             s->phase >= 0 ? p_.phases[size_t(s->phase)].name : "?", where(s->span));
          break;
        case ir::StmtOp::End:
          out += fmt::format("{}end{}\n", pad, where(s->span));
          break;
      }
    }
  }

  std::vector<std::string> names_;  ///< names of the leading locals of the current frame

 private:
  const ir::Program& p_;
  const dsl::SourceSet* sources_;
};

const char* origin(ir::StateVar::Origin o) {
  switch (o) {
    case ir::StateVar::Origin::State: return "state";
    case ir::StateVar::Origin::Setup: return "setup";
    case ir::StateVar::Origin::System: return "system";
  }
  return "";
}

}  // namespace

std::string print_expr(const ir::Program& program, const ir::Expr& e) {
  return Printer(program, nullptr).expr(e);
}

std::string print_program(const ir::Program& p, const dsl::SourceSet& sources) {
  Printer pr(p, &sources);
  std::string out = fmt::format("program \"{}\" from {}\n", p.title, p.source_path);
  for (size_t i = 1; i < p.files.size(); ++i) out += fmt::format("  extends {}\n", p.files[i - 1]);
  out += fmt::format("board {} x {}, {} players: {}\n", p.geometry.height, p.geometry.width,
                     p.players, fmt::join(p.player_names, ", "));

  out += "\ndomains\n";
  for (size_t i = 0; i < p.domains.size(); ++i) {
    const ir::Domain& d = p.domains[i];
    std::string detail;
    if (d.kind == ir::Domain::Kind::Record) {
      std::vector<std::string> fields;
      for (size_t f = 0; f < d.fields.size(); ++f)
        fields.push_back(fmt::format("{}: {} *{}", d.field_names[f], pr.domain(d.fields[f]), d.strides[f]));
      detail = fmt::format(" = {{{}}}", fmt::join(fields, ", "));
    } else if (!d.members.empty() && d.name.find(',') == std::string::npos) {
      detail = fmt::format(" = {{{}}}", fmt::join(d.members, ", "));
    }
    out += fmt::format("  d{} {}{}  size {}\n", i, d.name, detail, d.size);
  }

  out += fmt::format("\nstate: {} bytes\n", p.state_bytes);
  for (const ir::StateVar& v : p.vars) {
    std::string type;
    for (int k : v.keys) type += pr.domain(k) + " -> ";
    type += pr.domain(v.domain);
    std::string flags = v.is_set ? " (set)" : v.is_seq ? " (seq)" : "";
    out += fmt::format("  @{:<4} {}: {}{}  [{} x {}B] {}{}\n", v.offset, v.name, type, flags, v.count,
                       v.width, origin(v.origin),
                       v.origin == ir::StateVar::Origin::System ? "" : pr.where(v.span));
  }

  out += "\ngeometry\n";
  for (const auto& rs : p.geometry.region_sets)
    out += fmt::format("  regions {}: {} regions\n", rs.name, rs.regions.size());
  for (size_t t = 0; t < p.geometry.teams.size(); ++t) {
    std::vector<std::string> members;
    for (int m : p.geometry.teams[t]) members.push_back(p.player_names[size_t(m)]);
    out += fmt::format("  team {} = {{{}}}\n", p.domains[ir::kTeamDomain].members[t],
                       fmt::join(members, ", "));
  }

  out += "\nfunctions\n";
  for (const ir::Function& f : p.functions) {
    std::vector<std::string> params;
    pr.names_ = f.param_names;
    for (size_t i = 0; i < f.params.size(); ++i)
      params.push_back(fmt::format("{}: {}", i < f.param_names.size() ? f.param_names[i] : "?", pr.type(f.params[i])));
    out += fmt::format("  {}({}) -> {}  [{} locals]{}\n    = {}\n", f.name, fmt::join(params, ", "),
                       pr.type(f.result), f.locals, pr.where(f.span), f.body ? pr.expr(*f.body) : "?");
  }
  pr.names_.clear();

  out += "\nrules\n";
  for (const ir::Rule& r : p.rules) {
    out += fmt::format("  {} {}{}\n", r.board_rule ? "board rule" : "move rule", r.name, pr.where(r.span));
    if (r.condition) out += fmt::format("    {}\n", pr.expr(*r.condition));
  }

  out += "\nsetup\n";
  for (const ir::SetupVar& s : p.setups) {
    std::string how;
    switch (s.source) {
      case ir::SetupVar::Source::Value: how = fmt::format("= {}", pr.expr(*s.value)); break;
      case ir::SetupVar::Source::Random: how = fmt::format("= random {} of {}", pr.expr(*s.value), pr.expr(*s.from)); break;
      case ir::SetupVar::Source::Shuffle: how = fmt::format("= shuffle {}", pr.expr(*s.value)); break;
      case ir::SetupVar::Source::Entries:
        how = fmt::format("= file {} entry {} of {}", s.path, s.default_entry + 1, s.entries.size());
        break;
    }
    out += fmt::format("  {} {}{}\n", s.name, how, pr.where(s.span));
  }
  out += "  initial values\n";
  pr.block(p.initial, 4, out);
  out += "  init\n";
  pr.block(p.init, 4, out);

  out += "\nmoves\n";
  for (size_t i = 0; i < p.moves.size(); ++i) {
    const ir::Move& m = p.moves[i];
    std::vector<std::string> params;
    pr.names_.clear();
    for (const auto& mp : m.params) {
      params.push_back(fmt::format("{}: {}", mp.name, pr.domain(mp.domain)));
      pr.names_.push_back(mp.name);
    }
    out += fmt::format("  move {} {}({}) in {}  [{} locals]{}\n", i, m.name, fmt::join(params, ", "),
                       p.phases[size_t(m.phase)].name, m.locals, pr.where(m.span));
    for (size_t r = 0; r < m.requires_.size(); ++r)
      out += fmt::format("    requires [stage {}] {}{}\n", m.requires_stage[r], pr.expr(*m.requires_[r]),
                         pr.where(m.requires_[r]->span));
    for (size_t c = 0; c < m.checks.size(); ++c)
      out += fmt::format("    rule {} [stage {}] {}\n", p.rules[size_t(m.checks[c].rule)].name,
                         m.checks_stage[c], pr.expr(*m.checks[c].condition));
    pr.block(m.body, 4, out);
  }
  pr.names_.clear();

  out += "\nphases\n";
  for (const ir::Phase& ph : p.phases) {
    std::vector<std::string> moves;
    for (int m : ph.moves) moves.push_back(p.moves[size_t(m)].name);
    out += fmt::format("  phase {}: {}{}\n", ph.name, fmt::join(moves, ", "), pr.where(ph.span));
    for (const auto& t : ph.transitions)
      out += fmt::format("    until {} -> {}{}\n", pr.expr(*t.condition),
                         t.target < 0 ? "end" : p.phases[size_t(t.target)].name, pr.where(t.span));
    if (ph.has_stuck) {
      out += "    when stuck\n";
      pr.block(ph.stuck, 6, out);
    }
  }

  out += "\nend\n";
  if (p.end_when) out += fmt::format("  end when {}\n", pr.expr(*p.end_when));
  pr.names_ = {p.score.per_team ? "team" : "player"};
  out += fmt::format("  score {}{} (width {}) = {}\n", p.score.per_team ? "per team" : "per player",
                     p.score.highest ? ", highest wins" : ", lowest wins", p.score.width,
                     p.score.value ? pr.expr(*p.score.value) : "0");
  pr.names_.clear();

  out += "\nproperties\n";
  for (const ir::Property& prop : p.properties) {
    out += fmt::format("  {} {}{}\n", ir::kind_name(prop.kind), prop.name, pr.where(prop.span));
    if (prop.over_moves) {
      std::vector<std::string> moves;
      for (int m : prop.moves) moves.push_back(p.moves[size_t(m)].name);
      out += fmt::format("    over moves {}\n", fmt::join(moves, ", "));
      // Slot s is the parameter move_params[i][s] of each move i (-1 where it has none).
      const size_t slots = prop.move_params.empty() ? 0 : prop.move_params.front().size();
      for (size_t s = 0; s < slots; ++s) {
        std::string name = "?";
        for (size_t i = 0; i < prop.moves.size() && name == "?"; ++i)
          if (const int at = prop.move_params[i][s]; at >= 0) name = p.moves[size_t(prop.moves[i])].params[size_t(at)].name;
        pr.names_.push_back(name);
      }
    } else if (prop.expr) {
      out += fmt::format("    over {}{}\n", prop.over_play ? "play" : "boards", prop.phase >= 0 ? fmt::format(" of {}", p.phases[size_t(prop.phase)].name) : std::string());
    }
    if (prop.where) out += fmt::format("    where {}\n", pr.expr(*prop.where));
    if (prop.expr) out += fmt::format("    {}{}\n", prop.kind == ir::PropertyKind::Bound ? (prop.maximize ? "max " : "min ") : "", pr.expr(*prop.expr));
    if (!prop.subject.empty()) out += fmt::format("    subject {}\n", prop.subject);
    pr.names_.clear();
  }
  for (const ir::Metric& m : p.metrics)
    out += fmt::format("  metric {} = {} {}{}\n", m.name, pr.expr(*m.value),
                       m.when ? fmt::format("when {}", pr.expr(*m.when)) : std::string("at end"), pr.where(m.span));
  return out;
}

}  // namespace rulebook::compiler
