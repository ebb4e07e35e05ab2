// CLI11 wiring: turns argv into the option structs of commands.h and dispatches. Nothing below app/ sees CLI11.
// About 600 lines: every subcommand's options in one file, so that flags shared between commands (run and bench,
// the report options) read alike; the commands' work is in their own files.
#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/cli_errors.h"
#include "app/commands.h"
#include "core/case_schema.h"
#include "gate/compare.h"
#include "gate/compare_ab.h"
#include "store/baseline_db.h"
#include "store/html_report.h"
#include "store/results_db.h"
#include "store/store_command.h"

namespace dmltool::app {
namespace {

const char* kRunFooter = R"(
Statuses: PASSED, FAILED, MISTRUSTED (output or expectation is constant: nothing was proven), DEVIATES (DirectML's
output breaks the contract as its version's deviation registry says it does: named with the entry's id),
UNSUPPORTED (above the --feature-level cap, or beyond this machine), INVALID (the case breaks a DirectML rule or
its data is wrong), SKIPPED (nothing to compare against).)";

// Every command's --help ends with the one list of exit codes (README.md and docs/cli.md: Exit codes).
const char* kExitCodes = R"(
Exit codes (the same for every command):
  0  success: every selected case passed (UNSUPPORTED, SKIPPED and DEVIATES do not fail a run); compare: no
     case SLOWER
  1  a case FAILED or was MISTRUSTED (or DEVIATES, with --strict); bench: a selected case was not benchmarked;
     compare: a case SLOWER
  2  invalid input or usage: a bad option, file or case (any INVALID case), a report that cannot be written
  3  device or environment error: no GPU or DirectML device, a device fault, a database out of reach
  4  compare: undecided: no case SLOWER, but a case NOISY or INCONCLUSIVE (the gate could not judge it;
     --allow-undecided exits 0 instead)
  5  nothing was tested: no case selected, or every selected case SKIPPED or UNSUPPORTED (run and bench:
     --allow-unsupported accepts UNSUPPORTED cases, for sweeps that expect them)
)";

struct CommonFlags {
    std::string backend = "both";
    std::string feature_level;
    std::string shard;
    std::string nearest_rule = "half-up";
    uint64_t max_host_mib = 8192;
};

void add_selection(CLI::App* cmd, Selection& s) {
    cmd->add_option("files", s.files, "Case files (JSON): one case or {\"cases\": [...]} each")->required();
    cmd->add_option("--filter", s.filter, "Only cases whose name matches this regular expression (ECMAScript)");
    cmd->add_option("--tag", s.tags, "Only cases with this tag (repeatable: any of them)");
    cmd->add_option("--exclude-tag", s.exclude_tags, "Drop cases with this tag (repeatable)");
    cmd->add_option_function<uint64_t>(
           "--max-case-file-size", [&s](uint64_t mib) { s.limits.max_file_bytes = mib << 20; },
           "Largest case file (MiB) to read (default 64); a larger one is INVALID")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 20));
    cmd->add_option("--max-json-values", s.limits.max_json_values,
                    "Most JSON values (numbers, strings, arrays, objects...) one case file may hold (default 4194304)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
}

void add_directml_flags(CLI::App* cmd, DeviceOptions& device) {
    cmd->add_option("--directml-dll", device.directml_dll,
                    "DirectML.dll to load (default: the one next to dmltool.exe, else the system's; "
                    "scripts/fetch_directml.sh fetches 1.15.4)");
    cmd->add_flag("--dml-disable-metacommands", device.dml_disable_metacommands,
                  "DirectML: compile with DML_EXECUTION_FLAG_DISABLE_META_COMMANDS (DirectML's own shaders only)");
    cmd->add_flag("--dml-allow-half-precision", device.dml_allow_half_precision,
                  "DirectML: compile with DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION");
    cmd->add_flag("--dml-debug", device.dml_debug,
                  "DirectML: create the device with DML_CREATE_DEVICE_FLAG_DEBUG (needs DirectML.Debug.dll; "
                  "without it a note says so and the run goes on without the debug layer)");
    cmd->add_option("--deviations", device.deviations,
                    "DirectML deviation registry: auto (default: the registry shipped for the loaded DLL's version, "
                    "else the newest older one), none (every departure from the contract is FAILED), or a registry "
                    "file (docs/semantics.md: DirectML deviations)");
}

