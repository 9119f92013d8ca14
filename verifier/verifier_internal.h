// The verifier's shared declarations: the encoded set a property ranges over (Scope), an
// expression's value per instance of it (Piece), and the Verifier running the kinds.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "verifier/bmc.h"
#include "verifier/cardinality.h"
#include "verifier/encoder.h"
#include "verifier/puzzle.h"
#include "verifier/rule_boards.h"
#include "verifier/verify.h"

namespace rulebook::explorer {
struct Transform;
}  // namespace rulebook::explorer

namespace rulebook::verifier {

using Clock = std::chrono::steady_clock;

/// Splits `e` into a list whose conjunction (disjunction) is `e`: through and, or, negations
/// of them and the conclusion of an implication.
void conjuncts(const z3::expr& e, std::vector<z3::expr>& out);
void disjuncts(const z3::expr& e, std::vector<z3::expr>& out);

/// One conjunct of a set's conditions: `e`, which holds where the named rule `lit` is
/// assumed (-1: always). `support` (computed on first use) lists the selectors `e` reads,
/// with -1 when it reads anything else (component labels).
struct Part {
  z3::expr e;
  int lit = -1;
  mutable std::optional<std::vector<int>> support;
  mutable bool arith = false;  ///< (with support) whether `e` has integer terms
  /// The move instance whose guard `e` is conditioned on (`guard => ...`), -1 for a
  /// condition of every instance; -2 until computed (Verifier::instance_of_part).
  mutable int inst = -2;
  /// Whether `e` reads a lazily refined count of components; -1 until computed.
  mutable int counts = -1;
};

/// What a property ranges over, encoded: named-rule literals, the conditions of the set
/// split into conjuncts, and how to evaluate the property's expressions on it.
struct Scope {
  std::vector<z3::expr> lits;
  std::vector<std::string> lit_names;
  std::vector<Part> parts;  ///< named rules (with lit), where, phase, legality
  int overlay = -1;
  Encoder::Frame frame;
  int move = -1;
  std::vector<int> params;  ///< selectors of the move's parameters
  /// Over moves with few parameter values: one instance per concrete parameter tuple,
  /// each with its own state after (empty: one symbolic instance in `overlay`).
  struct Instance {
    z3::expr guard;
    int overlay;
    std::vector<int> index;
  };
  std::vector<Instance> inst;
  std::unordered_set<const ir::Stmt*> slice;
  /// Z3 AST id of each instance's guard -> its index in `inst` (built on first use).
  mutable std::unordered_map<unsigned, int> guard_index;
  /// Conditions not named by a rule (where, phase, legality), as one formula.
  z3::expr domain(z3::context& z3) const;
};

/// An expression's value on one instance of a set: plain, regrouped (Encoder::regroup)
/// where `overlap` is false, and its error condition; `guard` says which instance.
struct Piece {
  z3::expr guard, plain, regrouped, overlap, err;
};

/// The answer to one question on a set.
struct Answer {
  z3::check_result result = z3::unknown;
  std::optional<z3::model> model;  ///< when sat: a model of the whole set
  std::vector<int> core;           ///< when unsat: rule literals the proof used
};

/// Per property: a wall-clock timeout and, optionally, Z3's deterministic resource limit.
struct Budget {
  Clock::time_point started;
  uint64_t rlimit_base = 0;  ///< Z3's resource count when the property started
  /// The limits questions are sized by: the options' (which the messages name), lowered
  /// while a part of the property may use only a share of them (a bound's seeding finds).
  double seconds = 0;
  uint64_t rlimit = 0;  ///< 0: none
};

/// Z3's resource count so far, as a solver's statistics report it.
uint64_t rlimit_count(z3::solver& s);
/// Whether every assertion of a solver holds in a model the solver gave, repaired after the
/// check (its lazy counts set to their true values: Encoder::component_cuts). Only an
/// assertion that reads a count can have changed its value: every assertion goes through
/// add, and a round of cuts evaluates those that read a count alone (the SAT-based
/// solver's own list of assertions is its clauses: a million on a 6x6 board).
class RepairedModel {
 public:
  explicit RepairedModel(const Encoder& enc) : enc_(enc) {}
  /// Asserts `e` in `s`.
  void add(z3::solver& s, const z3::expr& e);
  bool holds(const z3::model& m);
  /// Every assertion added, in order, as given.
  const std::vector<z3::expr>& assertions() const { return added_; }

