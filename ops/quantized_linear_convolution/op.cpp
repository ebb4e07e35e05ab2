// DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION (spec §7; validation §10; vectors §9.4): dequantize input and
// filter, cross-correlate (grouped, strided, dilated, padded), add an int32 bias in the accumulator domain and
// requantize with round-half-to-even and saturation.
//
// Feature-level table (spec §7.5; data types at every level: Input/Filter/Output and their zero points
// INT8/UINT8, scales FLOAT32, bias INT32):
//   FL 2_1: every tensor 4-D.
//   FL 4_0: Input/Filter/Bias/Output 3-4 dims; FilterScale 3-4 dims; the other scales and zero points 1-4.
//   FL 5_2: as 4_0, but FilterScale 1-4 dims.
//
// Scale/zero-point shape rule chosen here (the docs say only {1,1,1,1} / {1,M,1,1}): input/output scales and
// zero points hold exactly one element of any shape; filter scale/zero point hold one element or M elements
// laid out as {M} (1-D) or with M on dim 1 and 1 elsewhere ({1,M}, {1,M,1}, {1,M,1,1}).
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/quantized_linear_convolution.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

constexpr DataTypeSet kQuantizedTypes{DataType::kInt8, DataType::kUint8};
constexpr DataTypeSet kScaleTypes{DataType::kFloat32};
constexpr DataTypeSet kBiasTypes{DataType::kInt32};

std::string format_dims64(const std::vector<uint64_t>& dims) {
    std::string out = "{";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(dims[i]);
    }
    return out + "}";
}

// The checks the output's sizes depend on: data types of the quantized tensors, ranks, the per-spatial-dimension
// arrays, groups and channels. `path` is the desc's JSON path; `dimension_count` the optional DimensionCount.
Status check_geometry(const QuantizedLinearConvolutionDesc& d, const std::string& path,
                      std::optional<uint32_t> dimension_count) {
    // The quantized tensors' types come first: every later type check (the zero points must match them) would
    // otherwise blame a member that is fine for a type that is not (e.g. a FLOAT32 input with a UINT8 zero point).
    const struct {
        const char* member;
        const TensorDesc* tensor;
    } quantized[] = {{"InputTensor", &d.input}, {"FilterTensor", &d.filter}, {"OutputTensor", &d.output}};
    for (const auto& q : quantized)
        if (!kQuantizedTypes.contains(q.tensor->data_type))
            return invalid_input(path + "/" + q.member + ": data type " + std::string(data_type_name(q.tensor->data_type)) +
                                 " not allowed (expected one of " + kQuantizedTypes.to_string() + ")");
    const uint32_t rank = d.input.rank();
    if (rank != 3 && rank != 4)
        return invalid_input(path + "/InputTensor/Sizes: expected 3 or 4 dimensions ({N,C,W} or {N,C,H,W}), found " +
                             format_dims(d.input.sizes));
    const auto same_rank = [&](const TensorDesc& t, const char* member) -> Status {
        if (t.rank() == rank) return Status::ok();
        return invalid_input(path + "/" + member + "/Sizes: expected " + std::to_string(rank) +
                             " dimensions (the rank of InputTensor), found " + format_dims(t.sizes));
    };
    DMLTOOL_RETURN_IF_ERROR(same_rank(d.filter, "FilterTensor"));
    DMLTOOL_RETURN_IF_ERROR(same_rank(d.output, "OutputTensor"));

    const uint32_t spatial = rank - 2;
    if (dimension_count && *dimension_count != spatial)
        return invalid_input(path + "/DimensionCount: expected " + std::to_string(spatial) + " (InputTensor has " +
                             std::to_string(rank) + " dimensions, so " + std::to_string(spatial) +
                             " spatial), found " + std::to_string(*dimension_count));
    const struct {
        const char* member;
        const Dims* values;
        bool at_least_one;
    } arrays[] = {{"Strides", &d.strides, true},
                  {"Dilations", &d.dilations, true},
                  {"StartPadding", &d.start_padding, false},
                  {"EndPadding", &d.end_padding, false}};
    for (const auto& a : arrays) {
        if (a.values->size() != spatial)
            return invalid_input(path + "/" + a.member + ": expected " + std::to_string(spatial) +
                                 " entries (one per spatial dimension of InputTensor " + format_dims(d.input.sizes) +
                                 "), found " + std::to_string(a.values->size()));
        for (size_t i = 0; a.at_least_one && i < spatial; ++i)
            if ((*a.values)[i] == 0)
                return invalid_input(path + "/" + a.member + "/" + std::to_string(i) + ": expected at least 1, found 0");
    }
    if (d.group_count == 0) return invalid_input(path + "/GroupCount: expected at least 1, found 0");

    const uint64_t channels = d.input.sizes[1], out_channels = d.filter.sizes[0];
    if (uint64_t(d.filter.sizes[1]) * d.group_count != channels)
        return invalid_input(path + "/FilterTensor/Sizes: expected Sizes[1] * GroupCount == " +
                             std::to_string(channels) + " (the channels of InputTensor " +
                             format_dims(d.input.sizes) + "), found Sizes[1] = " + std::to_string(d.filter.sizes[1]) +
                             " with GroupCount " + std::to_string(d.group_count));
    if (out_channels % d.group_count != 0)
        return invalid_input(path + "/FilterTensor/Sizes: expected Sizes[0] (output channels M) to be a multiple of "
                             "GroupCount " + std::to_string(d.group_count) + ", found " + format_dims(d.filter.sizes));

    return Status::ok();
}

