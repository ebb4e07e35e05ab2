"""The failure modes of the generated bad-input corpus, read by gen_corpus.py: a valid base case of each
operator, and per group of rules the mutations that break exactly one thing, each with the literal start of the
one-line message dmltool must give (after "file: case 'name': ")."""
import copy
import json

DELETE = object()  # a mutation value: remove the member

D2S = {
    "name": "d2s",
    "operator": {"type": "DML_OPERATOR_DEPTH_TO_SPACE1", "desc": {
        "InputTensor": {"DataType": "UINT32", "Sizes": [1, 4, 1, 2]},
        "OutputTensor": {"DataType": "UINT32", "Sizes": [1, 1, 2, 4]},
        "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}},
    "inputs": {"InputTensor": {"sequence": {"start": 0, "step": 1}}},
}
SPLIT = {
    "name": "split",
    "operator": {"type": "DML_OPERATOR_SPLIT", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 4, 1, 2]},
        "OutputTensors": [{"DataType": "FLOAT32", "Sizes": [1, 2, 1, 2]}, {"DataType": "FLOAT32", "Sizes": [1, 2, 1, 2]}],
        "Axis": 1}},
    "inputs": {"InputTensor": {"sequence": {"start": 0, "step": 1}}},
}
RESAMPLE = {
    "name": "resample",
    "operator": {"type": "DML_OPERATOR_RESAMPLE", "desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 2]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 4, 4]},
        "InterpolationMode": "NEAREST_NEIGHBOR", "Scales": [1, 1, 2, 2]}},
    "inputs": {"InputTensor": {"sequence": {"start": 0, "step": 1}}},
}
SCALAR_F32 = {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]}
QLCONV = {
    "name": "qlconv",
    "operator": {"type": "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION", "desc": {
        "InputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 3, 3]},
        "InputScaleTensor": SCALAR_F32,
        "FilterTensor": {"DataType": "UINT8", "Sizes": [2, 1, 2, 2]},
        "FilterScaleTensor": SCALAR_F32,
        "OutputScaleTensor": SCALAR_F32,
        "OutputTensor": {"DataType": "UINT8", "Sizes": [1, 2, 2, 2]},
        "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0], "GroupCount": 1}},
    "inputs": {"InputTensor": {"sequence": {"start": 0, "step": 1}},
               "InputScaleTensor": {"constant": 0.5},
               "FilterTensor": {"constant": 1},
               "FilterScaleTensor": {"constant": 0.25},
               "OutputScaleTensor": {"constant": 1}},
}
BASES = {"d2s": D2S, "split": SPLIT, "resample": RESAMPLE, "qlconv": QLCONV}
DESC = ("operator", "desc")

def tensor_desc_cases(c):
    """Spec 2.2 / 2.4 / 10 common tensor-desc rules, on the InputTensor of DEPTH_TO_SPACE1 unless noted."""
    t = DESC + ("InputTensor",)
    p = "/operator/desc/InputTensor"
    c.add("d2s", "in_not_object", [(t, [1, 4, 1, 2])], p + ": expected a tensor desc object")
    c.add("d2s", "in_missing", [(t, DELETE)], p + ": missing required member (a tensor desc)")
    # An omitted OutputTensor is derived (docs/case-format.md: Derived output sizes), unless the input cannot make one.
    c.add("d2s", "out_derived_channels_uneven", [(DESC + ("OutputTensor",), DELETE), (DESC + ("BlockSize",), 3)],
          "/operator/desc/InputTensor/Sizes: expected a channel count (Sizes[1]) divisible by BlockSize^2 = 9 (BlockSize 3), found 4")
    c.add("d2s", "datatype_number", [(t + ("DataType",), 3)], p + "/DataType: expected a data type name")
    c.add("d2s", "datatype_unknown", [(t + ("DataType",), "UNKNOWN")], p + "/DataType: expected one of FLOAT32")
    c.add("d2s", "datatype_lowercase", [(t + ("DataType",), "uint32")], p + "/DataType: expected one of FLOAT32")
    c.add("d2s", "datatype_null", [(t + ("DataType",), None)], p + "/DataType: expected a data type name")
    c.add("d2s", "datatype_uint4", [(t + ("DataType",), "UINT4"), (DESC + ("OutputTensor", "DataType"), "UINT4")],
          p + ": data type UINT4 not allowed (expected one of FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64) at any feature level up to 5_0")
    c.add("d2s", "sizes_missing", [(t + ("Sizes",), DELETE)], p + "/Sizes: missing required member")
    c.add("d2s", "sizes_string", [(t + ("Sizes",), "1,4,1,2")], p + "/Sizes: expected an array of unsigned integers, found string")
    c.add("d2s", "sizes_empty", [(t + ("Sizes",), [])], p + "/Sizes: expected 1 to 8 dimensions, found 0")
    c.add("d2s", "sizes_fraction", [(t + ("Sizes",), [1, 4, 1.5, 2])], p + "/Sizes/2: expected an unsigned 32-bit integer, found number 1.5")
    c.add("d2s", "sizes_2_pow_32", [(t + ("Sizes",), [1, 4, 4294967296, 2])], p + "/Sizes/2: expected an unsigned 32-bit integer (at most 4294967295), found number 4294967296")
    c.add("d2s", "sizes_nested", [(t + ("Sizes",), [1, [4], 1, 2])], p + "/Sizes/1: expected an unsigned 32-bit integer, found array of 1")
    c.add("d2s", "sizes_null_entry", [(t + ("Sizes",), [1, None, 1, 2])], p + "/Sizes/1: expected an unsigned 32-bit integer, found null")
    c.add("d2s", "sizes_product_2_pow_32", [(t + ("Sizes",), [1, 65536, 256, 256])],
          p + "/Sizes: expected at most 4294967295 elements (DirectML's limit), found 4294967296")
    c.add("d2s", "sizes_product_2_pow_64", [(t + ("Sizes",), [4294967295, 4294967295, 4294967295, 4294967295])],
          p + "/Sizes: expected at most 4294967295 elements (DirectML's limit), found more than 2^64")
    c.add("d2s", "strides_string", [(t + ("Strides",), "packed")], p + "/Strides: expected an array of unsigned integers, found string")
    c.add("d2s", "strides_negative", [(t + ("Strides",), [8, 2, 2, -1])], p + "/Strides/3: expected an unsigned 32-bit integer, found number -1")
    c.add("d2s", "strides_too_many", [(t + ("Strides",), [8, 2, 2, 1, 1])], p + "/Strides: expected 4 entries (one per dimension), found 5")
    c.add("d2s", "strides_range_2_pow_64", [(t + ("Sizes",), [1, 1, 1, 4294967295]), (t + ("Strides",), [1, 1, 1, 4294967295]),
                                             (DESC + ("BlockSize",), 1), (DESC + ("OutputTensor", "Sizes"), [1, 1, 1, 4294967295])],
          p + "/Strides: expected an addressed range of at most 2^64 bits (DMLCalcBufferTensorSize), found {1,1,1,4294967295} over Sizes {1,1,1,4294967295}")
    c.add("d2s", "out_stride_zero_first", [(DESC + ("OutputTensor", "Strides"), [8, 8, 0, 1])],
          "/operator/desc/OutputTensor/Strides[2]: expected a non-zero stride on an output tensor")
    c.add("d2s", "out_strides_alias", [(DESC + ("OutputTensor", "Strides"), [8, 8, 1, 1])],
          "/operator/desc/OutputTensor/Strides: expected strides that give every output element its own location, found {8,8,1,1} over Sizes {1,1,2,4}, where elements [0,0,0,1] and [0,0,1,0] share one")
    c.add("d2s", "out_owned_by_dml", [(DESC + ("OutputTensor", "Flags"), "OWNED_BY_DML")],
          "/operator/desc/OutputTensor/Flags: expected NONE on an output tensor (OWNED_BY_DML is for inputs")
    c.add("d2s", "flags_unknown_name", [(t + ("Flags",), "OWNED")], p + "/Flags: expected one of NONE, OWNED_BY_DML")
    c.add("d2s", "flags_negative", [(t + ("Flags",), -1)], p + "/Flags: expected one of NONE, OWNED_BY_DML")
    c.add("d2s", "total_string", [(t + ("TotalTensorSizeInBytes",), "32")], p + "/TotalTensorSizeInBytes: expected an unsigned 64-bit integer, found string")
    c.add("d2s", "total_negative", [(t + ("TotalTensorSizeInBytes",), -32)], p + "/TotalTensorSizeInBytes: expected an unsigned 64-bit integer, found number -32")
    c.add("d2s", "total_2_pow_64", [(t + ("TotalTensorSizeInBytes",), 18446744073709551616)],
          p + "/TotalTensorSizeInBytes: expected an unsigned 64-bit integer, found number 1.8446744073709552e+19")
    c.add("d2s", "total_zero", [(t + ("TotalTensorSizeInBytes",), 0)], p + "/TotalTensorSizeInBytes: expected at least 32 (DMLCalcBufferTensorSize of UINT32 {1,4,1,2}), found 0")
    c.add("d2s", "total_strided_too_small", [(t + ("Strides",), [16, 4, 4, 2]), (t + ("TotalTensorSizeInBytes",), 32)],
          p + "/TotalTensorSizeInBytes: expected at least 60 (DMLCalcBufferTensorSize of UINT32 {1,4,1,2} strides {16,4,4,2}), found 32")
    c.add("d2s", "alignment_below_element", [(t + ("GuaranteedBaseOffsetAlignment",), 2)],
          p + "/GuaranteedBaseOffsetAlignment: expected 0 or a power of two >= the element size (4), found 2")
    c.add("d2s", "alignment_string", [(t + ("GuaranteedBaseOffsetAlignment",), "16")], p + "/GuaranteedBaseOffsetAlignment: expected an unsigned 32-bit integer, found string")
    c.add("d2s", "alignment_2_pow_32", [(t + ("GuaranteedBaseOffsetAlignment",), 4294967296)],
          p + "/GuaranteedBaseOffsetAlignment: expected an unsigned 32-bit integer (at most 4294967295), found number 4294967296")
    c.add("d2s", "dimension_count_string", [(t + ("DimensionCount",), "4")], p + "/DimensionCount: expected an unsigned 32-bit integer, found string")
    c.add("d2s", "dimension_count_9", [(t + ("DimensionCount",), 9)], p + "/DimensionCount: expected 4 (the length of Sizes), found 9")
    c.add("d2s", "type_texture", [(t + ("Type",), "TEXTURE")], p + "/Type: expected one of BUFFER")
    c.add("d2s", "desc_member_lowercase", [(t + ("sizes",), [1, 4, 1, 2])], p + "/sizes: unknown member")


def d2s_cases(c):
    d = "/operator/desc"
    c.add("d2s", "blocksize_missing", [(DESC + ("BlockSize",), DELETE)], d + "/BlockSize: missing required member (an unsigned integer)")
    c.add("d2s", "blocksize_negative", [(DESC + ("BlockSize",), -2)], d + "/BlockSize: expected an unsigned 32-bit integer, found number -2")
    c.add("d2s", "blocksize_fraction", [(DESC + ("BlockSize",), 2.0)], d + "/BlockSize: expected an unsigned 32-bit integer, found number 2.0")
    c.add("d2s", "blocksize_null", [(DESC + ("BlockSize",), None)], d + "/BlockSize: missing required member")
    c.add("d2s", "blocksize_65536", [(DESC + ("BlockSize",), 65536)],
          d + "/InputTensor/Sizes: expected a channel count (Sizes[1]) divisible by BlockSize^2 = 4294967296")
    c.add("d2s", "blocksize_3", [(DESC + ("BlockSize",), 3)], d + "/InputTensor/Sizes: expected a channel count (Sizes[1]) divisible by BlockSize^2 = 9")
    c.add("d2s", "order_number", [(DESC + ("Order",), 0)], d + "/Order: expected one of DEPTH_COLUMN_ROW, COLUMN_ROW_DEPTH (optionally prefixed with DML_DEPTH_SPACE_ORDER_), found number 0")
    c.add("d2s", "order_lowercase", [(DESC + ("Order",), "depth_column_row")], d + "/Order: expected one of DEPTH_COLUMN_ROW")
    c.add("d2s", "order_wrong_prefix", [(DESC + ("Order",), "DML_DEPTH_TO_SPACE_ORDER_DEPTH_COLUMN_ROW")], d + "/Order: expected one of DEPTH_COLUMN_ROW")
    c.add("d2s", "out_rank5", [(DESC + ("OutputTensor", "Sizes"), [1, 1, 2, 4, 1])], d + "/OutputTensor/Sizes: expected 4 dimensions {N,C,H,W}, found 5")
    c.add("d2s", "in_rank1", [(DESC + ("InputTensor", "Sizes"), [8])], d + "/InputTensor/Sizes: expected 4 dimensions {N,C,H,W}, found 1")
    c.add("d2s", "out_batch", [(DESC + ("OutputTensor", "Sizes"), [2, 1, 2, 4])], d + "/OutputTensor/Sizes: expected {1,1,2,4} (InputTensor {1,4,1,2} with BlockSize 2), found {2,1,2,4}")
    c.add("d2s", "out_channels", [(DESC + ("OutputTensor", "Sizes"), [1, 4, 1, 2])], d + "/OutputTensor/Sizes: expected {1,1,2,4}")
    c.add("d2s", "float16_vs_float32", [(DESC + ("InputTensor", "DataType"), "FLOAT16")], d + "/OutputTensor/DataType: expected FLOAT16 (the InputTensor's data type), found UINT32")
    c.add("d2s", "int64_claims_2_1", [(DESC + ("InputTensor", "DataType"), "INT64"), (DESC + ("OutputTensor", "DataType"), "INT64"), (("featureLevel",), "2_1")],
          "/featureLevel: expected at least 5_0 (the minimum the DEPTH_TO_SPACE1 tables allow for these tensors), found 2_1")


def split_cases(c):
    d = "/operator/desc"
    outs = DESC + ("OutputTensors",)
    c.add("split", "axis_missing", [(DESC + ("Axis",), DELETE)], d + "/Axis: missing required member")
    c.add("split", "axis_string", [(DESC + ("Axis",), "1")], d + "/Axis: expected an unsigned 32-bit integer, found string")
    c.add("split", "axis_negative", [(DESC + ("Axis",), -1)], d + "/Axis: expected an unsigned 32-bit integer, found number -1")
    c.add("split", "axis_huge", [(DESC + ("Axis",), 4294967295)], d + "/Axis: expected less than 4 (the InputTensor's dimension count, {1,4,1,2}), found 4294967295")
    c.add("split", "outputs_missing", [(outs, DELETE)], d + "/OutputTensors: missing required member (an array of tensor descs; or OutputCount for equal parts, or OutputSizesAlongAxis, along Axis)")
    c.add("split", "derived_count_uneven", [(outs, DELETE), (DESC + ("OutputCount",), 3)], d + "/OutputCount: expected a count that divides InputTensor Sizes[1] = 4 into equal parts, found 3")
    c.add("split", "derived_sizes_sum", [(outs, DELETE), (DESC + ("OutputSizesAlongAxis",), [1, 2])], d + "/OutputSizesAlongAxis: expected sizes summing to InputTensor Sizes[1] = 4, found 3 ({1,2})")
    c.add("split", "outputs_object", [(outs, {"DataType": "FLOAT32", "Sizes": [1, 4, 1, 2]})], d + "/OutputTensors: expected a non-empty array of tensor descs, found object")
    c.add("split", "outputs_element_string", [(outs + (1,), "FLOAT32")], d + "/OutputTensors/1: expected a tensor desc object")
    c.add("split", "output_count_string", [(DESC + ("OutputCount",), "2")], d + "/OutputCount: expected an unsigned 32-bit integer, found string")
    c.add("split", "output_count_zero", [(DESC + ("OutputCount",), 0)], d + "/OutputCount: expected 2 (the length of OutputTensors), found 0")
    c.add("split", "output_rank", [(outs + (1, "Sizes"), [1, 2, 2])], d + "/OutputTensors/1/Sizes: expected 4 dimensions (as InputTensor {1,4,1,2}), found 3")
    c.add("split", "first_output_too_big", [(outs + (0, "Sizes"), [1, 5, 1, 2])], d + "/OutputTensors/0/Sizes/1: expected at most 4 (InputTensor Sizes[1] = 4), found 5")
    c.add("split", "outputs_overshoot", [(outs + (1, "Sizes"), [1, 3, 1, 2])], d + "/OutputTensors/1/Sizes/1: expected at most 2 (InputTensor Sizes[1] = 4, of which OutputTensors 0..0 already take 2), found 3")
    c.add("split", "output_zero_stride", [(outs + (0, "Strides"), [4, 2, 2, 0])], d + "/OutputTensors/0/Strides[3]: expected a non-zero stride on an output tensor")
    c.add("split", "output_unknown_member", [(outs + (1, "Stride"), [4, 2, 2, 1])], d + "/OutputTensors/1/Stride: unknown member")
    c.add("split", "rank5_claims_2_1", [(DESC + ("InputTensor", "Sizes"), [1, 4, 1, 2, 1]), (outs + (0, "Sizes"), [1, 2, 1, 2, 1]), (outs + (1, "Sizes"), [1, 2, 1, 2, 1]), (("featureLevel",), "2_1")],
          "/featureLevel: expected at least 3_0 (the minimum the SPLIT tables allow for these tensors), found 2_1")
    c.add("split", "float64_claims_3_0", [(DESC + ("InputTensor", "DataType"), "FLOAT64"), (outs + (0, "DataType"), "FLOAT64"), (outs + (1, "DataType"), "FLOAT64"), (("featureLevel",), "3_0")],
          "/featureLevel: expected at least 4_1 (the minimum the SPLIT tables allow for these tensors), found 3_0")
    c.add("split", "expected_not_array", [(("expected",), {"OutputTensors": {"constant": 1}})], "/expected/OutputTensors: expected an array of 2 sources (one per OutputTensors element), found object")
    c.add("split", "expected_element_not_source", [(("expected",), {"OutputTensors": [{"constant": 1}, 7]})], "/expected/OutputTensors/1: expected a tensor source object")
    c.add("split", "inputs_names_output", [(("inputs", "OutputTensors"), [{"constant": 1}, {"constant": 1}])], "/inputs/OutputTensors: not an input tensor of this operator (expected one of InputTensor)")


def resample_cases(c):
    d = "/operator/desc"
    c.add("resample", "mode_missing", [(DESC + ("InterpolationMode",), DELETE)], d + "/InterpolationMode: missing required member (one of NEAREST_NEIGHBOR, LINEAR)")
    c.add("resample", "mode_number", [(DESC + ("InterpolationMode",), 1)], d + "/InterpolationMode: expected one of NEAREST_NEIGHBOR, LINEAR (optionally prefixed with DML_INTERPOLATION_MODE_), found number 1")
    c.add("resample", "scales_missing", [(DESC + ("Scales",), DELETE)], d + "/Scales: missing required member (an array of numbers)")
    c.add("resample", "scales_object", [(DESC + ("Scales",), {"H": 2})], d + "/Scales: expected an array of numbers, found object")
    c.add("resample", "scales_empty", [(DESC + ("Scales",), [])], d + "/Scales: expected 4 scales (one per dimension of InputTensor {1,1,2,2}), found 0")
    c.add("resample", "scale_nan_string", [(DESC + ("Scales",), [1, 1, "nan", 2])], d + "/Scales/2: expected a number, found string \"nan\"")
    c.add("resample", "scale_tiny_float32_zero", [(DESC + ("Scales",), [1, 1, 1e-50, 2])], d + "/Scales/2: expected a finite scale > 0, found 0")
    c.add("resample", "scalecount_string", [(DESC + ("ScaleCount",), "4")], d + "/ScaleCount: expected an unsigned 32-bit integer, found string")
    c.add("resample", "dtype_mismatch", [(DESC + ("OutputTensor", "DataType"), "FLOAT16")], d + "/OutputTensor/DataType: expected FLOAT32 (the InputTensor's DataType), found FLOAT16")
    c.add("resample", "int32", [(DESC + ("InputTensor", "DataType"), "INT32"), (DESC + ("OutputTensor", "DataType"), "INT32")],
          d + "/InputTensor: data type INT32 not allowed (expected one of FLOAT32, FLOAT16, UINT8, INT8) at any feature level up to 6_2")
    c.add("resample", "rank3_claims_2_0", [(DESC + ("InputTensor", "Sizes"), [1, 2, 2]), (DESC + ("OutputTensor", "Sizes"), [1, 4, 4]), (DESC + ("Scales",), [1, 2, 2]), (("featureLevel",), "2_0")],
          "/featureLevel: expected at least 5_1 (the minimum the RESAMPLE tables allow for these tensors), found 2_0")
    c.add("resample", "uint8_claims_6_1", [(DESC + ("InputTensor", "DataType"), "UINT8"), (DESC + ("OutputTensor", "DataType"), "UINT8"), (("featureLevel",), "6_1")],
          "/featureLevel: expected at least 6_2 (the minimum the RESAMPLE tables allow for these tensors), found 6_1")
    c.add("resample", "output_zero_size", [(DESC + ("OutputTensor", "Sizes"), [1, 1, 0, 4])], d + "/OutputTensor/Sizes[2]: expected a size >= 1, found 0")
    c.add("resample", "unknown_member", [(DESC + ("Scale",), [1, 1, 2, 2])], d + "/Scale: unknown member")


def qlconv_cases(c):
    d = "/operator/desc"
    for member in ("InputTensor", "InputScaleTensor", "FilterTensor", "FilterScaleTensor"):  # OutputTensor: derived
        c.add("qlconv", "missing_" + member, [(DESC + (member,), DELETE)], d + "/" + member + ": missing required member (a tensor desc)")
    c.add("qlconv", "filter_float", [(DESC + ("FilterTensor", "DataType"), "FLOAT32")], d + "/FilterTensor: data type FLOAT32 not allowed (expected one of UINT8, INT8)")
    c.add("qlconv", "output_int32", [(DESC + ("OutputTensor", "DataType"), "INT32")], d + "/OutputTensor: data type INT32 not allowed (expected one of UINT8, INT8)")
    c.add("qlconv", "input_scale_float16", [(DESC + ("InputScaleTensor",), {"DataType": "FLOAT16", "Sizes": [1, 1, 1, 1]})],
          d + "/InputScaleTensor: data type FLOAT16 not allowed (expected one of FLOAT32) at any feature level up to 5_2")
    c.add("qlconv", "output_scale_int32", [(DESC + ("OutputScaleTensor",), {"DataType": "INT32", "Sizes": [1, 1, 1, 1]})],
          d + "/OutputScaleTensor: data type INT32 not allowed (expected one of FLOAT32) at any feature level up to 5_2")
    c.add("qlconv", "filter_zero_point_dtype", [(DESC + ("FilterZeroPointTensor",), {"DataType": "INT8", "Sizes": [1, 1, 1, 1]}), (("inputs", "FilterZeroPointTensor"), {"constant": 0})],
          d + "/FilterZeroPointTensor/DataType: expected UINT8 (the data type of FilterTensor), found INT8")
    c.add("qlconv", "output_zero_point_dtype", [(DESC + ("OutputZeroPointTensor",), {"DataType": "INT8", "Sizes": [1, 1, 1, 1]}), (("inputs", "OutputZeroPointTensor"), {"constant": 0})],
          d + "/OutputZeroPointTensor/DataType: expected UINT8 (the data type of OutputTensor), found INT8")
    c.add("qlconv", "input_scale_per_channel", [(DESC + ("InputScaleTensor",), {"DataType": "FLOAT32", "Sizes": [1, 2, 1, 1]})],
          d + "/InputScaleTensor/Sizes: expected exactly 1 element (per-tensor), found {1,2,1,1}")
    c.add("qlconv", "output_zero_point_per_channel", [(DESC + ("OutputZeroPointTensor",), {"DataType": "UINT8", "Sizes": [1, 2, 1, 1]}), (("inputs", "OutputZeroPointTensor"), {"constant": 0})],
          d + "/OutputZeroPointTensor/Sizes: expected exactly 1 element (per-tensor), found {1,2,1,1}")
    c.add("qlconv", "filter_scale_three", [(DESC + ("FilterScaleTensor",), {"DataType": "FLOAT32", "Sizes": [1, 3, 1, 1]})],
          d + "/FilterScaleTensor/Sizes: expected 1 element (per-tensor) or M = 2 elements")
    c.add("qlconv", "filter_zero_point_m_on_dim0", [(DESC + ("FilterZeroPointTensor",), {"DataType": "UINT8", "Sizes": [2, 1, 1, 1]}), (("inputs", "FilterZeroPointTensor"), {"constant": 0})],
          d + "/FilterZeroPointTensor/Sizes: expected 1 element (per-tensor) or M = 2 elements")
    c.add("qlconv", "bias_3d_for_4d", [(DESC + ("BiasTensor",), {"DataType": "INT32", "Sizes": [1, 2, 1]}), (("inputs", "BiasTensor"), {"constant": 0})],
          d + "/BiasTensor/Sizes: expected {1,2,1,1}")
    c.add("qlconv", "strides_count", [(DESC + ("Strides",), [1])], d + "/Strides: expected 2 entries (one per spatial dimension of InputTensor {1,1,3,3}), found 1")
    c.add("qlconv", "strides_missing", [(DESC + ("Strides",), DELETE)], d + "/Strides: missing required member (an array of unsigned integers)")
    c.add("qlconv", "dilations_zero", [(DESC + ("Dilations",), [1, 0])], d + "/Dilations/1: expected at least 1, found 0")
    c.add("qlconv", "dilations_count", [(DESC + ("Dilations",), [1, 1, 1])], d + "/Dilations: expected 2 entries")
    c.add("qlconv", "start_padding_count", [(DESC + ("StartPadding",), [0])], d + "/StartPadding: expected 2 entries")
    c.add("qlconv", "end_padding_negative", [(DESC + ("EndPadding",), [0, -1])], d + "/EndPadding/1: expected an unsigned 32-bit integer, found number -1")
    c.add("qlconv", "end_padding_string", [(DESC + ("EndPadding",), "0,0")], d + "/EndPadding: expected an array of unsigned integers, found string")
    c.add("qlconv", "group_count_zero", [(DESC + ("GroupCount",), 0)], d + "/GroupCount: expected at least 1, found 0")
    c.add("qlconv", "group_count_missing", [(DESC + ("GroupCount",), DELETE)], d + "/GroupCount: missing required member")
    c.add("qlconv", "m_not_multiple_of_groups", [(DESC + ("InputTensor", "Sizes"), [1, 3, 3, 3]), (DESC + ("GroupCount",), 3), (DESC + ("FilterTensor", "Sizes"), [2, 1, 2, 2])],
          d + "/FilterTensor/Sizes: expected Sizes[0] (output channels M) to be a multiple of GroupCount 3, found {2,1,2,2}")
    c.add("qlconv", "kernel_larger_than_input", [(DESC + ("FilterTensor", "Sizes"), [2, 1, 4, 4])], d + "/FilterTensor/Sizes: expected the dilated kernel ((4 - 1) * Dilations[0] 1 + 1 = 4) to fit the padded input (3 + StartPadding 0 + EndPadding 0)")
    c.add("qlconv", "huge_padding", [(DESC + ("StartPadding",), [4294967295, 0]), (DESC + ("EndPadding",), [4294967295, 0])],
          d + "/OutputTensor/Sizes: expected {1,2,8589934592,2}")
    c.add("qlconv", "filter_rank3", [(DESC + ("FilterTensor", "Sizes"), [2, 1, 2])], d + "/FilterTensor/Sizes: expected 4 dimensions (the rank of InputTensor), found {2,1,2}")
    c.add("qlconv", "output_rank3", [(DESC + ("OutputTensor", "Sizes"), [1, 2, 4])], d + "/OutputTensor/Sizes: expected 4 dimensions (the rank of InputTensor), found {1,2,4}")
    c.add("qlconv", "dimension_count_string", [(DESC + ("DimensionCount",), "2")], d + "/DimensionCount: expected an unsigned 32-bit integer, found string")
    three_d = [(DESC + ("InputTensor", "Sizes"), [1, 1, 3]), (DESC + ("FilterTensor", "Sizes"), [2, 1, 2]), (DESC + ("OutputTensor", "Sizes"), [1, 2, 2]),
               (DESC + ("Strides",), [1]), (DESC + ("Dilations",), [1]), (DESC + ("StartPadding",), [0]), (DESC + ("EndPadding",), [0])]
    c.add("qlconv", "three_d_claims_2_1", three_d + [(("featureLevel",), "2_1")],
          "/featureLevel: expected at least 4_0 (the minimum the QUANTIZED_LINEAR_CONVOLUTION tables allow for these tensors), found 2_1")
    c.add("qlconv", "filter_scale_1d_claims_4_0", [(DESC + ("FilterScaleTensor",), {"DataType": "FLOAT32", "Sizes": [2]}), (("featureLevel",), "4_0")],
          "/featureLevel: expected at least 5_2 (the minimum the QUANTIZED_LINEAR_CONVOLUTION tables allow for these tensors), found 4_0")
    c.add("qlconv", "scale_value_nan", [(("inputs", "InputScaleTensor"), {"constant": "nan"})],
          "InputScaleTensor: expected a finite non-zero scale, found nan")
    c.add("qlconv", "scale_value_inf", [(("inputs", "FilterScaleTensor"), {"values": ["inf"]})],
          "FilterScaleTensor: expected a finite non-zero scale, found inf")
    c.add("qlconv", "zero_point_source_out_of_range", [(DESC + ("InputZeroPointTensor",), {"DataType": "UINT8", "Sizes": [1, 1, 1, 1]}), (("inputs", "InputZeroPointTensor"), {"constant": 256})],
          "/inputs/InputZeroPointTensor/constant: expected an integer in [0, 255] for UINT8, found 256")
    c.add("qlconv", "missing_scale_source", [(("inputs", "FilterScaleTensor"), DELETE)], "/inputs/FilterScaleTensor: missing source for the desc's FilterScaleTensor")


def source_cases(c):
    s = ("inputs", "InputTensor")
    p = "/inputs/InputTensor"
    c.add("d2s", "source_string", [(s, "data.h5")], p + ": expected a tensor source object (hdf5, values, random, sequence or constant), found string")
    c.add("d2s", "source_empty", [(s, {})], p + ": expected one of the members hdf5, values, random, sequence, constant, found an empty object")
    c.add("d2s", "source_two_kinds", [(s, {"values": [1] * 8, "constant": 1})], p + ": expected exactly one of the members hdf5, values, random, sequence, constant, found both values and constant")
    c.add("d2s", "source_extra_member", [(s, {"constant": 1, "seed": 3})], p + "/seed: unknown member")
    c.add("d2s", "values_not_array", [(s, {"values": 5})], p + "/values: expected an array of numbers, found number 5")
    c.add("d2s", "values_string_element", [(s, {"values": [0, 1, "two", 3, 4, 5, 6, 7]})], p + "/values[2]: expected a number (or \"nan\", \"inf\", \"-inf\"), found string \"two\"")
    c.add("d2s", "values_bool_element", [(s, {"values": [0, 1, True, 3, 4, 5, 6, 7]})], p + "/values[2]: expected a number (or \"nan\", \"inf\", \"-inf\"), found boolean true")
    c.add("d2s", "values_null_element", [(s, {"values": [0, 1, 2, None, 4, 5, 6, 7]})], p + "/values[3]: expected a number")
    c.add("d2s", "values_object_element", [(s, {"values": [0, 1, 2, 3, {"v": 4}, 5, 6, 7]})], p + "/values[4]: expected a number")
    c.add("d2s", "values_empty", [(s, {"values": []})], p + "/values: expected 8 values (Sizes {1,4,1,2}), found 0")
    c.add("d2s", "values_nested_too_many", [(s, {"values": [[0, 1], [2, 3], [4, 5], [6, 7], [8]]})], p + "/values: expected 8 values (Sizes {1,4,1,2}), found 9")
    c.add("d2s", "values_inf_for_integer", [(s, {"values": [0, 1, 2, 3, "inf", 5, 6, 7]})], p + "/values[4]: expected an integer for UINT32, found inf")
    c.add("d2s", "values_fraction_float_notation", [(s, {"values": [0, 1, 2, 3, 4, 5, 6, 7.5]})], p + "/values[7]: expected an integer for UINT32, found 7.5")
    c.add("d2s", "values_uint32_negative", [(s, {"values": [0, 1, 2, -3, 4, 5, 6, 7]})], p + "/values[3]: expected an integer in [0, 4294967295] for UINT32, found -3")
    c.add("d2s", "values_int8_128", [(DESC + ("InputTensor", "DataType"), "INT8"), (DESC + ("OutputTensor", "DataType"), "INT8"), (s, {"values": [0, 1, 2, 3, 4, 5, 6, 128]})],
          p + "/values[7]: expected an integer in [-128, 127] for INT8, found 128")
    c.add("d2s", "values_int8_minus_129", [(DESC + ("InputTensor", "DataType"), "INT8"), (DESC + ("OutputTensor", "DataType"), "INT8"), (s, {"values": [-129, 1, 2, 3, 4, 5, 6, 7]})],
          p + "/values[0]: expected an integer in [-128, 127] for INT8, found -129")
    c.add("d2s", "values_uint8_256", [(DESC + ("InputTensor", "DataType"), "UINT8"), (DESC + ("OutputTensor", "DataType"), "UINT8"), (s, {"values": [0, 1, 2, 3, 4, 5, 256, 7]})],
          p + "/values[6]: expected an integer in [0, 255] for UINT8, found 256")
    c.add("d2s", "values_int16_32768", [(DESC + ("InputTensor", "DataType"), "INT16"), (DESC + ("OutputTensor", "DataType"), "INT16"), (s, {"values": [0, 32768, 2, 3, 4, 5, 6, 7]})],
          p + "/values[1]: expected an integer in [-32768, 32767] for INT16, found 32768")
    c.add("d2s", "values_uint64_2_pow_64", [(DESC + ("InputTensor", "DataType"), "UINT64"), (DESC + ("OutputTensor", "DataType"), "UINT64"), (s, {"values": [0, 18446744073709551616, 2, 3, 4, 5, 6, 7]})],
          p + "/values[1]: expected an integer in [0, 18446744073709551615] for UINT64, found 1.8446744073709552e+19")
    c.add("d2s", "values_int64_below_min", [(DESC + ("InputTensor", "DataType"), "INT64"), (DESC + ("OutputTensor", "DataType"), "INT64"), (s, {"values": [0, -1e19, 2, 3, 4, 5, 6, 7]})],
          p + "/values[1]: expected an integer in [-9223372036854775808, 9223372036854775807] for INT64, found -1e+19")
    c.add("d2s", "values_float16_overflow", [(DESC + ("InputTensor", "DataType"), "FLOAT16"), (DESC + ("OutputTensor", "DataType"), "FLOAT16"), (s, {"values": [0, 1, 2, 3, 4, 5, 6, 65536]})],
          p + "/values[7]: expected a value representable as FLOAT16 (|x| <= 65504), found 65536")
    c.add("d2s", "values_float32_overflow", [(DESC + ("InputTensor", "DataType"), "FLOAT32"), (DESC + ("OutputTensor", "DataType"), "FLOAT32"), (s, {"values": [0, 1, 2, 3, 4, 5, 6, -1e39]})],
          p + "/values[7]: expected a value representable as FLOAT32 (|x| <= 3.4028234663852886e+38), found -1e+39")
    c.add("d2s", "values_bad_special", [(DESC + ("InputTensor", "DataType"), "FLOAT32"), (DESC + ("OutputTensor", "DataType"), "FLOAT32"), (s, {"values": [0, 1, 2, 3, 4, 5, 6, "NAN"]})],
          p + "/values[7]: expected a number (or \"nan\", \"inf\", \"-inf\"), found string \"NAN\"")
    c.add("d2s", "random_not_object", [(s, {"random": [1, 0, 9]})], p + "/random: expected an object {\"seed\": N, \"min\": a, \"max\": b}, found array of 3")
    c.add("d2s", "random_seed_null", [(s, {"random": {"seed": None, "min": 0, "max": 9}})], p + "/random/seed: expected an unsigned integer seed, found null")
    c.add("d2s", "random_seed_negative", [(s, {"random": {"seed": -1, "min": 0, "max": 9}})], p + "/random/seed: expected an unsigned integer seed, found number -1")
    c.add("d2s", "random_seed_string", [(s, {"random": {"seed": "7", "min": 0, "max": 9}})], p + "/random/seed: expected an unsigned integer seed, found string")
    # An omitted max is the type's default (UINT32: 65535), and still at least min.
    c.add("d2s", "random_min_above_default_max", [(s, {"random": {"min": 70000}})], p + "/random: expected min <= max, found min 70000 and max 65535")
    c.add("d2s", "random_max_string", [(s, {"random": {"seed": 1, "min": 0, "max": "9"}})], p + "/random/max: expected a number, found string \"9\"")
    c.add("d2s", "random_unknown_member", [(s, {"random": {"seed": 1, "min": 0, "max": 9, "step": 1}})], p + "/random/step: unknown member")
    c.add("d2s", "random_min_fraction", [(s, {"random": {"seed": 1, "min": 0.5, "max": 9}})], p + "/random/min: expected an integer for UINT32, found 0.5")
    c.add("d2s", "random_max_out_of_range", [(s, {"random": {"seed": 1, "min": 0, "max": 4294967296}})], p + "/random/max: expected an integer in [0, 4294967295] for UINT32, found 4294967296")
    c.add("d2s", "random_min_negative", [(s, {"random": {"seed": 1, "min": -1, "max": 9}})], p + "/random/min: expected an integer in [0, 4294967295] for UINT32, found -1")
    c.add("d2s", "random_float_min_above_max", [(DESC + ("InputTensor", "DataType"), "FLOAT16"), (DESC + ("OutputTensor", "DataType"), "FLOAT16"), (s, {"random": {"seed": 1, "min": 1.5, "max": -1.5}})],
          p + "/random: expected min <= max, found min 1.5 and max -1.5")
    c.add("d2s", "random_float16_range", [(DESC + ("InputTensor", "DataType"), "FLOAT16"), (DESC + ("OutputTensor", "DataType"), "FLOAT16"), (s, {"random": {"seed": 1, "min": -1e5, "max": 1}})],
          p + "/random/min: expected a value representable as FLOAT16 (|x| <= 65504), found -100000")
    c.add("d2s", "sequence_not_object", [(s, {"sequence": 0})], p + "/sequence: expected an object {\"start\": a, \"step\": b}, found number 0")
    c.add("d2s", "sequence_step_missing", [(s, {"sequence": {"start": 0}})], p + "/sequence/step: missing required member (a number)")
    c.add("d2s", "sequence_start_string", [(s, {"sequence": {"start": "0", "step": 1}})], p + "/sequence/start: expected a number, found string \"0\"")
    c.add("d2s", "sequence_unknown_member", [(s, {"sequence": {"start": 0, "step": 1, "stop": 8}})], p + "/sequence/stop: unknown member")
    c.add("d2s", "sequence_step_fraction", [(s, {"sequence": {"start": 0, "step": 0.5}})], p + "/sequence/step: expected an integer for UINT32, found 0.5")
    c.add("d2s", "sequence_float16_overflow", [(DESC + ("InputTensor", "DataType"), "FLOAT16"), (DESC + ("OutputTensor", "DataType"), "FLOAT16"), (s, {"sequence": {"start": 65000, "step": 100}})],
          p + "/sequence: expected every element representable as FLOAT16 (|x| <= 65504), found element 7 = 65700")
    c.add("d2s", "sequence_float32_start_overflow", [(DESC + ("InputTensor", "DataType"), "FLOAT32"), (DESC + ("OutputTensor", "DataType"), "FLOAT32"), (s, {"sequence": {"start": -1e39, "step": 0}})],
          p + "/sequence: expected every element representable as FLOAT32 (|x| <= 3.4028234663852886e+38), found element 0 = -1e+39")
    c.add("d2s", "constant_string", [(s, {"constant": "one"})], p + "/constant: expected a number (or \"nan\", \"inf\", \"-inf\"), found string \"one\"")
    c.add("d2s", "constant_array", [(s, {"constant": [1]})], p + "/constant: expected a number (or \"nan\", \"inf\", \"-inf\"), found array of 1")
    c.add("d2s", "constant_fraction", [(s, {"constant": 0.25})], p + "/constant: expected an integer for UINT32, found 0.25")
    c.add("d2s", "constant_float32_overflow", [(DESC + ("InputTensor", "DataType"), "FLOAT32"), (DESC + ("OutputTensor", "DataType"), "FLOAT32"), (s, {"constant": 1e300})],
          p + "/constant: expected a value representable as FLOAT32 (|x| <= 3.4028234663852886e+38), found 1e+300")
    c.add("d2s", "expected_values_count", [(("expected",), {"OutputTensor": {"values": [1, 2, 3]}})], "/expected/OutputTensor/values: expected 8 values (Sizes {1,1,2,4}), found 3")
    c.add("d2s", "expected_values_range", [(("expected",), {"OutputTensor": {"constant": -1}})], "/expected/OutputTensor/constant: expected an integer in [0, 4294967295] for UINT32, found -1")


def hdf5_cases(c):
    """Files are made by make_h5.py in generated/h5/; these cases fail only when a run reads them."""
    p = "/inputs/InputTensor"
    where = "/inputs/InputTensor: HDF5 file 'generated/h5/fixtures.h5', dataset "

    def h5(stem, dataset, message, file="h5/fixtures.h5", extra=()):
        c.add("d2s", "h5_" + stem, [(("inputs", "InputTensor"), {"hdf5": file, "dataset": dataset})] + list(extra), message)

    h5("int32_for_uint32", "/int32", where + "'/int32': expected UINT32 elements (the tensor's DataType), found int32")
    h5("float16_for_float32", "/float16", where + "'/float16': expected FLOAT32 elements (the tensor's DataType), found float16",
       extra=[(DESC + ("InputTensor", "DataType"), "FLOAT32"), (DESC + ("OutputTensor", "DataType"), "FLOAT32")])
    h5("strings", "/strings", where + "'/strings': expected UINT32 elements (the tensor's DataType), found strings")
    h5("compound", "/compound", where + "'/compound': expected UINT32 elements (the tensor's DataType), found a compound type")
    h5("bool", "/bool", where + "'/bool': expected UINT8 elements (the tensor's DataType), found an enum (e.g. numpy bool)",
       extra=[(DESC + ("InputTensor", "DataType"), "UINT8"), (DESC + ("OutputTensor", "DataType"), "UINT8")])
    h5("rank3", "/rank3", where + "'/rank3': expected shape {1,4,1,2} (or 1-D with 8 elements), found {1,4,2}")
    h5("flat_9", "/flat_9", where + "'/flat_9': expected shape {1,4,1,2} (or 1-D with 8 elements), found {9}")
    h5("scalar", "/scalar", where + "'/scalar': expected shape {1,4,1,2} (or 1-D with 8 elements), found {}")
    h5("empty_dataset", "/empty", where + "'/empty': expected shape {1,4,1,2} (or 1-D with 8 elements), found {0}")
    h5("dataset_under_dataset", "/int32/x", where + "'/int32/x': no such dataset")
    h5("dataset_root", "/", where + "'/': expected a dataset, found a group")
    h5("dangling_soft_link", "/dangling", where + "'/dangling': no such dataset")
    h5("external_link", "/external", where + "'/external': expected data inside this file, found an external link at '/external' to another file")
    h5("external_storage", "/external_storage", where + "'/external_storage': expected data inside this file, found raw data stored in external files")
    h5("virtual_dataset", "/virtual", where + "'/virtual': expected data inside this file, found a virtual dataset")
    h5("truncated_file", "/int32", p + ": HDF5 file 'generated/h5/truncated.h5': cannot be opened (corrupt or unreadable)", file="h5/truncated.h5")
    h5("empty_file", "/int32", p + ": HDF5 file 'generated/h5/empty.h5': not an HDF5 file", file="h5/empty.h5")
    h5("text_file", "/int32", p + ": HDF5 file 'generated/h5/text.h5': not an HDF5 file", file="h5/text.h5")
    h5("directory", "/int32", p + ": HDF5 file 'generated/h5': expected a file, found a directory", file="h5")
    h5("dot", "/int32", p + ": HDF5 file 'generated/': expected a file, found a directory", file=".")
    h5("symlink_file_escapes", "/d2s/input", p + "/hdf5: expected a path inside the case file's directory, found 'escape_link.h5', which resolves to '", file="escape_link.h5")
    h5("symlink_dir_escapes", "/d2s/input", p + "/hdf5: expected a path inside the case file's directory, found 'escape_dir/depth_to_space1.h5', which resolves to '", file="escape_dir/depth_to_space1.h5")
    h5("dotdot_after_symlink_dir", "/d2s/input", p + "/hdf5: expected a path inside the case file's directory, found 'h5/../../data.h5', which climbs out of it", file="h5/../../data.h5")
    h5("absolute_dev", "/x", p + "/hdf5: expected a path relative to the case file, found absolute path '/dev/zero'", file="/dev/zero")
    c.add("d2s", "h5_nul_in_path", [(("inputs", "InputTensor"), {"hdf5": "h5/fixtures.h5\u0000/../../x", "dataset": "/int32"})],
          p + "/hdf5: expected a path without NUL characters")
    c.add("d2s", "h5_path_empty", [(("inputs", "InputTensor"), {"hdf5": "", "dataset": "/int32"})], p + "/hdf5: expected an HDF5 file path, found string \"\"")
    c.add("d2s", "h5_path_number", [(("inputs", "InputTensor"), {"hdf5": 5, "dataset": "/int32"})], p + "/hdf5: expected an HDF5 file path, found number 5")
    c.add("d2s", "h5_dataset_missing", [(("inputs", "InputTensor"), {"hdf5": "h5/fixtures.h5"})], p + "/dataset: missing required member (the dataset path)")
    c.add("d2s", "h5_dataset_array", [(("inputs", "InputTensor"), {"hdf5": "h5/fixtures.h5", "dataset": ["/int32"]})],
          p + "/dataset: expected a dataset path such as \"/group/name\", found array of 1")
    c.add("d2s", "h5_unknown_member", [(("inputs", "InputTensor"), {"hdf5": "h5/fixtures.h5", "dataset": "/int32", "shape": [8]})], p + "/shape: unknown member")


def case_level_cases(c):
    empty_name = copy.deepcopy(D2S)
    empty_name["name"] = ""
    c.add_text("case_name_empty.json", json.dumps(empty_name), "/name: expected a non-empty string, found string \"\"", case="#0")
    c.add("d2s", "description_number", [(("description",), 7)], "/description: expected a string, found number 7")
    c.add("d2s", "tags_element_number", [(("tags",), ["ok", 3])], "/tags/1: expected a string, found number 3")
    c.add("d2s", "feature_level_number", [(("featureLevel",), 5.1)], "/featureLevel: expected a DirectML feature level (1_0, ")
    c.add("d2s", "feature_level_full_name_typo", [(("featureLevel",), "DML_FEATURE_LEVEL_5_3")], "/featureLevel: expected a DirectML feature level (1_0, ")
    c.add("d2s", "operator_not_object", [(("operator",), "DML_OPERATOR_DEPTH_TO_SPACE1")], "/operator: expected an object {\"type\": ..., \"desc\": {...}}, found string")
    c.add("d2s", "operator_type_missing", [(("operator", "type"), DELETE)], "/operator/type: expected an operator name such as \"DML_OPERATOR_SPLIT\", found null")
    c.add("d2s", "operator_type_number", [(("operator", "type"), 1)], "/operator/type: expected an operator name such as \"DML_OPERATOR_SPLIT\", found number 1")
    c.add("d2s", "operator_unknown_member", [(("operator", "version"), 1)], "/operator/version: unknown member 'version' (expected one of type, desc)")
    c.add("d2s", "operator_desc_missing", [(("operator", "desc"), DELETE)], "/operator/desc: missing required member")
    c.add("d2s", "operator_type_lowercase", [(("operator", "type"), "dml_operator_depth_to_space1")], "/operator/type: unknown operator 'dml_operator_depth_to_space1'")
    c.add("d2s", "inputs_unknown_tensor", [(("inputs", "Input"), {"constant": 1})], "/inputs/Input: not an input tensor of this operator (expected one of InputTensor)")
    c.add("d2s", "expected_names_input", [(("expected",), {"InputTensor": {"constant": 1}})], "/expected/InputTensor: not an output tensor of this operator (expected one of OutputTensor)")
    c.add("d2s", "expected_not_object", [(("expected",), [{"constant": 1}])], "/expected: expected an object mapping tensor members to sources, found array of 1")
    c.add("d2s", "expected_missing_output", [(("expected",), {})], "/expected/OutputTensor: missing source for the desc's OutputTensor")
    c.add("d2s", "tolerance_not_object", [(("tolerance",), 1)], "/tolerance: expected an object")
    c.add("d2s", "tolerance_ulp_negative", [(("tolerance",), {"OutputTensor": {"ulp": -1}, "reason": "r"})], "/tolerance/OutputTensor/ulp: expected an unsigned integer, found number -1")
    c.add("d2s", "tolerance_ulp_fraction", [(("tolerance",), {"OutputTensor": {"ulp": 0.5}, "reason": "r"})], "/tolerance/OutputTensor/ulp: expected an unsigned integer, found number 0.5")
    c.add("d2s", "tolerance_abs_negative", [(("tolerance",), {"OutputTensor": {"abs": -1}, "reason": "r"})], "/tolerance/OutputTensor/abs: expected a finite number >= 0, found number -1")
    c.add("d2s", "tolerance_abs_string", [(("tolerance",), {"OutputTensor": {"abs": "1"}, "reason": "r"})], "/tolerance/OutputTensor/abs: expected a finite number >= 0, found string \"1\"")
    c.add("d2s", "tolerance_entry_empty", [(("tolerance",), {"OutputTensor": {}, "reason": "r"})], "/tolerance/OutputTensor: expected at least one of ulp, abs, found neither")
    c.add("d2s", "tolerance_entry_unknown", [(("tolerance",), {"OutputTensor": {"rel": 0.1}, "reason": "r"})], "/tolerance/OutputTensor/rel: unknown member 'rel' (expected one of ulp, abs)")
    c.add("d2s", "tolerance_reason_empty", [(("tolerance",), {"OutputTensor": {"abs": 1}, "reason": ""})], "/tolerance/reason: expected a non-empty string explaining the tolerance, found string \"\"")
    c.add("d2s", "tolerance_entry_number", [(("tolerance",), {"OutputTensor": 1, "reason": "r"})], "/tolerance/OutputTensor: expected an object {\"ulp\": N, \"abs\": X}, found number 1")


def file_level_cases(c):
    """Whole-file faults: JSON syntax, limits, the top level. Named by file only: no case could be read."""
    good = json.dumps(D2S)
    c.add_text("json_unterminated_string.json", '{"name": "d2s', "malformed JSON at line 1, column ")
    c.add_text("json_single_quotes.json", "{'name': 'd2s'}", "malformed JSON at line 1, column 2: syntax error while parsing object key")
    c.add_text("json_comment.json", "// a comment\n" + good, "malformed JSON at line 1, column 1: syntax error while parsing value")
    c.add_text("json_nan_literal.json", good.replace('"step": 1', '"step": NaN'), "malformed JSON at line 1, column ")
    c.add_text("json_leading_zero.json", good.replace('"BlockSize": 2', '"BlockSize": 02'), "malformed JSON at line 1, column ")
    c.add_text("json_hex_number.json", good.replace('"BlockSize": 2', '"BlockSize": 0x2'), "malformed JSON at line 1, column ")
    c.add_text("json_plus_sign.json", good.replace('"BlockSize": 2', '"BlockSize": +2'), "malformed JSON at line 1, column ")
    c.add_text("json_missing_colon.json", good.replace('"BlockSize": 2', '"BlockSize" 2'), "malformed JSON at line 1, column ")
    c.add_text("json_missing_comma.json", good.replace('"BlockSize": 2,', '"BlockSize": 2'), "malformed JSON at line 1, column ")
    c.add_text("json_trailing_garbage.json", good + "}", "malformed JSON at line 1, column ")
    c.add_text("json_two_documents.json", good + "\n" + good, "malformed JSON at line 2, column 1: syntax error while parsing value - unexpected '{'")
    c.add_text("json_control_character.json", good.replace('"d2s"', '"d2\ts"'), "malformed JSON at line 1, column ")
    c.add_text("json_bad_escape.json", good.replace('"d2s"', '"d2\\xs"'), "malformed JSON at line 1, column ")
    c.add_text("json_lone_surrogate.json", good.replace('"d2s"', '"d2\\ud800s"'), "malformed JSON at line 1, column ")
    c.add_text("json_invalid_utf8.json", good.replace('"d2s"', '"d2\xffs"').encode("latin-1"), "malformed JSON at line 1, column ")
    c.add_text("json_whitespace_only.json", " \n\t\n", "malformed JSON at line 3, column 1: syntax error while parsing value - unexpected end of input")
    c.add_text("json_negative_overflow.json", good.replace('"step": 1', '"step": -1e999'), "malformed JSON: number overflow parsing '-1e999'")
    c.add_text("json_null_top_level.json", "null", "expected a case object or {\"cases\": [...]}, found null")
    c.add_text("json_number_top_level.json", "42", "expected a case object or {\"cases\": [...]}, found number 42")
    c.add_text("json_cases_empty.json", '{"cases": []}', "/cases: expected at least one case, found an empty array")
    c.add_text("json_cases_neighbour.json", '{"cases": [' + good + '], "defaults": {}}', "/defaults: unknown member next to \"cases\"")
    c.add_text("json_cases_twice.json", '{"cases": [' + good + '], "cases": [' + good + "]}", "/cases: expected each member once per object, found 'cases' again")
    c.add_text("json_deep_values.json", good.replace('{"sequence": {"start": 0, "step": 1}}', '{"values": ' + "[" * 100000 + "]" * 100000 + "}"),
               "/inputs/InputTensor/values/0/0/0/0/0/0/0/0/0/0/0/0/0/...: expected JSON nested at most 64 levels deep, found deeper nesting (an array at level 65)")
    c.add_text("json_deep_objects.json", '{"a":' * 100000 + "1" + "}" * 100000,
               "/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/...: expected JSON nested at most 64 levels deep, found deeper nesting (an object at level 65)")
    c.add_text("json_depth_65_arrays.json", "[" * 65 + "]" * 65, "/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/...: expected JSON nested at most 64 levels deep, found deeper nesting (an array at level 65)")
    # A case may hold a non-object among others: that case is invalid, its neighbours are judged on their own.
    c.add_text("cases_element_number.json", '{"cases": [' + good + ", 5]}", "/cases/1: expected a case object, found number 5", case="#1")
    c.add_text("cases_element_array.json", '{"cases": [[' + good + "]]}", "/cases/0: expected a case object, found array of 1", case="#0")
    c.add_text("duplicate_blocksize.json", good.replace('"BlockSize": 2', '"BlockSize": 2, "BlockSize": 3'),
               "/operator/desc/BlockSize: expected each member once per object, found 'BlockSize' again", case="d2s")
    c.add_text("duplicate_in_second_case.json", '{"cases": [' + good + ", " + good.replace('"name": "d2s"', '"name": "d2s/b"').replace('"step": 1', '"step": 1, "step": 2') + "]}",
               "/cases/1/inputs/InputTensor/sequence/step: expected each member once per object, found 'step' again", case="d2s/b")
    c.add_text("duplicate_name_member.json", good.replace('"name": "d2s"', '"name": "d2s", "name": "other"'),
               "/name: expected each member once per object, found 'name' again", case="other")
