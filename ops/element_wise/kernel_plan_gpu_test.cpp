// plan_element_wise (kernel_plan.cpp): ElementWiseDescs of hand-written rows run on the GPU backend (lavapipe in
// CI) against expectations computed here: scalar-union attributes in an integer domain (CLIP1 on INT8), absent
// optional zero points (QUANTIZED_LINEAR_ADD), a fused activation with its own attribute on FLOAT16 (ADD1 +
// LEAKY_RELU), the body id of each row's name, and reductions over axes routed to their own kernel.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string_view>
#include <vector>

#include "ops/element_wise/desc.h"
#include "ops/element_wise/function_math.h"
#include "ops/element_wise/kernel.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise {
namespace {

class DescOp final : public Op {
public:
    std::string_view name() const override { return "ELEMENT_WISE_DESC_TEST"; }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader&) const override { return unsupported("test op"); }
    std::vector<TensorSlot> tensors(const OpDesc& desc) const override {
        const auto& d = static_cast<const ElementWiseDesc&>(desc);
        std::vector<TensorSlot> slots;
        for (size_t i = 0; i < d.inputs.size(); ++i)
            slots.push_back({"Input" + std::to_string(i), "InputTensor", TensorRole::kInput, d.inputs[i] ? &*d.inputs[i] : nullptr});
        slots.push_back({"OutputTensor", "OutputTensor", TensorRole::kOutput, &d.output});
        return slots;
    }
    const FeatureLevelTable& feature_levels() const override { return table_; }
    Status run_reference(const OpDesc&, std::span<const HostTensor* const>, std::span<HostTensor* const>,
                         const ReferenceContext&) const override {
        return unsupported("test op");
    }
    Tolerance default_tolerance(const OpDesc&, size_t) const override { return {}; }
    WorkEstimate work(const OpDesc&) const override { return {}; }
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions& semantics) const override {
        return plan_element_wise(static_cast<const ElementWiseDesc&>(desc), semantics);
    }

private:
    FeatureLevelTable table_;
};

TensorDesc tensor(DataType type, const Dims& sizes, std::optional<Dims> strides = std::nullopt) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = sizes;
    desc.strides = std::move(strides);
    EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
    return desc;
}

HostTensor values(const TensorDesc& desc, uint64_t seed, double lo, double hi) {
    HostTensor logical = testing::random_tensor(desc.data_type, desc.sizes, seed, lo, hi);
    return from_physical(desc, to_physical(logical));  // broadcast elements hold what the device reads
}

Result<std::vector<HostTensor>> run(const ElementWiseDesc& desc, const std::vector<HostTensor>& inputs) {
    static DescOp op;
    std::vector<const HostTensor*> pointers;
    for (const HostTensor& t : inputs) pointers.push_back(t.element_count() ? &t : nullptr);
    return testing::test_gpu_backend(nullptr)->execute(op, desc, pointers, nullptr);
}

MemberSpec member(MemberKind kind, std::string_view name, bool optional = false) { return {kind, name, optional}; }

TEST(ElementWisePlan, BodyIdsFromRowNames) {
    FunctionSpec row;
    row.name = "ELEMENT_WISE_CLIP1";
    EXPECT_EQ(kernel_body_id(row), "clip");
    row.name = "ACTIVATION_LEAKY_RELU";
    EXPECT_EQ(kernel_body_id(row), "leaky_relu");
    row.name = "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL";
    EXPECT_EQ(kernel_body_id(row), "logical_greater_than_or_equal");
    row.kernel_body = "ADD";
    EXPECT_EQ(kernel_body_id(row), "add");
}

