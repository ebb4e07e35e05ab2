// QUANTIZED_LINEAR_MATRIX_MULTIPLY on the GPU: one thread per output element. The thread decomposes its index into
// (b0, b1, m, n), sums (a - az[m]) * (b - bz[n]) over k in int32 (exact: |acc| <= 255 * 255 * K < 2^31 for the K
// the plan accepts), then requantizes in float32: round_ne(float(acc) * (as[m] * bs[n] / ys[m])) + yz[m], clamped to
// the output type, and stores the byte with a word-atomic element store (neighbours share a word). The float32
// multiplier can move a value that lies within rounding distance of a .5 tie by one step: the op's tolerance
// (abs 1) says so.
// Matrix-vector shapes (few outputs, long K: a classifier with M = 1) get the split-K kernel instead: a group of 256
// threads per output (or per 8 adjacent outputs where B's columns are contiguous), each summing every slices-th k,
// then an integer groupshared tree reduction (shaders/group_reduce.h). Integer sums are exact in any order, and the
// requantization is the same code, so both kernels give the same bits.
#include <algorithm>
#include <atomic>
#include <map>

#include "ops/quantized_linear_matrix_multiply/qlmm.h"
#include "shaders/elements.h"
#include "shaders/group_reduce.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {
namespace {

using namespace shaders;

enum : uint32_t {
    kThreads = 0, kThreadsPerRow = 1, kK = 2, kSizes = 3, kAStrides = 7, kBStrides = 11, kOutputStrides = 15,
    kAScaleStep = 19, kBScaleStep = 20, kYScaleStep = 21, kAZeroStep = 22, kBZeroStep = 23, kYZeroStep = 24,
    kLowest = 25, kHighest = 26,
    kGroupSizes = 27,  // split-K: {B0, B1, M, column blocks}, what the thread group index decomposes by
    kConstantCount = 31,
};
constexpr uint64_t kMaxK = 33025;  // 255 * 255 * K < 2^31
constexpr MatmulConstants kMatmul{kK, kSizes, kAStrides, kBStrides, kGroupSizes, kThreads, kThreadsPerRow};

std::atomic<QlmmPath> g_path_for_testing{QlmmPath::kAuto};

struct KernelSpec {
    bool a_signed = false, b_signed = false, output_signed = false;
    bool has_az = false, has_bz = false, has_yz = false;
    uint32_t columns = 0;  // split-K: columns per group (slices = kSplitKThreads / columns); 0: one thread per output
    auto operator<=>(const KernelSpec&) const = default;
};

struct Bindings {
    TensorViews a, a_scale, az, bt, b_scale, bz, y_scale, yz, out;
};

Bindings bind(ProgramBuilder& b, const KernelSpec& spec) {
    Bindings v;
    uint32_t slot = 0;
    v.a = TensorViews::single(b.srv_raw(slot++));
    v.a_scale = TensorViews::single(b.srv_raw(slot++));
    if (spec.has_az) v.az = TensorViews::single(b.srv_raw(slot++));
    v.bt = TensorViews::single(b.srv_raw(slot++));
    v.b_scale = TensorViews::single(b.srv_raw(slot++));
    if (spec.has_bz) v.bz = TensorViews::single(b.srv_raw(slot++));
    v.y_scale = TensorViews::single(b.srv_raw(slot++));
    if (spec.has_yz) v.yz = TensorViews::single(b.srv_raw(slot++));
    v.out = TensorViews::single(b.uav_raw(0));
    return v;
}

Extend extend(bool is_signed) { return is_signed ? Extend::kSign : Extend::kZero; }

// zp.x = az[row], zp.y = bz[col], zp.z = yz[row] (0 where absent).
void load_zero_points(ProgramBuilder& b, const KernelSpec& spec, const Bindings& v, Operand row, Operand col,
                      Operand zp) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    b.mov(zp.xyz(), imm(0));
    Operand idx = b.temp();
    if (spec.has_az) {
        b.imul(idx.x(), row, rc(kAZeroStep));
        load_element(b, v.az, 1, idx.x(), zp.x(), extend(spec.a_signed));
    }
    if (spec.has_bz) {
        b.imul(idx.x(), col, rc(kBZeroStep));
        load_element(b, v.bz, 1, idx.x(), zp.y(), extend(spec.b_signed));
    }
    if (spec.has_yz) {
        b.imul(idx.x(), row, rc(kYZeroStep));
        load_element(b, v.yz, 1, idx.x(), zp.z(), extend(spec.output_signed));
    }
}

