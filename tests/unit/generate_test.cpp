// `dmltool generate` (core/case_generator.h, ops/*/generate.cpp): the same seed gives the same cases, and a batch
// of 200 cases per operator covers every data type and rank of the operator's own feature-level table and every
// feature the generator promises (strided, broadcast and padded inputs, strided and derived outputs, special values,
// and each operator's parameters). The checks read the cases' content (descs and sources), not only their tags, so a
// generator that stops producing a feature fails here even if it kept tagging it.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/case_generator.h"
#include "core/case_spec.h"
#include "core/op_registry.h"

namespace dmltool {
namespace {

using nlohmann::json;

constexpr uint64_t kCoverageSeed = 2024;
constexpr uint64_t kCoverageCount = 200;

// What a batch of cases of one operator holds, gathered from its content.
struct Coverage {
    std::map<std::string, std::set<DataType>> types;  // desc field -> data types seen
    std::map<std::string, std::set<uint32_t>> ranks;  // desc field -> ranks seen
    std::set<std::string> features;                   // what the content shows ("broadcast", "nan", ...)
    std::map<std::string, int> cases_with;            // per feature: in how many cases
    std::set<std::string> tags;                       // what the generator says it did
    std::set<std::string> in_this_case;
    void add(const std::string& feature) {
        features.insert(feature);
        if (in_this_case.insert(feature).second) ++cases_with[feature];
    }
};

bool has_gaps_or_permutation(const json& tensor) {
    if (!tensor.contains("Strides")) return false;
    const Dims sizes = tensor["Sizes"].get<Dims>(), strides = tensor["Strides"].get<Dims>();
    const Dims packed = packed_strides(sizes);
    for (size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] > 1 && strides[d] != 0 && strides[d] != packed[d]) return true;
    return false;
}

bool has_broadcast(const json& tensor) {
    if (!tensor.contains("Strides")) return false;
    const Dims sizes = tensor["Sizes"].get<Dims>(), strides = tensor["Strides"].get<Dims>();
    for (size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] > 1 && strides[d] == 0) return true;
    return false;
}

bool padded_total(const json& tensor) {
    if (!tensor.contains("TotalTensorSizeInBytes")) return false;
    const DataType type = *parse_data_type(tensor["DataType"].get<std::string>());
    const std::optional<Dims> strides =
        tensor.contains("Strides") ? std::optional<Dims>(tensor["Strides"].get<Dims>()) : std::nullopt;
    return tensor["TotalTensorSizeInBytes"].get<uint64_t>() > *calc_buffer_tensor_size(type, tensor["Sizes"].get<Dims>(), strides);
}

// Special values in an input's explicit data: NaN, infinities, -0, denormals (floats); the type's ends (integers).
void add_special_values(const json& tensor, const json& source, Coverage& cov) {
    const DataType type = *parse_data_type(tensor["DataType"].get<std::string>());
    std::vector<json> values;
    if (source.contains("values")) values = source["values"].get<std::vector<json>>();
    if (source.contains("constant")) values.push_back(source["constant"]);
    for (const json& v : values) {
        if (v.is_string()) {
            cov.add(v.get<std::string>());  // "nan", "inf", "-inf"
        } else if (is_float(type)) {
            const double d = v.get<double>();
            const double smallest_normal = type == DataType::kFloat16 ? 0x1p-14 : type == DataType::kFloat32 ? 0x1p-126 : 0x1p-1022;
            if (d == 0 && std::signbit(d)) cov.add("-0");
            if (d != 0 && std::fabs(d) < smallest_normal) cov.add("denormal");
            const double largest = type == DataType::kFloat16 ? 65504 : type == DataType::kFloat32 ? 0x1.fffffep127 : 0x1.fffffffffffffp1023;
            if (std::fabs(d) == largest) cov.add("float-max");
        } else if (v.is_number_unsigned() ? v.get<uint64_t>() == integer_max(type)
                                          : v.get<int64_t>() >= 0 && uint64_t(v.get<int64_t>()) == integer_max(type)) {
            cov.add("integer-max");
        } else if (v.is_number_integer() && v.get<int64_t>() == integer_min(type) && integer_min(type) != 0) {
            cov.add("integer-min");
        }
    }
}

class GenerateTest : public ::testing::Test {
protected:
    const Op& op(const std::string& name) { return *registry_.find(name); }

