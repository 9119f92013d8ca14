// The differential run of one rules text: the interpreter is the reference; the generated
// engine must agree through every path it offers (perft inside the engine and through the
// ABI, legal moves, apply, scores, metrics, playouts inside the engine), errors included.
#include "tests/random/differential.h"

#include <fmt/core.h>

#include <chrono>
#include <memory>

#include "compiler/interp/interpret.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/runtime/random.h"

namespace rulebook::testing {

namespace {

using engine::Status;

std::string status_text(const Status& s) { return s.ok ? "ok" : "error '" + s.message + "'"; }

/// "" when both calls said the same, text of an error included, else the difference.
std::string differ_status(const std::string& what, const Status& want, const Status& got) {
  if (want.ok == got.ok && want.message == got.message) return "";
  return fmt::format("{}: interpreter {}, generated {}", what, status_text(want), status_text(got));
}

/// The walk of the interface's default perft over the generated engine's legal_moves and
/// apply (the base class's, not the engine's native one).
Status interface_perft(const compiler::CompiledEngine& e, const uint8_t* s, int depth, uint64_t& n) {
  return e.engine::Engine::perft(s, depth, n);
}

class Comparison {
 public:
  Comparison(const ir::Program& p, const compiler::Interpreter& want,
             const compiler::CompiledEngine& got, const DiffOptions& o, DiffResult& r)
      : program_(p), want_(want), got_(got), o_(o), r_(r) {}

  /// "" when the engines agree.
  std::string run() {
    for (int game = 1; game <= o_.games; ++game) {
      if (std::string d = play(uint64_t(game)); !d.empty()) return fmt::format("game {}: {}", game, d);
    }
    return perft();
  }

 private:
  std::string differ(const std::string& what, const Status& want, const Status& got) const {
    return differ_status(what, want, got);
  }

  std::string perft() {
    std::vector<uint8_t> a(program_.state_bytes), b(program_.state_bytes);
    const Status sa = want_.setup(a.data(), {}), sb = got_.setup(b.data(), {});
    if (std::string d = differ("setup", sa, sb); !d.empty()) return d;
    if (!sa.ok) return "";
    for (int depth = 1; depth <= o_.max_perft_depth; ++depth) {
      uint64_t want = 0, native = 0, walked = 0;
      const Status s1 = want_.perft(a.data(), depth, want);
      const Status s2 = got_.perft(b.data(), depth, native);
      const Status s3 = interface_perft(got_, b.data(), depth, walked);
      if (std::string d = differ(fmt::format("perft {} (native)", depth), s1, s2); !d.empty()) return d;
      if (std::string d = differ(fmt::format("perft {} (by the ABI)", depth), s1, s3); !d.empty()) return d;
      r_.perft_depth = depth;
      if (!s1.ok) {
        r_.runtime_error = true;
        return "";
      }
      if (want != native || want != walked)
        return fmt::format("perft {}: interpreter {}, generated {} (native), {} (by the ABI)", depth, want,
                           native, walked);
      if (want == 0 || want >= o_.perft_leaves) break;
    }
    return "";
  }

