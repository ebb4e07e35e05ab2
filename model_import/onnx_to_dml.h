// Maps one ONNX node onto the DirectML operator(s) ONNX Runtime's DirectML execution provider runs for it
// (docs/importing-models.md has the table and cites the provider's source file per ONNX operator). A node is
// mapped (one or more cases: a decomposition emits each operator), layout-only (Reshape, Flatten, ...: DirectML
// folds it into the next operator's tensor desc, no case), or unsupported (the reason names what is missing).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"
#include "core/tensor.h"
#include "model_import/onnx_model.h"

namespace dmltool::model_import {

// Where one input member of a case gets its data.
struct InputSource {
    enum class Kind {
        kData,        // an initializer's values as the member's logical tensor (written to the HDF5 file)
        kConstant,    // every element one value (a per-tensor scale or zero point: {"constant": v})
        kActivation,  // a value the network computes: {"random": {}} over the type's range (floats: [-1, 1])
    };
    Kind kind = Kind::kActivation;
    HostTensor data;       // kData
    double constant = 0;   // kConstant
    std::string onnx_name; // the ONNX tensor it stands for
};

struct MappedCase {
    std::string dml_operator;  // "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION"
    nlohmann::json desc = nlohmann::json::object();
    std::map<std::string, InputSource> inputs;  // by desc member ("InputTensor", "FilterTensor", ...)
    std::map<std::string, std::string> outputs;  // output desc member ("OutputTensor", "OutputTensors[1]") -> ONNX tensor
};

struct NodeMapping {
    enum class Kind { kMapped, kLayoutOnly, kUnsupported };
    Kind kind = Kind::kUnsupported;
    std::vector<MappedCase> cases;
    std::string reason;  // kUnsupported: why, in a few words
};

// Errors (kInvalidInput) are problems of the model itself, e.g. a tensor whose shape inference left unknown.
Result<NodeMapping> map_node(const Model& model, const Node& node);

// `source` (an ONNX tensor, packed in its own shape) as the logical tensor of a desc member of `sizes` read with
// `strides` (0 = broadcast; nullopt = packed): element i of the result is source's element at the strided offset of
// i's coordinates. The member's sizes may differ from the ONNX shape by leading 1s (a matrix as {1,1,M,N}) or by
// broadcast dimensions; an offset past the source's end is an error (kInternal: a mapper's mistake).
Result<HostTensor> lay_out(const HostTensor& source, const Dims& sizes, const std::optional<Dims>& strides);

// The ONNX operators map_node knows, "Domain:OpType" (ONNX domain: "OpType"), for docs and tests.
std::vector<std::string> mapped_onnx_operators();

}  // namespace dmltool::model_import
