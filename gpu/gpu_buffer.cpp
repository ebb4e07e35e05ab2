#include "gpu/gpu_buffer.h"

#include <chrono>
#include <cstdio>
#include <cstring>

#include "gpu/gpu_context.h"
#include "gpu/hresult.h"

namespace dmltool::gpu {
namespace {

// Times the steps of one transfer when the context traces transfers (GpuContextOptions::trace_transfers) and
// prints them as one line when the transfer ends: "dmltool: upload 'input 0' 33554432 B: create 0.1 ms, ...".
class TransferTrace {
public:
    TransferTrace(const GpuContext& context, const char* what, const std::string& name, uint64_t bytes)
        : enabled_(context.trace_transfers()) {
        if (enabled_) line_ = std::string("dmltool: ") + what + " '" + name + "' " + std::to_string(bytes) + " B:";
        last_ = std::chrono::steady_clock::now();
    }
    TransferTrace(const TransferTrace&) = delete;
    TransferTrace& operator=(const TransferTrace&) = delete;
    ~TransferTrace() {
        if (enabled_) std::fprintf(stderr, "%s\n", line_.c_str());
    }
    void step(const char* name) {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        char text[64];
        std::snprintf(text, sizeof(text), " %s %.3f ms", name, std::chrono::duration<double, std::milli>(now - last_).count());
        line_ += text;
        last_ = now;
    }

private:
    bool enabled_;
    std::string line_;
    std::chrono::steady_clock::time_point last_;
};

}  // namespace

MappedRange::MappedRange(MappedRange&& other) noexcept
    : resource_(other.resource_), data_(other.data_), offset_(other.offset_), size_(other.size_),
      cpu_wrote_(other.cpu_wrote_) {
    other.resource_ = nullptr;
}

MappedRange::~MappedRange() {
    if (resource_ == nullptr) return;
    // Tell the runtime which bytes the CPU wrote (none for readback) so it can flush just those.
    const D3D12_RANGE written = cpu_wrote_ ? D3D12_RANGE{offset_, offset_ + size_} : D3D12_RANGE{0, 0};
    resource_->Unmap(0, &written);
}

Result<GpuBuffer> GpuBuffer::create(GpuContext& context, MemoryKind kind, uint64_t bytes, std::string name) {
    if (bytes == 0) return invalid_input("buffer '" + name + "': size must be non-zero");
    D3D12_HEAP_PROPERTIES heap{};
    D3D12_RESOURCE_DESC desc{};
    desc.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    desc.Width = bytes;
    desc.Height = 1;
    desc.DepthOrArraySize = 1;
    desc.MipLevels = 1;
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.SampleDesc.Count = 1;
    desc.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    GpuBuffer buffer;
    switch (kind) {
        case MemoryKind::kDevice:
            heap.Type = D3D12_HEAP_TYPE_DEFAULT;
            desc.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
            buffer.state_ = D3D12_RESOURCE_STATE_COMMON;
            break;
        case MemoryKind::kUpload:
            heap.Type = D3D12_HEAP_TYPE_UPLOAD;
            buffer.state_ = D3D12_RESOURCE_STATE_GENERIC_READ;
            break;
        case MemoryKind::kReadback:
            heap.Type = D3D12_HEAP_TYPE_READBACK;
            buffer.state_ = D3D12_RESOURCE_STATE_COPY_DEST;
            break;
    }
    const std::string call = "CreateCommittedResource for buffer '" + name + "' (" + std::to_string(bytes) + " bytes)";
    if (kind == MemoryKind::kDevice && context.faults()) {
        if (const HRESULT injected = context.faults()->on_device_allocation(); FAILED(injected))
            return device_error(context.check(injected, call.c_str()).message() + kInjectedMark);
    }
    const HRESULT hr = context.device()->CreateCommittedResource(&heap, D3D12_HEAP_FLAG_NONE, &desc, buffer.state_,
                                                                 nullptr, IID_PPV_ARGS(&buffer.resource_));
    DMLTOOL_RETURN_IF_ERROR(context.check(hr, call.c_str()));
    buffer.size_ = bytes;
    buffer.kind_ = kind;
    buffer.name_ = std::move(name);
    return buffer;
}

void GpuBuffer::transition(ID3D12GraphicsCommandList* list, D3D12_RESOURCE_STATES state) {
    if (kind_ != MemoryKind::kDevice || state == state_) return;
    D3D12_RESOURCE_BARRIER barrier{};
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    barrier.Transition.pResource = resource_.Get();
    barrier.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    barrier.Transition.StateBefore = state_;
    barrier.Transition.StateAfter = state;
    list->ResourceBarrier(1, &barrier);
    state_ = state;
}

Result<MappedRange> GpuBuffer::map(uint64_t offset, uint64_t size) {
    if (kind_ == MemoryKind::kDevice) return invalid_input("buffer '" + name_ + "' is device-local and cannot be mapped");
    if (offset > size_ || size > size_ - offset) {
        return invalid_input("map of buffer '" + name_ + "': range [" + std::to_string(offset) + ", +" +
                             std::to_string(size) + ") exceeds its " + std::to_string(size_) + " bytes");
    }
    const bool cpu_writes = kind_ == MemoryKind::kUpload;
    // The read range tells the runtime which bytes the CPU will read (none for upload buffers).
    const D3D12_RANGE read = cpu_writes ? D3D12_RANGE{0, 0} : D3D12_RANGE{offset, offset + size};
    void* base = nullptr;
    const HRESULT hr = resource_->Map(0, &read, &base);
    if (FAILED(hr)) return hresult_status(hr, "ID3D12Resource::Map of buffer '" + name_ + "'");
    return MappedRange(resource_.Get(), static_cast<std::byte*>(base) + offset, offset, size, cpu_writes);
}

Status upload(GpuContext& context, GpuBuffer& dst, uint64_t offset, std::span<const std::byte> data) {
    if (data.empty()) return Status::ok();
    if (offset > dst.size() || data.size() > dst.size() - offset) {
        return invalid_input("upload of " + std::to_string(data.size()) + " bytes at offset " + std::to_string(offset) +
                             " exceeds buffer '" + dst.name() + "' (" + std::to_string(dst.size()) + " bytes)");
    }
    TransferTrace trace(context, "upload", dst.name(), data.size());
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer staging, GpuBuffer::create(context, MemoryKind::kUpload, data.size(),
                                                                  dst.name() + " (upload staging)"));
    trace.step("create");
    {
        DMLTOOL_ASSIGN_OR_RETURN(MappedRange mapped, staging.map(0, data.size()));
        trace.step("map");
        std::memcpy(mapped.data(), data.data(), data.size());
        trace.step("memcpy");
    }
    trace.step("unmap");
    ID3D12GraphicsCommandList* list = context.command_list();
    dst.transition(list, D3D12_RESOURCE_STATE_COPY_DEST);
    list->CopyBufferRegion(dst.resource(), offset, staging.resource(), 0, data.size());
    context.keep_alive(staging.resource());
    context.keep_alive(dst.resource());
    Status submitted = context.submit_and_wait().with_context("upload to '" + dst.name() + "'");
    trace.step("copy and wait");
    return submitted;
}

