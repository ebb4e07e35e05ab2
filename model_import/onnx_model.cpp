#include "model_import/onnx_model.h"

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace dmltool::model_import {
namespace {

constexpr const char* kMicrosoftDomain = "com.microsoft";

Status model_error(const std::filesystem::path& file, const std::string& what) {
    return invalid_input(file.string() + ": " + what);
}

std::optional<DataType> to_data_type(int32_t onnx_type) {
    switch (onnx_type) {
        case onnx::TensorProto::FLOAT: return DataType::kFloat32;
        case onnx::TensorProto::FLOAT16: return DataType::kFloat16;
        case onnx::TensorProto::DOUBLE: return DataType::kFloat64;
        case onnx::TensorProto::UINT8: return DataType::kUint8;
        case onnx::TensorProto::INT8: return DataType::kInt8;
        case onnx::TensorProto::UINT16: return DataType::kUint16;
        case onnx::TensorProto::INT16: return DataType::kInt16;
        case onnx::TensorProto::UINT32: return DataType::kUint32;
        case onnx::TensorProto::INT32: return DataType::kInt32;
        case onnx::TensorProto::UINT64: return DataType::kUint64;
        case onnx::TensorProto::INT64: return DataType::kInt64;
        case onnx::TensorProto::BOOL: return DataType::kUint8;  // DirectML has no bool: ONNX Runtime's EP uses UINT8
        default: return std::nullopt;
    }
}

// A tensor type's static shape, or nullopt when a dimension is unknown or symbolic.
std::optional<TensorInfo> static_info(const onnx::TypeProto& type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return std::nullopt;
    const auto data_type = to_data_type(type.tensor_type().elem_type());
    if (!data_type) return std::nullopt;
    TensorInfo info{*data_type, {}};
    for (const auto& dim : type.tensor_type().shape().dim()) {
        if (!dim.has_dim_value()) return std::nullopt;
        info.shape.push_back(dim.dim_value());
    }
    return info;
}

// Reads the bytes of an initializer stored outside the model (data_location EXTERNAL) into raw_data.
Status load_external_data(const std::filesystem::path& file, onnx::TensorProto& tensor) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto& entry : tensor.external_data()) {
        if (entry.key() == "location") location = entry.value();
        if (entry.key() == "offset") offset = std::stoll(entry.value());
        if (entry.key() == "length") length = std::stoll(entry.value());
    }
    const std::filesystem::path data = file.parent_path() / location;
    std::ifstream in(data, std::ios::binary);
    if (location.empty() || !in)
        return model_error(file, "the external data of initializer '" + tensor.name() + "' (" +
                                     (location.empty() ? std::string("no location given") : "'" + data.string() + "'") +
                                     ") cannot be read: keep the data file beside the model");
    in.seekg(0, std::ios::end);
    const int64_t size = in.tellg();
    if (length < 0) length = size - offset;
    if (offset < 0 || offset + length > size)
        return model_error(file, "the external data of initializer '" + tensor.name() + "' in '" + data.string() +
                                     "' is truncated: expected " + std::to_string(offset + length) +
                                     " bytes, found " + std::to_string(size));
    std::string bytes(size_t(length), '\0');
    in.seekg(offset);
    in.read(bytes.data(), length);
    tensor.set_raw_data(std::move(bytes));
    tensor.clear_external_data();
    tensor.set_data_location(onnx::TensorProto::DEFAULT);
    return Status::ok();
}

