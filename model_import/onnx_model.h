// An ONNX model as `dmltool import` needs it: its nodes in graph order, every tensor's element type and static
// shape, and its initializers as logical host tensors. Reading uses Debian's ONNX library (libonnx-dev): the
// protobuf ModelProto, onnx::checker and onnx::shape_inference (docs/importing-models.md says why that, and not
// a protobuf schema compiled with protoc). This header hides the protobuf types: the rest of the importer sees
// plain values.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/status.h"
#include "core/tensor.h"

namespace dmltool::model_import {

// One node attribute: the kinds the mapped operators read.
struct Attribute {
    enum class Kind { kInt, kFloat, kString, kInts, kFloats, kOther };
    Kind kind = Kind::kOther;
    int64_t i = 0;
    float f = 0;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
};

struct Node {
    std::string name;  // the node's name, or "<op_type>#<index>" when the model gives none
    std::string op_type;
    std::string domain;  // "" for the ONNX domain
    std::vector<std::string> inputs;  // "" for an omitted optional input
    std::vector<std::string> outputs;
    std::map<std::string, Attribute> attributes;

    const Attribute* attribute(const std::string& key) const;
    int64_t int_attribute(const std::string& key, int64_t fallback) const;
    float float_attribute(const std::string& key, float fallback) const;
    std::string string_attribute(const std::string& key, const std::string& fallback) const;
    std::vector<int64_t> ints_attribute(const std::string& key) const;
};

// A tensor's element type and static shape (every dimension known after --batch and shape inference).
struct TensorInfo {
    DataType type = DataType::kUnknown;
    std::vector<int64_t> shape;
};

struct Model {
    std::string name;  // the graph's name, or the file's stem
    int64_t onnx_opset = 0;
    std::vector<Node> nodes;
    std::map<std::string, TensorInfo> tensors;       // every value with a known type and shape
    std::map<std::string, HostTensor> initializers;  // logical values, ONNX shape (a scalar is {1})

    const TensorInfo* info(const std::string& tensor) const;
    const HostTensor* initializer(const std::string& tensor) const;
};

struct ReadOptions {
    std::optional<uint32_t> batch;  // replaces the first dimension of each graph input when it is symbolic
};

// Reads, checks and shape-infers a model. Errors are one line naming the file and what is wrong: not an ONNX
// model, truncated, an opset this build does not know, external data that is missing, a tensor whose shape
// cannot be resolved (naming the tensor and the option that fixes it).
Result<Model> read_model(const std::filesystem::path& file, const ReadOptions& options);

}  // namespace dmltool::model_import
