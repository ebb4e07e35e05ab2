#include "ops/quantized_linear_convolution/kernel.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "shaders/elements.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

using shaders::Extend;
using shaders::imm;
using shaders::imm4;
using shaders::imm_i;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::Resource;
using shaders::TensorViews;

constexpr uint32_t kThreadsPerGroup = 64;
constexpr uint32_t kOutputsPerThread = 4;  // consecutive output columns: one output word when packed
constexpr uint32_t kRecordBytes = 16;      // {Mq, control, bias, output zero point} per output channel
constexpr uint32_t kMaxUnrolledKernelW = 7;  // wider kernels loop over kw at run time
constexpr uint32_t kMaxTiledKernel = 7;      // KH and KW up to this use the tiled kernel (both unrolled)
constexpr uint32_t kTileWords = 4096;        // groupshared filter chunk of the tiled kernel: 16 KiB
// Where |q| saturates: any |value| >= 2^10 clamps to the 8-bit range whatever the zero point, so larger
// magnitudes need not be exact; keeping q small also keeps -q and q + zero point inside int32.
constexpr uint32_t kSaturated = 1u << 16;

// Input slots (Op::tensors order) and the prep kernel's SRV slots.
enum InputSlot : uint32_t { kInput, kInputScale, kInputZeroPoint, kFilter, kFilterScale, kFilterZeroPoint, kBias,
                            kOutputScale, kOutputZeroPoint };

// ---- prep kernel root constants
enum PrepConstant : uint32_t {
    kPThreadsPerRow, kPThreads, kPFilterCount, kPChannels, kPTaps, kPKernelArea, kPKernelW,
    kPFilterStrideM, kPFilterStrideC, kPFilterStrideH, kPFilterStrideW,
    kPScaleStride, kPZeroPointStride, kPBiasStride, kPPaddedChannels, kPFilterRegion, kPConstantCount
};

// ---- conv kernel root constants (kSizeN..kColumnGroups are the thread-index decomposition sizes)
enum ConvConstant : uint32_t {
    kThreadsPerRow, kThreads, kSizeN, kChannelTiles, kOutH, kColumnGroups, kChannelsPerGroup, kInChannelsPerGroup,
    kKernelH, kKernelW, kInH, kInW, kOutW, kStrideH, kStrideW, kDilationH, kDilationW, kPadH, kPadW,
    kInStrideN, kInStrideC, kInStrideH, kInStrideW, kOutStrideN, kOutStrideM, kOutStrideH, kOutStrideW,
    kFilterRegion, kTapBytes, kInputLimit, kGroupInStride, kRowStep, kRowBytes, kChannelBytes,
    // tiled kernel only: spatial units (n, oh, column group), units per image (OH * column groups), channels per
    // groupshared chunk, scratch bytes between a thread's successive cooperative loads, scratch bytes per chunk
    kSpatialUnits, kUnitsPerImage, kChunkChannels, kLoadStep, kChunkBytes, kConvConstantCount
};

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

