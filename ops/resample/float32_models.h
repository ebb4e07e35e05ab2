// Plain float32 implementations of RESAMPLE LINEAR as a GPU (or DirectML) might write them, for testing the
// error-bound verdict: each evaluation order below is correct and must PASS; each planted bug must FAIL.
// Deliberately independent of coordinates.h: the coordinate arithmetic differs from the reference's too.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/tensor.h"
#include "ops/resample/desc.h"

namespace dmltool::ops::resample::models {

enum class Order {
    kSeparable,   // innermost axis first: a*(1-w) + b*w per axis, coordinates (o + 0.5) / scale - 0.5
    kWeights2d,   // corner weight = product of the axis weights, sum over corners; coordinates (o + 0.5) * inv - 0.5
    kFma,         // fma(w, b, (1-w)*a) per axis; coordinates fma(o + 0.5, inv, -0.5)
    kLerp,        // a + w*(b - a) per axis; coordinates (o + 0.5) / scale - 0.5
};
enum class Bug {
    kNone,
    kWrongNeighbour,     // blends x0 with x0 + 2 instead of x0 + 1
    kWeightOffByQuarter,  // w + 1/4 (clamped to 1)
    kAsymmetricCoordinate,  // x = o / scale: no half-pixel offsets
};

struct AxisTap {
    uint32_t x0 = 0, x1 = 0;
    float w = 0;  // weight of x1
};

inline AxisTap model_tap(uint32_t o, uint32_t n_in, float scale, Order order, Bug bug) {
    const float center = float(o) + 0.5f;
    float x;
    if (bug == Bug::kAsymmetricCoordinate)
        x = float(o) / scale;
    else if (order == Order::kWeights2d)
        x = center * (1.0f / scale) - 0.5f;
    else if (order == Order::kFma)
        x = std::fma(center, 1.0f / scale, -0.5f);
    else
        x = center / scale - 0.5f;
    x = std::clamp(x, 0.0f, float(n_in - 1));
    AxisTap tap;
    tap.x0 = std::min(uint32_t(std::floor(x)), n_in - 1);
    tap.x1 = std::min(tap.x0 + (bug == Bug::kWrongNeighbour ? 2u : 1u), n_in - 1);
    tap.w = x - float(tap.x0);
    if (bug == Bug::kWeightOffByQuarter) tap.w = std::min(tap.w + 0.25f, 1.0f);
    return tap;
}

// Rounds a float32 result to the output type as an implementation's store would. The documentation does not say
// how a blend becomes an 8-bit integer, so each order converts differently (all correct): separable truncates
// toward zero (DirectML 1.15.4, ONNX Runtime, dmltool's kernels), 2-D weights round to nearest even, FMA floors,
// lerp rounds half away from zero.
inline float to_integer(float value, Order order) {
    switch (order) {
        case Order::kSeparable: return std::trunc(value);
        case Order::kWeights2d: return std::nearbyint(value);
        case Order::kFma: return std::floor(value);
        case Order::kLerp: return std::round(value);
    }
    return value;
}
inline void store_float(HostTensor& output, uint64_t index, float value, Order order) {
    switch (output.data_type()) {
        case DataType::kFloat32: output.set<float>(index, value); break;
        case DataType::kFloat16: output.set<uint16_t>(index, double_to_half(double(value))); break;
        case DataType::kInt8:
            output.set<int8_t>(index, int8_t(to_integer(std::clamp(value, -128.0f, 127.0f), order)));
            break;
        case DataType::kUint8:
            output.set<uint8_t>(index, uint8_t(to_integer(std::clamp(value, 0.0f, 255.0f), order)));
            break;
        default: break;
    }
}

inline HostTensor run_model(const ResampleDesc& desc, const HostTensor& input, Order order, Bug bug = Bug::kNone) {
    const uint32_t rank = desc.input.rank();
    std::vector<std::vector<AxisTap>> taps(rank);
    for (uint32_t d = 0; d < rank; ++d)
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o)
            taps[d].push_back(model_tap(o, desc.input.sizes[d], desc.scales[d], order, bug));
    const Dims strides = packed_strides(desc.input.sizes);
    HostTensor output(desc.output);
    std::vector<uint32_t> coord(rank);
    auto x = [&](const std::vector<uint32_t>& at) {
        uint64_t source = 0;
        for (uint32_t d = 0; d < rank; ++d) source += uint64_t(at[d]) * strides[d];
        return float(input.get_as_double(source));
    };
    // Blends axes d..rank-1 with the indices of axes < d fixed in `at` (innermost axis first).
    std::vector<uint32_t> at(rank);
    auto blend = [&](auto&& self, uint32_t d) -> float {
        if (d == rank) return x(at);
        const AxisTap& tap = taps[d][coord[d]];
        at[d] = tap.x0;
        const float a = self(self, d + 1);
        at[d] = tap.x1;
        const float b = self(self, d + 1);
        const float w = tap.w;
        switch (order) {
            case Order::kFma: return std::fma(w, b, (1.0f - w) * a);
            case Order::kLerp: return a + w * (b - a);
            default: return a * (1.0f - w) + b * w;
        }
    };
    for (uint64_t i = 0; i < output.element_count(); ++i) {
        unravel_index(i, desc.output.sizes, coord.data());
        float value = 0.0f;
        if (order == Order::kWeights2d) {
            for (uint32_t corner = 0; corner < (1u << rank); ++corner) {
                float weight = 1.0f;
                for (uint32_t d = 0; d < rank; ++d) {
                    const AxisTap& tap = taps[d][coord[d]];
                    const bool upper = (corner >> d) & 1u;
                    at[d] = upper ? tap.x1 : tap.x0;
                    weight *= upper ? tap.w : 1.0f - tap.w;
                }
                value += weight * x(at);
            }
        } else {
            value = blend(blend, 0);
        }
        store_float(output, i, value, order);
    }
    return output;
}

}  // namespace dmltool::ops::resample::models
