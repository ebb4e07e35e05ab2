#include "gpu/gpu_context.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "core/platform.h"
#include "gpu/gpu_buffer.h"
#include "gpu/hresult.h"
#include "gpu/platform.h"

namespace dmltool::gpu {

namespace {

// Wine's vkd3d (1.6 in Wine 8.0) puts descriptor tables in push constants; DirectML's QUANTIZED_LINEAR_CONVOLUTION
// root signature needs 260 bytes of them, NVIDIA allows 256, and its GPU work then never finished on an H200 (vkd3d
// logged "Push constants size 260 exceeds maximum allowed size 256. Try VKD3D_CONFIG=virtual_heaps"); with
// VKD3D_CONFIG=virtual_heaps it ran and passed (docs/directml-gpu-machine.md). A timeout under Wine says so.
std::string wine_timeout_hint() {
    if (dmltool::platform::describe_host().os.rfind("Wine", 0) != 0) return "";
    const char* config = std::getenv("VKD3D_CONFIG");
    if (config != nullptr && std::strstr(config, "virtual_heaps") != nullptr) return "";
    return "; under Wine, vkd3d's descriptor tables in push constants can exceed the GPU's (NVIDIA: 256 bytes) and "
           "hang: try VKD3D_CONFIG=virtual_heaps (docs/directml-gpu-machine.md)";
}

using Clock = std::chrono::steady_clock;

}  // namespace

Result<std::unique_ptr<GpuContext>> GpuContext::create(const GpuContextOptions& options) {
    std::unique_ptr<GpuContext> context(new GpuContext());
    DMLTOOL_RETURN_IF_ERROR(context->initialize(options));
    return context;
}

// After a timed-out submit the GPU may still be running work that uses kept-alive objects. Give it a while;
// if it never finishes, leak the in-flight objects and the device rather than free memory in use.
GpuContext::~GpuContext() {
    if (!fence_ || lost_reason_.empty() || fence_->GetCompletedValue() >= fence_value_) return;
    constexpr uint32_t kTeardownWaitMs = 30'000;
    if (SUCCEEDED(fence_->SetEventOnCompletion(fence_value_, fence_event_->handle())) &&
        wait_for_fence(fence_value_, kTeardownWaitMs)) {
        return;
    }
    // Deliberate leaks: the GPU never finished.
    for (ComPtr<IUnknown>& object : keep_alive_) (void)object.Detach();
    (void)list_.Detach();
    (void)allocator_.Detach();
    (void)queue_.Detach();
    (void)fence_.Detach();
    (void)descriptor_heap_.Detach();
    (void)device_.Detach();
    (void)fence_event_.release();
    (void)factory_.release();
}

Status GpuContext::initialize(const GpuContextOptions& options) {
    const auto start = Clock::now();
    // Asked before any device exists: outside developer mode Windows answers SetStablePowerState by removing the
    // device, and vkd3d lacks it.
    if (options.stable_power_state) DMLTOOL_RETURN_IF_ERROR(DeviceFactory::stable_power_state_allowed());
    DMLTOOL_ASSIGN_OR_RETURN(factory_, DeviceFactory::open());
    DMLTOOL_ASSIGN_OR_RETURN(fence_event_, FenceEvent::create());
    DMLTOOL_ASSIGN_OR_RETURN(const uint32_t chosen, choose_adapter(factory_->adapters(), options));
    adapter_ = factory_->adapters()[chosen];

    faults_ = options.faults;
    trace_transfers_ = options.trace_transfers;
    HRESULT hr = faults_ ? faults_->on_device_creation() : S_OK;
    const bool injected = FAILED(hr);
    if (!injected) hr = factory_->create_device(chosen, device_);
    if (FAILED(hr)) {
        Status failed = hresult_status(hr, std::string(DeviceFactory::create_call()) + " on adapter " +
                                               std::to_string(chosen) + " '" + adapter_.name + "'");
        return injected ? device_error(failed.message() + kInjectedMark) : failed;
    }
    device_creation_seconds_ = std::chrono::duration<double>(Clock::now() - start).count();
    if (options.stable_power_state) DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->SetStablePowerState(TRUE));

