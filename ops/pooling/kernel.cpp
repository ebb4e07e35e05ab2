// GPU kernel of the pooling family: one thread per output element walks its window exactly as the reference does
// (reference.cpp: taps in row-major window order, padding skipped), so the max rule (the first of equal maxima),
// the tap count of the average and the window position are the reference's by construction. Shapes are
// normalised to {N, C, D, H, W} (4-D inputs: D = 1, window 1, stride 1, dilation 1, no padding); sizes, strides,
// windows and paddings are root constants, so one blob serves every shape of a (kind, types) class.
//   max:        compares in the type's order (float16 converted to float32 exactly, integers sign- or
//               zero-extended), keeps the winning element's bits and its packed input index;
//   average:    float32 sum in window order, one division by the tap count (or the whole window's with
//               IncludePadding), float16 rounded to nearest even;
//   QL average: int32 sum of (x - InputZeroPoint) (exact: at most 2^23 taps of 9-bit values), then
//               round_ne(sum * InputScale / count / OutputScale) + OutputZeroPoint in float32, saturated.
// Elements are loaded and stored through shaders/elements.h (sub-word outputs with atomic and/or, race-free).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ops/pooling/kernel.h"
#include "ops/pooling/pooling.h"
#include "shaders/elements.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::pooling {
namespace {

using shaders::Extend;
using shaders::imm;
using shaders::imm_f;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::TensorViews;

constexpr uint32_t kThreadsPerGroup = 64;
constexpr uint64_t kMaxViewBytes = uint64_t{1} << shaders::kMaxViewBytesLog2;

enum class Mode { kMax, kAverage, kQuantized };

struct KernelOptions {
    Mode mode = Mode::kMax;
    DataType input = DataType::kFloat32;
    DataType output = DataType::kFloat32;
    uint32_t index_bytes = 0;  // 0: no OutputIndicesTensor
    bool input_zero_point = false, output_zero_point = false;

