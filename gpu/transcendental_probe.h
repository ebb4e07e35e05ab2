// Whether a device's exp instruction (2^x) meets the precision the D3D11.3 functional specification states for it
// (3 ulp), so that a kernel may compute 2^t with one instruction instead of a range reduction and a polynomial
// (DeviceCapability::kAccurateExp2).
//
// Why a probe: the family's error bounds are derived from [FS]'s instruction precisions (docs/element-wise.md:
// EXP's (16 + 2|x|)|y| is exactly exp2(x log2 e) within 3 ulp plus the rounded product), so a body built on the
// instruction is legitimate on a device whose instruction keeps that promise. But vkd3d translates it to GLSL's
// Exp2, whose precision Vulkan leaves to the driver ("3 + 2|x| ulp"), and a D3D driver might be no better: each
// device is checked before a plan relies on it, and plans carry their portable twin for devices that fail.
//
// The rule (judge_exp2): with e = 2^x exact (in double), a finite result r passes when |r - e| <= 3 ulp(e),
// ulp(e) = 2^(floor(log2 e) - 23); where e < 2^-126 (or within 3 ulp above it) r may also be 0 (Direct3D lets
// results flush to zero; the bounds have a 2^-126 absolute floor), and the ulp there is the subnormal one, 2^-149;
// +inf passes where e >= 2^128 - 3 ulp(e) (an overflowing result) and is required from e >= 2^128 on. 2^NaN is a
// NaN, 2^+inf = +inf, 2^-inf = 0, a negative result never passes.
//
// The inputs (exp2_probe_inputs): every fractional part f = k / 2^20 of [0, 1) at x = f and x = f - 1 (a device
// splits x into an integer and a fraction, the fraction being where an approximation errs), 1024 fractions (a
// stride-1024 grid, offset so that the fine grid's low bits vary) at every integer from
// -152 to 128 and those integers themselves, every float32 within 2^-6 of the edges 128 (overflow), -126 (the last normal result), -149 (the last
// subnormal one) and -150, four significands in every binade of |x| (tiny arguments, where 2^x rounds to 1 or just
// below it, and huge ones), float32 subnormals, +-0, +-inf and NaNs: 2.5 million inputs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool::gpu {

class GpuContext;

struct Exp2Probe {
    uint64_t evaluations = 0;    // inputs judged
    uint64_t failures = 0;       // results outside the rule
    double max_ulp = 0;          // the largest error of a finite, normal result, in ulp(e)
    std::string first_failure;   // "exp(0x3f000000 = 0.5) = 0x3fb504f7, expected 1.41421356 (+/- 3 ulp)"
    bool accurate() const { return evaluations > 0 && failures == 0; }
    std::string summary() const;  // one line, for traces and refusals
};

// The float32 inputs described above (bit patterns), each once.
std::vector<uint32_t> exp2_probe_inputs();

// Judges `results` (float32 bits), the device's exp of each of `inputs`.
Exp2Probe judge_exp2(std::span<const uint32_t> inputs, std::span<const uint32_t> results);

// Runs the exp instruction on `context` over exp2_probe_inputs() and judges it. Errors are device failures.
Result<Exp2Probe> probe_exp2(GpuContext& context);

}  // namespace dmltool::gpu
