// GpuContext: one D3D12 device on one adapter, with the single queue, command allocator, always-open command
// list, fence + event and shader-visible descriptor heap that dmltool's GPU path needs. It owns everything it
// creates and must outlive every buffer and kernel made from it (single owner, strictly nested lifetimes).
//
// Adapters come from the platform (gpu/platform.h): on Linux vkd3d's Vulkan physical devices, on Windows
// DXGI's adapters. Default choice: the first discrete GPU, else integrated, else virtual, else a software
// device (lavapipe on Linux, WARP on Windows).
//
// Work model: record into command_list(), then submit_and_wait(), which blocks with a timeout so a hung GPU
// turns into a kDevice error instead of hanging the tool. After a timeout or device removal the context is
// "lost": every later call fails with the original reason.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "gpu/d3d12_platform.h"
#include "gpu/fault_injector.h"

namespace dmltool::gpu {

class DeviceFactory;  // gpu/platform.h
class FenceEvent;

enum class AdapterKind { kDiscrete, kIntegrated, kVirtual, kCpu, kOther };
const char* adapter_kind_name(AdapterKind kind);

struct AdapterInfo {
    uint32_t index = 0;         // position in list_adapters(), usable as GpuContextOptions::adapter_index
    std::string name;           // Vulkan deviceName / DXGI description (UTF-8), e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    AdapterKind kind = AdapterKind::kOther;
    uint32_t vendor_id = 0;
    uint32_t device_id = 0;
    uint32_t vulkan_api_version = 0;  // Linux only (0 on Windows)
    uint64_t luid = 0;                // Windows only: the DXGI adapter LUID (HighPart << 32 | LowPart)
    // The driver's version as its platform reports it ("vulkan driver 0x...", "umd a.b.c.d"), empty when it does
    // not say: part of the autotuning cache key (a new driver may change which variant is fastest).
    std::string driver_version;
    uint64_t device_local_bytes = 0;  // largest device-local memory heap (Windows: dedicated video memory)
    // Largest single buffer the Vulkan device allows (min of maxMemoryAllocationSize and maxBufferSize; vkd3d
    // makes each committed buffer one VkBuffer with its own allocation). 0 when the driver does not say.
    uint64_t max_buffer_bytes = 0;
};

// Every adapter the D3D12 runtime can use. An error means the runtime (vkd3d's Vulkan instance, DXGI) failed.
Result<std::vector<AdapterInfo>> list_adapters();

struct GpuContextOptions {
    std::optional<uint32_t> adapter_index;   // pick by list_adapters() index
    std::string adapter_name_contains;       // or by case-insensitive substring of the name
    bool allow_cpu_adapter = true;           // the default choice may fall back to lavapipe
    uint32_t submit_timeout_ms = 60'000;     // submit_and_wait gives up after this
    uint32_t descriptor_capacity = 16'384;   // shader-visible descriptors available between two submits
    FaultInjector* faults = nullptr;         // test hook (gpu/fault_injector.h); not owned, outlives the context
    // ID3D12Device::SetStablePowerState(TRUE) after device creation: fixed (lower) clocks for A/B timing. Windows
    // in developer mode only (DeviceFactory::stable_power_state_allowed); creation fails with the reason otherwise.
    bool stable_power_state = false;
    // Diagnostics (DMLTOOL_TRANSFER_TRACE=1): each upload's and download's steps (staging creation, map, memcpy,
    // submit and wait) timed on stderr, to find where a slow data path spends its time (Wine on NVIDIA).
    bool trace_transfers = false;
};

// A block of consecutive descriptors in the shader-visible heap, valid until the next submit_and_wait().
struct DescriptorRange {
    D3D12_CPU_DESCRIPTOR_HANDLE cpu{};
    D3D12_GPU_DESCRIPTOR_HANDLE gpu{};
    uint32_t increment = 0;
};

class GpuContext {
public:
    static Result<std::unique_ptr<GpuContext>> create(const GpuContextOptions& options = {});
    ~GpuContext();
    GpuContext(const GpuContext&) = delete;
    GpuContext& operator=(const GpuContext&) = delete;