    // The batch, with every derived output filled in (derive_outputs) so that its sizes can be read.
    Coverage cover(const Op& op) {
        Coverage cov;
        for (uint64_t i = 0; i < kCoverageCount; ++i) {
            auto c = generate_case_json(op, kCoverageSeed, i);
            EXPECT_TRUE(c.is_ok()) << c.status().message();
            if (!c.is_ok()) continue;
            cov.in_this_case.clear();
            for (const json& tag : (*c)["tags"]) cov.tags.insert(tag.get<std::string>());
            json desc = (*c)["operator"]["desc"];
            const json& inputs = (*c)["inputs"];
            for (const char* key : {"OutputTensor", "OutputTensors"})
                if (desc.contains(key) && (desc[key].is_array() || !desc[key].contains("Sizes"))) cov.add("derived-output");
            if (!desc.contains("OutputTensor") && !desc.contains("OutputTensors")) cov.add("derived-output");
            EXPECT_TRUE(op.derive_outputs(desc, "/desc").is_ok());
            operator_features(op, *c, desc, cov);
            for (auto& [field, member] : desc.items()) {
                std::vector<json> tensors;
                if (member.is_array() && !member.empty() && member[0].is_object()) tensors = member.get<std::vector<json>>();
                else if (member.is_object()) tensors.push_back(member);
                const bool input = inputs.contains(field);
                for (size_t index = 0; index < tensors.size(); ++index) {
                    const json& t = tensors[index];
                    cov.types[field].insert(*parse_data_type(t["DataType"].get<std::string>()));
                    cov.ranks[field].insert(uint32_t(t["Sizes"].size()));
                    if (has_gaps_or_permutation(t)) cov.add(input ? "strided" : "strided-output");
                    if (has_broadcast(t)) cov.add("broadcast");
                    EXPECT_FALSE(!input && has_broadcast(t)) << (*c)["name"] << ": a broadcast output";
                    if (padded_total(t)) cov.add("padded-total");
                    // An array of tensors (JOIN's InputTensors) has an array of sources.
                    if (input) add_special_values(t, inputs[field].is_array() ? inputs[field][index] : inputs[field], cov);
                }
            }
        }
        return cov;
    }

