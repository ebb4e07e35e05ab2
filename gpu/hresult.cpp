#include "gpu/hresult.h"

#include <cstdio>

namespace dmltool::gpu {
namespace {

struct NamedCode {
    uint32_t code;
    const char* name;
};

// DXGI and D3D12 codes are spelled out: DirectX-Headers' Linux stubs do not define all of them.
constexpr NamedCode kNames[] = {
    {0x00000000u, "S_OK"},
    {0x00000001u, "S_FALSE"},
    {0x80004001u, "E_NOTIMPL"},
    {0x80004002u, "E_NOINTERFACE"},
    {0x80004003u, "E_POINTER"},
    {0x80004004u, "E_ABORT"},
    {0x80004005u, "E_FAIL"},
    {0x8000ffffu, "E_UNEXPECTED"},
    {0x80070005u, "E_ACCESSDENIED"},
    {0x80070006u, "E_HANDLE"},
    {0x8007000eu, "E_OUTOFMEMORY"},
    {0x80070057u, "E_INVALIDARG"},
    {0x887a0001u, "DXGI_ERROR_INVALID_CALL"},
    {0x887a0002u, "DXGI_ERROR_NOT_FOUND"},
    {0x887a0004u, "DXGI_ERROR_UNSUPPORTED"},
    {0x887a0005u, "DXGI_ERROR_DEVICE_REMOVED"},
    {0x887a0006u, "DXGI_ERROR_DEVICE_HUNG"},
    {0x887a0007u, "DXGI_ERROR_DEVICE_RESET"},
    {0x887a000au, "DXGI_ERROR_WAS_STILL_DRAWING"},
    {0x887a0020u, "DXGI_ERROR_DRIVER_INTERNAL_ERROR"},
    {0x887e0001u, "D3D12_ERROR_ADAPTER_NOT_FOUND"},
    {0x887e0002u, "D3D12_ERROR_DRIVER_VERSION_MISMATCH"},
};

std::string hex(HRESULT hr) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", static_cast<uint32_t>(hr));
    return text;
}

}  // namespace

std::string hresult_name(HRESULT hr) {
    for (const NamedCode& named : kNames) {
        if (named.code == static_cast<uint32_t>(hr)) return named.name;
    }
    return "HRESULT " + hex(hr);
}

bool is_device_removal(HRESULT hr) {
    const uint32_t code = static_cast<uint32_t>(hr);
    return code == 0x887a0005u || code == 0x887a0006u || code == 0x887a0007u || code == 0x887a0020u;
}

Status hresult_status(HRESULT hr, std::string_view call, ID3D12Device* device) {
    std::string message = std::string(call) + " failed: " + hresult_name(hr) + " (" + hex(hr) + ")";
    if (device != nullptr && is_device_removal(hr)) {
        const HRESULT reason = device->GetDeviceRemovedReason();
        message += "; device removed, reason: " + hresult_name(reason) + " (" + hex(reason) + ")";
    }
    return device_error(std::move(message));
}

}  // namespace dmltool::gpu
