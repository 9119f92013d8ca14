// What one run of the emitter shares between its parts: the generated text's writer, the
// frame, the planning results and the constants found while printing; and the small
// types the parts pass each other.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/ir/ir.h"
#include "compiler/ir/run_errors.h"
#include "compiler/plan/analysis.h"
#include "compiler/plan/engine_plan.h"
#include "compiler/plan/pure_maps.h"

namespace rulebook::compiler::emit {

inline bool is_set(const ir::Type& t) { return t.kind == ir::Type::Kind::Set; }
inline bool is_list(const ir::Type& t) { return t.kind == ir::Type::Kind::List; }
inline bool is_scalar(const ir::Type& t) { return t.kind == ir::Type::Kind::Scalar; }

/// Accumulates generated text with the current indentation (two spaces per level).
class Writer {
 public:
  void line(std::string_view text);
  template <class... A>
  void linef(fmt::format_string<A...> f, A&&... args) {
    line(fmt::format(f, std::forward<A>(args)...));
  }
  /// A line ending a header ("if (x) {"), then one level deeper.
  void open(std::string_view text);
  /// One level up, then a closing line ("}" by default).
  void close(std::string_view text = "}");
  /// A line one level up that continues the block ("} else {").
  void reopen(std::string_view text);
  void blank();
  /// Text added as is (several lines, already indented).
  void raw(std::string_view text);
  std::string& text() { return out_; }
  int depth() const { return depth_; }

 private:
  std::string out_;
  int depth_ = 0;
};

/// The support code every generated file starts with: compiler/runtime/engine_support.h
/// between its marker lines, embedded by the build (cmake/embed_text.cmake).
std::string_view support_text();

/// A state variable kept also as bitsets, one per value ("planes"): plane[i] holds the
/// keys whose element has index i. Only one-key variables over a domain of at most
/// kMaxPlaneValues values get planes, and only when an expression can use them.
struct PlaneVar {
  int var = -1;
  int values = 0;      ///< the element domain's size
  int key_domain = -1;
  /// Planes kept: 1 + the highest index the code asks for when every index it asks for
  /// is a constant (a `v[x] == 0` test keeps one plane), else all `values`.
  int kept = 0;
};
using plan::kMaxPlaneValues;

/// The x whose derived set meets a plane, for every plane of a variable, kept in the
/// working state: a store adds to the union of the value's plane and drops the old one's.
struct PlaneUnion {
  std::string table;  ///< derived table (its inverse gives the x)
  int var = -1;
  int domain = -1;    ///< of the x
  std::string name;
  /// The planes whose union the code may read (bit per plane index): only these are kept.
  uint64_t read = 0;
  /// Some read passes an index that may be outside the planes (tested when read).
  bool checked = false;
  /// The planes kept in the Game: from the lowest read to the highest (`values`: of the
  /// variable's domain); the union of plane k is element k - first().
  int first(int values) const { return read == 0 || values > 64 ? 0 : __builtin_ctzll(read); }
  int kept(int values) const {
    if (read == 0 || values > 64) return std::max(values, 1);
    return std::min(64 - __builtin_clzll(read), values) - first(values);
  }
  /// The element of plane `k` (C++ text).
  std::string at(const std::string& k, int values) const {
    const int lo = first(values);
    return lo == 0 ? k : "(" + k + ") - " + std::to_string(lo);
  }
};

/// A condition of a move, as the generator tests it.
struct StagedCondition {
  const ir::Expr* expr;
  std::string label;  ///< "requires ..." or "rule name"
  dsl::Span span;
};

/// The one way user text enters generated C++: a string literal with every byte outside
/// printable ASCII, `"`, `\\` and `?` escaped.
std::string cpp_string(std::string_view s);
/// A user name as an identifier fragment (the naming scheme is in emit_names.cpp).
std::string escaped_name(std::string_view name);
/// Why a generated source is unsafe to compile (a raw control or non-ASCII byte, a line
/// ending in a backslash), or nothing.
std::optional<std::string> check_generated(std::string_view source);

// The shared analyses of the IR (compiler/plan/analysis.h), under their short names.
using plan::is_binder;
using plan::RuleTablePlan;
using plan::stores_of;
using plan::TabulatedRule;
using plan::walk;

class NameScheme;
class MaskBuilder;
class ExprEmitter;
class StmtEmitter;

/// The mutable state of one run, read and written by every part of the emitter.
struct EmitState {
  EmitState(const ir::Program& program, const dsl::SourceSet& sources,
            const plan::PassSwitches& switches)
      : program_(program), sources_(sources), ir_facts_(program),
        plan_(plan::make_plan(program, switches)) {}

