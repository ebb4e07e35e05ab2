// The element-wise family on the GPU: ONE DXBC emitter for every ELEMENT_WISE_* and element-wise ACTIVATION_*
// function, parameterised by the function's kernel body (kernel_bodies.h).
//
// What the emitter owns (the same for every function):
//  - addressing: each input is read through its own element strides over the OUTPUT's logical shape (a stride of
//    0 broadcasts), the output through its strides. Host side, size-1 dimensions are dropped and neighbours that
//    are contiguous in every tensor merged, so a packed problem is 1-D and the kernel divides only where needed;
//  - data types: loads 1/2/4-byte elements (8/16-bit integers sign- or zero-extended, FLOAT16 widened exactly
//    to float32), hands the body float32 or 32-bit integer values, and narrows its result (FLOAT16 rounded to
//    nearest even, integers keep their low bits); where a tensor is 64-bit (INT64, UINT64; FLOAT64 for bodies that
//    only move bits) it runs the body's 64-bit form on (lo, hi) register pairs instead (kernel_bodies.h);
//  - ScaleBias (x * Scale + Bias on every float input before the function, the product rounded on its own) and a
//    fused activation (another body applied to the float32 result before it is stored);
//  - vectorisation: where the output's rows are packed and hold whole groups of 4 elements, each thread computes
//    4 consecutive outputs and stores them with one 4/8/16-byte store (whole words: sub-word outputs never race);
//    inputs that follow the output contiguously are read with one 4/8/16-byte load (16 bytes through a typed
//    uint4 view, which vkd3d does not split), broadcast ones once. Elsewhere one element per thread, sub-word
//    outputs stored with atomics.
// Attribute values and ScaleBias are root constants, so cases that differ only in them (and in sizes/strides)
// share one blob; blobs are memoised per kernel spec.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device_plan.h"
#include "core/dtype.h"
#include "core/semantics.h"
#include "core/status.h"
#include "core/tensor.h"
#include "shaders/elements.h"

namespace dmltool::ops::element_wise {

// At most this many 32-bit attribute words per function (e.g. CLIP's Min and Max; ELU's Alpha).
inline constexpr uint32_t kMaxKernelParameters = 6;
// At most this many input tensors (QUANTIZED_LINEAR_ADD has 8).
inline constexpr uint32_t kMaxKernelInputs = 8;

// One function application: the body's id (kernel_bodies.h) and its attribute words, in the body's own order and
// domain (float32 bits for float attributes, two's-complement for integer ones; see each body's comment).
struct KernelFunction {
    std::string body;
    std::vector<uint32_t> parameters;
};

struct KernelTensor {
    DataType type = DataType::kUnknown;  // kUnknown: an absent optional input, read as 0 (nothing is bound)
    Dims strides;                  // elements, one per output dimension; 0 broadcasts
    uint64_t total_bytes = 0;      // TotalTensorSizeInBytes
    uint32_t binding_index = 0;    // the input (or output) slot of the op the backend binds
};

// The problem one dispatch solves: output[c] = activation(body(inputs[k][c]...)) for every coordinate c of sizes.
struct ElementWiseProblem {
    KernelFunction function;
    std::optional<KernelFunction> fused_activation;
    std::optional<std::pair<float, float>> scale_bias;  // {Scale, Bias}
    Dims sizes;                                         // the output's logical sizes
    std::vector<KernelTensor> inputs;                   // present inputs, in the body's operand order
    KernelTensor output;
};

struct ElementWiseKernelOptions {
    uint32_t threads_per_group = 256;
    // Window of each view when a buffer exceeds one view; tests lower it to exercise multi-view kernels.
    uint32_t window_log2 = shaders::kMaxViewBytesLog2;
    // false: one element per thread everywhere (tests compare both paths).
    bool vectorize = true;
    // The vector path's groups of 4 elements per thread, at most: narrow types take 2 (16-bit) or 4 (8-bit) groups,
    // so that a thread moves 16 bytes per tensor as FLOAT32's one group does (tests lower it to compare).
    uint32_t max_groups = 4;
    // FLOAT16 through the f16tof32 / f32tof16 opcodes instead of the integer conversions: the plan then carries
    // DeviceCapability::kExactHalfOpcodes, and runs only where the device's probe found the opcodes exact.
    bool native_half = false;
    // 2^t by the exp instruction in the bodies whose bounds allow it (KernelBody::hardware_exp2): the plan then
    // requires DeviceCapability::kAccurateExp2 and carries its portable twin as the fallback.
    bool hardware_exp2 = false;
};

// Appends the dispatch computing `problem`. kInvalidInput for a body id it does not know or a wrong input count;
// kUnsupported for what is not implemented (types a body does not compute, 64-bit types where the body has no 64-bit
// form, FLOAT64 arithmetic, tensors over 4 GiB).
Status append_element_wise(const ElementWiseProblem& problem, DevicePlan& plan,
                           const ElementWiseKernelOptions& options = {});
Result<DevicePlan> plan_element_wise_problem(const ElementWiseProblem& problem,
                                             const ElementWiseKernelOptions& options = {});

struct ElementWiseDesc;  // ops/element_wise/desc.h
struct FunctionSpec;

// Op::plan_device of every element-wise and activation row: the desc as an ElementWiseProblem (kernel_plan.cpp).
// Absent optional inputs (zero points) read as 0; attribute values become words in the tensors' domain (float32
// bits for float tensors, the integer value for integer ones; enums and UINTs as they are). The reductions over axes
// (SOFTMAX, HARDMAX, ...) go to their own kernel (softmax_kernel.h). kUnsupported for rows without a kernel body
// and what the emitters do not implement.
Result<DevicePlan> plan_element_wise(const ElementWiseDesc& desc, const SemanticsOptions& semantics);
// The body id of a row: its kernel_body, or its name without the family prefix and version digits, lower-cased
// ("ELEMENT_WISE_CLIP1" -> "clip", "ACTIVATION_LEAKY_RELU" -> "leaky_relu").
std::string kernel_body_id(const FunctionSpec& row);

// Which path the planner takes for a problem (tests check the fast path is taken where it should be).
struct ElementWisePath {
    uint32_t rank = 0;   // after merging
    uint32_t lanes = 1;  // outputs per group (1 or 4)
    uint32_t groups = 1; // groups of `lanes` consecutive outputs per thread (1, 2 or 4)
    bool native_half = false;
    std::vector<uint32_t> input_modes;  // per input: 0 scalar loads, 1 vector load, 2 broadcast along the row
    bool hardware_exp2 = false;
};
Result<ElementWisePath> element_wise_path(const ElementWiseProblem& problem, const ElementWiseKernelOptions& options = {});

}  // namespace dmltool::ops::element_wise
