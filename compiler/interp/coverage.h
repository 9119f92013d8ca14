// Coverage of the rules: which statements, move conditions, end conditions and phase
// transitions of a program did something over the plays the interpreter ran, and how often.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/ir/ir.h"

namespace rulebook::compiler {

/// One place of the rules that coverage counts, with what a reader needs to find it.
struct CoverageSite {
  enum class Kind {
    Statement,     ///< a statement of a block: how often it ran (once per loop pass)
    Requires,      ///< a `requires`: how often it alone blocked an instance of its move
    Rule,          ///< a named move rule on one move: the same
    BoardRule,     ///< a board rule: how often it alone blocked an instance that every
                   ///< condition of the move allowed
    EndCondition,  ///< one alternative of `end when` (split at its top-level `or`s): how
                   ///< often it held when `end when` ended a game
    Transition,    ///< an `until` of a phase: how often it fired
  };
  Kind kind = Kind::Statement;
  std::string block;  ///< where it stands: "move jump", "when stuck in battle", "init", ...
  std::string what;   ///< a statement's kind ("store owner", "eliminate", "goto battle",
                      ///< "end", "if", ...), a rule's name, "requires", "until -> battle"
  int move = -1;      ///< Requires, Rule: the move
  dsl::Span span;
};

/// Why a game the interpreter ran ended.
enum class EndCause {
  EndWhen,        ///< the `end when` condition held after a move
  Transition,     ///< an `until COND -> end`
  EndStatement,   ///< an `end;` statement ran
  NobodyCanMove,  ///< every player left passed in turn (or a phase has no `when stuck`)
  AllOut,         ///< every player was out
};
inline constexpr size_t kEndCauses = 5;
const char* end_cause_text(EndCause cause);

/// The sites of a program and their counters. The program must outlive it; the
/// interpreter counts into it when handed one (Interpreter::setup_counted, apply_counted,
/// count_blocked) and costs nothing otherwise. Per-move counts are filled by the caller
/// that chooses the moves (it sees the legal lists).
class Coverage {
 public:
  explicit Coverage(const ir::Program& program);

  const ir::Program& program() const { return program_; }
  const std::vector<CoverageSite>& sites() const { return sites_; }

  std::vector<uint64_t> counts;  ///< per site
  std::array<uint64_t, kEndCauses> ended_by{};
  std::vector<uint64_t> legal_in;   ///< per move: decisions where it had a legal instance
  std::vector<uint64_t> instances;  ///< per move: its legal instances over those decisions
  std::vector<uint64_t> chosen;     ///< per move: times it was played
  std::vector<uint64_t> games_chosen;  ///< per move: games in which it was played
  uint64_t decisions = 0;           ///< states where a move was chosen
  uint64_t blocked_decisions = 0;   ///< decisions at which the blocking conditions were counted
  uint64_t blocked_work = 0;        ///< conditions and bodies evaluated to count them

  /// Adds another object's counts (of the same program).
  void add(const Coverage& other);

  // The interpreter's hooks.
  void ran(const ir::Stmt& s) {
    auto it = statement_site_.find(&s);
    if (it != statement_site_.end()) ++counts[size_t(it->second)];
  }
  void ended(EndCause cause) { ++ended_by[size_t(cause)]; }
  int requires_site(int move, int i) const { return requires_base_[size_t(move)] + i; }
  int check_site(int move, int i) const { return checks_base_[size_t(move)] + i; }
  int board_rule_site(int rule) const { return board_rule_site_[size_t(rule)]; }
  int transition_site(int phase, int i) const { return transition_base_[size_t(phase)] + i; }
  /// The alternatives of `end when`; end_parts()[i] is site end_base() + i.
  const std::vector<const ir::Expr*>& end_parts() const { return end_parts_; }
  int end_base() const { return end_base_; }

 private:
  void add_block(const ir::Block& block, const std::string& where);
  int add_site(CoverageSite site);

  const ir::Program& program_;
  std::vector<CoverageSite> sites_;
  std::unordered_map<const ir::Stmt*, int> statement_site_;
  std::vector<int> requires_base_, checks_base_, transition_base_, board_rule_site_;
  std::vector<const ir::Expr*> end_parts_;
  int end_base_ = 0;
};

}  // namespace rulebook::compiler