// Requantizes acc (4 lanes of one output channel) with the channel's record; result: clamped ints in dst.
void emit_requantize(ProgramBuilder& b, Operand acc, Operand rec, bool output_signed, Operand dst) {
    Operand ctl = b.temp();  // x t, y k, z sign mask, w 31 - k
    b.and_(ctl.x(), rec.y(), imm(63));
    b.ubfe(ctl.y(), imm(5), imm(8), rec.y());
    b.ubfe(ctl.z(), imm(1), imm(16), rec.y());
    b.ineg(ctl.z(), ctl.z());
    b.iadd(ctl.w(), -ctl.y(), imm(31));
    // acc + bias exactly: the 33-bit result as sign mask + 32-bit magnitude.
    Operand sum = b.temp(), neg = b.temp(), mag = b.temp(), t = b.temp();
    b.iadd(sum.xyzw(), acc, rec.z());
    b.xor_(t.xyzw(), acc, sum.xyzw());
    b.xor_(neg.xyzw(), rec.z(), sum.xyzw());
    b.and_(t.xyzw(), t.xyzw(), neg.xyzw());
    b.ilt(t.xyzw(), t.xyzw(), imm(0));            // signed overflow
    b.ilt(neg.xyzw(), sum.xyzw(), imm(0));
    b.ilt(mag.xyzw(), acc, imm(0));
    b.movc(neg.xyzw(), t.xyzw(), mag.xyzw(), neg.xyzw());
    b.ineg(t.xyzw(), sum.xyzw());
    b.movc(mag.xyzw(), neg.xyzw(), t.xyzw(), sum.xyzw());
    // Pre-shift by k (M >= 1); magnitudes that would overflow are >= 2^31 after scaling: saturate.
    Operand big = b.temp();
    b.ushr(big.xyzw(), mag.xyzw(), ctl.w());
    b.ushr(big.xyzw(), big.xyzw(), imm(1));
    b.ine(big.xyzw(), big.xyzw(), imm(0));
    b.ishl(mag.xyzw(), mag.xyzw(), ctl.y());
    // 64-bit product mag * Mq from 16-bit limbs.
    Operand ml = b.temp();  // x Mq low 16, y Mq high 16
    b.and_(ml.x(), rec.x(), imm(0xffff));
    b.ushr(ml.y(), rec.x(), imm(16));
    Operand alo = b.temp(), ahi = b.temp(), p1 = b.temp(), p2 = b.temp(), lo = b.temp(), hi = b.temp();
    b.and_(alo.xyzw(), mag.xyzw(), imm(0xffff));
    b.ushr(ahi.xyzw(), mag.xyzw(), imm(16));
    b.imul(lo.xyzw(), alo.xyzw(), ml.x());        // p0
    b.imul(p1.xyzw(), alo.xyzw(), ml.y());
    b.imul(p2.xyzw(), ahi.xyzw(), ml.x());
    b.imul(hi.xyzw(), ahi.xyzw(), ml.y());        // p3
    b.ishl(t.xyzw(), p1.xyzw(), imm(16));
    b.iadd(t.xyzw(), lo.xyzw(), t.xyzw());
    b.ult(alo.xyzw(), t.xyzw(), lo.xyzw());       // carry 1
    b.ishl(lo.xyzw(), p2.xyzw(), imm(16));
    b.iadd(lo.xyzw(), t.xyzw(), lo.xyzw());
    b.ult(ahi.xyzw(), lo.xyzw(), t.xyzw());       // carry 2
    b.ushr(p1.xyzw(), p1.xyzw(), imm(16));
    b.ushr(p2.xyzw(), p2.xyzw(), imm(16));
    b.iadd(hi.xyzw(), hi.xyzw(), p1.xyzw());
    b.iadd(hi.xyzw(), hi.xyzw(), p2.xyzw());
    b.isub(hi.xyzw(), hi.xyzw(), alo.xyzw());
    b.isub(hi.xyzw(), hi.xyzw(), ahi.xyzw());
    // Shift right by 32 + t, rounding half to even. Per-channel scalars: q mask (t == 32 shifts out
    // everything), remainder mask, and the half point (half_hi : half_lo).
    Operand sh = b.temp();  // x t & 31, y q mask, z remainder mask, w half_hi
    Operand sh2 = b.temp();  // x half_lo, y t == 0
    b.and_(sh.x(), ctl.x(), imm(31));
    b.ieq(sh.y(), ctl.x(), imm(32));
    b.ishl(sh.z(), imm(1), sh.x());
    b.iadd(sh.z(), sh.z(), imm_i(-1));
    b.or_(sh.z(), sh.z(), sh.y());
    b.not_(sh.y(), sh.y());
    b.ieq(sh2.y(), ctl.x(), imm(0));
    b.iadd(sh.w(), ctl.x(), imm_i(-1));
    b.ishl(sh.w(), imm(1), sh.w());
    b.movc(sh.w(), sh2.y(), imm(0), sh.w());
    b.and_(sh2.x(), sh2.y(), imm(0x80000000u));
    Operand q = b.temp(), rem = b.temp(), up = b.temp();
    b.ushr(q.xyzw(), hi.xyzw(), sh.x());
    b.and_(q.xyzw(), q.xyzw(), sh.y());
    b.and_(rem.xyzw(), hi.xyzw(), sh.z());
    b.ult(up.xyzw(), sh.w(), rem.xyzw());                 // remainder high word above the half
    b.ieq(t.xyzw(), rem.xyzw(), sh.w());
    b.ult(p1.xyzw(), sh2.x(), lo.xyzw());
    b.and_(p1.xyzw(), p1.xyzw(), t.xyzw());
    b.or_(up.xyzw(), up.xyzw(), p1.xyzw());               // remainder > half
    b.ieq(p2.xyzw(), lo.xyzw(), sh2.x());
    b.and_(t.xyzw(), t.xyzw(), p2.xyzw());                // remainder == half
    b.and_(p2.xyzw(), q.xyzw(), imm(1));
    b.and_(t.xyzw(), t.xyzw(), p2.xyzw());                // ... and q odd
    b.and_(up.xyzw(), up.xyzw(), imm(1));
    b.or_(up.xyzw(), up.xyzw(), t.xyzw());
    b.umin(q.xyzw(), q.xyzw(), imm(kSaturated));
    b.iadd(q.xyzw(), q.xyzw(), up.xyzw());
    b.movc(q.xyzw(), big.xyzw(), imm(kSaturated), q.xyzw());
    // Sign (accumulator sign xor multiplier sign), output zero point, clamp.
    b.xor_(neg.xyzw(), neg.xyzw(), ctl.z());
    b.ineg(t.xyzw(), q.xyzw());
    b.movc(dst, neg.xyzw(), t.xyzw(), q.xyzw());
    b.iadd(dst, dst, rec.w());
    b.imax(dst, dst, imm_i(output_signed ? -128 : 0));
    b.imin(dst, dst, imm_i(output_signed ? 127 : 255));
}

