#include "gpu/gpu_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>
#include <utility>

#include "gpu/device_footprint.h"

#include "gpu/roofline_probe.h"

namespace dmltool::gpu {
namespace {

// Sizes were checked by check_footprint before anything is allocated, so the padding cannot overflow here.
uint64_t padded_size(uint64_t bytes) { return device_buffer_size(bytes).value_or(bytes); }

std::vector<const TensorDesc*> slot_descs(const Op& op, const OpDesc& desc, TensorRole role) {
    std::vector<const TensorDesc*> out;
    for (const TensorSlot& slot : op.tensors(desc))
        if (slot.role == role) out.push_back(slot.desc);
    return out;
}

}  // namespace

Result<std::unique_ptr<GpuBackend>> GpuBackend::create(const GpuContextOptions& options,
                                                       const SemanticsOptions& semantics,
                                                       const GpuBackendOptions& backend_options) {
    std::unique_ptr<GpuBackend> backend(new GpuBackend());
    backend->context_options_ = options;
    backend->context_options_.faults = nullptr;
    if (!backend_options.faults.empty()) {
        backend->faults_ = std::make_unique<FaultInjector>(backend_options.faults);
        backend->context_options_.faults = backend->faults_.get();
    }
    backend->semantics_ = semantics;
    backend->tuning_ = backend_options.tuning;
    DMLTOOL_ASSIGN_OR_RETURN(backend->context_, GpuContext::create(backend->context_options_));
    backend->max_device_bytes_ = backend_options.max_device_bytes ? backend_options.max_device_bytes
                                                                  : backend->context_->adapter().device_local_bytes;
    return backend;
}

Status GpuBackend::recover() {
    if (!context_->is_lost()) return Status::ok();
    auto fresh = GpuContext::create(context_options_);
    if (!fresh.is_ok())
        return fresh.status().with_context("recreating the device after it was lost (" + context_->lost_reason() + ")");
    // Kernels and buffers belong to the old device: release them before it goes.
    last_timed_.reset();
    kernel_cache_.clear();
    context_ = std::move(fresh).value();
    return Status::ok();
}

Status GpuBackend::check_footprint(const Op& op, const OpDesc& desc, const DevicePlan& plan) const {
    DMLTOOL_ASSIGN_OR_RETURN(auto buffers, device_buffers(op, desc, plan));
    return check_device_footprint(buffers, {context_->adapter().name, context_->max_buffer_bytes(), max_device_bytes_});
}

Status GpuBackend::check_capacity(const Op& op, const OpDesc& desc) {
    DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, op.plan_device(desc, semantics_));
    return check_footprint(op, desc, plan);
}

std::string GpuBackend::name() const { return "gpu (" + context_->adapter().name + ")"; }

Status GpuBackend::check_capabilities(DeviceCapabilitySet required, const KernelDispatch& first_dispatch) {
    std::string missing;
    if (required & uint32_t(DeviceCapability::kExactHalfOpcodes)) {
        if (!half_opcodes_) {
            auto probe = probe_half_opcodes(*context_);
            if (!probe.is_ok()) return probe.status().with_context("probing the device's half opcodes");
            half_opcodes_ = std::move(probe).value();
            if (tuning_.trace) std::fprintf(stderr, "dmltool: half opcode probe: %s\n", half_opcodes_->summary().c_str());
        }
        if (!half_opcodes_->exact()) missing += "exact half opcodes, and " + half_opcodes_->summary();
    }
    if (required & uint32_t(DeviceCapability::kAccurateExp2)) {
        if (!exp2_) {
            auto probe = probe_exp2(*context_);
            if (!probe.is_ok()) return probe.status().with_context("probing the device's exp2");
            exp2_ = std::move(probe).value();
            if (tuning_.trace) std::fprintf(stderr, "dmltool: exp2 probe: %s\n", exp2_->summary().c_str());
        }
        if (!exp2_->accurate()) missing += std::string(missing.empty() ? "" : "; ") + "an accurate exp2, and " + exp2_->summary();
    }
    if (missing.empty()) return Status::ok();
    return unsupported(first_dispatch.label + " needs " + capability_names(required) + ": on '" +
                       context_->adapter().name + "' it lacks " + missing);
}

