// The top of a variant's report page: what a designer reads first, in sentences made from
// the page's own data (who wins, how long games last, what was proved, how big the game is,
// how many alerts), each linking to the section that shows the evidence.
#include "cli/report_glance.h"

#include <map>

#include <fmt/format.h>

#include "explorer/alerts.h"
#include "render/palette.h"

namespace rulebook::cli {

namespace {

std::string html_escape(const std::string& s) { return render::xml_escape(s); }

std::string percent(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

std::string plural(uint64_t n, const std::string& one, const std::string& many) {
  return explorer::grouped(n) + " " + (n == 1 ? one : many);
}

/// "light 243 (48.6%, 95% interval 44.3–53.0%), dark 257 (51.4%, ...)"; ties apart.
std::string who_wins(const nlohmann::json& games) {
  const int finished = games.value("finished", 0), played = games.value("played", 0);
  std::string out = fmt::format("In {} ({}, seeds from {})", plural(uint64_t(played), "random game", "random games"),
                                games.value("policy", "random") == "greedy" ? "greedy moves" : "moves drawn at random",
                                games.value("first_seed", 1));
  if (finished == 0) return out + ": no game finished within " + plural(games.value("max_plies", 0), "move", "moves") +
                            "; see the alerts.";
  out += ": ";
  const int drawn = games.value("drawn", 0);
  std::string tail;
  if (const int cut = games.value("cut_off", 0))
    tail += fmt::format("; {} cut off at {} moves", explorer::grouped(uint64_t(cut)), explorer::grouped(games.value("max_plies", 0)));
  if (finished < played && !games.value("cut_off", 0))
    tail += fmt::format("; {} of {} finished", explorer::grouped(uint64_t(finished)), explorer::grouped(uint64_t(played)));
  // A game whose rules name no winner, and one where every game was tied, in a few words.
  if (!games.contains("wins") || games["wins"].empty())
    return out + fmt::format("{} finished; the rules name no winner", explorer::grouped(uint64_t(finished))) + tail + ".";
  if (drawn == finished) return out + fmt::format("every finished game tied ({})", explorer::grouped(uint64_t(drawn))) + tail + ".";
  bool first = true;
  for (const nlohmann::json& w : games["wins"]) {
    out += first ? "" : ", ";
    first = false;
    const auto ci = w.value("ci95", std::vector<double>{});
    out += fmt::format("{} won {}", html_escape(w.value("name", "")), explorer::grouped(w.value("wins", 0)));
    out += ci.size() == 2 ? fmt::format(" ({}; 95% interval {}–{})", percent(w.value("share", 0.0)), percent(ci[0]),
                                        percent(ci[1]))
                          : fmt::format(" ({})", percent(w.value("share", 0.0)));
  }
  out += fmt::format("; {}", drawn ? plural(uint64_t(drawn), "game tied", "games tied") : "no tie");
  return out + tail + ".";
}

/// "29 to 43 moves, 36.5 on average; by phase: opening 6.4, filling 30.1 on average."
std::string how_long(const nlohmann::json& games) {
  const nlohmann::json& length = games["length"];
  if (length.value("count", 0) == 0) return "";
  const uint64_t least = length.value("min", uint64_t(0)), most = length.value("max", uint64_t(0));
  std::string out = least == most ? fmt::format("Every game lasts {} moves", explorer::grouped(least))
                                  : fmt::format("Games last {} to {} moves, {:.1f} on average", explorer::grouped(least),
                                                explorer::grouped(most), length.value("mean", 0.0));
  if (games.contains("phases") && games["phases"].size() > 1) {
    out += "; by phase: ";
    bool first = true;
    for (const nlohmann::json& ph : games["phases"]) {
      out += first ? "" : ", ";
      first = false;
      out += fmt::format("{} {:.1f}", html_escape(ph.value("phase", "")), ph["plies"].value("mean", 0.0));
    }
    out += " on average";
  }
  return out + ".";
}

/// "4 properties: 3 proved, 1 refuted." Verdicts in the order they first appear.
std::string what_was_proved(const nlohmann::json& proofs) {
  if (!proofs.is_array() || proofs.empty()) return "";
  std::vector<std::string> order;
  std::map<std::string, size_t> count;
  size_t stated = 0;
  for (const nlohmann::json& p : proofs) {
    if (p.value("found", false)) continue;  // the verifier's own candidates are not the file's properties
    ++stated;
    const std::string v = p.value("verdict", "");
    if (!count.count(v)) order.push_back(v);
    ++count[v];
  }
  if (stated == 0) return "";
  std::string out = plural(stated, "property", "properties") + " checked: ";
  for (size_t i = 0; i < order.size(); ++i)
    out += fmt::format("{}{} {}", i ? ", " : "", explorer::grouped(count[order[i]]), html_escape(order[i]));
  const size_t open = count["unknown"] + count["timeout"];
  return out + (open ? fmt::format(" ({} without a definite verdict within the report's budget)", explorer::grouped(open)) : "") +
         ".";
}

std::string how_big(const nlohmann::json& e) {
  if (!e.is_object() || !e.contains("total_distinct")) return "";
  std::string out = fmt::format("{} distinct states ", explorer::grouped(e.value("total_distinct", uint64_t(0))));
  out += e.value("complete", false) ? "in the whole game" : fmt::format("within {} moves", e.value("max_depth", 0));
  const uint64_t order = e.value("group_order", uint64_t(1));
  if (order > 1) out += fmt::format(" (the rules keep {} board and label maps)", explorer::grouped(order));
  return out + ".";
}

/// "In 30 games: place played 846 times (in 30 games), ..., capture 111 (in 20); ended by
/// end when (30)." Moves never played are named first: they are what a designer must see.
std::string what_happens(const nlohmann::json& c) {
  if (!c.is_object() || !c.contains("moves") || c.value("played", 0) == 0) return "";
  std::string never, played;
  for (const nlohmann::json& m : c["moves"]) {
    const std::string name = html_escape(m.value("move", ""));
    if (m.value("chosen", 0) == 0) {
      never += (never.empty() ? "" : ", ") + name;
      continue;
    }
    played += fmt::format("{}{} {} (in {} of them)", played.empty() ? "" : ", ", name,
                          plural(m.value("chosen", uint64_t(0)), "time", "times"), explorer::grouped(m.value("games", 0)));
  }
  std::string out = fmt::format("In {}: ", plural(c.value("played", 0), "game", "games"));
  if (!never.empty()) out += "<span class=\"bad\">never played: " + never + "</span>; ";
  out += "played " + played;
  if (c.contains("ended_by")) {
    std::string ends;
    for (const nlohmann::json& e : c["ended_by"])
      if (e.value("games", 0) > 0)
        ends += fmt::format("{}{} ({})", ends.empty() ? "" : ", ", html_escape(e.value("cause", "")), explorer::grouped(e.value("games", 0)));
    if (!ends.empty()) out += "; ended by " + ends;
  }
  return out + ".";
}

std::string alerts_line(const nlohmann::json& a) {
  if (!a.is_object() || !a.contains("alerts")) return "";
  size_t warnings = 0, notes = 0, acknowledged = 0;
  for (const nlohmann::json& x : a["alerts"]) {
    if (x.value("acknowledged", false)) ++acknowledged;
    else if (x.value("severity", "") == "warning") ++warnings;
    else ++notes;
  }
  std::string out = warnings ? "<span class=\"bad\">" + plural(warnings, "warning", "warnings") + "</span>"
                             : std::string("no warning");
  out += ", " + plural(notes, "note", "notes");
  if (acknowledged) out += fmt::format(", {} acknowledged by the rules", explorer::grouped(acknowledged));
  return out + ".";
}

}  // namespace

std::string glance_html(const nlohmann::json& analysis) {
  std::vector<std::pair<std::string, std::string>> rows;  // (label and link, sentence)
  if (analysis.contains("random_playouts")) {
    rows.push_back({"<a href=\"#playouts\">Who wins</a>", who_wins(analysis["random_playouts"])});
    if (std::string s = how_long(analysis["random_playouts"]); !s.empty())
      rows.push_back({"<a href=\"#playouts\">How long</a>", s});
  }
  if (analysis.contains("coverage"))
    if (std::string s = what_happens(analysis["coverage"]); !s.empty())
      rows.push_back({"<a href=\"#coverage\">What happens</a>", s});
  if (analysis.contains("proofs"))
    if (std::string s = what_was_proved(analysis["proofs"]); !s.empty())
      rows.push_back({"<a href=\"#proofs\">Proved</a>", s});
  if (analysis.contains("enumeration"))
    if (std::string s = how_big(analysis["enumeration"]); !s.empty())
      rows.push_back({"<a href=\"#enumeration\">How big</a>", s});
  if (analysis.contains("alerts"))
    if (std::string s = alerts_line(analysis["alerts"]); !s.empty())
      rows.push_back({"<a href=\"#alerts\">Alerts</a>", s});
  if (rows.empty()) return "";
  std::string h = "<h2 id=\"glance\">At a glance</h2>\n<table class=\"glance\">\n";
  for (const auto& [label, sentence] : rows) h += "<tr><th>" + label + "</th><td>" + sentence + "</td></tr>\n";
  return h + "</table>\n";
}

}  // namespace rulebook::cli
