// The root-constant layout of the pooling kernel (kernel.cpp), for the planner and the tests that plant bugs in a
// plan's constants (pooling_gpu_test.cpp: a shifted padding, a wrong divisor, a wrong window must fail).
#pragma once

#include <cstdint>

namespace dmltool::ops::pooling {

enum Constant : uint32_t {
    kThreadsPerRow, kThreads,
    kOutN, kOutC, kOutD, kOutH, kOutW,                              // decomposition sizes
    kInStrideN, kInStrideC, kInStrideD, kInStrideH, kInStrideW,
    kOutStrideN, kOutStrideC, kOutStrideD, kOutStrideH, kOutStrideW,
    kInD, kInH, kInW, kWinD, kWinH, kWinW, kStrD, kStrH, kStrW, kDilD, kDilH, kDilW, kPadD, kPadH, kPadW,
    kPackN, kPackC, kPackD, kPackH,                                 // packed input strides (W: 1), for the indices
    kIdxStrideN, kIdxStrideC, kIdxStrideD, kIdxStrideH, kIdxStrideW,
    kIncludeCount,                                                  // taps of the whole window, or 0: in-input ones
    kInScaleStride, kInZeroStride, kOutScaleStride, kOutZeroStride, // per channel: the channel's stride; else 0
    kConstantCount
};


}  // namespace dmltool::ops::pooling
