// `rulebook check FILE...`: diagnostics for each file, or a one-screen summary of its game.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/colour.h"
#include "cli/json_out.h"
#include "cli/stdin_input.h"
#include "cli/verbs.h"
#include "compiler/lower/lower.h"
#include "dsl/check.h"
#include "dsl/diagnostics.h"
#include "dsl/load.h"
#include "dsl/summary.h"

namespace rulebook::cli {
namespace {

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
  bool quiet = false;
  bool deny_warnings = false;
};

int run_check(const CheckOptions& opt) {
  int result = kExitOk;
  nlohmann::json report = nlohmann::json::array();
  for (const std::string& path : opt.files) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    dsl::Game game;
    if (is_stdin(path)) {
      uint32_t id = 0;
      std::string error;
      if (!load_rules(path, sources, id, error)) {
        fmt::print(stderr, "{}: error: {}\n", kStdinName, error);
        result = kExitInputError;
        continue;
      }
      game = dsl::check_game(dsl::load_game_source(id, sources, diags), sources, diags);
    } else {
      game = dsl::check_file(path, sources, diags);
    }
    // What lowering refuses (a set of unbounded ints, a bad data file, ...) is refused
    // here too: a file `check` accepts runs on every backend.
    if (!diags.has_errors()) compiler::lower_game(game, sources, diags);
    const bool ok = !diags.has_errors();
    if (!ok || (opt.deny_warnings && diags.warning_count() > 0)) result = kExitInputError;
    if (opt.json) {
      nlohmann::json j;
      j["file"] = path;
      j["ok"] = ok;
      j["diagnostics"] = diagnostics_json(diags, sources);
      if (ok) j["summary"] = dsl::describe(game);
      report.push_back(std::move(j));
      continue;
    }
    // Diagnostics go to stderr so that stdout holds only the summaries.
    print_diagnostics(diags.render(sources));
    // The summary quotes titles and names from the file: escaped like the diagnostics.
    if (ok && !opt.quiet) fmt::print("{}\n", dsl::escape_for_terminal(dsl::describe(game)));
  }
  if (opt.json) fmt::print("{}\n", report.dump(2));
  return result;
}

}  // namespace

void add_check(CLI::App& app, int& result) {
  auto opt = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "Check rule files; print diagnostics or a summary");
  cmd->add_option("files", opt->files, "Rule files (- reads standard input)")->required();
  cmd->add_flag("--json", opt->json, "Print diagnostics and summaries as JSON");
  cmd->add_flag("-q,--quiet", opt->quiet, "Print only diagnostics");
  cmd->add_flag("--deny-warnings", opt->deny_warnings,
                "Exit 1 when a file has a warning (acknowledge one with 'allow CODE NAME \"reason\";')");
  cmd->callback([opt, &result] { result = run_check(*opt); });
}

}  // namespace rulebook::cli
