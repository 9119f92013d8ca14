// The checker's declaration pass: globals, then each declaration in order (the board,
// players, teams and regions are set up in check_board.cpp).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "dsl/check_can.h"
#include "dsl/check_internal.h"

namespace rulebook::dsl {

namespace {


/// "a state", "an enum member": how notes name a previous declaration.
std::string kind_phrase(NameKind k) {
  switch (k) {
    case NameKind::EnumMember: return "an enum member";
    case NameKind::Region: return "regions";
    case NameKind::Builtin: return "a built-in";
    default: return "a " + std::string(name_kind_word(k));
  }
}


/// The first `int` without a range inside a type expression (for the finiteness error).
const TypeExpr* unbounded_part(const TypeExpr& t, const Game& game) {
  if (t.kind == TypeKind::Int) return &t;
  if (t.kind == TypeKind::Named) {
    auto it = game.type_exprs.find(&t);
    if (it != game.type_exprs.end() && !is_finite(it->second)) return &t;
    return nullptr;
  }
  for (const auto& e : t.elems)
    if (const TypeExpr* u = unbounded_part(*e, game)) return u;
  return nullptr;
}

}  // namespace

Checker::Checker(Game& game, const SourceSet& sources, Diagnostics& diags)
    : game_(game), sources_(sources), main_diags_(diags), diags_(&diags) {}

Diagnostic& Checker::error(Span span, std::string message) {
  return diags_->error(span, std::move(message));
}

void Checker::begin_quiet() {
  quiet_ = Diagnostics();
  diags_ = &quiet_;
}

void Checker::end_quiet() {
  diags_ = &main_diags_;
  for (const Diagnostic& d : quiet_.all()) {
    bool seen = std::any_of(main_diags_.all().begin(), main_diags_.all().end(), [&](const auto& o) {
      return o.span.file == d.span.file && o.span.begin == d.span.begin && o.message == d.message;
    });
    if (seen) continue;
    Diagnostic& copy = d.severity == Severity::Warning ? main_diags_.warning(d.span, d.message)
                                                       : main_diags_.error(d.span, d.message);
    copy.notes = d.notes;
    copy.hint = d.hint;
    copy.code = d.code;
  }
}

Symbol* Checker::add_symbol(Symbol s) {
  game_.symbols.push_back(std::make_unique<Symbol>(std::move(s)));
  return game_.symbols.back().get();
}

Symbol* Checker::declare_global(Symbol s) {
  auto it = game_.globals.find(s.name);
  if (it != game_.globals.end()) {
    const Symbol& old = *it->second;
    if (old.kind == NameKind::EnumMember && s.kind == NameKind::EnumMember &&
        same_type(old.type, s.type))
      return const_cast<Symbol*>(&old);
    std::string where;
    if (old.span.file != s.span.file) where = " in " + sources_.file(old.span.file).name;
    auto& d = error(s.span, fmt::format("'{}' is already defined{}", s.name, where));
    d.notes.push_back({old.span, fmt::format("first defined here as {}", kind_phrase(old.kind))});
    return add_symbol(std::move(s));
  }
  if (find_builtin(s.name)) {
    error(s.span, fmt::format("'{}' is a built-in name", s.name)).hint = "choose another name";
  }
  Symbol* sym = add_symbol(std::move(s));
  game_.globals.emplace(sym->name, sym);
  return sym;
}

void Checker::run() {
  collect();
  setup_board();
  setup_players();
  setup_teams();
  for (auto& r : game_.regions) setup_regions(r);
  for (const Decl* d : game_.decls) check_decl(*d);
}

// ------------------------------------------------------------------ collecting globals

void Checker::collect() {
  for (const Builtin& b : builtins()) {
    Symbol s;
    s.name = std::string(b.name);
    s.kind = NameKind::Builtin;
    s.type = b.is_function && b.signatures.size() == 1 ? b.signatures[0]
             : b.is_function                           ? error_type()
                                                       : b.signatures[0];
    s.builtin = &b;
    Symbol* sym = add_symbol(std::move(s));
    builtin_symbols_[sym->name] = sym;
  }
  const LoadedGame& loaded = game_.loaded;
  for (const ChainFile& cf : loaded.chain) {
    GameFile f;
    f.path = cf.path;
    f.title = cf.file->title;
    f.extends = cf.file->extends;
    f.is_variant = cf.file->is_variant;
    game_.files.push_back(f);
  }
  if (!loaded.chain.empty()) game_.title = loaded.chain.back().file->title;

  for (const MergedDecl& md : loaded.decls) {
    const Decl& d = *md.decl;
    game_.decls.push_back(&d);
    auto sym = [&](const Ident& id, NameKind kind, TypeRef type) {
      Symbol s;
      s.name = id.name;
      s.kind = kind;
      s.type = std::move(type);
      s.span = id.span;
      s.decl = &d;
      return s;
    };
    std::visit(
        [&](const auto& b) {
          using T = std::decay_t<decltype(b)>;
          if constexpr (std::is_same_v<T, Param>) {
            game_.params.push_back(&b);
            declare_global(sym(b.name, NameKind::Param, nullptr));
          } else if constexpr (std::is_same_v<T, Board>) {
            game_.board = &b;
          } else if constexpr (std::is_same_v<T, Players>) {
            game_.players = &b;
          } else if constexpr (std::is_same_v<T, Regions>) {
            Symbol s = sym(b.name, NameKind::Region, region_set_type());
            s.index = static_cast<int>(game_.regions.size());
            game_.regions.push_back({b.name.name, &b, 0, {}, {}});
            declare_global(std::move(s));
          } else if constexpr (std::is_same_v<T, Team>) {
            Symbol s = sym(b.name, NameKind::Team, team_type());
            s.index = static_cast<int>(game_.teams.size());
            game_.teams.push_back({b.name.name, &b, {}});
            declare_global(std::move(s));
          } else if constexpr (std::is_same_v<T, TypeDecl>) {
            game_.types.push_back(&b);
            if (builtin_type(b.name.name)) {
              error(b.name.span, fmt::format("'{}' is a built-in type", b.name.name)).hint =
                  "choose another name";
            } else {
              typedecls_[b.name.name] = TypeInfo{&b, 0, nullptr};
            }
          } else if constexpr (std::is_same_v<T, Setup>) {
            game_.setups.push_back(&b);
            declare_global(sym(b.name, NameKind::Setup, nullptr));
          } else if constexpr (std::is_same_v<T, State>) {
            game_.states.push_back(&b);
            declare_global(sym(b.name, NameKind::State, nullptr));
          } else if constexpr (std::is_same_v<T, Init>) {
            game_.inits.push_back(&b);
          } else if constexpr (std::is_same_v<T, Define>) {
            game_.defines.push_back(&b);
            declare_global(sym(b.name, NameKind::Define, nullptr));
          } else if constexpr (std::is_same_v<T, Rule>) {
            game_.rules.push_back(&b);
          } else if constexpr (std::is_same_v<T, Phase>) {
            Symbol s = sym(b.name, NameKind::Phase, phase_type());
            s.phase = &b;
            s.index = static_cast<int>(game_.phases.size());
            game_.phases.push_back({b.name.name, &b, md.moves});
            declare_global(std::move(s));
          } else if constexpr (std::is_same_v<T, Score>) {
            game_.score = &b;
          } else if constexpr (std::is_same_v<T, Winner>) {
            game_.winner = &b;
          } else if constexpr (std::is_same_v<T, EndWhen>) {
            game_.end_when = &b;
          } else if constexpr (std::is_same_v<T, Property>) {
            game_.properties.push_back(&b);
          } else if constexpr (std::is_same_v<T, Metric>) {
            game_.metrics.push_back(&b);
          } else if constexpr (std::is_same_v<T, Symmetry>) {
            game_.symmetries.push_back(&b);
          } else if constexpr (std::is_same_v<T, Action>) {
            game_.actions.push_back(&b);
            declare_global(sym(b.name, NameKind::Action, nullptr));
          } else if constexpr (std::is_same_v<T, Allow>) {
            game_.allows.push_back(&b);
          }
        },
        d.body);
  }

  // Moves are named by `can(m)`, `rule ... on m` and `moves m`; one name may recur in
  // several phases (the same action in a different stage of play).
  for (const PhaseInfo& p : game_.phases) {
    for (const Move* m : p.moves) {
      auto& list = moves_[m->name.name];
      list.emplace_back(p.phase, m);
      if (list.size() > 1) continue;
      Symbol s;
      s.name = m->name.name;
      s.kind = NameKind::Move;
      s.type = move_type();
      s.span = m->name.span;
      s.move = m;
      s.phase = p.phase;
      move_symbols_.push_back(add_symbol(std::move(s)));
    }
  }

  // Enum members are global names, wherever their enum is written.
  for (const TypeDecl* t : game_.types) collect_types(t->type.get(), t->name.name);
  for (const Param* p : game_.params) collect_types(p->type.get(), "");
  for (const Setup* s : game_.setups) collect_types(s->type.get(), "");
  for (const State* s : game_.states) collect_types(s->type.get(), "");
  for (const Define* d : game_.defines) {
    for (const auto& p : d->params) collect_types(p.type.get(), "");
    collect_types(d->type.get(), "");
  }
  for (const PhaseInfo& p : game_.phases)
    for (const Move* m : p.moves)
      for (const auto& prm : m->params) collect_types(prm.type.get(), "");
  for (const Action* a : game_.actions)
    for (const auto& prm : a->params) collect_types(prm.type.get(), "");
}

void Checker::collect_types(const TypeExpr* t, const std::string& decl_name) {
  if (!t) return;
  if (t->kind == TypeKind::Enum) {
    std::vector<std::string> members;
    for (const Ident& m : t->members) {
      if (std::find(members.begin(), members.end(), m.name) != members.end())
        error(m.span, fmt::format("'{}' is listed twice", m.name));
      members.push_back(m.name);
    }
    TypeRef type = enum_type(decl_name, members);
    enum_of_[t] = type;
    // The first declaration of an enum names it; an equal inline enum is the same type.
    bool known = std::any_of(game_.enums.begin(), game_.enums.end(),
                             [&](const TypeRef& e) { return same_type(e, type); });
    if (!known) game_.enums.push_back(type);
    for (size_t i = 0; i < t->members.size(); ++i) {
      Symbol s;
      s.name = t->members[i].name;
      s.kind = NameKind::EnumMember;
      s.type = type;
      s.span = t->members[i].span;
      s.index = static_cast<int>(i);
      declare_global(std::move(s));
    }
  }
  for (const auto& e : t->elems) collect_types(e.get(), "");
}

// ------------------------------------------------------------------ lazily checked globals

void Checker::ensure_param(Symbol& s, Span use) {
  int& state = param_state_[&s];
  if (state == 2) return;
  if (state == 1) {
    error(use, fmt::format("'{}' is defined in terms of itself", s.name));
    s.type = error_type();
    return;
  }
  state = 1;
  const Param& p = std::get<Param>(s.decl->body);
  ContextScope scope(*this, constant_context("a param value"));
  TypeRef declared = p.type ? resolve_type(*p.type) : nullptr;
  TypeRef t = declared ? expect(*p.value, declared) : check(*p.value);
  s.type = declared ? declared : t;
  if (!is_error(t) && (is_int(t) || t->is(TypeTag::Bool) || t->is(TypeTag::Enum))) {
    if (t->is(TypeTag::Enum)) {
      const Symbol* m = game_.referent(*p.value);
      if (m && m->kind == NameKind::EnumMember) s.value = m->index;
    } else {
      // What the evaluator cannot fold (a count over cells, say) stays unknown here; the
      // places that need a number (board size, range bounds) say so.
      s.value = eval(*p.value);
    }
  }
  state = 2;
}

void Checker::ensure_define(Symbol& s, Span use) {
  DefineInfo& info = defines_[&s];
  if (info.state == 2) return;
  if (info.state == 1) {
    error(use, fmt::format("'{}' is defined in terms of itself", s.name));
    return;
  }
  info.state = 1;
  const Define& d = std::get<Define>(s.decl->body);
  TypeRef result;
  {
    ContextScope scope(*this, play_context(false, "a define"));
    auto saved = std::move(scopes_);
    scopes_.clear();
    push_scope();
    std::vector<TypeRef> params;
    for (size_t i = 0; i < d.params.size(); ++i) {
      Symbol p;
      p.name = d.params[i].name.name;
      p.kind = NameKind::DefineParam;
      p.type = resolve_type(*d.params[i].type);
      p.span = d.params[i].name.span;
      p.decl = s.decl;
      p.index = static_cast<int>(i);
      params.push_back(p.type);
      declare_local(std::move(p));
    }
    TypeRef declared = d.type ? resolve_type(*d.type) : nullptr;
    TypeRef body = declared ? expect(*d.body, declared) : check(*d.body);
    result = declared ? declared : body;
    if (d.has_params) result = function_of(std::move(params), result);
    scopes_ = std::move(saved);
    info.time = time_;
    info.mover = uses_mover_;
  }
  s.type = result;
  defines_[&s].state = 2;
}

TypeRef Checker::ensure_typedecl(const std::string& name, Span use) {
  auto it = typedecls_.find(name);
  if (it == typedecls_.end()) return nullptr;
  TypeInfo& info = it->second;
  if (info.state == 2) return info.type;
  if (info.state == 1) {
    error(use, fmt::format("type '{}' is defined in terms of itself", name));
    return error_type();
  }
  info.state = 1;
  TypeRef t = resolve_type(*info.decl->type);
  typedecls_[name].state = 2;
  typedecls_[name].type = t;
  return t;
}

void Checker::ensure_typed(Symbol& s) {
  if (s.type) return;
  s.type = error_type();  // while resolving: a use of itself in its own type is an error
  const bool is_state = s.kind == NameKind::State;
  const TypeExpr& texpr = is_state ? *std::get<State>(s.decl->body).type
                                   : *std::get<Setup>(s.decl->body).type;
  TypeRef t;
  {
    ContextScope scope(*this, constant_context("a range bound"));
    t = resolve_type(texpr);
  }
  if (!is_error(t) && !is_finite(t)) {
    const TypeExpr* part = unbounded_part(texpr, game_);
    error(part ? part->span : texpr.span,
          fmt::format("{} values must be finite: give a range such as 0..9",
                      is_state ? "state" : "setup"));
  }
  s.type = t;
}

// ------------------------------------------------------------------ declarations

void Checker::check_decl(const Decl& d) {
  auto global_of = [&](const Ident& id) -> Symbol* {
    auto it = game_.globals.find(id.name);
    if (it == game_.globals.end() || it->second->decl != &d) return nullptr;
    return const_cast<Symbol*>(it->second);
  };
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, Param>) {
          if (Symbol* s = global_of(b.name)) ensure_param(*s, b.name.span);
        } else if constexpr (std::is_same_v<T, TypeDecl>) {
          ensure_typedecl(b.name.name, b.name.span);
        } else if constexpr (std::is_same_v<T, Setup>) {
          if (Symbol* s = global_of(b.name)) {
            ensure_typed(*s);
            check_setup(b, *s);
          }
        } else if constexpr (std::is_same_v<T, State>) {
          if (Symbol* s = global_of(b.name)) {
            ensure_typed(*s);
            if (b.initial) {
              ContextScope scope(*this, setup_context("an initial state value"));
              expect(*b.initial, s->type);
            }
          }
        } else if constexpr (std::is_same_v<T, Init>) {
          ContextScope scope(*this, {Time::Play, false, false, "init"});
          check_block(b.body);
        } else if constexpr (std::is_same_v<T, Define>) {
          if (Symbol* s = global_of(b.name)) ensure_define(*s, b.name.span);
        } else if constexpr (std::is_same_v<T, Rule>) {
          check_rule(b);
        } else if constexpr (std::is_same_v<T, Phase>) {
          for (const PhaseInfo& p : game_.phases)
            if (p.phase == &b) check_phase(p);
        } else if constexpr (std::is_same_v<T, Score>) {
          check_score(b);
        } else if constexpr (std::is_same_v<T, Winner>) {
          if (b.per_team && game_.teams.empty())
            error(d.span, "'winner ... team' needs teams").hint =
                "declare them with 'team NAME = { ... };'";
        } else if constexpr (std::is_same_v<T, EndWhen>) {
          ContextScope scope(*this, play_context(false, "'end when'"));
          expect_bool(*b.condition);
        } else if constexpr (std::is_same_v<T, Property>) {
          check_property(b);
        } else if constexpr (std::is_same_v<T, Metric>) {
          ContextScope scope(*this, play_context(false, "a metric"));
          TypeRef t = check(*b.value);
          if (!is_error(t) && !is_int(t) && !t->is(TypeTag::Bool))
            error(b.value->span, fmt::format("expected int, found {}", to_string(t)));
          if (b.when) expect_bool(*b.when);
        } else if constexpr (std::is_same_v<T, Symmetry>) {
          check_symmetry(b);
        } else if constexpr (std::is_same_v<T, Action>) {
          if (Symbol* s = global_of(b.name)) ensure_action(*s, b.name.span);
        } else if constexpr (std::is_same_v<T, Allow>) {
          check_allow(b);
        }
      },
      d.body);
}

