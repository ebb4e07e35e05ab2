// What the runner checks of a case short of executing it (`dmltool validate`, and `run` for a case with nothing
// to compare), and the helpers core/runner.cpp shares with it. Internal to the runner.
#pragma once

#include "core/runner.h"
#include "core/status.h"
#include "core/tensor_source.h"

namespace dmltool {

// A failed step's status as a case status; kDevice also marks the case as a device error (exit code 3).
CaseStatus status_for_error(const Status& status, bool* device_error);

// Data given as such (HDF5 or inline values) rather than generated: read for its consistency with the desc.
bool is_explicit_data(const TensorSource& source);

}  // namespace dmltool
