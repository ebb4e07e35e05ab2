// Registers one Google Benchmark per passing case and backend. Each runs exactly one Google Benchmark iteration
// in which dmltool samples the case itself (bench/stats.h: batches until the median's noise is below
// --max-noise or --max-time runs out) and reports the median sample as the iteration's manual time, so Google
// Benchmark's reporters show the median; the sample count, noise and convergence are counters. A sample is the
// mean of a batch of back-to-back executions: GPU timestamps on the device, wall time on the (multithreaded) CPU
// reference. Both exclude a warm-up and carry the bytes_per_second / ops_per_second counters and the case's
// feature level as label.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench/conditions.h"
#include "bench/host_timer.h"
#include "bench/slowdown.h"
#include "bench/stats.h"

#include "core/backend.h"
#include "core/case_spec.h"
#include "core/semantics.h"
#include "core/thread_pool.h"

namespace dmltool::app {

// Executions per CPU sample: enough warm executions that one sample lasts kMinCpuSampleSeconds (a clock tick, e.g.
// Windows' 100 ns, is then a small fraction of it; so are the thread pool's wake-up and the clock reads), at most
// kMaxCpuBatch. Called after the warm-up execution, never sized from it: the first execution faults pages in and
// starts the pool, up to ~1000x a warm one, and batches sized from it left tiny cases at 1-5 executions of
// microseconds, whose per-execution time depended on that draw. Rounds of growing batches, each sized from the
// fastest rate seen so far (a round slowed by load or a late warm-up would size it too small), until two rounds in a
// row find the batch long enough at that rate. `now` is the clock in seconds; an execution's error stops it.
inline constexpr double kMinCpuSampleSeconds = 1e-3;
inline constexpr unsigned kMaxCpuBatch = 1000;
Result<unsigned> cpu_batch(const std::function<Status()>& execute, const std::function<double()>& now);

// One passing case ready to be timed; the registered benchmarks point into it, so it must outlive the run.
struct TimedCase {
    const LoadedCase* loaded = nullptr;
    std::vector<HostTensor> inputs;
    std::vector<const HostTensor*> input_pointers;  // null for absent optional inputs
    WorkEstimate work;
    // Its check before timing (PASSED, DEVIATES, or SKIPPED for a CPU-only run without `expected`) and why: a
    // DEVIATES case is timed, and its report row says so (report --html marks it).
    std::string check_status, check_reason;
};

// What to time on. A null pool or device leaves that backend out.
struct BenchTargets {
    ThreadPool* pool = nullptr;
    const SemanticsOptions* semantics = nullptr;
    Backend* device = nullptr;
    unsigned gpu_batch = 20;  // executions per timed GPU submission (their mean is one sample)
    StopRule stop;
    // Called before every sample with the backend label ("cpu", "gpu", "directml"); --cache cold flushes the
    // caches there. Empty: hot caches. A failure stops the benchmark with that error.
    std::function<Status(const std::string& backend)> before_sample;
    // Throttle awareness (bench/conditions.h): runs the copy probe of `backend` after the benchmark `after`
    // ("" before the first) and returns its bandwidth; empty: no probes. The monitor keeps every probe.
    std::function<Result<double>(const std::string& backend, const std::string& after)> probe;
    ThrottleMonitor* throttle = nullptr;
    std::set<std::string> throttle_flag_backends;  // where a slow probe re-measures (others only record it)
    bool cold = false;  // --cache cold: one execution per sample (only the first of a batch would be cold)
    // DMLTOOL_TEST_SLOWDOWN (bench/slowdown.h): the matching cases are made this much slower; null: none.
    const TestSlowdown* slowdown = nullptr;
    // The clock of the CPU reference's samples (bench --timer; bench/host_timer.h). GPU samples: the device's.
    HostTimer host_timer = HostTimer::kWall;
};

// What one benchmark measured; filled while Google Benchmark runs it. With --benchmark_repetitions the samples
// of every repetition are pooled (converged only if each repetition converged).
struct SampledRun {
    std::vector<double> samples;  // seconds per execution, one per batch, in the order taken
    unsigned executions_per_sample = 1;
    bool converged = true;
    bool ran = false;
    double probe_before = 0, probe_after = 0;  // the throttle probes around the samples kept; 0 = no probes
    bool remeasured = false;  // a probe was more than the threshold below the best so far: sampled once more
};

struct RegisteredBenchmark {
    std::string name;  // "<OP>/FL<x_y>/<case>/<cpu|gpu>", as Google Benchmark reports it
    std::string backend;
    const TimedCase* timed = nullptr;
    std::shared_ptr<SampledRun> result;
};

std::vector<RegisteredBenchmark> register_benchmarks(const TimedCase& timed, const BenchTargets& targets);

}  // namespace dmltool::app
