#include "core/case_schema.h"

#include <algorithm>
#include <map>

#include "core/case_generator.h"
#include "core/dtype.h"
#include "core/feature_level.h"

namespace dmltool {
namespace {

using json = nlohmann::json;
using Kind = MemberRead::Kind;

// Enough generated descs that every path of every operator's reader is taken (SPLIT's three ways to give its
// outputs, QLinearConv's optional tensors); generation is cheap (descs only, no data).
constexpr uint64_t kSamples = 400;
constexpr const char* kDescPath = "/operator/desc";

// A sweep's case may hold "${axis}" in any string, and a string that is exactly "${axis}" becomes a value of any
// type (docs/case-format.md, Sweeps), so every member also accepts a string with a placeholder.
json sweepable(json schema) { return json{{"anyOf", json::array({std::move(schema), {{"$ref", "#/$defs/placeholder"}}})}}; }

json uint32_schema() { return {{"type", "integer"}, {"minimum", 0}, {"maximum", 4294967295u}}; }

json enum_schema(const std::string& prefix, const std::vector<std::string>& names) {
    json values = json::array();
    for (const std::string& n : names) values.push_back(n);
    for (const std::string& n : names) values.push_back(prefix + n);
    return {{"type", "string"}, {"enum", values}};
}

std::vector<std::string> table_types(const Op& op, const std::string& field) {
    std::vector<std::string> out;
    for (DataType type : kAllTensorDataTypes)
        for (const FeatureLevelRow& row : op.feature_levels())
            for (const TensorSupport& support : row.tensors)
                if (support.field == field && support.types.contains(type) &&
                    std::find(out.begin(), out.end(), data_type_name(type)) == out.end())
                    out.emplace_back(data_type_name(type));
    return out;
}

json tensor_member_schema(const DescMember& m) {
    const std::string base = m.read.role == TensorRole::kInput ? "#/$defs/inputTensorDesc" : "#/$defs/outputTensorDesc";
    json data_type = enum_schema("DML_TENSOR_DATA_TYPE_", m.data_types);
    json tensor = {{"allOf", json::array({{{"$ref", base}}, {{"properties", {{"DataType", sweepable(data_type)}}}}})}};
    if (m.read.kind == Kind::kTensorArray) tensor = {{"type", "array"}, {"minItems", 1}, {"items", sweepable(tensor)}};
    return sweepable(tensor);
}

json member_schema(const DescMember& m) {
    switch (m.read.kind) {
        case Kind::kUint: return sweepable(uint32_schema());
        case Kind::kUintArray: return sweepable({{"type", "array"}, {"items", sweepable(uint32_schema())}});
        case Kind::kFloatArray: return sweepable({{"type", "array"}, {"items", sweepable({{"type", "number"}})}});
        case Kind::kEnum: return sweepable(enum_schema(m.read.enum_prefix, m.read.enum_names));
        case Kind::kTensor:
        case Kind::kTensorArray: return tensor_member_schema(m);
        case Kind::kFloat:
            return sweepable({{"anyOf", json::array({{{"type", "number"}}, {{"enum", json::array({"inf", "+inf", "-inf"})}}})}});
        case Kind::kInt: return sweepable({{"type", "integer"}, {"minimum", -2147483648LL}, {"maximum", 2147483647LL}});
        case Kind::kBool: return sweepable({{"anyOf", json::array({{{"type", "boolean"}}, {{"enum", json::array({0, 1})}}})}});
        case Kind::kObject: return sweepable({{"type", "object"}});
        case Kind::kAny: break;
    }
    return json::object();  // read by hand (SPLIT's OutputSizesAlongAxis); the validator checks it
}

json desc_schema(const std::vector<DescMember>& members) {
    json properties = json::object();
    json required = json::array();
    for (const DescMember& m : members) {
        properties[m.read.key] = member_schema(m);
        if (m.read.required) required.push_back(m.read.key);
    }
    return {{"type", "object"}, {"properties", properties}, {"required", required}, {"additionalProperties", false}};
}

// The inputs / expected / tolerance members of one operator: one per input or output tensor member.
json sources_schema(const std::vector<DescMember>& members, TensorRole role) {
    json properties = json::object();
    for (const DescMember& m : members) {
        if ((m.read.kind != Kind::kTensor && m.read.kind != Kind::kTensorArray) || m.read.role != role) continue;
        properties[m.read.key] = m.read.kind == Kind::kTensorArray
                                     ? json{{"type", "array"}, {"items", {{"$ref", "#/$defs/source"}}}}
                                     : json{{"$ref", "#/$defs/source"}};
    }
    return {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
}

json tolerance_schema(const std::vector<DescMember>& members) {
    json properties = {{"reason", {{"type", "string"}, {"minLength", 1}}}};
    for (const DescMember& m : members)
        if ((m.read.kind == Kind::kTensor || m.read.kind == Kind::kTensorArray) && m.read.role == TensorRole::kOutput)
            properties[m.read.key] = {{"$ref", "#/$defs/toleranceEntry"}};
    return {{"type", "object"}, {"properties", properties}, {"required", {"reason"}}, {"additionalProperties", false}};
}

json tensor_desc_schema(bool output) {
    json all_types = json::array();
    for (DataType type : kAllTensorDataTypes) all_types.push_back(std::string(data_type_name(type)));
    json properties = {
        {"Type", sweepable({{"enum", {"BUFFER", "DML_TENSOR_TYPE_BUFFER"}}})},
        {"DataType", sweepable({{"type", "string"}})},
        {"Sizes", sweepable({{"type", "array"}, {"items", sweepable(uint32_schema())}})},
        {"Strides", sweepable({{"type", "array"}, {"items", sweepable(uint32_schema())}})},
        {"Flags", sweepable({{"anyOf", json::array({uint32_schema(),
                                                    {{"enum", {"NONE", "OWNED_BY_DML", "DML_TENSOR_FLAG_NONE",
                                                               "DML_TENSOR_FLAG_OWNED_BY_DML"}}}})}})},
        {"DimensionCount", sweepable(uint32_schema())},
        {"TotalTensorSizeInBytes", sweepable({{"type", "integer"}, {"minimum", 0}})},
        {"GuaranteedBaseOffsetAlignment", sweepable(uint32_schema())},
    };
    json schema = {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
    // An output may leave out its Sizes (derived) and its DataType (the InputTensor's): docs/case-format.md.
    if (!output) schema["required"] = {"DataType", "Sizes"};
    return schema;
}

json number_or_special() {
    return {{"anyOf", json::array({{{"type", "number"}}, {{"enum", {"nan", "NaN", "inf", "Infinity", "-inf", "-Infinity"}}}})}};
}

json defs() {
    json values_item = json{{"anyOf", json::array({number_or_special(), {{"type", "array"}, {"items", {{"$ref", "#/$defs/valuesItem"}}}}})}};
    json source = {
        {"type", "object"},
        {"properties",
         {{"hdf5", sweepable({{"type", "string"}, {"minLength", 1}})},
          {"dataset", sweepable({{"type", "string"}, {"minLength", 1}})},
          {"values", sweepable({{"type", "array"}, {"items", sweepable({{"$ref", "#/$defs/valuesItem"}})}})},
          {"random",
           sweepable({{"type", "object"},
                      {"properties",
                       {{"seed", sweepable({{"type", "integer"}, {"minimum", 0}})},
                        {"min", sweepable({{"type", "number"}})},
                        {"max", sweepable({{"type", "number"}})}}},
                      {"additionalProperties", false}})},
          {"sequence",
           sweepable({{"type", "object"},
                      {"properties", {{"start", sweepable({{"type", "number"}})}, {"step", sweepable({{"type", "number"}})}}},
                      {"required", {"start", "step"}},
                      {"additionalProperties", false}})},
          {"constant", sweepable(number_or_special())}}},
        {"additionalProperties", false},
        {"oneOf", json::array({{{"required", {"hdf5", "dataset"}}}, {{"required", {"values"}}}, {{"required", {"random"}}},
                               {{"required", {"sequence"}}}, {{"required", {"constant"}}}})},
    };
    return {
        {"placeholder", {{"type", "string"}, {"pattern", "\\$\\{[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_]+)*\\}"}}},
        {"valuesItem", values_item},
        {"source", sweepable(source)},
        {"toleranceEntry",
         {{"type", "object"},
          {"properties", {{"ulp", sweepable({{"type", "integer"}, {"minimum", 0}})},
                          {"abs", sweepable({{"type", "number"}, {"minimum", 0}})}}},
          {"additionalProperties", false}}},
        {"inputTensorDesc", tensor_desc_schema(false)},
        {"outputTensorDesc", tensor_desc_schema(true)},
    };
}

}  // namespace

std::vector<DescMember> describe_desc_members(const Op& op) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<MemberRead>> reads_by_key;  // every read of a key, across samples
    std::map<std::string, uint64_t> samples_reading;              // how many samples read the key at all
    uint64_t samples = 0;
    for (uint64_t i = 0; i < kSamples; ++i) {
        auto generated = generate_case_json(op, 1, i);
        if (!generated.is_ok()) continue;
        json desc = (*generated)["operator"]["desc"];
        std::vector<MemberRead> reads;
        {
            ScopedMemberRecording recording(kDescPath, reads);
            if (!op.derive_outputs(desc, kDescPath).is_ok()) continue;
            JsonObjectReader reader(desc, kDescPath);
            (void)op.parse(reader);  // the sample is valid: every member on this path is read
        }
        ++samples;
        std::vector<std::string> seen;
        for (MemberRead& read : reads) {
            if (!reads_by_key.count(read.key)) order.push_back(read.key);
            if (std::find(seen.begin(), seen.end(), read.key) == seen.end()) seen.push_back(read.key);
            reads_by_key[read.key].push_back(std::move(read));
        }
        for (const std::string& key : seen) ++samples_reading[key];
    }
    std::vector<DescMember> out;
    for (const std::string& key : order) {
        const std::vector<MemberRead>& reads = reads_by_key[key];
        DescMember member;
        member.read = reads.front();
        for (const MemberRead& r : reads)
            if (r.kind != Kind::kAny && member.read.kind == Kind::kAny) member.read = r;  // a typed read says more
        member.read.required = samples_reading[key] == samples &&
                               std::all_of(reads.begin(), reads.end(), [](const MemberRead& r) { return r.required; });
        const bool tensor = member.read.kind == Kind::kTensor || member.read.kind == Kind::kTensorArray;
        if (tensor && member.read.role == TensorRole::kOutput) member.read.required = false;
        if (tensor) member.data_types = table_types(op, key);
        out.push_back(std::move(member));
    }
    return out;
}

json case_file_schema(const OpRegistry& registry) {
    json type_names = json::array();
    json per_operator = json::array();
    for (const auto& op : registry.ops()) {
        const std::string full = "DML_OPERATOR_" + std::string(op->name());
        type_names.push_back(full);
        type_names.push_back(std::string(op->name()));
        const std::vector<DescMember> members = describe_desc_members(*op);
        per_operator.push_back(
            {{"if", {{"properties", {{"operator", {{"properties", {{"type", {{"enum", {full, std::string(op->name())}}}}}}}}}}}},
             {"then",
              {{"properties",
                {{"operator", {{"properties", {{"desc", desc_schema(members)}}}}},
                 {"inputs", sources_schema(members, TensorRole::kInput)},
                 {"expected", sources_schema(members, TensorRole::kOutput)},
                 {"tolerance", tolerance_schema(members)}}}}}});
    }
    json levels = json::array();
    for (FeatureLevel level : kAllFeatureLevels) {
        levels.push_back(level.to_string());
        levels.push_back("DML_FEATURE_LEVEL_" + level.to_string());
    }
    json case_schema = {
        {"type", "object"},
        {"properties",
         {{"$schema", {{"type", "string"}}},
          {"comment", true},
          {"name", {{"type", "string"}, {"minLength", 1}}},
          {"description", {{"type", "string"}}},
          {"featureLevel", sweepable({{"type", "string"}, {"enum", levels}})},
          {"tags", {{"type", "array"}, {"items", {{"type", "string"}}}}},
          {"sweep", {{"type", "object"},
                     {"propertyNames", {{"pattern", "^[A-Za-z_][A-Za-z0-9_]*$"}}},
                     {"additionalProperties", {{"type", "array"}, {"minItems", 1}}}}},
          {"operator", {{"type", "object"},
                        {"properties", {{"type", {{"enum", type_names}}}, {"desc", {{"type", "object"}}}}},
                        {"required", {"type", "desc"}},
                        {"additionalProperties", false}}},
          {"inputs", {{"type", "object"}}},
          {"expected", {{"type", "object"}}},
          {"tolerance", {{"type", "object"}}}}},
        {"required", {"name", "operator", "inputs"}},
        {"additionalProperties", false},
        {"allOf", per_operator},
    };
    json d = defs();
    d["case"] = case_schema;
    return {
        {"$schema", "https://json-schema.org/draft/2020-12/schema"},
        {"$id", "https://github.com/dmltool/dmltool/schema/dmltool-case.schema.json"},
        {"title", "dmltool case file"},
        {"description", "One case object or {\"cases\": [...]}. Generated by `dmltool schema` from the operators' "
                        "own readers and feature-level tables; the validator (`dmltool validate`) has the last word "
                        "on every rule a schema cannot state (shapes, strides, feature levels)."},
        {"$defs", d},
        {"anyOf", json::array({{{"$ref", "#/$defs/case"}},
                               {{"type", "object"},
                                {"properties", {{"$schema", {{"type", "string"}}},
                                                {"comment", true},
                                                {"cases", {{"type", "array"}, {"items", {{"$ref", "#/$defs/case"}}}}}}},
                                {"required", {"cases"}},
                                {"additionalProperties", false}}})},
    };
}

std::string format_desc_members(const Op& op) {
    std::string out = "DML_OPERATOR_" + std::string(op.name()) + " desc members (in the order the validator reads them):\n";
    for (const DescMember& m : describe_desc_members(op)) {
        std::string type;
        switch (m.read.kind) {
            case Kind::kUint: type = "unsigned integer"; break;
            case Kind::kUintArray: type = "array of unsigned integers"; break;
            case Kind::kFloatArray: type = "array of numbers"; break;
            case Kind::kEnum: type = "enum"; break;
            case Kind::kTensor: type = m.read.role == TensorRole::kInput ? "input tensor desc" : "output tensor desc"; break;
            case Kind::kTensorArray:
                type = m.read.role == TensorRole::kInput ? "array of input tensor descs" : "array of output tensor descs";
                break;
            case Kind::kFloat: type = "number (32-bit float; \"inf\", \"-inf\")"; break;
            case Kind::kInt: type = "signed 32-bit integer"; break;
            case Kind::kBool: type = "true or false"; break;
            case Kind::kObject: type = "object"; break;
            case Kind::kAny: type = "dmltool extension (see docs/case-format.md)"; break;
        }
        out += "  " + m.read.key + std::string(m.read.key.size() < 24 ? 24 - m.read.key.size() : 1, ' ') + type +
               (m.read.required ? ", required" : ", optional");
        if (m.read.kind == Kind::kEnum) {
            out += ": ";
            for (size_t i = 0; i < m.read.enum_names.size(); ++i) out += (i ? ", " : "") + m.read.enum_names[i];
            out += " (optionally prefixed with " + m.read.enum_prefix + ")";
        }
        if (!m.data_types.empty()) {
            out += ": DataType ";
            for (size_t i = 0; i < m.data_types.size(); ++i) out += (i ? ", " : "") + m.data_types[i];
        }
        const bool output_tensor = (m.read.kind == Kind::kTensor || m.read.kind == Kind::kTensorArray) &&
                                   m.read.role == TensorRole::kOutput;
        if (output_tensor) out += " (may be left out or given without Sizes: derived)";
        out += "\n";
    }
    out += "Tensor desc members: DataType, Sizes (required for inputs), Strides, Flags, DimensionCount, "
           "TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment, Type.\n";
    return out;
}

}  // namespace dmltool
