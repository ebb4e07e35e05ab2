// Sweeps (core/case_sweep.h): product order, names, object axes, whole-value and spliced substitution, unique
// names, errors with their JSON paths, the expansion bound; and random sources that omit seed or range
// (core/tensor_source.h). Case texts are raw strings: a sweep's axis order is the order written, which
// nlohmann's objects do not keep (json::dump would sort the axes).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/case_spec.h"
#include "core/tensor_source.h"

namespace dmltool {
namespace {

using nlohmann::json;

// A DEPTH_TO_SPACE1 case whose members are filled from `name`, `sweep` and `extra` (members of the case object
// placed after "inputs"); the desc takes BlockSize and Order from `block` and `order`, its output is derived.
std::string d2s_sweep(const std::string& name, const std::string& sweep, const std::string& block = "2",
                      const std::string& order = "DEPTH_COLUMN_ROW", const std::string& extra = "") {
    return R"({"cases": [{"name": ")" + name + R"(", "sweep": )" + sweep + R"(,
      "operator": {"type": "DML_OPERATOR_DEPTH_TO_SPACE1", "desc": {
        "InputTensor": {"DataType": "UINT8", "Sizes": [1, 4, 1, 2]}, "BlockSize": )" + block + R"(,
        "Order": ")" + order + R"("}},
      "inputs": {"InputTensor": {"random": {}}})" + extra + "}]}";
}

class CaseSweepTest : public ::testing::Test {
protected:
    CaseFile load(const std::string& text, CaseLoadLimits limits = {}) {
        CaseFile file = load_case_text(text, "sweeps.json", registry_, limits, true);
        EXPECT_TRUE(file.status.is_ok()) << file.status.message();
        return file;
    }
    std::vector<std::string> names(const CaseFile& file) {
        std::vector<std::string> out;
        for (const LoadedCase& c : file.cases) {
            EXPECT_TRUE(c.status.is_ok()) << c.status.message();
            out.push_back(c.spec.name);
        }
        return out;
    }
    // The message of the only case, which must be invalid.
    std::string error(const std::string& text, CaseLoadLimits limits = {}) {
        CaseFile file = load(text, limits);
        if (file.cases.size() != 1) {
            ADD_FAILURE() << "expected one (invalid) case, found " << file.cases.size();
            return {};
        }
        EXPECT_FALSE(file.cases[0].status.is_ok());
        return file.cases[0].status.message();
    }

    OpRegistry registry_ = make_builtin_registry();
};

TEST_F(CaseSweepTest, ExpandsTheProductInWrittenAxisOrderLastAxisFastest) {
    // "order" is written before "block": alphabetical order would put block first.
    const CaseFile file = load(d2s_sweep("d2s/${order}/b${block}",
                                         R"({"order": ["DEPTH_COLUMN_ROW", "COLUMN_ROW_DEPTH"], "block": [1, 2]})",
                                         R"("${block}")", "${order}"));
    EXPECT_EQ(names(file), (std::vector<std::string>{"d2s/DEPTH_COLUMN_ROW/b1", "d2s/DEPTH_COLUMN_ROW/b2",
                                                     "d2s/COLUMN_ROW_DEPTH/b1", "d2s/COLUMN_ROW_DEPTH/b2"}));
    for (const LoadedCase& c : file.cases) EXPECT_EQ(c.spec.index_in_file, 0u);
}

TEST_F(CaseSweepTest, NameWithoutVariablesGetsAxisEqualsValueParts) {
    const CaseFile file = load(d2s_sweep("d2s/auto", R"({"block": [1, 2], "layer": [{"name": "small", "C": 4}]})",
                                         R"("${block}")"));
    EXPECT_EQ(names(file), (std::vector<std::string>{"d2s/auto/block=1/layer=small", "d2s/auto/block=2/layer=small"}));
}

TEST_F(CaseSweepTest, AutomaticNameNeedsANameMemberInObjectValues) {
    EXPECT_EQ(error(d2s_sweep("d2s/auto", R"({"layer": [{"C": 4}]})")),
              "sweeps.json: case 'd2s/auto': /cases/0/sweep/layer/0: expected a value with a text for the automatic "
              "case name (an object needs a \"name\" member; or use ${...} in the case's name), found object without "
              "\"name\"");
}

