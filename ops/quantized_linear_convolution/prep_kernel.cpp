// The prep kernel: the zero-point-shifted filter and the per-channel requantization records (see kernel.h).
#include <cstdint>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;
namespace {

// The record of channel m: exact fixed-point form of M = xs * ws[m] / ys (see kernel.h).
void emit_channel_record(ProgramBuilder& b, const PrepKernelOptions& o, Operand m, Resource input_scale,
                         Resource filter_scale, Resource output_scale, Resource bias, Resource output_zp,
                         Resource scratch) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    Operand f = b.temp();  // x = xs, y = ws[m], z = ys (float bits)
    Operand t = b.temp();
    b.imul(t.x(), m, rc(kPScaleStride));
    b.ishl(t.x(), t.x(), imm(2));
    b.ld_raw(f.x(), imm(0), input_scale);
    b.ld_raw(f.y(), t.x(), filter_scale);
    b.ld_raw(f.z(), imm(0), output_scale);
    Operand sign = b.temp();
    b.xor_(sign.x(), f.x(), f.y());
    b.xor_(sign.x(), sign.x(), f.z());
    b.ushr(sign.x(), sign.x(), imm(31));
    // Mantissa as a 24-bit integer and biased exponent (subnormals: exponent field 1, no implicit bit).
    Operand e = b.temp();
    Operand mant = b.temp();
    b.ubfe(e.xyz(), imm(8), imm(23), f.xyz());
    b.and_(mant.xyz(), f.xyz(), imm(0x7fffff));
    b.ine(t.xyz(), e.xyz(), imm(0));
    b.and_(t.xyz(), t.xyz(), imm(0x800000));
    b.or_(mant.xyz(), mant.xyz(), t.xyz());
    b.imax(e.xyz(), e.xyz(), imm(1));
    // N = mx * mw (48 bits, nh:nl) from 16-bit limbs: imul's low part is exact for each partial product.
    Operand lo = b.temp(), hi = b.temp(), n = b.temp();
    b.and_(lo.xy(), mant.xy(), imm(0xffff));
    b.ushr(hi.xy(), mant.xy(), imm(16));
    b.imul(t.x(), lo.x(), lo.y());                 // xl * wl
    b.imul(t.y(), lo.x(), hi.y());                 // xl * wh
    b.imad(t.y(), hi.x(), lo.y(), t.y());          // + xh * wl  (< 2^25)
    b.imul(t.z(), hi.x(), hi.y());                 // xh * wh
    b.ishl(t.w(), t.y(), imm(16));
    b.iadd(n.y(), t.x(), t.w());                   // nl
    b.ult(t.w(), n.y(), t.x());                    // carry (all ones)
    b.ushr(t.y(), t.y(), imm(16));
    b.iadd(n.x(), t.z(), t.y());
    b.isub(n.x(), n.x(), t.w());                   // nh (< 2^16)
    // Restoring long division N / my, one numerator bit per step (zeros after the 48th), until the quotient
    // has 32 significant bits. q = floor(N * 2^(count - 48) / my); the remainder stays below my < 2^24.
    Operand d = mant.z();
    Operand r = b.temp();  // x remainder, y quotient, z count, w scratch
    b.mov(r.xyz(), imm(0));
    b.loop();
    {
        Operand bit = b.temp();
        b.ushr(bit.x(), n.x(), imm(15));
        b.and_(bit.x(), bit.x(), imm(1));
        b.ishl(n.x(), n.x(), imm(1));
        b.and_(n.x(), n.x(), imm(0xffff));
        b.ushr(bit.y(), n.y(), imm(31));
        b.or_(n.x(), n.x(), bit.y());
        b.ishl(n.y(), n.y(), imm(1));
        b.ishl(r.x(), r.x(), imm(1));
        b.or_(r.x(), r.x(), bit.x());
        b.uge(bit.z(), r.x(), d);
        b.and_(bit.w(), bit.z(), d);
        b.isub(r.x(), r.x(), bit.w());
        b.ishl(r.y(), r.y(), imm(1));
        b.and_(bit.z(), bit.z(), imm(1));
        b.or_(r.y(), r.y(), bit.z());
        b.iadd(r.z(), r.z(), imm(1));
        b.uge(bit.w(), r.y(), imm(0x80000000u));
        b.breakc_nz(bit.w());
        b.uge(bit.w(), r.z(), imm(160));  // zero or non-finite scales (invalid cases) must still terminate
        b.breakc_nz(bit.w());
    }
    b.endloop();
    // Round half to even on the next quotient bit (the numerator is exhausted by now) and the remainder.
    Operand u = b.temp();
    b.ishl(u.x(), r.x(), imm(1));
    b.uge(u.y(), u.x(), d);                        // round bit
    b.and_(u.z(), u.y(), d);
    b.isub(u.x(), u.x(), u.z());
    b.ine(u.x(), u.x(), imm(0));                   // sticky
    b.and_(u.z(), r.y(), imm(1));
    b.ine(u.z(), u.z(), imm(0));                   // odd
    b.or_(u.x(), u.x(), u.z());
    b.and_(u.x(), u.x(), u.y());
    b.and_(u.x(), u.x(), imm(1));
    Operand rec = b.temp();                        // x Mq, y control, z bias, w output zero point
    b.iadd(rec.x(), r.y(), u.x());
    b.ieq(u.y(), rec.x(), imm(0));                 // 0xffffffff rounded up: 2^32 = 2^31 * 2
    b.movc(rec.x(), u.y(), imm(0x80000000u), rec.x());
    b.and_(u.y(), u.y(), imm(1));
    b.isub(r.z(), r.z(), u.y());
    // M = Mq * 2^-s with s = count - 48 - (ex + ew - ey - 150).
    Operand s = b.temp();
    b.iadd(s.x(), r.z(), e.z());
    b.isub(s.x(), s.x(), e.x());
    b.isub(s.x(), s.x(), e.y());
    b.iadd(s.x(), s.x(), imm(102));
    // Control: t = s - 32 in [0, 32] (the conv kernel shifts the 64-bit product right by 32 + t); k in [0, 31]
    // pre-shifts the accumulator left when M >= 1 (s < 32). s > 64: |v| < 1/2 always, Mq = 0. s < 1: every
    // nonzero accumulator saturates, encoded as Mq = 2^31, k = 31.
    Operand c = b.temp();  // x t, y k, z flag
    b.iadd(c.x(), s.x(), imm_i(-32));
    b.ilt(c.z(), imm(64), s.x());
    b.movc(rec.x(), c.z(), imm(0), rec.x());
    b.movc(c.x(), c.z(), imm(0), c.x());
    b.ilt(c.z(), s.x(), imm(32));
    b.movc(c.x(), c.z(), imm(0), c.x());
    b.iadd(c.y(), -s.x(), imm(32));
    b.movc(c.y(), c.z(), c.y(), imm(0));
    b.ilt(c.z(), s.x(), imm(1));
    b.movc(rec.x(), c.z(), imm(0x80000000u), rec.x());
    b.movc(c.y(), c.z(), imm(31), c.y());
    b.ishl(c.y(), c.y(), imm(8));
    b.ishl(c.w(), sign.x(), imm(16));
    b.or_(rec.y(), c.x(), c.y());
    b.or_(rec.y(), rec.y(), c.w());
    if (o.has_bias) {
        b.imul(t.x(), m, rc(kPBiasStride));
        b.ishl(t.x(), t.x(), imm(2));
        b.ld_raw(rec.z(), t.x(), bias);
    } else {
        b.mov(rec.z(), imm(0));
    }
    if (o.has_output_zero_point) {
        Operand yz = b.temp();  // load_element writes component x of the register it is given
        shaders::load_element(b, TensorViews::single(output_zp), 1, imm(0), yz.x(),
                              o.output_signed ? Extend::kSign : Extend::kZero);
        b.mov(rec.w(), yz.x());
    } else {
        b.mov(rec.w(), imm(0));
    }
    b.ishl(t.x(), m, imm(4));
    b.store_raw(scratch, t.x(), rec.xyzw());
}

}  // namespace

