// The GPU kernel of the family's reductions over axes: ACTIVATION_SOFTMAX, LOG_SOFTMAX, HARDMAX (rows along the last
// dimension) and their "1" versions (over an Axes list). One emitter for all six, computing what the CPU reference
// computes (ops/activation/functions.cpp: softmax_lane, log_softmax_lane, hardmax_lane) for each lane (the elements
// that differ only in the reduced axes' coordinates):
//  - softmax: m = max_j x_j (Direct3D's max skips NaN, as the reference's fmax), y_i = e^(x_i - m) / sum_j e^(x_j - m);
//  - log softmax: y_i = (x_i - m) - log(sum_j e^(x_j - m));
//  - hardmax: 1 at the first largest element of the lane, NaN elements skipped (all NaN: the first element).
// NaN and infinities then follow from float32 arithmetic exactly as in the reference's double arithmetic (a NaN makes
// the sum NaN; an all -inf lane or a +inf element gives inf - inf = NaN).
//
// Geometry. Host side, size-1 dimensions are dropped and the reduced ("lane") and kept ("outer") dimensions are
// each merged where both tensors are contiguous across them. A lane is cut into chunks: V = 16 / element bytes
// consecutive elements (one 16-byte typed load / store) where the lane is one packed dimension of whole, aligned
// chunks, else single elements. T threads (a power of two) share a lane, thread s taking chunks s, s + T, ... :
//  - register path (the lane's chunks fit T * max_chunks_per_thread): each thread holds its chunks in registers, so
//    the data is read once and written once; a group holds threads_per_group / T lanes;
//  - looped path (longer lanes): one group per lane, each phase loops over the lane and reads it again.
// Per lane two group reductions (shaders/group_reduce.h): max and sum for the softmaxes, max key and first index for
// hardmax. Values are computed in float32 (FLOAT16 widened exactly, rounded to nearest even on the way out); exp and
// log are the family's polynomial building blocks (kernel_bodies.h math::), not the driver-dependent D3D opcodes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/device_plan.h"
#include "core/status.h"
#include "ops/element_wise/kernel.h"

namespace dmltool::ops::element_wise {

enum class SoftmaxKind { kSoftmax, kLogSoftmax, kHardmax };

struct SoftmaxProblem {
    SoftmaxKind kind = SoftmaxKind::kSoftmax;
    Dims sizes;                 // the tensors' logical sizes (input and output share them)
    std::vector<bool> reduced;  // per dimension: whether the reduction runs along it
    KernelTensor input;         // strides per dimension (elements)
    KernelTensor output;
};

struct SoftmaxKernelOptions {
    uint32_t threads_per_group = 256;  // a power of two, 4..1024: the most a group takes
    // Where a lane fits the register path, a group takes this many threads (a power of two; at least the lane's,
    // at most threads_per_group): on the H200 FLOAT32 softmax over 256-element lanes (16x64x256x256) ran 129.9 us in
    // groups of 64 against 132.6 us in groups of 256 (PyTorch 130.1 us), FLOAT16 67.9 against 68.9 us; groups of 32
    // to 1024 with 4 to 16 chunks a thread measured (results/h200_softmax_geometry_2026-11-30/). 0: threads_per_group.
    uint32_t register_path_group_threads = 64;
    uint32_t max_chunks_per_thread = 4;
    uint32_t window_log2 = shaders::kMaxViewBytesLog2;  // tests lower it to exercise multi-view tensors
    bool vectorize = true;                              // false: single-element chunks everywhere
    // FLOAT16 through the f16tof32 / f32tof16 opcodes instead of shaders/elements.h's integer conversions (1
    // instruction instead of ~12 per element each way: the FLOAT16 perf case is otherwise bound by them). The plan
    // then requires DeviceCapability::kExactHalfOpcodes: it runs only where gpu/half_opcode_probe.h found the
    // opcodes exact, and computes the same values there. An autotuning variant ("softmax/native_half").
    bool native_half = false;
    // e^(x - max) by the exp instruction (2 instructions instead of ~20 per element): the plan then requires
    // DeviceCapability::kAccurateExp2 and carries the portable plan as its fallback (plan_softmax_problem).
    bool hardware_exp2 = false;
};

// Which path the planner takes (tests check the fast path is taken where it should be).
struct SoftmaxPath {
    uint32_t lane_rank = 0;        // after merging
    uint32_t outer_rank = 0;
    uint32_t chunk_elements = 1;   // V
    uint32_t threads_per_lane = 1; // T
    uint32_t chunks_per_thread = 1;
    bool looped = false;
    uint32_t threads_per_group = 0;
};

Result<SoftmaxPath> softmax_path(const SoftmaxProblem& problem, const SoftmaxKernelOptions& options = {});
// kUnsupported for types other than FLOAT32/FLOAT16 and tensors over 4 GiB.
Status append_softmax(const SoftmaxProblem& problem, DevicePlan& plan, const SoftmaxKernelOptions& options = {});
Result<DevicePlan> plan_softmax_problem(const SoftmaxProblem& problem, const SoftmaxKernelOptions& options = {});

struct ElementWiseDesc;
// Op::plan_device of the six rows: the desc as a SoftmaxProblem (rows without Axes reduce the last dimension).
Result<DevicePlan> plan_softmax(const ElementWiseDesc& desc, const SoftmaxKernelOptions& options = {});

}  // namespace dmltool::ops::element_wise