void add_run_flags(CLI::App* cmd, CommonFlags& f, RunOptions& run, DeviceOptions& device, unsigned& threads,
                   bool with_backend_default_both) {
    if (with_backend_default_both)
        cmd->add_option("--backend", f.backend,
                        "cpu (reference vs expected), gpu (dmltool's kernels vs reference and expected), both "
                        "(default: gpu and reference, each vs expected), directml (Microsoft's DirectML.dll instead of "
                        "dmltool's kernels; Windows build), all (reference, dmltool's kernels and DirectML: each vs "
                        "reference and expected, and the two devices vs each other)")
            ->check(CLI::IsMember({"cpu", "gpu", "both", "directml", "all"}));
    else
        cmd->add_option("--backend", f.backend,
                        "cpu, gpu, both or directml: which implementations to benchmark (default both)")
            ->check(CLI::IsMember({"cpu", "gpu", "both", "directml"}));
    cmd->add_option("--feature-level", f.feature_level,
                    "Highest DML feature level to claim, e.g. 5_1 (default 6_4); cases needing more are UNSUPPORTED");
    cmd->add_option("--shard", f.shard, "Run shard I of N (0-based, round-robin over the selected cases), e.g. 0/4");
    cmd->add_option("--nearest-rule", f.nearest_rule,
                    "DML_RESAMPLE nearest-neighbour index rule (docs/semantics.md): half-up (default; "
                    "spec model B, what DirectML 1.15.4 does for FLOAT32/FLOAT16), literal (A), half-down (C), floor "
                    "(floor of the half-pixel coordinate: DirectML 1.15.4's INT8/UINT8 deviation)")
        ->check(CLI::IsMember({"literal", "half-up", "half-down", "floor", "A", "B", "C"}));
    cmd->add_flag("--allow-outside-paths", run.sources.allow_outside_paths,
                  "Let case files read HDF5 files outside their own directory tree");
    cmd->add_option("--max-host-memory", f.max_host_mib, "Largest host memory (MiB) one case may use (default 8192)");
    cmd->add_option("--max-device-memory", device.max_device_mib,
                    "Largest device memory (MiB) one case's GPU buffers may use (default: the adapter's device-local "
                    "memory); larger cases are UNSUPPORTED before anything is allocated")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    cmd->add_option("--adapter", device.adapter, "GPU adapter: index or name substring (see `dmltool list`)");
    cmd->add_option("--threads", threads, "CPU reference threads, at least 1 (default: all hardware threads)")
        ->check(CLI::Range(1u, 4096u));
    cmd->add_option_function<std::string>(
           "--autotune", [&device](const std::string& mode) { device.autotune = *parse_tuning_mode(mode); },
           std::string("GPU plan variants (docs/benchmarks.md: Autotuning): off (the planner's heuristic plan), cached (the "
                       "tuning cache's winner for this device where it has one) or tune (as cached, and cases "
                       "without a winner time every variant first and store the fastest); default ") +
               (with_backend_default_both ? "cached" : "tune"))
        ->check(CLI::IsMember({"off", "cached", "tune"}));
    cmd->add_option("--tuning-cache", device.tuning_cache,
                    "The tuning cache file (default $XDG_CACHE_HOME/dmltool/tuning.json or ~/.cache/dmltool/tuning.json; "
                    "Windows: %LOCALAPPDATA%\\dmltool\\tuning.json)");
    add_directml_flags(cmd, device);
}

// Applies the string flags to RunOptions; returns a usage error message or empty.
std::string apply_flags(const CommonFlags& f, RunOptions& run, Selection* selection) {
    run.backend = f.backend == "cpu"        ? BackendChoice::kCpu
                  : f.backend == "gpu"      ? BackendChoice::kGpu
                  : f.backend == "directml" ? BackendChoice::kDirectml
                  : f.backend == "all"      ? BackendChoice::kAll
                                            : BackendChoice::kBoth;
    if (!f.feature_level.empty()) {
        auto level = FeatureLevel::parse(f.feature_level);
        if (!level) return "--feature-level: expected one of " + all_feature_level_names() + ", found '" + f.feature_level + "'";
        run.feature_level_cap = *level;
    }
    run.semantics.resample_nearest_rule = *parse_nearest_rule(f.nearest_rule);
    if (f.max_host_mib == 0 || f.max_host_mib > (1ull << 40))
        return "--max-host-memory: expected MiB between 1 and 2^40, found " + std::to_string(f.max_host_mib);
    run.max_host_bytes = f.max_host_mib << 20;
    if (selection && !f.shard.empty()) {
        unsigned index = 0, count = 0;
        char extra = 0;
        if (std::sscanf(f.shard.c_str(), "%u/%u%c", &index, &count, &extra) != 2 || count == 0 || index >= count)
            return "--shard: expected I/N with 0 <= I < N (e.g. 0/4), found '" + f.shard + "'";
        selection->shard_index = index;
        selection->shard_count = count;
    }
    return {};
}