// Requantizes the 4 outputs of one channel at columns ow..ow+3 (acc: one lane each) with the channel's record
// and stores them at output element offset `at` (column ow): one word store when the thread owns the aligned
// word, else per element with store_element_atomic (columns past OW skipped).
void emit_store_quad(ProgramBuilder& b, bool output_signed, Operand acc, Operand rec, Operand at, Operand ow,
                     const TensorViews& output) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    Operand r = b.temp();
    emit_requantize(b, acc, rec, output_signed, r.xyzw());
    Operand packed = b.temp();
    b.mov(packed.x(), imm(0));
    for (uint32_t lane = 0; lane < 4; ++lane) shaders::insert_subword(b, packed.x(), 1, lane, r.component(lane));
    // The thread owns the whole word when its 4 outputs are exactly one aligned word of the output.
    Operand f = b.temp();  // y own-word flag, z scratch
    b.ieq(f.y(), rc(kOutStrideW), imm(1));
    b.and_(f.z(), at, imm(3));
    b.ieq(f.z(), f.z(), imm(0));
    b.and_(f.y(), f.y(), f.z());
    b.iadd(f.z(), ow, imm(kOutputsPerThread));
    b.uge(f.z(), rc(kOutW), f.z());
    b.and_(f.y(), f.y(), f.z());
    b.if_nz(f.y());
    shaders::store_words(b, output, at, packed.x());
    b.else_();
    Operand e = b.temp();  // x column, y in range, z element offset
    Operand v = b.temp();  // store_element_atomic reads component x of the value's register
    for (uint32_t lane = 0; lane < 4; ++lane) {
        b.iadd(e.x(), ow, imm(lane));
        b.ult(e.y(), e.x(), rc(kOutW));
        b.if_nz(e.y());
        b.imad(e.z(), imm(lane), rc(kOutStrideW), at);
        b.mov(v.x(), r.component(lane));
        shaders::store_element_atomic(b, output, 1, e.z(), v.x());
        b.endif();
    }
    b.endif();
}

// Requantizes and stores a thread's tile: `acc` holds channels m0.. m0+channels-1 (p.x = m0), each as `quads`
// groups of 4 columns starting at column p.z, of output row (n, oh); acc[j * quads + h] is channel j, group h.
void emit_store_tile(ProgramBuilder& b, bool output_signed, const std::vector<Operand>& acc, uint32_t channels,
                     uint32_t quads, Operand n, Operand oh, Operand p, Resource scratch,
                     const TensorViews& output) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    Operand ob = b.temp();  // x output offset of (n, m0, oh, ow0), y of (.., ow0 + 4h), z column ow0 + 4h
    b.imul(ob.x(), n, rc(kOutStrideN));
    b.imad(ob.x(), p.x(), rc(kOutStrideM), ob.x());
    b.imad(ob.x(), oh, rc(kOutStrideH), ob.x());
    b.imad(ob.x(), p.z(), rc(kOutStrideW), ob.x());
    Operand ra = b.temp();
    b.ishl(ra.x(), p.x(), imm(4));  // record address of m0
    for (uint32_t j = 0; j < channels; ++j) {
        Operand rec = b.temp();
        if (j > 0) b.iadd(ra.x(), ra.x(), imm(kRecordBytes));
        b.ld_raw(rec.xyzw(), ra.x(), scratch);
        if (j > 0) b.iadd(ob.x(), ob.x(), rc(kOutStrideM));
        for (uint32_t h = 0; h < quads; ++h) {
            if (h == 0) {
                emit_store_quad(b, output_signed, acc[j * quads].xyzw(), rec, ob.x(), p.z(), output);
            } else {
                b.iadd(ob.z(), p.z(), imm(4 * h));
                b.imad(ob.y(), imm(4 * h), rc(kOutStrideW), ob.x());
                emit_store_quad(b, output_signed, acc[j * quads + h].xyzw(), rec, ob.y(), ob.z(), output);
            }
        }
    }
}

