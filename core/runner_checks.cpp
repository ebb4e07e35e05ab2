#include "core/runner_checks.h"

namespace dmltool {

CaseStatus status_for_error(const Status& status, bool* device_error) {
    switch (status.code()) {
        case ErrorCode::kInvalidInput:
        case ErrorCode::kIo: return CaseStatus::kInvalid;
        case ErrorCode::kUnsupported: return CaseStatus::kUnsupported;
        case ErrorCode::kDevice:
            *device_error = true;
            return CaseStatus::kFailed;
        default: return CaseStatus::kFailed;
    }
}

bool is_explicit_data(const TensorSource& source) {
    return std::holds_alternative<Hdf5Source>(source.kind) || std::holds_alternative<ValuesSource>(source.kind);
}

CaseResult Runner::skip_early(const LoadedCase& loaded, const std::string& context, CaseResult& r,
                              std::vector<HostTensor>* used_inputs, const std::string& device_skipped) const {
    const CaseSpec& spec = loaded.spec;
    auto fail = [&](const Status& status) {
        r.status = status_for_error(status, &r.device_error);
        r.reason = status.message();
        return r;
    };
    if (used_inputs) {
        // `dmltool bench --backend cpu` times the reference on them: built once here, values checked as run() does.
        auto inputs = prepare_inputs(spec);
        if (!inputs.is_ok()) return fail(inputs.status().with_context(context));
        std::vector<const HostTensor*> input_ptrs;
        for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
            if (slot.role == TensorRole::kInput)
                input_ptrs.push_back(slot.desc ? &(*inputs)[input_ptrs.size()] : nullptr);
        if (Status values = spec.op->check_input_values(*spec.desc, input_ptrs); !values.is_ok())
            return fail(values.with_context(context));
        *used_inputs = std::move(inputs).value();
    } else if (Status checked = check_without_executing(loaded); !checked.is_ok()) {
        return fail(checked);  // as `validate` finds it: small inputs read, large ones by their metadata only
    }
    r.status = CaseStatus::kSkipped;
    r.reason = device_skipped.empty()
                   ? context + ": nothing to compare: the case has no expected outputs and no device backend ran "
                               "(add \"expected\" or use --backend gpu/both)"
                   : context + ": " + device_skipped;
    return r;
}

Status Runner::check_without_executing(const LoadedCase& loaded) const {
    if (!loaded.status.is_ok()) return loaded.status;
    const CaseSpec& spec = loaded.spec;
    const std::string context = case_context(spec);
    if (spec.min_feature_level > options_.feature_level_cap)
        return unsupported(context + ": needs feature level " + spec.min_feature_level.to_string() + " (derived from the " +
                           std::string(spec.op->name()) + " tables), above the cap " +
                           options_.feature_level_cap.to_string() + " (--feature-level)");
    if (Status budget = check_memory_budget(spec); !budget.is_ok()) return budget.with_context(context);
    // The inputs in slot order, as run() prepares them; large ones only up to their file's metadata.
    std::vector<HostTensor> read;
    read.reserve(spec.op->tensors(*spec.desc).size());
    std::vector<const HostTensor*> input_ptrs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        if (slot.role != TensorRole::kInput) continue;
        if (!slot.desc) {
            input_ptrs.push_back(nullptr);
            continue;
        }
        // Explicit data is read for its broadcast consistency; generated data (random, sequence, constant) only
        // where it is small enough to be a rule-bearing input (scales, zero points).
        const TensorSource& source = spec.inputs.at(slot.name);
        const uint64_t logical_bytes = slot.desc->element_count() * element_size(slot.desc->data_type);
        if (logical_bytes <= kValidateReadLimit &&
            (is_explicit_data(source) || slot.desc->element_count() <= kValidateGeneratedElements)) {
            auto input = prepare_input(spec, slot);
            if (!input.is_ok()) return input.status().with_context(context);
            read.push_back(std::move(input).value());
            input_ptrs.push_back(&read.back());
        } else {
            const Status checked = check_source(source, *slot.desc, spec.base_dir, options_.sources);
            if (!checked.is_ok()) return checked.with_context(context);
            input_ptrs.push_back(nullptr);
        }
    }
    if (Status values = spec.op->check_input_values(*spec.desc, input_ptrs); !values.is_ok())
        return values.with_context(context);
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        auto source = spec.expected.find(slot.name);
        if (slot.role != TensorRole::kOutput || !slot.desc || source == spec.expected.end()) continue;
        const Status checked = check_source(source->second, *slot.desc, spec.base_dir, options_.sources);
        if (!checked.is_ok()) return checked.with_context(context);
    }
    return Status::ok();
}

}  // namespace dmltool