 private:
  const Encoder& enc_;
  std::vector<z3::expr> added_;    ///< every assertion, in order
  size_t scanned_ = 0;             ///< how many of them were sorted into reading_
  std::vector<z3::expr> reading_;  ///< the assertions that read a count
};
/// `s` checked under `as` until a model's lazy counts are right: a model whose counts are
/// wrong (`cuts` gives its cuts; none, or a model that holds once repaired, is right) is cut
/// off, the cuts joining `s` through `add`, and `s` asked again while `go_on()`; unknown
/// when it says stop. A sat answer's model, its counts set to their true values by `cuts`,
/// goes to `model`.
z3::check_result check_with_cuts(z3::solver& s, RepairedModel& repaired, const z3::expr_vector& as,
                                 const std::function<std::vector<z3::expr>(z3::model&)>& cuts,
                                 const std::function<void(const z3::expr&)>& add, const std::function<bool()>& go_on,
                                 std::optional<z3::model>& model);

/// Bounds [lo, hi] of an integer term on every assignment, from its shape (numerals,
/// if-then-else, sums, differences, products with a numeral); nullopt when unbounded here.
using Range = std::optional<std::pair<int64_t, int64_t>>;
Range term_range(const z3::expr& e);
/// 1 when the bool `b` holds on every assignment, -1 on none, 0 when term_range cannot tell.
int truth(const z3::expr& b);

/// The instances on which `bad` holds of the value (regrouped where exclusive, else plain),
/// or the value errs: one exact query.
z3::expr any_piece(z3::context& z3, const std::vector<Piece>& ps, const std::function<z3::expr(const z3::expr&)>& bad);

/// The engine's steps after a move's block (semantics.md, Applying a move, step 2) as
/// statements: `end when`, then the transitions of the phase now in effect.
ir::Block engine_steps(const ir::Program& p);

/// The setup values a property's set fixes in the file (`with`); a `depends` takes its
/// subject's.
const std::vector<std::pair<std::string, std::string>>& fixed_setup(const ir::Program& p, const ir::Property& prop);

/// One quantity a termination ranking is made of (ranking.cpp).
struct Measure;
/// One ply of a bounded model check (bmc.cpp).
struct BmcPly;
/// While it lives, a thread of its own polls `stop` (which a signal handler may set, and
/// nothing else) and interrupts Z3, which checks its cancel flag only when told.
class StopWatcher {
 public:
  StopWatcher(z3::context& z3, const std::atomic<bool>* stop);
  ~StopWatcher();
  StopWatcher(const StopWatcher&) = delete;
  StopWatcher& operator=(const StopWatcher&) = delete;

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

class Verifier {
 public:
  Verifier(const ir::Program& p, const dsl::SourceSet& s, const Options& o)
      : p_(p), sources_(s), opt_(o), enc_(p, s, z3_) {}

  std::vector<Result> run();
  /// Check only the properties whose set fixes exactly the setup values `g` in the file
  /// (and, as facts, the lemmas that fix none): verify() runs one verifier per such group,
  /// since the encoder's tables, board rules and lemmas hold for one setup each.
  void only_group(const std::vector<std::pair<std::string, std::string>>* g) { group_ = g; }
  /// Termination by a ranking (ranking.cpp).
  Ranking ranking();
  /// Every solution of a puzzle (verifier/puzzle.cpp), its uniqueness and its clues.
  PuzzleResult solve_puzzle(const ir::Property& prop, const PuzzleOptions& po);
  /// A new puzzle: a random solution, its clues removed while it stays unique
  /// (verifier/puzzle_generate.cpp).
  std::vector<GeneratedPuzzle> generate_puzzles(const ir::Property& prop, const GenerateOptions& go);
  /// Bounded model checking of `targets` over plan.plies plies (bmc.cpp).
  std::vector<BmcResult> bmc(const compiler::Interpreter& in, const std::vector<BmcTarget>& targets, const BmcPlan& plan);
  /// Boards for a rulebook's examples (rule_boards.cpp): the invariants proved first.
  RuleBoards rule_boards(const std::vector<RuleQuestion>& questions);
  /// The property of each result of run(), in order.
  const std::vector<const ir::Property*>& ran() const { return ran_; }

