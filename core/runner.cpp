#include "core/runner.h"

#include <chrono>

namespace dmltool {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

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

// Single-quotes a string for POSIX shells.
std::string shell_quote(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string regex_escape(const std::string& text) {
    static const std::string kSpecial = R"(\^$.|?*+()[]{})";
    std::string out;
    for (char c : text) {
        if (kSpecial.find(c) != std::string::npos) out += '\\';
        out += c;
    }
    return out;
}

bool is_explicit_data(const TensorSource& source) {
    return std::holds_alternative<Hdf5Source>(source.kind) || std::holds_alternative<ValuesSource>(source.kind);
}

Tolerance tolerance_for(const CaseSpec& spec, const TensorSlot& slot, size_t output_index) {
    auto it = spec.tolerance.find(std::string(slot.field));
    if (it == spec.tolerance.end()) return spec.op->default_tolerance(*spec.desc, output_index);
    Tolerance t;
    t.ulp = it->second.ulp.value_or(0);
    t.abs = it->second.abs.value_or(0);
    t.reason = spec.tolerance_reason;
    return t;
}

}  // namespace

const char* case_status_name(CaseStatus status) {
    switch (status) {
        case CaseStatus::kPassed: return "PASSED";
        case CaseStatus::kFailed: return "FAILED";
        case CaseStatus::kMistrusted: return "MISTRUSTED";
        case CaseStatus::kUnsupported: return "UNSUPPORTED";
        case CaseStatus::kInvalid: return "INVALID";
        case CaseStatus::kSkipped: return "SKIPPED";
    }
    return "?";
}

std::string repro_command(const CaseSpec& spec, const RunOptions& options) {
    std::string backend = options.backend == BackendChoice::kCpu ? "cpu"
                          : options.backend == BackendChoice::kGpu ? "gpu" : "both";
    std::string out = "dmltool run " + shell_quote(spec.file) + " --filter " +
                      shell_quote("^" + regex_escape(spec.name) + "$") + " --backend " + backend;
    if (options.feature_level_cap != kHighestFeatureLevel)
        out += " --feature-level " + options.feature_level_cap.to_string();
    if (options.semantics.resample_nearest_rule != NearestRule::kLiteral)
        out += " --nearest-rule " + std::string(nearest_rule_name(options.semantics.resample_nearest_rule));
    if (options.sources.allow_outside_paths) out += " --allow-outside-paths";
    return out + options.repro_extra_args;
}

Runner::Runner(const RunOptions& options, ThreadPool& pool, Backend* backend)
    : options_(options), pool_(pool), backend_(backend) {}

CaseResult Runner::invalid_file(const CaseFile& file) {
    CaseResult r;
    r.file = file.path;
    r.name = "(file)";
    r.status = CaseStatus::kInvalid;
    r.reason = file.status.message();
    return r;
}

Status Runner::check_memory_budget(const CaseSpec& spec) const {
    // Peak host copies of each tensor. Inputs: the source's values, the values read back through the physical
    // layout (what the reference sees) and the physical image (built for that round trip, and again by a device
    // backend for its upload). Outputs: the reference's values, its physical image and the values read back,
    // the expectation, and a device's physical download with its values.
    const bool device = backend_ != nullptr;
    uint64_t total = 0, largest = 0;
    size_t output_index = 0;
    std::string largest_name;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        if (!slot.desc) continue;
        const uint64_t physical = slot.desc->total_size_in_bytes;
        const auto logical = checked_mul(slot.desc->element_count(), element_size(slot.desc->data_type));
        uint64_t logical_copies = 2, physical_copies = 1;
        uint64_t exact_bytes_per_element = 0;
        if (slot.role == TensorRole::kInput) {
            physical_copies += device;
        } else {
            logical_copies += spec.expected.count(slot.name) + device;
            physical_copies += device;
            // An error-bound output also keeps the exact value and error scale of every element (two doubles).
            if (tolerance_for(spec, slot, output_index++).error_bound) exact_bytes_per_element = 16;
        }
        const auto exact_bytes = checked_mul(slot.desc->element_count(), exact_bytes_per_element);
        const auto logical_bytes = logical ? checked_mul(*logical, logical_copies) : std::nullopt;
        const auto a = logical_bytes && exact_bytes ? checked_add(*logical_bytes, *exact_bytes) : std::nullopt;
        const auto b = checked_mul(physical, physical_copies);
        const auto tensor = a && b ? checked_add(*a, *b) : std::nullopt;
        const auto sum = tensor ? checked_add(total, *tensor) : std::nullopt;
        if (!sum) return invalid_input(slot.name + ": its byte counts overflow 64 bits, no machine can hold the case");
        total = *sum;
        if (*tensor > largest) largest = *tensor, largest_name = slot.name;
    }
    if (total > options_.max_host_bytes)
        return unsupported("needs about " + describe_bytes(total) + " of host memory (" + largest_name + " " +
                           describe_bytes(largest) + " of it), more than the " + describe_bytes(options_.max_host_bytes) +
                           " allowed (--max-host-memory)");
    return Status::ok();
}

