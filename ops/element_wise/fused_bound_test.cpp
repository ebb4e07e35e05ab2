// The family's bounds where a row carries a fused activation (ADD1's FusedActivation): the intermediate's legitimate
// roundings and the activation's own right values reach the output, and planted errors still fail.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/op_registry.h"
#include "ops/element_wise/family_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using nlohmann::json;

// Whether a value passes ADD1 of a and b (one element each) with `activation` fused.
testing::OneElement add1(DataType type, json activation, double a, double b) {
    const json tensor = dmltool::testing::tensor_json(type, {1});
    const json desc = {{"ATensor", tensor}, {"BTensor", tensor}, {"OutputTensor", tensor}, {"FusedActivation", activation}};
    return testing::OneElement("ELEMENT_WISE_ADD1", desc,
                               {dmltool::testing::make_tensor(type, {1}, {a}), dmltool::testing::make_tensor(type, {1}, {b})});
}

json activation(const char* type, json attributes) {
    return {{"type", std::string("DML_OPERATOR_") + type}, {"desc", attributes}};
}

// FLOAT16: the intermediate sum narrowed to half toward zero (a whole ulp of half) and then the activation's result
// narrowed again (DirectML, random case seed 20261201 #6: -17309.07 gave -17280): up to two ulps toward zero pass,
// three, or one away from zero, fail.
TEST(ElementWiseFusedBound, Float16IntermediateMayBeNarrowedTowardZero) {
    const auto b = add1(DataType::kFloat16, activation("ACTIVATION_LINEAR", {{"Alpha", 1.0}, {"Beta", 0.0}}), -17000, -309);
    for (double v : {-17312.0, -17296.0, -17280.0}) EXPECT_TRUE(b.passes(v)) << v;
    for (double v : {-17264.0, -17344.0}) EXPECT_FALSE(b.passes(v)) << v;
}

// A NaN intermediate (inf + -inf) into HARD_SIGMOID: its documented clamp order gives 1, the other order or saturate
// 0 (dmltool's FLOAT16 kernel, lavapipe campaign seed 20261201 #28), NaN propagating; 0.5 fails.
TEST(ElementWiseFusedBound, NanIntermediateTakesTheActivationsOtherValues) {
    for (DataType type : {DataType::kFloat32, DataType::kFloat16}) {
        const auto b = add1(type, activation("ACTIVATION_HARD_SIGMOID", {{"Alpha", 0.4375}, {"Beta", 1.4375}}), INFINITY, -INFINITY);
        for (double v : {1.0, 0.0, double(NAN)}) EXPECT_TRUE(b.passes(v)) << v;
        for (double v : {0.5, 0.25}) EXPECT_FALSE(b.passes(v)) << v;
    }
}

// The activation's float32 formula overflowing (PARAMETRIC_SOFTPLUS of a sum near -FLT_MAX: -inf, dmltool's kernel,
// lavapipe campaign seed 20261201 #231: exact -2.91e38) is right as where it is not fused; a finite value far off
// is not.
TEST(ElementWiseFusedBound, ActivationsFloat32FormulaOverflowPasses) {
    const auto b = add1(DataType::kFloat32, activation("ACTIVATION_PARAMETRIC_SOFTPLUS", {{"Alpha", -0.75}, {"Beta", -1.8125}}),
           -1.2e38, -0.94e38);
    const double exact = 0.75 * 1.8125 * double(float(-1.2e38) + float(-0.94e38));  // -2.9e38: finite in float32
    EXPECT_TRUE(b.passes(exact)) << exact;
    EXPECT_TRUE(b.passes(-INFINITY));
    EXPECT_FALSE(b.passes(exact * 0.5));
}

// HARD_SIGMOID with Alpha 0 of an infinite sum (lavapipe campaign seed 20261203 #58): 0 * inf is NaN, which the
// documented clamp order takes to 1 and the other order to 0 (dmltool's kernel), as where the intermediate is NaN;
// 0.5 (Beta clamped, as for a finite sum) fails.
TEST(ElementWiseFusedBound, InfiniteIntermediateTakesTheActivationsOtherValues) {
    const auto b = add1(DataType::kFloat32, activation("ACTIVATION_HARD_SIGMOID", {{"Alpha", 0.0}, {"Beta", -0.625}}), INFINITY, 1.0);
    for (double v : {1.0, 0.0}) EXPECT_TRUE(b.passes(v)) << v;
    for (double v : {0.5, 0.375}) EXPECT_FALSE(b.passes(v)) << v;
}

// A finite sum beyond float32's range is +inf in float32 arithmetic, and SOFTSIGN's x / (1 + |x|) of it NaN (seed
// 20261203 #559: exact 1, dmltool's kernel NaN): NaN passes there, not for a sum in range.
TEST(ElementWiseFusedBound, IntermediateOverflowingFloat32IsThatInfinity) {
    const auto big = add1(DataType::kFloat32, activation("ACTIVATION_SOFTSIGN", json::object()), 3e38, 3e38);
    for (double v : {1.0, double(NAN)}) EXPECT_TRUE(big.passes(v)) << v;
    EXPECT_FALSE(big.passes(0.5));
    const auto small = add1(DataType::kFloat32, activation("ACTIVATION_SOFTSIGN", json::object()), 1e38, 1e38);
    EXPECT_FALSE(small.passes(double(NAN)));
}

}  // namespace
}  // namespace dmltool::ops::element_wise
