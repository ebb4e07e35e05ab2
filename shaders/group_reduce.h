// Group reductions through groupshared memory (SM 5.0 has no wave intrinsics).
//  - group_sum_slices: split-K for matrix-vector shaped products (ops/gemm, ops/quantized_linear_matrix_multiply): a
//    thread group of columns x slices threads, thread t = slice * columns + column, where the slices of one column
//    each accumulate a part of the K sum and a groupshared tree reduction adds the parts.
//  - group_reduce_segments: row-wise reductions (the softmax family, ops/element_wise/softmax_kernel.cpp): the group
//    is cut into segments of consecutive threads, and every thread of a segment receives the segment's result.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "shaders/builder.h"

namespace dmltool::shaders {

// Sums `value` (a scalar temp) over the `slices` threads of each column: after the call, the value of the thread
// with slice 0 holds its column's sum (the other threads' values are partial sums, to be ignored). The adds
// run in a fixed tree order (slice s takes s + slices/2, then s + slices/4, ...), so a float sum is deterministic
// for a given geometry; an integer sum is exact. `shared` holds columns * slices words; `thread_in_group` is the
// thread's index in the group (scalar). Contains barriers: every thread of the group must call it, outside any
// divergent branch. columns and slices are powers of two.
void group_sum_slices(ProgramBuilder& b, Resource shared, Operand value, Operand thread_in_group, uint32_t columns,
                      uint32_t slices, bool integer);

// --- A matrix product's kernel skeleton, shared by GEMM and QUANTIZED_LINEAR_MATRIX_MULTIPLY: both walk row m of
// A and column n of B over k through root-constant strides, and differ only in how one step accumulates (float
// mad, or exact int32 with zero points), in what a thread loads before the loop, and in the epilogue.

// Where the product's geometry sits in the kernel's root constants: K; 4-word arrays of the sizes {B0, B1, M, N},
// A's strides over (b0, b1, m, k), B's over (b0, b1, k, n); the split-K kernel's group sizes {B0, B1, M, column
// blocks}; the direct kernel's thread count and threads per dispatch row.
struct MatmulConstants {
    uint32_t k, sizes, a_strides, b_strides, group_sizes, threads, threads_per_row;
};

// What a kernel adds to the skeleton. coord is (b0, b1, m, n); past N (split-K's last column block) n reads as 0
// and the epilogue is not called.
struct MatmulSteps {
    std::function<void(const std::vector<Operand>& coord)> before_loop;  // optional: per-row/column loads
    std::function<void(Operand pos, Operand acc)> accumulate;            // acc.x += A[pos.x] * B[pos.y]
    std::function<void(const std::vector<Operand>& coord, Operand acc)> epilogue;  // stores the output at coord
    bool integer_sum = false;                                            // the split-K reduction's add
};

// One thread per output: decomposes its index into coord, sums k = 0..K-1. The builder's group has
// kMatmulDirectThreads threads.
constexpr uint32_t kMatmulDirectThreads = 64;
void emit_direct_matmul(ProgramBuilder& b, const MatmulConstants& c, const MatmulSteps& steps);

// Split-K: group (b0, b1, m, column block) of kSplitKThreads threads, thread = slice * columns + column; each slice
// sums every slices-th k, then group_sum_slices adds the slices. The builder's group has kSplitKThreads threads.
constexpr uint32_t kSplitKThreads = 256;
void emit_split_k_matmul(ProgramBuilder& b, const MatmulConstants& c, uint32_t columns, const MatmulSteps& steps);
// The kernel plan_split_k chose (columns 0: direct), in a builder of matmul_group_size(columns) threads.
void emit_matmul(ProgramBuilder& b, const MatmulConstants& c, uint32_t columns, const MatmulSteps& steps);
constexpr uint32_t matmul_group_size(uint32_t columns) { return columns != 0 ? kSplitKThreads : kMatmulDirectThreads; }

// Which kernel a product gets. Split-K where there are at most 16384 outputs (so at most that many groups, well
// under D3D12's 65535 per dimension) and K >= 64 (shorter sums leave most slices idle; the per-thread loop is short
// anyway), or always/never where a test forces it; 8 columns per group where B's columns are contiguous (so that
// neighbouring threads read neighbouring addresses), else 1 (slices along a contiguous K do). columns 0: direct.
enum class MatmulChoice { kAuto, kDirect, kSplitK };
struct SplitKPlan {
    uint32_t columns = 0;
    uint64_t column_blocks = 0;
};
SplitKPlan plan_split_k(uint64_t outputs, uint64_t k, uint64_t n, uint64_t b_stride_k, uint64_t b_stride_n,
                        MatmulChoice choice);
// An op's own test switch (an enum with kAuto, kDirect and kSplitK, as GemmPath and QlmmPath) as a MatmulChoice.
template <class Path>
MatmulChoice matmul_choice(Path path) {
    return path == Path::kSplitK ? MatmulChoice::kSplitK
                                 : path == Path::kDirect ? MatmulChoice::kDirect : MatmulChoice::kAuto;
}

enum class ReduceOp {
    kAdd,   // float add
    kMax,   // float max (Direct3D's max: a NaN operand yields the other operand)
    kImax,  // signed integer max
    kUmin,  // unsigned integer min
};

// Reduces `value` (a scalar temp) over each segment of `segment` consecutive threads (thread_in_group / segment
// names the segment) and leaves the result in `value` of EVERY thread of the segment. One barrier: each thread
// stores its value, then reads all of its segment's values and combines them itself, in index order from the
// segment's first thread. All threads therefore hold bit-identical results (a float sum is the same sequential sum
// everywhere), which a row-wise kernel needs when each thread normalises its own elements. `shared` holds the
// group's thread count in words and must not be written by another reduction until every thread has passed this
// one's reads: use one groupshared region per reduction, or a barrier between. Every thread of the group must call
// it, outside any divergent branch. segment is a power of two; 1 returns at once.
void group_reduce_segments(ProgramBuilder& b, Resource shared, Operand value, Operand thread_in_group,
                           uint32_t segment, ReduceOp op);

}  // namespace dmltool::shaders