    D3D12_COMMAND_QUEUE_DESC queue_desc{};
    queue_desc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->CreateCommandQueue(&queue_desc, IID_PPV_ARGS(&queue_)));
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&allocator_)));
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator_.Get(),
                                                                    nullptr, IID_PPV_ARGS(&list_)));
    // SetEventOnCompletion(value, nullptr) does not block on vkd3d 1.2, so we always wait on an event (and
    // Windows' blocking form could not time out).
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence_)));
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), queue_->GetTimestampFrequency(&timestamp_frequency_));

    D3D12_DESCRIPTOR_HEAP_DESC heap_desc{};
    heap_desc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
    heap_desc.NumDescriptors = options.descriptor_capacity;
    heap_desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->CreateDescriptorHeap(&heap_desc, IID_PPV_ARGS(&descriptor_heap_)));
    descriptor_capacity_ = options.descriptor_capacity;
    max_buffer_bytes_ = adapter_.max_buffer_bytes;
    D3D12_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT address_bits{};
    if (SUCCEEDED(device_->CheckFeatureSupport(D3D12_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT, &address_bits, sizeof address_bits)) &&
        address_bits.MaxGPUVirtualAddressBitsPerResource > 0 && address_bits.MaxGPUVirtualAddressBitsPerResource < 64) {
        const uint64_t reach = uint64_t{1} << address_bits.MaxGPUVirtualAddressBitsPerResource;
        max_buffer_bytes_ = max_buffer_bytes_ ? std::min(max_buffer_bytes_, reach) : reach;
    }
    descriptor_increment_ = device_->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    submit_timeout_ms_ = options.submit_timeout_ms;
    return Status::ok();
}

Status GpuContext::lost_error() const {
    return device_error("GPU context unusable after an earlier failure: " + lost_reason_);
}

Status GpuContext::check(HRESULT hr, const char* call) const {
    if (SUCCEEDED(hr)) return Status::ok();
    return hresult_status(hr, call, device_.Get());
}

// The event is only a wake-up hint: the fence's completed value decides. Waiting in slices and re-reading the
// fence means a lost or early signal cannot turn finished work into a timeout (once seen under Wine: one case of
// the bundled suite timed out after 60 s although it finishes in seconds).
bool GpuContext::wait_for_fence(uint64_t value, uint32_t timeout_ms) {
    constexpr uint32_t kSliceMs = 500;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (fence_->GetCompletedValue() < value) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return false;
        (void)fence_event_->wait(uint32_t(std::min<int64_t>(left, kSliceMs)));
    }
    return true;
}

Status GpuContext::submit_and_wait() {
    if (!lost_reason_.empty()) return lost_error();
    auto mark_lost = [this](Status status) {
        lost_reason_ = status.message();
        return status;
    };
    HRESULT hr = list_->Close();
    if (FAILED(hr)) return mark_lost(hresult_status(hr, "ID3D12GraphicsCommandList::Close (an invalid command was recorded?)", device_.Get()));
    ID3D12CommandList* lists[] = {list_.Get()};
    queue_->ExecuteCommandLists(1, lists);
    hr = queue_->Signal(fence_.Get(), ++fence_value_);
    if (FAILED(hr)) return mark_lost(hresult_status(hr, "ID3D12CommandQueue::Signal", device_.Get()));
    if (fence_->GetCompletedValue() < fence_value_) {
        hr = fence_->SetEventOnCompletion(fence_value_, fence_event_->handle());
        if (FAILED(hr)) return mark_lost(hresult_status(hr, "ID3D12Fence::SetEventOnCompletion", device_.Get()));
        if (!wait_for_fence(fence_value_, submit_timeout_ms_)) {
            return mark_lost(device_error("GPU work did not finish within " + std::to_string(submit_timeout_ms_) +
                                          " ms (fence value " + std::to_string(fence_value_) + ")" +
                                          wine_timeout_hint()));
        }
    }
    if (fence_->GetCompletedValue() == UINT64_MAX || FAILED(device_->GetDeviceRemovedReason())) {
        return mark_lost(hresult_status(device_->GetDeviceRemovedReason(), "GPU execution", device_.Get()));
    }
    if (faults_) {
        if (const HRESULT injected = faults_->on_submission(); FAILED(injected))
            return mark_lost(device_error(hresult_status(injected, "GPU execution").message() + kInjectedMark));
    }
    keep_alive_.clear();
    descriptors_used_ = 0;
    hr = allocator_->Reset();
    if (FAILED(hr)) return mark_lost(hresult_status(hr, "ID3D12CommandAllocator::Reset", device_.Get()));
    hr = list_->Reset(allocator_.Get(), nullptr);
    if (FAILED(hr)) return mark_lost(hresult_status(hr, "ID3D12GraphicsCommandList::Reset", device_.Get()));
    return Status::ok();
}

