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
#include <fstream>
#include <sstream>
#include <string>

#include "compiler/emit_cpp.h"
#include "compiler/lower.h"

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

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
  if (read_all(output) != emitted.source) {
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    out << emitted.source;
    out.close();
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", rules.c_str(), output.c_str());
      return 3;
    }
  }
  if (!depfile.empty()) {
    std::string text = depfile_path(output) + ":";
    for (size_t i = 0; i < sources.size(); ++i) {
      const std::string name = std::filesystem::absolute(sources.file(uint32_t(i)).name).string();
      text += " \\\n  " + depfile_path(name);
    }
    text += "\n";
    std::ofstream out(depfile, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", rules.c_str(), depfile.c_str());
      return 3;
    }
  }
  return 0;
}