// acc += (a[pos.x] - zp.x) * (b[pos.y] - zp.y): one step of the exact int32 sum.
void accumulate(ProgramBuilder& b, const KernelSpec& spec, const Bindings& v, Operand pos, Operand zp, Operand acc) {
    Operand av = b.temp(), bv = b.temp();
    load_element(b, v.a, 1, pos.x(), av.x(), extend(spec.a_signed));
    load_element(b, v.bt, 1, pos.y(), bv.x(), extend(spec.b_signed));
    b.isub(av.x(), av.x(), zp.x());
    b.isub(bv.x(), bv.x(), zp.y());
    b.imad(acc.x(), av.x(), bv.x(), acc.x());
}

// Requantizes acc for output (b0, b1, row, col) and stores it; shared by both kernels so they give the same bits.
void requantize_store(ProgramBuilder& b, const Bindings& v, const std::vector<Operand>& coord, Operand zp,
                      Operand acc) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const Operand row = coord[2], col = coord[3];
    Operand idx = b.temp();
    // Requantize: multiplier = as[m] * bs[n] / ys[m], in float32.
    Operand s = b.temp();  // x as, y bs, z ys
    b.imul(idx.x(), row, rc(kAScaleStep));
    load_element(b, v.a_scale, 4, idx.x(), s.x());
    b.imul(idx.x(), col, rc(kBScaleStep));
    load_element(b, v.b_scale, 4, idx.x(), s.y());
    b.imul(idx.x(), row, rc(kYScaleStep));
    load_element(b, v.y_scale, 4, idx.x(), s.z());
    b.mul(s.x(), s.x(), s.y());
    b.div(s.x(), s.x(), s.z());
    Operand r = b.temp();
    b.itof(r.x(), acc.x());
    b.mul(r.x(), r.x(), s.x());
    // Clamp in float before the conversion (ftoi of a value beyond int32 is undefined), then add the zero point
    // and clamp to the output type in integers.
    b.max(r.x(), r.x(), imm_f(-65536.0f));
    b.min(r.x(), r.x(), imm_f(65536.0f));
    b.round_ne(r.x(), r.x());
    b.ftoi(r.x(), r.x());
    b.iadd(r.x(), r.x(), zp.z());
    b.imax(r.x(), r.x(), rc(kLowest));
    b.imin(r.x(), r.x(), rc(kHighest));
    Operand out_offset = dot_strides(b, coord, UintArray::root_constants(kOutputStrides), imm(0));
    store_element_atomic(b, v.out, 1, out_offset, r.x());
}

// The direct or the split-K kernel (shaders/group_reduce.h): zero points loaded before the loop, an exact int32
// step per k, the requantizing epilogue.
Result<std::vector<uint8_t>> build_kernel(const KernelSpec& spec) {
    ProgramBuilder b({.thread_group = {matmul_group_size(spec.columns), 1, 1}});
    const Bindings v = bind(b, spec);
    const Operand zp = b.temp();  // x az, y bz, z yz
    MatmulSteps steps;
    steps.integer_sum = true;
    steps.before_loop = [&](const std::vector<Operand>& coord) { load_zero_points(b, spec, v, coord[2], coord[3], zp); };
    steps.accumulate = [&](Operand pos, Operand acc) { accumulate(b, spec, v, pos, zp, acc); };
    steps.epilogue = [&](const std::vector<Operand>& coord, Operand acc) { requantize_store(b, v, coord, zp, acc); };
    emit_matmul(b, kMatmul, spec.columns, steps);
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> kernel(const KernelSpec& spec) {
    return shaders::memoized_kernel(spec, build_kernel);
}

}  // namespace

void set_qlmm_path_for_testing(QlmmPath path) { g_path_for_testing = path; }

