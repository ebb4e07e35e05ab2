// CPU reference of DML_OPERATOR_DEPTH_TO_SPACE1 (spec §4.4), row by row: output row (n, c, oh) is the
// interleave of B input rows — its element ow = w*B + bw copies element w of the row (n, source_channel(bh, bw,
// c), oh / B) with bh = oh % B — so the index math runs once per row and the inner loop is a plain strided copy
// of whole elements (bytes unchanged, so -0.0 and NaN payloads survive). The tests check it against the
// per-element gather (source_offset), the scatter form and ONNX's reshape/transpose form.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/depth_to_space1/depth_to_space1.h"

namespace dmltool::ops::depth_to_space1 {
namespace {

// Writes one output row of `width * block` elements from `block` source rows of `width` elements each.
// `Element` is an unsigned integer of the element's size: copying it copies the bytes. The output is written in
// order, one group of `block` elements per source column: the compiler turns that into vector loads of the
// source rows and interleaving shuffles, where one pass per source row stores element by element with a stride
// (three times slower for INT8 with block 2 or 4).
template <typename Element, uint32_t kBlock>
void interleave_rows(Element* __restrict out, const Element* const* sources, uint64_t width) {
    const Element* __restrict source[kBlock];
    for (uint32_t bw = 0; bw < kBlock; ++bw) source[bw] = sources[bw];
    for (uint64_t w = 0; w < width; ++w)
        for (uint32_t bw = 0; bw < kBlock; ++bw) out[w * kBlock + bw] = source[bw][w];
}

template <typename Element>
void interleave_rows_any_block(Element* out, const Element* const* sources, uint64_t width, uint32_t block) {
    for (uint32_t bw = 0; bw < block; ++bw)
        for (uint64_t w = 0; w < width; ++w) out[w * block + bw] = sources[bw][w];
}

template <typename Element>
void copy_rows(const DepthToSpace1Desc& desc, const std::byte* input, std::byte* output, ThreadPool& pool) {
    const uint64_t channels = desc.input.sizes[1], height = desc.input.sizes[2], width = desc.input.sizes[3];
    const uint32_t block = desc.block_size;
    const uint64_t out_channels = desc.output.sizes[1], out_height = desc.output.sizes[2];
    const uint64_t out_width = width * block;
    const uint64_t rows = uint64_t(desc.output.sizes[0]) * out_channels * out_height;
    const auto* in = reinterpret_cast<const Element*>(input);
    auto* out = reinterpret_cast<Element*>(output);
    // About 64 KiB of output per hand-off.
    const uint64_t grain = std::max<uint64_t>(1, (64u << 10) / std::max<uint64_t>(1, out_width * sizeof(Element)));
    pool.parallel_for(rows, [&](uint64_t begin, uint64_t end) {
        std::vector<const Element*> sources(block);
        for (uint64_t row = begin; row < end; ++row) {
            const uint64_t oh = row % out_height, c = (row / out_height) % out_channels;
            const uint64_t n = row / (out_height * out_channels);
            for (uint32_t bw = 0; bw < block; ++bw) {
                const uint64_t ci = source_channel(desc.order, block, out_channels, c, oh % block, bw);
                sources[bw] = in + ((n * channels + ci) * height + oh / block) * width;
            }
            Element* out_row = out + row * out_width;
            switch (block) {
                case 1: std::memcpy(out_row, sources[0], width * sizeof(Element)); break;
                case 2: interleave_rows<Element, 2>(out_row, sources.data(), width); break;
                case 3: interleave_rows<Element, 3>(out_row, sources.data(), width); break;
                case 4: interleave_rows<Element, 4>(out_row, sources.data(), width); break;
                default: interleave_rows_any_block(out_row, sources.data(), width, block); break;
            }
        }
    }, grain);
}

}  // namespace

Status run_depth_to_space1_reference(const DepthToSpace1Desc& desc, const HostTensor& input, HostTensor& output,
                                     ThreadPool& pool) {
    const size_t bytes = output.element_bytes();
    if (element_size_in_bits(output.data_type()) != bytes * 8 || input.data_type() != output.data_type())
        return internal_error("DEPTH_TO_SPACE1 reference: unexpected data type " +
                              std::string(data_type_name(output.data_type())));
    if (output.element_count() == 0) return Status::ok();
    const std::byte* in = input.element_ptr(0);
    std::byte* out = output.element_ptr(0);
    switch (bytes) {
        case 1: copy_rows<uint8_t>(desc, in, out, pool); break;
        case 2: copy_rows<uint16_t>(desc, in, out, pool); break;
        case 4: copy_rows<uint32_t>(desc, in, out, pool); break;
        case 8: copy_rows<uint64_t>(desc, in, out, pool); break;
        default:
            return internal_error("DEPTH_TO_SPACE1 reference: unexpected element size " + std::to_string(bytes));
    }
    return Status::ok();
}

}  // namespace dmltool::ops::depth_to_space1