std::string Runner::device_unavailable(CaseResult& result) {
    if (!device_gone_.empty()) return device_gone_;
    if (!backend_->lost()) return {};
    Status recovered = backend_->recover();
    if (recovered.is_ok()) return {};
    result.device_error = true;  // this case reports the failed re-creation; later ones only say why they are CPU-only
    device_gone_ = recovered.message();
    return device_gone_;
}

Result<std::vector<HostTensor>> Runner::prepare_inputs(const CaseSpec& spec) const {
    std::vector<HostTensor> inputs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        if (slot.role != TensorRole::kInput) continue;
        if (!slot.desc) {
            inputs.emplace_back();
            continue;
        }
        const TensorSource& source = spec.inputs.at(slot.name);
        DMLTOOL_ASSIGN_OR_RETURN(HostTensor given, materialize_source(source, *slot.desc, spec.base_dir, options_.sources));
        // The reference sees exactly what a device would read from the physical buffer.
        HostTensor effective = from_physical(*slot.desc, to_physical(given));
        if (is_explicit_data(source) &&
            !std::equal(given.bytes().begin(), given.bytes().end(), effective.bytes().begin())) {
            for (uint64_t i = 0; i < given.element_count(); ++i) {
                if (std::memcmp(given.element_ptr(i), effective.element_ptr(i), given.element_bytes()) == 0) continue;
                std::vector<uint32_t> c(slot.desc->rank());
                unravel_index(i, slot.desc->sizes, c.data());
                std::string coords;
                for (size_t d = 0; d < c.size(); ++d) coords += (d ? "," : "") + std::to_string(c[d]);
                return invalid_input(source.json_path + ": expected data consistent with the Strides " +
                                     format_dims(*slot.desc->strides) + " of " + slot.name + " (elements that share a "
                                     "buffer location must be equal), found element [" + coords + "] = " +
                                     std::to_string(given.get_as_double(i)) + " where its location holds " +
                                     std::to_string(effective.get_as_double(i)));
            }
        }
        inputs.push_back(std::move(effective));
    }
    return inputs;
}

