// DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY: dequantize A and B, multiply (BatchCount * ChannelCount
// independent {M,K} x {K,N} products of {BatchCount, ChannelCount, rows, columns} tensors), quantize the result:
//   Output[m,n] = clamp(round_half_to_even(acc[m,n] * AScale[m] * BScale[n] / OutputScale[m]) + OutputZeroPoint[m],
//                       min, max),   acc[m,n] = sum_k (A[m,k] - AZeroPoint[m]) * (B[k,n] - BZeroPoint[n])
// (exact integer sum). Scales and zero points are per tensor (one element) or per row of A / the output
// ({1,1,M,1}) and per column of B ({1,1,1,N}); absent zero points are 0.
//
// Feature levels (the page's tensor-support tables):
//   2_1: every tensor 4-D.
//   4_0: A, B, Output 2 to 4 dims; the scale and zero-point tensors 1 to 4.
// Types at every level: A, B, Output and their zero points INT8/UINT8; scales FLOAT32.
// Constraints (the page): A and AZeroPoint, B and BZeroPoint, Output and OutputZeroPoint have the same DataType;
// A, B, Output the same DimensionCount; all scale and zero-point tensors the same DimensionCount. Batch
// dimensions of A, B and Output are equal (dmltool does not broadcast batches).
//
// Accuracy contract: the accumulation is exact (int64 in the reference; |acc| <= 255 * 255 * K fits int32 for
// K < 33026); the requantization multiplier AScale*BScale/OutputScale is applied in double and rounded half to
// even, as QUANTIZED_LINEAR_CONVOLUTION. An implementation may evaluate it in float32 or fixed point, so a value
// within rounding distance of a .5 tie may land one step away: tolerance abs 1 (integers).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/op.h"
#include "ops/quantized_linear_matrix_multiply/qlmm.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {

namespace {

// Which dimension of a quantization tensor of rank q holds the per-row (M) / per-column (N) values.
enum class Axis { kRow, kColumn };

// Stride stepping between rows/columns in a quantization tensor (0 when per-tensor).
uint64_t quant_step(const TensorDesc& t, Axis axis, bool physical) {
    if (t.element_count() == 1) return 0;
    const Dims s = physical ? t.effective_strides() : packed_strides(t.sizes);
    const uint32_t q = t.rank();
    return s[axis == Axis::kRow ? q - 2 : q - 1];
}

}  // namespace

QlmmGeometry qlmm_geometry(const QlmmDesc& d, bool physical) {
    QlmmGeometry g;
    const uint32_t r = d.output.rank();
    const auto strides4 = [&](const TensorDesc& t) {
        const Dims s = physical ? t.effective_strides() : packed_strides(t.sizes);
        std::array<uint64_t, 4> out{0, 0, 0, 0};
        for (uint32_t i = 0; i < r; ++i) out[4 - r + i] = s[i];
        return out;
    };
    std::array<uint64_t, 4> sizes{1, 1, 1, 1};
    for (uint32_t i = 0; i < r; ++i) sizes[4 - r + i] = d.output.sizes[i];
    g.batch0 = sizes[0];
    g.batch1 = sizes[1];
    g.m = sizes[2];
    g.n = sizes[3];
    g.k = d.a.sizes[r - 1];
    g.a_strides = strides4(d.a);
    g.b_strides = strides4(d.b);
    g.output_strides = strides4(d.output);
    g.a_scale_step = quant_step(d.a_scale, Axis::kRow, physical);
    g.b_scale_step = quant_step(d.b_scale, Axis::kColumn, physical);
    g.y_scale_step = quant_step(d.output_scale, Axis::kRow, physical);
    if (d.a_zero_point) g.a_zero_step = quant_step(*d.a_zero_point, Axis::kRow, physical);
    if (d.b_zero_point) g.b_zero_step = quant_step(*d.b_zero_point, Axis::kColumn, physical);
    if (d.output_zero_point) g.y_zero_step = quant_step(*d.output_zero_point, Axis::kRow, physical);
    return g;
}

