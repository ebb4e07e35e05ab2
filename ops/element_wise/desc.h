// The element-wise and activation families (DML_OPERATOR_ELEMENT_WISE_* and DML_OPERATOR_ACTIVATION_*): one generic
// desc model for every operator type of both families. A table row (FunctionSpec) says which members the DirectML
// desc has, in DirectML's member order (DirectMLSchema.h), and what the function computes; the parsed desc
// (ElementWiseDesc) holds the tensors and attribute values of one case in that same order.
//
// Shared by the engine (parsing, CPU reference, error bounds, generate: ops/element_wise/*.cpp), our D3D12 kernels
// (ops/element_wise/kernel*.cpp: plan_element_wise) and the DirectML binding (Op::dml_desc from the member list).
//
// Broadcasting is DirectML's: every tensor of an element-wise desc has the output's Sizes, and an input broadcasts
// through its own Strides (0 on a dimension repeats it). Logical tensors (HostTensor) therefore share the output's
// shape: the reference reads input element i for output element i, and only the physical layout (to_physical,
// the kernels' addressing below) sees the strides.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/feature_level.h"
#include "core/json_reader.h"
#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::ops::element_wise {

// What a desc member is (DirectMLSchema.h's field kinds and types, as this family uses them).
enum class MemberKind : uint8_t {
    kInputTensor,      // const DML_TENSOR_DESC*  (optional ones may be null)
    kOutputTensor,     // const DML_TENSOR_DESC*
    kScaleBias,        // const DML_SCALE_BIAS*   (always optional)
    kFusedActivation,  // const DML_OPERATOR_DESC* (always optional; an activation row without tensors)
    kFloat,            // FLOAT
    kUint,             // UINT
    kInt,              // INT
    kBool,             // BOOL (a 4-byte int in DirectML's struct)
    kDataType,         // DML_TENSOR_DATA_TYPE (e.g. CLIP1's MinMaxDataType)
    kScalarUnion,      // DML_SCALAR_UNION (8 bytes) whose type is the kDataType member named by `related`
    kEnum,             // a DirectML enum (UINT-sized): DML_ROUNDING_MODE, DML_IS_INFINITY_MODE, ...
    kArrayCount,       // UINT: the element count of the kUintArray member named by `related` (SOFTMAX1's AxisCount)
    kUintArray,        // const UINT* of `related`'s count elements (SOFTMAX1's Axes); `related` = its count member
};

bool is_tensor(MemberKind kind);     // kInputTensor, kOutputTensor
bool is_attribute(MemberKind kind);  // kFloat .. kUintArray except kArrayCount (a count is implied by its array)

struct MemberSpec {
    MemberKind kind;
    std::string_view name;  // DirectML's member name: "ATensor", "ScaleBias", "MinMaxDataType", "Axes"
    bool optional = false;
    // kEnum: the enum's name prefix ("DML_ROUNDING_MODE_") and its values (suffix + number).
    std::string_view enum_prefix = {};
    std::span<const EnumName> enum_names = {};
    // kScalarUnion: its kDataType member; kArrayCount: its array; kUintArray: its count member.
    std::string_view related = {};
};

// DML_SCALE_BIAS: the input is x * Scale + Bias before the function (y = f(x * Scale + Bias)).
struct ScaleBias {
    float scale = 1.0f;
    float bias = 0.0f;
};

// DML_SCALAR_UNION: 8 raw bytes read as `type` (the desc's kDataType member), little-endian like DirectML's union.
struct ScalarUnion {
    DataType type = DataType::kFloat32;
    std::array<std::byte, 8> bytes{};

    double as_double() const;    // any type (64-bit integers above 2^53 lose precision)
    int64_t as_int64() const;    // integer types (UINT64 above INT64_MAX wraps)
    static ScalarUnion of_double(DataType type, double value);  // value must be representable (integers: in range)
};

