// What an untrusted case file may cost and where it may read: the limits of core/json_document.h, repeated
// members, the directory rule through symbolic links, and the desc rules that keep outputs well defined.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/case_spec.h"
#include "core/json_document.h"
#include "core/tensor_source.h"
#include "temp_dir.h"
#include "tests/testing/op_testing.h"

namespace dmltool {
namespace {

using testing::TempDir;

std::string nested_arrays(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string parse_error(const std::string& text, const CaseLoadLimits& limits = {}) {
    auto document = parse_json_document(text, "x.json", limits);
    EXPECT_FALSE(document.is_ok()) << "expected a refusal";
    return document.is_ok() ? std::string() : document.status().message();
}

TEST(JsonDocument, NestingUpToTheLimitParses) {
    CaseLoadLimits limits;
    limits.max_depth = 5;
    EXPECT_TRUE(parse_json_document(nested_arrays(5), "x.json", limits).is_ok());
    EXPECT_EQ(parse_error(nested_arrays(6), limits),
              "x.json: /0/0/0/0/0: expected JSON nested at most 5 levels deep, found deeper nesting (an array at level 6)");
}

TEST(JsonDocument, DeepNestingIsRefusedWithoutRecursing) {
    // A million levels would overflow any recursive walk; the refusal comes at level 65, in constant stack.
    const std::string message = parse_error(nested_arrays(1000000));
    EXPECT_NE(message.find("/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/...: expected JSON nested at most 64 levels deep"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(JsonDocument, CountsEveryValue) {
    CaseLoadLimits limits;
    limits.max_json_values = 4;  // [1, 2, 3] is four values: the array and its elements
    EXPECT_TRUE(parse_json_document("[1, 2, 3]", "x.json", limits).is_ok());
    // The object, the array, 1, 2: the fifth value, 3, is one too many.
    EXPECT_EQ(parse_error(R"({"a": [1, 2, 3, 4]})", limits),
              "x.json: /a/2: expected at most 4 JSON values in the file (--max-json-values; large data belongs in "
              "HDF5), found more");
}

TEST(JsonDocument, NotesTheFirstRepeatedMember) {
    auto document = parse_json_document(R"({"a": {"x/y": 1, "b": [{"k": 1, "k": 2}], "x/y": 3}})", "x.json", {});
    ASSERT_TRUE(document.is_ok());
    ASSERT_TRUE(document->first_duplicate_member.has_value());
    EXPECT_EQ(*document->first_duplicate_member, "/a/b/0/k");
    auto escaped = parse_json_document(R"({"a": {"x/y": 1, "x/y": 3}})", "x.json", {});
    ASSERT_TRUE(escaped.is_ok());
    EXPECT_EQ(escaped->first_duplicate_member.value_or(""), "/a/x~1y");
    EXPECT_FALSE(parse_json_document(R"({"a": {"k": 1}, "b": {"k": 1}})", "x.json", {})->first_duplicate_member);
}

TEST(JsonDocument, SyntaxErrorsKeepTheirPosition) {
    EXPECT_EQ(parse_error("{\n  \"a\": tru\n}"),
              "x.json: malformed JSON at line 2, column 11: syntax error while parsing value - invalid literal; last "
              "read: '\"a\": tru<U+000A>'");
    EXPECT_EQ(parse_error("[1e400]"), "x.json: malformed JSON: number overflow parsing '1e400'");
}

TEST(ReadTextFile, RefusesFilesAboveTheLimit) {
    TempDir dir;
    const std::string path = dir.write("big.json", std::string(101, ' '));
    CaseLoadLimits limits;
    limits.max_file_bytes = 100;
    auto refused = read_text_file(path, limits);
    ASSERT_FALSE(refused.is_ok());
    EXPECT_EQ(refused.status().message(),
              path + ": expected a case file of at most 100 bytes (--max-case-file-size), found 101 bytes");
    limits.max_file_bytes = 101;
    EXPECT_TRUE(read_text_file(path, limits).is_ok());
}

TEST(ReadTextFile, StopsReadingAnEndlessFile) {
    CaseLoadLimits limits;
    limits.max_file_bytes = 1 << 20;
    auto refused = read_text_file("/dev/zero", limits);
    ASSERT_FALSE(refused.is_ok());
    EXPECT_EQ(refused.status().message(),
              "/dev/zero: expected a case file of at most 1 MiB (--max-case-file-size), found more");
}

constexpr const char* kD2s = R"({"name": "NAME", "operator": {"type": "DEPTH_TO_SPACE1", "desc": {
  "InputTensor": {"DataType": "UINT8", "Sizes": [1, 4, 1, 1]},
  "OutputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 2, 2]}, "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}},
  "inputs": {"InputTensor": SOURCE}})";

std::string d2s_case(const std::string& name, const std::string& source = R"({"constant": 1})") {
    std::string text = kD2s;
    text.replace(text.find("NAME"), 4, name);
    text.replace(text.find("SOURCE"), 6, source);
    return text;
}

TEST(LoadCaseLimits, ARepeatedMemberInvalidatesOnlyItsCase) {
    const OpRegistry registry = make_builtin_registry();
    std::string second = d2s_case("b");
    second.replace(second.find("\"BlockSize\": 2"), 14, "\"BlockSize\": 2, \"BlockSize\": 1");
    const CaseFile file = load_case_text("{\"cases\": [" + d2s_case("a") + ", " + second + "]}", "f.json", registry);
    ASSERT_TRUE(file.status.is_ok()) << file.status.message();
    ASSERT_EQ(file.cases.size(), 2u);
    EXPECT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    EXPECT_EQ(file.cases[1].status.message(),
              "f.json: case 'b': /cases/1/operator/desc/BlockSize: expected each member once per object, found "
              "'BlockSize' again");
}

TEST(LoadCaseLimits, ANonObjectCaseIsInvalidAlone) {
    const OpRegistry registry = make_builtin_registry();
    const CaseFile file = load_case_text("{\"cases\": [" + d2s_case("a") + ", \"b\"]}", "f.json", registry);
    ASSERT_EQ(file.cases.size(), 2u);
    EXPECT_TRUE(file.cases[0].status.is_ok());
    EXPECT_EQ(file.cases[1].status.message(), "f.json: case '#1': /cases/1: expected a case object, found string \"b\"");
}

TEST(LoadCaseLimits, InlineDataIsCheckedWithoutAllocatingTheTensor) {
    // 2^32 - 1 UINT64 elements would be 32 GiB: the count mismatch must be found before any of it exists.
    const OpRegistry registry = make_builtin_registry();
    std::string text = R"({"name": "huge", "operator": {"type": "SPLIT", "desc": {
      "InputTensor": {"DataType": "UINT64", "Sizes": [4294967295]},
      "OutputTensors": [{"DataType": "UINT64", "Sizes": [4294967295]}], "Axis": 0}},
      "inputs": {"InputTensor": {"values": [1, 2]}}})";
    const CaseFile file = load_case_text(text, "f.json", registry);
    ASSERT_EQ(file.cases.size(), 1u);
    EXPECT_EQ(file.cases[0].status.message(),
              "f.json: case 'huge': /inputs/InputTensor/values: expected 4294967295 values (Sizes {4294967295}), found 2");
}

