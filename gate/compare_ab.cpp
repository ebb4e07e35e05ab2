#include "gate/compare_ab.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#ifndef _WIN32
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
#endif

#include "bench/stats.h"

namespace dmltool::app {
namespace {

namespace fs = std::filesystem;

// Runs argv[0] with argv, stdout and stderr into log_path; the exit status (128 + signal when killed).
Result<int> run_process(const std::vector<std::string>& argv, const std::string& log_path) {
#ifdef _WIN32
    (void)argv;
    (void)log_path;
    return unsupported("compare --ab: starting the builds is implemented for POSIX hosts only (run the gate on Linux; "
                       "a Windows build can be one of the two through a wrapper script around scripts/wine.sh)");
#else
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return io_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return io_error("waiting for " + argv[0] + ": " + std::strerror(errno));
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
#endif
}

// The last non-empty line of a log: what a failed child said last.
std::string last_line(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return "";
    std::string text, line;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    std::fclose(f);
    size_t end = text.find_last_not_of("\r\n");
    if (end == std::string::npos) return "";
    size_t begin = text.rfind('\n', end);
    return text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

Status validate(const AbOptions& ab) {
    if (ab.bench_args.empty())
        return invalid_input("compare --ab: expected bench arguments after '--' (e.g. -- cases/perf/smoke.json "
                             "--backend cpu), found none");
    for (const std::string& arg : ab.bench_args)
        for (const char* owned : {"--report-json", "--report-csv", "--results-db"})
            if (arg == owned || arg.rfind(std::string(owned) + "=", 0) == 0)
                return invalid_input("compare --ab: bench argument '" + arg + "': expected no " + owned +
                                     " (compare --ab writes each round's report itself; see --ab-dir)");
    for (const std::string* tool : {&ab.base_tool, &ab.new_tool}) {
        std::error_code error;
        if (!fs::is_regular_file(*tool, error))
            return invalid_input("compare --ab: expected a dmltool executable, found no file '" + *tool + "'");
#ifndef _WIN32
        if (access(tool->c_str(), X_OK) != 0)
            return invalid_input("compare --ab: expected an executable dmltool, found '" + *tool + "' not executable");
#endif
    }
    return Status::ok();
}

// The median of each sample set of one run, by case x backend.
using RoundMedians = std::map<std::pair<std::string, std::string>, double>;

RoundMedians medians_of(const BenchRun& run) {
    RoundMedians out;
    for (const RunCase& c : run.cases) out[{c.name, c.backend}] = summarize_samples(c.samples).median;
    return out;
}

std::string quoted_command(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}

}  // namespace

CaseComparison compare_ab_case(const std::string& name, const std::string& backend, const AbSeries& series,
                               const CompareOptions& options) {
    CaseComparison c;
    c.name = name;
    c.backend = backend;
    c.base = summarize_samples(series.base_medians);
    c.next = summarize_samples(series.new_medians);
    std::vector<double> log_ratios, ratios;
    for (size_t r = 0; r < series.base_medians.size() && r < series.new_medians.size(); ++r) {
        if (!(series.base_medians[r] > 0) || !(series.new_medians[r] > 0)) continue;
        log_ratios.push_back(std::log(series.new_medians[r] / series.base_medians[r]));
        ratios.push_back(series.new_medians[r] / series.base_medians[r]);
    }
    c.rounds = ratios.size();
    const SampleStats ratio = summarize_samples(ratios);
    c.change = c.raw_change = ratios.empty() ? 0 : ratio.median - 1;
    c.change_noise = ratio.noise;
    // The sign test, not Wilcoxon's signed ranks: under heavy load a burst over one side of a round moves its ratio
    // by more than the change (+50-100% vs +30%), and the ranks then give the spoiled rounds the most weight (a planted
    // 1.3x at Holm p = 0.11 over 20 rounds on a loaded 2-core machine, 2026-11-28); votes do not.
    c.p_unadjusted = c.p_value = sign_test_p_value(log_ratios);
    const double noise_limit = options.threshold / 2;
    if (!(ratio.noise <= noise_limit)) {
        char text[160];
        std::snprintf(text, sizeof text, "per-round ratios too spread: noise %.2f%% above threshold/2 = %.2f%% (%zu rounds)",
                      100 * ratio.noise, 100 * noise_limit, c.rounds);
        c.noisy_reason = text;
    }
    assign_verdict(c, options);
    return c;
}

int compare_ab_command(const AbOptions& ab, const CompareOptions& options) {
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "dmltool: error: %s\n", s.message().c_str());
        return 2;
    };
    if (Status s = validate(ab); !s.is_ok()) return fail(s);
    std::error_code error;
    const bool temporary = ab.work_dir.empty();
    const fs::path dir = temporary ? fs::temp_directory_path(error) / ("dmltool_ab_" + std::to_string(
#ifndef _WIN32
                                                                                           getpid()
#else
                                                                                           0
#endif
                                                                                           ))
                                   : fs::path(ab.work_dir);
    fs::create_directories(dir, error);
    if (error) return fail(io_error("compare --ab: cannot create the work directory " + dir.string() + ": " + error.message()));

