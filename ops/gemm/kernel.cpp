// GEMM on the GPU: one thread per output element. The thread decomposes its index into (b0, b1, m, n), walks row m
// of TransA(A) and column n of TransB(B) through their strides (TransA/TransB are only swapped strides, so the
// kernel never branches on them), accumulates a*b in float32 (mad: fused on vkd3d, which the error bound allows),
// then computes Alpha * sum (+ Beta * c) and stores it (float16 outputs rounded to nearest even with
// shaders/elements.h's float_to_half, stored with word-atomic element stores since neighbours share a word).
// Straightforward rather than tiled: correct for every layout (strided, permuted, broadcast C).
#include <algorithm>
#include <cstring>
#include <map>

#include "ops/gemm/gemm.h"
#include "shaders/elements.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::gemm {
namespace {

using namespace shaders;

// Root constants.
enum : uint32_t {
    kThreads = 0, kThreadsPerRow = 1, kK = 3, kAlpha = 4, kBeta = 5, kSizes = 6, kAStrides = 10, kBStrides = 14,
    kCStrides = 18, kOutputStrides = 22, kConstantCount = 26,
};
constexpr uint32_t kThreadsPerGroup = 64;

struct KernelSpec {
    bool half = false;
    bool has_c = false;
    auto operator<=>(const KernelSpec&) const = default;
};

Result<std::vector<uint8_t>> build_kernel(const KernelSpec& spec) {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const TensorViews a = TensorViews::single(b.srv_raw(0));
    const TensorViews bt = TensorViews::single(b.srv_raw(1));
    const TensorViews c = spec.has_c ? TensorViews::single(b.srv_raw(2)) : TensorViews{};
    const TensorViews out = TensorViews::single(b.uav_raw(0));
    const uint32_t bytes = spec.half ? 2 : 4;
    const auto load_float = [&](const TensorViews& t, Operand index, Operand dst) {
        if (!spec.half) return load_element(b, t, bytes, index, dst);
        Operand raw = b.temp();
        load_element(b, t, bytes, index, raw.x());
        half_to_float(b, dst, raw.x());
    };

    Operand thread = linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    const std::vector<Operand> coord = decompose_index(b, thread, 4, UintArray::root_constants(kSizes));
    Operand pos = b.temp();  // x offset in A, y offset in B, z k, w loop exit flag
    Operand a_base = dot_strides(b, {coord[0], coord[1], coord[2]}, UintArray::root_constants(kAStrides), imm(0));
    b.mov(pos.x(), a_base);
    Operand b_base = dot_strides(b, {coord[0], coord[1]}, UintArray::root_constants(kBStrides), imm(0));
    b.imad(pos.y(), coord[3], rc(kBStrides + 3), b_base);
    b.mov(pos.z(), imm(0));
    Operand acc = b.temp(), av = b.temp(), bv = b.temp();
    b.mov(acc.x(), imm(0));
    b.loop();
    b.uge(pos.w(), pos.z(), rc(kK));
    b.breakc_nz(pos.w());
    load_float(a, pos.x(), av.x());
    load_float(bt, pos.y(), bv.x());
    b.mad(acc.x(), av.x(), bv.x(), acc.x());
    b.iadd(pos.x(), pos.x(), rc(kAStrides + 3));
    b.iadd(pos.y(), pos.y(), rc(kBStrides + 2));
    b.iadd(pos.z(), pos.z(), imm(1));
    b.endloop();
    b.mul(acc.x(), acc.x(), rc(kAlpha));
    if (spec.has_c) {
        Operand c_offset = dot_strides(b, coord, UintArray::root_constants(kCStrides), imm(0));
        Operand cv = b.temp();
        load_float(c, c_offset, cv.x());
        b.mul(cv.x(), cv.x(), rc(kBeta));
        b.add(acc.x(), acc.x(), cv.x());
    }
    Operand out_offset = dot_strides(b, coord, UintArray::root_constants(kOutputStrides), imm(0));
    Operand result = acc;
    if (spec.half) {
        result = b.temp();
        float_to_half(b, result.x(), acc.x());
    }
    store_element_atomic(b, out, bytes, out_offset, result.x());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> kernel(const KernelSpec& spec) {
    return shaders::memoized_kernel(spec, build_kernel);
}

}  // namespace

Result<DevicePlan> plan_gemm_device(const GemmDesc& d) {
    const uint64_t view_limit = uint64_t{1} << kMaxViewBytesLog2;
    for (const TensorDesc* t : {&d.a, &d.b, d.c ? &*d.c : nullptr, &d.output})
        if (t && t->total_size_in_bytes > view_limit)
            return unsupported("GEMM kernel: a tensor over 512 MiB (one raw view) is not supported");
    const GemmGeometry g = gemm_geometry(d, true);
    const uint64_t threads = d.output.element_count();
    if (threads > 0xffffffffull) return unsupported("GEMM kernel: more than 2^32 - 1 outputs");
    const DispatchGrid grid = plan_dispatch(std::max<uint64_t>(threads, 1), kThreadsPerGroup);
    std::vector<uint32_t> constants(kConstantCount, 0);
    constants[kThreads] = uint32_t(threads);
    constants[kThreadsPerRow] = grid.threads_per_row;
    if (g.k > 0xffffffffull) return unsupported("GEMM kernel: K exceeds 32 bits");
    constants[kK] = uint32_t(g.k);
    std::memcpy(&constants[kAlpha], &d.alpha, 4);
    std::memcpy(&constants[kBeta], &d.beta, 4);
    const uint64_t sizes[4] = {g.batch0, g.batch1, g.m, g.n};
    for (uint32_t i = 0; i < 4; ++i) {
        const uint64_t words[5] = {sizes[i], g.a_strides[i], g.b_strides[i], g.c_strides[i], g.output_strides[i]};
        for (uint64_t w : words)
            if (w > 0xffffffffull) return unsupported("GEMM kernel: a size or stride exceeds 32 bits");
        constants[kSizes + i] = uint32_t(sizes[i]);
        constants[kAStrides + i] = uint32_t(g.a_strides[i]);
        constants[kBStrides + i] = uint32_t(g.b_strides[i]);
        constants[kCStrides + i] = uint32_t(g.c_strides[i]);
        constants[kOutputStrides + i] = uint32_t(g.output_strides[i]);
    }
    const KernelSpec spec{d.output.data_type == DataType::kFloat16, d.c.has_value()};
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, kernel(spec));
    dispatch.label = "gemm/" + std::string(data_type_name(d.output.data_type)) + (spec.has_c ? "/c" : "");
    dispatch.root_constants = std::move(constants);
    dispatch.srvs.push_back({BufferBinding::Source::kInput, 0, 0, 0, false});
    dispatch.srvs.push_back({BufferBinding::Source::kInput, 1, 0, 0, false});
    if (spec.has_c) dispatch.srvs.push_back({BufferBinding::Source::kInput, 2, 0, 0, false});
    dispatch.uavs.push_back({BufferBinding::Source::kOutput, 0, 0, 0, false});
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    DevicePlan plan;
    plan.dispatches.push_back(std::move(dispatch));
    return plan;
}

}  // namespace dmltool::ops::gemm