// An initializer as a logical host tensor (a scalar is {1}).
Result<HostTensor> to_host_tensor(const std::filesystem::path& file, const onnx::TensorProto& t) {
    const auto type = to_data_type(t.data_type());
    if (!type) return model_error(file, "initializer '" + t.name() + "' has an element type dmltool cannot read");
    TensorDesc desc;
    desc.data_type = *type;
    for (int64_t d : t.dims()) {
        if (d <= 0 || d > int64_t(kMaxElementCount))
            return model_error(file, "initializer '" + t.name() + "' has a dimension of " + std::to_string(d));
        desc.sizes.push_back(uint32_t(d));
    }
    if (desc.sizes.empty()) desc.sizes = {1};
    if (desc.sizes.size() > kMaxDimensionCount)
        return model_error(file, "initializer '" + t.name() + "' has rank " + std::to_string(desc.sizes.size()) +
                                     ", more than DirectML's 8");
    if (Status s = validate_tensor_desc(desc, TensorRole::kInput, false); !s.is_ok())
        return model_error(file, "initializer '" + t.name() + "': " + s.message());
    HostTensor host(desc);
    const uint64_t count = host.element_count();
    const size_t element = host.element_bytes();
    if (t.has_raw_data()) {
        if (t.raw_data().size() != count * element)
            return model_error(file, "initializer '" + t.name() + "' holds " + std::to_string(t.raw_data().size()) +
                                         " bytes; its shape needs " + std::to_string(count * element));
        std::memcpy(host.bytes().data(), t.raw_data().data(), t.raw_data().size());
        return host;
    }
    auto need = [&](int64_t have) -> Status {
        if (uint64_t(have) == count) return Status::ok();
        return model_error(file, "initializer '" + t.name() + "' holds " + std::to_string(have) +
                                     " values; its shape needs " + std::to_string(count));
    };
    switch (t.data_type()) {
        case onnx::TensorProto::FLOAT:
            if (Status s = need(t.float_data_size()); !s.is_ok()) return s;
            for (uint64_t i = 0; i < count; ++i) host.set<float>(i, t.float_data(int(i)));
            break;
        case onnx::TensorProto::DOUBLE:
            if (Status s = need(t.double_data_size()); !s.is_ok()) return s;
            for (uint64_t i = 0; i < count; ++i) host.set<double>(i, t.double_data(int(i)));
            break;
        case onnx::TensorProto::INT64:
            if (Status s = need(t.int64_data_size()); !s.is_ok()) return s;
            for (uint64_t i = 0; i < count; ++i) host.set<int64_t>(i, t.int64_data(int(i)));
            break;
        case onnx::TensorProto::UINT32:
        case onnx::TensorProto::UINT64:
            if (Status s = need(t.uint64_data_size()); !s.is_ok()) return s;
            for (uint64_t i = 0; i < count; ++i) host.set_from_double(i, double(t.uint64_data(int(i))));
            break;
        case onnx::TensorProto::FLOAT16:  // the bits, one per int32_data entry
            if (Status s = need(t.int32_data_size()); !s.is_ok()) return s;
            for (uint64_t i = 0; i < count; ++i) host.set<uint16_t>(i, uint16_t(t.int32_data(int(i))));
            break;
        default:  // 8-, 16- and 32-bit integers and bool: int32_data
            if (Status s = need(t.int32_data_size()); !s.is_ok()) return s;
            for (uint64_t i = 0; i < count; ++i) host.set_from_double(i, double(t.int32_data(int(i))));
            break;
    }
    return host;
}

void set_shape(onnx::ValueInfoProto& value, int32_t elem_type, const std::vector<int64_t>& shape) {
    auto* tensor_type = value.mutable_type()->mutable_tensor_type();
    tensor_type->set_elem_type(elem_type);
    auto* out = tensor_type->mutable_shape();
    out->clear_dim();
    for (int64_t d : shape) out->add_dim()->set_dim_value(d);
}

