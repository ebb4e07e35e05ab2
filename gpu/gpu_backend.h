// GpuBackend runs an operator's DevicePlan (core/device_plan.h) on a GpuContext: it lays the inputs into their
// physical buffers, fills the outputs with a poison pattern (so untouched elements cannot pass), runs the
// dispatches and reads the outputs back as logical tensors. Compiled kernels are cached by blob contents.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/semantics.h"
#include "gpu/compute_kernel.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"

namespace dmltool::gpu {

// Byte written over every output buffer before the kernels run.
inline constexpr std::byte kOutputPoison{0xcd};

class GpuBackend final : public Backend {
public:
    static Result<std::unique_ptr<GpuBackend>> create(const GpuContextOptions& options,
                                                       const SemanticsOptions& semantics);

    std::string name() const override;
    Result<std::vector<HostTensor>> execute(const Op& op, const OpDesc& desc,
                                            const std::vector<const HostTensor*>& inputs,
                                            BackendTiming* timing) override;
    Result<std::vector<double>> time_executions(const Op& op, const OpDesc& desc,
                                                const std::vector<const HostTensor*>& inputs,
                                                unsigned iterations) override;
    Result<DeviceRoofline> measure_roofline(uint64_t copy_bytes) override;

    GpuContext& context() { return *context_; }
    // The semantics later plans follow (tests switch rules on one device instead of creating another).
    void set_semantics(const SemanticsOptions& semantics) { semantics_ = semantics; }

private:
    // Device buffers and kernels of one planned execution.
    struct Prepared {
        const OpDesc* desc = nullptr;
        std::vector<const HostTensor*> inputs;
        DevicePlan plan;
        std::vector<std::unique_ptr<GpuBuffer>> input_buffers;   // null for absent optional inputs
        std::vector<std::unique_ptr<GpuBuffer>> output_buffers;
        std::vector<std::unique_ptr<GpuBuffer>> auxiliary_buffers;
        std::vector<const ComputeKernel*> kernels;  // one per dispatch, owned by kernel_cache_
    };

    GpuBackend(std::unique_ptr<GpuContext> context, const SemanticsOptions& semantics)
        : context_(std::move(context)), semantics_(semantics) {}

    Result<std::unique_ptr<Prepared>> prepare(const Op& op, const OpDesc& desc,
                                              const std::vector<const HostTensor*>& inputs);
    Status reset_outputs(const Op& op, Prepared& prepared);
    Status record_plan(Prepared& prepared);
    Result<const ComputeKernel*> kernel_for(const KernelDispatch& dispatch);

    std::unique_ptr<GpuContext> context_;
    SemanticsOptions semantics_;
    std::map<std::string, std::unique_ptr<ComputeKernel>> kernel_cache_;  // key: layout + blob bytes
    std::unique_ptr<Prepared> last_timed_;  // reused by repeated time_executions calls on the same case
};

}  // namespace dmltool::gpu
