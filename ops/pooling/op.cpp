// The pooling family (docs/operators-pooling.md): DML_OPERATOR_MAX_POOLING2, AVERAGE_POOLING, AVERAGE_POOLING1 and
// QUANTIZED_LINEAR_AVERAGE_POOLING, one registry entry each, sharing the window geometry, the validation, the
// reference and the GPU kernel.
//
// Feature-level tables (DirectML documentation, Tensor support):
//   MAX_POOLING2 (introduced 2_1), InputTensor/OutputTensor 4-5 dims, OutputIndicesTensor 4-5 dims:
//     2_1: FLOAT32, FLOAT16; indices UINT32
//     3_0: + INT8, UINT8
//     5_0: FLOAT32, FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8; indices UINT64, UINT32
//   AVERAGE_POOLING (1_0): InputTensor/OutputTensor 4-5 dims, FLOAT32, FLOAT16
//   AVERAGE_POOLING1 (6_2): InputTensor/OutputTensor 4-5 dims, FLOAT32, FLOAT16
//   QUANTIZED_LINEAR_AVERAGE_POOLING (6_2): InputTensor/OutputTensor 4-5 dims INT8, UINT8; the scales 1-5 dims
//     FLOAT32; the zero points 1-5 dims INT8, UINT8.
//
// Rules chosen where the documentation is silent (docs/operators-pooling.md: Rules): the output size formula uses the
// dilated window ((WindowSize - 1) * Dilation + 1); every window must reach at least one input element (a window of
// padding only has no maximum and, without IncludePadding, no divisor); quantization scales and zero points hold
// 1 element (per tensor) or C (per channel: {C}, or C on dim 1 and 1 elsewhere, e.g. {1,C,1,1}).
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/pooling/pooling.h"

namespace dmltool::ops::pooling {
namespace {

constexpr DataTypeSet kFloatTypes{DataType::kFloat32, DataType::kFloat16};
constexpr DataTypeSet kMaxTypes30{DataType::kFloat32, DataType::kFloat16, DataType::kInt8, DataType::kUint8};
constexpr DataTypeSet kMaxTypes50{DataType::kFloat32, DataType::kFloat16, DataType::kInt64,  DataType::kInt32,
                                  DataType::kInt16,   DataType::kInt8,    DataType::kUint64, DataType::kUint32,
                                  DataType::kUint16,  DataType::kUint8};
constexpr DataTypeSet kIndexTypes21{DataType::kUint32};
constexpr DataTypeSet kIndexTypes50{DataType::kUint64, DataType::kUint32};
constexpr DataTypeSet kQuantizedTypes{DataType::kInt8, DataType::kUint8};
constexpr DataTypeSet kScaleTypes{DataType::kFloat32};
constexpr RankRange kRank45{4, 5};
constexpr RankRange kRank15{1, 5};

std::string format_dims64(const std::vector<uint64_t>& dims) {
    std::string out = "{";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) out += ',';
        out += std::to_string(dims[i]);
    }
    return out + "}";
}

// See dml_desc: scales or zero points of fewer than 3 dimensions beside a 4-D input, or fewer than 5 beside a 5-D one.
bool quantization_rank_too_low_for_directml(const PoolingDesc& q) {
    const uint32_t lowest = q.input.rank() == 5 ? 5 : 3;
    for (const auto* t : {&q.input_scale, &q.input_zero_point, &q.output_scale, &q.output_zero_point})
        if (*t && (*t)->rank() < lowest) return true;
    return false;
}

std::string_view kind_name(PoolingKind kind) {
    switch (kind) {
        case PoolingKind::kMaxPooling2: return "MAX_POOLING2";
        case PoolingKind::kAveragePooling: return "AVERAGE_POOLING";
        case PoolingKind::kAveragePooling1: return "AVERAGE_POOLING1";
        case PoolingKind::kQuantizedLinearAveragePooling: return "QUANTIZED_LINEAR_AVERAGE_POOLING";
    }
    return "?";
}

