// The exp2 probe (gpu/transcendental_probe.h): its judgement accepts results within [FS]'s 3 ulp (flushed tiny
// results included) and rejects a result 4 ulp off, wrong infinities, NaN mishandling, a flushed normal result and a
// finite overflow; the probe runs on the device (lavapipe in CI) and says what it found. Whether the backend then
// runs the fast element-wise plans or their portable twins is checked in ops/element_wise/kernel_exp2_gpu_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>

#include "gpu/tests/gpu_test_support.h"
#include "gpu/transcendental_probe.h"

namespace dmltool::gpu {
namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float value(uint32_t b) { return std::bit_cast<float>(b); }

// Correctly rounded 2^x of every input, with IEEE's special values.
std::vector<uint32_t> exact_results(const std::vector<uint32_t>& inputs) {
    std::vector<uint32_t> results;
    for (uint32_t x : inputs) results.push_back(bits(float(std::exp2(double(value(x))))));
    return results;
}

size_t index_of(const std::vector<uint32_t>& inputs, float x) {
    auto it = std::lower_bound(inputs.begin(), inputs.end(), bits(x));
    EXPECT_TRUE(it != inputs.end() && *it == bits(x)) << x << " is not a probe input";
    return size_t(it - inputs.begin());
}

// The first probe input in [lo, hi).
float input_in(const std::vector<uint32_t>& inputs, float lo, float hi) {
    for (uint32_t b : inputs)
        if (value(b) >= lo && value(b) < hi) return value(b);
    ADD_FAILURE() << "no probe input in [" << lo << ", " << hi << ")";
    return lo;
}

// `results` with the result of input x replaced by `result`.
std::vector<uint32_t> planted(const std::vector<uint32_t>& inputs, std::vector<uint32_t> results, float x, float result) {
    results[index_of(inputs, x)] = bits(result);
    return results;
}

float steps_up(float f, int n) {
    for (int i = 0; i < n; ++i) f = std::nextafter(f, INFINITY);
    return f;
}

float steps_down(float f, int n) {
    for (int i = 0; i < n; ++i) f = std::nextafter(f, 0.0f);
    return f;
}

TEST(Exp2Probe, InputsHoldTheGridAndTheEdges) {
    const std::vector<uint32_t> inputs = exp2_probe_inputs();
    EXPECT_TRUE(std::is_sorted(inputs.begin(), inputs.end()));
    EXPECT_GT(inputs.size(), size_t{2} << 20);
    size_t unit = 0;  // fractions in [0, 1)
    for (uint32_t b : inputs) unit += value(b) >= 0 && value(b) < 1;
    EXPECT_GE(unit, size_t{1} << 20);
    for (float x : {0.0f, -0.0f, 0.5f, -0.5f, 0x1p-20f, 1 - 0x1p-20f, -0x1p-20f, 128.0f, std::nextafter(128.0f, 0.0f),
                    -126.0f, -149.0f, -150.0f, std::nextafter(-126.0f, 0.0f), std::nextafter(-150.0f, -200.0f), 0x1p-100f,
                    -0x1p-100f, 0x1p100f, -0x1p100f, INFINITY, -INFINITY, value(0x00000001u), value(0x807fffffu)})
        index_of(inputs, x);
    EXPECT_TRUE(std::binary_search(inputs.begin(), inputs.end(), 0x7fc00000u));
}

TEST(Exp2Probe, JudgementAcceptsResultsWithin3Ulp) {
    const std::vector<uint32_t> inputs = exp2_probe_inputs();
    const std::vector<uint32_t> exact = exact_results(inputs);
    Exp2Probe probe = judge_exp2(inputs, exact);
    EXPECT_TRUE(probe.accurate()) << probe.summary();
    EXPECT_LE(probe.max_ulp, 0.5);
    EXPECT_EQ(probe.evaluations, inputs.size());
    // Two float steps toward zero everywhere (<= 2.5 ulp from the exact value: below a power of two the steps are
    // half an ulp of it), and tiny results flushed to zero.
    std::vector<uint32_t> off = exact;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const float r = value(exact[k]);
        if (std::isfinite(r) && r >= 0x1p-126f) off[k] = bits(steps_down(r, 2));
        if (r < 0x1p-126f) off[k] = 0;
    }
    probe = judge_exp2(inputs, off);
    EXPECT_TRUE(probe.accurate()) << probe.summary();
    EXPECT_GT(probe.max_ulp, 1.4);
}

