#include "gpu/word_probe.h"

#include <cstring>

#include "gpu/compute_kernel.h"
#include "gpu/gpu_buffer.h"
#include "gpu/gpu_context.h"
#include "shaders/kernels.h"

namespace dmltool::gpu {

Result<std::vector<std::vector<uint32_t>>> run_word_probe(GpuContext& context, std::span<const uint8_t> dxbc,
                                                          const std::string& name, std::span<const uint32_t> inputs,
                                                          std::span<const uint64_t> output_words, std::byte poison,
                                                          uint64_t threads) {
    const uint64_t bytes = inputs.size() * 4;
    DMLTOOL_ASSIGN_OR_RETURN(ComputeKernel kernel,
                             ComputeKernel::create(context, dxbc, {2, 1, uint32_t(output_words.size())}, name));
    DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer source, GpuBuffer::create(context, MemoryKind::kDevice, bytes, name + " inputs"));
    DMLTOOL_RETURN_IF_ERROR(upload(context, source, 0, std::as_bytes(inputs)));
    std::vector<GpuBuffer> outputs;
    std::vector<BufferView> uavs;
    outputs.reserve(output_words.size());
    for (uint64_t words : output_words) {
        DMLTOOL_ASSIGN_OR_RETURN(GpuBuffer output,
                                 GpuBuffer::create(context, MemoryKind::kDevice, words * 4, name + " results"));
        DMLTOOL_RETURN_IF_ERROR(upload(context, output, 0, std::vector<std::byte>(words * 4, poison)));
        outputs.push_back(std::move(output));
    }
    for (size_t i = 0; i < outputs.size(); ++i) uavs.push_back({&outputs[i], 0, output_words[i] * 4});
    const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, shaders::kDefaultThreadsPerGroup);
    const uint32_t constants[] = {uint32_t(inputs.size()), grid.threads_per_row};
    const BufferView srv{&source, 0, bytes};
    DMLTOOL_RETURN_IF_ERROR(kernel.record_dispatch(context, {constants, {&srv, 1}, uavs, grid.groups_x, grid.groups_y}));
    DMLTOOL_RETURN_IF_ERROR(context.submit_and_wait());
    std::vector<std::vector<uint32_t>> results;
    for (size_t i = 0; i < outputs.size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(std::vector<std::byte> raw, download(context, outputs[i], 0, output_words[i] * 4));
        std::vector<uint32_t>& words = results.emplace_back(output_words[i]);
        std::memcpy(words.data(), raw.data(), raw.size());
    }
    return results;
}

}  // namespace dmltool::gpu
