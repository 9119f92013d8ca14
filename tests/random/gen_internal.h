// The generator's model of the program it writes: types, names in scope, and what each
// place of a rules file may read (shared by program_gen.cpp and gen_expr.cpp).
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compiler/runtime/random.h"
#include "tests/random/program_gen.h"

namespace rulebook::testing::gen {

struct Ty;
using T = std::shared_ptr<const Ty>;

/// A type of the rules language, as far as the generator writes it.
struct Ty {
  enum K { Bool, Int, Range, Enum, Cell, Point, Player, Team, Phase, Orient, Record, Opt, Set, Seq };
  K k = Bool;
  int lo = 0, hi = 0;  ///< Range
  int id = -1;         ///< Enum, Record: index in Gen::enums_ / records_
  T inner;             ///< Opt, Set, Seq
};

T mk(Ty::K k);
T range(int lo, int hi);
T opt(T inner);
T set_of(T inner);
T seq_of(T inner);
bool same(const T& a, const T& b);
bool is_int(const T& t);

/// A global name: a param, setup, state or define.
struct Global {
  enum Kind { Param, Setup, State, Define };
  Kind kind = Param;
  std::string name;
  T type;
  std::vector<T> keys;  ///< map keys (state), or parameters (define)
  bool call = false;    ///< a define written with parentheses
  int level = 0;        ///< 0 constant, 1 setup, 2 state, 3 needs a mover
  int seq_len = 0;      ///< a state seq's length
};

struct EnumDecl {
  std::string name;
  std::vector<std::string> members;
};
struct RecordDecl {
  std::string name;
  std::vector<std::string> fields;
  std::vector<T> types;
};
struct MoveDecl {
  std::string name;
  int phase = 0;
  std::vector<std::string> params;
  std::vector<T> types;
};

struct Local {
  std::string name;
  T type;
};

/// What the place being written may use.
struct Ctx {
  int level = 3;          ///< highest Global::level readable
  bool mover = true;      ///< `mover` and one-argument can
  bool can = false;       ///< can(m, p) at all
  /// can() only of the moves whose name is first declared before moves_[can_below] (-1:
  /// any): a move block in a game with board rules, where can() cycles are errors.
  int can_below = -1;
  std::vector<Local> locals;
  int binders = 0;        ///< quantifier nesting so far
  bool no_filter = false; ///< writing a binder's domain (GenOptions::filter_in_binder_domain)
};

class Gen {
 public:
  Gen(uint64_t seed, const GenOptions& o) : rng_(seed), o_(o) {}
  GeneratedProgram run();
  /// A program small enough to enumerate (GenOptions::tiny_for_proofs, gen_tiny.cpp).
  GeneratedProgram run_tiny();
  /// A condition that holds on some states and not on others, mostly (gen_tiny.cpp).
  std::string satisfiable(Ctx& c, int depth);
  /// An int variable or local in scope (may be 0 in play), or "" when there is none.
  std::string variable_divisor(const Ctx& c);

  // ---- randomness
  uint64_t below(uint64_t n) { return n ? rng_.below(n) : 0; }
  bool chance(int percent) { return int(below(100)) < percent; }
  int between(int lo, int hi) { return lo + int(below(uint64_t(hi - lo + 1))); }
  template <class V> const V& pick(const std::vector<V>& v) { return v[below(v.size())]; }
  void use(const std::string& tag) { ++out_.constructs[tag]; }

  // ---- expressions (gen_expr.cpp)
  std::string expr(const T& t, Ctx& c, int depth);
  std::string int_expr(Ctx& c, int depth);
  std::string bool_expr(Ctx& c, int depth);
  std::string set_expr(const T& elem, Ctx& c, int depth);
  std::string stored(const T& t, Ctx& c, int depth);  ///< a value fit for a store of t
  std::string key(const T& t, Ctx& c, int depth);     ///< a map key of type t
  bool can_make(const T& t, const Ctx& c) const;
  std::string local_name(const Ctx& c);
  std::string binder(Ctx& c, int depth, std::vector<Local>& bound, bool allow_where, bool two_ok);

  // ---- statements (gen_expr.cpp)
  enum class Block { Init, Move, Stuck };
  /// Lets a move block's context ask can(): with board rules, deciding a move plays its
  /// block, so it may ask only of moves first declared before `move` (check rejects a
  /// legality that asks about itself).
  void allow_can_in_block(Ctx& c, const std::string& move) const;
  std::string block(Ctx& c, Block kind, int indent, int depth);
  std::string statement(Ctx& c, Block kind, int indent, int depth);

  // ---- the model
  bool shadowed(const Ctx& c, const std::string& name) const;
  std::vector<const Global*> readable(const Ctx& c, const T& t, bool keyed) const;
  std::string type_text(const T& t) const;
  std::string fresh(const std::string& hint = "");
  /// A board rule over one or two keys of a map of ints or bools, reading the map only at
  /// them, or "" when there is no such map.
  std::string keyed_rule();

  SplitMix64 rng_;
  GenOptions o_;
  GeneratedProgram out_;
  std::set<std::string> taken_;
  int width_ = 3, height_ = 3, players_ = 2;
  std::vector<std::string> player_names_, team_names_, phase_names_, region_names_;
  std::vector<std::vector<int>> team_members_;
  std::vector<EnumDecl> enums_;
  std::vector<RecordDecl> records_;
  std::vector<Global> globals_;
  std::vector<MoveDecl> moves_;
  bool board_rules_ = false;
  int seq_states_ = 0;
  T level_;  ///< the named range type `type Level = 0..n`
  std::string level_name_;
};

}  // namespace rulebook::testing::gen
