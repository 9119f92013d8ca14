// A puzzle generation's solvers (verifier/puzzle_generate.cpp): one incremental solver of
// an encoding of the set, the solution and the clue instances, and the encodings of the
// same rules in verifiers of their own where what is known is read as constants.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "verifier/verifier_internal.h"

namespace rulebook::verifier {


/// The one solver of a generation: the set, the solution and every clue instance (each
/// holding where the table gives it), asked under assumptions fixing state and table.
struct Generation {
  z3::context& z3;
  z3::solver solver;
  const GenerateOptions& opt;
  Clock::time_point started;
  std::vector<Selector> table;  ///< per element of the table (copies: the encoder may grow)
  std::vector<Selector> state;  ///< the other state elements the encoding reads
  uint32_t blank = 0;                  ///< the table's index of `.` (0 or none)
  /// What the solver is given for a condition (Verifier::sat_form), identity for the
  /// general solver.
  std::function<z3::expr(const z3::expr&)> form;
  /// Counts of components are lazy (Encoder::component_cuts): a model whose counts are
  /// wrong is repaired, or cut off and asked again.
  std::function<std::vector<z3::expr>(z3::model&)> cuts;
  std::string stopped;
  size_t questions = 0;
  RepairedModel repaired;  ///< every assertion goes through it (add)

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - started).count(); }
  double left() const {
    return opt.timeout_seconds - std::chrono::duration<double>(Clock::now() - started).count();
  }

  void add(const z3::expr& e) { repaired.add(solver, form(e)); }

  /// Whether the solver has a model under `as` whose counts of components are right: each model
  /// whose counts are wrong is cut off (the cuts are facts, kept) and it is asked again.
  z3::check_result check(const z3::expr_vector& as) {
    // The rounds share the question's time (each check has the time left at its start).
    std::optional<z3::model> model;
    return check_with_cuts(
        solver, repaired, as, cuts, [&](const z3::expr& c) { add(c); },
        [this] { return left() > 0 && !(opt.stop && opt.stop->load()); }, model);
  }

  z3::check_result ask(const z3::expr_vector& as) {
    if (opt.stop && opt.stop->load()) stopped = "interrupted";
    else if (left() <= 0) stopped = fmt::format("timeout ({} s)", opt.timeout_seconds);
    if (!stopped.empty()) return z3::unknown;
    z3::params ps(z3);
    ps.set("timeout", unsigned(std::max(1.0, left() * 1000)));
    ps.set("ctrl_c", false);
    solver.set(ps);
    const z3::check_result r = check(as);
    ++questions;
    if (r == z3::unknown)
      stopped = opt.stop && opt.stop->load() ? "interrupted"
                : left() <= 0                ? fmt::format("timeout ({} s)", opt.timeout_seconds)
                                             : "timeout (" + solver.reason_unknown() + ")";
    return r;
  }

  /// A list entry (not a grid of cells): each clue instance behind a literal of its own
  /// (`lits`), present where the table gives it (`present[i]` == its `where`).
  std::vector<z3::expr> lits, present;
  std::vector<bool> removable;  ///< whether the table decides the instance (else always there)
  std::vector<bool> allowed;    ///< per clue: whether entries may give it (--clue)
  std::vector<size_t> family;   ///< per instance: its clue

  /// The assumptions fixing the table to `t`.
  void fix_table(const std::vector<uint32_t>& t, z3::expr_vector& as) const {
    for (size_t k = 0; k < table.size(); ++k) as.push_back(table[k].guard[t[k]]);
  }
  /// Every clue instance's literal (a list entry: what the table gives holds).
  void all_clues(z3::expr_vector& as) const {
    for (const z3::expr& l : lits) as.push_back(l);
  }


  /// The index each of `sels` holds in `m`.
  static std::vector<uint32_t> values(const z3::model& m, const std::vector<Selector>& sels) {
    std::vector<uint32_t> out;
    for (const Selector& s : sels) {
      uint32_t v = 0;
      for (size_t i = 0; i < s.guard.size(); ++i)
        if (m.eval(s.guard[i], true).is_true()) v = uint32_t(i);
      out.push_back(v);
    }
    return out;
  }
};

/// A new vector of the same expressions (copying an expr_vector shares it).
z3::expr_vector copy(const z3::expr_vector& v);

struct Verifier::GenEncoding {
  Scope sc;
  std::vector<std::pair<std::string, z3::expr>> clues;  ///< each instance: its name, its condition
  std::vector<size_t> family;                            ///< each instance's clue
  bool sat_based = false, counted = false;
  std::vector<z3::expr> base;  ///< the solver's assertions before any attempt
  std::unique_ptr<Generation> g;
};

struct Verifier::BoundGeneration {
  Options opt;  ///< the whole encoding's, without its progress lines
  std::unique_ptr<Verifier> v;
  std::unique_ptr<StopWatcher> watch;
  std::unique_ptr<GenEncoding> e;  ///< destroyed first (members go in reverse order)
};

}  // namespace rulebook::verifier
