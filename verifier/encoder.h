// IR expressions and statements as Z3 terms, grounded over the finite domains.
//
// Every state element is a one-hot "selector" over its domain. A value that depends on one
// selector only is kept as a Table (one concrete value per selector index), so geometry,
// counting and comparisons on it are computed concretely; values that mix selectors become
// Z3 terms (ints as linear sums of 0/1 indicators, bools, or Cases: a guard per value).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <z3++.h>

#include "compiler/ir/board_tables.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::verifier {

/// A construct the encoding cannot express exactly (reported, never approximated).
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The property's budget (time, or a stop) ran out before its questions were asked.
struct OutOfBudget : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Sym;
using SymP = std::shared_ptr<const Sym>;

/// A symbolic value. `err`, when set, is the condition under which evaluating it is a
/// run-time error of the rules (semantics.md: field of none, max of nothing, ...).
struct Sym {
  enum class K : uint8_t {
    Val,    ///< concrete scalar `v`
    Bits,   ///< concrete set `bits` over `domain`
    List,   ///< list of `items` (each any kind)
    Err,    ///< a concrete evaluation error (`msg`)
    Table,  ///< items[k]: the (concrete) value when selector `sel` is k; `err` is exactly
            ///< the guards of its Err items (with_err turns it into terms otherwise)
    Int,    ///< Z3 int `term`
    Bool,   ///< Z3 bool `term`
    Cases,  ///< finite scalar: `cases` (value, guard), guards exclusive and exhaustive
    Disj,   ///< bool: OR of items, each a bool Table of its own selector (regroupable)
    Set,    ///< symbolic set over `domain`: items[i] a bool value per domain index
  };
  K k = K::Val;
  int64_t v = 0;
  int sel = -1;
  int domain = -1;
  std::vector<uint64_t> bits;
  std::vector<SymP> items;
  std::optional<z3::expr> term;
  std::vector<std::pair<int64_t, z3::expr>> cases;
  std::optional<z3::expr> err;
  std::string msg;
  // Conversions computed once per value (values are immutable once built).
  mutable std::optional<z3::expr> bool_cache, int_cache;
  mutable SymP set_cache;
};

/// A one-hot choice: exactly one guard holds; `values[k]` is the domain value of index k.
struct Selector {
  std::vector<z3::expr> guard;
  std::vector<int64_t> values;
  int var = -1;           ///< a state element of the state before: var, element
  uint32_t element = 0;
  std::string name;
};

class Encoder {
 public:
  Encoder(const ir::Program& program, const dsl::SourceSet& sources, z3::context& ctx);

  z3::context& ctx() { return z3_; }
  const ir::Program& program() const { return p_; }

  // ------------------------------------------------ values and conversions
  SymP val(int64_t v);
  SymP boolean(const z3::expr& b);
  SymP integer(const z3::expr& i);
  static bool concrete(const Sym& s);
  z3::expr to_bool(const SymP& s);
  z3::expr to_int(const SymP& s);
  /// The error condition of a value (false when it never errs).
  z3::expr err_of(const SymP& s);
  /// Guards per value of a finite scalar, or nullopt for a Z3 int.
  std::optional<std::vector<std::pair<int64_t, z3::expr>>> to_cases(const SymP& s);

  // ------------------------------------------------ evaluation
  using Frame = std::vector<SymP>;
  SymP eval(const ir::Expr& e, Frame& f);
  /// Evaluates a condition as a Z3 bool and its error condition.
  std::pair<z3::expr, z3::expr> condition(const ir::Expr& e, Frame& f);

