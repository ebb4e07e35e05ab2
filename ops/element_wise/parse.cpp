// Reads a desc of any row of the families, member by member in DirectML's order, and checks the rules every
// element-wise desc shares: each input has the output's Sizes (DirectML broadcasts through Strides, not through
// Sizes), the tensors of a same-type group share their DataType, a fused activation has no tensors.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "ops/element_wise/engine.h"

namespace dmltool::ops::element_wise {

namespace {

std::vector<EnumName> data_type_enum_names() {
    std::vector<EnumName> names;
    for (DataType type : kAllTensorDataTypes) names.push_back({data_type_name(type), uint32_t(type)});
    return names;
}

// A DML_SCALAR_UNION member given as a JSON number of its data type ("inf"/"-inf"/"nan" for float types).
Result<ScalarUnion> read_scalar(const nlohmann::json& value, DataType type, const std::string& path) {
    const std::string expected_text = "a " + std::string(data_type_name(type)) + " value";
    auto fail = [&] { return invalid_input(path + ": expected " + expected_text + ", found " + describe_json(value)); };
    if (is_float(type)) {
        double number = 0;
        if (value.is_string()) {
            const std::string& text = value.get_ref<const std::string&>();
            if (text == "inf" || text == "+inf") number = std::numeric_limits<double>::infinity();
            else if (text == "-inf") number = -std::numeric_limits<double>::infinity();
            else if (text == "nan") number = std::numeric_limits<double>::quiet_NaN();
            else return fail();
        } else if (value.is_number()) {
            number = value.get<double>();
            const double largest = type == DataType::kFloat32   ? double(std::numeric_limits<float>::max())
                                   : type == DataType::kFloat16 ? 65504.0
                                                                : std::numeric_limits<double>::max();
            if (std::fabs(number) > largest) return fail();
        } else {
            return fail();
        }
        return ScalarUnion::of_double(type, number);
    }
    ScalarUnion s;
    s.type = type;
    if (value.is_number_unsigned()) {
        const uint64_t v = value.get<uint64_t>();
        if (v > integer_max(type)) return fail();
        std::memcpy(s.bytes.data(), &v, 8);  // little-endian: the low bytes hold the narrower types
        return s;
    }
    if (value.is_number_integer()) {
        const int64_t v = value.get<int64_t>();
        if (v < integer_min(type)) return fail();
        std::memcpy(s.bytes.data(), &v, 8);
        // Keep only the type's own bytes: the rest of the union is zero as DirectML's callers write it.
        const size_t size = element_size(type);
        for (size_t i = size; i < 8; ++i) s.bytes[i] = std::byte{0};
        return s;
    }
    return fail();
}

const TensorDesc* tensor_named(const ElementWiseDesc& desc, std::string_view name) {
    return name == "OutputTensor" ? &desc.output : desc.input(name);
}

// DirectML: "must have the same Sizes" (dml_facts' SAME SIZES groups). The output is the reference when it is in
// the group: element-wise operators broadcast through an input's Strides, never through its Sizes.
Status check_same_sizes(const ElementWiseDesc& desc, const std::string& path) {
    for (const auto& group : desc.function->same_sizes_groups) {
        std::string_view first_name;
        for (std::string_view name : group)
            if (name == "OutputTensor") first_name = name;
        if (first_name.empty())
            for (std::string_view name : group)
                if (tensor_named(desc, name)) {
                    first_name = name;
                    break;
                }
        const TensorDesc* first = first_name.empty() ? nullptr : tensor_named(desc, first_name);
        if (!first) continue;
        for (std::string_view name : group) {
            const TensorDesc* t = tensor_named(desc, name);
            if (!t || t->sizes == first->sizes) continue;
            return invalid_input(path + "/" + std::string(name) + "/Sizes: expected " + format_dims(first->sizes) +
                                 " (the " + std::string(first_name) +
                                 "'s Sizes; element-wise operators broadcast through Strides, 0 on a broadcast "
                                 "dimension), found " + format_dims(t->sizes));
        }
    }
    return Status::ok();
}

Status check_same_types(const ElementWiseDesc& desc, const std::string& path) {
    for (const auto& group : desc.function->same_type_groups) {
        const TensorDesc* first = nullptr;
        std::string_view first_name;
        for (std::string_view name : group) {
            const TensorDesc* t = tensor_named(desc, name);
            if (!t) continue;
            if (!first) {
                first = t;
                first_name = name;
            } else if (t->data_type != first->data_type) {
                return invalid_input(path + "/" + std::string(name) + "/DataType: expected " +
                                     std::string(data_type_name(first->data_type)) + " (the " +
                                     std::string(first_name) + "'s data type), found " +
                                     std::string(data_type_name(t->data_type)));
            }
        }
    }
    return Status::ok();
}

bool fusable(const FunctionSpec& f) { return f.fusable && f.math && !f.math->lane; }

Result<FusedActivation> read_fused_activation(const nlohmann::json& object, const std::string& path) {
    JsonObjectReader reader(object, path);
    const nlohmann::json* type = object.contains("type") ? &object["type"] : nullptr;
    reader.accept("type");
    reader.accept("desc");
    if (!type || !type->is_string())
        return invalid_input(path + "/type: expected an activation operator name such as "
                             "\"DML_OPERATOR_ACTIVATION_RELU\", found " +
                             (type ? describe_json(*type) : std::string("nothing")));
    std::string_view name = type->get_ref<const std::string&>();
    if (name.substr(0, 13) == "DML_OPERATOR_") name.remove_prefix(13);
    const FunctionSpec* function = find_function(name);
    if (!function || !fusable(*function)) {
        std::string choices;
        for (const FunctionSpec& f : activation::activation_functions())
            if (fusable(f)) choices += (choices.empty() ? "" : ", ") + std::string(f.name);
        return invalid_input(path + "/type: expected an activation DirectML can fuse (" + choices + "), found " +
                             describe_json(*type));
    }
    static const nlohmann::json kEmpty = nlohmann::json::object();
    const nlohmann::json& desc_json = object.contains("desc") && !object["desc"].is_null() ? object["desc"] : kEmpty;
    JsonObjectReader desc_reader(desc_json, path + "/desc");
    FusedActivation fused;
    fused.function = function;
    for (const MemberSpec& m : function->members) {
        if (is_tensor(m.kind) && desc_reader.has(m.name))
            return invalid_input(path + "/desc/" + std::string(m.name) +
                                 ": expected no tensor (a fused activation's tensors are null in DirectML), found " +
                                 describe_json(desc_json[std::string(m.name)]));
    }
    DMLTOOL_ASSIGN_OR_RETURN(auto parsed, parse_desc(*function, desc_reader, true));
    fused.attributes = std::move(parsed->attributes);
    DMLTOOL_RETURN_IF_ERROR(reader.finish());
    return fused;
}

// Reads one member into `desc`. `fused`: a fused activation's desc, whose tensors are absent.
Status read_member(const MemberSpec& m, JsonObjectReader& reader, ElementWiseDesc& desc, bool fused) {
    const std::string path = reader.path() + "/" + std::string(m.name);
    switch (m.kind) {
        case MemberKind::kInputTensor: {
            if (fused) {
                desc.inputs.emplace_back();
                return Status::ok();
            }
            if (m.optional) {
                DMLTOOL_ASSIGN_OR_RETURN(auto t, reader.optional_tensor(m.name, TensorRole::kInput));
                desc.inputs.push_back(std::move(t));
            } else {
                DMLTOOL_ASSIGN_OR_RETURN(auto t, reader.required_tensor(m.name, TensorRole::kInput));
                desc.inputs.emplace_back(std::move(t));
            }
            return Status::ok();
        }
        case MemberKind::kOutputTensor: {
            if (fused) return Status::ok();
            DMLTOOL_ASSIGN_OR_RETURN(desc.output, reader.required_tensor(m.name, TensorRole::kOutput));
            return Status::ok();
        }
        case MemberKind::kScaleBias: {
            Status error;
            const nlohmann::json* object = reader.optional_object(m.name, error);
            DMLTOOL_RETURN_IF_ERROR(error);
            if (!object) return Status::ok();
            JsonObjectReader sb(*object, path);
            ScaleBias value;
            DMLTOOL_ASSIGN_OR_RETURN(value.scale, sb.required_float("Scale"));
            DMLTOOL_ASSIGN_OR_RETURN(value.bias, sb.required_float("Bias"));
            DMLTOOL_RETURN_IF_ERROR(sb.finish());
            if (!std::isfinite(value.scale) || !std::isfinite(value.bias))
                return invalid_input(path + ": expected a finite Scale and Bias, found Scale " +
                                     std::to_string(value.scale) + ", Bias " + std::to_string(value.bias));
            desc.scale_bias = value;
            return Status::ok();
        }
        case MemberKind::kFusedActivation: {
            Status error;
            const nlohmann::json* object = reader.optional_object(m.name, error);
            DMLTOOL_RETURN_IF_ERROR(error);
            if (!object) return Status::ok();
            DMLTOOL_ASSIGN_OR_RETURN(auto activation, read_fused_activation(*object, path));
            desc.fused_activation = std::move(activation);
            return Status::ok();
        }
        case MemberKind::kArrayCount: return Status::ok();  // checked with its array (kUintArray)
        default: break;
    }
    AttributeValue value;
    value.member = &m;
    switch (m.kind) {
        case MemberKind::kFloat: {
            DMLTOOL_ASSIGN_OR_RETURN(value.float_value, reader.required_float(m.name));
            break;
        }
        case MemberKind::kUint: {
            DMLTOOL_ASSIGN_OR_RETURN(value.uint_value, reader.required_uint(m.name));
            break;
        }
        case MemberKind::kInt: {
            DMLTOOL_ASSIGN_OR_RETURN(value.int_value, reader.required_int(m.name));
            break;
        }
        case MemberKind::kBool: {
            DMLTOOL_ASSIGN_OR_RETURN(bool b, reader.required_bool(m.name));
            value.uint_value = b ? 1 : 0;
            break;
        }
        case MemberKind::kEnum: {
            DMLTOOL_ASSIGN_OR_RETURN(value.uint_value, reader.required_enum(m.name, m.enum_prefix, m.enum_names));
            break;
        }
        case MemberKind::kDataType: {
            static const std::vector<EnumName> kNames = data_type_enum_names();
            DMLTOOL_ASSIGN_OR_RETURN(uint32_t type, reader.required_enum(m.name, "DML_TENSOR_DATA_TYPE_", kNames));
            value.data_type = DataType(type);
            break;
        }
        case MemberKind::kScalarUnion: {
            const AttributeValue* type_member = desc.attribute(m.related);
            const DataType type = type_member ? type_member->data_type : DataType::kFloat32;
            if (type == DataType::kFloat32 || type == DataType::kFloat16) {
                // A float union reads as a FLOAT member (and shows as one in the schema and `list OPERATOR`).
                DMLTOOL_ASSIGN_OR_RETURN(float v, reader.required_float(m.name));
                if (type == DataType::kFloat16 && std::isfinite(v) && std::fabs(v) > 65504.0f)
                    return invalid_input(path + ": expected a FLOAT16 value (at most 65504 in magnitude), found " +
                                         std::to_string(v));
                value.scalar = ScalarUnion::of_double(type, v);
                break;
            }
            reader.accept(m.name);
            if (!reader.has(m.name))
                return invalid_input(path + ": missing required member (a " + std::string(data_type_name(type)) +
                                     " value, the type of " + std::string(m.related) + ")");
            // The reader has no typed getter for an integer union: read the member from the desc object by hand.
            DMLTOOL_ASSIGN_OR_RETURN(value.scalar, read_scalar(reader.object()[std::string(m.name)], type, path));
            break;
        }
        case MemberKind::kUintArray: {
            DMLTOOL_ASSIGN_OR_RETURN(value.uint_array, reader.required_uint_array(m.name));
            if (!m.related.empty())
                DMLTOOL_RETURN_IF_ERROR(reader.check_optional_count(m.related, value.uint_array.size(), m.name));
            break;
        }
        default: return internal_error(path + ": member kind not handled");
    }
    desc.attributes.push_back(std::move(value));
    return Status::ok();
}

}  // namespace

Result<std::unique_ptr<ElementWiseDesc>> parse_desc(const FunctionSpec& function, JsonObjectReader& reader,
                                                   bool fused) {
    auto desc = std::make_unique<ElementWiseDesc>();
    desc->function = &function;
    for (const MemberSpec& m : function.members) DMLTOOL_RETURN_IF_ERROR(read_member(m, reader, *desc, fused));
    DMLTOOL_RETURN_IF_ERROR(reader.finish());
    if (fused) return desc;
    DMLTOOL_RETURN_IF_ERROR(check_same_sizes(*desc, reader.path()));
    DMLTOOL_RETURN_IF_ERROR(check_same_types(*desc, reader.path()));
    if (function.math && function.math->validate)
        DMLTOOL_RETURN_IF_ERROR(function.math->validate(*desc, reader.path()));
    if (desc->fused_activation && !is_float(desc->output.data_type))
        return invalid_input(reader.path() + "/FusedActivation: expected none for a " +
                             std::string(data_type_name(desc->output.data_type)) +
                             " OutputTensor (DirectML fuses activations only into FLOAT32 and FLOAT16 outputs)");
    return desc;
}

}  // namespace dmltool::ops::element_wise