void Checker::check_setup(const Setup& s, const Symbol& sym) {
  ContextScope scope(*this, setup_context("a setup value"));
  const TypeRef& want = sym.type;
  switch (s.source) {
    case SetupSource::Value:
      expect(*s.value, want);
      break;
    case SetupSource::Random: {
      expect(*s.value, int_type());
      TypeRef from = check(*s.from);
      if (is_error(from) || is_error(want)) break;
      TypeRef elem = element_type(from);
      if (!elem || !from->is(TypeTag::Set)) {
        error(s.from->span, fmt::format("expected a set, found {}", to_string(from)));
      } else if (!assignable(set_of(elem), want)) {
        error(s.from->span, fmt::format("'random' gives a {}, but '{}' is {}",
                                        to_string(set_of(elem)), s.name.name, to_string(want)));
      }
      break;
    }
    case SetupSource::Shuffle: {
      TypeRef from = check(*s.value);
      if (is_error(from) || is_error(want)) break;
      TypeRef elem = element_type(from);
      if (!elem) {
        error(s.value->span, fmt::format("expected a set or a sequence, found {}", to_string(from)));
      } else if (!assignable(seq_of(elem), want)) {
        error(s.value->span, fmt::format("'shuffle' gives a {}, but '{}' is {}",
                                         to_string(seq_of(elem)), s.name.name, to_string(want)));
      }
      break;
    }
    case SetupSource::File:
      if (s.entry) expect(*s.entry, int_type());
      break;
  }
}

