// JsonObjectReader reads one JSON object field by field and turns every mistake into a one-line message
// that names the JSON path, what was expected and what was found. It also remembers which keys were read
// so that finish() can reject misspelled members instead of silently ignoring them.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/tensor.h"

namespace dmltool {

struct EnumName {
    std::string_view name;  // the suffix, e.g. "DEPTH_COLUMN_ROW"
    uint32_t value;
};

// One member a reader was asked for. Recorded while `dmltool schema` and `dmltool list OPERATOR` run an operator's
// own derive_outputs and parse on sample descs (core/case_schema.cpp): the member table they print is the one the
// validator reads, so it cannot drift from it.
struct MemberRead {
    enum class Kind { kUint, kUintArray, kFloatArray, kEnum, kTensor, kTensorArray, kFloat, kInt, kBool, kObject, kAny };
    std::string key;
    Kind kind = Kind::kAny;
    bool required = false;
    std::string enum_prefix;                // kEnum: "DML_DEPTH_SPACE_ORDER_"
    std::vector<std::string> enum_names;    // kEnum: the suffixes
    TensorRole role = TensorRole::kInput;   // kTensor, kTensorArray
};

// While alive, every JsonObjectReader of this thread whose path is `path` reports each member it is asked for
// to `out`. Thread-local rather than a reader member because operators build readers of their own on the same
// object (derive_outputs); scoped so that nothing is recorded outside `dmltool schema` and `list OPERATOR`.
class ScopedMemberRecording {
public:
    ScopedMemberRecording(std::string path, std::vector<MemberRead>& out);
    ~ScopedMemberRecording();
    ScopedMemberRecording(const ScopedMemberRecording&) = delete;
    ScopedMemberRecording& operator=(const ScopedMemberRecording&) = delete;

    std::string path;
    std::vector<MemberRead>* out;
    ScopedMemberRecording* previous;
};

// "string \"abc\"", "number 2.5", "array of 3", "object", "null", ... for "found ..." messages.
std::string describe_json(const nlohmann::json& value);

class JsonObjectReader {
public:
    // `object` must outlive the reader. `path` is its JSON pointer, e.g. "/operator/desc".
    JsonObjectReader(const nlohmann::json& object, std::string path);

    const std::string& path() const { return path_; }
    // The object read: for members a caller reads by hand (after accept()).
    const nlohmann::json& object() const { return object_; }
    bool has(std::string_view key) const;
    // Marks a member as understood when the caller reads it by hand.
    void accept(std::string_view key);

    Result<uint32_t> required_uint(std::string_view key);
    Result<std::optional<uint32_t>> optional_uint(std::string_view key);
    Result<Dims> required_uint_array(std::string_view key);
    Result<std::vector<float>> required_float_array(std::string_view key);
    // A 32-bit float: a number in float32's range, or the strings "inf", "+inf", "-inf" (JSON has no infinity).
    Result<float> required_float(std::string_view key);
    Result<int32_t> required_int(std::string_view key);
    // true/false (or 0/1, as DirectML's BOOL is an integer).
    Result<bool> required_bool(std::string_view key);
    // A nested object member (DML_SCALE_BIAS, a nested operator desc): null when absent; the caller reads it with
    // a reader of its own at path() + "/" + key.
    const nlohmann::json* optional_object(std::string_view key, Status& error);
    // Enum by full name (`prefix` + suffix) or by suffix alone.
    Result<uint32_t> required_enum(std::string_view key, std::string_view prefix, std::span<const EnumName> names);
    Result<TensorDesc> required_tensor(std::string_view key, TensorRole role);
    Result<std::optional<TensorDesc>> optional_tensor(std::string_view key, TensorRole role);
    Result<std::vector<TensorDesc>> required_tensor_array(std::string_view key, TensorRole role);
    // For count members (OutputCount, ScaleCount, DimensionCount): when present they must equal `actual`.
    Status check_optional_count(std::string_view key, size_t actual, std::string_view counted_key);

    // Rejects members that no getter asked for (typos such as "Blocksize").
    Status finish() const;

private:
    const nlohmann::json* find(std::string_view key);
    std::string member_path(std::string_view key) const;
    void record(std::string_view key, MemberRead::Kind kind, bool required, TensorRole role = TensorRole::kInput,
                std::string_view prefix = {}, std::span<const EnumName> names = {}) const;

    const nlohmann::json& object_;
    std::string path_;
    std::vector<std::string> known_keys_;
};

// Parses a DML_BUFFER_TENSOR_DESC object (DxDispatch conventions: only DataType and Sizes required) and runs
// validate_tensor_desc on it. `path` is used in messages.
Result<TensorDesc> parse_tensor_desc(const nlohmann::json& value, const std::string& path, TensorRole role);

}  // namespace dmltool
