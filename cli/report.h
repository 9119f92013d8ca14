// The report of one variant: what is analysed (ReportPlan), the result objects (JSON) and
// the HTML page made from them. Sections computed by other analyses plug in through
// ReportSections: each is a JSON-able result object, rendered generically, and a section
// left empty says "not computed" on the page.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render/annotate.h"

namespace rulebook::cli {

/// How much is analysed per variant (a report configuration can change it per game).
struct ReportPlan {
  uint64_t seed = 1;       ///< playout i uses seed + i; the example game uses `seed`
  int games = 200;         ///< random playouts
  int greedy_games = 50;   ///< greedy playouts (only when the rules have a score)
  int max_plies = 1000;    ///< longer games are cut off and counted apart
  int tree_depth = 2;      ///< the opening tree
  int tree_breadth = 3;
  int threads = 2;
  std::vector<render::Layer> layers;  ///< annotations of the board diagrams
  std::vector<std::string> layer_texts;
};

/// Results of other analyses, as JSON-able objects, that a variant's page shows:
///   proofs       the verifier's results, e.g. [{"property": ..., "kind": ..., "verdict": ...,
///                "over": ..., "witness": "<svg ...>" or board text}, ...]
///   enumeration  the explorer's counts, e.g. {"depths": [{"depth": 1, "paths": ...,
///                "distinct": ..., "up_to_symmetry": ..., "terminal": ...}, ...], ...}
/// An array of objects is drawn as a table (one column per key, in first-seen order; a
/// string value starting with "<svg" is inlined as a diagram); an object as a table of
/// its keys, nested values as JSON text. std::nullopt: the page says "not computed".
struct ReportSections {
  std::optional<nlohmann::json> proofs;
  std::optional<nlohmann::json> enumeration;
};

/// Everything computed for one variant: `json` is the object written to VARIANT.json
/// (`analysis`), `html` the page's sections between the summary and the rules.
struct VariantAnalysis {
  nlohmann::json json;
  std::string html;
  std::vector<std::pair<std::string, std::string>> key_figures;  ///< for the index
  bool ok = true;
  std::string error;
};

/// Opens `path` with a compiled engine and analyses it as `plan` says. Progress goes to
/// stderr; `stop` (Ctrl-C) cuts playouts short, and the page says how many were played.
VariantAnalysis analyse_variant(const std::string& path, const ReportPlan& plan, const ReportSections& sections,
                                const std::atomic<bool>* stop);

/// A generic HTML view of a JSON result object (see ReportSections).
std::string json_to_html(const nlohmann::json& value);

std::string html_escape(const std::string& s);

}  // namespace rulebook::cli