 private:
  // ---- the set (scope.cpp)
  Scope scope(const ir::Property& prop, int move_index);
  void move_scope(const ir::Property& prop, Scope& sc, int move,
                  const std::function<void(const std::string&, const z3::expr&)>& add_rule);
  /// A board rule on the state before (encoded once per run: its value never changes).
  z3::expr board_rule(size_t rule);
  /// Runs fn(guard) with each instance's parameters fixed and its state after in use.
  void each_instance(Scope& sc, const std::function<void(const z3::expr&)>& fn);
  /// The expression on each instance of the set (one piece unless parameters are split).
  std::vector<Piece> pieces(Scope& sc, const ir::Expr& e, bool with_regroup);
  /// The expression as one value on the set (sum or disjunction over instances) and its
  /// error condition.
  std::pair<z3::expr, z3::expr> value_pair(Scope& sc, const ir::Expr& e);
  Board board(const z3::model& m, const Scope& sc);
  std::string set_text(const ir::Property& prop);

  // ---- setup values (setup.cpp)
  /// Fixes the setup values Options::setup names (every element read as a constant).
  void bind_setups();
  /// The setup variables (indices of p_.setups) the set or the value of `prop` reads.
  std::vector<size_t> setups_read(const ir::Property& prop) const;
  /// Board::vars of a board shown for `prop`.
  std::vector<int> board_vars(const ir::Property& prop) const;
  /// Over unbound data-file setups that `prop` reads: the value is one of the file's entries.
  void entry_parts(const ir::Property& prop, Scope& sc);
  /// What the setup values `prop` reads range over, for the set's text ("" when none).
  std::string setup_text(const ir::Property& prop) const;

  // ---- questions (solve.cpp)
  /// Is `q` satisfiable on the set, with the named rules in `on` assumed (all when null)
  /// and the others not? Unsat answers may come from relaxations (only the conditions on
  /// the selectors q reads), each split disjunct on its own; sat answers always come from
  /// the whole set, with a model.
  Answer ask(const Scope& sc, const z3::expr& q, const std::vector<size_t>* on = nullptr);
  /// Which conditions a question is asked on: the rules assumed (`on`, per rule literal)
  /// and either all other conditions (no `reads`) or those on the selectors `reads`
  /// (sorted) that read at most `width` of them.
  struct Relaxation {
    std::vector<bool> on;
    const std::vector<int>* reads = nullptr;
    int width = 0;
  };
  bool kept(const Part& p, const Relaxation& r);
  /// Instances outside the question's focus (when not empty): their parts are left out.
  /// Exact: the question implies one focused guard, so the others are false and every
  /// `guard => ...` part of theirs holds.
  std::vector<bool> focus_;
  const Scope* focus_scope_ = nullptr;
  /// One solver call: is `q` satisfiable with the facts, parts and lemmas of `r`, within
  /// `share` of what is left of the budget? (One-hot sums when anything counts: `q_arith`
  /// for the question.)
  Answer check(const Scope& sc, const Relaxation& r, const z3::expr& q, bool q_arith, double share);
  /// Proves on the set (rules `on`) that the parts of every regrouped sum in `ps` are
  /// exclusive; then the regrouped values are exact and the overlaps are dropped from
  /// `ps`. False (and `ps` unchanged) when that is not proved.
  bool settle(const Scope& sc, std::vector<Piece>& ps, const std::vector<size_t>* on = nullptr);
  /// prove/lemma: the query whose models are counterexamples.
  z3::expr refutation(Scope& sc, const ir::Expr& goal, const std::vector<size_t>* on = nullptr);
  const std::vector<int>& support(const Part& part);
  /// The instance a part belongs to (Part::inst), and the instances a question can hold
  /// on: those whose guard is a conjunct of each of its disjuncts (empty: any instance).
  int instance_of_part(const Scope& sc, const Part& part);
  std::vector<bool> focus_of(const Scope& sc, const z3::expr& q);
  /// The reason of an unknown answer: `spent` resource units of the `rlimit` (0: none) given.
  void unknown_from(z3::solver& s, uint64_t spent, uint64_t rlimit);

