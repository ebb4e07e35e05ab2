// Tests of DML_OPERATOR_RESAMPLE: the spec §9.3 vectors (and the §6.6 rule table for models A/B/C), the §10
// validation rules, the §6.3 feature-level table, and properties checked against independent formulations
// (separable 1-D composition, dtype conversion of an exact float32 result, double-precision coordinates).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/resample/coordinates.h"
#include "ops/resample/desc.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
std::unique_ptr<Op> make_op();

namespace {

using testing::make_tensor;
using testing::make_tensor_with;
using testing::values_of;

std::string desc_json(DataType type, const Dims& in, const Dims& out, std::string_view mode,
                      const std::vector<float>& scales) {
    nlohmann::json j;
    j["InputTensor"] = {{"DataType", std::string(data_type_name(type))}, {"Sizes", in}};
    j["OutputTensor"] = {{"DataType", std::string(data_type_name(type))}, {"Sizes", out}};
    j["InterpolationMode"] = std::string(mode);
    j["Scales"] = scales;
    return j.dump();
}

class ResampleTest : public ::testing::Test {
protected:
    std::unique_ptr<OpDesc> parse(const std::string& json) {
        auto desc = testing::parse_desc(*op_, json);
        EXPECT_TRUE(desc.is_ok()) << desc.status().message();
        return desc.is_ok() ? std::move(desc).value() : nullptr;
    }
    std::string parse_error(const std::string& json) {
        auto desc = testing::parse_desc(*op_, json);
        EXPECT_FALSE(desc.is_ok());
        if (desc.is_ok()) return "";
        EXPECT_EQ(desc.status().code(), ErrorCode::kInvalidInput);
        return desc.status().message();
    }
    HostTensor run(const std::string& json, const HostTensor& input, NearestRule rule = SemanticsOptions{}.resample_nearest_rule) {
        auto desc = parse(json);
        if (!desc) return {};
        auto out = testing::run_reference(*op_, *desc, {&input}, SemanticsOptions{.resample_nearest_rule = rule});
        EXPECT_TRUE(out.is_ok()) << out.status().message();
        return out.is_ok() ? std::move(out.value()[0]) : HostTensor{};
    }
    // Runs the operator on a 1-D FLOAT32 input whose values are their indices and returns the picked indices.
    std::vector<double> nearest_1d(uint32_t n_in, uint32_t n_out, float scale, NearestRule rule) {
        HostTensor in = make_tensor_with(DataType::kFloat32, {n_in}, [](uint64_t i) { return double(i); });
        return values_of(run(desc_json(DataType::kFloat32, {n_in}, {n_out}, "NEAREST_NEIGHBOR", {scale}), in, rule));
    }

    std::unique_ptr<Op> op_ = make_op();
};

bool same_bytes(const HostTensor& a, const HostTensor& b) {
    return a.bytes().size() == b.bytes().size() &&
           std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()) == 0;
}

// ---- spec §9.3 vectors -------------------------------------------------------------------------------------

TEST_F(ResampleTest, DocLinear1Upsample) {
    HostTensor in = make_tensor(DataType::kFloat32, {1, 1, 1, 4}, {1, 2, 3, 4});
    HostTensor out = run(desc_json(DataType::kFloat32, {1, 1, 1, 4}, {1, 1, 1, 8}, "LINEAR", {1, 1, 1, 2}), in);
    EXPECT_EQ(values_of(out), (std::vector<double>{1, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4}));
}

TEST_F(ResampleTest, DocLinear2Downsample) {
    HostTensor in = make_tensor(DataType::kFloat32, {1, 1, 1, 4}, {1, 2, 3, 4});
    HostTensor out = run(desc_json(DataType::kFloat32, {1, 1, 1, 4}, {1, 1, 1, 2}, "LINEAR", {1, 1, 1, 0.5f}), in);
    EXPECT_EQ(values_of(out), (std::vector<double>{1.5, 3.5}));
}

TEST_F(ResampleTest, DocLinear3Bilinear) {
    HostTensor in = make_tensor(DataType::kFloat32, {1, 1, 2, 2}, {1, 2, 3, 4});
    HostTensor out = run(desc_json(DataType::kFloat32, {1, 1, 2, 2}, {1, 1, 4, 4}, "LINEAR", {1, 1, 2, 2}), in);
    EXPECT_EQ(values_of(out), (std::vector<double>{1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3,
                                                   3.25, 3.75, 4}));
}

TEST_F(ResampleTest, DocNearest1AllRulesAgree) {
    HostTensor in = make_tensor(DataType::kFloat32, {1, 1, 1, 4}, {10, 20, 30, 40});
    const std::string json = desc_json(DataType::kFloat32, {1, 1, 1, 4}, {1, 1, 1, 8}, "NEAREST_NEIGHBOR", {1, 1, 1, 2});
    // The three readings of "nearest"; the floor rule (not one of them) shifts by half an input pixel.
    for (NearestRule rule : {NearestRule::kLiteral, NearestRule::kHalfUp, NearestRule::kHalfDown})
        EXPECT_EQ(values_of(run(json, in, rule)), (std::vector<double>{10, 10, 20, 20, 30, 30, 40, 40}))
            << nearest_rule_name(rule);
    EXPECT_EQ(values_of(run(json, in, NearestRule::kFloor)), (std::vector<double>{10, 10, 10, 20, 20, 30, 30, 40}));
}

TEST_F(ResampleTest, DocNearest2PicksBottomRightOfEachBlock) {
    HostTensor in = make_tensor_with(DataType::kFloat32, {1, 1, 4, 6}, [](uint64_t i) { return double(i); });
    HostTensor out = run(
        desc_json(DataType::kFloat32, {1, 1, 4, 6}, {1, 1, 2, 3}, "NEAREST_NEIGHBOR", {1, 1, 0.5f, 0.5f}), in);
    // rows {1,3} x cols {1,3,5} of a 6-wide input
    EXPECT_EQ(values_of(out), (std::vector<double>{7, 9, 11, 19, 21, 23}));
}

