// Random SPLIT cases for `dmltool generate` (core/case_generator.h): every type and rank (1 to 8) the feature-level
// table allows, any axis, 1 to 5 parts, uneven ones included, as OutputSizesAlongAxis, OutputCount (equal parts) or
// explicit OutputTensors (with strided layouts), from strided/broadcast/padded inputs with special values.
#include <algorithm>

#include "core/case_generator.h"
#include "ops/split/split.h"

namespace dmltool::ops::split {

namespace {

// `count` positive sizes summing to `total` (count <= total): cut points drawn without repetition.
std::vector<uint32_t> random_parts(CaseRng& rng, uint32_t total, uint32_t count) {
    std::vector<uint32_t> cuts;
    while (cuts.size() + 1 < count) {
        const uint32_t cut = uint32_t(rng.between(1, total - 1));
        if (std::find(cuts.begin(), cuts.end(), cut) == cuts.end()) cuts.push_back(cut);
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<uint32_t> parts;
    uint32_t last = 0;
    for (uint32_t cut : cuts) {
        parts.push_back(cut - last);
        last = cut;
    }
    parts.push_back(total - last);
    return parts;
}

}  // namespace

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const TensorSupport& support = support_of(pick_row(rng, table), "InputTensor");
    const DataType type = pick_type(rng, support);
    const uint32_t rank = pick_rank(rng, support);
    Dims sizes = random_sizes(rng, rank, rank > 4 ? 3 : 8, 4096);
    const uint32_t axis = uint32_t(rng.below(rank));
    // Mostly more than one element along the axis, or there is nothing to split.
    if (sizes[axis] == 1 && rng.percent(85)) {
        const uint64_t others = *checked_element_count(sizes);
        sizes[axis] = uint32_t(rng.between(2, std::clamp<int64_t>(4096 / others, 2, 9)));
    }
    const uint32_t total = sizes[axis];
    std::vector<uint32_t> parts = random_parts(rng, total, uint32_t(rng.between(1, std::min<uint32_t>(total, 5))));
    c.desc["InputTensor"] = tensor_json(type, sizes);
    c.desc["Axis"] = axis;
    const uint64_t style = rng.below(100);
    std::vector<uint32_t> divisors;
    for (uint32_t n = 1; n <= std::min<uint32_t>(total, 6); ++n)
        if (total % n == 0) divisors.push_back(n);
    if (style < 25) {
        const uint32_t n = rng.pick(divisors);
        parts.assign(n, total / n);
        c.desc["OutputCount"] = n;
    } else if (style < 60) {
        c.desc["OutputSizesAlongAxis"] = parts;
    } else {
        nlohmann::json outputs = nlohmann::json::array();
        for (uint32_t part : parts) {
            Dims out = sizes;
            out[axis] = part;
            outputs.push_back(tensor_json(type, out));
            randomize_layout(rng, outputs.back(), TensorRole::kOutput, c, 40);
        }
        c.desc["OutputTensors"] = std::move(outputs);
    }
    if (std::adjacent_find(parts.begin(), parts.end(), std::not_equal_to<>()) != parts.end()) c.tag("uneven-parts");
    randomize_layout(rng, c.desc["InputTensor"], TensorRole::kInput, c);
    c.inputs["InputTensor"] = random_source(rng, c.desc["InputTensor"], c);
    std::string parts_text;
    for (uint32_t p : parts) parts_text += (parts_text.empty() ? "" : "+") + std::to_string(p);
    c.shape = std::string(data_type_name(type)) + "_" + dims_text(sizes) + "_axis" + std::to_string(axis) + "_" +
              parts_text;
    return Status::ok();
}

}  // namespace dmltool::ops::split
