// Structure-aware mutation of rules files: the units of a parsed file are spliced as source
// text, so every mutation keeps most of the file valid and reaches the checker, the lowering
// and the engines rather than stopping in the lexer.
#include "tests/fuzz/mutate_rules.h"

#include <algorithm>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_cost.h"
#include "compiler/runtime/random.h"
#include "dsl/ast.h"
#include "dsl/diagnostics.h"
#include "dsl/parser.h"
#include "dsl/source.h"

namespace rulebook::fuzz {

namespace {

using namespace rulebook::dsl;

/// The spans of a file's units, by kind.
struct Units {
  std::vector<Span> decls, stmts, exprs, ints, names, strings;
};

/// splitmix64, so that one seed gives one mutation on every platform.
struct Random {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

class Collector {
 public:
  explicit Collector(Units& u) : u_(u) {}

  void expr(const ExprPtr& e) {
    if (!e) return;
    u_.exprs.push_back(e->span);
    if (e->kind == ExprKind::Int) u_.ints.push_back(e->span);
    if (e->kind == ExprKind::Name) u_.names.push_back(e->span);
    if (e->kind == ExprKind::String) u_.strings.push_back(e->span);
    for (const ExprPtr& a : e->args) expr(a);
    for (const Binding& b : e->binders) binding(b);
    expr(e->where);
    for (const GridKey& k : e->grid.keys) expr(k.value);
  }

  void binding(const Binding& b) {
    u_.names.push_back(b.var.span);
    expr(b.domain);
  }

  void type(const TypePtr& t) {
    if (!t) return;
    expr(t->lo);
    expr(t->hi);
    for (const TypePtr& e : t->elems) type(e);
  }

  void block(const Block& body) {
    for (const StmtPtr& s : body) stmt(*s);
  }

  void stmt(const Stmt& s) {
    u_.stmts.push_back(s.span);
    expr(s.target);
    expr(s.value);
    for (const Binding& b : s.binders) binding(b);
    expr(s.where);
    block(s.body);
    block(s.otherwise);
  }

  void params(const std::vector<ParamDecl>& ps) {
    for (const ParamDecl& p : ps) {
      u_.names.push_back(p.name.span);
      type(p.type);
    }
  }

  void move(const Move& m) {
    u_.names.push_back(m.name.span);
    params(m.params);
    for (const ExprPtr& r : m.requires_) expr(r);
    block(m.body);
  }

  void decl(const Decl& d) {
    u_.decls.push_back(d.span);
    std::visit([&](const auto& b) { body(b); }, d.body);
  }

 private:
  void body(const Param& p) { name(p.name), type(p.type), expr(p.value); }
  void body(const Board& b) { expr(b.rows), expr(b.columns); }
  void body(const Regions& r) { name(r.name), expr(r.block_rows), expr(r.block_columns), expr(r.grid); }
  void body(const Players& p) { expr(p.count); }
  void body(const Team& t) { name(t.name); }
  void body(const TypeDecl& t) { name(t.name), type(t.type); }
  void body(const Setup& s) { name(s.name), type(s.type), expr(s.value), expr(s.from), expr(s.entry); }
  void body(const State& s) { name(s.name), type(s.type), expr(s.initial); }
  void body(const Init& i) { block(i.body); }
  void body(const Define& d) { name(d.name), params(d.params), type(d.type), expr(d.body); }
  void body(const Action& a) { name(a.name), params(a.params), block(a.body); }
  void body(const Allow& a) {
    if (!a.subject.name.empty()) name(a.subject);
  }
  void body(const Rule& r) { name(r.name), expr(r.condition); }
  void body(const Phase& p) {
    name(p.name);
    for (const Move& m : p.moves) move(m);
    block(p.stuck);
    for (const Transition& t : p.transitions) expr(t.condition);
  }
  void body(const Score& s) { expr(s.value); }
  void body(const Winner&) {}
  void body(const EndWhen& e) { expr(e.condition); }
  void body(const Property& p) { name(p.name), expr(p.over.where), expr(p.expr); }
  void body(const Metric& m) { name(m.name), expr(m.value), expr(m.when); }
  void body(const Symmetry& s) { name(s.name); }
  void body(const Remove&) {}
  void body(const Move& m) { move(m); }
  void name(const Ident& i) { u_.names.push_back(i.span); }

