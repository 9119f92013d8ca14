// Helpers for the checker tests: rule files in a scratch folder, checking in-memory text.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "dsl/check.h"
#include "dsl/load.h"

namespace rulebook::dsl::testing {

/// A fresh folder that is the working directory while the object lives, so that file
/// names in diagnostics are short and the same on every machine.
class ScratchDir {
 public:
  ScratchDir() {
    static int counter = 0;
    namespace fs = std::filesystem;
    dir_ = fs::temp_directory_path() /
           ("rulebook_check_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    old_ = fs::current_path();
    fs::current_path(dir_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::current_path(old_, ec);
    std::filesystem::remove_all(dir_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  void write(const std::string& name, const std::string& text) const {
    std::filesystem::path p = dir_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }

 private:
  std::filesystem::path dir_, old_;
};

/// Checks `text` as a file called test.rules; the diagnostics stay in `diags`.
struct Checked {
  SourceSet sources;
  Diagnostics diags;
  Game game;
  std::string errors() const { return diags.render(sources); }
};

inline std::unique_ptr<Checked> check_text(const std::string& text,
                                           const std::string& name = "test.rules") {
  auto c = std::make_unique<Checked>();
  uint32_t id = c->sources.add(name, text);
  c->game = check_game(load_game_source(id, c->sources, c->diags), c->sources, c->diags);
  return c;
}

/// A small valid game; tests append declarations to it.
inline const char* kPrelude =
    "game \"T\";\n"
    "board 3 x 4;\n"
    "players 2;\n";

}  // namespace rulebook::dsl::testing
