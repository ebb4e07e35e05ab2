// GPU kernels of DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION (built with shaders/, SM 5.0 DXBC).
//
// Dispatches per case: prep, then the float conv kernel where it applies (FloatConvKernelOptions below; with its
// input channels split, a finalize dispatch adds the slices; or, as the autotuning variant that names it, the
// Winograd weight transform and conv kernel: WinogradConvKernelOptions), otherwise one of the integer conv kernels:
//  1. prep: one thread per filter element writes the zero-point-shifted filter (w - wz[m]) as int32 (float32 for
//     the float conv kernel) into a scratch buffer in [c][kh][kw][m] order (so the output channels one thread
//     accumulates are adjacent words: one ld_raw per tap), and one thread per output channel m writes a 16-byte requantization record
//     {multiplier, shift/sign control, bias, output zero point}. The scales are input DATA, so the multiplier
//     xs * ws[m] / ys is derived on the GPU: exactly, by integer long division of the float mantissas, rounded
//     half-to-even to a 32-bit fixed-point mantissa Mq with M = Mq * 2^-s (no doubles exist under vkd3d 1.2).
//  2. conv: one thread per 4 consecutive output columns x MT (1, 2, 4 or 8) output channels of one (n, oh)
//     row; loops over (C/G, KH, KW) with integer multiply-add, padding taps masked to 0 (for KW <= 7 the kw
//     loop is unrolled and the per-kw column masks are computed once per thread), then requantizes:
//     v = (acc + bias) * Mq * 2^-s as an exact 64-bit product built from 16-bit limbs (imul low part only),
//     rounded half to even, plus the output zero point, clamped. Results equal the reference (which evaluates
//     acc * double(M) in double) except where the reference's own double rounding decides: a multiplier that
//     is not a finite binary fraction (odd factor in ys's mantissa) and a product within ~2^-23 of a tie.
//     Input paths: packed W (input W stride 1, conv W stride 1) loads the 4 columns as two words and a funnel
//     shift; the general path (any strides, broadcast) loads each column's word. Outputs: a thread whose 4
//     outputs are one aligned output word stores it whole; otherwise each byte goes through
//     store_element_atomic, so sub-word writes never race.
//
// Tensors over 512 MiB (one raw view: Vulkan's 2^27 texels). The conv kernels take InputTensor and OutputTensor
// as several views (shaders::TensorViews: windows of 2^window_log2 bytes, the view picked from the byte address
// per access) when they span more than one window, up to 4 GiB (32-bit byte addresses). The blobs are
// specialised on the view counts: with one view each (every tensor up to 512 MiB) the kernels are exactly the
// single-view ones. Every input access is an aligned word (never straddles a window). The multi-view variants
// clamp word addresses with an unsigned min only: a signed clamp at 0 would turn addresses >= 2 GiB into 0.
// A word whose true address is negative (left padding) wraps high and is clamped or aliases another word of
// the tensor; either way it only holds padding columns, which are masked to 0.
// The filter and the shifted-filter scratch buffer stay single-view (512 MiB): a filter that large is not a
// realistic case, and the prep kernel and the scratch reads keep their plain loads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/device_plan.h"
#include "core/status.h"
#include "ops/quantized_linear_convolution/quantized_linear_convolution.h"

