// The deviation registries shipped with dmltool (gpu/directml/deviations/<version>.json), compiled into the binary
// so that a packaged dmltool.exe needs no data files beside it. Parsed by core/deviations.h.
#pragma once

#include <string>
#include <vector>

namespace dmltool::gpu {

struct EmbeddedRegistry {
    std::string source;  // "gpu/directml/deviations/1.15.4.json"
    std::string text;
};

const std::vector<EmbeddedRegistry>& embedded_deviation_registries();

}  // namespace dmltool::gpu
