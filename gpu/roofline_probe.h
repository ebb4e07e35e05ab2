// The roofline probes behind Backend::measure_roofline: what the device reaches through the same D3D12 path
// the operators use (vkd3d raw views, our DXBC), so the benchmark report can say how far each case is from it.
//  - copy: several compute copy variants (1/2/4 words per access, 1..4 accesses per thread) and
//    CopyBufferRegion over the same buffers; each is verified once on the device (a pattern fill, the copy,
//    an on-device comparison), then timed with GPU timestamps in batched submissions after a warm-up batch;
//    the best is the copy roofline (bytes read + bytes written per second).
//  - multiply-adds: long independent imad / mad chains at full occupancy; the grid and the trip count grow
//    until one dispatch runs long enough to time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"

namespace dmltool::gpu {

struct RooflineProbeOptions {
    uint64_t copy_bytes = uint64_t{1} << 30;  // bytes copied (read once, written once) per copy
    uint32_t batch = 20;                      // executions per timed submission (as time_executions)
    uint32_t samples = 5;                     // timed submissions per figure; the median is reported
    double min_dispatch_seconds = 2e-3;       // ALU probes grow until one dispatch takes this long
    uint32_t max_alu_groups = 16384;          // ALU grid cap (4M threads: many waves on any GPU)
};

struct CopyMeasurement {
    std::string method;
    double bytes_per_second = 0;  // 2 * copy_bytes / seconds (read + write)
};

// Every copy variant, each verified and timed; errors if any variant copies wrong bytes.
Result<std::vector<CopyMeasurement>> measure_copies(GpuContext& context, const RooflineProbeOptions& options);

// 32-bit integer multiply-adds (floating_point false) or float32 FMAs per second.
Result<double> measure_multiply_adds(GpuContext& context, bool floating_point, const RooflineProbeOptions& options);

// All probes; copy_method names the fastest copy.
Result<DeviceRoofline> measure_roofline(GpuContext& context, const RooflineProbeOptions& options);

// Verification seam: fills `source` (first `bytes`, a multiple of 4) with a pattern and `destination` with
// another, runs record_copy() and submits, then compares `destination` with the source pattern on the device.
// kInternal naming `method` and the mismatching word count when any word differs.
Status verify_copy(GpuContext& context, GpuBuffer& source, GpuBuffer& destination, uint64_t bytes,
                   const std::string& method, const std::function<Status()>& record_copy);

}  // namespace dmltool::gpu
