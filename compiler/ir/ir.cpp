// IR helpers: value <-> index conversion of domains, value texts, state element access.
#include "compiler/ir/ir.h"

#include <fmt/format.h>

namespace rulebook::ir {

const char* kind_name(PropertyKind kind) {
  static constexpr const char* kNames[] = {"prove", "find",    "derive",     "lemma",
                                           "bound", "depends", "consistent", "redundant",
                                           "invariant", "puzzle", "criterion"};
  return kNames[static_cast<int>(kind)];
}

int64_t domain_index(const std::vector<Domain>& domains, int d, Value v) {
  if (d < 0 || size_t(d) >= domains.size()) return -1;
  const Domain& dom = domains[size_t(d)];
  switch (dom.kind) {
    case Domain::Kind::Range:
      if (v == kNone || v < dom.lo || v - dom.lo >= int64_t(dom.size)) return -1;
      return v - dom.lo;
    case Domain::Kind::Optional: {
      if (v == kNone) return 0;
      int64_t i = domain_index(domains, dom.inner, v);
      return i < 0 ? -1 : i + 1;
    }
    default:
      return v >= 0 && v < int64_t(dom.size) ? v : -1;
  }
}

Value domain_value(const std::vector<Domain>& domains, int d, int64_t i) {
  const Domain& dom = domains[size_t(d)];
  switch (dom.kind) {
    case Domain::Kind::Range:
      return dom.lo + i;
    case Domain::Kind::Optional:
      return i == 0 ? kNone : domain_value(domains, dom.inner, i - 1);
    default:
      return i;
  }
}

std::string value_text(const std::vector<Domain>& domains, int d, Value v) {
  if (v == kNone) return "none";
  if (d < 0 || size_t(d) >= domains.size()) return std::to_string(v);
  const Domain& dom = domains[size_t(d)];
  if (domain_index(domains, d, v) < 0) return std::to_string(v);
  switch (dom.kind) {
    case Domain::Kind::Bool:
      return v ? "true" : "false";
    case Domain::Kind::Range:
      return std::to_string(v);
    case Domain::Kind::Enum:
    case Domain::Kind::Player:
    case Domain::Kind::Team:
    case Domain::Kind::Phase:
      return size_t(v) < dom.members.size() ? dom.members[size_t(v)] : std::to_string(v);
    case Domain::Kind::Cell: {
      int64_t w = dom.board_width;
      return w > 0 ? fmt::format("r{}c{}", v / w, v % w) : std::to_string(v);
    }
    case Domain::Kind::Point: {
      int64_t w = dom.board_width + 1;
      return fmt::format("p{}.{}", v / w, v % w);
    }
    case Domain::Kind::Record: {
      std::string s = "{";
      for (size_t f = 0; f < dom.fields.size(); ++f) {
        int fd = dom.fields[f];
        int64_t idx = (v / dom.strides[f]) % domains[size_t(fd)].size;
        s += fmt::format("{}{}: {}", f ? ", " : "", dom.field_names[f],
                         value_text(domains, fd, domain_value(domains, fd, idx)));
      }
      return s + "}";
    }
    case Domain::Kind::Optional:
      return value_text(domains, dom.inner, v);
  }
  return std::to_string(v);
}

ExprPtr clone_expr(const Expr& e) {
  auto x = std::make_unique<Expr>();
  x->op = e.op;
  x->type = e.type;
  x->value = e.value;
  x->bits = e.bits;
  x->slot = e.slot;
  x->var = e.var;
  x->field = e.field;
  x->function = e.function;
  x->move = e.move;
  x->builtin = e.builtin;
  x->span = e.span;
  for (const auto& a : e.args) x->args.push_back(a ? clone_expr(*a) : nullptr);
  return x;
}

uint32_t load_index(const uint8_t* state, const StateVar& var, uint32_t i) {
  const uint8_t* p = state + var.offset + size_t(i) * var.width;
  switch (var.width) {
    case 1:
      return p[0];
    case 2:
      return uint32_t(p[0]) | uint32_t(p[1]) << 8;
    default:
      return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  }
}

void store_index(uint8_t* state, const StateVar& var, uint32_t i, uint32_t index) {
  uint8_t* p = state + var.offset + size_t(i) * var.width;
  for (uint32_t b = 0; b < var.width; ++b) p[b] = uint8_t(index >> (8 * b));
}

std::string location(const dsl::SourceSet& sources, dsl::Span span) {
  if (span.file >= sources.size()) return "<unknown>";
  dsl::Position pos = sources.position(span.file, span.begin);
  return fmt::format("{}:{}:{}", sources.file(span.file).name, pos.line, pos.column);
}

}  // namespace rulebook::ir