// ONNX Runtime's contrib operators have no schema in ONNX's library, so its shape inference stops at them: their
// outputs' shapes are written here (the same rules as ONNX Runtime's contrib schemas), and inference runs again
// for the nodes after them. Returns how many outputs got a shape.
int infer_contrib_shapes(onnx::ModelProto& model) {
    std::map<std::string, std::pair<int32_t, std::vector<int64_t>>> known;
    auto remember = [&](const onnx::ValueInfoProto& v) {
        if (auto info = static_info(v.type()))
            known[v.name()] = {v.type().tensor_type().elem_type(), info->shape};
    };
    auto* graph = model.mutable_graph();
    for (const auto& v : graph->input()) remember(v);
    for (const auto& v : graph->value_info()) remember(v);
    for (const auto& v : graph->output()) remember(v);
    for (const auto& t : graph->initializer())
        known[t.name()] = {t.data_type(), std::vector<int64_t>(t.dims().begin(), t.dims().end())};
    int added = 0;
    for (const auto& node : graph->node()) {
        if (node.domain() != kMicrosoftDomain || node.output_size() < 1 || known.count(node.output(0))) continue;
        std::optional<std::pair<int32_t, std::vector<int64_t>>> out;
        if ((node.op_type() == "QLinearAdd" || node.op_type() == "QLinearMul") && node.input_size() >= 4 &&
            known.count(node.input(0)) && known.count(node.input(3))) {
            const auto& a = known[node.input(0)].second;
            const auto& b = known[node.input(3)].second;
            std::vector<int64_t> shape(std::max(a.size(), b.size()), 1);
            bool ok = true;
            for (size_t i = 0; i < shape.size(); ++i) {
                const int64_t da = i + a.size() >= shape.size() ? a[i + a.size() - shape.size()] : 1;
                const int64_t db = i + b.size() >= shape.size() ? b[i + b.size() - shape.size()] : 1;
                ok = ok && (da == db || da == 1 || db == 1);
                shape[i] = std::max(da, db);
            }
            if (ok) out = {{known[node.input(0)].first, shape}};
        } else if (node.op_type() == "QLinearGlobalAveragePool" && known.count(node.input(0))) {
            auto shape = known[node.input(0)].second;
            bool channels_last = false;
            for (const auto& a : node.attribute())
                if (a.name() == "channels_last") channels_last = a.i() != 0;
            for (size_t i = channels_last ? 1 : 2; i < shape.size() - (channels_last ? 1 : 0); ++i) shape[i] = 1;
            out = {{known[node.input(0)].first, shape}};
        }
        if (out) {
            auto* value = graph->add_value_info();
            value->set_name(node.output(0));
            set_shape(*value, out->first, out->second);
            known[node.output(0)] = *out;
            ++added;
        }
    }
    return added;
}

}  // namespace

const Attribute* Node::attribute(const std::string& key) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? nullptr : &it->second;
}
int64_t Node::int_attribute(const std::string& key, int64_t fallback) const {
    const Attribute* a = attribute(key);
    return a && a->kind == Attribute::Kind::kInt ? a->i : fallback;
}
float Node::float_attribute(const std::string& key, float fallback) const {
    const Attribute* a = attribute(key);
    return a && a->kind == Attribute::Kind::kFloat ? a->f : fallback;
}
std::string Node::string_attribute(const std::string& key, const std::string& fallback) const {
    const Attribute* a = attribute(key);
    return a && a->kind == Attribute::Kind::kString ? a->s : fallback;
}
std::vector<int64_t> Node::ints_attribute(const std::string& key) const {
    const Attribute* a = attribute(key);
    return a && a->kind == Attribute::Kind::kInts ? a->ints : std::vector<int64_t>{};
}

const TensorInfo* Model::info(const std::string& tensor) const {
    auto it = tensors.find(tensor);
    return it == tensors.end() ? nullptr : &it->second;
}
const HostTensor* Model::initializer(const std::string& tensor) const {
    auto it = initializers.find(tensor);
    return it == initializers.end() ? nullptr : &it->second;
}

