#include "core/json_reader.h"

#include "core/suggest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace dmltool {

std::string describe_json(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::null: return "null";
        case nlohmann::json::value_t::boolean: return std::string("boolean ") + (value.get<bool>() ? "true" : "false");
        case nlohmann::json::value_t::string: {
            std::string text = value.get<std::string>();
            if (text.size() > 40) {
                // Cut before a UTF-8 continuation byte: half a character would make reports invalid UTF-8/XML.
                size_t cut = 37;
                while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
                text = text.substr(0, cut) + "...";
            }
            return "string \"" + text + "\"";
        }
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float: return "number " + value.dump();
        case nlohmann::json::value_t::array: return "array of " + std::to_string(value.size());
        case nlohmann::json::value_t::object: return "object";
        default: return "unsupported JSON value";
    }
}

namespace {

Status expected(const std::string& path, const std::string& what, const nlohmann::json& found) {
    return invalid_input(path + ": expected " + what + ", found " + describe_json(found));
}

Result<uint32_t> read_uint(const nlohmann::json& v, const std::string& path) {
    if (v.is_number_unsigned() && v.get<uint64_t>() <= std::numeric_limits<uint32_t>::max())
        return uint32_t(v.get<uint64_t>());
    if (v.is_number_integer() && !v.is_number_unsigned()) return expected(path, "an unsigned 32-bit integer", v);
    if (v.is_number_unsigned()) return expected(path, "an unsigned 32-bit integer (at most 4294967295)", v);
    return expected(path, "an unsigned 32-bit integer", v);
}

Result<uint64_t> read_uint64(const nlohmann::json& v, const std::string& path) {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    return expected(path, "an unsigned 64-bit integer", v);
}

Result<Dims> read_uint_array(const nlohmann::json& v, const std::string& path) {
    if (!v.is_array()) return expected(path, "an array of unsigned integers", v);
    Dims out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(uint32_t value, read_uint(v[i], path + "/" + std::to_string(i)));
        out.push_back(value);
    }
    return out;
}

// "PATH/KEY: missing required member (WHAT)". A required member is read before the object's other members are
// known, so a misspelling of it is still unread here: name the unread member that is close to KEY ("BlockSzie").
Status missing_member(const nlohmann::json& object, const std::vector<std::string>& read_keys, const std::string& path,
                      std::string_view key, const std::string& what) {
    const std::string message =
        path + "/" + std::string(key) + ": missing required member" + (what.empty() ? "" : " (" + what + ")");
    const std::vector<std::string> wanted{std::string(key)};
    if (object.is_object())
        for (auto it = object.begin(); it != object.end(); ++it)
            if (std::find(read_keys.begin(), read_keys.end(), it.key()) == read_keys.end() && closest_name(it.key(), wanted))
                return invalid_input(message + "; found unknown member '" + it.key() + "' (did you mean " +
                                     std::string(key) + "?)");
    return invalid_input(message);
}

}  // namespace

