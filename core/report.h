// Turns CaseResults into what people and CI read: console lines with mismatches and repro commands, the
// summary line, per-feature-level totals, JUnit XML and a JSON report.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "core/runner.h"

namespace dmltool {

// Text for XML (and HTML) content and attribute values: & < > " ' escaped, control characters that XML 1.0
// forbids even escaped replaced by '?'.
std::string xml_escape(const std::string& text);

struct RunSummary {
    size_t total = 0, passed = 0, failed = 0, mistrusted = 0, unsupported = 0, invalid = 0, skipped = 0, deviates = 0;
    bool device_error = false;
    bool strict = false;  // --strict: a DEVIATES case fails the run (exit code 1)
    double seconds = 0;
};

RunSummary summarize(const std::vector<CaseResult>& results, double seconds, bool strict = false);
// 3 device/environment error, 2 any INVALID, 1 any FAILED or MISTRUSTED (or DEVIATES with strict), else 0.
int exit_code_for(const RunSummary& summary);

struct ConsoleOptions {
    bool verbose = false;  // also list PASSED cases and per-output comparison details
};

// Details of one case (nothing for a PASSED case unless verbose).
void print_case(std::FILE* out, const CaseResult& result, const ConsoleOptions& options);
// "dmltool: 12 cases: 10 passed, 1 failed, ..." plus per-feature-level counts.
void print_summary(std::FILE* out, const RunSummary& summary, const std::vector<CaseResult>& results);

Status write_junit(const std::string& path, const std::vector<CaseResult>& results, const RunSummary& summary);
Status write_json_report(const std::string& path, const std::vector<CaseResult>& results, const RunSummary& summary,
                         const std::string& backend_name);

}  // namespace dmltool
