// The ```rules fences of a Markdown page, each with the marker before it that says how the
// test makes it a whole program: `<!-- example: KIND [ARG] -->` on the line before the fence.
#pragma once

#include <string>
#include <vector>

namespace rulebook::testing {

/// How a fence becomes a whole program (docs/language.md, the paragraph on its examples).
enum class FenceKind {
  Whole,       ///< `whole`: a game file as it stands
  Quoted,      ///< `quoted PATH`: the text appears in PATH (spacing aside), which is run
  Extends,     ///< `extends PATH`: spliced as a variant of PATH
  Hole,        ///< `in PATH`: put in place of the line `// example` of the harness PATH
  Error,       ///< `error [PATH]`: `check` must reject it with a located error
  SyntaxOnly,  ///< `syntax-only REASON`: shown, not run (kept short, printed)
  Unmarked,    ///< no marker: a failure
};

struct Fence {
  std::string page;  ///< the Markdown file
  int line = 0;      ///< of the opening ```rules
  FenceKind kind = FenceKind::Unmarked;
  std::string arg;   ///< the path or the reason
  std::string text;  ///< the fence's body, its common indentation removed
};

/// Every ```rules fence of the page `path` (its name as given, for messages).
std::vector<Fence> read_fences(const std::string& path);

/// `text` without its `//` comments, every run of white space made one space and the ends
/// trimmed: what a quote must match, since the docs re-indent what they quote and may
/// place a comment elsewhere. (No rules string holds `//` in the files quoted.)
std::string squeeze(const std::string& text);

/// The whole program of a fence of kind Extends or Hole, named `name` (placed beside the
/// base so that its relative paths hold); "" with `error` set when it cannot be made.
std::string whole_program(const Fence& fence, const std::string& root, std::string& name,
                          std::string& error);

std::string read_text(const std::string& path);

}  // namespace rulebook::testing
