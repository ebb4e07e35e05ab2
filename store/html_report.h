// `dmltool report --html OUT.html REPORT.json [REPORT.json ...] [--results-db DB] [--allow-different-adapters]`:
// bench reports as one page a vendor reads. Self-contained: inline SVG and CSS, no script, and a
// Content-Security-Policy of default-src 'none', so opening it makes no network request. Sections: a case x run
// matrix (median, ratio to the first run, noise as an error bar, compare's verdict), the cases not benchmarked
// (FAILED, UNSUPPORTED, SKIPPED, INVALID) and those that DEVIATE, with their reasons, per imported model where its
// time goes per operator type, then per report its throughput per feature level, % of roofline and time per case
// and backend (DirectML beside dmltool's kernels where a report has both), the compare verdicts (each report
// against the first, and against its history with --results-db) and per-case history trends with a time axis,
// dates and commits (--results-db). Case names are never clipped: they wrap.
#pragma once

#include <string>
#include <vector>

namespace dmltool::app {

struct HtmlReportOptions {
    std::vector<std::string> reports;
    std::string output;
    std::string results_db;
    bool allow_different_adapters = false;  // else reports of different adapters, drivers, ... are refused (exit 2)
};

// Exit 0 written, 2 bad input (a report that is not a bench report, reports of different adapters without
// --allow-different-adapters, unwritable output), 3 database unreachable.
int html_report_command(const HtmlReportOptions& options);

}  // namespace dmltool::app
