#include "gpu/tests/gpu_test_support.h"

#include "shaders/testing/validate_blob.h"

namespace dmltool::gpu::testing {

std::unique_ptr<GpuContext> make_context_or_skip_reason(std::string& skip_reason, const GpuContextOptions& options) {
    // Contexts this process created: a machine without a Vulkan driver skips, but one whose driver worked for an
    // earlier test and now refuses an instance fails. NVIDIA's driver (580, H100) refuses new Vulkan instances after
    // about 15 contexts per process (VK_ERROR_INCOMPATIBLE_DRIVER), and those tests used to skip as if the machine
    // had no GPU.
    static unsigned contexts_created = 0;
    auto adapters = list_adapters();
    if (!adapters.is_ok() && contexts_created > 0) {
        ADD_FAILURE() << "no Vulkan instance after " << contexts_created
                      << " contexts in this process (a driver limit on instances per process?): "
                      << adapters.status().message();
        return nullptr;
    }
    if (!adapters.is_ok()) {
        skip_reason = "no Vulkan instance: " + adapters.status().message();
        return nullptr;
    }
    if (adapters->empty()) {
        skip_reason = "no Vulkan physical device on this machine";
        return nullptr;
    }
    // The Vulkan loader unloads the driver library when a process's last instance is destroyed, and NVIDIA's driver
    // (580, H100) refuses new instances after ~15 such load/unload cycles; kept loaded (LD_PRELOAD of its library),
    // 40 contexts in a row worked. So on a hardware adapter one more context, opened with the first and never
    // destroyed (the process's exit frees it; destroying it at exit would also race the driver's own exit handlers),
    // keeps the driver loaded. Not on a software one (lavapipe has no such limit): there LeakSanitizer reports the
    // never-destroyed device's driver allocations (scripts/test_sanitized.sh).
    static GpuContext* const keeps_the_driver_loaded = [&]() -> GpuContext* {
        if (adapters->front().kind == AdapterKind::kCpu) return nullptr;
        auto pinned = GpuContext::create({});
        return pinned.is_ok() ? std::move(pinned).value().release() : nullptr;
    }();
    (void)keeps_the_driver_loaded;
    auto context = GpuContext::create(options);
    if (!context.is_ok()) {
        ADD_FAILURE() << "GpuContext::create: " << context.status().message();
        return nullptr;
    }
    ++contexts_created;
    return std::move(context).value();
}

Result<std::vector<std::vector<std::byte>>> run_kernel(GpuContext& context, const std::vector<uint8_t>& dxbc,
                                                       const std::string& name, const KernelRun& run) {
    const shaders::testing::BlobValidation validation = shaders::testing::validate_with_vkd3d(dxbc, name);
    if (validation.tools_found && !validation.ok) {
        return internal_error("kernel '" + name + "' rejected by vkd3d-compiler/spirv-val: " + validation.log);
    }
    const KernelLayout layout{static_cast<uint32_t>(run.root_constants.size()),
                              static_cast<uint32_t>(run.inputs.size()), static_cast<uint32_t>(run.output_bytes.size())};
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel kernel, ComputeKernel::create(context, dxbc, layout, name));
    std::vector<GpuBuffer> buffers;
    buffers.reserve(run.inputs.size() + run.output_bytes.size());
    for (size_t i = 0; i < run.inputs.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(context, MemoryKind::kDevice, run.inputs[i].size(),
                                                                     name + " input " + std::to_string(i)));
        DMLTOOL_RETURN_IF_ERROR(upload(context, buffer, 0, run.inputs[i]));
        buffers.push_back(std::move(buffer));
    }
    for (size_t i = 0; i < run.output_bytes.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer buffer, GpuBuffer::create(context, MemoryKind::kDevice, run.output_bytes[i],
                                                                     name + " output " + std::to_string(i)));
        DMLTOOL_RETURN_IF_ERROR(upload(context, buffer, 0, std::vector<std::byte>(run.output_bytes[i], std::byte{0xcd})));
        buffers.push_back(std::move(buffer));
    }
    std::vector<BufferView> srvs, uavs;
    for (size_t i = 0; i < run.inputs.size(); ++i) srvs.push_back({&buffers[i]});
    for (size_t i = 0; i < run.output_bytes.size(); ++i) uavs.push_back({&buffers[run.inputs.size() + i]});
    DMLTOOL_RETURN_IF_ERROR(kernel.record_dispatch(context, {run.root_constants, srvs, uavs, run.groups_x, run.groups_y}));
    DMLTOOL_RETURN_IF_ERROR(context.submit_and_wait());
    std::vector<std::vector<std::byte>> outputs;
    for (size_t i = 0; i < run.output_bytes.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(auto bytes, download(context, buffers[run.inputs.size() + i], 0, run.output_bytes[i]));
        outputs.push_back(std::move(bytes));
    }
    return outputs;
}

}  // namespace dmltool::gpu::testing
