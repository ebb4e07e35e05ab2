// Adapter choice and listing, shared by both platforms; the platform's DeviceFactory (gpu/platform.h) finds
// and describes the adapters.
#include <algorithm>
#include <cctype>

#include "gpu/platform.h"
#include "gpu/hresult.h"

namespace dmltool::gpu {
namespace {

int preference(AdapterKind kind) {
    switch (kind) {
        case AdapterKind::kDiscrete: return 0;
        case AdapterKind::kIntegrated: return 1;
        case AdapterKind::kVirtual: return 2;
        case AdapterKind::kOther: return 3;
        case AdapterKind::kCpu: return 4;
    }
    return 5;
}

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

}  // namespace

Result<uint32_t> choose_adapter(const std::vector<AdapterInfo>& adapters, const GpuContextOptions& options) {
    if (adapters.empty()) return unsupported("no D3D12 adapter found");
    if (options.adapter_index) {
        if (*options.adapter_index >= adapters.size()) {
            return invalid_input("adapter index " + std::to_string(*options.adapter_index) + " out of range: " +
                                 std::to_string(adapters.size()) + " adapter(s) present");
        }
        return *options.adapter_index;
    }
    if (!options.adapter_name_contains.empty()) {
        const std::string wanted = lowercase(options.adapter_name_contains);
        std::string names;
        for (const AdapterInfo& a : adapters) {
            if (lowercase(a.name).find(wanted) != std::string::npos) return a.index;
            names += (names.empty() ? "'" : ", '") + a.name + "'";
        }
        return invalid_input("no adapter name contains '" + options.adapter_name_contains + "'; present: " + names);
    }
    const AdapterInfo* best = nullptr;
    for (const AdapterInfo& a : adapters) {
        if (a.kind == AdapterKind::kCpu && !options.allow_cpu_adapter) continue;
        if (best == nullptr || preference(a.kind) < preference(best->kind)) best = &a;
    }
    if (best == nullptr) return unsupported("only CPU (software) adapters present and allow_cpu_adapter is off");
    return best->index;
}

const char* adapter_kind_name(AdapterKind kind) {
    switch (kind) {
        case AdapterKind::kDiscrete: return "discrete";
        case AdapterKind::kIntegrated: return "integrated";
        case AdapterKind::kVirtual: return "virtual";
        case AdapterKind::kCpu: return "cpu";
        case AdapterKind::kOther: return "other";
    }
    return "unknown";
}

Result<std::vector<AdapterInfo>> list_adapters() {
    DMLTOOL_ASSIGN_OR_RETURN(std::unique_ptr<DeviceFactory> factory, DeviceFactory::open());
    return factory->adapters();
}

}  // namespace dmltool::gpu
