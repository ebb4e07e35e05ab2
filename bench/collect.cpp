#include "bench/collect.h"

#include <sstream>

#include "core/platform.h"

namespace dmltool::app {

std::string explain_library_build_warning(const std::string& context_text) {
    const std::string warning = "***WARNING*** Library was built as DEBUG. Timings may be affected.\n";
    const size_t at = context_text.find(warning);
    if (at == std::string::npos) return context_text;
    // Debian's libbenchmark is built without NDEBUG, hence the warning on a Release dmltool. It concerns the
    // library's own timer, which dmltool does not use: registration.cpp times every sample itself and hands the
    // library the result (manual time).
    return context_text.substr(0, at) +
           "note: Google Benchmark's library was built without NDEBUG (as Debian's package is); dmltool times "
           "every sample itself, so that build does not change the figures\n" +
           context_text.substr(at + warning.size());
}

bool CollectingReporter::ReportContext(const Context& context) {
    std::ostream& error_stream = display_->GetErrorStream();
    std::ostringstream captured;
    display_->SetErrorStream(&captured);
    const bool ok = display_->ReportContext(context);
    display_->SetErrorStream(&error_stream);
    error_stream << explain_library_build_warning(captured.str()) << std::flush;
    return ok;
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
