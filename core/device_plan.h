// A DevicePlan is how an operator describes its GPU work without touching D3D12: DXBC kernels (built with
// shaders/), the root constants and buffer bindings of each dispatch, and any read-only auxiliary data
// (index tables, per-dimension sizes). The GPU backend (gpu/) uploads the inputs' physical buffers, allocates
// poisoned output buffers, runs the dispatches in order with UAV barriers between them and reads back.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dmltool {

struct BufferBinding {
    enum class Source { kInput, kOutput, kAuxiliary };
    Source source = Source::kInput;
    uint32_t index = 0;        // input slot, output slot, or auxiliary buffer (in the op's slot order)
    uint64_t byte_offset = 0;  // start of the view (a multiple of 256, gpu::kViewOffsetAlignment)
    uint64_t byte_size = 0;    // 0 = to the end of the buffer; a view never exceeds 512 MiB (vkd3d/Vulkan limit)
    bool typed_uint4 = false;  // a typed R32G32B32A32_UINT view (16-byte elements) instead of a raw one
};

struct KernelDispatch {
    std::shared_ptr<const std::vector<uint8_t>> dxbc;  // a checksummed cs_5_0 container
    std::string label;                                 // "resample/linear/FLOAT16", for messages
    std::vector<uint32_t> root_constants;              // cb0, at most 63 words (gpu/compute_kernel.h)
    std::vector<BufferBinding> srvs;                   // views t0, t1, ... (raw unless typed_uint4)
    std::vector<BufferBinding> uavs;                   // views u0, u1, ...
    std::array<uint32_t, 3> group_count{1, 1, 1};      // each <= 65535
    // false: the next dispatch neither reads nor writes what this one writes (e.g. SPLIT's outputs), so the
    // two may overlap on the GPU. The backend always ends a plan with a barrier.
    bool barrier_after = true;
};

struct DevicePlan {
    std::vector<std::vector<std::byte>> auxiliary_buffers;
    std::vector<KernelDispatch> dispatches;
    // The kernels use the f16tof32 / f32tof16 opcodes and rely on them converting exactly (f32tof16 rounding to
    // nearest even), as the integer conversions of shaders/elements.h do. Vulkan leaves the rounding of the SPIR-V
    // instructions vkd3d translates them to open, so the backend runs such a plan only on a device whose opcodes its
    // probe found exact (gpu/half_opcode_probe.h) and refuses it (kUnsupported) elsewhere.
    bool needs_exact_half_opcodes = false;
    // Where needs_exact_half_opcodes: the same computation through the integer conversions, which the backend runs
    // instead on a device whose opcodes are not exact (absent: the plan is refused there, kUnsupported).
    std::shared_ptr<const DevicePlan> without_half_opcodes;
};

}  // namespace dmltool
