// The engine plan: what the generated engine precomputes or keeps beside the state,
// decided by named passes over the rules IR before any C++ is printed (passes.h lists
// them). Plain data, printable (print_plan), and each decision switchable.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/ir.h"

namespace rulebook::compiler::plan {

/// The passes switched off (`--no-pass NAME`); every other pass runs.
struct PassSwitches {
  std::set<std::string> off;
  bool on(std::string_view pass) const { return !off.count(std::string(pass)); }
  /// "" when every pass runs, else "planes,can-memo" (in the order the passes run): what
  /// a generated source and the engine cache's key say of the switches.
  std::string key() const;
};

/// The switchable passes, in the order they run.
const std::vector<std::string_view>& pass_names();

/// Adds `--no-pass` values to `out` ("all": every pass). Returns "" or what is wrong (an
/// unknown name, with the known ones).
std::string switch_off(const std::vector<std::string>& names, PassSwitches& out);

/// A variable kept also as one bitset of keys per value (see pass_planes.cpp).
struct PlannedPlane {
  int var = -1;
  int values = 0;      ///< the element domain's size
  int key_domain = -1;
};

/// A largest bitset per plane (kMaxPlaneValues values at most) keeps planes cheap to update.
inline constexpr int kMaxPlaneValues = 16;

/// scoped-defines: how a define is remembered while the board rules run, and the bounds of
/// the set-keyed kind: a set over at most kScopedSetValues values, the first kScopedSets
/// distinct sets of one evaluation (the lines or regions a rule walks).
inline constexpr char kScopedByIndex = 1;
inline constexpr char kScopedBySet = 2;
/// Two parameters, a scalar of at most 64 values and a set (`first_index(s, l)`): per set
/// argument (the first kScopedSets), a bit and a value per index of the scalar.
inline constexpr char kScopedByIndexAndSet = 3;
inline constexpr uint32_t kScopedSetValues = 256;
inline constexpr int kScopedSets = 32;

/// A board rule `all $a in D1 where W1: [all $b in D2 where W2:] B` whose verdict for a
/// tuple of keys depends on the state only through var[$a] (and var[$b]).
struct TabulatedRule {
  int rule = -1;
  int arity = 1;
  int slots[2] = {-1, -1};
  /// The tuple is fine unless every guard holds ($a in D1, W1, $b in D2, W2); then
  /// `body` (the rule's own) says.
  std::vector<ir::ExprPtr> guards;
  const ir::Expr* body = nullptr;
};

/// The board rules tabulated over one variable (none: no tables), and the others, checked
/// by their own code (see pass_rule_tables.cpp).
struct RuleTablePlan {
  int var = -1;
  int keys = -1, values = -1;  ///< the variable's key and element domains
  std::vector<TabulatedRule> rules;
  /// Board rules not tabulated, in program order: checked by their code when the tables say
  /// the tabulated ones hold.
  std::vector<int> rest;
  /// Every rule in `rest` comes after every tabulated rule: a tabulated rule that fails
  /// (without error) then decides, as no rule before it can fail or err first.
  bool rest_after = true;
  int memo_slot = -1;  ///< remembers the verdict of a state (-1: none free)
};

/// What a pass says it decided, printed under its name: one line per decision or refusal.
struct PassReport {
  std::string pass;
  bool on = true;
  std::vector<std::string> lines;
};

struct EnginePlan {
  PassSwitches switches;
  std::vector<PassReport> reports;  ///< in the order the passes ran

  // layout (always runs): facts the rest reads.
  bool board_rules = false;
  std::set<dsl::BuiltinId> geometry_used;
  std::map<std::string, int> list_caps;  ///< List capacity by element C++ type
  /// A list's capacity grew with every round of the layout (a local list joined to more
  /// elements inside a loop over lists of lists): the engine cannot be generated.
  bool list_caps_unbounded = false;

  // planes
  std::vector<PlannedPlane> planes;
  std::vector<int> plane_of_var;  ///< var -> index in planes, or -1

  // define-tables: per define, the entries of its table (0: computed at each call).
  std::vector<uint64_t> table_entries;

  // remembered-defines: per define its slot (-1: none); per variable the slots a store
  // into it forgets.
  std::vector<int> memo_slot;
  int memo_defines = 0;
  std::vector<uint64_t> forget_defines;

  // rule-tables: the board rules answered from tables, and the remembered-value slot of
  // their verdict (after the defines' slots; forgotten by stores into the variable).
  RuleTablePlan rule_tables;

  // scoped-defines: per define, remembered per argument while the board rules run: 0 not,
  // kScopedByIndex by the argument's index, kScopedBySet by a set argument's bits.
  std::vector<char> scoped;
  int scoped_count = 0;

  // can-direct: per move, can() tests its conditions each time (nothing remembered).
  std::vector<char> can_direct;

  // can-memo: per move the first bit remembering can(move, player) (-1: none); per
  // variable the bits a store into it forgets.
  std::vector<int> can_memo_base;
  std::vector<uint64_t> forget_cans;

  // shared-known: the can bits above are in the defines' word (known_), after their slots.
  bool shared_known = false;

  // board-maps: conditions through maps the rules compute become masks (emit_mask_maps).
  bool board_maps = false;

  // inline-blocks: per move, its block is compiled into the move's play (not called).
  std::vector<char> inline_block;
};

/// Runs the passes in order over `program`; each reads the plan so far.
EnginePlan make_plan(const ir::Program& program, const PassSwitches& switches = {});

/// The plan as text: a section per pass, what it decided and why, with the rules' names.
/// Deterministic: the same program and switches give the same bytes.
std::string print_plan(const EnginePlan& plan, const ir::Program& program);

/// The C++ type the generated engine gives a value of type `t` (List capacities from
/// `list_caps`).
std::string cpp_type_name(const ir::Program& program, const std::map<std::string, int>& list_caps,
                          const ir::Type& t);

}  // namespace rulebook::compiler::plan
