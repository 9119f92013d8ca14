// The IR: a checked game lowered to finite domains, a fixed state layout, precomputed
// geometry and typed expressions. The interpreter, the C++ emitter and the Z3 encoder all
// read this, and only this; none of them looks at the AST again.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "dsl/builtins.h"
#include "dsl/source.h"

namespace rulebook::ir {

/// Every scalar at run time is an int64: bool 0/1, an int as itself, an enum member, cell,
/// point, player, team or phase as its index, a record as its index in its domain (mixed
/// radix over the field indices), `none` as kNone.
using Value = int64_t;
inline constexpr Value kNone = std::numeric_limits<int64_t>::min();

// ---------------------------------------------------------------- domains

/// A finite set of scalar values with a dense index 0..size-1. State stores indices;
/// expressions compute with values. `index(value)` and `value(index)` convert.
///   bool: 0 1 | lo..hi: v - lo | enum, cell, point, player, team, phase: v
///   record: v (its own index) | T?: none -> 0, v -> 1 + index_T(v)
struct Domain {
  enum class Kind { Bool, Range, Enum, Cell, Point, Player, Team, Phase, Record, Optional };
  Kind kind = Kind::Bool;
  std::string name;                  ///< as printed: "0..9", "Player?", "Card", "{light, dark}"
  uint32_t size = 0;
  int64_t lo = 0;                    ///< Range
  std::vector<std::string> members;  ///< Enum, Player, Team, Phase: names by index
  std::vector<int> fields;           ///< Record: field domains (ids), field 0 least significant
  std::vector<std::string> field_names;
  std::vector<uint32_t> strides;     ///< Record: index = sum(field_index[i] * strides[i])
  int inner = -1;                    ///< Optional: the domain of the non-none values
  int board_width = 0;               ///< Cell, Point: the board's columns (for texts)
};

/// The index of `v` in `d`, or -1 when `v` is outside the domain.
int64_t domain_index(const std::vector<Domain>& domains, int d, Value v);
/// The value at index `i` of `d` (0 <= i < size).
Value domain_value(const std::vector<Domain>& domains, int d, int64_t i);
/// The domain's text for value `v`: `3`, `none`, `light`, `r2c3`, `{number: 1, ...}`.
std::string value_text(const std::vector<Domain>& domains, int d, Value v);

// ---------------------------------------------------------------- types of expressions

/// Scalar: one Value (domain -1 for an int without a range).
/// Set: a set of scalars of domain `domain`, held as a bitset over the domain's indices.
/// List: a sequence of `elem` (a `seq`, a score tuple, or a set of sets such as `rows`).
struct Type {
  enum class Kind { Scalar, Set, List };
  Kind kind = Kind::Scalar;
  int domain = -1;
  std::shared_ptr<const Type> elem;  ///< List
};
using TypePtr = std::shared_ptr<const Type>;

// ---------------------------------------------------------------- state layout

/// One variable of the state: a `state`, a `setup`, or one the engine keeps itself.
/// A variable with keys is a flat array indexed row-major by the keys' indices; each
/// element stores the index of its value in `domain`, in `width` bytes (1, 2 or 4).
/// `set of T` is stored as `T -> bool`; `seq of T` of length n as `0..n-1 -> T`.
struct StateVar {
  enum class Origin { State, Setup, System };
  std::string name;
  Origin origin = Origin::State;
  std::vector<int> keys;  ///< key domains, outermost first (0 to 2 of them)
  int domain = -1;        ///< element domain
  bool is_set = false;    ///< a `set of T` stored as bools (keys = [T], domain = bool)
  bool is_seq = false;    ///< a `seq of T` (keys = [0..n-1])
  uint32_t count = 1;     ///< elements: product of the key sizes
  uint32_t width = 1;     ///< bytes per element
  uint32_t offset = 0;    ///< byte offset in the state
  dsl::Span span;
};

/// The engine's own variables, present in every game, at fixed indices of `Program::vars`.
enum SystemVar : int {
  kVarPhase = 0,  ///< current phase
  kVarMover = 1,  ///< player to move
  kVarOut = 2,    ///< Player -> bool: eliminated
  kVarOver = 3,   ///< bool: the game has ended
  kVarPasses = 4, ///< players stuck in a row (a stuck block that does nothing passes)
  kSystemVars = 5,
};

// ---------------------------------------------------------------- expressions

/// Expression operators. The printed form of each is shown; `a`, `b` are args[0], args[1].
enum class Op {
  Const,       // 42 | none | light                      value
  ConstSet,    // {r0c1, r0c2}                           bits (over the set's domain)
  ConstList,   // [..]                                   args are constants (rows, box, ...)
  Local,       // $3:name                                slot
  Read,        // owner[a]                               var; args = keys
  Mover,       // mover
  Phase,       // phase
  Neg, Not,    // -a | not a
  Add, Sub, Mul, Div, Mod,                   // a + b ... (Div, Mod: floor; by 0 is an error)
  Eq, Ne, Lt, Le, Gt, Ge,                    // on scalars; Eq/Ne also on sets and lists
  And, Or,                                   // short-circuit
  If,          // if a then b else c
  In,          // a in b                                 b a Set or a List
  Union, Diff, Inter,                        // a + b, a - b, a & b on sets (or lists)
  SetLit,      // {a, b, c}                              a Set, or a List of sets
  RangeSet,    // a .. b                                 as a Set of ints (domain of the type)
  ListLit,     // [a, b]
  RecordLit,   // {number: a, yellow: b}                 args in field order
  Field,       // a.number                               field (index)
  At,          // a[b]                                   a List indexed by int
  All, Some, No,       // all $s in a where b: c         slot, args = [domain, where|null, body]
  Count,               // count $s in a where b          args = [domain, where|null]
  Sum, Max, Min,       // sum $s in a where b: c         max/min of nothing is an error
  Filter,              // {$s in a | b}                  args = [domain, cond]
  Builtin,     // orth(a), size(a), largest_group(a), ...     builtin; args
  Call,        // f(a, b)                                function (index); args
  Can,         // can(place, a)                          move (index); args = [player]
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  Op op = Op::Const;
  TypePtr type;
  Value value = 0;                 ///< Const
  std::vector<uint64_t> bits;      ///< ConstSet
  int slot = -1;                   ///< Local; binder of quantifiers/aggregates/Filter
  int var = -1;                    ///< Read
  int field = -1;                  ///< Field
  int function = -1;               ///< Call
  int move = -1;                   ///< Can
  dsl::BuiltinId builtin = dsl::BuiltinId::Size;
  std::vector<ExprPtr> args;
  dsl::Span span;
};

// ---------------------------------------------------------------- statements

enum class StmtOp {
  Assign,     // owner[k] := v | += | -=      var, args = keys, value
  If,         // if cond { body } else { otherwise }
  For,        // for $s in domain where cond { body }
  Let,        // let $s = value;
  Again,      // again;
  Eliminate,  // eliminate value;
  Goto,       // goto phase;
  End,        // end;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct Stmt {
  StmtOp op = StmtOp::Again;
  int var = -1;            ///< Assign
  int assign = 0;          ///< Assign: 0 :=, 1 +=, -1 -=
  std::vector<ExprPtr> keys;
  ExprPtr value;           ///< Assign, Let, Eliminate; If: condition; For: domain
  ExprPtr where;           ///< For (may be null)
  int slot = -1;           ///< For, Let
  int phase = -1;          ///< Goto
  Block body, otherwise;
  dsl::Span span;
};

// ---------------------------------------------------------------- program

/// A `define`: parameters are locals 0..params-1 of its own frame.
struct Function {
  std::string name;
  std::vector<TypePtr> params;
  std::vector<std::string> param_names;
  TypePtr result;
  ExprPtr body;
  int locals = 0;  ///< frame size
  dsl::Span span;
};

/// A named rule. A board rule is checked after every move; a move rule is lowered once per
/// move it names, into that move's `checks`.
struct Rule {
  std::string name;
  std::string description;
  bool board_rule = false;
  ExprPtr condition;  ///< board rules only
  int locals = 0;
  dsl::Span span;
};

/// A move rule as it applies to one move: its condition over the move's frame.
struct Check {
  int rule = -1;
  ExprPtr condition;
};

struct MoveParam {
  std::string name;
  int domain = -1;
};

/// A move of a phase. Parameters are locals 0..params-1 of the move's frame.
/// `requires` and `checks` are evaluated in the state before the move; `stage[i]` is the
/// number of parameters a condition needs (so a generator can test it as soon as the first
/// stage[i] parameters are chosen).
struct Move {
  std::string name;
  int phase = -1;
  std::vector<MoveParam> params;
  std::vector<ExprPtr> requires_;
  std::vector<int> requires_stage;
  std::vector<Check> checks;
  std::vector<int> checks_stage;
  Block body;
  int locals = 0;
  dsl::Span span;
};

struct Transition {
  ExprPtr condition;
  int target = -1;  ///< phase index; -1 ends the game
  dsl::Span span;
};

struct Phase {
  std::string name;
  std::vector<int> moves;  ///< indices into Program::moves, in declaration order
  bool has_stuck = false;
  Block stuck;
  int stuck_locals = 0;
  std::vector<Transition> transitions;
  int locals = 0;          ///< frame of the transition conditions
  dsl::Span span;
};

/// How a setup variable gets its value when a game is set up.
struct SetupVar {
  enum class Source { Value, Random, Shuffle, Entries };
  std::string name;
  int var = -1;
  Source source = Source::Value;
  ExprPtr value;            ///< Value: the value; Random: the count; Shuffle: the list
  ExprPtr from;             ///< Random: the set drawn from
  /// Entries: the data file's entries, each the element indices of the whole variable, and
  /// the entry used unless the setup names another (0-based).
  std::vector<std::vector<uint32_t>> entries;
  /// Entries of a list (not a grid): the values on each line of the file's first entry, the
  /// layout a generated entry is written in.
  std::vector<uint32_t> layout;
  int default_entry = 0;
  std::string path;
  int locals = 0;
  dsl::Span span;
};

/// Precomputed board geometry; cells are y * width + x, points py * (width + 1) + px.
struct Geometry {
  int width = 0, height = 0;
  struct RegionSet {
    std::string name;
    std::vector<std::vector<uint64_t>> regions;  ///< each a bitset of cells
    std::vector<int> region_of;                  ///< per cell; -1 when in none
  };
  std::vector<RegionSet> region_sets;
  std::vector<std::vector<int>> teams;  ///< members (player indices) per team
};

struct Score {
  bool per_team = false;
  bool highest = true;
  int width = 1;   ///< 1, or the length of a tuple score
  ExprPtr value;   ///< local 0 is the player (or team)
  int locals = 0;
};

/// What a property asks; kind_name gives the word the rules language writes for it.
/// Criterion: checked as a prove; refuted is a finding ("not met"), not a failure.
enum class PropertyKind { Prove, Find, Derive, Lemma, Bound, Depends, Consistent, Redundant, Invariant, Puzzle, Criterion };
/// Whether the property asks that its expression hold on its whole set (prove, lemma,
/// criterion).
inline bool proves(PropertyKind k) {
  return k == PropertyKind::Prove || k == PropertyKind::Lemma || k == PropertyKind::Criterion;
}
const char* kind_name(PropertyKind kind);

/// A puzzle's clue family: `binders` nested `all`s (slot, args = [domain, where|null, body])
/// around the condition of one instance; with no binders, `family` is that condition.
struct Clue {
  std::string name;
  int binders = 0;
  ExprPtr family;
  dsl::Span span;
};

struct Property {
  PropertyKind kind = PropertyKind::Prove;
  std::string name;
  std::string description;
  bool over_moves = false;
  /// `over reachable`: the proved invariants (declared and found) narrow the boards
  bool reachable = false;
  /// `over play`: the states play reaches from the setup, searched by the explorer; every
  /// engine evaluates its `where` and value (Engine::observe)
  bool over_play = false;
  std::vector<int> moves;  ///< over moves: which (every move when the rules name none)
  int phase = -1;          ///< over boards of PHASE
  ExprPtr where;           ///< may be null
  /// `with NAME = K`: setup values fixed in this set (name, entry number as text, as
  /// `--setup` takes them)
  std::vector<std::pair<std::string, std::string>> setup;
  ExprPtr expr;            ///< may be null (depends, consistent, redundant); a puzzle's solution
  std::vector<Clue> clues; ///< puzzle
  /// puzzle: `up to`: "board" and names of declared symmetries (Program::symmetries)
  std::vector<std::string> up_to;
  bool maximize = true;
  std::string subject;     ///< depends: property; redundant: rule
  int locals = 0;          ///< over moves: the move's parameters first
  /// Over moves: for moves[i], move_params[i][s] is the parameter of that move bound to
  /// local s (the first move's parameter positions; -1 when that move lacks it). `moves`
  /// is always filled in (every move when the rules name none).
  std::vector<std::vector<int>> move_params;
  dsl::Span span;
};

struct Metric {
  std::string name;
  std::string description;
  ExprPtr value;
  ExprPtr when;  ///< null: at the end
  int locals = 0;
  dsl::Span span;
};

/// `symmetry NAME: swap a <-> b, c <-> d;`: the designer's claim that exchanging the named
/// values (players, teams, enum members) and the contents of the named state variables
/// everywhere maps the game onto itself. Not trusted: the explorer checks it on the rules.
struct Symmetry {
  struct Swap {
    enum class Kind { Value, Var, Derived };
    Kind kind = Kind::Value;
    int domain = -1;             ///< Value: the domain of both values
    Value a = 0, b = 0;          ///< Value: their values
    int var_a = -1, var_b = -1;  ///< Var: the two variables (same layout)
    /// Derived: names of defines or params, exchanged as a consequence of the others
    std::string text;            ///< "p1 <-> p2", for messages
    dsl::Span span;
  };
  std::string name;
  std::vector<Swap> swaps;
  dsl::Span span;
};

/// `allow CODE SUBJECT "reason";`: an acknowledged designer alert (explorer/alerts.h).
struct Allow {
  std::string code, subject, reason;  ///< subject is empty for codes about the whole game
  dsl::Span span;
};

/// A whole lowered game.
struct Program {
  std::string title;
  std::string source_path;      ///< the loaded .rules file
  std::vector<std::string> files;  ///< the extends-chain, game first
  int players = 0;
  std::vector<std::string> player_names;
  Geometry geometry;
  std::vector<Domain> domains;  ///< the first ones are fixed: see the k*Domain constants
  std::vector<StateVar> vars;   ///< the first kSystemVars are the SystemVar ones
  uint32_t state_bytes = 0;
  std::vector<SetupVar> setups;
  /// Setup step 2, after the setup variables: the initial values of `state` declarations,
  /// in declaration order (assignments; a map's initial value is a `for` over its keys).
  Block initial;
  int initial_locals = 0;
  Block init;                   ///< setup step 3: the `init` blocks, in order
  int init_locals = 0;
  std::vector<Function> functions;
  std::vector<Rule> rules;
  std::vector<Move> moves;
  std::vector<Phase> phases;    ///< play starts in phases[0]
  ExprPtr end_when;             ///< may be null
  int end_locals = 0;
  Score score;
  std::vector<Property> properties;
  std::vector<Metric> metrics;
  std::vector<Symmetry> symmetries;
  std::vector<Allow> allows;
  int max_move_params = 0;
};

/// Element `i` (row-major over the keys) of `var` in a state: the index stored there.
uint32_t load_index(const uint8_t* state, const StateVar& var, uint32_t i);

/// A deep copy of an expression tree (every pass that duplicates IR uses this one).
ExprPtr clone_expr(const Expr& e);
/// Stores index `index` as element `i` of `var` (little-endian, `width` bytes).
void store_index(uint8_t* state, const StateVar& var, uint32_t i, uint32_t index);
/// `file:line:col` of the start of a span, as run-time errors name it.
std::string location(const dsl::SourceSet& sources, dsl::Span span);

/// Fixed domain ids every Program has.
enum FixedDomain : int {
  kBoolDomain = 0, kCellDomain = 1, kPointDomain = 2, kPlayerDomain = 3, kPhaseDomain = 4,
  kOrientationDomain = 5, kTeamDomain = 6, kFixedDomains = 7,
};

}  // namespace rulebook::ir