  Units& u_;
};

/// Numbers where 64-bit arithmetic, domains and loops break.
const std::vector<std::string> kEdgeNumbers = {
    "0", "1", "-1", "2", "9223372036854775807", "-9223372036854775807", "4611686018427387904",
    "3037000500", "65536", "4294967296", "255", "256", "100000"};

/// Names an emitter or a runtime might use for itself, keywords of the target language, and
/// names that differ from another only by a suffix.
const std::vector<std::string> kAwkwardNames = {
    "over", "passes", "out", "mover", "phase", "m", "m_checked", "f_compute", "c_1", "x_2",
    "int", "class", "namespace", "template", "main", "std", "g", "k", "i", "n", "Int",
    "define_f", "can_m", "gen_m", "apply_m", "idx_d0", "val_d0", "kNone", "state", "bytes"};

/// String contents that would end a comment or a literal, or drive a terminal, if printed raw.
const std::vector<std::string> kAwkwardStrings = {
    "\"x\\n#include <cstdio>\\nstatic int z = (std::fopen(\\\"INJECTED\\\", \\\"w\\\"), 0);\\n//\"",
    "\"*/ int z; /*\"", "\"\\\\\"", "\"\\x1b[2J\"", "\"\\u202e reversed\"", "\"?\?/\"", "\"\\r\"",
    "\"\\t\\\"\""};

const std::vector<std::string> kOperators = {"+", "-", "*", "/", "%", "and", "or", "==", "!=",
                                             "<", "<=", "in", ".."};

std::string text_of(const std::string& s, Span sp) {
  if (sp.end < sp.begin || sp.end > s.size()) return "";
  return s.substr(sp.begin, sp.end - sp.begin);
}

std::string splice(const std::string& s, Span sp, const std::string& with) {
  return s.substr(0, sp.begin) + with + s.substr(sp.end);
}

bool valid(const std::string& s, Span sp) { return sp.begin <= sp.end && sp.end <= s.size(); }

}  // namespace

std::optional<std::string> mutate_rules(const std::string& text, uint32_t seed) {
  SourceSet sources;
  const uint32_t id = sources.add("mutated.rules", text);
  Diagnostics diags;
  std::unique_ptr<File> file = parse(sources, id, diags);
  if (!file || diags.has_errors()) return std::nullopt;
  Units u;
  Collector c(u);
  for (const Decl& d : file->decls) c.decl(d);
  if (file->title_span.end > file->title_span.begin) u.strings.push_back(file->title_span);

  Random r{seed * 0x2545f4914f6cdd1dull + 1};
  for (int attempt = 0; attempt < 8; ++attempt) {
    switch (r.below(9)) {
      case 0:  // an expression becomes another of the file
        if (u.exprs.size() < 2) break;
        {
          Span a = r.pick(u.exprs), b = r.pick(u.exprs);
          if (valid(text, a) && valid(text, b)) return splice(text, a, "(" + text_of(text, b) + ")");
        }
        break;
      case 1:  // an expression is combined with another by an operator
        if (u.exprs.empty()) break;
        {
          Span a = r.pick(u.exprs), b = r.pick(u.exprs);
          if (valid(text, a) && valid(text, b)) {
            return splice(text, a, "(" + text_of(text, a) + ") " + r.pick(kOperators) + " (" +
                                       text_of(text, b) + ")");
          }
        }
        break;
      case 2:  // a number moves to an edge
        if (u.ints.empty()) break;
        {
          Span a = r.pick(u.ints);
          if (valid(text, a)) return splice(text, a, r.pick(kEdgeNumbers));
        }
        break;
      case 3:  // a name becomes another name of the file, or an awkward one
        if (u.names.empty()) break;
        {
          Span a = r.pick(u.names);
          std::string with = r.below(2) ? r.pick(kAwkwardNames) : text_of(text, r.pick(u.names));
          if (valid(text, a) && !with.empty()) return splice(text, a, with);
        }
        break;
      case 4:  // a declaration is dropped
        if (u.decls.empty()) break;
        {
          Span a = r.pick(u.decls);
          if (valid(text, a)) return splice(text, a, "");
        }
        break;
      case 5:  // a declaration is copied after another
        if (u.decls.empty()) break;
        {
          Span a = r.pick(u.decls), b = r.pick(u.decls);
          if (valid(text, a) && valid(text, b)) {
            return text.substr(0, b.end) + "\n" + text_of(text, a) + "\n" + text.substr(b.end);
          }
        }
        break;
      case 6:  // a statement is dropped or doubled
        if (u.stmts.empty()) break;
        {
          Span a = r.pick(u.stmts);
          if (!valid(text, a)) break;
          std::string s = text_of(text, a);
          return splice(text, a, r.below(2) ? "" : s + "\n" + s);
        }
      case 7:  // a string (the title, a description, a data path) turns hostile
        if (u.strings.empty()) break;
        {
          Span a = r.pick(u.strings);
          if (valid(text, a)) return splice(text, a, r.pick(kAwkwardStrings));
        }
        break;
      case 8:  // two declarations change places
        if (u.decls.size() < 2) break;
        {
          Span a = r.pick(u.decls), b = r.pick(u.decls);
          if (a.begin > b.begin) std::swap(a, b);
          if (!valid(text, a) || !valid(text, b) || a.end > b.begin) break;
          return text.substr(0, a.begin) + text_of(text, b) + text.substr(a.end, b.begin - a.end) +
                 text_of(text, a) + text.substr(b.end);
        }
    }
  }
  return std::nullopt;
}

namespace {

// The harness's own budget per input, so that a legitimately large game is not taken for a
// hang: games past it are checked and lowered but not played.
constexpr uint32_t kMaxStateBytes = 1 << 14;
constexpr uint64_t kMaxMoveInstances = 1 << 12;  // per move, all parameter values
// Steps of one move, and of the setup, the end condition or the score, as the checker counts
// them (every loop at full size); the checker's own limit admits files that take minutes per
// move, which a fuzzer would call a hang.
constexpr double kMaxMoveWork = double(1 << 24);

bool within_budget(const ir::Program& p) {
  if (p.state_bytes > kMaxStateBytes) return false;
  for (double w : compiler::move_work(p))
    if (w > kMaxMoveWork) return false;
  if (compiler::play_work(p) > kMaxMoveWork) return false;  // the setup, the end, the score
  for (const ir::Move& m : p.moves) {
    uint64_t n = 1;
    for (const ir::MoveParam& param : m.params) {
      n *= std::max<uint64_t>(1, p.domains[size_t(param.domain)].size);
      if (n > kMaxMoveInstances) return false;
    }
  }
  return true;
}

Reached exercise_unguarded(const std::string& name, const std::string& text, uint64_t seed,
                           int plies) {
  Reached r;
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  std::optional<ir::Program> program = compiler::load_program_text(name, text, sources, diags);
  if (!program) {
    if (!diags.has_errors()) r.problem = "no program and no error";
    else if (diags.render(sources).empty()) r.problem = "errors rendered as nothing";
    return r;
  }
  r.lowered = true;
  if (!within_budget(*program)) return r;
  r.played = true;
  const compiler::Interpreter e(*program, sources);
  std::vector<uint8_t> state(e.info().state_bytes);
  engine::Setup setup;
  setup.seed = seed;
  engine::Status s = e.setup(state.data(), setup);
  SplitMix64 rng(seed);
  std::vector<engine::Move> moves;
  while (s.ok && r.plies < plies && !e.terminal(state.data())) {
    moves.clear();
    s = e.legal_moves(state.data(), moves);
    if (!s.ok || moves.empty()) break;
    const engine::Move& m = moves[rng.next() % moves.size()];
    (void)e.move_text(m);
    s = e.apply(state.data(), m);
    ++r.plies;
  }
  if (s.ok) {
    (void)e.board_text(state.data());
    std::vector<int64_t> scores;
    s = e.scores(state.data(), scores);
  }
  if (!s.ok && s.message.empty()) r.problem = "an engine error without a message";
  return r;
}

}  // namespace

Reached exercise(const std::string& name, const std::string& text, uint64_t seed, int plies) {
  // The pipeline promises diagnostics, not exceptions: one escaping is a problem like any.
  try {
    return exercise_unguarded(name, text, seed, plies);
  } catch (const std::exception& e) {
    Reached r;
    r.problem = std::string("an exception escaped: ") + e.what();
    return r;
  }
}

}  // namespace rulebook::fuzz
