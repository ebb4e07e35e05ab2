// `dmltool bench`: correctness first (only cases that pass are timed), then the rooflines of this run (copy and
// multiply-add probes), then Google Benchmark times each case on the CPU reference and on the GPU
// (bench/registration.h), and the report (bench/report.h) relates every figure to the roofline per case, per
// feature level and per operator x data type, on the console and optionally as JSON/CSV files.
#include <algorithm>
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "app/commands.h"
#include "app/deviation_setup.h"
#include "app/device.h"
#include "bench/collect.h"
#include "bench/conditions.h"
#include "bench/machine.h"
#include "bench/registration.h"
#include "bench/report.h"
#include "bench/report_files.h"
#include "bench/roofline.h"
#include "bench/slowdown.h"
#include "core/plan_tuning.h"
#include "core/report.h"
#include "store/results_db.h"
#include "store/results_store.h"

namespace dmltool::app {
namespace {

// --backend cpu and both time the reference too; gpu and directml time the device alone.
bool times_cpu_reference(BackendChoice backend) {
    return backend == BackendChoice::kCpu || backend == BackendChoice::kBoth;
}

std::string data_type_of_first_input(const CaseSpec& spec) {
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
        if (slot.role == TensorRole::kInput && slot.desc) return std::string(data_type_name(slot.desc->data_type));
    return "none";
}

std::string number_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::vector<std::pair<std::string, std::string>> describe_options(const BenchCommandOptions& o) {
    const bool directml = o.run.backend == BackendChoice::kDirectml;
    auto options = describe_shared_options(o.selection, o.run, o.device, o.threads);
    options.insert(options.end(), {
        {"dml_metacommands", directml ? (o.device.dml_disable_metacommands ? "off" : "on") : "n/a"},
        {"dml_half_precision", directml ? (o.device.dml_allow_half_precision ? "allowed" : "off") : "n/a"},
        {"directml_dll", directml ? o.device.directml_dll : ""},
        {"gpu_batch", std::to_string(o.gpu_batch)},
        {"roofline_mib", std::to_string(o.roofline_mib)},
        {"benchmark_args", join(o.benchmark_args, " ")},
        {"max_noise_percent", number_text(100 * o.stop.max_noise)},
        {"min_samples", std::to_string(o.stop.min_samples)},
        {"max_time_seconds", number_text(o.stop.max_seconds)},
        {"passes", std::to_string(o.passes)},
        {"cache", o.cache_cold ? "cold" : "hot"},
        {"timer", std::string(host_timer_name(o.timer))},
        {"stable_power_state", o.device.stable_power_state ? "on" : "off"},
        {"flush_mib", std::to_string(o.flush_mib)},
        {"throttle", o.throttle},
        {"throttle_threshold_percent", number_text(100 * o.throttle_threshold)},
        // The test hook's value, so that a report measured with a planted slowdown says so.
        {"test_slowdown", std::getenv("DMLTOOL_TEST_SLOWDOWN") ? std::getenv("DMLTOOL_TEST_SLOWDOWN") : ""}});
    return options;
}

std::map<std::string, BackendRoofline> measure_rooflines(const BenchCommandOptions& options, Backend* device,
                                                         ThreadPool& pool, const MachineInfo& machine) {
    std::map<std::string, BackendRoofline> rooflines;
    const uint64_t bytes = options.roofline_mib << 20;
    const bool with_cpu = times_cpu_reference(options.run.backend);
    if (device)
        rooflines[device->label()] = bytes ? measure_device_roofline(*device, bytes) : unmeasured_roofline("--roofline-mib 0");
    if (with_cpu)
        rooflines["cpu"] = bytes ? measure_host_roofline(pool, bytes, machine.cpu_model, options.timer)
                                 : unmeasured_roofline("--roofline-mib 0");
    if (device && rooflines[device->label()].measured.adapter.empty())
        rooflines[device->label()].measured.adapter = device->name();
    return rooflines;
}

std::string rate_or_na(double value) {
    if (!(value > 0)) return "n/a";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

// So that --benchmark_out files say where and against what they were measured.
void add_benchmark_context(const MachineInfo& machine, const BuildInfo& build,
                           const std::map<std::string, BackendRoofline>& rooflines, const BenchCommandOptions& options) {
    benchmark::AddCustomContext("dmltool_version", build.version);
    benchmark::AddCustomContext("dmltool_git_commit", build.git_commit);
    benchmark::AddCustomContext("cpu_model", machine.cpu_model);
    benchmark::AddCustomContext("os", machine.os);
    benchmark::AddCustomContext("kernel", machine.kernel);
    std::string adapter = "none";
    for (const auto& [backend, r] : rooflines)
        if (backend != "cpu") adapter = r.measured.adapter;
    benchmark::AddCustomContext("adapter", adapter);
    for (const auto& [backend, r] : rooflines) {
        benchmark::AddCustomContext(backend + "_copy_bytes_per_second", rate_or_na(r.measured.copy_bytes_per_second));
        benchmark::AddCustomContext(backend + "_copy_method", r.measured.copy_method.empty() ? "n/a" : r.measured.copy_method);
        benchmark::AddCustomContext(backend + "_int_multiply_adds_per_second",
                                    rate_or_na(r.measured.int_multiply_adds_per_second));
        benchmark::AddCustomContext(backend + "_float_fmas_per_second", rate_or_na(r.measured.float_fmas_per_second));
        if (!r.note.empty()) benchmark::AddCustomContext(backend + "_roofline_note", r.note);
    }
    for (const auto& [name, value] : describe_options(options)) benchmark::AddCustomContext("option_" + name, value);
}

// On a software adapter the "GPU" caches are the host's: a few tens of MiB evict them, and flushing 256 MiB per
// sample at a few GB/s would leave almost no time for samples.
constexpr uint64_t kSoftwareFlushCap = 16ull << 20;
// The throttle probe: long enough for a stable bandwidth on a GPU (a few tens of microseconds at TB/s), short
// enough to run between every two cases; software adapters and the host copy at a few GB/s get less.
constexpr uint64_t kDeviceProbeBytes = 64ull << 20, kSoftwareProbeBytes = 1ull << 20, kHostProbeBytes = 8ull << 20;
constexpr unsigned kDeviceProbeExecutions = 5, kHostProbeCopies = 3;
// Device time of back-to-back copies before each hardware probe (DeviceCopy::fastest). Without it the H100 runs of
// 2026-11-26/27 probed 1.3-2.2 TB/s around cases that themselves moved up to 2.9 TB/s (the start-of-run probe,
// warmed up, had 2.9): the probe measured the clock ramp after the idle CPU check, and flagged 22 of 38 cases.
// Software adapters get none: their "clock" is the host's, and the CLI tests probe them often.
constexpr double kDeviceProbeWarmupSeconds = 0.05;

// What --cache cold and the throttle probes need for the whole run.
struct Conditions {
    std::unique_ptr<Backend> aux;  // a second device on the same adapter for flushes and probes
    std::unique_ptr<DeviceCopy> device_flush, device_probe;
    std::unique_ptr<HostCopy> host_flush, host_probe;
    std::unique_ptr<HostCacheProbe> host_cache_probe;  // beside host_probe: the speed of small work on the core
    ThrottleMonitor monitor{0.10};
    std::set<std::string> flag_backends;
    std::map<std::string, uint64_t> flush_bytes;  // by backend
    std::string cache_note, throttle_note;
    double probe_warmup_seconds = 0;
    long slow_probe = -1;  // DMLTOOL_TEST_SLOW_PROBE=N: probes N (0-based) and later report a hundredth of their
                           // bandwidth
};

Status set_up_conditions(const BenchCommandOptions& options, Backend* device, ThreadPool* cpu, const Runner& runner,
                         const OpRegistry& registry, Conditions& c) {
    c.monitor = ThrottleMonitor(options.throttle_threshold);
    const bool throttle = options.throttle != "off";
    const bool software = device && is_software_device(*device);
    if (device && (options.cache_cold || throttle)) {
        DeviceOptions aux_options = options.device;
        aux_options.inject_fault.clear();  // simulated faults are for the device under test
        DMLTOOL_ASSIGN_OR_RETURN(c.aux, open_backend(options.run, aux_options));
    }
    const uint64_t flush = options.flush_mib << 20;
    if (options.cache_cold) {
        if (device) {
            const uint64_t bytes = software ? std::min(flush, kSoftwareFlushCap) : flush;
            // A copy of `bytes`: it reads the flush size and writes as much again, as the host flush writes two
            // buffers of that size.
            DMLTOOL_ASSIGN_OR_RETURN(c.device_flush, DeviceCopy::create(bytes, registry, runner));
            c.flush_bytes[device->label()] = bytes;
            if (bytes != flush)
                c.cache_note = "software adapter: the device flush is capped at " + describe_bytes(kSoftwareFlushCap);
        }
        if (cpu) {
            c.host_flush = std::make_unique<HostCopy>(2 * flush);
            c.flush_bytes["cpu"] = flush;
        }
    }
    if (throttle) {
        if (device) {
            DMLTOOL_ASSIGN_OR_RETURN(c.device_probe, DeviceCopy::create(software ? kSoftwareProbeBytes : kDeviceProbeBytes,
                                                                        registry, runner));
            if (options.throttle == "on" || !software) c.flag_backends.insert(device->label());
            c.probe_warmup_seconds = software ? 0 : kDeviceProbeWarmupSeconds;
        }
        if (cpu) {
            c.host_probe = std::make_unique<HostCopy>(kHostProbeBytes, options.timer);
            c.host_cache_probe = std::make_unique<HostCacheProbe>(options.timer);
            if (options.throttle == "on") c.flag_backends.insert("cpu");
        }
        if (options.throttle == "auto")
            c.throttle_note = std::string("auto: the flag re-measures on hardware adapters only; ") +
                              (software ? "this adapter is software (its clock is the shared host's: the probe " : "") +
                              (software ? "would fire on every scheduling hiccup), and " : "") +
                              "the CPU reference's probe is recorded but never flags (a shared host's noise, not clocks)";
    }
    if (const char* slow = std::getenv("DMLTOOL_TEST_SLOW_PROBE")) {
        c.slow_probe = std::strtol(slow, nullptr, 10);
        std::fprintf(stderr, "dmltool: note: DMLTOOL_TEST_SLOW_PROBE=%s: probes %ld and later report a hundredth of their "
                             "bandwidth (a test hook: a throttle that sets in and stays)\n", slow, c.slow_probe);
    }
    return Status::ok();
}

void attach_conditions(Conditions& c, BenchTargets& targets) {
    targets.cold = c.device_flush || c.host_flush;
    if (targets.cold)
        targets.before_sample = [&c](const std::string& backend) -> Status {
            if (backend == "cpu") {
                if (c.host_flush) c.host_flush->flush();
                return Status::ok();
            }
            if (!c.device_flush) return Status::ok();
            return c.device_flush->time(*c.aux, 1).status();
        };
    if (!c.device_probe && !c.host_probe) return;
    targets.throttle = &c.monitor;
    targets.throttle_flag_backends = c.flag_backends;
    targets.probe = [&c](const std::string& backend, const std::string& after) -> Result<double> {
        double bytes_per_second = 0, cache_bytes_per_second = 0;
        if (backend == "cpu") {
            if (!c.host_probe) return 0.0;
            double best = 0;
            for (unsigned i = 0; i < kHostProbeCopies; ++i) {
                const double seconds = c.host_probe->time();
                if (seconds > 0) best = std::max(best, double(c.host_probe->bytes()) / seconds);
            }
            bytes_per_second = best;
            cache_bytes_per_second = c.host_cache_probe->bytes_per_second();
        } else {
            if (!c.device_probe) return 0.0;
            DMLTOOL_ASSIGN_OR_RETURN(double seconds, c.device_probe->fastest(*c.aux, kDeviceProbeExecutions,
                                                                                  c.probe_warmup_seconds));
            bytes_per_second = seconds > 0 ? double(c.device_probe->bytes()) / seconds : 0;
        }
        if (c.slow_probe >= 0 && long(c.monitor.history().size()) >= c.slow_probe) {
            bytes_per_second /= 100;
            cache_bytes_per_second /= 100;
        }
        c.monitor.record({backend, after, bytes_per_second, cache_bytes_per_second});
        return bytes_per_second;
    };
}

std::string conditions_json_cache(const Conditions& c, bool cold) {
    nlohmann::json j = {{"mode", cold ? "cold" : "hot"}, {"flush_bytes", c.flush_bytes}, {"note", c.cache_note}};
    return j.dump();
}

std::string conditions_json_throttle(const Conditions& c, const BenchCommandOptions& options) {
    nlohmann::json probes = nlohmann::json::array();
    for (size_t i = 0; i < c.monitor.history().size(); ++i) {
        const ProbeRecord& p = c.monitor.history()[i];
        probes.push_back({{"index", i}, {"backend", p.backend}, {"after", p.after}, {"bytes_per_second", p.bytes_per_second}});
        if (p.cache_bytes_per_second > 0) probes.back()["cache_bytes_per_second"] = p.cache_bytes_per_second;
    }
    nlohmann::json j = {{"mode", options.throttle}, {"threshold", options.throttle_threshold},
                        {"device_probe_warmup_seconds", c.probe_warmup_seconds},
                        {"flag_backends", c.flag_backends}, {"note", c.throttle_note}, {"probes", probes}};
    return j.dump();
}

void print_conditions(std::FILE* out, const Conditions& c, const std::vector<BenchCase>& cases, bool cold) {
    std::string flushes;
    for (const auto& [backend, bytes] : c.flush_bytes)
        flushes += (flushes.empty() ? "" : ", ") + backend + " " + describe_bytes(bytes);
    std::fprintf(out, "\nCache: %s%s%s%s\n", cold ? "cold (flushed before every sample, one execution per sample: "
                                                  : "hot (back-to-back batches)",
                 cold ? flushes.c_str() : "", cold ? ")" : "", c.cache_note.empty() ? "" : ("; " + c.cache_note).c_str());
    if (c.monitor.history().empty()) return;
    std::map<std::string, size_t> counts;
    for (const ProbeRecord& p : c.monitor.history()) ++counts[p.backend];
    for (const auto& [backend, count] : counts)
        std::fprintf(out, "Throttle probes: %zu on %s, best %s (%s)\n", count, backend.c_str(),
                     format_rate(c.monitor.best(backend), "B/s").c_str(),
                     c.flag_backends.count(backend) ? "flag on" : "recorded only");
    if (!c.throttle_note.empty()) std::fprintf(out, "  note: %s\n", c.throttle_note.c_str());
    for (const BenchCase& bc : cases) {
        if (bc.remeasured)
            std::fprintf(out, "dmltool: note: %s on %s was re-measured: the clock probe was more than %.0f%% below "
                              "the best so far\n", bc.name.c_str(), bc.backend.c_str(), 100 * c.monitor.threshold());
        if (bc.throttled)
            std::fprintf(out, "dmltool: warning: %s on %s: measured while the clock probe was more than %.0f%% below "
                              "the run's best (throttled?)\n", bc.name.c_str(), bc.backend.c_str(),
                         100 * c.monitor.threshold());
    }
}

// Which plan variant each device case ran (autotuning, docs/benchmarks.md: Autotuning), after the tables.
void print_plan_choices(std::FILE* out, const std::vector<BenchCase>& cases) {
    bool header = false;
    for (const BenchCase& c : cases) {
        if (!c.plan) continue;
        if (!header) std::fprintf(out, "\nPlans (autotuning):\n");
        header = true;
        const PlanChoice& p = *c.plan;
        if (p.source == "heuristic")
            std::fprintf(out, "  %s on %s: heuristic (%s)\n", c.name.c_str(), c.backend.c_str(), p.note.c_str());
        else
            std::fprintf(out, "  %s on %s: %s (%s; %.2fx the heuristic plan's speed, %zu variants measured)\n",
                         c.name.c_str(), c.backend.c_str(), p.display_name().c_str(), p.source.c_str(), p.speedup(),
                         p.candidates.size());
    }
}

// A copy of each data-movement case's own bytes on the device, timed as the cases are (batches of --gpu-batch
// back-to-back executions, the median batch mean), once per size after every case has run. The copy probe moves
// --roofline-mib; a smaller transfer runs further below it (a fixed cost per dispatch: on the H200 of 2026-11-28
// copies of 128 MiB ran at 3.3 TB/s, the 512 MiB probe at 4.19), so the report gives each case's share of a copy of
// its own size too: what a kernel moving those bytes could reach here (rounded up to whole 2 KiB rows of input, at
// least one). A failed copy is a note.
void measure_same_size_copies(std::vector<BenchCase>& cases, Backend& device, unsigned batch,
                              const OpRegistry& registry, const Runner& runner, std::FILE* out) {
    const bool software = is_software_device(device);
    // A software adapter's copies run at the host's few GB/s: fewer, single-copy samples without warm-up there (a
    // hint, not a roofline) keep a bench of large cases from spending minutes on them.
    const unsigned samples = software ? 3 : 7;
    if (software) batch = 1;
    std::map<uint64_t, double> by_bytes;  // case bytes -> copy bytes/s (0: failed)
    for (BenchCase& c : cases) {
        if (c.backend != device.label() || c.compute_bound || c.seconds <= 0 || c.bytes == 0) continue;
        auto found = by_bytes.find(c.bytes);
        if (found == by_bytes.end()) {
            double bytes_per_second = 0;
            auto copy = DeviceCopy::create(c.bytes / 2, registry, runner);
            Status status = copy.status();
            // The tuner's warm-up: right after the cases the H200 ran the first 512 MiB copies at 335 us for over
            // 100 ms, then at 130 us (results/h200_2026-11-28_full_runs/same_size_copy_exp.txt).
            if (status.is_ok() && !software)
                status = settle_clocks([&](double) -> Result<TimedBatch> {
                             DMLTOOL_ASSIGN_OR_RETURN(const double mean, (*copy)->time(device, batch));
                             return TimedBatch{mean, mean * batch};
                         }).status();
            std::vector<double> means;
            for (unsigned i = 0; status.is_ok() && i < samples; ++i) {
                auto mean = (*copy)->time(device, batch);
                if (mean.is_ok()) means.push_back(*mean);
                else status = mean.status();
            }
            if (status.is_ok() && means.size() == samples) {
                std::sort(means.begin(), means.end());
                if (means[samples / 2] > 0) bytes_per_second = double((*copy)->bytes()) / means[samples / 2];
                std::fprintf(out, "same-size copy on %s: %s moved in %.3f us per copy: %s\n", device.label().c_str(),
                             describe_bytes((*copy)->bytes()).c_str(), means[samples / 2] * 1e6,
                             format_rate(bytes_per_second, "B/s").c_str());
            } else {
                std::fprintf(out, "dmltool: note: the same-size copy of %s failed: %s\n", describe_bytes(c.bytes).c_str(),
                             status.message().c_str());
            }
            found = by_bytes.emplace(c.bytes, bytes_per_second).first;
        }
        c.same_size_copy_bytes_per_second = found->second;
    }
}

// The device backend's adapter as the report names it.
std::string adapter_of_report(const BenchReport& report) {
    for (const auto& [backend, r] : report.rooflines)
        if (backend != "cpu") return r.measured.adapter;
    return "none";
}

}  // namespace

int bench_command(const BenchCommandOptions& options, const OpRegistry& registry) {
    bool console = true;
    auto display = make_display_reporter(options.benchmark_args, &console);
    if (!display.is_ok()) return report_error(display.status(), 2);
    // With --benchmark_format=json or csv, stdout belongs to Google Benchmark: dmltool's own lines go to stderr.
    std::FILE* human = console ? stdout : stderr;
    auto selected = select_cases(options.selection, registry);
    if (!selected.is_ok()) return report_error(selected.status(), 2);
    if (Status writable = check_output_paths({{"--report-json", options.report_json_path},
                                              {"--report-csv", options.report_csv_path}});
        !writable.is_ok())
        return report_error(writable, 2);
    // The results database before any benchmark: a wrong URL, password or schema costs seconds, not a suite.
    if (!options.results_db.empty())
        if (Status s = check_results_store(options.results_db); !s.is_ok())
            return report_error(s, results_store_exit_code(s));
    if (selected->cases.empty() && selected->broken.empty()) {  // as run: a selection of no case is exit 5
        std::fprintf(stderr, "%s\n", nothing_tested_line(0, options.selection).c_str());
        return kExitNothingTested;
    }
    if (options.device.stable_power_state && options.run.backend == BackendChoice::kCpu)
        return report_error(invalid_input("--stable-power-state sets a GPU's clocks; --backend cpu uses no GPU"), 2);
    if (options.timer == HostTimer::kProcessCpu) {
        if (!times_cpu_reference(options.run.backend))
            return report_error(invalid_input("--timer cpu: clocks the CPU reference (--backend cpu or both); GPU "
                                              "timings come from the device's timestamps"), 2);
        if (Status s = host_timer_available(options.timer); !s.is_ok()) return report_error(s, 2);
    }
    auto deviation_registries = load_deviation_registries(options.device.deviations, registry);
    if (!deviation_registries.is_ok())
        return report_error(deviation_registries.status(),
                            deviation_registries.status().code() == ErrorCode::kInvalidInput ? 2 : 3);
    auto opened = open_backend(options.run, options.device);
    if (!opened.is_ok()) return report_error(opened.status(), 3);
    std::unique_ptr<Backend> device = std::move(opened).value();
    // Tuning writes a file outside the working tree: say where, once (issue 41 item 5).
    const bool runs_kernels = options.run.backend == BackendChoice::kGpu || options.run.backend == BackendChoice::kBoth;
    if (runs_kernels && options.device.autotune == TuningMode::kTune)
        std::fprintf(human, "dmltool: note: --autotune tune: tuned plans are stored in %s (--tuning-cache FILE moves it)\n",
                     (options.device.tuning_cache.empty() ? default_tuning_cache_path().string()
                                                          : options.device.tuning_cache).c_str());
    ThreadPool pool(options.threads);
    Runner runner(options.run, pool, device.get());
    // DirectML's registered departures (DEVIATES) are still timed: the speed of what DirectML computes.
    if (device)
        attach_deviation_registries(runner, {device.get()}, *deviation_registries, options.device.deviations, human);
    BenchTargets targets;
    targets.pool = times_cpu_reference(options.run.backend) ? &pool : nullptr;
    targets.semantics = &options.run.semantics;
    targets.device = device.get();
    targets.gpu_batch = options.gpu_batch;
    targets.stop = stop_rule_per_pass(options.stop, options.passes);
    targets.host_timer = options.timer;
    auto slowdown = test_slowdown_from_environment();
    if (!slowdown.is_ok()) return report_error(slowdown.status(), 2);
    if (*slowdown) {
        targets.slowdown = &**slowdown;
        std::fprintf(stderr, "dmltool: note: DMLTOOL_TEST_SLOWDOWN=%s: matching cases are timed %gx slower (a test hook "
                             "for the regression gate)\n", (*slowdown)->text.c_str(), (*slowdown)->factor);
    }
    Conditions conditions;
    if (Status s = set_up_conditions(options, device.get(), targets.pool, runner, registry, conditions); !s.is_ok())
        return report_error(s, 3);
    attach_conditions(conditions, targets);

    ReportContext context{describe_machine(), build_info(), utc_timestamp(), options.selection.files,
                          describe_options(options), {}, "none", {}};
    if (device) context.device = device->name();
    for (const CaseFile* file : selected->broken)
        context.not_benchmarked.push_back({file->path, "(file)", "INVALID", file->status.message()});
    std::vector<std::unique_ptr<TimedCase>> timed;
    std::vector<RegisteredBenchmark> registered;
    for (const LoadedCase* c : selected->cases) {
        std::vector<HostTensor> checked_inputs;  // what the check ran on: timed as they are, not generated again
        CaseResult check = runner.run(*c, &checked_inputs);
        if (options.verbose) print_case(human, check, ConsoleOptions{true});
        // With --backend cpu a case without `expected` has nothing to be checked against (the reference is the
        // oracle), and timing the reference is still what was asked for.
        const bool timeable = check.status == CaseStatus::kPassed || check.status == CaseStatus::kDeviates ||
                              (check.status == CaseStatus::kSkipped && !device);
        auto inputs = !timeable ? Result<std::vector<HostTensor>>(unsupported(check.reason))
                      : checked_inputs.empty() ? runner.prepare_inputs(c->spec)
                                               : Result<std::vector<HostTensor>>(std::move(checked_inputs));
        if (!inputs.is_ok()) {
            const char* status = timeable ? "INVALID" : case_status_name(check.status);
            context.not_benchmarked.push_back({check.file, check.name, status, inputs.status().message()});
            std::fprintf(human, "[not benchmarked: %s] %s :: %s: %s\n", status, check.file.c_str(), check.name.c_str(),
                         inputs.status().message().c_str());
            continue;
        }
        auto t = std::make_unique<TimedCase>();
        t->loaded = c;
        t->inputs = std::move(inputs).value();
        for (const HostTensor& tensor : t->inputs) t->input_pointers.push_back(tensor.element_count() ? &tensor : nullptr);
        t->work = c->spec.op->work(*c->spec.desc);
        t->check_status = case_status_name(check.status);
        t->check_reason = check.reason;
        for (RegisteredBenchmark& r : register_benchmarks(*t, targets)) registered.push_back(std::move(r));
        timed.push_back(std::move(t));
    }
    // Measured in the same run, on the same path, right before the cases: the ceilings the cases are judged by.
    std::map<std::string, BackendRoofline> rooflines = measure_rooflines(options, device.get(), pool, context.machine);

    std::vector<std::string> args_storage = {"dmltool bench"};
    if (options.passes > 1) {
        // Google Benchmark's repetitions, shuffled among all benchmarks: every case is sampled in each stretch of
        // the run. Only the aggregates are printed (the report pools the passes' samples).
        args_storage.push_back("--benchmark_repetitions=" + std::to_string(options.passes));
        args_storage.push_back("--benchmark_enable_random_interleaving=true");
        args_storage.push_back("--benchmark_display_aggregates_only=true");
    }
    args_storage.insert(args_storage.end(), options.benchmark_args.begin(), options.benchmark_args.end());
    std::vector<char*> argv;
    for (std::string& a : args_storage) argv.push_back(a.data());
    int argc = int(argv.size());
    benchmark::Initialize(&argc, argv.data());
    if (argc > 1) return report_error(invalid_input(std::string("unrecognized benchmark option '") + argv[1] + "'"), 2);
    add_benchmark_context(context.machine, context.build, rooflines, options);
    CollectingReporter reporter(std::move(display).value());
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    std::vector<BenchCase> cases;
    for (const RegisteredBenchmark& r : registered) {
        const CaseSpec& spec = r.timed->loaded->spec;
        const SampledRun& run = *r.result;
        cases.push_back({spec.name, spec.file, std::string(spec.op->name()), data_type_of_first_input(spec),
                         r.backend, spec.min_feature_level, is_compute_bound(spec.op->name()), r.timed->work.bytes,
                         r.timed->work.ops, run.ran ? summarize_samples(run.samples).median : 0.0, run.samples,
                         run.executions_per_sample,
                         options.passes > 1 ? pooled_converged(options.stop, run.samples) : run.converged});
        BenchCase& c = cases.back();
        for (const std::string& tag : spec.tags) {
            if (tag.rfind("model:", 0) == 0) c.model = tag.substr(6);
            if (tag.rfind("nodes:", 0) == 0) c.nodes = std::max<uint64_t>(1, std::strtoull(tag.c_str() + 6, nullptr, 10));
        }
        c.check_status = r.timed->check_status;
        c.check_reason = r.timed->check_reason;
        c.probe_before = run.probe_before;
        c.probe_after = run.probe_after;
        c.remeasured = run.remeasured;
        if (device && r.backend == device->label()) c.plan = device->plan_choice(*spec.op, *spec.desc);
        // Judged against the whole run's best probe, known only now.
        const double slowest = std::min(run.probe_before, run.probe_after);
        c.throttled = conditions.flag_backends.count(r.backend) && slowest > 0 &&
                      conditions.monitor.below_best(r.backend, slowest);
    }
    if (device && options.roofline_mib > 0)
        measure_same_size_copies(cases, *device, options.gpu_batch, registry, runner, human);
    context.json_sections.push_back({"cache", conditions_json_cache(conditions, options.cache_cold)});
    context.json_sections.push_back({"throttle", conditions_json_throttle(conditions, options)});
    context.json_sections.push_back({"timer", nlohmann::json{{"clock", host_timer_name(options.timer)}}.dump()});
    const BenchReport report = build_report(std::move(cases), std::move(rooflines));
    print_report(human, report);
    print_conditions(human, conditions, report.cases, options.cache_cold);
    print_plan_choices(human, report.cases);
    if (!context.not_benchmarked.empty())
        std::fprintf(human, "%zu selected cases or files were not benchmarked (they did not pass)\n",
                     context.not_benchmarked.size());
    // A case that did not pass fails the bench (1), but for UNSUPPORTED ones in a sweep that expects them
    // (--allow-unsupported); timing nothing because every case was UNSUPPORTED or SKIPPED tested nothing (5).
    size_t unsupported = 0, skipped = 0;
    const NotBenchmarked* first_unsupported = nullptr;
    for (const NotBenchmarked& n : context.not_benchmarked) {
        skipped += n.status == "SKIPPED";
        if (n.status != "UNSUPPORTED") continue;
        if (!first_unsupported) first_unsupported = &n;
        ++unsupported;
    }
    const size_t excused = options.allow_unsupported ? unsupported : 0;
    int code = (selected->broken.empty() && context.not_benchmarked.size() == excused) ? 0 : 1;
    if (timed.empty() && selected->broken.empty() && unsupported + skipped == context.not_benchmarked.size() &&
        excused == 0) {
        std::fflush(human);
        std::fprintf(stderr, "%s\n",
                     nothing_tested_line(context.not_benchmarked.size(), options.selection, unsupported,
                                         first_unsupported ? first_unsupported->reason : std::string())
                         .c_str());
        code = kExitNothingTested;
    }
    if (!options.report_json_path.empty())
        if (Status s = write_report_json(options.report_json_path, report, context); !s.is_ok()) code = report_error(s, 2);
    if (!options.report_csv_path.empty())
        if (Status s = write_report_csv(options.report_csv_path, report, context); !s.is_ok()) code = report_error(s, 2);
    // Last: the report files are written even when the database is unreachable (exit 3), so the run is not lost.
    if (!options.results_db.empty()) {
        ResultsRun run{context.date, context.machine.hostname, context.machine.cpu_model,
                       context.device == "none" ? "none" : adapter_of_report(report), context.device,
                       context.build.version, context.build.git_commit, options.cache_cold ? "cold" : "hot", "off", ""};
        for (const auto& [name, value] : context.options) {
            if (name == "stable_power_state") run.stable_power_state = value;
            if (name == "shard") run.shard = value;
            if (name == "timer") run.timer = value;
        }
        // Retried for a while (a server restarting); idempotent, so a retry after a COMMIT that did land, or a
        // later `dmltool store` of the report, leaves one run.
        auto stored = store_results(options.results_db, run, report.cases, options.results_db_retry_seconds, stderr);
        if (!stored.is_ok()) {
            code = report_error(stored.status(), results_store_exit_code(stored.status()));
            if (!options.report_json_path.empty())
                std::fprintf(stderr, "dmltool: the run is in %s: `dmltool store %s --results-db DB` records it later\n",
                             options.report_json_path.c_str(), options.report_json_path.c_str());
        } else {
            std::fprintf(human, "results database: %s run %lld in %s\n",
                         stored->already_stored ? "already held as" : "stored as", stored->id,
                         redact_location(options.results_db).c_str());
        }
    }
    return code;
}

}  // namespace dmltool::app