CaseResult Runner::run(const LoadedCase& loaded) {
    const CaseSpec& spec = loaded.spec;
    CaseResult r;
    r.file = spec.file;
    r.name = spec.name.empty() ? "#" + std::to_string(spec.index_in_file) : spec.name;
    r.tags = spec.tags;
    r.repro = repro_command(spec, options_);
    r.op = spec.op ? std::string(spec.op->name()) : spec.operator_type;
    auto fail = [&](const Status& status) {
        r.status = status_for_error(status, &r.device_error);
        r.reason = status.message();
        return r;
    };
    if (!loaded.status.is_ok()) return fail(loaded.status);
    r.feature_level = spec.min_feature_level;
    r.work = spec.op->work(*spec.desc);
    const std::string context = case_context(spec);
    if (spec.min_feature_level > options_.feature_level_cap)
        return fail(unsupported(context + ": needs feature level " + spec.min_feature_level.to_string() +
                                " (derived from the " + r.op + " tables), above the cap " +
                                options_.feature_level_cap.to_string() + " (--feature-level)"));
    if (Status budget = check_memory_budget(spec); !budget.is_ok()) return fail(budget.with_context(context));
    Backend* device = backend_;
    const std::string device_skipped = device ? device_unavailable(r) : std::string();
    if (!device_skipped.empty()) device = nullptr;
    if (device) {
        // Before any allocation or reference work: a case that cannot fit on the device is refused with the numbers.
        Status fits = device->check_capacity(*spec.op, *spec.desc);
        if (!fits.is_ok()) return fail(fits.with_context(context + ": " + device->name()));
    }

    auto inputs = prepare_inputs(spec);
    if (!inputs.is_ok()) return fail(inputs.status().with_context(context));
    std::vector<const HostTensor*> input_ptrs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
        if (slot.role == TensorRole::kInput) input_ptrs.push_back(slot.desc ? &(*inputs)[input_ptrs.size()] : nullptr);

    std::vector<TensorSlot> output_slots;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
        if (slot.role == TensorRole::kOutput) output_slots.push_back(slot);
    std::vector<HostTensor> reference;
    for (const TensorSlot& slot : output_slots) reference.emplace_back(*slot.desc);
    std::vector<HostTensor*> reference_ptrs;
    for (auto& t : reference) reference_ptrs.push_back(&t);
    std::vector<Tolerance> tolerances;
    bool wants_exact = false;
    for (size_t i = 0; i < output_slots.size(); ++i) {
        tolerances.push_back(tolerance_for(spec, output_slots[i], i));
        wants_exact |= tolerances.back().error_bound;
    }
    std::vector<ExactOutput> exact(output_slots.size());
    const auto start = Clock::now();
    Status ran = spec.op->run_reference(*spec.desc, input_ptrs, reference_ptrs,
                                        ReferenceContext{pool_, options_.semantics, wants_exact ? &exact : nullptr});
    r.reference_ms = elapsed_ms(start);
    if (!ran.is_ok()) return fail(ran.with_context(context + ": reference"));
    // Outputs go through their physical layout too, as a device's would.
    for (auto& t : reference) t = from_physical(t.desc(), to_physical(t, std::byte{0xcd}));

    std::vector<HostTensor> device_outputs;
    if (device) {
        BackendTiming timing;
        auto executed = device->execute(*spec.op, *spec.desc, input_ptrs, &timing);
        if (!executed.is_ok()) return fail(executed.status().with_context(context + ": " + device->name()));
        device_outputs = std::move(executed).value();
        r.backend_ms = timing.first_ms;
    }

    bool reference_failed = false, device_failed = false;
    for (size_t i = 0; i < output_slots.size(); ++i) {
        const TensorSlot& slot = output_slots[i];
        const Tolerance& tolerance = tolerances[i];
        // Error-bound tolerances judge every output against the reference's exact values; the case's expected
        // output is judged as one more implementation, and a device against it with twice the bound.
        const bool use_exact = tolerance.error_bound && !exact[i].exact.empty();
        const size_t shown = options_.max_reported_mismatches;
        auto add = [&](const char* what, const HostTensor& expected, const HostTensor& got, bool expected_is_file) {
            CompareResult compared =
                !use_exact ? compare_tensors(expected, got, tolerance, shown)
                : !expected_is_file ? compare_to_exact(exact[i], got, tolerance, shown)
                : &got == &reference[i] ? compare_to_exact(exact[i], expected, tolerance, shown)
                                        : compare_to_exact(exact_output_from(expected, exact[i]), got, tolerance, shown, 2.0);
            r.outputs.push_back({slot.name, what, tolerance, use_exact, std::move(compared), {}});
            return r.outputs.back().result.verdict == Verdict::kFailed;
        };
        if (device) device_failed |= add("gpu vs reference", reference[i], device_outputs[i], false);
        auto source = spec.expected.find(slot.name);
        if (source == spec.expected.end()) continue;
        auto expected = materialize_source(source->second, *slot.desc, spec.base_dir, options_.sources);
        if (!expected.is_ok()) return fail(expected.status().with_context(context));
        reference_failed |= add("reference vs expected", *expected, reference[i], true);
        if (device) device_failed |= add("gpu vs expected", *expected, device_outputs[i], true);
    }
    if (r.outputs.empty() && device_skipped.empty()) {
        r.status = CaseStatus::kSkipped;
        r.reason = context + ": nothing to compare: the case has no expected outputs and no device backend ran "
                             "(add \"expected\" or use --backend gpu/both)";
        return r;
    }
    r.status = CaseStatus::kPassed;
    for (const OutputReport& o : r.outputs) {
        if (o.result.verdict == Verdict::kFailed && r.status != CaseStatus::kFailed) {
            r.status = CaseStatus::kFailed;
            r.reason = context + ": " + o.output + " (" + o.comparison + "): " + o.result.reason;
        } else if (o.result.verdict == Verdict::kMistrusted && r.status == CaseStatus::kPassed) {
            r.status = CaseStatus::kMistrusted;
            r.reason = context + ": " + o.output + " (" + o.comparison + "): " + o.result.reason;
        }
    }
    if (r.status == CaseStatus::kFailed && device_failed && !reference_failed && !spec.expected.empty())
        r.reason += " [GPU-only failure: the reference matches the expected outputs]";
    if (!device_skipped.empty()) {
        // A finding of the reference part stands; otherwise the case says that its device part did not run.
        const std::string why = backend_->name() + " not run: " + device_skipped;
        if (r.status != CaseStatus::kPassed) {
            r.reason += " [" + why + "]";
        } else {
            r.status = CaseStatus::kSkipped;
            r.reason = context + ": " + why +
                       (r.outputs.empty() ? "" : "; the CPU reference matches the expected outputs");
        }
    }
    return r;
}

}  // namespace dmltool