struct NearestDocCase {
    const char* name;
    std::vector<double> input;
    float scale;
    uint32_t n_out;
    std::vector<double> literal, half_up, half_down, floor;  // models A, B, C and the floor rule
};

TEST_F(ResampleTest, DocNearest3To5PerRule) {
    const NearestDocCase cases[] = {
        {"RS-NN-3", {10, 20}, 1.5f, 3, {10, 10, 20}, {10, 20, 20}, {10, 10, 20}, {10, 10, 20}},
        {"RS-NN-4", {10, 20}, 3.0f, 6, {10, 10, 10, 10, 20, 20}, {10, 10, 10, 20, 20, 20}, {10, 10, 10, 20, 20, 20},
         {10, 10, 10, 10, 20, 20}},
        {"RS-NN-5", {10, 20, 30, 40, 50}, 0.4f, 2, {30, 50}, {20, 40}, {20, 40}, {10, 40}},
    };
    for (const auto& c : cases) {
        const uint32_t n_in = uint32_t(c.input.size());
        HostTensor in = make_tensor(DataType::kFloat32, {1, 1, 1, n_in}, c.input);
        const std::string json =
            desc_json(DataType::kFloat32, {1, 1, 1, n_in}, {1, 1, 1, c.n_out}, "NEAREST_NEIGHBOR", {1, 1, 1, c.scale});
        EXPECT_EQ(values_of(run(json, in, NearestRule::kLiteral)), c.literal) << c.name;
        EXPECT_EQ(values_of(run(json, in, NearestRule::kHalfUp)), c.half_up) << c.name;
        EXPECT_EQ(values_of(run(json, in, NearestRule::kHalfDown)), c.half_down) << c.name;
        EXPECT_EQ(values_of(run(json, in, NearestRule::kFloor)), c.floor) << c.name;
        EXPECT_EQ(values_of(run(json, in)), c.half_up) << c.name << ": the default rule";
    }
    // The default semantics are model B (what DirectML 1.15.4 does for FLOAT32/FLOAT16).
    EXPECT_EQ(SemanticsOptions{}.resample_nearest_rule, NearestRule::kHalfUp);
}

TEST_F(ResampleTest, NearestRuleTableOfSection66) {
    struct Row {
        uint32_t n_in, n_out;
        float scale;
        std::vector<double> a, b, c, floor;
    };
    // Models A, B, C from the spec's table; the floor rule, floor((o + 0.5) / s - 0.5), worked by hand.
    const Row rows[] = {
        {4, 8, 2.0f, {0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 1, 1, 2, 2, 3, 3},
         {0, 0, 0, 1, 1, 2, 2, 3}},
        {6, 3, 0.5f, {1, 3, 5}, {1, 3, 5}, {0, 2, 4}, {0, 2, 4}},
        {2, 3, 1.5f, {0, 0, 1}, {0, 1, 1}, {0, 0, 1}, {0, 0, 1}},
        {2, 6, 3.0f, {0, 0, 0, 0, 1, 1}, {0, 0, 0, 1, 1, 1}, {0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 1, 1}},
        {2, 8, 4.0f, {0, 0, 0, 0, 0, 1, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1},
         {0, 0, 0, 0, 0, 0, 1, 1}},
        {3, 4, 1.5f, {0, 0, 1, 2}, {0, 1, 1, 2}, {0, 0, 1, 2}, {0, 0, 1, 1}},
        {4, 3, 0.75f, {0, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}},
        {5, 2, 0.4f, {2, 4}, {1, 3}, {1, 3}, {0, 3}},
    };
    for (const Row& r : rows) {
        const std::string where = std::to_string(r.n_in) + "->" + std::to_string(r.n_out);
        EXPECT_EQ(nearest_1d(r.n_in, r.n_out, r.scale, NearestRule::kLiteral), r.a) << where;
        EXPECT_EQ(nearest_1d(r.n_in, r.n_out, r.scale, NearestRule::kHalfUp), r.b) << where;
        EXPECT_EQ(nearest_1d(r.n_in, r.n_out, r.scale, NearestRule::kHalfDown), r.c) << where;
        EXPECT_EQ(nearest_1d(r.n_in, r.n_out, r.scale, NearestRule::kFloor), r.floor) << where;
    }
}

// ---- shapes beyond the doc vectors --------------------------------------------------------------------------

TEST_F(ResampleTest, OutputLargerThanScaledInputClampsEdges) {
    HostTensor in = make_tensor(DataType::kFloat32, {4}, {1, 2, 3, 4});
    HostTensor out = run(desc_json(DataType::kFloat32, {4}, {11}, "LINEAR", {2}), in);
    EXPECT_EQ(values_of(out), (std::vector<double>{1, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4, 4, 4, 4}));
    HostTensor nn = run(desc_json(DataType::kFloat32, {4}, {11}, "NEAREST_NEIGHBOR", {2}), in);
    EXPECT_EQ(values_of(nn), (std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 4}));
}

TEST_F(ResampleTest, OutputSmallerThanScaledInputCrops) {
    HostTensor in = make_tensor(DataType::kFloat32, {4}, {1, 2, 3, 4});
    HostTensor out = run(desc_json(DataType::kFloat32, {4}, {3}, "LINEAR", {2}), in);
    EXPECT_EQ(values_of(out), (std::vector<double>{1, 1.25, 1.75}));
    // Scale 1 with a smaller output keeps the leading elements.
    HostTensor same = run(desc_json(DataType::kFloat32, {4}, {2}, "NEAREST_NEIGHBOR", {1}), in);
    EXPECT_EQ(values_of(same), (std::vector<double>{1, 2}));
}