// A tensor bound as `count` views t(first).. (SRVs) or u(first).. (UAVs) of 2^window_log2 bytes each.
TensorViews bind_views(ProgramBuilder& b, bool uav, uint32_t first, uint32_t count, uint32_t window_log2) {
    TensorViews t{{}, count == 1 ? shaders::kMaxViewBytesLog2 : window_log2};
    for (uint32_t i = 0; i < count; ++i) t.views.push_back(uav ? b.uav_raw(first + i) : b.srv_raw(first + i));
    return t;
}

Status check_views(const char* kernel, uint32_t input_views, uint32_t output_views, uint32_t window_log2) {
    if (window_log2 < 8 || window_log2 > shaders::kMaxViewBytesLog2)
        return invalid_input(std::string(kernel) + ": window_log2 must be 8..29 (256 B .. 512 MiB views)");
    for (uint32_t views : {input_views, output_views})
        if (views < 1 || (uint64_t{views - 1} << window_log2) >= (uint64_t{1} << 32))
            return invalid_input(std::string(kernel) + ": 1 or more views per tensor, covering at most 4 GiB "
                                 "(32-bit byte addresses)");
    return Status::ok();
}

// Clamps word addresses (4 lanes) into the input buffer [0, limit]. Single view: the signed clamp at 0 the
// kernels always had (addresses stay below 512 MiB). Several views: unsigned only, so addresses >= 2 GiB stay;
// negative ones wrap high and are clamped or alias another word, which only feeds masked padding lanes.
void clamp_input_addresses(ProgramBuilder& b, Operand addresses, bool multi_view) {
    if (!multi_view) b.imax(addresses, addresses, imm(0));
    b.umin(addresses, addresses, b.root_constant(kInputLimit));
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
        // Shifted filter element: scratch[region + ((c * KH + kh) * KW + kw) * Mp + m] = w - wz[m].
        b.ult(t.y(), thread, rc(kPFilterCount));
        b.if_nz(t.y());
        Operand i = b.temp();  // x m, y tap, z c, w kh*KW+kw
        b.udiv(i.x(), i.y(), thread, rc(kPTaps));
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
        b.store_raw(scratch, off.z(), w.x());
        b.endif();

        b.ult(t.z(), thread, rc(kPChannels));
        b.if_nz(t.z());
        emit_channel_record(b, o, thread, input_scale, filter_scale, output_scale, bias, output_zp, scratch);
        b.endif();
    }
    b.endif();
    b.ret();
    return b.build_dxbc();
}

