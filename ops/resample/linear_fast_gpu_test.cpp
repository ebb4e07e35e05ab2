// The dedicated linear x2 / x0.5 kernels (linear_fast.cpp) on lavapipe: which shapes take them (and which fall
// back to the table kernel), and their outputs judged against the reference's exact values under the error
// bound, for every data type: random and near-cancelling inputs, rank 2..4, one and several vector columns per
// row (both row edges in one thread), two input rows (every row an edge), and inf/NaN/-0/subnormal/huge
// inputs placed on edge rows and columns (the zero-weight corners there must give the reference's NaN).
// The 8-bit kernels are exact (biased float32 blends, truncated toward zero like the reference): their outputs must
// equal the reference's bit for bit. Both blobs of every type pass vkd3d-compiler + spirv-val. The tuning variants (x2 with one
// output row per thread; FLOAT16 with the f32tof16 opcode, run where this device's half opcode probe is exact and
// refused where not) run the same tests and must give the heuristic plan's values (NaN signs aside).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/compare.h"
#include "core/plan_tuning.h"
#include "core/thread_pool.h"
#include "gpu/half_opcode_probe.h"
#include "ops/resample/desc.h"
#include "ops/resample/gpu_test_values.h"
#include "ops/split/layout_test_support.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
namespace {

const Op& resample_op() { return dmltool::testing::builtin_op("RESAMPLE"); }

constexpr DataType kTypes[] = {DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8};

uint32_t per_vector(DataType type) { return 16 / uint32_t(element_size(type)); }

std::string desc_json(DataType type, const Dims& in, const Dims& out, const std::vector<float>& scales) {
    nlohmann::json j = {{"InputTensor", testing::tensor_json(type, in)},
                        {"OutputTensor", testing::tensor_json(type, out)},
                        {"InterpolationMode", "LINEAR"},
                        {"Scales", scales}};
    return j.dump();
}

struct Shape {
    Dims in, out;
    std::vector<float> scales;
};

// An x2 (factor 2) or x0.5 (factor 0.5) shape: the last two dimensions scaled, the others kept.
Shape scaled(const Dims& in, float factor) {
    Shape s{in, in, std::vector<float>(in.size(), 1.0f)};
    for (size_t d = in.size() - 2; d < in.size(); ++d) {
        s.out[d] = uint32_t(in[d] * factor);
        s.scales[d] = factor;
    }
    return s;
}

std::string label_of(DataType type, const Shape& s) {
    auto desc = dmltool::testing::parse_desc(resample_op(), desc_json(type, s.in, s.out, s.scales));
    EXPECT_TRUE(desc.is_ok()) << desc.status().message();
    if (!desc.is_ok()) return "";
    auto plan = resample_op().plan_device(**desc, {});
    EXPECT_TRUE(plan.is_ok()) << plan.status().message();
    if (!plan.is_ok() || plan->dispatches.empty()) return "";
    return plan->dispatches[0].label;
}

bool has(const std::string& label, const char* part) { return label.find(part) != std::string::npos; }

TEST(ResampleLinearFast, PathSelection) {
    for (DataType type : kTypes) {
        const uint32_t v = per_vector(type);
        const std::string name(data_type_name(type));
        EXPECT_TRUE(has(label_of(type, scaled({2, 3, 4, v}, 2.0f)), "linear_x2")) << name;
        EXPECT_TRUE(has(label_of(type, scaled({5, 2 * v}, 2.0f)), "linear_x2")) << name;  // rank 2
        EXPECT_TRUE(has(label_of(type, scaled({2, 3, 4, 2 * v}, 0.5f)), "linear_half")) << name;
        EXPECT_TRUE(has(label_of(type, scaled({3, 2, 2 * v}, 0.5f)), "linear_half")) << name;  // rank 3
        // Rows that are not whole 16-byte vectors, one input row, a dimension other than the last two scaled,
        // or a scale the kernels do not have: the table kernel.
        EXPECT_FALSE(has(label_of(type, scaled({2, 3, 4, v + 2}, 2.0f)), "linear_")) << name;
        EXPECT_FALSE(has(label_of(type, scaled({2, 3, 1, v}, 2.0f)), "linear_")) << name;
        EXPECT_FALSE(has(label_of(type, scaled({2, 3, 4, 2 * v + 2}, 0.5f)), "linear_")) << name;
        EXPECT_FALSE(has(label_of(type, Shape{{2, 3, 4, v}, {4, 3, 8, 2 * v}, {2, 1, 2, 2}}), "linear_")) << name;
        EXPECT_FALSE(has(label_of(type, Shape{{1, 2, 4, v}, {1, 2, 8, v}, {1, 1, 2, 1}}), "linear_")) << name;
        EXPECT_FALSE(has(label_of(type, Shape{{1, 2, 4, 4 * v}, {1, 2, 16, 16 * v}, {1, 1, 4, 4}}), "linear_"))
            << name;
        // x2 output sizes with a different scale (taps not those of x2): the table kernel.
        EXPECT_FALSE(has(label_of(type, Shape{{1, 2, 4, v}, {1, 2, 8, 2 * v}, {1, 1, 2.5f, 2.5f}}), "linear_"))
            << name;
    }
}

constexpr const char* kNativeHalf = "linear/native_half";

// Runs the heuristic plan (variant "") or a tuning variant of `desc` on the test backend.
Result<std::vector<HostTensor>> run_on_gpu(const OpDesc& desc, const HostTensor& input, const std::string& variant) {
    const Op& op = resample_op();
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    if (variant.empty()) return backend->execute(op, desc, {&input}, nullptr);
    const dmltool::testing::layouts::ReplannedOp replanned(op, [&](const OpDesc& d) { return op.plan_device_variant(d, {}, variant); });
    return backend->execute(replanned, desc, {&input}, nullptr);
}

// Whether this device runs the native-half variant: the backend refuses it (kUnsupported) where the half opcode
// probe found the device's f32tof16 inexact. Checked against the probe itself in NativeHalfFollowsTheProbe.
bool device_runs_native_half(std::string* why) {
    static const gpu::HalfOpcodeProbe probe = [] {
        auto result = gpu::probe_half_opcodes(dmltool::testing::test_gpu_backend(nullptr)->context());
        return result.is_ok() ? *result : gpu::HalfOpcodeProbe{};
    }();
    *why = probe.summary();
    return probe.exact();
}

// Runs `s` with `input` on the GPU with each plan of `variants` ("" is the heuristic plan) and judges every output
// against the reference's exact values (the reference runs once); 8-bit outputs must also equal the reference bit
// for bit. Returns false (after reporting) on a failure; `outputs`, when given, receives each plan's outputs (empty
// for a plan that did not run).
bool judge(DataType type, const Shape& s, const HostTensor& input, const std::string& what,
           const std::vector<std::string>& variants = {""}, std::vector<std::vector<HostTensor>>* outputs = nullptr) {
    const Op& op = resample_op();
    auto desc = dmltool::testing::parse_desc(op, desc_json(type, s.in, s.out, s.scales));
    EXPECT_TRUE(desc.is_ok()) << desc.status().message();
    if (!desc.is_ok()) return false;
    ThreadPool pool(2);
    SemanticsOptions semantics;
    HostTensor reference(static_cast<const ResampleDesc&>(**desc).output);
    std::vector<ExactOutput> exact(1);
    const HostTensor* inputs[] = {&input};
    HostTensor* reference_outputs[] = {&reference};
    const Status ran = op.run_reference(**desc, inputs, reference_outputs, ReferenceContext{pool, semantics, &exact});
    EXPECT_TRUE(ran.is_ok()) << ran.message();
    if (!ran.is_ok()) return false;
    bool ok = true;
    for (const std::string& variant : variants) {
        const std::string name = what + (variant.empty() ? "" : " [" + variant + "]");
        auto got = run_on_gpu(**desc, input, variant);
        EXPECT_TRUE(got.is_ok()) << name << ": " << got.status().message();
        if (outputs) outputs->push_back(got.is_ok() ? *got : std::vector<HostTensor>{});
        if (!got.is_ok()) {
            ok = false;
            continue;
        }
        const CompareResult r = compare_to_exact(exact[0], (*got)[0], op.default_tolerance(**desc, 0));
        EXPECT_TRUE(r.verdict == Verdict::kPassed)
            << name << ": " << r.reason << (r.mismatches.empty() ? "" : "\n  " + format_mismatch(r.mismatches[0]));
        ok = ok && r.verdict == Verdict::kPassed;
        if (type == DataType::kInt8 || type == DataType::kUint8) {
            const auto a = (*got)[0].bytes(), b = reference.bytes();
            const bool same = std::equal(a.begin(), a.end(), b.begin(), b.end());
            EXPECT_TRUE(same) << name << ": the 8-bit kernel is exact, but its output differs from the reference";
            ok = ok && same;
        }
    }
    return ok;
}

// The tuning variants the op offers for `s` that this device runs (the native-half ones only where the probe is
// exact: elsewhere the backend refuses them, checked in NativeHalfFollowsTheProbe).
std::vector<std::string> runnable_variants(DataType type, const Shape& s) {
    auto desc = dmltool::testing::parse_desc(resample_op(), desc_json(type, s.in, s.out, s.scales));
    if (!desc.is_ok()) return {};
    std::string why;
    const bool native = device_runs_native_half(&why);
    std::vector<std::string> names;
    for (const std::string& name : resample_op().device_plan_variants(**desc, {}))
        if (native || name.find("native_half") == std::string::npos) names.push_back(name);
    return names;
}

// judge() on the heuristic plan and on every runnable variant, each variant's outputs also the heuristic plan's
// values (what the tuner requires of a variant: core/plan_tuning.h, variant_output_difference).
void judge_with_variants(DataType type, const Shape& s, const HostTensor& input, const std::string& what) {
    std::vector<std::string> variants = {""};
    for (const std::string& variant : runnable_variants(type, s)) variants.push_back(variant);
    std::vector<std::vector<HostTensor>> outputs;
    judge(type, s, input, what, variants, &outputs);
    for (size_t i = 1; i < variants.size(); ++i) {
        if (outputs[0].empty() || outputs[i].empty()) continue;  // judge() reported it
        EXPECT_EQ(variant_output_difference(outputs[0], outputs[i]), "") << what << " [" << variants[i] << "]";
    }
}

std::vector<Shape> test_shapes(DataType type) {
    const uint32_t v = per_vector(type);
    return {
        scaled({1, 1, 2, v}, 2.0f),       // one vector per row, two rows: every thread on both row edges
        scaled({2, 3, 5, 2 * v}, 2.0f),   // first and last chunks in separate threads
        scaled({1, 2, 7, 3 * v}, 2.0f),   // a middle chunk
        scaled({3, 2 * v}, 2.0f),         // rank 2
        scaled({2, 4, 3 * v}, 2.0f),      // rank 3
        scaled({1, 1, 2, 2 * v}, 0.5f),   // one output row, one vector
        scaled({2, 3, 6, 4 * v}, 0.5f),
        scaled({4, 6 * v}, 0.5f),         // rank 2
        scaled({3, 2, 4 * v}, 0.5f),      // rank 3
    };
}

TEST(ResampleLinearFast, RandomAndCancellingInputsWithinTheBound) {
    std::string why;
    if (!dmltool::testing::test_gpu_backend(&why)) GTEST_SKIP() << why;
    uint64_t seed = 52000;
    for (DataType type : kTypes)
        for (const Shape& s : test_shapes(type)) {
            ASSERT_TRUE(has(label_of(type, s), "linear_")) << format_dims(s.in) << " " << data_type_name(type);
            double lo, hi;
            value_range(type, lo, hi);
            const std::string what = std::string(data_type_name(type)) + " " + format_dims(s.in) + " -> " +
                                     format_dims(s.out);
            judge_with_variants(type, s, dmltool::testing::random_tensor(type, s.in, ++seed, lo, hi), what + " (random)");
            if (type == DataType::kFloat32 || type == DataType::kFloat16) {
                // Neighbours that nearly cancel: +-(big + small noise), alternating in sign.
                HostTensor input = dmltool::testing::random_tensor(type, s.in, ++seed, -1, 1);
                const double big = type == DataType::kFloat32 ? 3e4 : 512;
                for (uint64_t i = 0; i < input.element_count(); ++i)
                    input.set_from_double(i, (i % 2 ? -1 : 1) * big + input.get_as_double(i));
                judge_with_variants(type, s, input, what + " (cancelling)");
            }
        }
}

// inf, -inf, NaN, -0, subnormal and huge inputs on edge rows and columns and inside. Rank 2 only: with leading
// identity dimensions the reference also multiplies the neighbouring plane's element (or, for a size-1
// dimension, the element itself) by the identity's zero weight, so one inf turns its outputs into NaN (0 * inf),
// which no table kernel reproduces either (they skip identity corners; see kernel.cpp).
TEST(ResampleLinearFast, NonFiniteAndSpecialInputs) {
    std::string why;
    if (!dmltool::testing::test_gpu_backend(&why)) GTEST_SKIP() << why;
    uint64_t seed = 53000;
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        const double specials[] = {INFINITY, -INFINITY, NAN, -0.0,
                                   type == DataType::kFloat32 ? 1e-40 : 3e-6,   // subnormal
                                   type == DataType::kFloat32 ? 3e38 : 65504,  // huge
                                   type == DataType::kFloat32 ? -3e38 : -65504,
                                   type == DataType::kFloat32 ? 1e-30 : 1e-7};
        const uint32_t v = per_vector(type);
        const Shape shapes[] = {scaled({2, v}, 2.0f), scaled({3, 2 * v}, 2.0f), scaled({5, 3 * v}, 2.0f),
                                scaled({2, 2 * v}, 0.5f), scaled({4, 6 * v}, 0.5f)};
        for (const Shape& s : shapes)
            for (int placement = 0; placement < 3; ++placement) {
                HostTensor input = dmltool::testing::random_tensor(type, s.in, ++seed, -8, 8);
                const uint64_t n = input.element_count(), w = s.in.back(), h = s.in[s.in.size() - 2];
                for (size_t i = 0; i < std::size(specials); ++i) {
                    uint64_t at = 0;
                    switch (placement) {
                        case 0: at = (i * 7919 + seed) % n; break;                            // anywhere
                        case 1: at = ((i * 31 + seed) % (n / w)) * w + (i % 2 ? w - 1 : 0); break;  // row ends
                        default: at = ((i % 2 ? h - 1 : 0) * w + (i * 13 + seed) % w) % n; break;   // edge rows
                    }
                    input.set_from_double(at, specials[i]);
                }
                const std::string what = std::string(data_type_name(type)) + " " + format_dims(s.in) + " -> " +
                                         format_dims(s.out) + " specials placement " + std::to_string(placement);
                judge_with_variants(type, s, input, what);
            }
    }
}

