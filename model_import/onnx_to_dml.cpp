// The ONNX -> DirectML mapping: one short mapper per ONNX operator (each citing the DirectML provider file it
// follows) and the table that names them at the end. Over 600 lines because it is one table: a reader checks a row
// of docs/importing-models.md against its mapper here, and the mappers share the attribute and shape helpers above
// them; a split by operator family would put those helpers in a header for no reader's benefit.
#include "model_import/onnx_to_dml.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <tuple>

#include "core/dtype.h"

namespace dmltool::model_import {
namespace {

using nlohmann::json;

// What one mapper sees: the model, the node, and helpers that turn ONNX tensors into desc members and sources.
class NodeContext {
public:
    NodeContext(const Model& model, const Node& node) : model_(model), node_(node) {}

    const Node& node() const { return node_; }
    bool has_input(size_t i) const { return i < node_.inputs.size() && !node_.inputs[i].empty(); }

    // The static type and shape of input i (or output i); an unknown shape is an error of the model.
    Result<TensorInfo> input(size_t i) const { return info_of(node_.inputs.at(i), "input " + std::to_string(i)); }
    Result<TensorInfo> output(size_t i) const {
        return info_of(node_.outputs.at(i), "output " + std::to_string(i));
    }
    const HostTensor* initializer(size_t i) const { return has_input(i) ? model_.initializer(node_.inputs[i]) : nullptr; }

    // The source of input i laid out as a member of `sizes` (with `strides`, 0 = broadcast): an initializer's
    // values (or its one value as a constant), else an activation.
    InputSource source(size_t i, const Dims& sizes, const std::optional<Dims>& strides) const {
        InputSource s;
        s.onnx_name = node_.inputs.at(i);
        const HostTensor* init = initializer(i);
        if (!init) return s;
        if (init->element_count() == 1) {
            s.kind = InputSource::Kind::kConstant;
            s.constant = init->get_as_double(0);
            return s;
        }
        s.kind = InputSource::Kind::kData;
        // Shape inference checked the initializer's shape against the node's. Were a mapper to lay it out wrongly,
        // the data stays empty and the written case is INVALID when run, instead of reading past the initializer.
        if (auto data = lay_out(*init, sizes, strides); data.is_ok()) s.data = std::move(*data);
        return s;
    }

private:
    Result<TensorInfo> info_of(const std::string& tensor, const std::string& role) const {
        const TensorInfo* info = model_.info(tensor);
        if (!info || info->type == DataType::kUnknown)
            return invalid_input("tensor '" + tensor + "' (" + role + " of node '" + node_.name + "', " +
                                 node_.op_type + ") has no static shape after ONNX shape inference: give --batch N, "
                                 "or a model with static shapes");
        return *info;
    }