  // ------------------------------------------------ states
  /// Selects the state read by Read: -1 the state before (base selectors), else an overlay.
  struct Overlay {
    std::map<std::pair<int, uint32_t>, SymP> slots;
    z3::expr err;
    /// Stores so far: a call memoised under an overlay holds only while nothing it reads
    /// has been stored into it since (a move's body changes its overlay as it runs).
    uint64_t version = 0;
    std::map<int, uint64_t> var_versions;  ///< stores so far, per variable
  };
  int new_overlay();
  void use_overlay(int o) { overlay_ = o; }
  int overlay() const { return overlay_; }
  Overlay& overlay_at(int o) { return overlays_[size_t(o)]; }
  /// The selector of a base state element (created on first use).
  int base_selector(int var, uint32_t element);
  /// Fixes a base state element to a constant (a setup value bound by the caller): it is
  /// read as that value and gets no selector, so whatever reads it is computed concretely.
  void bind(int var, uint32_t element, int64_t value) { bound_[{var, element}] = value; }
  /// The selector of a base state element when one was made (-1: nothing read it).
  int base_selector_if_any(int var, uint32_t element) const {
    auto it = base_sels_.find({var, element});
    return it == base_sels_.end() ? -1 : it->second;
  }
  /// Tables of selector `s` whose entries are concrete sets or cells, as built so far
  /// (each content once, at most kGeometryTables): what a map of the board can be read
  /// through (verifier/symmetry.cpp).
  const std::vector<SymP>& geometry_tables(int s) const;
  static constexpr size_t kGeometryTables = 16;
  /// A fresh one-hot selector over domain `d` (for move parameters).
  int fresh_selector(int d, const std::string& name);
  const std::vector<Selector>& selectors() const { return sels_; }
  /// The selector whose guard is the constant with this Z3 AST id (-1: not a guard).
  int selector_of(unsigned ast_id) const {
    auto it = guard_ids_.find(ast_id);
    return it == guard_ids_.end() ? -1 : it->second;
  }
  /// The Table that is the identity on selector `s` (its value per index).
  SymP identity(int s);
  /// Facts every model must satisfy (one-hot constraints of the selectors made so far).
  const std::vector<z3::expr>& facts() const { return facts_; }
  /// The one-hot constraints as linear sums (for questions with arithmetic).
  const std::vector<z3::expr>& sum_facts() const { return sum_facts_; }
  /// Facts that only help the solver: "at most one of these disjunctions of one selector's
  /// guards holds" (implied by the one-hot constraints). Each is worth adding only to a
  /// question where two of its disjunctions occur (relevant_partitions).
  const std::vector<z3::expr>& partition_facts() const { return partition_facts_; }

  /// Executes a block on the current overlay (move bodies).
  void exec(const ir::Block& b, Frame& f, const z3::expr& path);
  /// Stores `value` into a state element of the current overlay (what the engine itself
  /// writes after a move: the next player to move).
  void store(int var, uint32_t element, const SymP& value) { store_slot(var, element, value, z3_.bool_val(true)); }
  /// When set, exec runs only these statements (slice_body: the others change nothing
  /// that is read afterwards and cannot err).
  const std::unordered_set<const ir::Stmt*>* slice = nullptr;
  /// Fixes selector `s` to index `k` (-1: free again): its tables read as that entry.
  void fix(int s, int k) { fixed_[size_t(s)] = k; }
  /// While a conjunction's later operands are evaluated, the bool tables among its earlier
  /// operands hold: a selector's indices where such a table is false are "don't care", and
  /// a table of that selector is turned into a Z3 term over the other indices only (see
  /// Care). Exact: the operand's value matters only where the earlier ones hold.
  class Care {
   public:
    explicit Care(Encoder& enc) : enc_(enc) {}
    ~Care();
    /// Restricts to the indices where `x` (a bool table, or anything else: no effect) holds.
    void add(const SymP& x);
    /// Lifts every restriction while it lives (to convert values built outside of them).
    struct Suspend {
      explicit Suspend(Encoder& enc);
      ~Suspend();
      Encoder& enc;
      std::vector<int> saved;
    };

   private:
    Encoder& enc_;
    std::vector<std::pair<int, int>> saved_;  ///< selector, previous care id
  };
  /// Whether move `m` has a legal instance for player `player` in the current state.
  SymP can(int m, const SymP& player);