  // ---- proof by generalisation (generalise.cpp)
  /// prove/lemma over boards: proves the value valid for every value of what it reads from
  /// the state (Encoder::abstract) within a share of the budget; true when proved (with
  /// `r.detail` saying so), false when that is not shown (the concrete question decides).
  /// A lemma's generalised value is then assumed by later generalisations (`remember`).
  bool generalised(Scope& sc, const ir::Property& prop, Result& r, bool remember = true);

  // ---- puzzles (puzzle.cpp)
  /// Each instance of a clue family (`depth` binders of `x` left): its name and condition.
  /// `where`: the condition of the bindings so far (true unless a `where` reads the free
  /// table of a generated puzzle, symbolic_setup_). `wheres`, when given, gets each
  /// instance's own condition of presence (the table gives it), in the order of `out`.
  void clue_instances(const ir::Clue& c, const ir::Expr& x, int depth, Encoder::Frame& f, const std::string& args,
                      std::vector<std::pair<std::string, z3::expr>>& out, const z3::expr& where,
                      std::vector<z3::expr>* wheres = nullptr);
  /// What the SAT-based solver is given for each condition of a puzzle's questions: the
  /// condition itself when none of `conds` is arithmetic, else its counts as cardinalities
  /// and its integers as bit-vectors (int_bits.h) when every one of `conds` has that form;
  /// empty when one has not (the general solver then, with the one-hot sums).
  std::function<z3::expr(const z3::expr&)> sat_form(const std::vector<z3::expr>& conds, bool arith);
  /// What a puzzle's solver is given besides `parts` (solve and generation): the facts of
  /// counts of components where a part reads one (the facts of other counts would leave
  /// their values free, each model a round of cuts), and sat_form over the parts and those.
  struct PuzzleForm {
    bool counted = false;
    std::vector<z3::expr> count_facts;
    std::function<z3::expr(const z3::expr&)> form;  ///< empty: the general solver
  };
  PuzzleForm puzzle_form(const std::vector<Part>& parts);
  /// The setup (index of p_.setups) a puzzle generation leaves free, or -1 (puzzle_generate.cpp).
  int symbolic_setup_ = -1;
  /// A generation's encoding: the set, the solution and every clue instance of a puzzle in
  /// one incremental solver (puzzle_generate.cpp). `table_free`: the table's elements are
  /// selectors (else bound, as Encoder::bind fixed them before). `before_parts` runs after
  /// the clue instances are encoded, before the solver is given them.
  struct GenEncoding;
  std::unique_ptr<GenEncoding> generation_encoding(const ir::Property& prop, const GenerateOptions& go, int table,
                                                   bool grid, uint32_t blank, bool table_free,
                                                   const std::vector<bool>& allowed,
                                                   const std::function<void()>& before_parts, bool with_clues = true);
  /// A verifier of the same rules, setups and budget whose encoder reads the elements
  /// `fixed` (variable, element, value) as constants, with a generation's encoding of its own
  /// (without `with_clues`: the set and the solution only, no clue instance).
  struct BoundGeneration;
  std::unique_ptr<BoundGeneration> bound_generation(const ir::Property& prop, const GenerateOptions& go, int table,
                                                    uint32_t blank, bool table_free, const std::vector<bool>& allowed,
                                                    const std::vector<std::tuple<int, uint32_t, int64_t>>& fixed,
                                                    bool with_clues = true);

  // ---- cases of a property over moves (verify.cpp)
  /// Instances of one move whose value terms are identical (the same cells read): asked
  /// together, apart from every other instance.
  struct Case {
    size_t scope = 0;           ///< which move's scope
    std::vector<Piece> pieces;  ///< one per instance
    z3::expr guard;             ///< some instance of the case is played
    Range range;                ///< static bounds of the value (ints)
    size_t order = 0;           ///< position in instance order (ties)
  };
  std::vector<Case> cases(std::vector<Scope>& scopes, const ir::Property& prop, bool with_regroup);
  /// The case's value in a model (the plain value of the instance played).
  int64_t case_value(const Case& c, const z3::model& m);

