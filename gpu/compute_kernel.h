// ComputeKernel: a compute PSO plus the root signature of dmltool's binding model, and the recording of
// one dispatch with its constants and buffer views.
//
// Binding model (every operator kernel uses it; see gpu/README.md):
//   root parameter 0: `root_constants` 32-bit values -> cb0 in the shader (ProgramBuilder::root_constant(i));
//   root parameter 1: one descriptor table: raw SRVs t0..t(srvs-1), then raw UAVs u0..u(uavs-1).
// Why tables, not root descriptors: a root SRV/UAV is just a GPU address, so the view reaches to the end of
// the buffer; vkd3d turns raw views into R32 texel buffers and Vulkan only guarantees 2^27 texels (512 MiB)
// per view. A table entry has an explicit first element and size, so every view is checked to be <= 512 MiB
// and a tensor larger than that is bound as several windows (split_into_views + shaders::TensorViews) or
// processed in chunks through offset views.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "gpu/d3d12_platform.h"
#include "gpu/gpu_buffer.h"

namespace dmltool::gpu {

class GpuContext;

// Largest raw view: 2^27 R32 texels. Offsets must be multiples of kViewOffsetAlignment (D3D12 needs 16 for raw
// views; 256 also covers every Vulkan minTexelBufferOffsetAlignment we know of).
constexpr uint64_t kMaxViewBytes = uint64_t{1} << 29;
constexpr uint64_t kViewOffsetAlignment = 256;
constexpr uint64_t kWholeBuffer = ~uint64_t{0};

// Bytes [offset, offset + size) of a device buffer, seen by the shader as a raw buffer starting at 0.
struct BufferView {
    GpuBuffer* buffer = nullptr;
    uint64_t offset = 0;
    uint64_t size = kWholeBuffer;  // kWholeBuffer: to the end of the buffer
    // A typed view of R32G32B32A32_UINT elements (shaders: srv_typed_uint4 / uav_typed_uint4) instead of a
    // raw one; the size must then be a multiple of 16.
    bool typed_uint4 = false;
};

// Splits [offset, offset + size) into consecutive views of 2^window_log2 bytes (the last may be shorter),
// matching shaders::TensorViews{views, window_log2}.
Result<std::vector<BufferView>> split_into_views(GpuBuffer& buffer, uint64_t offset, uint64_t size,
                                                 uint32_t window_log2 = 29);

struct KernelLayout {
    uint32_t root_constants = 0;  // at most 63 (the root signature holds 64 DWORDs, one goes to the table)
    uint32_t srvs = 0;            // t0 ..
    uint32_t uavs = 0;            // u0 ..
};

struct DispatchArgs {
    std::span<const uint32_t> root_constants;  // exactly layout.root_constants values
    std::span<const BufferView> srvs;          // exactly layout.srvs views
    std::span<const BufferView> uavs;          // exactly layout.uavs views
    uint32_t groups_x = 1;
    uint32_t groups_y = 1;
    uint32_t groups_z = 1;
    bool barrier_after = true;  // false: the next dispatch is independent of this one's writes (may overlap)
};

class ComputeKernel {
public:
    static Result<ComputeKernel> create(GpuContext& context, std::span<const uint8_t> dxbc, const KernelLayout& layout,
                                        std::string name);

    // Records state transitions (SRV buffers -> shader resource, UAV buffers -> unordered access), the
    // bindings, the dispatch and (unless args.barrier_after is false) a UAV barrier, so the next dispatch sees
    // this one's writes.
    Status record_dispatch(GpuContext& context, const DispatchArgs& args) const;

    const std::string& name() const { return name_; }
    const KernelLayout& layout() const { return layout_; }

private:
    ComputeKernel() = default;
    ComPtr<ID3D12RootSignature> root_signature_;
    ComPtr<ID3D12PipelineState> pipeline_;
    KernelLayout layout_;
    std::string name_;
};

}  // namespace dmltool::gpu
