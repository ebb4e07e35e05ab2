// Input value ranges of the RESAMPLE GPU differential tests (resample_gpu_test.cpp, linear_fast_gpu_test.cpp):
// wide enough to exercise rounding, narrow enough that FLOAT16 blends stay finite.
#pragma once

#include "core/dtype.h"

namespace dmltool::ops::resample {

inline void value_range(DataType type, double& lo, double& hi) {
    switch (type) {
        case DataType::kFloat32: lo = -100, hi = 100; break;
        case DataType::kFloat16: lo = -8, hi = 8; break;
        case DataType::kInt8: lo = -128, hi = 127; break;
        default: lo = 0, hi = 255; break;
    }
}

}  // namespace dmltool::ops::resample
