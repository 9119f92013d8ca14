// Move and board texts and the parsing of setup overrides, shared by every engine host.
#include "compiler/ir/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace rulebook::compiler {

namespace {

/// Maps with more elements than this print only their non-default entries.
constexpr uint32_t kDenseMap = 32;

/// A short label for a board grid: `.` for none and false, names, numbers.
std::string label(const ir::Program& p, int d, ir::Value v) {
  if (v == ir::kNone) return ".";
  const ir::Domain& dom = p.domains[size_t(d)];
  switch (dom.kind) {
    case ir::Domain::Kind::Bool:
      return v ? "x" : ".";
    case ir::Domain::Kind::Optional:
      return label(p, dom.inner, v);
    case ir::Domain::Kind::Record: {
      std::string s;
      for (size_t f = 0; f < dom.fields.size(); ++f) {
        int fd = dom.fields[f];
        int64_t i = (v / dom.strides[f]) % p.domains[size_t(fd)].size;
        if (f) s += '/';
        s += label(p, fd, ir::domain_value(p.domains, fd, i));
      }
      return s;
    }
    default:
      return ir::value_text(p.domains, d, v);
  }
}

ir::Value element(const ir::Program& p, const uint8_t* state, const ir::StateVar& v, uint32_t i) {
  return ir::domain_value(p.domains, v.domain, ir::load_index(state, v, i));
}

/// The text of elements [base * n .. ) of `v` from key `key` on.
std::string var_text(const ir::Program& p, const uint8_t* state, const ir::StateVar& v,
                     uint32_t base, size_t key) {
  if (key == v.keys.size()) return ir::value_text(p.domains, v.domain, element(p, state, v, base));
  const int kd = v.keys[key];
  const uint32_t n = p.domains[size_t(kd)].size;
  std::vector<std::string> items;
  if (v.is_set && key + 1 == v.keys.size()) {
    for (uint32_t i = 0; i < n; ++i)
      if (ir::load_index(state, v, base * n + i))
        items.push_back(ir::value_text(p.domains, kd, ir::domain_value(p.domains, kd, i)));
    return fmt::format("{{{}}}", fmt::join(items, ", "));
  }
  if (v.is_seq && key == 0) {
    for (uint32_t i = 0; i < n; ++i) items.push_back(var_text(p, state, v, base * n + i, key + 1));
    return fmt::format("[{}]", fmt::join(items, ", "));
  }
  const bool sparse = v.count > kDenseMap;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t el = base * n + i;
    if (sparse && key + 1 == v.keys.size() && ir::load_index(state, v, el) == 0) continue;
    std::string inner = var_text(p, state, v, el, key + 1);
    if (sparse && inner == "{}") continue;
    items.push_back(fmt::format("{}: {}", ir::value_text(p.domains, kd, ir::domain_value(p.domains, kd, i)), inner));
  }
  return fmt::format("{{{}}}", fmt::join(items, ", "));
}

