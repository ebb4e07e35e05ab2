// CPU reference of DML_OPERATOR_DEPTH_TO_SPACE1 (spec §4.4): for every output element, find the input element
// it copies (the gather form) and copy its bytes unchanged, so -0.0 and NaN payloads survive.
#include <cstring>
#include <string>

#include "core/op.h"
#include "ops/depth_to_space1/depth_to_space1.h"

namespace dmltool::ops::depth_to_space1 {

Status run_depth_to_space1_reference(const DepthToSpace1Desc& desc, const HostTensor& input, HostTensor& output,
                                     ThreadPool& pool) {
    const size_t bytes = output.element_bytes();
    if (element_size_in_bits(output.data_type()) != bytes * 8 || input.data_type() != output.data_type())
        return internal_error("DEPTH_TO_SPACE1 reference: unexpected data type " +
                              std::string(data_type_name(output.data_type())));
    const Dims& out_sizes = desc.output.sizes;
    pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        uint32_t at[4];  // (n, c, oh, ow)
        for (uint64_t i = begin; i < end; ++i) {
            unravel_index(i, out_sizes, at);
            const uint64_t from = source_offset(desc.input.sizes, desc.block_size, desc.order, at[0], at[1], at[2], at[3]);
            std::memcpy(output.element_ptr(i), input.element_ptr(from), bytes);
        }
    });
    return Status::ok();
}

}  // namespace dmltool::ops::depth_to_space1
