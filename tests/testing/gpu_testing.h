// Differential testing of operator kernels: run a desc on the GPU backend (lavapipe in CI) and on the CPU
// reference, compare with the operator's tolerance, and on a mismatch write the case out as JSON + HDF5
// (inputs, and the reference outputs as "expected") so it can be replayed with `dmltool run` and added to cases/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.h"
#include "core/semantics.h"
#include "gpu/gpu_backend.h"

namespace dmltool::testing {

// The backend shared by a test binary (created on first use; device creation is expensive). Null when no
// Vulkan device can be created; `why` then says why (tests GTEST_SKIP with it).
gpu::GpuBackend* test_gpu_backend(std::string* why);

// The built-in operator of that DML_OPERATOR_ suffix ("RESAMPLE"), from one registry per test binary.
const Op& builtin_op(std::string_view name);

struct DifferentialCase {
    std::string name;       // unique; used for the failure files
    std::string op_type;    // "DML_OPERATOR_RESAMPLE"
    std::string desc_json;  // the "desc" object
    std::vector<HostTensor> inputs;  // in input slot order; an empty HostTensor for an absent optional input
    uint64_t seed = 0;      // printed on failure so the case can be regenerated
    SemanticsOptions semantics;
};

struct DifferentialResult {
    bool passed = false;
    std::string message;  // what failed (one line per output) and where the case was written
};

// Runs the case on both sides. The returned message names the seed and the written repro files.
DifferentialResult run_differential(const Op& op, const DifferentialCase& c);

// Random logical tensor of `type` (uniform over [lo, hi], integers inclusive and clamped to the type's range),
// deterministic in seed.
HostTensor random_tensor(DataType type, Dims sizes, uint64_t seed, double lo, double hi);

}  // namespace dmltool::testing

// Skips the calling test, with the reason, when no Vulkan device can be created.
#define SKIP_WITHOUT_GPU()                                                  \
    do {                                                                    \
        std::string why;                                                    \
        if (!dmltool::testing::test_gpu_backend(&why)) GTEST_SKIP() << why; \
    } while (0)
