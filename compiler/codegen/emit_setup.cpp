// The C++ emitter's setup (initial values, setup variables from the random stream,
// `init`) and scores.
#include <algorithm>

#include "compiler/codegen/emit_internal.h"

namespace rulebook::compiler::emit {

// ---------------------------------------------------------------- setup

void Emitter::store_whole(int var, const ir::Expr& value, dsl::Span span) {
  const ir::StateVar& V = program_.vars[size_t(var)];
  const std::string what = names_.quote(
      run_errors::stored_outside(run_errors::kHole1, names_.dom(V.domain).name, V.name));
  const std::string none = exprs_.holds_none(value) ? ", true" : "";
  if (V.keys.empty()) {
    w_.line(stmts_.store(var, "", fmt::format("chk_d{}({}, {}, {}{})", V.domain, exprs_.expr(value),
                                       names_.where(span), what, none)) + ";");
    return;
  }
  if (value.type->kind == ir::Type::Kind::Set) {
    // A set stored as `T -> bool`: the key domain and the set's domain are the same.
    w_.open("{");
    w_.linef("const auto value = {};", exprs_.expr(value));
    w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count, stmts_.store(var, "i", "value.has(i) ? 1 : 0"));
    w_.close();
    return;
  }
  if (value.type->kind == ir::Type::Kind::List) {
    w_.open("{");
    w_.linef("const auto value = {};", exprs_.expr(value));
    w_.linef("if (value.n != {}) fail_value({}, {}, value.n);", V.count, names_.where(span),
             names_.quote(run_errors::values_count(V.name, std::to_string(V.count), run_errors::kHole1)));
    w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count,
             stmts_.store(var, "i",
                          fmt::format("chk_d{}(value.a[i], {}, {}{})", V.domain, names_.where(span),
                                      what, none)));
    w_.close();
    return;
  }
  s_.errors_.push_back(fmt::format("{}: cannot store this value in {}", names_.where_text(span), V.name));
}