Result<std::vector<uint8_t>> build_conv_kernel(const ConvKernelOptions& o) {
    const uint32_t mt = o.channels_per_thread;
    if (mt != 1 && mt != 2 && mt != 4 && mt != 8)
        return invalid_input("conv kernel: channels_per_thread must be 1, 2, 4 or 8");
    if (o.kernel_w > kMaxUnrolledKernelW) return invalid_input("conv kernel: kernel_w above the unrolled limit");
    DMLTOOL_RETURN_IF_ERROR(check_views("conv kernel", o.input_views, o.output_views, o.window_log2));
    ProgramBuilder b({.thread_group = {kThreadsPerGroup, 1, 1}});
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    // t0.. input views, then the scratch buffer and the input zero point; u0.. output views.
    const TensorViews input = bind_views(b, false, 0, o.input_views, o.window_log2);
    const Resource scratch = b.srv_raw(o.input_views);
    const Resource input_zp = o.has_input_zero_point ? b.srv_raw(o.input_views + 1) : Resource{};
    const TensorViews output = bind_views(b, true, 0, o.output_views, o.window_log2);
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

namespace {
// Input channels per groupshared chunk of the tiled kernel (>= 10: MT * KH * KW <= 392).
uint32_t tiled_chunk_channels(uint32_t channels_per_thread, uint32_t kernel_h, uint32_t kernel_w) {
    return kTileWords / (channels_per_thread * kernel_h * kernel_w);
}
}  // namespace

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
    // t0.. input views, then the scratch buffer and the input zero point; u0.. output views.
    const TensorViews input = bind_views(b, false, 0, o.input_views, o.window_log2);
    const Resource scratch = b.srv_raw(o.input_views);
    const Resource input_zp = o.has_input_zero_point ? b.srv_raw(o.input_views + 1) : Resource{};
    const TensorViews output = bind_views(b, true, 0, o.output_views, o.window_log2);
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

namespace {

constexpr uint64_t kMaxViewBytes = uint64_t{1} << shaders::kMaxViewBytesLog2;
constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 32;  // 32-bit byte addresses in the kernels

bool is_signed(DataType t) { return t == DataType::kInt8; }

uint64_t padded_buffer_size(uint64_t bytes) { return std::max<uint64_t>(16, (bytes + 15) & ~uint64_t(15)); }

// Stride (elements) that steps through the per-channel values of a filter scale / zero point / bias tensor;
// 0 for a per-tensor (single-element) tensor.
uint32_t channel_stride(const TensorDesc& t) {
    if (t.element_count() == 1) return 0;
    const Dims strides = t.effective_strides();
    return t.rank() == 1 ? strides[0] : strides[1];
}

// Kernels are deterministic in their options; build each variant once per process.
template <typename Options, typename Build>
Result<std::shared_ptr<const std::vector<uint8_t>>> cached_blob(const Options& options, const std::string& key,
                                                               Build build) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build(options));
    auto stored = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    cache.emplace(key, stored);
    return stored;
}

}  // namespace

