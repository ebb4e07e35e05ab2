#include "app/bench_collect.h"

#include <algorithm>

#include "core/platform.h"

namespace dmltool::app {

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
    display_->ReportRuns(runs);
    for (const Run& run : runs) {
        // Aggregates (mean, median, stddev of repetitions) are recomputed from the iteration runs instead.
        if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
        // Real time is the manual (GPU timestamp) time for manual-time benchmarks, the wall time otherwise.
        const double seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
        seconds_[run.run_name.function_name].push_back(seconds);
    }
}

double CollectingReporter::median_seconds(const std::string& name) const {
    const auto found = seconds_.find(name);
    if (found == seconds_.end() || found->second.empty()) return 0;
    std::vector<double> sorted = found->second;
    std::sort(sorted.begin(), sorted.end());
    const size_t middle = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

Result<std::unique_ptr<benchmark::BenchmarkReporter>> make_display_reporter(const std::vector<std::string>& benchmark_args,
                                                                            bool* is_console) {
    std::string format = "console";
    for (const std::string& arg : benchmark_args) {
        // Google Benchmark itself answers an unknown format with its usage text and exit code 0.
        for (const std::string flag : {"--benchmark_format=", "--benchmark_out_format="}) {
            if (arg.rfind(flag, 0) != 0) continue;
            const std::string value = arg.substr(flag.size());
            if (value != "console" && value != "json" && value != "csv")
                return invalid_input(flag.substr(0, flag.size() - 1) + ": expected console, json or csv, found '" +
                                     value + "'");
            if (flag == "--benchmark_format=") format = value;  // the last one wins, as in Google Benchmark
        }
    }
    *is_console = format == "console";
    if (format == "console") {
        const auto options = platform::is_terminal(stdout) ? benchmark::ConsoleReporter::OO_ColorTabular
                                                   : benchmark::ConsoleReporter::OO_Tabular;
        return std::unique_ptr<benchmark::BenchmarkReporter>(std::make_unique<benchmark::ConsoleReporter>(options));
    }
    if (format == "json") return std::unique_ptr<benchmark::BenchmarkReporter>(std::make_unique<benchmark::JSONReporter>());
    if (format == "csv") {
        // Deprecated upstream but still what --benchmark_format=csv gives: dmltool keeps the flag's meaning.
        BENCHMARK_DISABLE_DEPRECATED_WARNING
        return std::unique_ptr<benchmark::BenchmarkReporter>(std::make_unique<benchmark::CSVReporter>());
        BENCHMARK_RESTORE_DEPRECATED_WARNING
    }
    return internal_error("unhandled --benchmark_format '" + format + "'");
}

}  // namespace dmltool::app
