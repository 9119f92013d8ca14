// What a variant changes: the declarations in force of two rules files compared by their
// source text, and two analyses compared figure by figure with significance tests.
#include "cli/variant_diff.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <variant>

#include <fmt/core.h>

#include "compiler/ir/ir.h"
#include "dsl/diagnostics.h"
#include "dsl/load.h"

namespace rulebook::cli {
namespace {

using nlohmann::json;

/// Four significant digits: enough to read, and the same bytes on every machine.
double sig4(double v) { return std::isfinite(v) ? std::stod(fmt::format("{:.4g}", v)) : v; }

/// Source text with its layout collapsed, and without a leading `override`: an override
/// that restates its base word for word changes nothing.
std::string compared(std::string_view text) {
  std::string out = dsl::one_line(text);
  if (out.rfind("override ", 0) == 0) out.erase(0, 9);
  return out;
}

struct Item {
  std::string kind, name, description, text, at;
};

/// The declarations in force, keyed "kind name", in the order of the file.
std::vector<std::pair<std::string, Item>> items(const dsl::LoadedGame& g, const dsl::SourceSet& sources) {
  std::vector<std::pair<std::string, Item>> out;
  for (const dsl::MergedDecl& md : g.decls) {
    const auto [kind, name] = dsl::decl_key(*md.decl);
    Item it{kind, name, "", std::string(sources.text(md.decl->span)), ir::location(sources, md.decl->span)};
    if (const auto* rule = std::get_if<dsl::Rule>(&md.decl->body)) it.description = rule->description;
    out.emplace_back(kind + " " + name, it);
    for (const dsl::Move* m : md.moves) {
      const std::string mname = name + "." + m->name.name;
      out.emplace_back("move " + mname,
                       Item{"move", mname, "", std::string(sources.text(m->span)), ir::location(sources, m->span)});
    }
  }
  return out;
}

json item_json(const Item& it) {
  json j{{"kind", it.kind}, {"name", it.name}, {"text", it.text}, {"at", it.at}};
  if (!it.description.empty()) j["description"] = it.description;
  return j;
}

json side_json(const Item& it) {
  json j{{"text", it.text}, {"at", it.at}};
  if (!it.description.empty()) j["description"] = it.description;
  return j;
}

// ---------------------------------------------------------------- statistics

double betacf(double a, double b, double x) {
  const double tiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < 1e-15) break;
  }
  return h;
}

/// The regularized incomplete beta function I_x(a, b).
double betai(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double bt = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  return x < (a + 1) / (a + b + 2) ? bt * betacf(a, b, x) / a : 1 - bt * betacf(b, a, 1 - x) / b;
}

/// Count, mean and unbiased variance of a report summary (its histogram holds every value).
struct Moments {
  double n = 0, mean = 0, var = 0;
};

Moments moments(const json& summary) {
  Moments m;
  if (!summary.is_object() || !summary.contains("histogram")) return m;
  double sum = 0;
  for (const json& bin : summary["histogram"]) {
    m.n += bin[1].get<double>();
    sum += bin[0].get<double>() * bin[1].get<double>();
  }
  if (m.n == 0) return m;
  m.mean = sum / m.n;
  double ss = 0;
  for (const json& bin : summary["histogram"]) ss += bin[1].get<double>() * std::pow(bin[0].get<double>() - m.mean, 2);
  m.var = m.n > 1 ? ss / (m.n - 1) : 0;
  return m;
}

json means_json(const std::string& name, const json& a, const json& b) {
  const Moments x = moments(a), y = moments(b);
  json j{{"name", name}, {"a_mean", sig4(x.mean)}, {"b_mean", sig4(y.mean)}, {"difference", sig4(y.mean - x.mean)},
         {"a_count", x.n}, {"b_count", y.n}, {"test", "Welch's t-test"}};
  if (x.n < 2 || y.n < 2) {
    j["test"] = "none: fewer than 2 values on a side";
    return j;
  }
  // No spread on either side: the means are the whole story, and no t exists.
  if (x.var + y.var <= 0) {
    j["test"] = x.mean == y.mean ? "none: one value on both sides" : "none: one value on each side, not the same";
    return j;
  }
  double t = 0, df = 0;
  j["p_value"] = sig4(welch_p(x.mean, x.var, x.n, y.mean, y.var, y.n, t, df));
  j["t"] = sig4(t);
  j["df"] = sig4(df);
  return j;
}

