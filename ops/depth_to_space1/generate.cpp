// Random DEPTH_TO_SPACE1 cases for `dmltool generate` (core/case_generator.h): every type the feature-level table
// allows, block sizes 1 to 4 (1 is the identity), both orders, strided/broadcast/padded inputs, special values.
#include "core/case_generator.h"
#include "ops/depth_to_space1/depth_to_space1.h"

namespace dmltool::ops::depth_to_space1 {

Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& c) {
    const TensorSupport& support = support_of(pick_row(rng, table), "InputTensor");
    const DataType type = pick_type(rng, support);
    const uint32_t rank = pick_rank(rng, support);  // 4: the table allows nothing else
    const uint32_t block = uint32_t(rng.pick(std::vector<int64_t>{1, 2, 2, 2, 3, 3, 4}));
    const uint32_t depth = uint32_t(rng.between(1, block == 4 ? 2 : 4));  // output channels C / B^2
    Dims sizes(rank, 1);
    sizes[0] = uint32_t(rng.between(1, 2));
    sizes[1] = block * block * depth;
    // Spatial sizes within 4096 elements in all (the output has as many as the input).
    const Dims spatial = random_sizes(rng, 2, 7, 4096 / (sizes[0] * sizes[1]));
    sizes[2] = spatial[0];
    sizes[3] = spatial[1];
    const bool dcr = rng.percent(50);
    c.desc["InputTensor"] = tensor_json(type, sizes);
    c.desc["BlockSize"] = block;
    c.desc["Order"] = dcr ? "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW" : "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH";
    randomize_layout(rng, c.desc["InputTensor"], TensorRole::kInput, c);
    c.inputs["InputTensor"] = random_source(rng, c.desc["InputTensor"], c);
    c.shape = std::string(data_type_name(type)) + "_" + dims_text(sizes) + "_b" + std::to_string(block) +
              (dcr ? "_dcr" : "_crd");
    return Status::ok();
}

}  // namespace dmltool::ops::depth_to_space1
