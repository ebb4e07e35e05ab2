// Autotuning on the D3D12 backend (docs/benchmarks.md: Autotuning; the cache and the winner rule are core/plan_tuning.h).
// An op that offers plan variants for a desc (Op::device_plan_variants) gets them timed on this device the first
// time the desc is planned in tune mode: each variant is prepared on the heuristic plan's input and output
// buffers, run once and its outputs compared with the heuristic plan's, bit for bit but for NaN payloads and the
// sign of zero (core/plan_tuning.h: variant_output_difference; a variant that differs is a kernel bug, reported as
// the case's error rather than silently timed); then all are timed with GPU timestamps,
// back to back, in three rounds (each keeps its fastest), the heuristic and the fastest few are timed again (their
// medians decide), and the winner is stored per device (adapter, ids, driver) and plan fingerprint. Later plans of
// the same desc, in this process or later ones, use that winner.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "gpu/gpu_backend.h"

namespace dmltool::gpu {
namespace {

// Device time of one timed batch of a variant: enough executions for a stable mean of kernels that take tens
// of microseconds to milliseconds, bounded so a software adapter's slow executions stay few.
constexpr double kBatchSeconds = 0.02;
constexpr unsigned kMinExecutions = 3, kMaxExecutions = 200;
// Tuning leaves the GPU idle between variants (pipeline compilation, uploads, the output check on the host), and
// a GPU clocks down when idle: on the H100 the variants timed right after such a gap ran 5x slower than the same
// kernels in a busy benchmark (results/h100_2026-11-26_tune). So all variants are checked first and timed after,
// back to back, once the heuristic plan's batch means have settled (core/plan_tuning.h: settle_clocks).
// Rounds over all candidates; a candidate keeps its fastest, so one slow batch (a clock dip) cannot lose it.
constexpr unsigned kRounds = 3;
// Then the heuristic plan and this many of the fastest variants are timed again, this many batches each in a
// rotating order, and the winner is chosen among them by the median of those batches. Why: on the H100 one kernel's
// batches read 200-242 us across the three rounds (each steady within itself: the GPU's state after the variant
// before it), while its twin, the heuristic plan, read 200 us every time (results/h100_2026-11-27_tuning_noise):
// the fastest of three batches among ~150 candidates picks the luckiest, a median among a few picks the fastest.
constexpr size_t kFinalists = 4;
constexpr unsigned kConfirmRounds = 5;
// Auxiliary buffers (bytes) the checked variants of one desc may hold while they wait to be timed: this much, or a
// quarter of the device budget where that is more; a variant beyond it is released after its check and prepared
// again each time its turn to be timed comes. Re-preparing uploads its buffers again: with 2 GiB on an 80 GB H100,
// the QLinearConv 56x56 variants' ~100 MB split-K partials made the timing phase 20 s for 7.5 s of device time.
constexpr uint64_t kHeldAuxiliaryBytes = uint64_t{2} << 30;

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::string shape_text(const TensorDesc& desc) {
    std::string text;
    for (uint64_t size : desc.sizes) text += (text.empty() ? "" : "x") + std::to_string(size);
    return text;
}

// For people reading the cache file: "QUANTIZED_LINEAR_CONVOLUTION InputTensor 32x64x56x56 ...".
std::string plan_label(const Op& op, const OpDesc& desc) {
    std::string label(op.name());
    for (const TensorSlot& slot : op.tensors(desc))
        if (slot.desc) label += " " + slot.name + " " + shape_text(*slot.desc);
    return label;
}

}  // namespace

std::string GpuBackend::tuning_device_key() const {
    const AdapterInfo& a = context_->adapter();
    char ids[32];
    std::snprintf(ids, sizeof ids, "%04x:%04x", a.vendor_id, a.device_id);
    return a.name + " | " + ids + " | " + (a.driver_version.empty() ? "driver version unknown" : a.driver_version);
}

Result<double> GpuBackend::time_candidate(Prepared& prepared, double estimate, const std::string& name,
                                          double* batch_seconds) {
    const auto record = [&] { return record_plan(prepared); };
    if (!(estimate > 0)) {
        DMLTOOL_ASSIGN_OR_RETURN(estimate, context_->time_gpu(kMinExecutions, record));
    }
    const unsigned executions =
        estimate > 0 ? unsigned(std::clamp(std::ceil(kBatchSeconds / estimate), double(kMinExecutions),
                                           double(kMaxExecutions)))
                     : kMinExecutions;
    DMLTOOL_ASSIGN_OR_RETURN(const double mean, context_->time_gpu(executions, record));
    if (batch_seconds) *batch_seconds = mean * executions;
    if (tuning_.trace)
        std::fprintf(stderr, "dmltool: tuning trace: %s: %u executions: mean %.2f us\n",
                     name.empty() ? "(settling)" : name.c_str(), executions, mean * 1e6);
    return mean;
}

Result<double> GpuBackend::settle_clocks(Prepared& prepared) {
    return dmltool::settle_clocks([&](double previous_mean) -> Result<TimedBatch> {
        TimedBatch batch;
        DMLTOOL_ASSIGN_OR_RETURN(batch.mean, time_candidate(prepared, previous_mean, "", &batch.seconds));
        return batch;
    });
}

Result<PlanChoice> GpuBackend::tune(const Op& op, const OpDesc& desc, const std::vector<const HostTensor*>& inputs,
                                    const DevicePlan& heuristic, const std::vector<std::string>& variants,
                                    DevicePlan& winner) {
    std::vector<std::string> names = {""};
    names.insert(names.end(), variants.begin(), variants.end());
    const auto plan_of = [&](size_t i) -> Result<DevicePlan> {
        return i == 0 ? Result<DevicePlan>(heuristic) : op.plan_device_variant(desc, semantics_, names[i]);
    };
    const auto fails = [&](size_t i, const Status& s) {
        return s.with_context(std::string(op.name()) + ": autotuning plan variant '" +
                              (i == 0 ? std::string("heuristic") : names[i]) + "'");
    };
    struct Candidate {
        size_t name = 0;
        std::unique_ptr<Prepared> prepared;  // null once released (re-prepared to be timed)
        double seconds = 0;                  // fastest batch mean so far
    };
    std::vector<Candidate> candidates;
    std::vector<HostTensor> expected;
    uint64_t held_bytes = 0;
    // The input and output buffers every candidate shares, owned by a preparation of the heuristic plan that is
    // never timed itself: every candidate, the heuristic included, is timed the same way.
    std::unique_ptr<Prepared> io;
    using Clock = std::chrono::steady_clock;
    const auto seconds_since = [](Clock::time_point start) {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    const Clock::time_point start = Clock::now();
    // 0. Compile every variant's kernels first, on several threads at once (the driver compiles on the calling
    // thread: an H100 compiled a 56x56 QLinearConv layer's 108 kernels in 2.2 s on 16 threads). Only the dispatches
    // are kept (a plan's auxiliary buffer images can be 100 MB each); step 1 plans each variant again.
    std::vector<DevicePlan> kernels_only;
    for (size_t i = 0; i < names.size(); ++i) {
        auto plan = plan_of(i);
        if (!plan.is_ok()) continue;
        kernels_only.emplace_back().dispatches = std::move(plan->dispatches);
    }
    std::vector<const DevicePlan*> planned;
    for (const DevicePlan& plan : kernels_only) planned.push_back(&plan);
    const double plan_seconds = seconds_since(start);
    const size_t compiled = compile_kernels(planned);
    kernels_only.clear();
    const double compile_seconds = seconds_since(start) - plan_seconds;
    // 1. Check: every variant runs once on the heuristic plan's input and output buffers and must reproduce its
    // outputs (variant_output_difference).
    double prepare_seconds = 0, run_seconds = 0;
    for (size_t i = 0; i < names.size(); ++i) {
        auto plan = plan_of(i);
        // A variant the op cannot build for this desc, or that does not fit this device, is not a candidate; the
        // heuristic plan must work (it is what runs without tuning).
        if (!plan.is_ok() && i > 0 && plan.status().code() == ErrorCode::kUnsupported) continue;
        if (!plan.is_ok()) return fails(i, plan.status());
        if (!io) {
            DMLTOOL_ASSIGN_OR_RETURN(io, prepare_plan(op, desc, inputs, heuristic));
        }
        Clock::time_point step = Clock::now();
        auto prepared = prepare_plan(op, desc, inputs, std::move(plan).value(), io.get());
        prepare_seconds += seconds_since(step);
        if (!prepared.is_ok() && i > 0 && prepared.status().code() == ErrorCode::kUnsupported) continue;
        if (!prepared.is_ok()) return fails(i, prepared.status());
        step = Clock::now();
        auto outputs = run_and_read(op, **prepared, kOutputPoison);
        run_seconds += seconds_since(step);
        if (!outputs.is_ok()) return fails(i, outputs.status());
        if (i == 0) {
            expected = std::move(outputs).value();
        } else if (const std::string where = variant_output_difference(expected, *outputs); !where.empty()) {
            return internal_error(std::string(op.name()) + ": autotuning: plan variant '" + names[i] +
                                  "' computes other outputs than the heuristic plan (first at " + where +
                                  "): a kernel bug; --autotune off runs the heuristic plan only");
        }
        held_bytes += (*prepared)->auxiliary_bytes;
        if (i > 0 && held_bytes > std::max(kHeldAuxiliaryBytes, max_device_bytes_ / 4)) {
            held_bytes -= (*prepared)->auxiliary_bytes;
            prepared->reset();
        }
        candidates.push_back({i, std::move(prepared).value(), 0});
    }
    const double check_seconds = seconds_since(start) - plan_seconds - compile_seconds;
    // 2. Time: the heuristic plan until the clocks settle, then every candidate one batch per round, back to back
    // (no host work in between but re-preparing a released variant); each keeps its fastest round.
    const auto time_batch = [&](Candidate& c, double estimate, const std::string& label) -> Result<double> {
        std::unique_ptr<Prepared> again;
        if (!c.prepared) {
            DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, plan_of(c.name));
            DMLTOOL_ASSIGN_OR_RETURN(again, prepare_plan(op, desc, inputs, std::move(plan), io.get()));
        }
        auto seconds = time_candidate(c.prepared ? *c.prepared : *again, estimate,
                                      label + (c.name == 0 ? "heuristic" : names[c.name]));
        if (!seconds.is_ok()) return fails(c.name, seconds.status());
        return seconds;
    };
    if (auto settled = settle_clocks(*io); !settled.is_ok()) return settled.status();
    for (unsigned round = 0; round < kRounds; ++round)
        for (size_t k = 0; k < candidates.size(); ++k) {
            // Odd rounds run backwards: no candidate is always the first after the warm-up or after another's.
            Candidate& c = candidates[round % 2 ? candidates.size() - 1 - k : k];
            DMLTOOL_ASSIGN_OR_RETURN(const double seconds, time_batch(c, c.seconds, ""));
            c.seconds = c.seconds > 0 ? std::min(c.seconds, seconds) : seconds;
        }
    // 3. Confirm: the heuristic plan (candidates[0]) and the kFinalists fastest variants, kConfirmRounds batches
    // each in a rotating order; their times become the medians of those batches, and the winner is one of them.
    std::vector<size_t> finalists;
    for (size_t k = 1; k < candidates.size(); ++k)
        if (candidates[k].seconds > 0) finalists.push_back(k);
    const size_t kept = std::min(kFinalists, finalists.size());
    std::partial_sort(finalists.begin(), finalists.begin() + kept, finalists.end(),
                      [&](size_t a, size_t b) { return candidates[a].seconds < candidates[b].seconds; });
    finalists.resize(kept);
    finalists.insert(finalists.begin(), 0);
    std::vector<std::vector<double>> confirmed(finalists.size());
    for (unsigned round = 0; round < kConfirmRounds; ++round)
        for (size_t k = 0; k < finalists.size(); ++k) {
            const size_t f = (k + round) % finalists.size();
            Candidate& c = candidates[finalists[f]];
            DMLTOOL_ASSIGN_OR_RETURN(const double seconds, time_batch(c, c.seconds, "confirm: "));
            confirmed[f].push_back(seconds);
        }
    std::vector<VariantTime> final_times;
    for (size_t f = 0; f < finalists.size(); ++f) {
        Candidate& c = candidates[finalists[f]];
        if (c.seconds > 0) c.seconds = median(confirmed[f]);
        final_times.push_back({names[c.name], c.seconds});
    }
    if (tuning_.trace)
        std::fprintf(stderr, "dmltool: tuning: %s: %zu candidates of %zu plans: planned in %.2f s, %zu kernels "
                     "compiled in %.2f s, checked in %.2f s (preparing %.2f s, running and reading %.2f s), timed in %.2f s\n",
                     plan_label(op, desc).c_str(), candidates.size(), names.size(), plan_seconds, compiled,
                     compile_seconds, check_seconds, prepare_seconds, run_seconds,
                     seconds_since(start) - plan_seconds - compile_seconds - check_seconds);
    PlanChoice choice;
    choice.source = "tuned";
    for (const Candidate& c : candidates) choice.candidates.push_back({names[c.name], c.seconds});
    const size_t chosen = finalists[choose_variant(final_times)];
    choice.variant = names[candidates[chosen].name];
    DMLTOOL_ASSIGN_OR_RETURN(winner, plan_of(candidates[chosen].name));
    return choice;
}

Result<DevicePlan> GpuBackend::choose_plan(const Op& op, const OpDesc& desc,
                                           const std::vector<const HostTensor*>& inputs) {
    DMLTOOL_ASSIGN_OR_RETURN(DevicePlan heuristic, op.plan_device(desc, semantics_));
    if (tuning_.mode == TuningMode::kOff) return heuristic;
    const std::vector<std::string> variants = op.device_plan_variants(desc, semantics_);
    if (variants.empty()) return heuristic;
    const std::string key = plan_fingerprint(op.name(), heuristic, variants);
    auto known = plan_choices_.find(key);
    if (known == plan_choices_.end()) {
        if (!tuning_cache_) {
            std::string warning;
            tuning_cache_ = std::make_unique<TuningCache>(TuningCache::load(tuning_.cache_path, &warning));
            if (!warning.empty()) std::fprintf(stderr, "dmltool: warning: %s\n", warning.c_str());
        }
        PlanChoice choice;
        std::optional<PlanChoice> cached = tuning_cache_->find(tuning_device_key(), key);
        const bool usable = cached && (cached->variant.empty() ||
                                       std::find(variants.begin(), variants.end(), cached->variant) != variants.end());
        if (usable) {
            choice = *cached;
        } else if (tuning_.mode == TuningMode::kTune) {
            DevicePlan winner;
            DMLTOOL_ASSIGN_OR_RETURN(choice, tune(op, desc, inputs, heuristic, variants, winner));
            tuning_cache_->store(tuning_device_key(), key, plan_label(op, desc), choice);
            if (Status saved = tuning_cache_->save(); !saved.is_ok())
                std::fprintf(stderr, "dmltool: warning: the tuning cache was not saved: %s\n", saved.message().c_str());
            plan_choices_[key] = choice;
            return winner;
        } else {
            choice.note = "no tuned winner for this device in the tuning cache (--autotune tune measures one)";
        }
        known = plan_choices_.emplace(key, std::move(choice)).first;
    }
    if (known->second.variant.empty()) return heuristic;
    return op.plan_device_variant(desc, semantics_, known->second.variant);
}

std::optional<PlanChoice> GpuBackend::plan_choice(const Op& op, const OpDesc& desc) {
    const std::vector<std::string> variants = op.device_plan_variants(desc, semantics_);
    if (variants.empty()) return std::nullopt;
    if (tuning_.mode == TuningMode::kOff) {
        PlanChoice choice;
        choice.note = "--autotune off";
        return choice;
    }
    auto heuristic = op.plan_device(desc, semantics_);
    if (!heuristic.is_ok()) return std::nullopt;
    auto known = plan_choices_.find(plan_fingerprint(op.name(), *heuristic, variants));
    if (known == plan_choices_.end()) return std::nullopt;
    return known->second;
}

}  // namespace dmltool::gpu