// FLOAT16 output rounding, bit for bit: x0.5 of adjacent halves h, h + 1 (h's next value away from zero) gives
// their exact midpoint (a tie: round half to even) or the exact quarter point 0.75 h + 0.25 (h + 1), both exact
// in float32, in every binade, both signs, half subnormals and the largest finite half included, so the kernel's
// float32 value is the exact blend and its rounding must give the reference's bits.
TEST(ResampleLinearFast, Float16RoundingMatchesTheReferenceBitForBit) {
    std::string why;
    if (!dmltool::testing::test_gpu_backend(&why)) GTEST_SKIP() << why;
    std::vector<uint16_t> lows;
    for (uint16_t exponent = 0; exponent <= 30; ++exponent)
        for (uint16_t mantissa : {0x000, 0x001, 0x155, 0x2aa, 0x3fe, 0x3ff})
            for (uint16_t sign : {0x0000, 0x8000})
                if (!(exponent == 30 && mantissa == 0x3ff)) lows.push_back(uint16_t(sign | exponent << 10 | mantissa));
    const uint32_t outputs = uint32_t((2 * lows.size() + 7) / 8 * 8);  // a tie and a quarter point per h
    const Shape s = scaled({2, 2 * outputs}, 0.5f);
    HostTensor input(dmltool::testing::random_tensor(DataType::kFloat16, s.in, 1, 0, 0).desc());
    auto set = [&](uint32_t row, uint32_t column, uint16_t bits) {
        std::memcpy(input.bytes().data() + (uint64_t(row) * s.in[1] + column) * 2, &bits, 2);
    };
    for (size_t i = 0; i < lows.size(); ++i) {
        const uint16_t h = lows[i], next = uint16_t(h + 1);
        const uint32_t tie = uint32_t(4 * i), quarter = uint32_t(4 * i + 2);  // input columns of both outputs
        for (uint32_t row = 0; row < 2; ++row) {
            set(row, tie, h);
            set(row, tie + 1, next);
            set(row, quarter, h);
            set(row, quarter + 1, row == 0 ? h : next);
        }
    }
    std::vector<std::string> variants = {""};
    if (device_runs_native_half(&why)) variants.push_back(kNativeHalf);
    const Op& op = resample_op();
    auto desc = dmltool::testing::parse_desc(op, desc_json(DataType::kFloat16, s.in, s.out, s.scales));
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    auto reference = dmltool::testing::run_reference(op, **desc, {&input});
    ASSERT_TRUE(reference.is_ok()) << reference.status().message();
    std::vector<std::vector<HostTensor>> plan_outputs;
    EXPECT_TRUE(judge(DataType::kFloat16, s, input, "FLOAT16 ties and quarter points", variants, &plan_outputs));
    for (size_t v = 0; v < variants.size(); ++v) {
        const std::string name = variants[v].empty() ? "heuristic plan" : variants[v];
        ASSERT_FALSE(plan_outputs[v].empty()) << name << " did not run";
        const auto a = plan_outputs[v][0].bytes(), b = (*reference)[0].bytes();
        for (size_t i = 0; i + 2 <= a.size(); i += 2) {
            uint16_t x, y;
            std::memcpy(&x, &a[i], 2);
            std::memcpy(&y, &b[i], 2);
            if (x != y) {
                ADD_FAILURE() << name << ": output " << i / 2 << " (h = 0x" << std::hex
                              << lows[std::min(i / 4, lows.size() - 1)] << "): got 0x" << x << ", the reference 0x" << y;
                break;
            }
        }
    }
}

