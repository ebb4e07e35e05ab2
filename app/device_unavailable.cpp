// Used until the D3D12 backend (gpu/) is wired in: says so instead of pretending.
#include "app/device.h"

namespace dmltool::app {

Result<std::unique_ptr<Backend>> make_gpu_backend(const DeviceOptions&, const SemanticsOptions&) {
    return device_error("the GPU backend is not available in this build yet; run with --backend cpu");
}

Result<std::unique_ptr<Backend>> make_directml_backend(const DeviceOptions&) {
    return device_error("the DirectML backend is not available in this build (built without the D3D12 layer)");
}

DirectMlDescription describe_directml(const DeviceOptions&) { return {"DirectML: not available in this build", {}}; }

std::vector<std::pair<std::string, std::string>> shipped_deviation_registries() { return {}; }

bool is_software_device(const Backend&) { return false; }

std::vector<std::string> describe_adapters() { return {"(GPU backend not available in this build)"}; }

}  // namespace dmltool::app
