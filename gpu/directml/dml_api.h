// The part of Microsoft's DirectML API that dmltool uses, declared from the documented facts (enum values, struct
// layouts, interface IIDs and vtable method order of DirectML 1.15 / DML_TARGET_VERSION 0x6400). Debian 12's
// DirectX-Headers package has no DirectML.h and we do not vendor it.
//
// Switch: with MSVC, or with DMLTOOL_USE_DIRECTML_H defined, the real <DirectML.h> (Windows SDK, or upstream
// DirectX-Headers' include/directx) is used instead; the rest of dmltool compiles unchanged against either.
//
// MinGW ABI trap (FINDINGS.md): a COM method returning a struct uses MSVC's convention, a hidden result pointer
// after `this`. IDMLDispatchable::GetBindingProperties is such a method; our declaration spells out that
// convention, and dml::binding_properties() is the one way dmltool calls it (it also handles the real header
// under MinGW, whose by-value declaration g++ would call wrongly).
#pragma once

#include "gpu/d3d12_platform.h"

// The DML_OPERATOR_TYPE values dmltool names (gpu/directml/dml_operator_desc.cpp maps names to them): the seed
// operators here, X(name without DML_OPERATOR_, value), and every DML_OPERATOR_ELEMENT_WISE_* / ACTIVATION_* type
// of DirectML 1.15 from the facts table's DMLTOOL_DML_OP rows (ops/element_wise/dml_facts.inc: one source of
// truth for those numbers).
#define DMLTOOL_DML_SEED_OPERATOR_TYPES(X)  \
    X(GEMM, 54)                             \
    X(AVERAGE_POOLING, 56)                  \
    X(SPLIT, 62)                            \
    X(JOIN, 63)                             \
    X(RESAMPLE, 96)                         \
    X(MAX_POOLING2, 110)                    \
    X(DEPTH_TO_SPACE1, 113)                 \
    X(QUANTIZED_LINEAR_MATRIX_MULTIPLY, 118) \
    X(QUANTIZED_LINEAR_CONVOLUTION, 120)    \
    X(AVERAGE_POOLING1, 166)                \
    X(QUANTIZED_LINEAR_AVERAGE_POOLING, 169)

#if defined(_MSC_VER) || defined(DMLTOOL_USE_DIRECTML_H)
#define DMLTOOL_REAL_DIRECTML_H 1
#ifndef DML_TARGET_VERSION
#define DML_TARGET_VERSION 0x6400
#endif
#include <DirectML.h>
#else
#define DMLTOOL_REAL_DIRECTML_H 0

// ---- Tensors ------------------------------------------------------------------------------------------------

enum DML_TENSOR_DATA_TYPE {
    DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    DML_TENSOR_DATA_TYPE_FLOAT32 = 1,
    DML_TENSOR_DATA_TYPE_FLOAT16 = 2,
    DML_TENSOR_DATA_TYPE_UINT32 = 3,
    DML_TENSOR_DATA_TYPE_UINT16 = 4,
    DML_TENSOR_DATA_TYPE_UINT8 = 5,
    DML_TENSOR_DATA_TYPE_INT32 = 6,
    DML_TENSOR_DATA_TYPE_INT16 = 7,
    DML_TENSOR_DATA_TYPE_INT8 = 8,
    DML_TENSOR_DATA_TYPE_FLOAT64 = 9,
    DML_TENSOR_DATA_TYPE_UINT64 = 10,
    DML_TENSOR_DATA_TYPE_INT64 = 11,
    DML_TENSOR_DATA_TYPE_UINT4 = 12,
    DML_TENSOR_DATA_TYPE_INT4 = 13,
};

enum DML_TENSOR_TYPE {
    DML_TENSOR_TYPE_INVALID = 0,
    DML_TENSOR_TYPE_BUFFER = 1,
};

enum DML_TENSOR_FLAGS {
    DML_TENSOR_FLAG_NONE = 0x0,
    DML_TENSOR_FLAG_OWNED_BY_DML = 0x1,
};
DEFINE_ENUM_FLAG_OPERATORS(DML_TENSOR_FLAGS)

struct DML_BUFFER_TENSOR_DESC {  // 48 bytes on x64
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT* Sizes;
    const UINT* Strides;  // may be null: packed
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
};

