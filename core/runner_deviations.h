// The runner's use of a deviation registry (core/deviations.h) for one device backend's part of a case: which
// registered models speak about the case, what each predicts (does the model's output break the contract?), and
// whether the device's outputs (or its refusal of the desc) match one of them. Internal to core/runner.cpp.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "core/compare.h"
#include "core/deviations.h"
#include "core/op.h"

namespace dmltool {

// What the reference side of a case knows, for evaluating models against it.
struct ContractOutputs {
    const Op& op;
    const OpDesc& desc;
    std::span<const HostTensor* const> inputs;
    const std::vector<HostTensor>& reference;  // the contract's outputs (physical round trip done)
    const std::vector<ExactOutput>& exact;     // per output; empty exact values where no error bound applies
    const std::vector<Tolerance>& tolerances;  // per output
    const ReferenceContext& context;           // pool and the run's semantics
};

// One registry entry that applies to the case, evaluated.
struct ModelEvaluation {
    const DeviationEntry* entry = nullptr;
    // The model's outputs break the contract on this case, so the registry predicts DEVIATES (kSemantics: its
    // outputs fail the contract's comparison; kRejectsDesc: always). kErrorBound models only widen the bound:
    // they predict that the outputs *may* deviate (certain = false).
    bool certain = false;
    std::vector<HostTensor> outputs;  // kSemantics: the model's outputs
    std::vector<ExactOutput> exact;   // kSemantics with error bounds: the model's exact values
};

// Evaluates every entry of `registry` that applies to the case (one reference run per kSemantics entry).
Result<std::vector<ModelEvaluation>> evaluate_deviation_models(const DeviationRegistry& registry,
                                                               const ContractOutputs& contract);

// The comparisons of a device's outputs with one evaluated model, or nullopt when the model does not speak about
// outputs (kRejectsDesc). The device matches the model when every comparison passed.
std::optional<std::vector<CompareResult>> compare_with_model(const ModelEvaluation& model,
                                                             const ContractOutputs& contract,
                                                             const std::vector<HostTensor>& got, size_t max_reported);

}  // namespace dmltool
