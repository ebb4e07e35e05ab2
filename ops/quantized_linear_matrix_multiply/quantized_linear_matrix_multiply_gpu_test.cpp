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