struct DML_TENSOR_DESC {
    DML_TENSOR_TYPE Type;
    const void* Desc;  // DML_BUFFER_TENSOR_DESC for DML_TENSOR_TYPE_BUFFER
};

// ---- Operators ----------------------------------------------------------------------------------------------

// DML_OPERATOR_TYPE: a plain int enum in DirectML.h, numbered in declaration order (DirectML 1.15 /
// DML_TARGET_VERSION 0x6400). Ours declares the values from DMLTOOL_DML_SEED_OPERATOR_TYPES (shared with the
// real header's build, where a static_assert checks each number) and the facts table.
enum DML_OPERATOR_TYPE {
    DML_OPERATOR_INVALID = 0,
#define DMLTOOL_DML_OPERATOR_ENUMERATOR(name, value) DML_OPERATOR_##name = value,
    DMLTOOL_DML_SEED_OPERATOR_TYPES(DMLTOOL_DML_OPERATOR_ENUMERATOR)
#undef DMLTOOL_DML_OPERATOR_ENUMERATOR
#define DMLTOOL_DML_OP(name, type_value, role, introduced_major, introduced_minor, in_place) \
    DML_OPERATOR_##name = type_value,
#include "ops/element_wise/dml_facts.inc"
};

enum DML_INTERPOLATION_MODE {
    DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR = 0,
    DML_INTERPOLATION_MODE_LINEAR = 1,
};

enum DML_DEPTH_SPACE_ORDER {
    DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW = 0,
    DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH = 1,
};

struct DML_OPERATOR_DESC {
    DML_OPERATOR_TYPE Type;
    const void* Desc;
};

// Member types of operator descs (gpu/directml lays descs out from core/dml_desc.h's fields; these give the
// layout tests the compiler's own answer).
struct DML_SCALE_BIAS {
    FLOAT Scale;
    FLOAT Bias;
};

struct DML_SIZE_2D {
    UINT Width;
    UINT Height;
};

union DML_SCALAR_UNION {
    BYTE Bytes[8];
    INT8 Int8;
    UINT8 UInt8;
    INT16 Int16;
    UINT16 UInt16;
    INT32 Int32;
    UINT32 UInt32;
    INT64 Int64;
    UINT64 UInt64;
    FLOAT Float32;
    double Float64;
};

// A few element-wise and activation descs, one per shape of member list (the backend does not need them: the
// layout tests do).
struct DML_ELEMENT_WISE_ADD1_OPERATOR_DESC {
    const DML_TENSOR_DESC* ATensor;
    const DML_TENSOR_DESC* BTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_OPERATOR_DESC* FusedActivation;  // optional (null); its own tensors are null
};

struct DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_SCALE_BIAS* ScaleBias;  // optional
    FLOAT Exponent;
};

struct DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_SCALE_BIAS* ScaleBias;  // optional
    DML_TENSOR_DATA_TYPE MinMaxDataType;
    DML_SCALAR_UNION Min;
    DML_SCALAR_UNION Max;
};

struct DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC {
    const DML_TENSOR_DESC* ATensor;
    const DML_TENSOR_DESC* AScaleTensor;
    const DML_TENSOR_DESC* AZeroPointTensor;  // optional
    const DML_TENSOR_DESC* BTensor;
    const DML_TENSOR_DESC* BScaleTensor;
    const DML_TENSOR_DESC* BZeroPointTensor;  // optional
    const DML_TENSOR_DESC* OutputScaleTensor;  // an input
    const DML_TENSOR_DESC* OutputZeroPointTensor;  // an input, optional
    const DML_TENSOR_DESC* OutputTensor;
};

struct DML_ACTIVATION_LINEAR_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    FLOAT Alpha;
    FLOAT Beta;
};

struct DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT AxisCount;
    const UINT* Axes;
};

struct DML_SPLIT_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    UINT OutputCount;
    const DML_TENSOR_DESC* OutputTensors;  // OutputCount of them
    UINT Axis;
};

struct DML_RESAMPLE_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    DML_INTERPOLATION_MODE InterpolationMode;
    UINT ScaleCount;
    const FLOAT* Scales;
};

struct DML_DEPTH_TO_SPACE1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT BlockSize;
    DML_DEPTH_SPACE_ORDER Order;
};

