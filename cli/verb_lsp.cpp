// `rulebook lsp`: the language server on stdin and stdout, for editors.
#include <cstdio>
#include <iostream>

#include "cli/verbs.h"
#include "lsp/server.h"

namespace rulebook::cli {

void add_lsp(CLI::App& app, int& result) {
  CLI::App* cmd = app.add_subcommand(
      "lsp", "Run the language server (LSP over stdin/stdout) for editors; see docs/editors.md");
  // Editors pass --stdio to servers whatever they are; it is the only transport anyway.
  cmd->add_flag("--stdio")->description("Talk over stdin and stdout (the default and only transport)");
  cmd->callback([&result] {
    std::ios::sync_with_stdio(false);
    lsp::Server server;
    result = server.run(std::cin, std::cout);
  });
}

}  // namespace rulebook::cli
