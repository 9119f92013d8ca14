// Entry point of `rulebook`: parses the command line, runs one verb, picks the exit code.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/json_errors.h"
#include "cli/verbs.h"
#include "dsl/diagnostics.h"

namespace {

/// `rulebook chek`: names the verb that was probably meant instead of CLI11's generic
/// "unexpected argument". Returns true when argv[1] is a word that is no verb.
bool unknown_verb(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-' || argv[1][0] == '\0') return false;
  const std::string word = argv[1];
  std::vector<std::string> verbs;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(word)) return false;
    verbs.push_back(sub->get_name());
  }
  const std::string guess = rulebook::dsl::closest_name(word, verbs);
  std::string all;
  for (const std::string& v : verbs) all += (all.empty() ? "" : ", ") + v;
  fmt::print(stderr, "rulebook: unknown verb '{}'\n", rulebook::dsl::escape_for_terminal(word));
  if (!guess.empty()) fmt::print(stderr, "help: did you mean '{}'?\n", guess);
  fmt::print(stderr, "the verbs are: {}; `rulebook --help` describes them\n", all);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rulebook::cli;
  CLI::App app{"rulebook: write, check, run, prove and draw board-game rules", "rulebook"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rulebook 0.1");
  int result = kExitOk;
  add_check(app, result);
  add_fmt(app, result);
  add_report(app, result);
  add_compile(app, result);
  add_plan(app, result);
  add_play(app, result);
  add_diff(app, result);
  add_draw(app, result);
  add_tree(app, result);
  add_explore(app, result);
  add_prove(app, result);
  add_solve(app, result);
  add_puzzle(app, result);
  add_deduce(app, result);
  add_bench(app, result);
  add_lsp(app, result);
  add_lint(app, result);
  add_examples(app);
  bool json = false;
  for (int i = 1; i < argc; ++i) json = json || std::string_view(argv[i]) == "--json";
  JsonErrors json_errors(json);
  if (unknown_verb(app, argc, argv)) return json_errors.finish(kExitUsage);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return json_errors.finish(code == 0 ? kExitOk : kExitUsage);
  } catch (const std::exception& e) {
    fmt::print(stderr, "rulebook: internal error: {}\n", e.what());
    return json_errors.finish(kExitInternal);
  }
  return json_errors.finish(result);
}