    // Each operator's parameters, from the desc (derived outputs filled in).
    static void operator_features(const Op& op, const json& c, const json& d, Coverage& cov) {
        const std::string name(op.name());
        if (name == "DEPTH_TO_SPACE1") {
            cov.add("block-" + std::to_string(d["BlockSize"].get<int>()));
            cov.add(d["Order"].get<std::string>());
        } else if (name == "SPLIT") {
            const uint32_t axis = d["Axis"];
            cov.add("axis-" + std::to_string(axis));
            cov.add("parts-" + std::to_string(d["OutputTensors"].size()));
            std::set<uint32_t> parts;
            for (const json& t : d["OutputTensors"]) parts.insert(t["Sizes"][axis].get<uint32_t>());
            if (parts.size() > 1) cov.add("uneven-parts");
            const json& given = c["operator"]["desc"];
            cov.add(given.contains("OutputSizesAlongAxis") ? "by-sizes-along-axis"
                    : given.contains("OutputCount")        ? "by-output-count"
                                                           : "by-output-tensors");
        } else if (name == "RESAMPLE") {
            cov.add(d["InterpolationMode"].get<std::string>());
            bool up = false, down = false, off = false;
            const json& in = d["InputTensor"]["Sizes"];
            for (size_t i = 0; i < d["Scales"].size(); ++i) {
                const double s = d["Scales"][i];
                cov.add(s == 1 ? "scale-one" : s < 1 ? "scale-down" : s == std::floor(s) ? "scale-integer-up" : "scale-fractional-up");
                up = up || s > 1;
                down = down || s < 1;
                off = off || d["OutputTensor"]["Sizes"][i].get<double>() != std::floor(in[i].get<double>() * s);
            }
            if (up && down) cov.add("scale-mixed");
            if (off) cov.add("output-size-off-scale");
        } else if (name == "JOIN") {
            const uint32_t axis = d["Axis"];
            cov.add("axis-" + std::to_string(axis));
            cov.add("inputs-" + std::to_string(d["InputTensors"].size()));
            std::set<uint32_t> parts;
            for (const json& t : d["InputTensors"]) parts.insert(t["Sizes"][axis].get<uint32_t>());
            if (parts.size() > 1) cov.add("uneven-parts");
        } else if (name == "GEMM") {
            cov.add(d["TransA"] == "DML_MATRIX_TRANSFORM_TRANSPOSE" ? "trans-a" : "no-trans-a");
            cov.add(d["TransB"] == "DML_MATRIX_TRANSFORM_TRANSPOSE" ? "trans-b" : "no-trans-b");
            if (!d.contains("CTensor")) {
                cov.add("without-c");
            } else {
                bool broadcast = false;
                if (d["CTensor"].contains("Strides"))
                    for (const json& stride : d["CTensor"]["Strides"]) broadcast |= stride == 0;
                cov.add(broadcast ? "c-broadcast" : "with-c");
            }
            if (d["Alpha"] != 1.0) cov.add("alpha");
            if (d["Beta"] != 1.0) cov.add("beta");
        } else if (name == "QUANTIZED_LINEAR_MATRIX_MULTIPLY") {
            for (const char* member : {"AZeroPointTensor", "BZeroPointTensor", "OutputZeroPointTensor"})
                cov.add(std::string(d.contains(member) ? "with-" : "without-") + member);
            const auto count = [&](const char* member) { return *checked_element_count(d[member]["Sizes"].get<Dims>()); };
            cov.add(count("AScaleTensor") > 1 ? "per-row" : "a-per-tensor");
            cov.add(count("BScaleTensor") > 1 ? "per-column" : "b-per-tensor");
            if (count("OutputScaleTensor") > 1) cov.add("output-per-row");
        } else if (name == "QUANTIZED_LINEAR_CONVOLUTION") {
            const uint32_t groups = d["GroupCount"];
            if (groups > 1) cov.add(d["FilterTensor"]["Sizes"][1] == 1 ? "depthwise" : "groups");
            for (size_t i = 0; i < d["Strides"].size(); ++i) {
                if (d["Strides"][i] > 1) cov.add("conv-strides");
                if (d["Dilations"][i] > 1) cov.add("dilations");
                if (d["StartPadding"][i] != d["EndPadding"][i]) cov.add("asymmetric-pads");
                if (d["StartPadding"][i] > 0 || d["EndPadding"][i] > 0) cov.add("pads");
            }
            for (const char* member : {"InputZeroPointTensor", "FilterZeroPointTensor", "OutputZeroPointTensor", "BiasTensor"})
                cov.add(std::string(d.contains(member) ? "with-" : "without-") + member);
            const json& scale = d["FilterScaleTensor"]["Sizes"];
            const uint64_t scale_count = *checked_element_count(scale.get<Dims>());
            cov.add(scale_count == 1 ? "per-tensor" : scale.size() == 4 ? "per-channel" : "per-channel-non-4d");
            if (d.contains("FilterZeroPointTensor") && d["FilterZeroPointTensor"]["Sizes"] != scale)
                cov.add("filter-quant-shapes-differ");
            for (const char* pair : {"Input", "Output"}) {
                const std::string zero_point = std::string(pair) + "ZeroPointTensor", scale_member = std::string(pair) + "ScaleTensor";
                if (d.contains(zero_point) && d[zero_point]["Sizes"] != d[scale_member]["Sizes"]) cov.add("quant-shapes-differ");
            }
            for (const char* member : {"InputZeroPointTensor", "FilterZeroPointTensor", "OutputZeroPointTensor"}) {
                if (!d.contains(member)) continue;
                const DataType type = *parse_data_type(d[member]["DataType"].get<std::string>());
                const json& src = c["inputs"][member];
                if (src.contains("constant") &&
                    (src["constant"] == json(integer_min(type)) || src["constant"] == json(integer_max(type))))
                    cov.add("zero-point-extreme");
            }
        }
    }

    // Every type and every rank any row of the table allows, per field, appears in the batch.
    static void expect_table_covered(const Op& op, const Coverage& cov) {
        std::set<std::string> fields;
        for (const FeatureLevelRow& row : op.feature_levels())
            for (const TensorSupport& s : row.tensors) fields.insert(std::string(s.field));
        for (const std::string& field : fields) {
            for (DataType t : all_types(op.feature_levels(), field))
                EXPECT_TRUE(cov.types.count(field) && cov.types.at(field).count(t))
                    << op.name() << " " << field << ": no case of type " << data_type_name(t);
            for (uint32_t r : all_ranks(op.feature_levels(), field))
                EXPECT_TRUE(cov.ranks.count(field) && cov.ranks.at(field).count(r))
                    << op.name() << " " << field << ": no case of rank " << r;
        }
    }