/// Splits a value list at spaces, commas and semicolons; `(..)` and `{..}` stay whole.
std::vector<std::string> tokens(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  auto separator = [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';'; };
  while (i < text.size()) {
    if (separator(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    if (text[i] == '(' || text[i] == '{') {
      char close = text[i] == '(' ? ')' : '}';
      size_t end = text.find(close, i);
      i = end == std::string_view::npos ? text.size() : end + 1;
    } else {
      while (i < text.size() && !separator(text[i])) ++i;
    }
    out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

std::optional<int64_t> integer(std::string_view s) {
  int64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

/// `r2c3`, `p2.3`, `(2,3)` or `(2, 3)`: a row and a column.
std::optional<std::pair<int64_t, int64_t>> coordinates(std::string_view s, char lead, char mid) {
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') {
    std::string inner;
    for (char c : s.substr(1, s.size() - 2))
      if (!std::isspace(static_cast<unsigned char>(c))) inner += c;
    size_t comma = inner.find(',');
    if (comma == std::string::npos) return std::nullopt;
    auto y = integer(std::string_view(inner).substr(0, comma));
    auto x = integer(std::string_view(inner).substr(comma + 1));
    if (!y || !x) return std::nullopt;
    return std::make_pair(*y, *x);
  }
  if (s.empty() || s.front() != lead) return std::nullopt;
  size_t at = s.find(mid, 1);
  if (at == std::string_view::npos) return std::nullopt;
  auto y = integer(s.substr(1, at - 1));
  auto x = integer(s.substr(at + 1));
  if (!y || !x) return std::nullopt;
  return std::make_pair(*y, *x);
}

}  // namespace

std::string move_text(const ir::Program& p, const engine::Move& move) {
  if (move.kind < 0 || size_t(move.kind) >= p.moves.size()) return fmt::format("<move {}>", move.kind);
  const ir::Move& m = p.moves[size_t(move.kind)];
  if (m.params.empty()) return m.name;
  std::vector<std::string> args;
  for (size_t i = 0; i < m.params.size() && i < size_t(engine::kMaxMoveArgs); ++i)
    args.push_back(ir::value_text(p.domains, m.params[i].domain, move.args[i]));
  return fmt::format("{}({})", m.name, fmt::join(args, ", "));
}

std::string board_text(const ir::Program& p, const uint8_t* state) {
  std::string out;
  const int w = p.geometry.width, h = p.geometry.height;
  for (const ir::StateVar& v : p.vars) {
    if (v.origin == ir::StateVar::Origin::System) continue;
    if (v.keys.size() == 1 && v.keys[0] == ir::kCellDomain) {
      std::vector<std::string> labels;
      size_t width = 1;
      for (uint32_t c = 0; c < v.count; ++c) {
        labels.push_back(v.is_set ? (ir::load_index(state, v, c) ? "x" : ".")
                                  : label(p, v.domain, element(p, state, v, c)));
        width = std::max(width, labels.back().size());
      }
      out += fmt::format("{}:\n", v.name);
      for (int y = 0; y < h; ++y) {
        std::string line = " ";
        for (int x = 0; x < w; ++x) line += fmt::format(" {:>{}}", labels[size_t(y * w + x)], width);
        out += line;
        out += '\n';
      }
      continue;
    }
    out += fmt::format("{} = {}\n", v.name, var_text(p, state, v, 0, 0));
  }
  return out;
}

std::optional<ir::Value> parse_value(const ir::Program& p, int d, std::string_view text) {
  if (d < 0 || size_t(d) >= p.domains.size()) return std::nullopt;
  const ir::Domain& dom = p.domains[size_t(d)];
  auto checked = [&](int64_t v) -> std::optional<ir::Value> {
    if (ir::domain_index(p.domains, d, v) < 0) return std::nullopt;
    return v;
  };
  switch (dom.kind) {
    case ir::Domain::Kind::Optional:
      if (text == "none" || text == ".") return ir::kNone;
      return parse_value(p, dom.inner, text);
    case ir::Domain::Kind::Bool:
      if (text == "true" || text == "1") return 1;
      if (text == "false" || text == "0") return 0;
      return std::nullopt;
    case ir::Domain::Kind::Range:
      if (auto v = integer(text)) return checked(*v);
      return std::nullopt;
    case ir::Domain::Kind::Cell:
    case ir::Domain::Kind::Point: {
      bool cell = dom.kind == ir::Domain::Kind::Cell;
      auto yx = coordinates(text, cell ? 'r' : 'p', cell ? 'c' : '.');
      int64_t w = cell ? p.geometry.width : p.geometry.width + 1;
      int64_t h = cell ? p.geometry.height : p.geometry.height + 1;
      if (!yx || yx->first < 0 || yx->first >= h || yx->second < 0 || yx->second >= w) return std::nullopt;
      return yx->first * w + yx->second;
    }
    case ir::Domain::Kind::Record:
      for (uint32_t i = 0; i < dom.size; ++i)
        if (ir::value_text(p.domains, d, i) == text) return i;
      return std::nullopt;
    default:
      for (size_t i = 0; i < dom.members.size(); ++i)
        if (dom.members[i] == text) return ir::Value(i);
      return std::nullopt;
  }
}

SetupValue parse_setup(const ir::Program& p, std::string_view name, std::string_view text) {
  SetupValue out;
  for (size_t i = 0; i < p.setups.size(); ++i)
    if (p.setups[i].name == name) out.setup = int(i);
  if (out.setup < 0) {
    std::vector<std::string> names;
    for (const auto& s : p.setups) names.push_back(s.name);
    out.error = names.empty() ? fmt::format("no setup variable '{}': the rules have none", name)
                              : fmt::format("no setup variable '{}'; the rules have {}", name,
                                            fmt::join(names, ", "));
    return out;
  }
  const ir::SetupVar& sv = p.setups[size_t(out.setup)];
  const ir::StateVar& v = p.vars[size_t(sv.var)];
  if (sv.source == ir::SetupVar::Source::Entries) {
    auto k = integer(text);
    if (!k || *k < 1 || size_t(*k) > sv.entries.size()) {
      out.error = fmt::format("'{}' takes an entry number of {}, 1 to {}; found '{}'", name, sv.path,
                              sv.entries.size(), text);
      return out;
    }
    out.indices = sv.entries[size_t(*k - 1)];
    return out;
  }
  auto value_index = [&](int d, const std::string& t, uint32_t& index) {
    auto v = parse_value(p, d, t);
    if (!v) {
      const ir::Domain& dom = p.domains[size_t(d)];
      std::string hint = dom.kind == ir::Domain::Kind::Cell ? " (write a cell as r0c0 or (0,0))" : "";
      out.error = fmt::format("'{}' is not a value of {}{}", t, dom.name, hint);
      return false;
    }
    index = uint32_t(ir::domain_index(p.domains, d, *v));
    return true;
  };
  std::vector<std::string> items = tokens(text);
  if (v.is_set && v.keys.size() == 1) {
    out.indices.assign(v.count, 0);
    for (const std::string& t : items) {
      uint32_t i = 0;
      if (!value_index(v.keys[0], t, i)) return out;
      out.indices[i] = 1;
    }
    return out;
  }
  // One character per element, when the whole text is exactly that long (`1..2.3`).
  if (items.size() == 1 && v.count > 1 && items[0].size() == v.count) {
    std::vector<std::string> chars;
    for (char c : items[0]) chars.emplace_back(1, c);
    items = chars;
  }
  if (items.size() != v.count) {
    out.error = fmt::format("'{}' takes {} value{}, found {}", name, v.count, v.count == 1 ? "" : "s",
                            items.size());
    return out;
  }
  for (const std::string& t : items) {
    uint32_t i = 0;
    if (!value_index(v.domain, t, i)) return out;
    out.indices.push_back(i);
  }
  return out;
}

engine::Status setup_overrides(const ir::Program& p, const engine::Setup& setup,
                               std::vector<std::vector<uint32_t>>& out) {
  out.assign(p.setups.size(), {});
  for (const auto& [name, text] : setup.values) {
    SetupValue v = parse_setup(p, name, text);
    if (!v.ok()) return engine::Status::Error(v.error);
    out[size_t(v.setup)] = std::move(v.indices);
  }
  return engine::Status::Ok();
}

}  // namespace rulebook::compiler
