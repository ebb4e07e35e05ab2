// DML_OPERATOR_SPLIT (spec §5, test vectors §9.2, checks §10): cuts the input along Axis into consecutive
// OutputTensors; the inverse of JOIN and pure data movement, so values are copied bit-exactly.
// Feature levels (spec §5.4), InputTensor and OutputTensors alike:
//   1_0: 4 dims;      FLOAT32, FLOAT16, INT32, INT16, UINT32, UINT16 (no 8-bit types)
//   2_1: 4 dims;      + INT8, UINT8
//   3_0: 1 to 8 dims; the same 8 types
//   4_1: 1 to 8 dims; + FLOAT64, INT64, UINT64
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/op.h"
#include "ops/split/kernel.h"
#include "ops/split/split.h"

namespace dmltool::ops::split {
namespace {

constexpr DataTypeSet kTypes10 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32,
                                  DataType::kInt16,   DataType::kUint32,  DataType::kUint16};
constexpr DataTypeSet kTypes21 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32,  DataType::kInt16,
                                  DataType::kInt8,    DataType::kUint32,  DataType::kUint16, DataType::kUint8};
constexpr DataTypeSet kTypes41 = {DataType::kFloat64, DataType::kFloat32, DataType::kFloat16, DataType::kInt64,
                                  DataType::kInt32,   DataType::kInt16,   DataType::kInt8,    DataType::kUint64,
                                  DataType::kUint32,  DataType::kUint16,  DataType::kUint8};
constexpr RankRange kRank4{4, 4};
constexpr RankRange kRank1To8{1, 8};

Status check_axis(const TensorDesc& in, uint32_t axis, const std::string& path) {
    if (axis >= in.rank())
        return invalid_input(path + "/Axis: expected less than " + std::to_string(in.rank()) +
                             " (the InputTensor's dimension count, " + format_dims(in.sizes) + "), found " +
                             std::to_string(axis));
    return Status::ok();
}

// The outputs' sizes along Axis when OutputTensors is omitted: OutputSizesAlongAxis (a dmltool extension, one
// output per entry) or OutputCount equal parts.
Result<std::vector<uint64_t>> derived_part_sizes(JsonObjectReader& reader, const TensorDesc& in, uint32_t axis,
                                                 const std::string& path) {
    const uint64_t total = in.sizes[axis];
    const std::string in_axis = "InputTensor Sizes[" + std::to_string(axis) + "] = " + std::to_string(total);
    if (reader.has("OutputSizesAlongAxis")) {
        DMLTOOL_ASSIGN_OR_RETURN(Dims parts, reader.required_uint_array("OutputSizesAlongAxis"));
        const std::string member = path + "/OutputSizesAlongAxis";
        if (parts.empty()) return invalid_input(member + ": expected a non-empty array of sizes, found array of 0");
        uint64_t sum = 0;
        for (size_t i = 0; i < parts.size(); ++i) {
            if (parts[i] == 0) return invalid_input(member + "/" + std::to_string(i) + ": expected a size >= 1, found 0");
            sum += parts[i];
        }
        if (sum != total)
            return invalid_input(member + ": expected sizes summing to " + in_axis + ", found " +
                                 std::to_string(sum) + " (" + format_dims(parts) + ")");
        return std::vector<uint64_t>(parts.begin(), parts.end());
    }
    if (!reader.has("OutputCount"))
        return invalid_input(path + "/OutputTensors: missing required member (an array of tensor descs; or OutputCount "
                             "for equal parts, or OutputSizesAlongAxis, along Axis)");
    DMLTOOL_ASSIGN_OR_RETURN(uint32_t count, reader.required_uint("OutputCount"));
    if (count == 0 || total % count != 0)
        return invalid_input(path + "/OutputCount: expected a count that divides " + in_axis +
                             " into equal parts, found " + std::to_string(count));
    return std::vector<uint64_t>(count, total / count);
}

