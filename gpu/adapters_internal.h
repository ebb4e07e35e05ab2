// Shared by gpu_context.cpp and adapters.cpp only: opening a vkd3d instance and choosing an adapter. Includes
// vkd3d's own (C, SysV) API, which nothing outside gpu/ may see.
#pragma once

#include <vector>

#include "gpu/gpu_context.h"

#if !defined(_WIN32)
// vkd3d's own API (plain C, SysV ABI). VKD3D_NO_WIN32_TYPES: the COM types come from DirectX-Headers.
#define VKD3D_NO_WIN32_TYPES
#include <vkd3d.h>
#include <vulkan/vulkan.h>
#endif

namespace dmltool::gpu {

struct InstanceAndDevices {
    vkd3d_instance* instance = nullptr;
    std::vector<VkPhysicalDevice> devices;
    std::vector<AdapterInfo> adapters;
};

// Creates a vkd3d instance (which loads Vulkan) and describes its physical devices. The caller owns
// `instance` (vkd3d_instance_decref).
Result<InstanceAndDevices> open_instance(PFN_vkd3d_signal_event signal_event);
// The adapter `options` ask for (by index or name), else the first discrete GPU, integrated, ..., CPU device.
Result<uint32_t> choose_adapter(const std::vector<AdapterInfo>& adapters, const GpuContextOptions& options);

}  // namespace dmltool::gpu
