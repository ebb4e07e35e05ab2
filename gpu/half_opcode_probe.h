// Whether a device's f32tof16 opcode rounds like shaders/elements.h's integer conversion, so a kernel may use
// the one instruction instead of the 13 integer operations (DevicePlan::needs_exact_half_opcodes).
//
// Why a probe: vkd3d translates f32tof16 to SPIR-V's PackHalf2x16, whose rounding Vulkan leaves to the
// implementation (round to nearest even, toward zero, ...). The probe converts every float32 that decides a
// rounding rule and compares the device's half bits with core/dtype.h's float_to_half (round to nearest even):
// for every finite half h of either sign, h's own value, the midpoint between h and the next half up in
// magnitude (a tie), and the float32 just below and just above that midpoint; the overflow boundary (65520,
// the tie between 65504 and infinity, and the float below it), infinities and float32 denormals (which may be
// flushed: either way they round to a signed zero). Any rounding rule a converter may apply to the discarded
// bits (toward zero, away from zero on ties, toward +-infinity, no subnormal halves) differs from
// round-to-nearest-even on one of these in every binade. NaNs are not probed: NVIDIA's f32tof16 writes 0x7fff for
// every NaN (dropping the sign) and lavapipe 0x7e00 with the sign, so kernels write the integer conversion's
// 0x7e00 with the float's sign themselves.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::gpu {

class GpuContext;

struct HalfOpcodeProbe {
    uint64_t conversions = 0;  // floats converted
    uint64_t mismatches = 0;   // conversions whose half differs from round to nearest even
    std::string first_mismatch;  // "f32tof16(0x3f800001) = 0x3c01, expected 0x3c00" (empty when exact)
    bool exact() const { return conversions > 0 && mismatches == 0; }
    std::string summary() const;  // one line, for traces and refusals
};

// The float32 inputs described above (bit patterns), every one once.
std::vector<uint32_t> half_rounding_probe_inputs();

// Judges a device's results (the low 16 bits of each word; upper bits must be 0) for those inputs.
HalfOpcodeProbe judge_half_conversions(std::span<const uint32_t> inputs, std::span<const uint32_t> results);

// Runs f32tof16 on `context` over half_rounding_probe_inputs() and judges it. Errors are device failures.
Result<HalfOpcodeProbe> probe_half_opcodes(GpuContext& context);

}  // namespace dmltool::gpu
