#include "store/baseline_db.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "gate/history.h"
#include "store/results_store.h"

namespace dmltool::app {

std::string parse_baseline_selector(const std::string& text, BaselineSelector* out) {
    const std::string expected = "--baseline: expected last:N (N >= 1), commit:SHA or since:DATE, found '" + text + "'";
    const size_t colon = text.find(':');
    if (colon == std::string::npos) return expected;
    const std::string kind = text.substr(0, colon), value = text.substr(colon + 1);
    BaselineSelector s;
    if (kind == "last") {
        if (value.empty() || value.size() > 6 || value.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(value) == 0)
            return expected;
        s.kind = BaselineSelector::Kind::kLast;
        s.last = unsigned(std::stoul(value));
    } else if (kind == "commit") {
        // A prefix of the stored commit, which may end in "-dirty": hex digits, as git abbreviates them.
        if (value.size() < 4 || value.find_first_not_of("0123456789abcdef") != std::string::npos)
            return "--baseline commit:SHA: expected at least 4 lowercase hex digits of a commit, found '" + value + "'";
        s.kind = BaselineSelector::Kind::kCommit;
    } else if (kind == "since") {
        if (std::string e = check_iso_date("--baseline since:DATE", value); !e.empty()) return e;
        s.kind = BaselineSelector::Kind::kSince;
    } else {
        return expected;
    }
    s.value = value;
    *out = s;
    return "";
}

std::map<std::pair<std::string, std::string>, std::vector<const HistoryRow*>> history_runs_by_case(
    const BenchRun& next, const std::vector<HistoryRow>& rows, const BaselineSelector& selector) {
    std::map<std::pair<std::string, std::string>, std::vector<const HistoryRow*>> by_case;
    for (const HistoryRow& r : rows) by_case[{r.case_name, r.backend}].push_back(&r);
    std::map<std::pair<std::string, std::string>, std::vector<const HistoryRow*>> out;
    for (const RunCase& c : next.cases) {
        const auto found = by_case.find({c.name, c.backend});
        if (found == by_case.end()) continue;
        std::vector<const HistoryRow*> picked;
        for (const HistoryRow* r : found->second)
            if (!r->samples.empty()) picked.push_back(r);
        if (selector.kind == BaselineSelector::Kind::kLast && picked.size() > selector.last)
            picked.erase(picked.begin(), picked.end() - selector.last);
        if (!picked.empty()) out[found->first] = std::move(picked);
    }
    return out;
}

Comparison compare_with_history_runs(const BenchRun& next, const std::vector<HistoryRow>& rows,
                                     const BaselineSelector& selector, const std::string& label,
                                     const CompareOptions& options) {
    Comparison out;
    out.base_path = label;
    out.next_path = next.path;
    out.mode = "history runs";
    const auto runs = history_runs_by_case(next, rows, selector);
    size_t by_history = 0, by_two_runs = 0;
    for (const RunCase& c : next.cases) {
        const auto found = runs.find({c.name, c.backend});
        if (found == runs.end()) {
            out.only_in_new.push_back(c.name + " [" + c.backend + "]");
            continue;
        }
        if (found->second.size() >= kMinHistoryRuns) {
            std::vector<double> medians;
            std::vector<std::vector<double>> processes;  // each run's process medians (schema 3)
            bool converged = true;
            for (const HistoryRow* r : found->second) {
                // The run's stored median: for a run of several processes (bench --processes) the median of its
                // processes' medians, which its pooled samples do not give; for one process, their median.
                medians.push_back(r->median_seconds > 0 ? r->median_seconds : summarize_samples(r->samples).median);
                processes.push_back(r->process_medians);
                converged = converged && r->converged;
            }
            out.cases.push_back(compare_with_runs(medians, c, options, processes));
            out.cases.back().base_converged = converged;
            ++by_history;
        } else {
            // Too few runs to know how far runs move: the two-run test against the most recent one.
            const HistoryRow& latest = *found->second.back();
            RunCase base{c.name, c.backend, latest.samples, latest.converged};
            out.cases.push_back(compare_case(base, c, options));
            ++by_two_runs;
        }
    }
    adjust_and_judge_mixed(out.cases, options);
    char text[400];
    if (by_history)
        std::snprintf(text, sizeof text, "%zu case(s) judged against the history's runs (each run's median, or its fast mode for runs of processes, one "
                      "observation; threshold max(--threshold, %g x their spread); t test, Holm-adjusted)",
                      by_history, kHistorySpreadK);
    if (by_history) out.notes.push_back(text);
    if (by_two_runs) {
        std::snprintf(text, sizeof text, "%zu case(s) have fewer than %zu runs of history: the spread between runs "
                      "cannot be estimated, so they were judged by the two-run test against the most recent run",
                      by_two_runs, kMinHistoryRuns);
        out.notes.push_back(text);
    }
    return out;
}

namespace {

// The report's own run, to leave it out of its baseline when bench also appended it to the same database.
struct ReportIdentity {
    std::string date, hostname;
};

ReportIdentity report_identity(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto root = nlohmann::json::parse(text.str(), nullptr, false);
    ReportIdentity id;
    if (root.is_object() && root.contains("date") && root["date"].is_string()) id.date = root["date"];
    if (root.is_object() && root.contains("machine") && root["machine"].is_object() &&
        root["machine"].contains("hostname") && root["machine"]["hostname"].is_string())
        id.hostname = root["machine"]["hostname"];
    return id;
}

}  // namespace

Result<Comparison> compare_with_baseline(const std::string& db, const std::string& selector_text,
                                         const std::string& report_path, const CompareOptions& options) {
    BaselineSelector selector;
    if (std::string e = parse_baseline_selector(selector_text, &selector); !e.empty()) return invalid_input(e);
    DMLTOOL_ASSIGN_OR_RETURN(BenchRun next, load_bench_run(report_path));
    HistoryFilter filter;
    filter.exact_adapter = next.adapter;
    filter.exact_device = next.device;
    filter.cache = next.cache;
    filter.stable_power_state = next.stable_power_state;
    filter.timer = next.timer;
    if (selector.kind == BaselineSelector::Kind::kCommit) filter.commit = selector.value;
    if (selector.kind == BaselineSelector::Kind::kSince) filter.since = selector.value;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<HistoryRow> rows, load_history(db, filter));
    const ReportIdentity self = report_identity(report_path);
    std::vector<HistoryRow> matching;
    std::set<long long> runs;
    // The report's own run: same date and host, and the very samples of the report (two runs of one host can end
    // within the same second).
    std::map<std::pair<std::string, std::string>, const std::vector<double>*> own_samples;
    for (const RunCase& c : next.cases) own_samples[{c.name, c.backend}] = &c.samples;
    auto is_own = [&](const HistoryRow& r) {
        if (r.run.date != self.date || r.run.hostname != self.hostname) return false;
        const auto found = own_samples.find({r.case_name, r.backend});
        return found != own_samples.end() && *found->second == r.samples;
    };
    for (HistoryRow& r : rows) {
        if (is_own(r)) continue;
        if (r.backend == "cpu" && r.run.cpu_model != next.cpu_model) continue;    // the reference ran on the CPU
        runs.insert(r.run_id);
        matching.push_back(std::move(r));
    }
    const std::string shown = redact_location(db);
    Comparison comparison =
        compare_with_history_runs(next, matching, selector, shown + " (" + selector_text + ")", options);
    if (comparison.cases.empty())
        return invalid_input("no baseline for " + report_path + " in " + shown + ": no run of its cases matches " +
                             selector_text + " on adapter '" + next.adapter + "', driver '" + next.device + "', cache " +
                             next.cache + ", stable power state " + next.stable_power_state + ", timer " + next.timer +
                             " (`dmltool history` lists what the database holds)");
    comparison.notes.push_back("baseline: " + selector_text + " of the " + std::to_string(runs.size()) +
                               " matching run(s) in " + shown + ", per case x backend, each run one observation");
    return comparison;
}

int baseline_compare_command(const std::string& db, const std::string& selector_text, const std::string& report_path,
                             const CompareOptions& options) {
    auto comparison = compare_with_baseline(db, selector_text, report_path, options);
    if (!comparison.is_ok()) {
        std::fprintf(stderr, "dmltool: error: %s\n", comparison.status().message().c_str());
        return results_store_exit_code(comparison.status());
    }
    return emit_comparison(*comparison, options);
}

}  // namespace dmltool::app
