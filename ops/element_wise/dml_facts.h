// Typed, constexpr tables built from ops/element_wise/dml_facts.inc (DirectML 1.15.4's element-wise and
// activation operator types: names, DML_OPERATOR_TYPE values, desc members in order, formulas, feature-level
// tensor tables, tensor constraints, notes). The .inc holds the facts and says where each comes from; this
// header only gives them C++ types and lookups.
//
// The .inc's row arguments are bare words (FORWARD, OPTIONAL, ...). They are stringified here and mapped by
// name, never pasted or expanded, so that Windows headers' empty macros IN/OUT/OPTIONAL cannot change them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "core/feature_level.h"

namespace dmltool::dml_facts {

enum class Role : uint8_t { kForward, kGradient, kUnknown };
enum class InPlace : uint8_t { kInPlace, kNotInPlace, kNotListed, kUnknown };
enum class MemberKind : uint8_t { kInput, kOutput, kAttribute, kUnknown };
// The DirectMLSchema.h field types these operators use (enums are UINT there).
enum class MemberType : uint8_t { kTensor, kOperatorDesc, kUint, kInt, kFloat, kUintArray, kScaleBias, kScalarUnion, kUnknown };
// The Kind column of a tensor-support table.
enum class SupportKind : uint8_t { kInput, kOptionalInput, kOutput, kUnknown };
enum class SameProperty : uint8_t { kDataType, kDimensionCount, kSizes, kUnknown };
enum class NoteKind : uint8_t { kConstraint, kSpecialValues, kRemark, kUnknown };

struct OperatorFacts {
    std::string_view name;  // after DML_OPERATOR_: "ELEMENT_WISE_ADD1"
    uint32_t type_value;    // DML_OPERATOR_TYPE
    Role role;
    FeatureLevel introduced;  // the DML_TARGET_VERSION block of DirectML.h declaring it
    InPlace in_place;
};

struct MemberFacts {
    std::string_view op;  // OperatorFacts::name
    MemberKind kind;
    MemberType type;
    bool optional;          // DirectML accepts a null pointer
    std::string_view name;  // "ATensor", "ScaleBias", "MinMaxDataType"
    std::string_view c_type;  // as DirectML.h declares it: "const DML_TENSOR_DESC*", "DML_SCALAR_UNION"
};

// One row of a reference page's tensor-support table: from `level` up (until the operator's next higher
// level), `member` may have `ranks` dimensions and one of `types`.
struct SupportFacts {
    std::string_view op;
    FeatureLevel level;
    std::string_view member;
    SupportKind kind;
    RankRange ranks;
    DataTypeSet types;
};

// The tensor members (space-separated names) that must agree on `property`.
struct SameFacts {
    std::string_view op;
    SameProperty property;
    std::string_view members;
};

struct FormulaFacts {
    std::string_view op;
    std::string_view formula;
};

struct NoteFacts {
    std::string_view op;
    NoteKind kind;
    std::string_view text;
};

struct EnumValueFacts {
    std::string_view enum_name;   // "DML_ROUNDING_MODE"
    std::string_view enumerator;  // "TOWARD_ZERO" (after the enum's prefix)
    uint32_t value;
};

namespace detail {

constexpr Role role_of(std::string_view word) {
    return word == "FORWARD" ? Role::kForward : word == "GRADIENT" ? Role::kGradient : Role::kUnknown;
}
constexpr InPlace in_place_of(std::string_view word) {
    return word == "IN_PLACE"       ? InPlace::kInPlace
           : word == "NOT_IN_PLACE" ? InPlace::kNotInPlace
           : word == "NOT_LISTED"   ? InPlace::kNotListed
                                    : InPlace::kUnknown;
}
constexpr MemberKind kind_of(std::string_view word) {
    return word == "INPUT"       ? MemberKind::kInput
           : word == "OUTPUT"    ? MemberKind::kOutput
           : word == "ATTRIBUTE" ? MemberKind::kAttribute
                                 : MemberKind::kUnknown;
}
constexpr MemberType type_of(std::string_view word) {
    constexpr std::pair<std::string_view, MemberType> kWords[] = {
        {"TENSOR", MemberType::kTensor},         {"OPERATOR_DESC", MemberType::kOperatorDesc},
        {"UINT", MemberType::kUint},             {"INT", MemberType::kInt},
        {"FLOAT", MemberType::kFloat},           {"UINT_ARRAY", MemberType::kUintArray},
        {"SCALE_BIAS", MemberType::kScaleBias},  {"SCALAR_UNION", MemberType::kScalarUnion},
    };
    for (const auto& [text, value] : kWords)
        if (text == word) return value;
    return MemberType::kUnknown;
}

constexpr SupportKind support_kind_of(std::string_view word) {
    return word == "INPUT"            ? SupportKind::kInput
           : word == "OPTIONAL_INPUT" ? SupportKind::kOptionalInput
           : word == "OUTPUT"         ? SupportKind::kOutput
                                      : SupportKind::kUnknown;
}
constexpr SameProperty property_of(std::string_view word) {
    return word == "DATA_TYPE"         ? SameProperty::kDataType
           : word == "DIMENSION_COUNT" ? SameProperty::kDimensionCount
           : word == "SIZES"           ? SameProperty::kSizes
                                       : SameProperty::kUnknown;
}
constexpr NoteKind note_kind_of(std::string_view word) {
    return word == "CONSTRAINT"       ? NoteKind::kConstraint
           : word == "SPECIAL_VALUES" ? NoteKind::kSpecialValues
           : word == "REMARK"         ? NoteKind::kRemark
                                      : NoteKind::kUnknown;
}

// Whether the space-separated `words` contain `word`.
constexpr bool has_word(std::string_view words, std::string_view word) {
    while (!words.empty()) {
        const size_t end = words.find(' ');
        if (words.substr(0, end) == word) return true;
        if (end == std::string_view::npos) break;
        words.remove_prefix(end + 1);
    }
    return false;
}

// "FLOAT32 INT8" -> {kFloat32, kInt8}. DataTypeSet is built from a fixed-size list, so types not named are
// replaced by one that is (a set ignores repeats); an unknown name is not named and so not in the set.
constexpr DataTypeSet data_types_of(std::string_view words) {
    constexpr std::pair<std::string_view, DataType> kNames[] = {
        {"FLOAT32", DataType::kFloat32}, {"FLOAT16", DataType::kFloat16}, {"UINT32", DataType::kUint32},
        {"UINT16", DataType::kUint16},   {"UINT8", DataType::kUint8},     {"INT32", DataType::kInt32},
        {"INT16", DataType::kInt16},     {"INT8", DataType::kInt8},       {"FLOAT64", DataType::kFloat64},
        {"UINT64", DataType::kUint64},   {"INT64", DataType::kInt64},     {"UINT4", DataType::kUint4},
        {"INT4", DataType::kInt4},
    };
    static_assert(std::size(kNames) == 13);
    DataType named[13] = {};
    std::optional<DataType> any;
    for (size_t i = 0; i < std::size(kNames); ++i) {
        if (has_word(words, kNames[i].first)) {
            named[i] = kNames[i].second;
            if (!any) any = kNames[i].second;
        }
    }
    if (!any) return DataTypeSet{};
    for (DataType& type : named)
        if (type == DataType::kUnknown) type = *any;
    return DataTypeSet{named[0], named[1], named[2],  named[3],  named[4],  named[5], named[6],
                       named[7], named[8], named[9], named[10], named[11], named[12]};
}

}  // namespace detail

inline constexpr OperatorFacts kOperators[] = {
#define DMLTOOL_DML_OP(name, type_value, role, introduced_major, introduced_minor, in_place) \
    {#name, type_value, detail::role_of(#role), fl(introduced_major, introduced_minor), detail::in_place_of(#in_place)},
#include "ops/element_wise/dml_facts.inc"
};

inline constexpr MemberFacts kMembers[] = {
#define DMLTOOL_DML_MEMBER(name, kind, type, presence, member, c_type) \
    {#name, detail::kind_of(#kind), detail::type_of(#type), std::string_view(#presence) == "OPTIONAL", #member, c_type},
#include "ops/element_wise/dml_facts.inc"
};

inline constexpr FormulaFacts kFormulas[] = {
#define DMLTOOL_DML_FORMULA(name, formula) {#name, formula},
#include "ops/element_wise/dml_facts.inc"
};

// Rows of one operator are contiguous, in ascending feature level.
inline constexpr SupportFacts kSupport[] = {
#define DMLTOOL_DML_SUPPORT(name, major, minor, member, kind, rank_min, rank_max, types) \
    {#name, fl(major, minor), #member, detail::support_kind_of(#kind), RankRange{rank_min, rank_max}, detail::data_types_of(types)},
#include "ops/element_wise/dml_facts.inc"
};

inline constexpr SameFacts kSame[] = {
#define DMLTOOL_DML_SAME(name, property, members) {#name, detail::property_of(#property), members},
#include "ops/element_wise/dml_facts.inc"
};

inline constexpr NoteFacts kNotes[] = {
#define DMLTOOL_DML_NOTE(name, kind, text) {#name, detail::note_kind_of(#kind), text},
#include "ops/element_wise/dml_facts.inc"
};

// The activations that ELEMENT_WISE_ADD1 accepts as FusedActivation.
inline constexpr std::string_view kFusable[] = {
#define DMLTOOL_DML_FUSABLE(name) #name,
#include "ops/element_wise/dml_facts.inc"
};

inline constexpr EnumValueFacts kEnumValues[] = {
#define DMLTOOL_DML_ENUM_VALUE(enum_name, enumerator, value) {#enum_name, #enumerator, value},
#include "ops/element_wise/dml_facts.inc"
};

// The operator named `name` (after DML_OPERATOR_), or null.
constexpr const OperatorFacts* find_operator(std::string_view name) {
    for (const OperatorFacts& op : kOperators)
        if (op.name == name) return &op;
    return nullptr;
}

// The rows of `table` whose op is `name` (contiguous in the .inc); empty for an unknown name.
template <typename Row, size_t N>
constexpr std::span<const Row> rows_of(const Row (&table)[N], std::string_view name) {
    const Row* first = nullptr;
    size_t count = 0;
    for (const Row& row : table) {
        if (row.op != name) {
            if (first) break;
            continue;
        }
        if (!first) first = &row;
        ++count;
    }
    return first ? std::span<const Row>(first, count) : std::span<const Row>();
}

// The desc members of operator `name` in DirectML's order; empty for an unknown name.
constexpr std::span<const MemberFacts> members_of(std::string_view name) { return rows_of(kMembers, name); }

constexpr std::string_view formula_of(std::string_view name) {
    const auto rows = rows_of(kFormulas, name);
    return rows.empty() ? std::string_view() : rows.front().formula;
}

constexpr bool is_fusable(std::string_view name) {
    for (std::string_view fusable : kFusable)
        if (fusable == name) return true;
    return false;
}

// The operator's documented tensor-support tables as the FeatureLevelTable that Op::feature_levels() returns
// (one row per documented level, ascending; fields are the desc member names).
inline FeatureLevelTable feature_level_table(std::string_view name) {
    FeatureLevelTable table;
    for (const SupportFacts& row : rows_of(kSupport, name)) {
        if (table.empty() || table.back().level != row.level) table.push_back({row.level, {}});
        table.back().tensors.push_back({row.member, row.ranks, row.types});
    }
    return table;
}

}  // namespace dmltool::dml_facts
