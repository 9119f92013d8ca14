// The emitter's parts: one run over one program, sharing an EmitState (emit_state.h).
// - NameScheme (emit_names.cpp): C++ names of slots, fields, functions, moves and rules,
//   literals, types, source places;
// - MaskBuilder (emit_plan.cpp, emit_mask.cpp, emit_mask_analysis.cpp, emit_mask_maps.cpp,
//   emit_rule_tables.cpp): reading the engine plan, planes, unions, masks and the tables of
//   pure expressions, filters and rules;
// - ExprEmitter (emit_expr.cpp, emit_binders.cpp, emit_builtin.cpp): expressions, binders,
//   built-ins and constants;
// - StmtEmitter (emit_stmt.cpp): statements, stores and the elements they reach;
// - Emitter (emit_cpp.cpp, emit_functions.cpp, emit_geometry.cpp, emit_engine.cpp,
//   emit_setup.cpp, emit_abi.cpp, emit_restore.cpp): the file's structure and the engine's
//   functions (moves, phases, setup, scores, the C ABI, undoing a move); it owns the others.
// The fixed support code is compiler/runtime/engine_support.h, embedded by the build.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/emit_state.h"

namespace rulebook::compiler::emit {

/// Names, literals and types of the generated C++, and where its text comes from.
class NameScheme : EmitPart {
 public:
  using EmitPart::EmitPart;

  /// The working state's member holding a variable (`g.s.<field>`).
  std::string sys(int var) const;
  std::string cpp_type(const ir::Type& t) const;
  std::string cpp_type(const ir::TypePtr& t) const { return cpp_type(*t); }
  std::string lambda(const std::string& type, const std::vector<std::string>& body);
  std::string paren(const std::string& s) const;
  /// `s` without parentheses around the whole of it.
  std::string bare(const std::string& s) const;
  void begin_frame(int locals);
  std::string slot_name(int slot) const;
  /// Binds a local to a C++ name: the binder's name in the source at `span` (the
  /// `ordinal`-th binder there) and its slot.
  std::string bind_slot(int slot, dsl::Span span, int ordinal);
  /// What a slot is bound to now ("" when nothing), and giving it back when a binder's
  /// scope ends: a binder's domain is lowered before the binder takes its slot, so a set
  /// filter there may bind the same slot in a scope of its own, inside the binder's.
  std::string slot_binding(int slot) const;
  void restore_slot(int slot, std::string name);
  std::string binder_name(dsl::Span span, int ordinal) const;
  /// The member of State holding a variable.
  std::string field_name(int var) const;
  /// A define's function, and the mapped name its other functions are named after.
  std::string fn_name(int function) const;
  std::string fn_base(int function) const;
  /// The mapped names of a move and of a rule, which the functions made of them add a
  /// prefix to (gen_, apply_, can_, clause_...).
  std::string move_name(int move) const;
  std::string rule_name(int rule) const;
  /// A parameter's or binder's C++ name in a function: its name and its slot.
  std::string local_name(const std::string& name, int slot) const;
  std::string param_type(const ir::Type& t) const;
  std::string value_literal(int domain, ir::Value v) const;
  std::string bits_literal(int domain, const std::vector<uint64_t>& bits) const;
  /// `file:line:col` of a span (file without folders), for messages, and as a C++ string
  /// literal.
  std::string where_text(dsl::Span span) const;
  std::string where(dsl::Span span) const;
  /// `line N` of a span: what a comment may say of where code comes from (comments carry
  /// no user text and no file name).
  std::string line_of(dsl::Span span) const;
  /// `s` as a C++ string literal (cpp_string).
  std::string quote(std::string_view s) const;
  std::string base_name_of_source() const;
  int words(int domain) const;
  const ir::Domain& dom(int d) const { return program_.domains[size_t(d)]; }
  bool is_bool(const ir::Type& t) const;
  /// Domains whose values are their indices (all but ranges and optionals).
  bool identity_domain(int d) const;
  std::string fresh(std::string_view stem);
};

/// Reads the engine plan, and finds the masks, planes, unions and tables that let the
/// generated code test a condition over a whole domain at once.
class MaskBuilder : EmitPart {
 public:
  using EmitPart::EmitPart;