// The options given on `cmd`'s command line that the chosen backend never reads ("--adapter" with --backend cpu):
// named in a warning, so that a user who thinks they picked a GPU learns that nothing used one.
std::string options_without_effect(const CLI::App& cmd, BackendChoice backend) {
    const bool uses_gpu = backend == BackendChoice::kGpu || backend == BackendChoice::kBoth || backend == BackendChoice::kAll;
    const bool uses_directml = backend == BackendChoice::kDirectml || backend == BackendChoice::kAll;
    // --stable-power-state is refused with --backend cpu by bench itself, and --deviations files are checked whatever
    // the backend: neither is listed.
    std::vector<std::string> device_options = {"--adapter", "--max-device-memory"};
    std::vector<std::string> kernel_options = {"--autotune", "--tuning-cache"};
    std::vector<std::string> directml_options = {"--directml-dll", "--dml-disable-metacommands",
                                                 "--dml-allow-half-precision", "--dml-debug"};
    std::vector<std::string> unused;
    if (!uses_gpu && !uses_directml) unused.insert(unused.end(), device_options.begin(), device_options.end());
    if (!uses_gpu) unused.insert(unused.end(), kernel_options.begin(), kernel_options.end());
    if (!uses_directml) unused.insert(unused.end(), directml_options.begin(), directml_options.end());
    std::string given;
    for (const std::string& name : unused) {
        const CLI::Option* option = cmd.get_option_no_throw(name);
        if (option && option->count() > 0) given += (given.empty() ? "" : ", ") + name;
    }
    return given;
}

void warn_options_without_effect(const CLI::App& cmd, BackendChoice backend, const std::string& backend_name) {
    const std::string unused = options_without_effect(cmd, backend);
    if (!unused.empty())
        std::fprintf(stderr, "dmltool: warning: %s: no effect with --backend %s (ignored)\n", unused.c_str(),
                     backend_name.c_str());
}

// The DirectML options that change results, for the repro lines of failing cases.
std::string directml_repro_args(const DeviceOptions& d) {
    std::string out;
    if (!d.directml_dll.empty()) out += " --directml-dll '" + d.directml_dll + "'";
    if (d.dml_disable_metacommands) out += " --dml-disable-metacommands";
    if (d.dml_allow_half_precision) out += " --dml-allow-half-precision";
    if (d.deviations != "auto") out += " --deviations '" + d.deviations + "'";
    return out;
}

}  // namespace

