#include "gpu/compute_kernel.h"

#include <algorithm>

#include "gpu/gpu_context.h"
#include "gpu/hresult.h"

namespace dmltool::gpu {
namespace {

constexpr uint32_t kConstantsParameter = 0;

Result<ComPtr<ID3D12RootSignature>> create_root_signature(GpuContext& context, const KernelLayout& layout,
                                                          const std::string& name) {
    D3D12_ROOT_PARAMETER parameters[2]{};
    uint32_t count = 0;
    if (layout.root_constants > 0) {
        D3D12_ROOT_PARAMETER& constants = parameters[count++];
        constants.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
        constants.Constants.ShaderRegister = 0;
        constants.Constants.Num32BitValues = layout.root_constants;
        constants.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    }
    D3D12_DESCRIPTOR_RANGE ranges[2]{};
    uint32_t range_count = 0;
    if (layout.srvs > 0) {
        ranges[range_count++] = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, layout.srvs, 0, 0,
                                 D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND};
    }
    if (layout.uavs > 0) {
        ranges[range_count++] = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, layout.uavs, 0, 0,
                                 D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND};
    }
    if (range_count > 0) {
        D3D12_ROOT_PARAMETER& table = parameters[count++];
        table.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        table.DescriptorTable.NumDescriptorRanges = range_count;
        table.DescriptorTable.pDescriptorRanges = ranges;
        table.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    }
    const D3D12_ROOT_SIGNATURE_DESC desc{count, parameters, 0, nullptr, D3D12_ROOT_SIGNATURE_FLAG_NONE};
    ComPtr<ID3DBlob> blob;
    ComPtr<ID3DBlob> error;
    const HRESULT hr = D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1, &blob, &error);
    if (FAILED(hr)) {
        std::string detail = error ? std::string(static_cast<const char*>(error->GetBufferPointer()),
                                                 error->GetBufferSize())
                                   : "";
        return hresult_status(hr, "D3D12SerializeRootSignature for kernel '" + name + "' " + detail);
    }
    ComPtr<ID3D12RootSignature> root_signature;
    DMLTOOL_RETURN_IF_ERROR(context.check(
        context.device()->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                                              IID_PPV_ARGS(&root_signature)),
        ("CreateRootSignature for kernel '" + name + "'").c_str()));
    return root_signature;
}

// Resolves kWholeBuffer and checks the raw-view rules; returns {first 32-bit element, element count}.
Result<std::pair<uint64_t, uint32_t>> resolve_view(const BufferView& view, const std::string& what) {
    if (view.buffer == nullptr) return invalid_input(what + ": no buffer bound");
    const GpuBuffer& buffer = *view.buffer;
    if (buffer.kind() != MemoryKind::kDevice) return invalid_input(what + ": buffer '" + buffer.name() + "' is not a device buffer");
    const uint64_t size = view.size == kWholeBuffer ? buffer.size() - std::min(view.offset, buffer.size()) : view.size;
    const std::string where = what + " (buffer '" + buffer.name() + "', offset " + std::to_string(view.offset) +
                              ", size " + std::to_string(size) + ")";
    if (view.offset % kViewOffsetAlignment != 0) {
        return invalid_input(where + ": offset must be a multiple of " + std::to_string(kViewOffsetAlignment));
    }
    if (view.offset > buffer.size() || size > buffer.size() - view.offset) return invalid_input(where + ": exceeds the buffer");
    if (size == 0 || size % 4 != 0) return invalid_input(where + ": size must be a non-zero multiple of 4");
    if (view.typed_uint4 && size % 16 != 0) return invalid_input(where + ": a typed uint4 view's size must be a multiple of 16");
    if (size > kMaxViewBytes) {
        return invalid_input(where + ": a raw view is limited to 512 MiB (Vulkan texel-buffer limit); bind the tensor "
                                     "as several views (split_into_views) or in chunks");
    }
    return std::pair<uint64_t, uint32_t>{view.offset / 4, static_cast<uint32_t>(size / 4)};
}

}  // namespace

Result<std::vector<BufferView>> split_into_views(GpuBuffer& buffer, uint64_t offset, uint64_t size,
                                                 uint32_t window_log2) {
    if (window_log2 < 8 || window_log2 > 29) return invalid_input("view window must be 2^8 .. 2^29 bytes");
    if (offset > buffer.size() || size > buffer.size() - offset || size == 0) {
        return invalid_input("split_into_views: range exceeds buffer '" + buffer.name() + "'");
    }
    const uint64_t window = uint64_t{1} << window_log2;
    std::vector<BufferView> views;
    for (uint64_t start = 0; start < size; start += window) {
        views.push_back({&buffer, offset + start, std::min(window, size - start)});
    }
    return views;
}

