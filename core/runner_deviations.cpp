#include "core/runner_deviations.h"

namespace dmltool {
namespace {

bool has_exact(const ContractOutputs& contract, size_t i) {
    return contract.tolerances[i].error_bound && i < contract.exact.size() && !contract.exact[i].exact.empty();
}

// The contract's judgement of `got` (one output): against the exact values under the error bound when the
// output has them, else element by element against `centre` under the tolerance.
CompareResult judge(const Tolerance& tolerance, const ExactOutput* exact, const HostTensor& centre,
                    const HostTensor& got, size_t max_reported, const AcceptsElement& also_accepts = {}) {
    if (exact) return compare_to_exact(*exact, got, tolerance, max_reported);
    return compare_tensors(centre, got, tolerance, max_reported, also_accepts);
}

// The right values beside the reference's own of output i (nearest-neighbour ties), if any.
const AcceptsElement& alternatives(const std::vector<ExactOutput>& exact, size_t i) {
    static const AcceptsElement kNone;
    return i < exact.size() ? exact[i].also_accepts : kNone;
}

// The reference again on the contract's inputs under `context` (other semantics, or the narrower arithmetic's
// error data): its outputs, through the physical layout as the reference's and a device's are.
Status rerun_reference(const ContractOutputs& contract, const ReferenceContext& context,
                       std::vector<HostTensor>& outputs) {
    std::vector<HostTensor*> pointers;
    for (const HostTensor& t : contract.reference) outputs.emplace_back(t.desc());
    for (HostTensor& t : outputs) pointers.push_back(&t);
    DMLTOOL_RETURN_IF_ERROR(contract.op.run_reference(contract.desc, contract.inputs, pointers, context));
    for (HostTensor& t : outputs) t = from_physical(t.desc(), to_physical(t, std::byte{0xcd}));
    return Status::ok();
}

}  // namespace

Result<std::vector<ModelEvaluation>> evaluate_deviation_models(const DeviationRegistry& registry,
                                                               const ContractOutputs& contract) {
    std::vector<ModelEvaluation> evaluations;
    for (const DeviationEntry& entry : registry.entries) {
        if (!entry.applies(contract.op, contract.desc)) continue;
        ModelEvaluation evaluation;
        evaluation.entry = &entry;
        switch (entry.model.kind) {
            case DeviationModel::Kind::kRejectsDesc: evaluation.certain = true; break;
            case DeviationModel::Kind::kErrorBound: evaluation.certain = false; break;
            case DeviationModel::Kind::kSemantics: {
                SemanticsOptions semantics = contract.context.semantics;
                if (entry.model.adjust_semantics) entry.model.adjust_semantics(semantics);
                bool wants_exact = false;
                for (size_t i = 0; i < contract.reference.size(); ++i)
                    wants_exact |= has_exact(contract, i) || contract.tolerances[i].bitwise;
                evaluation.exact.resize(contract.reference.size());
                DMLTOOL_RETURN_IF_ERROR(rerun_reference(
                    contract, ReferenceContext{contract.context.pool, semantics, wants_exact ? &evaluation.exact : nullptr},
                    evaluation.outputs));
                for (size_t i = 0; i < evaluation.outputs.size() && !evaluation.certain; ++i)
                    evaluation.certain = judge(contract.tolerances[i], has_exact(contract, i) ? &contract.exact[i] : nullptr,
                                               contract.reference[i], evaluation.outputs[i], 0,
                                               alternatives(contract.exact, i))
                                             .verdict == Verdict::kFailed;
                break;
            }
        }
        evaluations.push_back(std::move(evaluation));
    }
    return evaluations;
}

std::optional<std::vector<CompareResult>> compare_with_model(const ModelEvaluation& model,
                                                             const ContractOutputs& contract,
                                                             const std::vector<HostTensor>& got, size_t max_reported) {
    std::vector<CompareResult> results;
    switch (model.entry->model.kind) {
        case DeviationModel::Kind::kRejectsDesc: return std::nullopt;
        case DeviationModel::Kind::kSemantics:
            for (size_t i = 0; i < got.size(); ++i) {
                const bool exact = has_exact(contract, i) && !model.exact[i].exact.empty();
                results.push_back(judge(contract.tolerances[i], exact ? &model.exact[i] : nullptr, model.outputs[i],
                                        got[i], max_reported, alternatives(model.exact, i)));
            }
            return results;
        case DeviationModel::Kind::kErrorBound: {
            // The exact values again, with the narrower arithmetic's error data, which the contract's check does
            // not compute (costly). The reference already ran on these inputs, so a failure here is not expected;
            // it leaves the output unexplained.
            std::vector<HostTensor> outputs;
            std::vector<ExactOutput> narrow(contract.reference.size());
            ReferenceContext context{contract.context.pool, contract.context.semantics, &narrow};
            context.narrow_arithmetic = true;
            if (!rerun_reference(contract, context, outputs).is_ok()) return std::nullopt;
            for (size_t i = 0; i < got.size(); ++i) {
                // The same exact values, with the error bound of the model's narrower arithmetic. Outputs without
                // exact values are held to the contract as they are.
                Tolerance widened = contract.tolerances[i];
                const bool exact = has_exact(contract, i) && !narrow[i].exact.empty();
                if (exact) {
                    widened.arithmetic_unit_roundoff = model.entry->model.unit_roundoff;
                    widened.arithmetic_overflow = model.entry->model.overflow_magnitude;
                    widened.arithmetic_smallest_normal = model.entry->model.smallest_normal;
                }
                results.push_back(judge(widened, exact ? &narrow[i] : nullptr, contract.reference[i], got[i],
                                        max_reported));
            }
            return results;
        }
    }
    return std::nullopt;
}

}  // namespace dmltool