std::vector<const Move*> Checker::moves_named(const std::string& name) const {
  std::vector<const Move*> out;
  auto it = moves_.find(name);
  if (it != moves_.end())
    for (const auto& [phase, move] : it->second) out.push_back(move);
  return out;
}

std::vector<std::string> Checker::phase_names() const {
  std::vector<std::string> names;
  for (const auto& p : game_.phases) names.push_back(p.name);
  return names;
}

std::vector<std::string> Checker::move_names() const {
  std::vector<std::string> names;
  for (const auto& p : game_.phases)
    for (const Move* m : p.moves) names.push_back(m->name.name);
  return names;
}

void Checker::check_phase(const PhaseInfo& info) {
  std::set<std::string> seen;
  for (const Move* m : info.moves) {
    if (!seen.insert(m->name.name).second) {
      error(m->name.span, fmt::format("phase '{}' already has a move '{}'", info.name, m->name.name));
      continue;
    }
    check_move(*m);
  }
  const Phase& p = *info.phase;
  if (p.has_stuck) {
    ContextScope scope(*this, play_context(true, "a 'when stuck' block"));
    check_block(p.stuck);
  }
  for (const Transition& t : p.transitions) {
    {
      ContextScope scope(*this, play_context(false, "an 'until' condition"));
      expect_bool(*t.condition);
    }
    if (t.is_end || game_.phase(t.target.name)) continue;
    unknown("phase", t.target.name, t.target.span, phase_names());
  }
}

