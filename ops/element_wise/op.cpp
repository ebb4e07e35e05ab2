// The generic Op of one table row: every DML_OPERATOR_ELEMENT_WISE_* and DML_OPERATOR_ACTIVATION_* type is one
// instance of FamilyOp, its behaviour given by its FunctionSpec (desc.h) and FunctionMath (function_math.h).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/case_generator.h"
#include "ops/element_wise/dml_binding.h"
#include "ops/element_wise/engine.h"
#include "ops/element_wise/kernel.h"
#include "ops/element_wise/softmax_kernel.h"

namespace dmltool::ops::element_wise {

// DirectML's departures on a row (below): the models the deviation registry names.
std::vector<DeviationModel> element_wise_deviation_models(const FunctionSpec& function);

namespace {

constexpr std::string_view kNativeHalfVariant = "softmax/native_half";

class FamilyOp final : public Op {
public:
    explicit FamilyOp(const FunctionSpec& function) : function_(function) {}

    std::string_view name() const override { return function_.name; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        DMLTOOL_ASSIGN_OR_RETURN(auto desc, parse_desc(function_, reader));
        return std::unique_ptr<OpDesc>(std::move(desc));
    }

    // OutputTensor = the Sizes of the inputs that share them (every tensor of an element-wise desc has the output's
    // Sizes), and the DataType of an input the docs say it shares (else the first input's, where the table allows
    // it for the output, else the table's first output type: comparisons give UINT32).
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        JsonObjectReader reader(desc, path);
        std::optional<TensorDesc> sized, typed, first;
        for (const MemberSpec& m : function_.members) {
            if (m.kind != MemberKind::kInputTensor || !reader.has(m.name)) continue;
            DMLTOOL_ASSIGN_OR_RETURN(TensorDesc in, reader.required_tensor(m.name, TensorRole::kInput));
            if (!first) first = in;
            if (!sized && in_group(function_.same_sizes_groups, m.name)) sized = in;
            if (!typed && in_group(function_.same_type_groups, m.name)) typed = in;
        }
        if (!first) return Status::ok();  // parse() names the missing input
        const TensorDesc& shape = sized ? *sized : *first;
        const DataType type = typed ? typed->data_type : derived_output_type(first->data_type);
        set_derived_output(desc, "OutputTensor", type, std::vector<uint64_t>(shape.sizes.begin(), shape.sizes.end()));
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& op_desc) const override {
        const auto& desc = static_cast<const ElementWiseDesc&>(op_desc);
        std::vector<TensorSlot> slots;
        size_t index = 0;
        for (const MemberSpec& m : function_.members) {
            if (m.kind != MemberKind::kInputTensor) continue;
            const auto& input = desc.inputs[index++];
            slots.push_back({std::string(m.name), m.name, TensorRole::kInput, input ? &*input : nullptr});
        }
        for (const MemberSpec& m : function_.members)
            if (m.kind == MemberKind::kOutputTensor)
                slots.push_back({std::string(m.name), m.name, TensorRole::kOutput, &desc.output});
        return slots;
    }

    // What --backend directml gives DirectML.dll: the row's members in DirectML's order (dml_binding.h, its layouts
    // unit-tested; docs/element-wise.md: DirectML for the campaign against DirectML.dll under Wine).
    Result<DmlDesc> dml_desc(const OpDesc& op_desc) const override {
        return element_wise_dml_desc(static_cast<const ElementWiseDesc&>(op_desc));
    }

    const FeatureLevelTable& feature_levels() const override { return function_.feature_levels; }

    // How DirectML 1.15.4 departs from the contract on this row (registered in gpu/directml/deviations/; evidence
    // in results/directml_element_wise_2026-11-29.txt).
    std::vector<DeviationModel> deviation_models() const override { return element_wise_deviation_models(function_); }

    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        if (outputs.size() != 1 || !outputs[0] || inputs.size() != function_.input_count())
            return internal_error(std::string(name()) + " reference: expected " +
                                  std::to_string(function_.input_count()) + " inputs and 1 output, found " +
                                  std::to_string(inputs.size()) + " and " + std::to_string(outputs.size()));
        return element_wise::run_reference(static_cast<const ElementWiseDesc&>(desc), inputs, *outputs[0], context);
    }

    Tolerance default_tolerance(const OpDesc& desc, size_t) const override {
        return tolerance_of(static_cast<const ElementWiseDesc&>(desc));
    }

