// The C++ emitter's game machinery: move generators with staged conditions, move blocks,
// phases (end and phase tests, the turn, the stuck loop), setup, scores and the ABI.
#include <algorithm>

#include "compiler/emit_internal.h"

namespace rulebook::compiler::emit {

namespace {

}  // namespace

std::vector<std::vector<StagedCondition>> Emitter::staged_conditions(int m) const {
  const ir::Move& M = program_.moves[size_t(m)];
  const size_t n = M.params.size();
  // Each condition is tested as soon as the parameters it reads are chosen; within a
  // stage, `requires` lines first, then the move rules, each in declaration order.
  std::vector<std::vector<StagedCondition>> stages(n + 1);
  for (size_t i = 0; i < M.requires_.size(); ++i) {
    const size_t st = std::min<size_t>(size_t(std::max(M.requires_stage[i], 0)), n);
    stages[st].push_back({M.requires_[i].get(), "requires " + source_excerpt(M.requires_[i]->span),
                          M.requires_[i]->span});
  }
  for (size_t i = 0; i < M.checks.size(); ++i) {
    const size_t st = std::min<size_t>(size_t(std::max(M.checks_stage[i], 0)), n);
    const ir::Rule& R = program_.rules[size_t(M.checks[i].rule)];
    stages[st].push_back({M.checks[i].condition.get(), "rule " + R.name, R.span});
  }
  return stages;
}

// ---------------------------------------------------------------- system variables

std::string Emitter::sys(int var) const { return "g.s." + field_name(var); }

std::string Emitter::passes_value() const {
  return element_value(ir::kVarPasses, sys(ir::kVarPasses));
}

// ---------------------------------------------------------------- moves

std::string Emitter::move_signature(int m) const {
  const ir::Move& M = program_.moves[size_t(m)];
  std::string s = M.name;
  if (!M.params.empty()) {
    s += "(";
    for (size_t i = 0; i < M.params.size(); ++i) {
      s += fmt::format("{}{}: {}", i ? ", " : "", M.params[i].name, dom(M.params[i].domain).name);
    }
    s += ")";
  }
  return s;
}

void Emitter::split_stage(const std::vector<StagedCondition>& stage, int param, int domain,
                          std::vector<std::string>& masks,
                          std::vector<const StagedCondition*>& rest) {
  // Conditions on the parameter that planes and sets answer for every value at once
  // become one mask; they are taken in order up to the first condition that could fail,
  // so that no error the rules would report is skipped.
  bool hoisting = identity_domain(domain);
  for (const StagedCondition& c : stage) {
    std::optional<std::string> mask;
    if (hoisting) mask = mask_of(*c.expr, param, domain);
    if (mask) {
      masks.push_back(fmt::format("{}  // {} — {}", *mask, c.label, where_text(c.span)));
      continue;
    }
    if (!safe(*c.expr)) hoisting = false;
    rest.push_back(&c);
  }
}

void Emitter::move_generator(int m) {
  const ir::Move& M = program_.moves[size_t(m)];
  const size_t n = M.params.size();
  begin_frame(M.locals);
  std::vector<std::string> args;
  for (size_t i = 0; i < n; ++i) {
    args.push_back(param_cpp_name(M.params[i].name));
    slots_[i] = args.back();
  }
  const std::vector<std::vector<StagedCondition>> stages = staged_conditions(m);

  w_.linef("/// The legal instances of move {} — {}", move_signature(m), where_text(M.span));
  w_.line("template <class Sink>");
  w_.open(fmt::format("bool gen_{}(Game& g, Sink& sink) {{", move_name(m)));
  auto test = [&](const StagedCondition& c, const char* on_false) {
    w_.linef("// {} — {}", c.label, where_text(c.span));
    w_.linef("if (!{}) {};", paren(cond(*c.expr)), on_false);
  };
  for (const StagedCondition& c : stages[0]) test(c, "return false");
  std::string take_args;
  for (size_t i = 0; i < n; ++i) take_args += ", " + args[i];
  for (size_t i = 0; i < n; ++i) {
    const int d = M.params[i].domain;
    const uint32_t size = dom(d).size;
    const bool last = i + 1 == n;
    // Conditions on this parameter that planes and sets answer for every value at once
    // become one mask to iterate; they are taken in order up to the first condition that
    // could fail, so that no error the rules would report is skipped.
    std::vector<std::string> masks;
    std::vector<const StagedCondition*> rest;
    split_stage(stages[i + 1], int(i), d, masks, rest);
    if (!masks.empty() || (last && rest.empty() && !has_board_rules_ && identity_domain(d))) {
      const std::string mask = fresh("mask");
      if (masks.empty()) {
        w_.linef("const Bits<{}> {} = full_d{}();", words(d), mask, d);
      } else {
        w_.linef("const Bits<{}> {} =", words(d), mask);
        for (size_t k = 0; k < masks.size(); ++k)
          w_.linef("    {}{}{}", k ? "& " : "", masks[k], k + 1 == masks.size() ? "" : "");
        w_.line("    ;");
      }
      if (last && rest.empty() && !has_board_rules_) {
        // Nothing left to test: the sink takes the whole mask (a count is a popcount).
        std::string prefix;
        for (size_t k = 0; k < i; ++k) prefix += ", " + args[k];
        w_.linef("if (sink.take_bits({}, {}, {}{})) return true;", m, mask, i, prefix);
        for (size_t k = 0; k < i; ++k) w_.close();
        w_.line("return false;");
        w_.close();
        w_.blank();
        return;
      }
      const std::string it = fresh("it");
      w_.open(fmt::format("for (Bits<{}> {} = {}; !{}.empty();) {{", words(d), it, mask, it));
      w_.linef("const Int {} = {}.pop();", args[i], it);
    } else if (identity_domain(d)) {
      w_.open(fmt::format("for (Int {} = 0; {} < {}; ++{}) {{", args[i], args[i], size, args[i]));
    } else {
      const std::string idx = fresh("i");
      w_.open(fmt::format("for (Int {} = 0; {} < {}; ++{}) {{", idx, idx, size, idx));
      w_.linef("const Int {} = val_d{}({});", args[i], d, idx);
    }
    for (const StagedCondition* c : rest) test(*c, "continue");
  }
  if (has_board_rules_) {
    w_.linef("if (!board_ok_{}(g{})) {};", move_name(m), take_args, n ? "continue" : "return false");
  }
  w_.linef("if (sink.take({}{})) return true;", m, take_args);
  for (size_t i = 0; i < n; ++i) w_.close();
  w_.line("return false;");
  w_.close();
  w_.blank();
}

void Emitter::move_apply(int m) {
  const ir::Move& M = program_.moves[size_t(m)];
  begin_frame(M.locals);
  std::string params = "Game& g";
  for (size_t i = 0; i < M.params.size(); ++i) {
    slots_[i] = param_cpp_name(M.params[i].name);
    params += ", Int " + slots_[i];
  }
  w_.linef("/// The block of move {} — {}", move_signature(m), where_text(M.span));
  w_.open(fmt::format("void apply_{}({}) {{", move_name(m), params));
  block(M.body);
  w_.close();
  w_.blank();
  if (has_board_rules_) {
    std::string call_args;
    for (size_t i = 0; i < M.params.size(); ++i) call_args += ", " + slots_[i];
    w_.linef("/// The board rules hold after the block of move {}.", M.name);
    w_.open(fmt::format("bool board_ok_{}({}) {{", move_name(m), params));
    w_.line("Game t;");
    w_.line("copy_game(t, g);");
    w_.linef("apply_{}(t{});", move_name(m), call_args);
    w_.line("return board_rules_hold(t);");
    w_.close();
    w_.blank();
  }
  // One instance, as apply checks it: every stage's conditions in order.
  {
    begin_frame(M.locals);
    std::string lparams = "Game& g";
    for (size_t i = 0; i < M.params.size(); ++i) {
      slots_[i] = param_cpp_name(M.params[i].name);
      lparams += ", Int " + slots_[i];
    }
    w_.linef("/// The instance of move {} with these arguments is legal (tested as the", M.name);
    w_.line("/// generator tests it, one parameter at a time).");
    w_.open(fmt::format("bool legal_{}({}) {{", move_name(m), lparams));
    const auto stages = staged_conditions(m);
    for (size_t st = 0; st < stages.size(); ++st) {
      std::vector<std::string> masks;
      std::vector<const StagedCondition*> rest;
      if (st == 0) {
        for (const StagedCondition& c : stages[0]) rest.push_back(&c);
      } else {
        split_stage(stages[st], int(st - 1), M.params[st - 1].domain, masks, rest);
      }
      if (!masks.empty()) {
        w_.linef("const Bits<{}> mask{} =", words(M.params[st - 1].domain), st);
        for (size_t k = 0; k < masks.size(); ++k) w_.linef("    {}{}", k ? "& " : "", masks[k]);
        w_.line("    ;");
        w_.linef("if (!mask{}.has({})) return false;", st, slots_[st - 1]);
      }
      for (const StagedCondition* c : rest) {
        w_.linef("// {} — {}", c->label, where_text(c->span));
        w_.linef("if (!{}) return false;", paren(cond(*c->expr)));
      }
    }
    if (has_board_rules_) {
      std::string call_args;
      for (size_t i = 0; i < M.params.size(); ++i) call_args += ", " + slots_[i];
      w_.linef("return board_ok_{}(g{});", move_name(m), call_args);
    } else {
      w_.line("return true;");
    }
    w_.close();
    w_.blank();
  }
  // can(): the remembered answer inline, the search out of line.
  const int base = can_memo_base_.empty() ? -1 : can_memo_base_[size_t(m)];
  w_.linef("/// Move {} has a legal instance for `player` (its conditions see `player` as mover).", M.name);
  w_.open(fmt::format("[[gnu::noinline]] bool search_{}(Game& g, Int player) {{", move_name(m)));
  w_.linef("const Int saved = g.mover_;");
  w_.linef("g.mover_ = {};", "player");
  w_.line("Exists sink;");
  w_.linef("const bool found = gen_{}(g, sink);", move_name(m));
  w_.line("g.mover_ = saved;");
  if (base >= 0) {
    w_.linef("const uint64_t bit = uint64_t(1) << ({} + player);", base);
    w_.line("g.can_known_ |= bit;");
    w_.line("g.can_true_ = found ? g.can_true_ | bit : g.can_true_ & ~bit;");
  }
  w_.line("return found;");
  w_.close();
  w_.blank();
  w_.linef("/// can({}, player), remembered until a variable its conditions read is stored.", M.name);
  w_.open(fmt::format("inline bool can_{}(Game& g, Int player) {{", move_name(m)));
  w_.linef("if (uint64_t(player) >= uint64_t(kPlayers)) fail({}, \"can: not a player\");", where(M.span));
  if (base >= 0) {
    w_.linef("const uint64_t bit = uint64_t(1) << ({} + player);", base);
    w_.line("if (g.can_known_ & bit) return (g.can_true_ & bit) != 0;");
  }
  w_.linef("return search_{}(g, player);", move_name(m));
  w_.close();
  w_.blank();
}

void Emitter::moves() {
  w_.line("// ================================================================ moves");
  w_.blank();
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    w_.line("template <class Sink>");
    w_.linef("bool gen_{}(Game& g, Sink& sink);", move_name(int(m)));
    if (has_board_rules_) {
      std::string params = "Game& g";
      for (size_t i = 0; i < program_.moves[m].params.size(); ++i) params += ", Int";
      w_.linef("bool board_ok_{}({});", move_name(int(m)), params);
    }
  }
  w_.blank();
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    move_generator(int(m));
    move_apply(int(m));
  }
}

