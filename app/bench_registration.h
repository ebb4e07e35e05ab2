// Registers one Google Benchmark per passing case and backend: the CPU reference in real (wall) time, since it
// is multithreaded, and the GPU in manual time from GPU timestamps. Both exclude a warm-up execution and carry
// the bytes_per_second / ops_per_second counters and the case's feature level as label.
#pragma once

#include <string>
#include <vector>

#include "core/backend.h"
#include "core/case_spec.h"
#include "core/semantics.h"
#include "core/thread_pool.h"

namespace dmltool::app {

// One passing case ready to be timed; the registered benchmarks point into it, so it must outlive the run.
struct TimedCase {
    const LoadedCase* loaded = nullptr;
    std::vector<HostTensor> inputs;
    std::vector<const HostTensor*> input_pointers;  // null for absent optional inputs
    WorkEstimate work;
};

// What to time on. A null pool or device leaves that backend out.
struct BenchTargets {
    ThreadPool* pool = nullptr;
    const SemanticsOptions* semantics = nullptr;
    Backend* device = nullptr;
    unsigned gpu_batch = 20;  // executions per timed GPU submission (their mean is one iteration's time)
};

struct RegisteredBenchmark {
    std::string name;  // "<OP>/FL<x_y>/<case>/<cpu|gpu>", as Google Benchmark reports it
    std::string backend;
    const TimedCase* timed = nullptr;
};

std::vector<RegisteredBenchmark> register_benchmarks(const TimedCase& timed, const BenchTargets& targets);

}  // namespace dmltool::app
