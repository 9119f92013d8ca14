// The C++ emitter's file structure: header, support code, domains, state layout, geometry,
// defines (emit_functions.cpp), moves, phases, setup, scores and the ABI footer.
#include "compiler/emit_cpp.h"

#include <algorithm>
#include <filesystem>

#include "compiler/emit_internal.h"
#include "compiler/engine.h"

namespace rulebook::compiler {

namespace emit {
std::string_view support_text();
}

uint64_t source_hash(std::string_view text) {
  return engine::hash_bytes(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

namespace emit {

// ---------------------------------------------------------------- writer

void Writer::line(std::string_view text) {
  if (!text.empty()) out_.append(size_t(depth_) * 2, ' ');
  out_ += text;
  out_ += '\n';
}
void Writer::open(std::string_view text) {
  line(text);
  ++depth_;
}
void Writer::close(std::string_view text) {
  --depth_;
  line(text);
}
void Writer::reopen(std::string_view text) {
  --depth_;
  line(text);
  ++depth_;
}
void Writer::blank() {
  if (out_.size() >= 2 && out_[out_.size() - 1] == '\n' && out_[out_.size() - 2] == '\n') return;
  out_ += '\n';
}
void Writer::raw(std::string_view text) { out_ += text; }

namespace {

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

/// Escapes text for a C++ string literal.
std::string cpp_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\x{:02x}", int(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

const char* element_type(uint32_t width) {
  return width == 1 ? "uint8_t" : width == 2 ? "uint16_t" : "uint32_t";
}

}  // namespace

// ---------------------------------------------------------------- the emitter

Emitter::Emitter(const ir::Program& program, const dsl::SourceSet& sources)
    : program_(program), sources_(sources) {}

EmittedCpp Emitter::run() {
  EmittedCpp result;
  plan();
  // The body first: it finds the constant tables it needs, which go above it.
  declarations();
  std::string declared = std::move(w_.text());
  w_ = Writer();
  functions();
  rules();
  moves();
  phases();
  setup_and_init();
  scores();
  abi_functions();
  std::string body = std::move(w_.text());
  w_ = Writer();
  header();
  support();
  domains();
  geometry_tables();
  state_layout();
  if (!constant_defs_.empty()) {
    w_.line("// ================================================================ constants");
    w_.blank();
    for (const std::string& c : constant_defs_) {
      w_.raw(c);
      w_.raw("\n");
    }
    w_.blank();
  }
  w_.raw(declared);
  if (!derived_defs_.empty()) {
    w_.line("// ================================================================ derived tables");
    w_.blank();
    w_.line("/// Tables made when the engine is loaded, in the order below. A table of a condition or");
    w_.line("/// filter may call defines that read other such tables: until the last one is made,");
    w_.line("/// their users compute instead of reading them.");
    w_.line("bool tables_made = false;");
    w_.blank();
    for (const std::string& d : derived_defs_) {
      w_.raw(d);
      w_.raw("\n\n");
    }
    w_.line("const bool kTablesMade = (tables_made = true);");
    w_.blank();
  }
  stores();
  w_.raw(body);
  w_.line("}  // namespace");
  w_.blank();
  result.source = std::move(w_.text());
  result.hash = source_hash(result.source);
  result.entry = fmt::format("rulebook_engine_{:016x}", result.hash);
  abi_footer(result.hash, result.source);
  if (!errors_.empty()) result.error = errors_.front();
  return result;
}

void Emitter::header() {
  w_.linef("// generated from {} — do not edit", base_name(program_.source_path));
  w_.linef("// {}: a rulebook engine behind the C ABI of compiler/plugin_abi.h.",
           program_.title);
  if (program_.files.size() > 1) {
    std::string chain;
    for (const std::string& f : program_.files) chain += (chain.empty() ? "" : ", ") + base_name(f);
    w_.linef("// Rules files: {}.", chain);
  }
  w_.line("#include <cstddef>");
  w_.line("#include <cstdint>");
  w_.line("#include <cstdio>");
  w_.line("#include <cstring>");
  w_.line("#if defined(__SSE2__)");
  w_.line("#include <emmintrin.h>");
  w_.line("#endif");
  w_.blank();
  w_.line("// Defines and moves take the working state and their parameters whether they read");
  w_.line("// them or not.");
  w_.line("#pragma GCC diagnostic ignored \"-Wunused-parameter\"");
  w_.line("#if defined(__GNUC__) && !defined(__clang__)");
  w_.line("// GCC 12 reports table lookups by in-domain indices as out of bounds.");
  w_.line("#pragma GCC diagnostic ignored \"-Warray-bounds\"");
  w_.line("#endif");
  w_.line("#if defined(__clang__)");
  w_.line("// Every engine carries the same support code, used or not.");
  w_.line("#pragma clang diagnostic ignored \"-Wunused-function\"");
  w_.line("#pragma clang diagnostic ignored \"-Wunused-const-variable\"");
  w_.line("#endif");
  w_.blank();
  w_.line("extern \"C\" {");
  w_.raw(abi_declarations());
  w_.line("void rulebook_register_engine(rb_entry_fn entry);");
  w_.line("}");
  w_.blank();
  w_.line("namespace {");
  w_.blank();
}

void Emitter::support() {
  w_.line("// ================================================================ support");
  w_.blank();
  w_.raw(support_text());
  w_.blank();
}

void Emitter::domains() {
  w_.line("// ================================================================ domains");
  w_.line("// idx_dN(v): the index of value v in domain N, or -1; val_dN(i): the value at i.");
  w_.blank();
  for (size_t d = 0; d < program_.domains.size(); ++d) {
    const ir::Domain& D = program_.domains[d];
    w_.linef("// d{}: {} ({} values)", d, D.name, D.size);
    switch (D.kind) {
      case ir::Domain::Kind::Range:
        w_.linef("constexpr Int idx_d{}(Int v) {{ return v != kNone && uint64_t(v - ({})) < {}u ? v - ({}) : -1; }}",
                 d, D.lo, D.size, D.lo);
        w_.linef("constexpr Int val_d{}(Int i) {{ return i + ({}); }}", d, D.lo);
        break;
      case ir::Domain::Kind::Optional:
        w_.linef("constexpr Int idx_d{}(Int v) {{", d);
        w_.linef("  if (v == kNone) return 0;");
        w_.linef("  const Int i = idx_d{}(v);", D.inner);
        w_.linef("  return i < 0 ? -1 : i + 1;");
        w_.line("}");
        w_.linef("constexpr Int val_d{}(Int i) {{ return i == 0 ? kNone : val_d{}(i - 1); }}", d,
                 D.inner);
        break;
      default:
        if (D.size == 0) {
          w_.linef("constexpr Int idx_d{}(Int) {{ return -1; }}", d);
        } else {
          w_.linef("constexpr Int idx_d{}(Int v) {{ return uint64_t(v) < {}u ? v : -1; }}", d, D.size);
        }
        w_.linef("constexpr Int val_d{}(Int i) {{ return i; }}", d);
        break;
    }
    w_.linef("inline Int chk_d{}(Int v, const char* where, const char* what) {{", d);
    w_.linef("  const Int i = idx_d{}(v);", d);
    w_.line("  if (i < 0) fail_value(where, what, v);");
    w_.line("  return i;");
    w_.line("}");
    std::vector<uint64_t> all(size_t(words(int(d))), 0);
    for (uint32_t i = 0; i < D.size; ++i) all[i / 64] |= uint64_t(1) << (i % 64);
    w_.linef("constexpr Bits<{}> full_d{}() {{ return {}; }}", words(int(d)), d,
             bits_literal(int(d), all));
  }
  w_.blank();
}

void Emitter::state_layout() {
  w_.line("// ================================================================ state");
  w_.line("// The bytes of a state, exactly as the IR lays them out: each element holds the");
  w_.line("// index of its value in the variable's domain.");
  w_.blank();
  std::vector<int> order(program_.vars.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return program_.vars[size_t(a)].offset < program_.vars[size_t(b)].offset;
  });
  w_.open("struct [[gnu::packed]] State {");
  uint32_t at = 0;
  int pad = 0;
  for (int v : order) {
    const ir::StateVar& V = program_.vars[size_t(v)];
    if (V.offset < at) {
      errors_.push_back(fmt::format("state variables {} overlaps another", V.name));
      continue;
    }
    if (V.offset > at) w_.linef("uint8_t pad{}_[{}];", pad++, V.offset - at);
    std::string keys;
    for (int k : V.keys) keys += (keys.empty() ? "" : " x ") + dom(k).name;
    std::string what = V.origin == ir::StateVar::Origin::System ? "engine"
                       : V.origin == ir::StateVar::Origin::Setup ? "setup"
                                                                  : "state";
    std::string comment = fmt::format("// {} {}: {}{}", what, V.name,
                                      keys.empty() ? "" : keys + " -> ", dom(V.domain).name);
    if (V.origin != ir::StateVar::Origin::System) comment += " — " + where_text(V.span);
    if (V.keys.empty()) {
      w_.linef("{} {};  {}", element_type(V.width), field_name(v), comment);
    } else {
      w_.linef("{} {}[{}];  {}", element_type(V.width), field_name(v), V.count, comment);
    }
    at = V.offset + V.count * V.width;
  }
  if (program_.state_bytes > at) w_.linef("uint8_t pad{}_[{}];", pad++, program_.state_bytes - at);
  w_.close("};");
  w_.linef("static_assert(sizeof(State) == {}, \"the state layout of the IR\");",
           program_.state_bytes);
  w_.blank();

  // The working copy: the state, its planes, and the flags of the move being applied.
  if (scoped_count_ > 0) w_.line("struct RuleScope;");
  w_.line("/// A state being read or changed, with what the engine keeps beside it.");
  w_.open("struct alignas(16) Game {");
  w_.line("State s;");
  for (const PlaneVar& p : planes_) {
    if (p.kept == 0) continue;
    // Keys of more than one word at a 16-byte boundary: copy_game stores 16 bytes at a
    // time, and a 16-byte load straddling two of its stores waits for both.
    w_.linef("{}Bits<{}> {}is_[{}];  // planes: the keys whose element has each index{}",
             words(p.key_domain) > 1 ? "alignas(16) " : "", words(p.key_domain),
             field_name(p.var), p.kept,
             p.kept < p.values ? fmt::format(" (the first {} of {})", p.kept, p.values) : "");
  }
  w_.line("Int mover_;     // the player conditions are evaluated for");
  w_.line("bool again_;    // `again` ran in the block being applied");
  if (memo_defines_ > 0) {
    w_.line("uint64_t known_;  // remembered values of parameterless defines (bits)...");
    w_.linef("Int memo_[{}];     // ... and the values", memo_defines_);
  }
  w_.line("uint64_t can_known_, can_true_;  // remembered can(move, player) (bits)");
  if (scoped_count_ > 0) w_.line("RuleScope* scope_;  // while the board rules are evaluated: see RuleScope");
  for (const PlaneUnion& u : plane_unions_) {
    const PlaneVar& p = planes_[size_t(plane_of_var_[size_t(u.var)])];
    w_.linef("{}Bits<{}> {}_[{}];  // per plane of {}{}: see {}()", words(u.domain) > 1 ? "alignas(16) " : "",
             words(u.domain), u.name, u.kept(int(p.values)), program_.vars[size_t(u.var)].name,
             u.first(int(p.values)) > 0 ? fmt::format(" from index {}", u.first(int(p.values))) : "",
             u.name);
  }
  w_.close("};");
  w_.blank();

  if (!plane_unions_.empty()) w_.line("void make_unions(Game& g);");
  w_.open("void load(Game& g, const uint8_t* bytes) {");
  w_.line("std::memcpy(&g.s, bytes, sizeof(State));");
  for (const PlaneVar& p : planes_) {
    if (p.kept == 0) continue;
    const ir::StateVar& V = program_.vars[size_t(p.var)];
    // From the caller's bytes, not the copy just stored (a load right after a store of
    // other widths stalls).
    w_.linef("build_planes<{}, {}, {}>(g.{}is_, bytes + {});", words(p.key_domain), p.kept, V.count,
             field_name(p.var), V.offset);
  }
  w_.linef("g.mover_ = g.s.{};", field_name(ir::kVarMover));
  w_.line("g.again_ = false;");
  if (memo_defines_ > 0) {
    w_.line("g.known_ = 0;");
    w_.line("std::memset(g.memo_, 0, sizeof g.memo_);");
  }
  w_.line("g.can_known_ = 0;");
  w_.line("g.can_true_ = 0;");
  if (scoped_count_ > 0) w_.line("g.scope_ = nullptr;");
  if (!plane_unions_.empty()) w_.line("make_unions(g);");
  w_.close("}");
  w_.blank();
  w_.line("void save(const Game& g, uint8_t* bytes) { std::memcpy(bytes, &g.s, sizeof(State)); }");
  w_.blank();
  w_.line("/// A copy of a working state (in 16-byte steps: a string copy costs more at this size).");
  w_.open("[[gnu::always_inline]] inline void copy_game(Game& to, const Game& from) {");
  w_.line("#if defined(__SSE2__)");
  w_.line("constexpr size_t kSteps = sizeof(Game) / 16;");
  w_.line("auto* d = reinterpret_cast<char*>(&to);");
  w_.line("const auto* s = reinterpret_cast<const char*>(&from);");
  w_.line("#pragma GCC unroll 64");
  w_.line("for (size_t k = 0; k < kSteps; ++k) {");
  w_.line("  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 16 * k),");
  w_.line("                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16 * k)));");
  w_.line("}");
  w_.line("std::memcpy(d + 16 * kSteps, s + 16 * kSteps, sizeof(Game) % 16);");
  w_.line("#else");
  w_.line("to = from;");
  w_.line("#endif");
  if (scoped_count_ > 0) w_.line("to.scope_ = nullptr;  // what the original remembers is of its own state");
  w_.close();
  w_.blank();
}

void Emitter::stores() {
  w_.line("// ================================================================ stores");
  w_.blank();
  // The unions kept per plane (see PlaneUnion).
  for (const PlaneUnion& u : plane_unions_) {
    const PlaneVar& p = planes_[size_t(plane_of_var_[size_t(u.var)])];
    w_.linef("/// {}().inverse_union of plane k of {}, kept up to date by every store (for the", u.table,
             program_.vars[size_t(u.var)].name);
    w_.linef("/// planes read: 0x{:x}).", u.read);
    w_.open(fmt::format("[[gnu::always_inline]] inline Bits<{}> {}(const Game& g, Int k) {{", words(u.domain), u.name));
    if (u.checked) {
      w_.linef("if (uint64_t({}) >= {}u) return Bits<{}>{{}};", u.at("k", int(p.values)),
               u.kept(int(p.values)), words(u.domain));
    }
    w_.linef("return g.{}_[{}];", u.name, u.at("k", int(p.values)));
    w_.close();
    w_.blank();
  }
  if (!plane_unions_.empty()) {
    // Unions are made when a state is loaded and kept exact by every store, so reading
    // one is a load: a union remembered with a "known" bit per plane cost every store and
    // every read a test, more than the rare remake after a key leaves a plane.
    w_.line("/// The union of every plane read, from the planes' variables (when a state is loaded).");
    w_.open("void make_unions(Game& g) {");
    for (const PlaneUnion& u : plane_unions_) {
      const PlaneVar& p = planes_[size_t(plane_of_var_[size_t(u.var)])];
      const ir::StateVar& V = program_.vars[size_t(u.var)];
      w_.linef("for (auto& u : g.{}_) u = Bits<{}>{{}};", u.name, words(u.domain));
      w_.open(fmt::format("for (Int i = 0; i < {}; ++i) {{", V.count));
      w_.linef("const Int v = g.s.{}[i];", field_name(u.var));
      const std::string at = u.at("v", int(p.values));
      w_.linef("if (v < {} && ((0x{:x}ull >> v) & 1)) g.{}_[{}] = g.{}_[{}] | {}().holders[i];", p.values,
               u.read, u.name, at, u.name, at, u.table);
      w_.close();
    }
    w_.close();
    w_.blank();
  }
  if (tabulated() && rule_tables_.memo_slot >= 0)
    w_.line("int verdict_after_store(Game& g, Int i, Int v);  // see the rule tables");
  // Every store goes through put_*: it keeps the planes and forgets the remembered
  // values that read the variable.
  for (size_t v = 0; v < program_.vars.size(); ++v) {
    const ir::StateVar& V = program_.vars[v];
    const std::string f = field_name(int(v));
    const std::string elem = V.keys.empty() ? "g.s." + f : "g.s." + f + "[i]";
    const int pv = plane_of_var_[v];
    w_.linef("/// Stores index `v` as element `i` of {}.", V.name);
    if (pv >= 0) {
      // `Old` and `New`: the planes the element's value before and `v` can be, when the
      // caller knows (a move's `requires`, the type of the value stored).
      w_.line("/// `Old`, `New`: the indices the element before and `v` can be (~0: any).");
      w_.line("template <uint64_t Old = ~0ull, uint64_t New = ~0ull>");
    }
    w_.open(fmt::format("[[gnu::always_inline]] inline void put_{}(Game& g, Int i, Int v) {{", f));
    if (pv >= 0 && planes_[size_t(pv)].kept > 0) {
      const PlaneVar& p = planes_[size_t(pv)];
      // (A state passed in with an element outside its domain has it in no plane.)
      w_.linef("const Int old = one_of(Old) >= 0 ? one_of(Old) : Int({});", elem);
      w_.open(fmt::format("if (some_below(Old, {}) && (within(Old, {}) || old < {})) {{", p.kept, p.kept, p.kept));
      w_.linef("g.{}is_[old].reset(i);", f);
      for (const PlaneUnion& u : plane_unions_) {
        if (u.var != int(v)) continue;
        // The old value's union, when read, is made again from its plane (a union cannot
        // lose one key's holders: another key may hold them too); the new value's gains
        // the key's holders.
        w_.linef("if (one_read(Old, 0x{:x}ull, old)) g.{}_[{}] = {}().inverse_union(g.{}is_[old]);",
                 u.read, u.name, u.at("old", p.values), u.table, f);
      }
      w_.close();
      for (const PlaneUnion& u : plane_unions_) {
        if (u.var != int(v)) continue;
        const std::string at = u.at("v", p.values);
        w_.linef("if (one_read(New, 0x{:x}ull, v)) g.{}_[{}] = g.{}_[{}] | {}().holders[i];", u.read,
                 u.name, at, u.name, at, u.table);
      }
      if (p.kept < p.values) {
        w_.linef("if (some_below(New, {}) && (within(New, {}) || v < {})) g.{}is_[v].set(i);", p.kept,
                 p.kept, p.kept, f);
      } else {
        w_.linef("g.{}is_[v].set(i);", f);
      }
    }
    w_.linef("{} = {}(v);", elem, element_type(V.width));
    uint64_t defines = forget_defines_[v];
    const uint64_t cans = forget_cans_[v];
    const int held_slot = tabulated() && int(v) == rule_tables_.var ? rule_tables_.memo_slot : -1;
    if (held_slot >= 0) {
      // The verdict of the board rules, when it was "they hold", follows the store: only
      // the pairs holding key i are looked at.
      w_.linef("const bool held = ((g.known_ >> {}) & 1) && g.memo_[{}] == 1;", held_slot, held_slot);
      defines &= ~(uint64_t(1) << held_slot);
    }
    if (defines) w_.linef("g.known_ &= ~0x{:x}ull;", defines);
    if (held_slot >= 0) {
      w_.linef("if (held) g.memo_[{}] = verdict_after_store(g, i, v);", held_slot);
      w_.linef("else g.known_ &= ~0x{:x}ull;", uint64_t(1) << held_slot);
    }
    if (cans) w_.linef("g.can_known_ &= ~0x{:x}ull;", cans);
    w_.close();
    w_.blank();
  }
}

void Emitter::geometry_tables() {
  const int W = program_.geometry.width, H = program_.geometry.height;
  const int cells = W * H;
  w_.line("// ================================================================ geometry");
  w_.linef("// A board of {} rows x {} columns; cells are y * {} + x, points y * {} + x.", H, W,
           W, W + 1);
  w_.blank();
  w_.linef("constexpr Int kWidth = {};", W);
  w_.linef("constexpr Int kHeight = {};", H);
  w_.linef("constexpr Int kPlayers = {};", program_.players);
  const int cw = words(ir::kCellDomain), pw = words(ir::kPointDomain);
  auto cell_table = [&](const char* name, const char* what, auto member) {
    w_.linef("/// {}", what);
    w_.linef("constexpr Bits<{}> {}[{}] = {{", cw, name, std::max(cells, 1));
    for (int c = 0; c < cells; ++c) {
      std::vector<uint64_t> bits(size_t(cw), 0);
      for (int d : member(c / W, c % W)) bits[size_t(d) / 64] |= uint64_t(1) << (d % 64);
      w_.linef("  {},", bits_literal(ir::kCellDomain, bits));
    }
    if (cells == 0) w_.line("  {},");
    w_.line("};");
  };
  auto in = [&](int y, int x) { return y >= 0 && y < H && x >= 0 && x < W; };
  const bool need_orth = geometry_used_.count(dsl::BuiltinId::Orth) ||
                         geometry_used_.count(dsl::BuiltinId::Components) ||
                         geometry_used_.count(dsl::BuiltinId::LargestGroup);
  if (need_orth) {
    cell_table("kOrth", "orth(c): the 4-neighbours of c", [&](int y, int x) {
      std::vector<int> out;
      const int dy[] = {-1, 0, 0, 1}, dx[] = {0, -1, 1, 0};
      for (int k = 0; k < 4; ++k)
        if (in(y + dy[k], x + dx[k])) out.push_back((y + dy[k]) * W + x + dx[k]);
      return out;
    });
  }
  if (geometry_used_.count(dsl::BuiltinId::Diag)) {
    cell_table("kDiag", "diag(c): the diagonal neighbours of c", [&](int y, int x) {
      std::vector<int> out;
      for (int dy : {-1, 1})
        for (int dx : {-1, 1})
          if (in(y + dy, x + dx)) out.push_back((y + dy) * W + x + dx);
      return out;
    });
  }
  if (geometry_used_.count(dsl::BuiltinId::King)) {
    cell_table("kKing", "king(c): the 8-neighbours of c", [&](int y, int x) {
      std::vector<int> out;
      for (int dy : {-1, 0, 1})
        for (int dx : {-1, 0, 1})
          if ((dy || dx) && in(y + dy, x + dx)) out.push_back((y + dy) * W + x + dx);
      return out;
    });
  }
  if (geometry_used_.count(dsl::BuiltinId::Row)) {
    cell_table("kRow", "row(c): the cells of c's row", [&](int y, int) {
      std::vector<int> out;
      for (int x = 0; x < W; ++x) out.push_back(y * W + x);
      return out;
    });
  }
  if (geometry_used_.count(dsl::BuiltinId::Column)) {
    cell_table("kColumn", "column(c): the cells of c's column", [&](int, int x) {
      std::vector<int> out;
      for (int y = 0; y < H; ++y) out.push_back(y * W + x);
      return out;
    });
  }
  if (geometry_used_.count(dsl::BuiltinId::Corners)) {
    w_.line("/// corners(c): the four points around cell c");
    w_.linef("constexpr Bits<{}> kCorners[{}] = {{", pw, std::max(cells, 1));
    for (int c = 0; c < cells; ++c) {
      std::vector<uint64_t> bits(size_t(pw), 0);
      const int y = c / W, x = c % W;
      for (int py : {y, y + 1})
        for (int px : {x, x + 1}) {
          const int p = py * (W + 1) + px;
          bits[size_t(p) / 64] |= uint64_t(1) << (p % 64);
        }
      w_.linef("  {},", bits_literal(ir::kPointDomain, bits));
    }
    w_.line("};");
  }
  if (geometry_used_.count(dsl::BuiltinId::Around)) {
    const int points = (W + 1) * (H + 1);
    w_.line("/// around(pt): the cells touching point pt");
    w_.linef("constexpr Bits<{}> kAround[{}] = {{", cw, points);
    for (int p = 0; p < points; ++p) {
      std::vector<uint64_t> bits(size_t(cw), 0);
      const int py = p / (W + 1), px = p % (W + 1);
      for (int y : {py - 1, py})
        for (int x : {px - 1, px})
          if (in(y, x)) bits[size_t(y * W + x) / 64] |= uint64_t(1) << ((y * W + x) % 64);
      w_.linef("  {},", bits_literal(ir::kCellDomain, bits));
    }
    w_.line("};");
  }
  if (geometry_used_.count(dsl::BuiltinId::CellAt)) {
    w_.line("/// cell(y, x): the cell there, or none off the board");
    w_.line("constexpr Int cell_at(Int y, Int x) {");
    w_.line("  return y >= 0 && y < kHeight && x >= 0 && x < kWidth ? y * kWidth + x : kNone;");
    w_.line("}");
  }
  if (geometry_used_.count(dsl::BuiltinId::Segment) || geometry_used_.count(dsl::BuiltinId::Ends)) {
    w_.line("/// segment(c, o, n): n cells from c rightward (horizontal) or downward; empty");
    w_.line("/// when they leave the board. With `tips`, only its first and last cells.");
    w_.linef("inline Bits<{}> segment_of(Int c, Int o, Int n, bool tips) {{", cw);
    w_.linef("  Bits<{}> out{{}};", cw);
    w_.line("  if (n <= 0) return out;");
    w_.line("  const Int y = c / kWidth, x = c % kWidth;");
    w_.line("  if (o == 0 ? n > kWidth - x : n > kHeight - y) return out;  // any n: no overflow");
    w_.line("  const Int step = o == 0 ? 1 : kWidth;");
    w_.line("  for (Int k = 0; k < n; ++k) {");
    w_.line("    if (!tips || k == 0 || k == n - 1) out.set(c + k * step);");
    w_.line("  }");
    w_.line("  return out;");
    w_.line("}");
    w_.linef("inline Bits<{}> segment(Int c, Int o, Int n) {{ return segment_of(c, o, n, false); }}", cw);
    w_.linef("inline Bits<{}> ends(Int c, Int o, Int n) {{ return segment_of(c, o, n, true); }}", cw);
  }
  if (geometry_used_.count(dsl::BuiltinId::TeamOf) || geometry_used_.count(dsl::BuiltinId::Members)) {
    const auto& teams = program_.geometry.teams;
    std::vector<int> team_of(size_t(program_.players), -1);
    w_.line("/// members(t): the players of each team");
    w_.linef("constexpr Bits<{}> kMembers[{}] = {{", words(ir::kPlayerDomain),
             std::max<size_t>(teams.size(), 1));
    for (size_t t = 0; t < teams.size(); ++t) {
      std::vector<uint64_t> bits(size_t(words(ir::kPlayerDomain)), 0);
      for (int p : teams[t]) {
        bits[size_t(p) / 64] |= uint64_t(1) << (p % 64);
        if (p >= 0 && p < program_.players && team_of[size_t(p)] < 0) team_of[size_t(p)] = int(t);
      }
      w_.linef("  {},", bits_literal(ir::kPlayerDomain, bits));
    }
    if (teams.empty()) w_.line("  {},");
    w_.line("};");
    std::string list;
    for (int t : team_of) list += fmt::format("{}{}", list.empty() ? "" : ", ", t < 0 ? "kNone" : std::to_string(t));
    w_.linef("/// team_of(p): each player's team");
    w_.linef("constexpr Int kTeamOf[{}] = {{{}}};", std::max(program_.players, 1),
             list.empty() ? "0" : list);
    w_.line("inline Int team_of(Int p, const char* where) {");
    w_.line("  if (kTeamOf[p] == kNone) fail_value(where, \"a player in no team\", p);");
    w_.line("  return kTeamOf[p];");
    w_.line("}");
  }
  w_.blank();
}

// ---------------------------------------------------------------- helpers

void Emitter::begin_frame(int locals) {
  slots_.assign(size_t(std::max(locals, 0)) + 64, std::string());
}

std::string Emitter::where_text(dsl::Span span) const {
  if (span.file >= sources_.size()) return "<unknown>";
  const dsl::Position pos = sources_.position(span.file, span.begin);
  return fmt::format("{}:{}:{}", base_name(sources_.file(span.file).name), pos.line, pos.column);
}

std::string Emitter::where(dsl::Span span) const { return cpp_string(where_text(span)); }

std::string Emitter::source_excerpt(dsl::Span span, size_t max) const {
  if (span.file >= sources_.size()) return "";
  std::string_view t = sources_.text(span);
  std::string out;
  bool space = false;
  for (char c : t) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > max) out = out.substr(0, max - 3) + "...";
  return out;
}

std::string Emitter::quote(std::string_view s) const { return cpp_string(s); }

std::string Emitter::base_name_of_source() const { return base_name(program_.source_path); }

int Emitter::words(int domain) const {
  if (domain < 0) return 1;
  return std::max<int>(1, int((dom(domain).size + 63) / 64));
}

std::string Emitter::bits_literal(int domain, const std::vector<uint64_t>& bits) const {
  const int n = words(domain);
  std::string s = fmt::format("Bits<{}>{{{{", n);
  for (int k = 0; k < n; ++k) {
    s += fmt::format("{}0x{:x}ull", k ? ", " : "", size_t(k) < bits.size() ? bits[size_t(k)] : 0);
  }
  return s + "}}";
}

std::string Emitter::field_name(int var) const {
  return sanitize(program_.vars[size_t(var)].name) + "_";
}

std::string Emitter::fn_name(int f) const {
  return "define_" + sanitize(program_.functions[size_t(f)].name);
}

std::string Emitter::move_name(int m) const { return sanitize(program_.moves[size_t(m)].name); }

std::string Emitter::phase_name(int p) const { return sanitize(program_.phases[size_t(p)].name); }

std::string Emitter::sanitize(const std::string& name) const {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s.insert(0, 1, 'n');
  return s;
}

std::string Emitter::param_cpp_name(const std::string& name) const {
  static const std::set<std::string> kReserved = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
      "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit",
      "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int",
      "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
      "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "g", "t", "sink",
      "Int", "Bits", "List", "Game", "State", "kNone", "main", "std", "i", "m", "n", "k",
      "player", "saved", "out", "err", "fail", "bytes"};
  std::string s = sanitize(name);
  if (kReserved.count(s) || s.rfind("v", 0) == 0 || s.rfind("k", 0) == 0 ||
      s.rfind("idx_", 0) == 0 || s.rfind("val_", 0) == 0 || s.rfind("define_", 0) == 0 ||
      s.rfind("can_", 0) == 0 || s.rfind("gen_", 0) == 0 || s.rfind("apply_", 0) == 0) {
    s += "_";
  }
  return s;
}

std::string Emitter::param_type(const ir::Type& t) const {
  if (t.kind == ir::Type::Kind::Scalar) return cpp_type(t);
  return "const " + cpp_type(t) + "&";
}

}  // namespace emit

EmittedCpp emit_cpp(const ir::Program& program, const dsl::SourceSet& sources) {
  emit::Emitter e(program, sources);
  return e.run();
}

}  // namespace rulebook::compiler
