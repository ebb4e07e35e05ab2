// QUANTIZED_LINEAR_MATRIX_MULTIPLY on the GPU: one thread per output element. The thread decomposes its index into
// (b0, b1, m, n), sums (a - az[m]) * (b - bz[n]) over k in int32 (exact: |acc| <= 255 * 255 * K < 2^31 for the K
// the plan accepts), then requantizes in float32: round_ne(float(acc) * (as[m] * bs[n] / ys[m])) + yz[m], clamped to
// the output type, and stores the byte with a word-atomic element store (neighbours share a word). The float32
// multiplier can move a value that lies within rounding distance of a .5 tie by one step: the op's tolerance
// (abs 1) says so.
#include <algorithm>
#include <map>

#include "ops/quantized_linear_matrix_multiply/qlmm.h"
#include "shaders/elements.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {
namespace {

using namespace shaders;

enum : uint32_t {
    kThreads = 0, kThreadsPerRow = 1, kK = 2, kSizes = 3, kAStrides = 7, kBStrides = 11, kOutputStrides = 15,
    kAScaleStep = 19, kBScaleStep = 20, kYScaleStep = 21, kAZeroStep = 22, kBZeroStep = 23, kYZeroStep = 24,
    kLowest = 25, kHighest = 26, kConstantCount = 27,
};
constexpr uint32_t kThreadsPerGroup = 64;
constexpr uint64_t kMaxK = 33025;  // 255 * 255 * K < 2^31

struct KernelSpec {
    bool a_signed = false, b_signed = false, output_signed = false;
    bool has_az = false, has_bz = false, has_yz = false;
    auto operator<=>(const KernelSpec&) const = default;
};

Result<std::vector<uint8_t>> build_kernel(const KernelSpec& spec) {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    uint32_t slot = 0;
    const TensorViews a = TensorViews::single(b.srv_raw(slot++));
    const TensorViews a_scale = TensorViews::single(b.srv_raw(slot++));
    const TensorViews az = spec.has_az ? TensorViews::single(b.srv_raw(slot++)) : TensorViews{};
    const TensorViews bt = TensorViews::single(b.srv_raw(slot++));
    const TensorViews b_scale = TensorViews::single(b.srv_raw(slot++));
    const TensorViews bz = spec.has_bz ? TensorViews::single(b.srv_raw(slot++)) : TensorViews{};
    const TensorViews y_scale = TensorViews::single(b.srv_raw(slot++));
    const TensorViews yz = spec.has_yz ? TensorViews::single(b.srv_raw(slot++)) : TensorViews{};
    const TensorViews out = TensorViews::single(b.uav_raw(0));
    const auto extend = [](bool is_signed) { return is_signed ? Extend::kSign : Extend::kZero; };

    Operand thread = linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    const std::vector<Operand> coord = decompose_index(b, thread, 4, UintArray::root_constants(kSizes));
    const Operand row = coord[2], col = coord[3];
    Operand zp = b.temp();  // x az, y bz, z yz
    b.mov(zp.xyz(), imm(0));
    Operand idx = b.temp();
    if (spec.has_az) {
        b.imul(idx.x(), row, rc(kAZeroStep));
        load_element(b, az, 1, idx.x(), zp.x(), extend(spec.a_signed));
    }
    if (spec.has_bz) {
        b.imul(idx.x(), col, rc(kBZeroStep));
        load_element(b, bz, 1, idx.x(), zp.y(), extend(spec.b_signed));
    }
    if (spec.has_yz) {
        b.imul(idx.x(), row, rc(kYZeroStep));
        load_element(b, yz, 1, idx.x(), zp.z(), extend(spec.output_signed));
    }
    Operand pos = b.temp();  // x offset in A, y offset in B, z k, w exit flag
    Operand a_base = dot_strides(b, {coord[0], coord[1], row}, UintArray::root_constants(kAStrides), imm(0));
    b.mov(pos.x(), a_base);
    Operand b_base = dot_strides(b, {coord[0], coord[1]}, UintArray::root_constants(kBStrides), imm(0));
    b.imad(pos.y(), col, rc(kBStrides + 3), b_base);
    b.mov(pos.z(), imm(0));
    Operand acc = b.temp(), av = b.temp(), bv = b.temp();
    b.mov(acc.x(), imm(0));
    b.loop();
    b.uge(pos.w(), pos.z(), rc(kK));
    b.breakc_nz(pos.w());
    load_element(b, a, 1, pos.x(), av.x(), extend(spec.a_signed));
    load_element(b, bt, 1, pos.y(), bv.x(), extend(spec.b_signed));
    b.isub(av.x(), av.x(), zp.x());
    b.isub(bv.x(), bv.x(), zp.y());
    b.imad(acc.x(), av.x(), bv.x(), acc.x());
    b.iadd(pos.x(), pos.x(), rc(kAStrides + 3));
    b.iadd(pos.y(), pos.y(), rc(kBStrides + 2));
    b.iadd(pos.z(), pos.z(), imm(1));
    b.endloop();
    // Requantize: multiplier = as[m] * bs[n] / ys[m], in float32.
    Operand s = b.temp();  // x as, y bs, z ys
    b.imul(idx.x(), row, rc(kAScaleStep));
    load_element(b, a_scale, 4, idx.x(), s.x());
    b.imul(idx.x(), col, rc(kBScaleStep));
    load_element(b, b_scale, 4, idx.x(), s.y());
    b.imul(idx.x(), row, rc(kYScaleStep));
    load_element(b, y_scale, 4, idx.x(), s.z());
    b.mul(s.x(), s.x(), s.y());
    b.div(s.x(), s.x(), s.z());
    Operand v = b.temp();
    b.itof(v.x(), acc.x());
    b.mul(v.x(), v.x(), s.x());
    // Clamp in float before the conversion (ftoi of a value beyond int32 is undefined), then add the zero point
    // and clamp to the output type in integers.
    b.max(v.x(), v.x(), imm_f(-65536.0f));
    b.min(v.x(), v.x(), imm_f(65536.0f));
    b.round_ne(v.x(), v.x());
    b.ftoi(v.x(), v.x());
    b.iadd(v.x(), v.x(), zp.z());
    b.imax(v.x(), v.x(), rc(kLowest));
    b.imin(v.x(), v.x(), rc(kHighest));
    Operand out_offset = dot_strides(b, coord, UintArray::root_constants(kOutputStrides), imm(0));
    store_element_atomic(b, out, 1, out_offset, v.x());
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> kernel(const KernelSpec& spec) {
    return shaders::memoized_kernel(spec, build_kernel);
}

}  // namespace

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
    const DispatchGrid grid = plan_dispatch(std::max<uint64_t>(threads, 1), kThreadsPerGroup);
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
                          d.b_zero_point.has_value(), d.output_zero_point.has_value()};
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, kernel(spec));
    dispatch.label = "qlmm/" + std::string(data_type_name(d.a.data_type)) + "x" +
                     std::string(data_type_name(d.b.data_type)) + "->" + std::string(data_type_name(d.output.data_type));
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
