// Adapter discovery: the vkd3d instance, its Vulkan physical devices described as AdapterInfo (with the limits
// the up-front memory checks use), and the default adapter choice.
#include <algorithm>
#include <cctype>

#include "gpu/adapters_internal.h"
#include "gpu/hresult.h"

namespace dmltool::gpu {
namespace {

AdapterKind kind_from_vulkan(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return AdapterKind::kDiscrete;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return AdapterKind::kIntegrated;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return AdapterKind::kVirtual;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return AdapterKind::kCpu;
        default: return AdapterKind::kOther;
    }
}

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

// Largest single buffer the device allows. vkd3d turns each committed D3D12 buffer into one VkBuffer with its
// own VkDeviceMemory, so both maxMemoryAllocationSize (Vulkan 1.1) and maxBufferSize (1.3) bound it. vkd3d 1.2
// creates a Vulkan 1.0 instance, so the query goes through the KHR entry point when vkd3d enabled it.
uint64_t query_max_buffer_bytes(VkInstance instance, VkPhysicalDevice device, uint32_t api_version) {
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(
        vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2KHR"));
    if (!get) get = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(
                  vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2"));
    if (!get || api_version < VK_API_VERSION_1_1) return 0;
    VkPhysicalDeviceMaintenance4Properties maintenance4{};
    maintenance4.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES;
    VkPhysicalDeviceMaintenance3Properties maintenance3{};
    maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
    if (api_version >= VK_API_VERSION_1_3) maintenance3.pNext = &maintenance4;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &maintenance3;
    get(device, &properties);
    uint64_t limit = maintenance3.maxMemoryAllocationSize;
    if (maintenance4.maxBufferSize != 0) limit = limit ? std::min<uint64_t>(limit, maintenance4.maxBufferSize) : maintenance4.maxBufferSize;
    return limit;
}

}  // namespace

Result<InstanceAndDevices> open_instance(PFN_vkd3d_signal_event signal_event) {
    vkd3d_instance_create_info info{};
    info.type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pfn_signal_event = signal_event;  // how vkd3d's fence worker signals our events
    info.wchar_size = sizeof(WCHAR);
    InstanceAndDevices out;
    const HRESULT hr = vkd3d_create_instance(&info, &out.instance);
    if (FAILED(hr)) {
        return device_error("vkd3d_create_instance failed: " + hresult_name(hr) +
                            " (is a Vulkan driver installed? e.g. mesa-vulkan-drivers for lavapipe)");
    }
    const VkInstance vk_instance = vkd3d_instance_get_vk_instance(out.instance);
    uint32_t count = 0;
    VkResult vr = vkEnumeratePhysicalDevices(vk_instance, &count, nullptr);
    if (vr == VK_SUCCESS) {
        out.devices.resize(count);
        vr = vkEnumeratePhysicalDevices(vk_instance, &count, out.devices.data());
    }
    if (vr != VK_SUCCESS) {
        vkd3d_instance_decref(out.instance);
        return device_error("vkEnumeratePhysicalDevices failed: VkResult " + std::to_string(vr));
    }
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties properties{};
        vkGetPhysicalDeviceProperties(out.devices[i], &properties);
        VkPhysicalDeviceMemoryProperties memory{};
        vkGetPhysicalDeviceMemoryProperties(out.devices[i], &memory);
        AdapterInfo adapter;
        adapter.index = i;
        adapter.name = properties.deviceName;
        adapter.kind = kind_from_vulkan(properties.deviceType);
        adapter.vendor_id = properties.vendorID;
        adapter.device_id = properties.deviceID;
        adapter.vulkan_api_version = properties.apiVersion;
        for (uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
            if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
                adapter.device_local_bytes = std::max<uint64_t>(adapter.device_local_bytes, memory.memoryHeaps[h].size);
            }
        }
        adapter.max_buffer_bytes = query_max_buffer_bytes(vk_instance, out.devices[i], properties.apiVersion);
        out.adapters.push_back(adapter);
    }
    return out;
}

Result<uint32_t> choose_adapter(const std::vector<AdapterInfo>& adapters, const GpuContextOptions& options) {
    if (adapters.empty()) return unsupported("no Vulkan physical device found");
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
    if (best == nullptr) return unsupported("only CPU (software) Vulkan devices present and allow_cpu_adapter is off");
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
    // vkd3d insists on a signal function; this instance never creates a device, so it is never called.
    auto never_called = [](HANDLE) -> HRESULT { return E_FAIL; };
    DMLTOOL_ASSIGN_OR_RETURN(InstanceAndDevices opened, open_instance(never_called));
    vkd3d_instance_decref(opened.instance);
    return opened.adapters;
}

}  // namespace dmltool::gpu
