// The parsed DML_RESAMPLE_OPERATOR_DESC (spec §6.1), shared by the op definition, the CPU reference and the
// GPU kernel generator. Only v1 semantics: half-pixel offsets (input +0.5, output -0.5) in every dimension.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::ops::resample {

// DML_INTERPOLATION_MODE, same numeric values.
enum class InterpolationMode : uint32_t {
    kNearestNeighbor = 0,
    kLinear = 1,
};

struct ResampleDesc final : OpDesc {
    TensorDesc input;
    TensorDesc output;
    InterpolationMode mode = InterpolationMode::kNearestNeighbor;
    std::vector<float> scales;  // one per dimension; validated finite and > 0
};

// The CPU reference (reference.cpp). `input` and `output` are logical tensors of the desc's shapes.
Status run_resample_reference(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                              const ReferenceContext& context);

// A random valid case for `dmltool generate` (generate.cpp), types and ranks from `table` (the op's own).
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

}  // namespace dmltool::ops::resample