// The native-half variant exists for FLOAT16 linear x2 / x0.5 only, and the backend runs it exactly where the
// device's half opcode probe is exact: then its outputs are the heuristic plan's values (the tuner's
// contract) on inputs with ties, half subnormals, overflow to infinity and NaNs; elsewhere it is refused as
// unsupported (the tuner then skips it), never run.
TEST(ResampleLinearFast, NativeHalfFollowsTheProbe) {
    std::string why;
    if (!dmltool::testing::test_gpu_backend(&why)) GTEST_SKIP() << why;
    const Op& op = resample_op();
    for (DataType type : kTypes) {
        const Shape s = scaled({2, 3, 4, 2 * per_vector(type)}, 2.0f);
        auto desc = dmltool::testing::parse_desc(op, desc_json(type, s.in, s.out, s.scales));
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        const auto variants = op.device_plan_variants(**desc, {});
        const bool offered = std::find(variants.begin(), variants.end(), kNativeHalf) != variants.end();
        EXPECT_EQ(offered, type == DataType::kFloat16) << data_type_name(type);
        EXPECT_NE(std::find(variants.begin(), variants.end(), "linear/one_row"), variants.end()) << data_type_name(type);
        const Shape down = scaled({2, 3, 4, 2 * per_vector(type)}, 0.5f);
        auto down_desc = dmltool::testing::parse_desc(op, desc_json(type, down.in, down.out, down.scales));
        ASSERT_TRUE(down_desc.is_ok()) << down_desc.status().message();
        const auto down_variants = op.device_plan_variants(**down_desc, {});
        EXPECT_EQ(std::find(down_variants.begin(), down_variants.end(), "linear/one_row"), down_variants.end());
        if (type != DataType::kFloat16) {
            EXPECT_FALSE(op.plan_device_variant(**desc, {}, kNativeHalf).is_ok());
        }
    }
    // Not offered for nearest or for shapes the dedicated kernels do not take.
    for (const Shape& s : {scaled({2, 3, 4, 9}, 2.0f), Shape{{1, 2, 4, 8}, {1, 2, 8, 8}, {1, 1, 2, 1}}}) {
        auto desc = dmltool::testing::parse_desc(op, desc_json(DataType::kFloat16, s.in, s.out, s.scales));
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        EXPECT_TRUE(op.device_plan_variants(**desc, {}).empty()) << format_dims(s.in);
    }
    const bool exact = device_runs_native_half(&why);
    for (float factor : {2.0f, 0.5f}) {
        const Shape s = scaled({2, 64, 512}, factor);
        auto desc = dmltool::testing::parse_desc(op, desc_json(DataType::kFloat16, s.in, s.out, s.scales));
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        auto plan = op.plan_device_variant(**desc, {}, kNativeHalf);
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        EXPECT_TRUE(plan->requires_capability(DeviceCapability::kExactHalfOpcodes));
        EXPECT_NE(plan->dispatches[0].label.find("native_half"), std::string::npos) << plan->dispatches[0].label;
        // Every half bit pattern once (i * an odd number is a permutation of 0 .. 2^16 - 1), scattered, so the
        // blends hit ties, subnormal halves, the largest finite halves next to infinity and NaNs.
        HostTensor input = dmltool::testing::random_tensor(DataType::kFloat16, s.in, 7, -1, 1);
        ASSERT_EQ(input.element_count(), 65536u);
        for (uint32_t i = 0; i < 65536; ++i) {
            const uint16_t bits = uint16_t(i * 0x9e37u);
            std::memcpy(input.bytes().data() + 2 * uint64_t(i), &bits, 2);
        }
        auto heuristic = run_on_gpu(**desc, input, "");
        ASSERT_TRUE(heuristic.is_ok()) << heuristic.status().message();
        auto native = run_on_gpu(**desc, input, kNativeHalf);
        if (!exact) {
            ASSERT_FALSE(native.is_ok()) << "the device's probe is not exact (" << why << "), yet the plan ran";
            EXPECT_EQ(native.status().code(), ErrorCode::kUnsupported) << native.status().message();
            EXPECT_NE(native.status().message().find("needs exact half opcodes"), std::string::npos);
            continue;
        }
        ASSERT_TRUE(native.is_ok()) << native.status().message();
        EXPECT_EQ(variant_output_difference(*heuristic, *native), "") << "x" << factor;
    }
    std::printf("half opcode probe: %s\n", why.c_str());
}

TEST(ResampleLinearFast, BlobsValidate) {
    for (DataType type : kTypes) {
        const uint32_t v = per_vector(type);
        for (float factor : {2.0f, 0.5f}) {
            const Shape s = scaled({1, 2, 4, 2 * v}, factor);
            auto desc = dmltool::testing::parse_desc(resample_op(), desc_json(type, s.in, s.out, s.scales));
            ASSERT_TRUE(desc.is_ok()) << desc.status().message();
            std::vector<Result<DevicePlan>> plans;
            plans.push_back(resample_op().plan_device(**desc, {}));
            if (type == DataType::kFloat16) plans.push_back(resample_op().plan_device_variant(**desc, {}, kNativeHalf));
            for (const auto& plan : plans) {
                ASSERT_TRUE(plan.is_ok()) << plan.status().message();
                ASSERT_EQ(plan->dispatches.size(), 1u);
                const KernelDispatch& dispatch = plan->dispatches[0];
                const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
                if (!validation.tools_found) GTEST_SKIP() << validation.log;
                EXPECT_TRUE(validation.ok) << dispatch.label << ": " << validation.log;
            }
        }
    }
}

}  // namespace
}  // namespace dmltool::ops::resample
