// The timed RESAMPLE LINEAR reference (the row form: input rows gathered at the column taps, corners blended two
// per pass, vectorized stores) must give bit for bit the outputs of the per-element form the runner uses for its
// error bound (run with exact outputs: every element sums its corners one by one). Both are checked against the
// test's own conversion of the per-element double sums to the output type, so a bug shared by the two stores is
// caught too. Shapes are wider than resample_test.cpp's (several 512-column tiles, vector tails, both gather
// paths: converting a span first, and converting while gathering for downsampling by more than 2), on a pool of 3
// threads so that rows are split in several places.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cpuid.h>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/op.h"
#include "core/thread_pool.h"
#include "ops/resample/desc.h"
#include "ops/resample/reference_internal.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
std::unique_ptr<Op> make_op();

namespace {

struct Shape {
    Dims in, out;
    std::vector<float> scales;
};

// Leading dimensions small, the last one up to ~1100 outputs (three tiles); some output sizes cropped or
// edge-clamped instead of the natural in * scale.
Shape random_shape(std::mt19937& rng, uint32_t rank) {
    const float kScales[] = {1.0f, 2.0f, 0.5f, 0.3f, 3.0f, 1.7f, 0.25f, 4.0f, 0.75f, 1.5f};
    Shape s;
    for (uint32_t d = 0; d < rank; ++d) {
        const bool last = d + 1 == rank;
        const uint32_t n = last ? 1 + rng() % 300 : 1 + rng() % 4;
        const float scale = kScales[rng() % 10];
        const uint32_t natural = std::max(1u, uint32_t(std::lround(n * scale)));
        const uint32_t out = rng() % 4 ? std::min(natural, 1100u) : 1 + rng() % (last ? 1100 : 6);
        s.in.push_back(n);
        s.out.push_back(out);
        s.scales.push_back(scale);
    }
    return s;
}

// The LINEAR RESAMPLE desc of a shape, as a case's JSON.
std::string linear_desc_json(DataType type, const Shape& s) {
    nlohmann::json j;
    j["InputTensor"] = {{"DataType", std::string(data_type_name(type))}, {"Sizes", s.in}};
    j["OutputTensor"] = {{"DataType", std::string(data_type_name(type))}, {"Sizes", s.out}};
    j["InterpolationMode"] = "LINEAR";
    j["Scales"] = s.scales;
    return j.dump();
}

HostTensor random_input(DataType type, const Dims& sizes, bool plant_specials, std::mt19937_64& bits) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = sizes;
    HostTensor t(desc);
    for (uint64_t i = 0; i < t.element_count(); ++i) {
        if (type == DataType::kFloat32) {
            uint32_t v = uint32_t(bits());
            if ((v & 0x7f800000u) == 0x7f800000u) v &= 0xbfffffffu;  // finite: any sign, subnormals included
            t.set<uint32_t>(i, v);
        } else if (type == DataType::kFloat16) {
            uint16_t v = uint16_t(bits());
            if ((v & 0x7c00u) == 0x7c00u) v &= 0xbfffu;
            t.set<uint16_t>(i, v);
        } else {
            t.set<uint8_t>(i, uint8_t(bits()));
        }
    }
    if (plant_specials && (type == DataType::kFloat32 || type == DataType::kFloat16)) {
        const uint32_t f32[] = {0x7f800000u, 0xff800000u, 0x7fc00001u, 0x80000000u};
        const uint16_t f16[] = {0x7c00, 0xfc00, 0x7e01, 0x8000};
        for (int k = 0; k < 3; ++k) {
            const uint64_t at = bits() % t.element_count();
            if (type == DataType::kFloat32) t.set<uint32_t>(at, f32[bits() % 4]);
            else t.set<uint16_t>(at, f16[bits() % 4]);
        }
    }
    return t;
}

// The output element the per-element double sum rounds to, converted here independently of the reference.
void expect_rounds_from(const HostTensor& out, uint64_t i, double sum, const std::string& where) {
    switch (out.data_type()) {
        case DataType::kFloat32: {
            const float expected = float(sum);
            if (std::isnan(expected)) ASSERT_TRUE(std::isnan(out.get<float>(i))) << where;
            else ASSERT_EQ(std::memcmp(out.element_ptr(i), &expected, 4), 0) << where << ": " << out.get<float>(i) << " vs " << expected;
            break;
        }
        case DataType::kFloat16: {
            const uint16_t expected = double_to_half(sum);
            if (std::isnan(sum)) ASSERT_TRUE(std::isnan(out.get_as_double(i))) << where;
            else ASSERT_EQ(out.get<uint16_t>(i), expected) << where << ": " << out.get_as_double(i) << " vs " << sum;
            break;
        }
        case DataType::kInt8:
            ASSERT_EQ(out.get<int8_t>(i), int8_t(std::trunc(std::nearbyint(std::clamp(sum, -128.0, 127.0) * 1024) / 1024))) << where << ": " << sum;
            break;
        default:
            ASSERT_EQ(out.get<uint8_t>(i), uint8_t(std::trunc(std::nearbyint(std::clamp(sum, 0.0, 255.0) * 1024) / 1024))) << where << ": " << sum;
            break;
    }
}

