#include "core/feature_level.h"

#include <algorithm>

namespace dmltool {

std::string FeatureLevel::to_string() const {
    return std::to_string(value >> 12) + "_" + std::to_string((value >> 8) & 0xf);
}

std::optional<FeatureLevel> FeatureLevel::parse(std::string_view text) {
    constexpr std::string_view kPrefix = "DML_FEATURE_LEVEL_";
    if (text.substr(0, kPrefix.size()) == kPrefix) text.remove_prefix(kPrefix.size());
    if (text.size() != 3 || (text[1] != '_' && text[1] != '.')) return std::nullopt;
    if (text[0] < '0' || text[0] > '9' || text[2] < '0' || text[2] > '9') return std::nullopt;
    const FeatureLevel level = fl(text[0] - '0', text[2] - '0');
    for (FeatureLevel known : kAllFeatureLevels)
        if (known == level) return level;
    return std::nullopt;
}

std::string all_feature_level_names() {
    std::string out;
    for (FeatureLevel level : kAllFeatureLevels) out += (out.empty() ? "" : ", ") + level.to_string();
    return out;
}

std::string DataTypeSet::to_string() const {
    std::string out;
    for (DataType t : kAllTensorDataTypes)
        if (contains(t)) out += (out.empty() ? "" : ", ") + std::string(data_type_name(t));
    return out;
}

std::string RankRange::to_string() const {
    return min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
}

namespace {

const TensorSupport* find_support(const FeatureLevelRow& row, std::string_view field) {
    for (const TensorSupport& support : row.tensors)
        if (support.field == field) return &support;
    return nullptr;
}

// Why `use` is not allowed by `row`, or empty when it is.
std::string row_rejection(const FeatureLevelRow& row, const TensorUse& use) {
    const TensorSupport* support = find_support(row, use.field);
    if (!support) return use.name + ": not a tensor of this operator";
    if (!support->types.contains(use.desc->data_type))
        return use.name + ": data type " + std::string(data_type_name(use.desc->data_type)) +
               " not allowed (expected one of " + support->types.to_string() + ")";
    if (!support->ranks.contains(use.desc->rank()))
        return use.name + ": " + std::to_string(use.desc->rank()) + " dimensions not allowed (expected " +
               support->ranks.to_string() + ")";
    return {};
}

}  // namespace

Result<FeatureLevel> derive_min_feature_level(std::string_view op_name, const FeatureLevelTable& table,
                                              std::span<const TensorUse> tensors) {
    std::optional<FeatureLevel> best;
    for (const FeatureLevelRow& row : table) {
        bool allowed = true;
        for (const TensorUse& use : tensors)
            if (use.desc && !row_rejection(row, use).empty()) allowed = false;
        if (allowed && (!best || row.level < *best)) best = row.level;
    }
    if (best) return *best;
    // Explain against the highest feature level: it is the most permissive row.
    const auto highest = std::max_element(table.begin(), table.end(),
                                          [](const auto& a, const auto& b) { return a.level < b.level; });
    std::string reason = "no feature level allows this tensor combination";
    if (highest != table.end())
        for (const TensorUse& use : tensors)
            if (use.desc) {
                std::string why = row_rejection(*highest, use);
                if (!why.empty()) {
                    reason = why + " at any feature level up to " + highest->level.to_string();
                    break;
                }
            }
    return invalid_input(std::string(op_name) + ": " + reason);
}

}  // namespace dmltool