  // ------------------------------------------------ regrouping of sums
  /// When on, a count over an OR of tables of different selectors is written as a sum of
  /// their indicators; each pair of them is recorded in `regroup_pairs` (exactness needs
  /// every recorded pair to be exclusive).
  bool regroup = false;
  std::vector<z3::expr> regroup_pairs;
  /// Set when a count over an OR of tables was converted (so regrouping can change it).
  bool counted_disj = false;

  // ------------------------------------------------ generalisation (verifier/generalise.cpp)
  /// When on, a table of a state element's selector (a value read from the state through
  /// one selector: a "state-reading atom") is converted to a fresh constant instead of a
  /// term over the selector's guards: a bool for a bool table, else an int. Equal tables
  /// (same selector, same entries) give the same constant. A formula proved valid for every
  /// value of its atoms holds for the values the state gives them (a generalisation); a
  /// model of it is not a state, so it never refutes anything.
  bool abstract = false;
  /// Whether `e` is an atom's constant.
  bool is_atom(const z3::expr& e) const { return atom_facts_.count(e.id()) > 0; }
  /// What every value of atom `e` satisfies (its table's values, when they are few; else
  /// true): true of the concrete values, so it may be assumed in a generalisation.
  z3::expr atom_fact(const z3::expr& e) const { return atom_facts_.at(e.id()); }
  /// Formulas over atoms alone proved valid (the generalised values of lemmas proved by
  /// generalisation), each with the ids of its atoms: true for every value of the atoms,
  /// so any generalisation may assume them.
  struct ValidFact {
    z3::expr e;
    std::vector<unsigned> atoms;  ///< sorted
  };
  std::vector<ValidFact> valid_facts;

  std::string where(dsl::Span span) const;
  /// `x op k` for a comparison op (Lt, Le, Gt, Ge) and a constant k. A max or min of
  /// values computed from the state is compared element by element: "the max is at least
  /// k" is "some element is at least k", a disjunction of linear (pseudo-boolean)
  /// constraints that the SAT-based solver takes, where the term of the max itself (a chain
  /// of if-then-else over comparisons of sums) needs arithmetic reasoning. Equivalent to
  /// comparing the term, also when no element is taken (the term is then 0).
  z3::expr compare_const(const z3::expr& x, ir::Op op, int64_t k);
  /// When `x` is a sum of c * ite(g, 1, 0) (and numerals) over guards of one selector: that
  /// selector and the value of `x` per index (under the selector's one-hot constraint).
  std::optional<std::pair<int, std::vector<int64_t>>> one_selector_sum(const z3::expr& x) const;
  /// Whether an unbounded integer term is a 64-bit value (outside: an overflow error).
  z3::expr fits_int64(const z3::expr& x);
  /// A sum whose running totals may leave 64 bits: each one is checked, in element order.
  SymP checked_sum(const std::vector<SymP>& conds, const std::vector<SymP>& bodies);

  /// Counts of components are lazy: a fresh one-hot number per count, zero exactly when
  /// the set is empty, and otherwise refined by cuts. For a model, sets each count to the
  /// true number of components of its set in the model and returns cuts (facts that hold
  /// in every state) excluding the model's wrong counts; empty when all were right. The
  /// cuts join the count facts of later questions. Euler's bound of a count is among them
  /// once, on its first claim of too few components: once for the encoding, or, with
  /// `euler_stated` (per count, grown as needed), once for the caller's own solver, whose
  /// cuts then do not depend on what was asked before (a difficulty proof's).
  std::vector<z3::expr> component_cuts(z3::model& m, std::vector<char>* euler_stated = nullptr);
  /// At most `cap` cells in each set whose components a count in `m` (null: any model)
  /// counts, and a count of at most 1 exactly when the set is connected (exact for so few
  /// cells: reachability in cap - 1 steps).
  z3::expr few_counted_cells(const z3::model* m, int cap);
  /// Facts of the counts of components (their one-hot constraints, the cuts known in
  /// advance and those learned): added only to questions that read a count.
  const std::vector<z3::expr>& count_facts() const { return count_facts_; }
  /// Whether `e` reads a count of components (one of their one-hot values).
  bool reads_counts(const z3::expr& e) const;
  int cells() const { return m_.cells; }
  const ir::BoardTables& board_tables() const { return m_; }
  /// Per count of components made so far: whether each cell is in its set.
  std::vector<std::vector<z3::expr>> counted_sets() const;
  /// Per counted set (counted_sets), the cell whose component it measures, or -1 (a count
  /// of every component, or the largest).
  std::vector<int> counted_cells() const;

