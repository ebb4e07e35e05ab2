// The Windows side of the platform seam (gpu/platform.h): adapters come from DXGI, devices from d3d12.dll's
// D3D12CreateDevice, and fences signal Win32 events. Under Wine the same calls reach Wine's d3d12/dxgi, which
// run on the host's Vulkan driver (gpu/README.md: "Windows and Wine").
#include <algorithm>
#include <cstdio>

#include "gpu/hresult.h"
#include "gpu/platform.h"

#include <dxgi1_6.h>

namespace dmltool::gpu {

struct FenceEvent::State {
    HANDLE event = nullptr;
    ~State() {
        if (event) CloseHandle(event);
    }
};

struct DeviceFactory::State {
    std::vector<ComPtr<IDXGIAdapter1>> adapters;  // parallel to DeviceFactory::adapters()
};

namespace {

std::string utf8_from_wide(const wchar_t* text) {
    const int bytes = WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
    if (bytes <= 1) return {};
    std::string out(size_t(bytes), '\0');
    WideCharToMultiByte(CP_UTF8, 0, text, -1, out.data(), bytes, nullptr, nullptr);
    out.resize(size_t(bytes) - 1);  // the terminating NUL
    return out;
}

// DXGI does not say discrete or integrated. Integrated GPUs report little dedicated memory (a BIOS carve-out),
// so a large dedicated pool is taken as a discrete card; software rasterisers (WARP) say so in their flags.
AdapterKind kind_from_dxgi(const DXGI_ADAPTER_DESC1& desc) {
    if (desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) return AdapterKind::kCpu;
    return desc.DedicatedVideoMemory >= (uint64_t{512} << 20) ? AdapterKind::kDiscrete : AdapterKind::kIntegrated;
}

AdapterInfo describe(const DXGI_ADAPTER_DESC1& desc, uint32_t index) {
    AdapterInfo adapter;
    adapter.index = index;
    adapter.name = utf8_from_wide(desc.Description);
    adapter.kind = kind_from_dxgi(desc);
    adapter.vendor_id = desc.VendorId;
    adapter.device_id = desc.DeviceId;
    adapter.luid = (uint64_t(uint32_t(desc.AdapterLuid.HighPart)) << 32) | desc.AdapterLuid.LowPart;
    // WARP has no dedicated memory: it allocates from system memory.
    adapter.device_local_bytes = desc.DedicatedVideoMemory ? desc.DedicatedVideoMemory : desc.SharedSystemMemory;
    // DXGI has no per-buffer limit; GpuContext bounds buffers by MaxGPUVirtualAddressBitsPerResource instead.
    adapter.max_buffer_bytes = 0;
    return adapter;
}

// The user-mode driver's version (DXGI reports it through CheckInterfaceSupport); empty when it does not.
std::string user_mode_driver_version(IDXGIAdapter1& adapter) {
    LARGE_INTEGER version{};
    if (FAILED(adapter.CheckInterfaceSupport(__uuidof(IDXGIDevice), &version))) return {};
    const uint64_t v = uint64_t(version.QuadPart);
    char text[64];
    std::snprintf(text, sizeof text, "umd %u.%u.%u.%u", unsigned(v >> 48), unsigned((v >> 32) & 0xffff),
                  unsigned((v >> 16) & 0xffff), unsigned(v & 0xffff));
    return text;
}

}  // namespace

FenceEvent::FenceEvent(std::unique_ptr<State> state) : state_(std::move(state)) {}
FenceEvent::~FenceEvent() = default;

Result<std::unique_ptr<FenceEvent>> FenceEvent::create() {
    auto state = std::make_unique<State>();
    state->event = CreateEventW(nullptr, FALSE /* auto-reset */, FALSE, nullptr);
    if (!state->event) return device_error("CreateEventW failed: Win32 error " + std::to_string(GetLastError()));
    return std::unique_ptr<FenceEvent>(new FenceEvent(std::move(state)));
}

HANDLE FenceEvent::handle() const { return state_->event; }

bool FenceEvent::wait(uint32_t timeout_ms) { return WaitForSingleObject(state_->event, timeout_ms) == WAIT_OBJECT_0; }

DeviceFactory::DeviceFactory(std::unique_ptr<State> state, std::vector<AdapterInfo> adapters)
    : state_(std::move(state)), adapters_(std::move(adapters)) {}
DeviceFactory::~DeviceFactory() = default;

const char* DeviceFactory::create_call() { return "D3D12CreateDevice"; }

// Developer mode is the AppModelUnlock value Settings > "For developers" writes (1 = on). SetStablePowerState
// outside it removes the device, so a missing or zero value refuses before the call.
Status DeviceFactory::stable_power_state_allowed() {
    DWORD enabled = 0, size = sizeof enabled;
    const LSTATUS read = RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\AppModelUnlock",
                                      L"AllowDevelopmentWithoutDevLicense", RRF_RT_REG_DWORD, nullptr, &enabled, &size);
    if (read == ERROR_SUCCESS && enabled == 1) return Status::ok();
    const std::string found = read == ERROR_SUCCESS ? "AllowDevelopmentWithoutDevLicense = " + std::to_string(enabled)
                                                    : "no AllowDevelopmentWithoutDevLicense value (error " +
                                                          std::to_string(read) + ")";
    return device_error("--stable-power-state needs Windows developer mode (HKLM\\SOFTWARE\\Microsoft\\Windows\\"
                        "CurrentVersion\\AppModelUnlock AllowDevelopmentWithoutDevLicense = 1), found " + found +
                        "; outside it ID3D12Device::SetStablePowerState removes the device");
}

