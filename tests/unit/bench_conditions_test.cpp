// The throttle probe's device copy (bench/conditions.h) on a fake device whose clock ramps up under load:
// the probe must warm the device up before it times, or it measures the ramp instead of the clock a busy case
// runs at.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/conditions.h"
#include "core/op_registry.h"

namespace dmltool::app {
namespace {

// Executions take `cold` seconds until `ramp` seconds of work have run, then `warm`; every batch size is recorded
// and its mean returned.
class RampingDevice : public Backend {
public:
    RampingDevice(double cold, double warm, double ramp) : cold_(cold), warm_(warm), ramp_(ramp) {}
    std::string name() const override { return "gpu (fake, ramping clock)"; }
    Result<std::vector<HostTensor>> execute(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                            BackendTiming*, std::byte) override {
        return unsupported("not used");
    }
    Result<double> time_executions(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                   unsigned iterations) override {
        batches.push_back(iterations);
        double total = 0;
        for (unsigned i = 0; i < iterations; ++i) {
            const double time = busy_ < ramp_ ? cold_ : warm_;
            busy_ += time;
            total += time;
        }
        return total / iterations;
    }
    Result<DeviceRoofline> measure_roofline(uint64_t) override { return unsupported("not used"); }

    std::vector<unsigned> batches;

private:
    double cold_, warm_, ramp_, busy_ = 0;
};

class DeviceCopyTest : public ::testing::Test {
protected:
    std::unique_ptr<DeviceCopy> copy() {
        auto created = DeviceCopy::create(1 << 20, registry_, runner_);
        EXPECT_TRUE(created.is_ok()) << created.status().message();
        return created.is_ok() ? std::move(created).value() : nullptr;
    }
    OpRegistry registry_ = make_builtin_registry();
    ThreadPool pool_{1};
    RunOptions options_;
    Runner runner_{options_, pool_, static_cast<Backend*>(nullptr)};
};

TEST_F(DeviceCopyTest, ProbeWarmsTheDeviceUpBeforeTiming) {
    auto probe = copy();
    ASSERT_NE(probe, nullptr);
    // 2 ms per copy until 30 ms of work, then 1 ms: a 50 ms warm-up times the warm clock.
    RampingDevice device(2e-3, 1e-3, 30e-3);
    auto fastest = probe->fastest(device, 5, 50e-3);
    ASSERT_TRUE(fastest.is_ok()) << fastest.status().message();
    EXPECT_DOUBLE_EQ(*fastest, 1e-3);
    // The timed copies come last, each in a submission of its own (the fastest of 5 single executions).
    ASSERT_GE(device.batches.size(), 6u);
    EXPECT_EQ(std::vector<unsigned>(device.batches.end() - 5, device.batches.end()), std::vector<unsigned>(5, 1u));
    unsigned warmup = 0;
    for (size_t i = 0; i + 5 < device.batches.size(); ++i) warmup += device.batches[i];
    EXPECT_GE(warmup, 35u);  // at least 50 ms of device time: 15 cold copies (30 ms) and 20 warm ones
    EXPECT_LE(*std::max_element(device.batches.begin(), device.batches.end()), 256u);  // submissions stay bounded
}

TEST_F(DeviceCopyTest, WithoutWarmupTheProbeSeesTheColdClock) {
    auto probe = copy();
    ASSERT_NE(probe, nullptr);
    RampingDevice device(2e-3, 1e-3, 30e-3);
    auto fastest = probe->fastest(device, 5);
    ASSERT_TRUE(fastest.is_ok()) << fastest.status().message();
    EXPECT_DOUBLE_EQ(*fastest, 2e-3);
    EXPECT_EQ(device.batches, std::vector<unsigned>(5, 1u));
}

// A device whose timestamps never advance (all zeros) must not keep the warm-up loop spinning.
TEST_F(DeviceCopyTest, WarmupEndsOnADeviceWithoutTime) {
    auto probe = copy();
    ASSERT_NE(probe, nullptr);
    RampingDevice device(0, 0, 0);
    auto fastest = probe->fastest(device, 5, 1.0);
    ASSERT_TRUE(fastest.is_ok()) << fastest.status().message();
    EXPECT_EQ(*fastest, 0.0);
    EXPECT_EQ(device.batches.size(), 1u + 5u);  // one warm-up batch, then the 5 timed copies
}

}  // namespace
}  // namespace dmltool::app