TEST(LoadCaseLimits, SourcePathsCarryTheCaseIndex) {
    const OpRegistry registry = make_builtin_registry();
    const CaseFile file = load_case_text("{\"cases\": [" + d2s_case("a") + "]}", "f.json", registry);
    ASSERT_EQ(file.cases.size(), 1u);
    EXPECT_EQ(file.cases[0].spec.inputs.at("InputTensor").json_path, "/cases/0/inputs/InputTensor");
}

class SymlinkPaths : public ::testing::Test {
protected:
    void SetUp() override {
        std::filesystem::create_directories(dir_.path() / "cases");
        dir_.write("outside.h5", "not read");
        std::filesystem::create_symlink("../outside.h5", dir_.path() / "cases" / "file_link.h5");
        std::filesystem::create_symlink("..", dir_.path() / "cases" / "dir_link");
        dir_.write("cases/inside.h5", "not HDF5");
        std::filesystem::create_symlink("inside.h5", dir_.path() / "cases" / "inside_link.h5");
    }

    std::string error(const std::string& file, bool allow = false) {
        TensorSource source{Hdf5Source{file, "/d"}, "/inputs/X"};
        auto r = materialize_source(source, testing::packed_desc(DataType::kUint8, {1}), dir_.path() / "cases",
                                    SourceOptions{allow});
        EXPECT_FALSE(r.is_ok());
        return r.is_ok() ? std::string() : r.status().message();
    }