Result<TensorDesc> parse_tensor_desc(const nlohmann::json& value, const std::string& path, TensorRole role) {
    if (!value.is_object()) return expected(path, "a tensor desc object {\"DataType\": ..., \"Sizes\": [...]}", value);
    JsonObjectReader reader(value, path);
    TensorDesc desc;
    if (reader.has("Type")) {
        // DML_TENSOR_DESC's tag: only BUFFER exists.
        static constexpr EnumName kTypes[] = {{"BUFFER", 1}};
        DMLTOOL_RETURN_IF_ERROR(reader.required_enum("Type", "DML_TENSOR_TYPE_", kTypes));
    }
    const nlohmann::json& type = value.contains("DataType") ? value["DataType"] : nlohmann::json();
    static const std::vector<std::string> kDescMembers = {"Type", "Sizes", "Flags", "DimensionCount", "Strides",
                                                          "TotalTensorSizeInBytes", "GuaranteedBaseOffsetAlignment"};
    if (!value.contains("DataType")) return missing_member(value, kDescMembers, path, "DataType", "");
    if (!type.is_string()) return expected(path + "/DataType", "a data type name such as \"FLOAT32\"", type);
    auto parsed = parse_data_type(type.get<std::string>());
    if (!parsed || *parsed == DataType::kUnknown)
        return expected(path + "/DataType", "one of " + all_data_type_names(), type);
    desc.data_type = *parsed;
    reader.accept("DataType");
    DMLTOOL_ASSIGN_OR_RETURN(desc.sizes, reader.required_uint_array("Sizes"));
    if (reader.has("Flags")) {
        static constexpr EnumName kFlags[] = {{"NONE", 0}, {"OWNED_BY_DML", 1}};
        const nlohmann::json& flags = value["Flags"];
        if (flags.is_number_unsigned()) {
            DMLTOOL_ASSIGN_OR_RETURN(desc.flags, reader.required_uint("Flags"));
        } else {
            DMLTOOL_ASSIGN_OR_RETURN(desc.flags, reader.required_enum("Flags", "DML_TENSOR_FLAG_", kFlags));
        }
    }
    DMLTOOL_ASSIGN_OR_RETURN(auto dimension_count, reader.optional_uint("DimensionCount"));
    if (dimension_count && *dimension_count != desc.sizes.size())
        return invalid_input(path + "/DimensionCount: expected " + std::to_string(desc.sizes.size()) +
                             " (the length of Sizes), found " + std::to_string(*dimension_count));
    if (reader.has("Strides")) {
        DMLTOOL_ASSIGN_OR_RETURN(desc.strides, reader.required_uint_array("Strides"));
    }
    bool total_given = false;
    if (reader.has("TotalTensorSizeInBytes")) {
        reader.accept("TotalTensorSizeInBytes");
        DMLTOOL_ASSIGN_OR_RETURN(desc.total_size_in_bytes,
                                 read_uint64(value["TotalTensorSizeInBytes"], path + "/TotalTensorSizeInBytes"));
        total_given = true;
    }
    DMLTOOL_ASSIGN_OR_RETURN(auto alignment, reader.optional_uint("GuaranteedBaseOffsetAlignment"));
    desc.guaranteed_base_offset_alignment = alignment.value_or(0);
    // Members read only when present must still be offered for a typo such as "Stride".
    for (const char* key : {"Flags", "Strides", "TotalTensorSizeInBytes", "Type"}) reader.accept(key);
    DMLTOOL_RETURN_IF_ERROR(reader.finish());
    Status valid = validate_tensor_desc(desc, role, total_given);
    if (!valid.is_ok()) {
        // validate_tensor_desc names members as ".Sizes[2]": turn that into a JSON path.
        std::string message = valid.message();
        if (!message.empty() && message[0] == '.') message = "/" + message.substr(1);
        return Status(valid.code(), path + message);
    }
    return desc;
}

namespace {
thread_local ScopedMemberRecording* g_recording = nullptr;
}  // namespace

ScopedMemberRecording::ScopedMemberRecording(std::string recorded_path, std::vector<MemberRead>& recorded)
    : path(std::move(recorded_path)), out(&recorded), previous(g_recording) {
    g_recording = this;
}

ScopedMemberRecording::~ScopedMemberRecording() { g_recording = previous; }

void JsonObjectReader::record(std::string_view key, MemberRead::Kind kind, bool required, TensorRole role,
                              std::string_view prefix, std::span<const EnumName> names) const {
    if (!g_recording || g_recording->path != path_) return;
    MemberRead read{std::string(key), kind, required, std::string(prefix), {}, role};
    for (const EnumName& n : names) read.enum_names.emplace_back(n.name);
    g_recording->out->push_back(std::move(read));
}

void JsonObjectReader::accept(std::string_view key) {
    known_keys_.emplace_back(key);
    record(key, MemberRead::Kind::kAny, false);
}

JsonObjectReader::JsonObjectReader(const nlohmann::json& object, std::string path)
    : object_(object), path_(std::move(path)) {}

std::string JsonObjectReader::member_path(std::string_view key) const { return path_ + "/" + std::string(key); }

bool JsonObjectReader::has(std::string_view key) const {
    return object_.is_object() && object_.contains(std::string(key)) &&
           !(object_[std::string(key)].is_null());
}