namespace {

constexpr DataTypeSet kQuantizedTypes{DataType::kInt8, DataType::kUint8};
constexpr DataTypeSet kScaleTypes{DataType::kFloat32};

const char* const kNames[kSlotCount] = {"ATensor",     "AScaleTensor", "AZeroPointTensor", "BTensor", "BScaleTensor",
                                        "BZeroPointTensor", "OutputScaleTensor", "OutputZeroPointTensor"};

std::vector<const TensorDesc*> input_descs(const QlmmDesc& d) {
    const auto maybe = [](const std::optional<TensorDesc>& t) { return t ? &*t : nullptr; };
    return {&d.a, &d.a_scale, maybe(d.a_zero_point), &d.b, &d.b_scale, maybe(d.b_zero_point), &d.output_scale,
            maybe(d.output_zero_point)};
}

Status validate(const QlmmDesc& d, const std::string& path) {
    const auto type_name = [](DataType t) { return std::string(data_type_name(t)); };
    const std::vector<const TensorDesc*> t = input_descs(d);
    for (Slot s : {kA, kB})
        if (!kQuantizedTypes.contains(t[s]->data_type))
            return invalid_input(path + "/" + kNames[s] + "/DataType: expected one of " + kQuantizedTypes.to_string() +
                                 ", found " + type_name(t[s]->data_type));
    if (!kQuantizedTypes.contains(d.output.data_type))
        return invalid_input(path + "/OutputTensor/DataType: expected one of " + kQuantizedTypes.to_string() +
                             ", found " + type_name(d.output.data_type));
    const std::pair<Slot, const TensorDesc*> zero_points[] = {
        {kAZeroPoint, &d.a}, {kBZeroPoint, &d.b}, {kOutputZeroPoint, &d.output}};
    for (const auto& [s, of] : zero_points)
        if (t[s] && t[s]->data_type != of->data_type)
            return invalid_input(path + "/" + kNames[s] + "/DataType: expected " + type_name(of->data_type) +
                                 " (the data type of the tensor it quantizes), found " + type_name(t[s]->data_type));
    const uint32_t r = d.a.rank();
    if (r < 2 || r > 4)
        return invalid_input(path + "/ATensor/Sizes: expected 2 to 4 dimensions ({BatchCount, ChannelCount, M, K} or "
                             "fewer leading ones), found " + format_dims(d.a.sizes));
    for (const auto& [name, tensor] : {std::pair{"BTensor", &d.b}, std::pair{"OutputTensor", &d.output}})
        if (tensor->rank() != r)
            return invalid_input(path + "/" + name + "/Sizes: expected " + std::to_string(r) +
                                 " dimensions (the ATensor's DimensionCount), found " + format_dims(tensor->sizes));
    const uint64_t m = d.a.sizes[r - 2], k = d.a.sizes[r - 1], n = d.b.sizes[r - 1];
    if (d.b.sizes[r - 2] != k)
        return invalid_input(path + "/BTensor/Sizes/" + std::to_string(r - 2) + ": expected " + std::to_string(k) +
                             " (K: ATensor " + format_dims(d.a.sizes) + " is {.., M, K}), found " +
                             std::to_string(d.b.sizes[r - 2]));
    for (uint32_t i = 0; i + 2 < r; ++i)
        if (d.b.sizes[i] != d.a.sizes[i])
            return invalid_input(path + "/BTensor/Sizes/" + std::to_string(i) + ": expected " +
                                 std::to_string(d.a.sizes[i]) + " (ATensor's batch dimension), found " +
                                 std::to_string(d.b.sizes[i]));
    Dims expected(d.a.sizes.begin(), d.a.sizes.end());
    expected[r - 1] = uint32_t(n);
    if (d.output.sizes != expected)
        return invalid_input(path + "/OutputTensor/Sizes: expected " + format_dims(expected) +
                             " (ATensor's batch dimensions, M, N), found " + format_dims(d.output.sizes));
    // Quantization tensors: FLOAT32 scales, one DimensionCount for all, per tensor or per row / column.
    const uint32_t q = d.a_scale.rank();
    for (Slot s : {kAScale, kAZeroPoint, kBScale, kBZeroPoint, kOutputScale, kOutputZeroPoint}) {
        if (!t[s]) continue;
        if ((s == kAScale || s == kBScale || s == kOutputScale) && t[s]->data_type != DataType::kFloat32)
            return invalid_input(path + "/" + kNames[s] + "/DataType: expected FLOAT32, found " +
                                 type_name(t[s]->data_type));
        if (t[s]->rank() != q)
            return invalid_input(path + "/" + kNames[s] + "/Sizes: expected " + std::to_string(q) +
                                 " dimensions (AScaleTensor's DimensionCount; the page requires one for all scale and "
                                 "zero-point tensors), found " + format_dims(t[s]->sizes));
        if (t[s]->element_count() == 1) continue;
        const bool column = s == kBScale || s == kBZeroPoint;
        const uint64_t want = column ? n : m;
        bool ok = q >= 2 && t[s]->sizes[column ? q - 1 : q - 2] == want;
        for (uint32_t i = 0; ok && i < q; ++i)
            ok = i == (column ? q - 1 : q - 2) || t[s]->sizes[i] == 1;
        if (!ok) {
            Dims shape(std::max<uint32_t>(q, 2) , 1);
            shape[shape.size() - (column ? 1 : 2)] = uint32_t(want);
            return invalid_input(path + "/" + kNames[s] + "/Sizes: expected 1 element (per tensor) or " +
                                 format_dims(shape) + (column ? " (per column of B, N = " : " (per row, M = ") +
                                 std::to_string(want) + "), found " + format_dims(t[s]->sizes));
        }
    }
    return Status::ok();
}

Result<double> read_scale(const HostTensor& t, uint64_t index, const char* member) {
    const double v = t.get_as_double(index);
    if (std::isfinite(v) && v != 0) return v;
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    std::string where = member;
    if (t.element_count() > 1) where += "[" + std::to_string(index) + "]";
    return invalid_input(where + ": expected a finite non-zero scale, found " + text);
}

FeatureLevelRow make_row(FeatureLevel level, RankRange main, RankRange quant) {
    return {level,
            {{"ATensor", main, kQuantizedTypes},
             {"AScaleTensor", quant, kScaleTypes},
             {"AZeroPointTensor", quant, kQuantizedTypes},
             {"BTensor", main, kQuantizedTypes},
             {"BScaleTensor", quant, kScaleTypes},
             {"BZeroPointTensor", quant, kQuantizedTypes},
             {"OutputScaleTensor", quant, kScaleTypes},
             {"OutputZeroPointTensor", quant, kQuantizedTypes},
             {"OutputTensor", main, kQuantizedTypes}}};
}

class QlmmOp final : public Op {
public:
    std::string_view name() const override { return "QUANTIZED_LINEAR_MATRIX_MULTIPLY"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto d = std::make_unique<QlmmDesc>();
        const TensorRole in = TensorRole::kInput;
        DMLTOOL_ASSIGN_OR_RETURN(d->a, reader.required_tensor("ATensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->a_scale, reader.required_tensor("AScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->a_zero_point, reader.optional_tensor("AZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->b, reader.required_tensor("BTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->b_scale, reader.required_tensor("BScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->b_zero_point, reader.optional_tensor("BZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output_scale, reader.required_tensor("OutputScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output_zero_point, reader.optional_tensor("OutputZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        DMLTOOL_RETURN_IF_ERROR(validate(*d, reader.path()));
        return std::unique_ptr<OpDesc>(std::move(d));
    }

    // OutputTensor omitted (or without Sizes): A's batch dimensions and M, B's N; the OutputZeroPointTensor's
    // DataType when there is one, else A's. parse() checks the rest.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        JsonObjectReader reader(desc, path);
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc a, reader.required_tensor("ATensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc b, reader.required_tensor("BTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(auto yz, reader.optional_tensor("OutputZeroPointTensor", TensorRole::kInput));
        const uint32_t r = a.rank();
        if (r < 2 || r > 4)
            return invalid_input(path + "/ATensor/Sizes: expected 2 to 4 dimensions ({BatchCount, ChannelCount, M, K} "
                                 "or fewer leading ones), found " + format_dims(a.sizes));
        if (b.rank() != r)
            return invalid_input(path + "/BTensor/Sizes: expected " + std::to_string(r) +
                                 " dimensions (the ATensor's DimensionCount), found " + format_dims(b.sizes));
        std::vector<uint64_t> sizes(a.sizes.begin(), a.sizes.end());
        sizes[r - 1] = b.sizes[r - 1];
        set_derived_output(desc, "OutputTensor", yz ? yz->data_type : a.data_type, sizes);
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& base) const override {
        const auto& d = static_cast<const QlmmDesc&>(base);
        const std::vector<const TensorDesc*> t = input_descs(d);
        std::vector<TensorSlot> slots;
        for (size_t s = 0; s < kSlotCount; ++s) slots.push_back({kNames[s], kNames[s], TensorRole::kInput, t[s]});
        slots.push_back({"OutputTensor", "OutputTensor", TensorRole::kOutput, &d.output});
        return slots;
    }

    // DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC: ATensor, AScaleTensor, AZeroPointTensor, BTensor,
    // BScaleTensor, BZeroPointTensor, OutputScaleTensor, OutputZeroPointTensor, OutputTensor.
    Result<DmlDesc> dml_desc(const OpDesc& base) const override {
        const auto& d = static_cast<const QlmmDesc&>(base);
        const std::vector<const TensorDesc*> t = input_descs(d);
        DmlDesc dml{"QUANTIZED_LINEAR_MATRIX_MULTIPLY", {}};
        for (size_t s = 0; s < kSlotCount; ++s) dml.input(kNames[s], t[s]);
        dml.output("OutputTensor", &d.output);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override { return table_; }

    Status check_input_values(const OpDesc&, std::span<const HostTensor* const> inputs) const override {
        if (inputs.size() != kSlotCount) return internal_error("QUANTIZED_LINEAR_MATRIX_MULTIPLY: expected 8 inputs");
        for (Slot s : {kAScale, kBScale, kOutputScale}) {
            if (!inputs[s]) continue;
            for (uint64_t i = 0; i < inputs[s]->element_count(); ++i) {
                const Result<double> scale = read_scale(*inputs[s], i, kNames[s]);
                if (!scale.is_ok()) return scale.status();
            }
        }
        return Status::ok();
    }

    // The naive form: per output element an int64 sum over k of the zero-point-shifted operands, then the
    // requantization in double, rounded half to even (std::nearbyint in the default rounding mode), plus the
    // output zero point, saturated to the output type.
    Status run_reference(const OpDesc& base, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        const auto& d = static_cast<const QlmmDesc&>(base);
        if (inputs.size() != kSlotCount || outputs.size() != 1 || !outputs[0])
            return internal_error("QUANTIZED_LINEAR_MATRIX_MULTIPLY reference: expected 8 inputs and 1 output");
        for (Slot s : {kA, kAScale, kB, kBScale, kOutputScale})
            if (!inputs[s]) return internal_error("QUANTIZED_LINEAR_MATRIX_MULTIPLY reference: a required input is missing");
        DMLTOOL_RETURN_IF_ERROR(check_input_values(d, inputs));
        const QlmmGeometry g = qlmm_geometry(d, false);
        const HostTensor &a = *inputs[kA], &b = *inputs[kB];
        HostTensor& out = *outputs[0];
        const auto value = [&](Slot s, uint64_t index) { return inputs[s] ? inputs[s]->get_as_int64(index) : 0; };
        const double lowest = double(integer_min(out.data_type())), highest = double(integer_max(out.data_type()));
        context.pool.parallel_for(out.element_count(), [&](uint64_t begin, uint64_t end) {
            for (uint64_t o = begin; o < end; ++o) {
                const uint64_t col = o % g.n, row = (o / g.n) % g.m;
                const uint64_t b1 = (o / (g.n * g.m)) % g.batch1, b0 = o / (g.n * g.m * g.batch1);
                const int64_t az = value(kAZeroPoint, row * g.a_zero_step), bz = value(kBZeroPoint, col * g.b_zero_step);
                int64_t acc = 0;
                for (uint64_t k = 0; k < g.k; ++k) {
                    const int64_t av = a.get_as_int64(b0 * g.a_strides[0] + b1 * g.a_strides[1] + row * g.a_strides[2] +
                                                      k * g.a_strides[3]);
                    const int64_t bv = b.get_as_int64(b0 * g.b_strides[0] + b1 * g.b_strides[1] + k * g.b_strides[2] +
                                                      col * g.b_strides[3]);
                    acc += (av - az) * (bv - bz);
                }
                const double multiplier = inputs[kAScale]->get_as_double(row * g.a_scale_step) *
                                          inputs[kBScale]->get_as_double(col * g.b_scale_step) /
                                          inputs[kOutputScale]->get_as_double(row * g.y_scale_step);
                const double q = std::nearbyint(double(acc) * multiplier) + double(value(kOutputZeroPoint, row * g.y_zero_step));
                out.set_from_double(o, std::clamp(q, lowest, highest));
            }
        }, 64);
        return Status::ok();
    }

    Tolerance default_tolerance(const OpDesc&, size_t) const override {
        return {.abs = 1,
                .reason = "exact integer sums; the requantization multiplier may be evaluated in float32 or fixed point, "
                          "so a value at a rounding tie can move by one step"};
    }

    WorkEstimate work(const OpDesc& base) const override {
        const auto& d = static_cast<const QlmmDesc&>(base);
        const auto bytes = [](const TensorDesc& t) { return t.element_count() * element_size(t.data_type); };
        // One multiply-add (2 ops) per (output, k); saturated, as outputs (< 2^32) times K (< 2^32) can pass 2^64.
        const long double ops = 2.0L * (long double)d.output.element_count() * d.a.sizes[d.a.rank() - 1];
        return {.bytes = bytes(d.a) + bytes(d.b) + bytes(d.output), .ops = ops >= 0x1p64L ? UINT64_MAX : uint64_t(ops)};
    }

    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        return plan_qlmm_device(static_cast<const QlmmDesc&>(desc));
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return quantized_linear_matrix_multiply::generate_case(feature_levels(), rng, out);
    }

private:
    const FeatureLevelTable table_{make_row(fl(2, 1), {4, 4}, {4, 4}), make_row(fl(4, 0), {2, 4}, {1, 4})};
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<QlmmOp>(); }

}  // namespace dmltool::ops::quantized_linear_matrix_multiply
