// The illustrated rulebook of a variant: its title, source and readings, the start, every
// phase, move and named rule in the file's words with allowed / not-allowed boards found in
// play, the end and the scoring; as an HTML page ready to print, and a PDF of it.
#pragma once

#include <atomic>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/report.h"
#include "cli/rule_examples.h"

namespace rulebook::cli {

struct BookPage {
  bool ok = true;
  std::string error;
  std::string html;      ///< the whole page
  nlohmann::json json;   ///< what it shows, for VARIANT-rulebook.json
  int rule_diagrams = 0; ///< allowed / not-allowed boards drawn
};

/// Builds the rulebook page of `path` (titled `title`; `stem` names the variant page it
/// links back to), searching examples within the plan's `book_*` counts and drawing boards
/// with the report's layers.
BookPage rulebook_page(const std::string& path, const std::string& title, const std::string& stem,
                       const ReportPlan& plan, const std::atomic<bool>* stop);

/// Prints `html_file` to `pdf_file` with headless Chromium (`chromium` on PATH); "" or why
/// not. The PDF is written beside and renamed, so a failed run leaves none.
std::string print_pdf(const std::string& html_file, const std::string& pdf_file);

/// Whether `chromium` is on PATH.
bool chromium_available();

}  // namespace rulebook::cli
