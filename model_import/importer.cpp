#include "model_import/importer.h"

#include <fstream>
#include <optional>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_spec.h"
#include "core/hdf5_io.h"
#include "model_import/onnx_model.h"
#include "model_import/onnx_to_dml.h"

namespace dmltool::model_import {
namespace {

using nlohmann::json;

// One case to write: a mapped desc and every node it stands for (several when identical layers were deduplicated).
struct PendingCase {
    MappedCase mapped;
    std::string onnx_op;
    std::vector<std::string> nodes;
    std::string name;
    std::map<std::string, HostTensor> expected;  // --tensors-from: output member -> the node's actual output
};

// Case and file names keep letters, digits, '_', '-' and '.'; anything else becomes '_'.
std::string sanitize(const std::string& text) {
    std::string out;
    for (char ch : text) {
        const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                          ch == '_' || ch == '-' || ch == '.';
        out += keep ? ch : '_';
    }
    return out.empty() ? std::string("model") : out;
}

std::string short_operator(const std::string& dml) {
    std::string s = dml.rfind("DML_OPERATOR_", 0) == 0 ? dml.substr(13) : dml;
    for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

json source_json(const InputSource& source, const std::string& data_file, const std::string& dataset) {
    switch (source.kind) {
        case InputSource::Kind::kData: return {{"hdf5", data_file}, {"dataset", dataset}};
        case InputSource::Kind::kConstant: return {{"constant", source.constant}};
        case InputSource::Kind::kActivation: break;
    }
    return {{"random", json::object()}};
}

// A member of an array of tensors ("InputTensors[2]", JOIN's inputs): the array's name and the index; nullopt for
// a plain member.
std::optional<std::pair<std::string, size_t>> array_member(const std::string& member) {
    const size_t open = member.find('[');
    if (open == std::string::npos || member.back() != ']') return std::nullopt;
    return std::pair{member.substr(0, open), size_t(std::stoul(member.substr(open + 1, member.size() - open - 2)))};
}

// The HDF5 dataset of a member's data: "/case/ATensor", "/case/InputTensors/2".
std::string dataset_of(const std::string& case_name, const std::string& member) {
    const auto array = array_member(member);
    return "/" + case_name + "/" + (array ? array->first + "/" + std::to_string(array->second) : member);
}

json case_json(const PendingCase& c, const std::string& model, const std::string& data_file, bool validation) {
    json inputs = json::object();
    for (const auto& [member, source] : c.mapped.inputs) {
        // Validation needs no data file: a random source of the same tensor checks the same desc.
        json value = validation && source.kind == InputSource::Kind::kData
                         ? json{{"random", json::object()}}
                         : source_json(source, data_file, dataset_of(c.name, member));
        // Arrays of tensors are arrays of sources in a case file ("InputTensors": [...]).
        if (const auto array = array_member(member)) {
            if (!inputs.contains(array->first)) inputs[array->first] = json::array();
            inputs[array->first][array->second] = std::move(value);
        } else {
            inputs[member] = std::move(value);
        }
    }
    json expected = json::object();
    for (const auto& [member, tensor] : c.expected) {
        json value = {{"hdf5", data_file}, {"dataset", dataset_of(c.name + "/expected", member)}};
        if (const auto array = array_member(member)) {
            if (!expected.contains(array->first)) expected[array->first] = json::array();
            expected[array->first][array->second] = std::move(value);
        } else {
            expected[member] = std::move(value);
        }
    }
    std::string nodes;
    for (const auto& n : c.nodes) nodes += (nodes.empty() ? "" : ", ") + n;
    json tags = {"imported", "model:" + model, "nodes:" + std::to_string(c.nodes.size())};
    if (!c.expected.empty()) tags.push_back("tensors-from");
    json result = {{"name", c.name},
            {"description", model + ": ONNX " + c.onnx_op + " (" + std::to_string(c.nodes.size()) + " node" +
                                (c.nodes.size() == 1 ? "" : "s") + "): " + nodes},
            {"operator", {{"type", c.mapped.dml_operator}, {"desc", c.mapped.desc}}},
            {"inputs", inputs}};
    if (!validation && !expected.empty()) result["expected"] = std::move(expected);
    result["tags"] = std::move(tags);
    return result;
}

// The desc member's tensor desc ("InputTensors[2]": the array's element 2).
const json& member_desc(const json& desc, const std::string& member) {
    if (const auto array = array_member(member)) return desc.at(array->first).at(array->second);
    return desc.at(member);
}

// --tensors-from: ONNX tensor `tensor` as read from the file, in its ONNX type and shape, then laid out as `member`
// of the case's desc. `role` names it in errors ("input 'InputTensor' of node 'conv1'").
Result<HostTensor> read_network_tensor(const ImportOptions& options, const Model& model, const std::string& tensor,
                                       const json& desc, const std::string& member, const std::string& role) {
    const std::string context = "--tensors-from " + options.tensors_from.string() + ": ONNX tensor '" + tensor +
                                "' (" + role + ")";
    const TensorInfo* info = model.info(tensor);
    if (!info || info->type == DataType::kUnknown) return internal_error(context + ": no static type and shape");
    TensorDesc onnx_desc;
    onnx_desc.data_type = info->type;
    for (int64_t d : info->shape) onnx_desc.sizes.push_back(uint32_t(d));
    if (onnx_desc.sizes.empty()) onnx_desc.sizes = {1};
    (void)validate_tensor_desc(onnx_desc, TensorRole::kInput, false);
    auto read = read_hdf5_tensor(options.tensors_from, tensor_dataset(tensor), onnx_desc);
    // The file is the user's input: an unreadable one is bad input (exit 2), as a case file's HDF5 source is.
    if (!read.is_ok()) return invalid_input(read.status().with_context(context).message());
    const json& member_json = member_desc(desc, member);
    std::optional<Dims> strides;
    if (member_json.contains("Strides")) strides = member_json["Strides"].get<Dims>();
    const Dims sizes = member_json.at("Sizes").get<Dims>();
    // A packed member is the ONNX tensor itself (perhaps with leading 1s): another element count means the mapper's
    // desc is not the node's tensor, which the comparison must not hide by reading part of it.
    uint64_t count = 1;
    for (uint32_t d : sizes) count *= d;
    if (!strides && count != read->element_count())
        return internal_error(context + ": the case's " + member + " has " + std::to_string(count) +
                              " elements, the ONNX tensor " + std::to_string(read->element_count()) +
                              " (the importer's desc does not match the node)");
    auto laid = lay_out(*read, sizes, strides);
    if (!laid.is_ok()) return laid.status().with_context(context);
    return laid;
}

}  // namespace

std::string tensor_dataset(const std::string& name) {
    static const char* hex = "0123456789ABCDEF";
    std::string out = "/";
    for (unsigned char ch : name) {
        const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                          ch == '_' || ch == '-';
        if (keep) {
            out += char(ch);
        } else {
            out += '%';
            out += hex[ch >> 4];
            out += hex[ch & 15];
        }
    }
    return out;
}

size_t ImportSummary::unsupported_count() const {
    size_t n = 0;
    for (const auto& [op, count] : unsupported) n += count;
    return n;
}

std::string ImportSummary::line() const {
    std::string text = "import: " + name + ": " + std::to_string(nodes) + " nodes, " + std::to_string(mapped_nodes) +
                       " mapped to " + std::to_string(cases_per_operator.size()) + " DirectML operator" +
                       (cases_per_operator.size() == 1 ? "" : "s") + ", " +
                       std::to_string(layout_only) + " layout-only, " + std::to_string(unsupported_count()) +
                       " unsupported";
    std::string list;
    for (const auto& [op, count] : unsupported) list += (list.empty() ? "" : ", ") + op + "\u00d7" + std::to_string(count);
    return list.empty() ? text : text + ": " + list;
}

Result<ImportSummary> import_model(const ImportOptions& options, const OpRegistry& registry) {
    if (!options.tensors_from.empty()) {
        std::error_code error;
        if (!std::filesystem::is_regular_file(options.tensors_from, error))
            return invalid_input("--tensors-from " + options.tensors_from.string() +
                                 ": expected an HDF5 file of the network's tensors, found no such file");
    }
    auto model = read_model(options.model, ReadOptions{options.batch});
    if (!model.is_ok()) return model.status();
    // Each node's own tensors: one case per node.
    const bool dedupe = options.dedupe && options.tensors_from.empty();
    ImportSummary summary;
    summary.name = sanitize(options.name.empty() ? model->name : options.name);

    auto mark_unsupported = [&](const std::string& op, const std::string& reason) {
        ++summary.unsupported[op];
        summary.why.emplace(op, reason);
    };
    std::vector<PendingCase> cases;
    std::map<std::string, size_t> by_desc;  // operator + desc -> index into cases
    for (const Node& node : model->nodes) {
        ++summary.nodes;
        const std::string op = node.domain.empty() ? node.op_type : node.domain + ":" + node.op_type;
        auto mapping = map_node(*model, node);
        if (!mapping.is_ok()) return mapping.status().with_context(options.model.string());
        if (mapping->kind == NodeMapping::Kind::kLayoutOnly) {
            ++summary.layout_only;
            continue;
        }
        if (mapping->kind == NodeMapping::Kind::kUnsupported) {
            mark_unsupported(op, mapping->reason);
            continue;
        }
        std::string missing;
        for (const MappedCase& c : mapping->cases)
            if (!registry.find(c.dml_operator)) missing = c.dml_operator;
        if (!missing.empty()) {
            mark_unsupported(op, "dmltool has no " + missing + " yet");
            continue;
        }
        ++summary.mapped_nodes;
        for (MappedCase& c : mapping->cases) {
            const std::string key = c.dml_operator + c.desc.dump();
            auto found = by_desc.find(key);
            if (dedupe && found != by_desc.end()) {
                cases[found->second].nodes.push_back(node.name);
                continue;
            }
            by_desc.emplace(key, cases.size());
            cases.push_back({std::move(c), op, {node.name}, ""});
        }
    }

    // Names: MODEL/operator/first-node, made unique within the file.
    std::set<std::string> names;
    for (PendingCase& c : cases) {
        std::string name = summary.name + "/" + short_operator(c.mapped.dml_operator) + "/" + sanitize(c.nodes[0]);
        for (int i = 2; names.count(name); ++i) name += "_" + std::to_string(i);
        names.insert(name);
        c.name = name;
    }

    // Every desc is checked by the case loader that `dmltool validate` uses; a desc dmltool rejects makes its nodes
    // unsupported, with the loader's message.
    std::filesystem::create_directories(options.out_dir);
    summary.case_file = options.out_dir / (summary.name + ".json");
    summary.data_file = options.out_dir / (summary.name + ".h5");
    const std::string data_name = summary.data_file.filename().string();
    std::vector<PendingCase> valid;
    for (PendingCase& c : cases) {
        json single = {{"cases", json::array({case_json(c, summary.name, data_name, true)})}};
        CaseFile loaded = load_case_text(single.dump(), summary.case_file.string(), registry);
        const Status status = !loaded.status.is_ok() ? loaded.status
                              : loaded.cases.empty() ? internal_error("no case loaded")
                                                     : loaded.cases[0].status;
        if (!status.is_ok()) {
            summary.mapped_nodes -= c.nodes.size();
            for (size_t i = 0; i < c.nodes.size(); ++i) mark_unsupported(c.onnx_op, "dmltool rejects the desc: " + status.message());
            continue;
        }
        valid.push_back(std::move(c));
    }

    std::error_code ignored;
    std::filesystem::remove(summary.data_file, ignored);
    json file = {{"comment", "Imported by `dmltool import` from " + options.model.filename().string() + " (" +
                                 std::to_string(summary.nodes) + " nodes; docs/importing-models.md). Each case stands "
                                 "for the nodes its description names (tag nodes:N)."},
                 {"cases", json::array()}};
    bool wrote_data = false;
    for (PendingCase& c : valid) {
        if (!options.tensors_from.empty()) {
            const std::string node = "node '" + c.nodes[0] + "'";
            for (auto& [member, source] : c.mapped.inputs) {
                if (source.kind != InputSource::Kind::kActivation) continue;
                auto data = read_network_tensor(options, *model, source.onnx_name, c.mapped.desc, member,
                                                "input '" + member + "' of " + node);
                if (!data.is_ok()) return data.status();
                source.kind = InputSource::Kind::kData;
                source.data = std::move(*data);
            }
            for (const auto& [member, tensor] : c.mapped.outputs) {
                auto data = read_network_tensor(options, *model, tensor, c.mapped.desc, member,
                                                "output '" + member + "' of " + node);
                if (!data.is_ok()) return data.status();
                if (Status s = write_hdf5_tensor(summary.data_file, dataset_of(c.name + "/expected", member), *data);
                    !s.is_ok())
                    return s;
                wrote_data = true;
                c.expected.emplace(member, std::move(*data));
            }
        }
        for (const auto& [member, source] : c.mapped.inputs) {
            if (source.kind != InputSource::Kind::kData) continue;
            if (Status s = write_hdf5_tensor(summary.data_file, dataset_of(c.name, member), source.data); !s.is_ok())
                return s;
            wrote_data = true;
        }
        file["cases"].push_back(case_json(c, summary.name, data_name, false));
        ++summary.cases_per_operator[short_operator(c.mapped.dml_operator)];
        ++summary.cases;
    }
    if (!wrote_data) summary.data_file.clear();
    std::ofstream out(summary.case_file);
    out << file.dump(1) << "\n";
    if (!out) return io_error(summary.case_file.string() + ": cannot write the case file");
    return summary;
}

}  // namespace dmltool::model_import