// {N, M, spatial...} of the output (spec §7.3), for a desc that passed check_geometry.
Result<std::vector<uint64_t>> expected_output_sizes(const QuantizedLinearConvolutionDesc& d, const std::string& path) {
    const uint32_t spatial = d.input.rank() - 2;
    std::vector<uint64_t> expected_output{d.input.sizes[0], d.filter.sizes[0]};
    for (uint32_t i = 0; i < spatial; ++i) {
        const uint64_t in = d.input.sizes[2 + i], k = d.filter.sizes[2 + i];
        const auto out = conv_output_size(in, k, d.strides[i], d.dilations[i], d.start_padding[i], d.end_padding[i]);
        if (!out)
            return invalid_input(
                path + "/FilterTensor/Sizes: expected the dilated kernel ((" + std::to_string(k) + " - 1) * Dilations[" +
                std::to_string(i) + "] " + std::to_string(d.dilations[i]) + " + 1 = " +
                std::to_string((k - 1) * d.dilations[i] + 1) + ") to fit the padded input (" + std::to_string(in) +
                " + StartPadding " + std::to_string(d.start_padding[i]) + " + EndPadding " +
                std::to_string(d.end_padding[i]) + ") in spatial dimension " + std::to_string(i) + ", found " +
                format_dims(d.filter.sizes));
        expected_output.push_back(*out);
    }
    return expected_output;
}

