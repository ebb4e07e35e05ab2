// GpuBuffer: one committed D3D12 buffer (device-local, upload or readback) with its resource state tracked
// so transitions are recorded only when needed. MappedRange maps part of an upload/readback buffer for the
// lifetime of the object. upload()/download() move bytes between host memory and device buffers through a
// staging buffer and submit immediately (they also submit any work recorded before them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "gpu/d3d12_platform.h"

namespace dmltool::gpu {

class GpuContext;

enum class MemoryKind {
    kDevice,    // DEFAULT heap, shader read/write (UAV-capable); not mappable
    kUpload,    // UPLOAD heap: CPU writes, GPU reads
    kReadback,  // READBACK heap: GPU writes (copies), CPU reads
};

class MappedRange {
public:
    MappedRange(MappedRange&& other) noexcept;
    MappedRange& operator=(MappedRange&&) = delete;
    MappedRange(const MappedRange&) = delete;
    ~MappedRange();

    std::byte* data() const { return data_; }
    size_t size() const { return size_; }
    std::span<std::byte> bytes() const { return {data_, size_}; }

private:
    friend class GpuBuffer;
    MappedRange(ID3D12Resource* resource, std::byte* data, size_t offset, size_t size, bool cpu_wrote)
        : resource_(resource), data_(data), offset_(offset), size_(size), cpu_wrote_(cpu_wrote) {}
    ID3D12Resource* resource_;
    std::byte* data_;
    size_t offset_;
    size_t size_;
    bool cpu_wrote_;
};

class GpuBuffer {
public:
    static Result<GpuBuffer> create(GpuContext& context, MemoryKind kind, uint64_t bytes, std::string name);

    ID3D12Resource* resource() const { return resource_.Get(); }
    uint64_t size() const { return size_; }
    MemoryKind kind() const { return kind_; }
    const std::string& name() const { return name_; }
    uint64_t gpu_address() const { return resource_->GetGPUVirtualAddress(); }
    D3D12_RESOURCE_STATES state() const { return state_; }

    // Records a transition barrier into `list` when the tracked state differs (device buffers only; upload and
    // readback buffers stay in their required states).
    void transition(ID3D12GraphicsCommandList* list, D3D12_RESOURCE_STATES state);

    // Maps [offset, offset + size) of an upload (write) or readback (read) buffer.
    Result<MappedRange> map(uint64_t offset, uint64_t size);

private:
    GpuBuffer() = default;
    ComPtr<ID3D12Resource> resource_;
    uint64_t size_ = 0;
    MemoryKind kind_ = MemoryKind::kDevice;
    D3D12_RESOURCE_STATES state_ = D3D12_RESOURCE_STATE_COMMON;
    std::string name_;
};

// Copies `data` into dst at byte `offset` and waits.
Status upload(GpuContext& context, GpuBuffer& dst, uint64_t offset, std::span<const std::byte> data);
// Copies `size` bytes from src at `offset` back to the host and waits.
Result<std::vector<std::byte>> download(GpuContext& context, GpuBuffer& src, uint64_t offset, uint64_t size);

}  // namespace dmltool::gpu