Status GpuBackend::resolve_fallbacks(DevicePlan& plan) {
    while (plan.required_capabilities != 0 && !plan.dispatches.empty()) {
        Status met = check_capabilities(plan.required_capabilities, plan.dispatches.front());
        // A failed probe is an error either way; a capability the device lacks moves on to the fallback.
        if (met.is_ok() || met.code() != ErrorCode::kUnsupported || !plan.fallback) return met;
        if (tuning_.trace) {  // the probes' findings were traced when they ran
            DeviceCapabilitySet lacking = 0;
            if (plan.requires_capability(DeviceCapability::kExactHalfOpcodes) && !half_opcodes_->exact())
                lacking |= uint32_t(DeviceCapability::kExactHalfOpcodes);
            if (plan.requires_capability(DeviceCapability::kAccurateExp2) && !exp2_->accurate())
                lacking |= uint32_t(DeviceCapability::kAccurateExp2);
            std::fprintf(stderr, "dmltool: %s: this device lacks %s, running the plan's fallback\n",
                         plan.dispatches.front().label.c_str(), capability_names(lacking).c_str());
        }
        DevicePlan next = *plan.fallback;
        plan = std::move(next);
    }
    return Status::ok();
}

std::string GpuBackend::kernel_key(const KernelDispatch& dispatch) {
    std::string key = std::to_string(dispatch.root_constants.size()) + "/" + std::to_string(dispatch.srvs.size()) +
                      "/" + std::to_string(dispatch.uavs.size()) + "/";
    if (dispatch.dxbc) key.append(reinterpret_cast<const char*>(dispatch.dxbc->data()), dispatch.dxbc->size());
    return key;
}

KernelLayout GpuBackend::kernel_layout(const KernelDispatch& dispatch) {
    return {uint32_t(dispatch.root_constants.size()), uint32_t(dispatch.srvs.size()), uint32_t(dispatch.uavs.size())};
}

Result<const ComputeKernel*> GpuBackend::kernel_for(const KernelDispatch& dispatch) {
    if (!dispatch.dxbc || dispatch.dxbc->empty()) return internal_error(dispatch.label + ": dispatch without a kernel");
    std::string key = kernel_key(dispatch);
    auto it = kernel_cache_.find(key);
    if (it != kernel_cache_.end()) return it->second.get();
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel kernel,
                             ComputeKernel::create(*context_, *dispatch.dxbc, kernel_layout(dispatch), dispatch.label));
    auto stored = std::make_unique<ComputeKernel>(std::move(kernel));
    const ComputeKernel* pointer = stored.get();
    kernel_cache_.emplace(std::move(key), std::move(stored));
    return pointer;
}