void Checker::check_move(const Move& move) {
  // After `override move`, one move can stand in several phases: check it once.
  if (!checked_moves_.insert(&move).second) return;
  ContextScope scope(*this, play_context(false, "a move"));
  push_scope();
  for (size_t i = 0; i < move.params.size(); ++i) {
    const ParamDecl& pd = move.params[i];
    TypeRef t;
    {
      ContextScope types(*this, constant_context("a range bound"));
      t = resolve_type(*pd.type);
    }
    if (!is_error(t) && !is_finite(t)) {
      const TypeExpr* part = unbounded_part(*pd.type, game_);
      error(part ? part->span : pd.type->span,
            "move parameters must be finite: give a range such as 0..9");
    }
    Symbol s;
    s.name = pd.name.name;
    s.kind = NameKind::MoveParam;
    s.type = t;
    s.span = pd.name.span;
    s.move = &move;
    s.index = static_cast<int>(i);
    declare_local(std::move(s));
  }
  for (const ExprPtr& r : move.requires_) expect_bool(*r);
  {
    ContextScope body(*this, play_context(true, "a move"));
    check_block(move.body);
  }
  pop_scope();
}

void Checker::check_rule(const Rule& rule) {
  ContextScope scope(*this, play_context(false, "a rule"));
  if (rule.on.empty()) {
    expect_bool(*rule.condition);
    return;
  }
  bool checked = false;
  for (const MoveRef& ref : rule.on) {
    std::vector<const Move*> moves = moves_named(ref.move.name);
    if (moves.empty()) {
      unknown("move", ref.move.name, ref.move.span, move_names());
      continue;
    }
    const Move* move = moves.front();
    if (ref.has_args && ref.args.size() != move->params.size()) {
      Span span = ref.args.empty() ? ref.move.span : join_spans(ref.move.span, ref.args.back().span);
      auto& d = error(span, fmt::format("move '{}' has {}, {} given", ref.move.name,
                                        plural(int64_t(move->params.size()), "parameter"),
                                        ref.args.size()));
      d.notes.push_back({move->name.span, fmt::format("'{}' is declared here", ref.move.name)});
      continue;
    }
    // The condition is checked once per move it applies to, each with that move's
    // parameter types; errors it repeats are reported once.
    if (checked) begin_quiet();
    push_scope();
    for (size_t i = 0; i < ref.args.size(); ++i) {
      Symbol s;
      s.name = ref.args[i].name;
      s.kind = NameKind::RuleParam;
      s.type = error_type();
      s.span = ref.args[i].span;
      s.move = move;
      s.index = static_cast<int>(i);
      const ParamDecl& pd = move->params[i];
      auto it = game_.type_exprs.find(pd.type.get());
      s.type = it != game_.type_exprs.end() ? it->second : resolve_type(*pd.type);
      declare_local(std::move(s));
    }
    expect_bool(*rule.condition);
    pop_scope();
    if (checked) end_quiet();
    checked = true;
  }
  if (!checked) {
    // No move to take parameter types from: check the rest with the names unknown-typed.
    push_scope();
    for (const MoveRef& ref : rule.on) {
      for (const Ident& a : ref.args) {
        Symbol s;
        s.name = a.name;
        s.kind = NameKind::RuleParam;
        s.type = error_type();
        s.span = a.span;
        declare_local(std::move(s));
      }
    }
    expect_bool(*rule.condition);
    pop_scope();
  }
}