// ---------------------------------------------------------------- phases

void Emitter::phases() {
  w_.line("// ================================================================ phases");
  w_.blank();
  w_.line("/// The legal moves of the player to move, in the canonical order.");
  w_.line("template <class Sink>");
  w_.open("bool generate(Game& g, Sink& sink) {");
  w_.linef("if ({}) return false;", sys(ir::kVarOver));
  w_.linef("switch ({}) {{", sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    w_.linef("  case {}:  // phase {}", p, P.name);
    for (int m : P.moves) w_.linef("    if (gen_{}(g, sink)) return true;", move_name(m));
    w_.line("    return false;");
  }
  w_.line("}");
  w_.line("return false;");
  w_.close();
  w_.blank();

  w_.line("/// The player to move has a legal move (what `can` knows is remembered).");
  w_.open("bool has_legal(Game& g) {");
  w_.linef("switch ({}) {{", sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    std::string any;
    for (int m : P.moves) any += fmt::format("{}can_{}(g, g.mover_)", any.empty() ? "" : " || ", move_name(m));
    w_.linef("  case {}:  // phase {}", p, P.name);
    w_.linef("    return {};", any.empty() ? "false" : any);
  }
  w_.line("}");
  w_.line("return false;");
  w_.close();
  w_.blank();

  // Step 2 and 3 of applying a move (docs/semantics.md).
  w_.line("/// After a block: `end when`, the phase's `until` lines, then the turn.");
  w_.open("void finish_turn(Game& g) {");
  w_.open(fmt::format("if (!{}) {{", sys(ir::kVarOver)));
  const bool has_end = program_.end_when != nullptr;
  if (has_end) {
    begin_frame(program_.end_locals);
    w_.linef("// end when — {}", where_text(program_.end_when->span));
    w_.open(fmt::format("if ({}) {{", bare(cond(*program_.end_when))));
    w_.linef("{};", sys_put(ir::kVarOver, "", "1"));
    w_.reopen("} else {");
  }
  w_.linef("switch ({}) {{", sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    if (P.transitions.empty()) continue;
    begin_frame(P.locals);
    w_.open(fmt::format("case {}: {{  // phase {}", p, P.name));
    for (size_t t = 0; t < P.transitions.size(); ++t) {
      const ir::Transition& T = P.transitions[t];
      const std::string head = fmt::format("if ({}) {{  // until ... -> {} — {}", bare(cond(*T.condition)),
                                           T.target < 0 ? std::string("end")
                                                        : program_.phases[size_t(T.target)].name,
                                           where_text(T.span));
      if (t == 0) {
        w_.open(head);
      } else {
        w_.reopen("} else " + head);
      }
      if (T.target < 0) {
        w_.linef("{};", sys_put(ir::kVarOver, "", "1"));
      } else {
        w_.linef("{};", sys_put(ir::kVarPhase, "", std::to_string(T.target)));
      }
    }
    w_.close();
    w_.line("break;");
    w_.close();
  }
  w_.line("default:");
  w_.line("  break;");
  w_.line("}");
  if (has_end) w_.close();
  w_.close();
  // The turn.
  w_.linef("const Int mover = {};", sys(ir::kVarMover));
  w_.linef("if (!(g.again_ && !{}[mover])) {{", sys(ir::kVarOut));
  w_.line("  Int next = -1;");
  w_.line("  Int q = mover;");
  w_.line("  for (Int k = 1; k <= kPlayers; ++k) {");
  w_.line("    q = q + 1 == kPlayers ? 0 : q + 1;");
  w_.linef("    if (!{}[q]) {{", sys(ir::kVarOut));
  w_.line("      next = q;");
  w_.line("      break;");
  w_.line("    }");
  w_.line("  }");
  w_.linef("  if (next < 0) {{");
  w_.linef("    {};", sys_put(ir::kVarOver, "", "1"));
  w_.line("  } else {");
  w_.linef("    {};", sys_put(ir::kVarMover, "", "next"));
  w_.line("  }");
  w_.line("}");
  w_.linef("g.mover_ = {};", sys(ir::kVarMover));
  w_.close();
  w_.blank();

  // The stuck loop.
  w_.line("/// While the player to move has no legal move: everybody stuck in a row ends the");
  w_.line("/// game; otherwise the phase's `when stuck` block runs (none ends the game).");
  w_.open("void settle(Game& g) {");
  w_.open(fmt::format("while (!{}) {{", sys(ir::kVarOver)));
  w_.line("if (has_legal(g)) return;");
  w_.line("Int active = 0;");
  w_.linef("for (Int p = 0; p < kPlayers; ++p) active += !{}[p];", sys(ir::kVarOut));
  w_.linef("const Int passes = {};", passes_value());
  w_.open("if (passes == active) {");
  w_.linef("{};", sys_put(ir::kVarOver, "", "1"));
  w_.line("return;");
  w_.close();
  w_.linef("{};", sys_put(ir::kVarPasses, "",
                          fmt::format("chk_d{}(passes + 1, \"passes\", \"a value outside its domain\")",
                                      program_.vars[ir::kVarPasses].domain)));
  w_.line("g.again_ = false;");
  w_.linef("switch ({}) {{", sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    if (!P.has_stuck) continue;
    begin_frame(P.stuck_locals);
    w_.open(fmt::format("case {}: {{  // phase {}: when stuck", p, P.name));
    block(P.stuck);
    w_.line("break;");
    w_.close("}");
  }
  w_.line("default:");
  w_.linef("  {};", sys_put(ir::kVarOver, "", "1"));
  w_.line("  return;");
  w_.line("}");
  w_.line("finish_turn(g);");
  w_.close("}");
  w_.close();
  w_.blank();
}

