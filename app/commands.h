// The subcommands, each taking plain option structs (filled by cli.cpp) and returning the process exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/host_timer.h"
#include "bench/stats.h"
#include "core/case_selection.h"
#include "core/op_registry.h"
#include "core/plan_tuning.h"
#include "core/runner.h"

namespace dmltool::app {

struct DeviceOptions {
    std::string adapter;  // index or name substring; empty = first hardware adapter, else software
    uint64_t max_device_mib = 0;  // device memory budget per case; 0 = the adapter's device-local memory
    std::string inject_fault;     // DMLTOOL_INJECT_FAULT: simulated device faults (a test hook, gpu/fault_injector.h)
    // The DirectML backend (--backend directml/all; gpu/directml/README.md).
    std::string directml_dll;          // --directml-dll; empty: next to dmltool.exe, then the system's
    bool dml_disable_metacommands = false;
    bool dml_allow_half_precision = false;
    bool dml_debug = false;
    // --deviations auto|none|FILE: the deviation registry DirectML is judged with (app/deviation_setup.h).
    std::string deviations = "auto";
    // bench --stable-power-state: ID3D12Device::SetStablePowerState on every device bench creates (Windows in
    // developer mode only; elsewhere device creation fails with the reason, exit 3).
    bool stable_power_state = false;
    // Autotuning of plan variants (docs/benchmarks.md: Autotuning): --autotune (run: cached, bench: tune) and --tuning-cache
    // (empty: core/plan_tuning.h's default_tuning_cache_path()).
    TuningMode autotune = TuningMode::kCached;
    std::string tuning_cache;
};

struct RunCommandOptions {
    Selection selection;
    RunOptions run;
    DeviceOptions device;
    unsigned threads = 0;
    bool verbose = false;
    bool strict = false;  // --strict: DEVIATES fails the run (exit code 1)
    bool allow_unsupported = false;  // --allow-unsupported: all cases UNSUPPORTED is exit 0, not 5 (nothing tested)
    std::string junit_path;
    std::string json_path;
};

struct BenchCommandOptions {
    Selection selection;
    RunOptions run;
    DeviceOptions device;
    unsigned threads = 0;
    std::vector<std::string> benchmark_args;  // --benchmark_* flags, passed to Google Benchmark
    unsigned gpu_batch = 20;                  // GPU executions per timed submission
    uint64_t roofline_mib = 256;              // MiB copied by the roofline copy probes; 0 = no probes
    std::string report_json_path;             // the bench report (machine, rooflines, cases, tables) as JSON
    std::string report_csv_path;              // the same as CSV
    StopRule stop;                            // --max-noise, --min-samples, --max-time
    unsigned passes = 1;                      // --passes: each case's sampling spread over this many interleaved passes
    bool verbose = false;                     // -v: also print every case's correctness check, as `run -v` does
    bool cache_cold = false;                  // --cache cold: flush the caches before every sample
    HostTimer timer = HostTimer::kWall;       // --timer: the clock of the CPU reference's samples and host probes
    uint64_t flush_mib = 256;                 // --flush-mib: what a flush writes over (capped on software adapters)
    std::string throttle = "auto";            // --throttle auto|on|off: may a slow clock probe re-measure a case
    double throttle_threshold = 0.10;         // --throttle-threshold: how far below the best probe counts as slow
    std::string results_db;                   // --results-db: append every benchmark to this SQLite database
    bool allow_unsupported = false;           // --allow-unsupported: UNSUPPORTED cases neither fail nor empty a run
    double results_db_retry_seconds = 60;     // --results-db-retry: how long writes to it are retried
};

// "a,b,c": items joined by `separator`.
std::string join(const std::vector<std::string>& items, const char* separator);
// The options `run` and `bench` share (backend, selection, semantics, adapter, threads...), as their reports
// record them: option name -> value as used.
std::vector<std::pair<std::string, std::string>> describe_shared_options(const Selection& selection, const RunOptions& run,
                                                                         const DeviceOptions& device, unsigned threads);
// The one line (exit code 5) that says why a run or bench of `total` cases, all SKIPPED or UNSUPPORTED
// (`unsupported` of them, the first for `first_unsupported_reason`), tested nothing; with total 0, that the
// selection (--filter, --tag, --shard) chose no case.
std::string nothing_tested_line(size_t total, const Selection& selection, size_t unsupported = 0,
                                const std::string& first_unsupported_reason = "");
int run_command(const RunCommandOptions& options, const OpRegistry& registry);
// `verbose` (-v): also list the valid cases.
int validate_command(const Selection& selection, const RunOptions& options, const OpRegistry& registry,
                     bool verbose = false);
int list_command(const OpRegistry& registry, const DeviceOptions& device);
// `dmltool list FILES... [--json]`: the cases the files hold, sweeps expanded (app/list_cases.cpp).
struct ListCasesOptions {
    std::vector<std::string> files;
    bool json = false;      // print {"cases": [...]} (derived outputs and random parameters filled in)
    CaseLoadLimits limits;  // --max-case-file-size, --max-json-values
};
int list_cases_command(const ListCasesOptions& options, const OpRegistry& registry);
int bench_command(const BenchCommandOptions& options, const OpRegistry& registry);
// `bench --processes N` (N >= 2): the same bench in N fresh processes, one after another, merged into one
// --report-json (app/bench_processes.cpp); `argv` is the command line as given, re-run minus --processes.
int bench_processes_command(const BenchCommandOptions& options, unsigned processes, const std::vector<std::string>& argv);
// --processes TEXT: a whole number from 1 to 64 into `processes`; else the one-line error (naming the option, what was
// expected and what was found).
std::string parse_processes_option(const std::string& text, unsigned& processes);
// `dmltool generate`: N random valid cases per operator, one file per operator (app/generate.cpp). Options stay
// text so that a bad value gets the one-line message naming the option, its range and what was found (exit 2).
struct GenerateOptions {
    std::string op = "all";
    std::string count = "10";
    std::string seed = "1";
    std::string outdir;
};
int generate_command(const GenerateOptions& options, const OpRegistry& registry);
// `dmltool import`: an ONNX model -> one case file + one HDF5 file (app/import.cpp, model_import/).
struct ImportCommandOptions {
    std::string model;
    std::string out_dir;
    std::optional<uint32_t> batch;
    std::string name;
    bool no_dedupe = false;
    std::string tensors_from;  // --tensors-from FILE.h5: each node's actual inputs and outputs (one case per node)
    bool strict = false;   // exit 1 when a node is unsupported
    bool verbose = false;  // -v: each unsupported operator type's reason
};
int import_command(const ImportCommandOptions& options, const OpRegistry& registry);

// The device backend a run asks for; null for --backend cpu. --backend all is refused (use open_backends).
Result<std::unique_ptr<Backend>> open_backend(const RunOptions& run, const DeviceOptions& device);
// Every device backend a run asks for, in comparison order: none (cpu), own kernels (gpu/both), DirectML
// (directml), or own kernels then DirectML (all).
Result<std::vector<std::unique_ptr<Backend>>> open_backends(const RunOptions& run, const DeviceOptions& device);
// Prints "dmltool: error: <message>" on stderr and returns exit_code.
// Report files (--json, --junit, bench's --report-json/--report-csv: option -> path, empty paths skipped) are
// checked before a run starts: their directory exists and the file can be written. INVALID with the reason.
Status check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs);
int report_error(const Status& status, int exit_code);

}  // namespace dmltool::app
