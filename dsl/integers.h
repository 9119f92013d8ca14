// The integer arithmetic of the rules, defined once for every layer (docs/semantics.md,
// "Integers"): 64-bit signed, floor division and modulo, and overflow, division by zero
// and INT64_MIN / -1 are errors, never a wrapped value.
//
// Each operation stores its result in `out` and returns nullptr, or returns the error's
// text. The generated engines' support code (compiler/runtime/engine_support.h) spells the
// same texts; tests/runtime compares the two.
#pragma once

#include <cstdint>

namespace rulebook::integers {

inline constexpr const char* kAddOverflow = "integer overflow in '+'";
inline constexpr const char* kSubOverflow = "integer overflow in '-'";
inline constexpr const char* kMulOverflow = "integer overflow in '*'";
inline constexpr const char* kDivOverflow = "integer overflow in '/'";
inline constexpr const char* kNegOverflow = "integer overflow in unary '-'";
inline constexpr const char* kAbsOverflow = "integer overflow in 'abs'";
inline constexpr const char* kSumOverflow = "integer overflow in 'sum'";
inline constexpr const char* kDivByZero = "division by zero";
inline constexpr const char* kModByZero = "'%' by zero";

inline const char* add(int64_t a, int64_t b, int64_t& out) {
  return __builtin_add_overflow(a, b, &out) ? kAddOverflow : nullptr;
}
inline const char* sub(int64_t a, int64_t b, int64_t& out) {
  return __builtin_sub_overflow(a, b, &out) ? kSubOverflow : nullptr;
}
inline const char* mul(int64_t a, int64_t b, int64_t& out) {
  return __builtin_mul_overflow(a, b, &out) ? kMulOverflow : nullptr;
}
inline const char* neg(int64_t a, int64_t& out) {
  return __builtin_sub_overflow(int64_t(0), a, &out) ? kNegOverflow : nullptr;
}
inline const char* abs(int64_t a, int64_t& out) {
  if (a >= 0) {
    out = a;
    return nullptr;
  }
  return __builtin_sub_overflow(int64_t(0), a, &out) ? kAbsOverflow : nullptr;
}
/// One step of `sum`: the running total plus one more term.
inline const char* sum_step(int64_t acc, int64_t v, int64_t& out) {
  return __builtin_add_overflow(acc, v, &out) ? kSumOverflow : nullptr;
}

/// Floor division: the quotient rounded towards minus infinity. INT64_MIN / -1 (2^63)
/// does not fit.
inline const char* div(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return kDivByZero;
  if (b == -1) return neg(a, out) ? kDivOverflow : nullptr;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  out = q;
  return nullptr;
}

/// Floor modulo: a - b * floor(a / b), with the sign of b. Always fits: INT64_MIN % -1
/// is 0 (the hardware traps on it, so -1 is answered here).
inline const char* mod(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return kModByZero;
  if (b == -1) {
    out = 0;
    return nullptr;
  }
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  out = r;
  return nullptr;
}

}  // namespace rulebook::integers