  /// The move's conditions by the number of parameters they need.
  std::vector<std::vector<StagedCondition>> staged_conditions(int move) const;
  /// Reads the engine plan (EmitState::plan_) into the run's planes, memos and tables.
  void plan();
  /// A one-parameter move's generator, with these masks for its parameter, is cheap
  /// enough to run for every can() (see can_by_mask_).
  bool cheap_mask_search(int move, const std::vector<std::string>& masks) const;
  /// Marks can(move) as tested each time and releases the bits planned to remember it.
  void test_can_each_time(int move);
  /// `e` cannot fail, so a quantifier over it may visit its elements in any order.
  bool order_free(const ir::Expr& e) const;
  bool safe_shallow(const ir::Expr& e) const;
  /// `e` holds a `can` or a call (which may hold one).
  bool uses_can(const ir::Expr& e) const;
  /// The body of a call with the arguments in place of the parameters (its own binders
  /// renumbered), or null when an argument may not be copied. Kept in EmitState::inlined_.
  const ir::Expr* inline_call(const ir::Expr& call);
  /// The keys of a variable with planes that hold `value` (a Bits expression).
  std::string plane(int var, const ir::Expr& value);
  /// The index of the plane of `var` holding `value`; `checked` when it may be -1.
  /// `planes`, when given, receives the plane indices the index can take (bit per plane).
  std::string plane_index(int var, const ir::Expr& value, bool& checked,
                          uint64_t* planes = nullptr);
  /// Plane `index` (C++ text) of `var`, noting which planes the code needs.
  std::string plane_ref(int var, const std::string& index);
  /// All planes of `var` are needed (an index known only when the engine runs).
  void keep_all_planes(int var);
  /// The union, kept up to date per plane of `var`, of the inverse table of derived
  /// `table` over the plane's keys; returns the accessor's name.
  std::string plane_union(const std::string& table, int var, int domain, uint64_t read,
                          bool checked);
  std::string full_mask(int domain) const;
  /// {x in domain | e with local `slot` = x} as a Bits expression over `domain`, when it
  /// can be had from planes, sets and constants without evaluating `e` per element.
  std::optional<std::string> mask_of(const ir::Expr& e, int slot, int domain);
  /// mask_of by the form of `e` (planes, sets, constants)...
  std::optional<std::string> mask_form(const ir::Expr& e, int slot, int domain);
  /// ... or, for a safe `e` that reads no state, from a table over the other locals it
  /// reads (at most three, 4,096 combinations), made when the engine is loaded.
  std::optional<std::string> pure_mask(const ir::Expr& e, int slot, int domain);
  /// `e` says "no element of set S passes condition C": S, the mask of C over S's domain,
  /// and the expressions that make C.
  struct Disjoint {
    const ir::Expr* set = nullptr;
    int domain = -1;
    std::string mask;
    std::vector<const ir::Expr*> conditions;
  };
  std::optional<Disjoint> disjoint_form(const ir::Expr& e);
  /// `e` with calls replaced by their bodies, as far as inline_call allows.
  const ir::Expr& through_calls(const ir::Expr& e);
  std::optional<std::string> disjoint_mask(const ir::Expr& e, int slot, int domain);
  /// `f(x) in S` for a pure f of the binder x: S pulled back through f (emit_mask_maps.cpp).
  std::optional<std::string> mask_through_map(const ir::Expr& e, int slot, int domain);
  /// The values of `domain` that `m` sends into `set` (C++ text of a Bits over `target`).
  std::string pulled_back(const plan::PureMap& m, const std::string& set, int domain, int target);
  /// A pure, loop-free condition of the binder alone, evaluated for every value.
  std::optional<std::string> constant_mask(const ir::Expr& e, int slot, int domain);
  /// A binder over a constant set inside a condition, one mask per value, combined.
  std::optional<std::string> mask_unrolled(const ir::Expr& e, int slot, int domain);
  plan::PureMaps& pure_maps();
  /// A table of a pure set expression of local `slot` for every value of `domain`, with
  /// its inverse; returns the name of the function that builds it once.
  std::string derived_table(const ir::Expr& set, bool list_union, int slot, int domain,
                            int set_domain);
  int list_cap(const std::string& elem_type) const;
  /// A binder's `where` that reads no state and one local besides the binder: a table of
  /// the elements passing it for every value of that local (see quantifier()).
  struct FilterTable {
    std::string name;
    int key_slot = -1;
    int key_domain = -1;
  };
  std::optional<FilterTable> filter_table(const ir::Expr& binder);
  void rule_tables();
  /// The block of move `m` when it is one `var[p] := value` of the tabulated variable, p a
  /// parameter and the value pure; else null.
  const ir::Stmt* table_store(int m) const;
  bool tabulated() const { return !s_.rule_tables_.rules.empty(); }
};

/// The C++ text of expressions and binders, evaluated in the current frame.
class ExprEmitter : EmitPart {
 public:
  using EmitPart::EmitPart;