TEST_F(ResampleTest, ResamplesAlongBatchAndChannels) {
    // Batch: nearest, N 2 -> 4, the 3 channels follow their batch.
    HostTensor in = make_tensor(DataType::kFloat16, {2, 3, 1, 1}, {1, 2, 3, 4, 5, 6});
    HostTensor nn = run(desc_json(DataType::kFloat16, {2, 3, 1, 1}, {4, 3, 1, 1}, "NEAREST_NEIGHBOR", {2, 1, 1, 1}), in);
    EXPECT_EQ(values_of(nn), (std::vector<double>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));
    // Channels: linear, C 2 -> 4.
    HostTensor c_in = make_tensor(DataType::kFloat32, {1, 2, 1, 1}, {0, 8});
    HostTensor lin = run(desc_json(DataType::kFloat32, {1, 2, 1, 1}, {1, 4, 1, 1}, "LINEAR", {1, 2, 1, 1}), c_in);
    EXPECT_EQ(values_of(lin), (std::vector<double>{0, 2, 6, 8}));
}

TEST_F(ResampleTest, EveryRankFromOneToFour) {
    // Linear 2x upsampling of 0,4 along the last dimension, every other dimension of size 1 and scale 1.
    for (uint32_t rank = 1; rank <= 4; ++rank) {
        Dims in(rank, 1), out(rank, 1);
        std::vector<float> scales(rank, 1.0f);
        in.back() = 2;
        out.back() = 4;
        scales.back() = 2.0f;
        HostTensor input = make_tensor(DataType::kFloat32, in, {0, 4});
        EXPECT_EQ(values_of(run(desc_json(DataType::kFloat32, in, out, "LINEAR", scales), input)),
                  (std::vector<double>{0, 1, 3, 4}))
            << rank << " dimensions";
    }
}

TEST_F(ResampleTest, LinearInEveryDataType) {
    // x = 0, 0.25, 0.75, 1 (clamped ends): exact blends in every type.
    HostTensor f16 = make_tensor(DataType::kFloat16, {2}, {-2, 6});
    EXPECT_EQ(values_of(run(desc_json(DataType::kFloat16, {2}, {4}, "LINEAR", {2}), f16)),
              (std::vector<double>{-2, 0, 4, 6}));
    HostTensor i8 = make_tensor(DataType::kInt8, {2}, {-100, 100});
    EXPECT_EQ(values_of(run(desc_json(DataType::kInt8, {2}, {4}, "LINEAR", {2}), i8)),
              (std::vector<double>{-100, -50, 50, 100}));
    HostTensor u8 = make_tensor(DataType::kUint8, {2}, {0, 255});
    // 63.75 and 191.25 truncate.
    EXPECT_EQ(values_of(run(desc_json(DataType::kUint8, {2}, {4}, "LINEAR", {2}), u8)),
              (std::vector<double>{0, 63, 191, 255}));
}

// The reference's 8-bit blend truncates toward zero, as DirectML 1.15.4 and ONNX Runtime do (docs/semantics.md
// and tolerances): neither round to nearest (half to even or away) nor floor gives these outputs.
TEST_F(ResampleTest, IntegerLinearTruncatesTowardZero) {
    // Downsampling by 2 puts every sample halfway between two inputs (t = 0.5); 2x upsampling at quarters.
    HostTensor u8 = make_tensor(DataType::kUint8, {4}, {0, 1, 2, 5});
    EXPECT_EQ(values_of(run(desc_json(DataType::kUint8, {4}, {2}, "LINEAR", {0.5f}), u8)),
              (std::vector<double>{0, 3}));  // 0.5 -> 0, 3.5 -> 3
    HostTensor i8 = make_tensor(DataType::kInt8, {4}, {-4, -3, 0, 1});
    EXPECT_EQ(values_of(run(desc_json(DataType::kInt8, {4}, {2}, "LINEAR", {0.5f}), i8)),
              (std::vector<double>{-3, 0}));  // -3.5 -> -3 (floor: -4), 0.5 -> 0
    HostTensor i8_up = make_tensor(DataType::kInt8, {2}, {-3, 2});
    EXPECT_EQ(values_of(run(desc_json(DataType::kInt8, {2}, {4}, "LINEAR", {2}), i8_up)),
              (std::vector<double>{-3, -1, 0, 2}));  // -1.75 -> -1 (nearest: -2), 0.75 -> 0 (nearest: 1)
}

TEST_F(ResampleTest, NearestCopiesBitsOfEveryDataType) {
    // NaN payloads and negative zero must survive a gather.
    for (DataType type : {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8}) {
        TensorDesc d;
        d.data_type = type;
        d.sizes = {3};
        ASSERT_TRUE(validate_tensor_desc(d, TensorRole::kInput, false).is_ok());
        HostTensor in(d);
        for (size_t b = 0; b < in.bytes().size(); ++b) in.bytes()[b] = std::byte(0x7f + 0x35 * b);
        HostTensor out = run(desc_json(type, {3}, {6}, "NEAREST_NEIGHBOR", {2}), in);
        const size_t size = in.element_bytes();
        for (uint64_t o = 0; o < 6; ++o)
            EXPECT_EQ(std::memcmp(out.element_ptr(o), in.element_ptr(o / 2), size), 0)
                << data_type_name(type) << " element " << o;
    }
}

// ---- properties against independent formulations -----------------------------------------------------------

