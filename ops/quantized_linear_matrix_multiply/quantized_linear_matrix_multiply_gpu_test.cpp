// QUANTIZED_LINEAR_MATRIX_MULTIPLY on the GPU backend (lavapipe in CI) against the CPU reference: every
// INT8/UINT8 combination of A, B and Output, 2 to 4 dimensions, per-tensor / per-row / per-column quantization,
// zero points present and absent, padded layouts, output scales that saturate some outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "ops/quantized_linear_matrix_multiply/qlmm.h"
#include "ops/split/layout_test_support.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {
namespace {

using namespace dmltool::testing::layouts;
using dmltool::testing::DifferentialCase;
using dmltool::testing::run_differential;
using nlohmann::json;

HostTensor random_input(const TensorDesc& desc, uint64_t seed, double lo, double hi) {
    const HostTensor values = dmltool::testing::random_tensor(desc.data_type, desc.sizes, seed, lo, hi);
    HostTensor t(desc);
    std::copy(values.bytes().begin(), values.bytes().end(), t.bytes().begin());
    return t;
}

TEST(QlmmGpu, TypesRanksAndQuantizationGranularity) {
    SKIP_WITHOUT_GPU();
    const Op& op = dmltool::testing::builtin_op("QUANTIZED_LINEAR_MATRIX_MULTIPLY");
    const DataType types[] = {DataType::kUint8, DataType::kInt8};
    uint64_t seed = 9000;
    for (int combo = 0; combo < 8; ++combo) {
        for (uint32_t rank = 2; rank <= 4; ++rank, ++seed) {
            std::mt19937 rng{uint32_t(seed)};
            const DataType at = types[combo & 1], bt = types[(combo >> 1) & 1], yt = types[(combo >> 2) & 1];
            const uint32_t m = 1 + rng() % 9, n = 1 + rng() % 9, k = 1 + rng() % (combo == 7 ? 600 : 40);
            Dims batch;
            for (uint32_t i = 0; i + 2 < rank; ++i) batch.push_back(1 + rng() % 3);
            const auto with = [&](uint32_t r, uint32_t c) {
                Dims d = batch;
                d.push_back(r);
                d.push_back(c);
                return d;
            };
            const Layout layout = seed % 2 ? Layout::kPadded : Layout::kPacked;
            const TensorDesc a = make_desc(at, with(m, k), make_strides(with(m, k), layout, rng), TensorRole::kInput);
            const TensorDesc b = make_desc(bt, with(k, n), make_strides(with(k, n), layout, rng), TensorRole::kInput);
            const TensorDesc y = make_desc(yt, with(m, n), make_strides(with(m, n), layout, rng), TensorRole::kOutput);
            const bool rows = combo % 3 != 0, columns = combo % 2 == 0, zero_points = combo != 5;
            Dims row_shape(rank, 1), column_shape(rank, 1), one(rank, 1);
            row_shape[rank - 2] = m;
            column_shape[rank - 1] = n;
            const Dims as = rows ? row_shape : one, bs = columns ? column_shape : one, ys = rows ? row_shape : one;
            const double output_scale = 0.02 * 0.02 * std::sqrt(double(k)) * 74 * 74 / 60;
            json desc = {{"ATensor", dmltool::testing::tensor_json(a)},
                         {"AScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, as)},
                         {"BTensor", dmltool::testing::tensor_json(b)},
                         {"BScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, bs)},
                         {"OutputScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, ys)},
                         {"OutputTensor", dmltool::testing::tensor_json(y)}};
            DifferentialCase d;
            const auto packed = [](DataType t, const Dims& s) { return dmltool::testing::packed_desc(t, s); };
            const auto zero_point = [&](DataType t, const Dims& s, uint64_t sd) {
                const bool is_signed = t == DataType::kInt8;
                return random_input(packed(t, s), sd, is_signed ? -60 : 70, is_signed ? 60 : 190);
            };
            d.inputs.push_back(random_input(a, seed * 11, -128, 255));
            d.inputs.push_back(random_input(packed(DataType::kFloat32, as), seed * 11 + 1, 0.01, 0.03));
            d.inputs.push_back(zero_points ? zero_point(at, as, seed * 11 + 2) : HostTensor());
            d.inputs.push_back(random_input(b, seed * 11 + 3, -128, 255));
            d.inputs.push_back(random_input(packed(DataType::kFloat32, bs), seed * 11 + 4, 0.01, 0.03));
            d.inputs.push_back(zero_points ? zero_point(bt, bs, seed * 11 + 5) : HostTensor());
            d.inputs.push_back(random_input(packed(DataType::kFloat32, ys), seed * 11 + 6, output_scale * 0.5, output_scale * 2));
            d.inputs.push_back(zero_points ? zero_point(yt, ys, seed * 11 + 7) : HostTensor());
            if (zero_points) {
                desc["AZeroPointTensor"] = dmltool::testing::tensor_json(at, as);
                desc["BZeroPointTensor"] = dmltool::testing::tensor_json(bt, bs);
                desc["OutputZeroPointTensor"] = dmltool::testing::tensor_json(yt, ys);
            }
            d.name = "qlmm_gpu/combo" + std::to_string(combo) + "/rank" + std::to_string(rank);
            d.op_type = "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY";
            d.desc_json = desc.dump();
            d.seed = seed;
            const auto result = run_differential(op, d);
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

// The split-K kernel (matrix-vector shapes) against the reference and, bit for bit, against the one-thread-per-output
// kernel on the same inputs: K odd, not a multiple of the 256 or 32 slices, below them; N not a multiple of the
// 8-column block; B column-major (K contiguous: the 1-column geometry) or row-major (8 columns); batches; every
// signedness; per-tensor, per-row and per-column quantization; zero points absent. `forced`: K under the planner's
// threshold, run through split-K to reach K < slices.
struct SplitKShape {
    Dims batch;
    uint32_t m, n, k;
    bool b_column_major;
    DataType at, bt, yt;
    int quantization;  // 0 per tensor, 1 per row (A and output scales/zero points), 2 per column (B's)
    bool zero_points, forced;
};

void run_split_k(const SplitKShape& s, uint64_t seed) {
    const Op& op = dmltool::testing::builtin_op("QUANTIZED_LINEAR_MATRIX_MULTIPLY");
    const auto with = [&](uint32_t r, uint32_t c) {
        Dims d = s.batch;
        d.push_back(r);
        d.push_back(c);
        return d;
    };
    const uint32_t rank = uint32_t(s.batch.size()) + 2;
    const TensorDesc a = make_desc(s.at, with(s.m, s.k), std::nullopt, TensorRole::kInput);
    std::optional<Dims> b_strides;
    if (s.b_column_major) {
        b_strides = packed_strides(with(s.k, s.n));
        (*b_strides)[rank - 2] = 1;
        (*b_strides)[rank - 1] = s.k;
    }
    const TensorDesc b = make_desc(s.bt, with(s.k, s.n), b_strides, TensorRole::kInput);
    const TensorDesc y = make_desc(s.yt, with(s.m, s.n), std::nullopt, TensorRole::kOutput);
    Dims row_shape(rank, 1), column_shape(rank, 1), one(rank, 1);
    row_shape[rank - 2] = s.m;
    column_shape[rank - 1] = s.n;
    const Dims as = s.quantization == 1 ? row_shape : one, bs = s.quantization == 2 ? column_shape : one;
    const Dims ys = as;
    const double output_scale = 0.02 * 0.02 * std::sqrt(double(s.k)) * 74 * 74 / 60;
    json desc = {{"ATensor", dmltool::testing::tensor_json(a)},
                 {"AScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, as)},
                 {"BTensor", dmltool::testing::tensor_json(b)},
                 {"BScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, bs)},
                 {"OutputScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, ys)},
                 {"OutputTensor", dmltool::testing::tensor_json(y)}};
    DifferentialCase d;
    const auto packed = [](DataType t, const Dims& sz) { return dmltool::testing::packed_desc(t, sz); };
    const auto zero_point = [&](DataType t, const Dims& sz, uint64_t sd) {
        const bool is_signed = t == DataType::kInt8;
        return random_input(packed(t, sz), sd, is_signed ? -60 : 70, is_signed ? 60 : 190);
    };
    d.inputs.push_back(random_input(a, seed * 11, -128, 255));
    d.inputs.push_back(random_input(packed(DataType::kFloat32, as), seed * 11 + 1, 0.01, 0.03));
    d.inputs.push_back(s.zero_points ? zero_point(s.at, as, seed * 11 + 2) : HostTensor());
    d.inputs.push_back(random_input(b, seed * 11 + 3, -128, 255));
    d.inputs.push_back(random_input(packed(DataType::kFloat32, bs), seed * 11 + 4, 0.01, 0.03));
    d.inputs.push_back(s.zero_points ? zero_point(s.bt, bs, seed * 11 + 5) : HostTensor());
    d.inputs.push_back(random_input(packed(DataType::kFloat32, ys), seed * 11 + 6, output_scale * 0.5, output_scale * 2));
    d.inputs.push_back(s.zero_points ? zero_point(s.yt, ys, seed * 11 + 7) : HostTensor());
    if (s.zero_points) {
        desc["AZeroPointTensor"] = dmltool::testing::tensor_json(s.at, as);
        desc["BZeroPointTensor"] = dmltool::testing::tensor_json(s.bt, bs);
        desc["OutputZeroPointTensor"] = dmltool::testing::tensor_json(s.yt, ys);
    }
    const std::string name = "qlmm_gpu_splitk/m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" +
                             std::to_string(s.k) + (s.b_column_major ? "/bcol" : "") + "/" +
                             std::string(data_type_name(s.at)) + "x" + std::string(data_type_name(s.bt)) + "->" +
                             std::string(data_type_name(s.yt)) + "/q" + std::to_string(s.quantization);
    auto parsed = dmltool::testing::parse_desc(op, desc.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    std::vector<const HostTensor*> inputs;
    for (const HostTensor& t : d.inputs) inputs.push_back(t.element_count() ? &t : nullptr);
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    ASSERT_NE(backend, nullptr);
    // Both kernels on the same inputs: the split-K one must give the other's bytes.
    std::vector<HostTensor> outputs[2];
    for (int path = 0; path < 2; ++path) {
        set_qlmm_path_for_testing(path == 0 ? QlmmPath::kDirect : QlmmPath::kSplitK);
        auto plan = op.plan_device(**parsed, {});
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        EXPECT_EQ(plan->dispatches[0].label.find("/splitk") != std::string::npos, path == 1)
            << name << ": " << plan->dispatches[0].label;
        auto got = backend->execute(op, **parsed, inputs, nullptr);
        ASSERT_TRUE(got.is_ok()) << name << ": " << got.status().message();
        outputs[path] = std::move(*got);
    }
    ASSERT_EQ(outputs[0].size(), 1u);
    ASSERT_EQ(outputs[1].size(), 1u);
    EXPECT_TRUE(std::equal(outputs[0][0].bytes().begin(), outputs[0][0].bytes().end(), outputs[1][0].bytes().begin(),
                           outputs[1][0].bytes().end()))
        << name << ": the split-K kernel's bytes differ from the one-thread-per-output kernel's";
    // And against the reference, through the planner's own choice (which must be split-K unless forced).
    set_qlmm_path_for_testing(s.forced ? QlmmPath::kSplitK : QlmmPath::kAuto);
    auto plan = op.plan_device(**parsed, {});
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_NE(plan->dispatches[0].label.find("/splitk"), std::string::npos) << name << ": " << plan->dispatches[0].label;
    d.name = name;
    d.op_type = "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY";
    d.desc_json = desc.dump();
    d.seed = seed;
    const auto result = run_differential(op, d);
    EXPECT_TRUE(result.passed) << name << ": " << result.message;
    set_qlmm_path_for_testing(QlmmPath::kAuto);
}

TEST(QlmmGpuSplitK, MatrixVectorShapesMatchTheOtherKernel) {
    SKIP_WITHOUT_GPU();
    const DataType u8 = DataType::kUint8, i8 = DataType::kInt8;
    const SplitKShape shapes[] = {
        {{1, 1}, 1, 1000, 1280, false, u8, i8, u8, 0, true, false},  // MobileNetV2's classifier
        {{1, 1}, 1, 1003, 1281, true, u8, i8, u8, 0, true, false},
        {{}, 3, 13, 300, false, i8, u8, i8, 1, true, false},
        {{}, 2, 9, 77, true, i8, i8, u8, 2, true, false},
        // Without zero points only zero-centred operands keep the outputs off saturation (which would hide errors).
        {{2, 3}, 2, 11, 129, false, i8, i8, i8, 1, false, false},
        {{}, 2, 30, 200, false, u8, u8, u8, 2, true, false},
        {{3}, 1, 21, 513, true, i8, i8, i8, 2, true, false},
        {{}, 4, 19, 5, false, u8, i8, u8, 1, true, true},
        {{}, 3, 17, 20, true, i8, u8, u8, 2, true, true},
        {{}, 1, 1, 1, false, u8, u8, u8, 0, true, true},
    };
    uint64_t seed = 9500;
    for (const SplitKShape& s : shapes) run_split_k(s, seed++);
}

// The split-K kernels (both geometries, every signedness, zero points all present or all absent) through vkd3d +
// spirv-val.
TEST(QlmmBlobs, EverySplitKVariantValidates) {
    const Op& op = dmltool::testing::builtin_op("QUANTIZED_LINEAR_MATRIX_MULTIPLY");
    const DataType types[] = {DataType::kUint8, DataType::kInt8};
    const Dims one{1, 1, 1, 1};
    set_qlmm_path_for_testing(QlmmPath::kSplitK);
    for (int variant = 0; variant < 32; ++variant) {
        const DataType at = types[variant & 1], bt = types[(variant >> 1) & 1], yt = types[(variant >> 2) & 1];
        const bool zero_points = variant & 8, column_major = variant & 16;
        json b_json = dmltool::testing::tensor_json(bt, {1, 1, 3, 9});
        if (column_major) b_json["Strides"] = {27, 27, 1, 3};
        json desc = {{"ATensor", dmltool::testing::tensor_json(at, {1, 1, 2, 3})},
                     {"AScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, one)},
                     {"BTensor", b_json},
                     {"BScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, one)},
                     {"OutputScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, one)},
                     {"OutputTensor", dmltool::testing::tensor_json(yt, {1, 1, 2, 9})}};
        if (zero_points) {
            desc["AZeroPointTensor"] = dmltool::testing::tensor_json(at, one);
            desc["BZeroPointTensor"] = dmltool::testing::tensor_json(bt, one);
            desc["OutputZeroPointTensor"] = dmltool::testing::tensor_json(yt, one);
        }
        auto parsed = dmltool::testing::parse_desc(op, desc.dump());
        ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
        auto plan = op.plan_device(**parsed, {});
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        const KernelDispatch& dispatch = plan->dispatches[0];
        EXPECT_NE(dispatch.label.find(column_major ? "/splitk1" : "/splitk8"), std::string::npos) << dispatch.label;
        const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
        if (!validation.tools_found) {
            set_qlmm_path_for_testing(QlmmPath::kAuto);
            GTEST_SKIP() << validation.log;
        }
        EXPECT_TRUE(validation.ok) << dispatch.label << " variant " << variant << ": " << validation.log;
    }
    set_qlmm_path_for_testing(QlmmPath::kAuto);
}

// Every kernel variant (signedness of A, B, Output x each zero point present or not) through vkd3d-compiler +
// spirv-val.
TEST(QlmmBlobs, EveryVariantValidates) {
    const Op& op = dmltool::testing::builtin_op("QUANTIZED_LINEAR_MATRIX_MULTIPLY");
    const DataType types[] = {DataType::kUint8, DataType::kInt8};
    const Dims one{1, 1, 1, 1};
    for (int variant = 0; variant < 64; ++variant) {
        const DataType at = types[variant & 1], bt = types[(variant >> 1) & 1], yt = types[(variant >> 2) & 1];
        json desc = {{"ATensor", dmltool::testing::tensor_json(at, {1, 1, 2, 3})},
                     {"AScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, one)},
                     {"BTensor", dmltool::testing::tensor_json(bt, {1, 1, 3, 2})},
                     {"BScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, one)},
                     {"OutputScaleTensor", dmltool::testing::tensor_json(DataType::kFloat32, one)},
                     {"OutputTensor", dmltool::testing::tensor_json(yt, {1, 1, 2, 2})}};
        if (variant & 8) desc["AZeroPointTensor"] = dmltool::testing::tensor_json(at, one);
        if (variant & 16) desc["BZeroPointTensor"] = dmltool::testing::tensor_json(bt, one);
        if (variant & 32) desc["OutputZeroPointTensor"] = dmltool::testing::tensor_json(yt, one);
        auto parsed = dmltool::testing::parse_desc(op, desc.dump());
        ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
        auto plan = op.plan_device(**parsed, {});
        ASSERT_TRUE(plan.is_ok()) << plan.status().message();
        for (const KernelDispatch& dispatch : plan->dispatches) {
            const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
            if (!validation.tools_found) GTEST_SKIP() << validation.log;
            EXPECT_TRUE(validation.ok) << dispatch.label << " variant " << variant << ": " << validation.log;
        }
    }
}

}  // namespace
}  // namespace dmltool::ops::quantized_linear_matrix_multiply
