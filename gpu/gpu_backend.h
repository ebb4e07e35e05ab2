// GpuBackend runs an operator's DevicePlan (core/device_plan.h) on a GpuContext: it lays the inputs into their
// physical buffers, fills the outputs with a poison pattern (so untouched elements cannot pass), runs the
// dispatches and reads the outputs back as logical tensors. Compiled kernels are cached by blob contents.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/plan_tuning.h"
#include "core/semantics.h"
#include "gpu/compute_kernel.h"
#include "gpu/fault_injector.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"
#include "gpu/half_opcode_probe.h"
#include "gpu/transcendental_probe.h"

namespace dmltool::gpu {

// Byte written over every output buffer before the kernels run unless the caller names another.
inline constexpr std::byte kOutputPoison = kDefaultOutputPoison;

struct GpuBackendOptions {
    // Device-local memory one case may use (its input, output and auxiliary buffers; staging copies live in
    // upload/readback heaps); 0: the adapter's largest device-local heap, or no budget when it reports none.
    uint64_t max_device_bytes = 0;
    FaultPlan faults;  // test hook (DMLTOOL_INJECT_FAULT); GpuContextOptions::faults is ignored here
    // Autotuning (docs/benchmarks.md: Autotuning): whether ops' plan variants are timed and which cache file keeps winners.
    TuningOptions tuning{};
};

class GpuBackend final : public Backend {
public:
    static Result<std::unique_ptr<GpuBackend>> create(const GpuContextOptions& options,
                                                       const SemanticsOptions& semantics,
                                                       const GpuBackendOptions& backend_options = {});

    std::string name() const override;
    Result<std::vector<HostTensor>> execute(const Op& op, const OpDesc& desc,
                                            const std::vector<const HostTensor*>& inputs,
                                            BackendTiming* timing,
                                            std::byte output_poison = kDefaultOutputPoison) override;
    Result<double> time_executions(const Op& op, const OpDesc& desc,
                                   const std::vector<const HostTensor*>& inputs,
                                   unsigned iterations) override;
    // Runs the desc's plan `executions` times on one preparation (scratch and auxiliary buffers kept between them,
    // as the timed batches of `bench` run it) and reads the outputs of the last: what tests use to check that a
    // plan whose kernels accumulate into their own buffers starts each execution from a clean state.
    Result<std::vector<HostTensor>> execute_repeatedly(const Op& op, const OpDesc& desc,
                                                       const std::vector<const HostTensor*>& inputs,
                                                       unsigned executions);
    Result<DeviceRoofline> measure_roofline(uint64_t copy_bytes) override;
    Status check_capacity(const Op& op, const OpDesc& desc) override;
    std::optional<PlanChoice> plan_choice(const Op& op, const OpDesc& desc) override;
    bool lost() const override { return context_->is_lost(); }
    Status recover() override;

    // The device memory budget in effect (GpuBackendOptions::max_device_bytes resolved; 0: none).
    uint64_t max_device_bytes() const { return max_device_bytes_; }

    GpuContext& context() { return *context_; }
    // Tests: replaces this device's half opcode probe (nullopt: probe again when a plan needs it), so that a device
    // whose opcodes are exact can stand for one whose are not.
    void set_half_opcode_probe_for_testing(std::optional<HalfOpcodeProbe> probe) { half_opcodes_ = std::move(probe); }
    // Tests: the same for the exp2 probe (a device whose exp passes stands for one whose does not, and back).
    void set_exp2_probe_for_testing(std::optional<Exp2Probe> probe) { exp2_ = std::move(probe); }
    // The semantics later plans follow (tests switch rules on one device instead of creating another).
    void set_semantics(const SemanticsOptions& semantics) { semantics_ = semantics; }

private:
    // Device buffers and kernels of one planned execution.
    struct Prepared {
        const OpDesc* desc = nullptr;
        std::vector<const HostTensor*> inputs;
        DevicePlan plan;
        // Shared: autotuning runs every plan variant of a desc on the same input and output buffers.
        std::vector<std::shared_ptr<GpuBuffer>> input_buffers;  // null for absent optional inputs
        std::vector<std::shared_ptr<GpuBuffer>> output_buffers;
        std::vector<std::shared_ptr<GpuBuffer>> auxiliary_buffers;
        uint64_t auxiliary_bytes = 0;
        std::vector<const ComputeKernel*> kernels;  // one per dispatch, owned by kernel_cache_
    };

    GpuBackend() = default;

    Result<std::unique_ptr<Prepared>> prepare(const Op& op, const OpDesc& desc,
                                              const std::vector<const HostTensor*>& inputs);
    // Buffers and kernels for a given plan (prepare: the chosen one; tuning: each variant in turn). With
    // `same_io`, the input and output buffers are that preparation's (same desc and inputs), not new ones.
    Result<std::unique_ptr<Prepared>> prepare_plan(const Op& op, const OpDesc& desc,
                                                   const std::vector<const HostTensor*>& inputs, DevicePlan plan,
                                                   const Prepared* same_io = nullptr);

