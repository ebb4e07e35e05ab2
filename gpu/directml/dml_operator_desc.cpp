#include "gpu/directml/dml_operator_desc.h"

#include <cstdio>

#include "ops/depth_to_space1/depth_to_space1.h"
#include "ops/quantized_linear_convolution/quantized_linear_convolution.h"
#include "ops/resample/desc.h"
#include "ops/split/split.h"

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

const UINT* DmlOperatorDesc::add_array(const std::vector<uint32_t>& values) {
    arrays_.push_back(std::make_unique<std::vector<UINT>>(values.begin(), values.end()));
    return arrays_.back()->data();
}

const DML_TENSOR_DESC* DmlOperatorDesc::add_tensor(const TensorDesc* tensor, TensorRole role) {
    auto& list = role == TensorRole::kInput ? input_tensors_ : output_tensors_;
    if (!tensor) {
        list.push_back(nullptr);
        return nullptr;
    }
    auto storage = std::make_unique<TensorStorage>();
    storage->sizes.assign(tensor->sizes.begin(), tensor->sizes.end());
    if (tensor->strides) storage->strides.assign(tensor->strides->begin(), tensor->strides->end());
    DML_BUFFER_TENSOR_DESC& b = storage->buffer;
    b.DataType = to_dml(tensor->data_type);
    b.Flags = static_cast<DML_TENSOR_FLAGS>(tensor->flags);
    b.DimensionCount = tensor->rank();
    b.Sizes = storage->sizes.data();
    b.Strides = tensor->strides ? storage->strides.data() : nullptr;
    b.TotalTensorSizeInBytes = tensor->total_size_in_bytes;
    b.GuaranteedBaseOffsetAlignment = tensor->guaranteed_base_offset_alignment;
    storage->tensor.Type = DML_TENSOR_TYPE_BUFFER;
    storage->tensor.Desc = &storage->buffer;
    list.push_back(&storage->buffer);
    tensors_.push_back(std::move(storage));
    return &tensors_.back()->tensor;
}

Result<std::unique_ptr<DmlOperatorDesc>> DmlOperatorDesc::build(const Op& op, const OpDesc& desc) {
    std::unique_ptr<DmlOperatorDesc> d(new DmlOperatorDesc());
    const std::vector<TensorSlot> slots = op.tensors(desc);
    std::vector<const DML_TENSOR_DESC*> t;  // one per slot, in slot order
    for (const TensorSlot& slot : slots) {
        if (slot.role == TensorRole::kOutput && op.name() == "SPLIT") {
            // Split's outputs are one array of DML_TENSOR_DESC, not pointers: filled below.
            d->add_tensor(slot.desc, slot.role);
            t.push_back(nullptr);
            continue;
        }
        t.push_back(d->add_tensor(slot.desc, slot.role));
    }
    const std::string_view name = op.name();
    char text[256];
    if (const auto* s = dynamic_cast<const ops::split::SplitDesc*>(&desc); s && name == "SPLIT") {
        for (size_t i = 1; i < d->tensors_.size(); ++i) d->split_outputs_.push_back(d->tensors_[i]->tensor);
        d->split_ = {t[0], UINT(d->split_outputs_.size()), d->split_outputs_.data(), s->axis};
        d->operator_desc_ = {DML_OPERATOR_SPLIT, &d->split_};
        std::snprintf(text, sizeof text, "DML_OPERATOR_SPLIT (OutputCount %u, Axis %u)", d->split_.OutputCount,
                      s->axis);
    } else if (const auto* r = dynamic_cast<const ops::resample::ResampleDesc*>(&desc); r && name == "RESAMPLE") {
        d->scales_.assign(r->scales.begin(), r->scales.end());
        d->resample_ = {t[0], t[1], static_cast<DML_INTERPOLATION_MODE>(r->mode), UINT(d->scales_.size()),
                        d->scales_.data()};
        d->operator_desc_ = {DML_OPERATOR_RESAMPLE, &d->resample_};
        std::snprintf(text, sizeof text, "DML_OPERATOR_RESAMPLE (InterpolationMode %u, ScaleCount %u)",
                      unsigned(r->mode), d->resample_.ScaleCount);
    } else if (const auto* s2d = dynamic_cast<const ops::depth_to_space1::DepthToSpace1Desc*>(&desc);
               s2d && name == "DEPTH_TO_SPACE1") {
        d->depth_to_space_ = {t[0], t[1], s2d->block_size, static_cast<DML_DEPTH_SPACE_ORDER>(s2d->order)};
        d->operator_desc_ = {DML_OPERATOR_DEPTH_TO_SPACE1, &d->depth_to_space_};
        std::snprintf(text, sizeof text, "DML_OPERATOR_DEPTH_TO_SPACE1 (BlockSize %u, Order %u)", s2d->block_size,
                      unsigned(s2d->order));
    } else if (const auto* q =
                   dynamic_cast<const ops::quantized_linear_convolution::QuantizedLinearConvolutionDesc*>(&desc);
               q && name == "QUANTIZED_LINEAR_CONVOLUTION") {
        if (t.size() != 10) return internal_error("QUANTIZED_LINEAR_CONVOLUTION: expected 10 tensor slots");
        DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC& c = d->convolution_;
        c.InputTensor = t[0];
        c.InputScaleTensor = t[1];
        c.InputZeroPointTensor = t[2];
        c.FilterTensor = t[3];
        c.FilterScaleTensor = t[4];
        c.FilterZeroPointTensor = t[5];
        c.BiasTensor = t[6];
        c.OutputScaleTensor = t[7];
        c.OutputZeroPointTensor = t[8];
        c.OutputTensor = t[9];
        c.DimensionCount = UINT(q->strides.size());
        c.Strides = d->add_array(q->strides);
        c.Dilations = d->add_array(q->dilations);
        c.StartPadding = d->add_array(q->start_padding);
        c.EndPadding = d->add_array(q->end_padding);
        c.GroupCount = q->group_count;
        d->operator_desc_ = {DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION, &d->convolution_};
        std::snprintf(text, sizeof text, "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION (DimensionCount %u, GroupCount %u)",
                      c.DimensionCount, c.GroupCount);
    } else {
        return unsupported("the DirectML backend has no DML desc for operator " + std::string(name));
    }
    d->summary_ = text;
    return d;
}

}  // namespace dmltool::gpu::dml
