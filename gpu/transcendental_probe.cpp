#include "gpu/transcendental_probe.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "gpu/word_probe.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::gpu {
namespace {

constexpr uint32_t kFineSteps = 1u << 20;   // the fine grid of fractional parts
constexpr uint32_t kCoarseSteps = 1024;     // fractions per integer
constexpr double kOverflow = 0x1p128;       // 2^x from here on is +inf in float32
constexpr double kSmallestNormal = 0x1p-126;
constexpr double kSubnormalUlp = 0x1p-149;

uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

// results[i] = exp(inputs[i]) for i < root constant 0.
Result<std::vector<uint8_t>> build_probe_kernel() {
    using shaders::imm;
    using shaders::Operand;
    shaders::ProgramBuilder b({.thread_group = {shaders::kDefaultThreadsPerGroup, 1, 1}});
    const shaders::Resource inputs = b.srv_raw(0);
    const shaders::Resource results = b.uav_raw(0);
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    b.ishl(t.y(), i, imm(2));
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.ld_raw(t.z(), t.y(), inputs);
    b.exp2(t.w(), t.z());
    b.store_raw(results, t.y(), t.w());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace

std::string Exp2Probe::summary() const {
    char worst[32];
    std::snprintf(worst, sizeof worst, "%.2f", max_ulp);
    if (accurate())
        return "exp2 within 3 ulp on all " + std::to_string(evaluations) + " probe inputs (largest error " + worst +
               " ulp)";
    return "exp2 outside 3 ulp (or wrong at special values) on " + std::to_string(failures) + " of " +
           std::to_string(evaluations) + " probe inputs (largest error " + worst + " ulp; first: " + first_failure + ")";
}

std::vector<uint32_t> exp2_probe_inputs() {
    std::vector<uint32_t> inputs;
    inputs.reserve(2 * kFineSteps + 300 * kCoarseSteps + 20000);
    // Every fraction of the fine grid in [0, 1) and [-1, 0) (both exact in float32: 20 significant bits).
    for (uint32_t k = 0; k < kFineSteps; ++k) {
        const double f = double(k) / kFineSteps;
        inputs.push_back(bits_of(float(f)));
        inputs.push_back(bits_of(float(f - 1)));
    }
    // A coarser grid at every integer that gives a normal, subnormal or just-overflowing result. The offset varies
    // with the integer and the step, so the low bits of the fraction are not always the same.
    for (int n = -152; n <= 128; ++n)
        for (uint32_t j = 0; j < kCoarseSteps; ++j) {
            const uint32_t k = j * (kFineSteps / kCoarseSteps) + ((j * 37u + uint32_t(n + 152) * 11u) & 1023u);
            inputs.push_back(bits_of(float(n + double(k) / kFineSteps)));
        }
    // Every integer of that range itself (2^n is exact in float32 down to 2^-149).
    for (int n = -152; n <= 128; ++n) inputs.push_back(bits_of(float(n)));
    // Every float32 within 2^-6 of the edges: overflow (128), the last normal result (-126), the last subnormal one
    // (-149) and the rounding of 2^-150 (to 0 or 2^-149).
    for (float edge : {128.0f, -126.0f, -149.0f, -150.0f}) {
        float below = edge, above = edge;
        inputs.push_back(bits_of(edge));
        while (edge - below < 0x1p-6f) inputs.push_back(bits_of(below = std::nextafter(below, -1000.0f)));
        while (above - edge < 0x1p-6f) inputs.push_back(bits_of(above = std::nextafter(above, 1000.0f)));
    }
    // Four significands in every binade of either sign: tiny arguments (2^x rounds to 1, or to just below it for a
    // negative x: the ulp halves there) and huge ones (+inf and 0).
    for (uint32_t sign : {0u, 0x80000000u})
        for (uint32_t exponent = 1; exponent < 255; ++exponent)
            for (uint32_t significand : {0u, 0x2aaaabu, 0x400000u, 0x7fffffu})
                inputs.push_back(sign | exponent << 23 | significand);
    // Subnormals (a device may flush them to zero: 2^0 = 1 either way), zeros, infinities and NaNs.
    for (uint32_t bits : {0x00000001u, 0x00400000u, 0x007fffffu, 0x80000001u, 0x807fffffu, 0x00000000u, 0x80000000u,
                          0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffffffffu})
        inputs.push_back(bits);
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    return inputs;
}

Exp2Probe judge_exp2(std::span<const uint32_t> inputs, std::span<const uint32_t> results) {
    Exp2Probe probe;
    probe.evaluations = inputs.size();
    if (results.size() != inputs.size() || inputs.empty()) {
        probe.failures = std::max<uint64_t>(inputs.size(), 1);
        probe.first_failure = std::to_string(results.size()) + " results for " + std::to_string(inputs.size()) + " inputs";
        return probe;
    }
    char text[160];
    for (size_t k = 0; k < inputs.size(); ++k) {
        const float x = std::bit_cast<float>(inputs[k]);
        const float r = std::bit_cast<float>(results[k]);
        bool pass;
        double e = 0, tolerance = 0;
        if (std::isnan(x)) {
            pass = std::isnan(r);
        } else if (std::isinf(x)) {
            e = x > 0 ? INFINITY : 0.0;
            pass = x > 0 ? r == INFINITY : r == 0.0f;
        } else {
            e = std::exp2(double(x));  // the double's rounding is far below a float32 ulp
            const double ulp = e >= kSmallestNormal ? std::ldexp(1.0, std::ilogb(e) - 23) : kSubnormalUlp;
            tolerance = 3 * ulp;
            if (std::isnan(r) || r < 0) {
                pass = false;
            } else if (std::isinf(r)) {
                pass = e >= kOverflow - tolerance;  // overflow, or a result within 3 ulp of it
            } else if (e >= kOverflow) {
                pass = false;
            } else if (r == 0 && e <= kSmallestNormal + tolerance) {
                pass = true;  // flushed: the exact value, or one within 3 ulp of it, is below 2^-126
            } else {
                const double error = std::fabs(double(r) - e);
                pass = error <= tolerance;
                if (e >= kSmallestNormal && r != 0) probe.max_ulp = std::max(probe.max_ulp, error / ulp);
            }
        }
        if (pass) continue;
        if (probe.failures++ == 0) {
            std::snprintf(text, sizeof text, "exp(0x%08x = %.9g) = 0x%08x (%.9g), expected %.9g (+/- %.3g)", inputs[k],
                          double(x), results[k], double(r), e, tolerance);
            probe.first_failure = text;
        }
    }
    return probe;
}

Result<Exp2Probe> probe_exp2(GpuContext& context) {
    const std::vector<uint32_t> inputs = exp2_probe_inputs();
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build_probe_kernel());
    const uint64_t output_words[] = {inputs.size()};
    // Poison: a NaN pattern.
    DMLTOOL_ASSIGN_OR_RETURN(auto results, run_word_probe(context, blob, "exp2 probe", inputs, output_words,
                                                          std::byte{0xff}, inputs.size()));
    return judge_exp2(inputs, results[0]);
}

}  // namespace dmltool::gpu
