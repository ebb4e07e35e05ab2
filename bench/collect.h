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

    // The display's context, with Google Benchmark's "Library was built as DEBUG" warning replaced by what it
    // means here (explain_library_build_warning).
    bool ReportContext(const Context& context) override;
    void ReportRuns(const std::vector<Run>& runs) override { display_->ReportRuns(runs); }
    void Finalize() override { display_->Finalize(); }

private:
    std::unique_ptr<benchmark::BenchmarkReporter> display_;
};

// `context_text` (what a display printed as its context) with the line "***WARNING*** Library was built as
// DEBUG. Timings may be affected." replaced by one note saying why it does not apply to dmltool's figures.
std::string explain_library_build_warning(const std::string& context_text);

// The display for the --benchmark_format flag among `benchmark_args` (console when absent). Console output is
// tabular, and coloured on a terminal. kInvalidInput for an unknown format.
Result<std::unique_ptr<benchmark::BenchmarkReporter>> make_display_reporter(const std::vector<std::string>& benchmark_args,
                                                                            bool* is_console);

}  // namespace dmltool::app
