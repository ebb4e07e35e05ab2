// DEPTH_TO_SPACE1 on the GPU. The output {N, C', H*B, W*B} seen as {N, C', H, B, W, B} (oh = h*B + row,
// ow = w*B + column) copies input element (n, source_channel(c, row, column), h, w). source_channel is affine
// in (c, row, column), so the gather is a strided copy whose channel-side strides are its finite differences:
// one definition of the rule (depth_to_space1.h) serves the reference and the kernel. Layouts whose rows are
// whole 16-byte vectors take the vector interleave or its piece gather instead (shaders/vector_interleave.h).
#include "ops/depth_to_space1/kernel.h"

#include <algorithm>
#include <string>

#include "shaders/vector_interleave.h"

namespace dmltool::ops::depth_to_space1 {

Result<DevicePlan> plan_depth_to_space1_device(const DepthToSpace1Desc& desc,
                                               const shaders::StridedCopyOptions& options,
                                               D2sKernel kernel) {
    const Dims in = desc.input.effective_strides();
    const Dims out = desc.output.effective_strides();
    const uint64_t block = desc.block_size;
    const uint64_t out_channels = desc.output.sizes[1];
    auto channel = [&](uint64_t c, uint64_t row, uint64_t column) {
        return source_channel(desc.order, block, out_channels, c, row, column);
    };
    const uint64_t base = channel(0, 0, 0);
    const uint64_t per_channel = channel(1, 0, 0) - base;
    const uint64_t per_row = channel(0, 1, 0) - base;
    const uint64_t per_column = channel(0, 0, 1) - base;
    const std::string label = "depth_to_space1/" + std::string(data_type_name(desc.input.data_type));

    // The vector interleave writes each thread's B output vectors side by side, so one store instruction of a
    // warp covers every B-th vector; for 4/8-byte elements beyond B = 2 that scatter costs more than the strided
    // copy's per-element gather (H200, float32 B = 4: 2.79 against 3.16 TB/s). Sub-word elements gain at every B
    // (their gather is a load per byte or half). At B = 4 they take the interleave's piece gather (one output
    // vector per thread from one word of each of the 4 source rows: coalesced loads and stores).
    const uint32_t element_bytes = uint32_t(element_size(desc.input.data_type));
    const bool interleave = kernel == D2sKernel::kAuto ? element_bytes <= 2 || block == 2
                                                       : kernel != D2sKernel::kStridedCopy;
    if (options.typed_vectors && in[3] == 1 && out[3] == 1 && interleave) {
        shaders::VectorInterleaveProblem vector;
        vector.element_bytes = element_bytes;
        vector.block = uint32_t(std::min<uint64_t>(block, UINT32_MAX));
        vector.batch = desc.output.sizes[0];
        vector.channels = out_channels;
        vector.height = desc.input.sizes[2];
        vector.width = desc.input.sizes[3];
        vector.in_n = in[0];
        vector.in_c = per_channel * in[1];
        vector.in_block_row = per_row * in[1];
        vector.in_block_column = per_column * in[1];
        vector.in_h = in[2];
        vector.in_base = base * in[1];
        vector.out_n = out[0];
        vector.out_c = out[1];
        vector.out_row = out[2];
        vector.input_bytes = desc.input.total_size_in_bytes;
        vector.output_bytes = desc.output.total_size_in_bytes;
        vector.shape = kernel == D2sKernel::kPieces    ? shaders::InterleaveShape::kPieces
                       : kernel == D2sKernel::kVectors ? shaders::InterleaveShape::kVectors
                                                       : shaders::InterleaveShape::kAuto;
        DMLTOOL_ASSIGN_OR_RETURN(std::optional<KernelDispatch> dispatch,
                                 shaders::plan_vector_interleave(vector, label, options.window_log2));
        if (dispatch) {
            DevicePlan plan;
            plan.dispatches.push_back(std::move(*dispatch));
            return plan;
        }
    }

    shaders::StridedCopyProblem problem;
    problem.element_bytes = uint32_t(element_size(desc.input.data_type));
    problem.dims = {
        {desc.output.sizes[0], in[0], out[0]},
        {out_channels, per_channel * in[1], out[1]},
        {desc.input.sizes[2], in[2], block * out[2]},
        {block, per_row * in[1], out[2]},
        {desc.input.sizes[3], in[3], block * out[3]},
        {block, per_column * in[1], out[3]},
    };
    problem.input_offset = base * in[1];
    DevicePlan plan;
    DMLTOOL_RETURN_IF_ERROR(shaders::append_strided_copy(
        problem, {BufferBinding::Source::kInput, 0, desc.input.total_size_in_bytes},
        {BufferBinding::Source::kOutput, 0, desc.output.total_size_in_bytes},
        label, plan, options));
    return plan;
}

}  // namespace dmltool::ops::depth_to_space1
