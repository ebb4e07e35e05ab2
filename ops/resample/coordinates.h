// The per-dimension coordinate mapping of DML_RESAMPLE v1 (spec §6.4-6.6): which input index (nearest) or
// which two input indices and weights (linear) an output index reads. The CPU reference and the GPU lookup
// tables are both built from these functions, so both follow one definition of the arithmetic.
//
// Arithmetic contract (also implemented independently by scripts/dml_oracle.py): everything is float32 with a
// rounding after every operation (the build uses -ffp-contract=off, so no fused multiply-add), starting from
// the float32 inverse scale `inv = 1.0f / scale`. Output positions are converted to float32 with one rounding
// (exact below 2^24).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/semantics.h"

namespace dmltool::ops::resample {

inline float inverse_scale(float scale) { return 1.0f / scale; }

// o + 0.5 as float32, rounded once (double holds it exactly for any 32-bit o).
inline float output_center(uint64_t o) { return float(double(o) + 0.5); }

// Clamps an integral-valued float (or +-inf) to [0, n_in - 1]. The comparison runs in double so it is exact
// even for sizes float32 cannot represent; converting first could overflow.
inline uint32_t clamp_to_index(float value, uint32_t n_in) {
    const double v = value;
    if (!(v > 0.0)) return 0;
    if (v >= double(n_in - 1)) return n_in - 1;
    return uint32_t(v);
}

// Nearest-neighbour input index of output index `o` (spec §6.6 models A/B/C and floor, see core/semantics.h).
inline uint32_t nearest_index(uint64_t o, uint32_t n_in, float inv, NearestRule rule) {
    float v = 0.0f;
    switch (rule) {
        case NearestRule::kLiteral: {  // floor((o + 1) * inv - 0.5)
            const float scaled = float(o + 1) * inv;
            v = std::floor(scaled - 0.5f);
            break;
        }
        case NearestRule::kHalfUp: {  // floor((o + 0.5) * inv)
            const float scaled = output_center(o) * inv;
            v = std::floor(scaled);
            break;
        }
        case NearestRule::kHalfDown: {  // ceil((o + 0.5) * inv - 1)
            const float scaled = output_center(o) * inv;
            v = std::ceil(scaled - 1.0f);
            break;
        }
        case NearestRule::kFloor: {  // floor((o + 0.5) * inv - 0.5)
            const float scaled = output_center(o) * inv;
            v = std::floor(scaled - 0.5f);
            break;
        }
    }
    return clamp_to_index(v, n_in);
}

// The two neighbours of one output index along one dimension and their float32 weights.
struct LinearTap {
    uint32_t x0 = 0;
    uint32_t x1 = 0;
    float w0 = 1.0f;
    float w1 = 0.0f;
};

inline LinearTap linear_tap(uint64_t o, uint32_t n_in, float inv) {
    const float scaled = output_center(o) * inv;
    float x = scaled - 0.5f;
    // Edge handling is clamping of the coordinate (spec §6.5): no zero padding, no extrapolation.
    x = std::min(std::max(x, 0.0f), float(n_in - 1));
    LinearTap tap;
    // min() only matters when float(n_in - 1) rounded above n_in - 1 (sizes beyond 2^24).
    tap.x0 = std::min(uint32_t(std::floor(x)), n_in - 1);
    tap.x1 = std::min(tap.x0 + 1, n_in - 1);
    tap.w1 = x - float(tap.x0);
    tap.w0 = 1.0f - tap.w1;
    return tap;
}

}  // namespace dmltool::ops::resample
