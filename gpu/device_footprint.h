// The device memory a DevicePlan needs, computed before anything is allocated, and the up-front check against
// the device's limits and the memory budget. A case that does not fit is refused with the numbers (which
// buffer, needed vs allowed) instead of failing in the middle of an allocation — or, worse, in a driver that
// over-commits (lavapipe happily reserves more than its reported heap).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/device_plan.h"
#include "core/op.h"
#include "core/status.h"

namespace dmltool::gpu {

// Bytes GpuBackend allocates for a tensor or auxiliary buffer of `bytes`: padded to 16 so 16-byte vector
// accesses at a tensor's tail stay inside. nullopt when the padding overflows 64 bits.
std::optional<uint64_t> device_buffer_size(uint64_t bytes);

// Byte addresses in dmltool's kernels are 32-bit: no tensor may exceed 4 GiB (shaders/elements.h).
inline constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 32;

struct DeviceBufferNeed {
    std::string name;  // "InputTensor", "OutputTensors[1]", "auxiliary 0"
    uint64_t bytes = 0;          // as allocated (padded)
    uint64_t tensor_bytes = 0;   // the tensor's TotalTensorSizeInBytes; 0 for auxiliary buffers
};

// Every device buffer GpuBackend allocates for this plan: present inputs, outputs, auxiliary buffers.
// kInvalidInput when a size overflows 64 bits (no machine could run the case).
Result<std::vector<DeviceBufferNeed>> device_buffers(const Op& op, const OpDesc& desc, const DevicePlan& plan);

struct DeviceLimits {
    std::string device;             // adapter name, for messages
    uint64_t max_buffer_bytes = 0;  // per buffer; 0: unknown (not checked)
    uint64_t budget_bytes = 0;      // all buffers of one case; 0: no budget
};

// kUnsupported with the numbers when a tensor exceeds 4 GiB, a buffer exceeds the device's per-buffer limit, or
// all of them together exceed the budget; kInvalidInput when their sum overflows 64 bits.
Status check_device_footprint(const std::vector<DeviceBufferNeed>& buffers, const DeviceLimits& limits);

}  // namespace dmltool::gpu
