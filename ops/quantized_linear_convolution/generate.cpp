// Random QUANTIZED_LINEAR_CONVOLUTION cases for `dmltool generate` (core/case_generator.h): 1-D and 2-D
// convolutions of every rank the feature-level table allows, with groups (depthwise too), strides, dilations and
// asymmetric pads; INT8/UINT8 in any mix; per-tensor or per-channel filter quantization; zero points present,
// absent or at the ends of their range; bias or not; output scales that keep most outputs in range, or saturate.
//
// DirectML 1.15.4 rejects (E_INVALIDARG from CreateOperator) a zero point whose shape differs from its scale's —
// input, filter and output pairs alike (seen under Wine: every rejected generated case had such a pair, every
// accepted one none) — and per-channel filter quantization that is not 4-D. Most cases use shapes it accepts
// (each zero point shaped as its scale; per-channel as {1,M,1,1}); a minority the others, tagged
// "quant-shapes-differ" / "filter-quant-shapes-differ" / "per-channel-non-4d" so that a DirectML run can tell.
#include <algorithm>
#include <cmath>

#include "core/case_generator.h"
#include "ops/quantized_linear_convolution/quantized_linear_convolution.h"

namespace dmltool::ops::quantized_linear_convolution {

namespace {

using nlohmann::json;

Dims ones(uint32_t rank) { return Dims(rank, 1); }

// {M} or M on dimension 1 and 1 elsewhere, of `rank` dimensions.
Dims per_channel(uint32_t rank, uint32_t channels) {
    if (rank == 1) return {channels};
    Dims d(rank, 1);
    d.at(1) = channels;
    return d;
}

// A float32 in [lo, hi), as the exact double of the float DML reads.
double random_float32(CaseRng& rng, double lo, double hi) { return double(float(lo + rng.unit() * (hi - lo))); }

json zero_point_source(CaseRng& rng, DataType type, uint64_t count, GeneratedCase& c) {
    if (rng.percent(25)) {
        c.tag("zero-point-extreme");
        return json{{"constant", rng.percent(50) ? json(integer_min(type)) : json(integer_max(type))}};
    }
    const int64_t lo = integer_min(type), hi = int64_t(integer_max(type));
    if (count == 1) return json{{"values", {rng.between(lo + (hi - lo) / 4, hi - (hi - lo) / 4)}}};
    return json{{"random", {{"seed", rng.next() >> 12}, {"min", lo}, {"max", hi}}}};
}

}  // namespace

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const FeatureLevelRow& row = pick_row(rng, table);
    const TensorSupport& main = support_of(row, "InputTensor");
    const uint32_t rank = pick_rank(rng, main);
    const uint32_t spatial = rank - 2;
    const DataType input_type = pick_type(rng, main), filter_type = pick_type(rng, support_of(row, "FilterTensor"));
    const DataType output_type = pick_type(rng, support_of(row, "OutputTensor"));

    // Geometry: drawn until the output has at most 4096 elements and 2M multiply-adds.
    uint32_t groups = 1, per_group_in = 1, per_group_out = 1, batch = 1;
    Dims in(spatial), kernel(spatial), strides(spatial), dilations(spatial), start(spatial), end(spatial);
    for (int attempt = 0;; ++attempt) {
        const uint64_t style = rng.below(100);
        groups = style < 55 ? 1 : uint32_t(rng.between(2, style < 80 ? 3 : 6));
        per_group_in = style >= 80 ? 1 : uint32_t(rng.between(1, 4));  // >= 80: depthwise
        per_group_out = uint32_t(rng.between(1, 3));
        batch = uint32_t(rng.between(1, 2));
        uint64_t outputs = uint64_t(batch) * groups * per_group_out, taps = per_group_in;
        for (uint32_t i = 0; i < spatial; ++i) {
            kernel[i] = uint32_t(rng.between(1, spatial == 1 ? 5 : 3));
            strides[i] = rng.percent(60) ? 1 : uint32_t(rng.between(2, 3));
            dilations[i] = rng.percent(70) ? 1 : uint32_t(rng.between(2, 3));
            start[i] = rng.percent(50) ? 0 : uint32_t(rng.between(0, 2));
            end[i] = rng.percent(50) ? 0 : uint32_t(rng.between(0, 2));
            const int64_t dilated = int64_t(kernel[i] - 1) * dilations[i] + 1;
            in[i] = uint32_t(std::max<int64_t>(rng.between(1, spatial == 1 ? 24 : 10), dilated - start[i] - end[i]));
            outputs *= (in[i] + start[i] + end[i] - dilated) / strides[i] + 1;
            taps *= kernel[i];
        }
        if ((outputs <= 4096 && outputs * taps <= 2'000'000) || attempt > 30) break;
    }
    const uint32_t channels = groups * per_group_in, out_channels = groups * per_group_out;
    if (groups > 1) c.tag(per_group_in == 1 ? "depthwise" : "groups");
    for (uint32_t i = 0; i < spatial; ++i) {
        if (strides[i] > 1) c.tag("conv-strides");
        if (dilations[i] > 1) c.tag("dilations");
        if (start[i] || end[i]) c.tag("pads");
        if (start[i] != end[i]) c.tag("asymmetric-pads");
    }
    Dims input_sizes = {batch, channels}, filter_sizes = {out_channels, per_group_in};
    input_sizes.insert(input_sizes.end(), in.begin(), in.end());
    filter_sizes.insert(filter_sizes.end(), kernel.begin(), kernel.end());

