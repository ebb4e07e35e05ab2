// The Winograd QLinearConv kernel (kernel.h: WinogradConvKernelOptions) on the GPU backend (lavapipe in CI) against
// the CPU reference: exact outputs over its geometries, the run length of each transformed position at the largest
// products 8-bit data can make, and every blob through vkd3d-compiler + spirv-val.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/conv_case_testing.h"
#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"
#include "tests/testing/gpu_testing.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

using namespace conv_testing;

// The Winograd kernel (PlanOptions::Kernel::kWinograd) equals the reference exactly: tile rows and unit columns
// past OH / OW (odd sizes), partial last unit blocks, batches flattened into the blocks, several chunks of input
// channels with a short last one and runs flushed inside them, groups, asymmetric padding, padded input rows
// (unaligned row starts) and padded / permuted outputs, rows whose last unit reads one column past the input,
// each geometry (MT, NT, KG, TG, channels per step), every type and zero point; half the shapes executed 3 times on
// one preparation (the filter sums start from 0 every execution).
TEST(QuantizedLinearConvolutionGpu, WinogradKernelExact) {
    // Run lengths: 2^24 / (max |V| * max |U|), e.g. (1, 1): 512 * 2295 (centred inputs: 4 * 128), (2, 2): 510 * 1275,
    // (0, 0): 510 * 255.
    const uint32_t runs[16] = {129, 43, 64, 129, 43, 14, 21, 43, 64, 21, 25, 64, 129, 43, 64, 129};
    for (uint32_t position = 0; position < 16; ++position)
        EXPECT_EQ(internal::winograd_run_channels(position), runs[position]) << position;
    SKIP_WITHOUT_GPU();
    struct WinogradShape {
        Dims input, filter;
        uint32_t groups;
        Dims start_pad, end_pad;
        Layout in, out;
        uint32_t mt, nt, kg, tg, steps;
        uint32_t chunk = 16;  // most channels per chunk
    };
    const WinogradShape shapes[] = {
        {{2, 12, 9, 19}, {8, 12, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked, 8, 8, 1, 1, 1},
        {{1, 40, 14, 14}, {16, 40, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPadded, Layout::kPacked, 4, 4, 2, 2, 2, 24},
        {{3, 8, 7, 7}, {32, 8, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPermuted, 8, 8, 4, 4, 4},
        {{1, 16, 6, 10}, {16, 8, 3, 3}, 2, {0, 1}, {2, 0}, Layout::kPadded, Layout::kPadded, 8, 4, 1, 2, 2},
        {{2, 70, 5, 9}, {8, 70, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked, 4, 8, 2, 1, 4, 32},
        {{1, 9, 3, 3}, {64, 9, 3, 3}, 1, {0, 0}, {0, 0}, Layout::kPacked, Layout::kPacked, 8, 8, 8, 2, 1},
        // W a multiple of 4 with padding 1 (as 56x56): the last unit's 6th input column is the first past the row.
        {{2, 20, 8, 16}, {16, 20, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked, 8, 4, 2, 2, 4},
        {{1, 6, 5, 8}, {8, 6, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPadded, Layout::kPacked, 4, 8, 2, 1, 2},
    };
    uint64_t seed = 14000, elements = 0, unclamped = 0;
    for (size_t s = 0; s < std::size(shapes); ++s) {
        for (DataType type : kTypes) {
            ++seed;
            const WinogradShape& sh = shapes[s];
            PlanOptions options{.kernel = PlanOptions::Kernel::kWinograd};
            options.winograd_channels = sh.mt;
            options.winograd_tiles = sh.nt;
            options.winograd_channel_groups = sh.kg;
            options.winograd_tile_groups = sh.tg;
            options.winograd_steps = sh.steps;
            options.winograd_chunk = sh.chunk;
            const ConvCase c = stride1_case(sh, type, seed, s % 2 == 0);
            const std::string name = "qlconv_gpu/winograd/" + std::to_string(s) + "/" + type_tag(c);
            const DifferentialCase d = to_differential(c, name, seed);
            // Odd shapes run 3 times on one preparation: the filter sums the weight kernel accumulates with atomics
            // must start at 0 every execution (the prep kernel zeroes them).
            const ExactCount n = count_exact_mismatches(d, options, s % 2 ? 3 : 1);
            ASSERT_TRUE(n.error.empty()) << name << ": " << n.error;
            EXPECT_EQ(n.mismatches, 0u) << name << ": " << n.mismatches << " of " << n.elements;
            elements += n.elements;
            unclamped += n.unclamped;
        }
    }
    EXPECT_GT(unclamped, elements / 4) << "the outputs must mostly not saturate";
}

// The Winograd kernel's float runs end in time: with x = 0 (UINT8, centred: x - 128 = -128) and w - wz = -255
// everywhere, position (1, 1) multiplies its largest values, 512 * 2295 per channel (every other position sees 0), so
// 14 channels sum to 16450560 < 2^24. One input of the 15th channel at x = 1 makes that channel's product odd
// (511 * 2295): a run of 15 would reach 17623305, which float32 cannot hold (it rounds to ...304), and the tile's 4
// outputs would come out one lower. With xz = 255 the centring correction k * S[m] is (128 - 255) * C * 9 * -255. The
// bias brings the outputs whose windows hold the odd input to 45 at M = 1; the others saturate. Steps of 1 and 4.
TEST(QuantizedLinearConvolutionGpu, WinogradKernelExactAtRunBoundaries) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 15000;
    for (uint32_t channels : {15u, 29u}) {
        for (uint32_t steps : {1u, 4u}) {
            ++seed;
            ConvCase c;
            c.input_type = DataType::kUint8;
            c.filter_type = DataType::kInt8;
            c.output_type = DataType::kUint8;
            c.input_sizes = {1, channels, 6, 6};
            c.filter_sizes = {8, channels, 3, 3};
            c.strides = c.dilations = {1, 1};
            c.start_pad = c.end_pad = {0, 0};
            c.input_scale = {1.0};
            c.filter_scale = {1.0};
            c.output_scale = {1.0};
            c.input_zero = 255;
            c.output_zero = 0;
            c.bias_values = std::vector<double>(8, -double(channels) * 9 * 65025 + 300);
            DifferentialCase d = to_differential(c, "qlconv_gpu/winograd_exact/c" + std::to_string(channels) + "/u" +
                                                        std::to_string(steps), seed);
            HostTensor& x = d.inputs[0];
            for (uint64_t i = 0; i < x.element_count(); ++i) x.set_from_double(i, 0);
            x.set_from_double(14 * 36 + 1 * 6 + 1, 1);  // channel 14, row 1, column 1: inside tile (0, 0)'s centre
            HostTensor& w = d.inputs[3];
            for (uint64_t i = 0; i < w.element_count(); ++i) w.set_from_double(i, -128);
            d.inputs[5] = dmltool::testing::make_tensor(DataType::kInt8, {1, 1, 1, 1}, {127});
            PlanOptions options{.kernel = PlanOptions::Kernel::kWinograd};
            options.winograd_channels = 8;
            options.winograd_tiles = 4;
            options.winograd_channel_groups = 1;
            options.winograd_tile_groups = 1;
            options.winograd_steps = steps;
            const ExactCount n = count_exact_mismatches(d, options);
            ASSERT_TRUE(n.error.empty()) << d.name << ": " << n.error;
            EXPECT_EQ(n.mismatches, 0u) << d.name << ": " << n.mismatches << " of " << n.elements;
            EXPECT_EQ(n.unclamped, 8u * 4u) << d.name << ": the 4 outputs of tile (0, 0) of each channel";
        }
    }
}

// Every Winograd conv kernel option combination at the tuned geometries, and the weight transform, pass
// vkd3d-compiler and spirv-val; bad geometry is refused.
TEST(QuantizedLinearConvolutionGpu, WinogradBlobsValidate) {
    BlobChecker blobs;
    blobs.check(build_winograd_weights_kernel(), "qlconv_winograd_weights");
    const uint32_t geometries[][6] = {{4, 8, 16, 1, 4, 32}, {4, 8, 8, 2, 4, 24}, {8, 4, 8, 4, 4, 16},
                                      {4, 8, 8, 4, 4, 16},  {8, 8, 1, 1, 1, 64}, {4, 4, 2, 2, 2, 1}};
    for (size_t g = 0; g < std::size(geometries); ++g)
        for (uint32_t bits = 0; bits < 8; ++bits) {
            const auto& k = geometries[g];
            const WinogradConvKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), k[0], k[1], k[2], k[3],
                                              k[4],          k[5]};
            blobs.check(build_winograd_conv_kernel(o),
                        "qlconv_winograd_" + std::to_string(g) + "_" + std::to_string(bits));
        }
    if (!blobs.tools_missing.empty()) GTEST_SKIP() << blobs.tools_missing;
    EXPECT_EQ(blobs.count, 1u + 6u * 8u);
    EXPECT_FALSE(build_winograd_conv_kernel({.channels_per_thread = 2}).is_ok());
    EXPECT_FALSE(build_winograd_conv_kernel({.tiles_per_thread = 16}).is_ok());
    EXPECT_FALSE(build_winograd_conv_kernel({.channels_per_step = 8}).is_ok()) << "a step past the 14-channel run";
    EXPECT_FALSE(build_winograd_conv_kernel({.max_chunk_channels = 0}).is_ok());
    EXPECT_FALSE(build_winograd_conv_kernel({.max_chunk_channels = 65}).is_ok());
    EXPECT_FALSE(build_winograd_conv_kernel({.channel_groups = 8, .tile_groups = 16}).is_ok()) << "2048 threads";
}

}  // namespace
}  // namespace dmltool::ops::quantized_linear_convolution