void Checker::check_score(const Score& s) {
  if (s.per_team && game_.teams.empty())
    error(s.var.span, "a team score needs teams").hint = "declare them with 'team NAME = { ... };'";
  ContextScope scope(*this, {Time::Play, false, false, "a score"});
  push_scope();
  Symbol v;
  v.name = s.var.name;
  v.kind = NameKind::ScoreVar;
  v.type = s.per_team ? team_type() : player_type();
  v.span = s.var.span;
  declare_local(std::move(v));
  TypeRef t = check(*s.value);
  bool ok = is_error(t) || is_int(t);
  if (!ok && (t->is(TypeTag::Seq) || t->is(TypeTag::Tuple))) {
    ok = std::all_of(t->elems.begin(), t->elems.end(), [](const TypeRef& e) {
      return is_int(e) || e->is(TypeTag::Any) || is_error(e);
    });
  }
  if (!ok)
    error(s.value->span, fmt::format("a score must be an int or a list [a, b, ...] of ints, found {}",
                                     to_string(t)));
  pop_scope();
}

void Checker::check_symmetry(const Symmetry& s) {
  for (const auto& [a, b] : s.swaps) {
    const Symbol* sa = lookup(a.name);
    const Symbol* sb = lookup(b.name);
    if (!sa) unknown_name(a.name, a.span);
    if (!sb) unknown_name(b.name, b.span);
    if (!sa || !sb) continue;
    if (sa->kind != sb->kind || !same_type(sa->type, sb->type)) {
      error(join_spans(a.span, b.span),
            fmt::format("cannot swap '{}' ({}) with '{}' ({})", a.name, kind_phrase(sa->kind),
                        b.name, kind_phrase(sb->kind)));
    }
  }
}