Status validate(const SplitDesc& desc, const std::string& path) {
    const TensorDesc& in = desc.input;
    const uint32_t axis = desc.axis;
    DMLTOOL_RETURN_IF_ERROR(check_axis(in, axis, path));
    const std::string in_axis = "InputTensor Sizes[" + std::to_string(axis) + "] = " + std::to_string(in.sizes[axis]);
    uint64_t taken = 0;  // axis sizes of the outputs so far; 64-bit so a sum of 32-bit sizes cannot wrap
    for (size_t i = 0; i < desc.outputs.size(); ++i) {
        const TensorDesc& out = desc.outputs[i];
        const std::string member = path + "/OutputTensors/" + std::to_string(i);
        if (out.data_type != in.data_type)
            return invalid_input(member + "/DataType: expected " + std::string(data_type_name(in.data_type)) +
                                 " (the InputTensor's data type), found " + std::string(data_type_name(out.data_type)));
        if (out.rank() != in.rank())
            return invalid_input(member + "/Sizes: expected " + std::to_string(in.rank()) +
                                 " dimensions (as InputTensor " + format_dims(in.sizes) + "), found " +
                                 std::to_string(out.rank()) + " in " + format_dims(out.sizes));
        for (uint32_t d = 0; d < in.rank(); ++d)
            if (d != axis && out.sizes[d] != in.sizes[d])
                return invalid_input(member + "/Sizes/" + std::to_string(d) + ": expected " +
                                     std::to_string(in.sizes[d]) + " (InputTensor Sizes[" + std::to_string(d) +
                                     "]; only Axis " + std::to_string(axis) + " may differ), found " +
                                     std::to_string(out.sizes[d]));
        const uint64_t before = taken;
        taken += out.sizes[axis];
        if (taken > in.sizes[axis]) {
            const std::string earlier = i == 0 ? "" : ", of which OutputTensors 0.." + std::to_string(i - 1) +
                                                          " already take " + std::to_string(before);
            return invalid_input(member + "/Sizes/" + std::to_string(axis) + ": expected at most " +
                                 std::to_string(in.sizes[axis] - before) + " (" + in_axis + earlier + "), found " +
                                 std::to_string(out.sizes[axis]));
        }
    }
    if (taken < in.sizes[axis]) {
        const size_t last = desc.outputs.size() - 1;
        const uint32_t last_size = desc.outputs[last].sizes[axis];
        return invalid_input(path + "/OutputTensors/" + std::to_string(last) + "/Sizes/" + std::to_string(axis) +
                             ": expected " + std::to_string(in.sizes[axis] - taken + last_size) +
                             " so that the outputs' sizes along Axis " + std::to_string(axis) + " sum to " + in_axis +
                             ", found " + std::to_string(last_size) + " (the outputs sum to " + std::to_string(taken) +
                             ")");
    }
    return Status::ok();
}

