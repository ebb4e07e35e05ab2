// `dmltool import` on small models built here with ONNX's own protobuf classes: mapping, deduplication, layout-only
// and unsupported counts, the written case file (loaded by the same loader as `dmltool validate`), and the one-line
// errors for models that are not ONNX, truncated, of an unknown opset, with missing external data or with a batch
// dimension left symbolic.
#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include <nlohmann/json.hpp>

#include "core/case_spec.h"
#include "core/hdf5_io.h"
#include "model_import/importer.h"

namespace dmltool::model_import {
namespace {

namespace fs = std::filesystem;

class ScratchDir {
public:
    ScratchDir() {
        std::random_device rd;
        path_ = fs::temp_directory_path() / ("dmltool_import_test_" + std::to_string(rd()));
        fs::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// A small QOperator graph: quantize -> two identical QLinearConv layers (other weights) -> Reshape -> an operator
// dmltool does not map -> Resize (nearest, asymmetric, floor, 2x) -> Split.
class ModelBuilder {
public:
    ModelBuilder() {
        model_.set_ir_version(8);
        auto* opset = model_.add_opset_import();
        opset->set_domain("");
        opset->set_version(13);
        graph()->set_name("tiny_net");
    }
    onnx::GraphProto* graph() { return model_.mutable_graph(); }
    onnx::ModelProto& model() { return model_; }

    void input(const std::string& name, int32_t type, const std::vector<std::string>& dims) {
        auto* v = graph()->add_input();
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        for (const auto& d : dims) {
            auto* dim = t->mutable_shape()->add_dim();
            if (!d.empty() && std::isdigit(static_cast<unsigned char>(d[0])))
                dim->set_dim_value(std::stoll(d));
            else
                dim->set_dim_param(d);
        }
    }
    void output(const std::string& name, int32_t type, const std::vector<std::string>& dims) {
        auto* v = graph()->add_output();
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        for (const auto& d : dims) {
            auto* dim = t->mutable_shape()->add_dim();
            if (std::isdigit(static_cast<unsigned char>(d[0])))
                dim->set_dim_value(std::stoll(d));
            else
                dim->set_dim_param(d);
        }
    }
    template <typename T>
    void initializer(const std::string& name, int32_t type, const std::vector<int64_t>& dims, const std::vector<T>& values) {
        auto* t = graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        for (int64_t d : dims) t->add_dims(d);
        t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
    }
    onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name) {
        auto* n = graph()->add_node();
        n->set_op_type(op);
        n->set_name(name);
        for (const auto& i : inputs) n->add_input(i);
        for (const auto& o : outputs) n->add_output(o);
        return n;
    }
    static void ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& values) {
        auto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values) a->add_ints(v);
    }
    static void text(onnx::NodeProto* n, const std::string& name, const std::string& value) {
        auto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(value);
    }
    fs::path save(const fs::path& file) {
        std::ofstream out(file, std::ios::binary);
        model_.SerializeToOstream(&out);
        return file;
    }

private:
    onnx::ModelProto model_;
};

ModelBuilder tiny_network() {
    ModelBuilder b;
    b.input("image", onnx::TensorProto::UINT8, {"N", "4", "6", "6"});
    b.initializer<float>("x_scale", onnx::TensorProto::FLOAT, {}, {0.02f});
    b.initializer<uint8_t>("x_zp", onnx::TensorProto::UINT8, {}, {3});
    b.initializer<float>("y_scale", onnx::TensorProto::FLOAT, {}, {0.05f});
    b.initializer<uint8_t>("y_zp", onnx::TensorProto::UINT8, {}, {7});
    for (int layer = 0; layer < 2; ++layer) {
        const std::string w = "w" + std::to_string(layer);
        std::vector<int8_t> weights(4 * 4 * 3 * 3);
        for (size_t i = 0; i < weights.size(); ++i) weights[i] = int8_t(int(i * 7 + layer * 13) % 255 - 127);
        b.initializer<int8_t>(w, onnx::TensorProto::INT8, {4, 4, 3, 3}, weights);
        b.initializer<float>(w + "_scale", onnx::TensorProto::FLOAT, {4}, {0.01f, 0.02f, 0.03f, 0.04f});
        b.initializer<int8_t>(w + "_zp", onnx::TensorProto::INT8, {4}, {0, 0, 0, 0});
        b.initializer<int32_t>(w + "_bias", onnx::TensorProto::INT32, {4}, {10, -20, 30, -40});
        const std::string in = layer == 0 ? "image" : "conv0";
        auto* conv = b.node("QLinearConv",
                            {in, "x_scale", "x_zp", w, w + "_scale", w + "_zp", "y_scale", "y_zp", w + "_bias"},
                            {"conv" + std::to_string(layer)}, "conv" + std::to_string(layer));
        ModelBuilder::ints(conv, "pads", {1, 1, 1, 1});
        ModelBuilder::ints(conv, "kernel_shape", {3, 3});
    }
    b.initializer<int64_t>("flat_shape", onnx::TensorProto::INT64, {4}, {0, 4, 6, 6});
    b.node("Reshape", {"conv1", "flat_shape"}, {"reshaped"}, "reshape");
    b.node("Cast", {"reshaped"}, {"cast"}, "cast")->add_attribute()->CopyFrom([] {
        onnx::AttributeProto a;
        a.set_name("to");
        a.set_type(onnx::AttributeProto::INT);
        a.set_i(onnx::TensorProto::UINT8);
        return a;
    }());
    b.initializer<float>("scales", onnx::TensorProto::FLOAT, {4}, {1, 1, 2, 2});
    auto* resize = b.node("Resize", {"cast", "", "scales"}, {"up"}, "upsample");
    ModelBuilder::text(resize, "mode", "nearest");
    ModelBuilder::text(resize, "coordinate_transformation_mode", "asymmetric");
    ModelBuilder::text(resize, "nearest_mode", "floor");
    b.initializer<int64_t>("split_sizes", onnx::TensorProto::INT64, {2}, {1, 3});
    auto* split = b.node("Split", {"up", "split_sizes"}, {"part0", "part1"}, "split");
    auto* axis = split->add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(1);
    b.output("part0", onnx::TensorProto::UINT8, {"N", "1", "12", "12"});
    b.output("part1", onnx::TensorProto::UINT8, {"N", "3", "12", "12"});
    return b;
}

TEST(ModelImport, MapsDeduplicatesAndCountsEveryNode) {
    ScratchDir dir;
    const fs::path model = tiny_network().save(dir.path() / "tiny.onnx");
    const OpRegistry registry = make_builtin_registry();
    auto summary = import_model({model, dir.path() / "out", 2, "", true}, registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    EXPECT_EQ(summary->nodes, 6u);
    EXPECT_EQ(summary->layout_only, 1u);                   // Reshape
    EXPECT_EQ(summary->unsupported_count(), 1u);           // Cast
    EXPECT_EQ(summary->unsupported.count("Cast"), 1u);
    EXPECT_EQ(summary->mapped_nodes, 4u);                  // 2 convolutions, Resize, Split
    EXPECT_EQ(summary->cases, 3u);                         // the two convolutions are one case
    EXPECT_EQ(summary->line(),
              "import: tiny_net: 6 nodes, 4 mapped to 3 DirectML operators, 1 layout-only, 1 unsupported: Cast\u00d71");

    CaseFile file = load_case_file(summary->case_file.string(), registry);
    ASSERT_TRUE(file.status.is_ok()) << file.status.message();
    ASSERT_EQ(file.cases.size(), 3u);
    bool saw_conv = false;
    for (const LoadedCase& c : file.cases) {
        EXPECT_TRUE(c.status.is_ok()) << c.status.message();
        if (c.spec.operator_type != "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION") continue;
        saw_conv = true;
        EXPECT_EQ(c.spec.name, "tiny_net/quantized_linear_convolution/conv0");
        EXPECT_NE(std::find(c.spec.tags.begin(), c.spec.tags.end(), "nodes:2"), c.spec.tags.end());
        EXPECT_NE(c.spec.description.find("conv0, conv1"), std::string::npos) << c.spec.description;
    }
    EXPECT_TRUE(saw_conv);
    // The first layer's weights are the ones written, as the case's logical FilterTensor.
    TensorDesc filter;
    filter.data_type = DataType::kInt8;
    filter.sizes = {4, 4, 3, 3};
    ASSERT_TRUE(validate_tensor_desc(filter, TensorRole::kInput, false).is_ok());
    auto weights = read_hdf5_tensor(summary->data_file, "/tiny_net/quantized_linear_convolution/conv0/FilterTensor",
                                    filter);
    ASSERT_TRUE(weights.is_ok()) << weights.status().message();
    EXPECT_EQ(weights->get<int8_t>(1), int8_t(7 - 127));
}

// Concat -> JOIN: InputTensors is an array of sources in the case file (one of them an initializer's data, written
// as /case/InputTensors/1), and the case loads and runs its own desc.
TEST(ModelImport, ConcatBecomesAJoinWithAnArrayOfInputs) {
    ScratchDir dir;
    ModelBuilder b;
    b.input("x", onnx::TensorProto::FLOAT, {"1", "2", "3", "3"});
    std::vector<float> constant(1 * 3 * 3 * 3);
    for (size_t i = 0; i < constant.size(); ++i) constant[i] = float(i) - 4.5f;
    b.initializer<float>("c", onnx::TensorProto::FLOAT, {1, 3, 3, 3}, constant);
    auto* concat = b.node("Concat", {"x", "c"}, {"y"}, "concat");
    auto* axis = concat->add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(1);
    b.output("y", onnx::TensorProto::FLOAT, {"1", "5", "3", "3"});
    const fs::path model = b.save(dir.path() / "concat.onnx");
    const OpRegistry registry = make_builtin_registry();
    auto summary = import_model({model, dir.path() / "out", std::nullopt, "net", true}, registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    EXPECT_EQ(summary->line(), "import: net: 1 nodes, 1 mapped to 1 DirectML operator, 0 layout-only, 0 unsupported");
    CaseFile file = load_case_file(summary->case_file.string(), registry);
    ASSERT_TRUE(file.status.is_ok()) << file.status.message();
    ASSERT_EQ(file.cases.size(), 1u);
    EXPECT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    EXPECT_EQ(file.cases[0].spec.operator_type, "DML_OPERATOR_JOIN");
    TensorDesc desc;
    desc.data_type = DataType::kFloat32;
    desc.sizes = {1, 3, 3, 3};
    ASSERT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
    auto data = read_hdf5_tensor(summary->data_file, "/net/join/concat/InputTensors/1", desc);
    ASSERT_TRUE(data.is_ok()) << data.status().message();
    EXPECT_EQ(data->get<float>(0), -4.5f);
}

// QLinearMatMul with B quantized per column: BScaleTensor and BZeroPointTensor become {1,1,1,N}.
TEST(ModelImport, QLinearMatMulPerColumnScales) {
    ScratchDir dir;
    ModelBuilder b;
    b.input("a", onnx::TensorProto::UINT8, {"2", "3"});
    b.initializer<float>("a_scale", onnx::TensorProto::FLOAT, {}, {0.02f});
    b.initializer<uint8_t>("a_zp", onnx::TensorProto::UINT8, {}, {128});
    b.initializer<int8_t>("w", onnx::TensorProto::INT8, {3, 4}, {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12});
    b.initializer<float>("w_scale", onnx::TensorProto::FLOAT, {4}, {0.1f, 0.2f, 0.3f, 0.4f});
    b.initializer<int8_t>("w_zp", onnx::TensorProto::INT8, {4}, {0, 1, -1, 2});
    b.initializer<float>("y_scale", onnx::TensorProto::FLOAT, {}, {0.05f});
    b.initializer<uint8_t>("y_zp", onnx::TensorProto::UINT8, {}, {100});
    b.node("QLinearMatMul", {"a", "a_scale", "a_zp", "w", "w_scale", "w_zp", "y_scale", "y_zp"}, {"y"}, "fc");
    b.output("y", onnx::TensorProto::UINT8, {"2", "4"});
    const fs::path model = b.save(dir.path() / "fc.onnx");
    const OpRegistry registry = make_builtin_registry();
    auto summary = import_model({model, dir.path() / "out", std::nullopt, "net", true}, registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    EXPECT_EQ(summary->mapped_nodes, 1u);
    CaseFile file = load_case_file(summary->case_file.string(), registry);
    ASSERT_TRUE(file.status.is_ok()) << file.status.message();
    ASSERT_EQ(file.cases.size(), 1u);
    ASSERT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    EXPECT_EQ(file.cases[0].spec.operator_type, "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY");
    std::ifstream in(summary->case_file);
    const nlohmann::json written = nlohmann::json::parse(in);
    const nlohmann::json& desc = written["cases"][0]["operator"]["desc"];
    EXPECT_EQ(desc["BScaleTensor"]["Sizes"], nlohmann::json({1, 1, 1, 4}));
    EXPECT_EQ(desc["BZeroPointTensor"]["Sizes"], nlohmann::json({1, 1, 1, 4}));
    EXPECT_EQ(desc["AScaleTensor"]["Sizes"], nlohmann::json({1, 1, 1, 1}));
}

TEST(ModelImport, WithoutDedupeEveryLayerIsACase) {
    ScratchDir dir;
    const fs::path model = tiny_network().save(dir.path() / "tiny.onnx");
    const OpRegistry registry = make_builtin_registry();
    auto summary = import_model({model, dir.path() / "out", 1, "net", false}, registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    EXPECT_EQ(summary->cases, 4u);
    EXPECT_EQ(summary->case_file.filename(), "net.json");
}

TEST(ModelImport, SymbolicBatchNamesTheInputAndTheOption) {
    ScratchDir dir;
    const fs::path model = tiny_network().save(dir.path() / "tiny.onnx");
    auto summary = import_model({model, dir.path() / "out", std::nullopt, "", true}, make_builtin_registry());
    ASSERT_FALSE(summary.is_ok());
    EXPECT_EQ(summary.status().code(), ErrorCode::kInvalidInput);
    EXPECT_NE(summary.status().message().find("input 'image'"), std::string::npos) << summary.status().message();
    EXPECT_NE(summary.status().message().find("--batch N"), std::string::npos);
    EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
}

TEST(ModelImport, BadFilesAreOneLineErrors) {
    ScratchDir dir;
    const OpRegistry registry = make_builtin_registry();
    const fs::path good = tiny_network().save(dir.path() / "tiny.onnx");
    std::ifstream in(good, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto write = [&](const std::string& name, const std::string& content) {
        std::ofstream(dir.path() / name, std::ios::binary) << content;
        return dir.path() / name;
    };
    const std::vector<std::pair<fs::path, std::string>> cases = {
        {write("truncated.onnx", bytes.substr(0, bytes.size() / 2)), "not an ONNX model"},
        {write("foreign.onnx", "{\"cases\": []}\n"), "not an ONNX model"},
        {write("empty.onnx", ""), "the file is empty"},
        {dir.path() / "missing.onnx", "cannot open"},
    };
    for (const auto& [file, expected] : cases) {
        auto summary = import_model({file, dir.path() / "out", 1, "", true}, registry);
        ASSERT_FALSE(summary.is_ok()) << file;
        EXPECT_NE(summary.status().message().find(expected), std::string::npos) << summary.status().message();
        EXPECT_NE(summary.status().message().find(file.filename().string()), std::string::npos);
        EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
    }
}

TEST(ModelImport, UnknownOpsetIsRefused) {
    ScratchDir dir;
    ModelBuilder b = tiny_network();
    b.model().mutable_opset_import(0)->set_version(99);
    auto summary = import_model({b.save(dir.path() / "future.onnx"), dir.path() / "out", 1, "", true},
                                make_builtin_registry());
    ASSERT_FALSE(summary.is_ok());
    EXPECT_NE(summary.status().message().find("opset 99"), std::string::npos) << summary.status().message();
}

TEST(ModelImport, MissingExternalDataIsNamed) {
    ScratchDir dir;
    ModelBuilder b = tiny_network();
    auto* weights = b.graph()->mutable_initializer(4);  // w0
    ASSERT_EQ(weights->name(), "w0");
    weights->clear_raw_data();
    weights->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* location = weights->add_external_data();
    location->set_key("location");
    location->set_value("weights.bin");
    auto summary = import_model({b.save(dir.path() / "external.onnx"), dir.path() / "out", 1, "", true},
                                make_builtin_registry());
    ASSERT_FALSE(summary.is_ok());
    EXPECT_NE(summary.status().message().find("external data of initializer 'w0'"), std::string::npos)
        << summary.status().message();
    // With the data beside the model, the same model imports.
    std::vector<int8_t> data(4 * 4 * 3 * 3, 1);
    std::ofstream(dir.path() / "weights.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    auto again = import_model({dir.path() / "external.onnx", dir.path() / "out", 1, "", true},
                              make_builtin_registry());
    EXPECT_TRUE(again.is_ok()) << again.status().message();
}

}  // namespace
}  // namespace dmltool::model_import

namespace dmltool::model_import {
namespace {

// Pooling with ceil_mode: MaxPool and AveragePool reach the extra output row and column with more end padding;
// with count_include_pad the node is unsupported (DirectML would count that padding). (A dilated AveragePool, which
// maps to AVERAGE_POOLING1, needs opset 19: this build's ONNX library stops at 17.)
TEST(ModelImport, PoolingCeilMode) {
    ModelBuilder b;
    b.input("x", onnx::TensorProto::FLOAT, {"1", "2", "5", "5"});
    auto* max = b.node("MaxPool", {"x"}, {"max"}, "max");
    ModelBuilder::ints(max, "kernel_shape", {2, 2});
    ModelBuilder::ints(max, "strides", {2, 2});
    auto* ceil = max->add_attribute();
    ceil->set_name("ceil_mode");
    ceil->set_type(onnx::AttributeProto::INT);
    ceil->set_i(1);
    auto* avg = b.node("AveragePool", {"x"}, {"avg"}, "avg");
    ModelBuilder::ints(avg, "kernel_shape", {2, 2});
    ModelBuilder::ints(avg, "strides", {2, 2});
    avg->add_attribute()->CopyFrom(*ceil);
    auto* counted = b.node("AveragePool", {"x"}, {"counted"}, "counted");
    ModelBuilder::ints(counted, "kernel_shape", {2, 2});
    ModelBuilder::ints(counted, "strides", {2, 2});
    counted->add_attribute()->CopyFrom(*ceil);
    auto* include = counted->add_attribute();
    include->set_name("count_include_pad");
    include->set_type(onnx::AttributeProto::INT);
    include->set_i(1);
    b.output("max", onnx::TensorProto::FLOAT, {"1", "2", "3", "3"});
    b.output("avg", onnx::TensorProto::FLOAT, {"1", "2", "3", "3"});
    b.output("counted", onnx::TensorProto::FLOAT, {"1", "2", "3", "3"});
    ScratchDir dir;
    const OpRegistry registry = make_builtin_registry();
    auto summary = import_model({b.save(dir.path() / "pool.onnx"), dir.path() / "out", 1, "", true}, registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    EXPECT_EQ(summary->mapped_nodes, 2u);
    EXPECT_EQ(summary->unsupported.count("AveragePool"), 1u);
    CaseFile file = load_case_file(summary->case_file.string(), registry);
    ASSERT_TRUE(file.status.is_ok()) << file.status.message();
    ASSERT_EQ(file.cases.size(), 2u);
    std::set<std::string> types;
    for (const LoadedCase& c : file.cases) {
        EXPECT_TRUE(c.status.is_ok()) << c.status.message();
        types.insert(c.spec.operator_type);
    }
    EXPECT_EQ(types, (std::set<std::string>{"DML_OPERATOR_MAX_POOLING2", "DML_OPERATOR_AVERAGE_POOLING"}));
    // 5 wide, window 2, stride 2: floor gives 2 positions, ceil 3; one more end padding reaches the third.
    std::ifstream written(summary->case_file);
    const nlohmann::json cases = nlohmann::json::parse(written)["cases"];
    ASSERT_EQ(cases.size(), 2u);
    for (const nlohmann::json& c : cases) EXPECT_EQ(c["operator"]["desc"]["EndPadding"], nlohmann::json({1, 1})) << c["name"];
}


// Resize: the OutputTensor is the node's output (2x), not the input's size.
TEST(ModelImport, ResizeOutputIsTheNodesOutput) {
    ScratchDir dir;
    const OpRegistry registry = make_builtin_registry();
    auto summary = import_model({tiny_network().save(dir.path() / "tiny.onnx"), dir.path() / "out", 2, "net", true},
                                registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    std::ifstream written(summary->case_file);
    bool saw = false;
    const nlohmann::json cases = nlohmann::json::parse(written)["cases"];
    for (const nlohmann::json& c : cases) {
        if (c["operator"]["type"] != "DML_OPERATOR_RESAMPLE") continue;
        saw = true;
        EXPECT_EQ(c["operator"]["desc"]["InputTensor"]["Sizes"], nlohmann::json({2, 4, 6, 6}));
        EXPECT_EQ(c["operator"]["desc"]["OutputTensor"]["Sizes"], nlohmann::json({2, 4, 12, 12}));
    }
    EXPECT_TRUE(saw);
}

// A tensors file for the tiny network at batch 1: every tensor a node reads or writes, element i = (i * 7 + salt) %
// 251, except the ones left out.
fs::path tiny_tensors(const fs::path& file, const std::set<std::string>& leave_out = {},
                      DataType up_type = DataType::kUint8) {
    const std::vector<std::pair<std::string, Dims>> tensors = {
        {"image", {1, 4, 6, 6}}, {"conv0", {1, 4, 6, 6}}, {"conv1", {1, 4, 6, 6}}, {"cast", {1, 4, 6, 6}},
        {"up", {1, 4, 12, 12}}, {"part0", {1, 1, 12, 12}}, {"part1", {1, 3, 12, 12}}};
    int salt = 0;
    for (const auto& [name, sizes] : tensors) {
        ++salt;
        if (leave_out.count(name)) continue;
        TensorDesc desc;
        desc.data_type = name == "up" ? up_type : DataType::kUint8;
        desc.sizes = sizes;
        EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
        HostTensor t(desc);
        for (uint64_t i = 0; i < t.element_count(); ++i) t.set_from_double(i, double((i * 7 + salt) % 251));
        EXPECT_TRUE(write_hdf5_tensor(file, tensor_dataset(name), t).is_ok());
    }
    return file;
}

TEST(ModelImport, TensorsFromReadsEachNodesInputsAndExpectsItsOutputs) {
    EXPECT_EQ(tensor_dataset("res2a/branch1.out"), "/res2a%2Fbranch1%2Eout");
    ScratchDir dir;
    const OpRegistry registry = make_builtin_registry();
    ImportOptions options{tiny_network().save(dir.path() / "tiny.onnx"), dir.path() / "out", 1, "net", true};
    options.tensors_from = tiny_tensors(dir.path() / "tensors.h5");
    auto summary = import_model(options, registry);
    ASSERT_TRUE(summary.is_ok()) << summary.status().message();
    EXPECT_EQ(summary->cases, 4u);  // one per node: the two identical convolutions are two cases
    CaseFile file = load_case_file(summary->case_file.string(), registry);
    ASSERT_TRUE(file.status.is_ok()) << file.status.message();
    for (const LoadedCase& c : file.cases) EXPECT_TRUE(c.status.is_ok()) << c.status.message();
    std::ifstream in(summary->case_file);
    const nlohmann::json cases = nlohmann::json::parse(in)["cases"];
    ASSERT_EQ(cases.size(), 4u);
    EXPECT_EQ(cases[1]["name"], "net/quantized_linear_convolution/conv1");
    EXPECT_EQ(cases[1]["inputs"]["InputTensor"]["dataset"], "/net/quantized_linear_convolution/conv1/InputTensor");
    EXPECT_EQ(cases[1]["expected"]["OutputTensor"]["dataset"],
              "/net/quantized_linear_convolution/conv1/expected/OutputTensor");
    EXPECT_EQ(cases[3]["expected"]["OutputTensors"].size(), 2u);
    EXPECT_EQ(cases[3]["expected"]["OutputTensors"][1]["dataset"], "/net/split/split/expected/OutputTensors/1");
    // conv1 reads conv0 (salt 2) and expects conv1 (salt 3).
    TensorDesc desc;
    desc.data_type = DataType::kUint8;
    desc.sizes = {1, 4, 6, 6};
    ASSERT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, false).is_ok());
    auto input = read_hdf5_tensor(summary->data_file, "/net/quantized_linear_convolution/conv1/InputTensor", desc);
    ASSERT_TRUE(input.is_ok()) << input.status().message();
    EXPECT_EQ(input->get<uint8_t>(5), uint8_t(5 * 7 + 2));
    auto output = read_hdf5_tensor(summary->data_file, "/net/quantized_linear_convolution/conv1/expected/OutputTensor",
                                   desc);
    ASSERT_TRUE(output.is_ok()) << output.status().message();
    EXPECT_EQ(output->get<uint8_t>(5), uint8_t(5 * 7 + 3));
}

TEST(ModelImport, TensorsFromErrorsNameTheFileTheTensorAndWhatWasFound) {
    ScratchDir dir;
    const OpRegistry registry = make_builtin_registry();
    ImportOptions options{tiny_network().save(dir.path() / "tiny.onnx"), dir.path() / "out", 1, "net", true};
    auto message = [&](const fs::path& tensors) {
        options.tensors_from = tensors;
        auto summary = import_model(options, registry);
        EXPECT_FALSE(summary.is_ok());
        if (summary.is_ok()) return std::string();
        EXPECT_EQ(summary.status().code(), ErrorCode::kInvalidInput) << summary.status().message();
        EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
        return summary.status().message();
    };
    std::string m = message(dir.path() / "absent.h5");
    EXPECT_NE(m.find("--tensors-from " + (dir.path() / "absent.h5").string() + ": expected an HDF5 file"),
              std::string::npos) << m;
    m = message(tiny_tensors(dir.path() / "no_up.h5", {"up"}));
    EXPECT_NE(m.find("ONNX tensor 'up' (output 'OutputTensor' of node 'upsample')"), std::string::npos) << m;
    EXPECT_NE(m.find("dataset '/up': no such dataset"), std::string::npos) << m;
    m = message(tiny_tensors(dir.path() / "float_up.h5", {}, DataType::kFloat32));
    EXPECT_NE(m.find("ONNX tensor 'up'"), std::string::npos) << m;
    EXPECT_NE(m.find("expected UINT8 elements"), std::string::npos) << m;
    std::ofstream(dir.path() / "not.h5") << "not HDF5";
    m = message(dir.path() / "not.h5");
    EXPECT_NE(m.find("not an HDF5 file"), std::string::npos) << m;
}

}  // namespace
}  // namespace dmltool::model_import