TEST(ElementWisePlan, Clip1ScalarUnionsOnInt8) {
    SKIP_WITHOUT_GPU();
    FunctionSpec row;
    row.name = "ELEMENT_WISE_CLIP1";
    row.members = {member(MemberKind::kInputTensor, "InputTensor"), member(MemberKind::kOutputTensor, "OutputTensor"),
                   member(MemberKind::kScaleBias, "ScaleBias", true), member(MemberKind::kDataType, "MinMaxDataType"),
                   member(MemberKind::kScalarUnion, "Min"), member(MemberKind::kScalarUnion, "Max")};
    ElementWiseDesc desc;
    desc.function = &row;
    const Dims sizes = {2, 3, 5, 8};
    desc.inputs = {tensor(DataType::kInt8, sizes)};
    desc.output = tensor(DataType::kInt8, sizes);
    auto scalar = [](int8_t v) {
        ScalarUnion s;
        s.type = DataType::kInt8;
        std::memcpy(s.bytes.data(), &v, 1);
        return s;
    };
    AttributeValue type, min, max;
    type.member = &row.members[3];
    min.member = &row.members[4];
    max.member = &row.members[5];
    type.data_type = DataType::kInt8;
    min.scalar = scalar(-7);
    max.scalar = scalar(12);
    desc.attributes = {type, min, max};
    const HostTensor input = values(*desc.inputs[0], 3, -128, 127);
    auto outputs = run(desc, {input});
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    for (uint64_t e = 0; e < input.element_count(); ++e)
        ASSERT_EQ((*outputs)[0].get<int8_t>(e), std::clamp<int>(input.get<int8_t>(e), -7, 12)) << "element " << e;
}

TEST(ElementWisePlan, QuantizedLinearAddWithoutZeroPoints) {
    SKIP_WITHOUT_GPU();
    FunctionSpec row;
    row.name = "ELEMENT_WISE_QUANTIZED_LINEAR_ADD";
    ElementWiseDesc desc;
    desc.function = &row;
    const Dims sizes = {1, 4, 6, 8};
    const Dims scalar_strides = {0, 0, 0, 0};
    desc.inputs = {tensor(DataType::kUint8, sizes), tensor(DataType::kFloat32, sizes, scalar_strides), std::nullopt,
                   tensor(DataType::kUint8, sizes, Dims{0, 8, 0, 1}), tensor(DataType::kFloat32, sizes, scalar_strides),
                   std::nullopt, tensor(DataType::kFloat32, sizes, scalar_strides), std::nullopt};
    desc.output = tensor(DataType::kUint8, sizes);
    std::vector<HostTensor> inputs;
    const double ranges[][2] = {{0, 255}, {0.01, 0.1}, {0, 0}, {0, 255}, {0.01, 0.1}, {0, 0}, {0.05, 0.2}, {0, 0}};
    for (size_t i = 0; i < desc.inputs.size(); ++i)
        inputs.push_back(desc.inputs[i] ? values(*desc.inputs[i], 10 + i, ranges[i][0], ranges[i][1]) : HostTensor());
    auto outputs = run(desc, inputs);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    for (uint64_t e = 0; e < desc.output.element_count(); ++e) {
        const float a = float(inputs[0].get<uint8_t>(e)) * inputs[1].get<float>(e);
        const float b = float(inputs[3].get<uint8_t>(e)) * inputs[4].get<float>(e);
        const double want = std::clamp(std::nearbyint(double((a + b) / inputs[6].get<float>(e))), 0.0, 255.0);
        ASSERT_EQ(double((*outputs)[0].get<uint8_t>(e)), want) << "element " << e;
    }
}

TEST(ElementWisePlan, Add1WithFusedLeakyReluOnFloat16) {
    SKIP_WITHOUT_GPU();
    FunctionSpec add, leaky;
    add.name = "ELEMENT_WISE_ADD1";
    leaky.name = "ACTIVATION_LEAKY_RELU";
    leaky.members = {member(MemberKind::kFloat, "Alpha")};
    ElementWiseDesc desc;
    desc.function = &add;
    const Dims sizes = {3, 4, 16};
    desc.inputs = {tensor(DataType::kFloat16, sizes), tensor(DataType::kFloat16, sizes, Dims{0, 1, 0})};
    desc.output = tensor(DataType::kFloat16, sizes);
    AttributeValue alpha;
    alpha.member = &leaky.members[0];
    alpha.float_value = 0.125f;
    desc.fused_activation = FusedActivation{&leaky, {alpha}};
    const std::vector<HostTensor> inputs = {values(*desc.inputs[0], 21, -4, 4), values(*desc.inputs[1], 22, -4, 4)};
    auto outputs = run(desc, inputs);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    for (uint64_t e = 0; e < desc.output.element_count(); ++e) {
        const float sum = half_to_float(inputs[0].get<uint16_t>(e)) + half_to_float(inputs[1].get<uint16_t>(e));
        const float want = sum >= 0 ? sum : sum * 0.125f;
        ASSERT_EQ((*outputs)[0].get<uint16_t>(e), float_to_half(want)) << "element " << e;
    }
}

