#include "ops/element_wise/kernel.h"

#include <algorithm>
#include <bit>
#include <compare>
#include <cstring>
#include <map>

#include "ops/element_wise/kernel_bodies.h"
#include "ops/element_wise/kernel_memory.h"
#include "shaders/kernel_memo.h"

namespace dmltool::ops::element_wise {
namespace {

using shaders::imm;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::TensorViews;
using namespace memory;

// Whether a problem of these types runs on the bodies' 64-bit forms (KernelBody::emit_wide): a 64-bit tensor.
bool wide_types(const std::vector<DataType>& inputs, DataType output) {
    if (element_size(output) == 8) return true;
    return std::any_of(inputs.begin(), inputs.end(), [](DataType t) { return t != DataType::kUnknown && element_size(t) == 8; });
}

// Root constants: a fixed header, then the tables (sizes, then each input's strides, then the output's), which
// move into an auxiliary buffer when they do not fit the 63 root constants.
struct ConstantLayout {
    static constexpr uint32_t kThreads = 0;
    static constexpr uint32_t kThreadsPerRow = 1;
    static constexpr uint32_t kRuntimeZero = 2;
    static constexpr uint32_t kScale = 3;
    static constexpr uint32_t kBias = 4;
    static constexpr uint32_t kParameters = 5;
    static constexpr uint32_t kActivationParameters = kParameters + kMaxKernelParameters;
    static constexpr uint32_t kTables = kActivationParameters + kMaxKernelParameters;
    static constexpr uint32_t kMaxRootConstants = 63;

