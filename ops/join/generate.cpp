// Random JOIN cases for `dmltool generate` (core/case_generator.h): every type and rank the feature-level table
// allows, any axis, 1 to 5 inputs of uneven axis sizes, strided/broadcast/padded inputs with special values, the
// output given or left to derive_outputs.
#include <algorithm>

#include "core/case_generator.h"
#include "ops/join/join.h"

namespace dmltool::ops::join {

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const TensorSupport& support = support_of(pick_row(rng, table), "InputTensors");
    const DataType type = pick_type(rng, support);
    const uint32_t rank = pick_rank(rng, support);
    const Dims sizes = random_sizes(rng, rank, rank > 4 ? 3 : 8, 1024);
    // The innermost axis a third of the time: joining there puts neighbouring inputs in shared output words.
    const uint32_t axis = rng.percent(33) ? rank - 1 : uint32_t(rng.below(rank));
    const uint32_t count = uint32_t(rng.between(1, 5));
    nlohmann::json inputs = nlohmann::json::array(), sources = nlohmann::json::array();
    uint32_t total = 0;
    std::string parts_text;
    bool uneven = false;
    for (uint32_t i = 0; i < count; ++i) {
        Dims in = sizes;
        in[axis] = uint32_t(rng.between(1, 4));
        uneven |= i > 0 && in[axis] != inputs[0]["Sizes"][axis].get<uint32_t>();
        total += in[axis];
        parts_text += (parts_text.empty() ? "" : "+") + std::to_string(in[axis]);
        inputs.push_back(tensor_json(type, in));
        randomize_layout(rng, inputs.back(), TensorRole::kInput, c, 40);
        sources.push_back(random_source(rng, inputs.back(), c));
    }
    c.desc["InputTensors"] = std::move(inputs);
    c.desc["Axis"] = axis;
    if (rng.percent(30)) c.desc["InputCount"] = count;
    c.inputs["InputTensors"] = std::move(sources);
    if (uneven) c.tag("uneven-parts");
    Dims out = sizes;
    out[axis] = total;
    c.shape = std::string(data_type_name(type)) + "_" + dims_text(out) + "_axis" + std::to_string(axis) + "_" +
              parts_text;
    return Status::ok();
}

}  // namespace dmltool::ops::join