    static void expect_features(const Op& op, const Coverage& cov, const std::vector<std::string>& features) {
        for (const std::string& f : features)
            EXPECT_TRUE(cov.features.count(f)) << op.name() << ": no generated case has '" << f << "'";
    }

    OpRegistry registry_ = make_builtin_registry();
};

TEST_F(GenerateTest, SameSeedSameCasesOtherSeedOtherCases) {
    for (const auto& o : registry_.ops()) {
        for (uint64_t i = 0; i < 20; ++i) {
            const auto a = generate_case_json(*o, 5, i), b = generate_case_json(*o, 5, i);
            const auto other = generate_case_json(*o, 6, i);
            ASSERT_TRUE(a.is_ok() && b.is_ok() && other.is_ok());
            EXPECT_EQ(a->dump(), b->dump());
            EXPECT_NE(a->dump(), other->dump());
            EXPECT_EQ((*a)["name"].get<std::string>().rfind("gen/" + lowercase_op_name(*o) + "/s5/" + std::to_string(i) + "/", 0), 0u)
                << (*a)["name"];
        }
    }
}

// Every generated case passes the loader's checks (what `dmltool validate` runs on descs and sources); the CLI test
// (tests/cli/check_generate.sh) runs validate and run on the written files too.
TEST_F(GenerateTest, EveryCaseLoads) {
    for (const auto& o : registry_.ops()) {
        json file = {{"cases", json::array()}};
        for (uint64_t i = 0; i < kCoverageCount; ++i) file["cases"].push_back(*generate_case_json(*o, kCoverageSeed, i));
        const CaseFile loaded = load_case_text(file.dump(), "generated.json", registry_);
        ASSERT_TRUE(loaded.status.is_ok()) << loaded.status.message();
        for (const LoadedCase& c : loaded.cases) EXPECT_TRUE(c.status.is_ok()) << c.status.message();
    }
}

const std::vector<std::string> kLayoutFeatures = {"strided", "broadcast", "padded-total", "strided-output",
                                                  "derived-output"};
const std::vector<std::string> kFloatSpecials = {"nan", "inf", "-inf", "-0", "denormal", "float-max"};
const std::vector<std::string> kIntegerSpecials = {"integer-min", "integer-max"};

TEST_F(GenerateTest, DepthToSpaceCoverage) {
    const Op& d2s = op("DEPTH_TO_SPACE1");
    const Coverage cov = cover(d2s);
    expect_table_covered(d2s, cov);
    expect_features(d2s, cov, kLayoutFeatures);
    expect_features(d2s, cov, kFloatSpecials);
    expect_features(d2s, cov, kIntegerSpecials);
    expect_features(d2s, cov, {"block-1", "block-2", "block-3", "block-4", "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW",
                               "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"});
}

TEST_F(GenerateTest, SplitCoverage) {
    const Op& split = op("SPLIT");
    const Coverage cov = cover(split);
    expect_table_covered(split, cov);
    expect_features(split, cov, kLayoutFeatures);
    expect_features(split, cov, kFloatSpecials);
    expect_features(split, cov, kIntegerSpecials);
    for (int axis = 0; axis < 8; ++axis) expect_features(split, cov, {"axis-" + std::to_string(axis)});
    expect_features(split, cov, {"parts-1", "parts-2", "parts-3", "parts-4", "parts-5", "uneven-parts",
                                 "by-sizes-along-axis", "by-output-count", "by-output-tensors"});
}

TEST_F(GenerateTest, ResampleCoverage) {
    const Op& resample = op("RESAMPLE");
    const Coverage cov = cover(resample);
    expect_table_covered(resample, cov);
    expect_features(resample, cov, kLayoutFeatures);
    expect_features(resample, cov, kFloatSpecials);
    expect_features(resample, cov, kIntegerSpecials);
    expect_features(resample, cov, {"DML_INTERPOLATION_MODE_LINEAR", "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
                                    "scale-one", "scale-down", "scale-integer-up", "scale-fractional-up", "scale-mixed",
                                    "output-size-off-scale"});
}