    const Model& model_;
    const Node& node_;
};

Result<Dims> to_dims(const std::vector<int64_t>& shape, const std::string& tensor) {
    Dims dims;
    for (int64_t d : shape) {
        if (d <= 0 || d > int64_t(kMaxElementCount))
            return invalid_input("tensor '" + tensor + "' has a dimension of " + std::to_string(d));
        dims.push_back(uint32_t(d));
    }
    if (dims.empty()) dims = {1};
    return dims;
}

json tensor_json(DataType type, const Dims& sizes, const std::optional<Dims>& strides = std::nullopt) {
    json t = {{"DataType", std::string(data_type_name(type))}, {"Sizes", sizes}};
    if (strides) t["Strides"] = *strides;
    return t;
}

// The strides that read `shape` (ONNX multidirectional broadcasting: right-aligned) as a tensor of `target`:
// packed strides of the input's own dimensions, 0 where the input has 1 and the target more. nullopt when no
// broadcast is needed.
std::optional<Dims> broadcast_strides(const std::vector<int64_t>& shape, const Dims& target) {
    Dims own(target.size(), 1);
    for (size_t i = 0; i < shape.size() && i < target.size(); ++i)
        own[target.size() - shape.size() + i] = uint32_t(shape[i]);
    if (own == target) return std::nullopt;
    Dims strides = packed_strides(own);
    for (size_t d = 0; d < target.size(); ++d)
        if (own[d] == 1 && target[d] != 1) strides[d] = 0;
    return strides;
}

Dims zeros(size_t n) { return Dims(n, 0); }

// A per-tensor or per-channel (axis 1 of a rank-4 NCHW tensor) quantization parameter as a [1,C,1,1] member.
void add_channel_parameter(const NodeContext& c, MappedCase& m, size_t input, const std::string& member,
                           DataType type, uint32_t channels) {
    const HostTensor* init = c.initializer(input);
    const bool per_channel = init && init->element_count() > 1;
    const Dims sizes = per_channel ? Dims{1, channels, 1, 1} : Dims{1, 1, 1, 1};
    m.desc[member] = tensor_json(type, sizes);
    m.inputs[member] = c.source(input, sizes, std::nullopt);
}

// A per-tensor scale or zero point of a tensor of `sizes`: DirectML's QUANTIZED_LINEAR_ADD takes it as one element
// of the same rank ({1,1,1,1}).
void add_scalar_parameter(const NodeContext& c, MappedCase& m, size_t input, const std::string& member,
                          DataType type, const Dims& sizes) {
    const Dims one(sizes.size(), 1);
    m.desc[member] = tensor_json(type, one);
    m.inputs[member] = c.source(input, one, std::nullopt);
}

// ONNX pads [x1_begin, x2_begin, ..., x1_end, x2_end] or auto_pad, for the spatial dimensions.
Status spatial_padding(const Node& node, const Dims& input, const Dims& window, const Dims& strides,
                       const Dims& dilations, Dims& start, Dims& end) {
    const size_t n = window.size();
    start.assign(n, 0);
    end.assign(n, 0);
    const std::string auto_pad = node.string_attribute("auto_pad", "NOTSET");
    if (auto_pad == "NOTSET") {
        const auto pads = node.ints_attribute("pads");
        if (!pads.empty() && pads.size() != 2 * n)
            return invalid_input("node '" + node.name + "': pads has " + std::to_string(pads.size()) +
                                 " values, expected " + std::to_string(2 * n));
        for (size_t i = 0; i < n && !pads.empty(); ++i) {
            start[i] = uint32_t(pads[i]);
            end[i] = uint32_t(pads[n + i]);
        }
        return Status::ok();
    }
    if (auto_pad == "VALID") return Status::ok();
    for (size_t i = 0; i < n; ++i) {  // SAME_UPPER / SAME_LOWER: output = ceil(input / stride)
        const int64_t in = input[2 + i];
        const int64_t out = (in + strides[i] - 1) / strides[i];
        const int64_t extent = int64_t(dilations[i]) * (window[i] - 1) + 1;
        const int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + extent - in);
        const int64_t small = total / 2, large = total - small;
        start[i] = uint32_t(auto_pad == "SAME_UPPER" ? small : large);
        end[i] = uint32_t(auto_pad == "SAME_UPPER" ? large : small);
    }
    return Status::ok();
}

Dims attribute_dims(const Node& node, const std::string& key, size_t n, uint32_t fallback) {
    auto values = node.ints_attribute(key);
    if (values.empty()) return Dims(n, fallback);
    return Dims(values.begin(), values.end());
}

#define TRY_ASSIGN(var, expr)                          \
    auto var##_result = (expr);                        \
    if (!var##_result.is_ok()) return var##_result.status(); \
    auto var = std::move(*var##_result)

NodeMapping mapped(MappedCase c) {
    NodeMapping m;
    m.kind = NodeMapping::Kind::kMapped;
    m.cases.push_back(std::move(c));
    return m;
}
NodeMapping unsupported_node(std::string reason) {
    NodeMapping m;
    m.reason = std::move(reason);
    return m;
}

// What a 2-D convolution node gives both convolution operators: its tensors' types and sizes and its geometry.
struct ConvolutionGeometry {
    TensorInfo x, w, y;
    Dims x_dims, w_dims, y_dims, strides, dilations, start, end;
};

// The node's input `x_input`, filter `w_input` and output 0; unsupported (empty optional) unless rank-4 NCHW.
Result<std::optional<ConvolutionGeometry>> convolution_geometry(const NodeContext& c, size_t x_input, size_t w_input) {
    ConvolutionGeometry g;
    TRY_ASSIGN(x, c.input(x_input));
    TRY_ASSIGN(w, c.input(w_input));
    TRY_ASSIGN(y, c.output(0));
    if (x.shape.size() != 4) return std::optional<ConvolutionGeometry>();
    TRY_ASSIGN(x_dims, to_dims(x.shape, c.node().inputs[x_input]));
    TRY_ASSIGN(w_dims, to_dims(w.shape, c.node().inputs[w_input]));
    TRY_ASSIGN(y_dims, to_dims(y.shape, c.node().outputs[0]));
    g.x = x, g.w = w, g.y = y, g.x_dims = x_dims, g.w_dims = w_dims, g.y_dims = y_dims;
    const Node& n = c.node();
    g.strides = attribute_dims(n, "strides", 2, 1);
    g.dilations = attribute_dims(n, "dilations", 2, 1);
    if (Status s = spatial_padding(n, x_dims, {w_dims[2], w_dims[3]}, g.strides, g.dilations, g.start, g.end);
        !s.is_ok())
        return s;
    return std::optional<ConvolutionGeometry>(std::move(g));
}

void add_geometry(MappedCase& m, const ConvolutionGeometry& g, int64_t groups) {
    m.desc["Strides"] = g.strides;
    m.desc["Dilations"] = g.dilations;
    m.desc["StartPadding"] = g.start;
    m.desc["EndPadding"] = g.end;
    m.desc["GroupCount"] = groups;
}

// QLinearConv -> DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION (DmlOperatorQLinearConv.cpp).
Result<NodeMapping> map_qlinear_conv(const NodeContext& c) {
    TRY_ASSIGN(geometry, convolution_geometry(c, 0, 3));
    if (!geometry) return unsupported_node("only 2-D convolutions (rank-4 NCHW) are imported");
    const ConvolutionGeometry& g = *geometry;
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION";
    const uint32_t channels = g.w_dims[0];
    m.desc["InputTensor"] = tensor_json(g.x.type, g.x_dims);
    m.inputs["InputTensor"] = c.source(0, g.x_dims, std::nullopt);
    add_channel_parameter(c, m, 1, "InputScaleTensor", DataType::kFloat32, channels);
    if (c.has_input(2)) add_channel_parameter(c, m, 2, "InputZeroPointTensor", g.x.type, channels);
    m.desc["FilterTensor"] = tensor_json(g.w.type, g.w_dims);
    m.inputs["FilterTensor"] = c.source(3, g.w_dims, std::nullopt);
    add_channel_parameter(c, m, 4, "FilterScaleTensor", DataType::kFloat32, channels);
    if (c.has_input(5)) add_channel_parameter(c, m, 5, "FilterZeroPointTensor", g.w.type, channels);
    if (c.has_input(8)) {
        m.desc["BiasTensor"] = tensor_json(DataType::kInt32, {1, channels, 1, 1});
        m.inputs["BiasTensor"] = c.source(8, {1, channels, 1, 1}, std::nullopt);
    }
    add_channel_parameter(c, m, 6, "OutputScaleTensor", DataType::kFloat32, channels);
    if (c.has_input(7)) add_channel_parameter(c, m, 7, "OutputZeroPointTensor", g.y.type, channels);
    m.desc["OutputTensor"] = tensor_json(g.y.type, g.y_dims);
    add_geometry(m, g, c.node().int_attribute("group", 1));
    return mapped(std::move(m));
}

// Conv -> DML_OPERATOR_CONVOLUTION (DmlOperatorConvolution.cpp).
Result<NodeMapping> map_conv(const NodeContext& c) {
    TRY_ASSIGN(geometry, convolution_geometry(c, 0, 1));
    if (!geometry) return unsupported_node("only 2-D convolutions (rank-4 NCHW) are imported");
    const ConvolutionGeometry& g = *geometry;
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_CONVOLUTION";
    m.desc["InputTensor"] = tensor_json(g.x.type, g.x_dims);
    m.inputs["InputTensor"] = c.source(0, g.x_dims, std::nullopt);
    m.desc["FilterTensor"] = tensor_json(g.w.type, g.w_dims);
    m.inputs["FilterTensor"] = c.source(1, g.w_dims, std::nullopt);
    if (c.has_input(2)) {
        const Dims bias = {1, g.w_dims[0], 1, 1};
        m.desc["BiasTensor"] = tensor_json(g.x.type, bias);
        m.inputs["BiasTensor"] = c.source(2, bias, std::nullopt);
    }
    m.desc["OutputTensor"] = tensor_json(g.y.type, g.y_dims);
    m.desc["Mode"] = "DML_CONVOLUTION_MODE_CROSS_CORRELATION";
    m.desc["Direction"] = "DML_CONVOLUTION_DIRECTION_FORWARD";
    m.desc["OutputPadding"] = Dims{0, 0};
    add_geometry(m, g, c.node().int_attribute("group", 1));
    return mapped(std::move(m));
}

// QuantizeLinear / DequantizeLinear -> DML_OPERATOR_ELEMENT_WISE_(DE)QUANTIZE_LINEAR (DmlOperatorElementWise.cpp):
// the scale and zero point broadcast over the input (per tensor: every stride 0; per axis: stride 1 on the axis).
Result<NodeMapping> map_quantize(const NodeContext& c, const std::string& dml) {
    TRY_ASSIGN(x, c.input(0));
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(dims, to_dims(x.shape, c.node().inputs[0]));
    MappedCase m;
    m.dml_operator = dml;
    m.desc["InputTensor"] = tensor_json(x.type, dims);
    m.inputs["InputTensor"] = c.source(0, dims, std::nullopt);
    auto parameter_strides = [&](size_t input) {
        Dims strides = zeros(dims.size());
        const HostTensor* init = c.initializer(input);
        if (init && init->element_count() > 1) {
            int64_t axis = c.node().int_attribute("axis", 1);
            if (axis < 0) axis += int64_t(dims.size());
            strides[size_t(axis)] = 1;
        }
        return strides;
    };
    TRY_ASSIGN(scale, c.input(1));
    m.desc["ScaleTensor"] = tensor_json(scale.type, dims, parameter_strides(1));
    m.inputs["ScaleTensor"] = c.source(1, dims, parameter_strides(1));
    if (c.has_input(2)) {
        TRY_ASSIGN(zp, c.input(2));
        m.desc["ZeroPointTensor"] = tensor_json(zp.type, dims, parameter_strides(2));
        m.inputs["ZeroPointTensor"] = c.source(2, dims, parameter_strides(2));
    }
    m.desc["OutputTensor"] = tensor_json(y.type, dims);
    return mapped(std::move(m));
}

// com.microsoft QLinearAdd -> DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD (DmlOperatorQLinearAdd.cpp).
Result<NodeMapping> map_qlinear_add(const NodeContext& c) {
    TRY_ASSIGN(a, c.input(0));
    TRY_ASSIGN(b, c.input(3));
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(dims, to_dims(y.shape, c.node().outputs[0]));
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD";
    const auto a_strides = broadcast_strides(a.shape, dims), b_strides = broadcast_strides(b.shape, dims);
    m.desc["ATensor"] = tensor_json(a.type, dims, a_strides);
    m.inputs["ATensor"] = c.source(0, dims, a_strides);
    add_scalar_parameter(c, m, 1, "AScaleTensor", DataType::kFloat32, dims);
    if (c.has_input(2)) add_scalar_parameter(c, m, 2, "AZeroPointTensor", a.type, dims);
    m.desc["BTensor"] = tensor_json(b.type, dims, b_strides);
    m.inputs["BTensor"] = c.source(3, dims, b_strides);
    add_scalar_parameter(c, m, 4, "BScaleTensor", DataType::kFloat32, dims);
    if (c.has_input(5)) add_scalar_parameter(c, m, 5, "BZeroPointTensor", b.type, dims);
    add_scalar_parameter(c, m, 6, "OutputScaleTensor", DataType::kFloat32, dims);
    if (c.has_input(7)) add_scalar_parameter(c, m, 7, "OutputZeroPointTensor", y.type, dims);
    m.desc["OutputTensor"] = tensor_json(y.type, dims);
    return mapped(std::move(m));
}

// Two-input element-wise operators with ONNX broadcasting -> DML_OPERATOR_ELEMENT_WISE_* (DmlOperatorElementWise.cpp).
Result<NodeMapping> map_binary(const NodeContext& c, const std::string& dml) {
    TRY_ASSIGN(a, c.input(0));
    TRY_ASSIGN(b, c.input(1));
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(dims, to_dims(y.shape, c.node().outputs[0]));
    MappedCase m;
    m.dml_operator = dml;
    const auto a_strides = broadcast_strides(a.shape, dims), b_strides = broadcast_strides(b.shape, dims);
    m.desc["ATensor"] = tensor_json(a.type, dims, a_strides);
    m.inputs["ATensor"] = c.source(0, dims, a_strides);
    m.desc["BTensor"] = tensor_json(b.type, dims, b_strides);
    m.inputs["BTensor"] = c.source(1, dims, b_strides);
    m.desc["OutputTensor"] = tensor_json(y.type, dims);
    return mapped(std::move(m));
}

// One-input functions -> DML_OPERATOR_ACTIVATION_* or ELEMENT_WISE_* (DmlOperatorActivation.cpp,
// DmlOperatorElementWise.cpp), with the attributes DirectML names differently.
Result<NodeMapping> map_unary(const NodeContext& c, const std::string& dml, json attributes = json::object()) {
    TRY_ASSIGN(x, c.input(0));
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(dims, to_dims(x.shape, c.node().inputs[0]));
    MappedCase m;
    m.dml_operator = dml;
    m.desc["InputTensor"] = tensor_json(x.type, dims);
    m.inputs["InputTensor"] = c.source(0, dims, std::nullopt);
    m.desc["OutputTensor"] = tensor_json(y.type, dims);
    for (auto& [key, value] : attributes.items()) m.desc[key] = value;
    return mapped(std::move(m));
}

// Clip (opset 11+: min and max are inputs) -> DML_OPERATOR_ELEMENT_WISE_CLIP for floats, CLIP1 (MinMaxDataType)
// for integers (DmlOperatorElementWise.cpp).
Result<NodeMapping> map_clip(const NodeContext& c) {
    TRY_ASSIGN(x, c.input(0));
    const bool is_float = x.type == DataType::kFloat32 || x.type == DataType::kFloat16;
    double low = c.node().float_attribute("min", -3.4028234663852886e38f);
    double high = c.node().float_attribute("max", 3.4028234663852886e38f);
    if (!is_float) {
        low = double(integer_min(x.type));
        high = double(integer_max(x.type));
    }
    for (size_t i : {size_t(1), size_t(2)}) {
        if (!c.has_input(i)) continue;
        const HostTensor* bound = c.initializer(i);
        if (!bound || bound->element_count() != 1)
            return unsupported_node("Clip's min/max must be constant initializers to be a DirectML attribute");
        (i == 1 ? low : high) = bound->get_as_double(0);
    }
    if (is_float) return map_unary(c, "DML_OPERATOR_ELEMENT_WISE_CLIP", {{"Min", low}, {"Max", high}});
    return map_unary(c, "DML_OPERATOR_ELEMENT_WISE_CLIP1",
                     {{"MinMaxDataType", std::string(data_type_name(x.type))}, {"Min", low}, {"Max", high}});
}

// Resize -> DML_OPERATOR_RESAMPLE. ONNX Runtime's DmlOperatorResize.cpp uses RESAMPLE1 (pixel offsets); RESAMPLE
// computes the same outputs for half-pixel linear resizing and for nearest with asymmetric coordinates and floor at
// integer upscales, so those are imported; the rest need RESAMPLE1, which dmltool does not have yet.
Result<NodeMapping> map_resize(const NodeContext& c) {
    TRY_ASSIGN(x, c.input(0));
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(in, to_dims(x.shape, c.node().inputs[0]));
    TRY_ASSIGN(out, to_dims(y.shape, c.node().outputs[0]));
    const Node& n = c.node();
    const std::string mode = n.string_attribute("mode", "nearest");
    const std::string coordinates = n.string_attribute("coordinate_transformation_mode", "half_pixel");
    const std::string nearest = n.string_attribute("nearest_mode", "round_prefer_floor");
    std::vector<float> scales;
    for (size_t d = 0; d < in.size(); ++d) scales.push_back(float(out[d]) / float(in[d]));
    bool same = false;
    if (mode == "linear" && coordinates == "half_pixel") same = true;
    if (mode == "nearest" && coordinates == "asymmetric" && nearest == "floor")
        same = std::all_of(in.begin(), in.end(), [&, d = size_t(0)](uint32_t) mutable {
            const bool integral = out[d] % in[d] == 0;
            ++d;
            return integral;
        });
    if (!same)
        return unsupported_node("Resize mode '" + mode + "' with '" + coordinates + "' needs DML_OPERATOR_RESAMPLE1");
    TRY_ASSIGN(mapping, map_unary(c, "DML_OPERATOR_RESAMPLE",
                                  {{"InterpolationMode", mode == "linear" ? "DML_INTERPOLATION_MODE_LINEAR"
                                                                          : "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR"},
                                   {"Scales", scales}}));
    // The output is the node's output, not the input's size (map_unary's): RESAMPLE accepts any output size, so
    // an input-sized one validates and computes only the upscaled image's top-left part.
    mapping.cases.at(0).desc["OutputTensor"] = tensor_json(y.type, out);
    return mapping;
}

// Split -> DML_OPERATOR_SPLIT (DmlOperatorSplit.cpp).
Result<NodeMapping> map_split(const NodeContext& c) {
    TRY_ASSIGN(x, c.input(0));
    TRY_ASSIGN(dims, to_dims(x.shape, c.node().inputs[0]));
    int64_t axis = c.node().int_attribute("axis", 0);
    if (axis < 0) axis += int64_t(dims.size());
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_SPLIT";
    m.desc["InputTensor"] = tensor_json(x.type, dims);
    m.inputs["InputTensor"] = c.source(0, dims, std::nullopt);
    m.desc["OutputTensors"] = json::array();
    for (size_t i = 0; i < c.node().outputs.size(); ++i) {
        TRY_ASSIGN(y, c.output(i));
        TRY_ASSIGN(y_dims, to_dims(y.shape, c.node().outputs[i]));
        m.desc["OutputTensors"].push_back(tensor_json(y.type, y_dims));
    }
    m.desc["Axis"] = axis;
    return mapped(std::move(m));
}

// Concat -> DML_OPERATOR_JOIN (DmlOperatorConcat.cpp).
Result<NodeMapping> map_concat(const NodeContext& c) {
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(out, to_dims(y.shape, c.node().outputs[0]));
    int64_t axis = c.node().int_attribute("axis", 0);
    if (axis < 0) axis += int64_t(out.size());
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_JOIN";
    m.desc["InputTensors"] = json::array();
    for (size_t i = 0; i < c.node().inputs.size(); ++i) {
        TRY_ASSIGN(x, c.input(i));
        TRY_ASSIGN(dims, to_dims(x.shape, c.node().inputs[i]));
        m.desc["InputTensors"].push_back(tensor_json(x.type, dims));
        m.inputs["InputTensors[" + std::to_string(i) + "]"] = c.source(i, dims, std::nullopt);
    }
    m.desc["OutputTensor"] = tensor_json(y.type, out);
    m.desc["Axis"] = axis;
    return mapped(std::move(m));
}

// MaxPool -> DML_OPERATOR_MAX_POOLING2; AveragePool / GlobalAveragePool -> DML_OPERATOR_AVERAGE_POOLING (dilated:
// AVERAGE_POOLING1);
// com.microsoft QLinearGlobalAveragePool -> DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING (DmlOperatorPooling.cpp,
// DmlOperatorQLinearAveragePooling.cpp).
Result<NodeMapping> map_pooling(const NodeContext& c, bool max, bool global, bool quantized) {
    TRY_ASSIGN(x, c.input(0));
    TRY_ASSIGN(y, c.output(0));
    TRY_ASSIGN(in, to_dims(x.shape, c.node().inputs[0]));
    TRY_ASSIGN(out, to_dims(y.shape, c.node().outputs[0]));
    if (in.size() != 4) return unsupported_node("only 2-D pooling (rank-4 NCHW) is imported");
    if (quantized && c.node().int_attribute("channels_last", 0) != 0)
        return unsupported_node("channels_last pooling is not imported");
    const Node& n = c.node();
    const Dims window = global ? Dims{in[2], in[3]} : attribute_dims(n, "kernel_shape", 2, 1);
    const Dims strides = global ? Dims{1, 1} : attribute_dims(n, "strides", 2, 1);
    const Dims dilations = global ? Dims{1, 1} : attribute_dims(n, "dilations", 2, 1);
    Dims start{0, 0}, end{0, 0};
    if (!global)
        if (Status s = spatial_padding(n, in, window, strides, dilations, start, end); !s.is_ok()) return s;
    const bool include_padding = n.int_attribute("count_include_pad", 0) != 0;
    // ceil_mode: the output has the extra positions ONNX's shape says; DirectML's floor formula reaches them with
    // that much more end padding (as the provider does). Never selected by max, never counted without
    // IncludePadding; with count_include_pad DirectML would count it, which ONNX does not.
    if (!global && n.int_attribute("ceil_mode", 0) != 0) {
        for (size_t i = 0; i < 2; ++i) {
            const int64_t extent = int64_t(dilations[i]) * (window[i] - 1) + 1;
            const int64_t padded = int64_t(in[2 + i]) + start[i] + end[i];
            const int64_t floor_out = padded >= extent ? (padded - extent) / strides[i] + 1 : 0;
            if (int64_t(out[2 + i]) > floor_out) {
                if (!max && include_padding)
                    return unsupported_node("AveragePool with ceil_mode and count_include_pad: DirectML would count "
                                            "the extra end padding");
                // The least end padding whose floor formula gives out: the last window's end.
                end[i] += uint32_t((int64_t(out[2 + i]) - 1) * strides[i] + extent - padded);
            }
        }
    }
    // AVERAGE_POOLING has no Dilations: a dilated AveragePool takes AVERAGE_POOLING1 (FL 6_2), as the provider does.
    const bool dilated = std::any_of(dilations.begin(), dilations.end(), [](uint32_t d) { return d != 1; });
    MappedCase m;
    m.dml_operator = max         ? "DML_OPERATOR_MAX_POOLING2"
                     : quantized ? "DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING"
                     : dilated   ? "DML_OPERATOR_AVERAGE_POOLING1"
                                 : "DML_OPERATOR_AVERAGE_POOLING";
    m.desc["InputTensor"] = tensor_json(x.type, in);
    m.inputs["InputTensor"] = c.source(0, in, std::nullopt);
    if (quantized) {
        add_channel_parameter(c, m, 1, "InputScaleTensor", DataType::kFloat32, in[1]);
        if (c.has_input(2)) add_channel_parameter(c, m, 2, "InputZeroPointTensor", x.type, in[1]);
        add_channel_parameter(c, m, 3, "OutputScaleTensor", DataType::kFloat32, in[1]);
        if (c.has_input(4)) add_channel_parameter(c, m, 4, "OutputZeroPointTensor", y.type, in[1]);
    }
    m.desc["OutputTensor"] = tensor_json(y.type, out);
    m.desc["Strides"] = strides;
    m.desc["WindowSize"] = window;
    m.desc["StartPadding"] = start;
    m.desc["EndPadding"] = end;
    if (max || quantized || dilated) m.desc["Dilations"] = dilations;
    if (!max) m.desc["IncludePadding"] = include_padding;
    return mapped(std::move(m));
}

// A 2-D matrix as DirectML's 4-D {1, 1, rows, columns}.
Dims as_matrix(const Dims& d) { return {1, 1, d[d.size() - 2], d[d.size() - 1]}; }

// Gemm -> DML_OPERATOR_GEMM (DmlOperatorGemm.cpp); C broadcasts over the output with stride 0.
Result<NodeMapping> map_gemm(const NodeContext& c) {
    TRY_ASSIGN(a, c.input(0));
    TRY_ASSIGN(b, c.input(1));
    TRY_ASSIGN(y, c.output(0));
    if (a.shape.size() != 2 || b.shape.size() != 2) return unsupported_node("Gemm of non-2-D operands");
    TRY_ASSIGN(a_dims, to_dims(a.shape, c.node().inputs[0]));
    TRY_ASSIGN(b_dims, to_dims(b.shape, c.node().inputs[1]));
    TRY_ASSIGN(y_dims, to_dims(y.shape, c.node().outputs[0]));
    const Node& n = c.node();
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_GEMM";
    m.desc["ATensor"] = tensor_json(a.type, as_matrix(a_dims));
    m.inputs["ATensor"] = c.source(0, as_matrix(a_dims), std::nullopt);
    m.desc["BTensor"] = tensor_json(b.type, as_matrix(b_dims));
    m.inputs["BTensor"] = c.source(1, as_matrix(b_dims), std::nullopt);
    const Dims out = as_matrix(y_dims);
    if (c.has_input(2)) {
        TRY_ASSIGN(bias, c.input(2));
        const auto strides = broadcast_strides(bias.shape, out);
        m.desc["CTensor"] = tensor_json(bias.type, out, strides);
        m.inputs["CTensor"] = c.source(2, out, strides);
    }
    m.desc["OutputTensor"] = tensor_json(y.type, out);
    m.desc["TransA"] = n.int_attribute("transA", 0) ? "DML_MATRIX_TRANSFORM_TRANSPOSE" : "DML_MATRIX_TRANSFORM_NONE";
    m.desc["TransB"] = n.int_attribute("transB", 0) ? "DML_MATRIX_TRANSFORM_TRANSPOSE" : "DML_MATRIX_TRANSFORM_NONE";
    m.desc["Alpha"] = n.float_attribute("alpha", 1.0f);
    m.desc["Beta"] = n.float_attribute("beta", 1.0f);
    return mapped(std::move(m));
}

// QLinearMatMul -> DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY (DmlOperatorQLinearMatMul.cpp).
Result<NodeMapping> map_qlinear_matmul(const NodeContext& c) {
    TRY_ASSIGN(a, c.input(0));
    TRY_ASSIGN(b, c.input(3));
    TRY_ASSIGN(y, c.output(0));
    if (a.shape.size() != 2 || b.shape.size() != 2) return unsupported_node("QLinearMatMul of non-2-D operands");
    TRY_ASSIGN(a_dims, to_dims(a.shape, c.node().inputs[0]));
    TRY_ASSIGN(b_dims, to_dims(b.shape, c.node().inputs[3]));
    TRY_ASSIGN(y_dims, to_dims(y.shape, c.node().outputs[0]));
    MappedCase m;
    m.dml_operator = "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY";
    // Scales and zero points: per tensor as {1,1,1,1}; ONNX's per-row ones of A and the output ({M} or {M,1}) as
    // {1,1,M,1} and per-column ones of B ({N} or {1,N}) as {1,1,1,N}, DirectML's layouts.
    const Dims a_matrix = as_matrix(a_dims), b_matrix = as_matrix(b_dims);
    std::map<size_t, Dims> quant_sizes;
    for (auto [input, column] : {std::pair{size_t(1), false}, {size_t(2), false}, {size_t(4), true},
                                 {size_t(5), true}, {size_t(6), false}, {size_t(7), false}}) {
        if (!c.has_input(input)) continue;
        TRY_ASSIGN(info, c.input(input));
        int64_t count = 1;
        for (int64_t d : info.shape) count *= d;
        Dims sizes{1, 1, 1, 1};
        const uint32_t want = column ? b_matrix[3] : a_matrix[2];
        if (count != 1 && count != int64_t(want))
            return unsupported_node("QLinearMatMul quantization parameter '" + c.node().inputs[input] + "' has " +
                                    std::to_string(count) + " values (expected 1 or " + std::to_string(want) + ")");
        if (count != 1) sizes[column ? 3 : 2] = want;
        quant_sizes[input] = sizes;
    }
    const auto add_quant = [&](size_t input, const char* member, DataType type) {
        if (!quant_sizes.count(input)) return;
        m.desc[member] = tensor_json(type, quant_sizes[input]);
        m.inputs[member] = c.source(input, quant_sizes[input], std::nullopt);
    };
    m.desc["ATensor"] = tensor_json(a.type, a_matrix);
    m.inputs["ATensor"] = c.source(0, a_matrix, std::nullopt);
    add_quant(1, "AScaleTensor", DataType::kFloat32);
    add_quant(2, "AZeroPointTensor", a.type);
    m.desc["BTensor"] = tensor_json(b.type, b_matrix);
    m.inputs["BTensor"] = c.source(3, b_matrix, std::nullopt);
    add_quant(4, "BScaleTensor", DataType::kFloat32);
    add_quant(5, "BZeroPointTensor", b.type);
    add_quant(6, "OutputScaleTensor", DataType::kFloat32);
    add_quant(7, "OutputZeroPointTensor", y.type);
    m.desc["OutputTensor"] = tensor_json(y.type, as_matrix(y_dims));
    return mapped(std::move(m));
}

using Mapper = std::function<Result<NodeMapping>(const NodeContext&)>;

const std::map<std::string, Mapper>& mappers() {
    static const std::map<std::string, Mapper> table = [] {
        std::map<std::string, Mapper> t;
        t["QLinearConv"] = map_qlinear_conv;
        t["Conv"] = map_conv;
        t["QuantizeLinear"] = [](const NodeContext& c) {
            return map_quantize(c, "DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR");
        };
        t["DequantizeLinear"] = [](const NodeContext& c) {
            return map_quantize(c, "DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR");
        };
        t["com.microsoft:QLinearAdd"] = map_qlinear_add;
        for (auto [onnx, dml] : {std::pair{"Add", "ADD"}, {"Sub", "SUBTRACT"}, {"Mul", "MULTIPLY"}, {"Div", "DIVIDE"},
                                 {"Pow", "POW"}, {"Max", "MAX"}, {"Min", "MIN"}, {"Equal", "LOGICAL_EQUALS"},
                                 {"Greater", "LOGICAL_GREATER_THAN"}, {"Less", "LOGICAL_LESS_THAN"},
                                 {"And", "LOGICAL_AND"}, {"Or", "LOGICAL_OR"}, {"Xor", "LOGICAL_XOR"}}) {
            const std::string name = std::string("DML_OPERATOR_ELEMENT_WISE_") + dml;
            t[onnx] = [name](const NodeContext& c) { return map_binary(c, name); };
        }
        for (auto [onnx, dml] : {std::pair{"Sigmoid", "ACTIVATION_SIGMOID"}, {"Relu", "ACTIVATION_RELU"},
                                 {"Tanh", "ACTIVATION_TANH"}, {"Softsign", "ACTIVATION_SOFTSIGN"},
                                 {"Exp", "ELEMENT_WISE_EXP"}, {"Log", "ELEMENT_WISE_LOG"},
                                 {"Sqrt", "ELEMENT_WISE_SQRT"}, {"Abs", "ELEMENT_WISE_ABS"},
                                 {"Erf", "ELEMENT_WISE_ERF"}, {"Floor", "ELEMENT_WISE_FLOOR"},
                                 {"Ceil", "ELEMENT_WISE_CEIL"}, {"Reciprocal", "ELEMENT_WISE_RECIP"},
                                 {"Sin", "ELEMENT_WISE_SIN"}, {"Cos", "ELEMENT_WISE_COS"},
                                 {"Neg", "ELEMENT_WISE_NEGATE"}, {"Not", "ELEMENT_WISE_LOGICAL_NOT"},
                                 {"Sign", "ELEMENT_WISE_SIGN"}, {"IsNaN", "ELEMENT_WISE_IS_NAN"}}) {
            const std::string name = std::string("DML_OPERATOR_") + dml;
            t[onnx] = [name](const NodeContext& c) { return map_unary(c, name); };
        }
        t["LeakyRelu"] = [](const NodeContext& c) {
            return map_unary(c, "DML_OPERATOR_ACTIVATION_LEAKY_RELU", {{"Alpha", c.node().float_attribute("alpha", 0.01f)}});
        };
        t["Elu"] = [](const NodeContext& c) {
            return map_unary(c, "DML_OPERATOR_ACTIVATION_ELU", {{"Alpha", c.node().float_attribute("alpha", 1.0f)}});
        };
        t["HardSigmoid"] = [](const NodeContext& c) {
            return map_unary(c, "DML_OPERATOR_ACTIVATION_HARD_SIGMOID",
                             {{"Alpha", c.node().float_attribute("alpha", 0.2f)},
                              {"Beta", c.node().float_attribute("beta", 0.5f)}});
        };
        t["Softplus"] = [](const NodeContext& c) {
            return map_unary(c, "DML_OPERATOR_ACTIVATION_SOFTPLUS", {{"Steepness", 1.0}});
        };
        t["Clip"] = map_clip;
        t["Resize"] = map_resize;
        t["Split"] = map_split;
        t["Concat"] = map_concat;
        t["MaxPool"] = [](const NodeContext& c) { return map_pooling(c, true, false, false); };
        t["AveragePool"] = [](const NodeContext& c) { return map_pooling(c, false, false, false); };
        t["GlobalAveragePool"] = [](const NodeContext& c) { return map_pooling(c, false, true, false); };
        t["com.microsoft:QLinearGlobalAveragePool"] = [](const NodeContext& c) {
            return map_pooling(c, false, true, true);
        };
        t["Gemm"] = map_gemm;
        t["QLinearMatMul"] = map_qlinear_matmul;
        return t;
    }();
    return table;
}

// Nodes that only relabel a tensor's shape: DirectML reads the same bytes with the next operator's tensor desc.
bool layout_only(const Node& node) {
    static const std::set<std::string> kinds = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity"};
    return node.domain.empty() && kinds.count(node.op_type) > 0;
}

}  // namespace

Result<HostTensor> lay_out(const HostTensor& source, const Dims& sizes, const std::optional<Dims>& strides) {
    TensorDesc desc;
    desc.data_type = source.data_type();
    desc.sizes = sizes;
    (void)validate_tensor_desc(desc, TensorRole::kInput, false);
    HostTensor out(desc);
    const Dims effective = strides ? *strides : packed_strides(sizes);
    std::vector<uint32_t> coordinates(sizes.size());
    for (uint64_t e = 0; e < out.element_count(); ++e) {
        unravel_index(e, sizes, coordinates.data());
        uint64_t offset = 0;
        for (size_t d = 0; d < sizes.size(); ++d) offset += uint64_t(coordinates[d]) * effective[d];
        if (offset >= source.element_count())
            return internal_error("a tensor of " + std::to_string(source.element_count()) +
                                  " elements laid out as a member of " + std::to_string(out.element_count()) +
                                  " reads element " + std::to_string(offset));
        std::memcpy(out.element_ptr(e), source.element_ptr(offset), out.element_bytes());
    }
    return out;
}

Result<NodeMapping> map_node(const Model& model, const Node& node) {
    if (layout_only(node)) {
        NodeMapping m;
        m.kind = NodeMapping::Kind::kLayoutOnly;
        return m;
    }
    const std::string key = node.domain.empty() ? node.op_type : node.domain + ":" + node.op_type;
    auto it = mappers().find(key);
    if (it == mappers().end()) return unsupported_node("no DirectML mapping for " + key);
    NodeContext context(model, node);
    TRY_ASSIGN(mapping, it->second(context));
    // Every mapper emits one case whose output members are the node's outputs in order.
    for (MappedCase& c : mapping.cases) {
        if (c.desc.contains("OutputTensor")) c.outputs["OutputTensor"] = node.outputs.at(0);
        if (c.desc.contains("OutputTensors"))
            for (size_t i = 0; i < c.desc["OutputTensors"].size() && i < node.outputs.size(); ++i)
                c.outputs["OutputTensors[" + std::to_string(i) + "]"] = node.outputs[i];
    }
    return mapping;
}

std::vector<std::string> mapped_onnx_operators() {
    std::vector<std::string> names;
    for (const auto& [key, mapper] : mappers()) names.push_back(key);
    return names;
}

}  // namespace dmltool::model_import
