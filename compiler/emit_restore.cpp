// The C++ emitter's undo of a move by restoring chunks: perft plays the children of a
// leaf's parent one after the other on one scratch game, and between two of them copies
// back from the parent only the 16-byte chunks the first could have changed.
//
// Why: copying the whole working game per child costs about as much per 16-byte chunk
// whatever the chunk holds (measured on Garnsi 9x9, 480 bytes: 9 chunks more cost 14% more
// time), while one move changes a few elements, a few planes and unions and what is
// remembered. Restoring one chunk at an address computed from the move costs about twice
// copying one chunk in a run, so a move is undone this way only when its chunks are fewer
// than half the game's (the 6x6 game, 17 chunks against 11 a placement may change, keeps
// the copy; 9x9, 30 against 12, restores).
//
// Soundness. The chunks are a superset of what the move's play can store, found from its
// block: each assignment names its element's bytes and, for a variable with planes and
// unions, the planes of the element's value in the parent and of the value stored (when
// the value is a constant, the mover or a parameter; else every plane). A value an element
// had between two stores of the block is always one of these, so every plane and union the
// stores touched is named. Keys must be constants, parameters or the mover (else the whole
// variable is named). The engine's own variables (phase, mover, over, passes, out) and what
// is remembered beside the state (mover_, again_, known_, memo_, can bits) are always
// restored. A block with a loop, or any rules with board rules (their scope and tables), is
// not undone this way; nor is a child whose phase changed (a phase's entry may run more) or
// whose stuck loop ran: the next child is then copied whole.
#include <algorithm>
#include <functional>

#include "compiler/emit_internal.h"

