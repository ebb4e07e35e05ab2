// Autotuning's device-independent half (docs/benchmarks.md: Autotuning): how a case's device plan was chosen, the rule
// that picks a winner from measured times, the fingerprint of a plan, and the tuning cache (which variant won, per
// device and plan) kept in a JSON file between runs. Ops offer variants (Op::device_plan_variants); the GPU
// backend measures them (gpu/gpu_backend_tuning.cpp).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/device_plan.h"
#include "core/status.h"
#include "core/tensor.h"

namespace dmltool {

// off: always the heuristic plan; cached: the cache's winner where it has one, else the heuristic; tune: as
// cached, and a case without a cached winner is tuned (every variant timed) and the winner stored.
enum class TuningMode { kOff, kCached, kTune };
std::string_view tuning_mode_name(TuningMode mode);
std::optional<TuningMode> parse_tuning_mode(std::string_view text);

struct TuningOptions {
    TuningMode mode = TuningMode::kOff;
    std::filesystem::path cache_path;  // empty: nothing is read or written (tuned winners last for the process)
    // Diagnostics (DMLTOOL_TUNING_TRACE=1): every timed batch's statistics on stderr.
    bool trace = false;
};

// The device time of one execution of one variant ("" is the heuristic plan).
struct VariantTime {
    std::string variant;
    double seconds = 0;
};

// How a case's plan was chosen, for reports.
struct PlanChoice {
    std::string variant;                  // "" = the heuristic plan (Op::plan_device)
    std::string source = "heuristic";     // "heuristic", "tuned" (measured in this process) or "cache"
    std::string note;                     // why the heuristic plan ran (e.g. "--autotune off"); empty otherwise
    std::vector<VariantTime> candidates;  // tuned / cache: every variant measured, the heuristic first
    // tuned / cache: the heuristic's time over the winner's, as measured when tuning (>= 1).
    double speedup() const;
    // The variant as reports name it: "heuristic" for the heuristic plan.
    std::string display_name() const { return variant.empty() ? "heuristic" : variant; }
};

// The index of the winner: the fastest candidate, unless it is less than `margin` (relative) faster than the
// heuristic (index 0) — noise of a few percent must not flip choices from run to run. Candidates with no time
// (seconds <= 0: failed or skipped) never win. 0 for an empty list.
size_t choose_variant(const std::vector<VariantTime>& measured, double margin = 0.02);

// One timed batch: its mean device seconds per execution and the device seconds the whole batch took.
struct TimedBatch {
    double mean = 0;
    double seconds = 0;
};

// Waits for a GPU's clocks to settle before anything is timed (the tuner before its candidates, bench before its
// same-size copies): runs batches until at least 0.5 s of device time has passed and two consecutive means agree
// within 2%, at most 201 batches, or until a batch takes no device time. Returns the lower of the two agreeing
// means, else the last one. Why both conditions: a GPU clocks down while idle (H100: variants timed right after
// compile/check gaps ran 5x slow, results/h100_2026-11-26_tune), and agreement alone settled too early (the H100
// spent ~150 ms in a steady state at 2.2x the benchmark's time, results/h100_2026-11-27_tuning_trace).
// `time_batch` gets the previous batch's mean (0 for the first) to size the next batch.
Result<double> settle_clocks(const std::function<Result<TimedBatch>(double previous_mean)>& time_batch);

// Empty when a variant's outputs have the same values as the heuristic plan's: bit for bit, except that any NaN
// equals any NaN and -0 equals +0. Which NaN or zero an evaluation produces depends on its operation order (x86's
// inf - inf is a negative NaN, a + b and b + a can pick different NaN operands), so two correct kernels that
// order the same operations differently may differ there and nowhere else. Otherwise: where the first
// difference is ("output 0 element 12: expected ..., got ...").
std::string variant_output_difference(const std::vector<HostTensor>& expected, const std::vector<HostTensor>& got);

// A key that changes whenever what would run changes: FNV-1a (64-bit) over the op name, the heuristic plan
// (kernel bytes, root constants, bindings, group counts, auxiliary buffer sizes) and the variant names. A new
// build whose kernels differ, another shape or another variant set never reuses an old winner.
std::string plan_fingerprint(std::string_view op_name, const DevicePlan& heuristic,
                             const std::vector<std::string>& variants);

// The default cache file: $XDG_CACHE_HOME/dmltool/tuning.json, else ~/.cache/dmltool/tuning.json (Windows:
// %LOCALAPPDATA%\dmltool\tuning.json); empty when none of those variables is set.
std::filesystem::path default_tuning_cache_path();

// The tuning cache. The file is the tool's own (rebuilt by tuning), so a file that cannot be read as one is not
// an input error: it is ignored with a warning and replaced on the next save. Saving re-reads the file and
// merges this process's entries into it, then replaces it atomically (temporary file + rename), so concurrent
// runs lose at most each other's newest entries, never the file.
class TuningCache {
public:
    explicit TuningCache(std::filesystem::path path = {}) : path_(std::move(path)) {}
    // Reads the file (an absent file is an empty cache); `warning` gets the reason when it was ignored.
    static TuningCache load(const std::filesystem::path& path, std::string* warning);

    // The stored choice for this device and plan fingerprint, if any (source "cache").
    std::optional<PlanChoice> find(const std::string& device, const std::string& plan) const;
    // `label` says what the entry is for people reading the file (op and shape).
    void store(const std::string& device, const std::string& plan, const std::string& label, const PlanChoice& choice);
    Status save() const;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    nlohmann::json devices_ = nlohmann::json::object();  // device -> plan -> entry
    nlohmann::json stored_ = nlohmann::json::object();   // this process's entries, merged into the file on save
};

}  // namespace dmltool
