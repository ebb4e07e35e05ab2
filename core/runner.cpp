#include "core/runner.h"

#include "core/runner_checks.h"
#include "core/runner_constant_proof.h"
#include "core/runner_deviations.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>

namespace dmltool {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
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
        case CaseStatus::kDeviates: return "DEVIATES";
    }
    return "?";
}

const char* backend_choice_name(BackendChoice choice) {
    switch (choice) {
        case BackendChoice::kCpu: return "cpu";
        case BackendChoice::kGpu: return "gpu";
        case BackendChoice::kBoth: return "both";
        case BackendChoice::kDirectml: return "directml";
        case BackendChoice::kAll: return "all";
    }
    return "?";
}

std::string repro_command(const CaseSpec& spec, const RunOptions& options) {
    const std::string backend = backend_choice_name(options.backend);
    const bool plain_word = std::all_of(options.repro_tool.begin(), options.repro_tool.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' || c == '-';
    });
    std::string out = (plain_word ? options.repro_tool : shell_quote(options.repro_tool)) + " run " + shell_quote(spec.file) + " --filter " +
                      shell_quote("^" + regex_escape(spec.name) + "$") + " --backend " + backend;
    if (options.feature_level_cap != kHighestFeatureLevel)
        out += " --feature-level " + options.feature_level_cap.to_string();
    if (options.semantics.resample_nearest_rule != SemanticsOptions{}.resample_nearest_rule)
        out += " --nearest-rule " + std::string(nearest_rule_name(options.semantics.resample_nearest_rule));
    if (options.sources.allow_outside_paths) out += " --allow-outside-paths";
    return out + options.repro_extra_args;
}

Runner::Runner(const RunOptions& options, ThreadPool& pool, Backend* backend)
    : Runner(options, pool, backend ? std::vector<Backend*>{backend} : std::vector<Backend*>{}) {}

Runner::Runner(const RunOptions& options, ThreadPool& pool, std::vector<Backend*> backends)
    : options_(options),
      pool_(pool),
      backends_(std::move(backends)),
      device_gone_(backends_.size()),
      deviations_(backends_.size(), nullptr) {}

bool Runner::set_deviations(size_t index, const DeviationRegistry* registry) {
    if (registry && backends_.at(index)->label() != "directml") return false;
    deviations_.at(index) = registry;
    return true;
}

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
    const uint64_t device = backends_.size();
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

std::string Runner::device_unavailable(size_t index, CaseResult& result) {
    if (!device_gone_[index].empty()) return device_gone_[index];
    Backend* backend = backends_[index];
    if (!backend->lost()) return {};
    Status recovered = backend->recover();
    if (recovered.is_ok()) return {};
    result.device_error = true;  // this case reports the failed re-creation; later ones only say why they are CPU-only
    device_gone_[index] = recovered.message();
    return device_gone_[index];
}

Result<HostTensor> Runner::prepare_input(const CaseSpec& spec, const TensorSlot& slot) const {
    const TensorSource& source = spec.inputs.at(slot.name);
    DMLTOOL_ASSIGN_OR_RETURN(HostTensor given, materialize_source(source, *slot.desc, spec.base_dir, options_.sources));
    // The reference sees exactly what a device would read from the physical buffer.
    HostTensor effective = from_physical(*slot.desc, to_physical(given));
    if (is_explicit_data(source) && !std::equal(given.bytes().begin(), given.bytes().end(), effective.bytes().begin())) {
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
    return effective;
}

Result<std::vector<HostTensor>> Runner::prepare_inputs(const CaseSpec& spec) const {
    std::vector<HostTensor> inputs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        if (slot.role != TensorRole::kInput) continue;
        if (!slot.desc) {
            inputs.emplace_back();
            continue;
        }
        DMLTOOL_ASSIGN_OR_RETURN(HostTensor input, prepare_input(spec, slot));
        inputs.push_back(std::move(input));
    }
    return inputs;
}