// ---------------------------------------------------------------- setup

void Emitter::store_whole(int var, const ir::Expr& value, dsl::Span span) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  const std::string what = fmt::format("{} := a value outside {}", V.name, dom(V.domain).name);
  if (V.keys.empty()) {
    w_.line(store(var, "", fmt::format("chk_d{}({}, {}, \"{}\")", V.domain, expr(value),
                                       where(span), what)) + ";");
    return;
  }
  if (value.type->kind == ir::Type::Kind::Set) {
    // A set stored as `T -> bool`: the key domain and the set's domain are the same.
    w_.open("{");
    w_.linef("const auto value = {};", expr(value));
    w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count, store(var, "i", "value.has(i) ? 1 : 0"));
    w_.close();
    return;
  }
  if (value.type->kind == ir::Type::Kind::List) {
    w_.open("{");
    w_.linef("const auto value = {};", expr(value));
    w_.linef("if (value.n != {}) fail({}, \"{}: {} values expected\");", V.count, where(span),
             V.name, V.count);
    w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count,
             store(var, "i", fmt::format("chk_d{}(value.a[i], {}, \"{}\")", V.domain, where(span), what)));
    w_.close();
    return;
  }
  errors_.push_back(fmt::format("{}: cannot store this value in {}", where_text(span), V.name));
}

