// The pieces of `dmltool report --html` (store/html_report.h), one file per kind of section so that each stays
// readable: html_report.cpp (the command, the page, the per-report charts and verdict tables),
// html_report_matrix.cpp (the case x run matrix, the cases not benchmarked, the per-model tables) and
// html_report_trends.cpp (history trends with their axes). Internal to store/.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gate/compare.h"
#include "store/results_db.h"

namespace dmltool::app::html {

// One bench report: the file as JSON (the sections compare does not read: not_benchmarked, model_table, checks)
// and as compare reads it (samples, adapter, ...).
struct Report {
    std::string path;
    nlohmann::json root;
    BenchRun run;
};

std::string fmt(const char* format, double value);
std::string si(double value, const std::string& unit);  // engineering prefixes: "1.5 GB/s"
std::string seconds_text(double seconds);               // "1.23 ms"
const char* backend_color(const std::string& backend);  // one color per backend, the same in every chart
std::string str(const nlohmann::json& j, const char* key);  // "" when absent or not a string
double num(const nlohmann::json& j, const char* key);       // -1 when absent or not a number
std::string short_commit(const std::string& commit);         // the first 8 characters, "-dirty" kept

// A run as a column header: its number, file, date, commit and adapter (which may differ between columns under
// --allow-different-adapters, so every header names its own).
std::string run_header(size_t index, const Report& report);

// Case x backend rows by run columns: median, ratio to the first run, the noise as an error bar, and the verdict
// of compare against the first run where one was computed (comparisons[i] for run i; [0] is empty).
std::string case_run_matrix(const std::vector<Report>& reports, const std::vector<std::optional<Comparison>>& comparisons);

// Each report's cases that were not benchmarked (FAILED, UNSUPPORTED, SKIPPED, INVALID) and the timed ones whose
// check DEVIATES, each with its reason.
std::string not_benchmarked_section(const std::vector<Report>& reports);

// The reports' model_table (imported models): per model and backend, where its time goes per operator type.
std::string model_section(const std::vector<Report>& reports);

// With --results-db: one chart per case x backend x device of its median over the history's runs, with a time
// axis and the runs' dates and commits.
std::string trends_section(const std::vector<Report>& reports, const std::vector<HistoryRow>& history);

}  // namespace dmltool::app::html
