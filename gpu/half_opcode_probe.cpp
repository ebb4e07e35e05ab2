#include "gpu/half_opcode_probe.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/dtype.h"
#include "gpu/word_probe.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::gpu {
namespace {

constexpr uint32_t kHalves = 65536;

bool is_nan_bits(uint32_t f) { return (f & 0x7fffffffu) > 0x7f800000u; }

// narrowed[i] = f32tof16(floats[i]) for i < root constant 0; widened[i] = f16tof32(i) for i < 65536.
Result<std::vector<uint8_t>> build_probe_kernel() {
    using shaders::imm;
    using shaders::Operand;
    shaders::ProgramBuilder b({.thread_group = {shaders::kDefaultThreadsPerGroup, 1, 1}});
    const shaders::Resource floats = b.srv_raw(0);
    const shaders::Resource narrowed = b.uav_raw(0);
    const shaders::Resource widened = b.uav_raw(1);
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    b.ishl(t.y(), i, imm(2));
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.ld_raw(t.z(), t.y(), floats);
    b.f32tof16(t.w(), t.z());
    b.store_raw(narrowed, t.y(), t.w());
    b.endif();
    b.ult(t.x(), i, imm(kHalves));
    b.if_nz(t.x());
    b.f16tof32(t.w(), i);
    b.store_raw(widened, t.y(), t.w());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace

std::string HalfOpcodeProbe::summary() const {
    if (exact())
        return "f32tof16 and f16tof32 are exact on all " + std::to_string(conversions) + " probe inputs";
    return "f32tof16 / f16tof32 differ from the exact conversions on " + std::to_string(mismatches) + " of " +
           std::to_string(conversions) + " probe inputs (first: " + first_mismatch + ")";
}

std::vector<uint32_t> half_rounding_probe_inputs() {
    std::vector<uint32_t> inputs;
    for (uint32_t sign : {0u, 0x8000u}) {
        for (uint32_t h = 0; h < 0x7c00u; ++h) {
            const float value = half_to_float(uint16_t(h | sign));
            // The next half up in magnitude (0x7c00 after 65504: the overflow boundary 65520 is its midpoint).
            const float next = h + 1 < 0x7c00u ? half_to_float(uint16_t((h + 1) | sign)) : (sign ? -65536.0f : 65536.0f);
            const float mid = float((double(value) + double(next)) / 2);  // exact: 12 significant bits
            inputs.push_back(std::bit_cast<uint32_t>(value));
            inputs.push_back(std::bit_cast<uint32_t>(mid));
            inputs.push_back(std::bit_cast<uint32_t>(std::nextafter(mid, 0.0f)));
            inputs.push_back(std::bit_cast<uint32_t>(std::nextafter(mid, 2 * mid)));
        }
    }
    // Infinities, float32 denormals, the largest finite floats, quiet and signalling NaNs of both signs.
    for (uint32_t bits : {0x7f800000u, 0xff800000u, 0x00000001u, 0x80400000u, 0x007fffffu, 0x7f7fffffu, 0xff7fffffu,
                          0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffbfffffu, 0x7fffffffu, 0xffc02000u})
        inputs.push_back(bits);
    // Every float32 binade, far below the halves (1e-30: rounds to zero) and far above them (1e10: infinity), with
    // a few significands each: a converter that shifts the significand by a distance computed from the exponent
    // can go wrong only where that distance leaves its range (a shift count taken mod 32, say), which the half
    // binades above never reach.
    std::vector<uint32_t> sorted = inputs;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t sign : {0u, 0x80000000u})
        for (uint32_t exponent = 1; exponent < 255; ++exponent)
            for (uint32_t significand : {0u, 0x2aaaabu, 0x400000u, 0x7fffffu}) {
                const uint32_t bits = sign | exponent << 23 | significand;
                if (!std::binary_search(sorted.begin(), sorted.end(), bits)) inputs.push_back(bits);
            }
    return inputs;
}

HalfOpcodeProbe judge_half_conversions(std::span<const uint32_t> inputs, std::span<const uint32_t> narrowed,
                                       std::span<const uint32_t> widened) {
    HalfOpcodeProbe probe;
    probe.conversions = inputs.size() + kHalves;
    if (narrowed.size() != inputs.size() || widened.size() != kHalves || inputs.empty()) {
        probe.mismatches = probe.conversions;
        probe.first_mismatch = std::to_string(narrowed.size()) + " + " + std::to_string(widened.size()) +
                               " results for " + std::to_string(inputs.size()) + " + 65536 inputs";
        return probe;
    }
    const auto mismatch = [&](const char* text) {
        if (probe.mismatches++ == 0) probe.first_mismatch = text;
    };
    char text[96];
    for (size_t k = 0; k < inputs.size(); ++k) {
        const uint32_t f = inputs[k], got = narrowed[k];
        const uint32_t expected = float_to_half(std::bit_cast<float>(f));
        // Upper 16 bits included: the opcode leaves them zero. A NaN as any NaN half.
        if (is_nan_bits(f) ? got <= 0xffffu && (got & 0x7fffu) > 0x7c00u : got == expected) continue;
        std::snprintf(text, sizeof text, "f32tof16(0x%08x) = 0x%04x, expected 0x%04x", f, got, expected);
        mismatch(text);
    }
    for (uint32_t h = 0; h < kHalves; ++h) {
        const uint32_t expected = std::bit_cast<uint32_t>(half_to_float(uint16_t(h))), got = widened[h];
        // A NaN half must stay a NaN (any sign or payload); every other half exactly, subnormal halves included.
        if (is_nan_bits(expected) ? is_nan_bits(got) : got == expected) continue;
        std::snprintf(text, sizeof text, "f16tof32(0x%04x) = 0x%08x, expected 0x%08x", h, got, expected);
        mismatch(text);
    }
    return probe;
}

Result<HalfOpcodeProbe> probe_half_opcodes(GpuContext& context) {
    const std::vector<uint32_t> inputs = half_rounding_probe_inputs();
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build_probe_kernel());
    const uint64_t output_words[] = {inputs.size(), kHalves};  // narrowed, widened
    DMLTOOL_ASSIGN_OR_RETURN(auto results, run_word_probe(context, blob, "half opcode probe", inputs, output_words,
                                                          std::byte{0xa5}, std::max<uint64_t>(inputs.size(), kHalves)));
    return judge_half_conversions(inputs, results[0], results[1]);
}

}  // namespace dmltool::gpu
