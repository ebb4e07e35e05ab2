// The Linux side of the platform seam (gpu/platform.h): vkd3d implements D3D12 on Vulkan, so an adapter is a
// Vulkan physical device. We create the vkd3d instance ourselves, describe its physical devices and hand the
// chosen one to vkd3d_create_device (vkd3d honours the VKD3D_VULKAN_DEVICE environment variable over our
// choice when it is set).
#include <algorithm>
#include <cstdio>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "gpu/hresult.h"
#include "gpu/platform.h"

// vkd3d's own API (plain C, SysV ABI). VKD3D_NO_WIN32_TYPES: the COM types come from DirectX-Headers.
#define VKD3D_NO_WIN32_TYPES
#include <vkd3d.h>
#include <vulkan/vulkan.h>

namespace dmltool::gpu {

// vkd3d calls the instance's pfn_signal_event with whatever HANDLE was given to SetEventOnCompletion, so the
// handle is this object. We do not use libvkd3d-utils' events because vkd3d 1.2's vkd3d_wait_event implements
// only infinite waits ("Timed wait not implemented yet": a finite timeout fails at once).
struct FenceEvent::State {
    std::mutex mutex;
    std::condition_variable condition;
    bool signaled = false;
};

struct DeviceFactory::State {
    vkd3d_instance* instance = nullptr;
    std::vector<VkPhysicalDevice> devices;
    ~State() {
        if (instance) vkd3d_instance_decref(instance);
    }
};

namespace {

HRESULT signal_fence_event(HANDLE handle) {
    auto* event = static_cast<FenceEvent::State*>(handle);
    std::lock_guard<std::mutex> lock(event->mutex);
    event->signaled = true;
    event->condition.notify_all();
    return S_OK;
}

AdapterKind kind_from_vulkan(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return AdapterKind::kDiscrete;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return AdapterKind::kIntegrated;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return AdapterKind::kVirtual;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return AdapterKind::kCpu;
        default: return AdapterKind::kOther;
    }
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

FenceEvent::FenceEvent(std::unique_ptr<State> state) : state_(std::move(state)) {}
FenceEvent::~FenceEvent() = default;

Result<std::unique_ptr<FenceEvent>> FenceEvent::create() {
    return std::unique_ptr<FenceEvent>(new FenceEvent(std::make_unique<State>()));
}

HANDLE FenceEvent::handle() const { return state_.get(); }

bool FenceEvent::wait(uint32_t timeout_ms) {
    std::unique_lock<std::mutex> lock(state_->mutex);
    if (!state_->condition.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return state_->signaled; }))
        return false;
    state_->signaled = false;
    return true;
}

DeviceFactory::DeviceFactory(std::unique_ptr<State> state, std::vector<AdapterInfo> adapters)
    : state_(std::move(state)), adapters_(std::move(adapters)) {}
DeviceFactory::~DeviceFactory() = default;

const char* DeviceFactory::create_call() { return "vkd3d_create_device"; }

// vkd3d answers SetStablePowerState with E_NOTIMPL (Vulkan has no clock-locking call): say so before trying.
Status DeviceFactory::stable_power_state_allowed() {
    return device_error("--stable-power-state: D3D12's stable power state is a Windows feature (developer mode); "
                        "vkd3d on Linux does not implement ID3D12Device::SetStablePowerState (lock clocks with the "
                        "vendor's tool instead, e.g. nvidia-smi --lock-gpu-clocks)");
}

Result<std::unique_ptr<DeviceFactory>> DeviceFactory::open() {
    vkd3d_instance_create_info info{};
    info.type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pfn_signal_event = &signal_fence_event;  // how vkd3d's fence worker signals our events
    info.wchar_size = sizeof(WCHAR);
    auto state = std::make_unique<State>();
    const HRESULT hr = vkd3d_create_instance(&info, &state->instance);
    if (FAILED(hr)) {
        return device_error("vkd3d_create_instance failed: " + hresult_name(hr) +
                            " (is a Vulkan driver installed? e.g. mesa-vulkan-drivers for lavapipe)");
    }
    const VkInstance vk_instance = vkd3d_instance_get_vk_instance(state->instance);
    uint32_t count = 0;
    VkResult vr = vkEnumeratePhysicalDevices(vk_instance, &count, nullptr);
    if (vr == VK_SUCCESS) {
        state->devices.resize(count);
        vr = vkEnumeratePhysicalDevices(vk_instance, &count, state->devices.data());
    }
    if (vr != VK_SUCCESS) return device_error("vkEnumeratePhysicalDevices failed: VkResult " + std::to_string(vr));
    std::vector<AdapterInfo> adapters;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties properties{};
        vkGetPhysicalDeviceProperties(state->devices[i], &properties);
        VkPhysicalDeviceMemoryProperties memory{};
        vkGetPhysicalDeviceMemoryProperties(state->devices[i], &memory);
        AdapterInfo adapter;
        adapter.index = i;
        adapter.name = properties.deviceName;
        adapter.kind = kind_from_vulkan(properties.deviceType);
        adapter.vendor_id = properties.vendorID;
        adapter.device_id = properties.deviceID;
        adapter.vulkan_api_version = properties.apiVersion;
        char driver[48];
        std::snprintf(driver, sizeof driver, "vulkan driver 0x%08x", properties.driverVersion);
        adapter.driver_version = driver;
        for (uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
            if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
                adapter.device_local_bytes = std::max<uint64_t>(adapter.device_local_bytes, memory.memoryHeaps[h].size);
            }
        }
        adapter.max_buffer_bytes = query_max_buffer_bytes(vk_instance, state->devices[i], properties.apiVersion);
        adapters.push_back(adapter);
    }
    return std::unique_ptr<DeviceFactory>(new DeviceFactory(std::move(state), std::move(adapters)));
}

HRESULT DeviceFactory::create_device(uint32_t adapter_index, ComPtr<ID3D12Device>& device) {
    vkd3d_device_create_info info{};
    info.type = VKD3D_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.minimum_feature_level = D3D_FEATURE_LEVEL_11_0;
    info.instance = state_->instance;
    info.vk_physical_device = state_->devices.at(adapter_index);
    return vkd3d_create_device(&info, __uuidof(ID3D12Device), reinterpret_cast<void**>(device.ReleaseAndGetAddressOf()));
}

}  // namespace dmltool::gpu
