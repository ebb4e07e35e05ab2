#include "ops/element_wise/desc.h"

#include <bit>
#include <cmath>

namespace dmltool::ops::element_wise {

bool is_tensor(MemberKind kind) { return kind == MemberKind::kInputTensor || kind == MemberKind::kOutputTensor; }

bool is_attribute(MemberKind kind) {
    switch (kind) {
        case MemberKind::kFloat:
        case MemberKind::kUint:
        case MemberKind::kInt:
        case MemberKind::kBool:
        case MemberKind::kDataType:
        case MemberKind::kScalarUnion:
        case MemberKind::kEnum:
        case MemberKind::kUintArray: return true;
        default: return false;
    }
}

namespace {

template <typename T>
T load(const std::array<std::byte, 8>& bytes) {
    T value;
    std::memcpy(&value, bytes.data(), sizeof(T));
    return value;
}

template <typename T>
void store(std::array<std::byte, 8>& bytes, T value) {
    std::memcpy(bytes.data(), &value, sizeof(T));
}

}  // namespace

double ScalarUnion::as_double() const {
    switch (type) {
        case DataType::kFloat32: return load<float>(bytes);
        case DataType::kFloat16: return half_to_float(load<uint16_t>(bytes));
        case DataType::kFloat64: return load<double>(bytes);
        case DataType::kUint64: return double(load<uint64_t>(bytes));
        default: return double(as_int64());
    }
}

int64_t ScalarUnion::as_int64() const {
    switch (type) {
        case DataType::kUint8: return load<uint8_t>(bytes);
        case DataType::kUint16: return load<uint16_t>(bytes);
        case DataType::kUint32: return load<uint32_t>(bytes);
        case DataType::kUint64: return int64_t(load<uint64_t>(bytes));
        case DataType::kInt8: return load<int8_t>(bytes);
        case DataType::kInt16: return load<int16_t>(bytes);
        case DataType::kInt32: return load<int32_t>(bytes);
        case DataType::kInt64: return load<int64_t>(bytes);
        default: return int64_t(as_double());
    }
}

ScalarUnion ScalarUnion::of_double(DataType type, double value) {
    ScalarUnion s;
    s.type = type;
    switch (type) {
        case DataType::kFloat32: store(s.bytes, float(value)); break;
        case DataType::kFloat16: store(s.bytes, double_to_half(value)); break;
        case DataType::kFloat64: store(s.bytes, value); break;
        case DataType::kUint8: store(s.bytes, uint8_t(value)); break;
        case DataType::kUint16: store(s.bytes, uint16_t(value)); break;
        case DataType::kUint32: store(s.bytes, uint32_t(value)); break;
        case DataType::kUint64: store(s.bytes, uint64_t(value)); break;
        case DataType::kInt8: store(s.bytes, int8_t(value)); break;
        case DataType::kInt16: store(s.bytes, int16_t(value)); break;
        case DataType::kInt32: store(s.bytes, int32_t(value)); break;
        case DataType::kInt64: store(s.bytes, int64_t(value)); break;
        default: break;
    }
    return s;
}

const MemberSpec* FunctionSpec::member(std::string_view member_name) const {
    for (const MemberSpec& m : members)
        if (m.name == member_name) return &m;
    return nullptr;
}

size_t FunctionSpec::input_count() const {
    size_t n = 0;
    for (const MemberSpec& m : members) n += m.kind == MemberKind::kInputTensor;
    return n;
}

size_t FunctionSpec::attribute_count() const {
    size_t n = 0;
    for (const MemberSpec& m : members) n += is_attribute(m.kind);
    return n;
}

bool FunctionSpec::has_scale_bias() const { return member("ScaleBias") != nullptr; }

bool FunctionSpec::has_fused_activation() const {
    for (const MemberSpec& m : members)
        if (m.kind == MemberKind::kFusedActivation) return true;
    return false;
}

const TensorDesc* ElementWiseDesc::input(std::string_view member_name) const {
    size_t index = 0;
    for (const MemberSpec& m : function->members) {
        if (m.kind != MemberKind::kInputTensor) continue;
        if (m.name == member_name) return inputs[index] ? &*inputs[index] : nullptr;
        ++index;
    }
    return nullptr;
}

const AttributeValue* ElementWiseDesc::attribute(std::string_view member_name) const {
    for (const AttributeValue& a : attributes)
        if (a.member->name == member_name) return &a;
    return nullptr;
}

}  // namespace dmltool::ops::element_wise
