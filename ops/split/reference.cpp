// CPU reference of DML_OPERATOR_SPLIT (spec §5.3): every element of output i copies the input element with the
// same coordinates, shifted along the axis by the sizes of outputs 0..i-1. In a packed tensor that makes output i
// `outer` contiguous runs (outer = the product of the sizes before the axis), run r being the bytes of input row r
// from axis offset `start`: so the reference is one memcpy per run (long runs cut into pieces, all on the thread
// pool), and bytes are copied unchanged, so -0.0 and NaN payloads survive. The tests check it against the
// per-element gather (source_offset) and against joining the outputs back.
#include <algorithm>
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
    const Dims& sizes = desc.input.sizes;
    uint64_t outer = 1, inner_bytes = bytes;  // rows before the axis; bytes of one step along the axis
    for (uint32_t d = 0; d < desc.axis; ++d) outer *= sizes[d];
    for (uint32_t d = desc.axis + 1; d < sizes.size(); ++d) inner_bytes *= sizes[d];
    const uint64_t input_row_bytes = sizes[desc.axis] * inner_bytes;
    constexpr uint64_t kPieceBytes = 256u << 10;  // one hand-off copies at most this much of a run
    for (size_t i = 0; i < outputs.size(); ++i) {
        HostTensor& output = *outputs[i];
        if (output.element_count() == 0) continue;
        const uint64_t run_bytes = output.desc().sizes[desc.axis] * inner_bytes;
        const uint64_t start_bytes = axis_start(desc, i) * inner_bytes;
        const uint64_t pieces_per_run = (run_bytes + kPieceBytes - 1) / kPieceBytes;
        const std::byte* in = input.element_ptr(0);
        std::byte* out = output.element_ptr(0);
        pool.parallel_for(outer * pieces_per_run, [&](uint64_t begin, uint64_t end) {
            for (uint64_t p = begin; p < end; ++p) {
                const uint64_t row = p / pieces_per_run, offset = (p % pieces_per_run) * kPieceBytes;
                std::memcpy(out + row * run_bytes + offset, in + row * input_row_bytes + start_bytes + offset,
                            std::min(kPieceBytes, run_bytes - offset));
            }
        }, std::max<uint64_t>(1, kPieceBytes / std::min(kPieceBytes, run_bytes)));
    }
    return Status::ok();
}

}  // namespace dmltool::ops::split
