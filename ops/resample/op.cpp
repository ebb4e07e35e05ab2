// DML_OPERATOR_RESAMPLE (DML_RESAMPLE_OPERATOR_DESC, spec §6; v1 = half-pixel offsets 0.5 / -0.5).
// https://learn.microsoft.com/windows/win32/api/directml/ns-directml-dml_resample_operator_desc
// Feature levels (spec §6.3), InputTensor and OutputTensor alike:
//   2_0: 4 dims, FLOAT32, FLOAT16
//   5_1: 1-4 dims, FLOAT32, FLOAT16
//   6_2: 1-4 dims, FLOAT32, FLOAT16, INT8, UINT8
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/op.h"
#include "ops/resample/desc.h"
#include "ops/resample/kernel.h"
#include "ops/resample/kernel_internal.h"

namespace dmltool::ops::resample {
namespace {

constexpr EnumName kModeNames[] = {
    {"NEAREST_NEIGHBOR", uint32_t(InterpolationMode::kNearestNeighbor)},
    {"LINEAR", uint32_t(InterpolationMode::kLinear)},
};

std::string format_float(float value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", double(value));
    return text;
}

Status check_scales(const TensorDesc& input, const std::vector<float>& scales, const std::string& path) {
    if (scales.size() != input.rank())
        return invalid_input(path + "/Scales: expected " + std::to_string(input.rank()) +
                             " scales (one per dimension of InputTensor " + format_dims(input.sizes) +
                             "), found " + std::to_string(scales.size()));
    for (size_t i = 0; i < scales.size(); ++i) {
        const float s = scales[i];
        // The mapping divides by the scale; a zero, negative or non-finite scale has no meaning.
        if (!std::isfinite(s) || !(s > 0.0f))
            return invalid_input(path + "/Scales/" + std::to_string(i) + ": expected a finite scale > 0, found " +
                                 format_float(s));
    }
    return Status::ok();
}

// Spec §10 RESAMPLE rules that do not depend on the feature level.
Status validate(const ResampleDesc& desc, const std::string& path) {
    if (desc.output.data_type != desc.input.data_type)
        return invalid_input(path + "/OutputTensor/DataType: expected " +
                             std::string(data_type_name(desc.input.data_type)) + " (the InputTensor's DataType), found " +
                             std::string(data_type_name(desc.output.data_type)));
    if (desc.output.rank() != desc.input.rank())
        return invalid_input(path + "/OutputTensor/Sizes: expected " + std::to_string(desc.input.rank()) +
                             " dimensions (InputTensor " + format_dims(desc.input.sizes) + "), found " +
                             std::to_string(desc.output.rank()) + " (" + format_dims(desc.output.sizes) + ")");
    return check_scales(desc.input, desc.scales, path);
}

// Tuning variants of nearest upsampling (device_plan_variants): name and kernel shape.
constexpr std::pair<const char*, shaders::InterleaveShape> kUpsampleShapes[] = {
    {"upsample/vectors", shaders::InterleaveShape::kVectors},
    {"upsample/pieces", shaders::InterleaveShape::kPieces},
};
// Tuning variants of the dedicated linear x2 / x0.5 kernels (kernel_internal.h: LinearFastVariant).
constexpr std::pair<const char*, LinearFastVariant> kLinearVariants[] = {
    {"linear/native_half", {.native_half = true}},
    {"linear/one_row", {.one_output_row = true}},
    {"linear/one_row/native_half", {.native_half = true, .one_output_row = true}},
};

class ResampleOp final : public Op {
public:
    std::string_view name() const override { return "RESAMPLE"; }

    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& reader) const override {
        auto desc = std::make_unique<ResampleDesc>();
        DMLTOOL_ASSIGN_OR_RETURN(desc->input, reader.required_tensor("InputTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(desc->output, reader.required_tensor("OutputTensor", TensorRole::kOutput));
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t mode,
                                 reader.required_enum("InterpolationMode", "DML_INTERPOLATION_MODE_", kModeNames));
        desc->mode = InterpolationMode(mode);
        DMLTOOL_ASSIGN_OR_RETURN(desc->scales, reader.required_float_array("Scales"));
        DMLTOOL_RETURN_IF_ERROR(reader.check_optional_count("ScaleCount", desc->scales.size(), "Scales"));
        DMLTOOL_RETURN_IF_ERROR(validate(*desc, reader.path()));
        return std::unique_ptr<OpDesc>(std::move(desc));
    }

    // OutputTensor = floor(InputTensor.Sizes[d] * Scales[d]) per dimension (the scale as the float32 DML reads,
    // the product in double), the InputTensor's DataType. DML itself takes any output size; this is the usual one.
    Status derive_outputs(nlohmann::json& desc, const std::string& path) const override {
        if (!output_sizes_omitted(desc, "OutputTensor")) return Status::ok();
        JsonObjectReader reader(desc, path);
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc in, reader.required_tensor("InputTensor", TensorRole::kInput));
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<float> scales, reader.required_float_array("Scales"));
        DMLTOOL_RETURN_IF_ERROR(check_scales(in, scales, path));
        std::vector<uint64_t> sizes;
        for (size_t d = 0; d < scales.size(); ++d) {
            // Clamped where it cannot fit: parse() then says the size is not an unsigned 32-bit integer.
            const double size = std::floor(double(in.sizes[d]) * double(scales[d]));
            sizes.push_back(size < 0x1p63 ? uint64_t(size) : uint64_t(1) << 63);
        }
        set_derived_output(desc, "OutputTensor", in.data_type, sizes);
        return Status::ok();
    }