Result<DevicePlan> plan_quantized_linear_convolution(const QuantizedLinearConvolutionDesc& d,
                                                     const PlanOptions& options) {
    const std::string op = "QUANTIZED_LINEAR_CONVOLUTION";
    const ConvGeometry g = conv_geometry(d);
    const uint64_t taps = g.in_channels_per_group * g.kernel[0] * g.kernel[1];
    // |x - xz| <= 255 and |w - wz| <= 255: the int32 accumulator is exact while taps * 255^2 fits (the bias is
    // added with a 33-bit-exact sum, so it does not count here).
    const uint64_t max_taps = uint64_t(std::numeric_limits<int32_t>::max()) / (255 * 255);
    if (taps > max_taps)
        return unsupported(op + ": (C/G)*KH*KW = " + std::to_string(taps) + " taps could overflow the GPU kernel's "
                           "int32 accumulator (at most " + std::to_string(max_taps) + " taps)");
    const uint64_t padded_channels = (g.out_channels + 3) & ~uint64_t(3);
    const uint64_t filter_region = kRecordBytes * padded_channels;
    const uint64_t scratch_bytes = filter_region + taps * padded_channels * 4;
    // The filter (read by the prep kernel) and the scratch buffer stay one view each: a 512 MiB filter is not a
    // realistic convolution, so their kernels keep plain single-view loads.
    const struct {
        const char* name;
        uint64_t bytes;
    } single_view[] = {{"FilterTensor", d.filter.total_size_in_bytes},
                       {"the shifted-filter scratch buffer", scratch_bytes}};
    for (const auto& s : single_view)
        if (s.bytes > kMaxViewBytes - 16)
            return unsupported(op + ": " + s.name + " takes " + std::to_string(s.bytes) +
                               " bytes; the GPU kernel binds it as one view of at most 512 MiB");
    // Input and output: as many views as their (16-byte padded) buffers need, up to 4 GiB.
    const uint32_t window_log2 = options.window_log2;
    if (window_log2 < 8 || window_log2 > shaders::kMaxViewBytesLog2)
        return invalid_input(op + ": window_log2 must be 8..29 (256 B .. 512 MiB views)");
    const auto view_count = [&](const TensorDesc& t, const char* name) -> Result<uint32_t> {
        if (t.total_size_in_bytes > kMaxTensorBytes - 16)
            return unsupported(op + ": " + name + " takes " + std::to_string(t.total_size_in_bytes) +
                               " bytes; the GPU kernel addresses at most 4 GiB per tensor (32-bit byte addresses)");
        const uint64_t padded = padded_buffer_size(t.total_size_in_bytes);
        return uint32_t((padded + (uint64_t{1} << window_log2) - 1) >> window_log2);
    };
    DMLTOOL_ASSIGN_OR_RETURN(const uint32_t input_views, view_count(d.input, "InputTensor"));
    DMLTOOL_ASSIGN_OR_RETURN(const uint32_t output_views, view_count(d.output, "OutputTensor"));
    // Single-view blobs do not depend on the window: keep one blob (and one cache entry) for them.
    const uint32_t kernel_window = input_views == 1 && output_views == 1 ? shaders::kMaxViewBytesLog2 : window_log2;

    const uint32_t mpg = uint32_t(g.out_channels_per_group);
    // Channels per thread: more amortize each input load over more multiply-adds, but leave fewer threads.
    // On the H200, 8 paid off where it still left >= ~40K threads (8x64x112x112 s2: -30%, 8x256x28x28 k1:
    // -12%) and lost where it left 25K (8x128x28x28: +20%).
    const uint64_t rows = g.batch * g.out_size[0] * ((g.out_size[1] + kOutputsPerThread - 1) / kOutputsPerThread);
    uint32_t mt = mpg % 4 == 0 ? 4 : mpg % 2 == 0 ? 2 : 1;
    if (mpg % 8 == 0 && rows * (g.out_channels / 8) >= options.wide_tile_min_threads) mt = 8;
    const bool packed_w = d.input.effective_strides().back() == 1 && g.stride[1] == 1;
    const bool tiled = options.allow_tiled && packed_w && g.dilation[1] == 1 && g.kernel[0] <= kMaxTiledKernel &&
                       g.kernel[1] <= kMaxTiledKernel;
    // Tiled: 8 columns x 8 channels per thread measured best on the H200 (8x64x56x56 k3: 9.5 -> 14.7 TOPS with
    // 8x8 vs 13.6 with 4x8 and 13.7 with 8x4; 8x128x28x28 k3: 7.2 -> 12.2 TOPS vs 9.9 and 10.0) although it leaves
    // only 14-25K threads: the groupshared filter makes weights cheap, so per-thread reuse of the input window
    // and of each weight wins. 4 columns when the output rows are that short.
    const uint32_t cw = !tiled                 ? kOutputsPerThread
                        : options.tiled_columns ? options.tiled_columns
                        : g.out_size[1] > 4     ? 8
                                                : 4;
    if (tiled && cw != 4 && cw != 8) return invalid_input(op + ": tiled_columns must be 0, 4 or 8");
    if (tiled && mpg % 8 == 0) mt = 8;

    PrepKernelOptions prep{.filter_signed = is_signed(d.filter.data_type),
                           .output_signed = is_signed(d.output.data_type),
                           .has_filter_zero_point = d.filter_zero_point.has_value(),
                           .has_bias = d.bias.has_value(),
                           .has_output_zero_point = d.output_zero_point.has_value()};
    ConvKernelOptions conv{.input_signed = is_signed(d.input.data_type),
                           .output_signed = prep.output_signed,
                           .has_input_zero_point = d.input_zero_point.has_value(),
                           .channels_per_thread = mt,
                           .packed_w = packed_w,
                           .kernel_w = g.kernel[1] <= kMaxUnrolledKernelW ? uint32_t(g.kernel[1]) : 0,
                           .input_views = input_views,
                           .output_views = output_views,
                           .window_log2 = kernel_window};
    // Blob keys: the view suffix is empty for the single-view kernels.
    const std::string views_key = input_views == 1 && output_views == 1
                                      ? std::string()
                                      : "v" + std::to_string(input_views) + "." + std::to_string(output_views) + "w" +
                                            std::to_string(kernel_window);
    const std::string prep_key = std::to_string(prep.filter_signed) + std::to_string(prep.output_signed) +
                                 std::to_string(prep.has_filter_zero_point) + std::to_string(prep.has_bias) +
                                 std::to_string(prep.has_output_zero_point);
    const std::string conv_key = std::to_string(conv.input_signed) + std::to_string(conv.output_signed) +
                                 std::to_string(conv.has_input_zero_point) + std::to_string(mt) +
                                 std::to_string(conv.packed_w) + "k" + std::to_string(conv.kernel_w) + views_key;
    DMLTOOL_ASSIGN_OR_RETURN(auto prep_blob, cached_blob(prep, "prep" + prep_key, build_prep_kernel));
    const TiledConvKernelOptions tiled_conv{.input_signed = conv.input_signed,
                                            .output_signed = conv.output_signed,
                                            .has_input_zero_point = conv.has_input_zero_point,
                                            .channels_per_thread = mt,
                                            .columns_per_thread = cw,
                                            .kernel_h = uint32_t(g.kernel[0]),
                                            .kernel_w = uint32_t(g.kernel[1]),
                                            .input_views = input_views,
                                            .output_views = output_views,
                                            .window_log2 = kernel_window};
    std::shared_ptr<const std::vector<uint8_t>> conv_blob;
    if (tiled) {
        const std::string key = "tiled" + std::to_string(conv.input_signed) + std::to_string(conv.output_signed) +
                                std::to_string(conv.has_input_zero_point) + std::to_string(mt) + "c" +
                                std::to_string(cw) + "k" + std::to_string(g.kernel[0]) + "x" +
                                std::to_string(g.kernel[1]) + views_key;
        DMLTOOL_ASSIGN_OR_RETURN(conv_blob, cached_blob(tiled_conv, key, build_tiled_conv_kernel));
    } else {
        DMLTOOL_ASSIGN_OR_RETURN(conv_blob, cached_blob(conv, "conv" + conv_key, build_conv_kernel));
    }

    DevicePlan plan;
    plan.auxiliary_buffers.emplace_back(scratch_bytes);  // zero-filled: padded channels read as 0
    const auto input_binding = [](uint32_t slot) { return BufferBinding{BufferBinding::Source::kInput, slot, 0, 0}; };
    const BufferBinding scratch{BufferBinding::Source::kAuxiliary, 0, 0, 0};

    // ---- prep
    {
        const Dims fs = d.filter.effective_strides();
        const bool four_d = d.filter.rank() == 4;
        const uint64_t filter_count = d.filter.element_count();
        const uint64_t threads = std::max<uint64_t>(filter_count, g.out_channels);
        const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
        std::vector<uint32_t> c(kPConstantCount, 0);
        c[kPThreadsPerRow] = grid.threads_per_row;
        c[kPThreads] = uint32_t(threads);
        c[kPFilterCount] = uint32_t(filter_count);
        c[kPChannels] = uint32_t(g.out_channels);
        c[kPTaps] = uint32_t(taps);
        c[kPKernelArea] = uint32_t(g.kernel[0] * g.kernel[1]);
        c[kPKernelW] = uint32_t(g.kernel[1]);
        c[kPFilterStrideM] = fs[0];
        c[kPFilterStrideC] = fs[1];
        c[kPFilterStrideH] = four_d ? fs[2] : 0;
        c[kPFilterStrideW] = fs.back();
        c[kPScaleStride] = channel_stride(d.filter_scale);
        c[kPZeroPointStride] = d.filter_zero_point ? channel_stride(*d.filter_zero_point) : 0;
        c[kPBiasStride] = d.bias ? channel_stride(*d.bias) : 0;
        c[kPPaddedChannels] = uint32_t(padded_channels);
        c[kPFilterRegion] = uint32_t(filter_region);
        KernelDispatch k;
        k.dxbc = prep_blob;
        k.label = "quantized_linear_convolution/prep";
        k.root_constants = std::move(c);
        k.srvs = {input_binding(kFilter), input_binding(kInputScale), input_binding(kFilterScale),
                  input_binding(kOutputScale)};
        if (prep.has_filter_zero_point) k.srvs.push_back(input_binding(kFilterZeroPoint));
        if (prep.has_bias) k.srvs.push_back(input_binding(kBias));
        if (prep.has_output_zero_point) k.srvs.push_back(input_binding(kOutputZeroPoint));
        k.uavs = {scratch};
        k.group_count = {grid.groups_x, grid.groups_y, 1};
        plan.dispatches.push_back(std::move(k));
    }

    // ---- conv
    {
        const bool four_d = d.input.rank() == 4;
        const Dims is = d.input.effective_strides();
        const Dims os = d.output.effective_strides();
        const uint32_t in_h_stride = four_d ? is[2] : 0, out_h_stride = four_d ? os[2] : 0;
        const uint64_t column_groups = (g.out_size[1] + cw - 1) / cw;
        const uint64_t spatial_units = g.batch * g.out_size[0] * column_groups;
        // Tiled: whole groups of kThreadsPerGroup spatial units per channel tile.
        const uint64_t threads =
            tiled ? (spatial_units + kThreadsPerGroup - 1) / kThreadsPerGroup * kThreadsPerGroup * (g.out_channels / mt)
                  : spatial_units * (g.out_channels / mt);
        if (threads > std::numeric_limits<uint32_t>::max())
            return unsupported(op + ": too many output elements for 32-bit thread indices");
        const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
        std::vector<uint32_t> c(kConvConstantCount, 0);
        c[kThreadsPerRow] = grid.threads_per_row;
        c[kThreads] = uint32_t(threads);
        c[kSizeN] = uint32_t(g.batch);
        c[kChannelTiles] = uint32_t(g.out_channels / mt);
        c[kOutH] = uint32_t(g.out_size[0]);
        c[kColumnGroups] = uint32_t(column_groups);
        c[kChannelsPerGroup] = mpg;
        c[kInChannelsPerGroup] = uint32_t(g.in_channels_per_group);
        c[kKernelH] = uint32_t(g.kernel[0]);
        c[kKernelW] = uint32_t(g.kernel[1]);
        c[kInH] = uint32_t(g.in_size[0]);
        c[kInW] = uint32_t(g.in_size[1]);
        c[kOutW] = uint32_t(g.out_size[1]);
        c[kStrideH] = uint32_t(g.stride[0]);
        c[kStrideW] = uint32_t(g.stride[1]);
        c[kDilationH] = uint32_t(g.dilation[0]);
        c[kDilationW] = uint32_t(g.dilation[1]);
        c[kPadH] = uint32_t(g.start_pad[0]);
        c[kPadW] = uint32_t(g.start_pad[1]);
        c[kInStrideN] = is[0];
        c[kInStrideC] = is[1];
        c[kInStrideH] = in_h_stride;
        c[kInStrideW] = is.back();
        c[kOutStrideN] = os[0];
        c[kOutStrideM] = os[1];
        c[kOutStrideH] = out_h_stride;
        c[kOutStrideW] = os.back();
        c[kFilterRegion] = uint32_t(filter_region);
        c[kTapBytes] = uint32_t(padded_channels * 4);
        c[kInputLimit] = uint32_t(padded_buffer_size(d.input.total_size_in_bytes) - 4);
        c[kGroupInStride] = uint32_t(g.in_channels_per_group * is[1]);
        c[kRowStep] = uint32_t(g.dilation[0] * in_h_stride);
        c[kRowBytes] = uint32_t(g.kernel[1] * padded_channels * 4);
        c[kChannelBytes] = uint32_t(g.kernel[0] * g.kernel[1] * padded_channels * 4);
        if (tiled) {
            const uint32_t chunk = tiled_chunk_channels(mt, uint32_t(g.kernel[0]), uint32_t(g.kernel[1]));
            c[kSpatialUnits] = uint32_t(spatial_units);
            c[kUnitsPerImage] = uint32_t(g.out_size[0] * column_groups);
            c[kChunkChannels] = uint32_t(std::min<uint64_t>(chunk, g.in_channels_per_group));
            c[kLoadStep] = uint32_t(kThreadsPerGroup / mt * padded_channels * 4);
            c[kChunkBytes] = uint32_t(uint64_t(chunk) * g.kernel[0] * g.kernel[1] * padded_channels * 4);
        }
        KernelDispatch k;
        k.dxbc = conv_blob;
        k.label = "quantized_linear_convolution/conv";
        if (!views_key.empty()) k.label += "/" + views_key;
        k.root_constants = std::move(c);
        // Window i of a tensor: bytes [i << window, (i + 1) << window); the last one reaches to the end of the
        // (padded) buffer, at most one window by construction.
        const auto windows = [&](BufferBinding::Source source, uint32_t slot, uint32_t views,
                                 std::vector<BufferBinding>& out) {
            for (uint32_t i = 0; i < views; ++i)
                out.push_back({source, slot, uint64_t{i} << window_log2,
                               i + 1 < views ? uint64_t{1} << window_log2 : 0});
        };
        windows(BufferBinding::Source::kInput, kInput, input_views, k.srvs);
        k.srvs.push_back(scratch);
        if (conv.has_input_zero_point) k.srvs.push_back(input_binding(kInputZeroPoint));
        windows(BufferBinding::Source::kOutput, 0, output_views, k.uavs);
        k.group_count = {grid.groups_x, grid.groups_y, 1};
        plan.dispatches.push_back(std::move(k));
    }
    return plan;
}

}  // namespace dmltool::ops::quantized_linear_convolution
