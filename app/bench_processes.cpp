// `dmltool bench --processes N`: the same bench re-run in N fresh processes, merged into one report
// (bench/process_merge.h says why: a process may run a case in one of a few speeds for its whole life, so a run of
// one process cannot tell a slow process mode from a slower build). The processes run one after another (side by
// side they would load each other), each with the same arguments and Google Benchmark's random interleaving, so
// each samples every case in its own random order; their reports go to a temporary directory and are merged.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#ifndef _WIN32
#include <unistd.h>
#endif

#include "app/commands.h"
#include "bench/process_merge.h"
#include "bench/stats.h"
#include "gate/child_process.h"
#include "store/results_db.h"
#include "store/store_command.h"

namespace dmltool::app {
namespace {

namespace fs = std::filesystem;

// This executable, for the children: the running binary itself where the system says which it is (argv[0] may be a
// bare name found on PATH), else argv[0].
std::string own_executable(const std::string& argv0) {
#ifdef __linux__
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (!error && !self.empty()) return self.string();
#endif
    return argv0;
}

// The parent's arguments for one child: the same bench, minus what the parent does itself (--processes, the merged
// --report-json, --results-db and its retry), plus the child's own report file.
std::vector<std::string> child_arguments(const std::vector<std::string>& argv, const std::string& report, bool shuffle) {
    std::vector<std::string> out = {own_executable(argv[0])};
    for (size_t i = 1; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        bool dropped = false;
        for (const char* owned : {"--processes", "--report-json", "--results-db", "--results-db-retry"}) {
            if (a == owned) {
                ++i;  // and its value
                dropped = true;
            } else if (a.rfind(std::string(owned) + "=", 0) == 0) {
                dropped = true;
            }
        }
        if (!dropped) out.push_back(a);
    }
    out.insert(out.end(), {"--report-json", report});
    // With --passes 1 bench keeps the selection's order; each process should meet the cases in its own order, so
    // that what a process's start does to the machine falls on different cases in different processes.
    if (shuffle) out.push_back("--benchmark_enable_random_interleaving=true");
    return out;
}

Result<nlohmann::json> read_json(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return invalid_input("bench --processes: " + path + ": the process wrote no report");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_discarded()) return invalid_input("bench --processes: " + path + ": expected a JSON bench report, found invalid JSON");
    return j;
}

}  // namespace

std::string parse_processes_option(const std::string& text, unsigned& processes) {
    // At most 64: each process samples every case again, and past a few tens the runs cost more than they tell.
    const bool digits = !text.empty() && text.size() <= 2 && text.find_first_not_of("0123456789") == std::string::npos;
    const unsigned value = digits ? unsigned(std::stoul(text)) : 0;
    if (value < 1 || value > 64) return "--processes: expected a whole number of processes from 1 to 64, found '" + text + "'";
    processes = value;
    return "";
}

int bench_processes_command(const BenchCommandOptions& options, unsigned processes,
                            const std::vector<std::string>& argv) {
    if (options.report_json_path.empty())
        return report_error(invalid_input("bench --processes " + std::to_string(processes) + ": expected --report-json "
                                          "FILE (the merged report of the processes), found none"), 2);
    if (!options.report_csv_path.empty())
        return report_error(invalid_input("bench --processes " + std::to_string(processes) + ": expected no --report-csv "
                                          "(the merged report is JSON only), found '" + options.report_csv_path + "'"), 2);
    if (Status writable = check_output_paths({{"--report-json", options.report_json_path}}); !writable.is_ok())
        return report_error(writable, 2);
    // The database before any process: a wrong URL costs seconds, not N runs.
    if (!options.results_db.empty())
        if (Status s = check_results_store(options.results_db); !s.is_ok())
            return report_error(s, results_store_exit_code(s));
    std::error_code error;
    const fs::path dir = fs::temp_directory_path(error) / ("dmltool_processes_" + std::to_string(
#ifndef _WIN32
                                                                                   getpid()
#else
                                                                                   0
#endif
                                                                                   ));
    fs::create_directories(dir, error);
    if (error) return report_error(io_error("bench --processes: cannot create " + dir.string() + ": " + error.message()), 2);
    std::vector<nlohmann::json> reports;
    std::vector<std::string> paths;
    for (unsigned p = 1; p <= processes; ++p) {
        const std::string report = (dir / ("process" + std::to_string(p) + ".json")).string();
        const std::string log = (dir / ("process" + std::to_string(p) + ".log")).string();
        const std::vector<std::string> child = child_arguments(argv, report, options.passes == 1);
        auto code = run_process(child, log);
        if (!code.is_ok()) return report_error(code.status(), 2);
        if (*code != 0) {
            // Never a partial report: the run fails with what the process said, and its output is kept.
            std::fprintf(stderr, "dmltool: error: bench --processes: process %u of %u exited %d: %s (full output in %s)\n",
                         p, processes, *code, last_line(log).c_str(), log.c_str());
            return *code > 0 && *code < 128 ? *code : 3;
        }
        auto json = read_json(report);
        if (!json.is_ok()) return report_error(json.status(), 2);
        reports.push_back(std::move(json).value());
        paths.push_back(report);
        std::printf("process %u of %u: done\n", p, processes);
        std::fflush(stdout);
    }
    auto merged = merge_process_reports(reports, paths);
    if (!merged.is_ok()) return report_error(merged.status(), 2);
    {
        std::ofstream out(options.report_json_path, std::ios::binary);
        if (out) out << merged->dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        if (!out) return report_error(io_error(options.report_json_path + ": cannot write the merged bench report"), 2);
    }
    fs::remove_all(dir, error);
    std::printf("\n%-60s %-8s %14s  %s\n", "case", "backend", "median (us)", "per process (us)");
    for (const auto& c : (*merged)["cases"]) {
        std::string per_process;
        for (const auto& p : c["processes"]) {
            char text[32];
            std::snprintf(text, sizeof text, "%s%.3f", per_process.empty() ? "" : " ", p["seconds"].get<double>() * 1e6);
            per_process += text;
        }
        std::printf("%-60s %-8s %14.3f  %s\n", c.value("name", std::string()).c_str(),
                    c.value("backend", std::string()).c_str(), c.value("seconds", 0.0) * 1e6, per_process.c_str());
    }
    std::printf("%u processes merged into %s (median: of the processes' medians)\n", processes,
                options.report_json_path.c_str());
    if (!options.results_db.empty())
        return store_command(options.report_json_path, options.results_db, options.results_db_retry_seconds);
    return 0;
}

}  // namespace dmltool::app
