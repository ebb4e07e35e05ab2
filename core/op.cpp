#include "core/op.h"

namespace dmltool {

Result<FeatureLevel> min_feature_level(const Op& op, const OpDesc& desc) {
    std::vector<TensorUse> uses;
    for (const TensorSlot& slot : op.tensors(desc)) uses.push_back({slot.field, slot.name, slot.desc});
    return derive_min_feature_level(op.name(), op.feature_levels(), uses);
}

}  // namespace dmltool
