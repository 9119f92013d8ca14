// The C++ emitter's undo of a move by restoring elements: perft plays the children of a
// leaf's parent one after the other on one scratch game, and between two of them copies
// back from the parent only the elements, planes, unions and remembered values the first
// could have changed.
//
// Why: copying the whole working game per child costs about as much per 16-byte chunk
// whatever the chunk holds (measured on Garnsi 9x9, 480 bytes: 9 chunks more cost 14% more
// time), while one move changes a few elements, a few planes and unions and what is
// remembered. Each of those is copied back by one load and one store of its own width, at
// an address the parent's values and the move's arguments give. (Copying back the 16-byte
// chunks that hold them instead cost about twice a chunk copied in a run, so on 6x6, where
// a placement may change 11 of the game's 17 chunks, it did not pay. Element by element
// the 6x6 perft took about 12% less time than with the copy, in as many instructions: the copy's
// cost was its wide stores, not its count.)
//
// Soundness. What is copied back is a superset of what the move's play can store, found
// from its block: each assignment names its element's bytes and, for a variable with
// planes and unions, the planes of the element's value in the parent and of the value
// stored (when the value is a constant, the mover or a parameter; else every plane). A
// value an element had between two stores of the block is always one of these, so every
// plane and union the stores touched is named. Keys must be constants, parameters or the
// mover (else the whole variable is named). The engine's own variables (phase, mover, over,
// passes, out) and the mover the conditions see (mover_) are always copied back; again_ is
// cleared by every play whose block may run `again`, the only ones that read it. A
// remembered value (known_, can bits) the parent had stays known unless a variable it was
// computed from is stored by the play (the block's variables; phase, mover, over and
// passes; out where the block eliminates): otherwise the child never forgot it, so never
// computed it again. A block with a loop, or any rules
// with board rules (their scope and tables), is not undone this way; nor is a child whose
// phase changed (a phase's entry may run more) or whose stuck loop ran: the next child is
// then copied whole.
#include <algorithm>
#include <functional>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

using ir::Op;

namespace {

/// What undoing a move copies back: byte ranges of the state at fixed offsets, and
/// statements for elements, planes and unions at offsets fixed or computed from the
/// parent and the move's arguments.
struct Restore {
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  ///< [begin, end) in the state
  std::vector<std::string> statements;                ///< in order, each once
  int units = 0;  ///< 16-byte copies the statements cost, about
  bool ok = true;
};

/// The fixed ranges merged where they touch, in order.
std::vector<std::pair<uint32_t, uint32_t>> merged(std::vector<std::pair<uint32_t, uint32_t>> r) {
  std::sort(r.begin(), r.end());
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& x : r) {
    if (!out.empty() && x.first <= out.back().second) {
      out.back().second = std::max(out.back().second, x.second);
    } else {
      out.push_back(x);
    }
  }
  return out;
}

}  // namespace

