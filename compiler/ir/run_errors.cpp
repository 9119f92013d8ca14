// The one table of run-time error texts (docs/semantics.md, "Errors"): the interpreter and
// every generated engine word an error the same way, so that their messages can be compared.
#include "compiler/ir/run_errors.h"

#include <fmt/core.h>

namespace rulebook::compiler::run_errors {

std::string value_text(int64_t v, bool none) {
  return none && v == ir::kNone ? std::string("none") : std::to_string(v);
}

bool may_be_none(const std::vector<ir::Domain>& domains, int d) {
  return d >= 0 && size_t(d) < domains.size() && domains[size_t(d)].kind == ir::Domain::Kind::Optional;
}

bool holds_none(const std::vector<ir::Domain>& domains, const ir::Type& t) {
  if (t.kind == ir::Type::Kind::List) return t.elem && holds_none(domains, *t.elem);
  return may_be_none(domains, t.domain);
}

std::string located(std::string_view where, std::string_view text) {
  return fmt::format("{}: error: {}", where, text.substr(0, kMaxText));
}

std::string stored_outside(std::string_view value, std::string_view domain, std::string_view var) {
  return fmt::format("value {} is outside {} (stored in '{}')", value, domain, var);
}

std::string key_outside(std::string_view value, std::string_view domain, std::string_view var) {
  return fmt::format("key {} is outside {} (a key of '{}')", value, domain, var);
}

std::string element_outside(std::string_view value, std::string_view domain) {
  return fmt::format("element {} is outside {} (the set's values)", value, domain);
}

std::string range_element_outside(std::string_view value, std::string_view domain) {
  return fmt::format("value {} of the range is outside {}", value, domain);
}

std::string field_value_outside(std::string_view value, std::string_view domain,
                                std::string_view field, std::string_view record) {
  return fmt::format("value {} is outside {} (field '{}' of {})", value, domain, field, record);
}

std::string not_a(std::string_view value, std::string_view what) {
  return fmt::format("{} is not a {}", value, what);
}

std::string eliminate_not_a_player(std::string_view value) {
  return fmt::format("eliminate: {} is not a player", value);
}

std::string in_no_team(std::string_view player) { return fmt::format("{} is in no team", player); }

std::string index_outside(std::string_view index, std::string_view last) {
  return fmt::format("index {} is outside 0..{}", index, last);
}

std::string field_of_none(std::string_view field) { return fmt::format("field '{}' of none", field); }

std::string over_nothing(std::string_view op) { return fmt::format("{} over nothing", op); }

std::string random_too_many(std::string_view k, std::string_view n) {
  return fmt::format("random {} of a set of {}", k, n);
}

std::string values_count(std::string_view var, std::string_view want, std::string_view given) {
  return fmt::format("'{}' needs {} values, {} given", var, want, given);
}

std::string given_outside(std::string_view var, std::string_view domain) {
  return fmt::format("a value given for '{}' is outside {}", var, domain);
}

std::string drawn_outside(std::string_view value, std::string_view domain, std::string_view var) {
  return fmt::format("value {} drawn for '{}' is outside {}", value, var, domain);
}

}  // namespace rulebook::compiler::run_errors
