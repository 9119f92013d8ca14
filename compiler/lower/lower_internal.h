// The lowering's internals, shared by lower.cpp (declarations), lower_types.cpp (domains,
// layout, data files), lower_expr.cpp (expressions) and lower_stmt.cpp (statements).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "compiler/ir/ir.h"
#include "dsl/check.h"

namespace rulebook::compiler {

/// One run of the lowering over one checked game.
class Lowering {
 public:
  Lowering(const dsl::Game& game, dsl::SourceSet& sources, dsl::Diagnostics& diags);
  std::optional<ir::Program> run();

  // ---------------------------------------------------------- declarations (lower.cpp)
  void lower_rules();
  void lower_move(const dsl::Move& m, ir::Move& mv);
  void lower_phases();
  void lower_setups();
  void lower_end_and_score();
  void lower_properties();
  void lower_symmetries();

  // ---------------------------------------------------------- domains and types (lower_types.cpp)
  void fixed_domains();
  /// The domain of a finite scalar type; -1 for an int without a range, a collection, none.
  int domain_of(const dsl::TypeRef& t);
  /// domain_of, reporting at `where` when the type has no finite domain.
  int require_domain(const dsl::TypeRef& t, dsl::Span where, const char* what);
  int range_domain(int64_t lo, int64_t hi);
  int optional_domain(int inner);
  int intern(ir::Domain d);
  /// The IR type of a value of `t` (sets of scalars need a finite element domain).
  ir::TypePtr ir_type(const dsl::TypeRef& t, dsl::Span where);
  static ir::TypePtr scalar_type(int domain);
  static ir::TypePtr set_type(int domain);
  /// `domain` when a set over it fits dsl::kMaxSetValues; otherwise reports it at `span`
  /// (once per place) and gives -1, the domain of an empty set.
  int set_domain(int domain, dsl::Span span, bool map_keys = false);
  static ir::TypePtr list_type(ir::TypePtr elem);
  void build_geometry();
  /// Adds the state variable for a `state` or `setup` of type `t`; `seq_length` is the
  /// length of a `seq` (-1: unknown).
  void add_var(const std::string& name, ir::StateVar::Origin origin, const dsl::TypeRef& t,
               int64_t seq_length, dsl::Span span);
  void layout();
  /// The constant length of a sequence expression, or -1.
  int64_t static_length(const dsl::Expr& e);
  /// Reads a `file "..." entry k` data file into `setup.entries`.
  void read_data_file(const dsl::Setup& decl, ir::SetupVar& setup);

  // ---------------------------------------------------------- expressions (lower_expr.cpp)
  /// Lowers `e`; `want` is the type the context expects (it decides the domain of set and
  /// record literals and of `{}`), or null to use the checker's type.
  ir::ExprPtr expr(const dsl::Expr& e, const dsl::TypeRef& want = nullptr);
  ir::ExprPtr name(const dsl::Expr& e, const dsl::TypeRef& want);
  ir::ExprPtr call(const dsl::Expr& e, const dsl::TypeRef& want);
  ir::ExprPtr builtin_call(const dsl::Expr& e, const dsl::Builtin& b);
  ir::ExprPtr index(const dsl::Expr& e);
  /// `base[keys...]` where base is a map or sequence value.
  ir::ExprPtr index_into(const dsl::Expr& base, const std::vector<const dsl::Expr*>& keys);
  ir::ExprPtr at(ir::ExprPtr list, const dsl::TypeRef& key_type, ir::ExprPtr key,
                 const ir::TypePtr& elem, dsl::Span span);
  ir::ExprPtr binary(const dsl::Expr& e, const dsl::TypeRef& want);
  ir::ExprPtr binders(const dsl::Expr& e);
  ir::ExprPtr binder_domain(const dsl::Binding& b);
  /// A puzzle's clue from binder `i` on: nested `all`s, then its condition.
  ir::ExprPtr clue_family(const dsl::Clue& c, size_t i);
  ir::ExprPtr set_literal(const dsl::Expr& e, const dsl::TypeRef& want);
  ir::ExprPtr record_literal(const dsl::Expr& e, const dsl::TypeRef& want);
  ir::ExprPtr grid(const dsl::Expr& e, const dsl::TypeRef& want);
  ir::ExprPtr region_set(int region, dsl::Span span);
  ir::ExprPtr region_of(int region, ir::ExprPtr cell, dsl::Span span);
  /// A set of every value of a finite scalar type, over `domain`.
  /// Every value of `domain` as a set, checked by set_domain (`map_keys`: the keys of a map,
  /// for its message), except for the keys of a state variable stored whole, which the
  /// variable's own limits bound.
  enum class SetOf { Values, MapKeys, StoredKeys };
  ir::ExprPtr full_set(int domain, dsl::Span span, SetOf what = SetOf::Values);
  /// The domain a binder iterating over `domain_expr` (lowered) takes its values from.
  dsl::TypeRef binder_type(const dsl::Expr& domain_expr);

