// Vector interleave: the data movement of DEPTH_TO_SPACE1 and of nearest-neighbour upsampling by an integer
// factor B, on layouts whose rows are whole 16-byte vectors. Output row (n, c, oh = h * B + i) is made of B
// input rows' vectors interleaved element by element:
//
//   output element (n, c, h*B + i, x*B + j) = input element x of row  base + n*sN + c*sC + i*sI + h*sH + j*sJ
//
// (strides in elements; a row is W input elements, W*B output elements). DEPTH_TO_SPACE1: the block row i and
// column j select input channels (sI, sJ non-zero). Upsampling: sI = sJ = 0, every output row repeats its
// input row with each element repeated B times.
//
// Each thread loads one 16-byte vector (V = 16 / element size elements) from each of the B source rows (one
// load when sJ = 0), and writes the B output vectors they interleave into, all through typed uint4 views
// (a raw 16-byte access is four texel accesses on vkd3d; a typed one is one). The element shuffle is fixed per
// (element size, B) and unrolled at build time; the index math is one decomposition per thread.
//
// The B output vectors a thread writes are adjacent, so one store instruction of a warp covers every B-th
// vector (16 bytes written per 16 * B). For B = 4 that scatter costs a third of the bandwidth on the H100
// (float16/int8 depth-to-space at 64-69% of the copy probe). The piece gather is the other kernel shape: each
// thread writes whole output vectors, each built from the 16 / B bytes it needs of each of the B source rows
// (one 4-byte word per row for B = 4, two words for B = 2), so a warp's loads read 32 consecutive words of
// each row and its store writes 512 consecutive bytes: both sides fully coalesced, the same element shuffle.
// Each thread does two such vectors, half an output row apart (more loads in flight, half the index math).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/device_plan.h"
#include "core/status.h"
#include "shaders/elements.h"

namespace dmltool::shaders {

constexpr uint32_t kMaxInterleaveBlock = 16;  // B vectors in and B out per thread

struct VectorInterleaveSpec {
    uint32_t element_bytes = 4;  // 1, 2, 4 or 8
    uint32_t block = 2;          // 2 .. kMaxInterleaveBlock
    bool shared_source = false;  // sJ == 0: the B source vectors are one (upsampling)
    uint32_t input_views = 1;
    uint32_t output_views = 1;
    uint32_t window_log2 = kMaxViewBytesLog2;
    // Two output vectors per thread (half a row apart), each from B pieces of 16 / B bytes (raw word loads);
    // needs B = 2 or 4 and element_bytes <= 16 / B.
    bool gather_pieces = false;
    auto operator<=>(const VectorInterleaveSpec&) const = default;
};
Result<std::vector<uint8_t>> build_vector_interleave_kernel(const VectorInterleaveSpec& spec);

// Which kernel shape plan_vector_interleave builds. kAuto: the piece gather for B = 4 with 1/2-byte elements
// (a piece is one word: one coalesced 4-byte load per source row), the vector interleave otherwise.
enum class InterleaveShape { kAuto, kVectors, kPieces };

struct VectorInterleaveProblem {
    uint32_t element_bytes = 4;
    uint32_t block = 2;
    uint64_t batch = 1, channels = 1, height = 1, width = 1;  // output sizes: {batch, channels, height*B, width*B}
    // Input strides (elements): n, c, block row i, block column j, h; and the offset of row (0, 0, 0, 0).
    uint64_t in_n = 0, in_c = 0, in_block_row = 0, in_block_column = 0, in_h = 0, in_base = 0;
    uint64_t out_n = 0, out_c = 0, out_row = 0;  // output strides (elements); the last dimension is packed
    uint64_t input_bytes = 0, output_bytes = 0;  // TotalTensorSizeInBytes (the backend pads to 16)
    uint32_t input_slot = 0, output_slot = 0;    // BufferBinding indices
    InterleaveShape shape = InterleaveShape::kAuto;  // kPieces where it cannot apply falls back to kVectors
};

// The dispatch, or nullopt when the layout does not qualify (a row not whole vectors, an unaligned stride,
// B outside 2..16, a buffer over 4 GiB): the caller then takes its general path.
Result<std::optional<KernelDispatch>> plan_vector_interleave(const VectorInterleaveProblem& problem,
                                                             const std::string& label, uint32_t window_log2);

}  // namespace dmltool::shaders
