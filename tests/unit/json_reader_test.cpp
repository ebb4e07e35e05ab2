#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/suggest.h"

namespace dmltool {
namespace {

using nlohmann::json;

constexpr EnumName kModes[] = {{"NEAREST_NEIGHBOR", 0}, {"LINEAR", 1}};
constexpr std::string_view kModePrefix = "DML_INTERPOLATION_MODE_";

// The message of a failed Result, or a test failure when it succeeded.
template <typename T>
std::string error_of(const Result<T>& r) {
    EXPECT_FALSE(r.is_ok()) << "expected an error";
    if (r.is_ok()) return {};
    EXPECT_EQ(r.status().code(), ErrorCode::kInvalidInput) << r.status().message();
    return r.status().message();
}

TEST(DescribeJson, NamesWhatWasFound) {
    EXPECT_EQ(describe_json(json()), "null");
    EXPECT_EQ(describe_json(json(true)), "boolean true");
    EXPECT_EQ(describe_json(json("abc")), "string \"abc\"");
    EXPECT_EQ(describe_json(json(2.5)), "number 2.5");
    EXPECT_EQ(describe_json(json(-3)), "number -3");
    EXPECT_EQ(describe_json(json::array({1, 2, 3})), "array of 3");
    EXPECT_EQ(describe_json(json::object()), "object");
    // Long strings are cut so the message stays one readable line.
    EXPECT_EQ(describe_json(json(std::string(50, 'x'))), "string \"" + std::string(37, 'x') + "...\"");
}

// Regression: the cut used to split a multi-byte character, and the invalid UTF-8 then made the JSON report
// throw (an "internal error", exit 3) and the JUnit report malformed XML.
TEST(DescribeJson, CutsLongStringsOnCharacterBoundaries) {
    std::string e_acute;
    for (int i = 0; i < 30; ++i) e_acute += "\xc3\x89";  // U+00C9, two bytes each
    const std::string described = describe_json(json(e_acute));
    // 37 bytes would end inside the 19th character: only 18 whole characters (36 bytes) are kept.
    EXPECT_EQ(described, "string \"" + e_acute.substr(0, 36) + "...\"");
    std::string dumped;
    EXPECT_NO_THROW(dumped = json(described).dump());
}

// DxDispatch-style matrix: valid input, invalid value, missing field, wrong type.
TEST(JsonObjectReader, ValidInput) {
    const json v = json::parse(R"({"BlockSize": 2, "Sizes": [1, 8, 2, 3], "Scales": [0.5, 2],
                                    "Mode": "LINEAR", "Count": 7})");
    JsonObjectReader r(v, "/operator/desc");
    EXPECT_EQ(*r.required_uint("BlockSize"), 2u);
    EXPECT_EQ(*r.required_uint_array("Sizes"), (Dims{1, 8, 2, 3}));
    EXPECT_EQ(*r.required_float_array("Scales"), (std::vector<float>{0.5f, 2.0f}));
    EXPECT_EQ(*r.required_enum("Mode", kModePrefix, kModes), 1u);
    EXPECT_EQ(r.optional_uint("Count")->value(), 7u);
    EXPECT_FALSE(r.optional_uint("Absent")->has_value());
    EXPECT_TRUE(r.finish().is_ok());
}

TEST(JsonObjectReader, MissingField) {
    const json v = json::object();
    JsonObjectReader r(v, "/d");
    EXPECT_EQ(error_of(r.required_uint("BlockSize")), "/d/BlockSize: missing required member (an unsigned integer)");
    EXPECT_EQ(error_of(r.required_uint_array("Sizes")),
              "/d/Sizes: missing required member (an array of unsigned integers)");
    EXPECT_EQ(error_of(r.required_float_array("Scales")), "/d/Scales: missing required member (an array of numbers)");
    EXPECT_EQ(error_of(r.required_enum("Mode", kModePrefix, kModes)),
              "/d/Mode: missing required member (one of NEAREST_NEIGHBOR, LINEAR)");
    EXPECT_EQ(error_of(r.required_tensor("InputTensor", TensorRole::kInput)),
              "/d/InputTensor: missing required member (a tensor desc)");
    EXPECT_EQ(error_of(r.required_tensor_array("OutputTensors", TensorRole::kOutput)),
              "/d/OutputTensors: missing required member (an array of tensor descs)");
}

TEST(JsonObjectReader, NullCountsAsMissing) {
    const json v = json::parse(R"({"BlockSize": null})");
    JsonObjectReader r(v, "/d");
    EXPECT_FALSE(r.has("BlockSize"));
    EXPECT_NE(error_of(r.required_uint("BlockSize")).find("missing required member"), std::string::npos);
}

TEST(JsonObjectReader, WrongType) {
    const json v = json::parse(R"({"A": "2", "B": -1, "C": 4294967296, "D": 2.5, "E": [1, "x"], "F": 3,
                                    "G": ["a"], "H": {"x": 1}, "I": [true]})");
    JsonObjectReader r(v, "/d");
    EXPECT_EQ(error_of(r.required_uint("A")), "/d/A: expected an unsigned 32-bit integer, found string \"2\"");
    EXPECT_EQ(error_of(r.required_uint("B")), "/d/B: expected an unsigned 32-bit integer, found number -1");
    EXPECT_EQ(error_of(r.required_uint("C")),
              "/d/C: expected an unsigned 32-bit integer (at most 4294967295), found number 4294967296");
    EXPECT_EQ(error_of(r.required_uint("D")), "/d/D: expected an unsigned 32-bit integer, found number 2.5");
    EXPECT_EQ(error_of(r.required_uint_array("E")),
              "/d/E/1: expected an unsigned 32-bit integer, found string \"x\"");
    EXPECT_EQ(error_of(r.required_uint_array("F")), "/d/F: expected an array of unsigned integers, found number 3");
    EXPECT_EQ(error_of(r.required_float_array("G")), "/d/G/0: expected a number, found string \"a\"");
    EXPECT_EQ(error_of(r.required_float_array("H")), "/d/H: expected an array of numbers, found object");
    EXPECT_EQ(error_of(r.required_float_array("I")), "/d/I/0: expected a number, found boolean true");
}

