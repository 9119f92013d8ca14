// rulebook-emit: the build-time generator of engines. Writes the C++ engine of a rules file,
// and a depfile naming every file the rules were read from (the `extends` chain, data
// files), so the build regenerates an engine when any of them changes.
//
//   rulebook-emit FILE -o OUT.cpp [--depfile OUT.d]
//
// OUT.cpp is rewritten only when its text changes, so rebuilding the emitter does not
// recompile engines whose code stays the same. It links the compiler alone: the tools
// that link the engines it generates can then be built after it.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "cli/output_file.h"
#include "compiler/codegen/emit_cpp.h"
#include "compiler/lower/lower.h"

namespace {

/// A path as a Makefile depfile writes it (spaces and '#' escaped).
std::string depfile_path(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string rules, output, depfile;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-o") && i + 1 < argc) {
      output = argv[++i];
    } else if (!std::strcmp(argv[i], "--depfile") && i + 1 < argc) {
      depfile = argv[++i];
    } else if (rules.empty() && argv[i][0] != '-') {
      rules = argv[i];
    } else {
      rules.clear();
      break;
    }
  }
  if (rules.empty() || output.empty()) {
    std::fprintf(stderr, "usage: rulebook-emit FILE -o OUT.cpp [--depfile OUT.d]\n");
    return 2;
  }
  rulebook::dsl::SourceSet sources;
  rulebook::dsl::Diagnostics diags;
  auto program = rulebook::compiler::load_program(rules, sources, diags);
  if (!program || diags.has_errors()) {
    std::fprintf(stderr, "%s", diags.render(sources).c_str());
    return 1;
  }
  const auto emitted = rulebook::compiler::emit_cpp(*program, sources);
  if (!emitted.error.empty()) {
    std::fprintf(stderr, "%s: internal error: %s\n", rules.c_str(), emitted.error.c_str());
    return 3;
  }
  // A build stopped half way must not leave a truncated engine that a later build takes
  // as up to date.
  if (const std::string error = rulebook::cli::write_file_atomically(output, emitted.source); !error.empty()) {
    std::fprintf(stderr, "%s: %s\n", rules.c_str(), error.c_str());
    return 3;
  }
  if (!depfile.empty()) {
    std::string text = depfile_path(output) + ":";
    for (size_t i = 0; i < sources.size(); ++i) {
      const std::string name = std::filesystem::absolute(sources.file(uint32_t(i)).name).string();
      text += " \\\n  " + depfile_path(name);
    }
    text += "\n";
    if (const std::string error = rulebook::cli::write_file_atomically(depfile, text); !error.empty()) {
      std::fprintf(stderr, "%s: %s\n", rules.c_str(), error.c_str());
      return 3;
    }
  }
  return 0;
}
