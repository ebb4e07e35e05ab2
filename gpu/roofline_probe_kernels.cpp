#include "gpu/roofline_probe_kernels.h"

#include <bit>

namespace dmltool::gpu {
namespace {

using shaders::imm;
using shaders::imm4;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::TensorViews;

TensorViews srv_views(ProgramBuilder& b, uint32_t views, bool typed = false) {
    TensorViews tensor{{}, shaders::kMaxViewBytesLog2};
    for (uint32_t i = 0; i < views; ++i) tensor.views.push_back(typed ? b.srv_typed_uint4(i) : b.srv_raw(i));
    return tensor;
}

TensorViews uav_views(ProgramBuilder& b, uint32_t views, bool typed = false) {
    TensorViews tensor{{}, shaders::kMaxViewBytesLog2};
    for (uint32_t i = 0; i < views; ++i) tensor.views.push_back(typed ? b.uav_typed_uint4(i) : b.uav_raw(i));
    return tensor;
}

Status check_views(uint32_t views) {
    // 8 windows of 512 MiB cover the 4 GiB that 32-bit byte addresses reach.
    if (views == 0 || views > 8) return invalid_input("roofline probe kernel: 1 to 8 views, got " + std::to_string(views));
    return Status::ok();
}

}  // namespace

Result<std::vector<uint8_t>> build_pattern_fill_kernel(uint32_t views) {
    DMLTOOL_RETURN_IF_ERROR(check_views(views));
    ProgramBuilder b({.thread_group = {kProbeThreadsPerGroup, 1, 1}});
    const TensorViews out = uav_views(b, views);
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.imad(t.y(), i, imm(kPatternMultiplier), b.root_constant(2));
    b.ishl(t.z(), i, imm(2));
    shaders::store_words(b, out, t.z(), t.y());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::vector<uint8_t>> build_pattern_check_kernel(uint32_t views) {
    DMLTOOL_RETURN_IF_ERROR(check_views(views));
    ProgramBuilder b({.thread_group = {kProbeThreadsPerGroup, 1, 1}});
    const TensorViews in = srv_views(b, views);
    const shaders::Resource mismatches = b.uav_raw(0);
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.ishl(t.z(), i, imm(2));
    shaders::load_words(b, in, t.z(), t.w());
    b.imad(t.y(), i, imm(kPatternMultiplier), b.root_constant(2));
    b.ine(t.x(), t.y(), t.w());
    b.if_nz(t.x());
    b.atomic_iadd(mismatches, imm(0), imm(1));
    b.endif();
    b.endif();
    b.ret();
    return b.build_dxbc();
}

std::string CopyVariant::name() const {
    return (typed ? std::string("compute typed uint4 ld/store_uav_typed") : "compute ld_raw/store_raw x" + std::to_string(dwords) + " words") + ", " + std::to_string(vectors_per_thread) +
           " per thread" + (views > 1 ? ", " + std::to_string(views) + " views" : "");
}

uint64_t copy_variant_threads(const CopyVariant& variant, uint64_t count) {
    const uint64_t per_group = uint64_t{kProbeThreadsPerGroup} * variant.vectors_per_thread;
    return (count + per_group - 1) / per_group * kProbeThreadsPerGroup;
}

Result<std::vector<uint8_t>> build_copy_variant_kernel(const CopyVariant& variant) {
    DMLTOOL_RETURN_IF_ERROR(check_views(variant.views));
    const uint32_t dwords = variant.dwords, k = variant.vectors_per_thread;
    if (dwords != 1 && dwords != 2 && dwords != 4) return invalid_input("copy variant: 1, 2 or 4 words per access");
    if (variant.typed && dwords != 4) return invalid_input("copy variant: typed views move 4 words per access");
    if (k == 0 || k > 8) return invalid_input("copy variant: 1 to 8 vectors per thread");
    ProgramBuilder b({.thread_group = {kProbeThreadsPerGroup, 1, 1}});
    const TensorViews in = srv_views(b, variant.views, variant.typed);
    const TensorViews out = uav_views(b, variant.views, variant.typed);
    auto part = [&](Operand r) { return dwords == 4 ? r.xyzw() : dwords == 2 ? r.xy() : r.x(); };
    const uint32_t vector_shift = std::countr_zero(dwords * 4);

    Operand thread = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp();
    // First vector: group * (group size * k) + lane; access j adds j * group size (contiguous per warp).
    b.ushr(t.x(), thread, imm(std::countr_zero(kProbeThreadsPerGroup)));
    b.and_(t.y(), thread, imm(kProbeThreadsPerGroup - 1));
    b.imad(t.x(), t.x(), imm(kProbeThreadsPerGroup * k), t.y());
    b.iadd(t.z(), t.x(), imm((k - 1) * kProbeThreadsPerGroup));
    std::vector<Operand> data, address;
    for (uint32_t j = 0; j < k; ++j) {
        data.push_back(b.temp());
        address.push_back(b.temp().x());
        b.iadd(address[j], t.x(), imm(j * kProbeThreadsPerGroup));
        b.ishl(address[j], address[j], imm(vector_shift));
    }
    // Whole-thread fast path: every load issued before the first store (memory-level parallelism).
    b.ult(t.w(), t.z(), b.root_constant(0));
    b.if_nz(t.w());
    for (uint32_t j = 0; j < k; ++j) shaders::load_words(b, in, address[j], part(data[j]));
    for (uint32_t j = 0; j < k; ++j) shaders::store_words(b, out, address[j], part(data[j]));
    b.else_();
    for (uint32_t j = 0; j < k; ++j) {
        b.iadd(t.y(), t.x(), imm(j * kProbeThreadsPerGroup));
        b.ult(t.w(), t.y(), b.root_constant(0));
        b.if_nz(t.w());
        shaders::load_words(b, in, address[j], part(data[j]));
        shaders::store_words(b, out, address[j], part(data[j]));
        b.endif();
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::vector<uint8_t>> build_multiply_add_kernel(bool floating_point) {
    static_assert(kMultiplyAddChains % 4 == 0);
    ProgramBuilder b({.thread_group = {kProbeThreadsPerGroup, 1, 1}, .precise_float_math = false});
    const shaders::Resource out = b.uav_raw(0);
    Operand thread = shaders::linear_thread_index(b, b.root_constant(0));
    std::vector<Operand> chains;
    for (uint32_t c = 0; c < kMultiplyAddChains / 4; ++c) {
        chains.push_back(b.temp());
        // Distinct start values per chain and thread, so no two chains are the same computation.
        b.iadd(chains[c].xyzw(), thread, imm4(4 * c + 1, 4 * c + 2, 4 * c + 3, 4 * c + 4));
        if (floating_point) b.utof(chains[c].xyzw(), chains[c].xyzw());
    }
    Operand t = b.temp();
    b.mov(t.x(), imm(0));
    b.loop();
    b.uge(t.y(), t.x(), b.root_constant(1));
    b.breakc_nz(t.y());
    for (uint32_t step = 0; step < kMultiplyAddUnroll; ++step) {
        for (const Operand& chain : chains) {
            if (floating_point) b.mad(chain.xyzw(), chain.xyzw(), b.root_constant(2), b.root_constant(3));
            else b.imad(chain.xyzw(), chain.xyzw(), b.root_constant(2), b.root_constant(3));
        }
    }
    b.iadd(t.x(), t.x(), imm(1));
    b.endloop();
    for (size_t c = 1; c < chains.size(); ++c) b.xor_(chains[0].xyzw(), chains[0].xyzw(), chains[c].xyzw());
    b.xor_(chains[0].xy(), chains[0].xy(), chains[0].zw());
    b.xor_(chains[0].x(), chains[0].x(), chains[0].y());
    b.ishl(t.z(), thread, imm(2));
    b.store_raw(out, t.z(), chains[0].x());
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::gpu
