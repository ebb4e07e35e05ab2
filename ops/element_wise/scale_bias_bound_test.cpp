// The family's bounds where a row carries ScaleBias: the float32 arguments an implementation may compute (product
// and sum each rounded to nearest or truncated, or one fused multiply-add) are right even where the function is
// not monotone over the argument's rounding interval; values at none of them still fail.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/op_registry.h"
#include "ops/element_wise/family_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using nlohmann::json;

// Whether `got` passes `op` (FLOAT32, one element x) with ScaleBias (scale, bias).
class Unary {
public:
    Unary(const char* op, double x, double scale, double bias) : registry_(make_builtin_registry()) {
        json tensor = dmltool::testing::tensor_json(DataType::kFloat32, {1});
        json desc = {{"InputTensor", tensor}, {"OutputTensor", tensor},
                     {"ScaleBias", {{"Scale", scale}, {"Bias", bias}}}};
        op_ = registry_.find(op);
        auto parsed = dmltool::testing::parse_desc(*op_, desc.dump());
        EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
        desc_ = std::move(parsed).value();
        inputs_ = {dmltool::testing::make_tensor(DataType::kFloat32, {1}, {x})};
        judged_ = testing::reference_of(*op_, *desc_, {&inputs_[0]});
    }
    bool passes(double v) const {
        const HostTensor got = testing::output_of(static_cast<const ElementWiseDesc&>(*desc_), [&](uint64_t) { return v; });
        return testing::judge(judged_, got).verdict != Verdict::kFailed;
    }

private:
    OpRegistry registry_;
    const Op* op_ = nullptr;
    std::unique_ptr<OpDesc> desc_;
    std::vector<HostTensor> inputs_;
    testing::Judged judged_;
};

// TAN of 63983776 * 0.8125 + 0.125 (lavapipe campaign, seed 20261203 #1599): the exact argument 51986818.125 lies
// halfway between float32s 4 apart; the product rounded then the sum gives 51986816 (tan 19.8996, what dmltool's
// kernel wrote), the fused multiply-add 51986820 (tan -0.9554). The ends of the rounding interval (tan 0.58 and
// 0.52) were all the band held before (bound 16.8). The row's own M at 51986816 (4 |x| (1 + y^2) u: the argument's
// rounding through tan's slope, 397) is ~4900 wide, so only values beyond it fail.
TEST(ElementWiseScaleBiasBound, PeriodicFunctionAcceptsEveryFloat32Argument) {
    Unary b("ELEMENT_WISE_TAN", 63983776.0, 0.8125, 0.125);
    for (double v : {std::tan(51986816.0), std::tan(51986820.0), std::tan(51986818.125)}) EXPECT_TRUE(b.passes(v)) << v;
    for (double v : {1e4, -1e4, 1e6}) EXPECT_FALSE(b.passes(v)) << v;
}

}  // namespace
}  // namespace dmltool::ops::element_wise