// One attribute's value, in its member's kind. Only the field of that kind is meaningful.
struct AttributeValue {
    const MemberSpec* member = nullptr;
    float float_value = 0;               // kFloat
    uint32_t uint_value = 0;             // kUint, kEnum (the enum's number), kBool (0/1)
    int32_t int_value = 0;               // kInt
    DataType data_type = DataType::kUnknown;  // kDataType
    ScalarUnion scalar;                  // kScalarUnion
    std::vector<uint32_t> uint_array;    // kUintArray (its count member has no value of its own)
};

struct FunctionSpec;

// A fused activation (DML_OPERATOR_DESC* FusedActivation): an ACTIVATION_* row applied to the result, with its own
// attribute values and no tensors (DirectML requires its tensor members null).
struct FusedActivation {
    const FunctionSpec* function = nullptr;
    std::vector<AttributeValue> attributes;  // one per is_attribute member of function->members, in member order
};

// The function's math, error bound and kernel body: defined by the engine (ops/element_wise/function_math.h); an
// opaque pointer here so that the desc model stays small and stable for its users.
struct FunctionMath;

// One operator type of the families: a table row. Its members, feature levels, same-type/same-size groups, formula
// and fusability come from the DirectML facts (ops/element_wise/dml_facts.inc, spec_from_facts in engine.h); the
// rows of functions.cpp / ops/activation/functions.cpp add the math and the kernel body.
struct FunctionSpec {
    std::string_view name;                // DML_OPERATOR_ suffix: "ELEMENT_WISE_ADD1", "ACTIVATION_RELU"
    std::vector<MemberSpec> members;      // every desc member in DirectML's order
    FeatureLevelTable feature_levels;     // the docs page's tensor-support table (keys: tensor member names)
    // Tensors (member names) whose data types must all be equal (DirectML: "must have the same DataType"); further
    // groups, e.g. a quantized tensor and its zero point, as more entries.
    std::vector<std::vector<std::string_view>> same_type_groups;
    // Tensors whose Sizes must be equal (for element-wise descs: every tensor; broadcast is by Strides).
    std::vector<std::vector<std::string_view>> same_sizes_groups;
    std::string_view formula;  // what the docs say it computes, in our notation (dml_facts.inc)
    bool fusable = false;      // an activation that ELEMENT_WISE_ADD1 may fuse (FusedActivation)
    // Our kernels' function body (ew-kernels' emitter looks it up): rows that compute the same function share it
    // ("ADD" for ELEMENT_WISE_ADD and ELEMENT_WISE_ADD1).
    std::string_view kernel_body;
    const FunctionMath* math = nullptr;

    const MemberSpec* member(std::string_view member_name) const;
    size_t input_count() const;      // kInputTensor members, optional ones included
    size_t attribute_count() const;  // is_attribute members
    bool has_scale_bias() const;
    bool has_fused_activation() const;
};

// A parsed desc of any row.
struct ElementWiseDesc final : OpDesc {
    const FunctionSpec* function = nullptr;
    // One per kInputTensor member, in member order; an optional input the case omits is nullopt.
    std::vector<std::optional<TensorDesc>> inputs;
    TensorDesc output;
    std::optional<ScaleBias> scale_bias;         // rows with a ScaleBias member, when the case gives it
    std::vector<AttributeValue> attributes;      // one per is_attribute member, in member order
    std::optional<FusedActivation> fused_activation;

    // The input / attribute of that member name; null when the row has no such member (or the input is absent).
    const TensorDesc* input(std::string_view member_name) const;
    const AttributeValue* attribute(std::string_view member_name) const;
};

// Element offset (in elements, from the buffer's start) of the element at `coordinates` (the output's logical
// coordinates, one per dimension) in a tensor with `desc`'s strides: broadcast dimensions have stride 0.
inline uint64_t strided_element_offset(const TensorDesc& desc, const uint32_t* coordinates) {
    const Dims strides = desc.effective_strides();
    uint64_t offset = 0;
    for (size_t d = 0; d < strides.size(); ++d) offset += uint64_t(coordinates[d]) * strides[d];
    return offset;
}

}  // namespace dmltool::ops::element_wise