  /// When on, size(S) read on an overlay (the state after a move) is the size on the state
  /// before plus the change at the elements whose membership differs (size_as_change),
  /// unless most memberships changed (the plain sum is then smaller).
  bool count_changes = true;
  /// When on (an invariant's or a ranking's step), every count on an overlay is read as a
  /// change, `count c in S where w` over a concrete S too, however many memberships
  /// changed: a loop of writes over the board then lowers a count by terms that are never
  /// negative, where two plain sums over the board would have to be compared cell by cell.
  bool all_counts_as_changes = false;

  /// The player `mover` denotes while evaluating `can(m, p)` (null: the state's mover).
  SymP mover_override;

 private:
  SymP resolve(const SymP& s);
  SymP err_sym(const std::string& msg);
  SymP with_err(SymP s, const z3::expr& err);
  SymP from_table(int sel, std::vector<SymP> entries, const ir::TypePtr& type);
  /// A table as terms over its selector's guards (the same value and error condition).
  SymP untable(const Sym& t);
  /// Combines values computed under exclusive, exhaustive guards.
  SymP merge(const std::vector<z3::expr>& guards, const std::vector<SymP>& values, const ir::TypePtr& type);
  /// Runs `fn` on each concrete value of `s` and merges (fixing Table selectors).
  template <class F> SymP split(const SymP& s, const ir::TypePtr& type, F&& fn);
  SymP lift2(ir::Op op, const SymP& a, const SymP& b, const ir::Expr& e);
  SymP concrete_binary(ir::Op op, const Sym& a, const Sym& b, const ir::Expr& e);
  SymP raw_binary(ir::Op op, const SymP& a, const SymP& b, const ir::Expr& e);
  SymP s_not(const SymP& a);
  SymP s_and(const SymP& a, const SymP& b);
  SymP s_or(const SymP& a, const SymP& b);
  SymP s_eq(const SymP& a, const SymP& b, const ir::Expr& e);
  SymP member(const SymP& x, const SymP& set, int set_domain);
  SymP set_elements(const SymP& s, int domain);
  SymP convert_set(const SymP& s, int from, int to);
  SymP aggregate(const ir::Expr& e, Frame& f);
  SymP aggregate_over(const ir::Expr& e, Frame& f, const SymP& dom);
  SymP aggregate_body(const ir::Expr& e, Frame& f, const SymP& dom);
  SymP quantify_one_selector(ir::Op op, const std::vector<SymP>& conds, const std::vector<SymP>& bodies);
  SymP builtin(const ir::Expr& e, Frame& f);
  SymP builtin_concrete(const ir::Expr& e, const std::vector<SymP>& args);
  SymP call(const ir::Expr& e, Frame& f);
  SymP read(const ir::Expr& e, Frame& f);
  SymP read_at(int var, const std::vector<int64_t>& keys);
  SymP read_slot(int var, uint32_t element);
  /// A lazy count of the components of a symbolic set (component_cuts): every component,
  /// or, with `by_size` (per size 0..cells), those of the sizes marked.
  SymP components_count(const SymP& set, std::vector<char> by_size = {});
  /// largest_group(S) of a symbolic set: a lazy one-hot number like a count, refined by
  /// cuts of its own (component_cuts).
  /// The size of the largest group of `set` (cell -1), or of the component of `set` that
  /// holds `cell` (0 when the cell is not in it): lazy as a count of components, with
  /// facts and cuts of its own.
  SymP group_size_lazy(const SymP& set, int cell = -1);
  /// `e[0]` (an aggregate's domain, or size's argument) is components(S), directly or as
  /// the body of a define without parameters: that components(...) expression, and in
  /// `via` the define (null when direct); null otherwise.
  const ir::Expr* components_of(const ir::Expr& e, const ir::Function** via) const;
  /// `m` cells of a connected group (cell indices), connected, the first reached from its
  /// first cell.
  std::vector<int> first_connected(const std::vector<int>& group, size_t m) const;
  /// `count g in components(S) where c`, `all`, `some` and `no` over the components of a
  /// symbolic set, where the condition and the body read g only as size(g) (and
  /// otherwise nothing from the state): a lazy count of the components of the sizes they
  /// accept.
  SymP components_aggregate(const ir::Expr& e, Frame& f, const SymP& set);
  /// The sum of a set's membership items (same-selector tables added pointwise).
  SymP sum_items(const std::vector<SymP>& items, const ir::Expr& e);
  SymP size_as_change(const ir::Expr& e, Frame& f);
  /// `count c in S where w` over a concrete S on an overlay, read as a change (nullptr
  /// when S is not the same concrete set before and after).
  SymP count_change(const ir::Expr& e, Frame& f, const SymP& dom);
  SymP count_as_change(const std::vector<SymP>& after, const std::vector<SymP>& base, const ir::Expr& e,
                       const z3::expr& err);
  // Atoms of a table of a state element's selector (see `abstract`): its truth (a bool,
  // the same for every table true at the same indices), its value as a number (a table of
  // at most two values reads its truth atom), and its cases.
  z3::expr truth_atom(const Sym& table);
  z3::expr int_atom(const Sym& table);
  std::optional<std::vector<std::pair<int64_t, z3::expr>>> atom_cases(const Sym& table);
  std::vector<int64_t> atom_values(const Sym& table);
  void assign(const ir::Stmt& s, Frame& f, const z3::expr& path);
  void store_slot(int var, uint32_t element, SymP value, const z3::expr& guard);
  ir::TypePtr scalar_type(int domain);

