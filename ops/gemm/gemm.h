// The parsed DML_GEMM_OPERATOR_DESC and its index math: Output = Alpha * TransA(A) x TransB(B) + Beta * C, per
// batch ({BatchCount, ChannelCount} of 4-D tensors; 2-D and 3-D tensors have fewer leading batch dimensions).
// Shared by op.cpp (parse, validation, reference, tolerance), kernel.cpp (the GPU plan) and the tests.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::ops::gemm {

enum class MatrixTransform : uint32_t { kNone = 0, kTranspose = 1 };

struct GemmDesc final : OpDesc {
    TensorDesc a, b;
    std::optional<TensorDesc> c;  // absent: Beta * C = 0
    TensorDesc output;
    MatrixTransform trans_a = MatrixTransform::kNone, trans_b = MatrixTransform::kNone;
    float alpha = 1.0f, beta = 0.0f;
};

// The problem normalised to 4-D: batch sizes {B0, B1} (1 for missing leading dimensions), M, N, K, and for each
// tensor its strides (elements) along (b0, b1, row, column) of the *logical* operand: A's (b0, b1, m, k) with TransA
// applied, B's (b0, b1, k, n), C's and the output's (b0, b1, m, n).
struct GemmGeometry {
    uint64_t batch0 = 1, batch1 = 1, m = 1, n = 1, k = 1;
    std::array<uint64_t, 4> a_strides{}, b_strides{}, c_strides{}, output_strides{};
};

// For a desc that parse() accepted; `physical`: the tensors' own strides (device layout), else packed strides
// of their logical sizes (the reference's logical tensors).
GemmGeometry gemm_geometry(const GemmDesc& desc, bool physical);

std::unique_ptr<Op> make_op();  // op.cpp

// A random valid case for `dmltool generate` (generate.cpp).
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

// The GPU plan (kernel.cpp): one thread per output element, float32 accumulation; matrix-vector shapes (few
// outputs, long K) get the split-K kernel instead.
Result<DevicePlan> plan_gemm_device(const GemmDesc& desc);

// Which kernel plan_gemm_device picks: its own rule (kAuto), or, for tests that run both kernels on one shape,
// always the one-thread-per-output kernel or the split-K kernel (wherever that one can run). Process-wide.
enum class GemmPath { kAuto, kDirect, kSplitK };
void set_gemm_path_for_testing(GemmPath path);

}  // namespace dmltool::ops::gemm