// SIGN of a float NaN is 0: the formula's otherwise branch (the docs); the kernel gave NaN (random cases seeds
// 20261129/30, FLOAT16; DirectML gives 0).
TEST(ElementWisePlan, SignOfFloatNanIsZero) {
    SKIP_WITHOUT_GPU();
    FunctionSpec row;
    row.name = "ELEMENT_WISE_SIGN";
    for (DataType type : {DataType::kFloat16, DataType::kFloat32}) {
        ElementWiseDesc desc;
        desc.function = &row;
        const Dims sizes = {1, 5};
        desc.inputs = {tensor(type, sizes)};
        desc.output = tensor(type, sizes);
        const HostTensor x = testing::make_tensor(type, sizes, {NAN, -2, 0, 3, -NAN});
        auto outputs = run(desc, {x});
        ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
        const std::vector<double> want = {0, -1, 0, 1, 0};
        for (uint64_t e = 0; e < want.size(); ++e)
            EXPECT_EQ((*outputs)[0].get_as_double(e), want[e]) << data_type_name(type) << " element " << e;
    }
}

// DEQUANTIZE_LINEAR of 32-bit integers with a zero point: x - zero point does not fit 32 bits, so the kernel may not
// subtract in 32-bit integers (UINT32 1 - 4294967295 wrapped to 2: +inf for -inf, random case seed 20261130 #11).
TEST(ElementWisePlan, DequantizeOf32BitIntegersSubtractsTheZeroPointWithoutWrapping) {
    SKIP_WITHOUT_GPU();
    FunctionSpec row;
    row.name = "ELEMENT_WISE_DEQUANTIZE_LINEAR";
    for (DataType type : {DataType::kUint32, DataType::kInt32}) {
        ElementWiseDesc desc;
        desc.function = &row;
        const Dims sizes = {1, 3};
        desc.inputs = {tensor(type, sizes), tensor(DataType::kFloat32, sizes), tensor(type, sizes)};
        desc.output = tensor(DataType::kFloat32, sizes);
        const bool u = type == DataType::kUint32;
        const std::vector<double> x = u ? std::vector<double>{1, 4134002881.0, 100} : std::vector<double>{-2147483648.0, 2147483647, 5};
        const std::vector<double> z = u ? std::vector<double>{4294967295.0, 238209338, 90} : std::vector<double>{2147483647, -2147483648.0, 3};
        const std::vector<double> scale = {0.5, 0.25, 2};
        auto outputs = run(desc, {testing::make_tensor(type, sizes, x), testing::make_tensor(DataType::kFloat32, sizes, scale),
                                  testing::make_tensor(type, sizes, z)});
        ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
        for (uint64_t e = 0; e < 3; ++e) {
            const double want = (x[e] - z[e]) * scale[e];
            EXPECT_NEAR((*outputs)[0].get_as_double(e), want, 1e-6 * std::fabs(want) + 1e-6)
                << data_type_name(type) << " element " << e;
        }
    }
}

void softmax_lane(std::span<const double>, std::span<double>, std::span<double>) {}

