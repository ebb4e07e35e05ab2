// Random RESAMPLE cases for `dmltool generate` (core/case_generator.h): every type and rank the feature-level table
// allows, both interpolation modes, per-dimension scales that are 1, integer up, fractional up or down (mixed
// within a case), the usual derived output size or one off it by one (DML takes any output size), from
// strided/broadcast/padded inputs with special values.
#include <algorithm>
#include <cmath>

#include "core/case_generator.h"
#include "ops/resample/desc.h"

namespace dmltool::ops::resample {

namespace {

struct ScaleKind {
    const char* tag;
    std::vector<double> values;
};
const std::vector<ScaleKind>& scale_kinds() {
    static const std::vector<ScaleKind> kinds = {
        {"scale-one", {1}},
        {"scale-integer-up", {2, 3, 4}},
        {"scale-fractional-up", {1.5, 2.5, 1.25, 1.75, 4.0 / 3}},
        {"scale-down", {0.5, 0.25, 0.75, 0.6, 1.0 / 3, 2.0 / 3}},
    };
    return kinds;
}

}  // namespace

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const TensorSupport& support = support_of(pick_row(rng, table), "InputTensor");
    const DataType type = pick_type(rng, support);
    const uint32_t rank = pick_rank(rng, support);
    const bool linear = rng.percent(50);
    std::vector<float> scales(rank);
    bool up = false, down = false;
    for (uint32_t d = 0; d < rank; ++d) {
        // Batch and channels of a 4-D tensor are mostly not scaled (the usual image case), but may be.
        const bool usual = rank == 4 && d < 2 && rng.percent(70);
        const ScaleKind& kind = usual ? scale_kinds()[0] : rng.pick(scale_kinds());
        scales[d] = float(rng.pick(kind.values));  // the float32 DML reads; written exactly below
        c.tag(kind.tag);
        up = up || scales[d] > 1;
        down = down || scales[d] < 1;
    }
    if (up && down) c.tag("scale-mixed");
    // Input sizes with at most 4096 elements in and out: draw, then grow dimensions that a down scale would
    // empty; retry when the output is too large.
    Dims in, out;
    for (int attempt = 0;; ++attempt) {
        in = random_sizes(rng, rank, attempt < 8 ? 8 : 2, attempt < 8 ? 1024 : 16);
        uint64_t in_count = 1, out_count = 1;
        out.assign(rank, 0);
        for (uint32_t d = 0; d < rank; ++d) {
            in[d] = std::max<uint32_t>(in[d], uint32_t(std::ceil(1 / double(scales[d]))));
            out[d] = uint32_t(std::floor(double(in[d]) * double(scales[d])));
            in_count *= in[d];
            out_count *= out[d];
        }
        // Linear: some output dimension of more than one element must blend more than one input position, or
        // every output may be the same blend (see below).
        bool varies = out_count == 1 || !linear;
        for (uint32_t d = 0; d < rank; ++d) varies = varies || (in[d] > 1 && out[d] > 1);
        if ((in_count <= 4096 && out_count <= 4096 && varies) || attempt >= 12) break;
    }
    c.desc["InputTensor"] = tensor_json(type, in);
    c.desc["InterpolationMode"] = linear ? "DML_INTERPOLATION_MODE_LINEAR" : "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR";
    nlohmann::json scale_json = nlohmann::json::array();
    for (float s : scales) scale_json.push_back(double(s));
    c.desc["Scales"] = std::move(scale_json);
    if (rng.percent(10)) {
        // An output size the scales do not imply: the mapping still follows the scales (spec §6).
        const uint32_t d = uint32_t(rng.below(rank));
        out[d] = out[d] > 1 && rng.percent(50) ? out[d] - 1 : out[d] + 1;
        c.desc["OutputTensor"] = tensor_json(type, out);
        randomize_layout(rng, c.desc["OutputTensor"], TensorRole::kOutput, c, 40);
        c.tag("output-size-off-scale");
    }
    // Linear mode gets no broadcast input and no constant source: a constant output of a linear blend can be
    // bit-constant on a device while the reference's exact values differ in their last bits, which the runner's
    // zero-trust rule reports as MISTRUSTED (a false alarm that hides nothing, but fails the run).
    randomize_layout(rng, c.desc["InputTensor"], TensorRole::kInput, c, 50, !linear);
    c.inputs["InputTensor"] = random_source(rng, c.desc["InputTensor"], c, !linear);
    char scale_text[64] = "";
    std::string scales_text;
    for (float s : scales) {
        std::snprintf(scale_text, sizeof scale_text, "%.3g", double(s));
        scales_text += (scales_text.empty() ? "" : "x") + std::string(scale_text);
    }
    c.shape = std::string(data_type_name(type)) + "_" + dims_text(in) + (linear ? "_linear_" : "_nearest_") + scales_text;
    return Status::ok();
}

}  // namespace dmltool::ops::resample
