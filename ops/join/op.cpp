// DML_OPERATOR_JOIN: concatenates InputTensors along Axis into OutputTensor; the inverse of SPLIT and pure data
// movement, so values are copied bit-exactly.
// Feature levels (the DML_JOIN_OPERATOR_DESC page's tensor-support tables), InputTensors and OutputTensor alike:
//   1_0: 4 dims;      FLOAT32, FLOAT16, INT32, INT16, UINT32, UINT16 (no 8-bit types)
//   2_1: 4 dims;      + INT8, UINT8
//   3_0: 4 to 5 dims; the same 8 types
//   4_1: 1 to 8 dims; + FLOAT64, INT64, UINT64
// Rules (the page's pseudocode): InputCount > 0; every input has the output's DataType and DimensionCount, the
// output's sizes in every dimension but Axis, and the inputs' Axis sizes sum to the output's; Axis < rank.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/op.h"
#include "ops/join/join.h"
#include "shaders/strided_copy.h"

namespace dmltool::ops::join {
namespace {

constexpr DataTypeSet kTypes10 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32,
                                  DataType::kInt16,   DataType::kUint32,  DataType::kUint16};
constexpr DataTypeSet kTypes21 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32,  DataType::kInt16,
                                  DataType::kInt8,    DataType::kUint32,  DataType::kUint16, DataType::kUint8};
constexpr DataTypeSet kTypes41 = {DataType::kFloat64, DataType::kFloat32, DataType::kFloat16, DataType::kInt64,
                                  DataType::kInt32,   DataType::kInt16,   DataType::kInt8,    DataType::kUint64,
                                  DataType::kUint32,  DataType::kUint16,  DataType::kUint8};
constexpr RankRange kRank4{4, 4};
constexpr RankRange kRank4To5{4, 5};
constexpr RankRange kRank1To8{1, 8};

Status validate(const JoinDesc& desc, const std::string& path) {
    const TensorDesc& out = desc.output;
    const uint32_t axis = desc.axis;
    if (desc.inputs.empty())
        return invalid_input(path + "/InputTensors: expected at least 1 tensor desc (InputCount > 0), found 0");
    if (axis >= out.rank())
        return invalid_input(path + "/Axis: expected less than " + std::to_string(out.rank()) +
                             " (the OutputTensor's dimension count, " + format_dims(out.sizes) + "), found " +
                             std::to_string(axis));
    uint64_t joined = 0;  // axis sizes of the inputs; 64-bit so a sum of 32-bit sizes cannot wrap
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        const TensorDesc& in = desc.inputs[i];
        const std::string member = path + "/InputTensors/" + std::to_string(i);
        if (in.data_type != out.data_type)
            return invalid_input(member + "/DataType: expected " + std::string(data_type_name(out.data_type)) +
                                 " (the OutputTensor's data type), found " + std::string(data_type_name(in.data_type)));
        if (in.rank() != out.rank())
            return invalid_input(member + "/Sizes: expected " + std::to_string(out.rank()) +
                                 " dimensions (as OutputTensor " + format_dims(out.sizes) + "), found " +
                                 std::to_string(in.rank()) + " in " + format_dims(in.sizes));
        for (uint32_t d = 0; d < out.rank(); ++d)
            if (d != axis && in.sizes[d] != out.sizes[d])
                return invalid_input(member + "/Sizes/" + std::to_string(d) + ": expected " +
                                     std::to_string(out.sizes[d]) + " (OutputTensor Sizes[" + std::to_string(d) +
                                     "]; only Axis " + std::to_string(axis) + " may differ), found " +
                                     std::to_string(in.sizes[d]));
        joined += in.sizes[axis];
    }
    if (joined != out.sizes[axis])
        return invalid_input(path + "/OutputTensor/Sizes/" + std::to_string(axis) + ": expected " +
                             std::to_string(joined) + " (the sum of the InputTensors' sizes along Axis " +
                             std::to_string(axis) + "), found " + std::to_string(out.sizes[axis]));
    return Status::ok();
}

