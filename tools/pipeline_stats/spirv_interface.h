// A minimal reader of a SPIR-V compute shader's resource interface: which descriptor (set, binding) holds what
// kind of resource, how many bytes of push constants it reads, and its thread-group size. Just enough to build
// a matching VkPipelineLayout for the kernels vkd3d-shader emits from our DXBC (raw/typed buffer views become
// texel buffers, root constants a push-constant block); it is no validator (spirv-val is).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace dmltool::pipeline_stats {

// The Vulkan descriptor type a resource variable needs (values independent of vulkan.h so that the reader is
// testable without it; vulkan_stats.cpp maps them).
enum class DescriptorKind {
    kUniformBuffer,        // Uniform storage class, Block struct (a D3D constant buffer)
    kStorageBuffer,        // StorageBuffer class, or Uniform class with a BufferBlock struct (SPIR-V 1.0 style)
    kUniformTexelBuffer,   // OpTypeImage Dim=Buffer, Sampled=1 (a D3D buffer SRV in vkd3d)
    kStorageTexelBuffer,   // OpTypeImage Dim=Buffer, Sampled=2 (a D3D buffer UAV in vkd3d)
    kSampledImage,         // OpTypeImage, other Dim, Sampled=1
    kStorageImage,         // OpTypeImage, other Dim, Sampled=2
    kSampler,              // OpTypeSampler
    kCombinedImageSampler  // OpTypeSampledImage
};
std::string_view descriptor_kind_name(DescriptorKind kind);  // "storage_texel_buffer", ...

struct SpirvBinding {
    uint32_t set = 0;
    uint32_t binding = 0;
    DescriptorKind kind = DescriptorKind::kStorageBuffer;
    uint32_t count = 1;  // array size of the variable (descriptor arrays); 1 for a plain variable
    bool operator==(const SpirvBinding&) const = default;
};

struct SpirvInterface {
    std::vector<SpirvBinding> bindings;           // sorted by (set, binding)
    uint32_t push_constant_bytes = 0;             // 0: no push-constant block
    std::array<uint32_t, 3> local_size{0, 0, 0};  // OpExecutionMode LocalSize; 0s when absent
};

// Reads `words` (a whole SPIR-V module). Errors (kInvalidInput) name the word offset and what was wrong:
// a bad header, a truncated instruction, a resource variable without DescriptorSet/Binding, a type it cannot
// classify or size.
Result<SpirvInterface> read_spirv_interface(std::span<const uint32_t> words);

}  // namespace dmltool::pipeline_stats