  /// C++ text of `e`, evaluated in the current frame.
  std::string expr(const ir::Expr& e);
  /// `e` where a value of type `want` is expected (an empty `{}` of another domain).
  std::string expr_as(const ir::Expr& e, const ir::Type& want, bool strict = false);
  /// `e` as a C++ condition.
  std::string cond(const ir::Expr& e);
  std::string expr_inner(const ir::Expr& e);
  std::string read(const ir::Expr& e);
  std::string compare(const ir::Expr& e);
  std::string in(const ir::Expr& e);
  std::string set_op(const ir::Expr& e);
  std::string set_literal(const ir::Expr& e);
  std::string range_set(const ir::Expr& e);
  std::string record_literal(const ir::Expr& e);
  std::string field(const ir::Expr& e);
  std::string at(const ir::Expr& e);
  std::string quantifier(const ir::Expr& e);
  /// Bit-parallel forms of a binder over planes; "" when none applies.
  std::string quantifier_fast(const ir::Expr& e);
  std::string builtin(const ir::Expr& e);
  std::string geometry_constant(const ir::Expr& e);
  /// The index of argument `x` of a built-in in domain `d`, failing at `x` when it is not a
  /// `what` (cell, point, player, team).
  std::string arg_index(int d, const ir::Expr& x, std::string_view what);
  std::string cell_arg(const ir::Expr& x) { return arg_index(ir::kCellDomain, x, "cell"); }
  std::string call(const ir::Expr& e);
  std::string constant_set(const ir::Expr& e);
  std::string constant_item(const ir::Expr& e);
  /// A constant list as a plain array (for indexing and iteration).
  std::string constant_table(const ir::Expr& e);
  /// A constant list as a List value.
  std::string constant_list(const ir::Expr& e);
  /// The index of value `v` in domain `d`, failing at `span` with `what` when outside:
  /// a message of run_errors with a hole (kHole1) where v's value goes.
  std::string checked_index(int d, const ir::Expr& v, dsl::Span span, const std::string& what);
  /// Whether a value of `e` may be none (its errors print kNone as `none`).
  bool holds_none(const ir::Expr& e) const;
  /// Lines of a loop over a set or list expression binding each element to `var`; the
  /// first line opens the loop, the others are indented by two. `index_name` receives the
  /// name of the element's index (sets only).
  void loop_lines(const ir::Expr& domain, const std::string& var, std::vector<std::string>& lines,
                  std::string* index_name);
};

/// The C++ lines of statements: blocks, assignments and stores with their planes and memos.
class StmtEmitter : EmitPart {
 public:
  using EmitPart::EmitPart;

  /// Stores index `index` as element `flat` of a variable (planes and memos kept).
  std::string sys_put(int var, const std::string& flat, const std::string& index) const;
  void block(const ir::Block& b);
  void stmt(const ir::Stmt& s);
  /// `old_planes`, `new_planes`: the indices the element before and the value stored
  /// can be, when known (~0: any); see put_* in emit_cpp.cpp.
  std::string store(int var, const std::string& flat, const std::string& value_index,
                    uint64_t old_planes = ~uint64_t(0), uint64_t new_planes = ~uint64_t(0));
  /// What a move's `requires` say of `var[param]` (a plane test of a parameter), as
  /// facts known when its block starts: (var, slot) -> the indices the element can be.
  void requires_facts(const ir::Expr& e, int params);
  /// The indices facts_ says `var[key]` can hold (one key: a parameter or the mover), or
  /// ~0 when it says nothing.
  uint64_t fact_of(int var, const std::vector<const ir::Expr*>& keys) const;
  /// The stored element of `var` at flat index `flat` (C++ lvalue text).
  std::string element(int var, const std::string& flat) const;
  /// The value of a stored element (its index converted through the var's domain).
  std::string element_value(int var, const std::string& elem) const;
  /// The flat element index of `var[keys]`, with the key checks its domains need.
  std::string element_index(int var, const std::vector<const ir::Expr*>& keys, dsl::Span span);
  void assign(const ir::Stmt& s);
  /// `var[keys] := value` for a set or a list filling the var's last key.
  void assign_whole(const ir::Stmt& s, const std::vector<const ir::Expr*>& keys);
};

/// Holds the run's state ahead of the parts that reference it (bases are made first).
struct EmitStateHolder {
  EmitState state_;
};

/// One run of the emitter over one program: the generated file's structure and the
/// engine's functions, printed with the other parts.
class Emitter : EmitStateHolder, EmitPart {
 public:
  Emitter(const ir::Program& program, const dsl::SourceSet& sources,
          const plan::PassSwitches& switches);
  EmittedCpp run();

  void header();
  void support();
  void domains();
  void state_layout();
  void stores();
  void geometry_tables();
  void declarations();
  void functions();
  void rules();
  void moves();
  void move_generator(int move);
  /// The conditions of one stage on parameter `param`: masks over its domain, and those
  /// tested per value.
  void split_stage(const std::vector<StagedCondition>& stage, int param, int domain,
                   std::vector<std::string>& masks, std::vector<const StagedCondition*>& rest);
  void move_apply(int move);
  void phases();
  void store_whole(int var, const ir::Expr& value, dsl::Span span);
  void setup_and_init();
  void scores();
  void abi_functions();
  void abi_footer(uint64_t hash, std::string& out);
  std::string move_signature(int move) const;
  uint32_t max_moves() const;
  std::string passes_value() const;
  /// Writes a sink's take_bits over its take() (emit_abi.cpp).
  void take_each_bit(bool always_inline);
  /// restore_<move>, restores(kind), dispatch_restore: undoing a move by copying back the
  /// elements, planes, unions and remembered values it can change (emit_restore.cpp).
  void restore_functions();

 private:
  static EmitParts parts_of(Emitter& e) {
    return {e.names_part_, e.masks_part_, e.exprs_part_, e.stmts_part_};
  }

  NameScheme names_part_;
  MaskBuilder masks_part_;
  ExprEmitter exprs_part_;
  StmtEmitter stmts_part_;
};

}  // namespace rulebook::compiler::emit
