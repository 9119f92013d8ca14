// The texts of run-time errors, one function per kind, shared by the interpreter (which
// fills in the values) and the C++ emitter (which leaves holes the engine fills in).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/ir.h"

namespace rulebook::compiler::run_errors {

/// Where a generated engine writes a value known only at run time: the first and the
/// second value of a message. No name, domain or number text holds these bytes.
inline constexpr std::string_view kHole1 = "\x01";
inline constexpr std::string_view kHole2 = "\x02";

/// A run-time value as every message prints it: the number, or `none` where the value's
/// type admits none (a computed INT64_MIN is a number, though it is none's bit pattern).
std::string value_text(int64_t v, bool may_be_none);
/// Whether values of domain `d` may be none (an optional domain).
bool may_be_none(const std::vector<ir::Domain>& domains, int d);
/// Whether the scalars of `t` (itself, a set's elements, a list's elements) may be none.
bool holds_none(const std::vector<ir::Domain>& domains, const ir::Type& t);

/// The longest text of an error, in bytes; a longer one (long names) is cut there, in
/// every engine alike (a generated engine's messages live in fixed buffers).
inline constexpr size_t kMaxText = 300;

/// `where: error: text`, the located form of every run-time error (text cut at kMaxText).
std::string located(std::string_view where, std::string_view text);

// ---- a value outside a domain: `value` is value_text's (or a hole)
std::string stored_outside(std::string_view value, std::string_view domain, std::string_view var);
std::string key_outside(std::string_view value, std::string_view domain, std::string_view var);
std::string element_outside(std::string_view value, std::string_view domain);
std::string range_element_outside(std::string_view value, std::string_view domain);
std::string field_value_outside(std::string_view value, std::string_view domain,
                                std::string_view field, std::string_view record);
/// `what` is "cell", "point", "player" or "team".
std::string not_a(std::string_view value, std::string_view what);
std::string eliminate_not_a_player(std::string_view value);
std::string in_no_team(std::string_view player);
std::string index_outside(std::string_view index, std::string_view last);

// ---- values that do not exist
std::string field_of_none(std::string_view field);
/// `op` is "max" or "min".
std::string over_nothing(std::string_view op);

// ---- setup
std::string random_too_many(std::string_view k, std::string_view n);
/// A whole sequence (or a setup's values) of the wrong length.
std::string values_count(std::string_view var, std::string_view want, std::string_view given);
std::string given_outside(std::string_view var, std::string_view domain);
std::string drawn_outside(std::string_view value, std::string_view domain, std::string_view var);

}  // namespace rulebook::compiler::run_errors
