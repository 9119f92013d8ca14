// The help texts' examples and defaults: at the foot of `rulebook --help` and of each verb's
// help, and so in the man page.
#include <string>
#include <utility>
#include <vector>

#include "cli/verbs.h"

namespace rulebook::cli {

namespace {

const std::vector<std::pair<std::string, std::string>>& examples() {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"check",
       "  rulebook check variants/*/*.rules      diagnostics, or a summary of each game\n"
       "  rulebook check --json game.rules       the same as JSON\n"
       "  rulebook check --deny-warnings a.rules a warning not acknowledged exits 1\n"
       "  cat game.rules | rulebook check -      rules from standard input"},
      {"fmt",
       "  rulebook fmt game.rules                the canonical layout on stdout\n"
       "  rulebook fmt --write game.rules        ... in place\n"
       "  rulebook fmt --check variants/*/*.rules  list the files not formatted"},
      {"ir", "  rulebook ir game.rules                 the lowered IR, with source locations"},
      {"compile", "  rulebook compile game.rules -o engine.cpp"},
      {"plan", "  rulebook plan game.rules --no-pass NAME"},
      {"play",
       "  rulebook play game.rules --seed 7      a random game, move by move\n"
       "  rulebook play game.rules --engine interp\n"
       "  rulebook play game.rules --moves \"place(r0c1), place(r2c2)\" --then-random\n"
       "  rulebook play game.rules --seed 7 --save-moves game.txt; rulebook play game.rules --moves-file game.txt\n"
       "  rulebook play game.rules --coverage --games 100"},
      {"diff",
       "  rulebook diff base.rules variant.rules   what the variant changes, with playouts compared\n"
       "  rulebook diff base.rules variant.rules --rules-only --json"},
      {"perft", "  rulebook perft game.rules --depth 5 --divide"},
      {"bench", "  rulebook bench game.rules --games 1000 --depth 4 --runs 3"},
      {"explore", "  rulebook explore game.rules --depth 5 --max-memory 4G"},
      {"prove", "  rulebook prove game.rules --property NAME --timeout 60"},
      {"puzzle",
       "  rulebook puzzle sudoku.rules --seed 7                    a minimal puzzle, its solution, the criteria\n"
       "  rulebook puzzle sudoku.rules --seed 1 --count 20 -o new.txt   20 puzzles as a data file"},
      {"deduce",
       "  rulebook explore hidden.rules --depth 4 --list fleets.json --observe answer\n"
       "  rulebook deduce fleets.json --hidden all --bag answer=3 --limit 16   probes needed per hidden state"},
      {"solve",
       "  rulebook solve sudoku.rules --setup puzzle=5 --clues   solutions, uniqueness, needed clues\n"
       "  rulebook solve sudoku.rules --setup puzzle=3 --max 5000 --boards 2\n"
       "  rulebook solve grid.rules --max 1000 --boards 0         count the complete grids\n"
       "  rulebook solve game.rules                               a game's value under perfect play\n"
       "  rulebook solve sudoku.rules --game --setup puzzle=5 --max-states 200000"},
      {"draw", "  rulebook draw game.rules --plies 12 -o board.svg"},
      {"tree", "  rulebook tree game.rules --depth 2 --format svg -o tree.svg"},
      {"report", "  rulebook report variants -o reports --config variants/report.json"},
      {"lsp", "  rulebook lsp                           started by an editor (docs/editors.md)"},
      {"lint",
       "  rulebook lint game.rules               the designer alerts over 200 random games\n"
       "  rulebook lint game.rules --games 50 --json"},
  };
  return table;
}

/// Shows `=value` after each option whose variable starts with a value worth saying: not
/// flags, lists, positionals, required options, empty values, a 0 the description does not
/// explain, nor options whose description already says what the default means (`--depth`:
/// "default: until no state is left").
void show_defaults(CLI::App& verb) {
  for (CLI::Option* opt : verb.get_options()) {
    if (opt->get_positional() || opt->get_required() || opt->get_expected_max() == 0) continue;
    if (opt->get_items_expected_max() > 1) continue;
    if (opt->get_description().find("default") != std::string::npos) continue;
    opt->capture_default_str();
    const std::string value = opt->get_default_str();
    // 0 often means "no limit"; shown only where the description says what it means.
    const bool unexplained_zero = value == "0" && opt->get_description().find("0:") == std::string::npos;
    if (value.empty() || unexplained_zero) opt->default_str("");
  }
}

}  // namespace

void add_examples(CLI::App& app) {
  std::string all = "Examples:\n";
  for (const auto& entry : examples()) {
    CLI::App* verb = nullptr;
    for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == entry.first) verb = sub;
    if (!verb) continue;
    show_defaults(*verb);
    verb->footer("\nExamples:\n" + entry.second);
    all += entry.second.substr(0, entry.second.find('\n')) + "\n";
  }
  app.footer("\n" + all + "\nA FILE of - reads the rules from standard input. See `rulebook VERB --help`.");
}

}  // namespace rulebook::cli
