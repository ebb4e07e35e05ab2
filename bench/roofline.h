// The rooflines `dmltool bench` divides each case's throughput by, measured in the same run: the device's own
// probes (Backend::measure_roofline) and, for the CPU reference, a multithreaded host copy.
#pragma once

#include <cstdint>
#include <string>

#include "bench/host_timer.h"
#include "bench/report.h"
#include "core/backend.h"
#include "core/thread_pool.h"

namespace dmltool::app {

// The backend's probes; a backend that has none (kUnsupported) or whose probe fails yields "not measured" with
// the reason, never an error: the benchmark still runs.
BackendRoofline measure_device_roofline(Backend& backend, uint64_t copy_bytes);

// The best of several copies of `copy_bytes` between two host buffers by every thread of `pool` (bytes read +
// written). The CPU's multiply-add peaks are not probed and stay "not measured".
BackendRoofline measure_host_roofline(ThreadPool& pool, uint64_t copy_bytes, const std::string& cpu_model,
                                      HostTimer timer = HostTimer::kWall);

// For --roofline-mib 0.
BackendRoofline unmeasured_roofline(const std::string& why);

}  // namespace dmltool::app
