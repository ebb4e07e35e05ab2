// The seam between the harness and a device: a Backend executes one case's operator on physical buffers and
// returns the logical outputs. The CPU reference is not a Backend — it is the oracle every backend is
// compared against. The D3D12 backend (gpu/) implements this interface; core never includes d3d12.h.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.h"
#include "core/plan_tuning.h"
#include "core/status.h"
#include "core/tensor.h"

namespace dmltool {

// Sizes in limit messages: "512 bytes", "3.5 KiB", "640.0 MiB", "3.00 GiB".
inline std::string describe_bytes(uint64_t bytes) {
    char text[48];
    if (bytes < (uint64_t{1} << 10))
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    else if (bytes < (uint64_t{1} << 20))
        std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / double(uint64_t{1} << 10));
    else if (bytes < (uint64_t{1} << 30))
        std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(uint64_t{1} << 20));
    else
        std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(uint64_t{1} << 30));
    return text;
}

// In the message of a kUnsupported execute(): the backend's runtime refused a desc that dmltool's validator
// accepted (DirectML's CreateOperator/CompileOperator returned E_INVALIDARG). A deviation registry may explain it.
inline constexpr std::string_view kDescRejectedMarker = "rejected a desc that dmltool validated";

// Byte pattern written over every output buffer before an execution, so elements a kernel never writes cannot
// pass. The runner may execute again with a second pattern to prove that constant expected outputs were written.
inline constexpr std::byte kDefaultOutputPoison{0xcd};

struct BackendTiming {
    double first_ms = 0;  // the first (cold) execution, pipeline creation excluded
};

// What the device itself can do, measured through the same path the operators use: the roofline the benchmark
// report divides each case's throughput by. Zero means "not measured" (reported as such, never as 0%).
struct DeviceRoofline {
    double copy_bytes_per_second = 0;         // bytes read + bytes written per second by the best plain copy
    std::string copy_method;                  // how that copy was done, e.g. "compute ld_raw/store_raw x4"
    double int_multiply_adds_per_second = 0;  // 32-bit integer multiply-adds per second (imad peak)
    double float_fmas_per_second = 0;         // float32 mad per second (fp32 peak), for kernels that use it
    std::string adapter;                      // adapter name and ids, for the report header
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;  // "gpu (llvmpipe ...)" for reports
    // Short label for report columns and benchmark names: "gpu" (dmltool's own kernels), "directml", ...
    virtual std::string label() const { return "gpu"; }
    // The highest DML feature level this backend implements (DirectML: IDMLDevice::CheckFeatureSupport);
    // nullopt: no limit of its own. A case needing more is UNSUPPORTED on this backend, with the reason.
    virtual std::optional<FeatureLevel> max_feature_level() const { return std::nullopt; }
    // The version of a third-party implementation behind the backend (DirectML.dll's file version: "1.15.4"); it
    // picks the backend's deviation registry (core/deviations.h). nullopt: none, or it could not be read.
    virtual std::optional<std::string> implementation_version() const { return std::nullopt; }
    // `inputs` are logical tensors; the backend lays them into physical buffers itself. Every output buffer is
    // filled with `output_poison` before the device runs. Returns logical outputs in the op's output slot order.
    // kUnsupported when the backend cannot run this desc (reported as such). `timing` may be null.
    virtual Result<std::vector<HostTensor>> execute(const Op& op, const OpDesc& desc,
                                                    const std::vector<const HostTensor*>& inputs,
                                                    BackendTiming* timing,
                                                    std::byte output_poison = kDefaultOutputPoison) = 0;
    // For benchmarks: executes `iterations` (>= 1) times back to back in one submission and returns the mean
    // device time per execution in seconds (GPU timestamps around the whole batch), uploads and readbacks excluded.
    virtual Result<double> time_executions(const Op& op, const OpDesc& desc,
                                           const std::vector<const HostTensor*>& inputs,
                                           unsigned iterations) = 0;
    // Runs the built-in probes (plain copy of `copy_bytes`, multiply-add throughput). Takes seconds on a GPU.
    virtual Result<DeviceRoofline> measure_roofline(uint64_t copy_bytes) = 0;

    // Limits, checked before anything is allocated: kUnsupported, naming the buffer and the numbers (needed vs
    // allowed), when this desc's buffers exceed the device's limits or its memory budget.
    virtual Status check_capacity(const Op& op, const OpDesc& desc) {
        (void)op;
        (void)desc;
        return Status::ok();
    }
    // How the plan of this desc was chosen (autotuning, core/plan_tuning.h); nullopt: the backend has no plans to
    // choose between (the reference, DirectML) or has not planned this desc yet.
    virtual std::optional<PlanChoice> plan_choice(const Op& op, const OpDesc& desc) {
        (void)op;
        (void)desc;
        return std::nullopt;
    }
    // Device faults: lost() is true once the device is unusable (removed, hung, timed out) so every later
    // execute would fail the same way; recover() replaces it with a new device on the same adapter.
    virtual bool lost() const { return false; }
    virtual Status recover() { return device_error(name() + ": cannot recreate its device"); }
};

}  // namespace dmltool
