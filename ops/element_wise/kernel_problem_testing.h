// A test Op that runs one ElementWiseProblem (kernel.h) with given options, so that the GPU backend lays out,
// poisons and reads back its tensors as for real ops; shared by the element-wise GPU tests.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/element_wise/kernel.h"

namespace dmltool::ops::element_wise::problem_testing {

struct ProblemDesc : OpDesc {
    ElementWiseProblem problem;
    std::vector<TensorDesc> inputs;
    TensorDesc output;
    ElementWiseKernelOptions options;
};

class KernelProblemOp final : public Op {
public:
    std::string_view name() const override { return "ELEMENT_WISE_KERNEL_TEST"; }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader&) const override { return unsupported("test op"); }
    std::vector<TensorSlot> tensors(const OpDesc& desc) const override {
        const auto& d = static_cast<const ProblemDesc&>(desc);
        std::vector<TensorSlot> slots;
        for (size_t i = 0; i < d.inputs.size(); ++i) slots.push_back({"Input" + std::to_string(i), "InputTensor", TensorRole::kInput, &d.inputs[i]});
        slots.push_back({"OutputTensor", "OutputTensor", TensorRole::kOutput, &d.output});
        return slots;
    }
    const FeatureLevelTable& feature_levels() const override { return table_; }
    Status run_reference(const OpDesc&, std::span<const HostTensor* const>, std::span<HostTensor* const>,
                         const ReferenceContext&) const override {
        return unsupported("test op");
    }
    Tolerance default_tolerance(const OpDesc&, size_t) const override { return {}; }
    WorkEstimate work(const OpDesc&) const override { return {}; }
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override {
        const auto& d = static_cast<const ProblemDesc&>(desc);
        return plan_element_wise_problem(d.problem, d.options);
    }

private:
    FeatureLevelTable table_;
};

}  // namespace dmltool::ops::element_wise::problem_testing