    const AdapterInfo& adapter() const { return adapter_; }
    ID3D12Device* device() const { return device_.Get(); }
    ID3D12GraphicsCommandList* command_list() const { return list_.Get(); }
    double device_creation_seconds() const { return device_creation_seconds_; }
    uint64_t timestamp_frequency() const { return timestamp_frequency_; }
    // Largest buffer this device can create: the adapter's Vulkan limit and D3D12's per-resource virtual address
    // bits (MaxGPUVirtualAddressBitsPerResource), whichever is smaller.
    uint64_t max_buffer_bytes() const { return max_buffer_bytes_; }
    FaultInjector* faults() const { return faults_; }
    bool trace_transfers() const { return trace_transfers_; }
    // True after a timeout, device removal or failed submission: every later call fails with lost_reason().
    bool is_lost() const { return !lost_reason_.empty(); }
    const std::string& lost_reason() const { return lost_reason_; }

    // Closes and executes the command list, waits for it (with the timeout), then reopens it and releases
    // everything kept alive for it. Returns kDevice on timeout, device removal or any failed call.
    Status submit_and_wait();
    // Throws away what was recorded since the last submit without executing it: a case that failed half-way
    // through recording must not leave commands (referencing its freed buffers) for the next case's submit.
    Status discard_recording();

    // Changes the submit_and_wait timeout (e.g. a longer one for a known-slow benchmark).
    void set_submit_timeout_ms(uint32_t milliseconds) { submit_timeout_ms_ = milliseconds; }

    // Keeps an object alive until the work recorded so far has finished (e.g. a staging buffer). Everything a
    // recorded command uses is kept alive this way, so destroying a GpuBuffer or ComputeKernel right after a
    // failed (timed-out) submit cannot free memory the GPU is still using.
    void keep_alive(IUnknown* object) { keep_alive_.emplace_back(object); }

    Result<DescriptorRange> allocate_descriptors(uint32_t count);

    // Records `iterations` calls of record_one() back to back between two timestamps, submits, waits, and returns
    // the mean GPU time per call in seconds. No timestamp sits between calls: on NVIDIA under vkd3d each one cost
    // ~5 us (results/h100_2026-11-27_timestamps/), more than some whole executions, and PyTorch's baseline times
    // its batches between two events likewise. record_one must end with a barrier if successive iterations must
    // not overlap (ComputeKernel::record_dispatch does).
    Result<double> time_gpu(uint32_t iterations, const std::function<Status()>& record_one);

    // A failed HRESULT as a Status, with the device-removal reason when it applies.
    Status check(HRESULT hr, const char* call) const;

private:
    GpuContext() = default;
    Status initialize(const GpuContextOptions& options);
    Status lost_error() const;
    bool wait_for_fence(uint64_t value, uint32_t timeout_ms);  // true once the fence reached value

    // Declaration order is destruction order in reverse: the device goes before the event its fence worker
    // may still signal, and before the runtime (vkd3d's instance) that made it.
    std::unique_ptr<DeviceFactory> factory_;
    std::unique_ptr<FenceEvent> fence_event_;
    std::vector<ComPtr<IUnknown>> keep_alive_;  // released after the device reference (see ~GpuContext)
    AdapterInfo adapter_;
    ComPtr<ID3D12Device> device_;
    ComPtr<ID3D12CommandQueue> queue_;
    ComPtr<ID3D12CommandAllocator> allocator_;
    ComPtr<ID3D12GraphicsCommandList> list_;
    ComPtr<ID3D12Fence> fence_;
    ComPtr<ID3D12DescriptorHeap> descriptor_heap_;
    uint32_t descriptor_capacity_ = 0;
    uint32_t descriptors_used_ = 0;
    uint32_t descriptor_increment_ = 0;
    uint64_t fence_value_ = 0;
    uint64_t timestamp_frequency_ = 0;
    uint32_t submit_timeout_ms_ = 0;
    double device_creation_seconds_ = 0;
    uint64_t max_buffer_bytes_ = 0;
    FaultInjector* faults_ = nullptr;
    bool trace_transfers_ = false;
    std::string lost_reason_;  // non-empty once the context is unusable
};

}  // namespace dmltool::gpu
