// Between Google Benchmark and the display the user asked for (--benchmark_format=console|json|csv): forwards
// every call to that display. (dmltool's own report takes its samples from bench/registration.h's SampledRun.)
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::app {

class CollectingReporter : public benchmark::BenchmarkReporter {
public:
    explicit CollectingReporter(std::unique_ptr<benchmark::BenchmarkReporter> display) : display_(std::move(display)) {}

    bool ReportContext(const Context& context) override { return display_->ReportContext(context); }
    void ReportRuns(const std::vector<Run>& runs) override { display_->ReportRuns(runs); }
    void Finalize() override { display_->Finalize(); }

private:
    std::unique_ptr<benchmark::BenchmarkReporter> display_;
};

// The display for the --benchmark_format flag among `benchmark_args` (console when absent). Console output is
// tabular, and coloured on a terminal. kInvalidInput for an unknown format.
Result<std::unique_ptr<benchmark::BenchmarkReporter>> make_display_reporter(const std::vector<std::string>& benchmark_args,
                                                                            bool* is_console);

}  // namespace dmltool::app