    std::vector<BenchRun> base_runs, new_runs;
    for (unsigned round = 0; round < ab.rounds; ++round) {
        // ABBA: base first in even rounds, new first in odd ones.
        const bool base_first = round % 2 == 0;
        for (int turn = 0; turn < 2; ++turn) {
            const bool is_base = (turn == 0) == base_first;
            const std::string label = std::string(is_base ? "base" : "new") + "_round" + std::to_string(round);
            const std::string report = (dir / (label + ".json")).string(), log = (dir / (label + ".log")).string();
            std::vector<std::string> argv = {is_base ? ab.base_tool : ab.new_tool, "bench"};
            argv.insert(argv.end(), ab.bench_args.begin(), ab.bench_args.end());
            argv.insert(argv.end(), {"--report-json", report});
            auto code = run_process(argv, log);
            if (!code.is_ok()) return fail(code.status());
            if (*code != 0)
                return fail(invalid_input("compare --ab: round " + std::to_string(round) + ": `" + quoted_command(argv) +
                                          "` exited " + std::to_string(*code) + " (expected 0; its last line: '" +
                                          last_line(log) + "'; full output in " + log + ")"));
            auto run = load_bench_run(report);
            if (!run.is_ok()) return fail(run.status());
            (is_base ? base_runs : new_runs).push_back(std::move(run).value());
        }
    }

    Comparison comparison;
    comparison.mode = "A/B rounds";
    comparison.base_path = ab.base_tool;
    comparison.next_path = ab.new_tool;
    std::vector<RoundMedians> base_medians, new_medians;
    for (const BenchRun& r : base_runs) base_medians.push_back(medians_of(r));
    for (const BenchRun& r : new_runs) new_medians.push_back(medians_of(r));
    for (const RunCase& c : base_runs[0].cases) {
        const auto key = std::make_pair(c.name, c.backend);
        AbSeries series;
        bool everywhere = true;
        for (unsigned r = 0; r < ab.rounds && everywhere; ++r) {
            const auto b = base_medians[r].find(key), n = new_medians[r].find(key);
            everywhere = b != base_medians[r].end() && n != new_medians[r].end();
            if (everywhere) {
                series.base_medians.push_back(b->second);
                series.new_medians.push_back(n->second);
            }
        }
        if (!everywhere) {
            comparison.only_in_base.push_back(c.name + " [" + c.backend + "] (not in every round of both builds)");
            continue;
        }
        comparison.cases.push_back(compare_ab_case(c.name, c.backend, series, options));
    }
    for (const RunCase& c : new_runs[0].cases)
        if (!base_medians[0].count({c.name, c.backend})) comparison.only_in_new.push_back(c.name + " [" + c.backend + "]");
    if (comparison.cases.empty())
        return fail(invalid_input("compare --ab: nothing to compare: no case x backend ran in every round of both builds"));
    adjust_and_judge(comparison.cases, options);
    // The smallest p-value R rounds can give is 2 / 2^R; Holm needs it below alpha / cases for any verdict.
    const double smallest_p = std::ldexp(2.0, -int(ab.rounds));
    if (smallest_p * double(comparison.cases.size()) >= options.alpha) {
        char text[200];
        std::snprintf(text, sizeof text, "%u rounds cannot show any of %zu cases significant at alpha %.3g (the "
                      "smallest Holm-adjusted p is %.3g): use more --rounds", ab.rounds, comparison.cases.size(),
                      options.alpha, smallest_p * double(comparison.cases.size()));
        comparison.notes.push_back(text);
        std::fprintf(stderr, "dmltool: warning: %s\n", text);
    }
    char text[160];
    std::snprintf(text, sizeof text, "%u rounds of each build in ABBA order; reports and logs in %s", ab.rounds,
                  temporary ? "a temporary directory (removed; keep them with --ab-dir)" : dir.string().c_str());
    comparison.notes.push_back(text);
    if (temporary) fs::remove_all(dir, error);
    return emit_comparison(comparison, options);
}

}  // namespace dmltool::app
