// Host side of softmax_kernel.h: a SoftmaxProblem as a geometry, root constants and bindings; the desc adapter.
#include <algorithm>
#include <bit>
#include <string>

#include "ops/element_wise/desc.h"
#include "ops/element_wise/function_math.h"
#include "ops/element_wise/softmax_kernel_internal.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::element_wise {
namespace {

using softmax::ConstantTables;
using softmax::KernelSpec;

// The problem with size-1 dimensions dropped, split into kept (outer) and reduced (lane) dimensions, neighbours of
// each list merged where both tensors are contiguous across them (an outer stride = the inner one * inner size).
struct Split {
    Dims outer_sizes, outer_in, outer_out;
    Dims lane_sizes, lane_in, lane_out;
};

Split split_dimensions(const SoftmaxProblem& p) {
    Split s;
    for (size_t d = 0; d < p.sizes.size(); ++d) {
        const uint64_t size = p.sizes[d];
        if (size == 1) continue;
        const bool lane = p.reduced[d];
        Dims& sizes = lane ? s.lane_sizes : s.outer_sizes;
        Dims& in = lane ? s.lane_in : s.outer_in;
        Dims& out = lane ? s.lane_out : s.outer_out;
        const uint64_t si = p.input.strides[d], so = p.output.strides[d];
        if (!sizes.empty() && in.back() == si * size && out.back() == so * size) {
            sizes.back() *= size;
            in.back() = si;
            out.back() = so;
            continue;
        }
        sizes.push_back(size);
        in.push_back(si);
        out.push_back(so);
    }
    if (s.lane_sizes.empty()) {  // every reduced dimension has size 1: lanes of one element
        s.lane_sizes = {1};
        s.lane_in = {0};
        s.lane_out = {0};
    }
    return s;
}

uint64_t product(const Dims& sizes) {
    uint64_t n = 1;
    for (uint64_t s : sizes) n *= s;
    return n;
}

uint64_t padded_bytes(uint64_t bytes) { return std::max<uint64_t>(16, (bytes + 15) & ~uint64_t(15)); }

struct Planned {
    Split split;
    KernelSpec spec;
    uint64_t lanes = 0;
    uint64_t chunks = 0;  // per lane
    uint64_t groups = 0;
};

Result<Planned> plan(const SoftmaxProblem& problem, const SoftmaxKernelOptions& options) {
    const std::string name = "softmax kernel";
    const size_t rank = problem.sizes.size();
    if (problem.reduced.size() != rank || problem.input.strides.size() != rank || problem.output.strides.size() != rank)
        return invalid_input(name + ": strides and reduced axes must match the rank");
    if (rank > 8) return unsupported(name + ": more than 8 dimensions");
    const DataType type = problem.output.type;
    if (type != DataType::kFloat32 && type != DataType::kFloat16)
        return unsupported(name + ": " + std::string(data_type_name(type)) + " is not implemented (FLOAT32, FLOAT16)");
    if (problem.input.type != type) return unsupported(name + ": the input and output types differ");
    const uint32_t g = options.threads_per_group;
    if (g < 4 || g > 1024 || !std::has_single_bit(g)) return invalid_input(name + ": threads_per_group must be 2^2..2^10");
    if (options.max_chunks_per_thread == 0) return invalid_input(name + ": max_chunks_per_thread must be positive");
    if (options.register_path_group_threads != 0 && !std::has_single_bit(options.register_path_group_threads))
        return invalid_input(name + ": register_path_group_threads must be a power of two (or 0)");
    if (options.window_log2 < 8 || options.window_log2 > shaders::kMaxViewBytesLog2)
        return invalid_input(name + ": view window must be 2^8 .. 2^29 bytes");
    Planned p;
    p.split = split_dimensions(problem);
    const Split& s = p.split;
    KernelSpec& spec = p.spec;
    spec.kind = problem.kind;
    spec.bytes = uint32_t(element_size(type));
    spec.outer_rank = uint32_t(s.outer_sizes.size());
    spec.lane_rank = uint32_t(s.lane_sizes.size());
    spec.threads_per_group = g;
    spec.window_log2 = options.window_log2;
    const uint64_t length = product(s.lane_sizes);
    p.lanes = product(s.outer_sizes);
    // Chunks of 16 bytes: the lane is one packed dimension of whole chunks in both tensors, and every lane starts on
    // a chunk boundary (tensors start 16-aligned: buffers are bound from offset 0).
    const uint32_t vector = 16 / spec.bytes;
    bool chunked = options.vectorize && spec.lane_rank == 1 && s.lane_in[0] == 1 && s.lane_out[0] == 1 &&
                   length % vector == 0;
    for (size_t d = 0; chunked && d < s.outer_sizes.size(); ++d)
        chunked = s.outer_in[d] % vector == 0 && s.outer_out[d] % vector == 0;
    spec.chunk = chunked ? vector : 1;
    p.chunks = length / spec.chunk;
    // Register path: the fewest threads per lane (a power of two) that hold the lane in max_chunks_per_thread
    // chunks each; beyond a whole group, the looped path.
    const uint64_t wanted = (p.chunks + options.max_chunks_per_thread - 1) / options.max_chunks_per_thread;
    const uint64_t threads = std::bit_ceil(std::max<uint64_t>(wanted, 1));
    if (threads <= g) {
        spec.threads_per_lane = uint32_t(threads);
        spec.chunks_per_thread = uint32_t((p.chunks + threads - 1) / threads);
        const uint32_t preferred = options.register_path_group_threads ? options.register_path_group_threads : g;
        spec.threads_per_group = uint32_t(std::clamp<uint64_t>(preferred, threads, g));
    } else {
        spec.looped = true;
        spec.threads_per_lane = g;
        spec.chunks_per_thread = 1;
    }
    spec.exact_fit = !spec.looped && p.chunks == uint64_t{spec.threads_per_lane} * spec.chunks_per_thread;
    spec.native_half = options.native_half && type == DataType::kFloat16;
    spec.hardware_exp2 = options.hardware_exp2 && problem.kind != SoftmaxKind::kHardmax;
    const uint64_t lanes_per_group = spec.threads_per_group / spec.threads_per_lane;
    p.groups = std::max<uint64_t>(1, (p.lanes + lanes_per_group - 1) / lanes_per_group);
    auto views = [&](const KernelTensor& tensor) -> Result<uint32_t> {
        const uint64_t bytes = padded_bytes(tensor.total_bytes);
        if (bytes > (uint64_t{1} << 32))
            return unsupported(name + ": a buffer of " + std::to_string(tensor.total_bytes) +
                               " bytes exceeds the 4 GiB the kernel addresses (32-bit byte offsets)");
        return uint32_t((bytes + (uint64_t{1} << spec.window_log2) - 1) >> spec.window_log2);
    };
    DMLTOOL_ASSIGN_OR_RETURN(spec.input_views, views(problem.input));
    DMLTOOL_ASSIGN_OR_RETURN(spec.output_views, views(problem.output));
    if (p.lanes > 0xffffffffull || length > 0xffffffffull) return unsupported(name + ": more than 2^32 - 1 elements");
    return p;
}

std::string label_of(const KernelSpec& spec) {
    const char* kinds[] = {"softmax", "log_softmax", "hardmax"};
    return std::string("element_wise/") + kinds[int(spec.kind)] + "/" + (spec.bytes == 2 ? "FLOAT16" : "FLOAT32") +
           " v" + std::to_string(spec.chunk) + " t" + std::to_string(spec.threads_per_lane) + " c" +
           std::to_string(spec.chunks_per_thread) + (spec.looped ? " looped" : "") +
           (spec.native_half ? " native_half" : "") + (spec.hardware_exp2 ? " exp2" : "");
}

}  // namespace