Status GpuContext::discard_recording() {
    if (!lost_reason_.empty()) return lost_error();
    // Close may report an invalid command recorded before the failure; the list is thrown away either way.
    (void)list_->Close();
    // Nothing recorded since the last (waited-for) submit reached the GPU, so what it kept alive can go now.
    keep_alive_.clear();
    descriptors_used_ = 0;
    HRESULT hr = allocator_->Reset();
    if (FAILED(hr)) {
        lost_reason_ = hresult_status(hr, "ID3D12CommandAllocator::Reset", device_.Get()).message();
        return lost_error();
    }
    hr = list_->Reset(allocator_.Get(), nullptr);
    if (FAILED(hr)) {
        lost_reason_ = hresult_status(hr, "ID3D12GraphicsCommandList::Reset", device_.Get()).message();
        return lost_error();
    }
    return Status::ok();
}

Result<DescriptorRange> GpuContext::allocate_descriptors(uint32_t count) {
    if (!lost_reason_.empty()) return lost_error();
    if (descriptors_used_ + count > descriptor_capacity_) {
        return device_error("descriptor heap exhausted: " + std::to_string(descriptors_used_) + " of " +
                            std::to_string(descriptor_capacity_) +
                            " descriptors recorded since the last submit; submit more often or raise "
                            "GpuContextOptions::descriptor_capacity");
    }
    DescriptorRange range;
    range.cpu = platform::cpu_descriptor_start(descriptor_heap_.Get());
    range.gpu = platform::gpu_descriptor_start(descriptor_heap_.Get());
    range.cpu.ptr += uint64_t{descriptors_used_} * descriptor_increment_;
    range.gpu.ptr += uint64_t{descriptors_used_} * descriptor_increment_;
    range.increment = descriptor_increment_;
    descriptors_used_ += count;
    ID3D12DescriptorHeap* heaps[] = {descriptor_heap_.Get()};
    list_->SetDescriptorHeaps(1, heaps);
    return range;
}

Result<double> GpuContext::time_gpu(uint32_t iterations, const std::function<Status()>& record_one) {
    if (!lost_reason_.empty()) return lost_error();
    if (iterations == 0) return internal_error("time_gpu: no iterations to time");
    D3D12_QUERY_HEAP_DESC heap_desc{};
    heap_desc.Type = D3D12_QUERY_HEAP_TYPE_TIMESTAMP;
    heap_desc.Count = 2;
    ComPtr<ID3D12QueryHeap> queries;
    DMLTOOL_TRY_HR_DEVICE(device_.Get(), device_->CreateQueryHeap(&heap_desc, IID_PPV_ARGS(&queries)));
    const uint64_t bytes = uint64_t{heap_desc.Count} * sizeof(uint64_t);
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer readback, GpuBuffer::create(*this, MemoryKind::kReadback, bytes, "timestamps"));
    keep_alive(queries.Get());
    keep_alive(readback.resource());

    list_->EndQuery(queries.Get(), D3D12_QUERY_TYPE_TIMESTAMP, 0);
    for (uint32_t i = 0; i < iterations; ++i) DMLTOOL_RETURN_IF_ERROR(record_one());
    list_->EndQuery(queries.Get(), D3D12_QUERY_TYPE_TIMESTAMP, 1);
    list_->ResolveQueryData(queries.Get(), D3D12_QUERY_TYPE_TIMESTAMP, 0, heap_desc.Count, readback.resource(), 0);
    DMLTOOL_RETURN_IF_ERROR(submit_and_wait());

    DMLTOOL_ASSIGN_OR_RETURN(MappedRange mapped, readback.map(0, bytes));
    uint64_t ticks[2];
    std::memcpy(ticks, mapped.data(), bytes);
    // A device whose counter does not advance (or wraps) reads 0: callers treat a non-positive time as "no time".
    const uint64_t elapsed = ticks[1] >= ticks[0] ? ticks[1] - ticks[0] : 0;
    return static_cast<double>(elapsed) / static_cast<double>(timestamp_frequency_) / iterations;
}

}  // namespace dmltool::gpu