// The checks the output's sizes depend on: the input's rank, DimensionCount and the per-spatial-dimension arrays.
Status check_geometry(const PoolingDesc& d, const std::string& path, std::optional<uint32_t> dimension_count) {
    const uint32_t rank = d.input.rank();
    if (rank != 4 && rank != 5)
        return invalid_input(path + "/InputTensor/Sizes: expected 4 or 5 dimensions ({N,C,H,W} or {N,C,D,H,W}), "
                             "found " + format_dims(d.input.sizes));
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
                  {"WindowSize", &d.window, true},
                  {"StartPadding", &d.start_padding, false},
                  {"EndPadding", &d.end_padding, false},
                  {"Dilations", &d.dilations, true}};
    for (const auto& a : arrays) {
        if (a.values == &d.dilations && !has_dilations(d.kind)) continue;
        if (a.values->size() != spatial)
            return invalid_input(path + "/" + a.member + ": expected " + std::to_string(spatial) +
                                 " entries (one per spatial dimension of InputTensor " + format_dims(d.input.sizes) +
                                 "), found " + std::to_string(a.values->size()));
        for (size_t i = 0; a.at_least_one && i < spatial; ++i)
            if ((*a.values)[i] == 0)
                return invalid_input(path + "/" + a.member + "/" + std::to_string(i) + ": expected at least 1, found 0");
    }
    return Status::ok();
}

// {N, C, spatial...} of the output, for a desc that passed check_geometry; also refuses windows of padding only.
Result<std::vector<uint64_t>> expected_output_sizes(const PoolingDesc& d, const std::string& path) {
    const uint32_t spatial = d.spatial_dimension_count();
    std::vector<uint64_t> sizes{d.input.sizes[0], d.input.sizes[1]};
    for (uint32_t i = 0; i < spatial; ++i) {
        const uint64_t in = d.input.sizes[2 + i], w = d.window[i], s = d.strides[i], dil = d.dilations[i];
        const uint64_t start = d.start_padding[i], end = d.end_padding[i];
        const auto out = pooled_size(in, w, s, dil, start, end);
        if (!out)
            return invalid_input(path + "/WindowSize/" + std::to_string(i) + ": expected the dilated window ((" +
                                 std::to_string(w) + " - 1) * " + std::to_string(dil) + " + 1 = " +
                                 std::to_string((w - 1) * dil + 1) + ") to fit the padded input (" +
                                 std::to_string(in) + " + StartPadding " + std::to_string(start) + " + EndPadding " +
                                 std::to_string(end) + ") in spatial dimension " + std::to_string(i) + ", found " +
                                 std::to_string(w));
        // Windows that reach no input element (padding only): the first tap at or past 0 decides, O(1) each.
        for (uint64_t o = 0; o < *out; ++o) {
            const int64_t first = tap_position(o, 0, s, dil, start);
            bool reaches = first >= 0 && first < int64_t(in);
            if (first < 0) {
                const uint64_t k = (uint64_t(-first) + dil - 1) / dil;
                reaches = k < w && first + int64_t(k * dil) < int64_t(in);
            }
            if (!reaches)
                return invalid_input(path + "/StartPadding: expected every window to cover at least one input "
                                     "element, found output position " + std::to_string(o) + " of spatial dimension " +
                                     std::to_string(i) + " covering only padding (input " + std::to_string(in) +
                                     ", WindowSize " + std::to_string(w) + ", Strides " + std::to_string(s) +
                                     ", Dilations " + std::to_string(dil) + ", StartPadding " + std::to_string(start) +
                                     ", EndPadding " + std::to_string(end) + ")");
        }
        sizes.push_back(*out);
    }
    return sizes;
}

