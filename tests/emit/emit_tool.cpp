// emit_tool: `emit_tool compile FILE -o OUT.cpp`, the generator the emitter tests give
// rulebook_add_engines (the same command line as `rulebook compile`).
#include <cstdio>
#include <cstring>
#include <fstream>

#include "compiler/emit_cpp.h"
#include "compiler/lower.h"

int main(int argc, char** argv) {
  if (argc != 5 || std::strcmp(argv[1], "compile") != 0 || std::strcmp(argv[3], "-o") != 0) {
    std::fprintf(stderr, "usage: emit_tool compile FILE -o OUT.cpp\n");
    return 2;
  }
  rulebook::dsl::SourceSet sources;
  rulebook::dsl::Diagnostics diags;
  auto program = rulebook::compiler::load_program(argv[2], sources, diags);
  if (!program) {
    std::fprintf(stderr, "%s", diags.render(sources).c_str());
    return 1;
  }
  const auto emitted = rulebook::compiler::emit_cpp(*program, sources);
  if (!emitted.error.empty()) {
    std::fprintf(stderr, "%s: internal error: %s\n", argv[2], emitted.error.c_str());
    return 3;
  }
  std::ofstream out(argv[4], std::ios::binary | std::ios::trunc);
  out << emitted.source;
  return out ? 0 : 3;
}
