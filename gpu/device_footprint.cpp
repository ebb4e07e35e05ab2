#include "gpu/device_footprint.h"

#include <algorithm>

#include "core/tensor.h"

namespace dmltool::gpu {

std::optional<uint64_t> device_buffer_size(uint64_t bytes) {
    auto rounded = checked_add(bytes, 15);
    if (!rounded) return std::nullopt;
    return std::max<uint64_t>(16, *rounded & ~uint64_t{15});
}

Result<std::vector<DeviceBufferNeed>> device_buffers(const Op& op, const OpDesc& desc, const DevicePlan& plan) {
    std::vector<DeviceBufferNeed> out;
    auto add = [&](std::string name, uint64_t bytes, uint64_t tensor_bytes) -> Status {
        const auto padded = device_buffer_size(bytes);
        if (!padded) return invalid_input(name + ": " + std::to_string(bytes) + " bytes overflow 64-bit byte counts");
        out.push_back({std::move(name), *padded, tensor_bytes});
        return Status::ok();
    };
    for (const TensorSlot& slot : op.tensors(desc)) {
        if (!slot.desc) continue;
        DMLTOOL_RETURN_IF_ERROR(add(slot.name, slot.desc->total_size_in_bytes, slot.desc->total_size_in_bytes));
    }
    for (size_t i = 0; i < plan.auxiliary_buffers.size(); ++i)
        DMLTOOL_RETURN_IF_ERROR(add("auxiliary " + std::to_string(i), plan.auxiliary_buffers[i].size(), 0));
    return out;
}

Status check_device_footprint(const std::vector<DeviceBufferNeed>& buffers, const DeviceLimits& limits) {
    uint64_t total = 0;
    for (const DeviceBufferNeed& b : buffers) {
        if (b.tensor_bytes > kMaxTensorBytes)
            return unsupported(b.name + " takes " + std::to_string(b.tensor_bytes) + " bytes (" +
                               describe_bytes(b.tensor_bytes) + "); dmltool's GPU kernels address at most 4 GiB per "
                               "tensor (32-bit byte addresses)");
        if (limits.max_buffer_bytes && b.bytes > limits.max_buffer_bytes)
            return unsupported(b.name + " needs a buffer of " + std::to_string(b.bytes) + " bytes (" +
                               describe_bytes(b.bytes) + "), more than the " + std::to_string(limits.max_buffer_bytes) +
                               " bytes (" + describe_bytes(limits.max_buffer_bytes) + ") '" + limits.device +
                               "' allows per buffer (Vulkan maxMemoryAllocationSize/maxBufferSize, D3D12 virtual "
                               "address bits per resource)");
        const auto sum = checked_add(total, b.bytes);
        if (!sum) return invalid_input("the case's device buffers together overflow 64-bit byte counts");
        total = *sum;
    }
    if (!limits.budget_bytes || total <= limits.budget_bytes) return Status::ok();
    // Name the largest buffers: they are what to shrink.
    std::vector<const DeviceBufferNeed*> largest;
    for (const DeviceBufferNeed& b : buffers) largest.push_back(&b);
    std::stable_sort(largest.begin(), largest.end(), [](auto* a, auto* b) { return a->bytes > b->bytes; });
    constexpr size_t kNamed = 4;
    std::string parts;
    for (size_t i = 0; i < std::min(kNamed, largest.size()); ++i)
        parts += (i ? ", " : "") + largest[i]->name + " " + describe_bytes(largest[i]->bytes);
    if (largest.size() > kNamed) parts += ", and " + std::to_string(largest.size() - kNamed) + " more";
    return unsupported("needs " + describe_bytes(total) + " of device memory (" + parts + "), more than the " +
                       describe_bytes(limits.budget_bytes) + " allowed on '" + limits.device +
                       "' (--max-device-memory)");
}

}  // namespace dmltool::gpu