void Emitter::setup_and_init() {
  w_.line("// ================================================================ setup");
  w_.blank();
  w_.line("/// Setup (docs/semantics.md): initial values, setup variables, `init`, first turn.");
  w_.open("void set_up(Game& g, uint64_t seed, const uint32_t* const* overrides) {");
  w_.line("static const uint8_t kZero[sizeof(State)] = {};");
  w_.line("load(g, kZero);");
  begin_frame(program_.initial_locals);
  w_.line("// 1. initial values of the states");
  block(program_.initial);
  w_.line("// 2. setup variables, from one random stream");
  w_.line("SplitMix64 rng{seed};");
  w_.line("(void)rng;");
  for (size_t i = 0; i < program_.setups.size(); ++i) {
    const ir::SetupVar& S = program_.setups[i];
    const ir::StateVar& V = program_.vars[size_t(S.var)];
    begin_frame(S.locals);
    w_.linef("// setup {} — {}", S.name, where_text(S.span));
    w_.open(fmt::format("if (overrides && overrides[{}]) {{", i));
    w_.linef("for (Int i = 0; i < {}; ++i) {{", V.count);
    w_.linef("  if (overrides[{}][i] >= {}u) fail({}, \"setup {}: a value outside {}\");", i,
             dom(V.domain).size, where(S.span), S.name, dom(V.domain).name);
    w_.linef("  {};", store(S.var, V.keys.empty() ? "" : "i", fmt::format("overrides[{}][i]", i)));
    w_.line("}");
    w_.reopen("} else {");
    switch (S.source) {
      case ir::SetupVar::Source::Value:
        store_whole(S.var, *S.value, S.span);
        break;
      case ir::SetupVar::Source::Random:
      case ir::SetupVar::Source::Shuffle: {
        // The elements in ascending index (or list) order, then a partial Fisher-Yates
        // shuffle drawing from the stream: k draws for `random k of`, all for `shuffle`.
        const bool random = S.source == ir::SetupVar::Source::Random;
        const ir::Expr& src = random ? *S.from : *S.value;
        if (src.type->kind == ir::Type::Kind::Set) {
          const int fd = src.type->domain;
          w_.linef("Int a[{}];", std::max<uint32_t>(fd < 0 ? 1 : dom(fd).size, 1));
          w_.line("Int n = 0;");
          w_.linef("for (Bits<{}> m = {}; !m.empty();) a[n++] = val_d{}(m.pop());", words(fd),
                   expr(src), fd < 0 ? 0 : fd);
        } else if (src.type->elem && src.type->elem->kind == ir::Type::Kind::Scalar) {
          w_.linef("const auto list = {};", expr(src));
          w_.linef("Int a[{}];", list_cap(cpp_type(*src.type->elem)));
          w_.line("const Int n = list.n;");
          w_.line("for (Int i = 0; i < n; ++i) a[i] = list.a[i];");
        } else {
          errors_.push_back(fmt::format("{}: cannot draw from this value", where_text(S.span)));
          break;
        }
        w_.linef("const Int k = {};", random ? expr(*S.value) : std::string("n"));
        w_.linef("if (k < 0 || k > n) fail_value({}, \"random: more elements drawn than there are\", k);",
                 where(S.span));
        w_.open("for (Int i = 0; i < k; ++i) {");
        w_.line("const Int j = i + Int(rng.next() % uint64_t(n - i));");
        w_.line("const Int t = a[i];");
        w_.line("a[i] = a[j];");
        w_.line("a[j] = t;");
        w_.close();
        if (random) {
          if (V.keys.empty() || !V.is_set) {
            errors_.push_back(fmt::format("{}: `random` into a variable that is not a set", where_text(S.span)));
            break;
          }
          const int key = V.keys.back();
          w_.linef("Bits<{}> chosen{{}};", words(key));
          w_.linef("for (Int i = 0; i < k; ++i) chosen.set(chk_d{}(a[i], {}, \"setup {}: a value drawn out of its range\"));",
                   key, where(S.span), S.name);
          w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count, store(S.var, "i", "chosen.has(i) ? 1 : 0"));
        } else {
          w_.linef("if (n != {}) fail({}, \"setup {}: {} values needed\");", V.count, where(S.span),
                   S.name, V.count);
          w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count,
                   store(S.var, V.keys.empty() ? "" : "i",
                         fmt::format("chk_d{}(a[i], {}, \"setup {}: a value outside {}\")", V.domain,
                                     where(S.span), S.name, dom(V.domain).name)));
        }
        break;
      }
      case ir::SetupVar::Source::Entries: {
        if (S.entries.empty()) {
          w_.linef("fail({}, \"setup {}: the data file has no entries\");", where(S.span), S.name);
          break;
        }
        std::string list;
        for (size_t e = 0; e < S.entries.size(); ++e) {
          list += "\n    {";
          for (size_t k = 0; k < S.entries[e].size(); ++k) {
            list += fmt::format("{}{}", k ? ", " : "", S.entries[e][k]);
          }
          list += "},";
        }
        w_.linef("static constexpr uint32_t kEntries[{}][{}] = {{{}\n}};", S.entries.size(),
                 std::max<uint32_t>(V.count, 1), list);
        w_.linef("// {} entries of {}; the default is entry {}", S.entries.size(), S.path,
                 S.default_entry + 1);
        w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count,
                 store(S.var, V.keys.empty() ? "" : "i",
                       fmt::format("kEntries[{}][i]", S.default_entry)));
        break;
      }
    }
    w_.close();
  }
  begin_frame(program_.init_locals);
  w_.line("// 3. init");
  block(program_.init);
  w_.line("// 4. the first phase, seat 1 to move, then the stuck loop");
  w_.linef("{};", sys_put(ir::kVarPhase, "", "0"));
  w_.linef("{};", sys_put(ir::kVarMover, "", "0"));
  w_.line("g.mover_ = 0;");
  w_.line("g.again_ = false;");
  w_.line("settle(g);");
  w_.close();
  w_.blank();
}

