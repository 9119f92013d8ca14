// The checker's internals, shared by its passes: check.cpp (declarations), check_board.cpp
// (board, players, regions), check_expr.cpp (expressions), check_stmt.cpp (statements),
// check_reuse.cpp (actions, comprehensions).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "dsl/check.h"

namespace rulebook::dsl {

/// When a value is known; an expression is as late as its latest name.
enum class Time { Constant = 0, Setup = 1, Play = 2 };

/// Where the checker is; decides what names and statements are allowed.
struct Context {
  Time latest = Time::Play;  ///< the latest value allowed here
  bool mover = true;         ///< `mover` (and `can(m)`) allowed
  bool play_statements = false;  ///< `again`, `eliminate`, `goto` allowed
  const char* what = "";     ///< "a param value", used in messages
};

inline Context constant_context(const char* what) { return {Time::Constant, false, false, what}; }
inline Context setup_context(const char* what) { return {Time::Setup, false, false, what}; }
inline Context play_context(bool statements, const char* what) {
  return {Time::Play, true, statements, what};
}

/// "3 players", "1 row".
/// "did you mean 'X'?" for the candidate closest to `name`, or "" (check_scope.cpp).
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

inline std::string plural(int64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// The span from the start of `a` to the end of `b` (both in one file).
inline Span join_spans(Span a, Span b) { return Span{a.file, a.begin, std::max(a.end, b.end)}; }

/// Evaluates an integer/bool expression whose names are already resolved in `game`;
/// `param` supplies param values (the checker computes them on demand).
std::optional<int64_t> evaluate(const Game& game, const Expr& e,
                                const std::function<std::optional<int64_t>(const Symbol&)>& param);

/// The warnings of a game checked without errors, about its loaded (last) file only;
/// those an `allow CODE SUBJECT` acknowledges are left out (check_warn.cpp).
void warn_game(const Game& game, Diagnostics& diags);

/// One run of the checker over one game. Internal: every member is open to the two
/// files that implement it.
class Checker {
 public:
  Checker(Game& game, const SourceSet& sources, Diagnostics& diags);
  void run();

  // ---------------------------------------------------------- declarations (check.cpp)
  void collect();
  void collect_types(const TypeExpr* t, const std::string& decl_name);
  Symbol* add_symbol(Symbol s);
  Symbol* declare_global(Symbol s);
  void setup_board();
  void setup_players();
  void setup_teams();
  void setup_regions(RegionInfo& info);
  void check_decl(const Decl& d);
  void check_phase(const PhaseInfo& phase);
  void check_move(const Move& move);
  void check_rule(const Rule& rule);
  void check_property(const Property& p);
  void check_puzzle(const Property& p);  // check_puzzle.cpp
  void check_symmetry(const Symmetry& s);
  void check_allow(const Allow& a);  // check_allow.cpp
  void check_score(const Score& s);
  void check_setup(const Setup& s, const Symbol& sym);
  std::vector<const Move*> moves_named(const std::string& name) const;
  std::vector<std::string> move_names() const;
  std::vector<std::string> phase_names() const;

  // Lazily checked globals (params, defines, types, states and setups may be used before
  // their declaration; cycles are errors).
  void ensure_param(Symbol& s, Span use);
  void ensure_define(Symbol& s, Span use);
  TypeRef ensure_typedecl(const std::string& name, Span use);
  void ensure_typed(Symbol& s);  // state, setup

  // ---------------------------------------------------------- types and expressions (check_expr.cpp)
  TypeRef resolve_type(const TypeExpr& t);
  TypeRef check(const Expr& e, const TypeRef& expected = nullptr);
  /// check() and report "expected X, found Y" when the value does not fit.
  TypeRef expect(const Expr& e, const TypeRef& want);
  void expect_bool(const Expr& e) { expect(e, bool_type()); }
  void check_block(const Block& block);
  /// Checks a constant integer (board size, range bound, ...); reports when it is not.
  std::optional<int64_t> constant_int(const Expr& e, const char* what);
  std::optional<int64_t> eval(const Expr& e);
  /// Reports an integer operation on constants that overflows or divides by zero.
  void check_arith(const Expr& e);
  bool is_arith(const Expr& e) const;
  TypeRef check_name(const Expr& e);
  TypeRef check_call(const Expr& e);
  TypeRef check_builtin_call(const Expr& e, const Builtin& b);
  TypeRef check_binary(const Expr& e);
  TypeRef check_binders(const Expr& e);
  TypeRef check_grid(const Expr& e, const TypeRef& expected);
  /// Reports a grid whose rows and columns do not match the board.
  void check_grid_shape(const Expr& e);
  void bind(const std::vector<Binding>& binders, const ExprPtr& where);
  void check_stmt(const Stmt& s);
  void check_assign(const Stmt& s);

  // ---------------------------------------------------------- reuse (check_reuse.cpp)
  struct ActionInfo {
    int state = 0;              // 0 unchecked, 1 checking, 2 done
    bool mover = false;         // the body uses `mover`
    const Stmt* play = nullptr;  // the first again/eliminate/goto it runs, maybe in a call
  };
  void ensure_action(Symbol& s, Span use);
  void check_call_stmt(const Stmt& s);
  void note_play_statement(const Stmt& s);
  std::vector<std::string> action_names() const;
  TypeRef check_comprehension(const Expr& e, const TypeRef& expected);
  TypeRef numeric(const Expr& e);
  void note_use(const Symbol& s, Time t, bool mover, Span use);
  void unknown_name(const std::string& name, Span span);
  /// "unknown move 'x'" with "did you mean" and a note where a variant removed it.
  Diagnostic& unknown(const char* what, const std::string& name, Span span,
                      const std::vector<std::string>& candidates);

  // ---------------------------------------------------------- scopes
  const Symbol* lookup(const std::string& name) const;
  Symbol* declare_local(Symbol s);
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  std::vector<std::string> visible_names() const;

  /// Records `t` as the type of `e` (the first record wins: a rule checked once per
  /// `on` move keeps the types of its first check).
  TypeRef record(const Expr& e, TypeRef t);
  Diagnostic& error(Span span, std::string message);

  /// Checks an expression with diagnostics that repeat an earlier one dropped.
  void begin_quiet();
  void end_quiet();

  struct DefineInfo {
    int state = 0;  // 0 unchecked, 1 checking, 2 done
    Time time = Time::Constant;
    bool mover = false;
  };
  struct TypeInfo {
    const TypeDecl* decl = nullptr;
    int state = 0;
    TypeRef type;
  };

  Game& game_;
  const SourceSet& sources_;
  Diagnostics& main_diags_;
  Diagnostics* diags_;
  Diagnostics quiet_;
  Context ctx_;
  Time time_ = Time::Constant;  ///< latest value the current expression uses
  bool uses_mover_ = false;
  bool setup_used_ = false;  ///< a setup value (or a define of them) was read since reset
  std::vector<std::vector<Symbol*>> scopes_;
  std::unordered_map<const Symbol*, int> param_state_;  ///< 0/1 checking/2 done
  std::unordered_map<const Symbol*, DefineInfo> defines_;
  /// The value of each integer operation on constants checked so far (check_arith).
  std::unordered_map<const Expr*, int64_t> arith_values_;
  std::unordered_map<std::string, TypeInfo> typedecls_;
  std::unordered_map<const TypeExpr*, TypeRef> enum_of_;
  std::unordered_map<std::string, Symbol*> builtin_symbols_;
  std::unordered_map<std::string, std::vector<std::pair<const Phase*, const Move*>>> moves_;
  std::vector<Symbol*> move_symbols_;
  std::set<const Move*> checked_moves_;
  std::unordered_map<const Symbol*, ActionInfo> actions_;
  ActionInfo* current_action_ = nullptr;  ///< the action whose body is being checked
};

/// Saves and restores the checker's context and its use-tracking around a nested check.
class ContextScope {
 public:
  ContextScope(Checker& c, Context ctx)
      : c_(c), saved_(c.ctx_), time_(c.time_), mover_(c.uses_mover_) {
    c.ctx_ = ctx;
    c.time_ = Time::Constant;
    c.uses_mover_ = false;
  }
  ~ContextScope() {
    c_.ctx_ = saved_;
    c_.time_ = time_;
    c_.uses_mover_ = mover_;
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  Checker& c_;
  Context saved_;
  Time time_;
  bool mover_;
};

}  // namespace rulebook::dsl