    std::string key() const {
        return std::to_string(int(mode)) + "/" + std::string(data_type_name(input)) + "/" +
               std::string(data_type_name(output)) + "/" + std::to_string(index_bytes) + "/" +
               std::to_string(input_zero_point) + std::to_string(output_zero_point);
    }
};

Result<std::vector<uint8_t>> build_kernel(const KernelOptions& o) {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    uint32_t srv = 0;
    const TensorViews input = TensorViews::single(b.srv_raw(srv++));
    TensorViews in_scale, in_zero, out_scale, out_zero;
    if (o.mode == Mode::kQuantized) {
        in_scale = TensorViews::single(b.srv_raw(srv++));
        if (o.input_zero_point) in_zero = TensorViews::single(b.srv_raw(srv++));
        out_scale = TensorViews::single(b.srv_raw(srv++));
        if (o.output_zero_point) out_zero = TensorViews::single(b.srv_raw(srv++));
    }
    const TensorViews output = TensorViews::single(b.uav_raw(0));
    TensorViews indices;
    if (o.index_bytes) indices = TensorViews::single(b.uav_raw(1));
    const uint32_t in_bytes = uint32_t(element_size(o.input));
    const uint32_t out_bytes = uint32_t(element_size(o.output));
    const bool in_float = is_float(o.input);
    const Extend extend = is_signed_integer(o.input) ? Extend::kSign : Extend::kZero;

    Operand thread = shaders::linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    const std::vector<Operand> coord = shaders::decompose_index(b, thread, 5, shaders::UintArray::root_constants(kOutN));
    Operand base = b.temp();  // x input element of (n, c), y packed index of (n, c), z output element, w index element
    b.imul(base.x(), coord[0], rc(kInStrideN));
    b.imad(base.x(), coord[1], rc(kInStrideC), base.x());
    b.imul(base.y(), coord[0], rc(kPackN));
    b.imad(base.y(), coord[1], rc(kPackC), base.y());
    Operand out_element = shaders::dot_strides(b, coord, shaders::UintArray::root_constants(kOutStrideN), imm(0));
    b.mov(base.z(), out_element);
    Operand first = b.temp();  // x, y, z: the window's first position along D, H, W (negative: wraps high)
    b.imul(first.x(), coord[2], rc(kStrD));
    b.isub(first.x(), first.x(), rc(kPadD));
    b.imul(first.y(), coord[3], rc(kStrH));
    b.isub(first.y(), first.y(), rc(kPadH));
    b.imul(first.z(), coord[4], rc(kStrW));
    b.isub(first.z(), first.z(), rc(kPadW));

    // Accumulators: x best key / float sum / int sum, y best bits, z best packed index / tap count, w have-one flag.
    Operand acc = b.temp();
    b.mov(acc.xyzw(), imm(0));
    if (o.mode == Mode::kAverage) b.mov(acc.x(), imm_f(0.0f));
    Operand zero_points = b.temp();  // x input zero point, y output zero point; z, w scratch
    b.mov(zero_points.xyzw(), imm(0));
    const Extend q_in = o.input == DataType::kInt8 ? Extend::kSign : Extend::kZero;
    const Extend q_out = o.output == DataType::kInt8 ? Extend::kSign : Extend::kZero;
    if (o.mode == Mode::kQuantized && o.input_zero_point) {
        b.imul(zero_points.z(), coord[1], rc(kInZeroStride));
        shaders::load_element(b, in_zero, 1, zero_points.z(), zero_points.x(), q_in);
    }

    Operand loop = b.temp();  // x kd, y kh, z kw, w exit flag
    Operand pos = b.temp();   // x pd, y ph, z pw, w element
    Operand row = b.temp();   // x element at (pd), y element at (pd, ph), z packed at (pd), w packed at (pd, ph)
    Operand v = b.temp();     // x loaded value, y key, z take flag, w packed index
    b.mov(loop.x(), imm(0));
    b.mov(pos.x(), first.x());
    b.loop();  // kd
    b.uge(loop.w(), loop.x(), rc(kWinD));
    b.breakc_nz(loop.w());
    b.ult(loop.w(), pos.x(), rc(kInD));  // padding (negative positions wrap high) is skipped
    b.if_nz(loop.w());
    b.imad(row.x(), pos.x(), rc(kInStrideD), base.x());
    b.imad(row.z(), pos.x(), rc(kPackD), base.y());
    b.mov(loop.y(), imm(0));
    b.mov(pos.y(), first.y());
    b.loop();  // kh
    b.uge(loop.w(), loop.y(), rc(kWinH));
    b.breakc_nz(loop.w());
    b.ult(loop.w(), pos.y(), rc(kInH));
    b.if_nz(loop.w());
    b.imad(row.y(), pos.y(), rc(kInStrideH), row.x());
    b.imad(row.w(), pos.y(), rc(kPackH), row.z());
    b.mov(loop.z(), imm(0));
    b.mov(pos.z(), first.z());
    b.loop();  // kw
    b.uge(loop.w(), loop.z(), rc(kWinW));
    b.breakc_nz(loop.w());
    b.ult(loop.w(), pos.z(), rc(kInW));
    b.if_nz(loop.w());
    b.imad(pos.w(), pos.z(), rc(kInStrideW), row.y());
    shaders::load_element(b, input, in_bytes, pos.w(), v.x(), o.mode == Mode::kQuantized ? q_in : extend);
    switch (o.mode) {
        case Mode::kMax:
            // key: the value in a type whose order is the element type's (float16 -> float32 exactly).
            if (o.input == DataType::kFloat16) shaders::half_to_float(b, v.y(), v.x());
            else b.mov(v.y(), v.x());
            if (in_float) b.lt(v.z(), acc.x(), v.y());
            else if (is_signed_integer(o.input)) b.ilt(v.z(), acc.x(), v.y());
            else b.ult(v.z(), acc.x(), v.y());
            b.ieq(loop.w(), acc.w(), imm(0));  // the first in-input tap always wins
            b.or_(v.z(), v.z(), loop.w());
            b.iadd(v.w(), pos.z(), row.w());
            b.movc(acc.x(), v.z(), v.y(), acc.x());
            b.movc(acc.y(), v.z(), v.x(), acc.y());
            b.movc(acc.z(), v.z(), v.w(), acc.z());
            b.mov(acc.w(), imm(~0u));
            break;
        case Mode::kAverage:
            if (o.input == DataType::kFloat16) shaders::half_to_float(b, v.y(), v.x());
            else b.mov(v.y(), v.x());
            b.add(acc.x(), acc.x(), v.y());
            b.iadd(acc.z(), acc.z(), imm(1));
            break;
        case Mode::kQuantized:
            b.isub(v.y(), v.x(), zero_points.x());
            b.iadd(acc.x(), acc.x(), v.y());
            b.iadd(acc.z(), acc.z(), imm(1));
            break;
    }
    b.endif();
    b.iadd(loop.z(), loop.z(), imm(1));
    b.iadd(pos.z(), pos.z(), rc(kDilW));
    b.endloop();  // kw
    b.endif();
    b.iadd(loop.y(), loop.y(), imm(1));
    b.iadd(pos.y(), pos.y(), rc(kDilH));
    b.endloop();  // kh
    b.endif();
    b.iadd(loop.x(), loop.x(), imm(1));
    b.iadd(pos.x(), pos.x(), rc(kDilD));
    b.endloop();  // kd

    Operand result = b.temp();
    if (o.mode == Mode::kMax) {
        b.mov(result.x(), acc.y());
        shaders::store_element_atomic(b, output, out_bytes, base.z(), result.x());
        if (o.index_bytes) {
            Operand index_element =
                shaders::dot_strides(b, coord, shaders::UintArray::root_constants(kIdxStrideN), imm(0));
            b.mov(base.w(), index_element);
            b.mov(result.x(), acc.z());
            b.mov(result.y(), imm(0));
            shaders::store_element_atomic(b, indices, o.index_bytes, base.w(), o.index_bytes == 8 ? result.xy() : result.x());
        }
    } else {
        // The divisor: the whole window's taps with IncludePadding, else the in-input ones.
        b.ine(v.z(), rc(kIncludeCount), imm(0));
        b.movc(v.w(), v.z(), rc(kIncludeCount), acc.z());
        b.utof(v.w(), v.w());
        if (o.mode == Mode::kAverage) {
            b.div(result.x(), acc.x(), v.w());
            if (o.output == DataType::kFloat16) {
                shaders::float_to_half(b, result.y(), result.x());
                b.mov(result.x(), result.y());
            }
            shaders::store_element_atomic(b, output, out_bytes, base.z(), result.x());
        } else {
            Operand scales = b.temp();  // x input scale, y output scale
            b.imul(zero_points.z(), coord[1], rc(kInScaleStride));
            shaders::load_element(b, in_scale, 4, zero_points.z(), scales.x());
            b.imul(zero_points.z(), coord[1], rc(kOutScaleStride));
            shaders::load_element(b, out_scale, 4, zero_points.z(), scales.y());
            if (o.output_zero_point) {
                b.imul(zero_points.z(), coord[1], rc(kOutZeroStride));
                shaders::load_element(b, out_zero, 1, zero_points.z(), zero_points.y(), q_out);
            }
            b.itof(result.x(), acc.x());
            b.mul(result.x(), result.x(), scales.x());
            b.div(result.x(), result.x(), v.w());
            b.div(result.x(), result.x(), scales.y());
            // Saturate in float first (ftoi of values beyond int32 is undefined), then round half to even.
            b.max(result.x(), result.x(), imm_f(-1024.0f));
            b.min(result.x(), result.x(), imm_f(1024.0f));
            b.round_ne(result.x(), result.x());
            b.ftoi(result.x(), result.x());
            b.iadd(result.x(), result.x(), zero_points.y());
            const bool s8 = o.output == DataType::kInt8;
            b.imax(result.x(), result.x(), s8 ? shaders::imm_i(-128) : imm(0));
            b.imin(result.x(), result.x(), s8 ? shaders::imm_i(127) : imm(255));
            shaders::store_element_atomic(b, output, 1, base.z(), result.x());
        }
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> cached_kernel(const KernelOptions& options) {
    // Keyed by options.key(): the options themselves have no ordering.
    return shaders::memoized_kernel(options.key(), [&](const std::string&) { return build_kernel(options); });
}

// The channel's physical stride of a per-channel quantization tensor ({C}, or C on dim 1); 0 per tensor.
uint32_t channel_stride(const std::optional<TensorDesc>& t) {
    if (!t || t->element_count() == 1) return 0;
    const Dims strides = t->effective_strides();
    return t->rank() == 1 ? strides[0] : strides[1];
}

}  // namespace

Result<DevicePlan> plan_pooling_device(const PoolingDesc& d) {
    const std::string kind = is_max(d.kind) ? "max_pooling" : is_quantized(d.kind) ? "ql_average_pooling" : "average_pooling";
    for (const TensorDesc* t : {&d.input, &d.output})
        if (element_size(t->data_type) > 4)
            return unsupported(kind + ": no GPU kernel for 64-bit " + std::string(data_type_name(t->data_type)));
    const TensorDesc* all[] = {&d.input, &d.output, d.output_indices ? &*d.output_indices : nullptr,
                               d.input_scale ? &*d.input_scale : nullptr, d.output_scale ? &*d.output_scale : nullptr};
    for (const TensorDesc* t : all)
        if (t && t->total_size_in_bytes > kMaxViewBytes)
            return unsupported(kind + ": no GPU kernel for tensors above 512 MiB (one view)");
    // The kernel's positions are 32-bit: o * stride + k * dilation - padding must stay exact in int32.
    for (uint32_t i = 0; i < d.spatial_dimension_count(); ++i) {
        const uint64_t padded = uint64_t(d.input.sizes[2 + i]) + d.start_padding[i] + d.end_padding[i];
        const uint64_t extent = uint64_t(d.window[i] - 1) * d.dilations[i] + 1;
        if (padded + extent + d.strides[i] >= (uint64_t{1} << 31))
            return unsupported(kind + ": no GPU kernel for padded sizes, windows or strides beyond 2^31");
    }
    uint64_t window_taps = 1;
    for (uint32_t w : d.window) window_taps *= w;
    if (window_taps > (uint64_t{1} << 23))
        return unsupported(kind + ": no GPU kernel for windows of more than 2^23 taps (int32 and float32 counts)");

    KernelOptions o;
    o.mode = is_max(d.kind) ? Mode::kMax : is_quantized(d.kind) ? Mode::kQuantized : Mode::kAverage;
    o.input = d.input.data_type;
    o.output = d.output.data_type;
    o.index_bytes = d.output_indices ? uint32_t(element_size(d.output_indices->data_type)) : 0;
    o.input_zero_point = d.input_zero_point.has_value();
    o.output_zero_point = d.output_zero_point.has_value();
    DMLTOOL_ASSIGN_OR_RETURN(auto blob, cached_kernel(o));

    // {N, C, D, H, W} with a unit depth for 4-D tensors.
    const uint32_t spatial = d.spatial_dimension_count();
    const auto five = [&](const Dims& dims, uint32_t fill) {
        Dims out(5, fill);
        out[0] = dims[0];
        out[1] = dims[1];
        for (uint32_t i = 0; i < spatial; ++i) out[5 - spatial + i] = dims[2 + i];
        return out;
    };
    const auto three = [&](const Dims& dims, uint32_t fill) {
        Dims out(3, fill);
        for (uint32_t i = 0; i < spatial; ++i) out[3 - spatial + i] = dims[i];
        return out;
    };
    const Dims out_sizes = five(d.output.sizes, 1), in_sizes = five(d.input.sizes, 1);
    const Dims in_strides = five(d.input.effective_strides(), 0), out_strides = five(d.output.effective_strides(), 0);
    const Dims idx_strides = d.output_indices ? five(d.output_indices->effective_strides(), 0) : Dims(5, 0);
    const Dims window = three(d.window, 1), strides = three(d.strides, 1), dilations = three(d.dilations, 1);
    const Dims padding = three(d.start_padding, 0);
    const uint64_t threads = d.output.element_count();
    const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);

    std::vector<uint32_t> c(kConstantCount, 0);
    c[kThreadsPerRow] = grid.threads_per_row;
    c[kThreads] = uint32_t(threads);
    for (uint32_t i = 0; i < 5; ++i) {
        c[kOutN + i] = out_sizes[i];
        c[kInStrideN + i] = in_strides[i];
        c[kOutStrideN + i] = out_strides[i];
        c[kIdxStrideN + i] = idx_strides[i];
    }
    for (uint32_t i = 0; i < 3; ++i) {
        c[kInD + i] = in_sizes[2 + i];
        c[kWinD + i] = window[i];
        c[kStrD + i] = strides[i];
        c[kDilD + i] = dilations[i];
        c[kPadD + i] = padding[i];
    }
    c[kPackH] = in_sizes[4];
    c[kPackD] = in_sizes[3] * in_sizes[4];
    c[kPackC] = in_sizes[2] * c[kPackD];
    c[kPackN] = in_sizes[1] * c[kPackC];
    c[kIncludeCount] = d.include_padding ? uint32_t(window_taps) : 0;
    c[kInScaleStride] = channel_stride(d.input_scale);
    c[kInZeroStride] = channel_stride(d.input_zero_point);
    c[kOutScaleStride] = channel_stride(d.output_scale);
    c[kOutZeroStride] = channel_stride(d.output_zero_point);

    KernelDispatch dispatch;
    dispatch.dxbc = blob;
    dispatch.label = kind + "/" + std::string(data_type_name(d.input.data_type)) + "_to_" +
                     std::string(data_type_name(d.output.data_type));
    dispatch.root_constants = std::move(c);
    using Source = BufferBinding::Source;
    dispatch.srvs.push_back({Source::kInput, kInput, 0, 0});
    if (is_quantized(d.kind)) {
        dispatch.srvs.push_back({Source::kInput, kInputScale, 0, 0});
        if (d.input_zero_point) dispatch.srvs.push_back({Source::kInput, kInputZeroPoint, 0, 0});
        dispatch.srvs.push_back({Source::kInput, kOutputScale, 0, 0});
        if (d.output_zero_point) dispatch.srvs.push_back({Source::kInput, kOutputZeroPoint, 0, 0});
    }
    dispatch.uavs.push_back({Source::kOutput, 0, 0, 0});
    if (d.output_indices) dispatch.uavs.push_back({Source::kOutput, 1, 0, 0});
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    DevicePlan plan;
    plan.dispatches.push_back(std::move(dispatch));
    return plan;
}

}  // namespace dmltool::ops::pooling
