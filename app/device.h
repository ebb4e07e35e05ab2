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
// One line per adapter the GPU runtime can see, or a line saying why none can be listed.
std::vector<std::string> describe_adapters();

}  // namespace dmltool::app