struct DML_JOIN_OPERATOR_DESC {
    UINT InputCount;
    const DML_TENSOR_DESC* InputTensors;  // InputCount of them
    const DML_TENSOR_DESC* OutputTensor;
    UINT Axis;
};

enum DML_MATRIX_TRANSFORM {
    DML_MATRIX_TRANSFORM_NONE = 0,
    DML_MATRIX_TRANSFORM_TRANSPOSE = 1,
};

struct DML_GEMM_OPERATOR_DESC {
    const DML_TENSOR_DESC* ATensor;
    const DML_TENSOR_DESC* BTensor;
    const DML_TENSOR_DESC* CTensor;  // optional
    const DML_TENSOR_DESC* OutputTensor;
    DML_MATRIX_TRANSFORM TransA;
    DML_MATRIX_TRANSFORM TransB;
    FLOAT Alpha;
    FLOAT Beta;
    const DML_OPERATOR_DESC* FusedActivation;  // optional
};

struct DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC {
    const DML_TENSOR_DESC* ATensor;
    const DML_TENSOR_DESC* AScaleTensor;
    const DML_TENSOR_DESC* AZeroPointTensor;  // optional
    const DML_TENSOR_DESC* BTensor;
    const DML_TENSOR_DESC* BScaleTensor;
    const DML_TENSOR_DESC* BZeroPointTensor;  // optional
    const DML_TENSOR_DESC* OutputScaleTensor;
    const DML_TENSOR_DESC* OutputZeroPointTensor;  // optional
    const DML_TENSOR_DESC* OutputTensor;
};

struct DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* InputScaleTensor;
    const DML_TENSOR_DESC* InputZeroPointTensor;   // optional (null)
    const DML_TENSOR_DESC* FilterTensor;
    const DML_TENSOR_DESC* FilterScaleTensor;
    const DML_TENSOR_DESC* FilterZeroPointTensor;  // optional
    const DML_TENSOR_DESC* BiasTensor;             // optional
    const DML_TENSOR_DESC* OutputScaleTensor;
    const DML_TENSOR_DESC* OutputZeroPointTensor;  // optional
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* Dilations;
    const UINT* StartPadding;
    const UINT* EndPadding;
    UINT GroupCount;
};

struct DML_AVERAGE_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    BOOL IncludePadding;
};

struct DML_MAX_POOLING2_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    const DML_TENSOR_DESC* OutputIndicesTensor;  // optional (null)
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    const UINT* Dilations;
};

struct DML_AVERAGE_POOLING1_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    const UINT* Dilations;
    BOOL IncludePadding;
};

struct DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC {
    const DML_TENSOR_DESC* InputTensor;
    const DML_TENSOR_DESC* InputScaleTensor;
    const DML_TENSOR_DESC* InputZeroPointTensor;   // optional (null)
    const DML_TENSOR_DESC* OutputScaleTensor;
    const DML_TENSOR_DESC* OutputZeroPointTensor;  // optional (null)
    const DML_TENSOR_DESC* OutputTensor;
    UINT DimensionCount;
    const UINT* Strides;
    const UINT* WindowSize;
    const UINT* StartPadding;
    const UINT* EndPadding;
    const UINT* Dilations;
    BOOL IncludePadding;
};

// ---- Device, features, execution ------------------------------------------------------------------------

enum DML_FEATURE_LEVEL {
    DML_FEATURE_LEVEL_1_0 = 0x1000,
    DML_FEATURE_LEVEL_2_0 = 0x2000,
    DML_FEATURE_LEVEL_2_1 = 0x2100,
    DML_FEATURE_LEVEL_3_0 = 0x3000,
    DML_FEATURE_LEVEL_3_1 = 0x3100,
    DML_FEATURE_LEVEL_4_0 = 0x4000,
    DML_FEATURE_LEVEL_4_1 = 0x4100,
    DML_FEATURE_LEVEL_5_0 = 0x5000,
    DML_FEATURE_LEVEL_5_1 = 0x5100,
    DML_FEATURE_LEVEL_5_2 = 0x5200,
    DML_FEATURE_LEVEL_6_0 = 0x6000,
    DML_FEATURE_LEVEL_6_1 = 0x6100,
    DML_FEATURE_LEVEL_6_2 = 0x6200,
    DML_FEATURE_LEVEL_6_3 = 0x6300,
    DML_FEATURE_LEVEL_6_4 = 0x6400,
};