json shares_json(const std::string& name, double k1, double n1, double k2, double n2) {
  double z = 0;
  const double p = two_proportion_p(k1, n1, k2, n2, z);
  return {{"name", name}, {"a_share", sig4(n1 > 0 ? k1 / n1 : 0)}, {"b_share", sig4(n2 > 0 ? k2 / n2 : 0)},
          {"a", {k1, n1}}, {"b", {k2, n2}}, {"difference", sig4((n2 > 0 ? k2 / n2 : 0) - (n1 > 0 ? k1 / n1 : 0))},
          {"test", "two-proportion z-test"}, {"z", sig4(z)}, {"p_value", sig4(p)}};
}

/// The wins of each subject present on both sides (matched by name); teams named so.
void wins_diff(const json& a, const json& b, const char* key, const std::string& prefix, json& out) {
  if (!a.contains(key) || !b.contains(key)) return;
  const double n1 = a["finished"].get<double>(), n2 = b["finished"].get<double>();
  for (const json& x : a[key])
    for (const json& y : b[key])
      if (x["name"] == y["name"])
        out.push_back(shares_json(prefix + x["name"].get<std::string>(), x["wins"].get<double>(), n1,
                                  y["wins"].get<double>(), n2));
}

json playouts_diff(const json& a, const json& b) {
  json j{{"a_games", a["played"]}, {"b_games", b["played"]}, {"a_finished", a["finished"]},
         {"b_finished", b["finished"]}, {"first_seed", {a["first_seed"], b["first_seed"]}}};
  j["means"] = json::array({means_json("length", a["length"], b["length"])});
  for (const json& x : a["metrics"])
    for (const json& y : b["metrics"])
      if (x["name"] == y["name"]) j["means"].push_back(means_json("metric " + x["name"].get<std::string>(), x["values"], y["values"]));
  j["branching"] = {{"a_mean", a["branching"]["mean"]}, {"b_mean", b["branching"]["mean"]},
                    {"test", "none: the report keeps no per-decision values"}};
  j["wins"] = json::array();
  // A game scored per team has its teams in `wins` already.
  const bool per_team = a.value("scored", "") == "team" && b.value("scored", "") == "team";
  wins_diff(a, b, "wins", per_team ? "team " : "", j["wins"]);
  if (!per_team) wins_diff(a, b, "team_wins", "team ", j["wins"]);
  j["drawn"] = shares_json("drawn", a["drawn"].get<double>(), a["finished"].get<double>(), b["drawn"].get<double>(),
                           b["finished"].get<double>());
  return j;
}

json proofs_diff(const json& a, const json& b) {
  json out = json::array();
  std::vector<std::string> names;
  std::map<std::string, json> left, right;
  for (const json& p : a) left[p["property"].get<std::string>()] = p, names.push_back(p["property"].get<std::string>());
  for (const json& p : b) {
    const std::string n = p["property"].get<std::string>();
    right[n] = p;
    if (!left.count(n)) names.push_back(n);
  }
  auto side = [](const std::map<std::string, json>& m, const std::string& n) {
    auto it = m.find(n);
    if (it == m.end()) return json(nullptr);
    json s{{"verdict", it->second["verdict"]}, {"detail", it->second.value("detail", "")}};
    if (it->second.contains("value")) s["value"] = it->second["value"];
    return s;
  };
  for (const std::string& n : names) {
    json l = side(left, n), r = side(right, n);
    const bool changed = l.is_null() || r.is_null() || l["verdict"] != r["verdict"] || l.value("value", json()) != r.value("value", json());
    out.push_back({{"property", n}, {"a", l}, {"b", r}, {"changed", changed}});
  }
  return out;
}

json states_diff(const json& a, const json& b) {
  json out = json::array();
  const json& da = a["depths"];
  const json& db = b["depths"];
  for (size_t d = 0; d < std::max(da.size(), db.size()); ++d) {
    json row{{"depth", d}};
    row["a_distinct"] = d < da.size() ? da[d]["distinct"] : json(nullptr);
    row["b_distinct"] = d < db.size() ? db[d]["distinct"] : json(nullptr);
    row["a_terminal"] = d < da.size() ? da[d]["terminal"] : json(nullptr);
    row["b_terminal"] = d < db.size() ? db[d]["terminal"] : json(nullptr);
    out.push_back(row);
  }
  return out;
}

