// The platform seam of the D3D12 layer: everything that differs between Linux (vkd3d on Vulkan) and Windows
// (d3d12.dll + DXGI) sits behind these two classes, implemented once per platform in platform_linux.cpp and
// platform_windows.cpp (gpu/CMakeLists.txt compiles one of them). Everything else in gpu/ is shared.
//  - DeviceFactory: the runtime's adapters (as AdapterInfo, with the limits the memory checks use) and
//    device creation on one of them.
//  - FenceEvent: what ID3D12Fence::SetEventOnCompletion signals, waited for with a timeout (a hung GPU must
//    turn into an error, not a hang).
// Internal to gpu/: only gpu_context.cpp and adapters.cpp include it.
#pragma once

#include <memory>
#include <vector>

#include "gpu/gpu_context.h"

namespace dmltool::gpu {

class FenceEvent {
public:
    static Result<std::unique_ptr<FenceEvent>> create();
    ~FenceEvent();
    FenceEvent(const FenceEvent&) = delete;
    FenceEvent& operator=(const FenceEvent&) = delete;

    HANDLE handle() const;
    // Auto-reset wait: true if signalled within the timeout (the signal is then consumed).
    bool wait(uint32_t timeout_ms);

    struct State;  // per platform (platform_*.cpp)

private:
    explicit FenceEvent(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

class DeviceFactory {
public:
    // Loads the runtime and describes its adapters. An error means no D3D12 runtime/driver is usable at all.
    static Result<std::unique_ptr<DeviceFactory>> open();
    ~DeviceFactory();
    DeviceFactory(const DeviceFactory&) = delete;
    DeviceFactory& operator=(const DeviceFactory&) = delete;

    const std::vector<AdapterInfo>& adapters() const { return adapters_; }
    // The runtime call create_device makes, for error messages ("vkd3d_create_device", "D3D12CreateDevice").
    static const char* create_call();
    HRESULT create_device(uint32_t adapter_index, ComPtr<ID3D12Device>& device);
    // Whether ID3D12Device::SetStablePowerState may be called here (bench --stable-power-state). Windows removes
    // the device when it is called outside developer mode, so the caller must ask first; vkd3d has no stable power
    // state. OK, or a kDevice error saying why not.
    static Status stable_power_state_allowed();

    struct State;  // per platform (platform_*.cpp)

private:
    DeviceFactory(std::unique_ptr<State> state, std::vector<AdapterInfo> adapters);
    std::unique_ptr<State> state_;
    std::vector<AdapterInfo> adapters_;
};

// Shared (adapters.cpp): the adapter `options` ask for (by index or name), else the first discrete GPU,
// integrated, ..., software device.
Result<uint32_t> choose_adapter(const std::vector<AdapterInfo>& adapters, const GpuContextOptions& options);

}  // namespace dmltool::gpu
