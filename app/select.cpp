#include <cstdio>

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

int report_error(const Status& status, int exit_code) {
    std::fprintf(stderr, "dmltool: error: %s\n", status.message().c_str());
    return exit_code;
}

}  // namespace dmltool::app
