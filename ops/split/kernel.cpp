// SPLIT on the GPU. Output i holds the input elements whose Axis coordinate lies in [start_i, start_i + size_i)
// (split.h: axis_start / source_offset), so it is a copy with the output's sizes, the input's strides and an
// element offset of start_i * InputStride[Axis], written through the output's own strides.
//
// One dispatch per output rather than one for all: outputs are separate buffers and SM 5.0 on vkd3d has no
// UAV arrays, so a single dispatch would select its output with an if-chain per store and need a blob per
// output count; separate dispatches reuse one blob per (type, layout class), and each output gets the fastest
// path its own strides allow (16-byte vectors for one, 4-byte words for another). The dispatches are
// independent (separate outputs, a read-only input), so no barrier separates them and they may overlap.
#include "ops/split/kernel.h"

#include <string>

namespace dmltool::ops::split {

Result<DevicePlan> plan_split_device(const SplitDesc& desc, const shaders::StridedCopyOptions& options) {
    DevicePlan plan;
    const Dims input_strides = desc.input.effective_strides();
    const shaders::StridedCopyBuffer input{BufferBinding::Source::kInput, 0, desc.input.total_size_in_bytes};
    for (size_t i = 0; i < desc.outputs.size(); ++i) {
        const TensorDesc& out = desc.outputs[i];
        const Dims output_strides = out.effective_strides();
        shaders::StridedCopyProblem problem;
        problem.element_bytes = uint32_t(element_size(out.data_type));
        for (uint32_t d = 0; d < out.rank(); ++d) problem.dims.push_back({out.sizes[d], input_strides[d], output_strides[d]});
        problem.input_offset = axis_start(desc, i) * input_strides[desc.axis];
        const std::string label = "split/" + std::string(data_type_name(out.data_type)) + "/out" + std::to_string(i);
        DMLTOOL_RETURN_IF_ERROR(shaders::append_strided_copy(
            problem, input, {BufferBinding::Source::kOutput, uint32_t(i), out.total_size_in_bytes}, label, plan, options));
        // Outputs are separate buffers and the input is only read: no barrier between the copies, so each
        // one's ramp-up and tail overlap its neighbours' (the backend still ends the plan with one).
        plan.dispatches.back().barrier_after = false;
    }
    return plan;
}

}  // namespace dmltool::ops::split
