// DmlOperatorDesc: a validated case's desc (ops/*'s OpDesc, the one desc model) as the DML_*_OPERATOR_DESC that
// DirectML.dll reads, with every array it points to owned here. Member for member: optional tensors the case
// omits are null, Strides and TotalTensorSizeInBytes are the case's (strides null when the case gave none), and
// the tensor bindings follow the op's slot order, which is the DML desc's member order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/op.h"
#include "core/status.h"
#include "gpu/directml/dml_api.h"

namespace dmltool::gpu::dml {

DML_TENSOR_DATA_TYPE to_dml(DataType type);

class DmlOperatorDesc {
public:
    // kUnsupported for an operator this backend does not know (the message names it).
    static Result<std::unique_ptr<DmlOperatorDesc>> build(const Op& op, const OpDesc& desc);

    DmlOperatorDesc(const DmlOperatorDesc&) = delete;
    DmlOperatorDesc& operator=(const DmlOperatorDesc&) = delete;

    const DML_OPERATOR_DESC& desc() const { return operator_desc_; }
    // One entry per DML tensor member in binding order (inputs, then outputs); null for absent optional tensors.
    const std::vector<const DML_BUFFER_TENSOR_DESC*>& input_tensors() const { return input_tensors_; }
    const std::vector<const DML_BUFFER_TENSOR_DESC*>& output_tensors() const { return output_tensors_; }
    // "DML_OPERATOR_RESAMPLE: InterpolationMode 1, ScaleCount 4, ..." for messages.
    std::string summary() const { return summary_; }

private:
    DmlOperatorDesc() = default;
    // Stores one tensor; the returned pointer stays valid (storage is a deque-like list of unique_ptrs).
    const DML_TENSOR_DESC* add_tensor(const TensorDesc* tensor, TensorRole role);
    const UINT* add_array(const std::vector<uint32_t>& values);

    struct TensorStorage {
        std::vector<UINT> sizes, strides;
        DML_BUFFER_TENSOR_DESC buffer{};
        DML_TENSOR_DESC tensor{};
    };
    std::vector<std::unique_ptr<TensorStorage>> tensors_;
    std::vector<std::unique_ptr<std::vector<UINT>>> arrays_;
    std::vector<DML_TENSOR_DESC> split_outputs_;
    std::vector<FLOAT> scales_;
    std::vector<const DML_BUFFER_TENSOR_DESC*> input_tensors_, output_tensors_;
    DML_SPLIT_OPERATOR_DESC split_{};
    DML_RESAMPLE_OPERATOR_DESC resample_{};
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space_{};
    DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC convolution_{};
    DML_OPERATOR_DESC operator_desc_{};
    std::string summary_;
};

}  // namespace dmltool::gpu::dml