// Every check of spec §7.3, §7.4 and §10 that does not depend on the feature level. `path` is the desc's
// JSON path; `dimension_count` the optional DimensionCount member.
Status validate(const QuantizedLinearConvolutionDesc& d, const std::string& path,
                std::optional<uint32_t> dimension_count) {
    DMLTOOL_RETURN_IF_ERROR(check_geometry(d, path, dimension_count));
    const uint64_t out_channels = d.filter.sizes[0];
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> expected_output, expected_output_sizes(d, path));
    if (std::vector<uint64_t>(d.output.sizes.begin(), d.output.sizes.end()) != expected_output)
        return invalid_input(path + "/OutputTensor/Sizes: expected " + format_dims64(expected_output) +
                             " (N of InputTensor, M of FilterTensor, spatial floor((in + start + end - ((k - 1) * "
                             "dilation + 1)) / stride) + 1), found " + format_dims(d.output.sizes));

    const auto same_type = [&](const std::optional<TensorDesc>& zp, const char* member, const TensorDesc& of,
                               const char* of_member) -> Status {
        if (!zp || zp->data_type == of.data_type) return Status::ok();
        return invalid_input(path + "/" + member + "/DataType: expected " + std::string(data_type_name(of.data_type)) +
                             " (the data type of " + of_member + "), found " +
                             std::string(data_type_name(zp->data_type)));
    };
    DMLTOOL_RETURN_IF_ERROR(same_type(d.input_zero_point, "InputZeroPointTensor", d.input, "InputTensor"));
    DMLTOOL_RETURN_IF_ERROR(same_type(d.filter_zero_point, "FilterZeroPointTensor", d.filter, "FilterTensor"));
    DMLTOOL_RETURN_IF_ERROR(same_type(d.output_zero_point, "OutputZeroPointTensor", d.output, "OutputTensor"));

    // Input and output quantization is per tensor only (spec §7.2).
    const auto single = [&](const TensorDesc* t, const char* member) -> Status {
        if (!t || t->element_count() == 1) return Status::ok();
        return invalid_input(path + "/" + member + "/Sizes: expected exactly 1 element (per-tensor), found " +
                             format_dims(t->sizes));
    };
    DMLTOOL_RETURN_IF_ERROR(single(&d.input_scale, "InputScaleTensor"));
    DMLTOOL_RETURN_IF_ERROR(single(d.input_zero_point ? &*d.input_zero_point : nullptr, "InputZeroPointTensor"));
    DMLTOOL_RETURN_IF_ERROR(single(&d.output_scale, "OutputScaleTensor"));
    DMLTOOL_RETURN_IF_ERROR(single(d.output_zero_point ? &*d.output_zero_point : nullptr, "OutputZeroPointTensor"));
    const auto per_channel = [&](const TensorDesc* t, const char* member) -> Status {
        if (!t || t->element_count() == 1 || is_per_channel_shape(t->sizes, out_channels)) return Status::ok();
        const std::string m = std::to_string(out_channels);
        return invalid_input(path + "/" + member + "/Sizes: expected 1 element (per-tensor) or M = " + m +
                             " elements (per-channel: {" + m + "} or M on dim 1 and 1 elsewhere, e.g. {1," + m +
                             ",1,1}), found " + format_dims(t->sizes));
    };
    DMLTOOL_RETURN_IF_ERROR(per_channel(&d.filter_scale, "FilterScaleTensor"));
    DMLTOOL_RETURN_IF_ERROR(per_channel(d.filter_zero_point ? &*d.filter_zero_point : nullptr, "FilterZeroPointTensor"));

    if (d.bias) {
        Dims expected_bias(d.input.rank(), 1);
        expected_bias[1] = uint32_t(out_channels);
        if (d.bias->sizes != expected_bias)
            return invalid_input(path + "/BiasTensor/Sizes: expected " + format_dims(expected_bias) +
                                 " (one value per output channel, the rank of OutputTensor), found " +
                                 format_dims(d.bias->sizes));
    }
    return Status::ok();
}

FeatureLevelRow make_row(FeatureLevel level, RankRange main, RankRange quant, RankRange filter_scale) {
    return {level,
            {{"InputTensor", main, kQuantizedTypes},
             {"InputScaleTensor", quant, kScaleTypes},
             {"InputZeroPointTensor", quant, kQuantizedTypes},
             {"FilterTensor", main, kQuantizedTypes},
             {"FilterScaleTensor", filter_scale, kScaleTypes},
             {"FilterZeroPointTensor", quant, kQuantizedTypes},
             {"BiasTensor", main, kBiasTypes},
             {"OutputScaleTensor", quant, kScaleTypes},
             {"OutputZeroPointTensor", quant, kQuantizedTypes},
             {"OutputTensor", main, kQuantizedTypes}}};
}