Result<DevicePlan> plan_qlmm_device(const QlmmDesc& d) {
    const uint64_t view_limit = uint64_t{1} << kMaxViewBytesLog2;
    for (const TensorDesc* t : {&d.a, &d.b, &d.output})
        if (t->total_size_in_bytes > view_limit)
            return unsupported("QUANTIZED_LINEAR_MATRIX_MULTIPLY kernel: a tensor over 512 MiB (one raw view) is not "
                               "supported");
    const QlmmGeometry g = qlmm_geometry(d, true);
    if (g.k > kMaxK)
        return unsupported("QUANTIZED_LINEAR_MATRIX_MULTIPLY kernel: K = " + std::to_string(g.k) +
                           " could overflow its int32 sums (at most " + std::to_string(kMaxK) + ")");
    const uint64_t threads = d.output.element_count();
    if (threads > 0xffffffffull) return unsupported("QUANTIZED_LINEAR_MATRIX_MULTIPLY kernel: more than 2^32 - 1 outputs");
    const SplitKPlan split =
        plan_split_k(threads, g.k, g.n, g.b_strides[2], g.b_strides[3], matmul_choice(QlmmPath(g_path_for_testing)));
    const bool split_k = split.columns != 0;
    const uint32_t columns = split.columns;
    const uint64_t column_blocks = split.column_blocks;
    const DispatchGrid grid = split_k ? DispatchGrid{uint32_t(g.batch0 * g.batch1 * g.m * column_blocks), 1, 0}
                                      : plan_dispatch(std::max<uint64_t>(threads, 1), kMatmulDirectThreads);
    std::vector<uint64_t> words(kConstantCount, 0);
    words[kThreads] = threads;
    words[kThreadsPerRow] = grid.threads_per_row;
    words[kK] = g.k;
    const uint64_t sizes[4] = {g.batch0, g.batch1, g.m, g.n};
    for (uint32_t i = 0; i < 4; ++i) {
        words[kSizes + i] = sizes[i];
        words[kAStrides + i] = g.a_strides[i];
        words[kBStrides + i] = g.b_strides[i];
        words[kOutputStrides + i] = g.output_strides[i];
        words[kGroupSizes + i] = i == 3 ? column_blocks : sizes[i];
    }
    words[kAScaleStep] = g.a_scale_step;
    words[kBScaleStep] = g.b_scale_step;
    words[kYScaleStep] = g.y_scale_step;
    words[kAZeroStep] = g.a_zero_step;
    words[kBZeroStep] = g.b_zero_step;
    words[kYZeroStep] = g.y_zero_step;
    words[kLowest] = uint32_t(int32_t(integer_min(d.output.data_type)));
    words[kHighest] = integer_max(d.output.data_type);
    std::vector<uint32_t> constants;
    for (uint64_t w : words) {
        if (w > 0xffffffffull) return unsupported("QUANTIZED_LINEAR_MATRIX_MULTIPLY kernel: a size or stride exceeds 32 bits");
        constants.push_back(uint32_t(w));
    }
    const KernelSpec spec{d.a.data_type == DataType::kInt8, d.b.data_type == DataType::kInt8,
                          d.output.data_type == DataType::kInt8, d.a_zero_point.has_value(),
                          d.b_zero_point.has_value(), d.output_zero_point.has_value(), columns};
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, kernel(spec));
    dispatch.label = "qlmm/" + std::string(data_type_name(d.a.data_type)) + "x" +
                     std::string(data_type_name(d.b.data_type)) + "->" + std::string(data_type_name(d.output.data_type)) +
                     (split_k ? "/splitk" + std::to_string(columns) : "");
    dispatch.root_constants = std::move(constants);
    const bool present[kSlotCount] = {true, true, spec.has_az, true, true, spec.has_bz, true, spec.has_yz};
    for (uint32_t s = 0; s < kSlotCount; ++s)
        if (present[s]) dispatch.srvs.push_back({BufferBinding::Source::kInput, s, 0, 0, false});
    dispatch.uavs.push_back({BufferBinding::Source::kOutput, 0, 0, 0, false});
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    DevicePlan plan;
    plan.dispatches.push_back(std::move(dispatch));
    return plan;
}

}  // namespace dmltool::ops::quantized_linear_matrix_multiply