  const ir::Program& program_;
  const dsl::SourceSet& sources_;
  Writer w_;

  // The frame of the function, move or block being emitted: slot -> C++ name.
  std::vector<std::string> slots_;
  // While a move's block is emitted: what its `requires` say of elements indexed by a
  // parameter, valid until the block stores into that variable or enters a loop.
  std::map<std::pair<int, int>, uint64_t> facts_;
  std::set<int> stored_;  ///< variables the block has stored into so far
  int loop_depth_ = 0;
  int fresh_counter_ = 0;
  int lambda_depth_ = 0;
  std::vector<std::pair<uint32_t, std::pair<uint32_t, int>>> binder_spans_;  ///< begin, file, ordinal

  // Planning results: the plan's passes, then what the emitter keeps of them (some
  // change while it prints: planes kept, can() bits released).
  plan::ProgramFacts ir_facts_;
  plan::EnginePlan plan_;
  /// The word of the Game holding which can() answers are remembered (shared-known).
  const char* can_word() const { return plan_.shared_known ? "known_" : "can_known_"; }
  std::vector<PlaneVar> planes_;           ///< variables with planes
  std::vector<PlaneUnion> plane_unions_;
  std::vector<int> plane_of_var_;          ///< var -> index in planes_, or -1
  std::set<dsl::BuiltinId> geometry_used_;
  bool has_board_rules_ = false;

  // Constants discovered while emitting, defined before the code that uses them.
  std::map<std::string, std::string> named_constants_;  ///< literal text -> name
  std::vector<std::string> constant_defs_;
  std::vector<std::string> errors_;
  std::vector<ir::ExprPtr> inlined_;              ///< bodies of inlined calls, unrolled binders
  std::unique_ptr<plan::PureMaps> pure_maps_;     ///< made when a mask first needs a map
  int unrolled_masks_ = 1;  ///< masks the unrolled binders around the current one make
  std::vector<std::string> derived_defs_;         ///< tables of pure expressions
  // Remembered values: a slot per parameterless define (-1: none), a first bit per move
  // for can(move, player) (-1: none), and per variable the bits a store forgets.
  std::vector<int> memo_slot_;
  int memo_defines_ = 0;
  /// Per function: remembered per argument while the board rules are evaluated (one
  /// parameter over a small domain, reads the state); the board rules store nothing, so
  /// each argument's value is computed once per evaluation (RuleScope in the source).
  std::vector<char> scoped_;
  int scoped_count_ = 0;
  std::vector<int> can_memo_base_;
  /// Per move: its one parameter's legal values are a mask of plane, union and table
  /// lookups after constant-time conditions (found while its generator is emitted), so
  /// can() tests it each time: cheaper than remembering the answer and forgetting it at
  /// every store. The bits planned to remember it are released (test_can_each_time).
  std::vector<char> can_by_mask_;
  std::vector<uint64_t> forget_defines_, forget_cans_;
  plan::RuleTablePlan rule_tables_;  ///< moved from the plan
};

/// The parts of one run that the others call (the Emitter owns them and calls them; none
/// calls it back).
struct EmitParts {
  NameScheme& names;
  MaskBuilder& masks;
  ExprEmitter& exprs;
  StmtEmitter& stmts;
};

/// What every part of the emitter reaches: the run's state, its program, source and
/// writer, and the other parts (a part calls another through its member: names_.fn_name).
class EmitPart {
 public:
  EmitPart(EmitState& state, const EmitParts& parts)
      : s_(state), program_(state.program_), sources_(state.sources_), w_(state.w_),
        names_(parts.names), masks_(parts.masks), exprs_(parts.exprs), stmts_(parts.stmts) {}

 protected:
  EmitState& s_;
  const ir::Program& program_;
  const dsl::SourceSet& sources_;
  Writer& w_;
  NameScheme& names_;
  MaskBuilder& masks_;
  ExprEmitter& exprs_;
  StmtEmitter& stmts_;
};

}  // namespace rulebook::compiler::emit
