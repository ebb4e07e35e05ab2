// DmlOperatorDesc: a validated case's desc (ops/*'s OpDesc, the one desc model) as the DML_*_OPERATOR_DESC that
// DirectML.dll reads, with every struct and array it points to owned here. The operator says what the members
// are (Op::dml_desc, core/dml_desc.h: one field per C member, in DirectML's order); this class lays them out
// with the x64 struct rules (dml_struct_layout.h) and knows no operator: optional tensors the case omits are
// null, Strides and TotalTensorSizeInBytes are the case's (strides null when the case gave none), nested
// operator descs (FusedActivation) are built the same way, and the tensor bindings follow the top-level tensor
// members' order, which must be the op's slot order (checked).
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dml_desc.h"
#include "core/op.h"
#include "core/status.h"
#include "gpu/directml/dml_api.h"

namespace dmltool::gpu::dml {

DML_TENSOR_DATA_TYPE to_dml(DataType type);

// DML_OPERATOR_TYPE of "ELEMENT_WISE_ADD1" (dml_api.h: the seed operators and the facts table's element-wise and activation types); nullopt for a name it
// does not list.
std::optional<DML_OPERATOR_TYPE> operator_type(std::string_view name);

class DmlOperatorDesc {
public:
    // kUnsupported for an operator without a DML desc (the message names it).
    static Result<std::unique_ptr<DmlOperatorDesc>> build(const Op& op, const OpDesc& desc);
    // From a field list directly. The tensors it points to must outlive the result.
    static Result<std::unique_ptr<DmlOperatorDesc>> from_fields(DmlDesc fields);

    DmlOperatorDesc(const DmlOperatorDesc&) = delete;
    DmlOperatorDesc& operator=(const DmlOperatorDesc&) = delete;

    const DML_OPERATOR_DESC& desc() const { return *operator_desc_; }
    // One entry per DML tensor member in binding order (inputs, then outputs); null for absent optional tensors.
    const std::vector<const DML_BUFFER_TENSOR_DESC*>& input_tensors() const { return input_tensors_; }
    const std::vector<const DML_BUFFER_TENSOR_DESC*>& output_tensors() const { return output_tensors_; }
    // "DML_OPERATOR_RESAMPLE (InterpolationMode 1, ScaleCount 4, Scales [1, 1, 2, 3])" for messages.
    std::string summary() const { return summary_; }

private:
    DmlOperatorDesc() = default;
    // Lays out one desc (recursively its nested ones); `bind` collects the tensors DirectML binds (top level only).
    Result<const DML_OPERATOR_DESC*> encode(const DmlDesc& fields, bool bind);
    // One DML_BUFFER_TENSOR_DESC per tensor; the returned pointers stay valid.
    DML_TENSOR_DESC add_tensor(const TensorDesc& tensor);

    struct TensorStorage {
        std::vector<UINT> sizes, strides;
        DML_BUFFER_TENSOR_DESC buffer{};
    };
    DmlDesc fields_;
    std::deque<TensorStorage> tensors_;
    std::deque<DML_TENSOR_DESC> tensor_descs_;             // what single tensor members point to
    std::deque<std::vector<DML_TENSOR_DESC>> tensor_arrays_;  // what tensor array members point to
    std::deque<std::vector<uint32_t>> arrays_;               // UINT / INT / FLOAT arrays, as 4-byte words
    std::deque<DML_SCALE_BIAS> scale_biases_;
    std::deque<std::vector<uint64_t>> structs_;              // the operator descs' bytes, 8-aligned
    std::deque<DML_OPERATOR_DESC> operator_descs_;
    const DML_OPERATOR_DESC* operator_desc_ = nullptr;
    std::vector<const DML_BUFFER_TENSOR_DESC*> input_tensors_, output_tensors_;
    std::string summary_;
};

}  // namespace dmltool::gpu::dml
