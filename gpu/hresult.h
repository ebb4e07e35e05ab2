// HRESULT -> Status. Every D3D12 call goes through DMLTOOL_TRY_HR so a failure names the call, the HRESULT
// (symbolic name and hex value) and the source line; device-removal codes also carry GetDeviceRemovedReason.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "gpu/d3d12_platform.h"

namespace dmltool::gpu {

// "E_INVALIDARG", "DXGI_ERROR_DEVICE_REMOVED", ... or "HRESULT 0x........" for codes we do not name.
std::string hresult_name(HRESULT hr);

// A kDevice Status: "<call> failed: <NAME> (0x........)". With a device and a device-removal code, the
// removal reason is appended.
Status hresult_status(HRESULT hr, std::string_view call, ID3D12Device* device = nullptr);

bool is_device_removal(HRESULT hr);

}  // namespace dmltool::gpu

#define DMLTOOL_HR_STRINGIFY_INNER(x) #x
#define DMLTOOL_HR_STRINGIFY(x) DMLTOOL_HR_STRINGIFY_INNER(x)

// Returns a Status from the enclosing function when `expr` fails.
#define DMLTOOL_TRY_HR(expr) DMLTOOL_TRY_HR_DEVICE(nullptr, expr)

// Same, and asks `device` for its removal reason when the failure is a device removal.
#define DMLTOOL_TRY_HR_DEVICE(device, expr)                                                             \
    do {                                                                                                \
        const HRESULT dmltool_hr_ = (expr);                                                             \
        if (FAILED(dmltool_hr_)) {                                                                      \
            return ::dmltool::gpu::hresult_status(                                                      \
                dmltool_hr_, #expr " [" __FILE__ ":" DMLTOOL_HR_STRINGIFY(__LINE__) "]", (device));     \
        }                                                                                               \
    } while (0)