  // ---- invariants (invariant.cpp)
  /// Proves `prop` by induction: in every start state, and kept by every move and stuck
  /// block; a proved one joins proved_invariants_.
  void invariant(const ir::Property& prop, Result& r);
  /// The start states, with `prop`'s value read on them (its elements then have selectors).
  Scope start_scope(const ir::Property& prop);
  /// One move (move >= 0) or the stuck block of `stuck_phase`, from a state of a game not
  /// over where every board rule, every proved invariant and `prop` hold; the state after
  /// includes the engine's steps and any next player.
  /// With `assume` false, `prop` is not assumed before (its value is only read).
  Scope step_scope(const ir::Property& prop, int move, int stuck_phase, bool assume = true);
  /// Calls `step` on every move (move, -1), then every phase's stuck block (-1, phase),
  /// until one returns false; whether none did.
  bool each_step(const std::function<bool(int move, int stuck_phase)>& step) const;
  /// "move NAME" or "the stuck block of phase NAME".
  std::string step_name(int move, int stuck_phase) const;
  /// Runs the engine's steps after the block on each instance of the set.
  void after_steps(Scope& sc);
  int steps_locals() const;
  /// Adds the proved invariants (but `except`), read on the state before, to the set.
  void assume_invariants(Scope& sc, const ir::Property* except);
  Board start_board(const z3::model& m);
  std::string step_after_text(const Board& before, const z3::model& m, const Scope& sc, int stuck_phase);
  /// The proved invariants false on the board (by the interpreter).
  std::vector<std::string> violated_invariants(const Board& b);

  /// Proves the declared invariants in file order, each once `start()` has set its budget
  /// (none once it returns false), so that `over reachable` assumes those proved.
  void prove_invariants(const std::function<bool()>& start);
  /// Builds steps_ and steps_reads_ on first use.
  void ensure_steps();

  // ---- bounded model checking (bmc.cpp)
  /// `var` (or `var[key]`, a player) read on the current overlay.
  SymP bmc_read(int var, std::optional<int64_t> key);
  /// Whether `v` (of `domain`) is `x`.
  z3::expr bmc_is(const SymP& v, int domain, int64_t x);
  /// Reads every element written on the current overlay into fresh selectors (facts in `cs`).
  void bmc_rebase(std::vector<z3::expr>& cs, int ply);
  /// Replays the model's line with the interpreter; true (and `r` filled) when it is a
  /// line of play reaching `target`.
  bool bmc_confirm(const compiler::Interpreter& in, const compiler::Coverage& cov, const BmcTarget& target,
                   const std::vector<BmcPly>& plies, const std::vector<z3::expr>& at, const z3::model& m,
                   BmcResult& r);

  // ---- termination by a ranking (ranking.cpp)
  /// Whether every move and stuck block lowers the ranking `order` (lexicographically)
  /// or ends the game; `why` says what broke it otherwise.
  bool ranking_decreases(const std::vector<const Measure*>& order, std::string& why);
  /// The largest value of `m` in a start state: `seen` when Z3 shows no start exceeds it,
  /// else the type's bound.
  int64_t start_most(const Measure& m, int64_t seen);

  // ---- invariants found from playouts (candidates.cpp)
  struct Candidate {
    std::string text;  ///< as the rules would write it
    ir::ExprPtr expr;  ///< a player in local 0, a cell in local 1
  };
  /// Relations and bounds holding on every state of Options::candidate_games seeded random
  /// games, read off the quantities the state's types give.
  std::vector<Candidate> candidates();
  /// Proves each candidate by induction on a small budget (in `out`, first).
  void found_invariants(std::vector<Result>& out, std::vector<const ir::Property*>& props);
  std::vector<std::unique_ptr<ir::Property>> found_props_;

