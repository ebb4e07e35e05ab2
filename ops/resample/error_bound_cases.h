// The RESAMPLE LINEAR configurations on which the error-bound verdict is tested (error_bound_test.cpp on the CPU,
// error_bound_gpu_test.cpp on the GPU): 1-D..4-D, FLOAT32/FLOAT16/INT8/UINT8, up, down and non-integer scales,
// with inputs whose neighbours nearly cancel (the adversarial case for a float32 blend) or random values.
#pragma once

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample::models {

struct Config {
    DataType type;
    Dims in;
    std::vector<float> scales;
    bool cancelling;  // neighbours nearly cancel (scale 2 axes): x = A * (-3)^(sum of index parities) + small
};

inline std::string describe(const Config& c) {
    std::string s = std::string(data_type_name(c.type)) + " " + format_dims(c.in) + " scales";
    for (float f : c.scales) s += " " + std::to_string(f);
    return s + (c.cancelling ? " cancelling" : " random");
}

inline Dims output_sizes(const Config& c) {
    Dims out = c.in;
    for (size_t d = 0; d < out.size(); ++d) out[d] = std::max(1u, uint32_t(std::floor(double(c.in[d]) * c.scales[d])));
    return out;
}

inline std::string desc_json(const Config& c) {
    nlohmann::json j;
    j["InputTensor"] = {{"DataType", std::string(data_type_name(c.type))}, {"Sizes", c.in}};
    j["OutputTensor"] = {{"DataType", std::string(data_type_name(c.type))}, {"Sizes", output_sizes(c)}};
    j["InterpolationMode"] = "LINEAR";
    j["Scales"] = c.scales;
    return j.dump();
}

inline HostTensor make_input(const Config& c, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> small(-0.01, 0.01), any(-1.0, 1.0);
    std::uniform_int_distribution<int> byte(c.type == DataType::kInt8 ? -128 : 0, c.type == DataType::kInt8 ? 127 : 255);
    const Dims strides = packed_strides(c.in);
    const double magnitude = c.type == DataType::kFloat16 ? 8.0 : 1000.0;
    std::vector<uint32_t> coord(c.in.size());
    return testing::make_tensor_with(c.type, c.in, [&](uint64_t i) {
        if (!is_float(c.type)) return double(byte(rng));
        if (!c.cancelling) return magnitude * any(rng);
        unravel_index(i, c.in, coord.data());
        double value = magnitude;
        for (size_t d = 0; d < coord.size(); ++d)
            if (c.scales[d] != 1.0f && coord[d] % 2) value *= -3.0;
        return value + small(rng);
    });
}

inline const std::vector<Config>& configs() {
    using T = DataType;
    static const std::vector<Config> list = {
        // near-cancelling neighbours, exact x2 weights 1/4, 3/4
        {T::kFloat32, {64}, {2}, true},
        {T::kFloat32, {12, 16}, {2, 2}, true},
        {T::kFloat32, {4, 6, 8}, {2, 2, 2}, true},
        {T::kFloat32, {2, 4, 6, 8}, {1, 2, 2, 2}, true},
        {T::kFloat32, {4, 4, 4, 6}, {2, 2, 2, 2}, true},
        {T::kFloat16, {64}, {2}, true},
        {T::kFloat16, {2, 3, 10, 12}, {1, 1, 2, 2}, true},
        {T::kFloat16, {4, 4, 4, 6}, {2, 2, 2, 2}, true},
        // random values: down, non-integer, mixed scales
        {T::kFloat32, {50}, {0.5f}, false},
        {T::kFloat32, {37}, {1.7f}, false},
        {T::kFloat32, {9, 11}, {0.6f, 3.0f}, false},
        {T::kFloat32, {3, 5, 7}, {1.3f, 0.75f, 2.5f}, false},
        {T::kFloat32, {2, 3, 9, 13}, {1, 1, 1.5f, 0.7f}, false},
        {T::kFloat32, {3, 4, 5, 6}, {0.5f, 2.0f, 1.25f, 3.0f}, false},
        {T::kFloat16, {40}, {0.3f}, false},
        {T::kFloat16, {7, 9}, {2.2f, 0.5f}, false},
        {T::kFloat16, {2, 3, 8, 10}, {1, 1, 0.5f, 1.6f}, false},
        {T::kUint8, {33}, {2.5f}, false},
        {T::kUint8, {2, 3, 8, 10}, {1, 1, 2, 2}, false},
        {T::kUint8, {4, 5, 6}, {0.5f, 1.5f, 3}, false},
        {T::kInt8, {31}, {0.7f}, false},
        {T::kInt8, {2, 3, 8, 10}, {1, 1, 0.5f, 2}, false},
        {T::kInt8, {3, 4, 5, 6}, {2, 0.6f, 1.5f, 2}, false},
    };
    return list;
}

}  // namespace dmltool::ops::resample::models
