// CPU reference of DML_OPERATOR_JOIN: every element of input i lands in the output at the same coordinates,
// shifted along Axis by the axis sizes of inputs 0..i-1. The naive form: one loop over each input's elements,
// computing the destination with join.h's destination_offset, copying the element's bytes unchanged (so -0.0
// and NaN payloads survive). The tests check it against splitting the output back (SPLIT's reference).
#include <cstring>
#include <string>

#include "ops/join/join.h"

namespace dmltool::ops::join {

Status run_join_reference(const JoinDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                          ThreadPool& pool) {
    const size_t bytes = output.element_bytes();
    if (element_size_in_bits(output.data_type()) != bytes * 8)
        return internal_error("JOIN reference: unexpected data type " + std::string(data_type_name(output.data_type())));
    for (size_t i = 0; i < inputs.size(); ++i) {
        const HostTensor& input = *inputs[i];
        const uint64_t start = axis_start(desc, i);
        const Dims& in_sizes = input.desc().sizes;
        pool.parallel_for(input.element_count(), [&](uint64_t begin, uint64_t end) {
            uint32_t coordinates[kMaxDimensionCount];
            for (uint64_t e = begin; e < end; ++e) {
                unravel_index(e, in_sizes, coordinates);
                const uint64_t o = destination_offset(desc.output.sizes, desc.axis, start, coordinates);
                std::memcpy(output.element_ptr(o), input.element_ptr(e), bytes);
            }
        }, 4096);
    }
    return Status::ok();
}

}  // namespace dmltool::ops::join
