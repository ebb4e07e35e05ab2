// The parsed DML_JOIN_OPERATOR_DESC and its index math. Shared by op.cpp (parse, validation), reference.cpp (the
// CPU reference), kernel.cpp (the GPU plan) and the tests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/op.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/thread_pool.h"

namespace dmltool::ops::join {

struct JoinDesc final : OpDesc {
    std::vector<TensorDesc> inputs;  // InputTensors, in order along the axis
    TensorDesc output;
    uint32_t axis = 0;
};

// Where input `index` starts along the output's axis: the sum of the earlier inputs' axis sizes.
inline uint64_t axis_start(const JoinDesc& desc, size_t index) {
    uint64_t start = 0;
    for (size_t i = 0; i < index; ++i) start += desc.inputs[i].sizes[desc.axis];
    return start;
}

// Packed row-major offset in the output of element `coordinates` of the input that starts at `start` along the
// axis: the same coordinates, shifted by `start` on the axis.
inline uint64_t destination_offset(const Dims& output_sizes, uint32_t axis, uint64_t start,
                                   const uint32_t* coordinates) {
    uint64_t offset = 0;
    for (size_t d = 0; d < output_sizes.size(); ++d)
        offset = offset * output_sizes[d] + coordinates[d] + (d == axis ? start : 0);
    return offset;
}

// The CPU reference (reference.cpp): `output` is allocated with desc.output and is completely written.
Status run_join_reference(const JoinDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                          ThreadPool& pool);

// A random valid case for `dmltool generate` (generate.cpp), types and ranks from `table` (the op's own).
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

std::unique_ptr<Op> make_op();  // op.cpp

}  // namespace dmltool::ops::join
