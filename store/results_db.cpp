// The front end of the benchmark history: bench's append, `dmltool history`, over either store (results_store.h).
#include "store/results_db.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <regex>
#include <thread>
#include <tuple>

#include "store/results_store.h"

namespace dmltool::app {

Status append_results(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases) {
    DMLTOOL_ASSIGN_OR_RETURN(std::unique_ptr<ResultsStore> store, open_results_store(db_path, StoreAccess::kWrite));
    return store->append(run, cases).status();
}

Status check_results_store(const std::string& db_path) {
    return open_results_store(db_path, StoreAccess::kWrite).status();
}

namespace {

// The id of a stored run identical to `run` (see store_results), or 0.
Result<long long> find_stored_run(ResultsStore& store, const ResultsRun& run, const std::vector<BenchCase>& cases) {
    if (cases.empty()) return 0;
    HistoryFilter filter;
    filter.case_name = cases[0].name;
    filter.backend = cases[0].backend;
    filter.exact_adapter = run.adapter;
    filter.exact_device = run.device;
    filter.since = filter.until = run.date;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<HistoryRow> rows, store.query(filter));
    for (const HistoryRow& r : rows)
        if (r.run.date == run.date && r.run.hostname == run.hostname && r.samples == cases[0].samples) return r.run_id;
    return 0;
}

Result<StoredRun> store_once(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases) {
    DMLTOOL_ASSIGN_OR_RETURN(std::unique_ptr<ResultsStore> store, open_results_store(db_path, StoreAccess::kWrite));
    DMLTOOL_ASSIGN_OR_RETURN(long long existing, find_stored_run(*store, run, cases));
    if (existing) return StoredRun{existing, true};
    DMLTOOL_ASSIGN_OR_RETURN(long long id, store->append(run, cases));
    return StoredRun{id, false};
}

}  // namespace

Result<StoredRun> store_results(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases,
                                double retry_seconds, std::FILE* log) {
    double waited = 0, wait = 1;
    for (;;) {
        Result<StoredRun> stored = store_once(db_path, run, cases);
        if (stored.is_ok() || stored.status().code() != ErrorCode::kDevice || waited >= retry_seconds) return stored;
        wait = std::min(wait, retry_seconds - waited);
        std::fprintf(log, "dmltool: warning: %s; retrying in %.0f s (%.0f of %.0f s of retries left)\n",
                     stored.status().message().c_str(), wait, retry_seconds - waited, retry_seconds);
        std::this_thread::sleep_for(std::chrono::duration<double>(wait));
        waited += wait;
        wait *= 2;
    }
}

Result<std::vector<HistoryRow>> load_history(const std::string& db_path, const HistoryFilter& filter) {
    DMLTOOL_ASSIGN_OR_RETURN(std::unique_ptr<ResultsStore> store, open_results_store(db_path, StoreAccess::kRead));
    return store->query(filter);
}

Result<std::vector<HistoryRow>> load_history(const std::string& db_path, const std::string& case_name) {
    HistoryFilter filter;
    filter.case_name = case_name;
    return load_history(db_path, filter);
}

int results_store_exit_code(const Status& status) { return status.code() == ErrorCode::kDevice ? 3 : 2; }

namespace {

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

// The CPU reference's rows ran on the CPU, whatever the run's device was.
const std::string& hardware(const HistoryRow& r) { return r.backend == "cpu" ? r.run.cpu_model : r.run.adapter; }

// `history CASE`: the case of that exact name where the store has one, else every case whose name the regular
// expression matches (searched, as run --filter). Exact first: a name's "." would otherwise also match other names.
Status select_cases(std::vector<HistoryRow>& rows, const std::string& pattern) {
    if (pattern.empty()) return Status::ok();
    const auto named = [&](const HistoryRow& r) { return r.case_name == pattern; };
    if (std::any_of(rows.begin(), rows.end(), named)) {
        rows.erase(std::remove_if(rows.begin(), rows.end(), [&](const HistoryRow& r) { return !named(r); }), rows.end());
        return Status::ok();
    }
    std::regex re;
    try {
        re = std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
        return invalid_input("history: CASE: expected a case name or a regular expression (ECMAScript), found '" +
                             pattern + "'");
    }
    rows.erase(std::remove_if(rows.begin(), rows.end(),
                              [&](const HistoryRow& r) { return !std::regex_search(r.case_name, re); }),
               rows.end());
    return Status::ok();
}

// `history --list`: what the store holds (under the filters), to find the names CASE and --adapter take.
void print_list(const std::vector<HistoryRow>& rows) {
    struct Seen {
        size_t benchmarks = 0;
        std::string last;
    };
    std::vector<std::string> cases, adapters;
    std::map<std::string, Seen> by_case, by_adapter;
    for (const HistoryRow& r : rows)
        for (auto [names, seen, key] :
             {std::tuple{&cases, &by_case, r.case_name}, std::tuple{&adapters, &by_adapter, hardware(r)}}) {
            if (!seen->count(key)) names->push_back(key);
            Seen& s = (*seen)[key];
            ++s.benchmarks;
            s.last = std::max(s.last, r.run.date);
        }
    std::printf("cases (%zu):\n", cases.size());
    for (const std::string& name : cases)
        std::printf("  %s: %zu benchmarks, last %s\n", name.c_str(), by_case[name].benchmarks, by_case[name].last.c_str());
    std::printf("adapters (%zu):\n", adapters.size());
    for (const std::string& name : adapters)
        std::printf("  %s: %zu benchmarks, last %s\n", name.c_str(), by_adapter[name].benchmarks,
                    by_adapter[name].last.c_str());
}

}  // namespace