TEST(ResampleLinearRows, RowFormEqualsPerElementFormBitForBit) {
    const std::unique_ptr<Op> op = make_op();
    std::mt19937 rng(2026);
    std::mt19937_64 bits(1126);
    ThreadPool pool(3);
    const SemanticsOptions semantics;
    uint64_t compared = 0, tiles_crossed = 0;
    for (int iteration = 0; iteration < 240; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        const DataType type =
            std::vector<DataType>{DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8}[rng() % 4];
        const Shape s = random_shape(rng, rank);
        auto desc = testing::parse_desc(*op, linear_desc_json(type, s));
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        const HostTensor input = random_input(type, s.in, iteration % 3 == 0, bits);
        TensorDesc out_desc = input.desc();
        out_desc.sizes = s.out;
        HostTensor rows(out_desc), per_element(out_desc);
        HostTensor* rows_ptr = &rows;
        HostTensor* per_element_ptr = &per_element;
        const HostTensor* input_ptr = &input;
        ASSERT_TRUE(op->run_reference(**desc, {&input_ptr, 1}, {&rows_ptr, 1}, ReferenceContext{pool, semantics}).is_ok());
        std::vector<ExactOutput> exact(1);
        ASSERT_TRUE(op->run_reference(**desc, {&input_ptr, 1}, {&per_element_ptr, 1},
                                      ReferenceContext{pool, semantics, &exact}).is_ok());
        ASSERT_EQ(exact[0].exact.size(), rows.element_count());
        const std::string config = "iteration " + std::to_string(iteration) + " " + std::string(data_type_name(type)) +
                                   " in " + format_dims(s.in) + " out " + format_dims(s.out);
        for (uint64_t i = 0; i < rows.element_count(); ++i) {
            const std::string where = config + " element " + std::to_string(i);
            // Equal bytes, except that any NaN equals any NaN: which payload a sum of two NaNs keeps depends on the
            // compiler's operand order, not on the semantics.
            const bool both_nan = std::isnan(rows.get_as_double(i)) && std::isnan(per_element.get_as_double(i));
            ASSERT_TRUE(both_nan || std::memcmp(rows.element_ptr(i), per_element.element_ptr(i), rows.element_bytes()) == 0)
                << where << ": " << rows.get_as_double(i) << " vs " << per_element.get_as_double(i);
            // Beside a weight-0 infinity or NaN the stored sum is NaN while y (the contract's exact value) skips that
            // corner; the contract accepts either there (ExactOutput::nonfinite_allowed).
            if (!(exact[0].nonfinite_allowed.at(i) && !std::isfinite(rows.get_as_double(i))))
                expect_rounds_from(rows, i, exact[0].exact[i], where);
            if (::testing::Test::HasFatalFailure()) return;
        }
        compared += rows.element_count();
        tiles_crossed += s.out.back() > 512;
    }
    // The shapes must have reached what they are for: many elements, several multi-tile rows.
    EXPECT_GT(compared, 1'000'000u);
    EXPECT_GT(tiles_crossed, 20u);
}

// The row form's loops are compiled for SSE2, AVX2 and AVX-512 and the runs use the widest this CPU has (which
// the test above checks against the per-element form); every narrower level must give the same bytes, so that
// the reference means the same thing on every CPU (and the narrower loops stay tested on wide CPUs).
TEST(ResampleLinearRows, EveryInstructionSetGivesTheSameBytes) {
    const std::unique_ptr<Op> op = make_op();
    std::mt19937 rng(1127);
    std::mt19937_64 bits(2711);
    ThreadPool pool(3);
    const SimdLevel widest = cpu_simd_level();
    uint64_t compared = 0;
    for (int iteration = 0; iteration < 120; ++iteration) {
        const uint32_t rank = 1 + iteration % 4;
        const DataType type = std::vector<DataType>{DataType::kFloat32, DataType::kFloat16, DataType::kInt8,
                                                    DataType::kUint8}[iteration % 4];
        // Every fourth shape an exact upsampling by 2 of the last two dimensions (the tap-run fills); the rest random.
        Shape s = random_shape(rng, rank);
        if (iteration % 4 == 1 && rank >= 2) {
            for (uint32_t d = rank - 2; d < rank; ++d) {
                s.scales[d] = 2.0f;
                s.out[d] = 2 * s.in[d];
            }
        }
        auto parsed = testing::parse_desc(*op, linear_desc_json(type, s));
        ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
        const auto& desc = dynamic_cast<const ResampleDesc&>(**parsed);
        const std::vector<std::vector<LinearTap>> taps = linear_taps(desc);
        const HostTensor input = random_input(type, s.in, iteration % 3 == 0, bits);
        TensorDesc out_desc = input.desc();
        out_desc.sizes = s.out;
        HostTensor widest_out(out_desc);
        run_linear_rows(desc, taps, input, widest_out, pool, widest);
        for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
            if (level >= widest) continue;
            HostTensor out(out_desc);
            run_linear_rows(desc, taps, input, out, pool, level);
            for (uint64_t i = 0; i < out.element_count(); ++i) {
                const bool both_nan = std::isnan(out.get_as_double(i)) && std::isnan(widest_out.get_as_double(i));
                const bool same_bytes =
                    std::memcmp(out.element_ptr(i), widest_out.element_ptr(i), out.element_bytes()) == 0;
                ASSERT_TRUE(both_nan || same_bytes)
                    << "iteration " << iteration << " " << data_type_name(type) << " in " << format_dims(s.in)
                    << " out " << format_dims(s.out) << " level " << int(level) << " element " << i << ": "
                    << out.get_as_double(i) << " vs " << widest_out.get_as_double(i);
            }
            compared += out.element_count();
        }
    }
    // F16C converts every half exactly: where the CPU has it, the self-check must have accepted it.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool has_f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29)) != 0;  // CPUID.1:ECX.F16C
    if (has_f16c && __builtin_cpu_supports("avx2")) {
        EXPECT_TRUE(halves_convert_by_f16c());
    }
    if (widest == SimdLevel::kBaseline) GTEST_SKIP() << "this CPU has neither AVX2 nor AVX-512: one level only";
    EXPECT_GT(compared, 100'000u);
}

}  // namespace
}  // namespace dmltool::ops::resample
