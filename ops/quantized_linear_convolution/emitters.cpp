// Emitters shared by both conv kernels: requantization and output stores, view binding, input address clamp.
#include <cstdint>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace internal {
namespace {

// Where |q| saturates: any |value| >= 2^10 clamps to the 8-bit range whatever the zero point, so larger
// magnitudes need not be exact; keeping q small also keeps -q and q + zero point inside int32.
constexpr uint32_t kSaturated = 1u << 16;

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
                     Operand limit, const TensorViews& output) {
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
    b.uge(f.z(), limit, f.z());
    b.and_(f.y(), f.y(), f.z());
    b.if_nz(f.y());
    shaders::store_words(b, output, at, packed.x());
    b.else_();
    Operand e = b.temp();  // x column, y in range, z element offset
    Operand v = b.temp();  // store_element_atomic reads component x of the value's register
    for (uint32_t lane = 0; lane < 4; ++lane) {
        b.iadd(e.x(), ow, imm(lane));
        b.ult(e.y(), e.x(), limit);
        b.if_nz(e.y());
        b.imad(e.z(), imm(lane), rc(kOutStrideW), at);
        b.mov(v.x(), r.component(lane));
        shaders::store_element_atomic(b, output, 1, e.z(), v.x());
        b.endif();
    }
    b.endif();
}

}  // namespace

void emit_store_tile(ProgramBuilder& b, bool output_signed, const std::vector<Operand>& acc, uint32_t channels,
                     uint32_t quads, Operand n, Operand oh, Operand p, Resource scratch,
                     const TensorViews& output, std::optional<Operand> column_limit) {
    auto rc = [&](uint32_t i) { return b.root_constant(i); };
    const Operand limit = column_limit ? *column_limit : rc(kOutW);
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
                emit_store_quad(b, output_signed, acc[j * quads].xyzw(), rec, ob.x(), p.z(), limit, output);
            } else {
                b.iadd(ob.z(), p.z(), imm(4 * h));
                b.imad(ob.y(), imm(4 * h), rc(kOutStrideW), ob.x());
                emit_store_quad(b, output_signed, acc[j * quads + h].xyzw(), rec, ob.y(), ob.z(), limit, output);
            }
        }
    }
}

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

void clamp_input_addresses(ProgramBuilder& b, Operand addresses, bool multi_view) {
    if (!multi_view) b.imax(addresses, addresses, imm(0));
    b.umin(addresses, addresses, b.root_constant(kInputLimit));
}

ConvResources bind_conv_resources(ProgramBuilder& b, uint32_t input_views, uint32_t output_views,
                                  uint32_t window_log2, bool has_input_zero_point) {
    ConvResources r;
    r.input = bind_views(b, false, 0, input_views, window_log2);
    r.scratch = b.srv_raw(input_views);
    r.input_zero_point = has_input_zero_point ? b.srv_raw(input_views + 1) : Resource{};
    r.output = bind_views(b, true, 0, output_views, window_log2);
    return r;
}

}  // namespace internal
}  // namespace dmltool::ops::quantized_linear_convolution