TEST_F(CaseSweepTest, WholeStringVariableInsertsTheValueOtherwiseItsTextIsSpliced) {
    const CaseFile file = load(d2s_sweep(
        "d2s/${block}", R"({"block": [2], "shape": [[1, 4, 1, 2]], "scale": [0.5], "big": [2.0], "flag": [true]})",
        R"("${block}")", "DEPTH_COLUMN_ROW",
        R"(, "description": "shape ${shape} scale ${scale} big ${big} ${flag} $${literal}", "comment": "${shape}")"));
    ASSERT_EQ(file.cases.size(), 1u);
    const json& c = file.cases[0].expanded;
    EXPECT_EQ(c["operator"]["desc"]["BlockSize"], json(2));  // a number, not the string "2"
    EXPECT_EQ(c["description"], "shape 1x4x1x2 scale 0.5 big 2 true ${literal}");
    EXPECT_EQ(c["comment"], json::array({1, 4, 1, 2}));  // whole value: the array itself
    EXPECT_FALSE(c.contains("sweep"));
}

TEST_F(CaseSweepTest, ObjectValuesBindSeveralVariablesAtOnce) {
    const CaseFile file = load(d2s_sweep(
        "d2s/${p.order.short}/${p.block}",
        R"({"p": [{"block": 2, "order": {"short": "dcr", "name": "DEPTH_COLUMN_ROW"}},
                  {"block": 1, "order": {"short": "crd", "name": "COLUMN_ROW_DEPTH"}}]})",
        R"("${p.block}")", "${p.order.name}"));
    EXPECT_EQ(names(file), (std::vector<std::string>{"d2s/dcr/2", "d2s/crd/1"}));
    EXPECT_EQ(file.cases[1].expanded["operator"]["desc"]["Order"], "COLUMN_ROW_DEPTH");
}

TEST_F(CaseSweepTest, ExpandedNamesMustBeUnique) {
    EXPECT_EQ(error(d2s_sweep("d2s/x${order}", R"({"block": [1, 2], "order": ["DEPTH_COLUMN_ROW"]})", R"("${block}")")),
              "sweeps.json: case 'd2s/x${order}': /cases/0/name: expected a distinct name for every sweep point, found "
              "\"d2s/xDEPTH_COLUMN_ROW\" for both block=1/order=DEPTH_COLUMN_ROW and block=2/order=DEPTH_COLUMN_ROW");
    // Across cases of the file, as for written cases.
    const std::string one = d2s_sweep("d2s/${block}", R"({"block": [1, 2]})", R"("${block}")");
    const std::string text = one.substr(0, one.size() - 2) + ", " + one.substr(11, one.size() - 13) + "]}";
    const CaseFile file = load(text);
    ASSERT_EQ(file.cases.size(), 4u);
    EXPECT_EQ(file.cases[2].status.message(),
              "sweeps.json: case 'd2s/1': /cases/1/name: expected a name unique within the file, found \"d2s/1\" again");
}

TEST_F(CaseSweepTest, UnknownVariableNamesFileCasePathAndTheKnownOnes) {
    EXPECT_EQ(error(d2s_sweep("d2s/${block}", R"({"block": [1], "order": ["DEPTH_COLUMN_ROW"]})", R"("${blok}")")),
              "sweeps.json: case 'd2s/${block}': /cases/0/operator/desc/BlockSize: expected a sweep variable (block, "
              "order), found ${blok}");
    EXPECT_EQ(error(d2s_sweep("d2s/${block}", R"({"block": [1]})", "1", "x${block")),
              "sweeps.json: case 'd2s/${block}': /cases/0/operator/desc/Order: expected '}' closing the ${ at "
              "character 1, found the end of the string");
}

TEST_F(CaseSweepTest, MissingMemberOfOneObjectValueIsNamed) {
    EXPECT_EQ(error(d2s_sweep("d2s/${p.block}", R"({"p": [{"block": 1}, {"blocks": 2}]})", R"("${p.block}")")),
              "sweeps.json: case 'd2s/${p.block}': /cases/0/name: expected ${p.block} to name a member of every "
              "value of sweep axis 'p', found value 1 (object) without member 'block'");
}

