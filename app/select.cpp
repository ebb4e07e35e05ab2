#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "app/commands.h"
#include "app/device.h"

namespace dmltool::app {

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

std::string join(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

std::vector<std::pair<std::string, std::string>> describe_shared_options(const Selection& selection, const RunOptions& run,
                                                                         const DeviceOptions& device, unsigned threads) {
    return {{"backend", backend_choice_name(run.backend)},
            {"feature_level_cap", run.feature_level_cap.to_string()},
            {"filter", selection.filter},
            {"tags", join(selection.tags, ",")},
            {"exclude_tags", join(selection.exclude_tags, ",")},
            {"shard", std::to_string(selection.shard_index) + "/" + std::to_string(selection.shard_count)},
            {"nearest_rule", std::string(nearest_rule_name(run.semantics.resample_nearest_rule))},
            {"adapter", device.adapter},
            {"threads", threads ? std::to_string(threads) : "all"},
            {"autotune", std::string(tuning_mode_name(device.autotune))}};
}

Status check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs) {
    namespace fs = std::filesystem;
    for (const auto& [option, path] : outputs) {
        if (path.empty()) continue;
        const std::string what = option + " " + path + ": ";
        std::error_code ec;
        // Decided on the resolved path: "out/../r.json" needs out/ to exist, as the write would.
        const fs::path target = fs::absolute(fs::path(path), ec);
        const fs::path directory = target.parent_path();
        if (fs::is_directory(target, ec)) return invalid_input(what + "expected a file name, found a directory");
        if (!fs::exists(directory, ec))
            return invalid_input(what + "the directory " + directory.string() + " does not exist");
        if (!fs::is_directory(directory, ec))
            return invalid_input(what + directory.string() + " is not a directory");
        // Writable: opened for appending (nothing of an existing file changes); a file this check created goes.
        const bool existed = fs::exists(target, ec);
        errno = 0;
        std::ofstream probe(path, std::ios::app);  // as the report writers open it
        if (!probe) {
            const int error = errno;
            return invalid_input(what + "cannot be written (" + (error ? std::strerror(error) : "cannot open") + ")");
        }
        probe.close();
        if (!existed) fs::remove(target, ec);
    }
    return Status::ok();
}

int report_error(const Status& status, int exit_code) {
    std::fprintf(stderr, "dmltool: error: %s\n", status.message().c_str());
    return exit_code;
}

}  // namespace dmltool::app