namespace dmltool::ops::quantized_linear_convolution {

struct PrepKernelOptions {
    bool filter_signed = false;
    bool output_signed = false;
    bool has_filter_zero_point = false;
    bool has_bias = false;
    bool has_output_zero_point = false;
    // Write the shifted filter as float32 (exact: |w - wz| <= 255) instead of int32: the float conv kernel's form.
    bool float_filter = false;
};

struct ConvKernelOptions {
    bool input_signed = false;
    bool output_signed = false;
    bool has_input_zero_point = false;
    uint32_t channels_per_thread = 1;  // MT: 1, 2, 4 or 8 (divides M / G)
    bool packed_w = false;             // input W stride 1 and convolution W stride 1: 8-byte window loads
    uint32_t kernel_w = 0;             // KW baked in (1..7: kw loop unrolled, masks hoisted), 0: run-time KW
    uint32_t input_views = 1;          // InputTensor as this many views (t0..) of 2^window_log2 bytes
    uint32_t output_views = 1;         // OutputTensor as this many views (u0..)
    uint32_t window_log2 = 29;         // shaders::kMaxViewBytesLog2; tests lower it (only matters with > 1 view)
};

// The tiled conv kernel, for the common shape class: input W stride 1, convolution W stride 1 and dilation 1,
// KH and KW <= 7 (both unrolled). A thread group of 64 threads is one tile of MT output channels over 64
// "spatial units" (n, oh, group of CW output columns), flattened over the batch so groups are full. Per chunk
// of input channels the group copies its MT-channel slice of the shifted filter into groupshared memory once
// (cooperatively, 16 KiB), then each thread reads its weights from there (the same address for the whole
// group: a broadcast) instead of from the scratch buffer. Per (channel, kh) a thread loads its input row
// window (CW + KW - 1 bytes) once as aligned words, funnel-shifts it, extracts and masks the bytes once, and
// reuses them for every kw; padding rows and columns are masked to 0, so the loop body has no branches.
// Accumulation (exact int32 multiply-adds) and requantization are those of build_conv_kernel.
struct TiledConvKernelOptions {
    bool input_signed = false;
    bool output_signed = false;
    bool has_input_zero_point = false;
    uint32_t channels_per_thread = 8;  // MT: 1, 2, 4 or 8 (divides M / G)
    uint32_t columns_per_thread = 4;   // CW: 4 or 8 consecutive output columns
    uint32_t kernel_h = 3;             // 1..7
    uint32_t kernel_w = 3;             // 1..7
    uint32_t input_views = 1;          // as ConvKernelOptions
    uint32_t output_views = 1;
    uint32_t window_log2 = 29;
};

// The float kernel, for stride 1 / dilation 1 convolutions with M / G a multiple of MT (any input strides,
// KH, KW <= 7, KW - 1 <= CW): exact float32 multiply-adds. (x - xz) and (w - wz) lie in [-255, 255], so every
// product is an integer below 2^16 in magnitude and any sum of up to 256 of them is an integer below 2^24:
// exactly representable in float32 whatever the order of the additions and whether the driver fuses them. Each
// output therefore accumulates in float over runs of at most 256 taps, then converts (ftoi, exact) and adds into
// an int32 accumulator; requantization is build_conv_kernel's.
// A thread group is CG channel groups x TR output rows x TCU column units of one image (thread_group {TCU, TR,
// CG}); a thread computes MT output channels x CW consecutive columns. Per chunk of input channels the group
// stages, in groupshared memory, the input patch the block reads ((TR + KH - 1) rows x (TCU * CW + KW - 1)
// columns per channel, converted to float with the zero point subtracted and padding as 0) and the block's
// MT * CG filter channels as float. Patch columns are stored unit-interleaved (column x at (x % CW) * (TCU + 1)
// + x / CW, rows RowStride floats apart with RowStride = TCU (mod 32)) so that the threads of a warp, reading the
// same window position of their own units, hit distinct banks; each thread's MT weights of a tap are adjacent
// (broadcast within a channel group). Staging issues the loads of 4 channels before converting any, so their
// latencies overlap. With `weights_from_view` the weights are not staged: each thread fetches its MT weights of a
// tap as 16-byte texels of a typed R32G32B32A32 view of the scratch buffer (one fetch per 4 weights; the threads
// of a channel group share the address, so the fetches hit the same cache lines) and groupshared memory holds
// only patches. Why: vkd3d translates a 16-byte groupshared load into four scalar ones, so the staged weights
// cost MT scalar groupshared loads per tap (72 of 102 per input channel at MT = CW = 8, 3x3), while a typed
// fetch is one vector instruction. With `prefetch` (view weights only) a chunk holds at most 8 channels and its
// global loads are issued before the previous chunk's multiply-adds and converted and stored after them, so their
// latency hides behind arithmetic instead of stalling the whole group at the barrier. With `split` the group handles one slice of the input channels (thread_group_id.z) and
// writes its int32 sums to a partial buffer; build_split_finalize_kernel adds the slices and requantizes.
struct FloatConvKernelOptions {
    bool input_signed = false;
    bool output_signed = false;
    bool has_input_zero_point = false;
    uint32_t channels_per_thread = 8;  // MT: 4 or 8
    uint32_t columns_per_thread = 8;   // CW: 4 or 8
    uint32_t column_units = 7;         // TCU: threads along a row (CW columns each)
    uint32_t rows = 4;                 // TR: output rows per group
    uint32_t channel_groups = 8;       // CG: MT-channel thread groups per group (block channels BM = CG * MT)
    uint32_t kernel_h = 3;             // 1..7
    uint32_t kernel_w = 3;             // 1..7, at most CW + 1
    bool split = false;                // write int32 partial sums (per input-channel slice) instead of outputs
    bool single_run = false;           // (C/G or slice) * KH * KW <= 256: one float run, no int32 accumulators
    bool weights_from_view = false;    // weights fetched from a typed view (one more SRV), not staged
    bool prefetch = false;             // needs weights_from_view: chunks of <= 8 channels, the next one's loads
                                       // issued before this one's multiply-adds (held in registers over them)
    // 1..CW-1: a thread computes only the first live_columns of its CW columns, and the column units follow each
    // other at that stride (unit u starts at column u * live_columns): rows that CW does not divide lose no
    // multiply-adds (7x7: one unit of 7; 14x14: two of 7 instead of 16 columns). The other lanes' accumulators stay
    // 0 and are never stored. With split (partial sums in whole CW-column units) only with one column unit.
    // 0: every column is computed, units CW apart.
    uint32_t live_columns = 0;
    // 1, 2, 4 or 8: the multiply-add loop handles this many staged channels per iteration (then single channels
    // for the rest of a chunk), so that the driver's compiler sees their loads and multiply-adds in one basic
    // block and can issue the next channel's groupshared and weight loads before the current one's multiply-adds
    // (a 1x1 channel is 64 multiply-adds behind 10 loads: alone, each iteration waits out the loads' latency).
    uint32_t channel_unroll = 1;
};

// The Winograd kernel F(2x2, 3x3), exact in integers, for 3x3 stride-1 dilation-1 convolutions with input W stride
// 1. With d = x - xz (a 4x4 input patch), g = w - wz (3x3), B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],
// G~ = [1 0 0; 1 1 1; 1 -1 1; 0 0 1] and A^T = [2 1 1 0; 0 1 -1 -2], the 2x2 output tile times 4 is
// A^T [sum over input channels of (G~ g G~^T) . (B^T d B)] A: Lagrange's 1/2 factors moved from G onto A, so every
// transformed value is an integer (a +-1 combination of values within one 255-wide window: |.| <= 255 * the larger
// count of + or - coefficients), the 16 element-wise products per channel replace 36 multiply-adds, and the final
// sum (4 * the int32 accumulator of the direct kernels, < 2^31 while C/G <= 917) is computed in wrapping int32
// arithmetic: exact. Centring: the kernel transforms d - k = x - centre (centre 128 for UINT8 inputs, 0 for INT8;
// padding stages xz - centre) with k = centre - xz, so every staged value lies in [-128, 127]. Only position (1, 1)
// has coefficients that do not cancel (all four +1), where B^T d B = B^T (d - k) B + 4k, so each output's sum is the
// centred one plus k * S[m], S[m] = the sum of all of channel m's (w - wz) (each output window's 9 taps x C/G
// channels): build_winograd_weights_kernel adds each channel's position-(1, 1) weight into S[m] with atomics (the
// prep kernel zeroes it) and the conv kernel adds k * S[m] after the output transform. Why: |B^T d B| at (1, 1) drops
// from 1020 to 512 (|G~ g G~^T| <= 2295 there). Per position xi = (i, j) a float run of at most
// floor(2^24 / (bound_V * bound_U)) channels (14 at (1, 1), 21 to 129 elsewhere: internal::winograd_run_channels)
// stays an exact float integer; then it is converted and added to an int32 accumulator (as the float kernel's runs).
// Position (1, 1)'s run was 7 before centring, and its flushes cost ~36 us of 266 on an H100's 14x14 layer (the
// warps holding it flush while the others wait at the chunk barrier; results/h100_2026-11-28_winograd).
// A thread group is 16 positions x KG channel groups x TG tile groups (thread_group {TG, KG, 16}); a thread
// accumulates, for its position, MT output channels x NT tiles (a plain outer-product GEMM step per input channel:
// NT transformed inputs from groupshared memory, MT transformed weights as 16-byte texels of the weight buffer that
// build_winograd_weights_kernel writes, [c][xi][Mp] floats). Tiles come in "units" of two side by side (2 output
// rows x 4 columns, one output word per row where aligned), flattened over (n, tile row, unit column). Per chunk of
// input channels the group stages the transformed input tiles (each thread loading a unit's 4x6 input bytes as 3
// words per row); after the reduction the accumulators go through groupshared memory in passes of PC channels, and
// one thread per (channel, unit) applies A^T . A, shifts out the factor 4 and requantizes (emit_store_tile).
struct WinogradConvKernelOptions {
    bool input_signed = false;
    bool output_signed = false;
    bool has_input_zero_point = false;
    uint32_t channels_per_thread = 8;  // MT: 4 or 8
    uint32_t tiles_per_thread = 8;     // NT: 4 or 8
    uint32_t channel_groups = 4;       // KG
    uint32_t tile_groups = 4;          // TG
    uint32_t channels_per_step = 1;    // input channels per unrolled GEMM step: 1, 2 or 4
    // Input channels staged per chunk at most (1..64; fewer where groupshared memory or 2 staging jobs per thread
    // bound it): a larger chunk halves the barriers and idle stagers per channel but its groupshared memory can cost
    // the second resident group (H100, 14x14: kg16/tg1 235 us at 32 against 245 at 16; kg8/tg2 241 at 24, 341 at 30,
    // where its ~33 KB leave one group per multiprocessor; results/h100_2026-11-28_winograd).
    uint32_t max_chunk_channels = 16;
};

// Adds the `splits` partial sums of each output and requantizes (one thread per 4 columns of one output row).
struct SplitFinalizeKernelOptions {
    bool output_signed = false;
    uint32_t splits = 2;
};

Result<std::vector<uint8_t>> build_prep_kernel(const PrepKernelOptions& options);
Result<std::vector<uint8_t>> build_conv_kernel(const ConvKernelOptions& options);
Result<std::vector<uint8_t>> build_tiled_conv_kernel(const TiledConvKernelOptions& options);
Result<std::vector<uint8_t>> build_float_conv_kernel(const FloatConvKernelOptions& options);
Result<std::vector<uint8_t>> build_split_finalize_kernel(const SplitFinalizeKernelOptions& options);
// One thread per (input channel c < C/G, padded output channel m < Mp): G~ g G~^T of the prep kernel's float filter
// (scratch, [c][kh][kw][Mp], u1) into the Winograd weight buffer ([c][xi][Mp] floats, u0), and its position (1, 1)
// added into the filter sum S[m] after the scratch buffer's filter (atomics; see WinogradConvKernelOptions).
Result<std::vector<uint8_t>> build_winograd_weights_kernel();
Result<std::vector<uint8_t>> build_winograd_conv_kernel(const WinogradConvKernelOptions& options);

struct PlanOptions {
    // build_conv_kernel: 8 output channels per thread only when that still leaves this many threads (tests lower
    // it to 0 to cover the 8-channel kernels on small cases). The tiled kernel takes 8 whenever M / G allows.
    uint64_t wide_tile_min_threads = 40000;
    // Use the tiled kernel where it applies (tests turn it off to cover build_conv_kernel on the same shapes).
    bool allow_tiled = true;
    // Output columns per thread of the tiled kernel: 4 or 8; 0 lets the planner choose.
    uint32_t tiled_columns = 0;
    // Window (bytes, log2) of each view of InputTensor / OutputTensor: 29 (512 MiB, the Vulkan limit) for real
    // use; tests lower it (8..29) so that small tensors span several views and exercise the multi-view kernels.
    uint32_t window_log2 = 29;
    // Use the float kernel where it applies (tests turn it off to keep covering the integer kernels).
    bool allow_float = true;
    // Float kernel geometry for tests: 0 lets the planner choose; otherwise these replace its choice (MT, CW,
    // rows per group, channel groups per group, input-channel slices).
    uint32_t float_channels = 0, float_columns = 0, float_rows = 0, float_channel_groups = 0, float_splits = 0;
    // Threads per group the float kernel's rows and channel groups aim at; 0: the planner's (256, or 512 for a
    // single float run). Autotuning varies it.
    uint32_t float_target_threads = 0;
    // The float kernel's weights from a typed view instead of groupshared memory (FloatConvKernelOptions): tuned on
    // an H100, the view won on all 8 ResNet-50 perf shapes, 1.03-1.34x the staged heuristic plans
    // (results/h100_2026-11-27_wview).
    bool float_weights_from_view = true;
    // The float kernel's next chunk loaded during the current one's multiply-adds (FloatConvKernelOptions::prefetch);
    // unset: the planner's rule (with the view, for 1x1 kernels).
    std::optional<bool> float_prefetch = std::nullopt;
    // The float kernel's channels per multiply-add iteration (FloatConvKernelOptions::channel_unroll); 0: the
    // planner's (4 with prefetch where a chunk holds 4 channels, else 1).
    uint32_t float_channel_unroll = 0;
    // Which conv kernel the plan must use (autotuning's variants name their kernel; a shape it does not apply to
    // is kUnsupported instead of silently taking another). kAny: the planner's choice.
    enum class Kernel { kAny, kFloat, kTiled, kDirect, kWinograd };
    // The Winograd kernel's geometry (WinogradConvKernelOptions: MT, NT, KG, TG); used with Kernel::kWinograd only.
    uint32_t winograd_channels = 8, winograd_tiles = 8, winograd_channel_groups = 4, winograd_tile_groups = 4,
             winograd_steps = 1, winograd_chunk = 16;
    Kernel kernel = Kernel::kAny;
};

// Autotuning (docs/benchmarks.md: Autotuning; Op::device_plan_variants): the named alternatives to the planner's choice for
// this desc, and the plan of one name. Names spell the geometry they run: "float/mt8/cw8/tr4/cg8/s2" (the float
// kernel with MT channels, CW columns per thread, TR rows and CG channel groups per thread group, S input-channel
// slices; a "/wview" suffix: weights from a typed view, "/wview/pf": and the next chunk prefetched), "int-tiled/cw8",
// "int-direct". Every variant computes the same outputs (exact integer accumulation).
std::vector<std::string> plan_variants(const QuantizedLinearConvolutionDesc& desc);
Result<DevicePlan> plan_variant(const QuantizedLinearConvolutionDesc& desc, std::string_view name);

// The planner's choice (Op::plan_device, the plan `--autotune off` runs and the tuner's baseline): the Winograd kernel
// in its first geometry (plan_variants.cpp: kWinogradGeometries) where it applies (3x3, stride 1, output channels in
// whole blocks of 64), which won the tuning of every such ResNet-50 layer on an H100 and an H200 (1.10-1.35x the
// float kernel: results/h100_2026-11-28_winograd/, results/h200_2026-11-28_full_runs/); else
// plan_quantized_linear_convolution's own choice among the float and integer kernels.
Result<DevicePlan> plan_default(const QuantizedLinearConvolutionDesc& desc);

// The dispatches for a parsed desc, or kUnsupported with the reason (accumulator range, input/output over
// 4 GiB, filter or scratch buffer over one 512 MiB view).
Result<DevicePlan> plan_quantized_linear_convolution(const QuantizedLinearConvolutionDesc& desc,
                                                     const PlanOptions& options = {});

}  // namespace dmltool::ops::quantized_linear_convolution
