// The GPU RESAMPLE LINEAR kernels under the error-bound verdict (lavapipe in CI): on every configuration of
// error_bound_cases.h — near-cancelling neighbours included — the device output stays within the bound of the
// reference's exact values, and a planted wrong weight in the judged output is still caught.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/compare.h"
#include "core/thread_pool.h"
#include "ops/resample/desc.h"
#include "ops/resample/error_bound_cases.h"
#include "ops/resample/float32_models.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::resample {
namespace {

const Op& resample_op() { return dmltool::testing::builtin_op("RESAMPLE"); }

TEST(ResampleErrorBoundGpu, DeviceOutputsStayWithinTheBound) {
    std::string why;
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(&why);
    if (backend == nullptr) GTEST_SKIP() << why;
    const Op& op = resample_op();
    ThreadPool pool(2);
    SemanticsOptions semantics;
    uint64_t seed = 4200;
    for (const models::Config& c : models::configs()) {
        auto desc = dmltool::testing::parse_desc(op, models::desc_json(c));
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        const HostTensor input = models::make_input(c, ++seed);
        HostTensor reference(static_cast<const ResampleDesc&>(**desc).output);
        std::vector<ExactOutput> exact(1);
        const HostTensor* inputs[] = {&input};
        HostTensor* outputs[] = {&reference};
        ASSERT_TRUE(op.run_reference(**desc, inputs, outputs, ReferenceContext{pool, semantics, &exact}).is_ok());
        const Tolerance tolerance = op.default_tolerance(**desc, 0);
        ASSERT_TRUE(tolerance.error_bound);
        auto got = backend->execute(op, **desc, {&input}, nullptr);
        ASSERT_TRUE(got.is_ok()) << models::describe(c) << ": " << got.status().message();
        const CompareResult r = compare_to_exact(exact[0], (*got)[0], tolerance);
        EXPECT_EQ(r.verdict, Verdict::kPassed)
            << models::describe(c) << ": " << r.reason
            << (r.mismatches.empty() ? "" : "\n  " + format_mismatch(r.mismatches[0]));
        // The same judgement catches a wrong weight (a float32 model with w + 1/4 stands in for a broken kernel).
        const HostTensor wrong = models::run_model(static_cast<const ResampleDesc&>(**desc), input,
                                                   models::Order::kSeparable, models::Bug::kWeightOffByQuarter);
        EXPECT_EQ(compare_to_exact(exact[0], wrong, tolerance).verdict, Verdict::kFailed) << models::describe(c);
    }
}

}  // namespace
}  // namespace dmltool::ops::resample
