// Test hook: simulated device faults. A FaultInjector makes the real code paths of gpu/ see the HRESULTs a
// failing device returns — device creation failure, E_OUTOFMEMORY from an allocation, DXGI_ERROR_DEVICE_REMOVED
// after a submission — so the error handling above them (messages, the runner's recovery, exit code 3) is
// tested on lavapipe instead of waiting for a real GPU to fail. Nothing is injected unless a plan asks for it;
// `dmltool run` takes the plan from the DMLTOOL_INJECT_FAULT environment variable (docs/robustness.md).
//
// Counting: device creations are counted by the injector's owner (GpuBackend counts its first device and each
// re-creation); "executions" are GpuBackend::execute calls (one per case that reaches the GPU), marked with
// begin_execution(). An injector is not thread-safe (neither is a GpuContext).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "gpu/d3d12_platform.h"

namespace dmltool::gpu {

struct FaultPlan {
    uint32_t fail_creation_at = 0;   // the K-th device creation fails (0: never)
    uint32_t out_of_memory_at = 0;   // the N-th execution's first device allocation fails with E_OUTOFMEMORY
    uint32_t removed_at = 0;         // the N-th execution's first submission reports DXGI_ERROR_DEVICE_REMOVED
    bool empty() const { return !fail_creation_at && !out_of_memory_at && !removed_at; }
};

// "create", "create@K", "oom@N", "removed@N", comma-separated (e.g. "removed@2,create@2": the device is lost
// in the second execution and cannot be recreated). Empty text is an empty plan. kInvalidInput otherwise.
Result<FaultPlan> parse_fault_plan(std::string_view text);

// Marks injected failures in messages so nobody mistakes them for real ones.
inline constexpr const char* kInjectedMark = " [injected fault]";

class FaultInjector {
public:
    explicit FaultInjector(FaultPlan plan) : plan_(plan) {}

    // Each returns S_OK, or the HRESULT the real call is to be treated as having returned.
    HRESULT on_device_creation();
    HRESULT on_device_allocation();
    HRESULT on_submission();

    void begin_execution() { ++executions_; }
    const FaultPlan& plan() const { return plan_; }

private:
    FaultPlan plan_;
    uint32_t creations_ = 0;
    uint32_t executions_ = 0;
    uint32_t oom_fired_in_ = 0;      // execution that already had its injected allocation failure
    uint32_t removal_fired_in_ = 0;  // execution that already had its injected removal
};

}  // namespace dmltool::gpu
