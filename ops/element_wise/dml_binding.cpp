#include "ops/element_wise/dml_binding.h"

#include <memory>
#include <string>

namespace dmltool::ops::element_wise {

namespace {

// The tensors and values one desc level gives its members: the operator's own, or a fused activation's (no
// tensors, no ScaleBias, no nested activation).
struct MemberValues {
    const std::vector<std::optional<TensorDesc>>* inputs = nullptr;  // null: every tensor member is null
    const TensorDesc* output = nullptr;
    std::optional<ScaleBias> scale_bias;
    const std::vector<AttributeValue>* attributes = nullptr;
    const FusedActivation* fused = nullptr;
};

const AttributeValue* find_attribute(const std::vector<AttributeValue>& attributes, std::string_view name) {
    for (const AttributeValue& a : attributes)
        if (a.member && a.member->name == name) return &a;
    return nullptr;
}

Result<DmlDesc> fields_of(const FunctionSpec& function, const MemberValues& values) {
    DmlDesc dml{std::string(function.name), {}};
    size_t input_index = 0;
    const auto missing = [&](const MemberSpec& m) {
        return internal_error("DML_OPERATOR_" + std::string(function.name) + ": no value for member " +
                              std::string(m.name));
    };
    for (const MemberSpec& m : function.members) {
        const std::string name(m.name);
        const AttributeValue* value = is_attribute(m.kind) ? find_attribute(*values.attributes, m.name) : nullptr;
        if (is_attribute(m.kind) && !value) return missing(m);
        switch (m.kind) {
            case MemberKind::kInputTensor: {
                const TensorDesc* tensor = nullptr;
                if (values.inputs) {
                    if (input_index >= values.inputs->size()) return missing(m);
                    const std::optional<TensorDesc>& input = (*values.inputs)[input_index];
                    tensor = input ? &*input : nullptr;
                }
                ++input_index;
                dml.input(name, tensor);
                break;
            }
            case MemberKind::kOutputTensor: dml.output(name, values.output); break;
            case MemberKind::kScaleBias: {
                std::optional<DmlScaleBias> scale_bias;
                if (values.scale_bias) scale_bias = DmlScaleBias{values.scale_bias->scale, values.scale_bias->bias};
                dml.scale_bias(name, scale_bias);
                break;
            }
            case MemberKind::kFusedActivation: {
                std::shared_ptr<const DmlDesc> nested;
                if (values.fused && values.fused->function) {
                    MemberValues fused_values;
                    fused_values.attributes = &values.fused->attributes;
                    DMLTOOL_ASSIGN_OR_RETURN(DmlDesc fused, fields_of(*values.fused->function, fused_values));
                    nested = std::make_shared<const DmlDesc>(std::move(fused));
                }
                dml.operator_desc(name, std::move(nested));
                break;
            }
            case MemberKind::kFloat: dml.float32(name, value->float_value); break;
            case MemberKind::kUint:
            case MemberKind::kEnum: dml.uint(name, value->uint_value); break;
            case MemberKind::kInt: dml.int32(name, value->int_value); break;
            case MemberKind::kBool: dml.boolean(name, value->uint_value != 0); break;
            // dmltool's DataType numbers are DML_TENSOR_DATA_TYPE's (core/dtype.h).
            case MemberKind::kDataType: dml.uint(name, uint32_t(value->data_type)); break;
            case MemberKind::kScalarUnion: {
                std::array<uint8_t, 8> bytes{};
                for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(value->scalar.bytes[i]);
                dml.scalar_union(name, bytes);
                break;
            }
            case MemberKind::kArrayCount: {
                // The count of the array member it names: that array's own value.
                const AttributeValue* array = find_attribute(*values.attributes, m.related);
                if (!array) return missing(m);
                dml.uint(name, uint32_t(array->uint_array.size()));
                break;
            }
            case MemberKind::kUintArray: dml.uint_array(name, value->uint_array); break;
        }
    }
    return dml;
}

}  // namespace

Result<DmlDesc> element_wise_dml_desc(const ElementWiseDesc& desc) {
    if (!desc.function) return internal_error("element-wise desc without its function row");
    MemberValues values;
    values.inputs = &desc.inputs;
    values.output = &desc.output;
    values.scale_bias = desc.scale_bias;
    values.attributes = &desc.attributes;
    values.fused = desc.fused_activation ? &*desc.fused_activation : nullptr;
    return fields_of(*desc.function, values);
}

}  // namespace dmltool::ops::element_wise
