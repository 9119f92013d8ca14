// `rulebook fmt FILE...`: print (or rewrite, or check) files in the canonical layout.
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/colour.h"
#include "cli/output_file.h"
#include "cli/stdin_input.h"
#include "cli/verbs.h"
#include "dsl/parser.h"
#include "dsl/printer.h"

namespace rulebook::cli {
namespace {

struct FmtOptions {
  std::vector<std::string> files;
  bool write = false;
  bool check = false;
};

int run_fmt(const FmtOptions& opt) {
  int result = kExitOk;
  for (const std::string& path : opt.files) {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    uint32_t id = 0;
    std::string error;
    if (!load_rules(path, sources, id, error)) {
      fmt::print(stderr, "{}: error: {}\n", path, error);
      result = kExitInputError;
      continue;
    }
    std::unique_ptr<dsl::File> file = dsl::parse(sources, id, diags);
    if (diags.has_errors()) {
      // Formatting a file that does not parse would drop what the parser skipped.
      print_diagnostics(diags.render(sources));
      result = kExitInputError;
      continue;
    }
    std::string formatted = dsl::format_file(*file);
    const std::string& original = sources.file(id).text;
    if (opt.check) {
      if (formatted != original) {
        fmt::print("{}: not formatted\n", path);
        result = kExitInputError;
      }
    } else if (opt.write && is_stdin(path)) {
      // Nothing to rewrite in place: the formatted text goes to stdout.
      fmt::print("{}", formatted);
    } else if (opt.write) {
      if (formatted != original) {
        // A rules file cut short by a full disk would be a different game: all or nothing.
        if (const std::string error = write_file_atomically(path, formatted); !error.empty()) {
          fmt::print(stderr, "{}\n", error);
          result = kExitInputError;
        }
      }
    } else {
      fmt::print("{}", formatted);
    }
  }
  return result;
}

}  // namespace

void add_fmt(CLI::App& app, int& result) {
  auto opt = std::make_shared<FmtOptions>();
  CLI::App* cmd = app.add_subcommand("fmt", "Print rule files in the canonical layout");
  cmd->add_option("files", opt->files, "Rule files (- reads standard input)")->required();
  auto* write = cmd->add_flag("-w,--write", opt->write, "Rewrite the files in place");
  cmd->add_flag("--check", opt->check, "List files that are not formatted; exit 1 if any")
      ->excludes(write);
  cmd->callback([opt, &result] { result = run_fmt(*opt); });
}

}  // namespace rulebook::cli
