// The interpreter's internals: run-time values, what it precomputes of a program and one
// evaluation context (state, mover, a stack of frames), shared by interpret*.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/interp/coverage.h"
#include "compiler/interp/interpret.h"
#include "compiler/runtime/engine.h"
#include "compiler/ir/board_tables.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::compiler::interp {

using ir::Bits;
using ir::count;
using ir::set_bit;
using ir::test;
using ir::words;

/// A run-time error of the rules; caught at the Engine boundary and turned into a Status.
struct RuleError {
  std::string message;
};

/// What the interpreter precomputes once per program (read-only once built).
struct Machine : ir::BoardTables {
  Machine(const ir::Program& program, const dsl::SourceSet& sources);

  const ir::Program& p;
  const dsl::SourceSet& sources;
  std::vector<Value> rows, columns, lines;  ///< the board's lines as list values
  bool has_board_rules = false;
  /// Per move: the requires (index >= 0) and checks (~index) to test at each stage.
  std::vector<std::vector<std::vector<int>>> stages;
  int max_locals = 0;

  [[noreturn]] void fail(dsl::Span span, const std::string& message) const;
  uint32_t domain_size(int d) const { return d < 0 ? 0 : p.domains[size_t(d)].size; }
};

/// One evaluation: the state it reads and writes, the mover, and the frames of locals.
class Run {
 public:
  Run(const Machine& m, uint8_t* state);

  // ------------------------------------------------ expressions (interpret_expr.cpp)
  int64_t scalar(const ir::Expr& e);
  [[gnu::noinline]] int64_t compare(const ir::Expr& e);    ///< == and != of sets and lists
  [[gnu::noinline]] int64_t member(const ir::Expr& e);     ///< x in S
  [[gnu::noinline]] int64_t aggregate(const ir::Expr& e);  ///< quantifiers, count, sum, ...
  [[gnu::noinline]] int64_t scalar_rest(const ir::Expr& e);
  [[gnu::noinline]] int64_t arith(const ir::Expr& e);  ///< - + - * / % (checked)
  bool truth(const ir::Expr& e) { return scalar(e) != 0; }
  /// The set `e` denotes, over the domain of `e`'s type.
  void set(const ir::Expr& e, Bits& out);
  Value value(const ir::Expr& e);
  /// `e`'s set over domain `d` (converting between domains by value).
  void set_in(const ir::Expr& e, int d, Bits& out);
  void convert(const Bits& in, int from, int to, Bits& out, dsl::Span span, bool strict);
  /// Reserves the frame of `f` and stores the arguments of call `e` in it.
  size_t bind_args(const ir::Function& f, const ir::Expr& e);
  Value call(const ir::Expr& e);
  /// The value of `f`'s body in the frame at `frame` (its arguments stored there), which
  /// it then releases.
  Value call_bound(const ir::Function& f, size_t frame);
  /// A call whose arguments and result are scalars (most defines).
  int64_t call_scalar(const ir::Expr& e);
  int64_t builtin_scalar(const ir::Expr& e);
  void builtin_set(const ir::Expr& e, Bits& out);
  Value builtin_list(const ir::Expr& e);
  /// The list a List-typed expression denotes.
  std::vector<Value> list(const ir::Expr& e);
  /// Runs `each(value)` for the elements of a Set or List expression; stops when it
  /// returns false. Scalars are bound as values, sets and lists as Values.
  template <class F> void each(const ir::Expr& domain, int slot, F&& f);
  int64_t element(const ir::StateVar& v, const std::vector<ir::ExprPtr>& keys, size_t n,
                  dsl::Span span);
  Value read(const ir::StateVar& v, int64_t base, size_t key);