/// Alerts keyed by code and message (their locations differ between files).
json alerts_diff(const json& a, const json& b) {
  auto keys = [](const json& side) {
    std::map<std::string, json> m;
    if (side.is_object() && side.contains("alerts"))
      for (const json& x : side["alerts"]) m[x["code"].get<std::string>() + " " + x["message"].get<std::string>()] = x;
    return m;
  };
  const auto ka = keys(a), kb = keys(b);
  json out{{"appeared", json::array()}, {"gone", json::array()}, {"kept", 0}};
  auto brief = [](const json& x) {
    return json{{"code", x["code"]}, {"severity", x["severity"]}, {"message", x["message"]}, {"at", x["at"]},
                {"acknowledged", x.value("acknowledged", false)}};
  };
  for (const auto& [k, x] : kb)
    if (!ka.count(k)) out["appeared"].push_back(brief(x));
  for (const auto& [k, x] : ka)
    if (!kb.count(k)) out["gone"].push_back(brief(x));
    else out["kept"] = out["kept"].get<int>() + 1;
  return out;
}

bool present(const json& j, const char* key) { return j.is_object() && j.contains(key) && !j[key].is_null(); }

}  // namespace

double two_proportion_p(double k1, double n1, double k2, double n2, double& z) {
  z = 0;
  if (n1 <= 0 || n2 <= 0) return 1;
  const double pooled = (k1 + k2) / (n1 + n2);
  const double se = std::sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se <= 0) return 1;
  z = (k2 / n2 - k1 / n1) / se;
  return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

double welch_p(double m1, double v1, double n1, double m2, double v2, double n2, double& t, double& df) {
  const double s1 = v1 / n1, s2 = v2 / n2;
  t = 0, df = n1 + n2 - 2;
  if (s1 + s2 <= 0) return m1 == m2 ? 1 : 0;
  t = (m2 - m1) / std::sqrt(s1 + s2);
  df = (s1 + s2) * (s1 + s2) / (s1 * s1 / (n1 - 1) + s2 * s2 / (n2 - 1));
  return betai(df / 2, 0.5, df / (df + t * t));
}

bool declarations_diff(const std::string& a_path, const std::string& b_path, json& out, std::string& error) {
  dsl::SourceSet sa, sb;
  dsl::Diagnostics da, db;
  const dsl::LoadedGame ga = dsl::load_game(a_path, sa, da);
  const dsl::LoadedGame gb = dsl::load_game(b_path, sb, db);
  if (da.has_errors() || db.has_errors() || !ga.loaded || !gb.loaded) {
    // B extending A repeats A's diagnostics: they are said once.
    error = da.render(sa);
    if (const std::string eb = db.render(sb); eb != error) error += eb;
    if (error.empty()) error = "error: a rules file could not be read\n";
    return false;
  }
  const auto ia = items(ga, sa), ib = items(gb, sb);
  auto title = [](const dsl::LoadedGame& g) { return g.chain.empty() ? std::string() : g.chain.back().file->title; };
  out = json{{"a", {{"file", a_path}, {"title", title(ga)}}}, {"b", {{"file", b_path}, {"title", title(gb)}}},
             {"added", json::array()}, {"removed", json::array()}, {"overridden", json::array()}, {"unchanged", 0}};
  std::map<std::string, const Item*> in_a, in_b;
  for (const auto& [k, it] : ia) in_a[k] = &it;
  for (const auto& [k, it] : ib) in_b[k] = &it;
  for (const auto& [k, it] : ib) {
    auto found = in_a.find(k);
    if (found == in_a.end()) out["added"].push_back(item_json(it));
    else if (compared(found->second->text) != compared(it.text) || found->second->description != it.description)
      out["overridden"].push_back({{"kind", it.kind}, {"name", it.name}, {"a", side_json(*found->second)}, {"b", side_json(it)}});
    else out["unchanged"] = out["unchanged"].get<int>() + 1;
  }
  for (const auto& [k, it] : ia)
    if (!in_b.count(k)) out["removed"].push_back(item_json(it));
  return true;
}

json analysis_diff(const json& a, const json& b) {
  json out = json::object();
  if (!a.is_object() || !b.is_object()) return out;
  if (present(a, "proofs") && present(b, "proofs") && a["proofs"].is_array() && b["proofs"].is_array())
    out["properties"] = proofs_diff(a["proofs"], b["proofs"]);
  if (present(a, "random_playouts") && present(b, "random_playouts"))
    out["playouts"] = playouts_diff(a["random_playouts"], b["random_playouts"]);
  if (present(a, "enumeration") && present(b, "enumeration") && a["enumeration"].contains("depths") &&
      b["enumeration"].contains("depths"))
    out["state_space"] = states_diff(a["enumeration"], b["enumeration"]);
  if (present(a, "alerts") || present(b, "alerts")) out["alerts"] = alerts_diff(a.value("alerts", json()), b.value("alerts", json()));
  return out;
}

}  // namespace rulebook::cli
