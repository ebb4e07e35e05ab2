#include "core/dml_desc.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <utility>

namespace dmltool {

namespace {

DmlField field(std::string name, DmlField::Kind kind) {
    DmlField f;
    f.name = std::move(name);
    f.kind = kind;
    return f;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

template <typename T>
T from_bits(uint32_t word) {
    return std::bit_cast<T>(word);
}

std::string describe_value(const DmlField& f) {
    using Kind = DmlField::Kind;
    auto list = [&](auto element) {
        std::string text = "[";
        for (size_t i = 0; i < f.words.size(); ++i) text += (i ? ", " : "") + element(f.words[i]);
        return text + "]";
    };
    switch (f.kind) {
        case Kind::kUint: return std::to_string(uint32_t(f.bits));
        case Kind::kUint64: return std::to_string(f.bits);
        case Kind::kInt: return std::to_string(from_bits<int32_t>(uint32_t(f.bits)));
        case Kind::kFloat: return number(from_bits<float>(uint32_t(f.bits)));
        case Kind::kBool: return uint32_t(f.bits) ? "TRUE" : "FALSE";
        case Kind::kUintArray: return list([](uint32_t w) { return std::to_string(w); });
        case Kind::kIntArray: return list([](uint32_t w) { return std::to_string(from_bits<int32_t>(w)); });
        case Kind::kFloatArray: return list([](uint32_t w) { return number(from_bits<float>(w)); });
        case Kind::kScaleBias:
            return f.scale_bias ? "{" + number(f.scale_bias->scale) + ", " + number(f.scale_bias->bias) + "}" : "null";
        case Kind::kSize2D: return "{" + std::to_string(f.size_2d.width) + ", " + std::to_string(f.size_2d.height) + "}";
        case Kind::kScalarUnion: {
            // The raw bytes, lowest first: the member's meaning depends on a data type given by another member.
            std::string text = "0x";
            char hex[4];
            for (size_t i = f.scalar.size(); i-- > 0;) {
                std::snprintf(hex, sizeof hex, "%02x", unsigned(f.scalar[i]));
                text += hex;
            }
            return text;
        }
        case Kind::kOperatorDesc: return f.nested ? describe(*f.nested) : "null";
        case Kind::kInputTensor:
        case Kind::kOutputTensor:
        case Kind::kInputTensorArray:
        case Kind::kOutputTensorArray: break;
    }
    return {};
}

}  // namespace

DmlDesc& DmlDesc::input(std::string name, const TensorDesc* tensor) {
    fields.push_back(field(std::move(name), DmlField::Kind::kInputTensor));
    fields.back().tensor = tensor;
    return *this;
}

DmlDesc& DmlDesc::output(std::string name, const TensorDesc* tensor) {
    fields.push_back(field(std::move(name), DmlField::Kind::kOutputTensor));
    fields.back().tensor = tensor;
    return *this;
}

DmlDesc& DmlDesc::inputs(std::string name, std::vector<const TensorDesc*> tensors) {
    fields.push_back(field(std::move(name), DmlField::Kind::kInputTensorArray));
    fields.back().tensors = std::move(tensors);
    return *this;
}

DmlDesc& DmlDesc::outputs(std::string name, std::vector<const TensorDesc*> tensors) {
    fields.push_back(field(std::move(name), DmlField::Kind::kOutputTensorArray));
    fields.back().tensors = std::move(tensors);
    return *this;
}

DmlDesc& DmlDesc::uint(std::string name, uint32_t value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kUint));
    fields.back().bits = value;
    return *this;
}

DmlDesc& DmlDesc::uint64(std::string name, uint64_t value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kUint64));
    fields.back().bits = value;
    return *this;
}

DmlDesc& DmlDesc::int32(std::string name, int32_t value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kInt));
    fields.back().bits = std::bit_cast<uint32_t>(value);
    return *this;
}

DmlDesc& DmlDesc::float32(std::string name, float value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kFloat));
    fields.back().bits = std::bit_cast<uint32_t>(value);
    return *this;
}

DmlDesc& DmlDesc::boolean(std::string name, bool value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kBool));
    fields.back().bits = value ? 1 : 0;
    return *this;
}

DmlDesc& DmlDesc::uint_array(std::string name, const std::vector<uint32_t>& values) {
    fields.push_back(field(std::move(name), DmlField::Kind::kUintArray));
    fields.back().words = values;
    return *this;
}

DmlDesc& DmlDesc::int_array(std::string name, const std::vector<int32_t>& values) {
    fields.push_back(field(std::move(name), DmlField::Kind::kIntArray));
    for (int32_t v : values) fields.back().words.push_back(std::bit_cast<uint32_t>(v));
    return *this;
}

DmlDesc& DmlDesc::float_array(std::string name, const std::vector<float>& values) {
    fields.push_back(field(std::move(name), DmlField::Kind::kFloatArray));
    for (float v : values) fields.back().words.push_back(std::bit_cast<uint32_t>(v));
    return *this;
}

DmlDesc& DmlDesc::scale_bias(std::string name, std::optional<DmlScaleBias> value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kScaleBias));
    fields.back().scale_bias = value;
    return *this;
}

DmlDesc& DmlDesc::size_2d(std::string name, DmlSize2D value) {
    fields.push_back(field(std::move(name), DmlField::Kind::kSize2D));
    fields.back().size_2d = value;
    return *this;
}

DmlDesc& DmlDesc::scalar_union(std::string name, const std::array<uint8_t, 8>& bytes) {
    fields.push_back(field(std::move(name), DmlField::Kind::kScalarUnion));
    fields.back().scalar = bytes;
    return *this;
}

DmlDesc& DmlDesc::operator_desc(std::string name, std::shared_ptr<const DmlDesc> nested) {
    fields.push_back(field(std::move(name), DmlField::Kind::kOperatorDesc));
    fields.back().nested = std::move(nested);
    return *this;
}

std::string describe(const DmlDesc& desc) {
    std::string members;
    for (const DmlField& f : desc.fields) {
        const std::string value = describe_value(f);
        if (value.empty()) continue;  // tensors: the case shows them
        members += (members.empty() ? "" : ", ") + f.name + " " + value;
    }
    return "DML_OPERATOR_" + desc.operator_name + (members.empty() ? "" : " (" + members + ")");
}

std::vector<const TensorDesc*> dml_bound_tensors(const DmlDesc& desc, TensorRole role) {
    using Kind = DmlField::Kind;
    const Kind single = role == TensorRole::kInput ? Kind::kInputTensor : Kind::kOutputTensor;
    const Kind array = role == TensorRole::kInput ? Kind::kInputTensorArray : Kind::kOutputTensorArray;
    std::vector<const TensorDesc*> bound;
    for (const DmlField& f : desc.fields) {
        if (f.kind == single) bound.push_back(f.tensor);
        if (f.kind == array) bound.insert(bound.end(), f.tensors.begin(), f.tensors.end());
    }
    return bound;
}

}  // namespace dmltool