  // ---- a rulebook's example boards (rule_boards.cpp)
  /// One question on the set of `move` over reachable boards; `index` makes the
  /// parameters' selectors fresh.
  RuleAnswer rule_board(const RuleQuestion& question, int move, size_t index);

  // ---- property kinds (verify.cpp)
  void one(const ir::Property& prop, Result& r);
  void prove_like(const ir::Property& prop, Result& r);
  /// The set a property ranges over, as a key: properties with the same key share it.
  std::string set_key(const ir::Property& prop) const;
  /// Whether the set of `prop` has an element (nullopt: not shown; `unshown` says why).
  std::optional<bool> set_has_element(const ir::Property& prop, std::string& unshown);
  /// Marks the proofs of `out` (of `props`) whose set is empty as vacuous.
  void settle_vacuity(const std::vector<const ir::Property*>& props, std::vector<Result>& out);
  void find(const ir::Property& prop, Result& r);
  void bound(const ir::Property& prop, Result& r);

  // ---- sets over play (play.cpp)
  /// A property over play: the explorer's search of the states play reaches from the
  /// setup, read by Options::play_engine (else the interpreter).
  void over_play(const ir::Property& prop, Result& r);
  /// Whether the bound's value never improves along a move or stuck block (and, once it
  /// can be evaluated, still can after it), from every state of `over reachable` not over:
  /// true when proved; `detail` says what was shown otherwise.
  bool monotone(const ir::Property& prop, std::string& detail);
  /// Whether one move (or stuck block) can make the value of `prop` better (or err where it
  /// did not): sat shows it can.
  Answer step_answer(const ir::Property& prop, int move, int stuck_phase);
  /// A find's or bound's set over boards (symmetry.cpp): each map of the board under which
  /// the set's conditions and `values` (the terms the questions read) map onto themselves,
  /// checked on the encoding, adds a lex-leader constraint to the set. Sound: each
  /// question is about the set and values only, so a model of it has an image among the
  /// lex-leaders. What was broken, for the result ("" when nothing).
  std::string break_symmetry(Scope& sc, const std::vector<z3::expr>& values);
  /// Where a map sends each selector's values: per selector, its image selector and, per
  /// index, the image index.
  struct SelectorMap {
    std::vector<int> to;
    std::vector<std::vector<size_t>> index;
  };
  /// The maps of `maps` (identity first: maps of the board, declared swaps) under which the
  /// set of `sc` and each of `values` map onto themselves, checked on the encoding (up to
  /// argument order, then by Z3 within a quarter of the budget), and the group they
  /// generate as maps of the selectors (identity first), closed unless it has more than
  /// `limit` elements (then `closed` is false and `elements` a part of it: enough for
  /// lex-leader constraints, not for orbits). `kept`: the names of the maps checked and
  /// kept; `rejected`: the others, each with why.
  struct CheckedGroup {
    std::vector<SelectorMap> elements;
    bool closed = true;
    std::vector<std::string> kept, rejected;
  };
  CheckedGroup checked_group(const Scope& sc, const std::vector<z3::expr>& values,
                             const std::vector<explorer::Transform>& maps, size_t limit);
  /// Images of conditions shown implied by the conditions on the selectors they read
  /// alone (break_symmetry): the AST ids of the image and of those conditions, and the
  /// terms (kept so that the ids are not reused).
  std::map<std::vector<unsigned>, std::vector<z3::expr>> implied_;
  /// A bound's starting point: a find's witness, its value (times the bound's sign) and
  /// the find's name.
  struct Seed {
    int64_t value;
    Board board;
    std::string find;
  };
  /// The best value of a bound over boards among the witnesses of the finds over narrower
  /// sets (their `where` adds conditions to the bound's), each checked by the interpreter
  /// to lie in the bound's set.
  std::optional<Seed> seed(const ir::Property& prop, int64_t sign);
  void derive(const ir::Property& prop, Result& r);
  void consistent(Result& r, const std::string& drop_rule);
  void depends(const ir::Property& prop, Result& r);