int history_command(const HistoryFilter& filter, const std::string& db_path, const std::string& format, bool list) {
    for (const auto& [what, date] : {std::pair{"--since", filter.since}, std::pair{"--until", filter.until}})
        if (!date.empty())
            if (std::string e = check_iso_date(std::string("history ") + what, date); !e.empty()) {
                std::fprintf(stderr, "dmltool: error: %s\n", e.c_str());
                return 2;
            }
    HistoryFilter unnamed = filter;
    unnamed.case_name.clear();  // a name or a pattern: select_cases decides
    auto rows = load_history(db_path, unnamed);
    const std::string shown = redact_location(db_path);
    if (!rows.is_ok()) {
        std::fprintf(stderr, "dmltool: error: %s\n", rows.status().message().c_str());
        return results_store_exit_code(rows.status());
    }
    if (Status selected = select_cases(*rows, filter.case_name); !selected.is_ok()) {
        std::fprintf(stderr, "dmltool: error: %s\n", selected.message().c_str());
        return 2;
    }
    if (rows->empty()) {
        if (!filter.case_name.empty())
            std::fprintf(stderr,
                         "dmltool: error: %s: no benchmark of a case named or matching '%s' (names are as in the case "
                         "files; history --list lists them)\n",
                         shown.c_str(), filter.case_name.c_str());
        else
            std::fprintf(stderr, "dmltool: error: %s: no benchmark matches the filters\n", shown.c_str());
        return 2;
    }
    if (list) {
        print_list(*rows);
        return 0;
    }
    if (format == "csv") {
        std::printf("date,git_commit,backend,adapter,device,cache,median_seconds,noise,converged,samples,case\n");
        for (const HistoryRow& r : *rows)
            std::printf("%s,%s,%s,%s,%s,%s,%.9g,%.6g,%d,%zu,%s\n", r.run.date.c_str(), r.run.git_commit.c_str(),
                        r.backend.c_str(), quoted(hardware(r)).c_str(), quoted(r.run.device).c_str(), r.run.cache.c_str(),
                        r.median_seconds, r.noise, r.converged ? 1 : 0, r.samples.size(), quoted(r.case_name).c_str());
        return 0;
    }
    // One block per case, in the order the cases first appear.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const HistoryRow*>> by_case;
    for (const HistoryRow& r : *rows) {
        if (!by_case.count(r.case_name)) order.push_back(r.case_name);
        by_case[r.case_name].push_back(&r);
    }
    for (const std::string& name : order) {
        const auto& list = by_case[name];
        std::printf("%s (%s, FL %s, %s): %zu benchmarks\n", name.c_str(), list.front()->op.c_str(),
                    list.front()->feature_level.c_str(), list.front()->dtype.c_str(), list.size());
        std::printf("  %-20s %-18s %-8s %-6s %14s %9s %7s  %s\n", "date", "commit", "backend", "cache", "median",
                    "noise", "samples", "adapter");
        for (const HistoryRow* r : list) {
            char noise[32];
            if (r->noise < 0)
                std::snprintf(noise, sizeof noise, "n/a");
            else
                std::snprintf(noise, sizeof noise, "%.2f%%%s", 100 * r->noise, r->converged ? "" : "*");
            std::printf("  %-20s %-18s %-8s %-6s %11.3f us %9s %7zu  %s\n", r->run.date.c_str(),
                        r->run.git_commit.c_str(), r->backend.c_str(), r->run.cache.c_str(), r->median_seconds * 1e6,
                        noise, r->samples.size(), hardware(*r).c_str());
        }
    }
    std::printf("  (* not converged)\n");
    return 0;
}

}  // namespace dmltool::app
