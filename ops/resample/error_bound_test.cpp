// The error-bound verdict of RESAMPLE LINEAR (docs/semantics.md) judged both ways on the CPU:
// plain float32 implementations in every evaluation order (float32_models.h) PASS against the reference's exact
// values — also on inputs whose neighbours nearly cancel, where their error is millions of output ulps — and
// implementations with a planted bug (wrong neighbour, weight off by 1/4, coordinates without half-pixel
// offsets) FAIL. 1-D..4-D, FLOAT32/FLOAT16/INT8/UINT8, up, down and non-integer scales.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/compare.h"
#include "core/thread_pool.h"
#include "ops/resample/desc.h"
#include "ops/resample/error_bound_cases.h"
#include "ops/resample/float32_models.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
std::unique_ptr<Op> make_op();

namespace {

using models::Bug;
using models::Config;
using models::configs;
using models::describe;
using models::desc_json;
using models::make_input;
using models::Order;

struct Judged {
    HostTensor reference;
    ExactOutput exact;
    Tolerance tolerance;
};

Judged reference_of(const Op& op, const OpDesc& desc, const HostTensor& input) {
    Judged j{HostTensor(static_cast<const ResampleDesc&>(desc).output), {}, op.default_tolerance(desc, 0)};
    ThreadPool pool(2);
    SemanticsOptions semantics;
    std::vector<ExactOutput> exact(1);
    const HostTensor* inputs[] = {&input};
    HostTensor* outputs[] = {&j.reference};
    Status ran = op.run_reference(desc, inputs, outputs, ReferenceContext{pool, semantics, &exact});
    EXPECT_TRUE(ran.is_ok()) << ran.message();
    j.exact = std::move(exact[0]);
    return j;
}

const char* order_name(Order o) {
    switch (o) {
        case Order::kSeparable: return "separable";
        case Order::kWeights2d: return "2-D weights";
        case Order::kFma: return "FMA";
        case Order::kLerp: return "a + w*(b-a)";
    }
    return "?";
}

TEST(ResampleErrorBound, DefaultToleranceOfLinearIsTheErrorBound) {
    auto op = make_op();
    auto desc = testing::parse_desc(*op, desc_json({DataType::kFloat32, {4}, {2}, false}));
    ASSERT_TRUE(desc.is_ok());
    const Tolerance t = op->default_tolerance(**desc, 0);
    EXPECT_TRUE(t.error_bound);
    EXPECT_EQ(t.unit_roundoff, 0x1p-24);
}

TEST(ResampleErrorBound, EveryFloat32EvaluationOrderPasses) {
    auto op = make_op();
    uint64_t seed = 900;
    for (const Config& c : configs()) {
        auto desc = testing::parse_desc(*op, desc_json(c));
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        const HostTensor input = make_input(c, ++seed);
        const Judged judged = reference_of(*op, **desc, input);
        // The reference's own rounded output is one correct implementation.
        const CompareResult self = compare_to_exact(judged.exact, judged.reference, judged.tolerance);
        EXPECT_EQ(self.verdict, Verdict::kPassed) << describe(c) << " reference: " << self.reason;
        for (Order order : {Order::kSeparable, Order::kWeights2d, Order::kFma, Order::kLerp}) {
            const HostTensor got = models::run_model(static_cast<const ResampleDesc&>(**desc), input, order);
            const CompareResult r = compare_to_exact(judged.exact, got, judged.tolerance);
            EXPECT_EQ(r.verdict, Verdict::kPassed)
                << describe(c) << " " << order_name(order) << ": " << r.reason
                << (r.mismatches.empty() ? "" : "\n  " + format_mismatch(r.mismatches[0]));
            EXPECT_LT(r.max_bound_ratio, 1.0);
        }
    }
}

// The cancelling inputs are adversarial: the old contract (4 ulp of the output) fails a plain float32 blend there.
TEST(ResampleErrorBound, CancellingInputsDefeatAnUlpTolerance) {
    auto op = make_op();
    for (const Config& c : configs()) {
        if (!c.cancelling || c.type != DataType::kFloat32) continue;
        auto desc = testing::parse_desc(*op, desc_json(c));
        ASSERT_TRUE(desc.is_ok());
        const HostTensor input = make_input(c, 77);
        const Judged judged = reference_of(*op, **desc, input);
        const HostTensor got = models::run_model(static_cast<const ResampleDesc&>(**desc), input, Order::kSeparable);
        const CompareResult by_ulp = compare_tensors(judged.reference, got, Tolerance{.ulp = 4, .reason = "the old contract"});
        EXPECT_EQ(by_ulp.verdict, Verdict::kFailed) << describe(c);
        EXPECT_GT(by_ulp.max_ulp_error, 1000u) << describe(c);
        EXPECT_EQ(compare_to_exact(judged.exact, got, judged.tolerance).verdict, Verdict::kPassed) << describe(c);
    }
}

TEST(ResampleErrorBound, PlantedBugsFail) {
    auto op = make_op();
    uint64_t seed = 1900;
    for (const Config& c : configs()) {
        auto desc = testing::parse_desc(*op, desc_json(c));
        ASSERT_TRUE(desc.is_ok());
        const HostTensor input = make_input(c, ++seed);
        const Judged judged = reference_of(*op, **desc, input);
        for (Bug bug : {Bug::kWrongNeighbour, Bug::kWeightOffByQuarter, Bug::kAsymmetricCoordinate})
            for (Order order : {Order::kSeparable, Order::kLerp}) {
                const HostTensor got = models::run_model(static_cast<const ResampleDesc&>(**desc), input, order, bug);
                const CompareResult r = compare_to_exact(judged.exact, got, judged.tolerance);
                EXPECT_EQ(r.verdict, Verdict::kFailed) << describe(c) << " " << order_name(order) << " bug " << int(bug);
            }
    }
}

TEST(ResampleErrorBound, MismatchLinesShowErrorBoundAndRatio) {
    auto op = make_op();
    const Config c{DataType::kFloat32, {64}, {2}, true};
    auto desc = testing::parse_desc(*op, desc_json(c));
    ASSERT_TRUE(desc.is_ok());
    const HostTensor input = make_input(c, 5);
    const Judged judged = reference_of(*op, **desc, input);
    const HostTensor got =
        models::run_model(static_cast<const ResampleDesc&>(**desc), input, Order::kSeparable, Bug::kWeightOffByQuarter);
    const CompareResult r = compare_to_exact(judged.exact, got, judged.tolerance);
    ASSERT_FALSE(r.mismatches.empty());
    EXPECT_GT(r.max_bound_ratio, 1.0);
    const std::string line = format_mismatch(r.mismatches[0]);
    EXPECT_NE(line.find("] exact "), std::string::npos) << line;
    EXPECT_NE(line.find(" error "), std::string::npos) << line;
    EXPECT_NE(line.find(", bound "), std::string::npos) << line;
    EXPECT_NE(line.find(", ratio "), std::string::npos) << line;
    EXPECT_NE(r.reason.find("outside the error bound"), std::string::npos) << r.reason;
}

// Non-finite exact values must be matched: NaN by NaN, infinity by the same infinity.
TEST(ResampleErrorBound, NonFiniteExactValuesMustMatch) {
    ExactOutput exact{{std::nan(""), INFINITY, 1.0}, {0, 0, 1.0}, 0, {}, {}, {}, {}};
    const Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    EXPECT_EQ(compare_to_exact(exact, testing::make_tensor(DataType::kFloat32, {3}, {NAN, INFINITY, 1.0}), t).verdict,
              Verdict::kPassed);
    EXPECT_EQ(compare_to_exact(exact, testing::make_tensor(DataType::kFloat32, {3}, {0, INFINITY, 1.0}), t).verdict,
              Verdict::kFailed);
    EXPECT_EQ(compare_to_exact(exact, testing::make_tensor(DataType::kFloat32, {3}, {NAN, -INFINITY, 1.0}), t).verdict,
              Verdict::kFailed);
    EXPECT_EQ(compare_to_exact(exact, testing::make_tensor(DataType::kFloat32, {3}, {NAN, INFINITY, NAN}), t).verdict,
              Verdict::kFailed);
}

}  // namespace
}  // namespace dmltool::ops::resample