// ---------------------------------------------------------------- scores

void Emitter::scores() {
  const ir::Score& S = program_.score;
  w_.line("// ================================================================ scores");
  w_.blank();
  const int subjects = S.per_team ? int(program_.geometry.teams.size()) : program_.players;
  w_.line("/// score_subjects x score_width values, subject-major.");
  w_.open("void score_all(Game& g, int64_t* out) {");
  if (!S.value) {
    w_.linef("for (Int s = 0; s < {}; ++s) out[s] = 0;", subjects * S.width);
  } else {
    begin_frame(S.locals);
    slots_[0] = "subject";
    w_.open(fmt::format("for (Int subject = 0; subject < {}; ++subject) {{", subjects));
    if (S.value->type->kind == ir::Type::Kind::List) {
      w_.linef("const auto v = {};", expr(*S.value));
      w_.linef("for (Int k = 0; k < {}; ++k) out[subject * {} + k] = k < v.n ? v.a[k] : 0;",
               S.width, S.width);
    } else {
      w_.linef("out[subject] = {};", expr(*S.value));
    }
    w_.close();
  }
  w_.close();
  w_.blank();
}

// ---------------------------------------------------------------- ABI

uint32_t Emitter::max_moves() const {
  uint64_t total = 0;
  for (const ir::Move& M : program_.moves) {
    uint64_t n = 1;
    for (const ir::MoveParam& p : M.params) n = std::min<uint64_t>(n * dom(p.domain).size, 1u << 30);
    total = std::min<uint64_t>(total + n, 1u << 30);
  }
  return uint32_t(std::max<uint64_t>(total, 1));
}

