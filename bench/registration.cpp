#include "bench/registration.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dmltool::app {
namespace {

// The factor DMLTOOL_TEST_SLOWDOWN plants in this case (1: none).
double planted_slowdown(const BenchTargets& targets, const std::string& case_name) {
    return targets.slowdown && targets.slowdown->matches(case_name) ? targets.slowdown->factor : 1;
}

// One sample: the mean seconds per execution of one batch, or an error.
using TakeSample = std::function<Result<double>()>;

void finish(benchmark::State& state, const TimedCase& timed, const SampledRun& run, const SampleStats& stats) {
    const WorkEstimate& work = timed.work;
    state.counters["bytes_per_second"] = benchmark::Counter(double(work.bytes), benchmark::Counter::kIsIterationInvariantRate);
    if (work.ops)
        state.counters["ops_per_second"] = benchmark::Counter(double(work.ops), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["samples"] = double(stats.count);
    state.counters["noise_percent"] = std::isfinite(stats.noise) ? 100 * stats.noise : -1;
    state.counters["converged"] = run.converged ? 1 : 0;
    state.SetLabel("FL " + timed.loaded->spec.min_feature_level.to_string());
}

// The last probe of `backend`, probing first when there is none yet.
Result<double> probe_before(const BenchTargets& targets, const std::string& backend) {
    for (auto it = targets.throttle->history().rbegin(); it != targets.throttle->history().rend(); ++it)
        if (it->backend == backend) return it->bytes_per_second;
    return targets.probe(backend, "");
}

// The single Google Benchmark iteration: sample until the stop rule says so, probe the clocks (re-measuring once
// when the probe says they were low), report the median.
void run_sampled(benchmark::State& state, const TimedCase& timed, const BenchTargets& targets, const std::string& backend,
                 SampledRun& run, const TakeSample& take_sample) {
    std::vector<double> samples;
    StopDecision decision = StopDecision::kContinue;
    Status error = Status::ok();
    auto sample_all = [&] {
        samples.clear();
        decision = sample_until_stable(targets.stop, samples, [&]() -> double {
            if (targets.before_sample) {
                error = targets.before_sample(backend);
                if (!error.is_ok()) return -1;
            }
            auto sample = take_sample();
            if (!sample.is_ok()) {
                error = sample.status();
                return -1;
            }
            return *sample;
        });
        return error.is_ok();
    };
    const std::string& name = timed.loaded->spec.name;
    for (auto _ : state) {
        Result<double> before = targets.probe ? probe_before(targets, backend) : Result<double>(0.0);
        if (!before.is_ok()) error = before.status();
        if (error.is_ok() && sample_all() && targets.probe) {
            Result<double> after = targets.probe(backend, name);
            const bool may_flag = targets.throttle_flag_backends.count(backend) > 0;
            if (after.is_ok() && may_flag &&
                (targets.throttle->below_best(backend, *before) || targets.throttle->below_best(backend, *after))) {
                // Once, between fresh probes: a transient slowdown is measured away, a lasting one stays flagged.
                run.remeasured = true;
                before = targets.probe(backend, name + " (before re-measure)");
                if (before.is_ok() && sample_all()) after = targets.probe(backend, name + " (re-measure)");
                if (!before.is_ok()) error = before.status();
            }
            if (!after.is_ok()) error = after.status();
            if (error.is_ok()) {
                run.probe_before = *before;
                run.probe_after = *after;
            }
        }
        if (!error.is_ok()) {
            state.SkipWithError(error.message().c_str());
            return;
        }
        state.SetIterationTime(summarize_samples(samples).median);
    }
    run.ran = true;
    run.samples.insert(run.samples.end(), samples.begin(), samples.end());
    run.converged = run.converged && decision == StopDecision::kConverged;
    finish(state, timed, run, summarize_samples(samples));
}

void time_reference(benchmark::State& state, const TimedCase& timed, const BenchTargets& targets, SampledRun& run) {
    const CaseSpec& spec = timed.loaded->spec;
    std::vector<HostTensor> outputs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
        if (slot.role == TensorRole::kOutput) outputs.emplace_back(*slot.desc);
    std::vector<HostTensor*> output_pointers;
    for (HostTensor& t : outputs) output_pointers.push_back(&t);
    const ReferenceContext context{*targets.pool, *targets.semantics};
    auto execute = [&] { return spec.op->run_reference(*spec.desc, timed.input_pointers, output_pointers, context); };
    // The first execution faults the output pages in and warms the caches: not part of the figure.
    const HostTimer timer = targets.host_timer;
    if (Status warm = execute(); !warm.is_ok()) {
        state.SkipWithError(warm.message().c_str());
        return;
    }
    // Cold caches: one execution per sample, since the executions after the first of a batch would find them warm.
    unsigned batch = 1;
    if (!targets.cold) {
        Result<unsigned> sized = cpu_batch(execute, [timer] { return host_now(timer); });
        if (!sized.is_ok()) {
            state.SkipWithError(sized.status().message().c_str());
            return;
        }
        batch = *sized;
    }
    run.executions_per_sample = batch;
    const double slowdown = planted_slowdown(targets, spec.name);
    run_sampled(state, timed, targets, "cpu", run, [&]() -> Result<double> {
        const double start = host_now(timer);
        for (unsigned i = 0; i < batch; ++i) DMLTOOL_RETURN_IF_ERROR(execute());
        // Inside the timed interval: the planted time is measured (and preempted) like the work itself.
        if (slowdown > 1) spin_for((slowdown - 1) * (host_now(timer) - start), timer);
        return (host_now(timer) - start) / batch;
    });
}

void time_device(benchmark::State& state, const TimedCase& timed, const BenchTargets& targets, SampledRun& run) {
    const CaseSpec& spec = timed.loaded->spec;
    Backend& device = *targets.device;
    const unsigned batch = targets.cold ? 1u : targets.gpu_batch;  // cold: as on the CPU
    // GPUs lower their clocks while idle: a warm-up batch first, then each sample is the mean time of `batch`
    // back-to-back executions in one submission, so submission gaps and clock ramps stay out.
    auto warm = device.time_executions(*spec.op, *spec.desc, timed.input_pointers, batch);
    if (!warm.is_ok()) {
        state.SkipWithError(warm.status().message().c_str());
        return;
    }
    run.executions_per_sample = batch;
    const double slowdown = planted_slowdown(targets, spec.name);
    run_sampled(state, timed, targets, device.label(), run, [&]() -> Result<double> {
        DMLTOOL_ASSIGN_OR_RETURN(const double mean, device.time_executions(*spec.op, *spec.desc, timed.input_pointers, batch));
        if (slowdown <= 1) return mean;
        // GPU timestamps cannot be lengthened from the host: scaled, with the host time a real slowdown would take.
        spin_for((slowdown - 1) * mean * batch);
        return mean * slowdown;
    });
}

}  // namespace

Result<unsigned> cpu_batch(const std::function<Status()>& execute, const std::function<double()>& now) {
    constexpr int kMaxRounds = 24;  // bounds the calibration when the rate never settles
    unsigned batch = 1;
    double fastest = std::numeric_limits<double>::infinity();  // seconds per execution, fastest round so far
    int long_enough = 0;  // rounds in a row whose batch lasts kMinCpuSampleSeconds at the fastest rate
    for (int round = 0; round < kMaxRounds && batch < kMaxCpuBatch; ++round) {
        const double start = now();
        for (unsigned i = 0; i < batch; ++i) DMLTOOL_RETURN_IF_ERROR(execute());
        fastest = std::min(fastest, std::max(now() - start, 1e-12) / double(batch));
        if (double(batch) * fastest >= kMinCpuSampleSeconds) {
            if (++long_enough == 2) break;
            continue;  // the same batch once more: a rate seen once may still be the warm-up's
        }
        long_enough = 0;
        // Aim 25% past the target so that the next round usually reaches it.
        batch = unsigned(std::min(double(kMaxCpuBatch), std::ceil(1.25 * kMinCpuSampleSeconds / fastest)));
    }
    return batch;
}

std::vector<RegisteredBenchmark> register_benchmarks(const TimedCase& timed, const BenchTargets& targets) {
    const CaseSpec& spec = timed.loaded->spec;
    const std::string base = std::string(spec.op->name()) + "/FL" + spec.min_feature_level.to_string() + "/" + spec.name;
    std::vector<RegisteredBenchmark> registered;
    // Both in manual time: the figure is the median sample, whatever the wall time spent sampling.
    if (targets.pool) {
        auto result = std::make_shared<SampledRun>();
        registered.push_back({base + "/cpu", "cpu", &timed, result});
        benchmark::RegisterBenchmark(registered.back().name.c_str(),
                                     [&timed, targets, result](benchmark::State& state) {
                                         time_reference(state, timed, targets, *result);
                                     })
            ->Iterations(1)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    if (targets.device) {
        // "<OP>/FL<x_y>/<case>/gpu" for dmltool's kernels, ".../directml" for DirectML.
        auto result = std::make_shared<SampledRun>();
        registered.push_back({base + "/" + targets.device->label(), targets.device->label(), &timed, result});
        benchmark::RegisterBenchmark(registered.back().name.c_str(),
                                     [&timed, targets, result](benchmark::State& state) {
                                         time_device(state, timed, targets, *result);
                                     })
            ->Iterations(1)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    return registered;
}

}  // namespace dmltool::app
