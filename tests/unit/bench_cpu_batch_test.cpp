// How many executions one CPU sample takes (bench/registration.h: cpu_batch), on a simulated clock: each execution
// advances it by a scripted time, so the answers are exact and load cannot move them. A batch sized from a slow
// first execution (the bug of 2026-11-30: 1-5 executions of microseconds) fails the first test; a calibration that
// stops at the first long-enough round fails the late-warm-up test.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "bench/registration.h"

namespace dmltool::app {
namespace {

// A clock and an execution whose n-th call (from 0) takes seconds_of(n).
struct ScriptedExecutions {
    std::function<double(unsigned)> seconds_of;
    double clock = 0;
    unsigned calls = 0;
    Status execute() {
        clock += seconds_of(calls++);
        return Status::ok();
    }
};

Result<unsigned> batch_for(ScriptedExecutions& script) {
    return cpu_batch([&] { return script.execute(); }, [&] { return script.clock; });
}

unsigned minimum_batch(double warm_seconds) { return unsigned(std::ceil(kMinCpuSampleSeconds / warm_seconds)); }

TEST(CpuBatch, ASlowFirstExecutionDoesNotSizeTheBatch) {
    ScriptedExecutions script{[](unsigned n) { return n == 0 ? 5e-3 : 3e-6; }};
    auto batch = batch_for(script);
    ASSERT_TRUE(batch.is_ok());
    EXPECT_GE(*batch, minimum_batch(3e-6));
    EXPECT_LE(*batch, kMaxCpuBatch);
}

TEST(CpuBatch, ALateWarmUpIsOutwaited) {
    // 30 slow executions (1.8 ms: longer than one sample), then the steady rate.
    ScriptedExecutions script{[](unsigned n) { return n < 30 ? 60e-6 : 8e-6; }};
    auto batch = batch_for(script);
    ASSERT_TRUE(batch.is_ok());
    EXPECT_GE(*batch, minimum_batch(8e-6));
}

TEST(CpuBatch, OnePreemptedExecutionDoesNotShrinkTheBatch) {
    // Every execution 4 us but the 200th, preempted for 5 ms.
    ScriptedExecutions script{[](unsigned n) { return n == 200 ? 5e-3 : 4e-6; }};
    auto batch = batch_for(script);
    ASSERT_TRUE(batch.is_ok());
    EXPECT_GE(*batch, minimum_batch(4e-6));
}

TEST(CpuBatch, TinyExecutionsStopAtTheCap) {
    ScriptedExecutions script{[](unsigned) { return 50e-9; }};
    auto batch = batch_for(script);
    ASSERT_TRUE(batch.is_ok());
    EXPECT_EQ(*batch, kMaxCpuBatch);
}

TEST(CpuBatch, LongExecutionsTakeOneEachAndFewRounds) {
    ScriptedExecutions script{[](unsigned) { return 20e-3; }};
    auto batch = batch_for(script);
    ASSERT_TRUE(batch.is_ok());
    EXPECT_EQ(*batch, 1u);
    EXPECT_EQ(script.calls, 2u);  // two rounds of one: the rate confirmed once
}

TEST(CpuBatch, AnExecutionsErrorStopsIt) {
    unsigned calls = 0;
    double clock = 0;
    auto batch = cpu_batch(
        [&]() -> Status {
            clock += 100e-6;
            return ++calls == 3 ? internal_error("third execution failed") : Status::ok();
        },
        [&] { return clock; });
    ASSERT_FALSE(batch.is_ok());
    EXPECT_NE(batch.status().message().find("third execution failed"), std::string::npos);
    EXPECT_EQ(calls, 3u);
}

}  // namespace
}  // namespace dmltool::app
