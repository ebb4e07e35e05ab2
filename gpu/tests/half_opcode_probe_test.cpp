// The half opcode probe (gpu/half_opcode_probe.h): its judgement accepts exact conversions (f32tof16 rounding to
// nearest even, f16tof32 exact; a NaN as any NaN either way) and rejects every other rule a converter might apply, and the probe runs on the device (lavapipe in
// CI). Whether the backend then runs or refuses plans that need exact half opcodes is checked against this
// device's probe in ops/resample/linear_fast_gpu_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>

#include "core/dtype.h"
#include "gpu/half_opcode_probe.h"
#include "gpu/tests/gpu_test_support.h"

namespace dmltool::gpu {
namespace {

bool is_nan_bits(uint32_t f) { return (f & 0x7fffffffu) > 0x7f800000u; }

// The device results a converter following `rule` would give (rule: the float's bits -> the half's bits).
std::vector<uint32_t> convert_all(const std::vector<uint32_t>& inputs, const std::function<uint32_t(uint32_t)>& rule) {
    std::vector<uint32_t> results;
    for (uint32_t f : inputs) results.push_back(rule(f));
    return results;
}

uint32_t nearest_even(uint32_t f) { return float_to_half(std::bit_cast<float>(f)); }

// f16tof32 of every half by `rule` (the half's bits -> the float's bits); exact by default.
std::vector<uint32_t> widen_all(const std::function<uint32_t(uint32_t)>& rule = {}) {
    std::vector<uint32_t> floats;
    for (uint32_t h = 0; h < 65536; ++h)
        floats.push_back(rule ? rule(h) : std::bit_cast<uint32_t>(half_to_float(uint16_t(h))));
    return floats;
}

// Toward zero: the nearest-even half, one step smaller in magnitude when it rounded up in magnitude.
uint32_t toward_zero(uint32_t f) {
    if (is_nan_bits(f)) return nearest_even(f);
    const uint32_t h = nearest_even(f);
    const double magnitude = std::fabs(double(std::bit_cast<float>(f)));
    return std::fabs(double(half_to_float(uint16_t(h)))) > magnitude ? h - 1 : h;
}

// Ties away from zero.
uint32_t ties_away(uint32_t f) {
    const uint32_t low = toward_zero(f);
    if (is_nan_bits(f) || (low & 0x7fffu) >= 0x7bffu) return nearest_even(f);
    const double magnitude = std::fabs(double(std::bit_cast<float>(f)));
    const double below = std::fabs(double(half_to_float(uint16_t(low))));
    const double above = std::fabs(double(half_to_float(uint16_t(low + 1))));
    return magnitude - below == above - magnitude ? low + 1 : nearest_even(f);
}

TEST(HalfOpcodeProbe, InputsHoldEveryBoundary) {
    const std::vector<uint32_t> inputs = half_rounding_probe_inputs();
    std::vector<uint32_t> sorted = inputs;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "an input twice";
    EXPECT_GT(inputs.size(), 2u * 0x7c00u * 4u + 13u);
    EXPECT_EQ(std::count_if(inputs.begin(), inputs.end(), is_nan_bits), 6);
    auto has = [&](float f) { return std::find(inputs.begin(), inputs.end(), std::bit_cast<uint32_t>(f)) != inputs.end(); };
    EXPECT_TRUE(has(65520.0f));                           // the overflow tie
    EXPECT_TRUE(has(std::nextafter(65520.0f, 0.0f)));
    EXPECT_TRUE(has(-0x1p-25f));                          // the tie between -0 and the smallest subnormal
    EXPECT_TRUE(has(1.0f + 0x1p-11f));                    // 1 and its next half
    EXPECT_TRUE(has(std::nextafter(1.0f + 0x1p-11f, 2.0f)));
    EXPECT_TRUE(has(0x1p-126f));                          // the smallest normal float32
    EXPECT_TRUE(has(-0x1.fffffep-100f));                  // far below the halves
    EXPECT_TRUE(has(0x1p+100f));                          // far above them
}

TEST(HalfOpcodeProbe, JudgementAcceptsExactConversions) {
    const std::vector<uint32_t> inputs = half_rounding_probe_inputs();
    const std::vector<uint32_t> narrowed = convert_all(inputs, nearest_even);
    HalfOpcodeProbe probe = judge_half_conversions(inputs, narrowed, widen_all());
    EXPECT_TRUE(probe.exact()) << probe.summary();
    EXPECT_EQ(probe.conversions, inputs.size() + 65536);
    // A NaN may convert to any NaN, either way (NVIDIA writes 0x7fff / 0x7fffffff for every one, dropping the sign).
    probe = judge_half_conversions(inputs, convert_all(inputs, [](uint32_t f) {
        return is_nan_bits(f) ? 0x7fffu : nearest_even(f);
    }), widen_all([](uint32_t h) {
        return (h & 0x7fffu) > 0x7c00u ? 0x7fffffffu : std::bit_cast<uint32_t>(half_to_float(uint16_t(h)));
    }));
    EXPECT_TRUE(probe.exact()) << probe.summary();
}

TEST(HalfOpcodeProbe, JudgementRejectsEveryOtherRule) {
    const std::vector<uint32_t> inputs = half_rounding_probe_inputs();
    const std::pair<const char*, std::function<uint32_t(uint32_t)>> rules[] = {
        {"toward zero", toward_zero},
        {"ties away from zero", ties_away},
        {"subnormal halves flushed", [](uint32_t f) {
             const uint32_t h = nearest_even(f);
             return (h & 0x7c00u) == 0 ? h & 0x8000u : h;
         }},
        {"NaN as infinity", [](uint32_t f) { return is_nan_bits(f) ? ((f >> 16) & 0x8000u) | 0x7c00u : nearest_even(f); }},
        {"NaN sign-extended", [](uint32_t f) { return is_nan_bits(f) ? 0xffffffffu : nearest_even(f); }},
        {"overflow saturated to 65504", [](uint32_t f) {
             const uint32_t h = nearest_even(f);
             return (h & 0x7fffu) == 0x7c00u ? h - 1 : h;
         }},
        {"sign-extended halves", [](uint32_t f) {
             const uint32_t h = nearest_even(f);
             return h & 0x8000u ? h | 0xffff0000u : h;
         }},
        {"one wrong result", [](uint32_t f) { return f == 0x3f800000u ? 0x3c01u : nearest_even(f); }},
        // A converter whose exponent arithmetic wraps far below the halves (no half binade reaches it): there
        // floats convert as if 2^64 times larger, some to halves >= 2^-24.
        {"exponent wrapped below 2^-58", [](uint32_t f) {
             const uint32_t exponent = (f >> 23) & 0xff;
             return exponent != 0 && exponent < 70 ? nearest_even(f + (64u << 23)) : nearest_even(f);
         }},
    };
    for (const auto& [name, rule] : rules) {
        const HalfOpcodeProbe probe = judge_half_conversions(inputs, convert_all(inputs, rule), widen_all());
        EXPECT_FALSE(probe.exact()) << name;
        EXPECT_GT(probe.mismatches, 0u) << name;
        EXPECT_NE(probe.summary().find("first: f32tof16(0x"), std::string::npos) << name << ": " << probe.summary();
    }
    const std::pair<const char*, std::function<uint32_t(uint32_t)>> widening_rules[] = {
        {"subnormal halves flushed", [](uint32_t h) {
             return (h & 0x7c00u) == 0 ? (h & 0x8000u) << 16 : std::bit_cast<uint32_t>(half_to_float(uint16_t(h)));
         }},
        {"NaN widened to infinity", [](uint32_t h) {
             return (h & 0x7fffu) > 0x7c00u ? ((h & 0x8000u) << 16) | 0x7f800000u
                                            : std::bit_cast<uint32_t>(half_to_float(uint16_t(h)));
         }},
        {"one wrong result", [](uint32_t h) {
             return h == 0x3c00u ? 0x3f800001u : std::bit_cast<uint32_t>(half_to_float(uint16_t(h)));
         }},
    };
    const std::vector<uint32_t> narrowed = convert_all(inputs, nearest_even);
    for (const auto& [name, rule] : widening_rules) {
        const HalfOpcodeProbe probe = judge_half_conversions(inputs, narrowed, widen_all(rule));
        EXPECT_FALSE(probe.exact()) << name;
        EXPECT_NE(probe.summary().find("first: f16tof32(0x"), std::string::npos) << name << ": " << probe.summary();
    }
    // Fewer results than inputs (a kernel that stopped early) is never exact.
    std::vector<uint32_t> short_results = narrowed;
    short_results.pop_back();
    EXPECT_FALSE(judge_half_conversions(inputs, short_results, widen_all()).exact());
    std::vector<uint32_t> short_widened = widen_all();
    short_widened.pop_back();
    EXPECT_FALSE(judge_half_conversions(inputs, narrowed, short_widened).exact());
    EXPECT_FALSE(judge_half_conversions({}, {}, widen_all()).exact());
}

TEST(HalfOpcodeProbe, RunsOnTheDevice) {
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    auto probe = probe_half_opcodes(*context);
    ASSERT_TRUE(probe.is_ok()) << probe.status().message();
    EXPECT_EQ(probe->conversions, half_rounding_probe_inputs().size() + 65536);
    // Either verdict is a finding about the device; the poisoned output buffer makes a kernel that wrote
    // nothing read as mismatches everywhere, never as exact.
    if (!probe->exact()) {
        EXPECT_LT(probe->mismatches, probe->conversions) << probe->summary();
    }
    std::printf("half opcode probe on '%s': %s\n", context->adapter().name.c_str(), probe->summary().c_str());
}

}  // namespace
}  // namespace dmltool::gpu
