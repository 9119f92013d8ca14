// Helpers for the lowering and interpreter tests: loading variants and in-memory rules.
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/interpret.h"
#include "compiler/lower/lower.h"

namespace rulebook::compiler::testing {

/// Every shipped variant, sorted by path.
inline std::vector<std::string> variant_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(RULEBOOK_SOURCE_DIR "/variants"))
    if (e.path().extension() == ".rules") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

/// A lowered program with the sources its spans point into, and an interpreter over it.
struct Loaded {
  dsl::SourceSet sources;
  dsl::Diagnostics diags;
  std::optional<ir::Program> program;
  std::unique_ptr<Interpreter> engine;
  std::string errors() const { return diags.render(sources); }
};

inline std::unique_ptr<Loaded> finish(std::unique_ptr<Loaded> l) {
  if (l->program) l->engine = std::make_unique<Interpreter>(*l->program, l->sources);
  return l;
}

inline std::unique_ptr<Loaded> load_file(const std::string& path) {
  auto l = std::make_unique<Loaded>();
  l->program = load_program(path, l->sources, l->diags);
  return finish(std::move(l));
}

inline std::unique_ptr<Loaded> load_text(const std::string& text, const std::string& name = "test.rules") {
  auto l = std::make_unique<Loaded>();
  l->program = load_program_text(name, text, l->sources, l->diags);
  return finish(std::move(l));
}

/// The name of a variant relative to variants/, for messages.
inline std::string short_name(const std::string& path) {
  return std::filesystem::path(path).lexically_relative(RULEBOOK_SOURCE_DIR "/variants").string();
}

}  // namespace rulebook::compiler::testing
