// Ready-made kernels built from shaders/elements.h: the moves every operator needs (copy, strided gather).
// They double as the reference for how an operator kernel is written. Binding model (see gpu/README.md):
// root constants are cb0 (32-bit each), inputs are raw SRVs t0.., outputs raw UAVs u0...
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "shaders/elements.h"

namespace dmltool::shaders {

constexpr uint32_t kDefaultThreadsPerGroup = 64;

// Copies `count` 16-byte vectors from t[0..views) to u[0..views) (16 bytes per thread: the access width that
// saturates memory bandwidth). Root constants: [0] count, [1] threads_per_row (DispatchGrid).
// With views > 1 the source and destination are split into 2^window_log2-byte windows.
struct Copy16Options {
    uint32_t views = 1;
    uint32_t window_log2 = kMaxViewBytesLog2;
};
Result<std::vector<uint8_t>> build_copy16_kernel(const Copy16Options& options = {});

// out[i] = in[offset + sum(coord_d(i) * stride_d)] for i < count, where coord_d(i) decomposes i row-major by
// sizes. Strides and offset are in elements; stride 0 broadcasts. Output is packed. Each thread writes one
// whole 32-bit word of output (4 int8 or 2 16-bit elements; one 8-byte element is two words), so sub-word
// outputs never race. Bindings: t0 input, u0 output, t1 the sizes/strides table when sizes_in_buffer.
// Root constants: [0] count, [1] threads_per_row, [2] offset, then (unless sizes_in_buffer) sizes[rank],
// strides[rank]; with sizes_in_buffer t1 holds sizes[rank] then strides[rank] as uint32.
struct StridedGatherOptions {
    uint32_t element_bytes = 4;
    uint32_t rank = 4;
    bool sizes_in_buffer = false;
};
Result<std::vector<uint8_t>> build_strided_gather_kernel(const StridedGatherOptions& options);
// Threads (one per output word, or per 8-byte element) a gather of `count` elements needs.
uint64_t strided_gather_threads(uint32_t element_bytes, uint64_t count);

}  // namespace dmltool::shaders