class QuantizedLinearConvolutionOp final : public Op {
public:
    std::string_view name() const override { return "QUANTIZED_LINEAR_CONVOLUTION"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto d = std::make_unique<QuantizedLinearConvolutionDesc>();
        const TensorRole in = TensorRole::kInput;
        DMLTOOL_ASSIGN_OR_RETURN(d->input, reader.required_tensor("InputTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->input_scale, reader.required_tensor("InputScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->input_zero_point, reader.optional_tensor("InputZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->filter, reader.required_tensor("FilterTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->filter_scale, reader.required_tensor("FilterScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->filter_zero_point, reader.optional_tensor("FilterZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->bias, reader.optional_tensor("BiasTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output_scale, reader.required_tensor("OutputScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output_zero_point, reader.optional_tensor("OutputZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        DMLTOOL_ASSIGN_OR_RETURN(auto dimension_count, reader.optional_uint("DimensionCount"));
        DMLTOOL_ASSIGN_OR_RETURN(d->strides, reader.required_uint_array("Strides"));
        DMLTOOL_ASSIGN_OR_RETURN(d->dilations, reader.required_uint_array("Dilations"));
        DMLTOOL_ASSIGN_OR_RETURN(d->start_padding, reader.required_uint_array("StartPadding"));
        DMLTOOL_ASSIGN_OR_RETURN(d->end_padding, reader.required_uint_array("EndPadding"));
        DMLTOOL_ASSIGN_OR_RETURN(d->group_count, reader.required_uint("GroupCount"));
        DMLTOOL_RETURN_IF_ERROR(validate(*d, reader.path(), dimension_count));
        return std::unique_ptr<OpDesc>(std::move(d));
    }

    // OutputTensor = {N, M, spatial floor((in + start + end - ((k - 1) * dilation + 1)) / stride) + 1}, of the
    // OutputZeroPointTensor's DataType when there is one, else the InputTensor's. Strides, Dilations and the
    // paddings stay required, as DML requires them.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        QuantizedLinearConvolutionDesc d;
        JsonObjectReader reader(desc, path);
        const TensorRole in = TensorRole::kInput;
        DMLTOOL_ASSIGN_OR_RETURN(d.input, reader.required_tensor("InputTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d.filter, reader.required_tensor("FilterTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d.output_zero_point, reader.optional_tensor("OutputZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(auto dimension_count, reader.optional_uint("DimensionCount"));
        DMLTOOL_ASSIGN_OR_RETURN(d.strides, reader.required_uint_array("Strides"));
        DMLTOOL_ASSIGN_OR_RETURN(d.dilations, reader.required_uint_array("Dilations"));
        DMLTOOL_ASSIGN_OR_RETURN(d.start_padding, reader.required_uint_array("StartPadding"));
        DMLTOOL_ASSIGN_OR_RETURN(d.end_padding, reader.required_uint_array("EndPadding"));
        DMLTOOL_ASSIGN_OR_RETURN(d.group_count, reader.required_uint("GroupCount"));
        const DataType default_type = d.output_zero_point ? d.output_zero_point->data_type : d.input.data_type;
        // The output's own checks (type, rank) are parse()'s: here it only needs to pass the geometry's.
        d.output.data_type = kQuantizedTypes.contains(default_type) ? default_type : d.input.data_type;
        d.output.sizes = d.input.sizes;
        DMLTOOL_RETURN_IF_ERROR(check_geometry(d, path, dimension_count));
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> sizes, expected_output_sizes(d, path));
        set_derived_output(desc, "OutputTensor", default_type, sizes);
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& base) const override {
        const auto& d = static_cast<const QuantizedLinearConvolutionDesc&>(base);
        const auto slot = [](std::string_view member, TensorRole role, const TensorDesc* t) {
            return TensorSlot{std::string(member), member, role, t};
        };
        const auto maybe = [](const std::optional<TensorDesc>& t) { return t ? &*t : nullptr; };
        const TensorRole in = TensorRole::kInput;
        return {slot("InputTensor", in, &d.input),
                slot("InputScaleTensor", in, &d.input_scale),
                slot("InputZeroPointTensor", in, maybe(d.input_zero_point)),
                slot("FilterTensor", in, &d.filter),
                slot("FilterScaleTensor", in, &d.filter_scale),
                slot("FilterZeroPointTensor", in, maybe(d.filter_zero_point)),
                slot("BiasTensor", in, maybe(d.bias)),
                slot("OutputScaleTensor", in, &d.output_scale),
                slot("OutputZeroPointTensor", in, maybe(d.output_zero_point)),
                slot("OutputTensor", TensorRole::kOutput, &d.output)};
    }

    Result<DmlDesc> dml_desc(const OpDesc& base) const override {
        const auto& d = static_cast<const QuantizedLinearConvolutionDesc&>(base);
        const auto maybe = [](const std::optional<TensorDesc>& t) { return t ? &*t : nullptr; };
        DmlDesc dml{"QUANTIZED_LINEAR_CONVOLUTION", {}};
        dml.input("InputTensor", &d.input)
            .input("InputScaleTensor", &d.input_scale)
            .input("InputZeroPointTensor", maybe(d.input_zero_point))
            .input("FilterTensor", &d.filter)
            .input("FilterScaleTensor", &d.filter_scale)
            .input("FilterZeroPointTensor", maybe(d.filter_zero_point))
            .input("BiasTensor", maybe(d.bias))
            .input("OutputScaleTensor", &d.output_scale)
            .input("OutputZeroPointTensor", maybe(d.output_zero_point))
            .output("OutputTensor", &d.output);
        dml.uint("DimensionCount", uint32_t(d.strides.size()))
            .uint_array("Strides", d.strides)
            .uint_array("Dilations", d.dilations)
            .uint_array("StartPadding", d.start_padding)
            .uint_array("EndPadding", d.end_padding)
            .uint("GroupCount", d.group_count);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override { return table_; }

    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        return quantized_linear_convolution::run_reference(static_cast<const QuantizedLinearConvolutionDesc&>(desc),
                                                           inputs, outputs, context);
    }

    Status check_input_values(const OpDesc&, std::span<const HostTensor* const> inputs) const override {
        return check_scale_values(inputs);
    }

    Tolerance default_tolerance(const OpDesc&, size_t) const override {
        return {.bitwise = false,
                .ulp = 0,
                .abs = 1,
                .reason = "the requantization multiplier may be evaluated in float32 or fixed point and accumulate "
                          "in another order, so a value at a rounding tie can move by one step"};
    }

    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        // No semantics option changes this op: integer accumulation and round-half-to-even are fixed.
        return plan_default(static_cast<const QuantizedLinearConvolutionDesc&>(desc));
    }

    std::vector<std::string> device_plan_variants(const OpDesc& desc, const SemanticsOptions&) const override {
        return plan_variants(static_cast<const QuantizedLinearConvolutionDesc&>(desc));
    }

    Result<DevicePlan> plan_device_variant(const OpDesc& desc, const SemanticsOptions&,
                                           std::string_view variant) const override {
        return plan_variant(static_cast<const QuantizedLinearConvolutionDesc&>(desc), variant);
    }

    // Descs that DirectML 1.15.4 refuses with E_INVALIDARG although the documentation allows them (registered in
    // gpu/directml/deviations/; found one change at a time, results/directml_wine_2026-11-24_probe.txt).
    std::vector<DeviationModel> deviation_models() const override {
        using Kind = DeviationModel::Kind;
        auto conv = [](const OpDesc& d) -> const QuantizedLinearConvolutionDesc& {
            return static_cast<const QuantizedLinearConvolutionDesc&>(d);
        };
        return {
            {.name = "qlconv-zero-point-scale-shapes-differ",
             .kind = Kind::kRejectsDesc,
             .applies = [conv](const OpDesc& d) {
                 const auto& c = conv(d);
                 auto differs = [](const TensorDesc& scale, const std::optional<TensorDesc>& zero_point) {
                     return zero_point && zero_point->sizes != scale.sizes;
                 };
                 return differs(c.input_scale, c.input_zero_point) || differs(c.filter_scale, c.filter_zero_point) ||
                        differs(c.output_scale, c.output_zero_point);
             },
             .adjust_semantics = nullptr,
             .unit_roundoff = 0},
            {.name = "qlconv-per-channel-quantization-1d",
             .kind = Kind::kRejectsDesc,
             .applies = [conv](const OpDesc& d) {
                 const auto& c = conv(d);
                 auto one_dimensional_per_channel = [](const TensorDesc& t) {
                     return t.rank() == 1 && t.element_count() > 1;
                 };
                 return one_dimensional_per_channel(c.filter_scale) ||
                        (c.filter_zero_point && one_dimensional_per_channel(*c.filter_zero_point));
             },
             .adjust_semantics = nullptr,
             .unit_roundoff = 0},
        };
    }

    WorkEstimate work(const OpDesc& base) const override {
        const auto& d = static_cast<const QuantizedLinearConvolutionDesc&>(base);
        const auto bytes = [](const TensorDesc& t) { return t.element_count() * element_size(t.data_type); };
        WorkEstimate w;
        w.bytes = bytes(d.input) + bytes(d.filter) + (d.bias ? bytes(*d.bias) : 0) + bytes(d.output);
        // Every output element is one dot product of length (C/G) * prod(kernel); a MAC counts as 2 ops.
        w.ops = 2 * d.output.element_count() * (d.filter.element_count() / d.filter.sizes[0]);
        return w;
    }


    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return quantized_linear_convolution::generate_case(feature_levels(), rng, out);
    }
private:
    const FeatureLevelTable table_{make_row(fl(2, 1), {4, 4}, {4, 4}, {4, 4}),
                                   make_row(fl(4, 0), {3, 4}, {1, 4}, {3, 4}),
                                   make_row(fl(5, 2), {3, 4}, {1, 4}, {1, 4})};
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<QuantizedLinearConvolutionOp>(); }

}  // namespace dmltool::ops::quantized_linear_convolution
