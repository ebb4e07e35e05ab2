// The float conv kernel (see FloatConvKernelOptions in kernel.h) and its groupshared layout.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;
namespace {

uint32_t log2_exact(uint32_t v) { return v == 8 ? 3 : v == 4 ? 2 : v == 2 ? 1 : 0; }
uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// Input channels staged per pass with their loads issued together (more would hold more registers).
constexpr uint32_t kStageChannels = 4;
// With prefetch a whole chunk's loads are held in registers over the multiply-adds: chunks of at most this many
// (16 measured slower than 8 on the H100's 1x1 layer at every geometry and unroll: results/h100_2026-11-28_unroll).
constexpr uint32_t kPrefetchChannels = 8;

}  // namespace

Result<FloatConvLayout> internal::float_conv_layout(const FloatConvKernelOptions& o) {
    const auto bad = [](const std::string& what) { return invalid_input("float conv kernel: " + what); };
    if (o.channels_per_thread != 4 && o.channels_per_thread != 8) return bad("channels_per_thread must be 4 or 8");
    if (o.columns_per_thread != 4 && o.columns_per_thread != 8) return bad("columns_per_thread must be 4 or 8");
    if (o.kernel_h < 1 || o.kernel_h > kMaxTiledKernel || o.kernel_w < 1 || o.kernel_w > kMaxTiledKernel)
        return bad("kernel_h and kernel_w must be 1..7");
    // A thread's row window (CW + KW - 1 columns) may reach into the next unit only.
    if (o.kernel_w > o.columns_per_thread + 1) return bad("kernel_w must be at most columns_per_thread + 1");
    if (o.column_units < 1 || o.rows < 1 || o.channel_groups < 1) return bad("empty thread group");
    if (o.live_columns != 0 && o.live_columns >= o.columns_per_thread)
        return bad("live_columns must be 0 or below columns_per_thread");
    if (o.live_columns != 0 && o.split && o.column_units != 1)
        return bad("live_columns with split needs one column unit (partial sums are stored in whole units)");
    // Columns from one unit's start to the next one's.
    const uint32_t unit_columns = o.live_columns ? o.live_columns : o.columns_per_thread;
    if (o.kernel_w > unit_columns + 1) return bad("kernel_w must be at most live_columns + 1");
    if (o.channel_unroll != 1 && o.channel_unroll != 2 && o.channel_unroll != 4 && o.channel_unroll != 8)
        return bad("channel_unroll must be 1, 2, 4 or 8");
    FloatConvLayout l;
    l.threads = o.column_units * o.rows * o.channel_groups;
    if (l.threads > 1024) return bad("more than 1024 threads per group");
    l.taps = o.kernel_h * o.kernel_w;
    l.block_channels = o.channels_per_thread * o.channel_groups;
    l.patch_rows = o.rows + o.kernel_h - 1;
    l.patch_cols = o.column_units * unit_columns + o.kernel_w - 1;
    l.unit_stride = o.column_units + 1;
    // Row stride = TCU (mod 32): the threads of a channel group (TCU per row) read 32 consecutive banks.
    const uint32_t min_row = unit_columns * l.unit_stride;
    l.row_stride = min_row + (o.column_units % 32 + 32 - min_row % 32) % 32;
    l.patch_floats = l.patch_rows * l.row_stride;
    l.weight_floats = o.weights_from_view ? 0 : l.taps * l.block_channels;
    l.chunk_channels = std::min(kMaxExactTaps / l.taps, (kSharedFloats - 1) / (l.patch_floats + l.weight_floats));
    if (o.prefetch) {
        if (!o.weights_from_view) return bad("prefetch needs weights_from_view");
        l.chunk_channels = std::min(l.chunk_channels, kPrefetchChannels);
    }
    if (l.chunk_channels < 1) return bad("one input channel's patch and weights exceed 32 KiB of groupshared memory");
    l.weight_region = l.chunk_channels * l.patch_floats;
    l.shared_floats = l.chunk_channels * (l.patch_floats + l.weight_floats);
    return l;
}

