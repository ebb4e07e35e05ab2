// The parsed DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC and its index math. Shared by op.cpp (parse,
// validation, reference), kernel.cpp (the GPU plan) and the tests.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {

struct QlmmDesc final : OpDesc {
    TensorDesc a, a_scale;
    std::optional<TensorDesc> a_zero_point;  // absent = 0
    TensorDesc b, b_scale;
    std::optional<TensorDesc> b_zero_point;
    TensorDesc output_scale;
    std::optional<TensorDesc> output_zero_point;
    TensorDesc output;
};

// Input slots (tensors() order).
enum Slot : size_t { kA, kAScale, kAZeroPoint, kB, kBScale, kBZeroPoint, kOutputScale, kOutputZeroPoint, kSlotCount };

// The problem normalised to 4-D {B0, B1, M, N}, K, with strides (elements) of A along (b0, b1, m, k), of B along
// (b0, b1, k, n) and of the output along (b0, b1, m, n); and for each quantization tensor the stride that steps
// from row m (A's and the output's: per-row) or column n (B's: per-column) to the next, 0 when per-tensor.
struct QlmmGeometry {
    uint64_t batch0 = 1, batch1 = 1, m = 1, n = 1, k = 1;
    std::array<uint64_t, 4> a_strides{}, b_strides{}, output_strides{};
    uint64_t a_scale_step = 0, a_zero_step = 0, b_scale_step = 0, b_zero_step = 0, y_scale_step = 0, y_zero_step = 0;
};

// `physical`: the tensors' own strides (device layout), else packed strides of the logical sizes.
QlmmGeometry qlmm_geometry(const QlmmDesc& desc, bool physical);

std::unique_ptr<Op> make_op();  // op.cpp
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);  // generate.cpp
Result<DevicePlan> plan_qlmm_device(const QlmmDesc& desc);  // kernel.cpp

// Which kernel plan_qlmm_device picks: its own rule (kAuto: split-K for matrix-vector shapes), or, for tests that
// run both kernels on one shape, always the one-thread-per-output kernel or the split-K kernel (wherever that one
// can run). Process-wide.
enum class QlmmPath { kAuto, kDirect, kSplitK };
void set_qlmm_path_for_testing(QlmmPath path);

}  // namespace dmltool::ops::quantized_linear_matrix_multiply
