// Split-K building blocks for matrix-vector shaped products (ops/gemm, ops/quantized_linear_matrix_multiply): a
// thread group of columns x slices threads, thread t = slice * columns + column, where the slices of one column
// each accumulate a part of the K sum and a groupshared tree reduction adds the parts.
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

}  // namespace dmltool::shaders