    json& d = c.desc;
    d["InputTensor"] = tensor_json(input_type, input_sizes);
    d["FilterTensor"] = tensor_json(filter_type, filter_sizes);
    d["OutputTensor"] = json{{"DataType", std::string(data_type_name(output_type))}};
    d["Strides"] = strides;
    d["Dilations"] = dilations;
    d["StartPadding"] = start;
    d["EndPadding"] = end;
    d["GroupCount"] = groups;
    randomize_layout(rng, d["InputTensor"], TensorRole::kInput, c);
    randomize_layout(rng, d["FilterTensor"], TensorRole::kInput, c, 30);
    for (const char* member : {"InputTensor", "FilterTensor"}) {
        if (rng.percent(20)) {
            c.inputs[member] = special_values_source(rng, d[member], 50);  // half the elements at the type's ends
            c.tag("special-values");
        } else {
            c.inputs[member] = random_source(rng, d[member], c, false);
        }
    }

    // Quantization. Per-tensor scales and zero points: one element, of any rank the row allows.
    const TensorSupport& quant = support_of(row, "InputScaleTensor");
    const TensorSupport& filter_scale = support_of(row, "FilterScaleTensor");
    // A per-tensor zero point: shaped as its scale, except in about 1 case in 12.
    const auto zero_point_sizes = [&](const json& scale) {
        const Dims same = scale["Sizes"].get<Dims>();
        const Dims other = ones(pick_rank(rng, quant));
        if (other == same || !rng.percent(8)) return same;
        c.tag("quant-shapes-differ");
        return other;
    };
    const double input_scale = random_float32(rng, 0.002, 0.05);
    d["InputScaleTensor"] = tensor_json(DataType::kFloat32, ones(pick_rank(rng, quant)));
    c.inputs["InputScaleTensor"] = json{{"values", {input_scale}}};
    if (rng.percent(70)) {
        d["InputZeroPointTensor"] = tensor_json(input_type, zero_point_sizes(d["InputScaleTensor"]));
        c.inputs["InputZeroPointTensor"] = zero_point_source(rng, input_type, 1, c);
    }
    // Filter: per-channel mostly as {1,M,1,1}, which DirectML accepts; sometimes another rank the row allows.
    const bool channelwise = out_channels > 1 && rng.percent(55);
    uint32_t scale_rank = 4;
    if (!filter_scale.ranks.contains(4) || rng.percent(channelwise ? 12 : 50)) scale_rank = pick_rank(rng, filter_scale);
    const Dims scale_sizes = channelwise ? per_channel(scale_rank, out_channels) : ones(scale_rank);
    if (channelwise) c.tag(scale_rank == 4 ? "per-channel" : "per-channel-non-4d");
    const double filter_scale_lo = 0.002, filter_scale_hi = 0.05;
    d["FilterScaleTensor"] = tensor_json(DataType::kFloat32, scale_sizes);
    c.inputs["FilterScaleTensor"] =
        channelwise ? json{{"random", {{"seed", rng.next() >> 12}, {"min", filter_scale_lo}, {"max", filter_scale_hi}}}}
                    : json{{"values", {random_float32(rng, filter_scale_lo, filter_scale_hi)}}};
    if (rng.percent(50)) {
        Dims zp_sizes = scale_sizes;
        if (rng.percent(15) || !quant.ranks.contains(uint32_t(zp_sizes.size()))) {
            // Another shape than the scale's: per-tensor against per-channel, or the other way round.
            const uint32_t zp_rank = pick_rank(rng, quant);
            zp_sizes = channelwise || out_channels == 1 ? ones(zp_rank) : per_channel(zp_rank, out_channels);
        }
        if (zp_sizes != scale_sizes) c.tag("filter-quant-shapes-differ");
        if (zp_sizes.size() != 4 && zp_sizes.size() > 1 && *std::max_element(zp_sizes.begin(), zp_sizes.end()) > 1)
            c.tag("per-channel-non-4d");
        d["FilterZeroPointTensor"] = tensor_json(filter_type, zp_sizes);
        c.inputs["FilterZeroPointTensor"] = zero_point_source(rng, filter_type, *checked_element_count(zp_sizes), c);
    }
    if (rng.percent(60)) {
        c.tag("bias");
        d["BiasTensor"] = tensor_json(DataType::kInt32, per_channel(rank, out_channels));
        const int64_t bound = rng.percent(15) ? int64_t(1) << 20 : 5000;
        c.inputs["BiasTensor"] = json{{"random", {{"seed", rng.next() >> 12}, {"min", -bound}, {"max", bound}}}};
    }
    // Output scale: the accumulator's spread (about sqrt(taps) * 74^2 for uniform 8-bit operands) over roughly
    // the output's range, so most outputs land inside it; "saturating" cases divide it by up to 100.
    uint64_t taps = per_group_in;
    for (uint32_t k : kernel) taps *= k;
    const double filter_scale_mid = (filter_scale_lo + filter_scale_hi) / 2;
    double output_scale = input_scale * filter_scale_mid * std::sqrt(double(taps)) * 74 * 74 / 60;
    output_scale *= 0.3 + 2.7 * rng.unit();
    if (rng.percent(15)) {
        output_scale /= double(rng.between(10, 100));
        c.tag("saturating");
    }
    d["OutputScaleTensor"] = tensor_json(DataType::kFloat32, ones(pick_rank(rng, quant)));
    c.inputs["OutputScaleTensor"] = json{{"values", {double(float(output_scale))}}};
    if (rng.percent(70)) {
        d["OutputZeroPointTensor"] = tensor_json(output_type, zero_point_sizes(d["OutputScaleTensor"]));
        c.inputs["OutputZeroPointTensor"] = zero_point_source(rng, output_type, 1, c);
    }
    c.shape = std::string(data_type_name(input_type)) + "_" + dims_text(input_sizes) + "_k" + dims_text(kernel) + "_g" +
              std::to_string(groups) + "_m" + std::to_string(out_channels);
    return Status::ok();
}

}  // namespace dmltool::ops::quantized_linear_convolution