CaseResult Runner::run(const LoadedCase& loaded, std::vector<HostTensor>* used_inputs) {
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
    // Each device backend's part of the case: run, not run (device gone), or UNSUPPORTED on that backend.
    struct DevicePart {
        Backend* backend;
        std::string skipped;      // its device is gone: the case runs without it
        std::string unsupported;  // this backend cannot run this case (multi-backend runs only)
        std::vector<HostTensor> outputs;
        bool ran = false;
        Status refusal;  // the backend refused the desc (kUnsupported from execute): a registry may explain it
    };
    std::vector<DevicePart> parts;
    const bool several = backends_.size() > 1;
    for (size_t i = 0; i < backends_.size(); ++i) {
        DevicePart part{backends_[i], device_unavailable(i, r), {}, {}, false, Status::ok()};
        Backend* device = part.backend;
        if (part.skipped.empty()) {
            Status fits = Status::ok();
            if (auto highest = device->max_feature_level(); highest && spec.min_feature_level > *highest)
                fits = unsupported("needs feature level " + spec.min_feature_level.to_string() + ", above " +
                                   device->label() + "'s maximum " + highest->to_string() +
                                   " (the device's CheckFeatureSupport)");
            // Before any allocation or reference work: a case that cannot fit on the device is refused with the numbers.
            if (fits.is_ok()) fits = device->check_capacity(*spec.op, *spec.desc);
            if (!fits.is_ok()) {
                if (!several || fits.code() != ErrorCode::kUnsupported) return fail(fits.with_context(context + ": " + device->name()));
                part.unsupported = fits.message();
            }
        }
        parts.push_back(std::move(part));
    }
    // "NAME not run: WHY; ..." for the device parts that will not run (empty: all run).
    std::string device_skipped;
    for (const DevicePart& part : parts)
        if (!part.skipped.empty())
            device_skipped += (device_skipped.empty() ? "" : "; ") + part.backend->name() + " not run: " + part.skipped;
    // SKIPPED is decided before any input is built: with no expected outputs and no device part to run there is
    // nothing to compare, and generating inputs and running the reference would only cost time (a perf file on
    // --backend cpu spent 57 s on 38 such cases). The case is still checked as `validate` checks it.
    if (spec.expected.empty() &&
        std::all_of(parts.begin(), parts.end(), [](const DevicePart& p) { return !p.skipped.empty(); }))
        return skip_early(loaded, context, r, used_inputs, device_skipped);

    auto inputs = prepare_inputs(spec);
    if (!inputs.is_ok()) return fail(inputs.status().with_context(context));
    std::vector<const HostTensor*> input_ptrs;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc))
        if (slot.role == TensorRole::kInput) input_ptrs.push_back(slot.desc ? &(*inputs)[input_ptrs.size()] : nullptr);
    if (Status values = spec.op->check_input_values(*spec.desc, input_ptrs); !values.is_ok())
        return fail(values.with_context(context));
    // The expected outputs' files are checked before anything executes (they are read after).
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        auto source = spec.expected.find(slot.name);
        if (slot.role != TensorRole::kOutput || !slot.desc || source == spec.expected.end()) continue;
        if (Status checked = check_source(source->second, *slot.desc, spec.base_dir, options_.sources); !checked.is_ok())
            return fail(checked.with_context(context));
    }

    std::vector<TensorSlot> output_slots;
    for (const TensorSlot& slot : spec.op->tensors(*spec.desc)) {
        if (slot.role != TensorRole::kOutput) continue;
        // An operator lists only the outputs a desc has (core/op.h): an absent optional output is left out, never
        // listed without a desc. A slip there is the operator's bug: said as one, not a crash.
        if (!slot.desc)
            return fail(internal_error(context + ": operator listed output '" + slot.name +
                                       "' without a desc (absent optional outputs are left out)"));
        output_slots.push_back(slot);
    }
    std::vector<HostTensor> reference;
    for (const TensorSlot& slot : output_slots) reference.emplace_back(*slot.desc);
    std::vector<HostTensor*> reference_ptrs;
    for (auto& t : reference) reference_ptrs.push_back(&t);
    std::vector<Tolerance> tolerances;
    bool wants_exact = false;
    for (size_t i = 0; i < output_slots.size(); ++i) {
        tolerances.push_back(tolerance_for(spec, output_slots[i], i));
        // Bit-exact outputs too: a reference may name other right values (ExactOutput::also_accepts).
        wants_exact |= tolerances.back().error_bound || tolerances.back().bitwise;
    }
    std::vector<ExactOutput> exact(output_slots.size());
    const auto start = Clock::now();
    Status ran = spec.op->run_reference(*spec.desc, input_ptrs, reference_ptrs,
                                        ReferenceContext{pool_, options_.semantics, wants_exact ? &exact : nullptr});
    r.reference_ms = elapsed_ms(start);
    if (!ran.is_ok()) return fail(ran.with_context(context + ": reference"));
    // Outputs go through their physical layout too, as a device's would.
    for (auto& t : reference) t = from_physical(t.desc(), to_physical(t, std::byte{0xcd}));

    for (DevicePart& part : parts) {
        if (!part.skipped.empty() || !part.unsupported.empty()) continue;
        BackendTiming timing;
        auto executed = part.backend->execute(*spec.op, *spec.desc, input_ptrs, &timing);
        if (!executed.is_ok()) {
            const bool refused = executed.status().code() == ErrorCode::kUnsupported;
            if (refused && executed.status().message().find(kDescRejectedMarker) != std::string::npos &&
                deviations_[&part - parts.data()]) {
                part.refusal = executed.status();  // judged with the registry below
                continue;
            }
            if (several && refused) {
                part.unsupported = executed.status().message();
                continue;
            }
            return fail(executed.status().with_context(context + ": " + part.backend->name()));
        }
        part.outputs = std::move(executed).value();
        part.ran = true;
        if (!r.backend_ms) r.backend_ms = timing.first_ms;
    }

    bool reference_failed = false;
    // Per comparison in r.outputs: how to judge another output of the same producer (for the constant proof).
    std::vector<Judgement> judgements;
    std::vector<std::optional<HostTensor>> expected_values(output_slots.size());
    for (size_t i = 0; i < output_slots.size(); ++i) {
        const TensorSlot& slot = output_slots[i];
        const Tolerance& tolerance = tolerances[i];
        // Error-bound tolerances judge every output against the reference's exact values; the case's expected
        // output is judged as one more implementation, and a device against it with twice the bound.
        const bool use_exact = tolerance.error_bound && !exact[i].exact.empty();
        const size_t shown = options_.max_reported_mismatches;
        // producer: -1 for the CPU reference, else the index of the device part whose output `got` is.
        auto add = [&](const std::string& what, const HostTensor& expected, const HostTensor& got,
                       bool expected_is_file, bool informational, int producer) {
            CompareResult compared =
                !use_exact ? compare_tensors(expected, got, tolerance, shown, exact[i].also_accepts)
                : !expected_is_file ? compare_to_exact(exact[i], got, tolerance, shown)
                : &got == &reference[i] ? compare_to_exact(exact[i], expected, tolerance, shown)
                                        : compare_to_exact(exact_output_from(expected, exact[i]), got, tolerance, shown, 2.0);
            // Name each side of the failure lines (the reference judges the expected file under the error bound).
            const std::string got_name = producer >= 0 ? parts[size_t(producer)].backend->label() : "reference";
            const bool judged_file = use_exact && expected_is_file && producer < 0;
            compared.expected_side = judged_file || (use_exact && !expected_is_file) ? "reference (exact)"
                                     : expected_is_file                              ? "expected (file)"
                                                                                     : "reference";
            compared.got_side = judged_file ? "expected (file)" : got_name;
            r.outputs.push_back({slot.name, what, informational, tolerance, use_exact, std::move(compared), {}, {}});
            // The same judgement of another output of this producer (the reference's own output is judged
            // against the exact values, like any implementation).
            const bool by_device = producer >= 0;
            Judgement j{r.outputs.size() - 1, i, producer, nullptr};
            if (!use_exact)
                j.judge = [&expected, &tolerance, &exact, i](const HostTensor& other) {
                    return compare_tensors(expected, other, tolerance, 0, exact[i].also_accepts);
                };
            else if (!expected_is_file || !by_device)
                j.judge = [&exact, i, &tolerance](const HostTensor& other) {
                    return compare_to_exact(exact[i], other, tolerance, 0);
                };
            else
                j.judge = [centre = exact_output_from(expected, exact[i]), &tolerance](const HostTensor& other) {
                    return compare_to_exact(centre, other, tolerance, 0, 2.0);
                };
            judgements.push_back(std::move(j));
            return r.outputs.back().result.verdict == Verdict::kFailed;
        };
        auto device_add = [&](const DevicePart& part, const std::string& against, const HostTensor& expected,
                              bool expected_is_file) {
            add(part.backend->label() + " vs " + against, expected, part.outputs[i], expected_is_file, false,
                int(&part - parts.data()));
        };
        for (const DevicePart& part : parts)
            if (part.ran) device_add(part, "reference", reference[i], false);
        // Device backends with each other (--backend all): where DirectML and dmltool's kernels disagree. Under
        // the error bound each is already judged against the exact values, so plain element compares here.
        for (size_t a = 0; a < parts.size(); ++a)
            for (size_t b = a + 1; b < parts.size(); ++b)
                if (parts[a].ran && parts[b].ran) {
                    r.outputs.push_back({slot.name, parts[b].backend->label() + " vs " + parts[a].backend->label(),
                                         true, tolerance, false,
                                         use_exact ? compare_to_exact(exact_output_from(parts[a].outputs[i], exact[i]),
                                                                      parts[b].outputs[i], tolerance, shown, 2.0)
                                                   : compare_tensors(parts[a].outputs[i], parts[b].outputs[i], tolerance,
                                                                     shown, exact[i].also_accepts),
                                         {}, {}});
                    r.outputs.back().result.expected_side = parts[a].backend->label();
                    r.outputs.back().result.got_side = parts[b].backend->label();
                }
        auto source = spec.expected.find(slot.name);
        if (source == spec.expected.end()) continue;
        auto expected = materialize_source(source->second, *slot.desc, spec.base_dir, options_.sources);
        if (!expected.is_ok()) return fail(expected.status().with_context(context));
        expected_values[i] = std::move(expected).value();
        reference_failed |= add("reference vs expected", *expected_values[i], reference[i], true, false, -1);
        for (const DevicePart& part : parts)
            if (part.ran) device_add(part, "expected", *expected_values[i], true);
    }
    // Registered deviations (core/deviations.h): a device part whose failed comparisons, or whose refusal of the
    // desc, a model of its backend's registry explains. The models are evaluated on every case they speak about,
    // so the report also says what the registry predicts (scripts/check_deviations.py holds the two together).
    const ReferenceContext contract_context{pool_, options_.semantics};
    const ContractOutputs contract{*spec.op, *spec.desc, input_ptrs, reference, exact, tolerances, contract_context};
    for (size_t k = 0; k < parts.size(); ++k) {
        if (!deviations_[k]) continue;
        DevicePart& part = parts[k];
        auto evaluated = evaluate_deviation_models(*deviations_[k], contract);
        if (!evaluated.is_ok()) return fail(evaluated.status().with_context(context + ": deviation models"));
        const std::string label = part.backend->label();
        for (const ModelEvaluation& e : *evaluated)
            if (e.certain || e.entry->model.kind == DeviationModel::Kind::kErrorBound)
                r.predicted_deviations.push_back({label, e.entry->id, e.entry->description, e.certain});
        if (!part.refusal.is_ok()) {
            // Every registered refusal whose predicate holds explains it (a desc may break two of DirectML's rules).
            const size_t before = r.deviations.size();
            for (const ModelEvaluation& e : *evaluated)
                if (e.entry->model.kind == DeviationModel::Kind::kRejectsDesc)
                    r.deviations.push_back({label, e.entry->id, e.entry->description, true});
            if (r.deviations.size() == before) {
                if (!several) return fail(part.refusal.with_context(context + ": " + part.backend->name()));
                part.unsupported = part.refusal.message();
            }
            continue;
        }
        std::vector<size_t> failed;
        for (const Judgement& j : judgements)
            if (j.producer == int(k) && r.outputs[j.report].result.verdict == Verdict::kFailed) failed.push_back(j.report);
        if (!part.ran || failed.empty()) continue;
        // A model whose output is constant (an 8-bit nearest that picks one element everywhere) is matched too: the
        // device's outputs were filled with kDefaultOutputPoison before it ran, so equalling another constant
        // proves its writes.
        auto matches = [&](const std::vector<CompareResult>& compared) {
            for (size_t i = 0; i < compared.size(); ++i) {
                const CompareResult& c = compared[i];
                const auto bytes = part.outputs[i].bytes();
                const bool poison = std::all_of(bytes.begin(), bytes.end(), [](std::byte b) { return b == kDefaultOutputPoison; });
                if (c.verdict != Verdict::kPassed &&
                    !(c.verdict == Verdict::kMistrusted && c.mismatch_count == 0 && c.expected_constant && !poison))
                    return false;
            }
            return true;
        };
        // When no model matches, the failure also shows how the first applicable model saw the output (why the
        // registry does not explain it).
        std::vector<OutputReport> unmatched;
        bool matched = false;
        for (const ModelEvaluation& e : *evaluated) {
            auto compared = compare_with_model(e, contract, part.outputs, options_.max_reported_mismatches);
            if (!compared) continue;
            for (CompareResult& c : *compared) {
                c.expected_side = "deviation model " + e.entry->id;
                c.got_side = label;
            }
            if (!matches(*compared)) {
                const bool first_unmatched = unmatched.empty();
                for (size_t i = 0; i < compared->size() && first_unmatched; ++i)
                    if ((*compared)[i].verdict != Verdict::kPassed)
                        unmatched.push_back({output_slots[i].name,
                                             label + " vs deviation model " + e.entry->id + " (not matched)", true,
                                             tolerances[i], tolerances[i].error_bound && !exact[i].exact.empty(),
                                             std::move((*compared)[i]), {}, {}});
                continue;
            }
            matched = true;
            for (size_t report : failed) r.outputs[report].deviation = e.entry->id;
            for (size_t i = 0; i < compared->size(); ++i) {
                CompareResult& c = (*compared)[i];
                std::string note;
                if (c.verdict == Verdict::kMistrusted) {
                    c.verdict = Verdict::kPassed;
                    c.reason.clear();
                    note = "constant model output, writes proven by the poison fill";
                }
                r.outputs.push_back({output_slots[i].name, label + " vs deviation model " + e.entry->id, false,
                                     tolerances[i], tolerances[i].error_bound && !exact[i].exact.empty(), std::move(c),
                                     note, {}});
            }
            r.deviations.push_back({label, e.entry->id, e.entry->description, true});
            break;
        }
        if (!matched)
            for (OutputReport& o : unmatched) r.outputs.push_back(std::move(o));
    }
    // Device failures that no registered deviation explains.
    bool device_failed = false;
    std::string failed_labels;
    for (const Judgement& j : judgements) {
        const OutputReport& o = r.outputs[j.report];
        if (j.producer < 0 || o.result.verdict != Verdict::kFailed || !o.deviation.empty()) continue;
        device_failed = true;
        const std::string label = parts[size_t(j.producer)].backend->label();
        if (failed_labels.find(label) == std::string::npos) failed_labels += (failed_labels.empty() ? "" : "+") + label;
    }

    if (!reference_failed && !device_failed) {
        prove_constant_outputs(judgements, -1, reference, r, [&](std::byte poison) -> Result<std::vector<HostTensor>> {
            std::vector<HostTensor> again;
            for (const TensorSlot& slot : output_slots) {
                again.emplace_back(*slot.desc);
                std::memset(again.back().bytes().data(), int(poison), again.back().bytes().size());
            }
            std::vector<HostTensor*> pointers;
            for (auto& t : again) pointers.push_back(&t);
            DMLTOOL_RETURN_IF_ERROR(
                spec.op->run_reference(*spec.desc, input_ptrs, pointers, ReferenceContext{pool_, options_.semantics}));
            for (auto& t : again) t = from_physical(t.desc(), to_physical(t, std::byte{0xcd}));
            return again;
        });
        for (size_t k = 0; k < parts.size(); ++k)
            if (parts[k].ran)
                prove_constant_outputs(judgements, int(k), parts[k].outputs, r, [&](std::byte poison) {
                    return parts[k].backend->execute(*spec.op, *spec.desc, input_ptrs, nullptr, poison);
                });
    }
    std::string device_unsupported;
    for (const DevicePart& part : parts)
        if (!part.unsupported.empty())
            device_unsupported += (device_unsupported.empty() ? "" : "; ") + part.backend->label() + ": " + part.unsupported;
    if (used_inputs) *used_inputs = std::move(*inputs);  // nothing below reads them
    // (A case with nothing to compare was SKIPPED before its inputs were built: skip_early.)
    r.status = CaseStatus::kPassed;
    for (const OutputReport& o : r.outputs) {
        if (o.informational || !o.deviation.empty()) continue;
        if (o.result.verdict == Verdict::kFailed && r.status != CaseStatus::kFailed) {
            r.status = CaseStatus::kFailed;
            r.reason = context + ": " + o.output + " (" + o.comparison + "): " + o.result.reason;
        } else if (o.result.verdict == Verdict::kMistrusted && r.status == CaseStatus::kPassed) {
            r.status = CaseStatus::kMistrusted;
            r.reason = context + ": " + o.output + " (" + o.comparison + "): " + o.result.reason;
        }
    }
    if (!r.deviations.empty()) {
        // Never silent: the case names each registered deviation; another finding keeps its own status.
        std::string named;
        for (const CaseDeviation& d : r.deviations)
            named += (named.empty() ? "" : "; ") + d.backend + " deviates as registered: " + d.id + " (" + d.description + ")";
        if (r.status == CaseStatus::kPassed) {
            r.status = CaseStatus::kDeviates;
            r.reason = context + ": " + named;
        } else {
            r.reason += " [" + named + "]";
        }
    }
    if (r.status == CaseStatus::kFailed && device_failed && !reference_failed && !spec.expected.empty()) {
        std::string who = failed_labels == "gpu" ? std::string("GPU") : failed_labels;
        r.reason += " [" + who + "-only failure: the reference matches the expected outputs]";
    }
    if (!device_unsupported.empty()) {
        // Never a silent pass: a backend that could not run the case makes it UNSUPPORTED, naming what did run.
        if (r.status != CaseStatus::kPassed) {
            r.reason += " [" + device_unsupported + "]";
        } else {
            r.status = CaseStatus::kUnsupported;
            std::string ran;
            for (const DevicePart& part : parts)
                if (part.ran) ran += (ran.empty() ? "" : ", ") + part.backend->label();
            r.reason = context + ": " + device_unsupported +
                       (ran.empty() ? std::string() : " (" + ran + " matched the reference)");
        }
    }
    if (!device_skipped.empty()) {
        // A finding of the reference part stands; otherwise the case says that its device part did not run.
        if (r.status != CaseStatus::kPassed) {
            r.reason += " [" + device_skipped + "]";
        } else {
            r.status = CaseStatus::kSkipped;
            r.reason = context + ": " + device_skipped +
                       (r.outputs.empty() ? "" : "; the CPU reference matches the expected outputs");
        }
    }
    return r;
}

}  // namespace dmltool