void Emitter::abi_functions() {
  w_.line("// ================================================================ the C ABI");
  w_.blank();
  w_.open("int32_t report(rb_error* err, int32_t code, const char* message) {");
  w_.open("if (err) {");
  w_.line("err->code = code;");
  w_.line("std::snprintf(err->message, sizeof err->message, \"%s\", message);");
  w_.close();
  w_.line("return code;");
  w_.close();
  w_.blank();
  // Every entry point runs its body in one try: rule errors become codes here.
  w_.line("#define RB_TRY try {");
  w_.line("#define RB_CATCH                                                         \\");
  w_.line("  }                                                                      \\");
  w_.line("  catch (const RuleError& e) { return report(err, RB_RULE_ERROR, e.message); } \\");
  w_.line("  catch (...) { return report(err, RB_INTERNAL, \"internal error in the engine\"); }");
  w_.blank();

  w_.line("/// The state this thread last worked on, with its planes and what is known of it,");
  w_.line("/// valid after a call that succeeded: a caller passing back the bytes it just got");
  w_.line("/// (a playout, apply after legal_moves) skips the rebuild and keeps what `can` knew.");
  w_.open("struct Last {");
  w_.line("Game game;");
  w_.line("bool valid;");
  w_.close("};");
  w_.line("thread_local Last t_last;");
  w_.blank();
  w_.open("Game& open(Last& last, const uint8_t* state) {");
  w_.line("if (!last.valid || std::memcmp(&last.game.s, state, sizeof(State)) != 0) load(last.game, state);");
  w_.line("last.valid = false;  // until the call succeeds");
  w_.line("last.game.mover_ = last.game.s.mover_;");
  w_.line("last.game.again_ = false;");
  w_.line("return last.game;");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_setup(uint8_t* state, uint64_t seed, const uint32_t* const* overrides, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("last.valid = false;");
  w_.line("Game& g = last.game;");
  w_.line("set_up(g, seed, overrides);");
  w_.line("save(g, state);");
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_legal_moves(const uint8_t* state, rb_move* out, uint32_t cap, uint32_t* count, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("Collect sink{out, cap};");
  w_.line("generate(g, sink);");
  w_.line("*count = sink.n;");
  w_.line("last.valid = true;");
  w_.line("return sink.n > cap ? report(err, RB_TRUNCATED, \"more legal moves than room for them\") : RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_count_moves(const uint8_t* state, uint64_t* count, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("Count sink;");
  w_.line("generate(g, sink);");
  w_.line("*count = sink.n;");
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  // Playing a move on a loaded state.
  w_.line("/// Plays `m` on `g`. With `Checked`, a move that is not legal in `g` is refused");
  w_.line("/// (the message says why) and `g` is left as it was.");
  w_.line("template <bool Checked>");
  w_.open("const char* play(Game& g, const rb_move& m) {");
  w_.linef("if (Checked && {}) return \"the game is over: no move can be played\";", sys(ir::kVarOver));
  w_.line("switch (m.kind) {");
  for (size_t mi = 0; mi < program_.moves.size(); ++mi) {
    const ir::Move& M = program_.moves[mi];
    w_.linef("  case {}: {{  // {}", mi, M.name);
    std::string args;
    for (size_t k = 0; k < M.params.size(); ++k) args += fmt::format(", Int(m.args[{}])", k);
    w_.line("    if (Checked) {");
    w_.linef("      if ({} != {}) return \"not a move of the current phase\";", sys(ir::kVarPhase), M.phase);
    for (size_t k = 0; k < M.params.size(); ++k) {
      w_.linef("      if (idx_d{}(m.args[{}]) < 0) return \"an argument out of range\";", M.params[k].domain, k);
    }
    w_.linef("      if (!legal_{}(g{})) return \"not a legal move\";", move_name(int(mi)), args);
    w_.line("    }");
    w_.linef("    {};", sys_put(ir::kVarPasses, "", std::to_string(ir::domain_index(
                                 program_.domains, program_.vars[ir::kVarPasses].domain, 0))));
    w_.line("    g.again_ = false;");
    w_.linef("    apply_{}(g{});", move_name(int(mi)), args);
    w_.line("    break;");
    w_.line("  }");
  }
  w_.line("  default:");
  w_.line("    return \"no such move\";");
  w_.line("}");
  w_.line("finish_turn(g);");
  w_.line("settle(g);");
  w_.line("return nullptr;");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_apply(uint8_t* state, const rb_move* move, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("if (const char* why = play<true>(g, *move)) {");
  w_.line("  last.valid = true;  // a refused move changes nothing");
  w_.line("  return report(err, RB_BAD_CALL, why);");
  w_.line("}");
  w_.line("save(g, state);");
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  w_.line("uint64_t perft(Game& g, int depth);");
  w_.blank();
  w_.line("/// A sink that plays each legal move on a copy and counts the paths below it.");
  w_.open("struct Below {");
  w_.line("const Game* parent;");
  w_.line("int depth;");
  w_.line("uint64_t total = 0;");
  w_.open("bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {");
  w_.line("const rb_move m{int32_t(kind), {int32_t(a0), int32_t(a1), int32_t(a2), int32_t(a3)}};");
  w_.line("Game child;");
  w_.line("copy_game(child, *parent);");
  w_.line("play<false>(child, m);");
  w_.line("total += perft(child, depth);");
  w_.line("return false;");
  w_.close();
  w_.line("template <int W>");
  w_.open("bool take_bits(Int kind, Bits<W> bits, int last, Int a0 = 0, Int a1 = 0, Int a2 = 0) {");
  w_.line("Int a[4] = {a0, a1, a2, 0};");
  w_.open("while (!bits.empty()) {");
  w_.line("a[last] = bits.pop();");
  w_.line("take(kind, a[0], a[1], a[2], a[3]);");
  w_.close();
  w_.line("return false;");
  w_.close();
  w_.close("};");
  w_.blank();
  w_.line("/// Paths of `depth` moves below `g`; the last ply is counted, not played.");
  w_.open("uint64_t perft(Game& g, int depth) {");
  w_.line("if (depth <= 0) return 1;");
  w_.open("if (depth == 1) {");
  w_.line("Count c;");
  w_.line("generate(g, c);");
  w_.line("return c.n;");
  w_.close();
  w_.line("Below below{&g, depth - 1};");
  w_.line("generate(g, below);");
  w_.line("return below.total;");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_perft(const uint8_t* state, int32_t depth, uint64_t* count, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("*count = perft(g, depth);");
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_scores(const uint8_t* state, int64_t* out, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("score_all(g, out);");
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  w_.linef("int32_t abi_terminal(const uint8_t* state) {{ return state[{}] != 0; }}",
           program_.vars[ir::kVarOver].offset);
  w_.linef("int32_t abi_phase(const uint8_t* state) {{ return state[{}]; }}",
           program_.vars[ir::kVarPhase].offset);
  w_.linef("int32_t abi_to_move(const uint8_t* state) {{ return state[{}]; }}",
           program_.vars[ir::kVarMover].offset);
  w_.line("uint64_t abi_hash(const uint8_t* state) { return hash_bytes(state, sizeof(State)); }");
  w_.blank();
  w_.line("#undef RB_TRY");
  w_.line("#undef RB_CATCH");
  w_.blank();

  // Names for the table.
  auto string_array = [&](const char* name, const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& i : items) s += (s.empty() ? "" : ", ") + quote(i);
    w_.linef("const char* const {}[] = {{{}}};", name, s.empty() ? "nullptr" : s);
  };
  string_array("kPlayerNames", program_.player_names);
  std::vector<std::string> names;
  for (const ir::Phase& p : program_.phases) names.push_back(p.name);
  string_array("kPhaseNames", names);
  names.clear();
  std::string arity;
  for (const ir::Move& m : program_.moves) {
    names.push_back(m.name);
    arity += fmt::format("{}{}", arity.empty() ? "" : ", ", m.params.size());
  }
  string_array("kMoveNames", names);
  w_.linef("const int32_t kMoveArity[] = {{{}}};", arity.empty() ? "0" : arity);
  names.clear();
  std::string counts;
  for (const ir::SetupVar& s : program_.setups) {
    names.push_back(s.name);
    counts += fmt::format("{}{}", counts.empty() ? "" : ", ", program_.vars[size_t(s.var)].count);
  }
  string_array("kSetupNames", names);
  w_.linef("const uint32_t kSetupCounts[] = {{{}}};", counts.empty() ? "0" : counts);
  w_.blank();
}

void Emitter::abi_footer(uint64_t hash, std::string& out) {
  Writer f;
  const std::string entry = fmt::format("rulebook_engine_{:016x}", hash);
  const ir::Score& S = program_.score;
  const int subjects = S.per_team ? int(program_.geometry.teams.size()) : program_.players;
  f.line("// ================================================================ ABI footer");
  f.line("// Everything above this line is what the source hash covers.");
  f.blank();
  f.line("namespace {");
  f.open("const rb_engine kEngine = {");
  f.line("RULEBOOK_ABI_VERSION,");
  f.line("sizeof(rb_engine),");
  f.line("sizeof(State),");
  f.linef("0x{:016x}ull,", hash);
  f.linef("{},", quote(base_name_of_source()));
  f.linef("{},", quote(program_.title));
  f.linef("{},  // players", program_.players);
  f.linef("{},  // phases", program_.phases.size());
  f.linef("{},  // moves", program_.moves.size());
  f.linef("{},  // setups", program_.setups.size());
  f.linef("{},  // score width", S.width);
  f.linef("{},  // score subjects", subjects);
  f.linef("{},  // per team", S.per_team ? 1 : 0);
  f.linef("{},  // highest wins", S.highest ? 1 : 0);
  f.linef("{}u,  // max moves", max_moves());
  f.line("kPlayerNames, kPhaseNames, kMoveNames, kMoveArity, kSetupNames, kSetupCounts,");
  f.line("abi_setup, abi_legal_moves, abi_count_moves, abi_apply, abi_perft, abi_scores,");
  f.line("abi_terminal, abi_phase, abi_to_move, abi_hash,");
  f.close("};");
  f.line("}  // namespace");
  f.blank();
  f.linef("extern \"C\" const rb_engine* {}(void) {{ return &kEngine; }}", entry);
  f.blank();
  f.line("#ifdef RULEBOOK_ENGINE_REGISTER");
  f.line("// Linked into a tool: the registry finds this engine by its source hash.");
  f.linef("namespace {{ const int kRegistered = (rulebook_register_engine(&{}), 0); }}", entry);
  f.line("#endif");
  out += f.text();
}

}  // namespace rulebook::compiler::emit