  // ---------------------------------------------------------- statements (lower_stmt.cpp)
  ir::Block block(const dsl::Block& b);
  void stmt(const dsl::Stmt& s, ir::Block& out);
  void assign(const dsl::Stmt& s, ir::Block& out);
  void call_action(const dsl::Stmt& s, ir::Block& out);
  /// `var[keys] := value`, also for a whole map or sequence value (evaluated once, then
  /// stored by a `for` over the missing keys) or a whole set.
  void assign_whole(int var, std::vector<ir::ExprPtr> keys, ir::ExprPtr value, int op,
                    dsl::Span span, ir::Block& out);

  // ---------------------------------------------------------- helpers
  static ir::ExprPtr node(ir::Op op, ir::TypePtr type, dsl::Span span);
  /// A deep copy of `e` whose top node carries `span`.
  static ir::ExprPtr clone(const ir::Expr& e, dsl::Span span);
  ir::ExprPtr constant(ir::Value v, int domain, dsl::Span span);
  /// Folds an operator whose arguments are constants (floor division, as run time does).
  ir::ExprPtr fold(ir::ExprPtr e);
  /// The number of leading frame slots (parameters) an expression reads: max slot + 1.
  static int stage(const ir::Expr& e, int params);
  dsl::Diagnostic& error(dsl::Span span, std::string message);

  // Frames of locals: slots are taken and given back like a stack.
  struct Frame {
    int next = 0;
    int size = 0;
    std::unordered_map<const void*, int> slots;  ///< binders, lets, parameters by symbol
  };
  int take_slot(const void* key);
  void release_to(int next) { frame_->next = next; }
  int slot_of(const void* key, dsl::Span span);
  /// Starts a fresh frame with `params` leading slots; returns the previous one.
  Frame* begin_frame(Frame& f, int params);

  const dsl::Game& game_;
  dsl::SourceSet& sources_;
  dsl::Diagnostics& diags_;
  ir::Program prog_;
  Frame* frame_ = nullptr;
  int width_ = 0, height_ = 0;

  std::map<std::string, int> domain_ids_;  ///< interned by a structural key
  std::unordered_map<const dsl::Define*, int> functions_;
  std::unordered_map<const dsl::Move*, int> moves_;   ///< first IR move of a dsl move
  std::map<std::string, int> vars_;                   ///< state and setup variables by name
  std::map<std::string, dsl::TypeRef> var_types_;
  /// The domain of the values of the move, define or rule parameter in the slot, where the
  /// checker's types are those of another move (rules on several moves).
  std::vector<dsl::TypeRef> param_types_;
  /// While an action's call is inlined: the value of each of its parameters.
  std::unordered_map<const dsl::ParamDecl*, ir::ExprPtr> action_args_;
  static const dsl::ParamDecl* action_param(const dsl::Symbol& s) {
    const auto* a = s.decl ? std::get_if<dsl::Action>(&s.decl->body) : nullptr;
    return a && s.index >= 0 && size_t(s.index) < a->params.size() ? &a->params[size_t(s.index)]
                                                                   : nullptr;
  }
  /// While a move rule is lowered for one move: the names in its `on` clause by position.
  std::map<std::string, int> rule_args_;
  /// Places where a set over too many values was reported (file, begin, end).
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> big_sets_;
};

/// The hint of a range too large for a set.
inline constexpr const char* kRangeTooLargeHint =
    "narrow the range; to test a value against bounds, compare it: lo <= x and x <= hi";

/// Floor division and modulo, as every engine computes them (b != 0).
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t floor_mod(int64_t a, int64_t b) { return a - b * floor_div(a, b); }

}  // namespace rulebook::compiler