    WorkEstimate work(const OpDesc& op_desc) const override {
        const auto& desc = static_cast<const ElementWiseDesc&>(op_desc);
        // Bytes read + written: each input's distinct addressed elements read once (a dimension of stride 0
        // broadcasts one element: it is read once, as a copy-roofline comparison and PyTorch's peer count it), each
        // output element written once; one operation per output element.
        const uint64_t n = desc.output.element_count();
        uint64_t bytes = n * element_size(desc.output.data_type);
        for (const auto& input : desc.inputs) {
            if (!input) continue;
            const Dims strides = input->effective_strides();
            uint64_t addressed = 1;
            for (size_t d = 0; d < input->sizes.size(); ++d)
                if (strides[d] != 0) addressed *= input->sizes[d];
            bytes += addressed * element_size(input->data_type);
        }
        return {.bytes = bytes, .ops = n};
    }

    // Our kernels (ew-kernels' one emitter, ops/element_wise/kernel.h); kUnsupported for rows without a body.
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions& semantics) const override {
        return plan_element_wise(static_cast<const ElementWiseDesc&>(desc), semantics);
    }

    // Autotuning (docs/benchmarks.md): the reductions' FLOAT16 kernel with the half conversion opcodes, which a
    // device whose opcodes are exact runs with the same values (softmax_kernel.h: native_half).
    std::vector<std::string> device_plan_variants(const OpDesc& op_desc, const SemanticsOptions&) const override {
        const auto& desc = static_cast<const ElementWiseDesc&>(op_desc);
        if (!function_.math || !function_.math->lane || desc.output.data_type != DataType::kFloat16) return {};
        if (!plan_softmax(desc, {.native_half = true, .hardware_exp2 = true}).is_ok()) return {};
        return {std::string(kNativeHalfVariant)};
    }

    Result<DevicePlan> plan_device_variant(const OpDesc& op_desc, const SemanticsOptions& semantics,
                                           std::string_view variant) const override {
        const auto& desc = static_cast<const ElementWiseDesc&>(op_desc);
        if (variant == kNativeHalfVariant && !device_plan_variants(op_desc, semantics).empty())
            return plan_softmax(desc, {.native_half = true, .hardware_exp2 = true});
        return unsupported(std::string(name()) + ": no plan variant '" + std::string(variant) + "'");
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return element_wise::generate_case(*this, function_, rng, out);
    }

private:
    // Whether `member` shares a group (same type / same sizes) with OutputTensor.
    static bool in_group(const std::vector<std::vector<std::string_view>>& groups, std::string_view member) {
        for (const auto& group : groups) {
            const bool has_output = std::find(group.begin(), group.end(), "OutputTensor") != group.end();
            if (has_output && std::find(group.begin(), group.end(), member) != group.end()) return true;
        }
        return false;
    }

    DataType derived_output_type(DataType input) const {
        for (const FeatureLevelRow& row : function_.feature_levels)
            for (const TensorSupport& s : row.tensors)
                if (s.field == "OutputTensor" && !s.types.contains(input)) return first_type(s.types);
        return input;
    }

    static DataType first_type(const DataTypeSet& types) {
        for (DataType t : kAllTensorDataTypes)
            if (types.contains(t)) return t;
        return DataType::kFloat32;
    }

    const FunctionSpec& function_;
};

}  // namespace

