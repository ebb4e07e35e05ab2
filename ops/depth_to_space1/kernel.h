// GPU plan of DML_OPERATOR_DEPTH_TO_SPACE1: one vector interleave or piece gather (shaders/vector_interleave.h)
// when rows are whole 16-byte vectors, else one strided copy (shaders/strided_copy.h) over a 6-D view.
#pragma once

#include "core/device_plan.h"
#include "core/status.h"
#include "ops/depth_to_space1/depth_to_space1.h"
#include "shaders/strided_copy.h"
#include "shaders/vector_interleave.h"

namespace dmltool::ops::depth_to_space1 {

// `options` and `shape` only matter to tests (smaller view windows exercise the multi-view kernels; a forced
// kernel shape covers the piece gather at B = 2, which the planner does not pick by itself).
Result<DevicePlan> plan_depth_to_space1_device(const DepthToSpace1Desc& desc,
                                               const shaders::StridedCopyOptions& options = {},
                                               shaders::InterleaveShape shape = shaders::InterleaveShape::kAuto);

}  // namespace dmltool::ops::depth_to_space1
