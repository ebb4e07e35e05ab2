// `dmltool store REPORT.json --results-db DB`: records a kept bench report in the results database later (the
// database was down when bench ran, or the run was made without --results-db). The same report stored twice is
// one run (results_db.h: store_results). Exit 0 stored or already there; 2 the report is not a bench report (one
// line naming the file and field); 3 the database cannot be reached after the retries.
#pragma once

#include <string>
#include <vector>

#include "bench/report.h"
#include "store/results_db.h"
#include "core/status.h"

namespace dmltool::app {

struct StoredReport {
    ResultsRun run;
    std::vector<BenchCase> cases;
};

// The run and its benchmarks as bench would have stored them, from its --report-json file.
Result<StoredReport> load_report_for_store(const std::string& path);

int store_command(const std::string& report_path, const std::string& db, double retry_seconds);

}  // namespace dmltool::app
