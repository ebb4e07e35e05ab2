// The bench report as files: JSON (--report-json) for scripts (scripts/plot_bench.py, compare.py) and CSV
// (--report-csv) for spreadsheets. Both carry the machine, adapter, build, date, options, rooflines, every case
// and both tables; "not measured" is null in JSON and an empty cell in CSV.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bench/machine.h"
#include "bench/report.h"
#include "core/status.h"

namespace dmltool::app {

// A selected case that was not timed because its correctness check did not pass.
struct NotBenchmarked {
    std::string file, name, status, reason;
};

struct ReportContext {
    MachineInfo machine;
    BuildInfo build;
    std::string date;
    std::vector<std::string> files;                            // the case files given
    std::vector<std::pair<std::string, std::string>> options;  // option name -> value as used
    std::vector<NotBenchmarked> not_benchmarked;
    // The device backend's own description (adapter, runtime), "none" for --backend cpu: what `dmltool compare`
    // checks beside the adapter, standing in for a driver version that D3D12 does not report portably.
    std::string device = "none";
    // Extra top-level sections (cache mode, throttle probe history), written as given.
    std::vector<std::pair<std::string, std::string>> json_sections;  // key -> JSON text
};

// How to read a report's "samples" and "statistics"; `dmltool compare` refuses reports without it.
inline constexpr const char* kSampleFormat = "dmltool-samples-1";

Status write_report_json(const std::string& path, const BenchReport& report, const ReportContext& context);
Status write_report_csv(const std::string& path, const BenchReport& report, const ReportContext& context);

}  // namespace dmltool::app
