// The D3D12 backend for the app: adapter choice from --adapter, the device memory budget, the fault-injection
// test hook, and the adapter listing for `dmltool list`.
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "app/device.h"
#include "gpu/directml/deviation_registries.h"
#include "gpu/directml/directml_backend.h"
#include "gpu/gpu_backend.h"

namespace dmltool::app {

namespace {

gpu::GpuContextOptions context_options_for(const DeviceOptions& options) {
    gpu::GpuContextOptions context_options;
    context_options.stable_power_state = options.stable_power_state;
    // A diagnostics switch, not an option (as DMLTOOL_TUNING_TRACE): every upload's and download's steps timed.
    if (const char* trace = std::getenv("DMLTOOL_TRANSFER_TRACE")) context_options.trace_transfers = std::string(trace) == "1";
    if (!options.adapter.empty()) {
        const bool numeric = std::all_of(options.adapter.begin(), options.adapter.end(),
                                         [](unsigned char c) { return std::isdigit(c); });
        if (numeric)
            context_options.adapter_index = uint32_t(std::stoul(options.adapter));
        else
            context_options.adapter_name_contains = options.adapter;
    }
    return context_options;
}

}  // namespace

Result<std::unique_ptr<Backend>> make_directml_backend(const DeviceOptions& options) {
    gpu::DirectMlOptions dml;
    dml.dll_path = options.directml_dll;
    dml.disable_metacommands = options.dml_disable_metacommands;
    dml.allow_half_precision = options.dml_allow_half_precision;
    dml.debug = options.dml_debug;
    dml.max_device_bytes = options.max_device_mib << 20;
    DMLTOOL_ASSIGN_OR_RETURN(auto backend, gpu::DirectMlBackend::create(context_options_for(options), dml));
    return std::unique_ptr<Backend>(std::move(backend));
}

DirectMlDescription describe_directml(const DeviceOptions& options) {
    auto backend = make_directml_backend(options);
    if (!backend.is_ok()) return {"DirectML: not available: " + backend.status().message(), {}};
    return {"DirectML: " + (*backend)->name(), (*backend)->implementation_version()};
}

std::vector<std::pair<std::string, std::string>> shipped_deviation_registries() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const gpu::EmbeddedRegistry& r : gpu::embedded_deviation_registries()) out.emplace_back(r.source, r.text);
    return out;
}

Result<std::unique_ptr<Backend>> make_gpu_backend(const DeviceOptions& options, const SemanticsOptions& semantics) {
    gpu::GpuContextOptions context_options = context_options_for(options);
    gpu::GpuBackendOptions backend_options;
    backend_options.max_device_bytes = options.max_device_mib << 20;
    backend_options.tuning.mode = options.autotune;
    // A diagnostics switch, not an option: the tuner's every batch (median, mean, min, max per execution) on stderr.
    if (const char* trace = std::getenv("DMLTOOL_TUNING_TRACE")) backend_options.tuning.trace = std::string(trace) == "1";
    backend_options.tuning.cache_path =
        options.tuning_cache.empty() ? default_tuning_cache_path() : std::filesystem::path(options.tuning_cache);
    DMLTOOL_ASSIGN_OR_RETURN(backend_options.faults, gpu::parse_fault_plan(options.inject_fault));
    if (!backend_options.faults.empty())
        std::fprintf(stderr, "dmltool: note: DMLTOOL_INJECT_FAULT=%s: simulating device faults (a test hook)\n",
                     options.inject_fault.c_str());
    DMLTOOL_ASSIGN_OR_RETURN(auto backend, gpu::GpuBackend::create(context_options, semantics, backend_options));
    return std::unique_ptr<Backend>(std::move(backend));
}

bool is_software_device(const Backend& device) {
    auto adapters = gpu::list_adapters();
    if (!adapters.is_ok()) return false;
    // Backend names carry the adapter's name ("gpu (llvmpipe (LLVM 15.0.6, 256 bits))").
    const std::string name = device.name();
    for (const gpu::AdapterInfo& a : *adapters)
        if (a.kind == gpu::AdapterKind::kCpu && !a.name.empty() && name.find(a.name) != std::string::npos) return true;
    return false;
}

std::vector<std::string> describe_adapters() {
    auto adapters = gpu::list_adapters();
    if (!adapters.is_ok()) return {"none: " + adapters.status().message()};
    std::vector<std::string> lines;
    for (const gpu::AdapterInfo& a : *adapters) {
        char line[256];
        std::snprintf(line, sizeof line, "%u: %s (%s, vendor 0x%04x, device 0x%04x, %.1f GiB device-local", a.index,
                      a.name.c_str(), gpu::adapter_kind_name(a.kind), a.vendor_id, a.device_id,
                      double(a.device_local_bytes) / double(1ull << 30));
        // The limits the up-front memory check applies (docs/robustness.md).
        lines.push_back(std::string(line) + ", largest buffer " +
                        (a.max_buffer_bytes ? describe_bytes(a.max_buffer_bytes) : std::string("not reported")) + ")");
    }
    if (lines.empty()) lines.push_back("none: no Vulkan device found");
    return lines;
}

}  // namespace dmltool::app
