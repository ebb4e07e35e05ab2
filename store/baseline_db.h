// `dmltool compare --baseline-db DB [--baseline last:N|commit:SHA|since:DATE] REPORT.json`: a bench report judged
// against the history of the same cases on the same adapter, driver (device runtime), cache mode and clock setting
// (and CPU, for the CPU reference's cases), instead of against one other report. Each selected history run is one
// observation of each case x backend (its median), never pooled samples: with at least kMinHistoryRuns runs the case
// is judged against their spread (gate/history.h), with fewer by the two-run test against the most recent run
// (gate/compare.h), and the comparison's notes say which. Formats and exit codes are compare's; 3 when the
// database cannot be reached.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

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

// Per case x backend of `next`: the runs of the history (rows already matched to its adapter, driver, cache mode
// and clocks; oldest run first) that the selector picks, one row per run, oldest first.
std::map<std::pair<std::string, std::string>, std::vector<const HistoryRow*>> history_runs_by_case(
    const BenchRun& next, const std::vector<HistoryRow>& rows, const BaselineSelector& selector);

// `next` judged case by case against those runs (see the top of this file); `label` names the base.
Comparison compare_with_history_runs(const BenchRun& next, const std::vector<HistoryRow>& rows,
                                     const BaselineSelector& selector, const std::string& label,
                                     const CompareOptions& options);

// The comparison of the report with its baseline; kDevice when the database cannot be reached.
Result<Comparison> compare_with_baseline(const std::string& db, const std::string& selector,
                                         const std::string& report_path, const CompareOptions& options);

int baseline_compare_command(const std::string& db, const std::string& selector, const std::string& report_path,
                             const CompareOptions& options);

}  // namespace dmltool::app
