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

namespace dmltool::sabotage {

enum class Sabotage {
    kNone,            // the real plan: the control
    kDropDispatches,  // no kernel runs: outputs keep the poison fill
    kWriteZeros,      // every output element is written as 0
    kShiftByOne,      // the real kernels run, then output[i] = output[i + 1] (the last reads 0)
    kCopyInput,       // OutputTensor(s)[0] = the first elements of input 0; other outputs untouched
};
const char* sabotage_name(Sabotage how);

// Delegates everything to `real` but plan_device, which applies the sabotage. Outputs must be packed (the
// sabotage kernels address them as flat arrays).
class SabotagedOp final : public Op {
public:
    SabotagedOp(const Op& real, Sabotage how) : real_(real), how_(how) {}

    std::string_view name() const override { return real_.name(); }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& desc) const override { return real_.parse(desc); }
    std::vector<TensorSlot> tensors(const OpDesc& desc) const override { return real_.tensors(desc); }
    const FeatureLevelTable& feature_levels() const override { return real_.feature_levels(); }
    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        return real_.run_reference(desc, inputs, outputs, context);
    }
    Tolerance default_tolerance(const OpDesc& desc, size_t output_index) const override {
        return real_.default_tolerance(desc, output_index);
    }
    WorkEstimate work(const OpDesc& desc) const override { return real_.work(desc); }
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions& semantics) const override;

private:
    const Op& real_;
    Sabotage how_;
};

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