Result<Model> read_model(const std::filesystem::path& file, const ReadOptions& options) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return io_error(file.string() + ": cannot open the model");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string data = bytes.str();
    onnx::ModelProto proto;
    if (data.empty() || !proto.ParseFromString(data))
        return model_error(file, "not an ONNX model (" +
                                     std::string(data.empty() ? "the file is empty"
                                                              : "its bytes are not an ONNX protobuf: truncated, or "
                                                                "another format") + ")");
    if (!proto.has_graph() || proto.ir_version() <= 0 || proto.opset_import_size() == 0)
        return model_error(file, "not an ONNX model (no graph, IR version or opset import in the protobuf)");

    Model model;
    model.name = proto.graph().name().empty() ? file.stem().string() : proto.graph().name();
    const auto& versions = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    for (const auto& opset : proto.opset_import()) {
        const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
        if (domain.empty()) {
            const int64_t newest = versions.at("").second;
            if (opset.version() < 1 || opset.version() > newest)
                return model_error(file, "opset " + std::to_string(opset.version()) +
                                             " of the ONNX domain is unknown: this build's ONNX library knows 1 to " +
                                             std::to_string(newest));
            model.onnx_opset = opset.version();
        }
    }
    for (auto& tensor : *proto.mutable_graph()->mutable_initializer())
        if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
            if (Status s = load_external_data(file, tensor); !s.is_ok()) return s;
    try {
        onnx::checker::check_model(proto);
    } catch (const std::exception& e) {
        std::string what = e.what();
        std::replace(what.begin(), what.end(), '\n', ' ');
        return model_error(file, "ONNX's checker rejects the model: " + what);
    }

    // The batch dimension: the first dimension of every graph input that is not an initializer.
    std::set<std::string> initializer_names;
    for (const auto& t : proto.graph().initializer()) initializer_names.insert(t.name());
    for (auto& input : *proto.mutable_graph()->mutable_input()) {
        if (initializer_names.count(input.name()) || !input.type().has_tensor_type()) continue;
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        for (int d = 0; d < shape->dim_size(); ++d) {
            auto* dim = shape->mutable_dim(d);
            if (dim->has_dim_value() && dim->dim_value() > 0) continue;
            const std::string symbol = dim->has_dim_param() ? "'" + dim->dim_param() + "'" : "unknown";
            if (d != 0)
                return model_error(file, "input '" + input.name() + "' dimension " + std::to_string(d) + " is " +
                                             symbol + ": dmltool import resolves only the batch dimension (--batch N)");
            if (!options.batch)
                return model_error(file, "input '" + input.name() + "' has a symbolic batch dimension (" + symbol +
                                             "): give --batch N");
            dim->clear_dim_param();
            dim->set_dim_value(*options.batch);
        }
    }
    try {
        for (int round = 0; round < 1000; ++round) {
            onnx::shape_inference::InferShapes(proto);
            if (infer_contrib_shapes(proto) == 0) break;
        }
    } catch (const std::exception& e) {
        std::string what = e.what();
        std::replace(what.begin(), what.end(), '\n', ' ');
        return model_error(file, "ONNX shape inference failed: " + what);
    }

    const auto& graph = proto.graph();
    auto add_info = [&](const onnx::ValueInfoProto& v) {
        if (auto info = static_info(v.type())) model.tensors[v.name()] = *info;
    };
    for (const auto& v : graph.input()) add_info(v);
    for (const auto& v : graph.value_info()) add_info(v);
    for (const auto& v : graph.output()) add_info(v);
    for (const auto& t : graph.initializer()) {
        auto host = to_host_tensor(file, t);
        if (!host.is_ok()) return host.status();
        TensorInfo info{host->data_type(), std::vector<int64_t>(t.dims().begin(), t.dims().end())};
        model.tensors[t.name()] = info;
        model.initializers.emplace(t.name(), std::move(*host));
    }
    int index = 0;
    for (const auto& n : graph.node()) {
        Node node;
        node.op_type = n.op_type();
        node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
        node.name = n.name().empty() ? n.op_type() + "#" + std::to_string(index) : n.name();
        node.inputs.assign(n.input().begin(), n.input().end());
        node.outputs.assign(n.output().begin(), n.output().end());
        for (const auto& a : n.attribute()) {
            Attribute attribute;
            switch (a.type()) {
                case onnx::AttributeProto::INT: attribute.kind = Attribute::Kind::kInt; attribute.i = a.i(); break;
                case onnx::AttributeProto::FLOAT: attribute.kind = Attribute::Kind::kFloat; attribute.f = a.f(); break;
                case onnx::AttributeProto::STRING: attribute.kind = Attribute::Kind::kString; attribute.s = a.s(); break;
                case onnx::AttributeProto::INTS:
                    attribute.kind = Attribute::Kind::kInts;
                    attribute.ints.assign(a.ints().begin(), a.ints().end());
                    break;
                case onnx::AttributeProto::FLOATS:
                    attribute.kind = Attribute::Kind::kFloats;
                    attribute.floats.assign(a.floats().begin(), a.floats().end());
                    break;
                default: break;
            }
            node.attributes[a.name()] = std::move(attribute);
        }
        model.nodes.push_back(std::move(node));
        ++index;
    }
    return model;
}

}  // namespace dmltool::model_import
