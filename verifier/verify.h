// Properties of a rules file checked with Z3: prove, lemma, find, bound, derive, depends,
// consistent and redundant. Each result says what it ranges over and what was shown.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/runtime/engine.h"
#include "dsl/source.h"

namespace rulebook::verifier {

/// A concrete board: state bytes in the engines' layout (so it can be printed, drawn,
/// loaded and played on), its text, and for a move property the move played from it.
struct Board {
  std::vector<uint8_t> state;
  std::string text;
  std::string move;
  std::optional<engine::Move> played;  ///< the move of `move`, as the engines encode it
  /// The state variables that decide what the result says of the board (what its property
  /// and set read, and over moves the mover): a position agreeing with the board on them
  /// shows the same verdict. The other elements are only filled in.
  std::vector<int> vars;
};

/// A search of the explorer for a board a result shows (prove --reach-budget): the line
/// of play from the board's setup to a position agreeing with it on Board::vars.
struct Reach {
  bool reached = false;
  std::vector<std::string> line;  ///< the moves, as `play` prints them (empty: the setup)
  uint64_t states = 0;            ///< positions stored by the search
  bool exhausted = false;         ///< not reached, and every position from the setup was stored
};

/// What was shown of a property. Vacuous: a prove or lemma whose set is empty;
/// interrupted: stopped before a verdict. verdict_name gives the word every output prints.
enum class Verdict {
  Proved, Vacuous, Refuted, Found, None, Bound, Empty, Derived, NotConstant, Consistent,
  Inconsistent, Redundant, NotRedundant, Depends, Error, Unknown, Unsupported, Interrupted,
  /// An invariant true at the start that a move breaks from some state satisfying it
  /// (which may be unreachable).
  NotInductive
};
const char* verdict_name(Verdict v);

/// One rule dropped for `depends`: what became of the property without it.
struct RuleDrop {
  std::string rule;
  Verdict verdict = Verdict::Unknown;  ///< Refuted (with board), Proved, Unknown
  std::optional<Board> board;
};

struct Result {
  std::string name, description;
  ir::PropertyKind kind = ir::PropertyKind::Prove;
  Verdict verdict = Verdict::Unknown;
  std::string set;      ///< the set the property ranges over, in words
  std::string detail;   ///< the value, the reason of an unknown, the error, ...
  /// find, bound: the board maps whose symmetry was broken ("" when none).
  std::string symmetry;
  std::optional<int64_t> value;
  std::optional<Board> board;
  std::vector<std::string> needs;  ///< depends: a minimal set of named rules
  std::vector<RuleDrop> drops;     ///< depends: each needed rule dropped from all rules
  double seconds = 0;
  uint64_t rlimit = 0;  ///< Z3's resource count spent on it (deterministic, unlike seconds)
  /// When invariants were proved: the names of those the board violates (empty: it
  /// satisfies them all); unset when nothing was proved or there is no board.
  std::optional<std::vector<std::string>> violates;
  /// When the board was searched for (unset: not searched, e.g. it violates an invariant).
  std::optional<Reach> reach;
  /// An invariant the verifier proposed itself (Options::candidate_games): kept when
  /// proved, and never a failure of the file when not.
  bool found = false;
  /// Whether the verdict is definite (not unknown or unsupported).
  bool definite() const {
    return verdict != Verdict::Unknown && verdict != Verdict::Unsupported && verdict != Verdict::Interrupted;
  }
  /// A prove or lemma that holds only because its set is empty: it says nothing.
  bool vacuous() const { return verdict == Verdict::Vacuous; }
  /// A refuted prove or lemma, or an evaluation error.
  bool failed() const {
    using K = ir::PropertyKind;
    if (found) return false;
    return verdict == Verdict::Error ||
           ((kind == K::Prove || kind == K::Lemma || kind == K::Invariant) && verdict == Verdict::Refuted) ||
           verdict == Verdict::NotInductive ||
           (kind == K::Derive && verdict == Verdict::NotConstant);
  }
};

struct Options {
  double timeout_seconds = 60;       ///< per property
  /// Z3's resource limit per property (0: none): the same verdicts on any machine.
  uint64_t rlimit = 0;
  std::vector<std::string> only;     ///< property names to check (empty: all)
  /// Setup values fixed in every set, as `--setup name=value` gives them (a data file's
  /// entry number, or a value; compiler::parse_setup reads them). The others range over
  /// what their source allows: a data file's entries, else every value of their type.
  /// verify() throws std::invalid_argument when one is not a setup value of the rules.
  std::vector<std::pair<std::string, std::string>> setup;
  std::function<void(const std::string&)> progress;  ///< lines for stderr
  /// Invariants found by the verifier: candidates read off this many seeded random games
  /// (each at most candidate_plies long), each tried by induction within these limits
  /// (0 games: none).
  int candidate_games = 0;
  int candidate_plies = 300;
  uint64_t candidate_rlimit = 3000000;
  double candidate_seconds = 10;
  /// Try the candidates after the file's properties instead of before: those proved then
  /// narrow no `over reachable` set, but every board shown is still read against them, and
  /// the file's own questions meet the solver as they would without candidates (what the
  /// candidates' steps add to it slows later questions down), so their verdicts are those
  /// of a run without them.
  bool candidates_last = false;
  /// Termination by a ranking (prove_ranking): sampled games, Z3's units for the whole
  /// search (the invariants proved first and every ranking checked; deterministic) and
  /// how many rankings are checked at most.
  int ranking_games = 8;
  uint64_t ranking_rlimit = 1000000;
  int ranking_checks = 4;
  /// Break the symmetry of find and bound questions over boards with the board maps that
  /// keep the set and the value (lex-leader constraints): the same verdicts and values,
  /// possibly other boards. Off unless asked (`prove` asks): checking the maps costs more
  /// than it saves on small sets, and the report's and lint's boards stay those found
  /// without it. Which maps pass is decided within resource units, not seconds.
  bool symmetry = false;
  /// Properties over play: the engine that plays and reads them (Engine::observe; the
  /// verb passes the compiled one), else the interpreter; and the most states the search
  /// stores per property (a count: the same verdict on every machine).
  const engine::Engine* play_engine = nullptr;
  uint64_t play_states = 20000000;
  /// Set (by another thread or a signal handler) to stop: Z3 is interrupted within a few
  /// milliseconds, the property being checked and those not reached are "interrupted",
  /// the verdicts already given stay.
  const std::atomic<bool>* stop = nullptr;
  bool stopped() const { return stop && stop->load(); }
};

/// Termination proved by a ranking: quantities of the state (most significant first) that
/// every move and stuck block, with the engine's steps after it, lowers lexicographically
/// unless it ends the game, from every state of `over reachable` (the declared invariants
/// are proved first and assumed); each is bounded below by its type.
struct Ranking {
  bool proved = false;
  std::vector<std::string> order;  ///< proved: the ranking's quantities
  int64_t plies = 0;               ///< proved: every game ends within this many plies
  size_t candidates = 0;           ///< rankings considered
  size_t sampled_out = 0;          ///< ruled out by a sampled game where one did not decrease
  size_t checked = 0;              ///< checked with Z3
  std::vector<std::string> invariants;  ///< invariants proved and assumed
  std::string detail;              ///< not proved: what broke the last ranking checked
  uint64_t rlimit = 0;             ///< Z3's units spent
};

/// Looks for a ranking among the quantities the state's types give (the sum of each
/// number kept per player, each number, the cells of a cell map holding or not holding
/// each value, the phase, and lexicographic pairs of these): those that decrease on every
/// ply of Options::ranking_games seeded random games are checked with Z3, simplest first.
Ranking prove_ranking(const ir::Program& program, const dsl::SourceSet& sources, const Options& options);

/// Checks the properties of `program` in file order (lemmas first proved, then used).
std::vector<Result> verify(const ir::Program& program, const dsl::SourceSet& sources,
                           const Options& options);

/// The setup variables whose value the set or the expression of `property` reads (through
/// calls, board rules and, over moves, the moves' conditions and bodies), by name: what
/// `--setup` can change about it.
std::vector<std::string> setups_read(const ir::Program& program, const ir::Property& property);

/// "satisfies the proved invariants" or "violates invariant X: not a reachable board".
std::string reachability_text(const std::vector<std::string>& violates);

/// What is known of whether the result's board occurs in a game: the invariant sentence
/// (when invariants were proved) and the search's ("reached by: a1, b2", "not shown
/// reachable (searched N states)"); empty when neither is known.
std::string board_reach_text(const Result& r);

/// The result as text (verdict, set, time unless `times` is false, and the board).
std::string result_text(const Result& r, bool times);
/// The verdict as text prints it: verdict_name, but "met" and "not met" for a criterion.
const char* verdict_word(const Result& r);

}  // namespace rulebook::verifier
