// The syntax tree of a .rules file, as parsed; every node carries its source span.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "dsl/source.h"

namespace rulebook::dsl {

struct Expr;
struct TypeExpr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using TypePtr = std::unique_ptr<TypeExpr>;
using StmtPtr = std::unique_ptr<Stmt>;

/// An identifier with its span.
struct Ident {
  std::string name;
  Span span;
};

// ---------------------------------------------------------------- types

enum class TypeKind {
  Bool,      // bool
  Int,       // int
  Range,     // lo .. hi
  Enum,      // { a, b, c }
  Record,    // { f: T, g: U }
  Named,     // Cell, Player, or a `type` name
  Optional,  // T?
  Set,       // set of T
  Seq,       // seq of T
  Map,       // K -> V
};

struct TypeExpr {
  TypeKind kind = TypeKind::Int;
  Span span;
  Ident name;                  ///< Named
  std::vector<Ident> members;  ///< Enum values; Record field names
  std::vector<TypePtr> elems;  ///< Record field types; Optional/Set/Seq: [T]; Map: [K, V]
  ExprPtr lo, hi;              ///< Range bounds
};

// ---------------------------------------------------------------- expressions

enum class ExprKind {
  Int,        // 42                     value
  String,     // "text"                 text
  Bool,       // true | false           value (0/1)
  None,       // none
  Name,       // ident                  ident
  Call,       // callee(args)           args[0] = callee, args[1..] = arguments
  Index,      // base[i]                args = [base, i]
  Field,      // base.field             args = [base], ident = field
  Unary,      // -a | not a             op, args = [a]
  Binary,     // a op b                 op, args = [a, b]
  If,         // if c then a else b     args = [c, a, b]
  Quant,      // all|some|no binders: body        quant, binders, where, args = [body]
  Aggregate,  // count binders | sum/max/min binders: body   agg, binders, where, args = [] or [body]
  SetLit,     // { a, b }               args
  SetFilter,  // { x in S | cond }      binders (one), args = [cond]
  RecordLit,  // { f: a, g: b }         fields, args (same order)
  SeqLit,     // [a, b]                 args
  Grid,       // grid { "..." } with { k = v }   grid
  Comprehension,  // [e for x in D, y in E where c] | {e for ...}   value (1: set), binders, where, args = [e]
};

enum class Op {
  Or, And, Not,
  Eq, Ne, Lt, Le, Gt, Ge, In, NotIn,
  Range,           // a .. b
  Add, Sub, Mul, Div, Mod, Inter,
  Neg,
};

enum class Quantifier { All, Some, No };
enum class AggregateKind { Count, Sum, Max, Min };

/// `x in S` inside a quantifier, aggregate, `for` or set filter.
struct Binding {
  Ident var;
  ExprPtr domain;
};

/// A key of a grid literal's `with { ... }` table: a letter (as IDENT, STRING or INT).
struct GridKey {
  std::string key;  ///< the character(s) the key stands for
  Span span;
  ExprPtr value;
};

struct GridLit {
  std::vector<std::string> rows;  ///< string contents, one per board row
  std::vector<Span> row_spans;
  std::vector<GridKey> keys;      ///< empty when there is no `with`
};

struct Expr {
  ExprKind kind = ExprKind::Int;
  Span span;
  int64_t value = 0;
  std::string text;                ///< String contents (unescaped)
  Ident ident;                     ///< Name; Field name
  Op op = Op::Add;
  Quantifier quant = Quantifier::All;
  AggregateKind agg = AggregateKind::Count;
  std::vector<ExprPtr> args;
  std::vector<Binding> binders;
  ExprPtr where;                   ///< optional filter of binders
  std::vector<Ident> fields;       ///< RecordLit field names
  GridLit grid;
};

// ---------------------------------------------------------------- statements

enum class StmtKind {
  Assign,     // target := value | += | -=
  If,         // if cond { then } else { otherwise }   (else-if: otherwise holds one If)
  For,        // for binders [where e] { body }
  Let,        // let name = value;
  Again,      // again;
  Eliminate,  // eliminate value;
  Goto,       // goto name;
  End,        // end;
  Call,       // name(args);            value: an Expr of kind Call (an action's call)
};

enum class AssignOp { Set, Add, Sub };

struct Stmt {
  StmtKind kind = StmtKind::Again;
  Span span;
  AssignOp assign = AssignOp::Set;
  ExprPtr target;                  ///< Assign: a Name/Index/Field chain
  ExprPtr value;                   ///< Assign, Let, Eliminate; If: condition
  Ident name;                      ///< Let, Goto
  std::vector<Binding> binders;    ///< For
  ExprPtr where;                   ///< For
  std::vector<StmtPtr> body;       ///< If (then), For
  std::vector<StmtPtr> otherwise;  ///< If (else)
  bool has_else = false;
};

using Block = std::vector<StmtPtr>;

// ---------------------------------------------------------------- declarations

struct Param {  // param name [: type] = value;
  Ident name;
  TypePtr type;  ///< may be null
  ExprPtr value;
};

struct Board {  // board rows x columns;
  ExprPtr rows, columns;
};

struct Regions {  // regions name = blocks r x c;  |  regions name = grid { ... };
  Ident name;
  ExprPtr block_rows, block_columns;  ///< blocks form
  ExprPtr grid;                       ///< grid form: an Expr of kind Grid
};

struct Players {  // players n [named { a, b }];
  ExprPtr count;
  std::vector<Ident> names;
};

struct Team {  // team name = { a, b };
  Ident name;
  std::vector<Ident> members;
};

struct TypeDecl {  // type name = T;
  Ident name;
  TypePtr type;
};

enum class SetupSource { Value, Random, Shuffle, File };

struct Setup {  // setup name: T = value | random n of S | shuffle S | file "path" [entry k];
  Ident name;
  TypePtr type;
  SetupSource source = SetupSource::Value;
  ExprPtr value;  ///< Value: the value; Random: the count; Shuffle: the collection
  ExprPtr from;   ///< Random: the set drawn from
  std::string path;
  Span path_span;
  ExprPtr entry;  ///< File: which entry (1-based), may be null
};

struct State {  // state name: T [= initial];
  Ident name;
  TypePtr type;
  ExprPtr initial;  ///< may be null (zero / none / false / empty)
};

struct Init {  // init { ... }
  Block body;
};

struct ParamDecl {  // name: T  (of a define or a move)
  Ident name;
  TypePtr type;
};

struct Define {  // define name[(params)] [: T] = body;
  Ident name;
  bool has_params = false;  ///< `define f() = ...` vs `define f = ...`
  std::vector<ParamDecl> params;
  TypePtr type;  ///< may be null
  ExprPtr body;
};

struct MoveRef {  // move[(a, b)] after `on`
  Ident move;
  bool has_args = false;
  std::vector<Ident> args;
};

struct Action {  // action name(params) { block }
  Ident name;
  std::vector<ParamDecl> params;
  Block body;
};

struct Rule {  // rule name ["text"] [on m(a), n(b)]: cond;
  Ident name;
  std::string description;
  std::vector<MoveRef> on;  ///< empty: a board rule
  ExprPtr condition;
};

struct Move {  // move name[(params)] [in phase] requires e; ... { block }
  Ident name;
  Span span;
  bool is_override = false;
  /// Top level in a variant: `in PHASE` names the one phase the move is added to or
  /// overridden in; empty: an `override move` of every phase that has it.
  Ident phase;
  std::vector<ParamDecl> params;
  std::vector<ExprPtr> requires_;
  Block body;
};

struct Transition {  // until cond -> phase | end;
  Span span;
  ExprPtr condition;
  Ident target;  ///< name "end" with is_end set ends the game
  bool is_end = false;
};

struct Phase {  // phase name { move ... when stuck { } until ... }
  Ident name;
  std::vector<Move> moves;
  bool has_stuck = false;
  Span stuck_span;
  Block stuck;
  std::vector<Transition> transitions;
};

struct Score {  // score [team] var = value;
  bool per_team = false;
  Ident var;  ///< the player (or team) the expression is about
  ExprPtr value;
};

struct Winner {  // winner highest|lowest [team];
  bool highest = true;
  bool per_team = false;
};

struct EndWhen {  // end when cond;
  ExprPtr condition;
};

/// Criterion: a prove whose refutation is a finding, not a failure (a puzzle criterion
/// met or not met).
enum class PropertyKind { Prove, Find, Derive, Lemma, Bound, Depends, Consistent, Redundant, Invariant, Puzzle, Criterion };
/// The keyword that declares a property of the kind.
inline const char* property_keyword(PropertyKind k) {
  static constexpr const char* kWords[] = {"prove",      "find",      "derive",    "lemma",  "bound",    "depends",
                                           "consistent", "redundant", "invariant", "puzzle", "criterion"};
  return kWords[static_cast<int>(k)];
}

struct PropertySet {  // boards | reachable | play [of phase] [where e] | moves [m, n] [where e]
  bool moves = false;
  /// `over reachable`: the boards where every board rule and every proved invariant holds
  bool reachable = false;
  /// `over play`: the states play reaches from the setup (searched by the explorer)
  bool play = false;
  Ident phase;               ///< boards of PHASE; empty name when absent
  std::vector<Ident> move_names;
  /// `with NAME = K, ...`: data-file setups fixed to entry K in this set
  std::vector<std::pair<Ident, ExprPtr>> setups;
  ExprPtr where;
  Span span;
};

/// `clue NAME [for x in S, ... [where w]]: cond;` of a puzzle: a family of conditions, one
/// instance per binding of its variables (the binders and `where` read setup data only).
struct Clue {
  Ident name;
  std::vector<Binding> binders;
  ExprPtr where;
  ExprPtr body;
  Span span;
};

struct Property {
  PropertyKind kind = PropertyKind::Prove;
  Ident name;
  std::string description;
  PropertySet over;        ///< Prove, Find, Derive, Lemma, Bound
  bool maximize = true;    ///< Bound
  ExprPtr expr;            ///< Prove, Find, Derive, Lemma, Bound
  Ident subject;           ///< Depends: the property; Redundant: the rule
  std::vector<Clue> clues; ///< Puzzle (its `solution` is `expr`)
  /// Puzzle: `up to board, NAME;`: solutions counted up to the maps of the board that keep
  /// the puzzle (`board`) and the declared symmetries named
  std::vector<Ident> up_to;
};

struct Metric {  // metric name ["text"] = value when cond; | ... at end;
  Ident name;
  std::string description;
  ExprPtr value;
  ExprPtr when;  ///< null: at end
};

struct Symmetry {  // symmetry name: swap a <-> b, c <-> d;
  Ident name;
  std::vector<std::pair<Ident, Ident>> swaps;
};

/// `allow dead-move discard "why";`: the designer acknowledges an alert of `rulebook lint`
/// (docs/lint.md); codes about the whole game take no subject.
struct Allow {
  Ident code;     ///< "dead-move": its words and hyphens joined; the span covers them
  Ident subject;  ///< a move, phase, rule, player, team or symmetry; empty for the game
  std::string reason;
};

enum class DeclKindWord {  // what `remove` names
  Param, Define, Rule, Phase, Move, Property, Metric, Team, State, Setup, Symmetry, Regions,
  Action,
};

struct Remove {  // remove kind name;  |  remove move name from phase;
  DeclKindWord what = DeclKindWord::Rule;
  Ident name;
  Ident phase;  ///< `remove move m from PHASE`; empty: the first phase that has m
};

using DeclBody = std::variant<Param, Board, Regions, Players, Team, TypeDecl, Setup, State, Init,
                              Define, Rule, Phase, Score, Winner, EndWhen, Property, Metric,
                              Symmetry, Remove, Move, Action, Allow>;

/// One top-level declaration. `Move` appears here only in a variant: `override move ...`
/// or `move m(...) in PHASE ...`.
struct Decl {
  Span span;
  bool is_override = false;
  DeclBody body;
};

/// A `// ...` comment. The formatter puts each one back before the first declaration,
/// phase item or statement that starts after it (or at the end of the line it trails).
struct Comment {
  Span span;
  std::string text;       ///< including the leading `//`, without the line break
  bool trailing = false;  ///< code stands before it on the same line
};

/// Where the source broke its lines: layout only, kept by the formatter and ignored by
/// `same_tree`.
struct SourceLines {
  std::vector<uint32_t> starts;       ///< offset of each line's first byte, ascending
  std::vector<uint32_t> after_blank;  ///< offset of each token or comment that follows a blank line
};

/// A parsed file: `game "title";` or `variant "title" extends "path";`, then declarations.
struct File {
  uint32_t source = 0;  ///< id in the SourceSet
  bool is_variant = false;
  std::string title;
  Span title_span;
  std::string extends;  ///< path as written, relative to this file
  Span extends_span;
  std::vector<Decl> decls;
  std::vector<Comment> comments;  ///< in source order
  SourceLines lines;
};

/// A deep copy of an expression, spans included.
ExprPtr clone(const Expr& e);

/// Structural equality ignoring spans: the pretty-printer round-trip test relies on it.
bool same_tree(const File& a, const File& b);

}  // namespace rulebook::dsl