// JSON has no NaN or infinity literals; what reaches a float array must still be a finite float32.
TEST(JsonObjectReader, NaNStyleValuesAreRejected) {
    const json v = json::parse(R"({"Big": [1e39], "Neg": [-3.5e38], "Str": ["NaN"], "Inf": ["inf"]})");
    JsonObjectReader r(v, "/d");
    EXPECT_EQ(error_of(r.required_float_array("Big")), "/d/Big/0: expected a finite 32-bit float, found number 1e+39");
    EXPECT_NE(error_of(r.required_float_array("Neg")).find("/d/Neg/0: expected a finite 32-bit float"),
              std::string::npos);
    EXPECT_EQ(error_of(r.required_float_array("Str")), "/d/Str/0: expected a number, found string \"NaN\"");
    EXPECT_EQ(error_of(r.required_float_array("Inf")), "/d/Inf/0: expected a number, found string \"inf\"");
    // The JSON parser itself refuses bare NaN, so case files cannot smuggle one in.
    json parsed;
    EXPECT_THROW(parsed = json::parse("[NaN]"), json::parse_error);
}

TEST(JsonObjectReader, EnumBySuffixOrFullName) {
    const json v = json::parse(R"({"A": "NEAREST_NEIGHBOR", "B": "DML_INTERPOLATION_MODE_LINEAR",
                                    "C": "linear", "D": 1, "E": "DML_INTERPOLATION_MODE_", "F": "CUBIC"})");
    JsonObjectReader r(v, "/d");
    EXPECT_EQ(*r.required_enum("A", kModePrefix, kModes), 0u);
    EXPECT_EQ(*r.required_enum("B", kModePrefix, kModes), 1u);
    const std::string expected_prefix =
        ": expected one of NEAREST_NEIGHBOR, LINEAR (optionally prefixed with DML_INTERPOLATION_MODE_), found ";
    EXPECT_EQ(error_of(r.required_enum("C", kModePrefix, kModes)), "/d/C" + expected_prefix + "string \"linear\" (did you mean LINEAR?)");
    EXPECT_EQ(error_of(r.required_enum("D", kModePrefix, kModes)), "/d/D" + expected_prefix + "number 1");
    EXPECT_EQ(error_of(r.required_enum("E", kModePrefix, kModes)),
              "/d/E" + expected_prefix + "string \"DML_INTERPOLATION_MODE_\"");
    EXPECT_EQ(error_of(r.required_enum("F", kModePrefix, kModes)), "/d/F" + expected_prefix + "string \"CUBIC\"");
    // Typos and abbreviations get a suggestion, as misspelled members do.
    const json typos = json::parse(R"({"G": "NEAREST_NEIGHBOUR", "H": "DML_INTERPOLATION_MODE_LINAER"})");
    JsonObjectReader t(typos, "/d");
    EXPECT_EQ(error_of(t.required_enum("G", kModePrefix, kModes)),
              "/d/G" + expected_prefix + "string \"NEAREST_NEIGHBOUR\" (did you mean NEAREST_NEIGHBOR?)");
    EXPECT_EQ(error_of(t.required_enum("H", kModePrefix, kModes)),
              "/d/H" + expected_prefix + "string \"DML_INTERPOLATION_MODE_LINAER\" (did you mean LINEAR?)");
}