  const ir::Program& p_;
  const dsl::SourceSet& sources_;
  z3::context& z3_;
  const ir::BoardTables m_;  ///< the board's tables (concrete reads of a board)
  std::vector<Selector> sels_;
  std::vector<int> fixed_;  ///< per selector: its index while expanded, else -1
  /// Per selector: -1, or the id of the set of indices that matter (Care) in `cares_`.
  std::vector<int> care_;
  std::vector<std::vector<char>> cares_;
  std::map<std::vector<char>, int> care_ids_;
  /// Whether index k of selector `sel` matters under the current restrictions.
  bool cared(int sel, size_t k) const {
    const int c = care_[size_t(sel)];
    return c < 0 || cares_[size_t(c)][k] != 0;
  }
  std::vector<SymP> identities_;
  std::vector<std::vector<SymP>> geometry_;  ///< per selector: geometry_tables
  void note_geometry(const SymP& table);
  std::map<std::pair<int, uint32_t>, int> base_sels_;
  std::map<std::pair<int, uint32_t>, int64_t> bound_;  ///< elements fixed by bind()
  std::vector<Overlay> overlays_;
  int overlay_ = -1;
  std::vector<z3::expr> facts_, sum_facts_, partition_facts_;
  std::unordered_map<unsigned, int> guard_ids_;
  std::set<std::vector<int64_t>> partitions_;  ///< tables whose values were said exclusive
  struct KeyHash {
    size_t operator()(const std::vector<int64_t>& k) const {
      uint64_t h = 1469598103934665603ull;
      for (int64_t x : k) h = (h ^ uint64_t(x)) * 1099511628211ull;
      return size_t(h);
    }
  };
  /// Pure functions on concrete scalars and sets: function, then per argument a tag and value.
  std::unordered_map<std::vector<int64_t>, SymP, KeyHash> pure_memo_;
  /// Other calls: the call key, then the fixed selectors its evaluation examined.
  struct Memo {
    SymP value;
    std::vector<z3::expr> pairs;  ///< regroup_pairs recorded while computing it
    bool counted_disj;            ///< whether computing it set counted_disj
  };
  std::unordered_map<std::vector<int64_t>, Memo, KeyHash> memo_;
  std::vector<SymP> keep_;         ///< arguments named by address in memo keys
  /// Per call key (without the expansion context): the sets of selectors examined by
  /// its evaluations; a result depends on the context only through those.
  std::unordered_map<std::vector<int64_t>, std::vector<std::vector<int>>, KeyHash> memo_deps_;
  std::vector<int>* touched_ = nullptr;
  std::vector<int> pure_;          ///< per function: 1 when it reads no state, -1 unknown
  bool pure(int function);
  /// The state variables a function reads, through its calls (sorted), or null when it
  /// reads more than variables (can, out): its memo then keys on every store.
  const std::vector<int>* read_vars(int function);
  std::vector<std::optional<std::vector<int>>> read_vars_;
  std::vector<bool> read_vars_known_;
  std::map<std::vector<int64_t>, z3::expr> atoms_;         ///< selector, kind, entries -> atom
  std::unordered_map<unsigned, z3::expr> atom_facts_;      ///< atom id -> its fact
  std::vector<SymP> small_;
  /// Sums before a move named by a constant (size_as_change), by the sum's term id (the
  /// term is kept so that its id is not reused).
  std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> named_sums_;
  /// Max and min terms built from symbolic elements, by term id: the elements (taken
  /// when `conds[i]` holds) that compare_const reads instead of the term.
  struct Extremum {
    bool max;
    z3::expr term;  ///< keeps the id alive
    std::vector<z3::expr> conds, values;
  };
  std::unordered_map<unsigned, Extremum> extrema_;
  struct LazyCount {
    std::vector<z3::expr> is;  ///< per value 0..cells: whether the count is that value
    std::vector<z3::expr> in;  ///< per cell: whether it is in the set
    /// Per size 0..cells: whether a component of that size is counted (empty: all are).
    std::vector<char> by_size;
    /// Not a count: the size of the largest component (largest_group).
    bool largest = false;
    /// Not a count: the size of the component holding cell `at` (0 when the cell is not in
    /// the set; group_size_lazy), or -1.
    int at = -1;
    /// Whether Euler's bound of a count was stated (component_cuts).
    char euler = 0;
    bool counts(size_t size) const { return by_size.empty() || (size < by_size.size() && by_size[size]); }
    /// The smallest size counted (1 for every component).
    size_t smallest() const {
      size_t k = 1;
      while (k < by_size.size() && !by_size[k]) ++k;
      return k;
    }
    /// The smallest m from which every size is counted (1 for every component; past the
    /// largest size when the largest is not counted).
    size_t tail() const {
      size_t m = by_size.size();
      while (m > 1 && by_size[m - 1]) --m;
      return by_size.empty() ? 1 : m;
    }
  };
  /// The one-hot number over 0..cells of a lazy value of a set (its membership items
  /// `el`): fills `lc`'s cells and values and `any` (the cells that may be in the set),
  /// and returns its cases.
  SymP fresh_lazy(const SymP& el, const char* name, LazyCount& lc, z3::expr_vector& any);
  /// The count is at least cells - adjacent pairs + 2x2 blocks of its set (Euler's
  /// bound; component_cuts).
  z3::expr euler_bound(const LazyCount& lc) const;
  /// Whether every cell of the counted set `lc` is reached from its first cell (by index)
  /// in `steps` steps along neighbours in the set (true for an empty set).
  z3::expr reaches_all(const LazyCount& lc, int steps);
  std::vector<LazyCount> lazy_counts_;
  std::unordered_set<unsigned> count_ids_;  ///< ids of the counts' one-hot values
  std::vector<z3::expr> count_facts_;
  SymP true_, false_;
  int expand_depth_ = 0;
  int fresh_ = 0;
};

}  // namespace rulebook::verifier
