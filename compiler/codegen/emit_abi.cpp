// The C++ emitter's C ABI: the move sinks' take_bits, entry points that catch rule errors,
// the table and the footer that names the engine by its source hash (setup and scores are
// emit_setup.cpp's).
#include <algorithm>
#include <functional>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

/// A sink's take_bits that hands each index of the mask to its take() as argument `last`.
void Emitter::take_each_bit(bool always_inline) {
  w_.line("template <int W>");
  w_.open(fmt::format("{}bool take_bits(Int kind, Bits<W> bits, int last, Int a0 = 0, Int a1 = 0, Int a2 = 0) {{",
                      always_inline ? "[[gnu::always_inline]] " : ""));
  w_.line("Int a[4] = {a0, a1, a2, 0};");
  w_.open("while (!bits.empty()) {");
  w_.line("a[last] = bits.pop();");
  w_.line("take(kind, a[0], a[1], a[2], a[3]);");
  w_.close();
  w_.line("return false;");
  w_.close();
}

// ---------------------------------------------------------------- ABI

uint32_t Emitter::max_moves() const {
  uint64_t total = 0;
  for (const ir::Move& M : program_.moves) {
    uint64_t n = 1;
    for (const ir::MoveParam& p : M.params) n = std::min<uint64_t>(n * names_.dom(p.domain).size, 1u << 30);
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

  // Playing a move on a loaded state: one function per move, so that a sink which
  // knows the kind of the move it takes (a constant where the generator calls it) plays
  // it without a switch over every move.
  // A block that runs no `end`, `again` or `goto` (anywhere in it) leaves the game not
  // over, the mover to move on and the phase as it was.
  std::function<bool(const ir::Block&)> plain = [&](const ir::Block& b) {
    for (const auto& st : b) {
      if (st->op == ir::StmtOp::End || st->op == ir::StmtOp::Again || st->op == ir::StmtOp::Goto) return false;
      if (!plain(st->body) || !plain(st->otherwise)) return false;
    }
    return true;
  };
  for (size_t mi = 0; mi < program_.moves.size(); ++mi) {
    const ir::Move& M = program_.moves[mi];
    std::string params, args;
    for (size_t k = 0; k < M.params.size(); ++k) {
      params += fmt::format(", Int a{}", k);
      args += fmt::format(", a{}", k);
    }
    w_.linef("/// Plays move {} (not tested for legality): its block, the end and phase tests,", mi);
    w_.line("/// the turn and, with `Settle`, the stuck loop (without, the caller runs settle() when");
    w_.line("/// it finds no legal move: a count of the moves that follow tells it).");
    w_.line("/// `P`: the phase it is played in, where the caller knows it (-1: read it).");
    w_.line("template <bool Settle = true, int P = -1>");
    w_.open(fmt::format("inline void play_{}(Game& g{}) {{", names_.move_name(int(mi)), params));
    w_.linef("{};", stmts_.sys_put(ir::kVarPasses, "", std::to_string(ir::domain_index(
                                 program_.domains, program_.vars[ir::kVarPasses].domain, 0))));
    // Only finish_turn of a block that may run `again` reads again_, and every such play
    // clears it first: a plain block's play need not.
    if (!plain(M.body)) w_.line("g.again_ = false;");
    w_.linef("apply_{}(g{});", names_.move_name(int(mi)), args);
    w_.line(plain(M.body) ? "finish_turn<P, true>(g);  // the block runs no end, again or goto" : "finish_turn(g);");
    w_.line("if (Settle) settle(g);");
    w_.close();
    w_.blank();
  }
  w_.line("/// Plays move `kind` with arguments `a` (not tested for legality) in phase `P` (-1:");
  w_.line("/// whichever the game is in).");
  w_.line("template <bool Settle = true, int P = -1>");
  w_.open("[[gnu::always_inline]] inline void dispatch_play(Game& g, Int kind, Int a0, Int a1, Int a2, Int a3) {");
  w_.line("(void)a0, (void)a1, (void)a2, (void)a3;");
  w_.line("switch (kind) {");
  for (size_t mi = 0; mi < program_.moves.size(); ++mi) {
    const ir::Move& M = program_.moves[mi];
    std::string args;
    for (size_t k = 0; k < M.params.size(); ++k) args += fmt::format(", a{}", k);
    w_.linef("  case {}: play_{}<Settle, P>(g{}); break;", mi, names_.move_name(int(mi)), args);
  }
  w_.line("  default: break;");
  w_.line("}");
  w_.close();
  w_.blank();

  w_.line("/// Plays `m` on `g`. With `Checked`, a move that is not legal in `g` is refused");
  w_.line("/// (the message says why) and `g` is left as it was.");
  w_.line("template <bool Checked>");
  w_.open("const char* play(Game& g, const rb_move& m) {");
  w_.linef("if (Checked && {}) return \"the game is over: no move can be played\";", names_.sys(ir::kVarOver));
  w_.line("switch (m.kind) {");
  for (size_t mi = 0; mi < program_.moves.size(); ++mi) {
    const ir::Move& M = program_.moves[mi];
    w_.linef("  case {}: {{", mi);
    std::string args;
    for (size_t k = 0; k < M.params.size(); ++k) args += fmt::format(", Int(m.args[{}])", k);
    w_.line("    if (Checked) {");
    w_.linef("      if ({} != {}) return \"not a move of the current phase\";", names_.sys(ir::kVarPhase), M.phase);
    for (size_t k = 0; k < M.params.size(); ++k) {
      w_.linef("      if (idx_d{}(m.args[{}]) < 0) return \"an argument out of range\";", M.params[k].domain, k);
    }
    w_.linef("      if (!legal_{}(g{})) return \"not a legal move\";", names_.move_name(int(mi)), args);
    w_.line("    }");
    w_.linef("    play_{}(g{});", names_.move_name(int(mi)), args);
    w_.line("    return nullptr;");
    w_.line("  }");
  }
  w_.line("  default:");
  w_.line("    return \"no such move\";");
  w_.line("}");
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
  w_.line("/// The legal moves of `g`: the paths of one move, counted without playing them.");
  w_.open("[[gnu::always_inline]] inline uint64_t leaves(Game& g) {");
  w_.line("Count c;");
  w_.line("generate(g, c);");
  w_.line("return c.n;");
  w_.close();
  w_.blank();
  restore_functions();
  const std::string over = names_.sys(ir::kVarOver).replace(0, 1, "child");
  const std::string phase = names_.sys(ir::kVarPhase).replace(0, 1, "child");
  // Three sinks, so that nothing is tested per child that the caller knows: above the
  // last ply, on it by copies, on it by undoing (a test of the depth, a flag saying the
  // scratch game holds the parent, a switch over phases per child: 6% of the 6x6 placement
  // perft's time).
  w_.line("/// A sink that plays each legal move of a game in phase `P` on a copy and counts the");
  w_.line("/// `depth` (2 or more) moves below it.");
  w_.line("template <int P>");
  w_.open("struct Below {");
  w_.line("const Game* parent;");
  w_.line("int depth;");
  w_.line("uint64_t total = 0;");
  w_.open("[[gnu::always_inline]] bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {");
  w_.line("Game child;");
  w_.line("copy_game(child, *parent);");
  w_.line("dispatch_play<true, P>(child, kind, a0, a1, a2, a3);");
  w_.line("total += perft(child, depth);");
  w_.line("return false;");
  w_.close();
  take_each_bit(true);
  w_.close("};");
  w_.blank();
  // The last ply played: the child's moves are counted, then it is thrown away.
  auto count_child = [&] {
    w_.line("// The child's moves are counted anyway: counted first, they also say whether its");
    w_.line("// mover has one, and the stuck loop runs only when there is none.");
    w_.line("uint64_t n = leaves(child);");
    w_.linef("if (n == 0 && !{}) {{", over);
    w_.line("  settle(child);");
    w_.line("  n = leaves(child);");
    w_.line("}");
    w_.line("total += n;");
  };
  w_.line("/// A sink that plays each legal move of a game in phase `P` on a copy and counts the");
  w_.line("/// child's legal moves (the last ply).");
  w_.line("template <int P>");
  w_.open("struct BelowLast {");
  w_.line("const Game* parent;");
  w_.line("uint64_t total = 0;");
  w_.open("[[gnu::always_inline]] bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {");
  w_.line("Game child;");
  w_.line("copy_game(child, *parent);");
  w_.line("dispatch_play<false, P>(child, kind, a0, a1, a2, a3);");
  count_child();
  w_.line("return false;");
  w_.close();
  take_each_bit(true);
  w_.close("};");
  w_.blank();
  w_.line("/// BelowLast, where a move that restores(kind) is played on `scratch`, a copy of the");
  w_.line("/// parent, which then gets back from the parent only what the move could change (see");
  w_.line("/// dispatch_restore).");
  w_.line("template <int P>");
  w_.open("struct BelowUndo {");
  w_.line("const Game* parent;");
  w_.line("Game* scratch;  // holds *parent before each move");
  w_.line("uint64_t total = 0;");
  w_.open("[[gnu::always_inline]] bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {");
  w_.open("if (!restores(kind)) {");
  w_.line("Game child;");
  w_.line("copy_game(child, *parent);");
  w_.line("dispatch_play<false, P>(child, kind, a0, a1, a2, a3);");
  count_child();
  w_.line("return false;");
  w_.close();
  w_.line("Game& child = *scratch;");
  w_.line("dispatch_play<false, P>(child, kind, a0, a1, a2, a3);");
  w_.linef("if ({} == P) {{", phase);
  w_.line("  // The usual: the child's moves are counted in the parent's phase.");
  w_.line("  Count c;");
  w_.linef("  if (!{}) generate_in<P>(child, c);", over);
  w_.linef("  if (c.n != 0 || {}) {{", over);
  w_.line("    total += c.n;");
  w_.line("    dispatch_restore(child, *parent, kind, a0, a1, a2, a3);");
  w_.line("    return false;");
  w_.line("  }");
  w_.line("}");
  w_.line("// A new phase (its entry may have changed more) or no legal move (the stuck loop may");
  w_.line("// change anything): counted as in BelowLast, the parent then copied back whole.");
  count_child();
  w_.line("copy_game(child, *parent);");
  w_.line("return false;");
  w_.close();
  take_each_bit(true);
  w_.close("};");
  w_.blank();
  // One function per phase, out of line: the loop over a phase's children then holds that
  // phase's moves only, and how the compiler lays it out does not depend on the other
  // phases' moves (one function for all made the 6x6 placement perft up to 18% slower,
  // depending on which battle moves were undone by elements).
  w_.line("/// Paths of `depth` (2 or more) moves below `g`, a game in phase `P` that is not over.");
  w_.line("template <int P>");
  w_.open("[[gnu::noinline]] uint64_t perft_in(Game& g, int depth) {");
  w_.open("if (depth > 2) {");
  w_.line("Below<P> below{&g, depth - 1};");
  w_.line("generate_in<P>(g, below);");
  w_.line("return below.total;");
  w_.close();
  w_.open("if constexpr (restores_any()) {");
  w_.line("Game scratch;");
  w_.line("copy_game(scratch, g);");
  w_.line("BelowUndo<P> below{&g, &scratch};");
  w_.line("generate_in<P>(g, below);");
  w_.line("return below.total;");
  w_.reopen("} else {");
  w_.line("BelowLast<P> below{&g};");
  w_.line("generate_in<P>(g, below);");
  w_.line("return below.total;");
  w_.close();
  w_.close();
  w_.blank();
  w_.line("/// Paths of `depth` moves below `g`; the last ply is counted, not played.");
  w_.open("uint64_t perft(Game& g, int depth) {");
  w_.line("if (depth <= 0) return 1;");
  w_.line("if (depth == 1) return leaves(g);");
  w_.linef("if ({}) return 0;", names_.sys(ir::kVarOver));
  w_.linef("switch ({}) {{", names_.sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p) w_.linef("  case {}: return perft_in<{}>(g, depth);", p, p);
  w_.line("}");
  w_.line("return 0;");
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

  // The children of a state in one call: the explorer's inner loop, without a round trip
  // through the ABI (and a rebuild of the working state) per move.
  w_.line("/// A sink that writes each legal move and the state it leads to (played on a copy).");
  w_.open("struct Children {");
  w_.line("const Game* parent;");
  w_.line("rb_move* out;");
  w_.line("uint8_t* states;");
  w_.line("uint32_t cap;");
  w_.line("uint32_t n = 0;");
  w_.open("bool take(Int kind, Int a0 = 0, Int a1 = 0, Int a2 = 0, Int a3 = 0) {");
  w_.open("if (n < cap) {");
  w_.line("out[n] = rb_move{int32_t(kind), {int32_t(a0), int32_t(a1), int32_t(a2), int32_t(a3)}};");
  w_.line("Game child;");
  w_.line("copy_game(child, *parent);");
  w_.line("dispatch_play(child, kind, a0, a1, a2, a3);");
  w_.line("save(child, states + size_t(n) * sizeof(State));");
  w_.close();
  w_.line("++n;");
  w_.line("return false;");
  w_.close();
  take_each_bit(false);
  w_.close("};");
  w_.blank();
  w_.open("int32_t abi_children(const uint8_t* state, rb_move* out, uint8_t* states, uint32_t cap, uint32_t* count, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("Children sink{&g, out, states, cap};");
  w_.line("generate(g, sink);");
  w_.line("*count = sink.n;");
  w_.line("last.valid = true;");
  w_.line("return sink.n > cap ? report(err, RB_TRUNCATED, \"more legal moves than room for them\") : RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  // Playouts without a round trip through the ABI per move: the move is found by
  // counting the legal moves, then generating up to the chosen one.
  // The moves of one phase in a loop of their own: the phase is then a constant to the
  // generators and to the end of the turn (no switch per generation and per move).
  w_.line("/// Plays random moves while the game is in phase `P` and not over, until `n` reaches");
  w_.line("/// `max_plies`; false: the mover has no legal move (the caller settles the game).");
  w_.line("template <int P>");
  w_.open("[[gnu::noinline]] bool playout_in(Game& g, SplitMix64& r, uint64_t max_plies, uint64_t& n) {");
  w_.linef("while (!{} && {} == P && n < max_plies) {{", names_.sys(ir::kVarOver), names_.sys(ir::kVarPhase));
  w_.line("  Count c;");
  w_.line("  generate_in<P>(g, c);");
  w_.line("  // Moves are played unsettled: no legal move is when the stuck loop runs.");
  w_.line("  if (c.n == 0) return false;");
  w_.line("  Pick pick{r.next() % c.n};");
  w_.line("  generate_in<P>(g, pick);");
  w_.line("  dispatch_play<false, P>(g, pick.m.kind, pick.m.args[0], pick.m.args[1], pick.m.args[2], pick.m.args[3]);");
  w_.line("  ++n;");
  w_.line("}");
  w_.line("return true;");
  w_.close();
  w_.blank();
  w_.open("int32_t abi_playout(uint8_t* state, uint64_t* rng, uint64_t max_plies, int32_t same_phase, uint64_t* plies, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("SplitMix64 r{*rng};");
  w_.linef("const Int start_phase = {};", names_.sys(ir::kVarPhase));
  w_.line("uint64_t n = 0;");
  w_.line("bool stuck = false;  // settled, and still no legal move");
  w_.linef("while (!{} && n < max_plies && !(same_phase && {} != start_phase)) {{", names_.sys(ir::kVarOver),
           names_.sys(ir::kVarPhase));
  w_.line("  const uint64_t before = n;");
  w_.line("  bool moving = true;");
  w_.linef("  switch ({}) {{", names_.sys(ir::kVarPhase));
  for (size_t p = 0; p < program_.phases.size(); ++p)
    w_.linef("    case {}: moving = playout_in<{}>(g, r, max_plies, n); break;", p, p);
  w_.line("  }");
  w_.line("  if (n != before) stuck = false;");
  w_.line("  if (!moving) {");
  w_.line("    if (stuck) return report(err, RB_INTERNAL, \"internal error: no legal move in a game that is not over\");");
  w_.line("    settle(g);");
  w_.line("    stuck = true;");
  w_.line("  }");
  w_.line("}");
  w_.line("settle(g);");
  w_.line("save(g, state);");
  w_.line("*rng = r.s;");
  w_.line("*plies = n;");
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  w_.open("int32_t abi_metric(const uint8_t* state, int32_t index, int32_t* recorded, int64_t* value, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("Game& g = open(last, state);");
  w_.line("*recorded = 0;");
  w_.line("*value = 0;");
  w_.open("switch (index) {");
  for (size_t i = 0; i < program_.metrics.size(); ++i) {
    const ir::Metric& M = program_.metrics[i];
    names_.begin_frame(M.locals);
    w_.open(fmt::format("case {}: {{  // metric {} - {}", i, i, names_.line_of(M.span)));
    if (M.when) {
      w_.linef("*recorded = {};", names_.bare(exprs_.cond(*M.when)));
    } else {
      w_.linef("*recorded = {} != 0;", names_.sys(ir::kVarOver));
    }
    w_.linef("if (*recorded) *value = {};", names_.bare(exprs_.expr(*M.value)));
    w_.line("break;");
    w_.close();
  }
  w_.line("default:");
  w_.line("  return report(err, RB_BAD_CALL, \"no such metric\");");
  w_.close();
  w_.line("last.valid = true;");
  w_.line("return RB_OK;");
  w_.line("RB_CATCH");
  w_.close();
  w_.blank();

  // The properties over play: whether a state is in the set, and the value there.
  w_.open("int32_t abi_observe(const uint8_t* state, int32_t index, int32_t value_only, int32_t* in, int64_t* value, rb_error* err) {");
  w_.line("RB_TRY");
  w_.line("Last& last = t_last;");
  w_.line("[[maybe_unused]] Game& g = open(last, state);");
  w_.line("*in = 0;");
  w_.line("*value = 0;");
  w_.open("switch (index) {");
  for (size_t i = 0; i < program_.properties.size(); ++i) {
    const ir::Property& P = program_.properties[i];
    if (!P.over_play || !P.expr) continue;
    names_.begin_frame(P.locals);
    w_.open(fmt::format("case {}: {{  // property {} - {}", i, P.name, names_.line_of(P.span)));
    std::string in = "!value_only";
    if (P.phase >= 0) in += fmt::format(" && {} == {}", names_.sys(ir::kVarPhase), P.phase);
    w_.linef("*in = {};", in);
    if (P.where) w_.linef("if (*in) *in = {};", names_.bare(exprs_.cond(*P.where)));
    if (P.expr->type->domain == ir::kBoolDomain)
      w_.linef("if (*in || value_only) *value = {} ? 1 : 0;", names_.bare(exprs_.cond(*P.expr)));
    else
      w_.linef("if (*in || value_only) *value = {};", names_.bare(exprs_.expr(*P.expr)));
    w_.line("break;");
    w_.close();
  }
  w_.line("default:");
  w_.line("  return report(err, RB_BAD_CALL, \"not a property over play\");");
  w_.close();
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
    for (const std::string& i : items) s += (s.empty() ? "" : ", ") + names_.quote(i);
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
  names.clear();
  for (const ir::Metric& m : program_.metrics) names.push_back(m.name);
  string_array("kMetricNames", names);
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
  f.linef("{},", names_.quote(names_.base_name_of_source()));
  f.linef("{},", names_.quote(program_.title));
  f.linef("{},  // players", program_.players);
  f.linef("{},  // phases", program_.phases.size());
  f.linef("{},  // moves", program_.moves.size());
  f.linef("{},  // setups", program_.setups.size());
  f.linef("{},  // score width", S.width);
  f.linef("{},  // score subjects", subjects);
  f.linef("{},  // per team", S.per_team ? 1 : 0);
  f.linef("{},  // highest wins", S.highest ? 1 : 0);
  f.linef("{},  // metrics", program_.metrics.size());
  f.linef("{}u,  // max moves", max_moves());
  f.line("kPlayerNames, kPhaseNames, kMoveNames, kMoveArity, kSetupNames, kSetupCounts, kMetricNames,");
  f.line("abi_setup, abi_legal_moves, abi_count_moves, abi_apply, abi_perft, abi_scores, abi_metric,");
  f.line("abi_terminal, abi_phase, abi_to_move, abi_hash, abi_playout, abi_children, abi_observe,");
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