Result<ComputeKernel> ComputeKernel::create(GpuContext& context, std::span<const uint8_t> dxbc,
                                            const KernelLayout& layout, std::string name) {
    if (layout.root_constants > 63) return invalid_input("kernel '" + name + "': at most 63 root constants");
    ComputeKernel kernel;
    DMLTOOL_ASSIGN_OR_RETURN(kernel.root_signature_, create_root_signature(context, layout, name));
    D3D12_COMPUTE_PIPELINE_STATE_DESC desc{};
    desc.pRootSignature = kernel.root_signature_.Get();
    desc.CS.pShaderBytecode = dxbc.data();
    desc.CS.BytecodeLength = dxbc.size();
    DMLTOOL_RETURN_IF_ERROR(context.check(
        context.device()->CreateComputePipelineState(&desc, IID_PPV_ARGS(&kernel.pipeline_)),
        ("CreateComputePipelineState for kernel '" + name + "'").c_str()));
    kernel.layout_ = layout;
    kernel.name_ = std::move(name);
    return kernel;
}

Status ComputeKernel::record_dispatch(GpuContext& context, const DispatchArgs& args) const {
    const std::string what = "dispatch of kernel '" + name_ + "'";
    if (args.root_constants.size() != layout_.root_constants || args.srvs.size() != layout_.srvs ||
        args.uavs.size() != layout_.uavs) {
        return invalid_input(what + ": expected " + std::to_string(layout_.root_constants) + " constants, " +
                             std::to_string(layout_.srvs) + " SRVs, " + std::to_string(layout_.uavs) + " UAVs; got " +
                             std::to_string(args.root_constants.size()) + ", " + std::to_string(args.srvs.size()) +
                             ", " + std::to_string(args.uavs.size()));
    }
    for (const BufferView& srv : args.srvs) {
        for (const BufferView& uav : args.uavs) {
            if (srv.buffer == uav.buffer) {
                return invalid_input(what + ": buffer '" + srv.buffer->name() + "' bound as both SRV and UAV "
                                     "(bind it as a UAV only)");
            }
        }
    }
    ID3D12Device* device = context.device();
    ID3D12GraphicsCommandList* list = context.command_list();
    const uint32_t descriptor_count = layout_.srvs + layout_.uavs;
    DescriptorRange range{};
    if (descriptor_count > 0) {
        DMLTOOL_ASSIGN_OR_RETURN(range, context.allocate_descriptors(descriptor_count));
    }
    D3D12_CPU_DESCRIPTOR_HANDLE cpu = range.cpu;
    for (size_t i = 0; i < args.srvs.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(const auto elements, resolve_view(args.srvs[i], what + " t" + std::to_string(i)));
        D3D12_SHADER_RESOURCE_VIEW_DESC desc{};
        desc.Format = DXGI_FORMAT_R32_TYPELESS;
        desc.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        desc.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        desc.Buffer.FirstElement = elements.first;
        desc.Buffer.NumElements = elements.second;
        desc.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
        if (args.srvs[i].typed_uint4) {
            desc.Format = DXGI_FORMAT_R32G32B32A32_UINT;
            desc.Buffer.FirstElement = elements.first / 4;
            desc.Buffer.NumElements = elements.second / 4;
            desc.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_NONE;
        }
        device->CreateShaderResourceView(args.srvs[i].buffer->resource(), &desc, cpu);
        args.srvs[i].buffer->transition(list, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
        cpu.ptr += range.increment;
    }
    for (size_t i = 0; i < args.uavs.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(const auto elements, resolve_view(args.uavs[i], what + " u" + std::to_string(i)));
        D3D12_UNORDERED_ACCESS_VIEW_DESC desc{};
        desc.Format = DXGI_FORMAT_R32_TYPELESS;
        desc.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        desc.Buffer.FirstElement = elements.first;
        desc.Buffer.NumElements = elements.second;
        desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
        if (args.uavs[i].typed_uint4) {
            desc.Format = DXGI_FORMAT_R32G32B32A32_UINT;
            desc.Buffer.FirstElement = elements.first / 4;
            desc.Buffer.NumElements = elements.second / 4;
            desc.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_NONE;
        }
        device->CreateUnorderedAccessView(args.uavs[i].buffer->resource(), nullptr, &desc, cpu);
        args.uavs[i].buffer->transition(list, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        cpu.ptr += range.increment;
    }
    for (const BufferView& view : args.srvs) context.keep_alive(view.buffer->resource());
    for (const BufferView& view : args.uavs) context.keep_alive(view.buffer->resource());
    context.keep_alive(root_signature_.Get());
    context.keep_alive(pipeline_.Get());
    list->SetComputeRootSignature(root_signature_.Get());
    list->SetPipelineState(pipeline_.Get());
    uint32_t parameter = kConstantsParameter;
    if (layout_.root_constants > 0) {
        list->SetComputeRoot32BitConstants(parameter++, layout_.root_constants, args.root_constants.data(), 0);
    }
    if (descriptor_count > 0) list->SetComputeRootDescriptorTable(parameter, range.gpu);
    if (args.groups_x > 0 && args.groups_y > 0 && args.groups_z > 0) {
        list->Dispatch(args.groups_x, args.groups_y, args.groups_z);
    }
    if (!args.barrier_after) return Status::ok();
    D3D12_RESOURCE_BARRIER barrier{};
    barrier.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    barrier.UAV.pResource = nullptr;  // all UAV accesses
    list->ResourceBarrier(1, &barrier);
    return Status::ok();
}

}  // namespace dmltool::gpu
