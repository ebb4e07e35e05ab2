// GPU plan of DML_OPERATOR_DEPTH_TO_SPACE1: one vector interleave or piece gather (shaders/vector_interleave.h)
// when rows are whole 16-byte vectors, else one strided copy (shaders/strided_copy.h) over a 6-D view.
#pragma once

#include "core/device_plan.h"
#include "core/status.h"
#include "ops/depth_to_space1/depth_to_space1.h"
#include "shaders/strided_copy.h"
#include "shaders/vector_interleave.h"

namespace dmltool::ops::depth_to_space1 {

// Which kernel shape plans the desc: the planner's choice (kAuto), or one forced (autotuning variants, tests).
// A forced vector interleave or piece gather applies wherever rows are whole aligned 16-byte vectors, whatever the
// element size and block (the planner takes them only for sub-word elements or B = 2); where it cannot apply the
// piece gather falls back to the vector interleave and that to the strided copy.
enum class D2sKernel { kAuto, kStridedCopy, kVectors, kPieces };

// `options` only matters to tests (smaller view windows exercise the multi-view kernels).
Result<DevicePlan> plan_depth_to_space1_device(const DepthToSpace1Desc& desc,
                                               const shaders::StridedCopyOptions& options = {},
                                               D2sKernel kernel = D2sKernel::kAuto);

}  // namespace dmltool::ops::depth_to_space1