// Applies the operator along one dimension only (scale 1, equal size elsewhere).
HostTensor resample_one_dim(const Op& op, const HostTensor& in, uint32_t dim, uint32_t n_out, float scale,
                            std::string_view mode, NearestRule rule) {
    Dims out_sizes = in.desc().sizes;
    out_sizes[dim] = n_out;
    std::vector<float> scales(in.desc().rank(), 1.0f);
    scales[dim] = scale;
    auto desc = testing::parse_desc(op, desc_json(in.data_type(), in.desc().sizes, out_sizes, mode, scales));
    EXPECT_TRUE(desc.is_ok()) << desc.status().message();
    auto out = testing::run_reference(op, *desc.value(), {&in}, SemanticsOptions{.resample_nearest_rule = rule});
    EXPECT_TRUE(out.is_ok()) << out.status().message();
    return std::move(out.value()[0]);
}

struct RandomShape {
    Dims in, out;
    std::vector<float> scales;
};

// Dyadic scales keep linear weights multiples of 1/8 or so, so blends of small integers are exact in double and
// float32 and the separable composition must agree with the 2^k corner sum bit for bit.
RandomShape random_shape(std::mt19937& rng, uint32_t rank, bool dyadic) {
    const float kDyadic[] = {0.25f, 0.5f, 1.0f, 2.0f, 4.0f};
    const float kAny[] = {0.3f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 0.4f, 1.7f};
    RandomShape s;
    for (uint32_t d = 0; d < rank; ++d) {
        const uint32_t n = 1 + rng() % 5;
        const float scale = dyadic ? kDyadic[rng() % 5] : kAny[rng() % 10];
        // Sometimes the "natural" size, sometimes a cropped or edge-clamped one.
        const uint32_t natural = std::max(1u, uint32_t(std::lround(n * scale)));
        const uint32_t out = (rng() % 2) ? natural : 1 + rng() % 9;
        s.in.push_back(n);
        s.out.push_back(out);
        s.scales.push_back(scale);
    }
    return s;
}

// The per-element form (the reference before it worked row by row): every output element gathers its source
// (nearest) or sums its 2^rank corners in corner order in double, then rounds once (linear).
HostTensor per_element_form(const HostTensor& input, const Dims& out_sizes, const std::vector<float>& scales,
                            bool linear, NearestRule rule) {
    TensorDesc out_desc = input.desc();
    out_desc.sizes = out_sizes;
    HostTensor output(out_desc);
    const Dims& in_sizes = input.desc().sizes;
    const uint32_t rank = uint32_t(in_sizes.size());
    const Dims in_strides = packed_strides(in_sizes);
    uint32_t coord[kMaxDimensionCount];
    for (uint64_t i = 0; i < output.element_count(); ++i) {
        unravel_index(i, out_sizes, coord);
        if (!linear) {
            uint64_t source = 0;
            for (uint32_t d = 0; d < rank; ++d)
                source += uint64_t(nearest_index(coord[d], in_sizes[d], inverse_scale(scales[d]), rule)) * in_strides[d];
            std::memcpy(output.element_ptr(i), input.element_ptr(source), input.element_bytes());
            continue;
        }
        double sum = 0.0;
        for (uint32_t corner = 0; corner < (1u << rank); ++corner) {
            double weight = 1.0;
            uint64_t source = 0;
            bool copied_upper = false;  // a Scale-1 dimension is a copy: its lower tap only (spec §6.5)
            for (uint32_t d = 0; d < rank; ++d) {
                const LinearTap tap = linear_tap(coord[d], in_sizes[d], inverse_scale(scales[d]));
                const bool upper = (corner >> (rank - 1 - d)) & 1u;
                copied_upper |= upper && scales[d] == 1.0f;
                source += uint64_t(upper ? tap.x1 : tap.x0) * in_strides[d];
                weight *= double(upper ? tap.w1 : tap.w0);
            }
            if (!copied_upper) sum += input.get_as_double(source) * weight;
        }
        switch (out_desc.data_type) {
            case DataType::kFloat32: output.set<float>(i, float(sum)); break;
            case DataType::kFloat16: output.set<uint16_t>(i, double_to_half(sum)); break;
            // 8-bit: clamped, rounded to a multiple of 2^-10, truncated toward zero (docs/semantics.md).
            case DataType::kInt8: output.set<int8_t>(i, int8_t(std::trunc(std::nearbyint(std::clamp(sum, -128.0, 127.0) * 1024) / 1024))); break;
            default: output.set<uint8_t>(i, uint8_t(std::trunc(std::nearbyint(std::clamp(sum, 0.0, 255.0) * 1024) / 1024))); break;
        }
    }
    return output;
}

