// GPU plan of DML_OPERATOR_SPLIT: each output is a strided copy of its window of the input
// (shaders/strided_copy.h), one dispatch per output.
#pragma once

#include "core/device_plan.h"
#include "core/status.h"
#include "ops/split/split.h"
#include "shaders/strided_copy.h"

namespace dmltool::ops::split {

// The copy options SPLIT runs with: 256-thread groups, as the H200 copy probe (fewer, larger groups for
// copies of hundreds of MiB).
inline constexpr shaders::StridedCopyOptions kSplitCopyOptions{.threads_per_group = 256};

// `options` only matters to tests (smaller view windows exercise the multi-view kernels).
Result<DevicePlan> plan_split_device(const SplitDesc& desc,
                                     const shaders::StridedCopyOptions& options = kSplitCopyOptions);

}  // namespace dmltool::ops::split