std::vector<DeviationModel> element_wise_deviation_models(const FunctionSpec& function) {
    using Kind = DeviationModel::Kind;
    std::vector<DeviationModel> models;
    if (function.name == "ELEMENT_WISE_POW") {
        // DirectML applies the ScaleBias to the ExponentTensor's elements too, not only to "the input".
        models.push_back({.name = "pow-scale-bias-on-exponent",
                          .kind = Kind::kSemantics,
                          .applies = [](const OpDesc& d) { return static_cast<const ElementWiseDesc&>(d).scale_bias.has_value(); },
                          .adjust_semantics = [](SemanticsOptions& s) { s.pow_scale_bias_on_exponent = true; },
                          .unit_roundoff = 0});
    }
    // The family's other semantics models (engine.h, kModel*: what each computes and why it is not the contract).
    struct Semantic {
        std::string_view row;
        std::string_view model;
    };
    static constexpr Semantic kSemantic[] = {
        {"ELEMENT_WISE_NEGATE", kModelNarrowIntegersSaturate},
        {"ELEMENT_WISE_ABS", kModelNarrowIntegersSaturate},
        {"ELEMENT_WISE_POW", kModelNarrowIntegersSaturate},
        {"ELEMENT_WISE_POW", kModelPowExp2Log2},
        {"ELEMENT_WISE_CONSTANT_POW", kModelPowExp2Log2},
        {"ELEMENT_WISE_ADD", kModelFloat16SumOverflowsEarly},
        {"ELEMENT_WISE_ADD1", kModelFloat16SumOverflowsEarly},
        {"ELEMENT_WISE_SUBTRACT", kModelFloat16SumOverflowsEarly},
        {"ELEMENT_WISE_LOG", kModelLogDenormalAsNormal},
        {"ELEMENT_WISE_ATAN", kModelAtanCoarseNanAsOne},
        {"ELEMENT_WISE_ATAN_YX", kModelAtanCoarseNanAsOne},
        {"ELEMENT_WISE_ASINH", kModelAsinhFloat32Formula},
        {"ACTIVATION_LOG_SOFTMAX", kModelLogSoftmaxSumFloor},
        {"ACTIVATION_LOG_SOFTMAX1", kModelLogSoftmaxSumFloor},
    };
    for (const Semantic& m : kSemantic)
        if (function.name == m.row)
            models.push_back({.name = std::string(m.model),
                              .kind = Kind::kSemantics,
                              .applies = nullptr,
                              .adjust_semantics = [name = std::string(m.model)](SemanticsOptions& s) {
                                  s.element_wise_model = name;
                              },
                              .unit_roundoff = 0});
    // Inverse trigonometric and hyperbolic functions from coarse approximations (DirectML's shaders for a device
    // below shader model 6: DXBC has no such instructions, so they are polynomials compiled into the shader):
    // absolute errors of up to ~6e-5 (ASIN) where the contract allows ~1e-6. The contract's bound with a larger
    // unit roundoff, the smallest power of two above the measured error/bound ratios (results/).
    struct Coarse {
        std::string_view row;
        std::string_view model;
        double unit_roundoff;
    };
    static constexpr Coarse kCoarse[] = {
        {"ELEMENT_WISE_ASIN", "asin-coarse-approximation", 0x1p-17},
        {"ELEMENT_WISE_ACOS", "acos-coarse-approximation", 0x1p-18},
        {"ELEMENT_WISE_ATAN", "atan-coarse-approximation", 0x1p-19},
        {"ELEMENT_WISE_ATAN_YX", "atan-yx-coarse-approximation", 0x1p-19},
        {"ELEMENT_WISE_ASINH", "asinh-coarse-approximation", 0x1p-16},
    };
    // The softmax reductions of FLOAT16 computed in half precision (unit roundoff 2^-11), exponentials, sum, log
    // and division included, although half-precision computation is not allowed (the registry entries name
    // FLOAT16 only); half subnormals may flush to zero. As RESAMPLE's linear FLOAT16 entry.
    static constexpr std::pair<std::string_view, std::string_view> kHalf[] = {
        {"ACTIVATION_SOFTMAX", "softmax-half-precision-intermediates"},
        {"ACTIVATION_SOFTMAX1", "softmax1-half-precision-intermediates"},
        {"ACTIVATION_LOG_SOFTMAX", "log-softmax-half-precision-intermediates"},
        {"ACTIVATION_LOG_SOFTMAX1", "log-softmax1-half-precision-intermediates"},
    };
    for (const auto& [row, model] : kHalf)
        if (function.name == row)
            models.push_back({.name = std::string(model),
                              .kind = Kind::kErrorBound,
                              .applies = nullptr,
                              .adjust_semantics = nullptr,
                              .unit_roundoff = 0x1p-11,
                              .overflow_magnitude = 0,
                              .smallest_normal = 0x1p-14});
    for (const Coarse& c : kCoarse)
        if (function.name == c.row)
            models.push_back({.name = std::string(c.model),
                              .kind = Kind::kErrorBound,
                              .applies = nullptr,
                              .adjust_semantics = nullptr,
                              .unit_roundoff = c.unit_roundoff});
    return models;
}

std::unique_ptr<Op> make_family_op(const FunctionSpec& function) { return std::make_unique<FamilyOp>(function); }

const FunctionSpec* find_function(std::string_view name) {
    for (const auto* table : {&element_wise_functions(), &activation::activation_functions()})
        for (const FunctionSpec& f : *table)
            if (f.name == name) return &f;
    return nullptr;
}

std::vector<std::unique_ptr<Op>> make_ops() {
    std::vector<std::unique_ptr<Op>> ops;
    for (const FunctionSpec& f : element_wise_functions()) ops.push_back(make_family_op(f));
    return ops;
}

}  // namespace dmltool::ops::element_wise
