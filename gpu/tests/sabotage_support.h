// Sabotaged device plans, for the "never a silent pass" tests: the real operator with its DevicePlan tampered
// with, and a Backend that runs every case through the real GpuBackend that way. Each sabotage is what a broken
// kernel does — writes nothing, writes zeros, writes the right values one element off, copies its input —
// built from the strided-gather kernel of shaders/kernels.h, so only the plan is fake, never the device path.
#pragma once

#include <string>
#include <vector>

#include "core/backend.h"
#include "core/op.h"
#include "gpu/gpu_backend.h"
#include "tests/testing/plan_replacing_op.h"

namespace dmltool::sabotage {

enum class Sabotage {
    kNone,            // the real plan: the control
    kDropDispatches,  // no kernel runs: outputs keep the poison fill
    kWriteZeros,      // every output element is written as 0
    kShiftByOne,      // the real kernels run, then output[i] = output[i + 1] (the last reads 0)
    kCopyInput,       // OutputTensor(s)[0] = the first elements of input 0; other outputs untouched
};
const char* sabotage_name(Sabotage how);

// The real operator's plan with the sabotage applied. Outputs must be packed (the sabotage kernels address them as
// flat arrays).
Result<DevicePlan> sabotaged_plan(const Op& real, Sabotage how, const OpDesc& desc, const SemanticsOptions& semantics);

// `real` in everything but plan_device, which is sabotaged_plan.
inline testing::PlanReplacingOp SabotagedOp(const Op& real, Sabotage how) {
    return {real, [how](const Op& op, const OpDesc& desc, const SemanticsOptions& semantics) {
                return sabotaged_plan(op, how, desc, semantics);
            }};
}

// Runs each case's operator as a SabotagedOp on the real GpuBackend.
class SabotagingBackend final : public Backend {
public:
    SabotagingBackend(gpu::GpuBackend& gpu, Sabotage how) : gpu_(gpu), how_(how) {}

    std::string name() const override { return gpu_.name(); }
    Result<std::vector<HostTensor>> execute(const Op& op, const OpDesc& desc,
                                            const std::vector<const HostTensor*>& inputs,
                                            BackendTiming* timing, std::byte output_poison) override {
        return gpu_.execute(SabotagedOp(op, how_), desc, inputs, timing, output_poison);
    }
    Result<double> time_executions(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                   unsigned) override {
        return unsupported("sabotaged plans are not timed");
    }
    Result<DeviceRoofline> measure_roofline(uint64_t) override { return unsupported("sabotaged plans: no roofline"); }
    Status check_capacity(const Op& op, const OpDesc& desc) override { return gpu_.check_capacity(op, desc); }

private:
    gpu::GpuBackend& gpu_;
    Sabotage how_;
};

}  // namespace dmltool::sabotage
