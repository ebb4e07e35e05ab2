// Turns the DirectML facts (dml_facts.inc: members in DirectML's order, tensor-support tables, "must have the same"
// constraints) into a FunctionSpec, so that a table row only adds what dmltool computes.
#include <map>
#include <string>

#include "ops/element_wise/dml_facts.h"
#include "ops/element_wise/engine.h"

namespace dmltool::ops::element_wise {

namespace {

// The enumerators of a DirectML enum (dml_facts' DMLTOOL_DML_ENUM_VALUE rows), with stable storage for the spans
// of MemberSpec::enum_names.
std::span<const EnumName> enum_names_of(std::string_view enum_name) {
    static const std::map<std::string_view, std::vector<EnumName>> kByEnum = [] {
        std::map<std::string_view, std::vector<EnumName>> by_enum;
        for (const dml_facts::EnumValueFacts& v : dml_facts::kEnumValues)
            by_enum[v.enum_name].push_back({v.enumerator, v.value});
        return by_enum;
    }();
    auto it = kByEnum.find(enum_name);
    return it == kByEnum.end() ? std::span<const EnumName>() : std::span<const EnumName>(it->second);
}

// "DML_ROUNDING_MODE" -> "DML_ROUNDING_MODE_" (the prefix of its enumerators' full names), stable storage.
std::string_view enum_prefix_of(std::string_view enum_name) {
    static const std::map<std::string_view, std::string> kPrefixes = [] {
        std::map<std::string_view, std::string> prefixes;
        for (const dml_facts::EnumValueFacts& v : dml_facts::kEnumValues)
            prefixes[v.enum_name] = std::string(v.enum_name) + "_";
        return prefixes;
    }();
    auto it = kPrefixes.find(enum_name);
    return it == kPrefixes.end() ? std::string_view() : std::string_view(it->second);
}

std::vector<std::string_view> split_words(std::string_view words) {
    std::vector<std::string_view> out;
    while (!words.empty()) {
        const size_t end = words.find(' ');
        if (end != 0) out.push_back(words.substr(0, end));
        if (end == std::string_view::npos) break;
        words.remove_prefix(end + 1);
    }
    return out;
}

std::vector<MemberSpec> members_from_facts(std::string_view name) {
    const auto facts = dml_facts::members_of(name);
    std::vector<MemberSpec> members;
    std::string_view last_data_type_member;
    for (size_t i = 0; i < facts.size(); ++i) {
        const dml_facts::MemberFacts& f = facts[i];
        MemberSpec m{MemberKind::kFloat, f.name, f.optional};
        using T = dml_facts::MemberType;
        switch (f.type) {
            case T::kTensor:
                m.kind = f.kind == dml_facts::MemberKind::kOutput ? MemberKind::kOutputTensor : MemberKind::kInputTensor;
                break;
            case T::kOperatorDesc: m.kind = MemberKind::kFusedActivation; break;
            case T::kScaleBias: m.kind = MemberKind::kScaleBias; break;
            case T::kFloat: m.kind = MemberKind::kFloat; break;
            case T::kInt: m.kind = f.c_type == "BOOL" ? MemberKind::kBool : MemberKind::kInt; break;
            case T::kScalarUnion:
                m.kind = MemberKind::kScalarUnion;
                m.related = last_data_type_member;
                break;
            case T::kUintArray:
                m.kind = MemberKind::kUintArray;
                if (i > 0) m.related = facts[i - 1].name;
                break;
            case T::kUint:
                if (f.c_type == "DML_TENSOR_DATA_TYPE") {
                    m.kind = MemberKind::kDataType;
                    last_data_type_member = f.name;
                } else if (f.c_type == "BOOL") {
                    m.kind = MemberKind::kBool;
                } else if (!enum_names_of(f.c_type).empty()) {
                    m.kind = MemberKind::kEnum;
                    m.enum_prefix = enum_prefix_of(f.c_type);
                    m.enum_names = enum_names_of(f.c_type);
                } else if (i + 1 < facts.size() && facts[i + 1].type == T::kUintArray) {
                    m.kind = MemberKind::kArrayCount;
                    m.related = facts[i + 1].name;
                } else {
                    m.kind = MemberKind::kUint;
                }
                break;
            case T::kUnknown: break;
        }
        members.push_back(m);
    }
    return members;
}

}  // namespace

FunctionSpec spec_from_facts(std::string_view name, std::string_view kernel_body, const FunctionMath* math) {
    FunctionSpec spec;
    spec.name = name;
    spec.members = members_from_facts(name);
    spec.feature_levels = dml_facts::feature_level_table(name);
    for (const dml_facts::SameFacts& same : dml_facts::rows_of(dml_facts::kSame, name)) {
        if (same.property == dml_facts::SameProperty::kDataType)
            spec.same_type_groups.push_back(split_words(same.members));
        else if (same.property == dml_facts::SameProperty::kSizes)
            spec.same_sizes_groups.push_back(split_words(same.members));
    }
    spec.formula = dml_facts::formula_of(name);
    spec.fusable = dml_facts::is_fusable(name);
    spec.kernel_body = kernel_body;
    spec.math = math;
    return spec;
}

}  // namespace dmltool::ops::element_wise
