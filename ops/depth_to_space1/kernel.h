// GPU plan of DML_OPERATOR_DEPTH_TO_SPACE1: one vector interleave (shaders/vector_interleave.h) when rows are
// whole 16-byte vectors, else one strided copy (shaders/strided_copy.h) over a 6-D view.
#pragma once

#include "core/device_plan.h"
#include "core/status.h"
#include "ops/depth_to_space1/depth_to_space1.h"
#include "shaders/strided_copy.h"

namespace dmltool::ops::depth_to_space1 {

// `options` only matters to tests (smaller view windows exercise the multi-view kernels).
Result<DevicePlan> plan_depth_to_space1_device(const DepthToSpace1Desc& desc,
                                               const shaders::StridedCopyOptions& options = {});

}  // namespace dmltool::ops::depth_to_space1