// Random bit patterns (float specials included: half of the trials plant an Inf or NaN, which a zero-weight corner
// turns into NaN, so the reference's skipping of zero-weight corners must switch off), every type, rank, mode.
TEST_F(ResampleTest, PropertyRowFormEqualsPerElementForm) {
    std::mt19937 rng(4321);
    std::mt19937_64 bits(4321);
    for (int iteration = 0; iteration < 160; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        const DataType type =
            std::vector<DataType>{DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8}[rng() % 4];
        const bool linear = iteration % 2;
        const NearestRule rule = NearestRule(rng() % 4);
        RandomShape s = random_shape(rng, rank, /*dyadic=*/iteration % 3 == 0);
        HostTensor in = make_tensor_with(type, s.in, [&](uint64_t i) { return double(int(i % 97) - 40 * (type != DataType::kUint8)) / (type == DataType::kFloat32 || type == DataType::kFloat16 ? 7.0 : 1.0); });
        if (type == DataType::kFloat32 || type == DataType::kFloat16) {
            for (std::byte& b : in.bytes()) b = std::byte(bits());  // random bit patterns, mostly finite
            if (iteration % 4 < 2) {
                const uint64_t at = bits() % in.element_count();
                if (type == DataType::kFloat32) in.set<uint32_t>(at, iteration % 8 < 4 ? 0x7f800000u : 0x7fc00001u);
                else in.set<uint16_t>(at, iteration % 8 < 4 ? 0x7c00 : 0x7e01);
            }
        }
        HostTensor direct = run(desc_json(type, s.in, s.out, linear ? "LINEAR" : "NEAREST_NEIGHBOR", s.scales), in, rule);
        HostTensor expected = per_element_form(in, s.out, s.scales, linear, rule);
        // Equal bytes, except that any NaN equals any NaN: which payload a sum of two NaNs keeps depends on the
        // compiler's operand order, not on the semantics.
        ASSERT_EQ(direct.element_count(), expected.element_count());
        for (uint64_t i = 0; i < direct.element_count(); ++i) {
            const bool both_nan = linear && std::isnan(direct.get_as_double(i)) && std::isnan(expected.get_as_double(i));
            ASSERT_TRUE(both_nan || std::memcmp(direct.element_ptr(i), expected.element_ptr(i), in.element_bytes()) == 0)
                << "iteration " << iteration << " " << data_type_name(type) << " in " << format_dims(s.in) << " out "
                << format_dims(s.out) << " element " << i << ": " << direct.get_as_double(i) << " vs "
                << expected.get_as_double(i);
        }
    }
}

// Spec §6.5: dimensions with Scale 1 are copies. An infinity in the next channel (or batch, or in the next column of
// a Scale-1 last dimension) is no corner of this element's blend, so it must not turn it into 0 * inf = NaN.
TEST_F(ResampleTest, LinearScaleOneDimensionsAreCopies) {
    const float inf = std::numeric_limits<float>::infinity();
    HostTensor in = make_tensor_with(DataType::kFloat32, {2, 2, 2, 2}, [](uint64_t i) { return double(i % 4); });
    for (uint64_t i = 4; i < 16; ++i) in.set<float>(i, inf);  // every plane but (batch 0, channel 0)
    const HostTensor out = run(desc_json(DataType::kFloat32, {2, 2, 2, 2}, {2, 2, 4, 4}, "LINEAR", {1, 1, 2, 2}), in);
    const HostTensor plane = make_tensor_with(DataType::kFloat32, {2, 2}, [](uint64_t i) { return double(i); });
    const std::vector<double> expected = values_of(run(desc_json(DataType::kFloat32, {2, 2}, {4, 4}, "LINEAR", {2, 2}), plane));
    const std::vector<double> got = values_of(out);
    for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], expected[i]) << "element " << i;
    // A Scale-1 last dimension: columns are copies too.
    HostTensor rows = make_tensor_with(DataType::kFloat32, {2, 2}, [](uint64_t i) { return double(i); });
    rows.set<float>(1, inf);
    rows.set<float>(3, inf);
    const std::vector<double> column = values_of(run(desc_json(DataType::kFloat32, {2, 2}, {4, 2}, "LINEAR", {2, 1}), rows));
    for (uint64_t r = 0; r < 4; ++r) {
        EXPECT_TRUE(std::isfinite(column[r * 2])) << "row " << r << " column 0 took the infinite column 1";
        EXPECT_FALSE(std::isfinite(column[r * 2 + 1])) << "row " << r << " column 1";  // inf (NaN at clamped edges)
    }
}

TEST_F(ResampleTest, PropertyNearestIsSeparableForEveryTypeAndRule) {
    std::mt19937 rng(1234);
    for (int iteration = 0; iteration < 60; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        const DataType type =
            std::vector<DataType>{DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8}[rng() % 4];
        const NearestRule rule = NearestRule(rng() % 4);
        RandomShape s = random_shape(rng, rank, /*dyadic=*/false);
        HostTensor in = make_tensor_with(type, s.in, [&](uint64_t i) { return double(int(i % 100) - 20 * (type != DataType::kUint8)); });
        HostTensor direct = run(desc_json(type, s.in, s.out, "NEAREST_NEIGHBOR", s.scales), in, rule);
        HostTensor composed = in;
        for (uint32_t d = 0; d < rank; ++d)
            composed = resample_one_dim(*op_, composed, d, s.out[d], s.scales[d], "NEAREST_NEIGHBOR", rule);
        EXPECT_TRUE(same_bytes(direct, composed))
            << "iteration " << iteration << " in " << format_dims(s.in) << " out " << format_dims(s.out);
    }
}

TEST_F(ResampleTest, PropertyLinearIsSeparableOnExactValues) {
    std::mt19937 rng(99);
    for (int iteration = 0; iteration < 60; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        RandomShape s = random_shape(rng, rank, /*dyadic=*/true);
        HostTensor in = make_tensor_with(DataType::kFloat32, s.in, [&](uint64_t) { return double(int(rng() % 256) - 128); });
        HostTensor direct = run(desc_json(DataType::kFloat32, s.in, s.out, "LINEAR", s.scales), in);
        HostTensor composed = in;
        for (uint32_t d = 0; d < rank; ++d)
            composed = resample_one_dim(*op_, composed, d, s.out[d], s.scales[d], "LINEAR", NearestRule::kLiteral);
        EXPECT_EQ(values_of(direct), values_of(composed))
            << "iteration " << iteration << " in " << format_dims(s.in) << " out " << format_dims(s.out);
    }
}