    TempDir dir_;
};

TEST_F(SymlinkPaths, ALinkOutOfTheTreeIsRefused) {
    const std::string outside = std::filesystem::weakly_canonical(dir_.path() / "outside.h5").string();
    EXPECT_EQ(error("file_link.h5"), "/inputs/X/hdf5: expected a path inside the case file's directory, found "
                                     "'file_link.h5', which resolves to '" + outside +
                                         "' through a symbolic link (pass --allow-outside-paths to permit it)");
    EXPECT_NE(error("dir_link/outside.h5").find("found 'dir_link/outside.h5', which resolves to '" + outside),
              std::string::npos);
}

TEST_F(SymlinkPaths, TheOptionAndLinksInsideTheTreeReachTheFile) {
    // These get past the path rule to the HDF5 reader, which finds the files are not HDF5.
    EXPECT_NE(error("file_link.h5", true).find("not an HDF5 file"), std::string::npos);
    EXPECT_NE(error("dir_link/outside.h5", true).find("not an HDF5 file"), std::string::npos);
    EXPECT_NE(error("inside_link.h5").find("not an HDF5 file"), std::string::npos);
}

Status validate(TensorDesc desc, TensorRole role) { return validate_tensor_desc(desc, role, false); }

TEST(OutputLayout, StridesThatAliasAreRefused) {
    TensorDesc desc = testing::packed_desc(DataType::kFloat32, {1, 1, 2, 4});
    desc.strides = Dims{8, 8, 1, 1};
    EXPECT_EQ(validate(desc, TensorRole::kOutput).message(),
              ".Strides: expected strides that give every output element its own location, found {8,8,1,1} over Sizes "
              "{1,1,2,4}, where elements [0,0,0,1] and [0,0,1,0] share one");
    EXPECT_TRUE(validate(desc, TensorRole::kInput).is_ok()) << "inputs may read one location twice";
}

TEST(OutputLayout, InterleavedAndPaddedStridesThatDoNotAliasPass) {
    TensorDesc interleaved = testing::packed_desc(DataType::kFloat32, {3, 2});
    interleaved.strides = Dims{2, 3};  // offsets 0,3,2,5,4,7: not nested, but distinct
    EXPECT_TRUE(validate(interleaved, TensorRole::kOutput).is_ok());
    TensorDesc padded = testing::packed_desc(DataType::kFloat32, {2, 3, 4});
    padded.strides = Dims{100, 20, 2};
    EXPECT_TRUE(validate(padded, TensorRole::kOutput).is_ok());
}

TEST(OutputLayout, OwnedByDmlIsForInputs) {
    TensorDesc desc = testing::packed_desc(DataType::kFloat32, {2});
    desc.flags = kOwnedByDmlFlag;
    EXPECT_TRUE(validate(desc, TensorRole::kInput).is_ok());
    EXPECT_EQ(validate(desc, TensorRole::kOutput).message(),
              ".Flags: expected NONE on an output tensor (OWNED_BY_DML is for inputs DirectML copies at "
              "initialization), found OWNED_BY_DML");
}

}  // namespace
}  // namespace dmltool