  const ir::Program& p_;
  const dsl::SourceSet& sources_;
  const Options& opt_;
  z3::context z3_;
  Encoder enc_;
  Cardinalities cards_{z3_};  ///< the SAT-based solver's form of counts (cardinality.h)
  std::map<size_t, z3::expr> board_rules_;
  std::vector<Part> facts_;      ///< the encoder's facts (one-hot selectors, labellings)
  std::vector<Part> sum_facts_;  ///< the encoder's one-hot sums
  /// Proved lemmas: the fact, and the rule names its proof used.
  struct Lemma {
    std::vector<Part> facts;             ///< its conjuncts
    z3::expr domain;                     ///< the conditions of its set
    std::vector<unsigned> domain_ids;    ///< those conditions' parts (Z3 AST ids)
    std::vector<std::string> rules;
  };
  std::vector<Lemma> lemmas_;
  /// Finds answered "found" in this run, by name, with the time and units they took: each
  /// is asked once, whether for itself or to seed a bound, and shows the same board.
  std::map<std::string, Result> found_;
  /// Sets (by set_key) known to have an element (true) or to be empty (false).
  std::map<std::string, bool> nonempty_;
  /// Whether questions get lemma facts: not while a `find` looks for a witness (implied by
  /// the set, they cannot change a model search's answer, only slow it down).
  bool use_lemmas_ = true;
  Budget budget_;
  uint64_t rlimit_seen_ = 0;  ///< Z3's resource count after the last check
  std::string unknown_;
  const std::vector<std::pair<std::string, std::string>>* group_ = nullptr;
  std::vector<const ir::Property*> ran_;
  /// Invariants proved so far (declared or found), in order: `over reachable` assumes them.
  std::vector<const ir::Property*> proved_invariants_;
  ir::Block steps_;           ///< engine_steps, built on first use
  std::set<int> steps_reads_;  ///< the variables steps_ reads (and phase, over)
  bool with_steps_ = true;     ///< whether the invariant being proved needs steps_
  /// Variables read after a move besides the property's (slicing keeps what writes them).
  std::set<int> extra_reads_;
  /// Moves as one symbolic instance (parameters as selectors) whatever their number of
  /// instances: an invariant's value counts over the whole board, and one term per
  /// instance and cell would be far larger than one per cell.
  bool symbolic_moves_ = false;
  /// More instances than this are one symbolic instance: each split instance runs the body
  /// and reads the property on its own state after, so a move of two cell parameters on a
  /// board of 81 cells (6,561 instances) took minutes to encode, where its symbolic
  /// instance settles the same bound in seconds.
  static constexpr size_t kMaxInstances = 1000;
  /// An invariant's step splits only moves of few instances at first (a count over the
  /// board is one term per instance and cell).
  static constexpr size_t kFewInstances = 100;
  /// With symbolic_moves_: split the moves of up to kMaxInstances instances all the same
  /// (an invariant's step asked again when its symbolic instance was unknown).
  bool split_steps_ = false;
  /// Moves of more parameter tuples than this are one symbolic instance (kMaxInstances;
  /// more for a bound's monotonicity, whose instances are small: no board rule after).
  size_t split_limit_ = kMaxInstances;
  /// Whether a move's instances must leave every board rule holding (its legality); a
  /// superset of the moves without it, which a proof over all of them may range over.
  bool legal_after_ = true;
  /// Whether the states of a set satisfy the board rules (false: any state of the
  /// variables' types, a superset).
  bool rules_before_ = true;
  /// With split_steps_: split only the first this many parameters of a move (0: all).
  size_t split_params_ = 0;
  /// Whether an invariant's step over move `m` is one symbolic instance that split_steps_
  /// would split.
  bool step_could_split(int m) const;
  /// Moves of more parameter tuples than this are one symbolic instance (a rulebook's
  /// example asks for one board, where building a state after per tuple costs far more
  /// than the question).
  size_t max_instances_ = SIZE_MAX;
  /// Whether a move's statements that only err (write nothing read after it) are run: a
  /// rulebook's example leaves them out (a superset), since the interpreter reads every
  /// board it gives again.
  bool keep_erring_ = true;
  /// Per setup variable: the entry number (from 1) or value text it is bound to, or "".
  std::vector<std::string> bound_;
};

}  // namespace rulebook::verifier
