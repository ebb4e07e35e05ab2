// Where the app gets its device backend. The D3D12 backend lives in gpu/; this header keeps app/ free of it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/commands.h"
#include "core/backend.h"

namespace dmltool::app {

// kDevice when no device can be created (exit code 3).
Result<std::unique_ptr<Backend>> make_gpu_backend(const DeviceOptions& options, const SemanticsOptions& semantics);
// Microsoft's DirectML.dll on the chosen adapter (Windows build only: elsewhere kDevice with the reason).
Result<std::unique_ptr<Backend>> make_directml_backend(const DeviceOptions& options);
// "DirectML: <dll>, max feature level 6_4, ..." or "DirectML: not available: <why>", for `dmltool list`.
std::string describe_directml(const DeviceOptions& options);
// One line per adapter the GPU runtime can see, or a line saying why none can be listed.
std::vector<std::string> describe_adapters();

}  // namespace dmltool::app