Result<std::vector<uint8_t>> build_prep_kernel(const PrepKernelOptions& o) {
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    uint32_t slot = 0;
    const Resource filter = b.srv_raw(slot++);
    const Resource input_scale = b.srv_raw(slot++);
    const Resource filter_scale = b.srv_raw(slot++);
    const Resource output_scale = b.srv_raw(slot++);
    const Resource filter_zp = o.has_filter_zero_point ? b.srv_raw(slot++) : Resource{};
    const Resource bias = o.has_bias ? b.srv_raw(slot++) : Resource{};
    const Resource output_zp = o.has_output_zero_point ? b.srv_raw(slot++) : Resource{};
    const Resource scratch = b.uav_raw(0);
    const Extend filter_extend = o.filter_signed ? Extend::kSign : Extend::kZero;

    Operand thread = shaders::linear_thread_index(b, rc(kPThreadsPerRow));
    Operand t = b.temp();
    b.ult(t.x(), thread, rc(kPThreads));
    b.if_nz(t.x());
    {
        // Shifted filter element: scratch[region + ((c * KH + kh) * KW + kw) * Mp + m] = w - wz[m] (int32 or float).
        // Threads go in the scratch buffer's order (m fastest), so a warp's stores are one contiguous run and its
        // byte loads are the scattered side (they hit the cache lines neighbouring taps' warps fetch): in the
        // filter's order every store of a warp landed Mp floats from the next, and the prep of the 512x512x3x3
        // filter took ~15 us more on an H100 (results/h100_2026-11-28_winograd).
        b.ult(t.y(), thread, rc(kPFilterCount));
        b.if_nz(t.y());
        Operand i = b.temp();  // x m, y tap, z c, w kh*KW+kw
        b.udiv(i.y(), i.x(), thread, rc(kPChannels));
        b.udiv(i.z(), i.w(), i.y(), rc(kPKernelArea));
        Operand k = b.temp();  // x kh, y kw
        b.udiv(k.x(), k.y(), i.w(), rc(kPKernelW));
        Operand off = b.temp();
        b.imul(off.x(), i.x(), rc(kPFilterStrideM));
        b.imad(off.x(), i.z(), rc(kPFilterStrideC), off.x());
        b.imad(off.x(), k.x(), rc(kPFilterStrideH), off.x());
        b.imad(off.x(), k.y(), rc(kPFilterStrideW), off.x());
        Operand w = b.temp();
        shaders::load_element(b, TensorViews::single(filter), 1, off.x(), w.x(), filter_extend);
        if (o.has_filter_zero_point) {
            b.imul(off.y(), i.x(), rc(kPZeroPointStride));
            Operand wz = b.temp();  // load_element writes component x of the register it is given
            shaders::load_element(b, TensorViews::single(filter_zp), 1, off.y(), wz.x(), filter_extend);
            b.isub(w.x(), w.x(), wz.x());
        }
        b.imad(off.z(), i.y(), rc(kPPaddedChannels), i.x());
        b.ishl(off.z(), off.z(), imm(2));
        b.iadd(off.z(), off.z(), rc(kPFilterRegion));
        if (o.float_filter) b.itof(w.x(), w.x());
        b.store_raw(scratch, off.z(), w.x());
        b.endif();

        b.ult(t.z(), thread, rc(kPChannels));
        b.if_nz(t.z());
        emit_channel_record(b, o, thread, input_scale, filter_scale, output_scale, bias, output_zp, scratch);
        // The Winograd weight kernel adds into channel m's filter sum with atomics: start it at 0 every execution.
        b.if_nz(rc(kPSumRegion));
        b.imad(t.w(), thread, imm(4), rc(kPSumRegion));
        b.store_raw(scratch, t.w(), imm(0));
        b.endif();
        b.endif();
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

}  // namespace dmltool::ops::quantized_linear_convolution
