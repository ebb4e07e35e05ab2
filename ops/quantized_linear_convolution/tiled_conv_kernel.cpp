// The tiled conv kernel (W stride 1, KH and KW <= 7, groupshared filter chunks; see TiledConvKernelOptions).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;

Result<std::vector<uint8_t>> build_tiled_conv_kernel(const TiledConvKernelOptions& o) {
    const uint32_t mt = o.channels_per_thread, cw = o.columns_per_thread;
    const uint32_t kh_count = o.kernel_h, kw_count = o.kernel_w;
    if (mt != 1 && mt != 2 && mt != 4 && mt != 8)
        return invalid_input("tiled conv kernel: channels_per_thread must be 1, 2, 4 or 8");
    if (cw != 4 && cw != 8) return invalid_input("tiled conv kernel: columns_per_thread must be 4 or 8");
    if (kh_count < 1 || kh_count > kMaxTiledKernel || kw_count < 1 || kw_count > kMaxTiledKernel)
        return invalid_input("tiled conv kernel: kernel_h and kernel_w must be 1..7");
    const uint32_t taps = kh_count * kw_count;
    const uint32_t chunk = tiled_chunk_channels(mt, kh_count, kw_count);
    const uint32_t quads = cw / 4;                      // 4-column accumulators per channel
    const uint32_t window = cw + kw_count - 1;          // input bytes of one row that the thread's taps read
    const uint32_t window_quads = (window + 3) / 4;     // funnel-shifted words holding them
    const uint32_t words = window_quads + 1;            // input words loaded per row (any byte alignment)
    DMLTOOL_RETURN_IF_ERROR(check_views("tiled conv kernel", o.input_views, o.output_views, o.window_log2));
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const ConvResources resources =
        bind_conv_resources(b, o.input_views, o.output_views, o.window_log2, o.has_input_zero_point);
    const TensorViews& input = resources.input;
    const Resource scratch = resources.scratch;
    const Resource input_zp = resources.input_zero_point;
    const TensorViews& output = resources.output;
    const bool multi_view_input = o.input_views > 1;
    const Resource shared = b.groupshared_raw(chunk * taps * mt * 4);
    const Extend input_extend = o.input_signed ? Extend::kSign : Extend::kZero;

    // kThreads is a whole number of groups: this branch (and every loop with a barrier) is uniform per group.
    Operand thread = shaders::linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());
    Operand g = b.temp();  // x group, y lane, z spatial block, w channel tile
    b.ushr(g.x(), thread, imm(6));
    b.and_(g.y(), thread, imm(kThreadsPerGroup - 1));
    b.udiv(g.z(), g.w(), g.x(), rc(kChannelTiles));
    Operand s = b.temp();  // x spatial unit (clamped), y valid, z last unit
    b.imad(s.x(), g.z(), imm(kThreadsPerGroup), g.y());
    b.ult(s.y(), s.x(), rc(kSpatialUnits));
    b.iadd(s.z(), rc(kSpatialUnits), imm_i(-1));
    b.umin(s.x(), s.x(), s.z());
    Operand sp = b.temp();  // x n, y oh, z column group, w remainder
    b.udiv(sp.x(), sp.w(), s.x(), rc(kUnitsPerImage));
    b.udiv(sp.y(), sp.z(), sp.w(), rc(kColumnGroups));
    Operand p = b.temp();  // x m0, y convolution group, z ow0
    b.imul(p.x(), g.w(), imm(mt));
    b.udiv(p.y(), shaders::null_operand(), p.x(), rc(kChannelsPerGroup));
    b.imul(p.z(), sp.z(), imm(cw));
    Operand pos = b.temp();  // x input channel base (elements), y ih0, z iw0 (W stride 1: iw = ow - pad)
    b.imul(pos.x(), sp.x(), rc(kInStrideN));
    b.imad(pos.x(), p.y(), rc(kGroupInStride), pos.x());
    b.imul(pos.y(), sp.y(), rc(kStrideH));
    b.isub(pos.y(), pos.y(), rc(kPadH));
    b.isub(pos.z(), p.z(), rc(kPadW));
    // Per kh: x row offset (ih * H stride + iw0, relative to the channel base), y row mask. Per window quad:
    // the column masks (negative columns wrap to huge: masked).
    std::vector<Operand> rows, column_masks;
    for (uint32_t kh = 0; kh < kh_count; ++kh) {
        rows.push_back(b.temp());
        b.imad(rows.back().y(), imm(kh), rc(kDilationH), pos.y());
        b.imad(rows.back().x(), rows.back().y(), rc(kInStrideH), pos.z());
        b.ult(rows.back().y(), rows.back().y(), rc(kInH));
    }
    for (uint32_t q = 0; q < window_quads; ++q) {
        column_masks.push_back(b.temp());
        b.iadd(column_masks.back().xyzw(), pos.z(), imm4(4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3));
        b.ult(column_masks.back().xyzw(), column_masks.back().xyzw(), rc(kInW));
    }
    Operand xz = b.temp();
    if (o.has_input_zero_point) shaders::load_element(b, TensorViews::single(input_zp), 1, imm(0), xz.x(), input_extend);
    std::vector<Operand> acc;  // acc[j * quads + h]: channel m0 + j, columns ow0 + 4h .. + 3
    for (uint32_t i = 0; i < mt * quads; ++i) {
        acc.push_back(b.temp());
        b.mov(acc.back().xyzw(), imm(0));
    }
    // Cooperative filter load: word i of a chunk is (tap row i / MT, channel m0 + i % MT); a thread's words are
    // lane, lane + 64, ...: the channel stays lane % MT and the tap row advances by 64 / MT (kLoadStep bytes).
    Operand ld = b.temp();  // x source of the thread's first word in the chunk, y word index, z source, w dest
    {
        Operand u = b.temp();
        b.and_(u.x(), g.y(), imm(mt - 1));
        b.iadd(u.x(), u.x(), p.x());
        b.ishl(u.x(), u.x(), imm(2));
        b.iadd(u.x(), u.x(), rc(kFilterRegion));
        b.ushr(u.y(), g.y(), imm(mt == 1 ? 0 : mt == 2 ? 1 : mt == 4 ? 2 : 3));
        b.imad(ld.x(), u.y(), rc(kTapBytes), u.x());
    }
    Operand lc = b.temp();  // x chunk's first channel, y channels in the chunk, z channel in chunk, w flag
    Operand cur = b.temp();  // x channel base (elements), y groupshared offset of the channel, z row word, w shift
    Operand addr = b.temp(), word_lo = b.temp(), word_hi = b.temp(), sh = b.temp(), wv0 = b.temp(), wv1 = b.temp();
    std::vector<Operand> bytes, xv;
    for (uint32_t q = 0; q < window_quads; ++q) bytes.push_back(b.temp());
    for (uint32_t h = 0; h < quads; ++h) xv.push_back(b.temp());
    const auto word = [&](uint32_t k) { return k < 4 ? word_lo.component(k) : word_hi.component(k - 4); };
    b.mov(lc.x(), imm(0));
    b.mov(cur.x(), pos.x());
    b.loop();  // chunks
    b.uge(lc.w(), lc.x(), rc(kInChannelsPerGroup));
    b.breakc_nz(lc.w());
    b.isub(lc.y(), rc(kInChannelsPerGroup), lc.x());
    b.umin(lc.y(), lc.y(), rc(kChunkChannels));
    {
        Operand n_words = b.temp();
        b.imul(n_words.x(), lc.y(), imm(taps * mt));
        b.mov(ld.y(), g.y());
        b.mov(ld.z(), ld.x());
        b.ishl(ld.w(), g.y(), imm(2));
        b.loop();  // this thread's words of the chunk
        b.uge(lc.w(), ld.y(), n_words.x());
        b.breakc_nz(lc.w());
        b.ld_raw(wv0.x(), ld.z(), scratch);
        b.store_raw(shared, ld.w(), wv0.x());
        b.iadd(ld.y(), ld.y(), imm(kThreadsPerGroup));
        b.iadd(ld.z(), ld.z(), rc(kLoadStep));
        b.iadd(ld.w(), ld.w(), imm(kThreadsPerGroup * 4));
        b.endloop();
    }
    b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);
    b.mov(lc.z(), imm(0));
    b.mov(cur.y(), imm(0));
    b.loop();  // channels of the chunk
    b.uge(lc.w(), lc.z(), lc.y());
    b.breakc_nz(lc.w());
    for (uint32_t kh = 0; kh < kh_count; ++kh) {
        // The row's window: `words` words from the aligned address below its first byte (clamped into the
        // buffer: a clamped word only holds padding columns, masked below), funnel-shifted by the alignment.
        b.iadd(cur.z(), cur.x(), rows[kh].x());
        b.and_(cur.w(), cur.z(), imm(3));
        b.ishl(sh.x(), cur.w(), imm(3));
        b.iadd(sh.y(), -sh.x(), imm(31));
        b.and_(cur.z(), cur.z(), imm(~3u));
        for (uint32_t k = 0; k < words; k += 4) {
            const uint32_t n = std::min(4u, words - k);
            b.iadd(addr.xyzw(), cur.z(), imm4(4 * k, 4 * k + 4, 4 * k + 8, 4 * k + 12));
            clamp_input_addresses(b, addr.xyzw(), multi_view_input);
            for (uint32_t i = 0; i < n; ++i) shaders::load_words(b, input, addr.component(i), word(k + i));
        }
        for (uint32_t q = 0; q < window_quads; ++q) {
            Operand f = bytes[q];
            b.ushr(f.x(), word(q), sh.x());
            b.ishl(f.y(), word(q + 1), imm(1));
            b.ishl(f.y(), f.y(), sh.y());
            b.or_(f.x(), f.x(), f.y());
            if (o.input_signed) b.ibfe(f.xyzw(), imm(8), imm4(0, 8, 16, 24), f.x());
            else b.ubfe(f.xyzw(), imm(8), imm4(0, 8, 16, 24), f.x());
            if (o.has_input_zero_point) b.isub(f.xyzw(), f.xyzw(), xz.x());
            b.and_(f.xyzw(), f.xyzw(), column_masks[q].xyzw());
            b.and_(f.xyzw(), f.xyzw(), rows[kh].y());
        }
        for (uint32_t kw = 0; kw < kw_count; ++kw) {
            for (uint32_t h = 0; h < quads; ++h) {
                const uint32_t first = kw + 4 * h;
                for (uint32_t i = 0; i < 4; ++i)
                    b.mov(xv[h].component(i), bytes[(first + i) / 4].component((first + i) % 4));
            }
            const uint32_t tap_offset = (kh * kw_count + kw) * mt * 4;
            b.iadd(addr.x(), cur.y(), imm(tap_offset));
            if (mt <= 4) {
                b.ld_raw(mt == 4 ? wv0.xyzw() : mt == 2 ? wv0.xy() : wv0.x(), addr.x(), shared);
            } else {
                b.ld_raw(wv0.xyzw(), addr.x(), shared);
                b.iadd(addr.y(), cur.y(), imm(tap_offset + 16));
                b.ld_raw(wv1.xyzw(), addr.y(), shared);
            }
            for (uint32_t j = 0; j < mt; ++j)
                for (uint32_t h = 0; h < quads; ++h)
                    b.imad(acc[j * quads + h].xyzw(), xv[h].xyzw(), (j < 4 ? wv0 : wv1).component(j % 4),
                           acc[j * quads + h].xyzw());
        }
    }
    b.iadd(lc.z(), lc.z(), imm(1));
    b.iadd(cur.x(), cur.x(), rc(kInStrideC));
    b.iadd(cur.y(), cur.y(), imm(taps * mt * 4));
    b.endloop();  // channels of the chunk
    b.sync(shaders::kSyncThreadsInGroup | shaders::kSyncGroupsharedMemory);
    b.iadd(lc.x(), lc.x(), rc(kChunkChannels));
    b.iadd(ld.x(), ld.x(), rc(kChunkBytes));
    b.endloop();  // chunks

    // Requantize and store (threads past the last spatial unit computed a duplicate: they store nothing).
    b.if_nz(s.y());
    emit_store_tile(b, o.output_signed, acc, mt, quads, sp.x(), sp.y(), p, scratch, output);
    b.endif();
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::quantized_linear_convolution
