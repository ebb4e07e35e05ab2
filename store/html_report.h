// `dmltool report --html OUT.html REPORT.json [REPORT.json ...] [--results-db DB]`: bench reports as one page a
// person would rather look at than read. Self-contained: inline SVG and CSS, no script, and a Content-Security-Policy
// of default-src 'none', so opening it makes no network request. Sections: throughput per feature level, % of
// roofline per case, each case's time per backend (DirectML beside dmltool's kernels where a report has both),
// compare verdicts (each report against the first, and against its history with --results-db), and per-case
// history trends (--results-db).
#pragma once

#include <string>
#include <vector>

namespace dmltool::app {

struct HtmlReportOptions {
    std::vector<std::string> reports;
    std::string output;
    std::string results_db;
};

// Exit 0 written, 2 bad input (a report that is not a bench report, unwritable output), 3 database unreachable.
int html_report_command(const HtmlReportOptions& options);

}  // namespace dmltool::app
