// The C++ emitter's game machinery: move generators with staged conditions and masks,
// legality of one instance, move blocks, can(), and the phases (end and phase tests, the
// turn, the stuck loop).
#include <algorithm>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

std::string Emitter::passes_value() const {
  return stmts_.element_value(ir::kVarPasses, names_.sys(ir::kVarPasses));
}

// ---------------------------------------------------------------- moves

std::string Emitter::move_signature(int m) const {
  // (For comments: the move's number and its parameters' domains, no user text.)
  const ir::Move& M = program_.moves[size_t(m)];
  std::string s = std::to_string(m);
  if (!M.params.empty()) {
    s += "(";
    for (size_t i = 0; i < M.params.size(); ++i) s += fmt::format("{}d{}", i ? ", " : "", M.params[i].domain);
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
  bool hoisting = names_.identity_domain(domain);
  for (const StagedCondition& c : stage) {
    std::optional<std::string> mask;
    if (hoisting) mask = masks_.mask_of(*c.expr, param, domain);
    if (mask) {
      masks.push_back(fmt::format("{}  // {} - {}", *mask, c.label, names_.line_of(c.span)));
      continue;
    }
    if (!s_.ir_facts_.safe(*c.expr)) hoisting = false;
    rest.push_back(&c);
  }
}

void Emitter::move_generator(int m) {
  const ir::Move& M = program_.moves[size_t(m)];
  const size_t n = M.params.size();
  names_.begin_frame(M.locals);
  std::vector<std::string> args;
  for (size_t i = 0; i < n; ++i) {
    args.push_back(names_.local_name(M.params[i].name, int(i)));
    s_.slots_[i] = args.back();
  }
  const std::vector<std::vector<StagedCondition>> stages = masks_.staged_conditions(m);

  w_.linef("/// The legal instances of move {} - {}", move_signature(m), names_.line_of(M.span));
  w_.line("template <class Sink>");
  const size_t signature = w_.text().size();
  w_.open(fmt::format("bool gen_{}(Game& g, Sink& sink) {{", names_.move_name(m)));
  auto test = [&](const StagedCondition& c, const char* on_false) {
    w_.linef("// {} - {}", c.label, names_.line_of(c.span));
    w_.linef("if (!{}) {};", names_.paren(exprs_.cond(*c.expr)), on_false);
  };
  for (const StagedCondition& c : stages[0]) test(c, "return false");
  // A block storing one entry of the tabulated variable: the values that entry may take
  // are had for all candidates at once (see emit_rule_tables.cpp).
  const ir::Stmt* one_store = s_.has_board_rules_ ? masks_.table_store(m) : nullptr;
  const int store_key = one_store ? one_store->keys[0]->slot : -1;
  if (one_store) w_.line("const bool held = rules_held(g) == 1;  // the board rules hold here");
  std::string take_args;
  for (size_t i = 0; i < n; ++i) take_args += ", " + args[i];
  for (size_t i = 0; i < n; ++i) {
    const int d = M.params[i].domain;
    const uint32_t size = names_.dom(d).size;
    const bool last = i + 1 == n;
    // Conditions on this parameter that planes and sets answer for every value at once
    // become one mask to iterate; they are taken in order up to the first condition that
    // could fail, so that no error the rules would report is skipped.
    std::vector<std::string> masks;
    std::vector<const StagedCondition*> rest;
    split_stage(stages[i + 1], int(i), d, masks, rest);
    if (!masks.empty() || (last && rest.empty() && !s_.has_board_rules_ && names_.identity_domain(d))) {
      const std::string mask = names_.fresh("mask");
      if (masks.empty()) {
        w_.linef("const Bits<{}> {} = full_d{}();", names_.words(d), mask, d);
      } else {
        w_.linef("const Bits<{}> {} =", names_.words(d), mask);
        for (size_t k = 0; k < masks.size(); ++k)
          w_.linef("    {}{}{}", k ? "& " : "", masks[k], k + 1 == masks.size() ? "" : "");
        w_.line("    ;");
      }
      if (last && rest.empty() && !s_.has_board_rules_) {
        if (n == 1 && masks_.cheap_mask_search(m, masks)) {
          masks_.test_can_each_time(m);
          // A few tests and one mask: inline in every caller (a count is then a popcount
          // where the moves are counted, not a call).
          const size_t indent = w_.text().find_first_not_of(' ', signature);
          w_.text().insert(indent, "[[gnu::always_inline]] inline ");
        }
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
      const std::string it = names_.fresh("it");
      w_.open(fmt::format("for (Bits<{}> {} = {}; !{}.empty();) {{", names_.words(d), it, mask, it));
      w_.linef("const Int {} = {}.pop();", args[i], it);
    } else if (names_.identity_domain(d)) {
      w_.open(fmt::format("for (Int {} = 0; {} < {}; ++{}) {{", args[i], args[i], size, args[i]));
    } else {
      const std::string idx = names_.fresh("i");
      w_.open(fmt::format("for (Int {} = 0; {} < {}; ++{}) {{", idx, idx, size, idx));
      w_.linef("const Int {} = val_d{}({});", args[i], d, idx);
    }
    for (const StagedCondition* c : rest) test(*c, "continue");
    if (int(i) == store_key) {
      const ir::StateVar& V = program_.vars[size_t(one_store->var)];
      w_.linef("// the values variable {}[parameter {}] may take, the rest of the board staying",
               one_store->var, i);
      w_.linef("const Int key = idx_d{}({});", V.keys[0], args[i]);
      w_.line("const bool quick = held && key >= 0;");
      w_.linef("Bits<{}> allowed{{}}, decided{{}};", names_.words(V.domain));
      w_.line("if (quick) rules_allow(g, key, allowed, decided);");
    }
  }
  if (one_store) {
    const ir::StateVar& V = program_.vars[size_t(one_store->var)];
    w_.open("if (quick) {");
    w_.linef("const Int v = idx_d{}({});", V.domain, exprs_.expr(*one_store->value));
    w_.open("if (v < 0 || !allowed.has(v)) {");
    // A tabulated rule fails: that decides unless a rule by its code comes first.
    if (s_.rule_tables_.rest_after) w_.line("if (v >= 0 && decided.has(v)) continue;");
    w_.linef("if (!board_ok_{}(g{})) continue;", names_.move_name(m), take_args);
    if (!s_.rule_tables_.rest.empty()) {
      // The tabulated rules allow it: the others are asked of the state after the block.
      w_.reopen(fmt::format("}} else if (!rest_ok_{}(g{})) {{", names_.move_name(m), take_args));
      w_.line("continue;");
    }
    w_.close();
    w_.reopen(fmt::format("}} else if (!board_ok_{}(g{})) {{", names_.move_name(m), take_args));
    w_.line("continue;");
    w_.close();
  } else if (s_.has_board_rules_) {
    w_.linef("if (!board_ok_{}(g{})) {};", names_.move_name(m), take_args, n ? "continue" : "return false");
  }
  w_.linef("if (sink.take({}{})) return true;", m, take_args);
  for (size_t i = 0; i < n; ++i) w_.close();
  w_.line("return false;");
  w_.close();
  w_.blank();
}

void Emitter::move_apply(int m) {
  const ir::Move& M = program_.moves[size_t(m)];
  names_.begin_frame(M.locals);
  std::string params = "Game& g";
  for (size_t i = 0; i < M.params.size(); ++i) {
    s_.slots_[i] = names_.local_name(M.params[i].name, int(i));
    params += ", Int " + s_.slots_[i];
  }
  w_.linef("/// The block of move {} - {}", move_signature(m), names_.line_of(M.span));
  w_.open(fmt::format("{}void apply_{}({}) {{",
                      s_.plan_.inline_block[size_t(m)] ? "[[gnu::always_inline]] inline " : "",
                      names_.move_name(m), params));
  // A block runs only when the move is legal: what its `requires` say of an element
  // indexed by a parameter holds at its start (the stores use it, see put_*).
  s_.facts_.clear();
  s_.stored_.clear();
  for (const auto& c : M.requires_) stmts_.requires_facts(*c, int(M.params.size()));
  stmts_.block(M.body);
  s_.facts_.clear();
  w_.close();
  w_.blank();
  if (s_.has_board_rules_) {
    std::string call_args;
    for (size_t i = 0; i < M.params.size(); ++i) call_args += ", " + s_.slots_[i];
    w_.linef("/// The board rules hold after the block of move {}.", m);
    w_.open(fmt::format("bool board_ok_{}({}) {{", names_.move_name(m), params));
    w_.line("Game t;");
    w_.line("copy_game(t, g);");
    w_.linef("apply_{}(t{});", names_.move_name(m), call_args);
    w_.line(masks_.tabulated() ? "return rules_hold_after(g, t);" : "return board_rules_hold(t);");
    w_.close();
    w_.blank();
    if (masks_.tabulated() && !s_.rule_tables_.rest.empty()) {
      w_.linef("/// The board rules the tables do not answer hold after the block of move {}.", m);
      w_.open(fmt::format("[[maybe_unused]] bool rest_ok_{}({}) {{", names_.move_name(m), params));
      w_.line("Game t;");
      w_.line("copy_game(t, g);");
      w_.linef("apply_{}(t{});", names_.move_name(m), call_args);
      w_.line("return rest_rules_hold(t);");
      w_.close();
      w_.blank();
    }
  }
  // One instance, as apply checks it: every stage's conditions in order.
  {
    names_.begin_frame(M.locals);
    std::string lparams = "Game& g";
    for (size_t i = 0; i < M.params.size(); ++i) {
      s_.slots_[i] = names_.local_name(M.params[i].name, int(i));
      lparams += ", Int " + s_.slots_[i];
    }
    w_.linef("/// The instance of move {} with these arguments is legal (tested as the", m);
    w_.line("/// generator tests it, one parameter at a time).");
    w_.open(fmt::format("bool legal_{}({}) {{", names_.move_name(m), lparams));
    const auto stages = masks_.staged_conditions(m);
    for (size_t st = 0; st < stages.size(); ++st) {
      std::vector<std::string> masks;
      std::vector<const StagedCondition*> rest;
      if (st == 0) {
        for (const StagedCondition& c : stages[0]) rest.push_back(&c);
      } else {
        split_stage(stages[st], int(st - 1), M.params[st - 1].domain, masks, rest);
      }
      if (!masks.empty()) {
        w_.linef("const Bits<{}> mask{} =", names_.words(M.params[st - 1].domain), st);
        for (size_t k = 0; k < masks.size(); ++k) w_.linef("    {}{}", k ? "& " : "", masks[k]);
        w_.line("    ;");
        w_.linef("if (!mask{}.has({})) return false;", st, s_.slots_[st - 1]);
      }
      for (const StagedCondition* c : rest) {
        w_.linef("// {} - {}", c->label, names_.line_of(c->span));
        w_.linef("if (!{}) return false;", names_.paren(exprs_.cond(*c->expr)));
      }
    }
    if (s_.has_board_rules_) {
      std::string call_args;
      for (size_t i = 0; i < M.params.size(); ++i) call_args += ", " + s_.slots_[i];
      w_.linef("return board_ok_{}(g{});", names_.move_name(m), call_args);
    } else {
      w_.line("return true;");
    }
    w_.close();
    w_.blank();
  }
  // can(): the remembered answer inline, the search out of line; a move whose test is a
  // few cheap conditions is asked directly.
  const int base = s_.can_memo_base_.empty() ? -1 : s_.can_memo_base_[size_t(m)];
  const bool direct = s_.plan_.can_direct[size_t(m)] || s_.can_by_mask_[size_t(m)];
  w_.linef("/// Move {} has a legal instance for `player` (its conditions see `player` as mover).", m);
  w_.open(fmt::format("{} bool search_{}(Game& g, Int player) {{",
                      direct ? "[[gnu::always_inline]] inline" : "[[gnu::noinline]]", names_.move_name(m)));
  w_.linef("const Int saved = g.mover_;");
  w_.line("g.mover_ = player;");
  w_.line("Exists sink;");
  w_.linef("const bool found = gen_{}(g, sink);", names_.move_name(m));
  w_.line("g.mover_ = saved;");
  if (base >= 0) {
    w_.linef("const uint64_t bit = uint64_t(1) << ({} + player);", base);
    w_.linef("g.{} |= bit;", s_.can_word());
    w_.line("g.can_true_ = found ? g.can_true_ | bit : g.can_true_ & ~bit;");
  }
  w_.line("return found;");
  w_.close();
  w_.blank();
  if (direct) {
    w_.linef("/// can(move {}, player), its conditions tested each time.", m);
  } else {
    w_.linef("/// can(move {}, player), remembered until a variable its conditions read is stored.", m);
  }
  w_.line("/// (`player` is one: a value that may not be goes through cancheck_*.)");
  w_.open(fmt::format("inline bool can_{}(Game& g, Int player) {{", names_.move_name(m)));
  if (base >= 0) {
    w_.linef("const uint64_t bit = uint64_t(1) << ({} + player);", base);
    w_.linef("if (g.{} & bit) return (g.can_true_ & bit) != 0;", s_.can_word());
  }
  w_.linef("return search_{}(g, player);", names_.move_name(m));
  w_.close();
  w_.blank();
  w_.linef("[[maybe_unused]] bool cancheck_{}(Game& g, Int player) {{", names_.move_name(m));
  w_.linef("  if (uint64_t(player) >= uint64_t(kPlayers)) fail({}, \"can: not a player\");", names_.where(M.span));
  w_.linef("  return can_{}(g, player);", names_.move_name(m));
  w_.line("}");
  w_.blank();
}

void Emitter::moves() {
  w_.line("// ================================================================ moves");
  w_.blank();
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    w_.line("template <class Sink>");
    w_.linef("bool gen_{}(Game& g, Sink& sink);", names_.move_name(int(m)));
    if (s_.has_board_rules_) {
      std::string params = "Game& g";
      for (size_t i = 0; i < program_.moves[m].params.size(); ++i) params += ", Int";
      w_.linef("bool board_ok_{}({});", names_.move_name(int(m)), params);
      if (masks_.tabulated() && !s_.rule_tables_.rest.empty())
        w_.linef("bool rest_ok_{}({});", names_.move_name(int(m)), params);
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
  w_.line("/// The legal moves of the player to move in phase `P` of a game that is not over, in");
  w_.line("/// the canonical order (true: the sink asked to stop).");
  w_.line("template <int P, class Sink>");
  w_.open("[[gnu::always_inline]] inline bool generate_in(Game& g, Sink& sink) {");
  w_.line("(void)g, (void)sink;");
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    w_.linef("if constexpr (P == {}) {{", p);
    for (int m : P.moves) w_.linef("  if (gen_{}(g, sink)) return true;", names_.move_name(m));
    w_.line("}");
  }
  w_.line("return false;");
  w_.close();
  w_.blank();
  w_.line("/// The legal moves of the player to move, in the canonical order.");
  w_.line("template <class Sink>");
  w_.open("[[gnu::always_inline]] inline bool generate(Game& g, Sink& sink) {");
  w_.linef("if ({}) return false;", names_.sys(ir::kVarOver));
  w_.linef("switch ({}) {{", names_.sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p)
    w_.linef("  case {}: return generate_in<{}>(g, sink);", p, p);
  w_.line("}");
  w_.line("return false;");
  w_.close();
  w_.blank();

  w_.line("/// The player to move has a legal move (what `can` knows is remembered).");
  w_.open("[[gnu::always_inline]] inline bool has_legal(Game& g) {");
  w_.linef("switch ({}) {{", names_.sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    // When no condition of the phase's moves can fail, which move is asked first changes
    // nothing but the cost: moves whose conditions ask no `can` (which is a search of
    // another move) first, then those with fewer parameters (a parameterless move is one
    // test, a move over cells a search).
    std::vector<int> order = P.moves;
    const bool free = !s_.has_board_rules_ && std::all_of(order.begin(), order.end(), [&](int m) {
      const ir::Move& M = program_.moves[size_t(m)];
      return std::all_of(M.requires_.begin(), M.requires_.end(),
                         [&](const auto& c) { return masks_.order_free(*c); }) &&
             std::all_of(M.checks.begin(), M.checks.end(),
                         [&](const ir::Check& c) { return masks_.order_free(*c.condition); });
    });
    if (free) {
      // `can` in the condition or in a define it calls (a define seen twice asks nothing new).
      std::set<int> seen;
      std::function<bool(const ir::Expr&)> asks_can = [&](const ir::Expr& e) {
        bool found = false;
        walk(e, [&](const ir::Expr& x) {
          if (x.op == ir::Op::Can) found = true;
          if (x.op == ir::Op::Call && seen.insert(x.function).second) {
            const ir::Function& F = program_.functions[size_t(x.function)];
            if (F.body && asks_can(*F.body)) found = true;
          }
        });
        return found;
      };
      auto cost = [&](int m) {
        const ir::Move& M = program_.moves[size_t(m)];
        bool asks = false;
        seen.clear();
        for (const auto& c : M.requires_) asks = asks || asks_can(*c);
        for (const ir::Check& c : M.checks) asks = asks || asks_can(*c.condition);
        return std::make_pair(asks, M.params.size());
      };
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost(a) < cost(b); });
    }
    std::string any;
    for (int m : order) any += fmt::format("{}can_{}(g, g.mover_)", any.empty() ? "" : " || ", names_.move_name(m));
    w_.linef("  case {}:", p);
    w_.linef("    return {};", any.empty() ? "false" : any);
  }
  w_.line("}");
  w_.line("return false;");
  w_.close();
  w_.blank();

  // Step 2 and 3 of applying a move (docs/semantics.md).
  // What the caller knows of the block is taken as constants: the play of a move whose
  // block runs no `end`, `again` or `goto` tests neither the end nor `again` and, in
  // perft, switches on no phase (8% of the 6x6 placement perft's time).
  w_.line("/// After a block: `end when`, the phase's `until` lines, then the turn. `Plain`: the");
  w_.line("/// block ran no `end`, `again` or `goto` (so the game is not over, the mover moves on");
  w_.line("/// and the phase is the one the move was played in); `P`, where `Plain`: that phase,");
  w_.line("/// if the caller knows it (-1: read it).");
  w_.line("template <int P = -1, bool Plain = false>");
  w_.open("inline void finish_turn(Game& g) {");
  w_.line(R"(static_assert(P < 0 || Plain, "a phase is known only where the block cannot change it");)");
  w_.open(fmt::format("if (Plain || !{}) {{", names_.sys(ir::kVarOver)));
  const bool has_end = program_.end_when != nullptr;
  if (has_end) {
    names_.begin_frame(program_.end_locals);
    w_.linef("// end when - {}", names_.line_of(program_.end_when->span));
    w_.open(fmt::format("if ({}) {{", names_.bare(exprs_.cond(*program_.end_when))));
    w_.linef("{};", stmts_.sys_put(ir::kVarOver, "", "1"));
    w_.reopen("} else {");
  }
  w_.linef("switch (P >= 0 ? Int(P) : Int({})) {{", names_.sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    if (P.transitions.empty()) continue;
    names_.begin_frame(P.locals);
    w_.open(fmt::format("case {}: {{", p));
    for (size_t t = 0; t < P.transitions.size(); ++t) {
      const ir::Transition& T = P.transitions[t];
      const std::string head = fmt::format("if ({}) {{  // until ... -> {} - {}", names_.bare(exprs_.cond(*T.condition)),
                                           T.target < 0 ? std::string("end")
                                                        : fmt::format("phase {}", T.target),
                                           names_.line_of(T.span));
      if (t == 0) {
        w_.open(head);
      } else {
        w_.reopen("} else " + head);
      }
      if (T.target < 0) {
        w_.linef("{};", stmts_.sys_put(ir::kVarOver, "", "1"));
      } else {
        w_.linef("{};", stmts_.sys_put(ir::kVarPhase, "", std::to_string(T.target)));
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
  w_.linef("const Int mover = {};", names_.sys(ir::kVarMover));
  w_.linef("if (Plain || !(g.again_ && !{}[mover])) {{", names_.sys(ir::kVarOut));
  w_.line("  Int q = mover;");
  w_.line("  for (Int k = 1; k <= kPlayers; ++k) {");
  w_.line("    q = q + 1 == kPlayers ? 0 : q + 1;");
  // Eliminated players are rare: the next seat usually moves, in line.
  w_.linef("    if (__builtin_expect(!{}[q], 1)) {{", names_.sys(ir::kVarOut));
  w_.linef("      {};", stmts_.sys_put(ir::kVarMover, "", "q"));
  w_.line("      g.mover_ = q;");
  w_.line("      return;");
  w_.line("    }");
  w_.line("  }");
  w_.linef("  {};  // nobody left to move", stmts_.sys_put(ir::kVarOver, "", "1"));
  w_.line("}");
  w_.linef("g.mover_ = {};", names_.sys(ir::kVarMover));
  w_.close();
  w_.blank();

  // The stuck loop.
  w_.line("/// While the player to move has no legal move: everybody stuck in a row ends the");
  w_.line("/// game; otherwise the phase's `when stuck` block runs (none ends the game). Out of");
  w_.line("/// line: the stuck blocks would weigh on every move that has a legal reply.");
  w_.open("[[gnu::noinline]] void settle_stuck(Game& g) {");
  w_.open(fmt::format("while (!{}) {{", names_.sys(ir::kVarOver)));
  w_.line("if (has_legal(g)) return;");
  w_.line("Int active = 0;");
  w_.linef("for (Int p = 0; p < kPlayers; ++p) active += !{}[p];", names_.sys(ir::kVarOut));
  w_.linef("const Int passes = {};", passes_value());
  w_.open("if (passes >= active) {  // a stuck block may eliminate players");
  w_.linef("{};", stmts_.sys_put(ir::kVarOver, "", "1"));
  w_.line("return;");
  w_.close();
  w_.linef("{};", stmts_.sys_put(ir::kVarPasses, "",
                          fmt::format("chk_d{}(passes + 1, \"passes\", \"a value outside its domain\")",
                                      program_.vars[ir::kVarPasses].domain)));
  w_.line("g.again_ = false;");
  w_.linef("switch ({}) {{", names_.sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) {
    const ir::Phase& P = program_.phases[p];
    if (!P.has_stuck) continue;
    names_.begin_frame(P.stuck_locals);
    w_.open(fmt::format("case {}: {{  // when stuck - {}", p, names_.line_of(P.span)));
    stmts_.block(P.stuck);
    w_.line("break;");
    w_.close("}");
  }
  w_.line("default:");
  w_.linef("  {};", stmts_.sys_put(ir::kVarOver, "", "1"));
  w_.line("  return;");
  w_.line("}");
  w_.line("finish_turn(g);");
  w_.close("}");
  w_.close();
  w_.blank();
  w_.line("/// After a turn: the usual case, a player to move with a legal move, inline.");
  w_.open("inline void settle(Game& g) {");
  w_.linef("if ({} || has_legal(g)) return;", names_.sys(ir::kVarOver));
  w_.line("settle_stuck(g);");
  w_.close();
  w_.blank();
}

}  // namespace rulebook::compiler::emit