class JoinOp final : public Op {
public:
    std::string_view name() const override { return "JOIN"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto desc = std::make_unique<JoinDesc>();
        DMLTOOL_ASSIGN_OR_RETURN(desc->inputs, reader.required_tensor_array("InputTensors", TensorRole::kInput));
        DMLTOOL_RETURN_IF_ERROR(reader.check_optional_count("InputCount", desc->inputs.size(), "InputTensors"));
        DMLTOOL_ASSIGN_OR_RETURN(desc->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        DMLTOOL_ASSIGN_OR_RETURN(desc->axis, reader.required_uint("Axis"));
        DMLTOOL_RETURN_IF_ERROR(validate(*desc, reader.path()));
        return std::unique_ptr<OpDesc>(std::move(desc));
    }

    // OutputTensor omitted (or without Sizes): the first input's sizes with the inputs' Axis sizes summed, of the
    // first input's DataType. parse() checks the inputs against each other.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        JsonObjectReader reader(desc, path);
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<TensorDesc> inputs,
                                 reader.required_tensor_array("InputTensors", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t axis, reader.required_uint("Axis"));
        if (inputs.empty())
            return invalid_input(path + "/InputTensors: expected at least 1 tensor desc (InputCount > 0), found 0");
        if (axis >= inputs[0].rank())
            return invalid_input(path + "/Axis: expected less than " + std::to_string(inputs[0].rank()) +
                                 " (InputTensors[0]'s dimension count), found " + std::to_string(axis));
        std::vector<uint64_t> sizes(inputs[0].sizes.begin(), inputs[0].sizes.end());
        sizes[axis] = 0;
        for (const TensorDesc& in : inputs) sizes[axis] += in.rank() > axis ? in.sizes[axis] : 0;
        set_derived_output(desc, "OutputTensor", inputs[0].data_type, sizes);
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& desc) const override {
        const auto& d = static_cast<const JoinDesc&>(desc);
        std::vector<TensorSlot> slots;
        for (size_t i = 0; i < d.inputs.size(); ++i)
            slots.push_back({"InputTensors[" + std::to_string(i) + "]", "InputTensors", TensorRole::kInput,
                             &d.inputs[i]});
        slots.push_back({"OutputTensor", "OutputTensor", TensorRole::kOutput, &d.output});
        return slots;
    }

    // DML_JOIN_OPERATOR_DESC: InputCount, InputTensors, OutputTensor, Axis.
    Result<DmlDesc> dml_desc(const OpDesc& desc) const override {
        const auto& d = static_cast<const JoinDesc&>(desc);
        std::vector<const TensorDesc*> inputs;
        for (const TensorDesc& input : d.inputs) inputs.push_back(&input);
        DmlDesc dml{"JOIN", {}};
        dml.uint("InputCount", uint32_t(inputs.size())).inputs("InputTensors", inputs).output("OutputTensor", &d.output);
        dml.uint("Axis", d.axis);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override {
        static const FeatureLevelTable table = {
            {fl(1, 0), {{"InputTensors", kRank4, kTypes10}, {"OutputTensor", kRank4, kTypes10}}},
            {fl(2, 1), {{"InputTensors", kRank4, kTypes21}, {"OutputTensor", kRank4, kTypes21}}},
            {fl(3, 0), {{"InputTensors", kRank4To5, kTypes21}, {"OutputTensor", kRank4To5, kTypes21}}},
            {fl(4, 1), {{"InputTensors", kRank1To8, kTypes41}, {"OutputTensor", kRank1To8, kTypes41}}},
        };
        return table;
    }

    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        const auto& d = static_cast<const JoinDesc&>(desc);
        bool complete = inputs.size() == d.inputs.size() && outputs.size() == 1 && outputs[0];
        for (const HostTensor* in : inputs) complete = complete && in;
        if (!complete)
            return internal_error("JOIN reference: expected " + std::to_string(d.inputs.size()) +
                                  " inputs and 1 output, found " + std::to_string(inputs.size()) + " and " +
                                  std::to_string(outputs.size()));
        return run_join_reference(d, inputs, *outputs[0], context.pool);
    }

    Tolerance default_tolerance(const OpDesc&, size_t) const override {
        return {.bitwise = true, .reason = "pure data movement: bit-exact"};
    }

    WorkEstimate work(const OpDesc& desc) const override {
        const TensorDesc& out = static_cast<const JoinDesc&>(desc).output;
        // Every element is read once and written once.
        return {.bytes = 2 * out.element_count() * element_size(out.data_type), .ops = 0};
    }

    // Input i is a strided copy (shaders/strided_copy.h) into the output window that starts at axis_start(i)
    // along Axis: the input's sizes and strides, the output's strides, an output offset of start *
    // OutputStride[Axis]. One dispatch per input (inputs are separate buffers); the windows are disjoint, so no
    // barrier separates them.
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        const auto& d = static_cast<const JoinDesc&>(desc);
        DevicePlan plan;
        const Dims output_strides = d.output.effective_strides();
        const shaders::StridedCopyBuffer output{BufferBinding::Source::kOutput, 0, d.output.total_size_in_bytes};
        for (size_t i = 0; i < d.inputs.size(); ++i) {
            const TensorDesc& in = d.inputs[i];
            const Dims input_strides = in.effective_strides();
            shaders::StridedCopyProblem problem;
            problem.element_bytes = uint32_t(element_size(in.data_type));
            for (uint32_t k = 0; k < in.rank(); ++k)
                problem.dims.push_back({in.sizes[k], input_strides[k], output_strides[k]});
            problem.output_offset = axis_start(d, i) * output_strides[d.axis];
            const std::string label = "join/" + std::string(data_type_name(in.data_type)) + "/in" + std::to_string(i);
            DMLTOOL_RETURN_IF_ERROR(shaders::append_strided_copy(
                problem, {BufferBinding::Source::kInput, uint32_t(i), in.total_size_in_bytes}, output, label, plan,
                shaders::StridedCopyOptions{.threads_per_group = 256}));
            plan.dispatches.back().barrier_after = false;
        }
        return plan;
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return join::generate_case(feature_levels(), rng, out);
    }
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<JoinOp>(); }

}  // namespace dmltool::ops::join
