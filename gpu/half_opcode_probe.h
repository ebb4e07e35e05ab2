// Whether a device's f32tof16 and f16tof32 opcodes convert like shaders/elements.h's integer conversions, so a
// kernel may use one instruction instead of 11-14 integer operations (DeviceCapability::kExactHalfOpcodes).
//
// Why a probe: vkd3d translates them to SPIR-V's PackHalf2x16 / UnpackHalf2x16, whose rounding (and handling of
// half subnormals) Vulkan leaves to the implementation. f16tof32 is checked on all 65536 halves, f32tof16 on every
// float32 that decides a rounding rule, against core/dtype.h's conversions (f32tof16: round to nearest even): for
// every finite half h of either sign, h's own value, the midpoint between h and the next half up in magnitude (a
// tie), and the float32 just below and just above that midpoint; the overflow boundary (65520, the tie between
// 65504 and infinity, and the float below it), infinities, float32 denormals (which may be flushed: either way they
// round to a signed zero), four significands in every float32 binade (far below and above the halves) and NaNs. Any rounding rule a converter may apply to the discarded bits (toward zero, away
// from zero on ties, toward +-infinity, no subnormal halves) differs from round-to-nearest-even on one of these in
// every binade. A NaN must convert to a NaN, of any sign and payload: NVIDIA's f32tof16 writes 0x7fff for every NaN
// (dropping the sign), lavapipe 0x7e00 with the sign, and which NaN an evaluation produces is not part of its value
// (core/plan_tuning.h: variant_output_difference; the verdicts judge NaN by any NaN too).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::gpu {

class GpuContext;

struct HalfOpcodeProbe {
    uint64_t conversions = 0;    // floats and halves converted
    uint64_t mismatches = 0;     // conversions that differ from the exact ones
    std::string first_mismatch;  // "f32tof16(0x3f800001) = 0x3c01, expected 0x3c00" (empty when exact)
    bool exact() const { return conversions > 0 && mismatches == 0; }
    std::string summary() const;  // one line, for traces and refusals
};

// The float32 inputs described above (bit patterns), every one once.
std::vector<uint32_t> half_rounding_probe_inputs();

// Judges a device's results: `narrowed` f32tof16 of each of `inputs` (the half in the low 16 bits, upper bits 0),
// `widened` f16tof32 of the halves 0 .. 65535 (float32 bits).
HalfOpcodeProbe judge_half_conversions(std::span<const uint32_t> inputs, std::span<const uint32_t> narrowed,
                                       std::span<const uint32_t> widened);

// Runs both opcodes on `context` (f32tof16 over half_rounding_probe_inputs(), f16tof32 over every half) and judges
// them. Errors are device failures.
Result<HalfOpcodeProbe> probe_half_opcodes(GpuContext& context);

}  // namespace dmltool::gpu
