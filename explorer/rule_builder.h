// Builds the RuleSig of a program: the parts of the rules that do not read the state
// evaluated by the interpreter, the rest as operations over parts (see RuleImage).
#pragma once

#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/ir/ir.h"
#include "explorer/rule_sig.h"

namespace rulebook::explorer::semantic {

using Kind = RuleSig::Kind;

constexpr size_t kBudget = 3'000'000;  // parts built, before giving up on the rules
constexpr uint32_t kUnroll = 4096;     // elements of one unrolled domain
constexpr uint64_t kMoveInstances = 20000;

enum Tag : int {
  kTagAnd = 1000, kTagOr, kTagUnrolled, kTagInstance, kTagBlock, kTagAssign, kTagIf, kTagFor,
  kTagAgain, kTagEliminate, kTagGoto, kTagEnd, kTagMove, kTagMoveUnrolled, kTagRule, kTagPhase,
  kTagProgram, kTagParts,
};

/// What a frame binds: per slot, the part standing for that local (null: not bound).
struct Env {
  std::vector<SigPtr> slots;
  int tag = 0;     ///< which frame (for Sym ids)
  int frame = 0;   ///< the frame's size in the evaluator
};

/// Builds the RuleSig of the rules of play for a set of candidate maps (at most 64; the
/// flags of a part say under which of them it does not commute). Defines are followed from
/// their calls, once per distinct call; a bound name stays open (a Sym) unless a use of it
/// does not commute with some candidate, and then it is unrolled over its known domain.
class Builder {
 public:
  Builder(const ir::Program& p, const dsl::SourceSet& src, const std::vector<Transform>& cands,
          std::vector<std::shared_ptr<ir::Type>>& types, SigStore& store)
      : p_(p), interp_(p, src), ev_(interp_), state_(p.state_bytes + 8, 0), cands_(cands), scalar_types_(types),
        store_(store) {
    for (size_t d = 0; d < p.domains.size(); ++d) {
      bool m = false;
      for (const Transform& t : cands) m = m || maps_domain(t, int(d));
      permuted_.push_back(m);
    }
    fn_reads_.assign(p.functions.size(), -1);
    for (size_t c = 0; c < cands.size() && c < 64; ++c)
      if (!cands[c].is_identity()) moving_ |= uint64_t{1} << c;
  }

  bool over() const { return over_; }
  /// Per move instance compared by what it does, its parameters as text (see move()).
  std::unordered_map<const RuleSig*, std::string>& instance_args() { return instance_args_; }

  SigPtr program();

 private:
  // ------------------------------------------------------------ what an expression reads

  bool fn_reads(int f);

  struct Info {
    bool reads = false;
    std::vector<int> free;  ///< locals it uses that it does not bind itself, sorted
  };

  const Info& info(const ir::Expr& e);
  bool reads(const ir::Expr* e) { return e && info(*e).reads; }

  static bool binds(ir::Op op);

  bool permuted(const ir::Type* t) const;

  static bool scalar_leaf(const SigPtr& s);
  /// Every local `e` uses holds a known scalar: the interpreter can compute it.
  bool closed(const ir::Expr& e, const Env& env);

  // ------------------------------------------------------------ parts

  SigPtr make(RuleSig&& s);

  SigPtr leaf(const ir::Type* type, Value v, bool error, dsl::Span span);

  SigPtr scalar_leaf_of(int domain, int64_t value);

  SigPtr sym(int id);

  SigPtr node(int tag, int64_t a, std::vector<SigPtr> kids, dsl::Span span, Kind kind = Kind::Node,
              std::vector<RuleSig::Flag> extra = {});

  static void add_flag(std::vector<RuleSig::Flag>& to, const RuleSig::Flag& f);
  static bool flagged(const SigPtr& s, int id);

  static int sym_id(int tag, int slot) { return tag * 65536 + slot; }
  int tag_of_context(int k) const { return int(p_.functions.size() + p_.moves.size()) + 3 + k; }
  Env fresh(int locals, int tag);

  SigPtr top(const ir::Expr& e, int locals, int tag);

  // ------------------------------------------------------------ known truths

  SigPtr truth(bool v) { return scalar_leaf_of(ir::kBoolDomain, v ? 1 : 0); }
  /// 1 or 0 for a known truth, -1 when not known.
  static int truth_of(const SigPtr& s);
  /// A known value outside the domain of the set it is looked up in (none in a set of
  /// cells): the membership is false whatever the state.
  bool outside(const SigPtr& v, const ir::Type* set) const;
  /// and/or of parts (or the instances of all/some): known parts decide or drop out, so
  /// what cannot hold in any state (a line running off the board) leaves no trace.
  SigPtr junction(bool conj, std::vector<SigPtr> kids, dsl::Span span);

