#include "gpu/fault_injector.h"

#include <charconv>

namespace dmltool::gpu {
namespace {

// DXGI codes spelled out: DirectX-Headers' Linux stubs do not define all of them.
// vkd3d_create_device returns E_FAIL for a Vulkan device that cannot be created (VK_ERROR_INITIALIZATION_FAILED).
constexpr HRESULT kDeviceCreationFailed = static_cast<HRESULT>(0x80004005u);  // E_FAIL
constexpr HRESULT kOutOfMemory = static_cast<HRESULT>(0x8007000eu);           // E_OUTOFMEMORY
constexpr HRESULT kDeviceRemoved = static_cast<HRESULT>(0x887a0005u);         // DXGI_ERROR_DEVICE_REMOVED

Status plan_error(std::string_view text, std::string_view item) {
    return invalid_input("DMLTOOL_INJECT_FAULT: expected create[@K], oom@N or removed@N (comma-separated, K and N "
                         ">= 1), found '" + std::string(item) + "' in '" + std::string(text) + "'");
}

}  // namespace

Result<FaultPlan> parse_fault_plan(std::string_view text) {
    FaultPlan plan;
    size_t start = 0;
    while (start < text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view item = text.substr(start, comma - start);
        start = comma + 1;
        const size_t at = item.find('@');
        const std::string_view kind = item.substr(0, at);
        uint32_t count = 1;
        if (at != std::string_view::npos) {
            const std::string_view number = item.substr(at + 1);
            auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), count);
            if (number.empty() || error != std::errc() || end != number.data() + number.size() || count == 0)
                return plan_error(text, item);
        }
        if (kind == "create") {
            plan.fail_creation_at = count;
        } else if (kind == "oom" && at != std::string_view::npos) {
            plan.out_of_memory_at = count;
        } else if (kind == "removed" && at != std::string_view::npos) {
            plan.removed_at = count;
        } else {
            return plan_error(text, item);
        }
    }
    return plan;
}

HRESULT FaultInjector::on_device_creation() {
    return ++creations_ == plan_.fail_creation_at ? kDeviceCreationFailed : S_OK;
}

HRESULT FaultInjector::on_device_allocation() {
    if (executions_ == 0 || executions_ != plan_.out_of_memory_at || oom_fired_in_ == executions_) return S_OK;
    oom_fired_in_ = executions_;
    return kOutOfMemory;
}

HRESULT FaultInjector::on_submission() {
    if (executions_ == 0 || executions_ != plan_.removed_at || removal_fired_in_ == executions_) return S_OK;
    removal_fired_in_ = executions_;
    return kDeviceRemoved;
}

}  // namespace dmltool::gpu
