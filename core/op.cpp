#include "core/op.h"

#include <nlohmann/json.hpp>

namespace dmltool {

bool output_sizes_omitted(const nlohmann::json& desc, std::string_view key) {
    const auto it = desc.find(std::string(key));
    if (it == desc.end() || it->is_null()) return true;
    return it->is_object() && !it->contains("Sizes");
}

nlohmann::json derived_tensor_desc(DataType type, const std::vector<uint64_t>& sizes) {
    return {{"DataType", std::string(data_type_name(type))}, {"Sizes", sizes}};
}

void set_derived_output(nlohmann::json& desc, std::string_view key, DataType default_type,
                        const std::vector<uint64_t>& sizes) {
    nlohmann::json& member = desc[std::string(key)];
    if (!member.is_object()) member = nlohmann::json::object();
    if (!member.contains("DataType")) member["DataType"] = std::string(data_type_name(default_type));
    member["Sizes"] = sizes;
}

Result<FeatureLevel> min_feature_level(const Op& op, const OpDesc& desc) {
    std::vector<TensorUse> uses;
    for (const TensorSlot& slot : op.tensors(desc)) uses.push_back({slot.field, slot.name, slot.desc});
    return derive_min_feature_level(op.name(), op.feature_levels(), uses);
}

}  // namespace dmltool
