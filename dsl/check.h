// Name resolution and type checking of a merged game; the checked `Game` the compiler reads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dsl/ast.h"
#include "dsl/builtins.h"
#include "dsl/diagnostics.h"
#include "dsl/load.h"
#include "dsl/source.h"
#include "dsl/types.h"

namespace rulebook::dsl {

// Readings where docs/language.md is silent (backends must agree with them):
// - `x.f` and `x[k]` on a `T?` read the value: `if s == none then 0 else s.number`.
// - Any int fits any int; a range is checked where the value is a constant.
// - `rule r on a(x), b(x)` is checked once per move with that move's parameter types;
//   the side tables keep the types of the first.
// - `prove/find/bound ... over moves a, b`: parameters that all those moves share (same
//   name and type) are in scope; `over moves` alone means every move.
// - Enum members are global names; enums with the same member list are one type.
// - Declarations may be used before they appear (params, defines, types); cycles are errors.
// - Globals may not reuse a built-in name; locals (binders, lets, parameters) may shadow.
// - `mover` (and one-argument `can`) is defined in moves, rules, phases (`when stuck`,
//   `until`), defines, `end when`, properties and metrics; not in params, the board,
//   players, regions, types, setups, initial state values, `init` or `score`.
// - An action is checked once, at its declaration, with only its parameters and the
//   globals in scope; a call checks the arguments and that the body's `mover` and play
//   statements are allowed where it is called. Calls are inlined when lowering.
// - A comprehension ranges over constants and stands for the literal it lists.
// - A grid literal whose declared type is known takes that type: `.` is none in a map
//   to `T?` and 0 in a map to int; without one, `.` is 0 when all values are ints.

/// A name declared by the game, or bound inside a declaration, and what it stands for.
struct Symbol {
  std::string name;
  NameKind kind = NameKind::Builtin;
  TypeRef type;                      ///< Define: its result; Region: set of regions
  Span span;                         ///< where it is declared (empty for built-ins)
  const Decl* decl = nullptr;        ///< the top-level declaration that introduces it
  const Builtin* builtin = nullptr;  ///< Builtin
  const Move* move = nullptr;        ///< Move, MoveParam, RuleParam: the move
  const Phase* phase = nullptr;      ///< Phase; Move: the first phase holding it
  const Binding* binding = nullptr;  ///< Binder
  const Stmt* let = nullptr;         ///< Let
  /// Parameter position (DefineParam, MoveParam, RuleParam), enum ordinal, seat - 1
  /// (Player), index in Game::teams / regions / phases.
  int index = -1;
  /// Param: its value when it is a constant int, bool (0/1) or enum member (ordinal).
  std::optional<int64_t> value;
};

/// One file of the extends-chain, game first.
struct GameFile {
  std::string path;
  std::string title;
  std::string extends;  ///< as written in the file; empty for the game file
  bool is_variant = false;
};

struct TeamInfo {
  std::string name;
  const Team* team = nullptr;
  std::vector<int> members;  ///< seats, 0-based
};

/// A `regions` declaration with its regions worked out when the board size is constant.
struct RegionInfo {
  std::string name;
  const Regions* regions = nullptr;
  int count = 0;                    ///< number of regions (0 when not constant)
  std::vector<int> cell_region;     ///< region of each cell, row-major; -1: none
  std::vector<std::string> labels;  ///< grid form: the letter of each region
};

struct PhaseInfo {
  std::string name;
  const Phase* phase = nullptr;
  std::vector<const Move*> moves;  ///< after `override move` / `remove move`
};

/// A checked game. It owns the parsed files; everything else points into them.
struct Game {
  Game() = default;
  Game(Game&&) = default;
  Game& operator=(Game&&) = default;
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  std::string title;             ///< of the loaded (last) file
  std::vector<GameFile> files;   ///< the extends-chain, game file first
  LoadedGame loaded;             ///< the parsed files and the merged declarations
  std::vector<const Decl*> decls;  ///< merged, in order

  // The board and the players, where they are constant.
  const Board* board = nullptr;
  std::optional<int64_t> rows, columns;
  const Players* players = nullptr;
  std::vector<std::string> player_names;  ///< seat order; empty when the count is unknown
  std::vector<TeamInfo> teams;
  std::vector<RegionInfo> regions;

  // Declarations by kind, in order.
  std::vector<const Param*> params;
  std::vector<const TypeDecl*> types;
  std::vector<const Setup*> setups;
  std::vector<const State*> states;
  std::vector<const Init*> inits;
  std::vector<const Define*> defines;
  std::vector<const Rule*> rules;
  std::vector<PhaseInfo> phases;  ///< play starts in phases[0]
  const Score* score = nullptr;
  const Winner* winner = nullptr;
  const EndWhen* end_when = nullptr;
  std::vector<const Property*> properties;
  std::vector<const Metric*> metrics;
  std::vector<const Symmetry*> symmetries;
  std::vector<const Action*> actions;
  /// Each constant comprehension written out as the literal it stands for: backends
  /// read the literal (see Game::expansion).
  std::unordered_map<const Expr*, ExprPtr> expansions;
  /// Other copies the checker made and checked (the side tables point into them).
  std::vector<ExprPtr> checked_copies;
  std::vector<const Allow*> allows;  ///< acknowledged alerts of `rulebook lint`

  // Symbols and the side tables of the checker.
  std::vector<std::unique_ptr<Symbol>> symbols;  ///< owns every symbol, global and local
  std::map<std::string, const Symbol*, std::less<>> globals;  ///< names the game declares
  /// The type of every checked expression (see the readings above for rules on moves).
  std::unordered_map<const Expr*, TypeRef> expr_types;
  std::unordered_map<const Expr*, const Symbol*> referents;   ///< every resolved Name
  std::unordered_map<const TypeExpr*, TypeRef> type_exprs;    ///< every resolved type
  std::vector<TypeRef> enums;  ///< every enum type the game declares, in order

  /// The type of a checked expression; the error type when it was not checked.
  TypeRef type_of(const Expr& e) const;
  /// What a Name expression (or a callee) refers to; null when unresolved.
  const Symbol* referent(const Expr& e) const;
  /// A global name (param, state, player, ...), or null.
  const Symbol* global(std::string_view name) const;
  /// The value of a constant param, or nullopt.
  std::optional<int64_t> param_value(std::string_view name) const;
  /// Evaluates a checked integer or bool expression built from literals, constant params,
  /// width/height, arithmetic, comparisons, if and abs/min/max; nullopt otherwise.
  std::optional<int64_t> constant(const Expr& e) const;
  const PhaseInfo* phase(std::string_view name) const;
  /// The literal a checked comprehension stands for; null when it was rejected.
  const Expr* expansion(const Expr& e) const;
  /// The action a call statement calls; null when unresolved.
  const Action* called_action(const Stmt& s) const;
  /// Number of players (0 when not known).
  int64_t player_count() const { return static_cast<int64_t>(player_names.size()); }
};

/// Resolves names and checks types of a loaded game; errors go to `diags` (many per run).
/// Always returns a Game, complete as far as the errors allow.
Game check_game(LoadedGame loaded, const SourceSet& sources, Diagnostics& diags);

/// load_game followed by check_game.
Game check_file(const std::string& path, SourceSet& sources, Diagnostics& diags);

}  // namespace rulebook::dsl
