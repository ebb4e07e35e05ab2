// CPU reference of DML_OPERATOR_SPLIT (spec §5.3): every element of output i copies the input element with the
// same coordinates, shifted along the axis by the sizes of outputs 0..i-1. Bytes are copied unchanged, so
// -0.0 and NaN payloads survive.
#include <cstring>
#include <string>

#include "core/op.h"
#include "ops/split/split.h"

namespace dmltool::ops::split {

Status run_split_reference(const SplitDesc& desc, const HostTensor& input, std::span<HostTensor* const> outputs,
                           ThreadPool& pool) {
    const size_t bytes = input.element_bytes();
    if (element_size_in_bits(input.data_type()) != bytes * 8)
        return internal_error("SPLIT reference: unexpected data type " + std::string(data_type_name(input.data_type())));
    for (size_t i = 0; i < outputs.size(); ++i) {
        HostTensor& output = *outputs[i];
        const uint64_t start = axis_start(desc, i);
        pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
            uint32_t at[kMaxDimensionCount];
            for (uint64_t e = begin; e < end; ++e) {
                unravel_index(e, output.desc().sizes, at);
                const uint64_t from = source_offset(desc.input.sizes, desc.axis, start, at);
                std::memcpy(output.element_ptr(e), input.element_ptr(from), bytes);
            }
        });
    }
    return Status::ok();
}

}  // namespace dmltool::ops::split
