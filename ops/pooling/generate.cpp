// Random pooling cases for `dmltool generate` (core/case_generator.h): every type and rank the feature-level table
// allows, windows 1 to 4 per dimension, strides 1 to 3, dilations 1 to 2 (the kinds that have them), paddings below
// the window (every window then reaches the input), IncludePadding both ways, the optional indices output and
// quantization parameters per tensor or per channel; strided/broadcast/padded inputs.
#include <algorithm>

#include "core/case_generator.h"
#include "ops/pooling/pooling.h"

namespace dmltool::ops::pooling {

Status generate_case(PoolingKind kind, const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    using json = nlohmann::json;
    const FeatureLevelRow& row = pick_row(rng, table);
    const TensorSupport& support = support_of(row, "InputTensor");
    const DataType type = pick_type(rng, support);
    const uint32_t rank = pick_rank(rng, support);
    const uint32_t spatial = rank - 2;
    Dims window(spatial), strides(spatial), dilations(spatial, 1), start(spatial), end(spatial);
    Dims sizes(rank, 1);
    sizes[0] = uint32_t(rng.between(1, 2));
    sizes[1] = uint32_t(rng.between(1, 4));
    const bool global = rng.percent(15);
    for (uint32_t i = 0; i < spatial; ++i) {
        sizes[2 + i] = uint32_t(rng.between(1, rank == 5 ? 5 : 9));
        window[i] = global ? sizes[2 + i] : uint32_t(rng.between(1, 4));
        strides[i] = global ? 1 : uint32_t(rng.between(1, 3));
        if (has_dilations(kind) && !global && rng.percent(30)) dilations[i] = 2;
        const uint32_t extent = (window[i] - 1) * dilations[i] + 1;
        // Paddings below the window's reach keep every window on at least one input element (with dilation 2 the
        // first in-input tap may still be past a short input: then no padding on that side).
        const uint32_t most = extent > 1 ? window[i] - 1 : 0;
        start[i] = !global && rng.percent(40) ? uint32_t(rng.between(0, most)) : 0;
        end[i] = !global && rng.percent(40) ? uint32_t(rng.between(0, most)) : 0;
        if (dilations[i] > 1 && start[i] % 2 == 1 && sizes[2 + i] == 1) start[i] -= 1;
        if (dilations[i] > 1 && end[i] % 2 == 1 && sizes[2 + i] == 1) end[i] -= 1;
        // The dilated window must fit the padded input.
        while (sizes[2 + i] + start[i] + end[i] < extent) sizes[2 + i] += 1;
    }
    c.desc["InputTensor"] = tensor_json(type, sizes);
    randomize_layout(rng, c.desc["InputTensor"], TensorRole::kInput, c);
    c.inputs["InputTensor"] = random_source(rng, c.desc["InputTensor"], c, /*allow_constant=*/is_max(kind));
    std::string shape = std::string(data_type_name(type)) + "_" + dims_text(sizes) + "_k" + dims_text(window);
    if (is_quantized(kind)) {
        const uint32_t channels = sizes[1];
        // Quantization tensors of any rank the table allows: per tensor all ones, per channel {C} (1-D) or C on
        // dim 1 and 1 elsewhere.
        const auto per_channel = [&](bool yes, const char* member) {
            Dims shape(pick_rank(rng, support_of(row, member)), 1);
            if (yes) shape[shape.size() == 1 ? 0 : 1] = channels;
            return shape;
        };
        const bool channel_scales = rng.percent(40);
        const DataType out_type = pick_type(rng, support_of(row, "OutputTensor"));
        json in_scales = json::array(), out_scales = json::array();
        for (uint32_t k = 0; k < (channel_scales ? channels : 1); ++k) {
            in_scales.push_back(double(float(0.01 + 0.05 * rng.unit())));
            out_scales.push_back(double(float(0.01 + 0.05 * rng.unit())));
        }
        c.desc["InputScaleTensor"] = tensor_json(DataType::kFloat32, per_channel(channel_scales, "InputScaleTensor"));
        c.inputs["InputScaleTensor"] = json{{"values", in_scales}};
        if (rng.percent(70)) {
            c.desc["InputZeroPointTensor"] = tensor_json(type, per_channel(false, "InputZeroPointTensor"));
            c.inputs["InputZeroPointTensor"] = json{{"values", {type == DataType::kInt8 ? rng.between(-20, 20)
                                                                                         : rng.between(100, 150)}}};
        }
        c.desc["OutputScaleTensor"] = tensor_json(DataType::kFloat32, per_channel(channel_scales, "OutputScaleTensor"));
        c.inputs["OutputScaleTensor"] = json{{"values", out_scales}};
        if (rng.percent(70)) {
            c.desc["OutputZeroPointTensor"] = tensor_json(out_type, per_channel(false, "OutputZeroPointTensor"));
            c.inputs["OutputZeroPointTensor"] = json{{"values", {out_type == DataType::kInt8 ? rng.between(-20, 20)
                                                                                             : rng.between(100, 150)}}};
        }
        c.desc["OutputTensor"] = json{{"DataType", std::string(data_type_name(out_type))}};
        if (channel_scales) c.tag("per-channel");
        shape += "_to_" + std::string(data_type_name(out_type));
    }
    c.desc["DimensionCount"] = spatial;
    c.desc["Strides"] = strides;
    c.desc["WindowSize"] = window;
    c.desc["StartPadding"] = start;
    c.desc["EndPadding"] = end;
    if (has_dilations(kind)) c.desc["Dilations"] = dilations;
    if (!is_max(kind)) {
        const bool include = rng.percent(50);
        c.desc["IncludePadding"] = include;
        if (include) c.tag("include-padding");
    }
    if (is_max(kind) && rng.percent(50)) {
        const TensorSupport& indices = support_of(row, "OutputIndicesTensor");
        c.desc["OutputIndicesTensor"] = json{{"DataType", std::string(data_type_name(pick_type(rng, indices)))}};
        c.tag("indices");
    }
    if (std::any_of(start.begin(), start.end(), [](uint32_t p) { return p > 0; }) ||
        std::any_of(end.begin(), end.end(), [](uint32_t p) { return p > 0; }))
        c.tag("padding");
    if (std::any_of(dilations.begin(), dilations.end(), [](uint32_t d) { return d > 1; })) c.tag("dilation");
    if (global) c.tag("global");
    c.shape = shape;
    return Status::ok();
}

}  // namespace dmltool::ops::pooling
