// The conditions a benchmark is measured under, beyond the case itself:
// - cold caches (--cache cold): before every sample, a plain copy over a buffer larger than any GPU's L2 (or the
//   CPU's last-level cache) evicts what the previous sample left there;
// - clock drift (throttling): D3D12 has no portable clock query, so a short copy probe runs between benchmarks and
//   its bandwidth is the clock proxy; a benchmark measured while the probe was more than --throttle-threshold below
//   the best probe so far is measured once more, and flagged when the run's best says it was slow.
// On a device both copies run as a SPLIT of a constant int8 tensor (half to each output: every byte read and
// written once) through the same Backend interface the cases use, on a second device of the same adapter: each
// device keeps its own prepared work, so neither re-uploads per sample, and caches are the adapter's, shared.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/host_timer.h"
#include "core/backend.h"
#include "core/op_registry.h"
#include "core/runner.h"
#include "core/thread_pool.h"

namespace dmltool::app {

// A SPLIT of `bytes` int8 values in two halves, ready to time on a device.
class DeviceCopy {
public:
    // The input is `bytes` (rounded down to 2 KiB, at least 2 KiB); as much again is written.
    static Result<std::unique_ptr<DeviceCopy>> create(uint64_t bytes, const OpRegistry& registry, const Runner& runner);
    // Mean seconds per execution of `iterations` back-to-back copies (GPU timestamps).
    Result<double> time(Backend& device, unsigned iterations);
    // The fastest of `iterations` copies, each timed in a submission of its own: the clock proxy, since a scheduling
    // hiccup can only make one execution slower, while lower clocks make all of them slower. First, back-to-back
    // copies for at least `warmup_seconds` (device time): a case is timed after its own warm-up, so its probe must
    // see the clocks a busy device runs at, not the ramp out of the idle gap before it (the CPU check, the
    // benchmark library).
    Result<double> fastest(Backend& device, unsigned iterations, double warmup_seconds = 0);
    uint64_t bytes() const { return bytes_; }  // read + written

private:
    uint64_t bytes_ = 0;
    CaseFile file_;  // owns the spec
    std::vector<HostTensor> inputs_;
    std::vector<const HostTensor*> input_pointers_;
};

// Host-side equivalents for the CPU reference: writing over a host buffer, and timing a copy between two.
class HostCopy {
public:
    explicit HostCopy(uint64_t bytes, HostTimer timer = HostTimer::kWall)
        : source_(bytes / 2, 1), target_(bytes / 2), timer_(timer) {}
    void flush();        // writes every byte once (a new value each call, so nothing can be skipped)
    double time();       // seconds on the timer for one copy of the buffer (bytes read + written = the size given)
    uint64_t bytes() const { return 2 * source_.size(); }

private:
    std::vector<unsigned char> source_, target_;
    HostTimer timer_;
    unsigned char next_value_ = 2;
};

// The host's in-cache probe, taken beside its copy probe: the speed of small work on one core. The copy probe moves
// 8 MiB through the last-level cache and memory, and other tenants' memory traffic moves it by 20-40% between runs
// minutes apart while cases whose data sit in the core's caches do not move (2026-11-30, busy loop beside: window
// medians of the copy 19-25 GB/s, a 128-element permutation within 1% but for one episode; correlation 0.14); a
// case of a few KiB meets what this probe meets instead: the core's clock, its sibling hyperthread, preemption.
// It permutes a 16 KiB int32 buffer into another (32 KiB: a core's L1 and L2 hold them) with computed indices, as the reference's element loops
// do, and takes the median of kRounds timings of kPasses passes (~50 us each): one preempted timing is not the
// machine, a sustained slower core is.
class HostCacheProbe {
public:
    explicit HostCacheProbe(HostTimer timer = HostTimer::kWall);
    double bytes_per_second();  // bytes read + written per second, median of the rounds

private:
    std::vector<int32_t> source_, target_;
    HostTimer timer_;
};

// One throttle probe: its bandwidth and where in the run it was taken.
struct ProbeRecord {
    std::string backend;       // "gpu", "cpu", ...
    std::string after;         // the benchmark it followed ("" for the first), "<case> (re-measure)" after one
    double bytes_per_second = 0;
    double cache_bytes_per_second = 0;  // the CPU's in-cache probe beside it (HostCacheProbe); 0 on devices
};

// The throttle probes of a run, per backend.
class ThrottleMonitor {
public:
    // threshold: a probe below (1 - threshold) x best counts as throttled (0.10 = 10%).
    explicit ThrottleMonitor(double threshold) : threshold_(threshold) {}
    void record(ProbeRecord probe) { history_.push_back(std::move(probe)); }
    // The best probe of `backend` so far; 0 before the first.
    double best(const std::string& backend) const;
    bool below_best(const std::string& backend, double bytes_per_second) const {
        return bytes_per_second < (1 - threshold_) * best(backend);
    }
    double threshold() const { return threshold_; }
    const std::vector<ProbeRecord>& history() const { return history_; }

private:
    double threshold_;
    std::vector<ProbeRecord> history_;
};

}  // namespace dmltool::app