    std::vector<TensorSlot> tensors(const OpDesc& base) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        return {
            {"InputTensor", "InputTensor", TensorRole::kInput, &desc.input},
            {"OutputTensor", "OutputTensor", TensorRole::kOutput, &desc.output},
        };
    }

    Result<DmlDesc> dml_desc(const OpDesc& base) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        DmlDesc dml{"RESAMPLE", {}};
        dml.input("InputTensor", &desc.input).output("OutputTensor", &desc.output);
        dml.uint("InterpolationMode", uint32_t(desc.mode)).uint("ScaleCount", uint32_t(desc.scales.size()));
        dml.float_array("Scales", desc.scales);
        return dml;
    }

    const FeatureLevelTable& feature_levels() const override {
        constexpr DataTypeSet kFloats{DataType::kFloat32, DataType::kFloat16};
        constexpr DataTypeSet kFloatsAnd8Bit{DataType::kFloat32, DataType::kFloat16, DataType::kInt8,
                                             DataType::kUint8};
        static const FeatureLevelTable table = {
            {fl(2, 0), {{"InputTensor", {4, 4}, kFloats}, {"OutputTensor", {4, 4}, kFloats}}},
            {fl(5, 1), {{"InputTensor", {1, 4}, kFloats}, {"OutputTensor", {1, 4}, kFloats}}},
            {fl(6, 2), {{"InputTensor", {1, 4}, kFloatsAnd8Bit}, {"OutputTensor", {1, 4}, kFloatsAnd8Bit}}},
        };
        return table;
    }

    Status run_reference(const OpDesc& base, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        if (inputs.size() != 1 || outputs.size() != 1 || !inputs[0] || !outputs[0])
            return internal_error("RESAMPLE reference: expected 1 input and 1 output");
        return run_resample_reference(desc, *inputs[0], *outputs[0], context);
    }

    Tolerance default_tolerance(const OpDesc& base, size_t) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        if (desc.mode == InterpolationMode::kNearestNeighbor)
            return {.bitwise = true, .reason = "nearest neighbour is a gather: elements are copied bit for bit"};
        // The verdict against the reference is the forward error bound of a float32 evaluation (exact values and
        // error scales from the reference, docs/semantics.md). ulp/abs only judge two outputs
        // against each other where no exact values exist (tests of one kernel path against another).
        Tolerance tolerance{.reason = "blend of up to 16 weighted products: any float32 evaluation order (separable, "
                                      "2-D weights, FMA, a + w*(b-a)) stays within its forward error bound",
                            .error_bound = true,
                            .unit_roundoff = 0x1p-24};
        switch (desc.output.data_type) {
            case DataType::kFloat32: tolerance.ulp = 4; break;
            case DataType::kFloat16: tolerance.ulp = 2; break;
            default: tolerance.abs = 1; break;
        }
        return tolerance;
    }

    // How DirectML departs from the contract (registered per DirectML version in gpu/directml/deviations/).
    std::vector<DeviationModel> deviation_models() const override {
        using Kind = DeviationModel::Kind;
        auto mode_is = [](InterpolationMode mode) {
            return [mode](const OpDesc& d) { return static_cast<const ResampleDesc&>(d).mode == mode; };
        };
        return {
            // Nearest picks floor of the half-pixel coordinate, floor((o + 0.5) / s - 0.5): not always the
            // element nearest to the pixel centre the documentation names.
            {.name = "resample-nearest-floor-halfpixel",
             .kind = Kind::kSemantics,
             .applies = mode_is(InterpolationMode::kNearestNeighbor),
             .adjust_semantics = [](SemanticsOptions& s) { s.resample_nearest_rule = NearestRule::kFloor; },
             .unit_roundoff = 0},
            // Coordinates, weights and blend computed in half precision (unit roundoff 2^-11) instead of float32.
            // Half's largest finite value is 65504: from inputs of magnitude 2^15 a neighbour difference b - a can
            // round to infinity, so the blend may be NaN or infinite there. Half subnormals (below 2^-14) may be
            // flushed to zero (seed 3: exact -5.5e-8, got -0).
            {.name = "resample-linear-half-precision-intermediates",
             .kind = Kind::kErrorBound,
             .applies = mode_is(InterpolationMode::kLinear),
             .adjust_semantics = nullptr,
             .unit_roundoff = 0x1p-11,
             .overflow_magnitude = 0x1p15,
             .smallest_normal = 0x1p-14},
        };
    }

    // Tables from coordinates.h on the host; the kernel only gathers and blends (kernel.cpp).
    Result<DevicePlan> plan_device(const OpDesc& base, const SemanticsOptions& semantics) const override {
        return plan_resample(static_cast<const ResampleDesc&>(base), semantics);
    }

    // Autotuning. Nearest upsampling by one integer factor has two kernel shapes (shaders/vector_interleave.h):
    // one source vector per thread feeding B adjacent output vectors, or whole coalesced output vectors gathered
    // from pieces (B = 2 or 4, elements of at most 16 / B bytes). Which is faster depends on the device and the
    // data type; on the H100 the pieces won every nearest x2 perf case (1.03-1.05x) and are the default.
    // The dedicated linear x2 / x0.5 kernels: FLOAT16 through the integer conversions (exact everywhere) or the
    // f16tof32 / f32tof16 opcodes, which only devices whose opcodes a probe found exact run (the same values); x2
    // with a pair of output rows per thread or one (fewer registers, more threads in flight).
    std::vector<std::string> device_plan_variants(const OpDesc& base, const SemanticsOptions& semantics) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        std::vector<std::string> names;
        for (const auto& [name, shape] : kUpsampleShapes) {
            auto plan = plan_nearest_upsample(desc, semantics, shape);
            // Only where both shapes exist (the piece gather falls back to vectors where it cannot apply).
            if (plan.is_ok() && *plan && (shape != shaders::InterleaveShape::kPieces ||
                                          (*plan)->dispatches[0].label.find("piece_gather") != std::string::npos))
                names.push_back(name);
        }
        if (names.size() < 2) names.clear();
        if (desc.mode == InterpolationMode::kLinear)
            for (const auto& [name, variant] : kLinearVariants) {
                auto plan = plan_linear_fast(desc, variant);
                if (plan.is_ok() && *plan) names.push_back(name);
            }
        return names;
    }

    Result<DevicePlan> plan_device_variant(const OpDesc& base, const SemanticsOptions& semantics,
                                           std::string_view variant) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        for (const auto& [name, shape] : kUpsampleShapes) {
            if (variant != name) continue;
            DMLTOOL_ASSIGN_OR_RETURN(std::optional<DevicePlan> plan, plan_nearest_upsample(desc, semantics, shape));
            if (plan) return std::move(*plan);
        }
        for (const auto& [name, fast] : kLinearVariants) {
            if (variant != name) continue;
            DMLTOOL_ASSIGN_OR_RETURN(std::optional<DevicePlan> plan, plan_linear_fast(desc, fast));
            if (plan) return std::move(*plan);
        }
        return unsupported("RESAMPLE: no plan variant '" + std::string(variant) + "' for this desc");
    }

    // bytes = numel(in) * size + numel(out) * size (spec §6.8, input counted once).
    // ops (linear) = numel(out) * 2^k * 2, k = dimensions whose mapping is not the identity (scale 1 with equal
    // sizes needs no blend): each output is a weighted sum of 2^k corners, one multiply-add (2 ops) each.
    WorkEstimate work(const OpDesc& base) const override {
        const auto& desc = static_cast<const ResampleDesc&>(base);
        const uint64_t size = element_size(desc.input.data_type);
        const uint64_t out_count = desc.output.element_count();
        WorkEstimate estimate;
        estimate.bytes = (desc.input.element_count() + out_count) * size;
        if (desc.mode == InterpolationMode::kLinear) {
            uint32_t blended = 0;
            for (uint32_t d = 0; d < desc.input.rank(); ++d)
                if (desc.scales[d] != 1.0f || desc.input.sizes[d] != desc.output.sizes[d]) ++blended;
            estimate.ops = out_count * (uint64_t(1) << blended) * 2;
        }
        return estimate;
    }

    Status generate_case(CaseRng& rng, GeneratedCase& out) const override {
        return resample::generate_case(feature_levels(), rng, out);
    }
};

}  // namespace

std::unique_ptr<Op> make_op() { return std::make_unique<ResampleOp>(); }

}  // namespace dmltool::ops::resample