enum DML_FEATURE {
    DML_FEATURE_TENSOR_DATA_TYPE_SUPPORT = 0,
    DML_FEATURE_FEATURE_LEVELS = 1,
};

struct DML_FEATURE_QUERY_FEATURE_LEVELS {
    UINT RequestedFeatureLevelCount;
    const DML_FEATURE_LEVEL* RequestedFeatureLevels;
};

struct DML_FEATURE_DATA_FEATURE_LEVELS {
    DML_FEATURE_LEVEL MaxSupportedFeatureLevel;
};

enum DML_EXECUTION_FLAGS {
    DML_EXECUTION_FLAG_NONE = 0,
    DML_EXECUTION_FLAG_ALLOW_HALF_PRECISION_COMPUTATION = 0x1,
    DML_EXECUTION_FLAG_DISABLE_META_COMMANDS = 0x2,
    DML_EXECUTION_FLAG_DESCRIPTORS_VOLATILE = 0x4,
};
DEFINE_ENUM_FLAG_OPERATORS(DML_EXECUTION_FLAGS)

enum DML_CREATE_DEVICE_FLAGS {
    DML_CREATE_DEVICE_FLAG_NONE = 0,
    DML_CREATE_DEVICE_FLAG_DEBUG = 0x1,
};
DEFINE_ENUM_FLAG_OPERATORS(DML_CREATE_DEVICE_FLAGS)

struct IDMLDispatchable;
struct IDMLOperator;
struct IDMLCompiledOperator;
struct IDMLPageable;

struct DML_BINDING_TABLE_DESC {
    IDMLDispatchable* Dispatchable;
    D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle;
    D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle;
    UINT SizeInDescriptors;
};

struct DML_BINDING_PROPERTIES {
    UINT RequiredDescriptorCount;
    UINT64 TemporaryResourceSize;
    UINT64 PersistentResourceSize;
};

enum DML_BINDING_TYPE {
    DML_BINDING_TYPE_NONE = 0,
    DML_BINDING_TYPE_BUFFER = 1,
    DML_BINDING_TYPE_BUFFER_ARRAY = 2,
};

struct DML_BINDING_DESC {
    DML_BINDING_TYPE Type;
    const void* Desc;  // DML_BUFFER_BINDING for DML_BINDING_TYPE_BUFFER; null for NONE
};

struct DML_BUFFER_BINDING {
    ID3D12Resource* Buffer;
    UINT64 Offset;
    UINT64 SizeInBytes;
};

// ---- Interfaces, in vtable order (IUnknown: QueryInterface, AddRef, Release) ---------------------------------

// c8263aac-9e0c-4a2d-9b8e-007521a3317c
struct IDMLObject : public IUnknown {
    virtual HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* dataSize, void* data) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT dataSize, const void* data) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid, IUnknown* data) = 0;
    virtual HRESULT STDMETHODCALLTYPE SetName(PCWSTR name) = 0;
};