TEST_F(GenerateTest, QuantizedLinearConvolutionCoverage) {
    const Op& conv = op("QUANTIZED_LINEAR_CONVOLUTION");
    Coverage cov = cover(conv);
    expect_table_covered(conv, cov);
    expect_features(conv, cov, kLayoutFeatures);
    expect_features(conv, cov, kIntegerSpecials);
    expect_features(conv, cov, {"groups", "depthwise", "conv-strides", "dilations", "pads", "asymmetric-pads",
                                "per-tensor", "per-channel", "per-channel-non-4d", "filter-quant-shapes-differ",
                                "quant-shapes-differ",
                                "zero-point-extreme"});
    for (const char* member : {"InputZeroPointTensor", "FilterZeroPointTensor", "OutputZeroPointTensor", "BiasTensor"})
        expect_features(conv, cov, {std::string("with-") + member, std::string("without-") + member});
    // Saturation depends on the data; the generator's tag says it chose an output scale meant to saturate.
    EXPECT_TRUE(cov.tags.count("saturating"));
    // DirectML 1.15.4 rejects a zero point shaped unlike its scale and per-channel filter quantization that is not
    // 4-D: such cases stay a minority, so that most cases test what the DLL accepts.
    const int refused = cov.cases_with["filter-quant-shapes-differ"] + cov.cases_with["per-channel-non-4d"] +
                        cov.cases_with["quant-shapes-differ"];
    EXPECT_LT(refused, int(kCoverageCount) * 3 / 10) << "cases DirectML 1.15.4 rejects";
}

TEST_F(GenerateTest, JoinCoverage) {
    const Op& join = op("JOIN");
    const Coverage cov = cover(join);
    expect_table_covered(join, cov);
    expect_features(join, cov, {"strided", "broadcast", "padded-total"});
    expect_features(join, cov, kFloatSpecials);
    expect_features(join, cov, kIntegerSpecials);
    for (int axis = 0; axis < 8; ++axis) expect_features(join, cov, {"axis-" + std::to_string(axis)});
    expect_features(join, cov, {"inputs-1", "inputs-2", "inputs-3", "inputs-4", "inputs-5", "uneven-parts"});
}

TEST_F(GenerateTest, GemmCoverage) {
    const Op& gemm = op("GEMM");
    const Coverage cov = cover(gemm);
    expect_table_covered(gemm, cov);
    expect_features(gemm, cov, {"strided", "padded-total"});
    expect_features(gemm, cov, {"trans-a", "no-trans-a", "trans-b", "no-trans-b", "with-c", "without-c", "c-broadcast",
                                "alpha", "beta"});
}

TEST_F(GenerateTest, QuantizedLinearMatrixMultiplyCoverage) {
    const Op& qlmm = op("QUANTIZED_LINEAR_MATRIX_MULTIPLY");
    const Coverage cov = cover(qlmm);
    expect_table_covered(qlmm, cov);
    expect_features(qlmm, cov, {"strided", "padded-total"});
    expect_features(qlmm, cov, {"per-row", "a-per-tensor", "per-column", "b-per-tensor", "output-per-row",
                                "with-AZeroPointTensor", "without-AZeroPointTensor", "with-BZeroPointTensor",
                                "without-BZeroPointTensor", "with-OutputZeroPointTensor",
                                "without-OutputZeroPointTensor"});
}

}  // namespace
}  // namespace dmltool

namespace dmltool {
namespace {

TEST_F(GenerateTest, PoolingCoverage) {
    // Layouts are read from the cases' content; the geometry from the generator's tags.
    const auto expect_tags = [](const Op& op, const Coverage& cov, const std::vector<std::string>& tags) {
        for (const std::string& t : tags) EXPECT_TRUE(cov.tags.count(t)) << op.name() << ": no generated case tagged '" << t << "'";
    };
    for (const char* name : {"MAX_POOLING2", "AVERAGE_POOLING", "AVERAGE_POOLING1", "QUANTIZED_LINEAR_AVERAGE_POOLING"}) {
        const Op& pool = op(name);
        const Coverage cov = cover(pool);
        const std::string_view n = name;
        expect_table_covered(pool, cov);
        expect_features(pool, cov, {"strided", "broadcast"});
        expect_tags(pool, cov, {"padding", "global"});
        if (n != "AVERAGE_POOLING") expect_tags(pool, cov, {"dilation"});
        if (n == "MAX_POOLING2") expect_tags(pool, cov, {"indices"});
        else expect_tags(pool, cov, {"include-padding"});
        if (n == "QUANTIZED_LINEAR_AVERAGE_POOLING") expect_tags(pool, cov, {"per-channel"});
    }
}

}  // namespace
}  // namespace dmltool