const nlohmann::json* JsonObjectReader::find(std::string_view key) {
    known_keys_.emplace_back(key);
    if (!object_.is_object()) return nullptr;
    auto it = object_.find(std::string(key));
    if (it == object_.end() || it->is_null()) return nullptr;
    return &*it;
}

Result<uint32_t> JsonObjectReader::required_uint(std::string_view key) {
    record(key, MemberRead::Kind::kUint, true);
    const nlohmann::json* v = find(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "an unsigned integer");
    return read_uint(*v, member_path(key));
}

Result<std::optional<uint32_t>> JsonObjectReader::optional_uint(std::string_view key) {
    record(key, MemberRead::Kind::kUint, false);
    const nlohmann::json* v = find(key);
    if (!v) return std::optional<uint32_t>();
    DMLTOOL_ASSIGN_OR_RETURN(uint32_t value, read_uint(*v, member_path(key)));
    return std::optional<uint32_t>(value);
}

Result<Dims> JsonObjectReader::required_uint_array(std::string_view key) {
    record(key, MemberRead::Kind::kUintArray, true);
    const nlohmann::json* v = find(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "an array of unsigned integers");
    return read_uint_array(*v, member_path(key));
}

Result<std::vector<float>> JsonObjectReader::required_float_array(std::string_view key) {
    record(key, MemberRead::Kind::kFloatArray, true);
    const nlohmann::json* v = find(key);
    const std::string path = member_path(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "an array of numbers");
    if (!v->is_array()) return expected(path, "an array of numbers", *v);
    std::vector<float> out;
    for (size_t i = 0; i < v->size(); ++i) {
        const nlohmann::json& item = (*v)[i];
        const std::string item_path = path + "/" + std::to_string(i);
        if (!item.is_number()) return expected(item_path, "a number", item);
        const double value = item.get<double>();
        if (!std::isfinite(value) || std::fabs(value) > std::numeric_limits<float>::max())
            return expected(item_path, "a finite 32-bit float", item);
        out.push_back(float(value));
    }
    return out;
}

Result<float> JsonObjectReader::required_float(std::string_view key) {
    record(key, MemberRead::Kind::kFloat, true);
    const nlohmann::json* v = find(key);
    const std::string path = member_path(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "a number");
    if (v->is_string()) {
        const std::string& text = v->get_ref<const std::string&>();
        if (text == "inf" || text == "+inf") return std::numeric_limits<float>::infinity();
        if (text == "-inf") return -std::numeric_limits<float>::infinity();
    }
    if (!v->is_number()) return expected(path, "a 32-bit float (a number, \"inf\" or \"-inf\")", *v);
    const double value = v->get<double>();
    if (!std::isfinite(value) || std::fabs(value) > std::numeric_limits<float>::max())
        return expected(path, "a 32-bit float (at most 3.40282347e+38 in magnitude; \"inf\" for infinity)", *v);
    return float(value);
}

Result<int32_t> JsonObjectReader::required_int(std::string_view key) {
    record(key, MemberRead::Kind::kInt, true);
    const nlohmann::json* v = find(key);
    const std::string path = member_path(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "an integer");
    if (v->is_number_unsigned() && v->get<uint64_t>() <= uint64_t(std::numeric_limits<int32_t>::max()))
        return int32_t(v->get<uint64_t>());
    if (v->is_number_integer() && !v->is_number_unsigned() && v->get<int64_t>() >= std::numeric_limits<int32_t>::min())
        return int32_t(v->get<int64_t>());
    return expected(path, "a signed 32-bit integer", *v);
}

Result<bool> JsonObjectReader::required_bool(std::string_view key) {
    record(key, MemberRead::Kind::kBool, true);
    const nlohmann::json* v = find(key);
    const std::string path = member_path(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "true or false");
    if (v->is_boolean()) return v->get<bool>();
    if (v->is_number_unsigned() && v->get<uint64_t>() <= 1) return v->get<uint64_t>() == 1;
    return expected(path, "true or false (or 0 or 1)", *v);
}

