// The general conv kernel (any strides and dilations, broadcast inputs; see kernel.h).
#include <cstdint>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;

Result<std::vector<uint8_t>> build_conv_kernel(const ConvKernelOptions& o) {
    const uint32_t mt = o.channels_per_thread;
    if (mt != 1 && mt != 2 && mt != 4 && mt != 8)
        return invalid_input("conv kernel: channels_per_thread must be 1, 2, 4 or 8");
    if (o.kernel_w > kMaxUnrolledKernelW) return invalid_input("conv kernel: kernel_w above the unrolled limit");
    DMLTOOL_RETURN_IF_ERROR(check_views("conv kernel", o.input_views, o.output_views, o.window_log2));
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const ConvResources resources =
        bind_conv_resources(b, o.input_views, o.output_views, o.window_log2, o.has_input_zero_point);
    const TensorViews& input = resources.input;
    const Resource scratch = resources.scratch;
    const Resource input_zp = resources.input_zero_point;
    const TensorViews& output = resources.output;
    const bool multi_view_input = o.input_views > 1;
    const Extend input_extend = o.input_signed ? Extend::kSign : Extend::kZero;

    Operand thread = shaders::linear_thread_index(b, rc(kThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kThreads));
    b.if_nz(t.x());

    // (n, channel tile, oh, column group), innermost last: neighbouring threads read neighbouring columns.
    const std::vector<Operand> coord =
        shaders::decompose_index(b, thread, 4, shaders::UintArray::root_constants(kSizeN));
    Operand n = coord[0], oh = coord[2];
    Operand p = b.temp();  // x m0, y group, z ow0, w scratch
    b.imul(p.x(), coord[1], imm(mt));
    b.udiv(p.y(), shaders::null_operand(), p.x(), rc(kChannelsPerGroup));
    b.ishl(p.z(), coord[3], imm(2));
    Operand pos = b.temp();  // x input channel base (elements), y ih0, z iw0, w filter base (bytes)
    b.imul(pos.x(), n, rc(kInStrideN));
    b.imad(pos.x(), p.y(), rc(kGroupInStride), pos.x());
    b.imul(pos.y(), oh, rc(kStrideH));
    b.isub(pos.y(), pos.y(), rc(kPadH));
    b.imul(pos.z(), p.z(), rc(kStrideW));
    b.isub(pos.z(), pos.z(), rc(kPadW));
    b.ishl(pos.w(), p.x(), imm(2));
    b.iadd(pos.w(), pos.w(), rc(kFilterRegion));
    Operand iwv = b.temp();  // input column of each of the 4 outputs at kw = 0
    b.imad(iwv.xyzw(), imm4(0, 1, 2, 3), rc(kStrideW), pos.z());
    Operand xz = b.temp();
    if (o.has_input_zero_point) shaders::load_element(b, TensorViews::single(input_zp), 1, imm(0), xz.x(), input_extend);
    std::vector<Operand> acc;
    for (uint32_t j = 0; j < mt; ++j) {
        acc.push_back(b.temp());
        b.mov(acc.back().xyzw(), imm(0));
    }

    Operand lc = b.temp();  // x c, y kh, z kw, w exit flag
    Operand row = b.temp();  // x input row offset, y ih, z filter offset of the row, w filter offset of the tap
    Operand cur = b.temp();
    Operand ok = b.temp(), off = b.temp(), sh = b.temp(), word = b.temp(), xv = b.temp();
    std::vector<Operand> wv(mt > 4 ? 2 : 1);
    for (Operand& w : wv) w = b.temp();
    // With KW baked in, the per-kw input columns and their padding masks depend only on the thread: compute
    // them once, outside the channel and row loops.
    const uint32_t kw_count = o.kernel_w;
    std::vector<Operand> kw_columns, kw_masks;
    for (uint32_t kw = 0; kw < kw_count; ++kw) {
        kw_columns.push_back(b.temp());
        kw_masks.push_back(b.temp());
        b.imad(kw_columns.back().xyzw(), imm(kw), rc(kDilationW), iwv.xyzw());
        b.ult(kw_masks.back().xyzw(), kw_columns.back().xyzw(), rc(kInW));  // negative columns wrap: masked
    }
    // One tap: x of the 4 outputs (padding masked to 0) times the MT shifted weights at filter_address.
    const auto emit_tap = [&](Operand columns, Operand mask, Operand filter_address) {
        if (o.packed_w) {
            // The 4 columns are 4 consecutive bytes: load the two words covering them and funnel-shift. Word
            // addresses are clamped into the buffer; a clamped word only holds padding columns, masked below.
            b.iadd(off.x(), row.x(), columns.x());
            b.and_(off.y(), off.x(), imm(~3u));
            b.and_(sh.x(), off.x(), imm(3));
            b.ishl(sh.x(), sh.x(), imm(3));
            b.iadd(off.z(), off.y(), imm(4));
            clamp_input_addresses(b, off.yz(), multi_view_input);
            shaders::load_words(b, input, off.y(), word.x());
            shaders::load_words(b, input, off.z(), word.y());
            b.ushr(word.x(), word.x(), sh.x());
            b.ishl(word.y(), word.y(), imm(1));
            b.iadd(sh.y(), -sh.x(), imm(31));
            b.ishl(word.y(), word.y(), sh.y());
            b.or_(word.x(), word.x(), word.y());
            if (o.input_signed) b.ibfe(xv.xyzw(), imm(8), imm4(0, 8, 16, 24), word.x());
            else b.ubfe(xv.xyzw(), imm(8), imm4(0, 8, 16, 24), word.x());
        } else {
            b.imad(off.xyzw(), columns.xyzw(), rc(kInStrideW), row.x());
            b.and_(off.xyzw(), off.xyzw(), mask.xyzw());  // keep masked addresses inside the buffer
            b.and_(sh.xyzw(), off.xyzw(), imm(3));
            b.ishl(sh.xyzw(), sh.xyzw(), imm(3));
            b.and_(off.xyzw(), off.xyzw(), imm(~3u));
            for (uint32_t j = 0; j < 4; ++j) shaders::load_words(b, input, off.component(j), word.component(j));
            if (o.input_signed) b.ibfe(xv.xyzw(), imm(8), sh.xyzw(), word.xyzw());
            else b.ubfe(xv.xyzw(), imm(8), sh.xyzw(), word.xyzw());
        }
        if (o.has_input_zero_point) b.isub(xv.xyzw(), xv.xyzw(), xz.x());
        b.and_(xv.xyzw(), xv.xyzw(), mask.xyzw());
        if (mt <= 4) {
            b.ld_raw(mt == 4 ? wv[0].xyzw() : mt == 2 ? wv[0].xy() : wv[0].x(), filter_address, scratch);
        } else {
            b.ld_raw(wv[0].xyzw(), filter_address, scratch);
            b.iadd(sh.z(), filter_address, imm(16));
            b.ld_raw(wv[1].xyzw(), sh.z(), scratch);
        }
        for (uint32_t j = 0; j < mt; ++j)
            b.imad(acc[j].xyzw(), xv.xyzw(), wv[j / 4].component(j % 4), acc[j].xyzw());
    };
    b.mov(lc.x(), imm(0));
    b.loop();  // c
    b.uge(lc.w(), lc.x(), rc(kInChannelsPerGroup));
    b.breakc_nz(lc.w());
    b.mov(lc.y(), imm(0));
    b.mov(row.y(), pos.y());
    b.imad(row.x(), pos.y(), rc(kInStrideH), pos.x());
    b.mov(row.z(), pos.w());
    b.loop();  // kh
    b.uge(lc.w(), lc.y(), rc(kKernelH));
    b.breakc_nz(lc.w());
    b.ult(lc.w(), row.y(), rc(kInH));
    b.if_nz(lc.w());
    if (kw_count > 0) {
        for (uint32_t kw = 0; kw < kw_count; ++kw) {
            if (kw == 0) b.mov(row.w(), row.z());
            else b.iadd(row.w(), row.w(), rc(kTapBytes));
            emit_tap(kw_columns[kw], kw_masks[kw], row.w());
        }
    } else {
        b.mov(lc.z(), imm(0));
        b.mov(cur.xyzw(), iwv.xyzw());
        b.mov(row.w(), row.z());
        b.loop();  // kw
        b.uge(lc.w(), lc.z(), rc(kKernelW));
        b.breakc_nz(lc.w());
        b.ult(ok.xyzw(), cur.xyzw(), rc(kInW));  // padding columns (negative ones wrap to huge) contribute 0
        emit_tap(cur, ok, row.w());
        b.iadd(cur.xyzw(), cur.xyzw(), rc(kDilationW));
        b.iadd(row.w(), row.w(), rc(kTapBytes));
        b.iadd(lc.z(), lc.z(), imm(1));
        b.endloop();  // kw
    }
    b.endif();
    b.iadd(lc.y(), lc.y(), imm(1));
    b.iadd(row.y(), row.y(), rc(kDilationH));
    b.iadd(row.x(), row.x(), rc(kRowStep));
    b.iadd(row.z(), row.z(), rc(kRowBytes));
    b.endloop();  // kh
    b.iadd(lc.x(), lc.x(), imm(1));
    b.iadd(pos.x(), pos.x(), rc(kInStrideC));
    b.iadd(pos.w(), pos.w(), rc(kChannelBytes));
    b.endloop();  // c

    // Requantize and store each channel's 4 outputs.
    emit_store_tile(b, o.output_signed, acc, mt, 1, n, oh, p, scratch, output);
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::quantized_linear_convolution
