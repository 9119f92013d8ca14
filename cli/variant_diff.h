// What a variant changes against another rules file (usually its base): the declarations
// in force added, removed and overridden, in each file's own words, and the differences of
// two analyses (the report's JSON of each): verdicts, playout figures with a significance
// test, state-space counts and alerts. `rulebook diff` prints it; the report draws it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace rulebook::cli {

/// The declarations in force in `a_path` and in `b_path` (each file with its bases), keyed
/// as the loader keys them; a phase's moves are items of their own (`phase.move`). JSON:
/// `a`, `b` (file, title), `added`, `removed` (kind, name, description, text, at),
/// `overridden` (kind, name, `a` and `b` each with description, text, at), `unchanged`.
/// False with `error` (the diagnostics) when a file does not load.
bool declarations_diff(const std::string& a_path, const std::string& b_path, nlohmann::json& out,
                       std::string& error);

/// The differences of two variants' analyses (the `analysis` objects of their report
/// JSON; a part missing on either side is left out): `properties` (each in either file:
/// verdict, value, detail of each side, `changed`), `playouts` (games; length, metrics:
/// means with Welch's t-test; wins and draws: shares with a two-proportion z-test),
/// `state_space` (distinct and terminal states per depth), `alerts` (`appeared`, `gone`).
nlohmann::json analysis_diff(const nlohmann::json& a, const nlohmann::json& b);

/// Two-sided p-value of the two-proportion z-test of k1/n1 against k2/n2 (pooled); 1 when
/// the pooled share is 0 or 1 or a side has no trial.
double two_proportion_p(double k1, double n1, double k2, double n2, double& z);
/// Two-sided p-value of Welch's t-test for means m, variances v (unbiased) and counts n.
double welch_p(double m1, double v1, double n1, double m2, double v2, double n2, double& t, double& df);

}  // namespace rulebook::cli
