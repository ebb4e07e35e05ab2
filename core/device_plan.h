// A DevicePlan is how an operator describes its GPU work without touching D3D12: DXBC kernels (built with
// shaders/), the root constants and buffer bindings of each dispatch, and any read-only auxiliary data
// (index tables, per-dimension sizes). The GPU backend (gpu/) uploads the inputs' physical buffers, allocates
// poisoned output buffers, runs the dispatches in order with UAV barriers between them and reads back.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

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

// Device properties a plan may rely on that Direct3D does not promise, each checked by a probe on the device.
enum class DeviceCapability : uint32_t {
    // f16tof32 / f32tof16 convert exactly (f32tof16 rounding to nearest even), as the integer conversions of
    // shaders/elements.h do. Vulkan leaves the rounding of the SPIR-V instructions vkd3d translates them to open
    // (gpu/half_opcode_probe.h).
    kExactHalfOpcodes = 1u << 0,
    // The exp instruction (2^x) is within the D3D11.3 functional specification's 3 ulp on the probe's inputs, with
    // results below 2^-126 0 or within 3 ulp of 2^-149, and IEEE's special values (gpu/transcendental_probe.h).
    // The family's error bounds are derived from that precision (docs/element-wise.md), so a kernel may use it.
    kAccurateExp2 = 1u << 1,
};
// DeviceCapability bits. (Not "DeviceCapabilities": windows.h defines that name as a macro, DeviceCapabilitiesA.)
using DeviceCapabilitySet = uint32_t;
// "exact half opcodes, accurate exp2" (for traces and refusals).
inline std::string capability_names(DeviceCapabilitySet capabilities) {
    std::string names;
    const auto add = [&](DeviceCapability c, const char* name) {
        if (!(capabilities & uint32_t(c))) return;
        names += (names.empty() ? "" : ", ") + std::string(name);
    };
    add(DeviceCapability::kExactHalfOpcodes, "exact half opcodes");
    add(DeviceCapability::kAccurateExp2, "accurate exp2");
    return names.empty() ? "none" : names;
}

struct DevicePlan {
    std::vector<std::vector<std::byte>> auxiliary_buffers;
    std::vector<KernelDispatch> dispatches;
    // What the kernels rely on beyond Direct3D's guarantees (DeviceCapability bits). The GPU backend probes each
    // once per device (gpu/gpu_backend.h) and runs this plan only where the device has them all; elsewhere it runs
    // `fallback`, walking that chain until a plan's requirements are met (none left: kUnsupported).
    DeviceCapabilitySet required_capabilities = 0;
    std::shared_ptr<const DevicePlan> fallback;

    bool requires_capability(DeviceCapability c) const { return (required_capabilities & uint32_t(c)) != 0; }
    void require(DeviceCapability c) { required_capabilities |= uint32_t(c); }
};

// A plan with its fallback chain: `build(allowed)` plans the work using at most the capabilities `allowed` (it
// need not use them all: a body without exponentials has no use for kAccurateExp2). The first plan may use every
// capability of `wanted`; after it come the plans of each smaller set of what it used, most capabilities first,
// each distinct set once, down to the plan that needs none. With exact half opcodes and exp2 wanted and both used:
// {half, exp2} -> {exp2} -> {half} -> {}: the backend runs the first whose capabilities the device has, so a device
// lacking one keeps the other's gain.
template <typename Build>
Result<DevicePlan> plan_with_fallbacks(DeviceCapabilitySet wanted, const Build& build) {
    DMLTOOL_ASSIGN_OR_RETURN(DevicePlan first, build(wanted));
    const DeviceCapabilitySet used = first.required_capabilities;
    std::vector<DeviceCapabilitySet> subsets;  // proper subsets of `used`, by decreasing size, then decreasing value
    for (DeviceCapabilitySet s = used; s > 0;) {
        s = (s - 1) & used;
        subsets.push_back(s);
        if (s == 0) break;
    }
    std::stable_sort(subsets.begin(), subsets.end(), [](DeviceCapabilitySet a, DeviceCapabilitySet b) {
        return std::popcount(a) > std::popcount(b);
    });
    std::vector<DevicePlan> chain;
    std::vector<DeviceCapabilitySet> seen{used};
    for (DeviceCapabilitySet allowed : subsets) {
        DMLTOOL_ASSIGN_OR_RETURN(DevicePlan next, build(allowed));
        if (std::find(seen.begin(), seen.end(), next.required_capabilities) != seen.end()) continue;
        seen.push_back(next.required_capabilities);
        chain.push_back(std::move(next));
    }
    // Linked from the end: each plan holds the rest of the chain.
    std::shared_ptr<const DevicePlan> rest;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        it->fallback = rest;
        rest = std::make_shared<const DevicePlan>(std::move(*it));
    }
    first.fallback = rest;
    return first;
}

}  // namespace dmltool