const nlohmann::json* JsonObjectReader::optional_object(std::string_view key, Status& error) {
    record(key, MemberRead::Kind::kObject, false);
    const nlohmann::json* v = find(key);
    error = Status::ok();
    if (v && !v->is_object()) {
        error = expected(member_path(key), "an object", *v);
        return nullptr;
    }
    return v;
}

Result<uint32_t> JsonObjectReader::required_enum(std::string_view key, std::string_view prefix,
                                                 std::span<const EnumName> names) {
    record(key, MemberRead::Kind::kEnum, true, TensorRole::kInput, prefix, names);
    const nlohmann::json* v = find(key);
    const std::string path = member_path(key);
    std::string choices;
    for (const EnumName& n : names) choices += (choices.empty() ? "" : ", ") + std::string(n.name);
    if (!v) return missing_member(object_, known_keys_, path_, key, "one of " + choices);
    std::string suggestion;
    if (v->is_string()) {
        std::string_view text = v->get_ref<const std::string&>();
        if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
        for (const EnumName& n : names)
            if (n.name == text) return n.value;
        // A typo, a lower-case name or an abbreviation (ONNX's CRD for COLUMN_ROW_DEPTH) gets the same
        // "did you mean" as a misspelled member.
        std::vector<std::string> suffixes;
        for (const EnumName& n : names) suffixes.emplace_back(n.name);
        suggestion = did_you_mean(text, suffixes);
    }
    return invalid_input(path + ": expected one of " + choices + " (optionally prefixed with " + std::string(prefix) +
                         "), found " + describe_json(*v) + suggestion);
}

Result<TensorDesc> JsonObjectReader::required_tensor(std::string_view key, TensorRole role) {
    record(key, MemberRead::Kind::kTensor, true, role);
    const nlohmann::json* v = find(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "a tensor desc");
    return parse_tensor_desc(*v, member_path(key), role);
}

Result<std::optional<TensorDesc>> JsonObjectReader::optional_tensor(std::string_view key, TensorRole role) {
    record(key, MemberRead::Kind::kTensor, false, role);
    const nlohmann::json* v = find(key);
    if (!v) return std::optional<TensorDesc>();
    DMLTOOL_ASSIGN_OR_RETURN(TensorDesc desc, parse_tensor_desc(*v, member_path(key), role));
    return std::optional<TensorDesc>(std::move(desc));
}

Result<std::vector<TensorDesc>> JsonObjectReader::required_tensor_array(std::string_view key, TensorRole role) {
    record(key, MemberRead::Kind::kTensorArray, true, role);
    const nlohmann::json* v = find(key);
    const std::string path = member_path(key);
    if (!v) return missing_member(object_, known_keys_, path_, key, "an array of tensor descs");
    if (!v->is_array() || v->empty()) return expected(path, "a non-empty array of tensor descs", *v);
    std::vector<TensorDesc> out;
    for (size_t i = 0; i < v->size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(TensorDesc desc, parse_tensor_desc((*v)[i], path + "/" + std::to_string(i), role));
        out.push_back(std::move(desc));
    }
    return out;
}

Status JsonObjectReader::check_optional_count(std::string_view key, size_t actual, std::string_view counted_key) {
    DMLTOOL_ASSIGN_OR_RETURN(auto count, optional_uint(key));
    if (count && *count != actual)
        return invalid_input(member_path(key) + ": expected " + std::to_string(actual) + " (the length of " +
                             std::string(counted_key) + "), found " + std::to_string(*count));
    return Status::ok();
}

Status JsonObjectReader::finish() const {
    if (!object_.is_object()) return expected(path_, "an object", object_);
    for (auto it = object_.begin(); it != object_.end(); ++it) {
        if (std::find(known_keys_.begin(), known_keys_.end(), it.key()) != known_keys_.end()) continue;
        std::vector<std::string> allowed;  // a key may be both read and accepted: list it once
        for (const std::string& key : known_keys_)
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) allowed.push_back(key);
        return invalid_input(member_path(it.key()) + ": " + unknown_member_text(it.key(), allowed));
    }
    return Status::ok();
}

}  // namespace dmltool