Status validate(const PoolingDesc& d, const std::string& path, std::optional<uint32_t> dimension_count) {
    if (is_quantized(d.kind)) {
        // The quantized tensors' types first: the zero points must match them.
        for (const auto& [member, t] : {std::pair{"InputTensor", &d.input}, std::pair{"OutputTensor", &d.output}})
            if (!kQuantizedTypes.contains(t->data_type))
                return invalid_input(path + "/" + member + "/DataType: expected one of " + kQuantizedTypes.to_string() +
                                     ", found " + std::string(data_type_name(t->data_type)));
    } else if (d.output.data_type != d.input.data_type) {
        return invalid_input(path + "/OutputTensor/DataType: expected " + std::string(data_type_name(d.input.data_type)) +
                             " (the InputTensor's data type), found " + std::string(data_type_name(d.output.data_type)));
    }
    DMLTOOL_RETURN_IF_ERROR(check_geometry(d, path, dimension_count));
    if (d.output.rank() != d.input.rank())
        return invalid_input(path + "/OutputTensor/Sizes: expected " + std::to_string(d.input.rank()) +
                             " dimensions (the rank of InputTensor), found " + format_dims(d.output.sizes));
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> expected, expected_output_sizes(d, path));
    if (std::vector<uint64_t>(d.output.sizes.begin(), d.output.sizes.end()) != expected)
        return invalid_input(path + "/OutputTensor/Sizes: expected " + format_dims64(expected) +
                             " ({N, C, floor((in + StartPadding + EndPadding - ((WindowSize - 1) * Dilation + 1)) / "
                             "Strides) + 1} of InputTensor " + format_dims(d.input.sizes) + "), found " +
                             format_dims(d.output.sizes));
    if (d.output_indices && d.output_indices->sizes != d.output.sizes)
        return invalid_input(path + "/OutputIndicesTensor/Sizes: expected " + format_dims(d.output.sizes) +
                             " (the OutputTensor's sizes), found " + format_dims(d.output_indices->sizes));
    if (is_quantized(d.kind)) {
        const auto same_type = [&](const std::optional<TensorDesc>& zp, const char* member, const TensorDesc& of,
                                   const char* of_member) -> Status {
            if (!zp || zp->data_type == of.data_type) return Status::ok();
            return invalid_input(path + "/" + member + "/DataType: expected " +
                                 std::string(data_type_name(of.data_type)) + " (the data type of " + of_member +
                                 "), found " + std::string(data_type_name(zp->data_type)));
        };
        DMLTOOL_RETURN_IF_ERROR(same_type(d.input_zero_point, "InputZeroPointTensor", d.input, "InputTensor"));
        DMLTOOL_RETURN_IF_ERROR(same_type(d.output_zero_point, "OutputZeroPointTensor", d.output, "OutputTensor"));
        const uint64_t channels = d.input.sizes[1];
        const auto per_channel = [&](const std::optional<TensorDesc>& t, const char* member) -> Status {
            if (!t || t->element_count() == 1 || is_per_channel_shape(t->sizes, channels)) return Status::ok();
            const std::string c = std::to_string(channels);
            return invalid_input(path + "/" + member + "/Sizes: expected 1 element (per tensor) or C = " + c +
                                 " elements (per channel: {" + c + "} or C on dim 1 and 1 elsewhere, e.g. {1," + c +
                                 ",1,1}), found " + format_dims(t->sizes));
        };
        DMLTOOL_RETURN_IF_ERROR(per_channel(d.input_scale, "InputScaleTensor"));
        DMLTOOL_RETURN_IF_ERROR(per_channel(d.input_zero_point, "InputZeroPointTensor"));
        DMLTOOL_RETURN_IF_ERROR(per_channel(d.output_scale, "OutputScaleTensor"));
        DMLTOOL_RETURN_IF_ERROR(per_channel(d.output_zero_point, "OutputZeroPointTensor"));
    }
    return Status::ok();
}

