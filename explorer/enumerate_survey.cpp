// The survey of one game: its symmetries, then its states by depth within a budget, and the
// JSON that `rulebook explore --json` prints and a report page shows.
#include <nlohmann/json.hpp>

#include "explorer/enumerate.h"

namespace rulebook::explorer {

Survey survey(const ir::Program& program, const dsl::SourceSet& sources, const engine::Engine& engine,
              const uint8_t* root, const SurveyOptions& options) {
  Survey s;
  ExploreOptions eo;
  if (options.symmetry) {
    s.group = find_symmetries(program, sources, engine, root);
    // The candidates that play does not keep (maps of the board, automorphisms of the
    // structure, relabellings) may still keep the set of end states of a depth (e.g.
    // complete grids filled in a fixed order).
    for (const SymmetryCheck& c : s.group.checks) {
      bool in_group = false;
      for (const Transform& g : s.group.elements) in_group = in_group || same_transform(program, g, c.transform);
      if (!in_group && !c.declared) eo.end_candidates.push_back(c.transform);
    }
    eo.generators = s.group.generators;
  } else {
    s.group.elements = {Transform{"identity", std::vector<std::vector<uint32_t>>(program.domains.size()), {}}};
    s.group.note = "not searched";
  }
  eo.max_depth = options.max_depth;
  eo.max_states = options.max_states;
  eo.max_memory = options.max_memory;
  eo.threads = options.threads;
  eo.interrupt = options.interrupt;
  eo.progress = options.progress;
  eo.visit_last = options.visit_last;
  s.result = explore(program, engine, root, s.group.elements, eo);
  return s;
}

std::string complete_games_text(WideCount n, bool exact) {
  return (exact ? "" : "more than ") + wide_text(n);
}

namespace {

nlohmann::json end_rejected(const DepthCount& d) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : d.end_rejected) out.push_back({{"name", r.first}, {"reason", r.second}});
  return out;
}

}  // namespace

std::string survey_json(const ir::Program& p, const Survey& s) {
  using nlohmann::json;
  const ExploreResult& r = s.result;
  json j;
  j["title"] = p.title;
  j["state_bytes"] = p.state_bytes;
  j["packed_bits"] = r.key_bits;
  j["packed_bytes"] = r.key_bytes;
  j["constant"] = r.constant_vars;
  json syms = json::array();
  for (const SymmetryCheck& c : s.group.checks)
    syms.push_back({{"name", c.transform.name},
                    {"declared", c.declared},
                    {"kept", c.kept},
                    {"refuted", c.refuted},
                    {"reason", c.reason}});
  j["symmetries"] = syms;
  std::vector<std::string> used, generators;
  for (const Transform& t : s.group.elements) used.push_back(t.name);
  for (const Transform& t : s.group.generators)
    if (!t.is_identity()) generators.push_back(t.name);
  j["group"] = used;
  j["group_order"] = used.size();
  j["group_generators"] = generators;
  if (!s.group.note.empty()) j["group_note"] = s.group.note;
  json depths = json::array();
  for (const DepthCount& d : r.depths) {
    json phases = json::object();
    for (size_t i = 0; i < d.per_phase.size(); ++i) phases[p.phases[i].name] = d.per_phase[i];
    depths.push_back({{"depth", d.depth},
                      {"paths", d.paths_known ? json(d.paths) : json(nullptr)},
                      {"distinct", d.distinct},
                      {"up_to_symmetry", d.symmetric},
                      {"classes_whole", d.class_sum == d.distinct},
                      {"terminal", d.terminal},
                      {"terminal_up_to_symmetry", d.terminal_symmetric},
                      {"complete_games", wide_json(d.ends)},
                      {"complete_games_exact", d.ends_exact},
                      {"phases", phases},
                      {"end_symmetries", d.end_symmetries},
                      {"end_rejected", end_rejected(d)},
                      {"end_group_order", d.end_group_order},
                      {"terminal_end_classes",
                       d.end_symmetries.empty() ? json(d.terminal_symmetric) : json(d.terminal_end_classes)}});
  }
  j["depths"] = depths;
  j["complete"] = r.stopped.empty();
  j["stopped"] = r.stopped;
  if (r.stopped == "repeats") j["repeats_depth"] = r.repeats_depth;
  if (!r.status.ok) j["error"] = r.status.message;
  j["total_distinct"] = r.total_distinct;
  j["complete_games_total"] = wide_json(r.total_ends);
  j["complete_games_total_exact"] = r.total_ends_exact;
  return j.dump(2);
}

}  // namespace rulebook::explorer
