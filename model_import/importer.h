// `dmltool import MODEL.onnx --out DIR`: turns an ONNX model into one case file with one case per distinct
// (DirectML operator, desc) — identical layers deduplicated, each case tagged with the model and the nodes it
// stands for — and one HDF5 file beside it with the initializers the cases read (docs/importing-models.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/op_registry.h"
#include "core/status.h"

namespace dmltool::model_import {

struct ImportOptions {
    std::filesystem::path model;
    std::filesystem::path out_dir;
    std::optional<uint32_t> batch;  // the symbolic batch dimension's value
    std::string name;               // case name prefix and file stem; default: the model's graph name
    bool dedupe = true;             // one case per distinct (operator, desc)
    // --tensors-from: an HDF5 file with the network's tensors from one inference (one dataset per ONNX tensor,
    // named by tensor_dataset()). Every activation input of every case then reads the node's actual input and the
    // case gets the node's actual outputs as `expected`; one case per node (no deduplication). Empty: random
    // activations, no expected outputs.
    std::filesystem::path tensors_from;
};

// The dataset of ONNX tensor `name` in a --tensors-from file: "/" and the name with every byte other than an ASCII
// letter, digit, '_' or '-' written as %XX (upper-case hex): "res2a/branch1.out" -> "/res2a%2Fbranch1%2Eout".
std::string tensor_dataset(const std::string& name);

struct ImportSummary {
    std::string name;
    size_t nodes = 0;
    size_t mapped_nodes = 0;
    size_t layout_only = 0;
    std::map<std::string, size_t> unsupported;       // ONNX op type -> count
    std::map<std::string, std::string> why;          // ONNX op type -> the first reason
    std::map<std::string, size_t> cases_per_operator;  // DML operator -> cases written
    size_t cases = 0;
    std::filesystem::path case_file, data_file;

    size_t unsupported_count() const;
    // "import: NAME: N nodes, M mapped to K DirectML operators, L layout-only, U unsupported: OpType×count, ..."
    std::string line() const;
};

// Errors: the model (kInvalidInput: not ONNX, truncated, unknown opset, missing external data, unresolvable
// shape), the output folder (kIo).
Result<ImportSummary> import_model(const ImportOptions& options, const OpRegistry& registry);

}  // namespace dmltool::model_import
