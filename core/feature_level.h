// DML_FEATURE_LEVEL as a value type, and the per-operator tables that say which tensor ranks and data types
// each feature level allows. A case's minimum feature level is derived from those tables, never trusted.
#pragma once

#include <compare>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace dmltool {

struct FeatureLevel {
    uint16_t value = 0;  // DML_FEATURE_LEVEL_x_y == 0xXY00

    constexpr auto operator<=>(const FeatureLevel&) const = default;
    std::string to_string() const;  // "5_1"
    // Accepts "5_1", "5.1" and "DML_FEATURE_LEVEL_5_1"; only levels DirectML defines.
    static std::optional<FeatureLevel> parse(std::string_view text);
};

inline constexpr FeatureLevel fl(int major, int minor) { return FeatureLevel{uint16_t((major << 12) | (minor << 8))}; }

inline constexpr FeatureLevel kAllFeatureLevels[] = {fl(1, 0), fl(2, 0), fl(2, 1), fl(3, 0), fl(3, 1), fl(4, 0),
                                                     fl(4, 1), fl(5, 0), fl(5, 1), fl(5, 2), fl(6, 0), fl(6, 1),
                                                     fl(6, 2), fl(6, 3), fl(6, 4)};
inline constexpr FeatureLevel kHighestFeatureLevel = fl(6, 4);
std::string all_feature_level_names();

// A set of data types, built from a list.
class DataTypeSet {
public:
    constexpr DataTypeSet() = default;
    constexpr DataTypeSet(std::initializer_list<DataType> types) {
        for (DataType t : types) bits_ |= 1u << unsigned(t);
    }
    constexpr bool contains(DataType t) const { return bits_ & (1u << unsigned(t)); }
    std::string to_string() const;

private:
    uint32_t bits_ = 0;
};

// Allowed tensor ranks, inclusive range.
struct RankRange {
    uint32_t min = 1;
    uint32_t max = 8;
    constexpr bool contains(uint32_t rank) const { return rank >= min && rank <= max; }
    std::string to_string() const;
};

// What one row of an operator's "tensor support" table allows for one desc field.
struct TensorSupport {
    std::string_view field;  // desc member name: "InputTensor", "OutputTensors", "FilterScaleTensor"
    RankRange ranks;
    DataTypeSet types;
};

struct FeatureLevelRow {
    FeatureLevel level;
    std::vector<TensorSupport> tensors;
};

using FeatureLevelTable = std::vector<FeatureLevelRow>;

// One tensor of a concrete desc, as seen by the table check.
struct TensorUse {
    std::string_view field;  // matches TensorSupport::field
    std::string name;        // for messages: "OutputTensors[2]"
    const TensorDesc* desc;
};

// The lowest feature level at which every tensor is allowed, or kInvalidInput naming the tensor that no
// row allows (and what the most permissive row would accept).
Result<FeatureLevel> derive_min_feature_level(std::string_view op_name, const FeatureLevelTable& table,
                                              std::span<const TensorUse> tensors);

}  // namespace dmltool