// 6dbd6437-96fd-423f-a98c-ae5e7c2a573f
struct IDMLDevice : public IDMLObject {
    virtual HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DML_FEATURE feature, UINT featureQueryDataSize,
                                                          const void* featureQueryData, UINT featureSupportDataSize,
                                                          void* featureSupportData) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateOperator(const DML_OPERATOR_DESC* desc, REFIID riid, void** ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CompileOperator(IDMLOperator* op, DML_EXECUTION_FLAGS flags, REFIID riid,
                                                      void** ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateOperatorInitializer(UINT operatorCount,
                                                                IDMLCompiledOperator* const* operators, REFIID riid,
                                                                void** ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateCommandRecorder(REFIID riid, void** ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE CreateBindingTable(const DML_BINDING_TABLE_DESC* desc, REFIID riid,
                                                         void** ppv) = 0;
    virtual HRESULT STDMETHODCALLTYPE Evict(UINT count, IDMLPageable* const* objects) = 0;
    virtual HRESULT STDMETHODCALLTYPE MakeResident(UINT count, IDMLPageable* const* objects) = 0;
    virtual HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() = 0;
    virtual HRESULT STDMETHODCALLTYPE GetParentDevice(REFIID riid, void** ppv) = 0;
};

// 27e83142-8165-49e3-974e-2fd66e4cb69d
struct IDMLDeviceChild : public IDMLObject {
    virtual HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** ppv) = 0;
};

// b1ab0825-4542-4a4b-8617-6dde6e8f6201
struct IDMLPageable : public IDMLDeviceChild {};

// 26caae7a-3081-4633-9581-226fbe57695d
struct IDMLOperator : public IDMLDeviceChild {};

// dcb821a8-1039-441e-9f1c-b1759c2f3cec. Vtable slot 8 (IUnknown 3 + IDMLObject 4 + IDMLDeviceChild 1).
struct IDMLDispatchable : public IDMLPageable {
    // MSVC's convention for a struct result, spelled out (see the top of this file).
    virtual DML_BINDING_PROPERTIES* STDMETHODCALLTYPE GetBindingProperties(DML_BINDING_PROPERTIES* result) = 0;
};

// 6b15e56a-bf5c-4902-92d8-da3a650afea4
struct IDMLCompiledOperator : public IDMLDispatchable {};

// 427c1113-435c-469c-8676-4d5dd072f813
struct IDMLOperatorInitializer : public IDMLDispatchable {
    virtual HRESULT STDMETHODCALLTYPE Reset(UINT operatorCount, IDMLCompiledOperator* const* operators) = 0;
};

// 29c687dc-de74-4e3b-ab00-1168f2fc3cfc
struct IDMLBindingTable : public IDMLDeviceChild {
    virtual void STDMETHODCALLTYPE BindInputs(UINT bindingCount, const DML_BINDING_DESC* bindings) = 0;
    virtual void STDMETHODCALLTYPE BindOutputs(UINT bindingCount, const DML_BINDING_DESC* bindings) = 0;
    virtual void STDMETHODCALLTYPE BindTemporaryResource(const DML_BINDING_DESC* binding) = 0;
    virtual void STDMETHODCALLTYPE BindPersistentResource(const DML_BINDING_DESC* binding) = 0;
    virtual HRESULT STDMETHODCALLTYPE Reset(const DML_BINDING_TABLE_DESC* desc) = 0;
};

// e6857a76-2e3e-4fdd-bff4-5d2ba10fb453
struct IDMLCommandRecorder : public IDMLDeviceChild {
    virtual void STDMETHODCALLTYPE RecordDispatch(ID3D12CommandList* commandList, IDMLDispatchable* dispatchable,
                                                  IDMLBindingTable* bindings) = 0;
};

// 7d6f3ac9-394a-4ac3-92a7-390cc57a8217
struct IDMLDebugDevice : public IUnknown {
    virtual void STDMETHODCALLTYPE SetMuteDebugOutput(BOOL mute) = 0;
};

#endif  // own declarations

// ---- What both variants share ------------------------------------------------------------------------------

// DMLCreateDevice1 (exported by DirectML.dll; looked up with GetProcAddress, never linked).
using PFN_DMLTOOL_DML_CREATE_DEVICE1 = HRESULT(STDAPICALLTYPE*)(ID3D12Device* d3d12Device,
                                                               DML_CREATE_DEVICE_FLAGS flags,
                                                               DML_FEATURE_LEVEL minimumFeatureLevel, REFIID riid,
                                                               void** ppv);

// Our DML_OPERATOR_TYPE numbers; with the real header this checks them against DirectML.h's.
#define DMLTOOL_DML_OPERATOR_VALUE_CHECK(name, value) \
    static_assert(DML_OPERATOR_##name == value, "DML_OPERATOR_" #name " is not " #value);
DMLTOOL_DML_SEED_OPERATOR_TYPES(DMLTOOL_DML_OPERATOR_VALUE_CHECK)
#undef DMLTOOL_DML_OPERATOR_VALUE_CHECK
#define DMLTOOL_DML_OP(name, type_value, role, introduced_major, introduced_minor, in_place) \
    static_assert(DML_OPERATOR_##name == type_value, "DML_OPERATOR_" #name " is not " #type_value);
#include "ops/element_wise/dml_facts.inc"

// Layouts on x64, as DirectML.dll reads them (measured against the real header with MinGW; the same asserts hold
// for either variant).
static_assert(sizeof(void*) != 8 || sizeof(DML_BUFFER_TENSOR_DESC) == 48, "DML_BUFFER_TENSOR_DESC layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC) == 128, "QLConv desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_RESAMPLE_OPERATOR_DESC) == 32, "DML_RESAMPLE_OPERATOR_DESC layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_SPLIT_OPERATOR_DESC) == 32, "DML_SPLIT_OPERATOR_DESC layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_DEPTH_TO_SPACE1_OPERATOR_DESC) == 24, "DEPTH_TO_SPACE1 desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_JOIN_OPERATOR_DESC) == 32, "DML_JOIN_OPERATOR_DESC layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_GEMM_OPERATOR_DESC) == 56, "DML_GEMM_OPERATOR_DESC layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC) == 72, "QLMM desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_AVERAGE_POOLING_OPERATOR_DESC) == 64, "AVERAGE_POOLING desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_MAX_POOLING2_OPERATOR_DESC) == 72, "MAX_POOLING2 desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_AVERAGE_POOLING1_OPERATOR_DESC) == 72, "AVERAGE_POOLING1 desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC) == 104, "QLAP desc");
static_assert(sizeof(void*) != 8 || sizeof(DML_BINDING_PROPERTIES) == 24, "DML_BINDING_PROPERTIES layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_BINDING_TABLE_DESC) == 32, "DML_BINDING_TABLE_DESC layout");
static_assert(sizeof(void*) != 8 || sizeof(DML_BUFFER_BINDING) == 24, "DML_BUFFER_BINDING layout");
static_assert(sizeof(DML_SCALAR_UNION) == 8 && alignof(DML_SCALAR_UNION) == 8, "DML_SCALAR_UNION layout");
static_assert(sizeof(DML_SCALE_BIAS) == 8 && sizeof(DML_SIZE_2D) == 8, "DML_SCALE_BIAS, DML_SIZE_2D layout");

namespace dmltool::gpu::dml {

// Interface IDs, independent of how a compiler implements __uuidof.
template <typename Interface>
constexpr GUID iid_of();
#define DMLTOOL_DML_IID(Interface, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    template <>                                                                \
    constexpr GUID iid_of<Interface>() {                                       \
        return GUID{l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}};              \
    }
DMLTOOL_DML_IID(IDMLDevice, 0x6dbd6437, 0x96fd, 0x423f, 0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57, 0x3f)
DMLTOOL_DML_IID(IDMLOperator, 0x26caae7a, 0x3081, 0x4633, 0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69, 0x5d)
DMLTOOL_DML_IID(IDMLCompiledOperator, 0x6b15e56a, 0xbf5c, 0x4902, 0x92, 0xd8, 0xda, 0x3a, 0x65, 0x0a, 0xfe, 0xa4)
DMLTOOL_DML_IID(IDMLOperatorInitializer, 0x427c1113, 0x435c, 0x469c, 0x86, 0x76, 0x4d, 0x5d, 0xd0, 0x72, 0xf8, 0x13)
DMLTOOL_DML_IID(IDMLBindingTable, 0x29c687dc, 0xde74, 0x4e3b, 0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc, 0x3c, 0xfc)
DMLTOOL_DML_IID(IDMLCommandRecorder, 0xe6857a76, 0x2e3e, 0x4fdd, 0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f, 0xb4, 0x53)
DMLTOOL_DML_IID(IDMLDebugDevice, 0x7d6f3ac9, 0x394a, 0x4ac3, 0x92, 0xa7, 0x39, 0x0c, 0xc5, 0x7a, 0x82, 0x17)
#undef DMLTOOL_DML_IID

// IDMLDispatchable::GetBindingProperties, called with the convention DirectML.dll implements.
inline DML_BINDING_PROPERTIES binding_properties(IDMLDispatchable* dispatchable) {
    DML_BINDING_PROPERTIES result{};
#if defined(_MSC_VER)
    result = dispatchable->GetBindingProperties();
#elif DMLTOOL_REAL_DIRECTML_H
    // The real header declares it by value, which g++ returns in registers: call vtable slot 8 instead.
    using Function = DML_BINDING_PROPERTIES*(STDMETHODCALLTYPE*)(IDMLDispatchable*, DML_BINDING_PROPERTIES*);
    void** vtable = *reinterpret_cast<void***>(dispatchable);
    reinterpret_cast<Function>(vtable[8])(dispatchable, &result);
#else
    dispatchable->GetBindingProperties(&result);
#endif
    return result;
}

}  // namespace dmltool::gpu::dml