TEST_F(ResampleTest, PropertyLinearTypesConvertTheExactBlendOnce) {
    // With dyadic scales the FLOAT32 result of small integers is exact, so every other type's output must be
    // that value rounded once (FLOAT16: to nearest even; 8-bit: toward zero) and saturated.
    std::mt19937 rng(7);
    for (int iteration = 0; iteration < 40; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        const DataType type = std::vector<DataType>{DataType::kFloat16, DataType::kInt8, DataType::kUint8}[iteration % 3];
        RandomShape s = random_shape(rng, rank, /*dyadic=*/true);
        const int lo = type == DataType::kUint8 ? 0 : -128;
        const int hi = type == DataType::kUint8 ? 255 : 127;
        std::vector<double> values;
        for (uint64_t i = 0, n = *checked_element_count(s.in); i < n; ++i) values.push_back(lo + int(rng() % (hi - lo + 1)));
        HostTensor exact = run(desc_json(DataType::kFloat32, s.in, s.out, "LINEAR", s.scales),
                               make_tensor(DataType::kFloat32, s.in, values));
        HostTensor typed = run(desc_json(type, s.in, s.out, "LINEAR", s.scales), make_tensor(type, s.in, values));
        ASSERT_EQ(typed.element_count(), exact.element_count());
        for (uint64_t i = 0; i < exact.element_count(); ++i) {
            const double v = exact.get_as_double(i);
            const double expected = type == DataType::kFloat16 ? double(half_to_float(float_to_half(float(v))))
                                                               : std::trunc(v);
            ASSERT_EQ(typed.get_as_double(i), expected) << data_type_name(type) << " iteration " << iteration << " element " << i;
        }
    }
}

TEST_F(ResampleTest, PropertyLinearMonotoneConstantAndIdentity) {
    std::mt19937 rng(2024);
    for (int iteration = 0; iteration < 40; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        const DataType type =
            std::vector<DataType>{DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8}[iteration % 4];
        RandomShape s = random_shape(rng, rank, /*dyadic=*/false);
        const std::string json = desc_json(type, s.in, s.out, "LINEAR", s.scales);
        const uint32_t axis = rng() % rank;
        const Dims out_strides = packed_strides(s.out);

        // Strictly increasing along `axis`, arbitrary across the others: output is non-decreasing along `axis`.
        std::vector<uint32_t> coord(rank);
        HostTensor ramp = make_tensor_with(type, s.in, [&](uint64_t i) {
            unravel_index(i, s.in, coord.data());
            return double(coord[axis] * 20 + ((i * 7) % 5));
        });
        HostTensor out = run(json, ramp);
        for (uint64_t i = 0; i < out.element_count(); ++i) {
            unravel_index(i, s.out, coord.data());
            if (coord[axis] + 1 < s.out[axis]) {
                EXPECT_LE(out.get_as_double(i), out.get_as_double(i + out_strides[axis]))
                    << "iteration " << iteration << " axis " << axis << " element " << i;
            }
        }

        // A constant input gives the same constant bit for bit.
        HostTensor constant = make_tensor_with(type, s.in, [&](uint64_t) { return type == DataType::kUint8 ? 77.0 : -37.0; });
        HostTensor flat = run(json, constant);
        for (uint64_t i = 0; i < flat.element_count(); ++i)
            ASSERT_EQ(std::memcmp(flat.element_ptr(i), constant.element_ptr(0), flat.element_bytes()), 0)
                << "iteration " << iteration << " element " << i;

        // Scale 1 with equal sizes is an exact copy, whatever the values.
        HostTensor random_values = make_tensor_with(type, s.in, [&](uint64_t) {
            return type == DataType::kUint8 ? double(rng() % 256)
                   : is_float(type)         ? double(std::ldexp(float(int(rng() % 2001) - 1000), -int(rng() % 12)))
                                            : double(int(rng() % 256) - 128);
        });
        HostTensor copy = run(desc_json(type, s.in, s.in, "LINEAR", std::vector<float>(rank, 1.0f)), random_values);
        EXPECT_TRUE(same_bytes(copy, random_values)) << "iteration " << iteration;
    }
}

TEST(ResampleCoordinates, NearestMatchesDoublePrecisionAwayFromTies) {
    // The float32 formulas against the same formulas in double: they must agree wherever the double value is
    // not within float32 rounding distance of an integer (there the rounding decides, by design).
    std::mt19937 rng(5);
    for (int iteration = 0; iteration < 20000; ++iteration) {
        const uint32_t n_in = 1 + rng() % 64;
        const float scale = std::ldexp(float(1 + rng() % 1000), -int(rng() % 10)) / 37.0f;
        const uint32_t o = rng() % 200;
        const double inv = 1.0 / double(scale);
        const double a = (o + 1.0) * inv - 0.5, b = (o + 0.5) * inv, c = (o + 0.5) * inv - 1.0;
        const double f = (o + 0.5) * inv - 0.5;
        auto near_integer = [](double v) { return std::fabs(v - std::nearbyint(v)) < 1e-4 * std::max(1.0, std::fabs(v)); };
        auto clamp = [&](double v) { return uint32_t(std::min(std::max(v, 0.0), double(n_in - 1))); };
        const float finv = inverse_scale(scale);
        if (!near_integer(a)) {
            EXPECT_EQ(nearest_index(o, n_in, finv, NearestRule::kLiteral), clamp(std::floor(a)));
        }
        if (!near_integer(b)) {
            EXPECT_EQ(nearest_index(o, n_in, finv, NearestRule::kHalfUp), clamp(std::floor(b)));
        }
        if (!near_integer(c)) {
            EXPECT_EQ(nearest_index(o, n_in, finv, NearestRule::kHalfDown), clamp(std::ceil(c)));
        }
        if (!near_integer(f)) {
            EXPECT_EQ(nearest_index(o, n_in, finv, NearestRule::kFloor), clamp(std::floor(f)));
        }
        const double x = std::min(std::max((o + 0.5) * inv - 0.5, 0.0), double(n_in - 1));
        const LinearTap tap = linear_tap(o, n_in, finv);
        if (!near_integer(x)) {
            EXPECT_EQ(tap.x0, uint32_t(std::floor(x)));
            EXPECT_NEAR(tap.w1, x - std::floor(x), 1e-3 * std::max(1.0, x));
        }
        EXPECT_EQ(tap.x1, std::min(tap.x0 + 1, n_in - 1));
    }
}

