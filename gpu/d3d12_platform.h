// The one place that includes d3d12.h. It isolates the two ABI traps of running Microsoft's DirectX-Headers
// against vkd3d on Linux/x86-64 (both verified by the feasibility probe; both crash or misbehave if ignored):
//
// 1. Calling convention. vkd3d implements every COM method as __attribute__((ms_abi)), but DirectX-Headers'
//    WSL stubs define STDMETHODCALLTYPE/WINAPI as nothing (SysV). We include <basetsd.h> first (it is
//    #pragma once), then redefine the convention macros to ms_abi before anything declares an interface.
//    Without this, arguments land in the wrong registers (CreateCommandQueue returns E_NOTIMPL).
// 2. Methods returning a struct by value (GetCPU/GPUDescriptorHandleForHeapStart, ID3D12Resource::GetDesc,
//    GetResourceAllocationInfo, GetAdapterLuid, ...). vkd3d follows MSVC: `Ret* fn(this, Ret* out)`; g++
//    returns small structs in registers. Calling them through the C++ interface crashes. Call the few we
//    need through their vtable slot with the MSVC signature (below) and avoid the rest.
//
// On Windows (MinGW cross build or MSVC) the same DirectX-Headers (<directx/d3d12.h>: Debian's package through
// the include directory cmake/deps.cmake sets up, or vcpkg's directx-headers port) declare the API, and
// d3d12.dll / dxgi.dll implement it; ms_abi is then the native convention. MinGW's own d3d12.h is older, so
// DirectX-Headers' is used on both platforms. Trap 2 remains under MinGW: DirectX-Headers declares the
// struct-returning methods in their out-parameter form there (`Ret* fn(Ret* out)`), which we call; MSVC gets
// the by-value form.
#pragma once

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX  // windows.h's min/max macros break std::min/std::max
#endif
#include <windows.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>  // MinGW: __CRT_UUID_DECL for every interface, so __uuidof/IID_PPV_ARGS work
#include <wrl/client.h>
#else
#include <basetsd.h>  // from DirectX-Headers' wsl/stubs; must come before the macros are redefined
#undef __stdcall
#undef STDMETHODCALLTYPE
#undef STDAPICALLTYPE
#undef WINAPI
#undef APIENTRY
#define DMLTOOL_MS_ABI __attribute__((ms_abi))
#define __stdcall DMLTOOL_MS_ABI
#define STDMETHODCALLTYPE DMLTOOL_MS_ABI
#define STDAPICALLTYPE DMLTOOL_MS_ABI
#define WINAPI DMLTOOL_MS_ABI
#define APIENTRY DMLTOOL_MS_ABI
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>
#include <wsl/wrladapter.h>
#endif

#include <cstdint>
#include <cstring>

namespace dmltool::gpu {

template <typename T>
using ComPtr = Microsoft::WRL::ComPtr<T>;

namespace platform {

#if defined(_MSC_VER)
inline D3D12_CPU_DESCRIPTOR_HANDLE cpu_descriptor_start(ID3D12DescriptorHeap* heap) {
    return heap->GetCPUDescriptorHandleForHeapStart();
}
inline D3D12_GPU_DESCRIPTOR_HANDLE gpu_descriptor_start(ID3D12DescriptorHeap* heap) {
    return heap->GetGPUDescriptorHandleForHeapStart();
}
#elif defined(_WIN32)
// MinGW: DirectX-Headers declares only the out-parameter form for non-MSVC Windows compilers.
inline D3D12_CPU_DESCRIPTOR_HANDLE cpu_descriptor_start(ID3D12DescriptorHeap* heap) {
    D3D12_CPU_DESCRIPTOR_HANDLE handle{};
    heap->GetCPUDescriptorHandleForHeapStart(&handle);
    return handle;
}
inline D3D12_GPU_DESCRIPTOR_HANDLE gpu_descriptor_start(ID3D12DescriptorHeap* heap) {
    D3D12_GPU_DESCRIPTOR_HANDLE handle{};
    heap->GetGPUDescriptorHandleForHeapStart(&handle);
    return handle;
}
#else
// Calls a struct-returning method through its vtable slot with MSVC's hidden-pointer convention.
// Itanium C++ ABI: a pointer to a virtual member function stores (vtable byte offset + 1).
template <typename Ret, typename Interface, typename Method>
Ret call_struct_returning_method(Interface* object, Method method) {
    static_assert(sizeof(Method) == 2 * sizeof(void*), "unexpected pointer-to-member layout");
    uintptr_t raw[2];
    std::memcpy(raw, &method, sizeof raw);
    const size_t slot = (raw[0] - 1) / sizeof(void*);
    using Function = Ret* (DMLTOOL_MS_ABI*)(Interface*, Ret*);
    void** vtable = *reinterpret_cast<void***>(object);
    Ret result{};
    return *reinterpret_cast<Function>(vtable[slot])(object, &result);
}
inline D3D12_CPU_DESCRIPTOR_HANDLE cpu_descriptor_start(ID3D12DescriptorHeap* heap) {
    return call_struct_returning_method<D3D12_CPU_DESCRIPTOR_HANDLE>(
        heap, &ID3D12DescriptorHeap::GetCPUDescriptorHandleForHeapStart);
}
inline D3D12_GPU_DESCRIPTOR_HANDLE gpu_descriptor_start(ID3D12DescriptorHeap* heap) {
    return call_struct_returning_method<D3D12_GPU_DESCRIPTOR_HANDLE>(
        heap, &ID3D12DescriptorHeap::GetGPUDescriptorHandleForHeapStart);
}
#endif

}  // namespace platform
}  // namespace dmltool::gpu