// ------------------------------------------------------------------ Game

TypeRef Game::type_of(const Expr& e) const {
  auto it = expr_types.find(&e);
  return it == expr_types.end() ? error_type() : it->second;
}

const Symbol* Game::referent(const Expr& e) const {
  auto it = referents.find(&e);
  return it == referents.end() ? nullptr : it->second;
}

const Symbol* Game::global(std::string_view name) const {
  auto it = globals.find(name);
  return it == globals.end() ? nullptr : it->second;
}

std::optional<int64_t> Game::param_value(std::string_view name) const {
  const Symbol* s = global(name);
  if (!s || s->kind != NameKind::Param) return std::nullopt;
  return s->value;
}

std::optional<int64_t> Game::constant(const Expr& e) const {
  return evaluate(*this, e, [](const Symbol& s) { return s.value; });
}

const Expr* Game::expansion(const Expr& e) const {
  auto it = expansions.find(&e);
  return it == expansions.end() ? nullptr : it->second.get();
}

const Action* Game::called_action(const Stmt& s) const {
  if (s.kind != StmtKind::Call || !s.value || s.value->args.empty()) return nullptr;
  const Symbol* sym = referent(*s.value->args[0]);
  if (!sym || sym->kind != NameKind::Action || !sym->decl) return nullptr;
  return std::get_if<Action>(&sym->decl->body);
}

const PhaseInfo* Game::phase(std::string_view name) const {
  for (const auto& p : phases)
    if (p.name == name) return &p;
  return nullptr;
}

Game check_game(LoadedGame loaded, const SourceSet& sources, Diagnostics& diags) {
  Game game;
  game.loaded = std::move(loaded);
  if (game.loaded.chain.empty()) return game;
  Checker(game, sources, diags).run();
  check_can_cycles(game, diags);
  // An erroneous game's uses are incomplete: "unused" would be wrong.
  if (!diags.has_errors()) warn_game(game, diags);
  return game;
}

Game check_file(const std::string& path, SourceSet& sources, Diagnostics& diags) {
  return check_game(load_game(path, sources, diags), sources, diags);
}

}  // namespace rulebook::dsl