size_t GpuBackend::compile_kernels(const std::vector<const DevicePlan*>& plans) {
    struct Pending {
        std::string key;
        const KernelDispatch* dispatch = nullptr;
        std::optional<Result<ComputeKernel>> kernel;
    };
    std::vector<Pending> pending;
    std::set<std::string> seen;
    for (const DevicePlan* plan : plans)
        for (const KernelDispatch& dispatch : plan->dispatches) {
            if (!dispatch.dxbc || dispatch.dxbc->empty()) continue;
            std::string key = kernel_key(dispatch);
            if (kernel_cache_.count(key) || !seen.insert(key).second) continue;
            pending.push_back({std::move(key), &dispatch, std::nullopt});
        }
    // D3D12 devices are free-threaded: pipeline and root signature creation may run on several threads at once
    // (vkd3d translates the DXBC and the Vulkan driver compiles it on the calling thread). Nothing else of the
    // context is touched here.
    const size_t threads = std::min<size_t>({pending.size(), kMaxCompileThreads,
                                             std::max(1u, std::thread::hardware_concurrency())});
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t i = next++; i < pending.size(); i = next++) {
            const KernelDispatch& dispatch = *pending[i].dispatch;
            pending[i].kernel = ComputeKernel::create(*context_, *dispatch.dxbc, kernel_layout(dispatch), dispatch.label);
        }
    };
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
    work();
    for (std::thread& worker : workers) worker.join();
    size_t compiled = 0;
    for (Pending& p : pending) {
        // A kernel that failed stays out of the cache: kernel_for meets the same failure again, where the caller
        // decides what it means (a tuning variant the device refuses is skipped, the heuristic plan's is an error).
        if (!p.kernel || !p.kernel->is_ok()) continue;
        kernel_cache_.emplace(std::move(p.key), std::make_unique<ComputeKernel>(std::move(*p.kernel).value()));
        ++compiled;
    }
    return compiled;
}

Result<std::unique_ptr<GpuBackend::Prepared>> GpuBackend::prepare(const Op& op, const OpDesc& desc,
                                                                  const std::vector<const HostTensor*>& inputs) {
    DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, choose_plan(op, desc, inputs));
    return prepare_plan(op, desc, inputs, std::move(plan));
}

Result<std::unique_ptr<GpuBackend::Prepared>> GpuBackend::prepare_plan(const Op& op, const OpDesc& desc,
                                                                       const std::vector<const HostTensor*>& inputs,
                                                                       DevicePlan plan, const Prepared* same_io) {
    auto prepared = std::make_unique<Prepared>();
    prepared->desc = &desc;
    prepared->inputs = inputs;
    prepared->plan = std::move(plan);
    DMLTOOL_RETURN_IF_ERROR(check_footprint(op, desc, prepared->plan));
    // The plan whose capabilities this device has: the plan itself, or one of its fallbacks.
    DMLTOOL_RETURN_IF_ERROR(resolve_fallbacks(prepared->plan));
    for (const KernelDispatch& dispatch : prepared->plan.dispatches) {
        DMLTOOL_ASSIGN_OR_RETURN(const ComputeKernel* kernel, kernel_for(dispatch));
        prepared->kernels.push_back(kernel);
    }
    if (same_io) {
        prepared->input_buffers = same_io->input_buffers;
        prepared->output_buffers = same_io->output_buffers;
    }
    const auto input_descs = slot_descs(op, desc, TensorRole::kInput);
    for (size_t i = 0; i < input_descs.size() && !same_io; ++i) {
        if (!input_descs[i] || !inputs[i]) {
            prepared->input_buffers.emplace_back();
            continue;
        }
        std::vector<std::byte> image = to_physical(*inputs[i]);
        image.resize(padded_size(image.size()), std::byte{0});
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(*context_, MemoryKind::kDevice, image.size(),
                                                                     "input " + std::to_string(i)));
        DMLTOOL_RETURN_IF_ERROR(upload(*context_, buffer, 0, image));
        prepared->input_buffers.push_back(std::make_shared<GpuBuffer>(std::move(buffer)));
    }
    const auto output_descs = same_io ? std::vector<const TensorDesc*>{} : slot_descs(op, desc, TensorRole::kOutput);
    for (const TensorDesc* output : output_descs) {
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(*context_, MemoryKind::kDevice,
                                                                     padded_size(output->total_size_in_bytes), "output"));
        prepared->output_buffers.push_back(std::make_shared<GpuBuffer>(std::move(buffer)));
    }
    for (size_t i = 0; i < prepared->plan.auxiliary_buffers.size(); ++i) {
        // Taken, not copied: once on the device, a preparation kept for timing (tuning holds ~100 of them) need not
        // hold its host image too.
        std::vector<std::byte> data = std::exchange(prepared->plan.auxiliary_buffers[i], {});
        data.resize(padded_size(data.size()), std::byte{0});
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(*context_, MemoryKind::kDevice, data.size(),
                                                                     "auxiliary " + std::to_string(i)));
        DMLTOOL_RETURN_IF_ERROR(upload(*context_, buffer, 0, data));
        prepared->auxiliary_bytes += data.size();
        prepared->auxiliary_buffers.push_back(std::make_shared<GpuBuffer>(std::move(buffer)));
    }
    return prepared;
}

