// The generator's top level: a whole rules file, declaration by declaration, from a seed.
#include "tests/random/program_gen.h"

#include <fmt/core.h>

#include <algorithm>

#include "tests/random/gen_internal.h"

namespace rulebook::testing {

namespace gen {

T mk(Ty::K k) { return std::make_shared<Ty>(Ty{k, 0, 0, -1, nullptr}); }
T range(int lo, int hi) { return std::make_shared<Ty>(Ty{Ty::Range, lo, hi, -1, nullptr}); }
T opt(T inner) { return std::make_shared<Ty>(Ty{Ty::Opt, 0, 0, -1, std::move(inner)}); }
T set_of(T inner) { return std::make_shared<Ty>(Ty{Ty::Set, 0, 0, -1, std::move(inner)}); }
T seq_of(T inner) { return std::make_shared<Ty>(Ty{Ty::Seq, 0, 0, -1, std::move(inner)}); }
bool is_int(const T& t) { return t->k == Ty::Int || t->k == Ty::Range; }
bool same(const T& a, const T& b) {
  if (a->k != b->k || a->lo != b->lo || a->hi != b->hi || a->id != b->id) return false;
  if (!a->inner || !b->inner) return !a->inner && !b->inner;
  return same(a->inner, b->inner);
}

namespace {

/// Names that are easy to get wrong in generated C++: keywords, macros, the standard
/// library's and the emitter's own names, and contextual words of the rules language
/// (not `grid`: a bool named grid before a block, `if grid {`, reads as a grid literal).
const std::vector<std::string> kAdversarial = {
    "class", "struct", "new", "delete", "auto", "return", "switch", "case", "default",
    "namespace", "template", "this", "virtual", "void", "char", "long", "short", "unsigned",
    "signed", "const", "static", "inline", "operator", "private", "public", "friend", "typedef",
    "union", "while", "do", "break", "continue", "volatile", "extern", "sizeof", "typename",
    "explicit", "mutable", "try", "catch", "throw", "nullptr", "float", "double", "main", "std",
    "size_t", "uint8_t", "int64_t", "uint64_t", "assert", "NULL", "errno", "EOF", "xor",
    "bitand", "compl", "not_eq", "and_eq", "or_eq", "xor_eq", "bitor", "concept", "co_await",
    "co_yield", "co_return", "consteval", "constinit", "export", "import", "module", "alignas",
    "alignof", "decltype", "noexcept", "static_assert", "thread_local", "register", "asm",
    "wchar_t", "char8_t", "final", "memcpy", "memset", "abort", "exit", "printf", "fopen",
    "Int", "Value", "State", "Game", "Move", "Status", "Bits", "rb_engine", "kNone", "hash",
    "apply", "legal", "perft", "scores", "g", "r", "s", "st", "rng", "n", "i", "j", "k", "e",
    "m", "f", "t", "v", "w", "table", "known", "value", "scratch", "tables_made", "scope_",
    "index", "time", "rand", "signal", "system", "environ", "count", "sum", "random",
    "shuffle", "file", "entry", "on", "stuck", "highest", "lowest", "boards", "moves", "at",
    "swap", "set", "seq", "property", "named", "extends", "with", "blocks", "of",
    "c_1", "c_2", "p_1", "m_1", "f_1", "cell_0", "r0c0", "r1c1", "p1_", "move_0", "phase_1",
    "define_0", "can_0", "var_1", "state_"};

}  // namespace

std::string Gen::fresh(const std::string& hint) {
  for (int tries = 0; tries < 30; ++tries) {
    std::string n;
    const int r = int(below(100));
    if (r < 45) n = pick(kAdversarial);
    else if (r < 70) n = hint + "_" + std::to_string(between(0, 3));
    else n = hint + std::to_string(between(0, 99));
    if (o_.system_names && chance(5)) n = chance(50) ? "over" : "passes";
    if (taken_.insert(n).second) return n;
  }
  std::string n = hint + "_x" + std::to_string(taken_.size());
  taken_.insert(n);
  return n;
}

std::string Gen::type_text(const T& t) const {
  switch (t->k) {
    case Ty::Bool: return "bool";
    case Ty::Int: return "int";
    case Ty::Range: return same(t, level_) ? level_name_ : fmt::format("{}..{}", t->lo, t->hi);
    case Ty::Enum: return enums_[size_t(t->id)].name;
    case Ty::Record: return records_[size_t(t->id)].name;
    case Ty::Cell: return "Cell";
    case Ty::Point: return "Point";
    case Ty::Player: return "Player";
    case Ty::Team: return "Team";
    case Ty::Phase: return "Phase";
    case Ty::Orient: return "Orientation";
    case Ty::Opt: return type_text(t->inner) + "?";
    case Ty::Set: return "set of " + type_text(t->inner);
    case Ty::Seq: return "seq of " + type_text(t->inner);
  }
  return "bool";
}

}  // namespace gen

GeneratedProgram generate_program(uint64_t seed, const GenOptions& options) {
  // The stream starts at the seed's first splitmix64 draw, not at the seed itself: splitmix64
  // steps its state by a constant, so seeds one step apart would give the same draws shifted
  // by one, and consecutive seeds would test nearly the same programs.
  gen::Gen g(SplitMix64(seed).next(), options);
  GeneratedProgram p = options.tiny_for_proofs ? g.run_tiny() : g.run();
  p.text = fmt::format("// generated program, seed {}\n", seed) + p.text;
  return p;
}

}  // namespace rulebook::testing
