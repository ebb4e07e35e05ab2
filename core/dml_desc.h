// DmlDesc: an operator's DirectML desc as an ordered list of its members, one DmlField per member of the
// DML_*_OPERATOR_DESC in DirectML's own order, needing no DirectML header. An Op says what DirectML should be
// given (Op::dml_desc); gpu/directml lays the fields out as the C struct DirectML.dll reads (x64 layout rules) and
// maps the operator name to its DML_OPERATOR_TYPE number, so the backend has no per-operator code.
//
// One field is one C member: a count that DirectML declares as its own member (ScaleCount, DimensionCount,
// OutputCount) is its own kUint field, before the array pointer(s) it counts, exactly where DirectML declares it.
// Enums are 4-byte members: kUint with the enum's value.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace dmltool {

struct DmlDesc;

// DML_SCALE_BIAS.
struct DmlScaleBias {
    float scale = 1;
    float bias = 0;
};

// DML_SIZE_2D.
struct DmlSize2D {
    uint32_t width = 0;
    uint32_t height = 0;
};

struct DmlField {
    enum class Kind {
        kInputTensor,        // const DML_TENSOR_DESC*: one binding; null for an absent optional tensor
        kOutputTensor,       // const DML_TENSOR_DESC*: one binding
        kInputTensorArray,   // const DML_TENSOR_DESC* to an array of them (JOIN's InputTensors): one binding each
        kOutputTensorArray,  // the same for outputs (SPLIT's OutputTensors)
        kUint,               // UINT, or an enum's value
        kUint64,             // UINT64
        kInt,                // INT
        kFloat,              // FLOAT
        kBool,               // BOOL (a 4-byte int)
        kUintArray,          // const UINT*; null when empty
        kIntArray,           // const INT*; null when empty
        kFloatArray,         // const FLOAT*; null when empty
        kScaleBias,          // const DML_SCALE_BIAS*; null when absent
        kSize2D,             // DML_SIZE_2D, by value
        kScalarUnion,        // DML_SCALAR_UNION, by value: 8 raw bytes (the value in its data type, little-endian)
        kOperatorDesc,       // const DML_OPERATOR_DESC*, a nested operator (FusedActivation); null when absent
    };

    std::string name;  // the C member's name, "ATensor", for messages
    Kind kind = Kind::kUint;
    // kInputTensor, kOutputTensor: the tensor (points into the OpDesc), null when absent.
    const TensorDesc* tensor = nullptr;
    // kInputTensorArray, kOutputTensorArray.
    std::vector<const TensorDesc*> tensors;
    // kUint, kInt, kFloat, kBool: the member's 4 bytes in the low half; kUint64: all 8.
    uint64_t bits = 0;
    // kUintArray, kIntArray, kFloatArray: the elements' 4-byte patterns.
    std::vector<uint32_t> words;
    std::optional<DmlScaleBias> scale_bias;
    DmlSize2D size_2d;
    std::array<uint8_t, 8> scalar{};
    // kOperatorDesc: null when absent.
    std::shared_ptr<const DmlDesc> nested;
};

struct DmlDesc {
    // The DML_OPERATOR_ suffix: "ELEMENT_WISE_ADD1".
    std::string operator_name;
    std::vector<DmlField> fields;

    // Builders, one per kind, appending in call order (= DirectML's member order).
    DmlDesc& input(std::string name, const TensorDesc* tensor);
    DmlDesc& output(std::string name, const TensorDesc* tensor);
    DmlDesc& inputs(std::string name, std::vector<const TensorDesc*> tensors);
    DmlDesc& outputs(std::string name, std::vector<const TensorDesc*> tensors);
    DmlDesc& uint(std::string name, uint32_t value);
    DmlDesc& uint64(std::string name, uint64_t value);
    DmlDesc& int32(std::string name, int32_t value);
    DmlDesc& float32(std::string name, float value);
    DmlDesc& boolean(std::string name, bool value);
    DmlDesc& uint_array(std::string name, const std::vector<uint32_t>& values);
    DmlDesc& int_array(std::string name, const std::vector<int32_t>& values);
    DmlDesc& float_array(std::string name, const std::vector<float>& values);
    DmlDesc& scale_bias(std::string name, std::optional<DmlScaleBias> value);
    DmlDesc& size_2d(std::string name, DmlSize2D value);
    DmlDesc& scalar_union(std::string name, const std::array<uint8_t, 8>& bytes);
    DmlDesc& operator_desc(std::string name, std::shared_ptr<const DmlDesc> nested);
};

// "DML_OPERATOR_RESAMPLE (InterpolationMode 1, ScaleCount 4, Scales [1, 1, 2, 3])": every non-tensor member, for
// messages. Nested descs in parentheses after their name, absent ones "null".
std::string describe(const DmlDesc& desc);

// The tensors DirectML binds, in binding order (top-level fields only: a nested desc's tensors are never bound).
// Absent optional tensors are null entries: their binding is DML_BINDING_TYPE_NONE.
std::vector<const TensorDesc*> dml_bound_tensors(const DmlDesc& desc, TensorRole role);

}  // namespace dmltool