class SplitOp final : public Op {
public:
    std::string_view name() const override { return "SPLIT"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto desc = std::make_unique<SplitDesc>();
        DMLTOOL_ASSIGN_OR_RETURN(desc->input, reader.required_tensor("InputTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(desc->outputs, reader.required_tensor_array("OutputTensors", TensorRole::kOutput));
        DMLTOOL_RETURN_IF_ERROR(reader.check_optional_count("OutputCount", desc->outputs.size(), "OutputTensors"));
        DMLTOOL_ASSIGN_OR_RETURN(desc->axis, reader.required_uint("Axis"));
        DMLTOOL_RETURN_IF_ERROR(validate(*desc, reader.path()));
        return std::unique_ptr<OpDesc>(std::move(desc));
    }

    // OutputTensors omitted: with "OutputSizesAlongAxis": [a, b, ...] (a dmltool extension, removed from the desc
    // once used) one output per entry, with "OutputCount": N N equal parts; each the InputTensor's DataType and
    // sizes except along Axis.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        const bool outputs_given = desc.contains("OutputTensors") && !desc["OutputTensors"].is_null();
        if (outputs_given) {
            if (desc.contains("OutputSizesAlongAxis"))
                return invalid_input(path + "/OutputSizesAlongAxis: expected it only without OutputTensors (it derives "
                                     "them), found both");
            return Status::ok();
        }
        JsonObjectReader reader(desc, path);
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc in, reader.required_tensor("InputTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t axis, reader.required_uint("Axis"));
        DMLTOOL_RETURN_IF_ERROR(check_axis(in, axis, path));
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint64_t> parts, derived_part_sizes(reader, in, axis, path));
        nlohmann::json outputs = nlohmann::json::array();
        for (uint64_t part : parts) {
            std::vector<uint64_t> sizes(in.sizes.begin(), in.sizes.end());
            sizes[axis] = part;
            outputs.push_back(derived_tensor_desc(in.data_type, sizes));
        }
        desc["OutputTensors"] = std::move(outputs);
        desc.erase("OutputSizesAlongAxis");
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& desc) const override {
        const auto& d = static_cast<const SplitDesc&>(desc);
        std::vector<TensorSlot> slots = {{"InputTensor", "InputTensor", TensorRole::kInput, &d.input}};
        for (size_t i = 0; i < d.outputs.size(); ++i)
            slots.push_back({"OutputTensors[" + std::to_string(i) + "]", "OutputTensors", TensorRole::kOutput,
                             &d.outputs[i]});
        return slots;
    }

    Result<DmlDesc> dml_desc(const OpDesc& desc) const override {
        const auto& d = static_cast<const SplitDesc&>(desc);
        std::vector<const TensorDesc*> outputs;
        for (const TensorDesc& output : d.outputs) outputs.push_back(&output);
        DmlDesc dml{"SPLIT", {}};
        dml.input("InputTensor", &d.input).uint("OutputCount", uint32_t(outputs.size())).outputs("OutputTensors", outputs);
        dml.uint("Axis", d.axis);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override {
        static const FeatureLevelTable table = {
            {fl(1, 0), {{"InputTensor", kRank4, kTypes10}, {"OutputTensors", kRank4, kTypes10}}},
            {fl(2, 1), {{"InputTensor", kRank4, kTypes21}, {"OutputTensors", kRank4, kTypes21}}},
            {fl(3, 0), {{"InputTensor", kRank1To8, kTypes21}, {"OutputTensors", kRank1To8, kTypes21}}},
            {fl(4, 1), {{"InputTensor", kRank1To8, kTypes41}, {"OutputTensors", kRank1To8, kTypes41}}},
        };
        return table;
    }

    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        const auto& d = static_cast<const SplitDesc&>(desc);
        bool complete = inputs.size() == 1 && inputs[0] && outputs.size() == d.outputs.size();
        for (HostTensor* out : outputs) complete = complete && out;
        if (!complete)
            return internal_error("SPLIT reference: expected 1 input and " + std::to_string(d.outputs.size()) +
                                  " outputs, found " + std::to_string(inputs.size()) + " and " +
                                  std::to_string(outputs.size()));
        return run_split_reference(d, *inputs[0], outputs, context.pool);
    }

    Tolerance default_tolerance(const OpDesc&, size_t) const override {
        return {.bitwise = true, .reason = "pure data movement: bit-exact"};
    }

    WorkEstimate work(const OpDesc& desc) const override {
        const TensorDesc& in = static_cast<const SplitDesc&>(desc).input;
        // Every element is read once and written once (spec §5.5).
        return {.bytes = 2 * in.element_count() * element_size(in.data_type), .ops = 0};
    }

    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        return plan_split_device(static_cast<const SplitDesc&>(desc));  // data movement: no semantics options apply
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return split::generate_case(feature_levels(), rng, out);
    }
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<SplitOp>(); }

}  // namespace dmltool::ops::split