// Reads everything but the output tensors (parse() and derive_outputs() share it).
Status read_members(PoolingDesc& d, JsonObjectReader& reader, std::optional<uint32_t>& dimension_count) {
    const TensorRole in = TensorRole::kInput;
    DMLTOOL_ASSIGN_OR_RETURN(d.input, reader.required_tensor("InputTensor", in));
    if (is_quantized(d.kind)) {
        DMLTOOL_ASSIGN_OR_RETURN(d.input_scale, reader.required_tensor("InputScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d.input_zero_point, reader.optional_tensor("InputZeroPointTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d.output_scale, reader.required_tensor("OutputScaleTensor", in));
        DMLTOOL_ASSIGN_OR_RETURN(d.output_zero_point, reader.optional_tensor("OutputZeroPointTensor", in));
    }
    DMLTOOL_ASSIGN_OR_RETURN(dimension_count, reader.optional_uint("DimensionCount"));
    DMLTOOL_ASSIGN_OR_RETURN(d.strides, reader.required_uint_array("Strides"));
    DMLTOOL_ASSIGN_OR_RETURN(d.window, reader.required_uint_array("WindowSize"));
    DMLTOOL_ASSIGN_OR_RETURN(d.start_padding, reader.required_uint_array("StartPadding"));
    DMLTOOL_ASSIGN_OR_RETURN(d.end_padding, reader.required_uint_array("EndPadding"));
    if (has_dilations(d.kind)) {
        DMLTOOL_ASSIGN_OR_RETURN(d.dilations, reader.required_uint_array("Dilations"));
    } else {
        d.dilations.assign(d.strides.size(), 1);
    }
    if (!is_max(d.kind)) {
        DMLTOOL_ASSIGN_OR_RETURN(d.include_padding, reader.required_bool("IncludePadding"));
    }
    return Status::ok();
}

class PoolingOp final : public Op {
public:
    explicit PoolingOp(PoolingKind kind) : kind_(kind), table_(make_table(kind)) {}

    std::string_view name() const override { return kind_name(kind_); }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto d = std::make_unique<PoolingDesc>();
        d->kind = kind_;
        std::optional<uint32_t> dimension_count;
        DMLTOOL_RETURN_IF_ERROR(read_members(*d, reader, dimension_count));
        DMLTOOL_ASSIGN_OR_RETURN(d->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        if (is_max(kind_)) {
            DMLTOOL_ASSIGN_OR_RETURN(d->output_indices,
                                     reader.optional_tensor("OutputIndicesTensor", TensorRole::kOutput));
        }
        DMLTOOL_RETURN_IF_ERROR(validate(*d, reader.path(), dimension_count));
        return std::unique_ptr<OpDesc>(std::move(d));
    }

    // OutputTensor = {N, C, floor((in + start + end - ((window - 1) * dilation + 1)) / stride) + 1}, of the
    // InputTensor's DataType (QL: the OutputZeroPointTensor's when there is one). An OutputIndicesTensor given
    // without Sizes gets the same sizes (UINT32 by default); an absent one stays absent (it is optional).
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        const bool indices = is_max(kind_) && desc.is_object() && desc.contains("OutputIndicesTensor") &&
                             !desc["OutputIndicesTensor"].is_null() &&
                             output_sizes_omitted(desc, "OutputIndicesTensor");
        if (!output_sizes_omitted(desc, "OutputTensor") && !indices) return Status::ok();
        PoolingDesc d;
        d.kind = kind_;
        JsonObjectReader reader(desc, path);
        std::optional<uint32_t> dimension_count;
        DMLTOOL_RETURN_IF_ERROR(read_members(d, reader, dimension_count));
        DMLTOOL_RETURN_IF_ERROR(check_geometry(d, path, dimension_count));
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> sizes, expected_output_sizes(d, path));
        const DataType type = d.output_zero_point ? d.output_zero_point->data_type : d.input.data_type;
        if (output_sizes_omitted(desc, "OutputTensor")) set_derived_output(desc, "OutputTensor", type, sizes);
        if (indices) set_derived_output(desc, "OutputIndicesTensor", DataType::kUint32, sizes);
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& base) const override {
        const auto& d = static_cast<const PoolingDesc&>(base);
        const auto maybe = [](const std::optional<TensorDesc>& t) { return t ? &*t : nullptr; };
        const TensorRole in = TensorRole::kInput, out = TensorRole::kOutput;
        std::vector<TensorSlot> slots{{"InputTensor", "InputTensor", in, &d.input}};
        if (is_quantized(kind_)) {
            slots.push_back({"InputScaleTensor", "InputScaleTensor", in, maybe(d.input_scale)});
            slots.push_back({"InputZeroPointTensor", "InputZeroPointTensor", in, maybe(d.input_zero_point)});
            slots.push_back({"OutputScaleTensor", "OutputScaleTensor", in, maybe(d.output_scale)});
            slots.push_back({"OutputZeroPointTensor", "OutputZeroPointTensor", in, maybe(d.output_zero_point)});
        }
        slots.push_back({"OutputTensor", "OutputTensor", out, &d.output});
        // The optional OutputIndicesTensor is listed only when present: it is the last slot, so no position moves,
        // and the runner allocates every listed output (it has no absent-output case).
        if (d.output_indices) slots.push_back({"OutputIndicesTensor", "OutputIndicesTensor", out, &*d.output_indices});
        return slots;
    }

    // DirectML's member order (DirectML.h's DML_MAX_POOLING2, DML_AVERAGE_POOLING, DML_AVERAGE_POOLING1 and
    // DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC). An absent optional tensor (the zero points,
    // OutputIndicesTensor) is a null member in its own slot; DirectML binds an absent output as
    // DML_BINDING_TYPE_NONE (gpu/directml/directml_backend.cpp). Run against DirectML.dll 1.15.4 under Wine:
    // results/directml_pooling_2026-11-29.txt.
    Result<DmlDesc> dml_desc(const OpDesc& base) const override {
        const auto& d = static_cast<const PoolingDesc&>(base);
        // DirectML 1.15.4's CompileOperator fails (0x8007023e, an exception inside DirectML, the device intact) on
        // QUANTIZED_LINEAR_AVERAGE_POOLING descs whose scales or zero points have fewer than 3 dimensions beside a
        // 4-D input, or fewer than 5 beside a 5-D one, which the documentation allows (1 to 5), but not every time:
        // the same desc ran and passed in some runs (results/directml_pooling_2026-11-29.txt). A refusal that comes
        // and goes cannot be a registered deviation, so these descs are not given to DirectML.
        if (is_quantized(kind_) && quantization_rank_too_low_for_directml(d))
            return unsupported("QUANTIZED_LINEAR_AVERAGE_POOLING: scale or zero point tensors of fewer than " +
                               std::to_string(d.input.rank() == 5 ? 5 : 3) + " dimensions beside a " +
                               std::to_string(d.input.rank()) + "-D input: DirectML 1.15.4 fails CompileOperator "
                               "(0x8007023e) on such descs, not every time (results/directml_pooling_2026-11-29.txt)");
        const auto maybe = [](const std::optional<TensorDesc>& t) { return t ? &*t : nullptr; };
        DmlDesc dml{std::string(kind_name(kind_)), {}};
        dml.input("InputTensor", &d.input);
        if (is_quantized(kind_))
            dml.input("InputScaleTensor", maybe(d.input_scale))
                .input("InputZeroPointTensor", maybe(d.input_zero_point))
                .input("OutputScaleTensor", maybe(d.output_scale))
                .input("OutputZeroPointTensor", maybe(d.output_zero_point));
        dml.output("OutputTensor", &d.output);
        if (is_max(kind_)) dml.output("OutputIndicesTensor", maybe(d.output_indices));
        dml.uint("DimensionCount", uint32_t(d.strides.size()))
            .uint_array("Strides", d.strides)
            .uint_array("WindowSize", d.window)
            .uint_array("StartPadding", d.start_padding)
            .uint_array("EndPadding", d.end_padding);
        if (has_dilations(kind_)) dml.uint_array("Dilations", d.dilations);
        if (!is_max(kind_)) dml.boolean("IncludePadding", d.include_padding);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override { return table_; }

    // Descs of QUANTIZED_LINEAR_AVERAGE_POOLING that DirectML 1.15.4 refuses although the documentation allows them
    // (registered in gpu/directml/deviations/; found one change at a time, results/directml_pooling_2026-11-29.txt).
    std::vector<DeviationModel> deviation_models() const override {
        if (!is_quantized(kind_)) return {};
        using Kind = DeviationModel::Kind;
        auto pool = [](const OpDesc& d) -> const PoolingDesc& { return static_cast<const PoolingDesc&>(d); };
        // The models speak only about descs dml_desc gives to DirectML.
        auto given_to_directml = [](const PoolingDesc& q) { return !quantization_rank_too_low_for_directml(q); };
        return {
            // CreateOperator E_INVALIDARG: OutputTensor's data type differs from InputTensor's (INT8 -> UINT8 or
            // UINT8 -> INT8), with or without zero points.
            {.name = "qlavgpool-input-output-types-differ",
             .kind = Kind::kRejectsDesc,
             .applies = [pool, given_to_directml](const OpDesc& d) {
                 return given_to_directml(pool(d)) && pool(d).input.data_type != pool(d).output.data_type;
             },
             .adjust_semantics = nullptr,
             .unit_roundoff = 0},
            // CreateOperator E_INVALIDARG: a zero point whose sizes differ from its scale's (a per-channel scale
            // beside a per-tensor zero point, or {1,1,1,1} beside {1}).
            {.name = "qlavgpool-zero-point-scale-shapes-differ",
             .kind = Kind::kRejectsDesc,
             .applies = [pool, given_to_directml](const OpDesc& d) {
                 const PoolingDesc& q = pool(d);
                 auto differs = [](const std::optional<TensorDesc>& scale, const std::optional<TensorDesc>& zero) {
                     return scale && zero && zero->sizes != scale->sizes;
                 };
                 return given_to_directml(q) &&
                        (differs(q.input_scale, q.input_zero_point) || differs(q.output_scale, q.output_zero_point));
             },
             .adjust_semantics = nullptr,
             .unit_roundoff = 0},
        };
    }

    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        return run_pooling_reference(static_cast<const PoolingDesc&>(desc), inputs, outputs, context);
    }

    Status check_input_values(const OpDesc&, std::span<const HostTensor* const> inputs) const override {
        return is_quantized(kind_) ? check_scale_values(inputs) : Status::ok();
    }

    Tolerance default_tolerance(const OpDesc& base, size_t) const override {
        if (is_max(kind_))
            return {.bitwise = true,
                    .reason = "max pooling selects an input element (and its index): copied bit for bit, exact"};
        if (is_quantized(kind_))
            return {.abs = 1,
                    .reason = "the integer window sum is exact; the requantization sum * InputScale / (count * "
                              "OutputScale) may be evaluated in float32 in any order, so a value at a rounding tie "
                              "can move by one step"};
        Tolerance t{.ulp = 2,
                    .reason = "float32 sum of the window (any order: (k - 1) u sum|x|) and one division or reciprocal "
                              "(<= 3 u |mean|): the forward error bound of docs/operators-pooling.md",
                    .error_bound = true,
                    .unit_roundoff = 0x1p-24};
        // A FLOAT16 output may be the float32 mean rounded toward zero (Direct3D's float-to-float conversion rule,
        // core/op.h): DirectML 1.15.4 under Wine rounded every off element of cases/pooling.json's FLOAT16 averages
        // toward zero, within one ulp (results/directml_pooling_2026-11-29.txt).
        if (static_cast<const PoolingDesc&>(base).output.data_type == DataType::kFloat16) {
            t.narrowing_toward_zero = true;
            t.reason += "; FLOAT16 output rounded to nearest or toward zero (D3D conversion rules)";
        }
        return t;
    }

    WorkEstimate work(const OpDesc& base) const override {
        const auto& d = static_cast<const PoolingDesc&>(base);
        const auto bytes = [](const TensorDesc& t) { return t.element_count() * element_size(t.data_type); };
        uint64_t window = 1;
        for (uint32_t w : d.window) window *= w;
        // Every output element reads its window once (one compare or add per tap); the input is counted once.
        WorkEstimate w;
        w.bytes = bytes(d.input) + bytes(d.output) + (d.output_indices ? bytes(*d.output_indices) : 0);
        w.ops = d.output.element_count() * window;
        return w;
    }

    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        // No semantics option applies: window selection, the max rule and the rounding are fixed.
        return plan_pooling_device(static_cast<const PoolingDesc&>(desc));
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return pooling::generate_case(kind_, feature_levels(), rng, out);
    }

