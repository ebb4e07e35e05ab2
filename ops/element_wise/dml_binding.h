// The DirectML desc of any element-wise or activation desc (Op::dml_desc for the whole family): the row's member
// list (FunctionSpec::members, DirectML's order) walked once, each member becoming its core/dml_desc.h field. A
// FusedActivation becomes a nested desc of its activation row with null tensors, as DirectML requires.
#pragma once

#include "core/dml_desc.h"
#include "core/status.h"
#include "ops/element_wise/desc.h"

namespace dmltool::ops::element_wise {

Result<DmlDesc> element_wise_dml_desc(const ElementWiseDesc& desc);

}  // namespace dmltool::ops::element_wise
