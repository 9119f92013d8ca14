// Lowering of declarations: the order of the pieces of a Program, frames of locals, moves
// with their staged conditions, phases, setups, score, properties and metrics.
#include "compiler/lower/lower.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/runtime/engine.h"
#include "compiler/lower/lower_cost.h"
#include "compiler/lower/lower_internal.h"
#include "dsl/limits.h"
#include "dsl/load.h"

namespace rulebook::compiler {

namespace {

ir::PropertyKind property_kind(dsl::PropertyKind k) {
  switch (k) {
    case dsl::PropertyKind::Prove: return ir::PropertyKind::Prove;
    case dsl::PropertyKind::Find: return ir::PropertyKind::Find;
    case dsl::PropertyKind::Derive: return ir::PropertyKind::Derive;
    case dsl::PropertyKind::Lemma: return ir::PropertyKind::Lemma;
    case dsl::PropertyKind::Bound: return ir::PropertyKind::Bound;
    case dsl::PropertyKind::Depends: return ir::PropertyKind::Depends;
    case dsl::PropertyKind::Consistent: return ir::PropertyKind::Consistent;
    case dsl::PropertyKind::Redundant: return ir::PropertyKind::Redundant;
    case dsl::PropertyKind::Invariant: return ir::PropertyKind::Invariant;
    case dsl::PropertyKind::Puzzle: return ir::PropertyKind::Puzzle;
    case dsl::PropertyKind::Criterion: return ir::PropertyKind::Criterion;
  }
  return ir::PropertyKind::Prove;
}

}  // namespace

Lowering::Lowering(const dsl::Game& game, dsl::SourceSet& sources, dsl::Diagnostics& diags)
    : game_(game), sources_(sources), diags_(diags) {}

dsl::Diagnostic& Lowering::error(dsl::Span span, std::string message) {
  return diags_.error(span, std::move(message));
}

int Lowering::take_slot(const void* key) {
  int s = frame_->next++;
  frame_->size = std::max(frame_->size, frame_->next);
  if (key) frame_->slots[key] = s;
  return s;
}

int Lowering::slot_of(const void* key, dsl::Span span) {
  auto it = frame_->slots.find(key);
  if (it != frame_->slots.end()) return it->second;
  error(span, "internal error: a local name has no slot");
  return 0;
}

Lowering::Frame* Lowering::begin_frame(Frame& f, int params) {
  Frame* old = frame_;
  f = Frame();
  f.next = f.size = params;
  frame_ = &f;
  return old;
}

std::optional<ir::Program> Lowering::run() {
  if (diags_.has_errors() || game_.loaded.chain.empty()) return std::nullopt;
  const dsl::Span title_span = game_.loaded.chain.back().file->title_span;
  if (!game_.rows || !game_.columns || game_.player_names.empty()) {
    error(title_span, "the board size and the number of players must be constants");
    return std::nullopt;
  }
  if (game_.phases.empty()) {
    error(title_span, "the game declares no phase: play needs at least one").hint =
        "add one, e.g. 'phase play { move pass { } }'";
    return std::nullopt;
  }
  width_ = int(*game_.columns);
  height_ = int(*game_.rows);
  prog_.title = game_.title;
  for (const dsl::GameFile& f : game_.files) prog_.files.push_back(f.path);
  prog_.source_path = prog_.files.empty() ? "" : prog_.files.back();
  prog_.players = int(game_.player_names.size());
  prog_.player_names = game_.player_names;
  fixed_domains();
  build_geometry();

  // Names first: bodies refer to functions and moves declared after them.
  for (const dsl::Define* d : game_.defines) {
    const dsl::Symbol* s = game_.global(d->name.name);
    ir::Function f;
    f.name = d->name.name;
    f.span = d->name.span;
    dsl::TypeRef result = s ? s->type : nullptr;
    if (result && result->is(dsl::TypeTag::Function)) {
      for (const auto& p : result->elems) f.params.push_back(ir_type(p, d->name.span));
      result = result->result;
    }
    for (const auto& p : d->params) f.param_names.push_back(p.name.name);
    f.result = ir_type(result, d->name.span);
    functions_[d] = int(prog_.functions.size());
    prog_.functions.push_back(std::move(f));
  }
  std::vector<const dsl::Move*> dsl_moves;
  for (size_t pi = 0; pi < game_.phases.size(); ++pi) {
    const dsl::PhaseInfo& info = game_.phases[pi];
    ir::Phase ph;
    ph.name = info.name;
    ph.span = info.phase->name.span;
    for (const dsl::Move* m : info.moves) {
      ir::Move mv;
      mv.name = m->name.name;
      mv.phase = int(pi);
      mv.span = m->name.span;
      for (const auto& p : m->params) {
        auto it = game_.type_exprs.find(p.type.get());
        dsl::TypeRef t = it != game_.type_exprs.end() ? it->second : dsl::error_type();
        mv.params.push_back({p.name.name, require_domain(t, p.name.span, "a move parameter")});
      }
      if (mv.params.size() > size_t(engine::kMaxMoveArgs))
        error(m->name.span, fmt::format("a move takes at most {} parameters", engine::kMaxMoveArgs));
      uint64_t choices = 1;
      for (const ir::MoveParam& p : mv.params)
        if (p.domain >= 0)
          choices = dsl::capped_product(choices, prog_.domains[size_t(p.domain)].size,
                                        dsl::kMaxMoveChoices);
      if (choices > dsl::kMaxMoveChoices)
        error(m->name.span,
              fmt::format("move '{}' has more than {} combinations of parameter values; every "
                          "engine tries each of them in every state",
                          mv.name, dsl::kMaxMoveChoices));
      prog_.max_move_params = std::max(prog_.max_move_params, int(mv.params.size()));
      moves_.emplace(m, int(prog_.moves.size()));
      ph.moves.push_back(int(prog_.moves.size()));
      prog_.moves.push_back(std::move(mv));
      dsl_moves.push_back(m);
    }
    prog_.phases.push_back(std::move(ph));
  }

  // The state: the engine's own variables, then setups and states in declaration order.
  auto system = [&](const char* name, std::vector<int> keys, int domain) {
    ir::StateVar v;
    v.name = name;
    v.origin = ir::StateVar::Origin::System;
    v.keys = std::move(keys);
    v.domain = domain;
    v.count = v.keys.empty() ? 1 : prog_.domains[size_t(v.keys[0])].size;
    v.width = prog_.domains[size_t(domain)].size <= 256 ? 1 : 2;
    prog_.vars.push_back(std::move(v));
  };
  system("phase", {}, ir::kPhaseDomain);
  system("mover", {}, ir::kPlayerDomain);
  system("out", {ir::kPlayerDomain}, ir::kBoolDomain);
  system("over", {}, ir::kBoolDomain);
  system("passes", {}, range_domain(0, prog_.players));
  for (const dsl::Decl* d : game_.decls) {
    if (const auto* s = std::get_if<dsl::Setup>(&d->body)) {
      const dsl::Symbol* sym = game_.global(s->name.name);
      int64_t n = -1;
      if (sym && sym->type && sym->type->is(dsl::TypeTag::Seq) && s->value)
        n = static_length(*s->value);
      add_var(s->name.name, ir::StateVar::Origin::Setup, sym ? sym->type : nullptr, n,
              s->name.span);
    } else if (const auto* s = std::get_if<dsl::State>(&d->body)) {
      const dsl::Symbol* sym = game_.global(s->name.name);
      int64_t n = -1;
      if (sym && sym->type && sym->type->is(dsl::TypeTag::Seq) && s->initial)
        n = static_length(*s->initial);
      add_var(s->name.name, ir::StateVar::Origin::State, sym ? sym->type : nullptr, n,
              s->name.span);
    }
  }
  layout();

  for (const dsl::Define* d : game_.defines) {
    const dsl::Symbol* s = game_.global(d->name.name);
    dsl::TypeRef result = s ? s->type : nullptr;
    param_types_.clear();
    if (result && result->is(dsl::TypeTag::Function)) {
      param_types_ = result->elems;
      result = result->result;
    }
    Frame frame;
    begin_frame(frame, int(d->params.size()));
    ir::ExprPtr body = expr(*d->body, result);
    ir::Function& f = prog_.functions[size_t(functions_[d])];
    f.body = std::move(body);
    f.locals = frame.size;
  }
  param_types_.clear();

  lower_rules();
  for (size_t i = 0; i < prog_.moves.size(); ++i) lower_move(*dsl_moves[i], prog_.moves[i]);
  lower_phases();
  lower_setups();
  lower_end_and_score();
  lower_properties();
  lower_symmetries();
  for (const dsl::Allow* a : game_.allows)
    prog_.allows.push_back({a->code.name, a->subject.name, a->reason, a->code.span});
  frame_ = nullptr;
  if (!diags_.has_errors()) check_move_work(prog_, diags_);
  if (diags_.has_errors()) return std::nullopt;
  return std::move(prog_);
}

void Lowering::lower_rules() {
  for (const dsl::Rule* r : game_.rules) {
    ir::Rule rule;
    rule.name = r->name.name;
    rule.description = r->description;
    rule.board_rule = r->on.empty();
    rule.span = r->name.span;
    if (rule.board_rule) {
      Frame frame;
      begin_frame(frame, 0);
      rule.condition = expr(*r->condition, dsl::bool_type());
      rule.locals = frame.size;
    }
    prog_.rules.push_back(std::move(rule));
  }
}

void Lowering::lower_move(const dsl::Move& m, ir::Move& mv) {
  Frame frame;
  begin_frame(frame, int(m.params.size()));
  param_types_.clear();
  for (const auto& p : m.params) {
    auto it = game_.type_exprs.find(p.type.get());
    param_types_.push_back(it != game_.type_exprs.end() ? it->second : nullptr);
  }
  const int n = int(m.params.size());
  for (const dsl::ExprPtr& r : m.requires_) {
    mv.requires_.push_back(expr(*r, dsl::bool_type()));
    mv.requires_stage.push_back(stage(*mv.requires_.back(), n));
  }
  for (size_t ri = 0; ri < game_.rules.size(); ++ri) {
    const dsl::Rule& rule = *game_.rules[ri];
    for (const dsl::MoveRef& ref : rule.on) {
      if (ref.move.name != m.name.name) continue;
      // Rule parameters are bound by position, whatever the names in `on`.
      rule_args_.clear();
      for (size_t i = 0; i < ref.args.size(); ++i) rule_args_[ref.args[i].name] = int(i);
      ir::Check check;
      check.rule = int(ri);
      check.condition = expr(*rule.condition, dsl::bool_type());
      mv.checks_stage.push_back(stage(*check.condition, n));
      mv.checks.push_back(std::move(check));
      rule_args_.clear();
      break;
    }
  }
  mv.body = block(m.body);
  mv.locals = frame.size;
  param_types_.clear();
}

void Lowering::lower_phases() {
  for (size_t pi = 0; pi < game_.phases.size(); ++pi) {
    const dsl::Phase& p = *game_.phases[pi].phase;
    ir::Phase& ph = prog_.phases[pi];
    ph.has_stuck = p.has_stuck;
    if (p.has_stuck) {
      Frame frame;
      begin_frame(frame, 0);
      ph.stuck = block(p.stuck);
      ph.stuck_locals = frame.size;
    }
    Frame frame;
    begin_frame(frame, 0);
    for (const dsl::Transition& t : p.transitions) {
      ir::Transition tr;
      tr.condition = expr(*t.condition, dsl::bool_type());
      tr.span = t.span;
      if (!t.is_end) {
        for (size_t i = 0; i < game_.phases.size(); ++i)
          if (game_.phases[i].name == t.target.name) tr.target = int(i);
      }
      ph.transitions.push_back(std::move(tr));
    }
    ph.locals = frame.size;
  }
}

void Lowering::lower_setups() {
  for (const dsl::Setup* s : game_.setups) {
    auto it = vars_.find(s->name.name);
    if (it == vars_.end()) continue;
    ir::SetupVar sv;
    sv.name = s->name.name;
    sv.var = it->second;
    sv.span = s->name.span;
    const dsl::TypeRef& t = var_types_[s->name.name];
    Frame frame;
    begin_frame(frame, 0);
    switch (s->source) {
      case dsl::SetupSource::Value:
        sv.source = ir::SetupVar::Source::Value;
        sv.value = expr(*s->value, t);
        break;
      case dsl::SetupSource::Random:
        sv.source = ir::SetupVar::Source::Random;
        sv.value = expr(*s->value, dsl::int_type());
        sv.from = expr(*s->from, t);
        break;
      case dsl::SetupSource::Shuffle: {
        sv.source = ir::SetupVar::Source::Shuffle;
        dsl::TypeRef vt = game_.type_of(*s->value);
        sv.value = expr(*s->value, vt && vt->is(dsl::TypeTag::Seq) ? t : nullptr);
        break;
      }
      case dsl::SetupSource::File:
        sv.source = ir::SetupVar::Source::Entries;
        read_data_file(*s, sv);
        break;
    }
    sv.locals = frame.size;
    prog_.setups.push_back(std::move(sv));
  }
  {
    Frame frame;
    begin_frame(frame, 0);
    for (const dsl::State* s : game_.states) {
      auto it = vars_.find(s->name.name);
      if (!s->initial || it == vars_.end()) continue;
      assign_whole(it->second, {}, expr(*s->initial, var_types_[s->name.name]), 0, s->name.span,
                   prog_.initial);
    }
    prog_.initial_locals = frame.size;
  }
  Frame frame;
  begin_frame(frame, 0);
  for (const dsl::Init* i : game_.inits) {
    // The init blocks run as one block in every backend, so each block's locals take slots
    // of their own: a later block's `let` never shares an earlier one's slot (or name).
    release_to(frame.size);
    ir::Block b = block(i->body);
    for (auto& st : b) prog_.init.push_back(std::move(st));
  }
  prog_.init_locals = frame.size;
}

void Lowering::lower_end_and_score() {
  if (game_.end_when) {
    Frame frame;
    begin_frame(frame, 0);
    prog_.end_when = expr(*game_.end_when->condition, dsl::bool_type());
    prog_.end_locals = frame.size;
  }
  ir::Score& sc = prog_.score;
  sc.highest = game_.winner ? game_.winner->highest : true;
  if (!game_.score) return;
  sc.per_team = game_.score->per_team;
  if (sc.per_team && game_.teams.empty()) error(game_.score->var.span, "a team score needs teams");
  Frame frame;
  begin_frame(frame, 1);
  sc.value = expr(*game_.score->value);
  sc.locals = frame.size;
  if (sc.value->type->kind == ir::Type::Kind::List) {
    if (sc.value->op != ir::Op::ListLit && sc.value->op != ir::Op::ConstList)
      error(game_.score->value->span, "a tuple score must be written as a list [a, b, ...]");
    sc.width = std::max<int>(1, int(sc.value->args.size()));
  }
}

void Lowering::lower_properties() {
  for (const dsl::Property* p : game_.properties) {
    ir::Property ip;
    ip.kind = property_kind(p->kind);
    ip.name = p->name.name;
    ip.description = p->description;
    ip.maximize = p->maximize;
    ip.subject = p->subject.name;
    ip.span = p->name.span;
    const bool has_set = p->kind != dsl::PropertyKind::Depends &&
                         p->kind != dsl::PropertyKind::Consistent &&
                         p->kind != dsl::PropertyKind::Redundant;
    if (has_set) {
      ip.over_moves = p->over.moves;
      ip.reachable = p->over.reachable;
      ip.over_play = p->over.play;
      int params = 0;
      param_types_.clear();
      if (ip.over_moves) {
        for (size_t i = 0; i < prog_.moves.size(); ++i) {
          bool named = p->over.move_names.empty();
          for (const dsl::Ident& m : p->over.move_names) named = named || m.name == prog_.moves[i].name;
          if (named) ip.moves.push_back(int(i));
        }
        if (!ip.moves.empty()) {
          // The checker numbers the shared parameters by their places in the first move
          // the property names (not the first declared): the same move here.
          int first_index = ip.moves.front();
          if (!p->over.move_names.empty())
            for (int m : ip.moves)
              if (prog_.moves[size_t(m)].name == p->over.move_names.front().name) {
                first_index = m;
                break;
              }
          const ir::Move& first = prog_.moves[size_t(first_index)];
          params = int(first.params.size());
          param_types_.assign(first.params.size(), nullptr);
          for (int m : ip.moves) {
            std::vector<int> map;
            for (const ir::MoveParam& fp : first.params) {
              int at = -1;
              const auto& mps = prog_.moves[size_t(m)].params;
              for (size_t j = 0; j < mps.size(); ++j)
                if (mps[j].name == fp.name && mps[j].domain == fp.domain) at = int(j);
              map.push_back(at);
            }
            ip.move_params.push_back(std::move(map));
          }
        }
      } else if (!p->over.phase.name.empty()) {
        for (size_t i = 0; i < game_.phases.size(); ++i)
          if (game_.phases[i].name == p->over.phase.name) ip.phase = int(i);
      }
      Frame frame;
      begin_frame(frame, params);
      for (const auto& [name, entry] : p->over.setups) {
        const auto k = game_.constant(*entry);
        for (const ir::SetupVar& sv : prog_.setups)
          if (sv.name == name.name && k) {
            if (*k < 1 || size_t(*k) > sv.entries.size())
              error(entry->span, fmt::format("entry {} does not exist: '{}' holds entries 1 to {}", *k, sv.path,
                                             sv.entries.size()));
            ip.setup.emplace_back(name.name, std::to_string(*k));
          }
      }
      if (p->over.where) ip.where = expr(*p->over.where, dsl::bool_type());
      if (p->expr) {
        dsl::TypeRef want = p->kind == dsl::PropertyKind::Derive  ? nullptr
                            : p->kind == dsl::PropertyKind::Bound ? dsl::int_type()
                                                                  : dsl::bool_type();
        ip.expr = expr(*p->expr, want);
      }
      for (const dsl::Clue& c : p->clues)
        ip.clues.push_back(ir::Clue{c.name.name, int(c.binders.size()), clue_family(c, 0), c.name.span});
      for (const dsl::Ident& u : p->up_to) ip.up_to.push_back(u.name);
      ip.locals = frame.size;
      param_types_.clear();
    }
    prog_.properties.push_back(std::move(ip));
  }
  for (const dsl::Metric* m : game_.metrics) {
    ir::Metric im;
    im.name = m->name.name;
    im.description = m->description;
    im.span = m->name.span;
    Frame frame;
    begin_frame(frame, 0);
    im.value = expr(*m->value);
    if (m->when) im.when = expr(*m->when, dsl::bool_type());
    im.locals = frame.size;
    prog_.metrics.push_back(std::move(im));
  }
}

// ------------------------------------------------------------------ entry points

std::optional<ir::Program> lower_game(const dsl::Game& game, dsl::SourceSet& sources,
                                      dsl::Diagnostics& diags) {
  return Lowering(game, sources, diags).run();
}

std::optional<ir::Program> load_program(const std::string& path, dsl::SourceSet& sources,
                                        dsl::Diagnostics& diags) {
  dsl::Game game = dsl::check_file(path, sources, diags);
  if (diags.has_errors()) return std::nullopt;
  return lower_game(game, sources, diags);
}

std::optional<ir::Program> load_program_text(const std::string& name, const std::string& text,
                                             dsl::SourceSet& sources, dsl::Diagnostics& diags) {
  uint32_t id = sources.add(name, text);
  dsl::Game game = dsl::check_game(dsl::load_game_source(id, sources, diags), sources, diags);
  if (diags.has_errors()) return std::nullopt;
  return lower_game(game, sources, diags);
}

// A swap of values becomes a pair of indices of one domain, a swap of state variables a
// pair of variables of the same layout; defines and params change with them.
void Lowering::lower_symmetries() {
  using dsl::NameKind;
  auto var_named = [&](const std::string& name) {
    for (size_t v = 0; v < prog_.vars.size(); ++v)
      if (prog_.vars[v].name == name && prog_.vars[v].origin != ir::StateVar::Origin::System)
        return int(v);
    return -1;
  };
  for (const dsl::Symmetry* s : game_.symmetries) {
    ir::Symmetry sym;
    sym.name = s->name.name;
    sym.span = s->name.span;
    for (const auto& [a, b] : s->swaps) {
      const dsl::Symbol* sa = game_.global(a.name);
      const dsl::Symbol* sb = game_.global(b.name);
      if (!sa || !sb) continue;  // reported by the checker
      ir::Symmetry::Swap sw;
      sw.text = a.name + " <-> " + b.name;
      sw.span = a.span;
      switch (sa->kind) {
        case NameKind::Player:
          sw.domain = ir::kPlayerDomain;
          break;
        case NameKind::Team:
          sw.domain = ir::kTeamDomain;
          break;
        case NameKind::EnumMember:
          sw.domain = domain_of(sa->type);
          break;
        case NameKind::State:
        case NameKind::Setup: {
          sw.kind = ir::Symmetry::Swap::Kind::Var;
          sw.var_a = var_named(a.name);
          sw.var_b = var_named(b.name);
          const ir::StateVar* va = sw.var_a >= 0 ? &prog_.vars[size_t(sw.var_a)] : nullptr;
          const ir::StateVar* vb = sw.var_b >= 0 ? &prog_.vars[size_t(sw.var_b)] : nullptr;
          if (!va || !vb || va->keys != vb->keys || va->domain != vb->domain ||
              va->origin != vb->origin) {
            error(a.span, fmt::format("cannot swap '{}' with '{}': they are not stored alike",
                                      a.name, b.name));
            continue;
          }
          break;
        }
        default:
          sw.kind = ir::Symmetry::Swap::Kind::Derived;
          break;
      }
      if (sw.kind == ir::Symmetry::Swap::Kind::Value) {
        sw.a = sa->index;
        sw.b = sb->index;
        if (sw.domain < 0) continue;  // reported by domain_of
      }
      sym.swaps.push_back(std::move(sw));
    }
    prog_.symmetries.push_back(std::move(sym));
  }
}

}  // namespace rulebook::compiler
