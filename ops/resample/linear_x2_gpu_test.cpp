// The dedicated linear x2 path (linear_x2.cpp) against the short-weight row kernel it replaces: the same
// data as a rank-4 NCHW tensor (which takes the x2 path) and as rank 3 (N*C, H, W: the row kernel, whose
// canonical dimensions are the same) must give bit-identical outputs, including inf/NaN/-0/subnormal/huge
// inputs; the clean runs are also judged against the CPU reference. Both blobs pass vkd3d-compiler + spirv-val.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/compare.h"
#include "core/op_registry.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
namespace {

const Op& resample_op() {
    static const OpRegistry registry = make_builtin_registry();
    return *registry.find("RESAMPLE");
}

TensorDesc packed(const Dims& sizes) {
    TensorDesc desc;
    desc.data_type = DataType::kFloat32;
    desc.sizes = sizes;
    desc.total_size_in_bytes = *calc_buffer_tensor_size(DataType::kFloat32, sizes, std::nullopt);
    return desc;
}

std::string x2_json(const Dims& in, std::vector<float> scales) {
    Dims out = in;
    out[out.size() - 1] *= 2;
    out[out.size() - 2] *= 2;
    nlohmann::json j = {{"InputTensor", testing::tensor_json(packed(in))},
                        {"OutputTensor", testing::tensor_json(packed(out))},
                        {"InterpolationMode", "LINEAR"},
                        {"Scales", scales}};
    return j.dump();
}

TEST(ResampleLinearX2Gpu, BitIdenticalToRowKernelAndWithinReference) {
    std::string why;
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(&why);
    if (backend == nullptr) GTEST_SKIP() << why;
    const Op& op = resample_op();
    const Dims shapes[] = {{1, 1, 2, 6}, {2, 3, 9, 16}, {1, 2, 5, 10}, {2, 1, 3, 8}, {1, 1, 16, 32}, {3, 2, 7, 12}};
    uint64_t seed = 41000;
    bool validated = false;
    for (const Dims& shape : shapes)
        for (bool specials : {false, true}) {
            ++seed;
            const Dims flat = {shape[0] * shape[1], shape[2], shape[3]};
            auto desc4 = dmltool::testing::parse_desc(op, x2_json(shape, {1, 1, 2, 2}));
            auto desc3 = dmltool::testing::parse_desc(op, x2_json(flat, {1, 2, 2}));
            ASSERT_TRUE(desc4.is_ok() && desc3.is_ok());
            auto plan4 = op.plan_device(**desc4, {});
            auto plan3 = op.plan_device(**desc3, {});
            ASSERT_TRUE(plan4.is_ok() && plan3.is_ok());
            ASSERT_EQ(plan4->dispatches.size(), 2u);
            EXPECT_NE(plan4->dispatches[0].label.find("linear_x2"), std::string::npos) << plan4->dispatches[0].label;
            EXPECT_EQ(plan3->dispatches[0].label.find("linear_x2"), std::string::npos) << plan3->dispatches[0].label;
            if (!validated) {
                validated = true;
                for (const KernelDispatch& dispatch : plan4->dispatches) {
                    const auto validation = shaders::testing::validate_with_vkd3d(*dispatch.dxbc, dispatch.label);
                    if (validation.tools_found) {
                        EXPECT_TRUE(validation.ok) << dispatch.label << ": " << validation.log;
                    }
                }
            }
            HostTensor input4 = dmltool::testing::random_tensor(DataType::kFloat32, shape, seed, -100, 100);
            if (specials) {
                const double values[] = {INFINITY, -INFINITY, NAN, -0.0, 1e-40, -3e38, 3e38, 1e-30};
                const uint64_t n = input4.bytes().size() / 4;
                for (size_t i = 0; i < std::size(values); ++i) input4.set_from_double((i * 7919 + seed) % n, values[i]);
            }
            HostTensor input3(packed(flat));
            std::memcpy(input3.bytes().data(), input4.bytes().data(), input4.bytes().size());
            auto got4 = backend->execute(op, **desc4, {&input4}, nullptr);
            auto got3 = backend->execute(op, **desc3, {&input3}, nullptr);
            ASSERT_TRUE(got4.is_ok()) << got4.status().message();
            ASSERT_TRUE(got3.is_ok()) << got3.status().message();
            const auto& a = (*got4)[0].bytes();
            const auto& b = (*got3)[0].bytes();
            ASSERT_EQ(a.size(), b.size());
            for (size_t i = 0; i + 4 <= a.size(); i += 4) {
                uint32_t x, y;
                std::memcpy(&x, &a[i], 4);
                std::memcpy(&y, &b[i], 4);
                // IEEE 754 leaves the sign and payload of a NaN an operation creates (inf - inf) unspecified, and
                // drivers differ (x86's default NaN is negative, LLVM's folded one positive): NaN matches NaN.
                const auto is_nan = [](uint32_t bits) {
                    return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0;
                };
                if (x != y && !(is_nan(x) && is_nan(y))) {
                    ADD_FAILURE() << "shape " << format_dims(shape) << (specials ? " (specials)" : "") << ": output "
                                  << i / 4 << " x2 path 0x" << std::hex << x << ", row kernel 0x" << y;
                    break;
                }
            }
            if (specials) continue;
            auto reference = dmltool::testing::run_reference(op, **desc4, {&input4});
            ASSERT_TRUE(reference.is_ok()) << reference.status().message();
            const CompareResult judged = compare_tensors((*reference)[0], (*got4)[0], op.default_tolerance(**desc4, 0));
            EXPECT_EQ(judged.verdict, Verdict::kPassed) << format_dims(shape) << ": " << judged.reason;
        }
}

}  // namespace
}  // namespace dmltool::ops::resample
