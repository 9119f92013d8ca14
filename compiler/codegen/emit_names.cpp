// What user text and user names become in generated C++: the one quoting function for
// string literals, the one mapping of user names to identifiers, the final check that a
// generated source carries no raw byte a comment or a literal could be broken by; and the
// NameScheme: names of slots, fields, functions, moves and rules, literals, types, places.
#include <cctype>
#include <filesystem>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

// ---------------------------------------------------------------- user text

std::string cpp_string(std::string_view s) {
  // Every byte outside printable ASCII as a three-digit octal escape (a hex escape would
  // swallow the hex digits after it), `"` and `\` escaped, and `?` too: `??x` is a
  // trigraph to compilers that still read them.
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u > 0x7e) {
      out += fmt::format("\\{:03o}", unsigned(u));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string NameScheme::quote(std::string_view s) const { return cpp_string(s); }


std::string NameScheme::line_of(dsl::Span span) const {
  // Comments say where in the rules a piece of code comes from by line only: a file name
  // is user text, and user text never goes into a comment.
  if (span.file >= sources_.size()) return "line ?";
  const dsl::Position pos = sources_.position(span.file, span.begin);
  return fmt::format("line {}", pos.line);
}

std::optional<std::string> check_generated(std::string_view source) {
  // A raw control byte or a non-ASCII byte would mean user text escaped the quoting; a
  // comment line ending in `\` would splice the next line into the comment (a macro's
  // lines end in one, and hold no comment).
  size_t line = 1, start = 0;
  for (size_t i = 0; i < source.size(); ++i) {
    const auto u = static_cast<unsigned char>(source[i]);
    if (u == '\n') {
      if (i > start && source[i - 1] == '\\' && source.substr(start, i - start).find("//") != std::string_view::npos)
        return fmt::format("generated line {} is a comment ending in a backslash", line);
      ++line;
      start = i + 1;
      continue;
    }
    if (u < 0x20 || u > 0x7e) return fmt::format("generated line {} holds byte 0x{:02x}", line, unsigned(u));
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- user names
//
// The naming scheme (docs/engines.md, "Names in generated code"):
//  - escaped(n): a user name with each byte outside [A-Za-z0-9_] written `_x` + two hex
//    digits, and each `_` written `_u` unless a letter other than `u` and `x` follows it
//    (`last_move` stays, `c_1` is `c_u1`), a leading `_` written `_u`. It never holds `__`
//    or `_` + digit, never ends in `_`, and never starts with a digit or `_` + a capital;
//    in it, `_u` and `_x` always open an escape, so two names never share an escaped form.
//  - Every global or member named after a user name is KIND_ + the mapped name, KIND one
//    of a fixed list of prefixes (var_, put_var_, gen_, apply_, can_, cancheck_, define_,
//    compute_...), no prefix starting another and no internal name starting with one; so
//    no C++ keyword either. A state variable's mapped name is its escaped name, and so is
//    a define's. A move's (or a rule's) mapped name is its
//    escaped name, or `N_` + it when the name is in several phases (N: the move's number;
//    an escaped name never starts with a digit).
//  - Parameters and binders are locals: escaped name + `_` + their slot (`c_1`), unique in
//    their function. Only locals end in `_` + digits.

std::string escaped_name(std::string_view name) {
  auto letter = [](unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto digit = [](unsigned char c) { return c >= '0' && c <= '9'; };
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (letter(c) || digit(c)) {
      if (out.empty() && digit(c)) out += "_x3";  // (not from the rules: names start with a letter)
      out += char(c);
    } else if (c == '_') {
      const auto next = i + 1 < name.size() ? static_cast<unsigned char>(name[i + 1]) : 0;
      // (A leading `_` too: `_` + a capital opens a name C++ reserves.)
      out += i > 0 && letter(next) && next != 'u' && next != 'x' ? "_" : "_u";
    } else {
      out += fmt::format("_x{:02x}", unsigned(c));
    }
  }
  if (out.empty()) out = "_x00";  // (no name is empty)
  return out;
}

std::string NameScheme::field_name(int var) const {
  const ir::StateVar& V = program_.vars[size_t(var)];
  if (V.origin == ir::StateVar::Origin::System) return V.name + "_";
  return "var_" + escaped_name(V.name);
}

std::string NameScheme::fn_base(int f) const { return escaped_name(program_.functions[size_t(f)].name); }

std::string NameScheme::fn_name(int f) const { return "define_" + fn_base(f); }

std::string NameScheme::move_name(int m) const {
  const std::string& name = program_.moves[size_t(m)].name;
  int same = 0;
  for (const ir::Move& M : program_.moves) same += M.name == name;
  return same > 1 ? fmt::format("{}_{}", m, escaped_name(name)) : escaped_name(name);
}

std::string NameScheme::rule_name(int r) const {
  const std::string& name = program_.rules[size_t(r)].name;
  int same = 0;
  for (const ir::Rule& R : program_.rules) same += R.name == name;
  return same > 1 ? fmt::format("{}_{}", r, escaped_name(name)) : escaped_name(name);
}

std::string NameScheme::local_name(const std::string& name, int slot) const {
  return fmt::format("{}_{}", escaped_name(name), slot);
}

// ---------------------------------------------------------------- locals

std::string NameScheme::slot_name(int slot) const {
  if (slot >= 0 && size_t(slot) < s_.slots_.size() && !s_.slots_[size_t(slot)].empty())
    return s_.slots_[size_t(slot)];
  return fmt::format("v{}", slot);
}

std::string NameScheme::bind_slot(int slot, dsl::Span span, int ordinal) {
  if (slot >= 0 && size_t(slot) >= s_.slots_.size()) s_.slots_.resize(size_t(slot) + 1);
  // The binder's name in the rules, made unique by its slot (an inlined define may bind
  // the same name around an argument of its caller).
  const std::string source = binder_name(span, ordinal);
  std::string name = source.empty() ? fmt::format("v{}", slot) : local_name(source, slot);
  if (slot >= 0) s_.slots_[size_t(slot)] = name;
  return name;
}

std::string NameScheme::slot_binding(int slot) const {
  return slot >= 0 && size_t(slot) < s_.slots_.size() ? s_.slots_[size_t(slot)] : std::string();
}

void NameScheme::restore_slot(int slot, std::string name) {
  if (slot >= 0 && size_t(slot) < s_.slots_.size()) s_.slots_[size_t(slot)] = std::move(name);
}

std::string NameScheme::binder_name(dsl::Span span, int ordinal) const {
  if (span.file >= sources_.size() || span.end <= span.begin) return "";
  const std::string_view t = sources_.text(span);
  size_t i = 0;
  auto is_ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto skip_space = [&] {
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  };
  auto word = [&]() {
    const size_t b = i;
    while (i < t.size() && is_ident(t[i])) ++i;
    return std::string(t.substr(b, i - b));
  };
  skip_space();
  while (i < t.size() && t[i] == '(') {
    ++i;
    skip_space();
  }
  if (i < t.size() && t[i] == '{') {
    ++i;  // a set filter: {x in S | ...}
  } else {
    const std::string keyword = word();  // all, some, no, count, sum, max, min, for, let
    if (keyword == "let") {
      skip_space();
      return ordinal == 0 ? word() : "";
    }
  }
  // Binders `x in S`, separated by commas at the top level, up to `:`, `|` or `where`.
  int found = 0, depth = 0;
  while (i < t.size()) {
    skip_space();
    if (i >= t.size()) break;
    const char c = t[i];
    if (depth == 0 && (c == ':' || c == '|' || c == '{')) break;
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
      ++i;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      --depth;
      ++i;
      continue;
    }
    if (!is_ident(c)) {
      ++i;
      continue;
    }
    const std::string name = word();
    if (depth == 0 && name == "where") break;
    const size_t after = i;
    skip_space();
    if (depth == 0 && t.substr(i, 2) == "in" && (i + 2 >= t.size() || !is_ident(t[i + 2]))) {
      if (found++ == ordinal) return name;
      i += 2;
    } else {
      i = after;
    }
  }
  return "";
}

std::string NameScheme::fresh(std::string_view stem) {
  return fmt::format("{}{}_", stem, s_.fresh_counter_++);
}

// ---------------------------------------------------------------- frames, places and literals

namespace {

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

}  // namespace

void NameScheme::begin_frame(int locals) {
  s_.slots_.assign(size_t(std::max(locals, 0)) + 64, std::string());
}

std::string NameScheme::where(dsl::Span span) const {
  // The file by its index in the source set, not its name: one engine then serves the
  // same rules wherever they lie, and the loader writes the name the user gave.
  if (span.file >= sources_.size()) return quote("<unknown>");
  const dsl::Position pos = sources_.position(span.file, span.begin);
  return quote(fmt::format("@{}:{}:{}", span.file, pos.line, pos.column));
}

std::string NameScheme::where_text(dsl::Span span) const {
  if (span.file >= sources_.size()) return "<unknown>";
  const dsl::Position pos = sources_.position(span.file, span.begin);
  return fmt::format("{}:{}:{}", base_name(sources_.file(span.file).name), pos.line, pos.column);
}

std::string NameScheme::base_name_of_source() const { return base_name(program_.source_path); }

int NameScheme::words(int domain) const {
  if (domain < 0) return 1;
  return std::max<int>(1, int((dom(domain).size + 63) / 64));
}

std::string NameScheme::bits_literal(int domain, const std::vector<uint64_t>& bits) const {
  const int n = words(domain);
  std::string s = fmt::format("Bits<{}>{{{{", n);
  for (int k = 0; k < n; ++k) {
    s += fmt::format("{}0x{:x}ull", k ? ", " : "", size_t(k) < bits.size() ? bits[size_t(k)] : 0);
  }
  return s + "}}";
}

std::string NameScheme::param_type(const ir::Type& t) const {
  if (t.kind == ir::Type::Kind::Scalar) return cpp_type(t);
  return "const " + cpp_type(t) + "&";
}

// ---------------------------------------------------------------- types and parentheses

bool NameScheme::is_bool(const ir::Type& t) const {
  return is_scalar(t) && t.domain == ir::kBoolDomain;
}

std::string NameScheme::cpp_type(const ir::Type& t) const {
  return plan::cpp_type_name(program_, s_.plan_.list_caps, t);
}

bool NameScheme::identity_domain(int d) const { return plan::identity_domain(program_, d); }

std::string NameScheme::value_literal(int, ir::Value v) const {
  if (v == ir::kNone) return "kNone";
  return v < 0 ? fmt::format("Int({})", v) : std::to_string(v);
}

std::string NameScheme::bare(const std::string& s) const {
  // Outer parentheses that enclose the whole text go (an `if` adds its own).
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth == 0 && i + 1 < s.size()) return s;
  }
  return s.substr(1, s.size() - 2);
}

std::string NameScheme::paren(const std::string& s) const {
  if (s.empty()) return s;
  if (s.front() == '(' && s.back() == ')') return s;
  bool simple = std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
  return simple ? s : "(" + s + ")";
}

std::string NameScheme::lambda(const std::string& type, const std::vector<std::string>& body) {
  // Written on one logical line per statement, indented one level below the current one.
  const std::string pad(size_t(w_.depth() + 1 + s_.lambda_depth_) * 2, ' ');
  const std::string end_pad(size_t(w_.depth() + s_.lambda_depth_) * 2, ' ');
  std::string s = fmt::format("[&]() -> {} {{\n", type);
  for (const std::string& line : body) {
    // Lines of nested blocks carry their own relative indentation.
    s += pad + line + "\n";
  }
  s += end_pad + "}()";
  return s;
}

// ---------------------------------------------------------------- system variables

std::string NameScheme::sys(int var) const { return "g.s." + field_name(var); }

}  // namespace rulebook::compiler::emit
