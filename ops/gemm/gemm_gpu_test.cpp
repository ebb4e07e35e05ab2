// GEMM on the GPU backend (lavapipe in CI) against the CPU reference's error bound: both types, 2 to 4 dimensions,
// every TransA/TransB combination, C absent / full / broadcast, Alpha and Beta other than 1, padded and permuted
// layouts, and a K long enough that summation order matters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "ops/gemm/gemm.h"
#include "ops/split/layout_test_support.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::gemm {
namespace {

using namespace dmltool::testing::layouts;
using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;

const Op& gemm_op() { return dmltool::testing::builtin_op("GEMM"); }

// Random logical values in [-4, 4] carried by a tensor of `desc` (the backend lays them out with its strides).
// Elements that share a buffer location (stride 0) share their value, as a real buffer would.
HostTensor random_input(const TensorDesc& desc, uint64_t seed) {
    const HostTensor values = dmltool::testing::random_tensor(desc.data_type, desc.sizes, seed, -4, 4);
    HostTensor t(desc);
    const Dims strides = desc.effective_strides();
    std::vector<uint32_t> coordinates(desc.sizes.size());
    for (uint64_t e = 0; e < t.element_count(); ++e) {
        unravel_index(e, desc.sizes, coordinates.data());
        // The element that owns this buffer location: the same coordinates with each stride-0 dimension at 0.
        uint64_t first = 0;
        for (size_t d = 0; d < coordinates.size(); ++d)
            first = first * desc.sizes[d] + (strides[d] == 0 ? 0 : coordinates[d]);
        std::memcpy(t.element_ptr(e), values.element_ptr(first), t.element_bytes());
    }
    return t;
}

TEST(GemmGpu, RandomShapesTransformsAndLayouts) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 7000;
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        for (uint32_t rank = 2; rank <= 4; ++rank) {
            for (int variant = 0; variant < 8; ++variant, ++seed) {
                std::mt19937 rng{uint32_t(seed)};
                const bool ta = variant & 1, tb = variant & 2;
                const uint32_t m = 1 + rng() % 9, n = 1 + rng() % 9, k = variant == 7 ? 300 : 1 + rng() % 20;
                Dims batch;
                for (uint32_t i = 0; i + 2 < rank; ++i) batch.push_back(1 + rng() % 3);
                const auto with = [&](uint32_t r, uint32_t c) {
                    Dims d = batch;
                    d.push_back(r);
                    d.push_back(c);
                    return d;
                };
                const Layout layout = variant >= 4 ? (rng() % 2 ? Layout::kPadded : Layout::kPermuted) : Layout::kPacked;
                const TensorDesc a = make_desc(type, ta ? with(k, m) : with(m, k), make_strides(ta ? with(k, m) : with(m, k), layout, rng), TensorRole::kInput);
                const TensorDesc b = make_desc(type, tb ? with(n, k) : with(k, n), make_strides(tb ? with(n, k) : with(k, n), layout, rng), TensorRole::kInput);
                // C: packed, or broadcast along the rows or the columns with a stride of 0.
                const Dims c_sizes = with(m, n);
                std::optional<Dims> c_strides;
                if (variant % 3 != 0) {
                    c_strides = packed_strides(c_sizes);
                    (*c_strides)[rank - (variant % 3 == 1 ? 2 : 1)] = 0;
                }
                const TensorDesc c = make_desc(type, c_sizes, c_strides, TensorRole::kInput);
                const TensorDesc out = make_desc(type, with(m, n), make_strides(with(m, n), layout == Layout::kPermuted ? Layout::kPadded : layout, rng), TensorRole::kOutput);
                const bool has_c = variant != 5;
                json desc = {{"ATensor", dmltool::testing::tensor_json(a)},
                             {"BTensor", dmltool::testing::tensor_json(b)},
                             {"OutputTensor", dmltool::testing::tensor_json(out)},
                             {"TransA", ta ? "TRANSPOSE" : "NONE"},
                             {"TransB", tb ? "TRANSPOSE" : "NONE"},
                             {"Alpha", variant % 2 ? 1.0 : -0.75},
                             {"Beta", variant % 4 == 2 ? 1.0 : 2.5}};
                DifferentialCase d;
                d.inputs.push_back(random_input(a, seed * 3));
                d.inputs.push_back(random_input(b, seed * 3 + 1));
                if (has_c) {
                    desc["CTensor"] = dmltool::testing::tensor_json(c);
                    d.inputs.push_back(random_input(c, seed * 3 + 2));
                } else {
                    d.inputs.emplace_back();
                }
                d.name = "gemm_gpu/" + std::string(data_type_name(type)) + "/rank" + std::to_string(rank) + "/v" +
                         std::to_string(variant);
                d.op_type = "DML_OPERATOR_GEMM";
                d.desc_json = desc.dump();
                d.seed = seed;
                const auto result = run_differential(gemm_op(), d);
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// The split-K kernel (matrix-vector shapes): K odd, K not a multiple of the 256 or 32 slices, K below them, N not a
// multiple of the 8-column block, every TransA/TransB (so both the K-contiguous and the N-contiguous geometry), C
// absent / full / broadcast along rows or columns, batches, float16, Alpha and Beta other than 1. `forced`: shapes
// the planner would give the other kernel (K under 64), run through split-K to reach K < slices.
struct SplitKShape {
    Dims batch;
    uint32_t m, n, k;
    bool ta, tb;
    int c;  // 0 absent, 1 full, 2 broadcast along the rows (row stride 0), 3 along the columns
    DataType type;
    bool forced;
};

void run_split_k(const SplitKShape& s, uint64_t seed) {
    set_gemm_path_for_testing(s.forced ? GemmPath::kSplitK : GemmPath::kAuto);
    const auto with = [&](uint32_t r, uint32_t c) {
        Dims d = s.batch;
        d.push_back(r);
        d.push_back(c);
        return d;
    };
    const TensorDesc a = make_desc(s.type, s.ta ? with(s.k, s.m) : with(s.m, s.k), std::nullopt, TensorRole::kInput);
    const TensorDesc b = make_desc(s.type, s.tb ? with(s.n, s.k) : with(s.k, s.n), std::nullopt, TensorRole::kInput);
    const Dims c_sizes = with(s.m, s.n);
    std::optional<Dims> c_strides;
    if (s.c >= 2) {
        c_strides = packed_strides(c_sizes);
        (*c_strides)[c_sizes.size() - (s.c == 2 ? 2 : 1)] = 0;
    }
    const TensorDesc c = make_desc(s.type, c_sizes, c_strides, TensorRole::kInput);
    const TensorDesc out = make_desc(s.type, with(s.m, s.n), std::nullopt, TensorRole::kOutput);
    json desc = {{"ATensor", dmltool::testing::tensor_json(a)},
                 {"BTensor", dmltool::testing::tensor_json(b)},
                 {"OutputTensor", dmltool::testing::tensor_json(out)},
                 {"TransA", s.ta ? "TRANSPOSE" : "NONE"},
                 {"TransB", s.tb ? "TRANSPOSE" : "NONE"},
                 {"Alpha", seed % 2 ? 1.0 : -0.75},
                 {"Beta", seed % 3 ? 1.0 : 2.5}};
    DifferentialCase d;
    d.inputs.push_back(random_input(a, seed * 3));
    d.inputs.push_back(random_input(b, seed * 3 + 1));
    if (s.c) {
        desc["CTensor"] = dmltool::testing::tensor_json(c);
        d.inputs.push_back(random_input(c, seed * 3 + 2));
    } else {
        d.inputs.emplace_back();
    }
    const std::string name = "gemm_gpu_splitk/m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" +
                             std::to_string(s.k) + (s.ta ? "/ta" : "") + (s.tb ? "/tb" : "") + "/c" +
                             std::to_string(s.c) + "/" + std::string(data_type_name(s.type));
    // The shape must reach the split-K kernel, or the test would check the other one.
    auto parsed = dmltool::testing::parse_desc(gemm_op(), desc.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    auto plan = gemm_op().plan_device(**parsed, {});
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_NE(plan->dispatches[0].label.find("/splitk"), std::string::npos) << name << ": " << plan->dispatches[0].label;
    d.name = name;
    d.op_type = "DML_OPERATOR_GEMM";
    d.desc_json = desc.dump();
    d.seed = seed;
    const auto result = run_differential(gemm_op(), d);
    EXPECT_TRUE(result.passed) << name << ": " << result.message;
    set_gemm_path_for_testing(GemmPath::kAuto);
}

TEST(GemmGpuSplitK, MatrixVectorShapes) {
    SKIP_WITHOUT_GPU();
    const DataType f32 = DataType::kFloat32, f16 = DataType::kFloat16;
    const SplitKShape shapes[] = {
        {{1, 1}, 1, 1000, 2048, false, true, 1, f32, false},  // ResNet-50 fc1000
        {{1, 1}, 1, 1003, 1281, false, false, 3, f32, false},
        {{}, 3, 13, 300, true, true, 2, f32, false},
        {{}, 2, 9, 77, true, false, 3, f32, false},
        {{2, 3}, 2, 11, 129, false, false, 0, f32, false},
        {{3}, 1, 21, 513, true, false, 1, f32, false},
        {{1, 2}, 1, 5, 1000, false, true, 1, f16, false},
        {{}, 2, 19, 333, false, false, 2, f16, false},
        {{}, 4, 19, 5, false, false, 1, f32, true},
        {{}, 3, 17, 20, false, true, 3, f32, true},
        {{}, 1, 1, 1, true, true, 1, f32, true},
    };
    uint64_t seed = 7500;
    for (const SplitKShape& s : shapes) run_split_k(s, seed++);
}

// Every kernel variant (type x C present) through vkd3d-compiler + spirv-val.
TEST(GemmBlobs, EveryVariantValidates) {
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        for (bool has_c : {false, true}) {
            json desc = {{"ATensor", dmltool::testing::tensor_json(type, {2, 3})},
                         {"BTensor", dmltool::testing::tensor_json(type, {3, 2})},
                         {"OutputTensor", dmltool::testing::tensor_json(type, {2, 2})},
                         {"TransA", "NONE"}, {"TransB", "NONE"}, {"Alpha", 1.0}, {"Beta", 1.0}};
            if (has_c) desc["CTensor"] = dmltool::testing::tensor_json(type, {2, 2});
            auto parsed = dmltool::testing::parse_desc(gemm_op(), desc.dump());
            ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
            auto plan = gemm_op().plan_device(**parsed, {});
            ASSERT_TRUE(plan.is_ok()) << plan.status().message();
            for (const KernelDispatch& dispatch : plan->dispatches) {
                const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
                if (!validation.tools_found) GTEST_SKIP() << validation.log;
                EXPECT_TRUE(validation.ok) << dispatch.label << ": " << validation.log;
            }
        }
    }
}

// The split-K kernels (K-contiguous and 8-column geometry, float32/float16, C or not) through vkd3d + spirv-val.
TEST(GemmBlobs, EverySplitKVariantValidates) {
    set_gemm_path_for_testing(GemmPath::kSplitK);
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        for (bool tb : {false, true}) {
            for (bool has_c : {false, true}) {
                json desc = {{"ATensor", dmltool::testing::tensor_json(type, {2, 3})},
                             {"BTensor", dmltool::testing::tensor_json(type, tb ? Dims{9, 3} : Dims{3, 9})},
                             {"OutputTensor", dmltool::testing::tensor_json(type, {2, 9})},
                             {"TransA", "NONE"}, {"TransB", tb ? "TRANSPOSE" : "NONE"}, {"Alpha", 1.0}, {"Beta", 1.0}};
                if (has_c) desc["CTensor"] = dmltool::testing::tensor_json(type, {2, 9});
                auto parsed = dmltool::testing::parse_desc(gemm_op(), desc.dump());
                ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
                auto plan = gemm_op().plan_device(**parsed, {});
                ASSERT_TRUE(plan.is_ok()) << plan.status().message();
                const KernelDispatch& dispatch = plan->dispatches[0];
                EXPECT_NE(dispatch.label.find(tb ? "/splitk1" : "/splitk8"), std::string::npos) << dispatch.label;
                const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
                if (!validation.tools_found) {
                    set_gemm_path_for_testing(GemmPath::kAuto);
                    GTEST_SKIP() << validation.log;
                }
                EXPECT_TRUE(validation.ok) << dispatch.label << ": " << validation.log;
            }
        }
    }
    set_gemm_path_for_testing(GemmPath::kAuto);
}

}  // namespace
}  // namespace dmltool::ops::gemm
