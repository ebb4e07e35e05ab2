#include <algorithm>
#include <cstdio>
#include <regex>

#include "app/commands.h"
#include "app/device.h"

namespace dmltool::app {

Result<SelectedCases> select_cases(const Selection& selection, const OpRegistry& registry) {
    std::optional<std::regex> filter;
    if (!selection.filter.empty()) {
        try {
            filter.emplace(selection.filter, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return invalid_input("--filter: expected a regular expression, found '" + selection.filter + "' (" +
                                 e.what() + ")");
        }
    }
    SelectedCases out;
    out.files.reserve(selection.files.size());
    for (const std::string& path : selection.files) out.files.push_back(load_case_file(path, registry, selection.limits));
    auto has_any = [](const std::vector<std::string>& tags, const std::vector<std::string>& wanted) {
        return std::any_of(wanted.begin(), wanted.end(),
                           [&](const std::string& t) { return std::find(tags.begin(), tags.end(), t) != tags.end(); });
    };
    size_t position = 0;
    for (const CaseFile& file : out.files) {
        if (!file.status.is_ok()) {
            out.broken.push_back(&file);
            continue;
        }
        for (const LoadedCase& c : file.cases) {
            if (filter && !std::regex_search(c.spec.name, *filter)) continue;
            if (!selection.tags.empty() && !has_any(c.spec.tags, selection.tags)) continue;
            if (has_any(c.spec.tags, selection.exclude_tags)) continue;
            // Round-robin sharding over the filtered list: shards get similar mixes of operators.
            if (position++ % selection.shard_count != selection.shard_index) continue;
            out.cases.push_back(&c);
        }
    }
    return out;
}

Result<std::unique_ptr<Backend>> open_backend(const RunOptions& run, const DeviceOptions& device) {
    if (run.backend == BackendChoice::kCpu) return std::unique_ptr<Backend>();
    if (run.backend == BackendChoice::kAll)
        return invalid_input("--backend all: this command takes one device backend (gpu or directml)");
    const bool directml = run.backend == BackendChoice::kDirectml;
    auto backend = directml ? make_directml_backend(device) : make_gpu_backend(device, run.semantics);
    if (backend.is_ok() || backend.status().code() == ErrorCode::kInvalidInput) return backend;
    // No silent fallback: a run that asked for the GPU and got only the CPU reference would look like a pass.
    return Status(backend.status().code(),
                  std::string(directml ? "no DirectML device: " : "no GPU device: ") + backend.status().message() +
                      "; no case was run (--backend " + backend_choice_name(run.backend) +
                      " does not fall back to the CPU reference; --backend cpu runs the reference alone)");
}

Result<std::vector<std::unique_ptr<Backend>>> open_backends(const RunOptions& run, const DeviceOptions& device) {
    std::vector<std::unique_ptr<Backend>> backends;
    if (run.backend != BackendChoice::kAll) {
        DMLTOOL_ASSIGN_OR_RETURN(std::unique_ptr<Backend> one, open_backend(run, device));
        if (one) backends.push_back(std::move(one));
        return backends;
    }
    for (BackendChoice choice : {BackendChoice::kGpu, BackendChoice::kDirectml}) {
        RunOptions single = run;
        single.backend = choice;
        auto opened = open_backend(single, device);
        if (!opened.is_ok())
            return Status(opened.status().code(), "--backend all: " + opened.status().message());
        backends.push_back(std::move(opened).value());
    }
    return backends;
}

int report_error(const Status& status, int exit_code) {
    std::fprintf(stderr, "dmltool: error: %s\n", status.message().c_str());
    return exit_code;
}

}  // namespace dmltool::app