Result<SoftmaxPath> softmax_path(const SoftmaxProblem& problem, const SoftmaxKernelOptions& options) {
    DMLTOOL_ASSIGN_OR_RETURN(Planned p, plan(problem, options));
    return SoftmaxPath{p.spec.lane_rank, p.spec.outer_rank, p.spec.chunk, p.spec.threads_per_lane,
                       p.spec.chunks_per_thread, p.spec.looped, p.spec.threads_per_group};
}

Status append_softmax(const SoftmaxProblem& problem, DevicePlan& device_plan, const SoftmaxKernelOptions& options) {
    DMLTOOL_ASSIGN_OR_RETURN(Planned p, plan(problem, options));
    const KernelSpec& spec = p.spec;
    const Split& s = p.split;
    const ConstantTables k{spec.outer_rank, spec.lane_rank};
    const shaders::DispatchGrid grid = shaders::plan_dispatch(p.groups * spec.threads_per_group, spec.threads_per_group);
    std::vector<uint64_t> tables(k.words(), 0);
    for (uint32_t d = 0; d < spec.outer_rank; ++d) {
        tables[k.outer_sizes() + d] = s.outer_sizes[d];
        tables[k.outer_input_strides() + d] = s.outer_in[d];
        tables[k.outer_output_strides() + d] = s.outer_out[d];
    }
    for (uint32_t d = 0; d < spec.lane_rank; ++d) {
        tables[k.lane_sizes() + d] = s.lane_sizes[d];
        tables[k.lane_input_strides() + d] = s.lane_in[d];
        tables[k.lane_output_strides() + d] = s.lane_out[d];
    }
    std::vector<uint32_t> constants(softmax::kTables, 0);
    constants[softmax::kLanes] = uint32_t(p.lanes);
    constants[softmax::kGroupsX] = grid.groups_x;
    constants[softmax::kChunks] = uint32_t(p.chunks);
    constants[softmax::kRuntimeZero] = 0;
    for (uint64_t word : tables) {
        if (word > 0xffffffffull) return unsupported("softmax kernel: a size or stride exceeds 32 bits");
        constants.push_back(uint32_t(word));
    }
    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, shaders::memoized_kernel(spec, softmax::build_kernel));
    dispatch.label = label_of(spec);
    const bool typed = spec.chunk > 1;
    auto bind = [&](BufferBinding::Source source, uint32_t index, uint32_t views, std::vector<BufferBinding>& out) {
        for (uint32_t v = 0; v < views; ++v) {
            // The last (or only) view reaches to the end of the buffer: at most one window by construction.
            const uint64_t size = v + 1 < views ? uint64_t{1} << spec.window_log2 : 0;
            out.push_back({source, index, uint64_t{v} << spec.window_log2, size, typed});
        }
    };
    bind(BufferBinding::Source::kInput, problem.input.binding_index, spec.input_views, dispatch.srvs);
    bind(BufferBinding::Source::kOutput, problem.output.binding_index, spec.output_views, dispatch.uavs);
    dispatch.root_constants = std::move(constants);
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    device_plan.dispatches.push_back(std::move(dispatch));
    if (spec.native_half) device_plan.require(DeviceCapability::kExactHalfOpcodes);
    if (spec.hardware_exp2) device_plan.require(DeviceCapability::kAccurateExp2);
    return Status::ok();
}