Result<std::unique_ptr<DeviceFactory>> DeviceFactory::open() {
    ComPtr<IDXGIFactory1> factory;
    DMLTOOL_TRY_HR(CreateDXGIFactory1(IID_PPV_ARGS(&factory)));
    auto state = std::make_unique<State>();
    std::vector<AdapterInfo> adapters;
    // IDXGIFactory6 lists the high-performance GPU first (Windows 10 1803+); older systems have EnumAdapters1.
    ComPtr<IDXGIFactory6> factory6;
    const bool by_preference = SUCCEEDED(factory.As(&factory6));
    bool has_software = false;
    for (UINT i = 0;; ++i) {
        ComPtr<IDXGIAdapter1> adapter;
        const HRESULT hr = by_preference ? factory6->EnumAdapterByGpuPreference(i, DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE,
                                                                                 IID_PPV_ARGS(&adapter))
                                         : factory->EnumAdapters1(i, &adapter);
        if (hr == DXGI_ERROR_NOT_FOUND) break;
        if (FAILED(hr)) return hresult_status(hr, by_preference ? "IDXGIFactory6::EnumAdapterByGpuPreference" : "IDXGIFactory1::EnumAdapters1");
        DXGI_ADAPTER_DESC1 desc{};
        DMLTOOL_TRY_HR(adapter->GetDesc1(&desc));
        has_software = has_software || (desc.Flags & DXGI_ADAPTER_FLAG_SOFTWARE);
        adapters.push_back(describe(desc, uint32_t(adapters.size())));
        adapters.back().driver_version = user_mode_driver_version(*adapter.Get());
        state->adapters.push_back(std::move(adapter));
    }
    // A machine without a GPU driver still has WARP; list it when enumeration did not (the default choice
    // then falls back to it).
    ComPtr<IDXGIFactory4> factory4;
    if (!has_software && SUCCEEDED(factory.As(&factory4))) {
        ComPtr<IDXGIAdapter1> warp;
        DXGI_ADAPTER_DESC1 desc{};
        if (SUCCEEDED(factory4->EnumWarpAdapter(IID_PPV_ARGS(&warp))) && SUCCEEDED(warp->GetDesc1(&desc))) {
            AdapterInfo info = describe(desc, uint32_t(adapters.size()));
            info.kind = AdapterKind::kCpu;
            adapters.push_back(info);
            state->adapters.push_back(std::move(warp));
        }
    }
    return std::unique_ptr<DeviceFactory>(new DeviceFactory(std::move(state), std::move(adapters)));
}

HRESULT DeviceFactory::create_device(uint32_t adapter_index, ComPtr<ID3D12Device>& device) {
    return D3D12CreateDevice(state_->adapters.at(adapter_index).Get(), D3D_FEATURE_LEVEL_11_0,
                             IID_PPV_ARGS(device.ReleaseAndGetAddressOf()));
}

}  // namespace dmltool::gpu