  /// `k == (if c then a else b)` (either side) with k, a and b known values: known when k
  /// equals both or neither, else `c` or `not c` (negated for `!=`); null when not of that
  /// form. A condition such as `d == partner(c, mover)` of known cells is then a condition
  /// on the mover, so instances of a move compare by what they do.
  SigPtr fold_equal_if(const ir::Expr& e, const std::vector<SigPtr>& kids);

  // ------------------------------------------------------------ expressions

  SigPtr evaluate(const ir::Expr& e, const Env& env);

  SigPtr expr(const ir::Expr& e, Env& env);

  /// A define's body with its parameters bound to the arguments' parts (a define is a
  /// function of those, so each distinct call is built once).
  SigPtr call(const ir::Expr& e, Env& env);

  struct CallKey {
    int function;
    std::vector<SigPtr> args;
    bool operator<(const CallKey& o) const {
      if (function != o.function) return function < o.function;
      if (args.size() != o.args.size()) return args.size() < o.args.size();
      for (size_t i = 0; i < args.size(); ++i)
        if (int c = cmp(args[i], o.args[i])) return c < 0;
      return false;
    }
  };

  /// Operations that commute with every map of the board by their meaning (equality,
  /// membership, sets, records, reading a variable at mapped keys) need no test.
  static bool generic(ir::Op op);

  /// Flags for an operation that may not commute with the maps (a coordinate, a table, an
  /// order) applied to parts not yet known: tested point by point when one part is unknown.
  std::vector<RuleSig::Flag> equivariance(const ir::Expr& e, const Env& env, const std::vector<SigPtr>& kids);

  /// The candidates under which `e`, as a function of its argument `i` (the others known
  /// and mapped too), does not commute with the map: f(σa, σv) != σ f(a, v) for some v. A
  /// scalar argument is tried on its whole domain; a set of cells (a group, a
  /// neighbourhood) on every single element, the empty and the full set and a fixed
  /// sample of others.
  uint64_t pointwise(const ir::Expr& e, const Env& env, size_t i);

  /// The condition of an unrolled element that depends on an outer name only: which
  /// elements it selects is known once that name is, so that name is unrolled too.
  SigPtr open_condition(const SigPtr& c, const ir::Expr& where);

  /// The elements of a known domain value, as parts, or false when too many.
  bool elements(const SigPtr& dom, std::vector<SigPtr>& out);

  /// A quantifier, aggregate or filter: with its bound name left open, or, when a use of
  /// that name does not commute with some map, unrolled over its (known) domain.
  SigPtr quantifier(const ir::Expr& e, Env& env);

  // ------------------------------------------------------------ statements and moves

  /// `env` by value: a let binds to the block's end.
  SigPtr block(const ir::Block& blk, Env env);

  SigPtr for_loop(const ir::Stmt& s, Env& env);
  /// The iterations of `for` statement `s` commute: each stores at keys holding the loop's
  /// element, or stores or adds a value the same in every iteration at a place the same in
  /// every iteration that nothing in the loop reads; and reads what the loop stores at the
  /// element's keys only.
  bool iterations_commute(const ir::Stmt& s);

  SigPtr move_parts(const ir::Move& m, Env& env);

  /// A move with its parameters open, or, when a use of one does not commute with some
  /// map, as the set of its instances (parameters and what they make of the move).
  SigPtr move(int mi);
  /// A move instance (move_parts) one of whose `requires` is known false.
  static bool never_legal(const SigPtr& move_parts);

  const ir::Program& p_;
  compiler::Interpreter interp_;
  compiler::Evaluator ev_;
  std::vector<uint8_t> state_;
  const std::vector<Transform>& cands_;
  std::vector<bool> permuted_;
  std::vector<int8_t> fn_reads_;
  std::unordered_map<const ir::Expr*, Info> info_;
  std::map<std::pair<const ir::Expr*, size_t>, uint64_t> pointwise_;
  std::map<CallKey, SigPtr> calls_;
  std::vector<std::shared_ptr<ir::Type>>& scalar_types_;  ///< outlive the builder: leaves point at them
  SigStore& store_;
  std::unordered_map<const RuleSig*, std::string> instance_args_;
  uint64_t moving_ = 0;  ///< the candidates that move something (a flag never names the others)
  size_t built_ = 0;
  int depth_ = 0;
  bool over_ = false;
};

}  // namespace rulebook::explorer::semantic
