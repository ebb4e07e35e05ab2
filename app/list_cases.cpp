// `dmltool list FILES...`: what the case files hold once sweeps are expanded and derived outputs filled in, one
// line per case, or (--json) as one {"cases": [...]} document that `dmltool validate` and other tools read.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/report.h"

namespace dmltool::app {
namespace {

std::string shape_text(const TensorDesc& desc) {
    std::string out;
    for (size_t d = 0; d < desc.sizes.size(); ++d) out += (d ? "x" : "") + std::to_string(desc.sizes[d]);
    return out;
}

// "FLOAT32  16x64x256x256 -> 16x16x512x512": the first input's data type, the input tensors that hold more
// than one element (per-tensor scales and zero points would only add noise), then every output.
std::string case_summary(const CaseSpec& spec) {
    std::string inputs, outputs, data_type;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        if (!slot.desc) continue;
        if (slot.role == TensorRole::kInput) {
            if (data_type.empty()) data_type = std::string(data_type_name(slot.desc->data_type));
            if (slot.desc->element_count() > 1) inputs += (inputs.empty() ? "" : ", ") + shape_text(*slot.desc);
        } else {
            outputs += (outputs.empty() ? "" : ", ") + shape_text(*slot.desc);
        }
    }
    return std::string(spec.op->name()) + "  FL " + spec.min_feature_level.to_string() + "  " + data_type + "  " +
           inputs + " -> " + outputs;
}

}  // namespace

int list_cases_command(const ListCasesOptions& options, const OpRegistry& registry) {
    std::vector<CaseFile> files;
    for (const std::string& path : options.files)
        files.push_back(load_case_file(path, registry, options.limits, options.json));
    std::vector<std::string> invalid;
    size_t valid = 0;
    for (const CaseFile& file : files) {
        if (!file.status.is_ok()) invalid.push_back(file.status.message());
        for (const LoadedCase& c : file.cases)
            if (!c.status.is_ok()) invalid.push_back(c.status.message());
            else ++valid;
    }
    if (options.json) {
        // Nothing on stdout unless every case loads: a partial document would look complete to the reader.
        for (const std::string& message : invalid) std::fprintf(stderr, "[INVALID] %s\n", message.c_str());
        if (!invalid.empty()) {
            std::fprintf(stderr, "dmltool: list --json: %zu invalid cases, no document written\n", invalid.size());
            return 2;
        }
        nlohmann::json cases = nlohmann::json::array();
        for (CaseFile& file : files)
            for (LoadedCase& c : file.cases) cases.push_back(std::move(c.expanded));
        std::printf("%s\n", nlohmann::json{{"cases", std::move(cases)}}.dump(1).c_str());
        return 0;
    }
    for (const CaseFile& file : files) {
        if (!file.status.is_ok()) {
            std::printf("[INVALID] %s\n", file.status.message().c_str());
            continue;
        }
        size_t width = 0;
        for (const LoadedCase& c : file.cases)
            if (c.status.is_ok()) width = std::max(width, c.spec.name.size());
        for (const LoadedCase& c : file.cases) {
            if (!c.status.is_ok())
                std::printf("[INVALID] %s\n", c.status.message().c_str());
            else
                std::printf("%-*s  %s\n", int(width), c.spec.name.c_str(), case_summary(c.spec).c_str());
        }
    }
    std::printf("dmltool: %s in %s: %zu valid, %zu invalid\n", count_of(valid + invalid.size(), "case").c_str(),
                count_of(files.size(), "file").c_str(), valid, invalid.size());
    return invalid.empty() ? 0 : 2;
}

}  // namespace dmltool::app
