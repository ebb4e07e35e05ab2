// DML_OPERATOR_DEPTH_TO_SPACE1 (spec §4, test vectors §9.1, checks §10): rearranges BxB blocks of channels
// into space; a pure permutation, so values are copied bit-exactly.
// Feature levels (spec §4.3), InputTensor and OutputTensor alike, 4 dimensions:
//   2_1: FLOAT32, FLOAT16, INT32, INT16, INT8, UINT32, UINT16, UINT8
//   5_0: + FLOAT64, INT64, UINT64
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.h"
#include "ops/depth_to_space1/depth_to_space1.h"
#include "ops/depth_to_space1/kernel.h"

namespace dmltool::ops::depth_to_space1 {

namespace {

constexpr EnumName kOrderNames[] = {
    {"DEPTH_COLUMN_ROW", uint32_t(DepthSpaceOrder::kDepthColumnRow)},
    {"COLUMN_ROW_DEPTH", uint32_t(DepthSpaceOrder::kColumnRowDepth)},
};

constexpr DataTypeSet kTypes21 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kInt16,
                                  DataType::kInt8,    DataType::kUint32,  DataType::kUint16, DataType::kUint8};
constexpr DataTypeSet kTypes50 = {DataType::kFloat64, DataType::kFloat32, DataType::kFloat16, DataType::kInt64,
                                  DataType::kInt32,   DataType::kInt16,   DataType::kInt8,    DataType::kUint64,
                                  DataType::kUint32,  DataType::kUint16,  DataType::kUint8};
constexpr RankRange kRank4{4, 4};

// Tuning variants (device_plan_variants): name, kernel shape, and the fragment of its dispatch label that shows the
// shape really applies (a forced shape that cannot falls back to another).
struct KernelVariant {
    const char* name;
    D2sKernel kernel;
    const char* label;
};
constexpr KernelVariant kKernelVariants[] = {
    {"d2s/strided_copy", D2sKernel::kStridedCopy, "strided_copy"},
    {"d2s/vectors", D2sKernel::kVectors, "vector_interleave"},
    {"d2s/pieces", D2sKernel::kPieces, "piece_gather"},
};

// The plan of `variant` where its kernel shape really applies to the desc (a forced shape that cannot falls back to
// another, which the dispatch label shows).
std::optional<DevicePlan> plan_if_applies(const OpDesc& desc, const KernelVariant& variant) {
    auto plan = plan_depth_to_space1_device(static_cast<const DepthToSpace1Desc&>(desc), {}, variant.kernel);
    if (!plan.is_ok() || plan->dispatches.size() != 1 ||
        plan->dispatches[0].label.find(variant.label) == std::string::npos)
        return std::nullopt;
    return std::move(plan).value();
}

// "{1,2,4,6}" for sizes that may not fit in 32 bits (H*B, W*B before the comparison).
std::string format_wide_dims(std::initializer_list<uint64_t> dims) {
    std::string out = "{";
    for (uint64_t d : dims) {
        if (out.size() > 1) out += ',';
        out += std::to_string(d);
    }
    return out + "}";
}

// The shape formula needs {N,C,H,W}; the feature-level table would also refuse other ranks, but only after
// validate(), and without saying why.
Status check_input_rank(const TensorDesc& in, const std::string& path) {
    if (in.rank() != 4)
        return invalid_input(path + "/InputTensor/Sizes: expected 4 dimensions {N,C,H,W}, found " +
                             std::to_string(in.rank()) + " in " + format_dims(in.sizes));
    return Status::ok();
}

Status check_block_size(const TensorDesc& in, uint32_t block_size, const std::string& path) {
    const uint64_t block = block_size;
    if (block < 1) return invalid_input(path + "/BlockSize: expected at least 1, found 0");
    // 64-bit: B*B overflows 32 bits from B = 65536 (and would wrap to 0 or 1).
    const uint64_t block_area = block * block;
    if (in.sizes[1] % block_area != 0)
        return invalid_input(path + "/InputTensor/Sizes: expected a channel count (Sizes[1]) divisible by BlockSize^2 = " +
                             std::to_string(block_area) + " (BlockSize " + std::to_string(block) + "), found " +
                             std::to_string(in.sizes[1]));
    return Status::ok();
}

Status validate(const DepthToSpace1Desc& desc, const std::string& path) {
    const TensorDesc& in = desc.input;
    const TensorDesc& out = desc.output;
    if (out.data_type != in.data_type)
        return invalid_input(path + "/OutputTensor/DataType: expected " + std::string(data_type_name(in.data_type)) +
                             " (the InputTensor's data type), found " + std::string(data_type_name(out.data_type)));
    DMLTOOL_RETURN_IF_ERROR(check_input_rank(in, path));
    if (out.rank() != 4)
        return invalid_input(path + "/OutputTensor/Sizes: expected 4 dimensions {N,C,H,W}, found " +
                             std::to_string(out.rank()) + " in " + format_dims(out.sizes));
    DMLTOOL_RETURN_IF_ERROR(check_block_size(in, desc.block_size, path));
    const uint64_t block = desc.block_size;
    const uint64_t block_area = block * block;
    const uint64_t expected[4] = {in.sizes[0], in.sizes[1] / block_area, in.sizes[2] * block, in.sizes[3] * block};
    bool matches = true;
    for (int d = 0; d < 4; ++d) matches = matches && out.sizes[d] == expected[d];
    if (!matches)
        return invalid_input(path + "/OutputTensor/Sizes: expected " +
                             format_wide_dims({expected[0], expected[1], expected[2], expected[3]}) + " (InputTensor " +
                             format_dims(in.sizes) + " with BlockSize " + std::to_string(block) + "), found " +
                             format_dims(out.sizes));
    return Status::ok();
}

class DepthToSpace1Op final : public Op {
public:
    std::string_view name() const override { return "DEPTH_TO_SPACE1"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto desc = std::make_unique<DepthToSpace1Desc>();
        DMLTOOL_ASSIGN_OR_RETURN(desc->input, reader.required_tensor("InputTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(desc->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        DMLTOOL_ASSIGN_OR_RETURN(desc->block_size, reader.required_uint("BlockSize"));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t order, reader.required_enum("Order", "DML_DEPTH_SPACE_ORDER_", kOrderNames));
        desc->order = DepthSpaceOrder(order);
        DMLTOOL_RETURN_IF_ERROR(validate(*desc, reader.path()));
        return std::unique_ptr<OpDesc>(std::move(desc));
    }

    // OutputTensor = {N, C / BlockSize^2, H * BlockSize, W * BlockSize}, the InputTensor's DataType.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        JsonObjectReader reader(desc, path);
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc in, reader.required_tensor("InputTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t block, reader.required_uint("BlockSize"));
        DMLTOOL_RETURN_IF_ERROR(check_input_rank(in, path));
        DMLTOOL_RETURN_IF_ERROR(check_block_size(in, block, path));
        const uint64_t b = block;
        set_derived_output(desc, "OutputTensor", in.data_type,
                           {in.sizes[0], in.sizes[1] / (b * b), in.sizes[2] * b, in.sizes[3] * b});
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& desc) const override {
        const auto& d = static_cast<const DepthToSpace1Desc&>(desc);
        return {{"InputTensor", "InputTensor", TensorRole::kInput, &d.input},
                {"OutputTensor", "OutputTensor", TensorRole::kOutput, &d.output}};
    }

    Result<DmlDesc> dml_desc(const OpDesc& desc) const override {
        const auto& d = static_cast<const DepthToSpace1Desc&>(desc);
        DmlDesc dml{"DEPTH_TO_SPACE1", {}};
        dml.input("InputTensor", &d.input).output("OutputTensor", &d.output);
        dml.uint("BlockSize", d.block_size).uint("Order", uint32_t(d.order));
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override {
        static const FeatureLevelTable table = {
            {fl(2, 1), {{"InputTensor", kRank4, kTypes21}, {"OutputTensor", kRank4, kTypes21}}},
            {fl(5, 0), {{"InputTensor", kRank4, kTypes50}, {"OutputTensor", kRank4, kTypes50}}},
        };
        return table;
    }

    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        if (inputs.size() != 1 || outputs.size() != 1 || !inputs[0] || !outputs[0])
            return internal_error("DEPTH_TO_SPACE1 reference: expected 1 input and 1 output, found " +
                                  std::to_string(inputs.size()) + " and " + std::to_string(outputs.size()));
        return run_depth_to_space1_reference(static_cast<const DepthToSpace1Desc&>(desc), *inputs[0], *outputs[0],
                                             context.pool);
    }

    Tolerance default_tolerance(const OpDesc&, size_t) const override {
        return {.bitwise = true, .reason = "pure data movement: bit-exact"};
    }

    WorkEstimate work(const OpDesc& desc) const override {
        const TensorDesc& in = static_cast<const DepthToSpace1Desc&>(desc).input;
        // Every element is read once and written once (spec §4.5).
        return {.bytes = 2 * in.element_count() * element_size(in.data_type), .ops = 0};
    }

    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        // Data movement: no semantics options apply.
        return plan_depth_to_space1_device(static_cast<const DepthToSpace1Desc&>(desc));
    }

    // Autotuning: every kernel shape that applies (rows of whole aligned 16-byte vectors take all three). Which is
    // fastest depends on the device: the vector interleave's B adjacent stores per thread, the piece gather's small
    // coalesced loads and the strided copy's per-element gather trade differently on an H100 and an H200.
    std::vector<std::string> device_plan_variants(const OpDesc& desc, const SemanticsOptions&) const override {
        std::vector<std::string> names;
        for (const KernelVariant& variant : kKernelVariants)
            if (plan_if_applies(desc, variant)) names.push_back(variant.name);
        if (names.size() < 2) names.clear();
        return names;
    }

    // Offered as device_plan_variants lists them: where its shape applies and at least one other does too.
    Result<DevicePlan> plan_device_variant(const OpDesc& desc, const SemanticsOptions&,
                                           std::string_view variant) const override {
        for (const KernelVariant& v : kKernelVariants) {
            if (variant != v.name) continue;
            std::optional<DevicePlan> plan = plan_if_applies(desc, v);
            if (!plan) break;
            for (const KernelVariant& other : kKernelVariants)
                if (&other != &v && plan_if_applies(desc, other)) return std::move(*plan);
        }
        return unsupported("DEPTH_TO_SPACE1: no plan variant '" + std::string(variant) + "' for this desc");
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return depth_to_space1::generate_case(feature_levels(), rng, out);
    }
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<DepthToSpace1Op>(); }

}  // namespace dmltool::ops::depth_to_space1
