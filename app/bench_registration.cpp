#include "app/bench_registration.h"

#include <benchmark/benchmark.h>

namespace dmltool::app {
namespace {

void finish(benchmark::State& state, const TimedCase& timed) {
    const WorkEstimate& work = timed.work;
    state.counters["bytes_per_second"] = benchmark::Counter(double(work.bytes), benchmark::Counter::kIsIterationInvariantRate);
    if (work.ops)
        state.counters["ops_per_second"] = benchmark::Counter(double(work.ops), benchmark::Counter::kIsIterationInvariantRate);
    state.SetLabel("FL " + timed.loaded->spec.min_feature_level.to_string());
}

void time_reference(benchmark::State& state, const TimedCase& timed, ThreadPool& pool, const SemanticsOptions& semantics) {
    const CaseSpec& spec = timed.loaded->spec;
    std::vector<HostTensor> outputs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
        if (slot.role == TensorRole::kOutput) outputs.emplace_back(*slot.desc);
    std::vector<HostTensor*> output_pointers;
    for (HostTensor& t : outputs) output_pointers.push_back(&t);
    auto execute = [&] {
        return spec.op->run_reference(*spec.desc, timed.input_pointers, output_pointers, ReferenceContext{pool, semantics});
    };
    // The first execution faults the output pages in and warms the caches: not part of the figure.
    if (Status warm = execute(); !warm.is_ok()) {
        state.SkipWithError(warm.message().c_str());
        return;
    }
    for (auto _ : state) {
        if (Status s = execute(); !s.is_ok()) {
            state.SkipWithError(s.message().c_str());
            return;
        }
    }
    finish(state, timed);
}

void time_device(benchmark::State& state, const TimedCase& timed, Backend& device, unsigned batch) {
    const CaseSpec& spec = timed.loaded->spec;
    // GPUs lower their clocks while idle: a warm-up batch first, then each iteration times `batch` back-to-back
    // executions in one submission and reports their mean, so submission gaps and clock ramps stay out.
    auto warm = device.time_executions(*spec.op, *spec.desc, timed.input_pointers, batch);
    if (!warm.is_ok()) {
        state.SkipWithError(warm.status().message().c_str());
        return;
    }
    for (auto _ : state) {
        auto times = device.time_executions(*spec.op, *spec.desc, timed.input_pointers, batch);
        if (!times.is_ok()) {
            state.SkipWithError(times.status().message().c_str());
            return;
        }
        double total = 0;
        for (double t : *times) total += t;
        state.SetIterationTime(total / double(times->size()));
    }
    finish(state, timed);
}

}  // namespace

std::vector<RegisteredBenchmark> register_benchmarks(const TimedCase& timed, const BenchTargets& targets) {
    const CaseSpec& spec = timed.loaded->spec;
    const std::string base = std::string(spec.op->name()) + "/FL" + spec.min_feature_level.to_string() + "/" + spec.name;
    std::vector<RegisteredBenchmark> registered;
    if (targets.pool) {
        registered.push_back({base + "/cpu", "cpu", &timed});
        ThreadPool* pool = targets.pool;
        const SemanticsOptions* semantics = targets.semantics;
        benchmark::RegisterBenchmark(registered.back().name.c_str(),
                                     [&timed, pool, semantics](benchmark::State& state) {
                                         time_reference(state, timed, *pool, *semantics);
                                     })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
    }
    if (targets.device) {
        // "<OP>/FL<x_y>/<case>/gpu" for dmltool's kernels, ".../directml" for DirectML.
        Backend* device = targets.device;
        registered.push_back({base + "/" + device->label(), device->label(), &timed});
        const unsigned batch = targets.gpu_batch;
        benchmark::RegisterBenchmark(registered.back().name.c_str(),
                                     [&timed, device, batch](benchmark::State& state) {
                                         time_device(state, timed, *device, batch);
                                     })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
    return registered;
}

}  // namespace dmltool::app