Status GpuBackend::reset_outputs(const Op&, Prepared& prepared, std::byte output_poison) {
    for (auto& buffer : prepared.output_buffers) {
        std::vector<std::byte> poison(buffer->size(), output_poison);
        DMLTOOL_RETURN_IF_ERROR(upload(*context_, *buffer, 0, poison));
    }
    return Status::ok();
}

Status GpuBackend::record_plan(Prepared& prepared) {
    for (size_t d = 0; d < prepared.plan.dispatches.size(); ++d) {
        const KernelDispatch& dispatch = prepared.plan.dispatches[d];
        auto resolve = [&](const BufferBinding& binding) -> Result<BufferView> {
            const std::vector<std::shared_ptr<GpuBuffer>>* pool = nullptr;
            switch (binding.source) {
                case BufferBinding::Source::kInput: pool = &prepared.input_buffers; break;
                case BufferBinding::Source::kOutput: pool = &prepared.output_buffers; break;
                case BufferBinding::Source::kAuxiliary: pool = &prepared.auxiliary_buffers; break;
            }
            if (binding.index >= pool->size() || !(*pool)[binding.index])
                return internal_error(dispatch.label + ": binds buffer " + std::to_string(binding.index) +
                                      " that the plan does not have");
            GpuBuffer* buffer = (*pool)[binding.index].get();
            return BufferView{buffer, binding.byte_offset, binding.byte_size ? binding.byte_size : kWholeBuffer,
                              binding.typed_uint4};
        };
        std::vector<BufferView> srvs, uavs;
        for (const BufferBinding& b : dispatch.srvs) {
            DMLTOOL_ASSIGN_OR_RETURN(BufferView view, resolve(b));
            srvs.push_back(view);
        }
        for (const BufferBinding& b : dispatch.uavs) {
            DMLTOOL_ASSIGN_OR_RETURN(BufferView view, resolve(b));
            uavs.push_back(view);
        }
        // The plan's last dispatch always ends with a barrier: the next execution rewrites the same outputs.
        DispatchArgs args{dispatch.root_constants, srvs, uavs, dispatch.group_count[0], dispatch.group_count[1],
                          dispatch.group_count[2], dispatch.barrier_after || d + 1 == prepared.plan.dispatches.size()};
        DMLTOOL_RETURN_IF_ERROR(prepared.kernels[d]->record_dispatch(*context_, args).with_context(dispatch.label));
    }
    return Status::ok();
}

Result<std::vector<HostTensor>> GpuBackend::execute(const Op& op, const OpDesc& desc,
                                                    const std::vector<const HostTensor*>& inputs,
                                                    BackendTiming* timing, std::byte output_poison) {
    if (faults_) faults_->begin_execution();
    auto outputs = prepare_and_run(op, desc, inputs, timing, output_poison, 1);
    // A case that failed half-way (out of memory, say) frees its buffers on return; what it recorded must not
    // reach the next case's submit.
    if (!outputs.is_ok() && !context_->is_lost()) (void)context_->discard_recording();
    return outputs;
}

Result<std::vector<HostTensor>> GpuBackend::execute_repeatedly(const Op& op, const OpDesc& desc,
                                                              const std::vector<const HostTensor*>& inputs,
                                                              unsigned executions) {
    auto outputs = prepare_and_run(op, desc, inputs, nullptr, kDefaultOutputPoison, executions);
    if (!outputs.is_ok() && !context_->is_lost()) (void)context_->discard_recording();
    return outputs;
}