    uint32_t rank = 1;
    uint32_t inputs = 1;
    uint32_t table_words() const { return rank * (inputs + 2); }
    bool tables_fit() const { return kTables + table_words() <= kMaxRootConstants; }
    // Offsets within the tables (root constants from kTables, or the auxiliary buffer from word 0).
    uint32_t sizes() const { return 0; }
    uint32_t input_strides(uint32_t k) const { return rank * (1 + k); }
    uint32_t output_strides() const { return rank * (1 + inputs); }
};

// Everything a blob is specialised on; sizes, strides and attribute values are root constants.
struct KernelSpec {
    std::string body;
    std::string activation;  // empty: none
    std::vector<DataType> input_types;
    DataType output_type = DataType::kUnknown;
    bool scale_bias = false;
    uint32_t parameters = 0;
    uint32_t activation_parameters = 0;
    uint32_t rank = 1;
    uint32_t lanes = 1;   // elements per group: 1 or 4
    uint32_t groups = 1;  // groups of `lanes` consecutive elements (along the row) per thread
    bool native_half = false;
    bool hardware_exp2 = false;  // the bodies that may (KernelBody::hardware_exp2) use the exp instruction
    std::vector<uint32_t> input_modes;
    std::vector<uint32_t> input_views;
    std::vector<uint8_t> typed_inputs;  // vector inputs read as one aligned 16-byte load per thread
    uint32_t output_views = 1;
    bool typed_output = false;
    uint32_t window_log2 = shaders::kMaxViewBytesLog2;
    bool tables_in_buffer = false;
    uint32_t threads_per_group = 256;
    auto operator<=>(const KernelSpec&) const = default;
};

// The problem with size-1 dimensions dropped and neighbours merged where every tensor is contiguous across them.
struct MergedProblem {
    Dims sizes;
    std::vector<Dims> input_strides;
    Dims output_strides;
};

MergedProblem merge_dimensions(const ElementWiseProblem& problem) {
    MergedProblem merged;
    merged.input_strides.resize(problem.inputs.size());
    const size_t rank = problem.sizes.size();
    for (size_t d = 0; d < rank; ++d) {
        const uint32_t size = problem.sizes[d];
        if (size == 1) continue;
        auto contiguous = [&](const Dims& outer, uint32_t inner) { return outer.back() == uint64_t{inner} * size; };
        bool merge = !merged.sizes.empty() && contiguous(merged.output_strides, problem.output.strides[d]);
        for (size_t k = 0; merge && k < problem.inputs.size(); ++k)
            merge = contiguous(merged.input_strides[k], problem.inputs[k].strides[d]);
        if (merge) {
            merged.sizes.back() *= size;
            merged.output_strides.back() = problem.output.strides[d];
            for (size_t k = 0; k < problem.inputs.size(); ++k) merged.input_strides[k].back() = problem.inputs[k].strides[d];
            continue;
        }
        merged.sizes.push_back(size);
        merged.output_strides.push_back(problem.output.strides[d]);
        for (size_t k = 0; k < problem.inputs.size(); ++k) merged.input_strides[k].push_back(problem.inputs[k].strides[d]);
    }
    if (merged.sizes.empty()) {
        merged.sizes = {1};
        merged.output_strides = {1};
        for (Dims& strides : merged.input_strides) strides = {0};
    }
    return merged;
}

uint64_t padded_bytes(uint64_t bytes) { return std::max<uint64_t>(16, (bytes + 15) & ~uint64_t(15)); }

// The vector path with n elements per thread: the output's rows are packed and hold whole, aligned runs of n.
bool vector_path(const MergedProblem& m, uint32_t n) {
    const size_t inner = m.sizes.size() - 1;
    if (m.output_strides[inner] != 1 || m.sizes[inner] % n != 0) return false;
    for (size_t d = 0; d < inner; ++d)
        if (m.output_strides[d] % n != 0) return false;
    return true;
}

// Whether a vector input's rows start at multiples of n elements.
bool rows_aligned(const Dims& strides, uint32_t n) {
    for (size_t d = 0; d + 1 < strides.size(); ++d)
        if (strides[d] % n != 0) return false;
    return true;
}

uint32_t input_mode(const Dims& strides) {
    const size_t inner = strides.size() - 1;
    if (strides[inner] == 0) return kRowBroadcast;
    if (strides[inner] != 1) return kScalarLoads;
    for (size_t d = 0; d < inner; ++d)
        if (strides[d] % 4 != 0) return kScalarLoads;
    return kVectorLoad;
}


Result<std::vector<uint8_t>> build_element_wise_kernel(const KernelSpec& spec) {
    const KernelBody* body = find_kernel_body(spec.body);
    if (!body) return invalid_input("element-wise kernel: no body '" + spec.body + "'");
    const KernelBody* activation = spec.activation.empty() ? nullptr : find_kernel_body(spec.activation);
    if (!spec.activation.empty() && !activation)
        return invalid_input("element-wise kernel: no activation body '" + spec.activation + "'");
    using K = ConstantLayout;
    const uint32_t inputs = uint32_t(spec.input_types.size());
    const K k{spec.rank, inputs};
    ProgramBuilder b({.thread_group = {spec.threads_per_group, 1, 1}});

    // Slots: each input's raw views then its typed views; the tables' buffer last. u: raw views, typed views.
    uint32_t slot = 0;
    std::vector<TensorViews> raw_inputs(inputs), typed_inputs(inputs);
    for (uint32_t i = 0; i < inputs; ++i) {
        raw_inputs[i].window_log2 = typed_inputs[i].window_log2 = spec.window_log2;
        for (uint32_t v = 0; v < spec.input_views[i]; ++v) raw_inputs[i].views.push_back(b.srv_raw(slot++));
        if (spec.typed_inputs[i])
            for (uint32_t v = 0; v < spec.input_views[i]; ++v) typed_inputs[i].views.push_back(b.srv_typed_uint4(slot++));
    }
    std::optional<shaders::Resource> table_buffer;
    if (spec.tables_in_buffer) table_buffer = b.srv_raw(slot++);
    auto table = [&](uint32_t first) {
        return table_buffer ? shaders::UintArray::in_buffer(*table_buffer, first)
                            : shaders::UintArray::root_constants(K::kTables + first);
    };
    TensorViews raw_output, typed_output;
    raw_output.window_log2 = typed_output.window_log2 = spec.window_log2;
    uint32_t uav = 0;
    for (uint32_t v = 0; v < spec.output_views; ++v) raw_output.views.push_back(b.uav_raw(uav++));
    if (spec.typed_output)
        for (uint32_t v = 0; v < spec.output_views; ++v) typed_output.views.push_back(b.uav_typed_uint4(uav++));

    Operand thread = shaders::linear_thread_index(b, b.root_constant(K::kThreadsPerRow));
    Operand flag = b.temp();
    b.ult(flag.x(), thread, b.root_constant(K::kThreads));
    b.if_nz(flag.x());
    const uint32_t per_thread = spec.lanes * spec.groups;
    Operand first = thread;
    if (per_thread > 1) {
        first = b.temp().x();
        b.ishl(first, thread, imm(std::countr_zero(per_thread)));
    }
    const std::vector<Operand> coords = shaders::decompose_index(b, first, spec.rank, table(k.sizes()));
    // values[g][i]: input i of group g. All groups' loads come before any body, so that a thread's loads are in
    // flight together.
    std::vector<std::vector<Operand>> values(spec.groups);
    // The 64-bit kernels (one group): every input as a Wide value.
    const bool wide = wide_types(spec.input_types, spec.output_type);
    std::vector<Wide> wide_values;
    for (uint32_t i = 0; i < inputs; ++i) {
        if (spec.input_types[i] == DataType::kUnknown) {  // an absent optional input (a zero point) reads as 0
            // A register, not an immediate: bodies may negate their operands (isub), which immediates cannot carry.
            Operand zero = b.temp();
            b.mov(spec.lanes == 4 ? zero.xyzw() : zero.x(), imm(0));
            for (auto& group : values) group.push_back(spec.lanes == 4 ? zero.xyzw() : zero.x());
            wide_values.push_back({values[0].back(), values[0].back()});
            continue;
        }
        const shaders::UintArray strides = table(k.input_strides(i));
        Operand base = shaders::dot_strides(b, coords, strides, imm(0));
        Operand inner_stride = spec.input_modes[i] == kScalarLoads && spec.lanes > 1 ? strides.get(b, spec.rank - 1) : imm(0);
        if (wide && element_size(spec.input_types[i]) == 8) {
            wide_values.push_back(load_input_64(b, raw_inputs[i], typed_inputs[i], spec.input_modes[i], spec.lanes,
                                                spec.typed_inputs[i] != 0, base, inner_stride));
            continue;
        }
        std::vector<Operand> loaded =
            load_input(b, raw_inputs[i], typed_inputs[i], spec.input_types[i], spec.input_modes[i], spec.lanes,
                       spec.groups, spec.typed_inputs[i] != 0, spec.native_half, base, inner_stride);
        // ScaleBias applies to the first input (the one the desc names InputTensor) before the function; once per
        // register (a row-broadcast input shares one among the groups).
        if (i == 0 && spec.scale_bias && is_float(spec.input_types[i])) {
            const bool shared = spec.lanes == 1 || spec.input_modes[i] == kRowBroadcast;
            for (uint32_t g = 0; g < (shared ? 1u : spec.groups); ++g) {
                shaders::unfused_mul(b, loaded[g], loaded[g], b.root_constant(K::kScale), b.root_constant(K::kRuntimeZero));
                b.add(loaded[g], loaded[g], b.root_constant(K::kBias));
            }
        }
        for (uint32_t g = 0; g < spec.groups; ++g) values[g].push_back(loaded[g]);
        if (wide) wide_values.push_back(extend_to_64(b, spec.input_types[i], spec.lanes, loaded[0]));
    }
    auto parameters = [&](uint32_t first_constant, uint32_t count) {
        std::vector<Operand> out;
        for (uint32_t i = 0; i < count; ++i) out.push_back(b.root_constant(first_constant + i));
        return out;
    };
    const Operand runtime_zero = b.root_constant(K::kRuntimeZero);
    if (wide) {
        BodyContext context(b, spec.lanes, parameters(K::kParameters, spec.parameters), runtime_zero, spec.input_types,
                            spec.output_type);
        const Wide result = context.wide_temp();
        body->emit_wide(context, wide_values, result);
        Operand output_base = shaders::dot_strides(b, coords, table(k.output_strides()), imm(0));
        if (element_size(spec.output_type) == 8) store_output_64(b, raw_output, typed_output, spec.lanes, output_base, result);
        else store_output(b, raw_output, typed_output, spec.output_type, spec.lanes, false, output_base, {result.lo});
        b.endif();
        b.ret();
        return b.build_dxbc();
    }
    std::vector<Operand> results;
    for (uint32_t g = 0; g < spec.groups; ++g) {
        BodyContext context(b, spec.lanes, parameters(K::kParameters, spec.parameters), runtime_zero, spec.input_types,
                            spec.output_type);
        context.allow_hardware_exp2(spec.hardware_exp2 && body->hardware_exp2);
        Operand result = context.temp();
        body->emit(context, values[g], result);
        if (activation) {
            BodyContext fused(b, spec.lanes, parameters(K::kActivationParameters, spec.activation_parameters),
                              runtime_zero, {spec.output_type}, spec.output_type);
            fused.allow_hardware_exp2(spec.hardware_exp2 && activation->hardware_exp2);
            Operand activated = fused.temp();
            const Operand operand[] = {result};
            activation->emit(fused, operand, activated);
            result = activated;
        }
        results.push_back(result);
    }
    Operand output_base = shaders::dot_strides(b, coords, table(k.output_strides()), imm(0));
    store_output(b, raw_output, typed_output, spec.output_type, spec.lanes, spec.native_half, output_base, results);
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::shared_ptr<const std::vector<uint8_t>>> element_wise_kernel(const KernelSpec& spec) {
    return shaders::memoized_kernel(spec, build_element_wise_kernel);
}

Status check_problem(const ElementWiseProblem& problem) {
    const std::string name = "element-wise kernel '" + problem.function.body + "'";
    const KernelBody* body = find_kernel_body(problem.function.body);
    if (!body) return invalid_input(name + ": no such kernel body");
    const size_t count = problem.inputs.size();
    if (count < body->min_inputs || count > body->max_inputs || count > kMaxKernelInputs)
        return invalid_input(name + ": expected " + std::to_string(body->min_inputs) + " to " +
                             std::to_string(body->max_inputs) + " inputs, found " + std::to_string(count));
    if (problem.function.parameters.size() > kMaxKernelParameters)
        return invalid_input(name + ": more than " + std::to_string(kMaxKernelParameters) + " attribute words");
    std::vector<DataType> types;
    for (const KernelTensor& input : problem.inputs) types.push_back(input.type);
    auto supported_type = [&](DataType type) -> Status {
        const size_t bytes = element_size_in_bits(type) / 8;
        if (type == DataType::kFloat64 && !body->wide_bits)
            return unsupported(name + ": FLOAT64 arithmetic is not implemented by the element-wise kernels (no double "
                                      "precision on SM 5.0 as vkd3d 1.2 runs it; only moves and bit operations)");
        if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
            return unsupported(name + ": " + std::string(data_type_name(type)) +
                               " tensors are not implemented by the element-wise kernels");
        return Status::ok();
    };
    for (DataType type : types)
        if (type != DataType::kUnknown) DMLTOOL_RETURN_IF_ERROR(supported_type(type));
    DMLTOOL_RETURN_IF_ERROR(supported_type(problem.output.type));
    // 64-bit tensors: the body's 64-bit form, on integer tensors (FLOAT64 ones as encodings) only (kernel_bodies.h).
    if (wide_types(types, problem.output.type)) {
        if (!body->emit_wide)
            return unsupported(name + ": no 64-bit form of this body (INT64/UINT64 tensors; docs/element-wise.md says "
                                      "which functions have one)");
        types.push_back(problem.output.type);
        for (DataType type : types)
            if (type != DataType::kUnknown && !is_integer(type) && type != DataType::kFloat64)
                return unsupported(name + ": a 64-bit problem with a " + std::string(data_type_name(type)) + " tensor");
        types.pop_back();
        if (problem.scale_bias && !types.empty() && types[0] == DataType::kFloat64)
            return unsupported(name + ": ScaleBias on FLOAT64 (double-precision arithmetic)");
    }
    // A valid desc whose types a body does not compute is a missing kernel, not a bad desc: kUnsupported.
    if (Status accepted = body->accepts(types, problem.output.type); !accepted.is_ok())
        return unsupported(accepted.message());
    if (problem.fused_activation) {
        const KernelBody* activation = find_kernel_body(problem.fused_activation->body);
        if (!activation) return invalid_input(name + ": no activation body '" + problem.fused_activation->body + "'");
        if (!is_float(problem.output.type))
            return invalid_input(name + ": a fused activation needs a float output");
        const DataType output[] = {problem.output.type};
        DMLTOOL_RETURN_IF_ERROR(activation->accepts(output, problem.output.type));
        if (problem.fused_activation->parameters.size() > kMaxKernelParameters)
            return invalid_input(name + ": more than " + std::to_string(kMaxKernelParameters) + " activation attribute words");
    }
    const size_t rank = problem.sizes.size();
    if (problem.output.strides.size() != rank) return invalid_input(name + ": output strides do not match the rank");
    for (const KernelTensor& input : problem.inputs)
        if (input.strides.size() != rank) return invalid_input(name + ": input strides do not match the rank");
    return Status::ok();
}

struct Planned {
    MergedProblem merged;
    KernelSpec spec;
    uint64_t threads = 0;
};

Result<Planned> plan(const ElementWiseProblem& problem, const ElementWiseKernelOptions& options) {
    DMLTOOL_RETURN_IF_ERROR(check_problem(problem));
    Planned p;
    p.merged = merge_dimensions(problem);
    const MergedProblem& m = p.merged;
    KernelSpec& spec = p.spec;
    spec.body = problem.function.body;
    spec.activation = problem.fused_activation ? problem.fused_activation->body : "";
    for (const KernelTensor& input : problem.inputs) spec.input_types.push_back(input.type);
    spec.output_type = problem.output.type;
    spec.scale_bias = problem.scale_bias.has_value();
    spec.parameters = uint32_t(problem.function.parameters.size());
    spec.activation_parameters = problem.fused_activation ? uint32_t(problem.fused_activation->parameters.size()) : 0;
    spec.rank = uint32_t(m.sizes.size());
    spec.lanes = options.vectorize && vector_path(m, 4) ? 4 : 1;
    // Narrow types: 2 or 4 groups per thread, so the widest tensor moves 16 bytes per thread (where the rows hold
    // whole runs of them; else fewer).
    uint32_t widest = uint32_t(element_size(problem.output.type));
    bool any_half = problem.output.type == DataType::kFloat16;
    for (const KernelTensor& input : problem.inputs) {
        if (input.type == DataType::kUnknown) continue;
        widest = std::max(widest, uint32_t(element_size(input.type)));
        any_half |= input.type == DataType::kFloat16;
    }
    if (spec.lanes == 4)
        for (uint32_t groups = std::min(options.max_groups, 4 / widest); groups > 1; groups /= 2)
            if (vector_path(m, 4 * groups)) {
                spec.groups = groups;
                break;
            }
    spec.native_half = options.native_half && any_half;
    const KernelBody* activation = problem.fused_activation ? find_kernel_body(problem.fused_activation->body) : nullptr;
    spec.hardware_exp2 = options.hardware_exp2 && (find_kernel_body(problem.function.body)->hardware_exp2 ||
                                                   (activation && activation->hardware_exp2));
    spec.window_log2 = options.window_log2;
    spec.threads_per_group = options.threads_per_group;
    if (spec.window_log2 < 8 || spec.window_log2 > shaders::kMaxViewBytesLog2)
        return invalid_input("element-wise kernel: view window must be 2^8 .. 2^29 bytes");
    auto views = [&](const KernelTensor& tensor) -> Result<uint32_t> {
        const uint64_t bytes = padded_bytes(tensor.total_bytes);
        if (bytes > (uint64_t{1} << 32))
            return unsupported("element-wise kernel: a buffer of " + std::to_string(tensor.total_bytes) +
                               " bytes exceeds the 4 GiB the kernel addresses (32-bit byte offsets)");
        return uint32_t((bytes + (uint64_t{1} << spec.window_log2) - 1) >> spec.window_log2);
    };
    for (size_t i = 0; i < problem.inputs.size(); ++i) {
        const uint32_t mode = spec.lanes == 4 ? input_mode(m.input_strides[i]) : kScalarLoads;
        spec.input_modes.push_back(mode);
        const bool present = problem.inputs[i].type != DataType::kUnknown;
        uint32_t count = 0;
        if (present) {
            DMLTOOL_ASSIGN_OR_RETURN(count, views(problem.inputs[i]));
        }
        spec.input_views.push_back(count);
        const uint32_t per_thread = spec.lanes * spec.groups;
        const uint64_t bytes = present ? element_size(problem.inputs[i].type) * per_thread : 0;  // 32: two loads (64-bit)
        spec.typed_inputs.push_back(present && mode == kVectorLoad && (bytes == 16 || bytes == 32) &&
                                    rows_aligned(m.input_strides[i], per_thread));
    }
    DMLTOOL_ASSIGN_OR_RETURN(spec.output_views, views(problem.output));
    const uint64_t output_bytes = element_size(problem.output.type) * spec.lanes * spec.groups;
    spec.typed_output = spec.lanes == 4 && (output_bytes == 16 || output_bytes == 32);
    const ConstantLayout k{spec.rank, uint32_t(problem.inputs.size())};
    spec.tables_in_buffer = !k.tables_fit();
    uint64_t count = 1;
    for (uint32_t size : m.sizes) count *= size;
    p.threads = count / (spec.lanes * spec.groups);
    return p;
}

std::string label_of(const ElementWiseProblem& problem, const KernelSpec& spec) {
    std::string label = "element_wise/" + problem.function.body;
    if (!spec.activation.empty()) label += "+" + spec.activation;
    label += "/";
    for (DataType type : spec.input_types)
        label += (type == DataType::kUnknown ? std::string("-") : std::string(data_type_name(type))) + ",";
    label += "->" + std::string(data_type_name(spec.output_type));
    label += " r" + std::to_string(spec.rank) + " x" + std::to_string(spec.lanes * spec.groups);
    if (spec.native_half) label += " native_half";
    if (spec.hardware_exp2) label += " exp2";
    return label;
}

}  // namespace

Result<ElementWisePath> element_wise_path(const ElementWiseProblem& problem, const ElementWiseKernelOptions& options) {
    DMLTOOL_ASSIGN_OR_RETURN(Planned p, plan(problem, options));
    return ElementWisePath{p.spec.rank, p.spec.lanes, p.spec.groups, p.spec.native_half, p.spec.input_modes,
                           p.spec.hardware_exp2};
}

Status append_element_wise(const ElementWiseProblem& problem, DevicePlan& device_plan,
                           const ElementWiseKernelOptions& options) {
    DMLTOOL_ASSIGN_OR_RETURN(Planned p, plan(problem, options));
    const KernelSpec& spec = p.spec;
    const MergedProblem& m = p.merged;
    const ConstantLayout k{spec.rank, uint32_t(problem.inputs.size())};
    if (p.threads > 0xffffffffull) return unsupported("element-wise kernel: more than 2^32 - 1 threads");
    const shaders::DispatchGrid grid = shaders::plan_dispatch(std::max<uint64_t>(p.threads, 1), spec.threads_per_group);

    std::vector<uint64_t> tables(k.table_words(), 0);
    for (uint32_t d = 0; d < spec.rank; ++d) {
        tables[k.sizes() + d] = m.sizes[d];
        for (uint32_t i = 0; i < problem.inputs.size(); ++i) tables[k.input_strides(i) + d] = m.input_strides[i][d];
        tables[k.output_strides() + d] = m.output_strides[d];
    }
    std::vector<uint32_t> table_words;
    for (uint64_t word : tables) {
        if (word > 0xffffffffull) return unsupported("element-wise kernel: a size or stride exceeds 32 bits");
        table_words.push_back(uint32_t(word));
    }
    std::vector<uint32_t> constants(ConstantLayout::kTables, 0);
    constants[ConstantLayout::kThreads] = uint32_t(p.threads);
    constants[ConstantLayout::kThreadsPerRow] = grid.threads_per_row;
    constants[ConstantLayout::kRuntimeZero] = 0;
    if (problem.scale_bias) {
        constants[ConstantLayout::kScale] = std::bit_cast<uint32_t>(problem.scale_bias->first);
        constants[ConstantLayout::kBias] = std::bit_cast<uint32_t>(problem.scale_bias->second);
    }
    std::copy(problem.function.parameters.begin(), problem.function.parameters.end(),
              constants.begin() + ConstantLayout::kParameters);
    if (problem.fused_activation)
        std::copy(problem.fused_activation->parameters.begin(), problem.fused_activation->parameters.end(),
                  constants.begin() + ConstantLayout::kActivationParameters);

    KernelDispatch dispatch;
    DMLTOOL_ASSIGN_OR_RETURN(dispatch.dxbc, element_wise_kernel(spec));
    dispatch.label = label_of(problem, spec);
    const uint32_t window = spec.window_log2;
    auto bind = [&](BufferBinding::Source source, uint32_t index, uint32_t views, bool typed, std::vector<BufferBinding>& out) {
        for (uint32_t v = 0; v < views; ++v) {
            // The last (or only) view reaches to the end of the buffer: at most one window by construction.
            const uint64_t size = v + 1 < views ? uint64_t{1} << window : 0;
            out.push_back({source, index, uint64_t{v} << window, size, typed});
        }
    };
    for (size_t i = 0; i < problem.inputs.size(); ++i) {
        const uint32_t index = problem.inputs[i].binding_index;
        bind(BufferBinding::Source::kInput, index, spec.input_views[i], false, dispatch.srvs);
        if (spec.typed_inputs[i]) bind(BufferBinding::Source::kInput, index, spec.input_views[i], true, dispatch.srvs);
    }
    if (spec.tables_in_buffer) {
        std::vector<std::byte> bytes(table_words.size() * 4);
        std::memcpy(bytes.data(), table_words.data(), bytes.size());
        dispatch.srvs.push_back({BufferBinding::Source::kAuxiliary, uint32_t(device_plan.auxiliary_buffers.size()), 0, 0, false});
        device_plan.auxiliary_buffers.push_back(std::move(bytes));
    } else {
        constants.insert(constants.end(), table_words.begin(), table_words.end());
    }
    const uint32_t output_index = problem.output.binding_index;
    bind(BufferBinding::Source::kOutput, output_index, spec.output_views, false, dispatch.uavs);
    if (spec.typed_output) bind(BufferBinding::Source::kOutput, output_index, spec.output_views, true, dispatch.uavs);
    dispatch.root_constants = std::move(constants);
    dispatch.group_count = {grid.groups_x, grid.groups_y, 1};
    device_plan.dispatches.push_back(std::move(dispatch));
    if (spec.native_half) device_plan.require(DeviceCapability::kExactHalfOpcodes);
    if (spec.hardware_exp2) device_plan.require(DeviceCapability::kAccurateExp2);
    return Status::ok();
}

Result<DevicePlan> plan_element_wise_problem(const ElementWiseProblem& problem, const ElementWiseKernelOptions& options) {
    // The plan with what the options allow, then its twins without the opcodes the device may lack (the integer
    // half conversions, the portable exponentials), which the backend runs where they are not exact or accurate.
    DeviceCapabilitySet wanted = 0;
    if (options.native_half) wanted |= uint32_t(DeviceCapability::kExactHalfOpcodes);
    if (options.hardware_exp2) wanted |= uint32_t(DeviceCapability::kAccurateExp2);
    return plan_with_fallbacks(wanted, [&](DeviceCapabilitySet allowed) -> Result<DevicePlan> {
        ElementWiseKernelOptions allowed_options = options;
        allowed_options.native_half = (allowed & uint32_t(DeviceCapability::kExactHalfOpcodes)) != 0;
        allowed_options.hardware_exp2 = (allowed & uint32_t(DeviceCapability::kAccurateExp2)) != 0;
        DevicePlan plan;
        DMLTOOL_RETURN_IF_ERROR(append_element_wise(problem, plan, allowed_options));
        return plan;
    });
}

}  // namespace dmltool::ops::element_wise