void Emitter::restore_functions() {
  bool any = false;
  if (s_.has_board_rules_) {
    w_.line("/// No move is undone by restoring elements: the board rules keep more beside the state.");
    w_.line("constexpr bool restores(Int) { return false; }");
    w_.line("constexpr bool restores_any() { return false; }");
    w_.line("inline void dispatch_restore(Game&, const Game&, Int, Int, Int, Int, Int) {}");
    w_.blank();
    return;
  }
  w_.line("// ================================================================ undo by elements");
  w_.blank();
  w_.line("/// Copies the `N` bytes of `from` at `offset` into `to` (one load and one store when N");
  w_.line("/// is a machine width).");
  w_.line("template <size_t N>");
  w_.open("[[gnu::always_inline]] inline void copy_back_bytes(Game& to, const Game& from, size_t offset) {");
  w_.line("std::memcpy(reinterpret_cast<char*>(&to) + offset, reinterpret_cast<const char*>(&from) + offset, N);");
  w_.close();
  // The mover is copied back; again_ is not (a play whose block may run `again` clears it
  // first, and no other reads it). Of what is remembered, a value the parent knew stays
  // known where the child may ask for it again and the move stores nothing it was computed
  // from (the child never forgot it, so never computed it again); the rest is forgotten, a
  // remembered value being a cache.
  // Copying every remembered value back cost the 6x6 perft 12% (five fields per child);
  // forgetting them all cost the 9x9 perft 10% (its end test holds through the placements).
  w_.line("/// Copies back the mover the conditions see, and of what is remembered the bits `defines`");
  w_.line("/// and `cans` (known to the parent, still true of it after the move).");
  w_.open("[[gnu::always_inline]] inline void copy_back_kept(Game& t, const Game& g, uint64_t defines, uint64_t cans) {");
  w_.line("(void)defines;");
  w_.line("t.mover_ = g.mover_;");
  if (s_.plan_.shared_known) {
    w_.line("t.known_ = g.known_ & (defines | cans);");
  } else {
    if (s_.memo_defines_ > 0) w_.line("t.known_ = g.known_ & defines;");
    w_.line("t.can_known_ = g.can_known_ & cans;");
  }
  w_.close();
  const int kept_units = s_.memo_defines_ > 0 && !s_.plan_.shared_known ? 2 : 1;
  w_.blank();

  // The remembered values a child's play and the count of its moves may ask for: those
  // of the defines and `can`s reachable from the moves, the end test and the phase tests.
  uint64_t asked_defines = 0, asked_cans = 0;
  {
    std::vector<char> seen(program_.functions.size(), 0);
    std::function<void(const ir::Expr&)> visit = [&](const ir::Expr& x) {
      if (x.op == Op::Call && !seen[size_t(x.function)]) {
        seen[size_t(x.function)] = 1;
        const int slot = s_.memo_slot_[size_t(x.function)];
        if (slot >= 0) asked_defines |= uint64_t(1) << slot;
        const ir::Function& F = program_.functions[size_t(x.function)];
        if (F.body) walk(*F.body, visit);
      }
      if (x.op == Op::Can && s_.can_memo_base_[size_t(x.move)] >= 0) {
        const int players = program_.players;
        asked_cans |= (players >= 64 ? ~uint64_t(0) : (uint64_t(1) << players) - 1)
                      << s_.can_memo_base_[size_t(x.move)];
      }
    };
    for (const ir::Move& M : program_.moves) {
      for (const auto& c : M.requires_) walk(*c, visit);
      for (const ir::Check& c : M.checks) walk(*c.condition, visit);
      walk(M.body, visit);
    }
    if (program_.end_when) walk(*program_.end_when, visit);
    for (const ir::Phase& P : program_.phases)
      for (const ir::Transition& t : P.transitions)
        if (t.condition) walk(*t.condition, visit);
  }

  std::vector<int> units(program_.moves.size(), -1);
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    const ir::Move& M = program_.moves[m];
    Restore r;
    auto add = [&](const std::string& text, int cost) {
      if (std::find(r.statements.begin(), r.statements.end(), text) != r.statements.end()) return;
      r.statements.push_back(text);
      r.units += cost;
    };
    auto add_range = [&](uint32_t offset, uint32_t bytes) { r.ranges.emplace_back(offset, offset + bytes); };
    // Entry `index` - `lo` of `array` (Bits<words> each, `kept` of them), where the index
    // (C++) is known to lie in [ilo, ihi): nothing when that range misses the entries, a
    // test of the index only where it can pass them (a test the compiler cannot drop costs
    // a branch per element: the 6x6 perft took 10% longer with two of them).
    auto copy_entry = [&](const std::string& array, int words_each, int64_t lo, int64_t kept,
                          const std::string& index, int64_t ilo, int64_t ihi) {
      if (ihi <= lo || ilo >= lo + kept) return;
      const std::string at = ilo + 1 == ihi ? std::to_string(ilo - lo)
                             : lo == 0      ? index
                                            : fmt::format("({}) - {}", index, lo);
      const std::string copy = fmt::format("t.{}[{}] = g.{}[{}];", array, at, array, at);
      const bool within = ilo >= lo && ihi <= lo + kept;
      add(within ? copy : fmt::format("if (uint64_t({}) < {}u) {}", at, kept, copy), (words_each + 1) / 2);
    };
    // Plane `index` of a variable and its unions, the index known to lie in [ilo, ihi).
    auto plane_at = [&](int var, const std::string& index, int64_t ilo, int64_t ihi) {
      const int pv = s_.plane_of_var_[size_t(var)];
      if (pv < 0) return;
      const PlaneVar& p = s_.planes_[size_t(pv)];
      if (p.kept == 0) return;
      copy_entry(names_.field_name(var) + "is_", names_.words(p.key_domain), 0, p.kept, index, ilo, ihi);
      for (const PlaneUnion& u : s_.plane_unions_)
        if (u.var == var)
          copy_entry(u.name + "_", names_.words(u.domain), u.first(p.values), u.kept(p.values), index, ilo, ihi);
    };
    // Every plane and union of a variable with planes.
    auto all_planes = [&](int var) {
      const int pv = s_.plane_of_var_[size_t(var)];
      if (pv < 0) return;
      for (int k = 0; k < s_.planes_[size_t(pv)].values; ++k) plane_at(var, std::to_string(k), k, k + 1);
    };
    auto whole = [&](int var) {
      const ir::StateVar& V = program_.vars[size_t(var)];
      add_range(V.offset, V.count * V.width);
      all_planes(var);
    };
    // The index of a key or a value in `domain` (C++ of the parent `g` and the
    // arguments) and the range it lies in, when it is a constant, a parameter or the
    // mover; else an empty text.
    struct Index {
      std::string text;
      int64_t lo = 0, hi = 0;
    };
    auto simple_index = [&](const ir::Expr& e, int domain) -> Index {
      if (e.op == Op::Const) {
        const int64_t i = ir::domain_index(program_.domains, domain, e.value);
        return i >= 0 ? Index{std::to_string(i), i, i + 1} : Index{};
      }
      const int vd = e.type && e.type->kind == ir::Type::Kind::Scalar ? e.type->domain : -1;
      std::string x;
      if (e.op == Op::Local && e.slot < int(M.params.size())) x = s_.slots_[size_t(e.slot)];
      if (e.op == Op::Mover) x = "g.mover_";
      if (x.empty() || vd < 0) return {};
      const int64_t n = int64_t(names_.dom(vd).size);
      if (vd == domain && names_.identity_domain(domain)) return {x, 0, n};
      const ir::Domain& D = names_.dom(domain);
      if (D.kind == ir::Domain::Kind::Optional && vd == D.inner && names_.identity_domain(vd))
        return {x + " + 1", 1, n + 1};
      return {};
    };
    std::function<void(const ir::Block&)> walk_block = [&](const ir::Block& b) {
      for (const auto& sp : b) {
        const ir::Stmt& s = *sp;
        switch (s.op) {
          case ir::StmtOp::Assign: {
            const ir::StateVar& V = program_.vars[size_t(s.var)];
            std::string flat;
            if (V.keys.empty()) {
              flat = "0";
            } else if (s.keys.size() == 1 && V.keys.size() == 1) {
              flat = simple_index(*s.keys[0], V.keys[0]).text;
            }
            if (flat.empty()) {
              whole(s.var);
              break;
            }
            if (V.keys.empty()) {
              add_range(V.offset, V.width);
            } else {
              const std::string e = fmt::format("s.{}[{}]", names_.field_name(s.var), flat);
              add(fmt::format("t.{} = g.{};", e, e), 1);
            }
            const int pv = s_.plane_of_var_[size_t(s.var)];
            if (pv < 0 || s_.planes_[size_t(pv)].kept == 0) break;
            const int64_t values = s_.planes_[size_t(pv)].values;
            // The element's value in the parent (what the requires say of it, when they do)
            // and the value stored.
            std::vector<const ir::Expr*> keys;
            for (const auto& k : s.keys) keys.push_back(k.get());
            const uint64_t old = stmts_.fact_of(s.var, keys);
            if (old != ~uint64_t(0) && __builtin_popcountll(old) <= 2) {
              for (uint64_t b = old; b; b &= b - 1) {
                const int k = __builtin_ctzll(b);
                plane_at(s.var, std::to_string(k), k, k + 1);
              }
            } else {
              plane_at(s.var, fmt::format("Int({}[{}])", "g.s." + names_.field_name(s.var), flat), 0, values);
            }
            const Index stored = s.assign == 0 ? simple_index(*s.value, V.domain) : Index{};
            if (stored.text.empty()) {
              all_planes(s.var);
            } else {
              plane_at(s.var, stored.text, stored.lo, stored.hi);
            }
            break;
          }
          case ir::StmtOp::If:
            walk_block(s.body);
            walk_block(s.otherwise);
            break;
          case ir::StmtOp::For:
            r.ok = false;
            break;
          case ir::StmtOp::Let:
          case ir::StmtOp::Again:
          case ir::StmtOp::Eliminate:  // out, an engine variable: restored below
          case ir::StmtOp::Goto:
          case ir::StmtOp::End:
            break;
        }
      }
    };
    names_.begin_frame(M.locals);
    for (size_t i = 0; i < M.params.size(); ++i) s_.slots_[i] = names_.local_name(M.params[i].name, int(i));
    s_.facts_.clear();
    for (const auto& c : M.requires_) stmts_.requires_facts(*c, int(M.params.size()));
    walk_block(M.body);
    s_.facts_.clear();
    // The engine's own variables: the turn, the end and phase tests store them.
    for (size_t v = 0; v < program_.vars.size(); ++v)
      if (program_.vars[v].origin == ir::StateVar::Origin::System) whole(int(v));
    // What the play's stores forget: every variable the block stores, and the engine's
    // own the turn and the end and phase tests store; `out` only where the block
    // eliminates (else only the stuck loop does, after which nothing is undone).
    std::set<int> stored = {ir::kVarPhase, ir::kVarMover, ir::kVarOver, ir::kVarPasses};
    stores_of(M.body, stored);
    uint64_t forgets = 0, can_forgets = 0;
    for (int v : stored) {
      forgets |= s_.forget_defines_[size_t(v)];
      can_forgets |= s_.forget_cans_[size_t(v)];
    }
    if (!r.ok) continue;
    std::string params = "Game& t, const Game& g";
    for (size_t i = 0; i < M.params.size(); ++i) params += ", Int " + s_.slots_[i];
    w_.linef("/// Undoes move {} played on a copy of `g`: copies back everything it can change.",
             move_signature(int(m)));
    w_.open(fmt::format("[[gnu::always_inline]] inline void restore_{}({}) {{", names_.move_name(int(m)), params));
    for (size_t i = 0; i < M.params.size(); ++i) w_.linef("(void){};", s_.slots_[i]);
    // Each element, plane and union by an assignment of its type (copied as bytes, they
    // cost the 6x6 perft 5%: a store of bytes may change anything the compiler had read).
    for (const std::string& c : r.statements) w_.line(c);
    // A fixed range that starts a 16-byte chunk of the game and fits in it is copied back
    // as that whole chunk (one aligned copy for several bytes; the extra bytes did not
    // change). Any other is copied at its own width: a wide copy that is not aligned may
    // straddle two cache lines, and measured, one such copy per child cost the 6x6 perft
    // 15% of its time.
    for (auto [from, to] : merged(r.ranges)) {
      if (from % 16 == 0 && to - from <= 16 && from + 16 <= program_.state_bytes) to = from + 16;
      w_.linef("copy_back_bytes<{}>(t, g, offsetof(Game, s) + {});", to - from, from);
      r.units += int((to - from + 15) / 16);
    }
    w_.linef("copy_back_kept(t, g, 0x{:x}ull, 0x{:x}ull);", asked_defines & ~forgets, asked_cans & ~can_forgets);
    w_.close();
    w_.blank();
    units[m] = r.units;
    any = true;
  }
  // The choice, per move: what undoing costs against copying the whole game.
  w_.line("/// About how many 16-byte copies restore_<move> costs (-1: the move is not undone");
  w_.line("/// this way): one per element, plane, union and fixed range, and one or two for what is remembered.");
  std::string list;
  for (size_t m = 0; m < units.size(); ++m) {
    list += m ? ", " : "";
    list += units[m] < 0 ? "-1" : std::to_string(units[m] + kept_units);
  }
  w_.linef("constexpr Int kRestoreUnits[{}] = {{{}}};", std::max<size_t>(units.size(), 1),
           units.empty() ? "-1" : list);
  w_.line("/// Move `kind` is undone by restoring elements: it costs fewer copies than the game's");
  w_.line("/// 16-byte chunks. (RULEBOOK_RESTORE_ALWAYS, for tests: every move that can be undoes so.)");
  w_.open("constexpr bool restores(Int kind) {");
  w_.line("#if defined(RULEBOOK_RESTORE_ALWAYS)");
  w_.line("return kRestoreUnits[kind] >= 0;");
  w_.line("#else");
  w_.line("return kRestoreUnits[kind] >= 0 && size_t(kRestoreUnits[kind]) < sizeof(Game) / 16;");
  w_.line("#endif");
  w_.close();
  // Moves without parameters (a pass) are few among the children; a sink that can undo
  // costs the copying ones a little (measured: 5% on the 6x6 perft, where only the pass
  // would be undone), so it is used when a move with parameters is undone.
  std::string with_params, every;
  for (size_t m = 0; m < units.size(); ++m) {
    if (units[m] < 0) continue;
    every += fmt::format(" || restores({})", m);
    if (!program_.moves[m].params.empty()) with_params += fmt::format(" || restores({})", m);
  }
  w_.line("/// Perft undoes children by restoring elements: some move with parameters is undone so.");
  w_.line("#if defined(RULEBOOK_RESTORE_ALWAYS)");
  w_.linef("constexpr bool restores_any() {{ return false{}; }}", every);
  w_.line("#else");
  w_.linef("constexpr bool restores_any() {{ return false{}; }}", with_params);
  w_.line("#endif");
  w_.blank();
  w_.open("[[gnu::always_inline]] inline void dispatch_restore(Game& t, const Game& g, Int kind, Int a0, Int a1, Int a2, Int a3) {");
  w_.line("(void)t, (void)g, (void)a0, (void)a1, (void)a2, (void)a3;");
  if (any) {
    w_.open("switch (kind) {");
    for (size_t m = 0; m < units.size(); ++m) {
      if (units[m] < 0) continue;
      std::string args;
      for (size_t i = 0; i < program_.moves[m].params.size(); ++i) args += fmt::format(", a{}", i);
      w_.linef("case {}: restore_{}(t, g{}); break;", m, names_.move_name(int(m)), args);
    }
    w_.line("default: break;");
    w_.close();
  }
  w_.close();
  w_.blank();
}

}  // namespace rulebook::compiler::emit