namespace rulebook::compiler::emit {

using ir::Op;

namespace {

/// What restoring a move copies back: fixed chunks (by index) and chunks at addresses
/// computed from the parent and the move's arguments (C++ statements).
struct Restore {
  std::vector<std::string> fixed_text; ///< offsets of fixed chunks (C++), in order
  std::vector<std::string> computed;   ///< restore statements
  bool ok = true;
};

}  // namespace

void Emitter::restore_functions() {
  bool any = false;
  if (has_board_rules_) {
    w_.line("/// No move is undone by restoring chunks: the board rules keep more beside the state.");
    w_.line("constexpr bool restores(Int) { return false; }");
    w_.line("constexpr bool restores_any() { return false; }");
    w_.line("inline void restore_kind(Game&, const Game&, Int, Int, Int, Int, Int) {}");
    w_.blank();
    return;
  }
  w_.line("// ================================================================ undo by chunks");
  w_.blank();
  w_.line("/// Copies the 16-byte chunk of `from` holding byte `offset` into `to`.");
  w_.open("[[gnu::always_inline]] inline void restore_chunk(Game& to, const Game& from, size_t offset) {");
  w_.line("offset &= ~size_t(15);");
  w_.line("#if defined(__SSE2__)");
  w_.line("_mm_store_si128(reinterpret_cast<__m128i*>(reinterpret_cast<char*>(&to) + offset),");
  w_.line("                _mm_load_si128(reinterpret_cast<const __m128i*>(reinterpret_cast<const char*>(&from) + offset)));");
  w_.line("#else");
  w_.line("std::memcpy(reinterpret_cast<char*>(&to) + offset, reinterpret_cast<const char*>(&from) + offset, 16);");
  w_.line("#endif");
  w_.close();
  w_.blank();
  // What is remembered beside the state, from mover_ to the can bits (see the Game).
  w_.line("/// Chunks as bits (a game of at most 64 chunks is undone this way).");
  w_.line("constexpr uint64_t chunk_bit(size_t offset) { return offset / 16 < 64 ? uint64_t(1) << (offset / 16) : 0; }");
  w_.line("/// The chunks of what is remembered beside the state (mover_ to can_true_).");
  w_.line("constexpr size_t kKeptFrom = offsetof(Game, mover_) / 16;");
  w_.line("constexpr size_t kKeptTo = (offsetof(Game, can_true_) + sizeof(uint64_t) + 15) / 16;");
  w_.line("constexpr uint64_t kKeptChunks = (kKeptTo >= 64 ? ~uint64_t(0) : (uint64_t(1) << kKeptTo) - 1) &");
  w_.line("                                 ~((uint64_t(1) << kKeptFrom) - 1);");
  w_.line("/// Copies back the chunks of `mask` (a constant: the loop unrolls to its chunks).");
  w_.open("[[gnu::always_inline]] inline void restore_chunks(Game& to, const Game& from, uint64_t mask) {");
  w_.line("#pragma GCC unroll 64");
  w_.line("for (size_t k = 0; k < 64; ++k)");
  w_.line("  if ((mask >> k) & 1) restore_chunk(to, from, 16 * k);");
  w_.close();
  w_.blank();

  std::vector<int> counts(program_.moves.size(), -1);
  for (size_t m = 0; m < program_.moves.size(); ++m) {
    const ir::Move& M = program_.moves[m];
    Restore r;
    auto add_fixed = [&](const std::string& text) {
      if (std::find(r.fixed_text.begin(), r.fixed_text.end(), text) == r.fixed_text.end())
        r.fixed_text.push_back(text);
    };
    auto add_computed = [&](const std::string& text) {
      if (std::find(r.computed.begin(), r.computed.end(), text) == r.computed.end())
        r.computed.push_back(text);
    };
    // Plane `index` (C++, may be outside the kept planes) of a variable and its unions.
    auto plane_at = [&](int var, const std::string& index) {
      const int pv = plane_of_var_[size_t(var)];
      if (pv < 0) return;
      const PlaneVar& p = planes_[size_t(pv)];
      if (p.kept == 0) return;
      const std::string f = field_name(var);
      const bool constant = std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (constant) {
        const int k = std::stoi(index);
        if (k < p.kept)
          add_fixed(fmt::format("offsetof(Game, {}is_) + sizeof(Bits<{}>) * {}", f, words(p.key_domain), k));
        for (const PlaneUnion& u : plane_unions_) {
          if (u.var != var) continue;
          const int e = k - u.first(p.values);
          if (e >= 0 && e < u.kept(p.values))
            add_fixed(fmt::format("offsetof(Game, {}_) + sizeof(Bits<{}>) * {}", u.name, words(u.domain), e));
        }
        return;
      }
      add_computed(fmt::format("if (uint64_t({}) < {}u) restore_chunk(t, g, offsetof(Game, {}is_) + sizeof(Bits<{}>) * size_t({}));",
                               index, p.kept, f, words(p.key_domain), index));
      for (const PlaneUnion& u : plane_unions_) {
        if (u.var != var) continue;
        const int lo = u.first(p.values);
        add_computed(fmt::format("if (uint64_t(({}) - {}) < {}u) restore_chunk(t, g, offsetof(Game, {}_) + sizeof(Bits<{}>) * size_t(({}) - {}));",
                                 index, lo, u.kept(p.values), u.name, words(u.domain), index, lo));
      }
    };
    // Every plane and union of a variable with planes.
    auto all_planes = [&](int var) {
      const int pv = plane_of_var_[size_t(var)];
      if (pv < 0) return;
      for (int k = 0; k < planes_[size_t(pv)].values; ++k) plane_at(var, std::to_string(k));
    };
    auto whole = [&](int var) {
      const ir::StateVar& V = program_.vars[size_t(var)];
      const uint32_t end = V.offset + V.count * V.width;
      for (uint32_t b = V.offset & ~15u; b < end; b += 16) add_fixed(fmt::format("offsetof(Game, s) + {}", b));
      all_planes(var);
    };
    // The index of a key or a value in `domain` (C++ of the parent `g` and the
    // arguments), when it is a constant, a parameter or the mover; else empty.
    auto simple_index = [&](const ir::Expr& e, int domain) -> std::string {
      if (e.op == Op::Const) {
        const int64_t i = ir::domain_index(program_.domains, domain, e.value);
        return i >= 0 ? std::to_string(i) : "";
      }
      const int vd = e.type && e.type->kind == ir::Type::Kind::Scalar ? e.type->domain : -1;
      std::string x;
      if (e.op == Op::Local && e.slot < int(M.params.size())) x = slots_[size_t(e.slot)];
      if (e.op == Op::Mover) x = "g.mover_";
      if (x.empty() || vd < 0) return "";
      if (vd == domain && identity_domain(domain)) return x;
      const ir::Domain& D = dom(domain);
      if (D.kind == ir::Domain::Kind::Optional && vd == D.inner && identity_domain(vd)) return x + " + 1";
      return "";
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
              flat = simple_index(*s.keys[0], V.keys[0]);
            }
            if (flat.empty()) {
              whole(s.var);
              break;
            }
            add_computed(fmt::format("restore_chunk(t, g, offsetof(Game, s) + {} + size_t({}) * {});", V.offset,
                                     flat, V.width));
            if (V.width > 1)  // an element may straddle two chunks
              add_computed(fmt::format("restore_chunk(t, g, offsetof(Game, s) + {} + size_t({}) * {});",
                                       V.offset + V.width - 1, flat, V.width));
            const int pv = plane_of_var_[size_t(s.var)];
            if (pv < 0 || planes_[size_t(pv)].kept == 0) break;
            // The element's value in the parent (what the requires say of it, when they do)
            // and the value stored.
            std::vector<const ir::Expr*> keys;
            for (const auto& k : s.keys) keys.push_back(k.get());
            const uint64_t old = fact_of(s.var, keys);
            if (old != ~uint64_t(0) && __builtin_popcountll(old) <= 2) {
              for (uint64_t b = old; b; b &= b - 1) plane_at(s.var, std::to_string(__builtin_ctzll(b)));
            } else {
              plane_at(s.var, fmt::format("Int({}[{}])", "g.s." + field_name(s.var), flat));
            }
            const std::string stored = s.assign == 0 ? simple_index(*s.value, V.domain) : "";
            if (stored.empty()) {
              all_planes(s.var);
            } else {
              plane_at(s.var, stored);
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
    begin_frame(M.locals);
    for (size_t i = 0; i < M.params.size(); ++i) slots_[i] = param_cpp_name(M.params[i].name);
    facts_.clear();
    for (const auto& c : M.requires_) requires_facts(*c, int(M.params.size()));
    walk_block(M.body);
    facts_.clear();
    // The engine's own variables: the turn, the end and phase tests store them.
    for (size_t v = 0; v < program_.vars.size(); ++v)
      if (program_.vars[v].origin == ir::StateVar::Origin::System) whole(int(v));
    if (!r.ok) continue;
    std::string params = "Game& t, const Game& g";
    for (size_t i = 0; i < M.params.size(); ++i) params += ", Int " + slots_[i];
    w_.linef("/// Undoes move {} played on a copy of `g`: copies back every chunk it can change.",
             move_signature(int(m)));
    w_.linef("constexpr uint64_t kFixed_{} = kKeptChunks", move_name(int(m)));
    for (const std::string& f : r.fixed_text) w_.linef("    | chunk_bit({})", f);
    w_.line("    ;");
    w_.open(fmt::format("[[gnu::always_inline]] inline void restore_{}({}) {{", move_name(int(m)), params));
    for (size_t i = 0; i < M.params.size(); ++i) w_.linef("(void){};", slots_[i]);
    w_.linef("restore_chunks(t, g, kFixed_{});", move_name(int(m)));
    for (const std::string& c : r.computed) w_.line(c);
    w_.close();
    w_.blank();
    counts[m] = int(r.computed.size());
    any = true;
  }
  // The choice, per move: chunks restored (with what is remembered) against the game's.
  w_.line("/// Chunks restore_<move> copies back (-1: the move is not undone this way).");
  std::string list;
  for (size_t m = 0; m < counts.size(); ++m) {
    list += m ? ", " : "";
    list += counts[m] < 0 ? "-1" : fmt::format("{} + popcount(kFixed_{})", counts[m], move_name(int(m)));
  }
  w_.linef("constexpr Int kRestoreChunks[{}] = {{{}}};", std::max<size_t>(counts.size(), 1),
           counts.empty() ? "-1" : list);
  w_.line("/// Move `kind` is undone by restoring chunks: fewer than half the game's (a chunk");
  w_.line("/// restored at a computed address costs about two copied in a run).");
  w_.line("/// (RULEBOOK_RESTORE_ALWAYS, for tests: every move that can be undoes so.)");
  w_.open("constexpr bool restores(Int kind) {");
  w_.line("#if defined(RULEBOOK_RESTORE_ALWAYS)");
  w_.line("return sizeof(Game) <= 64 * 16 && kRestoreChunks[kind] >= 0;");
  w_.line("#else");
  w_.line("return sizeof(Game) <= 64 * 16 && kRestoreChunks[kind] >= 0 &&");
  w_.line("       2 * size_t(kRestoreChunks[kind]) < sizeof(Game) / 16;");
  w_.line("#endif");
  w_.close();
  // Moves without parameters (a pass) are few among the children; a sink that can undo
  // costs the copying ones a little (measured: 5% on the 6x6 perft, where only the pass
  // would be undone), so it is used when a move with parameters is undone.
  std::string with_params, every;
  for (size_t m = 0; m < counts.size(); ++m) {
    if (counts[m] < 0) continue;
    every += fmt::format(" || restores({})", m);
    if (!program_.moves[m].params.empty()) with_params += fmt::format(" || restores({})", m);
  }
  w_.line("/// Perft undoes children by restoring chunks: some move with parameters is undone so.");
  w_.line("#if defined(RULEBOOK_RESTORE_ALWAYS)");
  w_.linef("constexpr bool restores_any() {{ return false{}; }}", every);
  w_.line("#else");
  w_.linef("constexpr bool restores_any() {{ return false{}; }}", with_params);
  w_.line("#endif");
  w_.blank();
  w_.open("[[gnu::always_inline]] inline void restore_kind(Game& t, const Game& g, Int kind, Int a0, Int a1, Int a2, Int a3) {");
  w_.line("(void)t, (void)g, (void)a0, (void)a1, (void)a2, (void)a3;");
  if (any) {
    w_.open("switch (kind) {");
    for (size_t m = 0; m < counts.size(); ++m) {
      if (counts[m] < 0) continue;
      std::string args;
      for (size_t i = 0; i < program_.moves[m].params.size(); ++i) args += fmt::format(", a{}", i);
      w_.linef("case {}: restore_{}(t, g{}); break;", m, move_name(int(m)), args);
    }
    w_.line("default: break;");
    w_.close();
  }
  w_.close();
  w_.blank();
}

}  // namespace rulebook::compiler::emit
