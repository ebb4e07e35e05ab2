// plan_element_wise: an ElementWiseDesc (desc.h) as the emitter's ElementWiseProblem (kernel.h). Only fields of the
// desc model are read here, so the emitter and this adapter build without the engine's sources.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <string>

#include "ops/element_wise/desc.h"
#include "ops/element_wise/function_math.h"
#include "ops/element_wise/kernel.h"
#include "ops/element_wise/kernel_bodies.h"
#include "ops/element_wise/softmax_kernel.h"

namespace dmltool::ops::element_wise {
namespace {

Result<std::vector<uint32_t>> attribute_words(const FunctionSpec& row, const std::vector<AttributeValue>& attributes,
                                              DataType domain) {
    std::vector<uint32_t> words;
    // INT64/UINT64 tensors: value attributes take two words, low first (BodyContext::wide_parameter).
    const bool wide = is_integer(domain) && element_size(domain) == 8;
    auto push_wide = [&words](uint64_t value) {
        words.push_back(uint32_t(value));
        words.push_back(uint32_t(value >> 32));
    };
    for (const AttributeValue& attribute : attributes) {
        if (!attribute.member) return internal_error(std::string(row.name) + ": an attribute without its member");
        const MemberKind kind = attribute.member->kind;
        if (wide && kind == MemberKind::kFloat) {
            push_wide(saturate_to_integer(attribute.float_value, domain));
            continue;
        }
        if (wide && kind == MemberKind::kScalarUnion) {  // of the tensors' type (CLIP1's MinMaxDataType): exact
            push_wide(is_integer(attribute.scalar.type) ? uint64_t(attribute.scalar.as_int64())
                                                        : saturate_to_integer(attribute.scalar.as_double(), domain));
            continue;
        }
        switch (kind) {
            case MemberKind::kFloat:
                words.push_back(is_float(domain) ? std::bit_cast<uint32_t>(attribute.float_value)
                                                 : uint32_t(saturate_to_integer(attribute.float_value, domain)));
                break;
            case MemberKind::kUint:
            case MemberKind::kEnum:
            case MemberKind::kBool:
                words.push_back(attribute.uint_value);
                break;
            case MemberKind::kInt:
                words.push_back(uint32_t(attribute.int_value));
                break;
            case MemberKind::kDataType:
                break;  // the type of the scalar unions that follow: they are converted to the tensors' domain
            case MemberKind::kScalarUnion: {
                const double value = attribute.scalar.as_double();
                words.push_back(is_float(domain) ? std::bit_cast<uint32_t>(float(value))
                                                 : uint32_t(saturate_to_integer(value, domain)));
                break;
            }
            default:
                return unsupported(std::string(row.name) + ": attribute '" + std::string(attribute.member->name) +
                                   "' has no element-wise kernel form");
        }
    }
    return words;
}

// An input's element strides over the output's logical shape: a dimension the input has with size 1 repeats (stride
// 0), as do leading dimensions it lacks (descs whose inputs broadcast by their Sizes, e.g. QUANTIZED_LINEAR_ADD's
// scales); otherwise its own strides.
Dims strides_over_output(const TensorDesc& input, const Dims& output_sizes) {
    const Dims own = input.effective_strides();
    Dims strides(output_sizes.size(), 0);
    const size_t offset = output_sizes.size() >= input.sizes.size() ? output_sizes.size() - input.sizes.size() : 0;
    for (size_t d = 0; d < input.sizes.size() && offset + d < strides.size(); ++d)
        strides[offset + d] = input.sizes[d] == 1 ? 0 : own[d];
    return strides;
}

}  // namespace

std::string kernel_body_id(const FunctionSpec& row) {
    std::string id(row.kernel_body);
    if (id.empty()) {
        std::string_view name = row.name;
        for (std::string_view prefix : {"ELEMENT_WISE_", "ACTIVATION_"})
            if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
        while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
        id = name;
    }
    for (char& ch : id) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return id;
}

Result<DevicePlan> plan_element_wise(const ElementWiseDesc& desc, const SemanticsOptions& semantics) {
    (void)semantics;  // no choice of these functions depends on the semantics options
    if (!desc.function) return internal_error("element-wise desc without its table row");
    const FunctionSpec& row = *desc.function;
    const std::string name(row.name);
    if (row.math && row.math->lane) return plan_softmax(desc, {.hardware_exp2 = true});  // the reductions over axes: softmax_kernel.h
    ElementWiseProblem problem;
    problem.function.body = kernel_body_id(row);
    if (!find_kernel_body(problem.function.body))
        return unsupported(name + ": no GPU kernel body '" + problem.function.body + "' yet");
    problem.sizes = desc.output.sizes;
    DataType domain = DataType::kUnknown;
    for (size_t i = 0; i < desc.inputs.size(); ++i) {
        KernelTensor tensor;
        tensor.binding_index = uint32_t(i);
        if (desc.inputs[i]) {
            tensor.type = desc.inputs[i]->data_type;
            tensor.strides = strides_over_output(*desc.inputs[i], desc.output.sizes);
            tensor.total_bytes = desc.inputs[i]->total_size_in_bytes;
            if (domain == DataType::kUnknown) domain = tensor.type;
        } else {
            tensor.strides.assign(problem.sizes.size(), 0);  // absent: reads as 0, binds nothing
        }
        problem.inputs.push_back(std::move(tensor));
    }
    if (domain == DataType::kUnknown) domain = desc.output.data_type;
    problem.output = {desc.output.data_type, desc.output.effective_strides(), desc.output.total_size_in_bytes, 0};
    if (desc.scale_bias) problem.scale_bias = std::pair{desc.scale_bias->scale, desc.scale_bias->bias};
    DMLTOOL_ASSIGN_OR_RETURN(problem.function.parameters, attribute_words(row, desc.attributes, domain));
    if (desc.fused_activation) {
        if (!desc.fused_activation->function) return internal_error(name + ": fused activation without its row");
        const FunctionSpec& activation = *desc.fused_activation->function;
        KernelFunction fused;
        fused.body = kernel_body_id(activation);
        if (!find_kernel_body(fused.body))
            return unsupported(name + ": no GPU kernel body for the fused " + std::string(activation.name) + " yet");
        DMLTOOL_ASSIGN_OR_RETURN(fused.parameters,
                                 attribute_words(activation, desc.fused_activation->attributes, desc.output.data_type));
        problem.fused_activation = std::move(fused);
    }
    // FLOAT16 through the conversion opcodes where the device's are exact (the backend's probe decides; the plan
    // carries the integer-conversion twin for the other devices): 1 instruction per element and direction instead
    // of 11-14 integer ones, which made the FLOAT16 kernels compute-bound (20-60% of the copy on the H200). And 2^t
    // by the exp instruction where the device's is within [FS]'s 3 ulp (the probe decides likewise; issue 38: exp,
    // sigmoid, tanh, erf and GELU were compute-bound on their portable polynomials).
    ElementWiseKernelOptions options;
    options.native_half = true;
    options.hardware_exp2 = true;
    Result<DevicePlan> plan = plan_element_wise_problem(problem, options);
    if (!plan.is_ok()) return plan.status().with_context(name);
    return plan;
}

}  // namespace dmltool::ops::element_wise