TEST(JsonObjectReader, FinishRejectsUnknownMembers) {
    const json v = json::parse(R"({"BlockSize": 2, "Blocksize": 3})");
    JsonObjectReader r(v, "/operator/desc");
    ASSERT_TRUE(r.required_uint("BlockSize").is_ok());
    r.accept("Order");
    Status s = r.finish();
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.message(),
              "/operator/desc/Blocksize: unknown member 'Blocksize' (did you mean BlockSize? expected one of BlockSize, Order)");
}

// Issue 30: a misspelled required member is reported as missing before finish() runs; the message names it.
TEST(JsonObjectReader, MissingRequiredMemberNamesItsMisspelling) {
    const json v = json::parse(R"({"BlockSzie": 2, "Order": "DEPTH_COLUMN_ROW"})");
    JsonObjectReader r(v, "/operator/desc");
    EXPECT_EQ(r.required_uint("BlockSize").status().message(),
              "/operator/desc/BlockSize: missing required member (an unsigned integer); found unknown member "
              "'BlockSzie' (did you mean BlockSize?)");
    // Nothing close: the plain message.
    const json far = json::parse(R"({"Axis": 2})");
    JsonObjectReader r2(far, "/d");
    EXPECT_EQ(r2.required_uint("BlockSize").status().message(), "/d/BlockSize: missing required member (an unsigned integer)");
}

TEST(Suggest, DistanceIgnoresCaseAndCountsSwapsOnce) {
    EXPECT_EQ(name_distance("BlockSzie", "BlockSize"), 1u);
    EXPECT_EQ(name_distance("blocksize", "BlockSize"), 0u);
    EXPECT_EQ(name_distance("Stride", "Strides"), 1u);
    EXPECT_EQ(name_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(name_distance("", "abc"), 3u);
}

TEST(Suggest, ClosestNameHasACutoffAndTakesAbbreviations) {
    const std::vector<std::string> kinds = {"hdf5", "values", "random", "sequence", "constant"};
    EXPECT_EQ(closest_name("value", kinds), std::optional<std::string>("values"));
    EXPECT_EQ(closest_name("h5", kinds), std::optional<std::string>("hdf5"));
    EXPECT_EQ(closest_name("seq", kinds), std::optional<std::string>("sequence"));
    EXPECT_EQ(closest_name("shape", kinds), std::nullopt);
    EXPECT_EQ(closest_name("rel", {"ulp", "abs"}), std::nullopt);
    EXPECT_EQ(did_you_mean("sweeps", {"name", "sweep"}), " (did you mean sweep?)");
    EXPECT_EQ(did_you_mean("sweep", {"sweep"}), "");
}

TEST(JsonObjectReader, FinishRejectsNonObject) {
    const json v = json::array();
    JsonObjectReader r(v, "/operator/desc");
    Status s = r.finish();
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.message(), "/operator/desc: expected an object, found array of 0");
}

TEST(JsonObjectReader, OptionalCountMustAgree) {
    const json v = json::parse(R"({"OutputCount": 3, "ScaleCount": 2})");
    JsonObjectReader r(v, "/d");
    Status s = r.check_optional_count("OutputCount", 2, "OutputTensors");
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.message(), "/d/OutputCount: expected 2 (the length of OutputTensors), found 3");
    EXPECT_TRUE(r.check_optional_count("ScaleCount", 2, "Scales").is_ok());
    EXPECT_TRUE(r.check_optional_count("Absent", 5, "Whatever").is_ok());
}

TEST(JsonObjectReader, TensorArray) {
    const json v = json::parse(R"({"Outs": [{"DataType": "INT8", "Sizes": [2]}, {"DataType": "INT8", "Sizes": [0]}],
                                    "Empty": []})");
    JsonObjectReader r(v, "/d");
    EXPECT_EQ(error_of(r.required_tensor_array("Outs", TensorRole::kOutput)),
              "/d/Outs/1/Sizes[0]: expected a size >= 1, found 0");
    EXPECT_EQ(error_of(r.required_tensor_array("Empty", TensorRole::kOutput)),
              "/d/Empty: expected a non-empty array of tensor descs, found array of 0");
}

Result<TensorDesc> parse_desc(const char* text, TensorRole role = TensorRole::kInput) {
    return parse_tensor_desc(json::parse(text), "/t", role);
}

