// The "At a glance" block of a report page, from made-up analysis data: each sentence says
// what the data says, names are escaped, and what a designer must notice is marked.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/report_glance.h"

using rulebook::cli::glance_html;

namespace {

nlohmann::json games(int played, int finished, int drawn, int cut_off) {
  return {{"played", played},
          {"finished", finished},
          {"drawn", drawn},
          {"cut_off", cut_off},
          {"max_plies", 1000},
          {"first_seed", 1},
          {"policy", "random"},
          {"wins", {{{"name", "<light>"}, {"wins", 60}, {"share", 0.6}, {"ci95", {0.5, 0.7}}},
                    {{"name", "dark"}, {"wins", 30}, {"share", 0.3}, {"ci95", {0.2, 0.4}}}}},
          {"length", {{"count", finished}, {"min", 10}, {"max", 1200}, {"mean", 36.25}}},
          {"phases", {{{"phase", "opening"}, {"plies", {{"mean", 6.5}}}}, {{"phase", "filling"}, {"plies", {{"mean", 29.75}}}}}}};
}

}  // namespace

TEST_CASE("at a glance: who wins, how long, what happens, what was proved, how big, the alerts") {
  nlohmann::json a;
  a["random_playouts"] = games(100, 90, 10, 0);
  a["coverage"] = {{"played", 30},
                   {"moves", {{{"move", "place"}, {"chosen", 1234}, {"games", 30}}, {{"move", "capture"}, {"chosen", 0}, {"games", 0}}}},
                   {"ended_by", {{{"cause", "end when"}, {"games", 30}}, {{"cause", "cut off"}, {"games", 0}}}}};
  a["proofs"] = {{{"verdict", "proved"}}, {{"verdict", "unknown"}}, {{"verdict", "proved"}}, {{"verdict", "proved"}, {"found", true}}};
  a["enumeration"] = {{"total_distinct", 1234567}, {"complete", false}, {"max_depth", 4}, {"group_order", 8}};
  a["alerts"] = {{"alerts", {{{"severity", "warning"}, {"acknowledged", false}},
                             {{"severity", "note"}, {"acknowledged", false}},
                             {{"severity", "warning"}, {"acknowledged", true}}}}};
  const std::string h = glance_html(a);
  CHECK(h.find("id=\"glance\"") != std::string::npos);
  CHECK(h.find("In 100 random games (moves drawn at random, seeds from 1): &lt;light&gt; won 60 (60.0%; 95% interval "
               "50.0%–70.0%), dark won 30 (30.0%; 95% interval 20.0%–40.0%); 10 games tied; 90 of 100 finished.") !=
        std::string::npos);
  CHECK(h.find("Games last 10 to 1,200 moves, 36.2 on average; by phase: opening 6.5, filling 29.8 on average.") !=
        std::string::npos);
  CHECK(h.find("In 30 games: <span class=\"bad\">never played: capture</span>; played place 1,234 times (in 30 of "
               "them); ended by end when (30).") != std::string::npos);
  CHECK(h.find("3 properties checked: 2 proved, 1 unknown (1 without a definite verdict within the report's budget).") !=
        std::string::npos);
  CHECK(h.find("1,234,567 distinct states within 4 moves (the rules keep 8 board and label maps).") != std::string::npos);
  CHECK(h.find("<span class=\"bad\">1 warning</span>, 1 note, 1 acknowledged by the rules.") != std::string::npos);
  CHECK(h.find("<light>") == std::string::npos);
}

TEST_CASE("at a glance: no finished game is said, cut-off games are counted, an empty analysis gives nothing") {
  nlohmann::json a;
  a["random_playouts"] = games(100, 0, 0, 100);
  a["random_playouts"]["length"]["count"] = 0;
  const std::string h = glance_html(a);
  CHECK(h.find("no game finished within 1,000 moves; see the alerts.") != std::string::npos);
  CHECK(h.find("Games last") == std::string::npos);
  a["random_playouts"] = games(100, 95, 0, 5);
  CHECK(glance_html(a).find("no tie; 5 cut off at 1,000 moves.") != std::string::npos);
  a["random_playouts"] = games(100, 100, 100, 0);
  a["random_playouts"]["length"] = {{"count", 100}, {"min", 53}, {"max", 53}, {"mean", 53.0}};
  CHECK(glance_html(a).find("Every game lasts 53 moves; by phase") != std::string::npos);
  CHECK(glance_html(a).find("(moves drawn at random, seeds from 1): every finished game tied (100).") != std::string::npos);
  a["random_playouts"]["wins"] = nlohmann::json::array();
  CHECK(glance_html(a).find("seeds from 1): 100 finished; the rules name no winner.") != std::string::npos);
  CHECK(glance_html(nlohmann::json::object()).empty());
}
