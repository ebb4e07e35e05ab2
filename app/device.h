// Where the app gets its device backend. The D3D12 backend lives in gpu/; this header keeps app/ free of it.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "app/commands.h"
#include "core/backend.h"

namespace dmltool::app {

// kDevice when no device can be created (exit code 3).
Result<std::unique_ptr<Backend>> make_gpu_backend(const DeviceOptions& options, const SemanticsOptions& semantics);
// Microsoft's DirectML.dll on the chosen adapter (Windows build only: elsewhere kDevice with the reason).
Result<std::unique_ptr<Backend>> make_directml_backend(const DeviceOptions& options);
// "DirectML: <dll>, max feature level 6_4, ..." or "DirectML: not available: <why>", for `dmltool list`, with the
// loaded DLL's version when it has one.
struct DirectMlDescription {
    std::string line;
    std::optional<std::string> version;
};
DirectMlDescription describe_directml(const DeviceOptions& options);
// The deviation registries this build ships (gpu/directml/deviations/*.json): source path and text.
std::vector<std::pair<std::string, std::string>> shipped_deviation_registries();
// Whether the backend runs on a software adapter (lavapipe, WARP: a CPU pretending to be a GPU), where caches are
// the host's and timing noise is the host's: cold mode caps its flush and the throttle flag stays off by default.
bool is_software_device(const Backend& device);
// One line per adapter the GPU runtime can see, or a line saying why none can be listed.
std::vector<std::string> describe_adapters();

}  // namespace dmltool::app
