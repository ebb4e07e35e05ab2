// The parsed DML_DEPTH_TO_SPACE1_OPERATOR_DESC and its index math (spec §4.4). Shared by op.cpp (parse,
// validation), reference.cpp (the CPU reference) and, later, the GPU kernel generator, so the mapping from an
// output element to the input element it copies is written down exactly once.
#pragma once

#include <cstdint>

#include "core/op.h"
#include "core/status.h"
#include "core/tensor.h"
#include "core/thread_pool.h"

namespace dmltool::ops::depth_to_space1 {

// DML_DEPTH_SPACE_ORDER; values are the DirectML enum values.
enum class DepthSpaceOrder : uint32_t {
    kDepthColumnRow = 0,  // depth = (BlockHeight, BlockWidth, Channels): ONNX DepthToSpace mode "DCR"
    kColumnRowDepth = 1,  // depth = (Channels, BlockHeight, BlockWidth): ONNX DepthToSpace mode "CRD"
};

struct DepthToSpace1Desc final : OpDesc {
    TensorDesc input;   // {N, C, H, W}
    TensorDesc output;  // {N, C / (B*B), H * B, W * B}
    uint32_t block_size = 1;
    DepthSpaceOrder order = DepthSpaceOrder::kDepthColumnRow;
};

// Input channel that feeds output channel `out_channel` at position (block_row, block_column) inside a
// BxB block; `out_channels` = C / (B*B). 64-bit arithmetic: B*B alone can exceed 32 bits.
inline uint64_t source_channel(DepthSpaceOrder order, uint64_t block, uint64_t out_channels, uint64_t out_channel,
                               uint64_t block_row, uint64_t block_column) {
    const uint64_t within_block = block_row * block + block_column;
    return order == DepthSpaceOrder::kDepthColumnRow ? within_block * out_channels + out_channel
                                                     : out_channel * block * block + within_block;
}

// Packed row-major offset of the input element that output element (n, c, oh, ow) copies.
inline uint64_t source_offset(const Dims& input_sizes, uint32_t block, DepthSpaceOrder order, uint64_t n,
                              uint64_t c, uint64_t oh, uint64_t ow) {
    const uint64_t channels = input_sizes[1], height = input_sizes[2], width = input_sizes[3];
    const uint64_t out_channels = channels / (uint64_t(block) * block);
    const uint64_t ci = source_channel(order, block, out_channels, c, oh % block, ow % block);
    return ((n * channels + ci) * height + oh / block) * width + ow / block;
}

// The CPU reference (reference.cpp); `output` is allocated with desc.output and is completely written.
Status run_depth_to_space1_reference(const DepthToSpace1Desc& desc, const HostTensor& input, HostTensor& output,
                                     ThreadPool& pool);

// A random valid case for `dmltool generate` (generate.cpp), types and ranks from `table` (the op's own).
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

}  // namespace dmltool::ops::depth_to_space1