TEST(ParseTensorDesc, DefaultsFollowDxDispatch) {
    auto desc = parse_desc(R"({"DataType": "FLOAT16", "Sizes": [1, 8, 2, 3]})");
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    EXPECT_EQ(desc->data_type, DataType::kFloat16);
    EXPECT_EQ(desc->flags, 0u);
    EXPECT_FALSE(desc->strides.has_value());
    EXPECT_EQ(desc->total_size_in_bytes, 96u);
    EXPECT_EQ(desc->guaranteed_base_offset_alignment, 0u);
}

TEST(ParseTensorDesc, AcceptsEveryMember) {
    auto desc = parse_desc(R"({"Type": "DML_TENSOR_TYPE_BUFFER", "DataType": "DML_TENSOR_DATA_TYPE_INT32",
                               "Flags": "DML_TENSOR_FLAG_OWNED_BY_DML", "DimensionCount": 2, "Sizes": [2, 3],
                               "Strides": [4, 1], "TotalTensorSizeInBytes": 64, "GuaranteedBaseOffsetAlignment": 16})");
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    EXPECT_EQ(desc->data_type, DataType::kInt32);
    EXPECT_EQ(desc->flags, 1u);
    EXPECT_EQ(*desc->strides, (Dims{4, 1}));
    EXPECT_EQ(desc->total_size_in_bytes, 64u);
    EXPECT_EQ(desc->guaranteed_base_offset_alignment, 16u);
    auto numeric_flags = parse_desc(R"({"DataType": "INT32", "Sizes": [2], "Flags": 1})");
    ASSERT_TRUE(numeric_flags.is_ok());
    EXPECT_EQ(numeric_flags->flags, 1u);
}

TEST(ParseTensorDesc, ErrorsNameTheMember) {
    EXPECT_EQ(error_of(parse_desc(R"({"Sizes": [1]})")), "/t/DataType: missing required member");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": 1, "Sizes": [1]})")),
              "/t/DataType: expected a data type name such as \"FLOAT32\", found number 1");
    EXPECT_NE(error_of(parse_desc(R"({"DataType": "FLOAT", "Sizes": [1]})"))
                  .find("/t/DataType: expected one of FLOAT32, FLOAT16"),
              std::string::npos);
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "UNKNOWN", "Sizes": [1]})")).substr(0, 24),
              "/t/DataType: expected on");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32"})")),
              "/t/Sizes: missing required member (an array of unsigned integers)");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2], "Size": [2]})")).substr(0, 58),
              "/t/Size: unknown member 'Size' (did you mean Sizes? expect");
    EXPECT_EQ(error_of(parse_desc(R"({"DataTyp": "FLOAT32", "Sizes": [2]})")),
              "/t/DataType: missing required member; found unknown member 'DataTyp' (did you mean DataType?)");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2, 3], "DimensionCount": 3})")),
              "/t/DimensionCount: expected 2 (the length of Sizes), found 3");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2], "TotalTensorSizeInBytes": -4})")),
              "/t/TotalTensorSizeInBytes: expected an unsigned 64-bit integer, found number -4");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2], "Type": "INVALID"})")),
              "/t/Type: expected one of BUFFER (optionally prefixed with DML_TENSOR_TYPE_), found string \"INVALID\"");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2], "Flags": "OWNED"})")).substr(0, 31),
              "/t/Flags: expected one of NONE,");
    EXPECT_EQ(error_of(parse_desc(R"([1, 2])")),
              "/t: expected a tensor desc object {\"DataType\": ..., \"Sizes\": [...]}, found array of 2");
}

TEST(ParseTensorDesc, ValidationMessagesBecomeJsonPaths) {
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2, 0]})")),
              "/t/Sizes[1]: expected a size >= 1, found 0");
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [1, 1, 2, 3], "TotalTensorSizeInBytes": 20})")),
              "/t/TotalTensorSizeInBytes: expected at least 24 (DMLCalcBufferTensorSize of FLOAT32 {1,1,2,3}), found 20");
    EXPECT_NE(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [2, 3], "Strides": [0, 1]})",
                                  TensorRole::kOutput))
                  .find("/t/Strides[0]: expected a non-zero stride on an output tensor"),
              std::string::npos);
    EXPECT_EQ(error_of(parse_desc(R"({"DataType": "FLOAT32", "Sizes": [4], "GuaranteedBaseOffsetAlignment": 3})")),
              "/t/GuaranteedBaseOffsetAlignment: expected 0 or a power of two >= the element size (4), found 3");
}

}  // namespace
}  // namespace dmltool
