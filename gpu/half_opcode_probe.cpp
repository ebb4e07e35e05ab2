#include "gpu/half_opcode_probe.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/dtype.h"
#include "gpu/compute_kernel.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::gpu {
namespace {

// out[i] = f32tof16(in[i]) for i < root constant 0.
Result<std::vector<uint8_t>> build_probe_kernel() {
    using shaders::imm;
    using shaders::Operand;
    shaders::ProgramBuilder b({.thread_group = {shaders::kDefaultThreadsPerGroup, 1, 1}});
    const shaders::Resource in = b.srv_raw(0);
    const shaders::Resource out = b.uav_raw(0);
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.ishl(t.y(), i, imm(2));
    b.ld_raw(t.z(), t.y(), in);
    b.f32tof16(t.w(), t.z());
    b.store_raw(out, t.y(), t.w());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace

std::string HalfOpcodeProbe::summary() const {
    if (exact())
        return "f32tof16 rounds to nearest even on all " + std::to_string(conversions) + " probe inputs";
    return "f32tof16 differs from round to nearest even on " + std::to_string(mismatches) + " of " +
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
    // Infinities, float32 denormals, the largest finite floats.
    for (uint32_t bits : {0x7f800000u, 0xff800000u, 0x00000001u, 0x80400000u, 0x007fffffu, 0x7f7fffffu, 0xff7fffffu})
        inputs.push_back(bits);
    return inputs;
}

HalfOpcodeProbe judge_half_conversions(std::span<const uint32_t> inputs, std::span<const uint32_t> results) {
    HalfOpcodeProbe probe;
    probe.conversions = inputs.size();
    if (results.size() != inputs.size()) {
        probe.mismatches = inputs.size();
        probe.first_mismatch = std::to_string(results.size()) + " results for " + std::to_string(inputs.size()) +
                               " inputs";
        return probe;
    }
    for (size_t k = 0; k < inputs.size(); ++k) {
        const uint32_t f = inputs[k], got = results[k];
        const uint32_t expected = float_to_half(std::bit_cast<float>(f));
        if (got == expected) continue;  // upper 16 bits included: the opcode leaves them zero
        if (probe.mismatches++ == 0) {
            char text[96];
            std::snprintf(text, sizeof text, "f32tof16(0x%08x) = 0x%04x, expected 0x%04x", f, got, expected);
            probe.first_mismatch = text;
        }
    }
    return probe;
}

Result<HalfOpcodeProbe> probe_half_opcodes(GpuContext& context) {
    const std::vector<uint32_t> inputs = half_rounding_probe_inputs();
    const uint64_t bytes = inputs.size() * 4;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build_probe_kernel());
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel kernel, ComputeKernel::create(context, blob, {2, 1, 1}, "half opcode probe"));
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer source, GpuBuffer::create(context, MemoryKind::kDevice, bytes, "probe floats"));
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer halves, GpuBuffer::create(context, MemoryKind::kDevice, bytes, "probe halves"));
    DMLTOOL_RETURN_IF_ERROR(upload(context, source, 0, std::as_bytes(std::span(inputs))));
    // Poison: a kernel that wrote nothing must not read as zeros.
    DMLTOOL_RETURN_IF_ERROR(upload(context, halves, 0, std::vector<std::byte>(bytes, std::byte{0xa5})));
    const shaders::DispatchGrid grid = shaders::plan_dispatch(inputs.size(), shaders::kDefaultThreadsPerGroup);
    const uint32_t constants[] = {uint32_t(inputs.size()), grid.threads_per_row};
    const BufferView srv{&source, 0, bytes}, uav{&halves, 0, bytes};
    DMLTOOL_RETURN_IF_ERROR(kernel.record_dispatch(context, {constants, {&srv, 1}, {&uav, 1}, grid.groups_x, grid.groups_y}));
    DMLTOOL_RETURN_IF_ERROR(context.submit_and_wait());
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<std::byte> raw, download(context, halves, 0, bytes));
    std::vector<uint32_t> results(inputs.size());
    std::memcpy(results.data(), raw.data(), bytes);
    return judge_half_conversions(inputs, results);
}

}  // namespace dmltool::gpu
