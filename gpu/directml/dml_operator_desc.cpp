#include "gpu/directml/dml_operator_desc.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "gpu/directml/dml_struct_layout.h"

namespace dmltool::gpu::dml {

DML_TENSOR_DATA_TYPE to_dml(DataType type) {
    // dmltool's DataType numbers are DML_TENSOR_DATA_TYPE's (core/dtype.h); spelled out so a renumbering fails here.
    switch (type) {
        case DataType::kUnknown: return DML_TENSOR_DATA_TYPE_UNKNOWN;
        case DataType::kFloat32: return DML_TENSOR_DATA_TYPE_FLOAT32;
        case DataType::kFloat16: return DML_TENSOR_DATA_TYPE_FLOAT16;
        case DataType::kUint32: return DML_TENSOR_DATA_TYPE_UINT32;
        case DataType::kUint16: return DML_TENSOR_DATA_TYPE_UINT16;
        case DataType::kUint8: return DML_TENSOR_DATA_TYPE_UINT8;
        case DataType::kInt32: return DML_TENSOR_DATA_TYPE_INT32;
        case DataType::kInt16: return DML_TENSOR_DATA_TYPE_INT16;
        case DataType::kInt8: return DML_TENSOR_DATA_TYPE_INT8;
        case DataType::kFloat64: return DML_TENSOR_DATA_TYPE_FLOAT64;
        case DataType::kUint64: return DML_TENSOR_DATA_TYPE_UINT64;
        case DataType::kInt64: return DML_TENSOR_DATA_TYPE_INT64;
        case DataType::kUint4: return DML_TENSOR_DATA_TYPE_UINT4;
        case DataType::kInt4: return DML_TENSOR_DATA_TYPE_INT4;
    }
    return DML_TENSOR_DATA_TYPE_UNKNOWN;
}

std::optional<DML_OPERATOR_TYPE> operator_type(std::string_view name) {
    struct Entry {
        std::string_view name;
        DML_OPERATOR_TYPE type;
    };
    static constexpr Entry kTypes[] = {
#define DMLTOOL_DML_OPERATOR_ENTRY(operator_name, value) {#operator_name, DML_OPERATOR_##operator_name},
        DMLTOOL_DML_SEED_OPERATOR_TYPES(DMLTOOL_DML_OPERATOR_ENTRY)
#undef DMLTOOL_DML_OPERATOR_ENTRY
#define DMLTOOL_DML_OP(operator_name, type_value, role, introduced_major, introduced_minor, in_place) \
    {#operator_name, DML_OPERATOR_##operator_name},
#include "ops/element_wise/dml_facts.inc"
    };
    for (const Entry& entry : kTypes)
        if (entry.name == name) return entry.type;
    return std::nullopt;
}

DML_TENSOR_DESC DmlOperatorDesc::add_tensor(const TensorDesc& tensor) {
    TensorStorage& storage = tensors_.emplace_back();
    storage.sizes.assign(tensor.sizes.begin(), tensor.sizes.end());
    if (tensor.strides) storage.strides.assign(tensor.strides->begin(), tensor.strides->end());
    DML_BUFFER_TENSOR_DESC& b = storage.buffer;
    b.DataType = to_dml(tensor.data_type);
    b.Flags = static_cast<DML_TENSOR_FLAGS>(tensor.flags);
    b.DimensionCount = tensor.rank();
    b.Sizes = storage.sizes.data();
    b.Strides = tensor.strides ? storage.strides.data() : nullptr;
    b.TotalTensorSizeInBytes = tensor.total_size_in_bytes;
    b.GuaranteedBaseOffsetAlignment = tensor.guaranteed_base_offset_alignment;
    return DML_TENSOR_DESC{DML_TENSOR_TYPE_BUFFER, &b};
}

Result<const DML_OPERATOR_DESC*> DmlOperatorDesc::encode(const DmlDesc& fields, bool bind) {
    using Kind = DmlField::Kind;
    const std::optional<DML_OPERATOR_TYPE> type = operator_type(fields.operator_name);
    if (!type)
        return unsupported("the DirectML backend knows no DML_OPERATOR_TYPE value for DML_OPERATOR_" +
                           fields.operator_name + " (gpu/directml/dml_api.h, ops/element_wise/dml_facts.inc)");
    const DmlStructLayout layout = struct_layout(fields);
    std::vector<uint64_t>& words = structs_.emplace_back(std::max<size_t>(1, (layout.size + 7) / 8), 0);
    auto* bytes = reinterpret_cast<unsigned char*>(words.data());
    auto put = [&](size_t member, const void* value, size_t size) {
        std::memcpy(bytes + layout.members[member].offset, value, size);
    };
    auto put_pointer = [&](size_t member, const void* pointer) { put(member, &pointer, sizeof pointer); };
    auto bound = [&](Kind kind) -> std::vector<const DML_BUFFER_TENSOR_DESC*>* {
        if (!bind) return nullptr;
        return kind == Kind::kInputTensor || kind == Kind::kInputTensorArray ? &input_tensors_ : &output_tensors_;
    };

    for (size_t i = 0; i < fields.fields.size(); ++i) {
        const DmlField& f = fields.fields[i];
        switch (f.kind) {
            case Kind::kInputTensor:
            case Kind::kOutputTensor: {
                const DML_TENSOR_DESC* pointer = nullptr;
                if (f.tensor) pointer = &tensor_descs_.emplace_back(add_tensor(*f.tensor));
                put_pointer(i, pointer);
                if (auto* list = bound(f.kind))
                    list->push_back(pointer ? static_cast<const DML_BUFFER_TENSOR_DESC*>(pointer->Desc) : nullptr);
                break;
            }
            case Kind::kInputTensorArray:
            case Kind::kOutputTensorArray: {
                std::vector<DML_TENSOR_DESC>& array = tensor_arrays_.emplace_back();
                for (const TensorDesc* tensor : f.tensors) {
                    if (!tensor)
                        return internal_error("DML_OPERATOR_" + fields.operator_name + "." + f.name +
                                              ": a tensor array cannot hold an absent tensor");
                    array.push_back(add_tensor(*tensor));
                    if (auto* list = bound(f.kind)) list->push_back(static_cast<const DML_BUFFER_TENSOR_DESC*>(array.back().Desc));
                }
                put_pointer(i, array.empty() ? nullptr : array.data());
                break;
            }
            case Kind::kUint:
            case Kind::kInt:
            case Kind::kFloat:
            case Kind::kBool: {
                const uint32_t value = uint32_t(f.bits);
                put(i, &value, sizeof value);
                break;
            }
            case Kind::kUint64: put(i, &f.bits, sizeof f.bits); break;
            case Kind::kUintArray:
            case Kind::kIntArray:
            case Kind::kFloatArray: {
                const std::vector<uint32_t>& array = arrays_.emplace_back(f.words);
                put_pointer(i, array.empty() ? nullptr : array.data());
                break;
            }
            case Kind::kScaleBias: {
                const DML_SCALE_BIAS* pointer = nullptr;
                if (f.scale_bias) pointer = &scale_biases_.emplace_back(DML_SCALE_BIAS{f.scale_bias->scale, f.scale_bias->bias});
                put_pointer(i, pointer);
                break;
            }
            case Kind::kSize2D: {
                const UINT value[2] = {f.size_2d.width, f.size_2d.height};
                put(i, value, sizeof value);
                break;
            }
            case Kind::kScalarUnion: put(i, f.scalar.data(), f.scalar.size()); break;
            case Kind::kOperatorDesc: {
                const DML_OPERATOR_DESC* pointer = nullptr;
                if (f.nested) {
                    DMLTOOL_ASSIGN_OR_RETURN(pointer, encode(*f.nested, false));
                }
                put_pointer(i, pointer);
                break;
            }
        }
    }
    return &operator_descs_.emplace_back(DML_OPERATOR_DESC{*type, bytes});
}

Result<std::unique_ptr<DmlOperatorDesc>> DmlOperatorDesc::from_fields(DmlDesc fields) {
    std::unique_ptr<DmlOperatorDesc> d(new DmlOperatorDesc());
    d->fields_ = std::move(fields);
    DMLTOOL_ASSIGN_OR_RETURN(d->operator_desc_, d->encode(d->fields_, true));
    d->summary_ = describe(d->fields_);
    return d;
}

Result<std::unique_ptr<DmlOperatorDesc>> DmlOperatorDesc::build(const Op& op, const OpDesc& desc) {
    DMLTOOL_ASSIGN_OR_RETURN(DmlDesc fields, op.dml_desc(desc));
    // The backend binds buffers in the op's slot order; DirectML binds in its members' order: they must agree.
    // Absent optional inputs are null in both. An absent optional output (MAX_POOLING2's OutputIndicesTensor) is a
    // null member of DirectML's struct, bound as DML_BINDING_TYPE_NONE, but no slot (core/op.h: tensors() leaves
    // absent outputs out): the outputs are compared without the desc's null members.
    const std::vector<TensorSlot> slots = op.tensors(desc);
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput}) {
        std::vector<const TensorDesc*> slot_tensors;
        for (const TensorSlot& slot : slots)
            if (slot.role == role) slot_tensors.push_back(slot.desc);
        std::vector<const TensorDesc*> members = dml_bound_tensors(fields, role);
        if (role == TensorRole::kOutput) std::erase(members, nullptr);
        if (members != slot_tensors)
            return internal_error(std::string(op.name()) + ": its DML desc's " +
                                  (role == TensorRole::kInput ? "input" : "output") +
                                  " tensor members are not its tensor slots in slot order");
    }
    return from_fields(std::move(fields));
}

}  // namespace dmltool::gpu::dml
