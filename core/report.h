// Turns CaseResults into what people and CI read: console lines with mismatches and repro commands, the
// summary line, per-feature-level totals, JUnit XML and a JSON report.
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/runner.h"

namespace dmltool {

// Text for XML (and HTML) content and attribute values: & < > " ' escaped, control characters that XML 1.0
// forbids even escaped replaced by '?'.
std::string xml_escape(const std::string& text);

// "1 case", "3 cases": a count with its noun in the right number, for every summary line.
std::string count_of(size_t count, const std::string& noun);

struct RunSummary {
    size_t total = 0, passed = 0, failed = 0, mistrusted = 0, unsupported = 0, invalid = 0, skipped = 0, deviates = 0;
    bool device_error = false;
    bool strict = false;  // --strict: a DEVIATES case fails the run (exit code 1)
    // --allow-unsupported: UNSUPPORTED cases do not make a run "nothing tested" (a sweep that expects cases beyond
    // this machine or the feature-level cap).
    bool allow_unsupported = false;
    double seconds = 0;
};

RunSummary summarize(const std::vector<CaseResult>& results, double seconds, bool strict = false,
                     bool allow_unsupported = false);
// No case selected, or every selected case SKIPPED or UNSUPPORTED (UNSUPPORTED counts as tested with
// --allow-unsupported): the run tested nothing (docs/cli.md: Exit codes).
constexpr int kExitNothingTested = 5;
// 3 device/environment error, 2 any INVALID, 1 any FAILED or MISTRUSTED (or DEVIATES with strict), 5 nothing
// tested, else 0.
int exit_code_for(const RunSummary& summary);

struct ConsoleOptions {
    bool verbose = false;  // also list PASSED cases and per-output comparison details
    // Verbose lines name a tolerance in full the first time it occurs ("T1 = error bound ...") and by its label
    // after that ("T1"), so a run of 400 cases does not repeat one formula 400 times. Owned by the caller, one per
    // run; null: every line in full.
    std::map<std::string, std::string>* tolerance_labels = nullptr;
};

// Details of one case (nothing for a PASSED case unless verbose).
void print_case(std::FILE* out, const CaseResult& result, const ConsoleOptions& options);
// "dmltool: 12 cases: 10 passed, 1 failed, ..." plus per-feature-level counts.
void print_summary(std::FILE* out, const RunSummary& summary, const std::vector<CaseResult>& results);

Status write_junit(const std::string& path, const std::vector<CaseResult>& results, const RunSummary& summary);
// What a run's JSON report says about the run itself, as bench's report does (bench/report_files.h): a result
// without its date, build, options and adapter cannot be compared with anything.
struct RunReportInfo {
    std::string backend;              // "cpu reference", or the device backends' names joined by " + "
    std::string adapter = "none";     // the device backends' names (adapter and runtime); "none" for --backend cpu
    std::string date;                 // UTC, "2026-11-20T23:33:25Z"
    std::string version, git_commit;  // of the dmltool that ran
    std::vector<std::string> files;   // the case files given
    std::vector<std::pair<std::string, std::string>> options;  // option name -> value as used
};
Status write_json_report(const std::string& path, const std::vector<CaseResult>& results, const RunSummary& summary,
                         const RunReportInfo& info);

}  // namespace dmltool