int run_cli(int argc, char** argv) {
    CLI::App app{"dmltool: tests and benchmarks DirectML operators on a D3D12 GPU backend against a CPU reference.\n"
                 "Cases are JSON descriptions of DML operator descs with tensors from HDF5 (see README.md)."};
    // CLI11 reads "/x" as a Windows-style option on Windows by default; dmltool's options are the same everywhere
    // and root-relative paths (/tmp/cases/x.json, e.g. under Wine) must stay file names. Set before any
    // subcommand is added: subcommands inherit it.
    app.allow_windows_style_options(false);
    app.require_subcommand(1);
    app.footer("\nRun `dmltool SUBCOMMAND --help` for a subcommand's options. The README's tour starts with "
               "`dmltool list`.");
    app.set_version_flag("--version", "dmltool 0.1.0");

    RunCommandOptions run_options;
    CommonFlags run_flags;
    CLI::App* run = app.add_subcommand("run", "Run cases on the CPU reference and/or the GPU and compare outputs");
    add_selection(run, run_options.selection);
    add_run_flags(run, run_flags, run_options.run, run_options.device, run_options.threads, true);
    // Report options are --report-FORMAT in run and bench alike; run's older --json and --junit stay as aliases.
    run->add_option("--report-junit,--junit", run_options.junit_path, "Write a JUnit XML report to this file");
    run->add_option("--report-json,--json", run_options.json_path,
                    "Write a JSON report (every case, comparison and timing) to this file. A run report, not a bench "
                    "report: `compare` takes `bench --report-json` files");
    run->add_flag("-v,--verbose", run_options.verbose, "Also list passed cases with their comparison statistics");
    run->add_flag("--strict", run_options.strict,
                  "DEVIATES fails the run (exit code 1): DirectML's registered departures from the contract count");
    run->add_flag("--allow-unsupported", run_options.allow_unsupported,
                  "A run whose cases are all UNSUPPORTED (beyond --feature-level or this machine) exits 0, not 5 "
                  "(nothing tested): for sweeps that expect such cases");
    run->footer(kRunFooter);

    Selection validate_selection;
    CommonFlags validate_flags;
    RunOptions validate_run;
    CLI::App* validate = app.add_subcommand("validate", "Parse and validate cases: every check of run short of executing");
    add_selection(validate, validate_selection);
    validate->add_option("--feature-level", validate_flags.feature_level,
                         "Report cases above this feature level, e.g. 5_1 (default: none, every level up to 6_4 is "
                         "valid)");
    validate->add_flag("--allow-outside-paths", validate_run.sources.allow_outside_paths,
                       "Let case files read HDF5 files outside their own directory tree (as run)");
    validate->add_option("--max-host-memory", validate_flags.max_host_mib,
                         "Largest host memory (MiB) one case may use (default 8192, as run)");
    bool validate_verbose = false;
    validate->add_flag("-v,--verbose", validate_verbose, "Also list the valid cases");

    DeviceOptions list_device;
    ListCasesOptions list_cases;
    CLI::App* list = app.add_subcommand("list", "List operators, data types, feature levels, GPU adapters and the "
                                                "DirectML device's maximum feature level; with case files, the cases "
                                                "they hold, sweeps expanded");
    list->add_option("files", list_cases.files,
                     "Case files: list their cases instead, one line each (name, operator, minimum feature level, data "
                     "type, input and output shapes), with every sweep expanded and derived outputs filled in. An "
                     "operator name instead of files (e.g. split or DML_OPERATOR_SPLIT, any case): its desc members "
                     "with their types and enum values");
    list->add_flag("--json", list_cases.json,
                   "With case files: print the expanded cases as one {\"cases\": [...]} document (derived outputs and "
                   "omitted random seeds and ranges filled in) that `dmltool validate` and `run` accept; HDF5 paths "
                   "stay as written, relative to each case file");
    list->add_option("--max-json-values", list_cases.limits.max_json_values,
                     "Most JSON values one case file may hold, and its sweeps expand into (default 4194304)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    list->add_option("--adapter", list_device.adapter, "GPU adapter for the DirectML device: index or name substring");
    add_directml_flags(list, list_device);

    BenchCommandOptions bench_options;
    bench_options.device.autotune = TuningMode::kTune;  // a benchmark measures the device's best plan
    CommonFlags bench_flags;
    CLI::App* bench = app.add_subcommand(
        "bench", "Benchmark passing cases with Google Benchmark; --benchmark_* flags pass through");
    add_selection(bench, bench_options.selection);
    add_run_flags(bench, bench_flags, bench_options.run, bench_options.device, bench_options.threads, false);
    bench->add_option("--gpu-batch", bench_options.gpu_batch,
                      "GPU executions per timed submission; the mean is reported (default 20)")
        ->check(CLI::Range(1u, 10000u));
    bench->add_option("--roofline-mib", bench_options.roofline_mib,
                      "MiB copied by the copy probes whose bandwidth is the data-movement roofline; 0 skips the "
                      "probes (default 256)")
        ->check(CLI::Range(uint64_t(0), uint64_t(16384)));
    bench->add_option("--report-json", bench_options.report_json_path,
                      "Write the bench report (machine, adapter, build, rooflines, every case, the per-feature-level "
                      "and per-operator tables) as JSON to this file");
    bench->add_option("--report-csv", bench_options.report_csv_path, "Write the same report as CSV to this file");
    bench->add_option_function<double>(
             "--max-noise", [&](double percent) { bench_options.stop.max_noise = percent / 100; },
             "Sample each case until the relative noise of its median is below this percentage (default 0.5)")
        ->check(CLI::Range(0.0, 100.0));
    bench->add_option("--min-samples", bench_options.stop.min_samples,
                      "Samples (batches) each case takes at least before it may stop (default 10)")
        ->check(CLI::Range(size_t(2), size_t(1) << 30));
    bench->add_option("--max-time", bench_options.stop.max_seconds,
                      "Seconds of sampling per case and backend before giving up with a 'not converged' warning "
                      "(default 3)")
        ->check(CLI::Range(0.0, 86400.0));
    bench->add_flag("-v,--verbose", bench_options.verbose,
                    "Also print every case's correctness check before it is timed, with its comparison statistics "
                    "(as run -v)");
    bench->add_option("--passes", bench_options.passes,
                      "Spread each case's sampling over N passes through the selection, in random order (Google "
                      "Benchmark's interleaved repetitions), each with --max-time/N and --min-samples/N; the report "
                      "pools them. A burst of load then hits a share of every case's samples, not all of one case's: "
                      "use 5 or more for runs that `compare` judges separately on a shared machine "
                      "(docs/compare-gate.md; default 1)")
        ->check(CLI::Range(1u, 1000u));
    std::string bench_processes = "1";
    bench->add_option("--processes", bench_processes,
                      "Run the bench in N fresh processes, one after another, each over every case in its own random "
                      "order, and merge them into one --report-json: a process can run a case in one of a few speeds "
                      "for its whole life, and `compare` judges each process as one observation (5 for CI gates of "
                      "separate runs and history, docs/compare-gate.md; default 1, at most 64)");
    bench->add_option_function<std::string>(
             "--cache", [&](const std::string& mode) { bench_options.cache_cold = mode == "cold"; },
             "hot (default: back-to-back batches) or cold: flush the caches before every sample (one execution per "
             "sample) by writing over --flush-mib MiB")
        ->check(CLI::IsMember({"hot", "cold"}));
    bench->add_option_function<std::string>(
             "--timer", [&](const std::string& clock) {
                 bench_options.timer = clock == "cpu" ? HostTimer::kProcessCpu : HostTimer::kWall;
             },
             "wall (default) or cpu: the clock of the CPU reference's samples and the host's copy probes. cpu is the "
             "process's CPU time, which time slices given to other work do not count: for regression gates of "
             "separate runs on a shared machine (docs/compare-gate.md). Not a latency (--threads N add up); --backend "
             "cpu or both; Linux builds")
        ->check(CLI::IsMember({"wall", "cpu"}));
    bench->add_option("--flush-mib", bench_options.flush_mib,
                      "MiB a cold-cache flush writes over, larger than any L2 (default 256; at most 16 on a software "
                      "adapter)")
        ->check(CLI::Range(uint64_t(1), uint64_t(16384)));
    bench->add_option("--throttle", bench_options.throttle,
                      "auto (default: on for hardware adapters, off for software ones and the CPU reference), on or "
                      "off: re-measure a case once when the copy probe run between cases was more than "
                      "--throttle-threshold below the run's best (probes are recorded either way)")
        ->check(CLI::IsMember({"auto", "on", "off"}));
    bench->add_option_function<double>(
             "--throttle-threshold", [&](double percent) { bench_options.throttle_threshold = percent / 100; },
             "Percent below the best probe that counts as a throttled clock (default 10)")
        ->check(CLI::Range(0.0, 100.0));
    bench->add_flag("--allow-unsupported", bench_options.allow_unsupported,
                    "UNSUPPORTED cases are not benchmarked without failing the run (exit 1), and a selection of "
                    "only UNSUPPORTED cases exits 0, not 5 (nothing tested): for sweeps that expect such cases");
    bench->add_flag("--stable-power-state", bench_options.device.stable_power_state,
                    "Windows in developer mode: fix the GPU clocks with ID3D12Device::SetStablePowerState for A/B "
                    "comparisons (lower than normal clocks; refused outside developer mode, where the call would "
                    "remove the device, and on vkd3d, which lacks it)");
    bench->allow_extras();

    bench->add_option("--results-db", bench_options.results_db,
                      "Append every benchmark (case, operator, FL, data type, backend, adapter, device, dmltool version "
                      "and commit, samples) to this SQLite database (created when missing) or postgresql:// URL (a fleet's shared "
                      "history; docs/results-store.md); see `dmltool history`. It is checked (connected, schema "
                      "upgraded) before anything is benchmarked: unreachable, exit 3 at once. A write that fails later is "
                      "retried (--results-db-retry), then exits 3 after the report files are written (`dmltool store` "
                      "records the report later). Prints the stored run's id");
    bench->add_option("--results-db-retry", bench_options.results_db_retry_seconds,
                      "Seconds to keep retrying a --results-db write that failed for the environment (server "
                      "unreachable, restarted mid-write), with doubling waits from 1 s (default 60; 0: no retry)")
        ->check(CLI::Range(0.0, 3600.0));

    std::string store_report, store_db;
    double store_retry_seconds = 60;
    CLI::App* store = app.add_subcommand("store", "Record a kept bench --report-json file in a --results-db later "
                                                   "(the same report twice is one run)");
    store->add_option("report", store_report, "The bench --report-json file")->required();
    store->add_option("--results-db", store_db, "The SQLite file or postgresql:// URL (or libpq keyword string)")
        ->required();
    store->add_option("--results-db-retry", store_retry_seconds,
                      "Seconds to keep retrying when the database cannot be reached (default 60; 0: no retry)")
        ->check(CLI::Range(0.0, 3600.0));

    HistoryFilter history_filter;
    std::string history_db, history_format = "table";
    CLI::App* history = app.add_subcommand("history", "List benchmarks across the runs of a --results-db: one case's, or "
                                                       "every case the filters select");
    history->add_option("case", history_filter.case_name,
                        "The case name, as in its case file, or a regular expression (ECMAScript, searched) "
                        "matching names (default: every case)");
    bool history_list = false;
    history->add_flag("--list", history_list, "List the distinct case names and adapters in the store (under the filters)");
    history->add_option("--results-db", history_db,
                        "The SQLite file or postgresql:// URL `bench --results-db` appended to")->required();
    history->add_option("--adapter", history_filter.adapter, "Only runs whose adapter contains this text");
    history->add_option("--driver", history_filter.driver,
                        "Only runs whose device (adapter and runtime: the driver's stand-in) contains this text");
    history->add_option("--since", history_filter.since, "Only runs on or after this UTC date (YYYY-MM-DD or "
                                                         "YYYY-MM-DDTHH:MM:SSZ)");
    history->add_option("--until", history_filter.until, "Only runs on or before this UTC date (a date includes its day)");
    history->add_option("--format", history_format, "table (default) or csv (for scripts and plots)")
        ->check(CLI::IsMember({"table", "csv"}));

    HtmlReportOptions html_options;
    CLI::App* report = app.add_subcommand(
        "report", "Write bench reports as one self-contained HTML page (inline SVG charts; opens without network)");
    report->add_option("reports", html_options.reports, "`bench --report-json` files")->required();
    report->add_option("--html", html_options.output, "The page to write")->required();
    report->add_option("--results-db", html_options.results_db,
                       "History (SQLite file or postgresql:// URL): per-case trends, and each report compared with "
                       "its baseline there (last:5)");
    report->add_flag("--allow-different-adapters", html_options.allow_different_adapters,
                     "Put reports of different adapters, drivers, CPUs, cache modes or power states side by side "
                     "(refused otherwise); each column names its adapter");

    GenerateOptions generate_options;
    CLI::App* generate = app.add_subcommand(
        "generate", "Write random valid cases (no expected outputs: the CPU reference is the oracle) for "
                    "property-based testing of any DirectML implementation: one OUTDIR/<operator>.json per operator");
    generate->add_option("outdir", generate_options.outdir, "Directory for the case files (created when missing)")
        ->required();
    generate->add_option("--operator", generate_options.op,
                         "all (default) or one operator as `dmltool list` names it (DML_OPERATOR_ prefix optional)");
    generate->add_option("--count", generate_options.count, "Cases per operator, 1 to 100000 (default 10)");
    generate->add_option("--seed", generate_options.seed,
                         "Unsigned 64-bit seed (default 1): the same seed writes byte-identical files");

    ImportCommandOptions import_options;
    CLI::App* import = app.add_subcommand(
        "import", "Turn an ONNX model into a case file: one case per distinct DirectML operator and desc the "
                  "network runs, initializers in an HDF5 file beside it (docs/importing-models.md)");
    import->add_option("model", import_options.model, "The .onnx file")->required();
    import->add_option("--out", import_options.out_dir, "Directory for NAME.json and NAME.h5 (created when missing)")
        ->required();
    import->add_option("--batch", import_options.batch, "The value of a symbolic batch dimension (1 to 65536)")
        ->check(CLI::Range(1u, 65536u));
    import->add_option("--name", import_options.name, "Case name prefix and file stem (default: the model's graph name)");
    import->add_flag("--dedupe,!--no-dedupe", [&import_options](int64_t count) { import_options.no_dedupe = count < 0; },
                     "One case per distinct (operator, desc), tagged with every node it stands for (default); "
                     "--no-dedupe writes one case per node");
    import->add_option("--tensors-from", import_options.tensors_from,
                       "An HDF5 file of the network's tensors from one inference (a dataset per ONNX tensor, e.g. "
                       "scripts/ort_per_layer.py's dump of ONNX Runtime): each case reads its node's actual inputs "
                       "and expects its actual outputs; one case per node");
    import->add_flag("--strict", import_options.strict, "Exit 1 when any node is unsupported");
    import->add_flag("-v,--verbose", import_options.verbose, "Print why each unsupported operator type is unsupported");

    CLI::App* schema = app.add_subcommand(
        "schema", "Print the JSON Schema (draft 2020-12) of case files, generated from the operators' own readers "
                  "and feature-level tables (a copy is schema/dmltool-case.schema.json)");

    CompareOptions compare_options;
    std::string compare_base, compare_new;
    CLI::App* compare = app.add_subcommand(
        "compare", "Compare two `bench --report-json` runs case by case: FASTER, SLOWER, SAME or NOISY");
    compare->add_option("base", compare_base, "The reference run's report (e.g. from the main branch)");
    compare->add_option("new", compare_new, "The run to judge (e.g. from a pull request)");
    compare->add_flag("--normalize-by-probes", compare_options.normalize_by_probes,
                      "Separate runs: divide the new run's times by the drift of the runs' copy probes before judging "
                      "(off by default: a copy probe is a poor proxy for compute-bound cases on a shared host)");
    AbOptions ab_options;
    std::vector<std::string> ab_tools;
    compare->add_option("--ab", ab_tools,
                        "BASE_DMLTOOL NEW_DMLTOOL: run both builds' `bench` alternately in rounds (ABBA) with the "
                        "arguments after `--`, and judge the paired rounds (docs/compare-gate.md)")
        ->expected(2);
    compare->add_option("--rounds", ab_options.rounds,
                        "--ab: at most this many rounds of each build (default 30); the rounds stop early at a look "
                        "(round 10, then every 5) where every case is decided")
        ->check(CLI::Range(2u, 1000u));
    compare->add_flag("--fixed-rounds", ab_options.fixed_rounds,
                      "--ab: run all --rounds and judge once at --alpha (no sequential stopping)");
    compare->add_option("--ab-dir", ab_options.work_dir,
                        "--ab: keep each round's report and log in this directory (default: a temporary one, removed)");
    compare->add_option_function<double>(
               "--threshold", [&](double percent) { compare_options.threshold = percent / 100; },
               "Smallest change of a median (percent) that counts as SLOWER or FASTER (default 5)")
        ->check(CLI::Range(0.0, 1000.0));
    compare->add_option("--alpha", compare_options.alpha,
                        "Significance level of the Mann-Whitney U test on the two runs' samples (default 0.05)")
        ->check(CLI::Range(0.0, 1.0));
    compare->add_option("--format", compare_options.format, "table (default), markdown, junit or json")
        ->check(CLI::IsMember({"table", "markdown", "junit", "json"}));
    compare->add_option("--output", compare_options.output, "Write the comparison to this file instead of stdout");
    // Baselines from history (store/baseline_db.h): `compare --baseline-db DB [--baseline SEL] REPORT.json`.
    std::string baseline_db, baseline_selector = "last:5";
    compare->add_option("--baseline-db", baseline_db,
                        "Judge one report (REPORT.json, the only file) against the history in this SQLite file or "
                        "postgresql:// URL: the same cases on the same adapter, driver, cache mode and clocks. Exit "
                        "codes as below, 2 also when no history matches, 3 when the database cannot be reached");
    compare->add_option("--baseline", baseline_selector,
                        "--baseline-db: which runs make the baseline: last:N (default last:5, per case), commit:SHA "
                        "(a prefix) or since:DATE (UTC)");
    compare->add_flag("--allow-different-adapters", compare_options.allow_different_adapters,
                      "Compare runs from different adapters, drivers, CPUs or cache modes (refused by default)");
    compare->add_flag("--allow-undecided", compare_options.allow_undecided,
                      "Exit 0, not 4, when no case is SLOWER but some are NOISY or INCONCLUSIVE (reports, not gates)");
    compare->footer("\nVerdicts: SLOWER or FASTER when the Mann-Whitney U test is significant at --alpha and the "
                    "median moved by more\nthan --threshold plus the runs' noise (1.96 x the medians' standard errors "
                    "combined), whatever the noise;\nNOISY otherwise when either run did not converge or its noise "
                    "exceeds threshold/2; then SLOWER or FASTER\nwhen significant and beyond --threshold; SAME "
                    "otherwise. p-values are Holm-adjusted across the cases; for separate runs,\nNOISY when twice the "
                    "drift of the runs' copy probes explains the change, and INCONCLUSIVE for a SAME\nwhen the probes "
                    "say the machine was faster (or wandered) by more than the threshold.\n"
                    "A/B mode: dmltool compare --ab BASE_DMLTOOL NEW_DMLTOOL [--rounds N] -- BENCH_ARGS...");

    // `compare --ab A B -- BENCH_ARGS...`: what follows `--` is for the builds' bench, not for CLI11.
    if (argc > 2 && std::string(argv[1]) == "compare") {
        bool has_ab = false;
        for (int i = 2; i < argc && std::string(argv[i]) != "--"; ++i) has_ab = has_ab || std::string(argv[i]) == "--ab";
        for (int i = 2; has_ab && i < argc; ++i)
            if (std::string(argv[i]) == "--") {
                ab_options.bench_args.assign(argv + i + 1, argv + argc);
                argc = i;
                break;
            }
    }
    const std::vector<CLI::App*> commands = {run, validate, list, bench, compare, history, store, generate, import, report,
                                            schema};
    app.footer(kExitCodes);
    for (CLI::App* command : commands) command->footer(command->get_footer() + kExitCodes);
    if (argc == 1) {  // `dmltool` alone: the usage, not "A subcommand is required"
        app.name("dmltool");
        std::cout << app.help();
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // CLI11 reports a mistyped subcommand ("dmltool rnu") as "A subcommand is required": name the word instead.
        const std::string first = argc > 1 ? argv[1] : "";
        const auto sub = std::find_if(commands.begin(), commands.end(),
                                      [&](const CLI::App* s) { return s->check_name(first); });
        const bool known = sub != commands.end();
        if (!first.empty() && first[0] != '-' && !known) {
            std::fprintf(stderr, "dmltool: error: unknown subcommand '%s' (expected run, validate, list, bench, compare, history, store, generate, import, report or schema; see "
                         "dmltool --help)\n", first.c_str());
            return 2;
        }
        const std::string name = known ? (*sub)->get_name() : std::string();
        std::fprintf(stderr, "dmltool: error: %s%s\n", parse_error_text(app, e, name).c_str(), see_help(name).c_str());
        return 2;
    }
    const auto registry = make_builtin_registry();
    // Test hook (docs/robustness.md): simulated device faults for the run and bench GPU backends.
    if (const char* faults = std::getenv("DMLTOOL_INJECT_FAULT")) {
        run_options.device.inject_fault = faults;
        bench_options.device.inject_fault = faults;
    }
    auto usage_error = [&app](const std::string& message) {
        const auto parsed = app.get_subcommands();  // the one subcommand given
        std::fprintf(stderr, "dmltool: error: %s%s\n", message.c_str(),
                     see_help(parsed.empty() ? std::string() : parsed[0]->get_name()).c_str());
        return 2;
    };
    if (run->parsed()) {
        if (auto e = apply_flags(run_flags, run_options.run, &run_options.selection); !e.empty()) return usage_error(e);
        warn_options_without_effect(*run, run_options.run.backend, run_flags.backend);
        run_options.run.repro_tool = argv[0];
        if (run_options.run.backend == BackendChoice::kDirectml || run_options.run.backend == BackendChoice::kAll)
            run_options.run.repro_extra_args += directml_repro_args(run_options.device);
        return run_command(run_options, registry);
    }
    if (validate->parsed()) {
        if (auto e = apply_flags(validate_flags, validate_run, &validate_selection); !e.empty()) return usage_error(e);
        return validate_command(validate_selection, validate_run, registry, validate_verbose);
    }
    if (schema->parsed()) {
        std::cout << case_file_schema(registry).dump(2) << "\n";
        return 0;
    }
    if (list->parsed()) {
        // `dmltool list SPLIT`: arguments that name operators (and no existing file) print their desc members. A
        // command line is typed, not a case file: any case goes ("resample"), and a word that is neither a file nor
        // an operator is most likely a misspelled operator ("SPLT"), not a missing case file.
        const auto find_operator = [&](const std::string& word) -> const Op* {
            std::error_code ec;
            if (std::filesystem::exists(word, ec)) return nullptr;
            std::string upper = word;
            for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
            return registry.find(upper);
        };
        const auto looks_like_operator = [](const std::string& word) {
            return !word.empty() && word.find_first_of("./\\") == std::string::npos;
        };
        if (!list_cases.files.empty() && std::all_of(list_cases.files.begin(), list_cases.files.end(), find_operator)) {
            for (const std::string& name : list_cases.files) std::cout << format_desc_members(*find_operator(name));
            return 0;
        }
        for (const std::string& word : list_cases.files) {
            std::error_code ec;
            if (!find_operator(word) && looks_like_operator(word) && !std::filesystem::exists(word, ec)) {
                std::string upper = word;
                for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
                return usage_error("list: '" + word + "' is neither a case file nor an operator: " +
                                   registry.unknown_operator_message(upper));
            }
        }
        if (!list_cases.files.empty()) return list_cases_command(list_cases, registry);
        if (list_cases.json) return usage_error("list --json: expected case files to list");
        return list_command(registry, list_device);
    }
    if (compare->parsed()) {
        if (!ab_tools.empty()) {
            if (!compare_base.empty())
                return usage_error("compare --ab: expected no report files (the rounds make their own), found '" +
                                   compare_base + "'");
            ab_options.base_tool = ab_tools[0];
            ab_options.new_tool = ab_tools[1];
            return compare_ab_command(ab_options, compare_options);
        }
        if (!baseline_db.empty()) {
            if (compare_base.empty() || !compare_new.empty())
                return usage_error("compare --baseline-db: expected one report to judge (REPORT.json), found " +
                                   std::to_string(compare_base.empty() ? 0 : compare_new.empty() ? 1 : 2));
            return baseline_compare_command(baseline_db, baseline_selector, compare_base, compare_options);
        }
        if (compare_new.empty())
            return usage_error("compare: expected BASE.json NEW.json (two bench --report-json files), --baseline-db DB "
                               "REPORT.json, or --ab BASE_DMLTOOL NEW_DMLTOOL -- BENCH_ARGS...");
        return compare_command(compare_base, compare_new, compare_options);
    }
    if (history->parsed()) return history_command(history_filter, history_db, history_format, history_list);
    if (store->parsed()) return store_command(store_report, store_db, store_retry_seconds);
    if (report->parsed()) return html_report_command(html_options);
    if (generate->parsed()) return generate_command(generate_options, registry);
    if (import->parsed()) return import_command(import_options, registry);
    if (auto e = apply_flags(bench_flags, bench_options.run, &bench_options.selection); !e.empty()) return usage_error(e);
    warn_options_without_effect(*bench, bench_options.run.backend, bench_flags.backend);
    for (const std::string& extra : bench->remaining()) {
        if (extra.rfind("--benchmark_", 0) != 0) return usage_error("bench: unknown option '" + extra + "'");
        if (bench_options.passes > 1 && (extra.rfind("--benchmark_repetitions", 0) == 0 ||
                                         extra.rfind("--benchmark_enable_random_interleaving", 0) == 0))
            return usage_error("bench: --passes sets Google Benchmark's repetitions and interleaving itself; found '" +
                               extra + "' beside it");
        bench_options.benchmark_args.push_back(extra);
    }
    unsigned processes = 1;
    if (auto e = parse_processes_option(bench_processes, processes); !e.empty()) return usage_error(e);
    if (processes > 1) return bench_processes_command(bench_options, processes, std::vector<std::string>(argv, argv + argc));
    return bench_command(bench_options, registry);
}

}  // namespace dmltool::app