TEST(ResampleCoordinates, ExtremeScalesClampInsteadOfOverflowing) {
    // 1 / 1e-39 overflows to +inf: every coordinate clamps to the last input.
    const float tiny = inverse_scale(1e-39f);
    EXPECT_TRUE(std::isinf(tiny));
    EXPECT_EQ(nearest_index(0, 5, tiny, NearestRule::kLiteral), 4u);
    EXPECT_EQ(nearest_index(0, 5, tiny, NearestRule::kHalfDown), 4u);
    EXPECT_EQ(nearest_index(0, 5, tiny, NearestRule::kFloor), 4u);
    EXPECT_EQ(linear_tap(0, 5, tiny).x0, 4u);
    EXPECT_EQ(linear_tap(0, 5, tiny).w1, 0.0f);
    // A huge scale maps everything to the first input.
    const float huge = inverse_scale(3e38f);
    EXPECT_EQ(nearest_index(1000, 5, huge, NearestRule::kHalfUp), 0u);
    EXPECT_EQ(nearest_index(1000, 5, huge, NearestRule::kFloor), 0u);
    EXPECT_EQ(linear_tap(1000, 5, huge).x0, 0u);
    EXPECT_EQ(linear_tap(1000, 5, huge).w0, 1.0f);
}

// ---- validation (spec §10) ---------------------------------------------------------------------------------

TEST_F(ResampleTest, RejectsDataTypeMismatch) {
    nlohmann::json j = nlohmann::json::parse(desc_json(DataType::kFloat32, {1, 1, 2, 2}, {1, 1, 4, 4}, "LINEAR", {1, 1, 2, 2}));
    j["OutputTensor"]["DataType"] = "FLOAT16";
    const std::string message = parse_error(j.dump());
    EXPECT_NE(message.find("/operator/desc/OutputTensor/DataType: expected FLOAT32"), std::string::npos) << message;
    EXPECT_NE(message.find("found FLOAT16"), std::string::npos) << message;
}

TEST_F(ResampleTest, RejectsRankMismatch) {
    const std::string message =
        parse_error(desc_json(DataType::kFloat32, {1, 1, 2, 2}, {1, 4, 4}, "LINEAR", {1, 1, 2, 2}));
    EXPECT_NE(message.find("/operator/desc/OutputTensor/Sizes: expected 4 dimensions"), std::string::npos) << message;
    EXPECT_NE(message.find("found 3"), std::string::npos) << message;
}

TEST_F(ResampleTest, RejectsWrongNumberOfScales) {
    const std::string message =
        parse_error(desc_json(DataType::kFloat32, {1, 1, 2, 2}, {1, 1, 4, 4}, "LINEAR", {2, 2}));
    EXPECT_NE(message.find("/operator/desc/Scales: expected 4 scales"), std::string::npos) << message;
    EXPECT_NE(message.find("found 2"), std::string::npos) << message;
}

TEST_F(ResampleTest, ScaleCountMustMatchScales) {
    nlohmann::json j = nlohmann::json::parse(desc_json(DataType::kFloat32, {1, 1, 2, 2}, {1, 1, 4, 4}, "LINEAR", {1, 1, 2, 2}));
    j["ScaleCount"] = 3;
    const std::string message = parse_error(j.dump());
    EXPECT_NE(message.find("/operator/desc/ScaleCount: expected 4"), std::string::npos) << message;
    j["ScaleCount"] = 4;
    EXPECT_NE(parse(j.dump()), nullptr);
}

TEST_F(ResampleTest, RejectsNonPositiveScales) {
    const std::string zero = parse_error(desc_json(DataType::kFloat32, {4}, {4}, "LINEAR", {0.0f}));
    EXPECT_NE(zero.find("/operator/desc/Scales/0: expected a finite scale > 0, found 0"), std::string::npos) << zero;
    const std::string negative =
        parse_error(desc_json(DataType::kFloat32, {1, 4}, {1, 4}, "NEAREST_NEIGHBOR", {1.0f, -1.5f}));
    EXPECT_NE(negative.find("/operator/desc/Scales/1: expected a finite scale > 0, found -1.5"), std::string::npos)
        << negative;
    // A positive JSON number that underflows float32 is a zero scale too.
    nlohmann::json j = nlohmann::json::parse(desc_json(DataType::kFloat32, {4}, {4}, "LINEAR", {1.0f}));
    j["Scales"] = {1e-50};
    const std::string underflow = parse_error(j.dump());
    EXPECT_NE(underflow.find("/operator/desc/Scales/0: expected a finite scale > 0, found 0"), std::string::npos)
        << underflow;
}

TEST_F(ResampleTest, RejectsUnknownModeAndMissingMembers) {
    const std::string mode = parse_error(desc_json(DataType::kFloat32, {4}, {8}, "CUBIC", {2}));
    EXPECT_NE(mode.find("/operator/desc/InterpolationMode"), std::string::npos) << mode;
    EXPECT_NE(mode.find("NEAREST_NEIGHBOR, LINEAR"), std::string::npos) << mode;
    nlohmann::json j = nlohmann::json::parse(desc_json(DataType::kFloat32, {4}, {8}, "LINEAR", {2}));
    j.erase("Scales");
    EXPECT_NE(parse_error(j.dump()).find("/operator/desc/Scales"), std::string::npos);
    j = nlohmann::json::parse(desc_json(DataType::kFloat32, {4}, {8}, "LINEAR", {2}));
    j.erase("OutputTensor");
    EXPECT_NE(parse_error(j.dump()).find("/operator/desc/OutputTensor"), std::string::npos);
}

