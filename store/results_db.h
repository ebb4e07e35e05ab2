// The benchmark history (--results-db FILE|URL, `dmltool history`): every benchmark of every `dmltool bench` run
// appended to an SQLite file or a PostgreSQL database (results_store.h) with where and with what it ran, so that a
// case's trend can be followed across commits, drivers and adapters. Two tables (schema version 2):
//   runs(id, date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache, stable_power_state,
//        shard)
//   benchmarks(id, run_id, case_name, file, operator, feature_level, dtype, backend, median_seconds, noise,
//              converged, executions_per_sample, samples, bytes, ops)  -- samples: a JSON array of seconds
// `device` is the backend's own description (adapter and runtime), standing in for the driver version D3D12 does
// not report portably: it is what --driver filters. A build without SQLite (libsqlite3-dev) or libpq (libpq-dev)
// says so instead of writing anything.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench/report.h"
#include "bench/stats.h"
#include "core/status.h"

namespace dmltool::app {

struct ResultsRun {
    std::string date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache;
    std::string stable_power_state = "off";  // schema 2; runs of schema 1 had the driver's clocks ("off")
    std::string shard;                       // schema 2: "I/N" of --shard; "" for runs of schema 1
    std::string timer = "wall";              // schema 4: bench --timer ('wall' or 'cpu'); earlier runs 'wall'
};

// Appends one run and its benchmarks in one transaction (all or nothing); creates the tables when missing.
Status append_results(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases);

// Opens (creating and upgrading) the store and closes it again: bench checks its --results-db this way before it
// benchmarks anything, so that a wrong URL or password costs seconds, not a whole suite.
Status check_results_store(const std::string& db_path);

struct StoredRun {
    long long id = 0;
    bool already_stored = false;  // an identical run (same date, host, adapter, device, first case's samples) was there
};

// Stores the run unless it is stored already (so bench then `dmltool store` of its report, or a retry whose first
// COMMIT did land, leave one run). An environment failure (kDevice: the server unreachable or gone mid-write) is
// retried with doubling waits from 1 s for up to `retry_seconds` in all, each retry announced on `log`.
Result<StoredRun> store_results(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases,
                                double retry_seconds, std::FILE* log);

// One benchmark of one run, as stored.
struct HistoryRow {
    ResultsRun run;
    std::string case_name, op, feature_level, dtype, backend;
    double median_seconds = 0, noise = 0;
    bool converged = false;
    unsigned executions_per_sample = 1;
    std::vector<double> samples;
    long long run_id = 0;
    double bytes = -1, ops = -1;  // per execution; -1: unknown (rows of schema 1)
    std::vector<double> process_medians;  // a run of several processes: each one's median; else empty
};

// What `history` and the baselines select; empty fields select everything.
struct HistoryFilter {
    std::string case_name;  // exact
    std::string backend;    // exact
    std::string adapter;    // substring of runs.adapter
    std::string driver;     // substring of runs.device (the adapter and its runtime: the driver's stand-in)
    std::string exact_adapter, exact_device, cache, cpu_model, stable_power_state, timer;  // exact (baselines)
    std::string commit;     // prefix of runs.git_commit
    std::string since;      // runs.date >= since (ISO 8601 date or date-time, UTC)
    std::string until;      // runs.date <= until; a date alone includes its whole day
};

// "" when `date` is an ISO 8601 date (YYYY-MM-DD) or UTC date-time (YYYY-MM-DDTHH:MM:SSZ) as reports write
// them, else the error naming `what` and what was found.
std::string check_iso_date(const std::string& what, const std::string& date);

// Every stored benchmark of `case_name`, oldest run first.
Result<std::vector<HistoryRow>> load_history(const std::string& db_path, const std::string& case_name);
// The benchmarks the filter selects, oldest run first.
Result<std::vector<HistoryRow>> load_history(const std::string& db_path, const HistoryFilter& filter);

// The exit code for a store error: 3 when the database could not be reached (the environment failed), else 2.
int results_store_exit_code(const Status& status);

// `dmltool history [CASE] --results-db FILE|URL [--adapter A] [--driver D] [--since DATE] [--until DATE]
// [--format table|csv] [--list]`: the trend of one case, or of every case the filters select; exit 0, 2 on bad
// input, 3 when the database cannot be reached. CASE (filter.case_name): a name, else a regular expression
// searched in the names. `list`: the distinct case names and adapters instead of the benchmarks.
int history_command(const HistoryFilter& filter, const std::string& db_path, const std::string& format,
                    bool list = false);

}  // namespace dmltool::app