    // Autotuning (gpu_backend_tuning.cpp). The plan to run for this desc: the heuristic one, the cached winner,
    // or (tuning mode, no winner yet) the winner of timing every variant. Records the choice for plan_choice().
    Result<DevicePlan> choose_plan(const Op& op, const OpDesc& desc, const std::vector<const HostTensor*>& inputs);
    // Times every variant (after checking its outputs equal the heuristic plan's bit for bit) and returns the
    // choice; the winner's plan in `winner`.
    Result<PlanChoice> tune(const Op& op, const OpDesc& desc, const std::vector<const HostTensor*>& inputs,
                            const DevicePlan& heuristic, const std::vector<std::string>& variants, DevicePlan& winner);
    // Mean device time of one execution of a prepared plan over one batch of about kBatchSeconds (executions
    // from `estimate` of one execution's time; 0: a short batch measures it first).
    // `name` labels the trace; `batch_seconds`, when given, receives the batch's total device time.
    Result<double> time_candidate(Prepared& prepared, double estimate, const std::string& name = "",
                                  double* batch_seconds = nullptr);
    // Batches of `prepared` back to back until the GPU's clocks have settled (core/plan_tuning.h: settle_clocks).
    Result<double> settle_clocks(Prepared& prepared);
    // Poisons the outputs, runs the plan once and reads the outputs back (timing: the run alone).
    Result<std::vector<HostTensor>> run_and_read(const Op& op, Prepared& prepared, std::byte output_poison,
                                                 BackendTiming* timing = nullptr);
    // "name | vendor:device | driver": the cache's device key.
    std::string tuning_device_key() const;
    // kUnsupported, with the numbers, when the plan's buffers exceed the device's limits or the budget.
    Status check_footprint(const Op& op, const OpDesc& desc, const DevicePlan& plan) const;
    // Prepares the desc's plan, runs it `executions` times and reads the last outputs (execute: once).
    Result<std::vector<HostTensor>> prepare_and_run(const Op& op, const OpDesc& desc,
                                                    const std::vector<const HostTensor*>& inputs,
                                                    BackendTiming* timing, std::byte output_poison,
                                                    unsigned executions);
    Status reset_outputs(const Op& op, Prepared& prepared, std::byte output_poison);
    Status record_plan(Prepared& prepared);
    Result<const ComputeKernel*> kernel_for(const KernelDispatch& dispatch);
    // Compiles the kernels of these plans that kernel_cache_ lacks, on up to kMaxCompileThreads threads at once,
    // and caches them; returns how many. Tuning prepares a desc's ~100 variants (tuning trace: "kernels compiled
    // in"). A kernel that fails to compile is left out (kernel_for reports it when that plan is prepared).
    size_t compile_kernels(const std::vector<const DevicePlan*>& plans);
    static std::string kernel_key(const KernelDispatch& dispatch);  // layout + blob bytes
    static KernelLayout kernel_layout(const KernelDispatch& dispatch);
    static constexpr size_t kMaxCompileThreads = 16;
    // kUnsupported, with the probes' findings, when this device lacks one of `required` (DevicePlan's capabilities:
    // gpu/half_opcode_probe.h, gpu/transcendental_probe.h; each probed once per device, on the first plan that
    // needs it, and traced with --trace).
    Status check_capabilities(DeviceCapabilitySet required, const KernelDispatch& first_dispatch);
    // The first plan of `plan`'s fallback chain whose capabilities this device has (the plan itself where it needs
    // none); kUnsupported naming what the last one lacks.
    Status resolve_fallbacks(DevicePlan& plan);

    // The injector outlives every context made with it (declared first: destroyed last).
    std::unique_ptr<FaultInjector> faults_;
    GpuContextOptions context_options_;  // for re-creating the device after a loss
    uint64_t max_device_bytes_ = 0;
    std::unique_ptr<GpuContext> context_;
    SemanticsOptions semantics_;
    std::map<std::string, std::unique_ptr<ComputeKernel>> kernel_cache_;  // key: layout + blob bytes
    std::unique_ptr<Prepared> last_timed_;  // reused by repeated time_executions calls on the same case
    // With the desc's and inputs' addresses, the key of last_timed_: a desc freed and another allocated at its address
    // (bench's same-size copies, 2026-11-28) must not reuse the old plan, and one of another size never does.
    uint64_t last_timed_bytes_ = 0;
    TuningOptions tuning_;
    std::unique_ptr<TuningCache> tuning_cache_;  // loaded on the first case with variants
    std::map<std::string, PlanChoice> plan_choices_;  // by plan fingerprint: each desc is tuned once per process
    std::optional<HalfOpcodeProbe> half_opcodes_;     // the device's probe, once a plan needed it
    std::optional<Exp2Probe> exp2_;                   // likewise
};

}  // namespace dmltool::gpu