TEST_F(CaseSweepTest, ObjectInsideALongerStringIsRefused) {
    EXPECT_EQ(error(d2s_sweep("d2s/${p}", R"({"p": [{"block": 1}]})")),
              "sweeps.json: case 'd2s/${p}': /cases/0/name: expected ${p} to be a string, number or array inside a "
              "longer string, found object (\"${p}\" alone inserts the whole value; ${p.FIELD} one member)");
}

TEST_F(CaseSweepTest, MalformedSweepsAreRefused) {
    EXPECT_EQ(error(d2s_sweep("d2s/a", "[1, 2]")),
              "sweeps.json: case 'd2s/a': /cases/0/sweep: expected an object {\"AXIS\": [value, ...], ...} with at "
              "least one axis, found array of 2");
    EXPECT_EQ(error(d2s_sweep("d2s/a", "{}")),
              "sweeps.json: case 'd2s/a': /cases/0/sweep: expected an object {\"AXIS\": [value, ...], ...} with at "
              "least one axis, found an empty object");
    EXPECT_EQ(error(d2s_sweep("d2s/a", R"({"block": []})")),
              "sweeps.json: case 'd2s/a': /cases/0/sweep/block: expected a non-empty array of values, found array of 0");
    EXPECT_EQ(error(d2s_sweep("d2s/a", R"({"a.b": [1]})")),
              "sweeps.json: case 'd2s/a': /cases/0/sweep/a.b: expected an axis name of letters, digits and '_' not "
              "starting with a digit ('.' selects a member of an object value), found \"a.b\"");
}

TEST_F(CaseSweepTest, ExpansionIsBoundedBeforeItIsBuilt) {
    // 10^12 points: refused from the axis lengths alone.
    std::string axis = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    std::string sweep = "{";
    for (int i = 0; i < 12; ++i) sweep += std::string(i ? ", " : "") + "\"a" + std::to_string(i) + "\": " + axis;
    sweep += "}";
    const std::string message = error(d2s_sweep("d2s/a", sweep));
    EXPECT_NE(message.find("/cases/0/sweep: expected at most 4194304 more JSON values in the file's expanded sweeps "
                           "(--max-json-values), found 1000000000000 points of at least"),
              std::string::npos)
        << message;
    // The bound is --max-json-values, shared by the file's sweeps.
    CaseLoadLimits limits;
    limits.max_json_values = 100;
    EXPECT_NE(error(d2s_sweep("d2s/a", R"({"block": [1, 2, 3, 4, 5, 6, 7, 8]})"), limits)
                  .find("expected at most 100 more JSON values in the file's expanded sweeps (--max-json-values), found 8 points"),
              std::string::npos);
}

TEST_F(CaseSweepTest, ErrorsOfAPointNameTheExpandedCaseAndThePath) {
    const CaseFile file = load(d2s_sweep("d2s", R"({"block": [2, 3]})", R"("${block}")"));
    ASSERT_EQ(file.cases.size(), 2u);
    EXPECT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    EXPECT_EQ(file.cases[1].status.message(),
              "sweeps.json: case 'd2s/block=3': /cases/0/operator/desc/InputTensor/Sizes: expected a channel count "
              "(Sizes[1]) divisible by BlockSize^2 = 9 (BlockSize 3), found 4");
}

TEST_F(CaseSweepTest, CasesWithoutSweepKeepTheirStrings) {
    const std::string text = R"({"name": "d2s/${x}", "description": "${x}",
      "operator": {"type": "DEPTH_TO_SPACE1", "desc": {"InputTensor": {"DataType": "UINT8", "Sizes": [1, 4, 1, 2]},
        "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}},
      "inputs": {"InputTensor": {"random": {}}}})";
    const CaseFile file = load(text);
    ASSERT_EQ(file.cases.size(), 1u);
    ASSERT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    EXPECT_EQ(file.cases[0].spec.name, "d2s/${x}");
    EXPECT_EQ(file.cases[0].spec.description, "${x}");
}

// --- random sources that omit seed or range ---

TEST(RandomDefaults, SeedIsFnv1aOfCaseNameAndSlot) {
    EXPECT_EQ(derived_random_seed("t", "InputTensor"), 14074539098739364433ull);  // python3: FNV-1a of "t/InputTensor"
    EXPECT_NE(derived_random_seed("t", "InputTensor"), derived_random_seed("t", "FilterTensor"));
    EXPECT_NE(derived_random_seed("t", "InputTensor"), derived_random_seed("u", "InputTensor"));
    // The separator keeps ("ab", "c") and ("a", "bc") apart.
    EXPECT_NE(derived_random_seed("ab", "c"), derived_random_seed("a", "bc"));
}

