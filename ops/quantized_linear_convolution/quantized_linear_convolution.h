// The parsed DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC and its geometry (spec §7). Shared by op.cpp
// (parse, validation), reference.cpp (the CPU reference) and, later, the GPU kernel generator, so the output
// size formula, the input position of a kernel tap and the per-channel quantization layout are written once.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::ops::quantized_linear_convolution {

struct QuantizedLinearConvolutionDesc final : OpDesc {
    TensorDesc input;                             // {N, C, (H,) W}
    TensorDesc input_scale;                       // 1 element
    std::optional<TensorDesc> input_zero_point;   // 1 element, absent = 0
    TensorDesc filter;                            // {M, C/G, (KH,) KW}
    TensorDesc filter_scale;                      // 1 or M elements
    std::optional<TensorDesc> filter_zero_point;  // 1 or M elements, absent = 0
    std::optional<TensorDesc> bias;               // {1, M, 1, 1} / {1, M, 1}, absent = 0
    TensorDesc output_scale;                      // 1 element
    std::optional<TensorDesc> output_zero_point;  // 1 element, absent = 0
    TensorDesc output;                            // {N, M, (OH,) OW}
    Dims strides, dilations, start_padding, end_padding;  // one entry per spatial dimension
    uint32_t group_count = 1;

    uint32_t spatial_dimension_count() const { return input.rank() - 2; }
};

// Output extent of one spatial dimension (spec §7.3), or nullopt when the dilated kernel is longer than the
// padded input. 64-bit: (k - 1) * dilation alone can exceed 32 bits.
inline std::optional<uint64_t> conv_output_size(uint64_t in, uint64_t kernel, uint64_t stride, uint64_t dilation,
                                                uint64_t start_pad, uint64_t end_pad) {
    const uint64_t padded = in + start_pad + end_pad;
    const uint64_t extent = (kernel - 1) * dilation + 1;
    if (kernel == 0 || stride == 0 || padded < extent) return std::nullopt;
    return (padded - extent) / stride + 1;
}

// Whether `sizes` hold M per-channel values: {M} when 1-D, otherwise M on dim 1 (the {N, C, ...} channel axis
// that the output uses) and 1 everywhere else, i.e. {1,M}, {1,M,1}, {1,M,1,1}.
inline bool is_per_channel_shape(std::span<const uint32_t> sizes, uint64_t channels) {
    if (sizes.size() == 1) return sizes[0] == channels;
    if (sizes.size() < 2 || sizes[1] != channels) return false;
    for (size_t d = 0; d < sizes.size(); ++d)
        if (d != 1 && sizes[d] != 1) return false;
    return true;
}

// Index into a filter scale / zero point tensor for output channel m: per-tensor tensors have one value.
inline uint64_t filter_quant_index(uint64_t element_count, uint64_t m) { return element_count == 1 ? 0 : m; }

// The convolution's shape, normalised to two spatial dimensions: a 3-D case ({N,C,W}) gets a unit height with
// stride/dilation 1 and no padding, so one loop nest serves both ranks. Index [0] = height, [1] = width.
struct ConvGeometry {
    uint64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
    uint64_t in_channels_per_group = 0, out_channels_per_group = 0;
    std::array<uint64_t, 2> in_size{1, 1}, kernel{1, 1}, out_size{1, 1};
    std::array<uint64_t, 2> stride{1, 1}, dilation{1, 1}, start_pad{0, 0};

    // Input coordinate of kernel tap k for output coordinate `out` along spatial axis `axis`; may be negative
    // or >= in_size (a padded position, which contributes 0 after zero-point subtraction).
    int64_t input_position(int axis, uint64_t out, uint64_t k) const {
        return int64_t(out * stride[axis] + k * dilation[axis]) - int64_t(start_pad[axis]);
    }

    // The kernel taps [begin, end) of output coordinate `out` that land inside the input along `axis`. They are
    // contiguous because positions grow with k; an empty run has begin == end.
    struct TapRange {
        uint64_t begin = 0, end = 0;
    };
    TapRange valid_taps(int axis, uint64_t out) const {
        TapRange r{kernel[axis], kernel[axis]};
        for (uint64_t k = 0; k < kernel[axis]; ++k) {
            const int64_t p = input_position(axis, out, k);
            if (p < 0 || p >= int64_t(in_size[axis])) continue;
            if (r.begin == kernel[axis]) r.begin = k;
            r.end = k + 1;
        }
        return r;
    }
};

// Requires a desc that parse() accepted (ranks 3 or 4, consistent sizes).
inline ConvGeometry conv_geometry(const QuantizedLinearConvolutionDesc& desc) {
    ConvGeometry g;
    g.batch = desc.input.sizes[0];
    g.in_channels = desc.input.sizes[1];
    g.out_channels = desc.filter.sizes[0];
    g.groups = desc.group_count;
    g.in_channels_per_group = desc.filter.sizes[1];
    g.out_channels_per_group = g.out_channels / g.groups;
    const uint32_t spatial = desc.spatial_dimension_count();
    for (uint32_t i = 0; i < spatial; ++i) {
        const uint32_t axis = 2 - spatial + i;  // 1-D convolutions live on the width axis
        g.in_size[axis] = desc.input.sizes[2 + i];
        g.kernel[axis] = desc.filter.sizes[2 + i];
        g.out_size[axis] = desc.output.sizes[2 + i];
        g.stride[axis] = desc.strides[i];
        g.dilation[axis] = desc.dilations[i];
        g.start_pad[axis] = desc.start_padding[i];
    }
    return g;
}

std::unique_ptr<Op> make_op();  // op.cpp

// How the CPU reference accumulates (all exact integer sums, so every path gives the same bytes; the tests
// compare each against the naive loop nest and an im2col oracle):
// - kNaive: one loop nest per output element (int64 sums), the obviously right form;
// - kChannelVector: int16 operands, int32 sums over a block of output channels at a time (the inner loop runs
//   along the transposed filter's output channels, so it vectorizes with the baseline instruction set);
// - kChannelVectorAvx2: the same code compiled for AVX2 (only where the CPU has it);
// - kAuto: kChannelVectorAvx2 where the CPU has AVX2, else kChannelVector; kNaive when an int32 sum could
//   overflow or an operand does not fit int16.
enum class ReferencePath { kAuto, kNaive, kChannelVector, kChannelVectorAvx2 };
bool cpu_has_avx2();

// The CPU reference (reference.cpp); arguments as Op::run_reference. run_reference = kAuto.
Status run_reference(const QuantizedLinearConvolutionDesc& desc, std::span<const HostTensor* const> inputs,
                     std::span<HostTensor* const> outputs, const ReferenceContext& context);
Status run_reference_path(const QuantizedLinearConvolutionDesc& desc, std::span<const HostTensor* const> inputs,
                          std::span<HostTensor* const> outputs, const ReferenceContext& context, ReferencePath path);

// The scale values (data, not desc): every InputScaleTensor, FilterScaleTensor and OutputScaleTensor element must
// be finite and non-zero. Op::check_input_values (validate and run, before the reference); inputs as above,
// a null scale tensor (not read) is skipped.
Status check_scale_values(std::span<const HostTensor* const> inputs);

// A random valid case for `dmltool generate` (generate.cpp), types and ranks from `table` (the op's own).
Status generate_case(const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

}  // namespace dmltool::ops::quantized_linear_convolution
