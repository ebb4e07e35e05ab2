// DEPTH_TO_SPACE1 on the GPU. The output {N, C', H*B, W*B} seen as {N, C', H, B, W, B} (oh = h*B + row,
// ow = w*B + column) copies input element (n, source_channel(c, row, column), h, w). source_channel is affine
// in (c, row, column), so the gather is a strided copy whose channel-side strides are its finite differences:
// one definition of the rule (depth_to_space1.h) serves the reference and the kernel.
#include "ops/depth_to_space1/kernel.h"

#include <string>

namespace dmltool::ops::depth_to_space1 {

Result<DevicePlan> plan_depth_to_space1_device(const DepthToSpace1Desc& desc,
                                               const shaders::StridedCopyOptions& options) {
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
        "depth_to_space1/" + std::string(data_type_name(desc.input.data_type)), plan, options));
    return plan;
}

}  // namespace dmltool::ops::depth_to_space1