TEST(RandomDefaults, RangeFollowsTheDataType) {
    const auto range = [](DataType t) {
        const auto [lo, hi] = default_random_range(t);
        return std::pair{lo.as_double(), hi.as_double()};
    };
    EXPECT_EQ(range(DataType::kFloat32), (std::pair{-1.0, 1.0}));
    EXPECT_EQ(range(DataType::kFloat16), (std::pair{-1.0, 1.0}));
    EXPECT_EQ(range(DataType::kFloat64), (std::pair{-1.0, 1.0}));
    EXPECT_EQ(range(DataType::kInt8), (std::pair{-128.0, 127.0}));
    EXPECT_EQ(range(DataType::kUint8), (std::pair{0.0, 255.0}));
    EXPECT_EQ(range(DataType::kInt16), (std::pair{-32768.0, 32767.0}));
    EXPECT_EQ(range(DataType::kUint16), (std::pair{0.0, 65535.0}));
    EXPECT_EQ(range(DataType::kInt32), (std::pair{-32768.0, 32767.0}));
    EXPECT_EQ(range(DataType::kUint32), (std::pair{0.0, 65535.0}));
    EXPECT_EQ(range(DataType::kInt64), (std::pair{-32768.0, 32767.0}));
    EXPECT_EQ(range(DataType::kUint64), (std::pair{0.0, 65535.0}));
}

TEST_F(CaseSweepTest, OmittedRandomMembersAreDerivedPerCaseAndTensor) {
    const std::string text = R"({"cases": [{"name": "q", "operator": {"type": "QUANTIZED_LINEAR_CONVOLUTION", "desc": {
        "InputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 3, 3]},
        "InputScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
        "FilterTensor": {"DataType": "INT8", "Sizes": [1, 1, 1, 1]},
        "FilterScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
        "BiasTensor": {"DataType": "INT32", "Sizes": [1, 1, 1, 1]},
        "OutputScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
        "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0], "GroupCount": 1}},
      "inputs": {"InputTensor": {"random": {}}, "InputScaleTensor": {"constant": 0.5},
        "FilterTensor": {"random": {"seed": 7, "max": 5}}, "FilterScaleTensor": {"constant": 0.5},
        "BiasTensor": {"random": {"min": -3}}, "OutputScaleTensor": {"random": {"min": 0.5}}}}]})";
    const CaseFile file = load(text);
    ASSERT_EQ(file.cases.size(), 1u);
    ASSERT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    const auto& inputs = file.cases[0].spec.inputs;
    const auto random = [&](const std::string& slot) { return std::get<RandomSource>(inputs.at(slot).kind); };
    EXPECT_EQ(random("InputTensor").seed, derived_random_seed("q", "InputTensor"));
    EXPECT_EQ(random("InputTensor").min.as_double(), 0);
    EXPECT_EQ(random("InputTensor").max.as_double(), 255);
    EXPECT_EQ(random("FilterTensor").seed, 7u);
    EXPECT_EQ(random("FilterTensor").min.as_double(), -128);  // each bound defaults on its own
    EXPECT_EQ(random("FilterTensor").max.as_double(), 5);
    EXPECT_EQ(random("BiasTensor").min.as_double(), -3);
    EXPECT_EQ(random("BiasTensor").max.as_double(), 32767);
    EXPECT_EQ(random("OutputScaleTensor").max.as_double(), 1);
    EXPECT_NE(random("BiasTensor").seed, random("InputTensor").seed);
    // `list --json` shows what was derived, so other tools can reproduce the data.
    const json& expanded = file.cases[0].expanded["inputs"]["InputTensor"]["random"];
    EXPECT_EQ(expanded, (json{{"seed", derived_random_seed("q", "InputTensor")}, {"min", 0}, {"max", 255}}));
    // The loaded tensors are the same on every load (deterministic).
    const CaseFile again = load(text);
    EXPECT_EQ(std::get<RandomSource>(again.cases[0].spec.inputs.at("BiasTensor").kind).seed, random("BiasTensor").seed);
}

}  // namespace
}  // namespace dmltool
