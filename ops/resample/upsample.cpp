// RESAMPLE's fast path for nearest-neighbour upsampling of the two innermost dimensions by one integer factor
// B (the x2 decoder upsample): when every table entry is o / B (checked against coordinates.h for the run's
// nearest rule, so this is a proof, not an assumption), the other dimensions are identities and rows are whole
// 16-byte vectors, each output row is its input row with every element repeated B times: the piece gather of
// shaders/vector_interleave.h for B = 2 and 4 (each 16-byte output vector from 16 / B input bytes, coalesced
// stores), its vector interleave with a shared source otherwise (one 16-byte load feeding B adjacent stores).
//
// And the strided-copy path for nearest-neighbour downsampling by integer factors (the x0.5 encoder downsample):
// when every dimension's table is affine, index(o) = first + step * o (again checked against coordinates.h for
// every o and the run's rule), the gather is a strided copy (shaders/strided_copy.h) with input strides
// step * stride and a constant offset: no tables, one thread per 4 or 16 output bytes, one wide store each;
// with 16-byte aligned rows its decimated-row loads (whole input vectors, elements picked in registers).
#include <optional>
#include <string>
#include <utility>

#include "ops/resample/coordinates.h"
#include "ops/resample/kernel_internal.h"
#include "shaders/strided_copy.h"
#include "shaders/vector_interleave.h"

namespace dmltool::ops::resample {
namespace {

// True when output index o of dimension d reads input index o / factor for every o.
bool reads_divided_index(const ResampleDesc& desc, uint32_t d, uint32_t factor, NearestRule rule) {
    const uint32_t n_in = desc.input.sizes[d], n_out = desc.output.sizes[d];
    if (uint64_t(n_in) * factor != n_out) return false;
    const float inv = inverse_scale(desc.scales[d]);
    for (uint32_t o = 0; o < n_out; ++o)
        if (nearest_index(o, n_in, inv, rule) != o / factor) return false;
    return true;
}

// The (first, step) of dimension d's nearest table when index(o) = first + step * o for every o, else nullopt.
std::optional<std::pair<uint64_t, uint64_t>> affine_table(const ResampleDesc& desc, uint32_t d, NearestRule rule) {
    const uint32_t n_in = desc.input.sizes[d], n_out = desc.output.sizes[d];
    if (n_out == 0) return std::nullopt;
    const float inv = inverse_scale(desc.scales[d]);
    const uint64_t first = nearest_index(0, n_in, inv, rule);
    const uint64_t second = n_out > 1 ? nearest_index(1, n_in, inv, rule) : first;
    if (second < first) return std::nullopt;
    const uint64_t step = second - first;
    for (uint32_t o = 0; o < n_out; ++o)
        if (nearest_index(o, n_in, inv, rule) != first + step * o) return std::nullopt;
    return std::pair{first, step};
}

}  // namespace

Result<std::optional<DevicePlan>> plan_nearest_strided(const ResampleDesc& desc, const SemanticsOptions& semantics,
                                                       uint32_t window_log2) {
    if (desc.mode != InterpolationMode::kNearestNeighbor) return std::optional<DevicePlan>();
    const Dims in = desc.input.effective_strides(), out = desc.output.effective_strides();
    shaders::StridedCopyProblem problem;
    problem.element_bytes = uint32_t(element_size(desc.input.data_type));
    bool downsamples = false;
    for (uint32_t d = 0; d < desc.input.rank(); ++d) {
        const auto table = affine_table(desc, d, semantics.resample_nearest_rule);
        if (!table) return std::optional<DevicePlan>();
        downsamples = downsamples || table->second >= 2;
        problem.dims.push_back({desc.output.sizes[d], table->second * in[d], out[d]});
        problem.input_offset += table->first * in[d];
    }
    // Only integer-factor downsampling takes this path; other affine tables (identities, crops) keep theirs.
    if (!downsamples) return std::optional<DevicePlan>();
    DevicePlan plan;
    shaders::StridedCopyOptions options;
    options.threads_per_group = 256;  // the copy probe's and SPLIT's size
    options.window_log2 = window_log2;
    const Status status = shaders::append_strided_copy(
        problem, {BufferBinding::Source::kInput, 0, desc.input.total_size_in_bytes},
        {BufferBinding::Source::kOutput, 0, desc.output.total_size_in_bytes},
        "resample/nearest_strided/" + std::string(data_type_name(desc.input.data_type)), plan, options);
    if (status.code() == ErrorCode::kUnsupported) return std::optional<DevicePlan>();  // the table path handles it
    DMLTOOL_RETURN_IF_ERROR(status);
    return std::optional<DevicePlan>(std::move(plan));
}

Result<std::optional<DevicePlan>> plan_nearest_upsample(const ResampleDesc& desc, const SemanticsOptions& semantics,
                                                        shaders::InterleaveShape shape) {
    if (desc.mode != InterpolationMode::kNearestNeighbor || desc.input.rank() != 4) return std::optional<DevicePlan>();
    const Dims in = desc.input.effective_strides(), out = desc.output.effective_strides();
    if (in[3] != 1 || out[3] != 1 || desc.input.sizes[3] == 0) return std::optional<DevicePlan>();
    const uint32_t factor = desc.output.sizes[3] / desc.input.sizes[3];
    const NearestRule rule = semantics.resample_nearest_rule;
    if (factor < 2 || !reads_divided_index(desc, 0, 1, rule) || !reads_divided_index(desc, 1, 1, rule) ||
        !reads_divided_index(desc, 2, factor, rule) || !reads_divided_index(desc, 3, factor, rule))
        return std::optional<DevicePlan>();
    shaders::VectorInterleaveProblem problem;
    problem.element_bytes = uint32_t(element_size(desc.input.data_type));
    problem.block = factor;
    problem.batch = desc.input.sizes[0];
    problem.channels = desc.input.sizes[1];
    problem.height = desc.input.sizes[2];
    problem.width = desc.input.sizes[3];
    problem.in_n = in[0];
    problem.in_c = in[1];
    problem.in_h = in[2];  // block row and column strides 0: every output row and element repeats its source
    problem.out_n = out[0];
    problem.out_c = out[1];
    problem.out_row = out[2];
    problem.input_bytes = desc.input.total_size_in_bytes;
    problem.output_bytes = desc.output.total_size_in_bytes;
    // The piece gather by default wherever it applies: on the H100 it beat the vector interleave on every nearest x2
    // perf case, by 1.03-1.05x (FLOAT32 123.8 vs 128.1 us, FLOAT16 67.1 vs 69.8, INT8 38.5 vs 40.6, tuned after the
    // clocks settled: results/h100_2026-11-27_full_run_warmed_probes/), since its stores are whole coalesced vectors.
    problem.shape = shape == shaders::InterleaveShape::kAuto ? shaders::InterleaveShape::kPieces : shape;
    const std::string label = "resample/nearest/" + std::string(data_type_name(desc.input.data_type));
    DMLTOOL_ASSIGN_OR_RETURN(std::optional<KernelDispatch> dispatch,
                             shaders::plan_vector_interleave(problem, label, shaders::kMaxViewBytesLog2));
    if (!dispatch) return std::optional<DevicePlan>();
    DevicePlan plan;
    plan.dispatches.push_back(std::move(*dispatch));
    return std::optional<DevicePlan>(std::move(plan));
}

}  // namespace dmltool::ops::resample