Result<DevicePlan> plan_softmax_problem(const SoftmaxProblem& problem, const SoftmaxKernelOptions& options) {
    // With the exp instruction where allowed, then the portable twin as the fallback. The half opcodes stay as the
    // options say (native_half is a tuning variant of its own, refused where the opcodes are not exact).
    const DeviceCapabilitySet wanted = options.hardware_exp2 ? uint32_t(DeviceCapability::kAccurateExp2) : 0;
    return plan_with_fallbacks(wanted, [&](DeviceCapabilitySet allowed) -> Result<DevicePlan> {
        SoftmaxKernelOptions allowed_options = options;
        allowed_options.hardware_exp2 = (allowed & uint32_t(DeviceCapability::kAccurateExp2)) != 0;
        DevicePlan plan;
        DMLTOOL_RETURN_IF_ERROR(append_softmax(problem, plan, allowed_options));
        return plan;
    });
}

Result<DevicePlan> plan_softmax(const ElementWiseDesc& desc, const SoftmaxKernelOptions& options) {
    const FunctionSpec& row = *desc.function;
    const std::string name(row.name);
    const std::string body = kernel_body_id(row);
    SoftmaxProblem problem;
    if (body == "softmax") problem.kind = SoftmaxKind::kSoftmax;
    else if (body == "log_softmax") problem.kind = SoftmaxKind::kLogSoftmax;
    else if (body == "hardmax") problem.kind = SoftmaxKind::kHardmax;
    else return unsupported(name + ": no GPU kernel for the reduction '" + body + "'");
    if (desc.inputs.size() != 1 || !desc.inputs[0]) return internal_error(name + ": expected one input tensor");
    if (desc.scale_bias || desc.fused_activation)
        return unsupported(name + ": no ScaleBias or fused activation on the reductions");
    const TensorDesc& input = *desc.inputs[0];
    problem.sizes = desc.output.sizes;
    const size_t rank = problem.sizes.size();
    problem.reduced.assign(rank, false);
    // As the reference (reference.cpp, run_lanes): the Axes list, or the last dimension for the v1 operators.
    if (const AttributeValue* axes = desc.attribute("Axes")) {
        for (uint32_t axis : axes->uint_array)
            if (axis < rank) problem.reduced[axis] = true;
    } else if (rank > 0) {
        problem.reduced[rank - 1] = true;
    }
    if (input.sizes != desc.output.sizes) return internal_error(name + ": input and output sizes differ");
    problem.input = {input.data_type, input.effective_strides(), input.total_size_in_bytes, 0};
    problem.output = {desc.output.data_type, desc.output.effective_strides(), desc.output.total_size_in_bytes, 0};
    Result<DevicePlan> plan = plan_softmax_problem(problem, options);
    if (!plan.is_ok()) return plan.status().with_context(name);
    return plan;
}

}  // namespace dmltool::ops::element_wise
