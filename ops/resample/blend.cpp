// The blend arithmetic of the resample kernels (Emitter members, see emitter.h): the generic separable blend
// with error-free transformations, the short-weight path's Sum2, and the final rounding and conversion.
//
// Linear arithmetic. The reference sums the 2^k corner products in double and rounds once. A plain float32
// sum is NOT within the tolerance (4 ulp float32, 2 ulp float16): with mixed-sign inputs the result can be
// much smaller than the corner terms, and their float32 rounding errors (~2^-24 of the terms) then exceed many
// ulps of the result (measured: ~3% of random outputs off by > 4 ulp). Float outputs therefore use
// error-free transformations: the blend is separable (innermost blended dimension first), each product
// a * w is Dekker's exact TwoProduct (w split into 12-bit halves on the device by masking, a split the same
// way unless it is a widened half, whose 11 significant bits make a * w_half exact), sums are Knuth's TwoSum,
// and the rounding errors are carried in a float32 "lo" word. The result hi + lo is within ~2^-48 of the
// terms' magnitude before its final rounding — i.e. correctly rounded except for cancellations far beyond
// anything the tolerance can see. Every product whose rounding matters goes through unfused_mul (vkd3d 1.2
// drops 'precise', so nothing else stops a driver from contracting it into an FMA); the remaining products
// are exact, so fusing them cannot change a result. A non-finite hi (inf/NaN inputs) is returned as is.
// INT8/UINT8 outputs tolerate ±1 after round_ne + clamp, so they blend in plain float32.
//
// Short weights (KernelConfig::short_weights; window variant, blended last dimension, <= 3 blended
// dimensions). Power-of-two scales give weights that are multiples of 1/16 (2x: {1/4, 3/4}; 4x: odd eighths;
// 1/2x: 1/2), which the host checks from the tables (w1 * 16 an integer, w0 == 1 - w1 exactly). Then:
//  - each lane's last-dimension weight travels as a 4-bit code n (w1 = n / 16, w0 = 1 - w1, both exact) in
//    the chunk table, replacing the per-lane tap load and its index math;
//  - a corner weight W (the product of at most 3 such weights) is exact and has at most 12 significant bits,
//    so the blend is computed non-separably as sum_i v_i * W_i: FLOAT16 values (11 bits) give exact products
//    v * W; FLOAT32 values are split into 12-bit halves (vh + vl), so p = fl(v * W) and its error
//    e = (vh * W - p) + vl * W are exact (Dekker with an unsplit factor: 2 partial products, not 4);
//    the 2^k products are summed with Ogita-Rump-Oishi Sum2 (a TwoSum chain for hi, the exact TwoSum errors
//    and product errors summed in lo), i.e. as if in twice the working precision: |hi + lo - S| is within
//    ~k^2 * 2^-48 of sum |v_i W_i|, as accurate as the generic separable path, in about half its operations;
//  - INT8/UINT8: every separable partial blend is a multiple of 2^-12 below 2^8 in magnitude, so float32 is
//    exact, round_ne is the reference's round-half-even, and no clamp is needed (a convex combination).
//    The result is bit-identical to the reference.
// hi is the plain float32 sum of the corner products, so inf/NaN inputs give what the generic path gives.
#include "ops/resample/emitter.h"