Result<std::vector<std::byte>> download(GpuContext& context, GpuBuffer& src, uint64_t offset, uint64_t size) {
    if (offset > src.size() || size > src.size() - offset) {
        return invalid_input("download of " + std::to_string(size) + " bytes at offset " + std::to_string(offset) +
                             " exceeds buffer '" + src.name() + "' (" + std::to_string(src.size()) + " bytes)");
    }
    TransferTrace trace(context, "download", src.name(), size);
    std::vector<std::byte> out(size);
    trace.step("host vector");
    if (size == 0) return out;
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer staging, GpuBuffer::create(context, MemoryKind::kReadback, size,
                                                                  src.name() + " (readback staging)"));
    trace.step("create");
    ID3D12GraphicsCommandList* list = context.command_list();
    src.transition(list, D3D12_RESOURCE_STATE_COPY_SOURCE);
    list->CopyBufferRegion(staging.resource(), 0, src.resource(), offset, size);
    context.keep_alive(staging.resource());
    context.keep_alive(src.resource());
    DMLTOOL_RETURN_IF_ERROR(context.submit_and_wait().with_context("download from '" + src.name() + "'"));
    trace.step("copy and wait");
    DMLTOOL_ASSIGN_OR_RETURN(MappedRange mapped, staging.map(0, size));
    trace.step("map");
    std::memcpy(out.data(), mapped.data(), size);
    trace.step("memcpy");
    return out;
}

}  // namespace dmltool::gpu
