// GEMM on the GPU: one thread per output element. The thread decomposes its index into (b0, b1, m, n), walks row m
// of TransA(A) and column n of TransB(B) through their strides (TransA/TransB are only swapped strides, so the
// kernel never branches on them), accumulates a*b in float32 (mad: fused on vkd3d, which the error bound allows),
// then computes Alpha * sum (+ Beta * c) and stores it (float16 outputs rounded to nearest even with
// shaders/elements.h's float_to_half, stored with word-atomic element stores since neighbours share a word).
// Straightforward rather than tiled: correct for every layout (strided, permuted, broadcast C).
// Matrix-vector shapes (few outputs, long K: a CNN's classifier, M = 1) leave that kernel with too few threads,
// each walking K alone, so the planner gives them the split-K kernel instead: one thread group per output (or per
// 8 adjacent outputs where B's columns are contiguous), its threads each summing every slices-th k with loads
// that neighbouring threads make at neighbouring addresses, then a groupshared tree reduction
// (shaders/group_reduce.h) and the same epilogue. Its summation order differs from the loop's; the op's bound
// holds for any order (docs/operators-join-gemm-qlmm.md).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>

#include "ops/gemm/gemm.h"
#include "shaders/elements.h"
#include "shaders/group_reduce.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::gemm {
namespace {

using namespace shaders;

// Root constants.
enum : uint32_t {
    kThreads = 0, kThreadsPerRow = 1, kK = 3, kAlpha = 4, kBeta = 5, kSizes = 6, kAStrides = 10, kBStrides = 14,
    kCStrides = 18, kOutputStrides = 22,
    kGroupSizes = 26,  // split-K: {B0, B1, M, column blocks}, what the thread group index decomposes by
    kConstantCount = 30,
};
constexpr MatmulConstants kMatmul{kK, kSizes, kAStrides, kBStrides, kGroupSizes, kThreads, kThreadsPerRow};

std::atomic<GemmPath> g_path_for_testing{GemmPath::kAuto};

struct KernelSpec {
    bool half = false;
    bool has_c = false;
    uint32_t columns = 0;  // split-K: columns per group (slices = kSplitKThreads / columns); 0: one thread per output
    auto operator<=>(const KernelSpec&) const = default;
};

struct Bindings {
    TensorViews a, bt, c, out;
};

// Loads one A/B/C element as float32 (float16 widened).
void load_float(ProgramBuilder& b, const KernelSpec& spec, const TensorViews& t, Operand index, Operand dst) {
    if (!spec.half) return load_element(b, t, 4, index, dst);
    Operand raw = b.temp();
    load_element(b, t, 2, index, raw.x());
    half_to_float(b, dst, raw.x());
}

// Output[b0, b1, m, n] = Alpha * acc (+ Beta * C[b0, b1, m, n]); shared by both kernels so they round alike.
void epilogue(ProgramBuilder& b, const KernelSpec& spec, const Bindings& v, const std::vector<Operand>& coord,
              Operand acc) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    b.mul(acc.x(), acc.x(), rc(kAlpha));
    if (spec.has_c) {
        Operand c_offset = dot_strides(b, coord, UintArray::root_constants(kCStrides), imm(0));
        Operand cv = b.temp();
        load_float(b, spec, v.c, c_offset, cv.x());
        b.mul(cv.x(), cv.x(), rc(kBeta));
        b.add(acc.x(), acc.x(), cv.x());
    }
    Operand out_offset = dot_strides(b, coord, UintArray::root_constants(kOutputStrides), imm(0));
    Operand result = acc;
    if (spec.half) {
        result = b.temp();
        float_to_half(b, result.x(), acc.x());
    }
    store_element_atomic(b, v.out, spec.half ? 2 : 4, out_offset, result.x());
}

Bindings bind(ProgramBuilder& b, const KernelSpec& spec) {
    return {TensorViews::single(b.srv_raw(0)), TensorViews::single(b.srv_raw(1)),
            spec.has_c ? TensorViews::single(b.srv_raw(2)) : TensorViews{}, TensorViews::single(b.uav_raw(0))};
}

// The direct or the split-K kernel (shaders/group_reduce.h): a float32 mad per k, the sum then scaled.
Result<std::vector<uint8_t>> build_kernel(const KernelSpec& spec) {
    ProgramBuilder b({.thread_group = {matmul_group_size(spec.columns), 1, 1}});
    const Bindings v = bind(b, spec);
    MatmulSteps steps;
    steps.accumulate = [&](Operand pos, Operand acc) {
        Operand av = b.temp(), bv = b.temp();
        load_float(b, spec, v.a, pos.x(), av.x());
        load_float(b, spec, v.bt, pos.y(), bv.x());
        b.mad(acc.x(), av.x(), bv.x(), acc.x());
    };
    steps.epilogue = [&](const std::vector<Operand>& coord, Operand acc) { epilogue(b, spec, v, coord, acc); };
    emit_matmul(b, kMatmul, spec.columns, steps);
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> kernel(const KernelSpec& spec) {
    return shaders::memoized_kernel(spec, build_kernel);
}

}  // namespace

void set_gemm_path_for_testing(GemmPath path) { g_path_for_testing = path; }

Result<DevicePlan> plan_gemm_device(const GemmDesc& d) {
    const uint64_t view_limit = uint64_t{1} << kMaxViewBytesLog2;
    for (const TensorDesc* t : {&d.a, &d.b, d.c ? &*d.c : nullptr, &d.output})
        if (t && t->total_size_in_bytes > view_limit)
            return unsupported("GEMM kernel: a tensor over 512 MiB (one raw view) is not supported");
    const GemmGeometry g = gemm_geometry(d, true);
    const uint64_t threads = d.output.element_count();
    if (threads > 0xffffffffull) return unsupported("GEMM kernel: more than 2^32 - 1 outputs");
    if (g.k > 0xffffffffull) return unsupported("GEMM kernel: K exceeds 32 bits");
    const SplitKPlan split =
        plan_split_k(threads, g.k, g.n, g.b_strides[2], g.b_strides[3], matmul_choice(GemmPath(g_path_for_testing)));
    const bool split_k = split.columns != 0;
    const uint32_t columns = split.columns;
    const uint64_t column_blocks = split.column_blocks;
    const DispatchGrid grid = split_k ? DispatchGrid{uint32_t(g.batch0 * g.batch1 * g.m * column_blocks), 1, 0}
                                      : plan_dispatch(std::max<uint64_t>(threads, 1), kMatmulDirectThreads);
    std::vector<uint32_t> constants(kConstantCount, 0);
    constants[kThreads] = uint32_t(threads);
    constants[kThreadsPerRow] = grid.threads_per_row;
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
        constants[kGroupSizes + i] = i == 3 ? uint32_t(column_blocks) : uint32_t(sizes[i]);
    }
    const KernelSpec spec{d.output.data_type == DataType::kFloat16, d.c.has_value(), columns};
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, kernel(spec));
    dispatch.label = "gemm/" + std::string(data_type_name(d.output.data_type)) + (spec.has_c ? "/c" : "") +
                     (split_k ? "/splitk" + std::to_string(columns) : "");
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