Result<std::vector<uint8_t>> build_float_conv_kernel(const FloatConvKernelOptions& o) {
    DMLTOOL_ASSIGN_OR_RETURN(const FloatConvLayout l, float_conv_layout(o));
    const uint32_t mt = o.channels_per_thread, cw = o.columns_per_thread, quads = cw / 4;
    // uc: columns from one unit's start to the next and those a thread computes (live_columns, else CW); the
    // thread's window holds them and the KW - 1 columns after.
    const uint32_t uc = o.live_columns ? o.live_columns : cw;
    const uint32_t kh_count = o.kernel_h, kw_count = o.kernel_w, window = uc + kw_count - 1;
    ProgramBuilder b({.thread_group = {o.column_units, o.rows, o.channel_groups}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const ConvResources resources =
        bind_conv_resources(b, 1, 1, shaders::kMaxViewBytesLog2, o.has_input_zero_point);
    const Resource input = resources.input.views[0];
    const Resource scratch = resources.scratch;
    // The scratch buffer again as 16-byte texels (the SRV after bind_conv_resources' ones), for the weights.
    const Resource weight_texels =
        o.weights_from_view ? b.srv_typed_uint4(2 + (o.has_input_zero_point ? 1 : 0)) : Resource{};
    const Resource shared = b.groupshared_raw(l.shared_floats * 4 + 4);  // + the dummy float
    const Extend input_extend = o.input_signed ? Extend::kSign : Extend::kZero;
    const Operand tid = b.thread_id_in_group();  // x column unit, y row, z channel group
    const Operand gid = b.thread_group_id();     // x spatial block, y channel block, z input-channel slice

    Operand id = b.temp();  // x linear thread, y n, z row block, w column block
    b.imad(id.x(), tid.z(), imm(o.rows), tid.y());
    b.imad(id.x(), id.x(), imm(o.column_units), tid.x());
    b.udiv(id.y(), id.w(), gid.x(), rc(kSpatialBlocksPerImage));
    b.udiv(id.z(), id.w(), id.w(), rc(kColumnBlocks));
    Operand pos = b.temp();  // x oh, y ow0, z input row of patch row 0, w input column of patch column 0
    b.imad(pos.x(), id.z(), imm(o.rows), tid.y());
    b.imad(pos.y(), id.w(), imm(o.column_units), tid.x());
    b.imul(pos.y(), pos.y(), imm(uc));
    b.imul(pos.z(), id.z(), imm(o.rows));
    b.isub(pos.z(), pos.z(), rc(kPadH));
    b.imul(pos.w(), id.w(), imm(o.column_units * uc));
    b.isub(pos.w(), pos.w(), rc(kPadW));
    Operand p = b.temp();  // x m0 (the thread's first channel), y the block's first channel, z ow0, w conv group
    b.imul(p.y(), gid.y(), imm(l.block_channels));
    b.imad(p.x(), tid.z(), imm(mt), p.y());
    b.mov(p.z(), pos.y());
    b.udiv(p.w(), shaders::null_operand(), p.y(), rc(kChannelsPerGroup));
    Operand range = b.temp();  // x first input channel (within the group), y end, z its input byte address,
                               // w its filter offset in the scratch buffer
    if (o.split) {
        b.imul(range.x(), gid.z(), rc(kSplitChannels));
        b.iadd(range.y(), range.x(), rc(kSplitChannels));
        b.umin(range.y(), range.y(), rc(kInChannelsPerGroup));
    } else {
        b.mov(range.x(), imm(0));
        b.mov(range.y(), rc(kInChannelsPerGroup));
    }
    b.imul(range.z(), id.y(), rc(kInStrideN));
    b.imad(range.z(), p.w(), rc(kGroupInStride), range.z());
    b.imad(range.z(), range.x(), rc(kInStrideC), range.z());
    b.imul(range.w(), range.x(), rc(kChannelBytes));

    // Cooperative staging plans, fixed per thread: patch element e = thread + k * T (row e / cols, column
    // e % cols) and weight element e (tap e / BM, block channel e % BM), four k per register.
    const uint32_t patch_total = l.patch_rows * l.patch_cols;
    const uint32_t patch_loads = ceil_div(patch_total, l.threads);
    const uint32_t weight_loads = ceil_div(l.weight_floats, l.threads);
    std::vector<Operand> patch_offset, patch_slot, patch_mask;  // input offset in the channel, shared byte, 0/~0
    for (uint32_t q = 0; q < ceil_div(patch_loads, 4); ++q) {
        Operand e = b.temp(), r = b.temp(), x = b.temp(), t = b.temp();
        b.iadd(e.xyzw(), id.x(), imm4(l.threads * 4 * q, l.threads * (4 * q + 1), l.threads * (4 * q + 2),
                                      l.threads * (4 * q + 3)));
        b.udiv(r.xyzw(), x.xyzw(), e.xyzw(), imm(l.patch_cols));
        patch_offset.push_back(b.temp());
        patch_slot.push_back(b.temp());
        patch_mask.push_back(b.temp());
        const Operand off = patch_offset.back(), slot = patch_slot.back(), mask = patch_mask.back();
        // Shared slot: r * RowStride + (x % UC) * (TCU + 1) + x / UC.
        if (uc == cw) {
            b.and_(t.xyzw(), x.xyzw(), imm(cw - 1));
            b.ushr(slot.xyzw(), x.xyzw(), imm(log2_exact(cw)));
        } else {
            b.udiv(slot.xyzw(), t.xyzw(), x.xyzw(), imm(uc));
        }
        b.imul(t.xyzw(), t.xyzw(), imm(l.unit_stride));
        b.iadd(slot.xyzw(), slot.xyzw(), t.xyzw());
        b.imad(slot.xyzw(), r.xyzw(), imm(l.row_stride), slot.xyzw());
        b.ishl(slot.xyzw(), slot.xyzw(), imm(2));
        // Input position; rows and columns outside the input (negative ones wrap high) stage 0.
        b.iadd(r.xyzw(), r.xyzw(), pos.z());
        b.iadd(x.xyzw(), x.xyzw(), pos.w());
        b.ult(mask.xyzw(), r.xyzw(), rc(kInH));
        b.ult(t.xyzw(), x.xyzw(), rc(kInW));
        b.and_(mask.xyzw(), mask.xyzw(), t.xyzw());
        b.imul(off.xyzw(), r.xyzw(), rc(kInStrideH));
        b.imad(off.xyzw(), x.xyzw(), rc(kInStrideW), off.xyzw());
    }
    std::vector<Operand> weight_source, weight_slot;  // scratch byte address (channel 0 of the range), shared byte
    for (uint32_t q = 0; q < ceil_div(weight_loads, 4); ++q) {
        Operand e = b.temp(), tap = b.temp(), m = b.temp();
        b.iadd(e.xyzw(), id.x(), imm4(l.threads * 4 * q, l.threads * (4 * q + 1), l.threads * (4 * q + 2),
                                      l.threads * (4 * q + 3)));
        b.udiv(tap.xyzw(), m.xyzw(), e.xyzw(), imm(l.block_channels));
        weight_source.push_back(b.temp());
        weight_slot.push_back(b.temp());
        const Operand src = weight_source.back(), slot = weight_slot.back();
        b.iadd(m.xyzw(), m.xyzw(), p.y());
        b.ishl(m.xyzw(), m.xyzw(), imm(2));
        b.imad(src.xyzw(), tap.xyzw(), rc(kTapBytes), m.xyzw());
        b.iadd(src.xyzw(), src.xyzw(), rc(kFilterRegion));
        b.iadd(src.xyzw(), src.xyzw(), range.w());
        // Elements past the weights (the last k of some threads) load a real weight: their store goes to the
        // dummy float, and the load stays inside the scratch buffer.
        b.ult(tap.xyzw(), e.xyzw(), imm(l.weight_floats));
        b.movc(src.xyzw(), tap.xyzw(), src.xyzw(), rc(kFilterRegion));
        b.imad(slot.xyzw(), e.xyzw(), imm(4), imm(l.weight_region * 4));
    }
    Operand xz = b.temp();
    if (o.has_input_zero_point)
        shaders::load_element(b, TensorViews::single(resources.input_zero_point), 1, imm(0), xz.x(), input_extend);
    // Accumulators: fa[j * quads + h] (float, the current run) and ia (int32): channel m0 + j, columns
    // ow0 + 4h .. + 3. 0.0f and 0 share their bits.
    // With single_run the whole reduction is one run: ia is fa, converted in place at the end.
    std::vector<Operand> fa, ia;
    for (uint32_t i = 0; i < mt * quads; ++i) {
        fa.push_back(b.temp());
        ia.push_back(o.single_run ? fa.back() : b.temp());
        b.mov(fa.back().xyzw(), imm(0));
        if (!o.single_run) b.mov(ia.back().xyzw(), imm(0));
    }
    const auto flush = [&]() {
        Operand t = b.temp();
        for (uint32_t i = 0; i < mt * quads; ++i) {
            if (o.single_run) {
                b.ftoi(fa[i].xyzw(), fa[i].xyzw());
                continue;
            }
            b.ftoi(t.xyzw(), fa[i].xyzw());
            b.iadd(ia[i].xyzw(), ia[i].xyzw(), t.xyzw());
            b.mov(fa[i].xyzw(), imm(0));
        }
    };
    // The thread's read bases: its patch window (row r, unit cu) and its channel group's weights.
    Operand reads = b.temp();  // x patch byte, y weight byte
    b.imad(reads.x(), tid.y(), imm(l.row_stride), tid.x());
    b.ishl(reads.x(), reads.x(), imm(2));
    b.imad(reads.y(), tid.z(), imm(mt * 4), imm(l.weight_region * 4));

    // With weights_from_view: the texel of the thread's first 4 weights of the current channel's tap 0, and the
    // texels between taps and between channels (all byte offsets are multiples of 16: Mp and m0 are multiples of 4).
    Operand texel = b.temp();  // x texel index, y per tap, z per channel
    if (o.weights_from_view) {
        b.iadd(texel.x(), rc(kFilterRegion), range.w());
        b.imad(texel.x(), p.x(), imm(4), texel.x());
        b.ushr(texel.x(), texel.x(), imm(4));
        b.ushr(texel.y(), rc(kTapBytes), imm(4));
        b.ushr(texel.z(), rc(kChannelBytes), imm(4));
    }
    Operand cur = b.temp();   // x chunk start channel, y chunk end, z channel, w flag
    Operand walk = b.temp();  // x input byte address of channel z, y scratch offset of channel z, z/w shared bytes
    Operand run = b.temp();   // x taps in the current float run
    Operand a = b.temp(), v = b.temp(), sh = b.temp(), wa = b.temp(), w0 = b.temp(), w1 = b.temp();
    std::vector<Operand> pv, xv;
    for (uint32_t i = 0; i < ceil_div(window, 4); ++i) pv.push_back(b.temp());
    for (uint32_t h = 0; h < quads; ++h) xv.push_back(b.temp());
    // Channels whose loads are in registers at once: a pass of the staging loop, or (prefetch) a whole chunk.
    const uint32_t stage = o.prefetch ? l.chunk_channels : std::min(kStageChannels, l.chunk_channels);
    std::vector<Operand> stage_channel;
    std::vector<std::vector<Operand>> stage_patch(stage), stage_weight(stage);
    for (uint32_t u = 0; u < stage; ++u) {
        stage_channel.push_back(b.temp());
        for (uint32_t q = 0; q < ceil_div(patch_loads, 4); ++q) stage_patch[u].push_back(b.temp());
        for (uint32_t q = 0; q < ceil_div(weight_loads, 4); ++q) stage_weight[u].push_back(b.temp());
    }
    // Issues the loads of `stage` channels from walk.x (input bytes) / walk.y (scratch offset); `last` holds the
    // channels available - 1: channels past it re-load the last one (same values into the same slots later).
    const auto issue_loads = [&](Operand last) {
        for (uint32_t u = 0; u < stage; ++u) {
            const Operand ch = stage_channel[u];  // x channel offset (clamped), y input byte base, z scratch offset
            b.umin(ch.x(), imm(u), last);
            b.imad(ch.y(), ch.x(), rc(kInStrideC), walk.x());
            b.imad(ch.z(), ch.x(), rc(kChannelBytes), walk.y());
            for (uint32_t k = 0; k < patch_loads; ++k) {
                // The word holding the byte, clamped into the buffer (a clamped word feeds only masked padding).
                b.iadd(a.x(), patch_offset[k / 4].component(k % 4), ch.y());
                b.and_(a.x(), a.x(), imm(~3u));
                clamp_input_addresses(b, a.x(), false);
                b.ld_raw(stage_patch[u][k / 4].component(k % 4), a.x(), input);
            }
            for (uint32_t k = 0; k < weight_loads; ++k) {
                b.iadd(a.x(), weight_source[k / 4].component(k % 4), ch.z());
                b.ld_raw(stage_weight[u][k / 4].component(k % 4), a.x(), scratch);
            }
        }
    };
    // Converts what issue_loads loaded and stores it at groupshared offsets walk.z (patches) / walk.w (weights);
    // elements past the patch or the weights go to the dummy float after the chunk.
    const auto convert_and_store = [&]() {
        for (uint32_t u = 0; u < stage; ++u) {
            const Operand ch = stage_channel[u];
            for (uint32_t k = 0; k < patch_loads; ++k) {
                const Operand word = stage_patch[u][k / 4].component(k % 4);
                b.iadd(a.x(), patch_offset[k / 4].component(k % 4), ch.y());
                b.and_(sh.x(), a.x(), imm(3));
                b.ishl(sh.x(), sh.x(), imm(3));
                if (o.input_signed) b.ibfe(v.x(), imm(8), sh.x(), word);
                else b.ubfe(v.x(), imm(8), sh.x(), word);
                if (o.has_input_zero_point) b.isub(v.x(), v.x(), xz.x());
                b.and_(v.x(), v.x(), patch_mask[k / 4].component(k % 4));
                b.itof(v.x(), v.x());
                b.imad(a.z(), ch.x(), imm(l.patch_floats * 4), walk.z());
                b.iadd(a.z(), a.z(), patch_slot[k / 4].component(k % 4));
                if ((k + 1) * l.threads > patch_total) {  // some threads have no element here
                    b.ult(sh.w(), id.x(), imm(patch_total - k * l.threads));
                    b.movc(a.z(), sh.w(), a.z(), imm(l.shared_floats * 4));
                }
                b.store_raw(shared, a.z(), v.x());
            }
            for (uint32_t k = 0; k < weight_loads; ++k) {  // the prep kernel wrote them as float
                b.imad(a.z(), ch.x(), imm(l.weight_floats * 4), walk.w());
                b.iadd(a.z(), a.z(), weight_slot[k / 4].component(k % 4));
                if ((k + 1) * l.threads > l.weight_floats) {
                    b.ult(sh.w(), id.x(), imm(l.weight_floats - k * l.threads));
                    b.movc(a.z(), sh.w(), a.z(), imm(l.shared_floats * 4));
                }
                b.store_raw(shared, a.z(), stage_weight[u][k / 4].component(k % 4));
            }
        }
    };
    b.mov(cur.x(), range.x());
    b.mov(walk.x(), range.z());
    b.mov(walk.y(), imm(0));
    b.mov(run.x(), imm(0));
    if (o.prefetch) {  // the first chunk's loads (the slice is never empty)
        b.isub(sh.z(), range.y(), range.x());
        b.iadd(sh.z(), sh.z(), imm_i(-1));
        issue_loads(sh.z());
    }
    b.loop();  // chunks
    b.uge(cur.w(), cur.x(), range.y());
    b.breakc_nz(cur.w());
    b.iadd(cur.y(), cur.x(), imm(l.chunk_channels));
    b.umin(cur.y(), cur.y(), range.y());
    b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);  // the last chunk's reads are done
    b.mov(walk.zw(), imm(0));
    if (o.prefetch) {
        // The chunk was loaded while the previous one was multiplied: store it, then issue the next chunk's loads,
        // which stay in flight during this chunk's multiply-adds.
        convert_and_store();
        b.isub(sh.y(), cur.y(), cur.x());
        b.imad(walk.x(), sh.y(), rc(kInStrideC), walk.x());
        b.imad(walk.y(), sh.y(), rc(kChannelBytes), walk.y());
        b.ult(sh.w(), cur.y(), range.y());
        b.if_nz(sh.w());
        b.isub(sh.z(), range.y(), cur.y());
        b.iadd(sh.z(), sh.z(), imm_i(-1));
        issue_loads(sh.z());
        b.endif();
    } else {
        // Stage kStageChannels channels per pass: all their loads first, then the conversions and stores, so that
        // the loads' latencies overlap.
        b.mov(cur.z(), cur.x());
        b.loop();  // stage the chunk's channels
        b.uge(cur.w(), cur.z(), cur.y());
        b.breakc_nz(cur.w());
        b.isub(sh.z(), cur.y(), cur.z());
        b.iadd(sh.z(), sh.z(), imm_i(-1));  // channels left in the chunk - 1
        issue_loads(sh.z());
        convert_and_store();
        // Advance by the channels this pass staged (the chunk's last pass may stage fewer than `stage`).
        b.iadd(sh.y(), sh.z(), imm(1));
        b.umin(sh.y(), sh.y(), imm(stage));
        b.iadd(cur.z(), cur.z(), sh.y());
        b.imad(walk.x(), sh.y(), rc(kInStrideC), walk.x());
        b.imad(walk.y(), sh.y(), rc(kChannelBytes), walk.y());
        b.iadd(walk.z(), walk.z(), imm(stage * l.patch_floats * 4));
        b.iadd(walk.w(), walk.w(), imm(stage * l.weight_floats * 4));
        b.endloop();
    }
    b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);
    b.mov(cur.z(), cur.x());
    b.mov(wa.xy(), reads.xy());
    // The multiply-adds of staged channel `u` after the current one (wa and texel.x point at the current one).
    const auto emit_channel = [&](uint32_t u) {
        if (o.weights_from_view) b.imad(a.w(), texel.z(), imm(u), texel.x());  // the channel's tap-0 texel
        for (uint32_t kh = 0; kh < kh_count; ++kh) {
            for (uint32_t k = 0; k < window; ++k) {
                const uint32_t slot = u * l.patch_floats + kh * l.row_stride + (k % uc) * l.unit_stride + k / uc;
                b.iadd(a.x(), wa.x(), imm(slot * 4));
                b.ld_raw(pv[k / 4].component(k % 4), a.x(), shared);
            }
            for (uint32_t kw = 0; kw < kw_count; ++kw) {
                const uint32_t tap = kh * kw_count + kw;
                if (o.weights_from_view) {
                    b.imad(a.y(), texel.y(), imm(tap), a.w());
                    b.ld_typed(w0.xyzw(), a.y(), weight_texels);
                    if (mt == 8) {
                        b.iadd(a.z(), a.y(), imm(1));
                        b.ld_typed(w1.xyzw(), a.z(), weight_texels);
                    }
                } else {
                    const uint32_t tap_bytes = (u * l.weight_floats + tap * l.block_channels) * 4;
                    b.iadd(a.y(), wa.y(), imm(tap_bytes));
                    b.ld_raw(w0.xyzw(), a.y(), shared);
                    if (mt == 8) {
                        b.iadd(a.z(), wa.y(), imm(tap_bytes + 16));
                        b.ld_raw(w1.xyzw(), a.z(), shared);
                    }
                }
                std::vector<Operand> columns;  // the 4-column input vectors of this tap (quads with a live column)
                for (uint32_t h = 0; h < quads && 4 * h < uc; ++h) {
                    const uint32_t first = kw + 4 * h;
                    if (first % 4 == 0) {
                        columns.push_back(pv[first / 4].xyzw());
                        continue;
                    }
                    for (uint32_t i = 0; i < 4; ++i)  // lanes past the window feed only dead lanes
                        if (first + i < window)
                            b.mov(xv[h].component(i), pv[(first + i) / 4].component((first + i) % 4));
                    columns.push_back(xv[h].xyzw());
                }
                // Columns past live_columns (when set) belong to the next unit or to no output: no mad writes them.
                for (uint32_t j = 0; j < mt; ++j)
                    for (uint32_t h = 0; h < quads && 4 * h < uc; ++h) {
                        const uint32_t lanes = std::min(4u, uc - 4 * h);
                        const auto first_lanes = [&](Operand r) {
                            return lanes == 4 ? r.xyzw() : lanes == 3 ? r.xyz() : lanes == 2 ? r.xy() : r.x();
                        };
                        b.mad(first_lanes(fa[j * quads + h]), first_lanes(columns[h]),
                              (j < 4 ? w0 : w1).component(j % 4), first_lanes(fa[j * quads + h]));
                    }
            }
        }
    };
    // Steps past `count` channels: the channel counter, the patch and weight bases and the weight texel.
    const auto advance = [&](uint32_t count) {
        b.iadd(cur.z(), cur.z(), imm(count));
        b.iadd(wa.x(), wa.x(), imm(count * l.patch_floats * 4));
        b.iadd(wa.y(), wa.y(), imm(count * l.weight_floats * 4));
        if (o.weights_from_view) b.imad(texel.x(), texel.z(), imm(count), texel.x());
    };
    if (o.channel_unroll > 1) {
        b.loop();  // channel_unroll channels at a time while the chunk has that many left
        b.iadd(cur.w(), cur.z(), imm(o.channel_unroll));
        b.ult(cur.w(), cur.y(), cur.w());
        b.breakc_nz(cur.w());
        for (uint32_t u = 0; u < o.channel_unroll; ++u) emit_channel(u);
        advance(o.channel_unroll);
        b.endloop();
    }
    b.loop();  // the chunk's remaining channels one at a time
    b.uge(cur.w(), cur.z(), cur.y());
    b.breakc_nz(cur.w());
    emit_channel(0);
    advance(1);
    b.endloop();
    if (!o.single_run) {
        // Taps in the float run; flush before the next chunk could take it past kMaxExactTaps.
        b.isub(sh.x(), cur.y(), cur.x());
        b.imad(run.x(), sh.x(), imm(l.taps), run.x());
        b.iadd(sh.y(), run.x(), imm(l.chunk_channels * l.taps));
        b.ult(sh.y(), imm(kMaxExactTaps), sh.y());
        b.if_nz(sh.y());
        flush();
        b.mov(run.x(), imm(0));
        b.endif();
    }
    b.mov(cur.x(), cur.y());
    b.endloop();  // chunks
    flush();

    // Rows past OH (the last row block) computed padding: they store nothing.
    b.ult(sh.z(), pos.x(), rc(kOutH));
    b.if_nz(sh.z());
    if (o.split) {
        // Partial sums: [slice][n][m][oh][whole units of columns], int32, 16-byte aligned quads.
        Operand pa = b.temp();
        b.imul(pa.x(), gid.z(), rc(kPartialSplit));
        b.imad(pa.x(), id.y(), rc(kPartialN), pa.x());
        b.imad(pa.x(), p.x(), rc(kPartialM), pa.x());
        b.imad(pa.x(), pos.x(), rc(kPartialH), pa.x());
        b.iadd(pa.x(), pa.x(), pos.y());
        b.ishl(pa.x(), pa.x(), imm(2));
        b.ishl(pa.z(), rc(kPartialM), imm(2));
        for (uint32_t j = 0; j < mt; ++j) {
            if (j > 0) b.iadd(pa.x(), pa.x(), pa.z());
            for (uint32_t h = 0; h < quads; ++h) {
                b.iadd(pa.y(), pa.x(), imm(16 * h));
                b.store_raw(resources.output.views[0], pa.y(), ia[j * quads + h].xyzw());
            }
        }
    } else if (o.live_columns) {
        // A unit's dead lanes are the next unit's first columns (or past OW): stored by none but their owner.
        b.iadd(sh.x(), p.z(), imm(uc));
        b.umin(sh.x(), sh.x(), rc(kOutW));
        emit_store_tile(b, o.output_signed, ia, mt, quads, id.y(), pos.x(), p, scratch, resources.output, sh.x());
    } else {
        emit_store_tile(b, o.output_signed, ia, mt, quads, id.y(), pos.x(), p, scratch, resources.output);
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::quantized_linear_convolution
