// A test Op that is a real operator in everything but its GPU plan, which a function gives instead (other kernel
// options, a planted bug): the GPU tests of an operator's rarer paths and of their own power to fail.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/op.h"

namespace dmltool::testing {

class PlanReplacingOp final : public Op {
public:
    using Planner = std::function<Result<DevicePlan>(const Op& real, const OpDesc&, const SemanticsOptions&)>;
    PlanReplacingOp(const Op& real, Planner planner) : real_(real), planner_(std::move(planner)) {}
    std::string_view name() const override { return real_.name(); }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& desc) const override { return real_.parse(desc); }
    std::vector<TensorSlot> tensors(const OpDesc& desc) const override { return real_.tensors(desc); }
    const FeatureLevelTable& feature_levels() const override { return real_.feature_levels(); }
    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        return real_.run_reference(desc, inputs, outputs, context);
    }
    Tolerance default_tolerance(const OpDesc& desc, size_t output) const override {
        return real_.default_tolerance(desc, output);
    }
    Status check_input_values(const OpDesc& desc, std::span<const HostTensor* const> inputs) const override {
        return real_.check_input_values(desc, inputs);
    }
    WorkEstimate work(const OpDesc& desc) const override { return real_.work(desc); }
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions& semantics) const override {
        return planner_(real_, desc, semantics);
    }

private:
    const Op& real_;
    Planner planner_;
};

}  // namespace dmltool::testing