Result<std::vector<HostTensor>> GpuBackend::prepare_and_run(const Op& op, const OpDesc& desc,
                                                            const std::vector<const HostTensor*>& inputs,
                                                            BackendTiming* timing, std::byte output_poison,
                                                            unsigned executions) {
    DMLTOOL_ASSIGN_OR_RETURN(auto prepared, prepare(op, desc, inputs));
    for (unsigned i = 1; i < executions; ++i) {
        DMLTOOL_RETURN_IF_ERROR(record_plan(*prepared));
        DMLTOOL_RETURN_IF_ERROR(context_->submit_and_wait());
    }
    return run_and_read(op, *prepared, output_poison, timing);
}

Result<std::vector<HostTensor>> GpuBackend::run_and_read(const Op& op, Prepared& prepared, std::byte output_poison,
                                                         BackendTiming* timing) {
    DMLTOOL_RETURN_IF_ERROR(reset_outputs(op, prepared, output_poison));
    const auto start = std::chrono::steady_clock::now();
    DMLTOOL_RETURN_IF_ERROR(record_plan(prepared));
    DMLTOOL_RETURN_IF_ERROR(context_->submit_and_wait());
    if (timing)
        timing->first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<HostTensor> outputs;
    const auto output_descs = slot_descs(op, *prepared.desc, TensorRole::kOutput);
    for (size_t i = 0; i < output_descs.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<std::byte> bytes,
                                 download(*context_, *prepared.output_buffers[i], 0, output_descs[i]->total_size_in_bytes));
        outputs.push_back(from_physical(*output_descs[i], bytes));
    }
    return outputs;
}

Result<double> GpuBackend::time_executions(const Op& op, const OpDesc& desc,
                                           const std::vector<const HostTensor*>& inputs,
                                           unsigned iterations) {
    const uint64_t work_bytes = op.work(desc).bytes;
    if (!last_timed_ || last_timed_->desc != &desc || last_timed_->inputs != inputs || last_timed_bytes_ != work_bytes) {
        last_timed_.reset();
        DMLTOOL_ASSIGN_OR_RETURN(last_timed_, prepare(op, desc, inputs));
        last_timed_bytes_ = work_bytes;
    }
    Prepared& prepared = *last_timed_;
    return context_->time_gpu(iterations, [&] { return record_plan(prepared); });
}

// A software device (lavapipe) copies a few GB/s: the default 256 MiB probe, times every variant and batch,
// would take many minutes there, and a CPU device's figure does not depend on the size beyond its caches. Its
// batches need no amortizing of a submission's fixed cost either (the host runs the copy itself): with the
// hardware defaults (20 per batch, 5 batches per figure) the probes took 36-90 s of a 2-second smoke bench on the
// 2-core machine (issue 41); 2 per batch and 3 batches give the same figure within the host's noise.
constexpr uint64_t kSoftwareDeviceCopyBytes = 8ull << 20;
constexpr uint32_t kSoftwareDeviceBatch = 2, kSoftwareDeviceSamples = 3;

Result<DeviceRoofline> GpuBackend::measure_roofline(uint64_t copy_bytes) {
    RooflineProbeOptions options;
    const bool software = context_->adapter().kind == AdapterKind::kCpu;
    if (software) {
        options.copy_bytes = std::min(copy_bytes, kSoftwareDeviceCopyBytes);
        options.batch = kSoftwareDeviceBatch;
        options.samples = kSoftwareDeviceSamples;
    } else {
        options.copy_bytes = copy_bytes;
    }
    auto roofline = gpu::measure_roofline(*context_, options);
    if (roofline.is_ok() && software)
        roofline->copy_method += " (" + std::to_string(options.copy_bytes >> 20) + " MiB, " +
                                 std::to_string(options.batch) + " per batch, median of " +
                                 std::to_string(options.samples) + ": software device)";
    return roofline;
}

}  // namespace dmltool::gpu
