// The benchmark history (--results-db FILE, `dmltool history`): every benchmark of every `dmltool bench` run
// appended to an SQLite database with where and with what it ran, so that a case's trend can be followed across
// commits, drivers and adapters. Two tables:
//   runs(id, date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache)
//   benchmarks(id, run_id, case_name, file, operator, feature_level, dtype, backend, median_seconds, noise,
//              converged, executions_per_sample, samples)  -- samples: a JSON array of seconds
// `device` is the backend's own description (adapter and runtime), standing in for the driver version D3D12 does
// not report portably. A build without SQLite (libsqlite3-dev) says so instead of writing anything.
#pragma once

#include <string>
#include <vector>

#include "app/bench_report.h"
#include "app/bench_stats.h"
#include "core/status.h"

namespace dmltool::app {

struct ResultsRun {
    std::string date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache;
};

// Appends one run and its benchmarks in one transaction (all or nothing); creates the tables when missing.
Status append_results(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases);

// One benchmark of one run, as stored.
struct HistoryRow {
    ResultsRun run;
    std::string case_name, op, feature_level, dtype, backend;
    double median_seconds = 0, noise = 0;
    bool converged = false;
    unsigned executions_per_sample = 1;
    std::vector<double> samples;
};

// Every stored benchmark of `case_name`, oldest run first.
Result<std::vector<HistoryRow>> load_history(const std::string& db_path, const std::string& case_name);

// `dmltool history CASE --results-db FILE [--format table|csv]`: the case's trend; exit 0, 2 on bad input.
int history_command(const std::string& case_name, const std::string& db_path, const std::string& format);

}  // namespace dmltool::app