TEST_F(ResampleTest, AcceptsPrefixedModeNames) {
    auto desc = parse(desc_json(DataType::kFloat32, {4}, {8}, "DML_INTERPOLATION_MODE_LINEAR", {2}));
    ASSERT_NE(desc, nullptr);
    EXPECT_EQ(static_cast<const ResampleDesc&>(*desc).mode, InterpolationMode::kLinear);
}

// ---- feature levels (spec §6.3) ----------------------------------------------------------------------------

TEST_F(ResampleTest, FeatureLevelOfEveryRow) {
    struct Row {
        DataType type;
        Dims sizes;
        FeatureLevel expected;
    };
    const Row rows[] = {
        {DataType::kFloat32, {1, 1, 2, 2}, fl(2, 0)}, {DataType::kFloat16, {1, 1, 2, 2}, fl(2, 0)},
        {DataType::kFloat32, {2, 2, 2}, fl(5, 1)},    {DataType::kFloat16, {4}, fl(5, 1)},
        {DataType::kInt8, {1, 1, 2, 2}, fl(6, 2)},    {DataType::kUint8, {3, 2}, fl(6, 2)},
    };
    for (const Row& r : rows) {
        auto desc = parse(desc_json(r.type, r.sizes, r.sizes, "LINEAR", std::vector<float>(r.sizes.size(), 1.0f)));
        ASSERT_NE(desc, nullptr);
        auto level = min_feature_level(*op_, *desc);
        ASSERT_TRUE(level.is_ok()) << level.status().message();
        EXPECT_EQ(level.value(), r.expected) << data_type_name(r.type) << " " << format_dims(r.sizes);
    }
}

TEST_F(ResampleTest, FeatureLevelRejectsUnlistedCombinations) {
    auto int32 = parse(desc_json(DataType::kInt32, {1, 1, 2, 2}, {1, 1, 2, 2}, "NEAREST_NEIGHBOR", {1, 1, 1, 1}));
    ASSERT_NE(int32, nullptr);
    auto level = min_feature_level(*op_, *int32);
    ASSERT_FALSE(level.is_ok());
    EXPECT_NE(level.status().message().find("InputTensor"), std::string::npos) << level.status().message();
    auto five_d = parse(desc_json(DataType::kFloat32, {1, 1, 1, 2, 2}, {1, 1, 1, 2, 2}, "LINEAR", {1, 1, 1, 1, 1}));
    ASSERT_NE(five_d, nullptr);
    EXPECT_FALSE(min_feature_level(*op_, *five_d).is_ok());
}

// ---- tolerance and work ------------------------------------------------------------------------------------

TEST_F(ResampleTest, ToleranceContract) {
    auto nn = parse(desc_json(DataType::kFloat32, {4}, {8}, "NEAREST_NEIGHBOR", {2}));
    EXPECT_TRUE(op_->default_tolerance(*nn, 0).bitwise);
    auto f32 = parse(desc_json(DataType::kFloat32, {4}, {8}, "LINEAR", {2}));
    EXPECT_EQ(op_->default_tolerance(*f32, 0).ulp, 4u);
    EXPECT_FALSE(op_->default_tolerance(*f32, 0).bitwise);
    auto f16 = parse(desc_json(DataType::kFloat16, {4}, {8}, "LINEAR", {2}));
    EXPECT_EQ(op_->default_tolerance(*f16, 0).ulp, 2u);
    auto u8 = parse(desc_json(DataType::kUint8, {4}, {8}, "LINEAR", {2}));
    EXPECT_EQ(op_->default_tolerance(*u8, 0).abs, 1.0);
    for (const auto* d : {nn.get(), f32.get(), f16.get(), u8.get()})
        EXPECT_FALSE(op_->default_tolerance(*d, 0).reason.empty());
}

TEST_F(ResampleTest, WorkCountsBytesOnceAndCornersOfResampledDims) {
    auto lin = parse(desc_json(DataType::kFloat16, {1, 3, 4, 4}, {1, 3, 8, 8}, "LINEAR", {1, 1, 2, 2}));
    const WorkEstimate w = op_->work(*lin);
    EXPECT_EQ(w.bytes, (48u + 192u) * 2u);
    EXPECT_EQ(w.ops, 192u * 4u * 2u);  // two resampled dims: 4 corners, one multiply-add each
    auto nn = parse(desc_json(DataType::kUint8, {1, 3, 4, 4}, {1, 3, 8, 8}, "NEAREST_NEIGHBOR", {1, 1, 2, 2}));
    EXPECT_EQ(op_->work(*nn).bytes, 48u + 192u);
    EXPECT_EQ(op_->work(*nn).ops, 0u);
}

TEST_F(ResampleTest, NameAndSlots) {
    EXPECT_EQ(op_->name(), "RESAMPLE");
    auto desc = parse(desc_json(DataType::kFloat32, {4}, {8}, "LINEAR", {2}));
    const auto slots = op_->tensors(*desc);
    ASSERT_EQ(slots.size(), 2u);
    EXPECT_EQ(slots[0].field, "InputTensor");
    EXPECT_EQ(slots[0].role, TensorRole::kInput);
    EXPECT_EQ(slots[1].field, "OutputTensor");
    EXPECT_EQ(slots[1].role, TensorRole::kOutput);
    EXPECT_EQ(slots[1].desc->sizes, (Dims{8}));
}

}  // namespace
}  // namespace dmltool::ops::resample