  /// One seeded game, compared at every state.
  std::string play(uint64_t seed) {
    std::vector<uint8_t> a(program_.state_bytes), b(program_.state_bytes);
    engine::Setup setup;
    setup.seed = seed;
    const Status sa = want_.setup(a.data(), setup), sb = got_.setup(b.data(), setup);
    if (std::string d = differ("setup", sa, sb); !d.empty()) return d;
    if (!sa.ok) {
      r_.runtime_error = true;
      return "";
    }
    const std::vector<uint8_t> start = b;
    SplitMix64 rng(seed);
    std::vector<engine::Move> ma, mb;
    int ply = 0;
    for (;; ++ply) {
      ++r_.states;
      const std::string at = fmt::format("after {} moves", ply);
      if (a != b) return at + ": the states differ" + (ply ? " (last move " + last_ + ")" : "");
      if (want_.terminal(a.data()) != got_.terminal(b.data())) return at + ": terminal differs";
      if (want_.phase(a.data()) != got_.phase(b.data())) return at + ": phase differs";
      if (want_.to_move(a.data()) != got_.to_move(b.data())) return at + ": player to move differs";
      if (want_.hash(a.data()) != got_.hash(b.data())) return at + ": hash differs";
      std::vector<int64_t> ka, kb;
      const Status score_a = want_.scores(a.data(), ka);
      if (std::string d = differ(at + ": scores", score_a, got_.scores(b.data(), kb)); !d.empty()) return d;
      if (!score_a.ok) r_.runtime_error = true;  // both failed alike: their values mean nothing
      if (score_a.ok && ka != kb) return fmt::format("{}: scores differ: interpreter {}, generated {}", at, list(ka), list(kb));
      for (int m = 0; m < int(program_.metrics.size()); ++m) {
        bool ra = false, rb = false;
        int64_t va = 0, vb = 0;
        const Status s1 = want_.metric(a.data(), m, ra, va), s2 = got_.metric(b.data(), m, rb, vb);
        if (std::string d = differ(at + ": metric " + program_.metrics[size_t(m)].name, s1, s2); !d.empty()) return d;
        if (s1.ok && (ra != rb || va != vb)) return at + ": metric " + program_.metrics[size_t(m)].name + " differs";
      }
      if (want_.terminal(a.data()) || ply == o_.max_plies) break;
      ma.clear();
      mb.clear();
      const Status la = want_.legal_moves(a.data(), ma), lb = got_.legal_moves(b.data(), mb);
      if (std::string d = differ(at + ": legal moves", la, lb); !d.empty()) return d;
      if (!la.ok) {
        r_.runtime_error = true;
        return "";
      }
      if (ma != mb) return at + ": legal moves differ: " + texts(ma) + " vs " + texts(mb);
      uint64_t counted = 0;
      if (std::string d = differ(at + ": count of moves", Status::Ok(), got_.count_moves(b.data(), counted)); !d.empty())
        return d;
      if (counted != mb.size()) return fmt::format("{}: count_moves {} of {} moves", at, counted, mb.size());
      if (ma.empty()) return at + ": no legal move in a state that is not over (both engines)";
      const engine::Move m = ma[rng.below(ma.size())];
      last_ = want_.move_text(m);
      if (last_ != got_.move_text(m)) return at + ": move texts differ";
      const Status pa = want_.apply(a.data(), m), pb = got_.apply(b.data(), m);
      if (std::string d = differ(at + ": apply " + last_, pa, pb); !d.empty()) return d;
      if (!pa.ok) {
        r_.runtime_error = true;
        return "";
      }
    }
    // The same game played inside the engine.
    std::vector<uint8_t> c = start;
    uint64_t stream = seed, plies = 0;
    const Status pn = got_.playout(c.data(), stream, uint64_t(o_.max_plies), false, plies);
    if (std::string d = differ("native playout", Status::Ok(), pn); !d.empty()) return d;
    if (plies != uint64_t(ply)) return fmt::format("native playout: {} moves, not {}", plies, ply);
    if (c != b) return "native playout: another last state";
    return "";
  }

  static std::string list(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  }

  static std::string texts(const std::vector<engine::Move>& moves) {
    std::string s = std::to_string(moves.size()) + " moves";
    return s;
  }

  const ir::Program& program_;
  const compiler::Interpreter& want_;
  const compiler::CompiledEngine& got_;
  const DiffOptions& o_;
  DiffResult& r_;
  std::string last_;
};

}  // namespace

DiffResult run_differential(const std::string& name, const std::string& text, const DiffOptions& o) {
  DiffResult r;
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  auto lowered = compiler::load_program_text(name, text, sources, diags);
  if (!lowered) {
    r.kind = DiffResult::CheckFailed;
    r.message = diags.render(sources);
    return r;
  }
  auto program = std::make_shared<const ir::Program>(std::move(*lowered));
  compiler::CompileOptions co;
  co.cache_dir = o.cache_dir;
  co.flags = o.flags;
  if (const std::string bad = compiler::plan::switch_off(o.no_pass, co.passes); !bad.empty()) {
    r.kind = DiffResult::CompileFailed;
    r.message = bad;
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  compiler::LoadedEngine loaded = compiler::load_engine(program, sources, co);
  r.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.compiled = loaded.compiled;
  if (!loaded.engine) {
    r.kind = DiffResult::CompileFailed;
    r.message = loaded.status.message;
    return r;
  }
  compiler::Interpreter interp(*program, sources);
  r.message = Comparison(*program, interp, *loaded.engine, o, r).run();
  if (!r.message.empty()) r.kind = DiffResult::Disagree;
  return r;
}

}  // namespace rulebook::testing
