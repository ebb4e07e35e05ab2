// Typed, constexpr tables built from ops/element_wise/dml_facts.inc (DirectML 1.15.4's element-wise and
// activation operator types: names, DML_OPERATOR_TYPE values, desc members in order). The .inc holds the facts
// and says where each comes from; this header only gives them C++ types and lookups.
//
// The .inc's row arguments are bare words (FORWARD, OPTIONAL, ...). They are stringified here and mapped by
// name, never pasted or expanded, so that Windows headers' empty macros IN/OUT/OPTIONAL cannot change them.
#pragma once

#include <cstdint>
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

// The desc members of operator `name` in DirectML's order; empty for an unknown name.
constexpr std::span<const MemberFacts> members_of(std::string_view name) {
    const MemberFacts* first = nullptr;
    size_t count = 0;
    for (const MemberFacts& member : kMembers) {
        if (member.op != name) {
            if (first) break;  // an operator's rows are contiguous
            continue;
        }
        if (!first) first = &member;
        ++count;
    }
    return first ? std::span<const MemberFacts>(first, count) : std::span<const MemberFacts>();
}

}  // namespace dmltool::dml_facts