  // ------------------------------------------------ statements and play (interpret.cpp)
  void exec(const ir::Block& b);
  /// `none`: the value's type admits none (an error then prints kNone as `none`).
  void store(const ir::StateVar& v, int64_t element, int64_t value, dsl::Span span, bool none = false);
  void store_whole(const ir::StateVar& v, int64_t base, size_t key, const Value& value,
                   dsl::Span span, bool none = false);
  bool can(int move, int64_t player);
  /// Calls `emit(args)` for each legal instance of `move` for the current mover; stops
  /// when it returns false. Returns false when stopped.
  template <class F> bool instances(int move, F&& emit);
  bool board_rules_hold(const ir::Move& m);
  /// Whether one instance of `move` (arguments as values) is legal for the mover.
  bool legal_instance(int move, const int32_t* args);
  bool has_legal_move();
  void after_move();
  void stuck_loop();
  /// `v`, a value of `e`, as an error prints it (run_errors::value_text).
  std::string none_text(const ir::Expr& e, int64_t v) const;
  int64_t get(int var, int64_t i = 0) const;
  void put(int var, int64_t i, int64_t value);

  // Frames: locals live in one stack; a frame is a window [base_, base_ + size).
  Value& local(int slot) { return stack_[base_ + size_t(slot)]; }
  size_t push_frame(int locals);
  /// Reserves a callee's frame above the current one without entering it (so that its
  /// arguments can be evaluated in the caller's frame); returns its base.
  size_t reserve_frame(int locals);
  void pop_frame(size_t saved, int locals);

  const Machine& m_;
  const ir::Program& p_;
  uint8_t* state_;
  int64_t mover_ = 0;
  /// Evaluator::remember_defines: the values of defines of no parameter, by index, while
  /// the state and the mover stay as they are (`remembered_known_[f]` says which are held).
  bool remember_ = false;
  std::vector<Value> remembered_;
  std::vector<uint8_t> remembered_known_;
  void forget() { std::fill(remembered_known_.begin(), remembered_known_.end(), uint8_t{0}); }
  /// While it lives nothing is remembered (another state or mover is being read); restored
  /// however the scope is left, a failure of the rules included.
  struct NotRemembering {
    Run& r;
    bool was;
    explicit NotRemembering(Run& run) : r(run), was(run.remember_) { r.remember_ = false; }
    ~NotRemembering() { r.remember_ = was; }
  };
  bool again_ = false;
  std::vector<Value> stack_;
  size_t base_ = 0, top_ = 0;
  std::vector<std::vector<uint8_t>> scratch_;  ///< states for board-rule checks, by depth
  size_t depth_ = 0;
  int can_depth_ = 0;
  Coverage* cov_ = nullptr;  ///< counts what runs at the top level when set
};

/// For each move of the state's phase, counts the instances that exactly one condition
/// (a `requires`, a move rule, else a board rule) kept out, for that condition.
void count_blocked(Run& r, Coverage& cov);
/// Counts the alternatives of `end when` that hold (in the frame of `end when`).
void count_end_parts(Run& r, Coverage& cov);

// Binders iterate a set in ascending index order, or a list in its order.
template <class F>
void Run::each(const ir::Expr& domain, int slot, F&& f) {
  if (domain.type->kind == ir::Type::Kind::Set) {
    const int d = domain.type->domain;
    Bits tmp;
    const uint64_t* bits = domain.bits.data();
    size_t n = domain.bits.size();
    if (domain.op != ir::Op::ConstSet) {
      set(domain, tmp);
      bits = tmp.data();
      n = tmp.size();
    }
    const bool plain = d < 0 || (p_.domains[size_t(d)].kind != ir::Domain::Kind::Range &&
                                     p_.domains[size_t(d)].kind != ir::Domain::Kind::Optional);
    for (size_t w = 0; w < n; ++w) {
      for (uint64_t word = bits[w]; word; word &= word - 1) {
        int64_t i = int64_t(w * 64 + size_t(__builtin_ctzll(word)));
        local(slot).scalar = plain ? i : ir::domain_value(p_.domains, d, i);
        if (!f()) return;
      }
    }
    return;
  }
  std::vector<Value> items = list(domain);
  for (Value& item : items) {
    local(slot) = std::move(item);
    if (!f()) return;
  }
}

}  // namespace rulebook::compiler::interp