private:
    static FeatureLevelTable make_table(PoolingKind kind) {
        switch (kind) {
            case PoolingKind::kMaxPooling2:
                return {{fl(2, 1), {{"InputTensor", kRank45, kFloatTypes}, {"OutputTensor", kRank45, kFloatTypes},
                                    {"OutputIndicesTensor", kRank45, kIndexTypes21}}},
                        {fl(3, 0), {{"InputTensor", kRank45, kMaxTypes30}, {"OutputTensor", kRank45, kMaxTypes30},
                                    {"OutputIndicesTensor", kRank45, kIndexTypes21}}},
                        {fl(5, 0), {{"InputTensor", kRank45, kMaxTypes50}, {"OutputTensor", kRank45, kMaxTypes50},
                                    {"OutputIndicesTensor", kRank45, kIndexTypes50}}}};
            case PoolingKind::kAveragePooling:
                return {{fl(1, 0), {{"InputTensor", kRank45, kFloatTypes}, {"OutputTensor", kRank45, kFloatTypes}}}};
            case PoolingKind::kAveragePooling1:
                return {{fl(6, 2), {{"InputTensor", kRank45, kFloatTypes}, {"OutputTensor", kRank45, kFloatTypes}}}};
            case PoolingKind::kQuantizedLinearAveragePooling:
                return {{fl(6, 2),
                         {{"InputTensor", kRank45, kQuantizedTypes},
                          {"InputScaleTensor", kRank15, kScaleTypes},
                          {"InputZeroPointTensor", kRank15, kQuantizedTypes},
                          {"OutputScaleTensor", kRank15, kScaleTypes},
                          {"OutputZeroPointTensor", kRank15, kQuantizedTypes},
                          {"OutputTensor", kRank45, kQuantizedTypes}}}};
        }
        return {};
    }

    PoolingKind kind_;
    FeatureLevelTable table_;
};

}  // namespace

std::vector<std::unique_ptr<Op>> make_ops() {
    std::vector<std::unique_ptr<Op>> ops;
    for (PoolingKind kind : {PoolingKind::kMaxPooling2, PoolingKind::kAveragePooling, PoolingKind::kAveragePooling1,
                             PoolingKind::kQuantizedLinearAveragePooling})
        ops.push_back(std::make_unique<PoolingOp>(kind));
    return ops;
}

}  // namespace dmltool::ops::pooling
