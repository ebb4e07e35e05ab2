// The parsed DML_SPLIT_OPERATOR_DESC and its index math (spec §5.3). Shared by op.cpp (parse, validation),
// reference.cpp (the CPU reference) and, later, the GPU kernel generator.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/op.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/thread_pool.h"

namespace dmltool::ops::split {

struct SplitDesc final : OpDesc {
    TensorDesc input;
    std::vector<TensorDesc> outputs;  // OutputTensors, in order along the axis
    uint32_t axis = 0;
};

// Where output `index` starts along the axis: the sum of the earlier outputs' axis sizes.
inline uint64_t axis_start(const SplitDesc& desc, size_t index) {
    uint64_t start = 0;
    for (size_t i = 0; i < index; ++i) start += desc.outputs[i].sizes[desc.axis];
    return start;
}

// Packed row-major offset of the input element that output element `coordinates` (of the output starting at
// `start` along the axis) copies: the same coordinates, shifted by `start` on the axis.
inline uint64_t source_offset(const Dims& input_sizes, uint32_t axis, uint64_t start, const uint32_t* coordinates) {
    uint64_t offset = 0;
    for (size_t d = 0; d < input_sizes.size(); ++d)
        offset = offset * input_sizes[d] + coordinates[d] + (d == axis ? start : 0);
    return offset;
}

// The CPU reference (reference.cpp); `outputs` are allocated with desc.outputs and are completely written.
Status run_split_reference(const SplitDesc& desc, const HostTensor& input, std::span<HostTensor* const> outputs,
                           ThreadPool& pool);

// A random valid case for `dmltool generate` (generate.cpp), types and ranks from `table` (the op's own).
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

}  // namespace dmltool::ops::split
