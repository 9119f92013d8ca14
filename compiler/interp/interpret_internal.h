// The interpreter's internals: run-time values, the geometry tables of a program and one
// evaluation context (state, mover, a stack of frames), shared by interpret*.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/runtime/engine.h"
#include "compiler/ir/ir.h"
#include "dsl/source.h"

namespace rulebook::compiler::interp {

/// A set as a bitset over its domain's indices; small sets (most boards) need no heap.
class Bits {
 public:
  Bits() = default;
  Bits(size_t n, uint64_t fill) { assign(n, fill); }
  Bits(const std::vector<uint64_t>& v) { *this = v; }
  Bits(const Bits& o) { *this = o; }
  Bits(Bits&& o) noexcept { *this = std::move(o); }
  Bits& operator=(const std::vector<uint64_t>& v) {
    reserve(v.size());
    n_ = uint32_t(v.size());
    std::copy(v.begin(), v.end(), data());
    return *this;
  }
  Bits& operator=(const Bits& o) {
    if (this == &o) return *this;
    reserve(o.n_);
    n_ = o.n_;
    std::copy(o.data(), o.data() + n_, data());
    return *this;
  }
  Bits& operator=(Bits&& o) noexcept {
    if (o.heap_) {
      heap_ = std::move(o.heap_);
      cap_ = o.cap_;
      n_ = o.n_;
      o.cap_ = kInline;
      o.n_ = 0;
      return *this;
    }
    return *this = static_cast<const Bits&>(o);
  }
  size_t size() const { return n_; }
  uint64_t* data() { return heap_ ? heap_.get() : in_; }
  const uint64_t* data() const { return heap_ ? heap_.get() : in_; }
  uint64_t& operator[](size_t i) { return data()[i]; }
  uint64_t operator[](size_t i) const { return data()[i]; }
  void assign(size_t n, uint64_t fill) {
    reserve(n);
    n_ = uint32_t(n);
    std::fill(data(), data() + n, fill);
  }
  void resize(size_t n, uint64_t fill) {
    reserve(n);
    if (n > n_) std::fill(data() + n_, data() + n, fill);
    n_ = uint32_t(n);
  }
  bool operator==(const Bits& o) const {
    return n_ == o.n_ && std::equal(data(), data() + n_, o.data());
  }

 private:
  static constexpr uint32_t kInline = 6;
  void reserve(size_t n) {
    if (n <= cap_) return;
    auto fresh = std::make_unique<uint64_t[]>(n);
    std::copy(data(), data() + n_, fresh.get());
    heap_ = std::move(fresh);
    cap_ = uint32_t(n);
  }
  uint32_t n_ = 0, cap_ = kInline;
  uint64_t in_[kInline];  // only the first n_ words are meaningful
  std::unique_ptr<uint64_t[]> heap_;
};

inline bool test(const Bits& b, int64_t i) { return (b[size_t(i) >> 6] >> (i & 63)) & 1; }
inline bool test(const std::vector<uint64_t>& b, int64_t i) { return (b[size_t(i) >> 6] >> (i & 63)) & 1; }
inline void set_bit(Bits& b, int64_t i) { b[size_t(i) >> 6] |= uint64_t(1) << (i & 63); }
inline size_t words(uint32_t n) { return (n + 63) / 64; }
int64_t count(const Bits& b);

/// A run-time value: a scalar, a set or a list, as the expression's IR type says.
struct Value {
  int64_t scalar = 0;
  Bits set;
  std::vector<Value> list;
  bool operator==(const Value& o) const {
    return scalar == o.scalar && set == o.set && list == o.list;
  }
};

/// A run-time error of the rules; caught at the Engine boundary and turned into a Status.
struct RuleError {
  std::string message;
};

/// What the interpreter precomputes once per program (read-only once built).
struct Machine {
  Machine(const ir::Program& program, const dsl::SourceSet& sources);

  const ir::Program& p;
  const dsl::SourceSet& sources;
  int width = 0, height = 0, cells = 0, points = 0;
  Bits all_cells, edge, corner_cells, inner_points, rim_points;
  std::vector<Bits> orth, diag, king, row, column, corners, around;
  std::vector<Value> rows, columns, lines;  ///< lists of sets
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
  bool again_ = false;
  std::vector<Value> stack_;
  size_t base_ = 0, top_ = 0;
  std::vector<std::vector<uint8_t>> scratch_;  ///< states for board-rule checks, by depth
  size_t depth_ = 0;
  int can_depth_ = 0;
};

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