// The reductions over axes go to their own kernel (softmax_kernel.h, tested in softmax_gpu_test.cpp); a row without
// a body is refused, naming the row.
TEST(ElementWisePlan, PlansReductionsAndRefusesUnknownBodies) {
    FunctionMath lane_math;
    lane_math.lane = softmax_lane;
    FunctionSpec row;
    row.name = "ACTIVATION_SOFTMAX";
    row.math = &lane_math;
    ElementWiseDesc desc;
    desc.function = &row;
    desc.inputs = {tensor(DataType::kFloat32, {2, 8})};
    desc.output = tensor(DataType::kFloat32, {2, 8});
    auto reduction = plan_element_wise(desc, {});
    ASSERT_TRUE(reduction.is_ok()) << reduction.status().message();
    ASSERT_EQ(reduction->dispatches.size(), 1u);
    EXPECT_NE(reduction->dispatches[0].label.find("softmax"), std::string::npos);
    row.math = nullptr;
    row.name = "ELEMENT_WISE_NO_SUCH_FUNCTION";
    auto result = plan_element_wise(desc, {});
    EXPECT_EQ(result.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(result.status().message().find("ELEMENT_WISE_NO_SUCH_FUNCTION"), std::string::npos);
}


// MODULUS_TRUNCATE / MODULUS_FLOOR of floats: exact (fmod, and fmod moved to B's sign, rounded only where |a| < |b|
// and the signs differ: |b| - |a|), at the special values and
// across the whole exponent range (the long division's every step count, |a| < |b|, b infinite), on the vector
// path (4 lanes whose loops end at different steps) and for FLOAT16.
TEST(ElementWisePlan, FloatModulusIsExact) {
    SKIP_WITHOUT_GPU();
    const float inf = INFINITY;
    std::vector<double> a = {5.5, -5.5, 5.5, -5.5, 3.4e38, 3.4e38, 1e-38, 0.0, -0.0, 7, inf, NAN, 2, 5, -5, -5, 1.5, 16777215, 3e30, -1e-30};
    std::vector<double> b = {2, 2, -2, -2, 1e-38, 3, 3.4e38, 3, 3, 0, 2, 2, NAN, inf, inf, -inf, -0.25, 3, 7e-30, 3e-37};
    std::mt19937 random(20261129);
    for (int i = 0; i < 2000; ++i) {  // random significands and exponents, both signs
        auto draw = [&] {
            const float m = std::uniform_real_distribution<float>(1.0f, 2.0f)(random);
            const int e = std::uniform_int_distribution<int>(-126, 127)(random);
            return double((random() & 1 ? -1.0f : 1.0f) * std::ldexp(m, e));
        };
        a.push_back(draw());
        b.push_back(draw());
    }
    const Dims sizes = {1, uint32_t(a.size())};
    for (const char* name : {"ELEMENT_WISE_MODULUS_TRUNCATE", "ELEMENT_WISE_MODULUS_FLOOR"}) {
        const bool floor = std::string_view(name) == "ELEMENT_WISE_MODULUS_FLOOR";
        FunctionSpec row;
        row.name = name;
        for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
            ElementWiseDesc desc;
            desc.function = &row;
            desc.inputs = {tensor(type, sizes), tensor(type, sizes)};
            desc.output = tensor(type, sizes);
            const HostTensor ta = testing::make_tensor(type, sizes, a), tb = testing::make_tensor(type, sizes, b);
            auto outputs = run(desc, {ta, tb});
            ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
            int failures = 0;
            for (uint64_t e = 0; e < a.size() && failures < 10; ++e) {
                const double x = ta.get_as_double(e), y = tb.get_as_double(e);  // as the type holds them
                double want = std::fmod(x, y);
                if (floor && want != 0 && (want < 0) != (y < 0)) want += y;  // exact unless |a| < |b|: then rounded
                if (std::isfinite(want)) want = testing::make_tensor(type, {1}, {double(float(want))}).get_as_double(0);
                const double got = (*outputs)[0].get_as_double(e);
                const bool ok = std::isnan(want) ? std::isnan(got) : got == want || (std::fabs(want) < 0x1p-126 && std::fabs(got) < 0x1p-126);
                if (!ok) ++failures;
                EXPECT_TRUE(ok) << name << " " << data_type_name(type) << " element " << e << ": " << std::hexfloat << x
                                << " mod " << y << " = " << want << ", got " << got;
            }
        }
    }
}

}  // namespace
}  // namespace dmltool::ops::element_wise
