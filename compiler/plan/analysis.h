// Analyses of the rules IR that the plan's passes and the emitter share: walks, what an
// expression, a define or a move's legality reads, what a block stores, purity and cost.
#pragma once

#include <functional>
#include <map>
#include <set>

#include "compiler/ir/ir.h"

namespace rulebook::compiler::plan {

/// Walks every expression of an expression tree, parents first.
void walk(const ir::Expr& e, const std::function<void(const ir::Expr&)>& f);
void walk(const ir::Block& b, const std::function<void(const ir::Expr&)>& f);
/// Every expression and block the generated engine evaluates.
void walk_program(const ir::Program& p, const std::function<void(const ir::Expr&)>& f);
/// Adds to `vars` every variable a block can store, nested blocks included: those it
/// assigns, and the engine's own its statements set (out, phase, over).
void stores_of(const ir::Block& b, std::set<int>& vars);
/// `op` binds a local (quantifiers, aggregates, Filter): its `slot`.
bool is_binder(ir::Op op);
/// The program has board rules (rules tested after every move's block).
bool has_board_rules(const ir::Program& p);
/// `e` has no loop and no call: remembering its value would cost more than computing it.
bool constant_time(const ir::Expr& e);
/// `e` reads local `slot`.
bool uses_slot(const ir::Expr& e, int slot);
/// Domains whose values are their indices (all but ranges and optionals).
bool identity_domain(const ir::Program& p, int d);

/// What an expression, a define or a move's legality reads: variables, and whether the
/// mover (outside the moves `can` looks at, which bind their own).
struct Reads {
  std::set<int> vars;
  bool mover = false;
};

/// Purity and reads of a program's defines and moves, computed once each and kept.
class ProgramFacts {
 public:
  explicit ProgramFacts(const ir::Program& program);
  /// `e` reads no state and no mover: its value depends on its locals only.
  bool pure(const ir::Expr& e) const;
  bool function_pure(int function) const;
  /// `e` is cheap and can neither fail nor loop: it may be evaluated once where the rules
  /// would evaluate it per element, or not at all.
  bool safe(const ir::Expr& e) const;
  bool function_safe(int function) const;
  /// `e` can neither fail nor loop forever, however long it takes (binders over finite
  /// sets included): evaluating it where the rules might not changes no outcome.
  bool total(const ir::Expr& e) const;
  bool function_total(int function) const;
  void reads_of(const ir::Expr& e, Reads& out) const;
  /// A block's reads; a variable it stores counts as read too (what follows sees it).
  void reads_of(const ir::Block& b, Reads& out) const;
  const Reads& function_reads(int function) const;
  /// What deciding whether a move has a legal instance reads.
  const Reads& move_reads(int move) const;
  bool board_rules() const { return board_rules_; }

 private:
  Reads everything() const;

  const ir::Program& program_;
  bool board_rules_ = false;
  mutable std::map<int, bool> pure_functions_, safe_functions_, total_functions_;
  mutable std::map<int, Reads> function_reads_, move_reads_;
};

}  // namespace rulebook::compiler::plan
