// Group reductions through groupshared memory (SM 5.0 has no wave intrinsics).
//  - group_sum_slices: split-K for matrix-vector shaped products (ops/gemm, ops/quantized_linear_matrix_multiply): a
//    thread group of columns x slices threads, thread t = slice * columns + column, where the slices of one column
//    each accumulate a part of the K sum and a groupshared tree reduction adds the parts.
//  - group_reduce_segments: row-wise reductions (the softmax family, ops/element_wise/softmax_kernel.cpp): the group
//    is cut into segments of consecutive threads, and every thread of a segment receives the segment's result.
#pragma once

#include <cstdint>

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
