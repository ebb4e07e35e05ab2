// `dmltool compare --baseline-db DB [--baseline last:N|commit:SHA|since:DATE] REPORT.json`: a bench report judged
// against the history of the same cases on the same adapter, driver (device runtime), cache mode and clock setting
// (and CPU, for the CPU reference's cases), instead of against one other report. The selected history runs' samples
// of each case x backend are pooled into the base side of the ordinary comparison (gate/compare.h), so the
// verdicts, formats and exit codes are compare's; 3 when the database cannot be reached.
#pragma once

#include <string>

#include "gate/compare.h"
#include "store/results_db.h"

namespace dmltool::app {

struct BaselineSelector {
    enum class Kind { kLast, kCommit, kSince } kind = Kind::kLast;
    unsigned last = 5;  // last:N: the N most recent matching runs of each case
    std::string value;  // commit:SHA (a prefix) or since:DATE
};

// "" and *out set, or the one-line error.
std::string parse_baseline_selector(const std::string& text, BaselineSelector* out);

// The base run for `next` from the rows of the history (already matched to its adapter, driver, cache mode and
// clocks), as the selector picks them. `label` names the base in the comparison.
BenchRun baseline_from_history(const BenchRun& next, const std::vector<HistoryRow>& rows,
                               const BaselineSelector& selector, const std::string& label);

// The comparison of the report with its baseline; kDevice when the database cannot be reached.
Result<Comparison> compare_with_baseline(const std::string& db, const std::string& selector,
                                         const std::string& report_path, const CompareOptions& options);

int baseline_compare_command(const std::string& db, const std::string& selector, const std::string& report_path,
                             const CompareOptions& options);

}  // namespace dmltool::app
