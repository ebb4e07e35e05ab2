// The per-case pipeline: feature-level gate, memory budget, input materialisation through the physical
// layout, CPU reference, optional device backend, comparisons, and the case's final status and repro line.
#pragma once

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/case_spec.h"
#include "core/compare.h"
#include "core/deviations.h"
#include "core/tensor_source.h"

namespace dmltool {

// kDeviates: a device backend's outputs break the documented contract but match a model its deviation registry
// lists (core/deviations.h); only backends given a registry (DirectML) can deviate.
enum class CaseStatus { kPassed, kFailed, kMistrusted, kUnsupported, kInvalid, kSkipped, kDeviates };
const char* case_status_name(CaseStatus status);  // "PASSED", ...

// kGpu: dmltool's own kernels; kDirectml: Microsoft's DirectML.dll; kAll: both of them (three-way: reference,
// own kernels, DirectML). Every device backend is compared with the reference and with `expected`.
enum class BackendChoice { kCpu, kGpu, kBoth, kDirectml, kAll };
const char* backend_choice_name(BackendChoice choice);  // "cpu", "gpu", "both", "directml", "all"

struct OutputReport {
    std::string output;      // "OutputTensors[1]"
    std::string comparison;  // "reference vs expected", "gpu vs reference", "gpu vs expected", "directml vs gpu"
    // Two device backends compared with each other (--backend all): reported, but the verdict comes from the
    // comparisons with the reference and the expectation, so it does not change the case's status.
    bool informational = false;
    Tolerance tolerance;
    bool exact = false;  // judged against the reference's exact values under the error bound
    CompareResult result;
    std::string note;    // e.g. "proven with two poison patterns" (a constant expectation whose writes were proven)
    // A failed comparison that a registered deviation explains (the device matched that model): its id. Such a
    // comparison does not fail the case; the case is DEVIATES.
    std::string deviation;
};

// A registered deviation that explains a device's part of a case, or that the registry predicts for it.
struct CaseDeviation {
    std::string backend;  // the backend's label: "directml"
    std::string id;       // "dml-1.15.4/resample-nearest-8bit-floor-halfpixel"
    std::string description;
    bool certain = true;  // predictions: the model's output breaks the contract (false: it only may, error bounds)
};

struct CaseResult {
    std::string file;
    std::string name;
    std::string op;
    std::optional<FeatureLevel> feature_level;
    std::vector<std::string> tags;
    CaseStatus status = CaseStatus::kSkipped;
    std::string reason;           // one line for every status but PASSED
    bool device_error = false;    // the device or its runtime failed: exit code 3
    std::vector<OutputReport> outputs;
    WorkEstimate work;
    double reference_ms = 0;
    std::optional<double> backend_ms;
    double case_ms = 0;  // the whole case, inputs to verdict (set by `dmltool run`: JUnit's time)
    std::string repro;
    std::vector<CaseDeviation> deviations;            // status DEVIATES: the entries that explain it
    std::vector<CaseDeviation> predicted_deviations;  // the registry entries whose models depart on this case
};

struct RunOptions {
    BackendChoice backend = BackendChoice::kCpu;
    FeatureLevel feature_level_cap = kHighestFeatureLevel;
    SemanticsOptions semantics;
    SourceOptions sources;
    uint64_t max_host_bytes = 8ull << 30;
    size_t max_reported_mismatches = 8;
    std::string repro_extra_args;  // options that change results, appended to repro lines
    // The program repro lines start with: the path dmltool was invoked by (argv[0]), so that a repro line pasted
    // into the same shell runs the same build ("dmltool" when unknown).
    std::string repro_tool = "dmltool";
};

class Runner {
public:
    // `backend` may be null (CPU-only run).
    Runner(const RunOptions& options, ThreadPool& pool, Backend* backend);
    // Several device backends (--backend all): each runs the case and is compared with the reference, the
    // expectation and the backends before it. A backend that cannot run a case (UNSUPPORTED) does not stop the
    // others; the case is then UNSUPPORTED unless a comparison failed.
    Runner(const RunOptions& options, ThreadPool& pool, std::vector<Backend*> backends);

    // Device faults do not end a run: a case whose device part fails is FAILED with the call and HRESULT
    // (device_error: exit code 3) and the next case runs. After a device loss the next device case first
    // recreates the device, once; if that fails, later cases run only their CPU-reference part and say why the
    // device part did not run.
    // `used_inputs`, when given, receives the inputs the case ran on (as prepare_inputs makes them) once it got as
    // far as comparing outputs: `dmltool bench` times the case on them instead of generating them again.
    CaseResult run(const LoadedCase& loaded, std::vector<HostTensor>* used_inputs = nullptr);
    // A case file that could not be parsed becomes one INVALID result.
    static CaseResult invalid_file(const CaseFile& file);
    // The deviation registry of the `index`-th device backend (null: none, the default). Only a registry lets a
    // backend's departures from the contract be DEVIATES, and only DirectML (label "directml") takes one: dmltool's
    // own kernels and the reference are always held to the contract. False when the backend refuses it.
    bool set_deviations(size_t index, const DeviationRegistry* registry);

    // Everything run() does up to the reference outputs, for `dmltool bench`: the inputs as the device would see
    // them (after the layout round trip). Errors carry the case context.
    Result<std::vector<HostTensor>> prepare_inputs(const CaseSpec& spec) const;

    // For `dmltool validate`: every check run() makes before anything executes, with the same messages — the
    // feature-level cap and host memory budget (kUnsupported), the inputs as prepare_inputs reads them (file
    // access rule, HDF5 file, dataset, type and shape, inline data, data that contradicts a broadcast), the op's
    // rules on input values (Op::check_input_values: quantization scales) and the expected outputs' sources.
    // Explicit inputs larger than kValidateReadLimit and generated ones beyond kValidateGeneratedElements elements
    // are checked without producing their data (docs/cli.md).
    Status check_without_executing(const LoadedCase& loaded) const;
    static constexpr uint64_t kValidateReadLimit = 64ull << 20;
    static constexpr uint64_t kValidateGeneratedElements = 65536;
    const ThreadPool& pool() const { return pool_; }

private:
    Status check_memory_budget(const CaseSpec& spec) const;
    Result<HostTensor> prepare_input(const CaseSpec& spec, const TensorSlot& slot) const;
    // Why this case's part on backend `index` cannot run (empty: it can), recreating a lost device first.
    std::string device_unavailable(size_t index, CaseResult& result);
    // The SKIPPED result of a case with nothing to compare, decided before its inputs are built.
    CaseResult skip_early(const LoadedCase& loaded, const std::string& context, CaseResult& r,
                          std::vector<HostTensor>* used_inputs, const std::string& device_skipped) const;

    const RunOptions& options_;
    ThreadPool& pool_;
    std::vector<Backend*> backends_;
    // Per backend: set once re-creating a lost device failed; the rest of the run does without that backend.
    std::vector<std::string> device_gone_;
    std::vector<const DeviationRegistry*> deviations_;
};

// "dmltool run 'cases/x.json' --filter '^name$' ..." that reruns exactly one case.
std::string repro_command(const CaseSpec& spec, const RunOptions& options);

}  // namespace dmltool
