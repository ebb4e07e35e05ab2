// The machine's drift between two separate bench runs, from the run's probes only (issue 40 item 1): the copy
// probes bench takes around every case (`throttle.probe_before/after_bytes_per_second`) and the copy and arithmetic
// rooflines it measures before the cases (`rooflines.BACKEND`). The cases never measure the machine for each
// other: a change in the code that slows every case alike would move them all together, and a gate that took their
// common movement for the machine's would call that regression noise (before 2026-11-29 it did: every case 1.5x
// slower with the probes unchanged was NOISY on every case).
//
// Per backend and per kind of case, the drift: cases whose data fit in a core's caches (at most kInCacheCaseBytes
// read and written per execution) follow the CPU's in-cache probes where both runs took them (bench/conditions.h
// HostCacheProbe: the 8 MiB copy moves with other tenants' memory traffic, which such cases do not meet); other
// memory-bound cases follow the copy probes, compute-bound ones the arithmetic roofline when the run measured it,
// else the copy probes. The drift is new probe time / base probe time - 1
// (positive: the machine was slower in the new run) and its noise is how much the probes themselves wandered
// within the runs: 1.4826 x the median absolute deviation of the log probe rates, the two runs combined in
// quadrature (zero when a run has fewer than three probes or only a roofline). A case judged SLOWER/FASTER must
// move beyond the drift, in the verdict's direction, by more than the threshold plus that noise; otherwise the
// machine, not the code, may have done it and the case is NOISY.
#pragma once

#include <map>
#include <string>

#include "gate/compare.h"

namespace dmltool::app {

// A case that reads and writes at most this much per execution runs from a core's L2 (256 KiB: the smallest L2 of
// an x86 core of the last decade); its drift on the CPU is the in-cache probes'.
constexpr uint64_t kInCacheCaseBytes = 256 * 1024;

// The case's drift follows the in-cache probes: it fits in the caches and both runs took in-cache probes on its
// backend (the CPU's; reports before 2026-11-30 have none).
inline bool follows_in_cache_probes(const RunCase& c, const BenchRun& base, const BenchRun& next) {
    return c.bytes > 0 && c.bytes <= kInCacheCaseBytes && base.cache_probes.count(c.backend) &&
           next.cache_probes.count(c.backend);
}

// What one run's probes say about the machine, per backend.
struct BackendProbes {
    double copy_median = 0;       // bytes/s: median of the copy probes around the cases; 0: none
    double copy_log_spread = 0;   // 1.4826 x MAD of their log rates (0 with fewer than three probes)
    size_t copy_probes = 0;
    double cache_median = 0;      // bytes/s: median of the in-cache probes (HostCacheProbe); 0: none
    double cache_log_spread = 0;  // 1.4826 x MAD of their log rates (0 with fewer than three probes)
    double roofline_copy = 0;        // bytes/s from rooflines.BACKEND; 0: not measured
    double roofline_arithmetic = 0;  // integer multiply-adds/s from rooflines.BACKEND; 0: not measured
};

std::map<std::string, BackendProbes> run_probes(const BenchRun& run);

struct MachineDrift {
    bool measured = false;  // false: neither run had a probe of this kind; nothing is known about the machine
    double drift = 0;       // new probe time / base probe time - 1
    double log_noise = 0;   // the probes' own spread, both runs (see the top of this file)
    std::string source;     // "in-cache probes", "copy probes", "copy roofline", "arithmetic roofline"
    bool standard_error = false;  // log_noise is the drift's standard error, not the probes' spread (gate/compare_processes.h)
};

// The drift of the machine for a case of `backend` (compute-bound or not, in cache or not) between the two runs.
MachineDrift machine_drift(const std::map<std::string, BackendProbes>& base,
                           const std::map<std::string, BackendProbes>& next, const std::string& backend,
                           bool compute_bound, bool in_cache);

}  // namespace dmltool::app
