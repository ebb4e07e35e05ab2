// Shared by the GPU tests: a context on the default adapter (or a skip when this machine has no Vulkan device),
// and a one-call "upload inputs, dispatch, download outputs" runner that also validates the kernel's blob with
// vkd3d-compiler + spirv-val first.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu/compute_kernel.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"

namespace dmltool::gpu::testing {

// Returns a context, or nullptr with `skip_reason` set when no Vulkan device exists. A device that exists but
// fails to open is a test failure, not a skip.
std::unique_ptr<GpuContext> make_context_or_skip_reason(std::string& skip_reason, const GpuContextOptions& options = {});

#define DMLTOOL_GPU_CONTEXT_OR_SKIP(context)                                              \
    std::string context##_skip_reason;                                                     \
    std::unique_ptr<::dmltool::gpu::GpuContext> context =                                  \
        ::dmltool::gpu::testing::make_context_or_skip_reason(context##_skip_reason);       \
    if (!context) {                                                                        \
        if (!context##_skip_reason.empty()) GTEST_SKIP() << context##_skip_reason;         \
        FAIL() << "GPU context creation failed";                                           \
    }

template <typename T>
std::vector<std::byte> as_bytes(const std::vector<T>& values) {
    std::vector<std::byte> out(values.size() * sizeof(T));
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}

template <typename T>
std::vector<T> from_bytes(const std::vector<std::byte>& bytes) {
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}

struct KernelRun {
    std::vector<uint32_t> root_constants;
    std::vector<std::vector<std::byte>> inputs;  // one SRV each, t0..
    std::vector<uint64_t> output_bytes;          // one UAV each, u0.. (filled with 0xcd before the dispatch)
    uint32_t groups_x = 1;
    uint32_t groups_y = 1;
};

// Validates `dxbc`, creates the kernel, runs it once and returns the outputs' bytes.
Result<std::vector<std::vector<std::byte>>> run_kernel(GpuContext& context, const std::vector<uint8_t>& dxbc,
                                                       const std::string& name, const KernelRun& run);

}  // namespace dmltool::gpu::testing
