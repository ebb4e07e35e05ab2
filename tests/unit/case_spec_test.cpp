#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/case_spec.h"
#include "sample_cases.h"
#include "temp_dir.h"

namespace dmltool {
namespace {

using nlohmann::json;
using testing::TempDir;

// A copy of `c` under another name, for files with several cases.
json with_name(json c, const std::string& name) {
    c["name"] = name;
    return c;
}

class CaseSpecTest : public ::testing::Test {
protected:
    CaseFile load_text(const std::string& text, const std::string& file = "case.json") {
        return load_case_file(dir_.write(file, text), registry_);
    }
    CaseFile load(const json& root) { return load_text(root.dump(2)); }

    // The status message of the only case of `root`, which must be invalid.
    std::string case_error(const json& root) {
        CaseFile f = load(root);
        EXPECT_TRUE(f.status.is_ok()) << f.status.message();
        if (f.cases.size() != 1) {
            ADD_FAILURE() << "expected one case, found " << f.cases.size();
            return {};
        }
        EXPECT_FALSE(f.cases[0].status.is_ok()) << "case was accepted";
        return f.cases[0].status.message();
    }
    std::string prefix() const { return (dir_.path() / "case.json").string() + ": case '"; }

    TempDir dir_;
    OpRegistry registry_ = make_builtin_registry();
};

// A valid DEPTH_TO_SPACE1 case (UINT32, BlockSize 2: FL 2_1); each test breaks one member of a copy.
json base_case() {
    json c = testing::d2s_case("d2s/ok");
    c["featureLevel"] = "2_1";
    c["tags"] = json::array({"unit"});
    return c;
}

TEST_F(CaseSpecTest, LoadsSingleCase) {
    CaseFile f = load(base_case());
    ASSERT_TRUE(f.status.is_ok()) << f.status.message();
    ASSERT_EQ(f.cases.size(), 1u);
    const LoadedCase& c = f.cases[0];
    ASSERT_TRUE(c.status.is_ok()) << c.status.message();
    EXPECT_EQ(c.spec.name, "d2s/ok");
    EXPECT_EQ(c.spec.op->name(), "DEPTH_TO_SPACE1");
    EXPECT_EQ(c.spec.operator_type, "DML_OPERATOR_DEPTH_TO_SPACE1");
    EXPECT_EQ(c.spec.min_feature_level, fl(2, 1));
    EXPECT_EQ(c.spec.claimed_feature_level, fl(2, 1));
    EXPECT_EQ(c.spec.base_dir, dir_.path());
    EXPECT_EQ(c.spec.tags, (std::vector<std::string>{"unit"}));
    ASSERT_EQ(c.spec.inputs.count("InputTensor"), 1u);
    const auto* values = std::get_if<ValuesSource>(&c.spec.inputs.at("InputTensor").kind);
    ASSERT_NE(values, nullptr);
    ASSERT_EQ(values->values.size(), 8u);
    EXPECT_EQ(values->values[7].kind, ScalarValue::Kind::kUnsigned);
    EXPECT_EQ(values->values[7].u, 17u);
    EXPECT_EQ(c.spec.inputs.at("InputTensor").json_path, "/inputs/InputTensor");
    EXPECT_EQ(c.spec.expected.count("OutputTensor"), 1u);
}

TEST_F(CaseSpecTest, SuffixOperatorNameAndNoFeatureLevelClaim) {
    json c = base_case();
    c["operator"]["type"] = "DEPTH_TO_SPACE1";
    c.erase("featureLevel");
    CaseFile f = load(c);
    ASSERT_TRUE(f.cases.at(0).status.is_ok()) << f.cases[0].status.message();
    EXPECT_FALSE(f.cases[0].spec.claimed_feature_level.has_value());
    EXPECT_EQ(f.cases[0].spec.min_feature_level, fl(2, 1));
}

TEST_F(CaseSpecTest, LoadsCasesArrayAndKeepsBadCasesSeparate) {
    json bad = with_name(base_case(), "bad");
    bad["operator"]["desc"]["BlockSize"] = 3;
    json root = {{"cases", {with_name(base_case(), "a"), bad, with_name(base_case(), "c")}}};
    CaseFile f = load(root);
    ASSERT_TRUE(f.status.is_ok()) << f.status.message();
    ASSERT_EQ(f.cases.size(), 3u);
    EXPECT_TRUE(f.cases[0].status.is_ok());
    EXPECT_FALSE(f.cases[1].status.is_ok());
    EXPECT_TRUE(f.cases[2].status.is_ok());
    EXPECT_EQ(f.cases[2].spec.index_in_file, 2u);
    // The JSON pointer of an error inside a cases array includes the index.
    EXPECT_NE(f.cases[1].status.message().find(prefix() + "bad': /cases/1/operator/desc/"), std::string::npos)
        << f.cases[1].status.message();
}

TEST_F(CaseSpecTest, RejectsDuplicateNames) {
    json root = {{"cases", {with_name(base_case(), "same"), with_name(base_case(), "same")}}};
    CaseFile f = load(root);
    ASSERT_EQ(f.cases.size(), 2u);
    EXPECT_TRUE(f.cases[0].status.is_ok());
    ASSERT_FALSE(f.cases[1].status.is_ok());
    EXPECT_EQ(f.cases[1].status.message(),
              prefix() + "same': /cases/1/name: expected a name unique within the file, found \"same\" again");
}

TEST_F(CaseSpecTest, MalformedJsonGivesLineAndColumn) {
    CaseFile f = load_text("{\n  \"name\": \"x\",\n  \"operator\": ]\n}\n");
    ASSERT_FALSE(f.status.is_ok());
    EXPECT_EQ(f.status.code(), ErrorCode::kInvalidInput);
    EXPECT_NE(f.status.message().find(": malformed JSON at line 3, column 15: syntax error"), std::string::npos)
        << f.status.message();
    EXPECT_TRUE(f.cases.empty());
}

TEST_F(CaseSpecTest, TruncatedJson) {
    CaseFile f = load_text("{\"name\": \"x\", \"operator\": {");
    ASSERT_FALSE(f.status.is_ok());
    EXPECT_NE(f.status.message().find("malformed JSON at line 1, column 28"), std::string::npos)
        << f.status.message();
}

// Regression: nlohmann reports an overflowing number as out_of_range, not parse_error; it used to escape
// load_case_file as an exception (an "internal error", exit 3) instead of making the file invalid.
TEST_F(CaseSpecTest, OverflowingNumberIsMalformedNotACrash) {
    CaseFile f = load_text(R"({"name": "x", "inputs": {"InputTensor": {"constant": 1e400}}})");
    ASSERT_FALSE(f.status.is_ok());
    EXPECT_EQ(f.status.code(), ErrorCode::kInvalidInput);
    EXPECT_NE(f.status.message().find("case.json: malformed JSON: number overflow parsing '1e400'"), std::string::npos)
        << f.status.message();
}

TEST_F(CaseSpecTest, WrongTopLevel) {
    CaseFile array = load_text("[]");
    EXPECT_NE(array.status.message().find("case.json: expected a case object or {\"cases\": [...]}, found array of 0"),
              std::string::npos)
        << array.status.message();
    CaseFile cases_object = load_text(R"({"cases": {}})");
    EXPECT_NE(cases_object.status.message().find("/cases: expected an array of case objects, found object"),
              std::string::npos);
    CaseFile empty = load_text(R"({"cases": []})");
    EXPECT_NE(empty.status.message().find("/cases: expected at least one case, found an empty array"),
              std::string::npos);
    CaseFile extra = load_text(R"({"cases": [], "version": 2})");
    EXPECT_NE(extra.status.message().find("/version: unknown member next to \"cases\""), std::string::npos);
}

TEST_F(CaseSpecTest, MissingAndDirectoryFiles) {
    CaseFile missing = load_case_file((dir_.path() / "nope.json").string(), registry_);
    EXPECT_EQ(missing.status.code(), ErrorCode::kIo);
    EXPECT_NE(missing.status.message().find("nope.json: cannot open case file (no such file)"), std::string::npos);
    CaseFile directory = load_case_file(dir_.path().string(), registry_);
    EXPECT_EQ(directory.status.code(), ErrorCode::kIo);
    EXPECT_NE(directory.status.message().find("expected a case file (JSON), found a directory"), std::string::npos);
}

TEST_F(CaseSpecTest, NameErrors) {
    json no_name = base_case();
    no_name.erase("name");
    EXPECT_EQ(case_error(no_name), prefix() + "#0': /name: missing required member");
    json numeric = base_case();
    numeric["name"] = 5;
    EXPECT_EQ(case_error(numeric), prefix() + "#0': /name: expected a non-empty string, found number 5");
}

TEST_F(CaseSpecTest, UnknownOperatorSuggestsClosest) {
    json c = base_case();
    c["operator"]["type"] = "DML_OPERATOR_DEPTH_TO_SPACE";
    const std::string message = case_error(c);
    EXPECT_NE(message.find(prefix() + "d2s/ok': /operator/type: unknown operator 'DML_OPERATOR_DEPTH_TO_SPACE' "
                                      "(did you mean 'DML_OPERATOR_DEPTH_TO_SPACE1'?); known operators: "),
              std::string::npos)
        << message;
    json far = base_case();
    far["operator"]["type"] = "CONVOLUTION";
    EXPECT_EQ(case_error(far).find("did you mean"), std::string::npos);
}

TEST_F(CaseSpecTest, UnknownMembersAreRejected) {
    json top = base_case();
    top["inptus"] = json::object();
    EXPECT_NE(case_error(top).find("/inptus: unknown member 'inptus' (did you mean inputs? expected one of name, description"),
              std::string::npos);
    EXPECT_NE(case_error(top).find(", sweep, comment)"), std::string::npos);
    json op = base_case();
    op["operator"]["Desc"] = json::object();
    EXPECT_NE(case_error(op).find("/operator/Desc: unknown member 'Desc' (did you mean desc? expected one of type, desc)"),
              std::string::npos);
    json desc = base_case();
    desc["operator"]["desc"]["Blocksize"] = 2;
    EXPECT_NE(case_error(desc).find("/operator/desc/Blocksize: unknown member"), std::string::npos);
}

TEST_F(CaseSpecTest, WrongMemberTypes) {
    json desc_type = base_case();
    desc_type["operator"]["desc"] = json::array();
    EXPECT_NE(case_error(desc_type).find("/operator/desc: expected an object, found array of 0"), std::string::npos);
    json tags = base_case();
    tags["tags"] = {"a", 1};
    EXPECT_NE(case_error(tags).find("/tags/1: expected a string, found number 1"), std::string::npos);
    json level = base_case();
    level["featureLevel"] = 5.1;
    EXPECT_NE(case_error(level).find("/featureLevel: expected a DirectML feature level (1_0, "), std::string::npos);
    json type = base_case();
    type["operator"]["type"] = 113;
    EXPECT_NE(case_error(type).find("/operator/type: expected an operator name"), std::string::npos);
}

TEST_F(CaseSpecTest, MissingInputs) {
    json none = base_case();
    none.erase("inputs");
    EXPECT_EQ(case_error(none), prefix() + "d2s/ok': /inputs: missing required member (one source per input tensor)");
    json empty = base_case();
    empty["inputs"] = json::object();
    EXPECT_EQ(case_error(empty), prefix() + "d2s/ok': /inputs/InputTensor: missing source for the desc's InputTensor");
    json wrong_slot = base_case();
    wrong_slot["inputs"]["OutputTensor"] = {{"constant", 1}};
    EXPECT_NE(case_error(wrong_slot)
                  .find("/inputs/OutputTensor: not an input tensor of this operator (expected one of InputTensor)"),
              std::string::npos);
}

TEST_F(CaseSpecTest, SourceErrors) {
    json empty_source = base_case();
    empty_source["inputs"]["InputTensor"] = json::object();
    EXPECT_NE(case_error(empty_source)
                  .find("/inputs/InputTensor: expected one of the members hdf5, values, random, sequence, constant, "
                        "found an empty object"),
              std::string::npos);
    json bad_special = base_case();
    bad_special["inputs"]["InputTensor"] = {{"values", {1, "NAN!"}}};
    EXPECT_NE(case_error(bad_special)
                  .find("/inputs/InputTensor/values[1]: expected a number (or \"nan\", \"inf\", \"-inf\"), found "
                        "string \"NAN!\""),
              std::string::npos);
    json no_dataset = base_case();
    no_dataset["inputs"]["InputTensor"] = {{"hdf5", "x.h5"}};
    EXPECT_NE(case_error(no_dataset).find("/inputs/InputTensor/dataset: missing required member"), std::string::npos);
    json seed = base_case();
    seed["inputs"]["InputTensor"] = {{"random", {{"seed", -1}, {"min", 0}, {"max", 1}}}};
    EXPECT_NE(case_error(seed).find("/inputs/InputTensor/random/seed: expected an unsigned integer seed, found number -1"),
              std::string::npos);
    json typo = base_case();
    typo["inputs"]["InputTensor"] = {{"sequence", {{"start", 0}, {"step", 1}, {"stpe", 2}}}};
    EXPECT_NE(case_error(typo).find("/inputs/InputTensor/sequence/stpe: unknown member"), std::string::npos);
    json two_kinds = base_case();
    two_kinds["inputs"]["InputTensor"] = {{"constant", 1}, {"values", {1}}};
    EXPECT_NE(case_error(two_kinds).find("/inputs/InputTensor: expected exactly one of the members hdf5, values, random, "
                                         "sequence, constant, found both values and constant"),
              std::string::npos)
        << case_error(two_kinds);
}

TEST_F(CaseSpecTest, ToleranceNeedsReason) {
    json c = base_case();
    c["tolerance"] = {{"OutputTensor", {{"abs", 1}}}};
    EXPECT_EQ(case_error(c),
              prefix() + "d2s/ok': /tolerance/reason: missing: a tolerance override must say why it is right");
    c["tolerance"]["reason"] = "integers may round either way";
    CaseFile f = load(c);
    ASSERT_TRUE(f.cases.at(0).status.is_ok()) << f.cases[0].status.message();
    EXPECT_EQ(f.cases[0].spec.tolerance.at("OutputTensor").abs, 1.0);
    EXPECT_FALSE(f.cases[0].spec.tolerance.at("OutputTensor").ulp.has_value());
    EXPECT_EQ(f.cases[0].spec.tolerance_reason, "integers may round either way");
}

TEST_F(CaseSpecTest, ToleranceMemberErrors) {
    json neg = base_case();
    neg["tolerance"] = {{"OutputTensor", {{"abs", -1}}}, {"reason", "r"}};
    EXPECT_NE(case_error(neg).find("/tolerance/OutputTensor/abs: expected a finite number >= 0, found number -1"),
              std::string::npos);
    json ulp = base_case();
    ulp["tolerance"] = {{"OutputTensor", {{"ulp", 1.5}}}, {"reason", "r"}};
    EXPECT_NE(case_error(ulp).find("/tolerance/OutputTensor/ulp: expected an unsigned integer, found number 1.5"),
              std::string::npos);
    json neither = base_case();
    neither["tolerance"] = {{"OutputTensor", json::object()}, {"reason", "r"}};
    EXPECT_NE(case_error(neither).find("/tolerance/OutputTensor: expected at least one of ulp, abs, found neither"),
              std::string::npos);
    json not_output = base_case();
    not_output["tolerance"] = {{"InputTensor", {{"abs", 1}}}, {"reason", "r"}};
    EXPECT_NE(case_error(not_output).find("/tolerance/InputTensor: not an output tensor of this operator"),
              std::string::npos);
}

TEST_F(CaseSpecTest, FeatureLevelClaimBelowDerivedMinimum) {
    json c = base_case();
    auto& desc = c["operator"]["desc"];
    desc["InputTensor"]["DataType"] = "FLOAT64";  // 64-bit types need DEPTH_TO_SPACE1 at FL 5_0
    desc["OutputTensor"]["DataType"] = "FLOAT64";
    c["featureLevel"] = "DML_FEATURE_LEVEL_4_1";
    EXPECT_EQ(case_error(c), prefix() + "d2s/ok': /featureLevel: expected at least 5_0 (the minimum the "
                                        "DEPTH_TO_SPACE1 tables allow for these tensors), found 4_1");
    c["featureLevel"] = "5_0";
    CaseFile f = load(c);
    ASSERT_TRUE(f.cases.at(0).status.is_ok()) << f.cases[0].status.message();
    EXPECT_EQ(f.cases[0].spec.min_feature_level, fl(5, 0));
}

// A QUANTIZED_LINEAR_CONVOLUTION case without zero points or bias (all optional).
json qlconv_case() {
    return json::parse(R"({
      "name": "qlc",
      "operator": {
        "type": "QUANTIZED_LINEAR_CONVOLUTION",
        "desc": {
          "InputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 3, 3]},
          "InputScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
          "FilterTensor": {"DataType": "UINT8", "Sizes": [1, 1, 2, 2]},
          "FilterScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
          "OutputScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
          "OutputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 2, 2]},
          "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0], "GroupCount": 1
        }
      },
      "inputs": {
        "InputTensor": {"sequence": {"start": 0, "step": 1}},
        "InputScaleTensor": {"constant": 1},
        "FilterTensor": {"constant": 1},
        "FilterScaleTensor": {"constant": 1},
        "OutputScaleTensor": {"constant": 1}
      }
    })");
}

TEST_F(CaseSpecTest, SourceForAbsentOptionalTensorIsRejected) {
    CaseFile ok = load(qlconv_case());
    ASSERT_TRUE(ok.cases.at(0).status.is_ok()) << ok.cases[0].status.message();
    json c = qlconv_case();
    c["inputs"]["InputZeroPointTensor"] = {{"constant", 0}};
    EXPECT_EQ(case_error(c), prefix() + "qlc': /inputs/InputZeroPointTensor: the desc omits the optional "
                                        "InputZeroPointTensor, so it takes no source");
}

// SPLIT takes an array of sources for its OutputTensors, one per element.
json split_case() {
    return json::parse(R"({
      "name": "split",
      "operator": {
        "type": "SPLIT",
        "desc": {
          "InputTensor": {"DataType": "FLOAT32", "Sizes": [4]},
          "OutputTensors": [{"DataType": "FLOAT32", "Sizes": [1]}, {"DataType": "FLOAT32", "Sizes": [3]}],
          "Axis": 0
        }
      },
      "inputs": {"InputTensor": {"values": [1, 2, 3, 4]}},
      "expected": {"OutputTensors": [{"values": [1]}, {"values": [2, 3, 4]}]}
    })");
}

TEST_F(CaseSpecTest, SplitOutputSourcesAreAnArray) {
    CaseFile f = load(split_case());
    ASSERT_TRUE(f.cases.at(0).status.is_ok()) << f.cases[0].status.message();
    EXPECT_EQ(f.cases[0].spec.expected.count("OutputTensors[0]"), 1u);
    EXPECT_EQ(f.cases[0].spec.expected.at("OutputTensors[1]").json_path, "/expected/OutputTensors/1");
    json short_list = split_case();
    short_list["expected"]["OutputTensors"] = {{{"values", {1}}}};
    EXPECT_EQ(case_error(short_list), prefix() + "split': /expected/OutputTensors: expected an array of 2 sources "
                                                 "(one per OutputTensors element), found array of 1");
}

TEST_F(CaseSpecTest, CaseContextFallsBackToIndex) {
    CaseSpec spec;
    spec.file = "f.json";
    spec.index_in_file = 3;
    EXPECT_EQ(case_context(spec), "f.json: case '#3'");
    spec.name = "n";
    EXPECT_EQ(case_context(spec), "f.json: case 'n'");
}

}  // namespace
}  // namespace dmltool