TEST(Exp2Probe, JudgementRejectsEachPlantedError) {
    const std::vector<uint32_t> inputs = exp2_probe_inputs();
    const std::vector<uint32_t> exact = exact_results(inputs);
    const auto cr = [](float x) { return float(std::exp2(double(x))); };
    const float a = input_in(inputs, -100.6f, -100.4f), b = input_in(inputs, 127.4f, 127.6f);
    const struct {
        const char* what;
        std::vector<uint32_t> results;
    } planted_errors[] = {
        {"4 ulp off at 0.5", planted(inputs, exact, 0.5f, steps_up(cr(0.5f), 4))},
        {"4 ulp off just below 1 (half-size ulps)", planted(inputs, exact, -0x1p-20f, steps_up(cr(-0x1p-20f), 4))},
        {"4 ulp off near -100.5", planted(inputs, exact, a, steps_up(cr(a), 4))},
        {"2^+inf = FLT_MAX", planted(inputs, exact, INFINITY, 0x1.fffffep127f)},
        {"2^+inf = NaN", planted(inputs, exact, INFINITY, NAN)},
        {"2^-inf = NaN", planted(inputs, exact, -INFINITY, NAN)},
        {"2^-inf = 1", planted(inputs, exact, -INFINITY, 1.0f)},
        {"2^NaN = 0", planted(inputs, exact, value(0x7fc00000u), 0.0f)},
        {"2^NaN = 1", planted(inputs, exact, value(0xffc00000u), 1.0f)},
        {"a normal result flushed (2^-125)", planted(inputs, exact, -125.0f, 0.0f)},
        {"an overflow kept finite (2^128 = FLT_MAX)", planted(inputs, exact, 128.0f, 0x1.fffffep127f)},
        {"a finite result overflowed (2^127.5 = inf)", planted(inputs, exact, b, INFINITY)},
        {"a negative result", planted(inputs, exact, -0.5f, -cr(-0.5f))},
        {"a subnormal result 4 subnormal ulps off", planted(inputs, exact, -140.0f, cr(-140.0f) + 4 * 0x1p-149f)},
    };
    for (const auto& p : planted_errors) {
        const Exp2Probe probe = judge_exp2(inputs, p.results);
        EXPECT_FALSE(probe.accurate()) << p.what;
        EXPECT_EQ(probe.failures, 1u) << p.what << ": " << probe.summary();
    }
    // A coarse approximation everywhere (2^-20 relative: 8 u, 4 to 8 ulp).
    std::vector<uint32_t> coarse;
    for (uint32_t x : inputs) coarse.push_back(bits(float(std::exp2(double(value(x))) * (1 + 0x1p-20))));
    EXPECT_FALSE(judge_exp2(inputs, coarse).accurate());
    // Fewer results than inputs (a kernel that stopped early), or none, is never accurate.
    std::vector<uint32_t> short_results = exact;
    short_results.pop_back();
    EXPECT_FALSE(judge_exp2(inputs, short_results).accurate());
    EXPECT_FALSE(judge_exp2({}, {}).accurate());
}

TEST(Exp2Probe, RunsOnTheDevice) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto probe = probe_exp2(*context);
    ASSERT_TRUE(probe.is_ok()) << probe.status().message();
    EXPECT_EQ(probe->evaluations, exp2_probe_inputs().size());
    // What this device's exp does is the device's business; the probe must say it (the element-wise tests branch
    // on it). Printed for the record.
    std::printf("exp2 probe on '%s': %s\n", context->adapter().name.c_str(), probe->summary().c_str());
    EXPECT_FALSE(probe->summary().empty());
}

}  // namespace
}  // namespace dmltool::gpu
