// Translates one of our DXBC kernels to SPIR-V with libvkd3d-shader, mapping its registers the way vkd3d's D3D12
// runtime does for dmltool's root signature (gpu/compute_kernel.h): root constants cb0 -> push constants at
// offset 0; SRVs t0.. and UAVs u0.. of the descriptor table -> set 0, bindings 0.. in that order (SRVs first).
// Buffer UAVs stay storage texel buffers, as in vkd3d 1.2's runtime, so the driver compiles the same code that
// `dmltool run/bench` executes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::pipeline_stats {

struct KernelRegisters {
    uint32_t root_constants = 0;  // 32-bit values in cb0
    uint32_t srvs = 0;            // t0 ..
    uint32_t uavs = 0;            // u0 ..
};

// SPIR-V words, or kInternal naming `label`, vkd3d_shader_compile's result code and its messages.
Result<std::vector<uint32_t>> compile_dxbc_to_spirv(const std::vector<uint8_t>& dxbc, const KernelRegisters& registers,
                                                    const std::string& label);

}  // namespace dmltool::pipeline_stats