namespace dmltool::ops::resample {

// d = d, through an integer OR with the run-time zero: the value is unchanged but no longer an expression
// the driver's compiler can simplify or fuse with its neighbours.
void Emitter::opaque(Operand d) { b_.or_(d, d, rc(kRuntimeZero)); }

// p = fl(a * w) (kept out of FMAs), e = a * w - p exactly (Dekker; every partial product is exact).
void Emitter::two_product(const Value& a, Operand w, Operand w_hi, Operand w_lo, Operand p, Operand e) {
    shaders::unfused_mul(b_, p, a.hi, w, rc(kRuntimeZero));
    // Each partial sum is made opaque: otherwise a compiler may factor ah * wh + ah * wl into ah * w (NIR's
    // inexact algebra does), which rounds and loses exactly the bits e exists to keep.
    if (a.narrow) {
        b_.mad(e, a.hi, w_hi, -p);
        opaque(e);
        b_.mad(e, a.hi, w_lo, e);
        return;
    }
    Operand s = b_.temp();
    b_.and_(s.x(), a.hi, imm(kSplitMask));
    b_.sub(s.y(), a.hi, s.x());
    b_.mad(e, s.x(), w_hi, -p);
    opaque(e);
    b_.mad(e, s.x(), w_lo, e);
    opaque(e);
    b_.mad(e, s.y(), w_hi, e);
    opaque(e);
    b_.mad(e, s.y(), w_lo, e);
}

Value Emitter::blend(const Value& a, const Value& c, const Term& term) {
    Value out;
    if (!is_compensated(config_.type)) {
        Operand r = b_.temp();
        b_.mul(r.x(), a.hi, term.tap.z());
        b_.mad(r.x(), c.hi, term.tap.w(), r.x());
        out.hi = r.x();
        return out;
    }
    Operand r = b_.temp();  // x p0, y e0, z p1, w e1
    Operand q = b_.temp();
    two_product(a, term.tap.z(), term.split.x(), term.split.z(), r.x(), r.y());
    two_product(c, term.tap.w(), term.split.y(), term.split.w(), r.z(), r.w());
    // TwoSum(p0, p1): s + es == p0 + p1 exactly. The intermediates pass through opaque() so that a
    // compiler's algebraic rewrites ((p0 + p1) - p0 -> p1, which Mesa's NIR applies to SPIR-V without
    // NoContraction) cannot see through them.
    b_.add(q.x(), r.x(), r.z());
    opaque(q.x());
    b_.sub(q.y(), q.x(), r.x());
    opaque(q.y());
    b_.sub(q.z(), q.x(), q.y());
    opaque(q.z());
    b_.sub(q.z(), r.x(), q.z());
    b_.sub(q.w(), r.z(), q.y());
    b_.add(q.z(), q.z(), q.w());
    b_.add(q.z(), q.z(), r.y());
    b_.add(q.z(), q.z(), r.w());
    if (a.has_lo) b_.mad(q.z(), a.lo, term.tap.z(), q.z());
    if (c.has_lo) b_.mad(q.z(), c.lo, term.tap.w(), q.z());
    out.hi = q.x();
    out.lo = q.z();
    out.has_lo = true;
    return out;
}

void emit_two_sum(shaders::ProgramBuilder& b, Operand runtime_zero, Operand a, Operand c, Operand s, Operand err) {
    Operand q = b.temp();
    b.add(s, a, c);
    b.or_(s, s, runtime_zero);
    b.sub(q.x(), s, a);
    b.or_(q.x(), q.x(), runtime_zero);
    b.sub(q.y(), s, q.x());
    b.or_(q.y(), q.y(), runtime_zero);
    b.sub(q.y(), a, q.y());
    b.sub(q.z(), c, q.x());
    b.add(err, q.y(), q.z());
}

// sum over corners of v * W, W = outer[j] * (w0 | w1), as hi + lo (Sum2; see the file comment).
Value Emitter::short_sum(const std::vector<Operand>& windows, const std::vector<HalfWindow>& halves,
                         const std::vector<std::optional<Operand>>& outer, Operand k0, Operand k1, Operand w0,
                         Operand w1) {
    Value sum;
    bool first = true;
    Operand bits0, bits1;
    if (!halves.empty()) {
        bits0 = half_bits(k0);
        bits1 = half_bits(k1);
    }
    for (size_t j = 0; j < windows.size(); ++j)
        for (uint32_t upper = 0; upper < 2; ++upper) {
            const Value v = !halves.empty() ? short_half(halves[j], upper ? bits1 : bits0)
                                            : window_value(windows[j], upper ? k1 : k0);
            Operand t = b_.temp();  // x W, y p, z e
            Operand w = upper ? w1 : w0;
            if (outer[j]) {
                b_.mul(t.x(), *outer[j], w);
                w = t.x();
            }
            const Operand p = t.y();
            bool has_e = false;
            if (v.narrow) {
                b_.mul(p, v.hi, w);  // exact: 11 + 12 significant bits
            } else {
                shaders::unfused_mul(b_, p, v.hi, w, rc(kRuntimeZero));
                Operand s = b_.temp();
                b_.and_(s.x(), v.hi, imm(kSplitMask));
                b_.sub(s.y(), v.hi, s.x());
                b_.mad(t.z(), s.x(), w, -p);  // vh * W exact, the difference too
                opaque(t.z());
                b_.mad(t.z(), s.y(), w, t.z());  // + vl * W (exact): e = v * W - p exactly
                has_e = true;
            }
            if (first) {
                first = false;
                sum.hi = p;
                if (has_e) {
                    sum.lo = t.z();
                    sum.has_lo = true;
                }
                continue;
            }
            Operand r = b_.temp();  // x new hi, y TwoSum error, z new lo
            emit_two_sum(b_, rc(kRuntimeZero), sum.hi, p, r.x(), r.y());
            if (sum.has_lo) b_.add(r.y(), r.y(), sum.lo);
            if (has_e) b_.add(r.y(), r.y(), t.z());
            sum.hi = r.x();
            sum.lo = r.y();
            sum.has_lo = true;
        }
    return sum;
}

// The output element's bits from a blended value (rounded and converted as the output type needs).
Operand Emitter::finish(const Value& v, bool clamp) {
    Operand f = b_.temp();
    if (is_compensated(config_.type)) {
        b_.add(f.x(), v.hi, v.lo);
        b_.and_(f.y(), v.hi, imm(0x7fffffffu));
        b_.ult(f.y(), f.y(), imm(0x7f800000u));  // hi finite: hi + lo; else inf/NaN as the plain sum has it
        b_.movc(f.x(), f.y(), f.x(), v.hi);
        if (config_.type == DataType::kFloat32) return f.x();
        shaders::float_to_half(b_, f.z(), f.x());
        return f.z();
    }
    const bool is_signed = config_.type == DataType::kInt8;
    b_.round_ne(f.x(), v.hi);
    if (clamp) {  // not needed for an exact convex combination (short weights)
        b_.max(f.x(), f.x(), imm_f(is_signed ? -128.0f : 0.0f));
        b_.min(f.x(), f.x(), imm_f(is_signed ? 127.0f : 255.0f));
    }
    if (is_signed) b_.ftoi(f.y(), f.x());
    else b_.ftou(f.y(), f.x());
    return f.y();
}

}  // namespace dmltool::ops::resample
