// What `dmltool bench` concludes from its measurements: per-case throughput as a share of the roofline measured in
// the same run, and the per-feature-level and per-operator x data-type tables (geometric means). Pure arithmetic
// on plain structs, so it is unit-tested without Google Benchmark or a device.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/feature_level.h"

namespace dmltool::app {

// One timed case on one backend.
struct BenchCase {
    std::string name;
    std::string file;
    std::string op;        // "DEPTH_TO_SPACE1"
    std::string dtype;     // data type of the first input: "FLOAT32"
    std::string backend;   // "gpu" or "cpu"
    FeatureLevel level;    // the case's minimum feature level
    bool compute_bound = false;  // convolution: against the multiply-add peak; otherwise the copy bandwidth
    uint64_t bytes = 0;    // logical bytes read + written once each
    uint64_t ops = 0;      // arithmetic operations (MAC = 2)
    double seconds = 0;    // per execution (the median sample); 0 = not measured (filtered out or failed while timed)
    std::vector<double> samples;         // seconds per execution, one per batch (bench/stats.h)
    unsigned executions_per_sample = 1;  // the batch size behind each sample
    bool converged = true;               // false: --max-time ran out before the noise fell below --max-noise
    double probe_before = 0, probe_after = 0;  // throttle probes (bytes/s) around the samples; 0 = none
    bool remeasured = false;  // sampled again after a slow probe
    bool throttled = false;   // a probe around it was more than the threshold below the run's best
    // Data movement on a device: a copy of the case's own bytes timed as the case (bench.cpp: same-size copies);
    // 0 = not measured.
    double same_size_copy_bytes_per_second = 0;
    // Device cases whose op offers plan variants (autotuning): how the plan timed was chosen (Backend::plan_choice).
    // nullopt: no variants (and the CPU reference).
    std::optional<PlanChoice> plan{};
    // Cases written by `dmltool import` (tags "model:NAME", "nodes:N"): the model and how many of its nodes the
    // case stands for (identical layers deduplicated into one case). Empty model: not an imported case.
    std::string model;
    uint64_t nodes = 1;
    // The case's check before it was timed (TimedCase::check_status); empty when not known (unit tests).
    std::string check_status{}, check_reason{};
    // A merged report of several processes (bench --processes, as `store` reads it): each process's median.
    std::vector<double> process_seconds{};
};

// A backend's roofline and, when a probe did not run or failed, why (reported as "n/a", never as 0%).
struct BackendRoofline {
    DeviceRoofline measured;  // zero fields = not measured
    std::string note;         // empty when every probe ran
};

// The operators whose throughput is judged against the multiply-add peak rather than the copy bandwidth.
bool is_compute_bound(std::string_view op_name);

struct CaseFigures {
    double bytes_per_second = 0;
    double ops_per_second = 0;
    std::optional<double> roofline_percent;   // data movement: of copy bytes/s; convolution: of int multiply-adds/s
    std::optional<double> float_fma_percent;  // convolution only: MACs/s of the float32 FMA peak
    std::optional<double> same_size_copy_percent;  // data movement: of a copy of the same bytes, where measured
};

CaseFigures figures_for(const BenchCase& c, const DeviceRoofline& roofline);

// Geometric mean of the positive values; nullopt when there are none (an empty group is "n/a").
std::optional<double> geometric_mean(std::span<const double> values);

// One row of the per-feature-level table (feature_level set) or of the per-operator x data-type table (op and
// dtype set).
struct TableRow {
    std::string backend;
    std::string feature_level;  // "2_1"
    std::string op, dtype;      // "DEPTH_TO_SPACE1", "FLOAT32"
    size_t cases = 0;
    size_t compute_cases = 0;  // of `cases`; the rest are data movement
    std::optional<double> geomean_bytes_per_second;  // data-movement cases
    std::optional<double> geomean_ops_per_second;    // compute cases
    std::optional<double> geomean_roofline_percent;  // cases whose roofline was measured
};

// Per model and backend (imported cases only): the model's time as the sum of each case's median times the nodes
// it stands for, and how that time splits over the DirectML operators: where a driver loses time on a network.
struct ModelRow {
    std::string backend, model;
    size_t cases = 0;
    uint64_t nodes = 0;
    double seconds = 0;
    std::vector<std::pair<std::string, double>> operator_seconds;  // largest first
};

struct BenchReport {
    std::vector<BenchCase> cases;         // measured cases only, in run order
    std::vector<ModelRow> by_model;       // imported cases: one row per model x backend
    std::vector<CaseFigures> figures;     // parallel to cases
    std::map<std::string, BackendRoofline> rooflines;  // by backend
    std::vector<TableRow> by_feature_level;
    std::vector<TableRow> by_operator_dtype;
};

// Drops unmeasured cases (seconds <= 0) and derives figures and tables. A backend without an entry in
// `rooflines` gets "n/a" percentages.
BenchReport build_report(std::vector<BenchCase> cases, std::map<std::string, BackendRoofline> rooflines);

// "87.3%" or "n/a"; "1.23 TB/s"-style rates (SI, base 1e3) or "n/a".
std::string format_percent(std::optional<double> percent);
std::string format_rate(std::optional<double> per_second, const char* unit);
// A relative noise as "0.42%"; "n/a" when infinite (fewer than two samples).
std::string format_noise(double noise);

// The rooflines, the per-case roofline shares and sample statistics, both tables, and one "not converged" warning
// per case that ran out of --max-time, for people.
void print_report(std::FILE* out, const BenchReport& report);

}  // namespace dmltool::app
