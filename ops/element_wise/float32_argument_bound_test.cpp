// The family's bounds at the arguments a float32 implementation computes: with ScaleBias (product and sum each
// rounded to nearest or truncated, or one fused multiply-add), right even where the function is not monotone over
// the argument's rounding interval, and an activation's intermediate that is NaN in float32 (0 * inf). Values at
// none of them still fail. Found by the lavapipe campaign at --count 3000 (seed 20261203).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/op_registry.h"
#include "ops/element_wise/family_testing.h"
#include "ops/element_wise/reference_trig.h"

namespace dmltool::ops::element_wise {
namespace {

using nlohmann::json;

// Whether a value passes `op` (FLOAT32, one element x) with the desc's other members `members`.
testing::OneElement unary(const char* op, double x, json members) {
    const json tensor = dmltool::testing::tensor_json(DataType::kFloat32, {1});
    members["InputTensor"] = tensor;
    members["OutputTensor"] = tensor;
    return testing::OneElement(op, members, {dmltool::testing::make_tensor(DataType::kFloat32, {1}, {x})});
}

json scale_bias(double scale, double bias) { return {{"ScaleBias", {{"Scale", scale}, {"Bias", bias}}}}; }

// TAN of 63983776 * 0.8125 + 0.125 (lavapipe campaign, seed 20261203 #1599): the exact argument 51986818.125 lies
// halfway between float32s 4 apart; the product rounded then the sum gives 51986816 (tan 19.8996, what dmltool's
// kernel wrote), the fused multiply-add 51986820 (tan -0.9554). The ends of the rounding interval (tan 0.58 and
// 0.52) were all the band held before (bound 16.8). The row's own M at 51986816 (4 |x| (1 + y^2) u: the argument's
// rounding through tan's slope, 397) is ~4900 wide, so only values beyond it fail.
TEST(ElementWiseFloat32ArgumentBound, PeriodicFunctionAcceptsEveryFloat32Argument) {
    const auto b = unary("ELEMENT_WISE_TAN", 63983776.0, scale_bias(0.8125, 0.125));
    for (double v : {reference_tan(51986816.0), reference_tan(51986820.0), reference_tan(51986818.125)}) EXPECT_TRUE(b.passes(v)) << v;
    for (double v : {1e4, -1e4, 1e6}) EXPECT_FALSE(b.passes(v)) << v;
}

// RECIP of the smallest denormal times -0.4375, plus 0 (seed 20261203 #1648): exactly -1/6.1e-46, -inf in float32;
// the float32 product rounds to -0 (or the input flushes to +0, times -0.4375), and -0 + 0 = +0, whose reciprocal is
// +inf (dmltool's kernel). Both infinities pass; finite values do not.
TEST(ElementWiseFloat32ArgumentBound, OppositeInfinityOfAFloat32ArgumentPasses) {
    const auto b = unary("ELEMENT_WISE_RECIP", 0x1p-149, scale_bias(-0.4375, 0.0));
    for (double v : {-INFINITY, INFINITY}) EXPECT_TRUE(b.passes(v)) << v;
    for (double v : {-3e38, 3e38, 1.0}) EXPECT_FALSE(b.passes(v)) << v;
}

// CONSTANT_POW with Exponent -2.5 of -1.4e-45 * 0.25 + 0 (seed 20261205 #2239): exactly a negative base to a
// non-integral power, NaN (the docs); in float32 the product rounds to -0 (or the denormal flushes), -0 + 0 is +0,
// and +0^-2.5 is +inf (dmltool's kernel). NaN and +inf pass; -inf and numbers do not.
TEST(ElementWiseFloat32ArgumentBound, InfinityOfAFloat32ArgumentBesideANanPasses) {
    json members = scale_bias(0.25, 0.0);
    members["Exponent"] = -2.5;
    const auto b = unary("ELEMENT_WISE_CONSTANT_POW", -0x1p-149, members);
    for (double v : {double(NAN), double(INFINITY)}) EXPECT_TRUE(b.passes(v)) << v;
    for (double v : {-double(INFINITY), 1.0, 0.0}) EXPECT_FALSE(b.passes(v)) << v;
}

// HARD_SWISH with Alpha 0 of -inf (seed 20261203 #2623): Alpha x is 0 * -inf, NaN in float32 (the reference's double
// too), so the clamp's result is 1 (the documented order under Direct3D's min/max: x, -inf), 0 (the other order or
// saturate: -inf * 0 = NaN, dmltool's kernel) or NaN (a NaN-propagating clamp). -inf and NaN pass; 0 and finite
// values do not.
TEST(ElementWiseFloat32ArgumentBound, HardSwishOfANanClampArgumentMayBeNan) {
    for (double x : {-INFINITY, INFINITY}) {
        const auto b = unary("ACTIVATION_HARD_SWISH", x, {{"Alpha", 0.0}, {"Beta", -0.0625}});
        for (double v : {x, double(NAN)}) EXPECT_TRUE(b.passes(v)) << x << " " << v;
        for (double v : {0.0, -x, 1.0}) EXPECT_FALSE(b.passes(v)) << x << " " << v;
    }
}

}  // namespace
}  // namespace dmltool::ops::element_wise
