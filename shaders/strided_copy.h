// Strided copy: out[output_offset + sum(c_d * output_stride_d)] = in[input_offset + sum(c_d * input_stride_d)]
// for every coordinate c of `sizes`, bytes moved unchanged. The data-movement operators that are "one gather
// per output" (SPLIT: a window of the input; DEPTH_TO_SPACE1: a 6-D view of the input; later TRANSPOSE-like
// ops) describe their work as such a problem and append one dispatch per output with append_strided_copy.
//
// Host side (simplify_strided_copy): size-1 dimensions are dropped and neighbours that are contiguous in both
// tensors are merged, so a packed copy becomes 1-D and a packed SPLIT 2-D. When the innermost dimension is
// contiguous on both sides and every offset/stride is aligned, elements are reinterpreted as wider units
// (up to 16 bytes), so such copies move 16 bytes per thread whatever the data type.
//
// Kernel (build_strided_copy_kernel): the dimensions split into "outer" ones and a "row": the longest suffix
// that is packed in the OUTPUT (the whole tensor when the output is packed). Each thread owns a chunk of
// `lanes` consecutive row elements, i.e. unit_bytes * lanes output bytes (4 or 16 when lanes > 1): it gathers
// them one by one (the first position by division, the next ones by stepping the coordinates with carries and
// precomputed wrap deltas) and writes the chunk with one store, so sub-word outputs never race and the write
// is 16 bytes wide. A chunk that runs past the end of its row (row length not a multiple of lanes) stores
// only its valid elements, sub-word ones with atomics (a neighbouring row may share the word). Outputs whose
// rows are not chunk-aligned use one element per thread (atomic stores for 1/2-byte units).
//
// Decimated rows (StridedCopyLayout::decimation): when the innermost dimension steps 2 to 4 elements through
// the input (nearest-neighbour x0.5 / x1/3 / x0.25) and a 16-byte output chunk never leaves it, the chunk's
// elements lie in a few consecutive aligned 16-byte input vectors at the same byte phase for every chunk (all
// other input strides and the offset's alignment are checked on the host). The thread loads those vectors whole
// through the typed uint4 alias and picks its elements with compile-time shifts, instead of `lanes` scalar loads
// whose warp-wide accesses each touch a sector per lane (one 4-byte word load plus an insert per INT8 element).
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/device_plan.h"
#include "core/status.h"
#include "shaders/elements.h"

namespace dmltool::shaders {

struct StridedCopyDim {
    uint64_t size = 1;
    uint64_t input_stride = 0;   // elements; 0 broadcasts
    uint64_t output_stride = 0;  // elements
};

struct StridedCopyProblem {
    uint32_t element_bytes = 4;         // 1, 2, 4 or 8
    std::vector<StridedCopyDim> dims;   // outermost first; any rank (empty = one element)
    uint64_t input_offset = 0;          // elements
    uint64_t output_offset = 0;         // elements
};

// The shape the kernel runs: dims are outer dims, then row_rank row dims (packed in the output, in units).
struct StridedCopyLayout {
    uint32_t unit_bytes = 4;  // 1, 2, 4, 8 or 16
    uint32_t lanes = 1;       // row elements per thread
    std::vector<StridedCopyDim> dims;
    uint32_t row_rank = 0;
    uint64_t input_offset = 0;   // units
    uint64_t output_offset = 0;  // units
    uint64_t row_length = 1;
    uint64_t chunks_per_row = 1;
    uint64_t threads = 1;
    // 0, or the innermost dimension's input stride (2..4 units) when chunks take the decimated-row loads.
    uint32_t decimation = 0;
    uint32_t phase_bytes = 0;  // with decimation: every chunk's first input byte address mod 16
};
Result<StridedCopyLayout> simplify_strided_copy(const StridedCopyProblem& problem);

// What a kernel blob is specialised on. Sizes, strides and offsets are root constants, so cases that differ
// only in them share one blob.
struct StridedCopyKernelSpec {
    uint32_t unit_bytes = 4;
    uint32_t lanes = 1;
    uint32_t outer_rank = 0;
    uint32_t row_rank = 1;
    uint32_t input_views = 1;   // t0.. : windows of 2^window_log2 bytes
    uint32_t output_views = 1;  // u0..
    uint32_t window_log2 = kMaxViewBytesLog2;
    // 16-byte accesses through typed uint4 aliases of the same buffers (t[input_views..2*input_views),
    // u[output_views..2*output_views)): vkd3d splits a raw 16-byte access into four texel accesses, a typed
    // one is a single 16-byte access. Loads: 16-byte units only; stores: 16-byte units and full 16-byte chunks
    // (row tails and sub-word atomics keep the raw views).
    bool typed_input = false;
    bool typed_output = false;
    uint32_t threads_per_group = 64;  // 32 to 1024, a power of two
    // Decimated rows (see the top of this file): 0, or the innermost input stride 2..4 with the chunks' byte
    // phase (a multiple of unit_bytes below 16). Needs 16-byte chunks of sub-16-byte units and typed_input.
    uint32_t decimation = 0;
    uint32_t phase_bytes = 0;
    auto operator<=>(const StridedCopyKernelSpec&) const = default;
};
// After simplification the rank is at most 8 (DML's limit; DEPTH_TO_SPACE1's 6-D view loses its size-1 or
// merged dimensions), so sizes, strides and wrap deltas always fit the root constants (6 + 3 * 8 words).
constexpr uint32_t kStridedCopyMaxRank = 8;

Result<std::vector<uint8_t>> build_strided_copy_kernel(const StridedCopyKernelSpec& spec);
// build_strided_copy_kernel, memoised per spec for the process (thread-safe).
Result<std::shared_ptr<const std::vector<uint8_t>>> strided_copy_kernel(const StridedCopyKernelSpec& spec);
// Every (unit_bytes, lanes) pair the planner may choose, for tests that validate all blobs.
std::vector<std::pair<uint32_t, uint32_t>> strided_copy_unit_lane_pairs();

// A tensor buffer of the plan: which one, and its TotalTensorSizeInBytes (the backend pads it to 16 bytes).
struct StridedCopyBuffer {
    BufferBinding::Source source = BufferBinding::Source::kInput;
    uint32_t index = 0;
    uint64_t total_bytes = 0;
};
struct StridedCopyOptions {
    // Window of each view when a buffer exceeds one view; tests lower it to exercise multi-view kernels.
    uint32_t window_log2 = kMaxViewBytesLog2;
    // Typed uint4 aliases for the 16-byte accesses (StridedCopyKernelSpec::typed_*); off: raw views only.
    bool typed_vectors = true;
    // Thread-group size of the dispatch (StridedCopyKernelSpec::threads_per_group); callers that measured a
    // better size on the H200 pass it (SPLIT: 256, the copy probe's size).
    uint32_t threads_per_group = 64;
};
// Appends the dispatch that performs `problem` from `input` to `output`. kUnsupported for buffers over 4 GiB
// (32-bit byte addresses) or sizes/strides beyond 32 bits.
Status append_strided_copy(const StridedCopyProblem& problem, const StridedCopyBuffer& input,
                           const StridedCopyBuffer& output, const std::string& label, DevicePlan& plan,
                           const StridedCopyOptions& options = {});

}  // namespace dmltool::shaders
