// The clock of the host's timings: the CPU reference's samples, the host copy probes (throttle and roofline) and
// the planted slowdowns of DMLTOOL_TEST_SLOWDOWN. `bench --timer` picks it (docs/benchmarks.md: Timers):
//  - wall (the default): steady_clock, what a user waits;
//  - cpu: the CPU time of the process (all its threads), which the time slices a shared machine gives to other work
//    do not count. Separate runs of one build then agree where wall times move with the machine's load (measured
//    on the 2-core development machine at a load of 4.4: a fixed loop's wall times spread 4.4x from fastest to
//    slowest, median 2x the fastest; its CPU times 1.9x, median 1.12x). It is not a latency: with --threads N the
//    reference's threads add up. Linux only (Windows counts process CPU time in scheduler ticks of ~15.6 ms).
// GPU timings never use it: they come from the device's timestamps, which the host's load does not move.
#pragma once

#include <string_view>

#include "core/status.h"

namespace dmltool::app {

enum class HostTimer { kWall, kProcessCpu };

std::string_view host_timer_name(HostTimer timer);  // "wall", "cpu"
// OK where this build can read the timer; kUnsupported with the reason otherwise.
Status host_timer_available(HostTimer timer);
// Seconds on `timer` from an arbitrary origin (differences only).
double host_now(HostTimer timer);

}  // namespace dmltool::app