void Emitter::setup_and_init() {
  w_.line("// ================================================================ setup");
  w_.blank();
  w_.line("/// Setup (docs/semantics.md): setup variables, initial values, `init`, first turn.");
  w_.open("void set_up(Game& g, uint64_t seed, const uint32_t* const* overrides) {");
  w_.line("static const uint8_t kZero[sizeof(State)] = {};");
  w_.line("load(g, kZero);");
  w_.line("// 1. setup variables, from one random stream");
  w_.line("SplitMix64 rng{seed};");
  w_.line("(void)rng;");
  for (size_t i = 0; i < program_.setups.size(); ++i) {
    const ir::SetupVar& S = program_.setups[i];
    const ir::StateVar& V = program_.vars[size_t(S.var)];
    names_.begin_frame(S.locals);
    w_.linef("// setup {} - {}", i, names_.line_of(S.span));
    w_.open(fmt::format("if (overrides && overrides[{}]) {{", i));
    w_.linef("for (Int i = 0; i < {}; ++i) {{", V.count);
    w_.linef("  if (overrides[{}][i] >= {}u) fail({}, {});", i, names_.dom(V.domain).size, names_.where(S.span),
             names_.quote(run_errors::given_outside(S.name, names_.dom(V.domain).name)));
    w_.linef("  {};", stmts_.store(S.var, V.keys.empty() ? "" : "i", fmt::format("overrides[{}][i]", i)));
    w_.line("}");
    w_.reopen("} else {");
    switch (S.source) {
      case ir::SetupVar::Source::Value:
        store_whole(S.var, *S.value, S.span);
        break;
      case ir::SetupVar::Source::Random:
      case ir::SetupVar::Source::Shuffle: {
        // The elements in ascending index (or list) order, then a partial Fisher-Yates
        // shuffle drawing from the stream: k draws for `random k of`, all for `shuffle`.
        const bool random = S.source == ir::SetupVar::Source::Random;
        const ir::Expr& src = random ? *S.from : *S.value;
        if (src.type->kind == ir::Type::Kind::Set) {
          const int fd = src.type->domain;
          w_.linef("Int a[{}];", std::max<uint32_t>(fd < 0 ? 1 : names_.dom(fd).size, 1));
          w_.line("Int n = 0;");
          w_.linef("for (Bits<{}> m = {}; !m.empty();) a[n++] = val_d{}(m.pop());", names_.words(fd),
                   exprs_.expr(src), fd < 0 ? 0 : fd);
        } else if (src.type->elem && src.type->elem->kind == ir::Type::Kind::Scalar) {
          w_.linef("const auto list = {};", exprs_.expr(src));
          w_.linef("Int a[{}];", masks_.list_cap(names_.cpp_type(*src.type->elem)));
          w_.line("const Int n = list.n;");
          w_.line("for (Int i = 0; i < n; ++i) a[i] = list.a[i];");
        } else {
          s_.errors_.push_back(fmt::format("{}: cannot draw from this value", names_.where_text(S.span)));
          break;
        }
        w_.linef("const Int k = {};", random ? exprs_.expr(*S.value) : std::string("n"));
        w_.linef("if (k < 0 || k > n) fail_value({}, {}, k, false, n);", names_.where(S.span),
                 names_.quote(run_errors::random_too_many(run_errors::kHole1, run_errors::kHole2)));
        w_.open("for (Int i = 0; i < k; ++i) {");
        w_.line("const Int j = i + Int(rng.next() % uint64_t(n - i));");
        w_.line("const Int t = a[i];");
        w_.line("a[i] = a[j];");
        w_.line("a[j] = t;");
        w_.close();
        if (random) {
          if (V.keys.empty() || !V.is_set) {
            s_.errors_.push_back(fmt::format("{}: `random` into a variable that is not a set",
                                             names_.where_text(S.span)));
            break;
          }
          const int key = V.keys.back();
          w_.linef("Bits<{}> chosen{{}};", names_.words(key));
          w_.linef("for (Int i = 0; i < k; ++i) chosen.set(chk_d{}(a[i], {}, {}{}));", key, names_.where(S.span),
                   names_.quote(run_errors::drawn_outside(run_errors::kHole1, names_.dom(key).name, S.name)),
                   run_errors::holds_none(program_.domains, *src.type) ? ", true" : "");
          w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count, stmts_.store(S.var, "i", "chosen.has(i) ? 1 : 0"));
        } else {
          w_.linef("if (n != {}) fail_value({}, {}, n);", V.count, names_.where(S.span),
                   names_.quote(run_errors::values_count(V.name, std::to_string(V.count), run_errors::kHole1)));
          w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count,
                   stmts_.store(
                       S.var, V.keys.empty() ? "" : "i",
                       fmt::format(
                           "chk_d{}(a[i], {}, {}{})", V.domain, names_.where(S.span),
                           names_.quote(run_errors::stored_outside(
                               run_errors::kHole1, names_.dom(V.domain).name, V.name)),
                           run_errors::holds_none(program_.domains, *src.type) ? ", true" : "")));
        }
        break;
      }
      case ir::SetupVar::Source::Entries: {
        if (S.entries.empty()) {
          w_.linef("fail({}, {});", names_.where(S.span),
                   names_.quote(fmt::format("setup {}: the data file has no entries", S.name)));
          break;
        }
        std::string list;
        for (size_t e = 0; e < S.entries.size(); ++e) {
          list += "\n    {";
          for (size_t k = 0; k < S.entries[e].size(); ++k) {
            list += fmt::format("{}{}", k ? ", " : "", S.entries[e][k]);
          }
          list += "},";
        }
        w_.linef("static constexpr uint32_t kEntries[{}][{}] = {{{}\n}};", S.entries.size(),
                 std::max<uint32_t>(V.count, 1), list);
        w_.linef("// {} entries of the setup's data file; the default is entry {}", S.entries.size(),
                 S.default_entry + 1);
        w_.linef("for (Int i = 0; i < {}; ++i) {};", V.count,
                 stmts_.store(S.var, V.keys.empty() ? "" : "i",
                       fmt::format("kEntries[{}][i]", S.default_entry)));
        break;
      }
    }
    w_.close();
  }
  // After the setups: an initial value may read them.
  names_.begin_frame(program_.initial_locals);
  w_.line("// 2. initial values of the states");
  stmts_.block(program_.initial);
  names_.begin_frame(program_.init_locals);
  w_.line("// 3. init");
  stmts_.block(program_.init);
  w_.line("// 4. the first phase, seat 1 to move, then the stuck loop");
  w_.linef("{};", stmts_.sys_put(ir::kVarPhase, "", "0"));
  w_.linef("{};", stmts_.sys_put(ir::kVarMover, "", "0"));
  w_.line("g.mover_ = 0;");
  w_.line("g.again_ = false;");
  w_.line("settle(g);");
  w_.close();
  w_.blank();
}

// ---------------------------------------------------------------- scores

void Emitter::scores() {
  const ir::Score& S = program_.score;
  w_.line("// ================================================================ scores");
  w_.blank();
  const int subjects = S.per_team ? int(program_.geometry.teams.size()) : program_.players;
  w_.line("/// score_subjects x score_width values, subject-major.");
  w_.open("void score_all(Game& g, int64_t* out) {");
  if (!S.value) {
    w_.linef("for (Int s = 0; s < {}; ++s) out[s] = 0;", subjects * S.width);
  } else {
    names_.begin_frame(S.locals);
    s_.slots_[0] = "subject";
    w_.open(fmt::format("for (Int subject = 0; subject < {}; ++subject) {{", subjects));
    if (S.value->type->kind == ir::Type::Kind::List) {
      w_.linef("const auto v = {};", exprs_.expr(*S.value));
      w_.linef("for (Int k = 0; k < {}; ++k) out[subject * {} + k] = k < v.n ? v.a[k] : 0;",
               S.width, S.width);
    } else {
      w_.linef("out[subject] = {};", exprs_.expr(*S.value));
    }
    w_.close();
  }
  w_.close();
  w_.blank();
}

}  // namespace rulebook::compiler::emit
