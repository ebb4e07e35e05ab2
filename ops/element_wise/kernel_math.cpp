// Float32 transcendental functions for the element-wise bodies, from SM 5.0 instructions that every device
// computes exactly the same way (add, mul, div, round, integer bit operations): each is a range reduction and a
// polynomial (Taylor or minimax coefficients; the truncation error is stated at each), evaluated with Horner's rule.
// A driver may contract mul + add into an FMA there: that only removes roundings, so the stated bounds hold.
//
// 2^t is the exception where the context allows it (BodyContext::hardware_exp2): the exp instruction, in plans that
// require DeviceCapability::kAccurateExp2, which the backend runs only where its probe found the instruction within
// the D3D11.3 functional specification's 3 ulp ([FS], gpu/transcendental_probe.h), with the portable body as the
// fallback. The family's error bounds are derived from [FS]'s precisions (docs/element-wise.md), so each fast form
// states its budget against its row's bound, taking: the instruction within 3 ulp (<= 6u relative, u = 2^-24) where
// the result is >= 2^-126, and below 0 or within 3 * 2^-149 (inside every bound's 2^-126 absolute floor); a product
// or sum rounded within u relative (the MULTIPLY and ADD rows' own bound); log2 e as a float, 0.224 u off.
// log and sincos have no fast form: SM 5.0's log and sincos are not probed.
#include <cmath>
#include <iterator>

#include "ops/element_wise/kernel_bodies.h"

namespace dmltool::ops::element_wise::math {
namespace {

using shaders::imm;
using shaders::imm_f;
using shaders::Operand;

// out = c[0] * x^(n-1) + ... + c[n-1] (Horner).
void horner(BodyContext& c, Operand out, Operand x, std::initializer_list<double> coefficients) {
    auto it = coefficients.begin();
    Operand acc = c.temp();
    c.b.mov(acc, imm_f(float(*it++)));
    for (; it != coefficients.end(); ++it) {
        c.b.mul(acc, acc, x);
        c.b.add(acc, acc, imm_f(float(*it)));
    }
    c.b.mov(out, acc);
}

// 2^n for integer-valued float n in [-126, 127], as float bits ((n + 127) << 23).
void exp2_integer(BodyContext& c, Operand out, Operand n) {
    Operand t = c.temp();
    c.b.ftoi(t, n);
    c.b.iadd(t, t, imm(127));
    c.b.ishl(out, t, imm(23));
}

constexpr float kLn2Hi = 0.693359375f;            // 0x3f318000: 9 significant bits, so n * kLn2Hi is exact
constexpr float kLn2Lo = -2.12194440e-4f;         // ln 2 - kLn2Hi
constexpr float kLog2e = 1.44269504088896341f;

// out = 2^t by the exp instruction (only where c.hardware_exp2()).
void hardware_exp2(BodyContext& c, Operand out, Operand t) {
    c.b.exp2(out, t);
    c.note_hardware_exp2();
}

// exp(x) = 2^(x log2 e) by the instruction: the product's rounding and log2 e's move t = x log2 e by <= 1.224 u |t|,
// the result by a factor 2^(1.224 u |t|), i.e. 1.224 u |x| relative (|t| ln 2 = |x|); the instruction adds 6 u.
// (6 + 1.224 |x|) u |y| in all: inside EXP's (16 + 2 |x|) |y|, which is this very evaluation's [FS] budget. Below
// 2^-126 (x < -87.3) 0 or 3 * 2^-149 off; +-inf and NaN go through the instruction's special values (2^inf = inf,
// 2^-inf = 0, NaN), which the probe checks. 2 instructions where the portable exp takes 25.
void exp_by_instruction(BodyContext& c, Operand out, Operand x) {
    c.b.mul(out, x, imm_f(kLog2e));
    hardware_exp2(c, out, out);
}

}  // namespace

void is_nan(BodyContext& c, Operand mask, Operand x) { c.b.ne(mask, x, x); }

// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln 2 / 2 (Cody-Waite: r = x - n ln2_hi - n ln2_lo, the first
// step exact). exp(r) by its Taylor polynomial of degree 7: truncation r^8/8! <= 5.3e-9 relative (0.05 ulp);
// the evaluation and the reduction's rounding stay below 2 ulp. 2^n is applied in two exact steps (n1 = n / 2,
// n - n1) so that results near the overflow and underflow thresholds round only once.
void exp(BodyContext& c, Operand out, Operand x) {
    if (c.hardware_exp2()) return exp_by_instruction(c, out, x);
    auto& b = c.b;
    Operand v = c.temp(), n = c.temp(), r = c.temp(), p = c.temp(), n1 = c.temp(), s = c.temp();
    b.max(v, x, imm_f(-175.0f));  // exp(-175) underflows to 0, exp(175) overflows: n stays within two steps
    b.min(v, v, imm_f(175.0f));
    b.mul(n, v, imm_f(kLog2e));
    b.round_ne(n, n);
    b.mul(r, n, imm_f(kLn2Hi));
    b.sub(r, v, r);
    b.mul(p, n, imm_f(kLn2Lo));
    b.sub(r, r, p);
    horner(c, p, r, {1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0});
    b.mul(n1, n, imm_f(0.5f));
    b.round_z(n1, n1);
    b.sub(n, n, n1);
    exp2_integer(c, s, n1);
    b.mul(p, p, s);
    exp2_integer(c, s, n);
    b.mul(p, p, s);
    Operand nan = c.temp();
    is_nan(c, nan, x);
    b.movc(out, nan, x, p);
}

// exp(x) for x <= 0 or NaN (softmax's x - max), in fewer instructions than exp(): the same reduction and polynomial
// (<= 2 ulp), but n = round(x / ln 2) is clamped to >= -126, so 2^n is one normal float applied in one step (the
// result rounds once, also where it is subnormal). For n = -127 and -128 the reduced argument reaches -2.04, where
// the polynomial is still accurate to 1e-2 relative of a result below 2^-126 (2^-133 absolute); below that (x / ln 2
// < -128.5: e^x < 2^-128.5) the result is 0, within a fifth of the 2^-126 absolute floor of every bound; -inf gives 0
// exactly. NaN propagates through the reduction.
// With the exp instruction (softmax's exponentials, whose bound counts each as exp2 within [FS] of x - max rounded,
// 2 |x - max| + 16): exp_by_instruction, (6 + 1.224 |x|) u relative; 0 below 2^-126 at most.
void exp_nonpositive(BodyContext& c, Operand out, Operand x) {
    if (c.hardware_exp2()) return exp_by_instruction(c, out, x);
    auto& b = c.b;
    Operand n = c.temp(), r = c.temp(), p = c.temp(), tiny = c.temp(), s = c.temp();
    b.mul(n, x, imm_f(kLog2e));
    b.round_ne(n, n);
    b.lt(tiny, n, imm_f(-128.0f));
    b.max(n, n, imm_f(-126.0f));  // Direct3D's max: a NaN n becomes -126; r stays NaN through x
    b.mul(r, n, imm_f(kLn2Hi));
    b.sub(r, x, r);
    b.mul(p, n, imm_f(kLn2Lo));
    b.sub(r, r, p);
    horner(c, p, r, {1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0});
    exp2_integer(c, s, n);
    b.mul(p, p, s);
    b.movc(out, tiny, imm(0), p);
}

// expm1(x): |x| < ln 2: Taylor polynomial of degree 10 (truncation (ln 2)^11 / 11! <= 4.1e-10 relative: the
// polynomial is x * q(x) with q >= 0.7 there); elsewhere exp(x) - 1, whose subtraction loses at most a factor 2.
void expm1(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand e = c.temp(), q = c.temp(), small = c.temp();
    exp(c, e, x);
    b.add(e, e, imm_f(-1.0f));
    Operand v = c.temp();
    b.max(v, x, imm_f(-1.0f));  // keeps the unused polynomial branch finite
    b.min(v, v, imm_f(1.0f));
    horner(c, q, v, {1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120,
                     1.0 / 24, 1.0 / 6, 0.5, 1.0});
    b.mul(q, q, v);
    b.lt(small, x.abs(), imm_f(0.693147182f));
    b.movc(out, small, q, e);
}

// log(x) = e ln 2 + log(m), x = m 2^e with m in [sqrt(1/2), sqrt(2)); log(m) = 2 atanh(s), s = (m - 1) / (m + 1),
// |s| <= 0.1716: 2 s (1 + z/3 + ... + z^5/11), z = s^2, truncation 2 s z^6 / 13 <= 1.3e-10 relative. Float
// subnormal inputs are scaled by 2^23 first (a device that flushes them to zero returns -inf, as for 0).
void log(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand v = c.temp(), sub = c.temp(), e = c.temp(), m = c.temp(), t = c.temp(), s = c.temp(), z = c.temp(),
            p = c.temp();
    b.ult(sub, x, imm(0x00800000));  // positive subnormal (or +0): scale up
    b.mul(v, x, imm_f(8388608.0f));
    b.movc(v, sub, v, x);
    b.and_(sub, sub, imm(23));
    b.ushr(e, v, imm(23));
    b.isub(e, e, sub);
    b.and_(m, v, imm(0x007fffff));
    b.or_(m, m, imm(0x3f800000));    // m in [1, 2)
    b.uge(t, m, imm(0x3fb504f3));    // m >= sqrt(2): halve it, e + 1
    b.and_(t, t, imm(0x00800000));
    b.isub(m, m, t);
    b.ushr(t, t, imm(23));
    b.iadd(e, e, t);
    b.iadd(e, e, imm(static_cast<uint32_t>(-127)));
    b.itof(e, e);
    b.add(t, m, imm_f(-1.0f));       // exact (Sterbenz)
    b.add(s, m, imm_f(1.0f));
    b.div(s, t, s);
    b.mul(z, s, s);
    horner(c, p, z, {2.0 / 11, 2.0 / 9, 2.0 / 7, 2.0 / 5, 2.0 / 3, 2.0});
    b.mul(p, p, s);
    b.mul(t, e, imm_f(kLn2Lo));
    b.add(p, p, t);
    b.mul(t, e, imm_f(kLn2Hi));
    b.add(p, p, t);
    // Specials: log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays.
    b.eq(t, x, imm_f(0.0f));
    b.movc(p, t, imm(0xff800000), p);
    b.lt(t, x, imm_f(0.0f));
    b.movc(p, t, imm(0x7fc00000), p);
    b.eq(t, x, imm_f(INFINITY));
    b.movc(p, t, x, p);
    is_nan(c, t, x);
    b.movc(out, t, x, p);
}

// log1p(x) = log(u) * x / (u - 1), u = 1 + x (u - 1 exact): the quotient cancels u's rounding (Goldberg's trick);
// u == 1 returns x. <= 4 ulp.
void log1p(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand u = c.temp(), l = c.temp(), d = c.temp(), one = c.temp();
    b.add(u, x, imm_f(1.0f));
    // Opaque to the compiler: without it, lavapipe folds (x + 1) - 1 into x and the correction is lost (measured:
    // 10^5 ulps at x = 5e-4).
    b.or_(u, u, c.runtime_zero());
    log(c, l, u);
    b.add(d, u, imm_f(-1.0f));
    b.div(d, x, d);
    b.mul(d, l, d);
    b.eq(one, u, imm_f(1.0f));
    b.movc(d, one, x, d);
    Operand big = c.temp();  // x = +inf (d would be inf / inf)
    b.eq(big, x, imm_f(INFINITY));
    b.movc(out, big, x, d);
}

// 2^t for t in [-126, 126] (no NaN, no overflow or underflow handling: the callers bound t): n = round(t),
// 2^(t - n) by a minimax polynomial of degree 6 on [-1/2, 1/2] (relative error 0.03 u, u = 2^-24, fitted by
// Lawson's iteration against 2^f; its float32 evaluation adds about 1 u), then n added to the exponent bits.
// 14 instructions where exp() takes 25: the range is known, so no clamping and one scaling step.
// With the exp instruction: 1 instruction, within 6 u relative (the callers' budgets state what that adds).
static void exp2_bounded(BodyContext& c, Operand out, Operand t) {
    if (c.hardware_exp2()) return hardware_exp2(c, out, t);
    auto& b = c.b;
    Operand n = c.temp(), f = c.temp(), p = c.temp();
    b.round_ne(n, t);
    b.sub(f, t, n);
    horner(c, p, f, {0x1.41d334p-13, 0x1.5f456ap-10, 0x1.3b2dbcp-7, 0x1.c6aed4p-5, 0x1.ebfbdap-3, 0x1.62e43p-1, 1.0});
    b.ftoi(n, n);
    b.ishl(n, n, imm(23));
    b.iadd(out, p, n);
}

// tanh(x) = sign(x) tanh(a), a = min(|x|, 10): a >= 0.5625: 1 - 2 / (2^(2 a log2 e) + 1) (exactly 1 from a = 10 on,
// as the correctly rounded tanh is from 9.011: ScaledTanh's bound wants Alpha exactly at infinite inputs),
// whose absolute error (exp2_bounded's, the division's 2.5 ulp of a quotient <= 1/2) is a few u where the result is
// >= 0.5; a < 0.5625: a + a^3 P(a^2), P a minimax polynomial of degree 4 (relative error 0.02 u). Emulated in
// float32 over [-10, 10]: <= 1.7 ulp, fused or not. About half the instructions of t / (t + 2), t = expm1(2a).
// With the exp instruction (a >= 0.5625): e = 2^(2 a log2 e) is 6 u + 1.224 u * 2a relative off, which moves
// 2 / (e + 1) = 1 - tanh(a) by (1 - tanh a)(6 + 2.45 a) u <= 3.7 u (its largest at a = 0.5625; the product
// (1 - tanh a) a falls from there); the sum, the division (2.5 ulp) and 1 - q add (1 - tanh a)(2 + 5) u + u:
// <= 8 u absolute for a result >= 0.51, against TANH's 16 |y| + 16; the polynomial branch is unchanged.
//
// FLOAT16 outputs with the exp instruction take tanh_to_half instead (below).
static void tanh_to_half(BodyContext& c, Operand out, Operand x);

void tanh(BodyContext& c, Operand out, Operand x) {
    if (c.hardware_exp2() && c.output_type() == DataType::kFloat16) return tanh_to_half(c, out, x);
    auto& b = c.b;
    Operand a = c.temp(), t = c.temp(), z = c.temp(), p = c.temp(), small = c.temp();
    b.min(a, x.abs(), imm_f(10.0f));
    b.mul(t, a, imm_f(float(2 * 1.44269504088896341)));
    exp2_bounded(c, t, t);
    b.add(t, t, imm_f(1.0f));
    b.div(t, imm_f(2.0f), t);
    b.add(t, imm_f(1.0f), -t);
    b.mul(z, a, a);
    horner(c, p, z, {-0x1.95002p-8, 0x1.582fb2p-6, -0x1.b90948p-5, 0x1.110c72p-3, -0x1.555548p-2});
    b.mul(p, p, z);
    b.mad(p, p, a, a);
    b.lt(small, a, imm_f(0.5625f));
    b.movc(t, small, p, t);
    b.and_(small, x, imm(0x80000000));
    b.or_(t, t, small);
    is_nan(c, small, x);  // min() took 10 for a NaN
    b.movc(out, small, x, t);
}

// tanh for FLOAT16 outputs, with the exp instruction: sign(x) (1 - e) / (1 + e), e = 2^(-2 |x| log2 e) in [0, 1],
// one formula for every x: no clamp, branch or NaN test (NaN goes through; e(inf) = 0 gives 1). e's relative error
// (6 + 2.45 |x|) u moves y by 2 e / (1 + e)^2 times it: <= 3 u absolute (at x = 0, e = 1; less as e falls); 1 - e
// is exact for e >= 1/2 (Sterbenz), u/2 of it beyond; the sum (u/2 of 1 + e) and the division (2.5 ulp) add
// <= 7 u |y|: <= 3 u + 7 u |y| in all, inside TANH's 16 |y| + 16 (SCALED_TANH: Alpha times both). FLOAT16's own
// rounding is wider than the 3 u from |y| = 2^-11 on; below, the result may be a step or two of half's subnormal
// spacing (2^-24) off where the exp instruction is 2-3 ulp off near 1, which the bound's absolute part allows
// (FLOAT32 outputs keep the polynomial branch's relative accuracy). 7 instructions instead of about 22: FLOAT16 tanh
// moves 4 bytes per element and was arithmetic-bound on the H200 (89.7 % of the copy roofline with the long body).
static void tanh_to_half(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand e = c.temp(), n = c.temp(), d = c.temp(), s = c.temp();
    b.mul(e, x.abs(), imm_f(float(-2 * 1.44269504088896341)));
    hardware_exp2(c, e, e);
    b.add(n, imm_f(1.0f), -e);
    b.add(d, e, imm_f(1.0f));
    b.div(n, n, d);
    b.and_(s, x, imm(0x80000000));
    b.or_(out, n, s);
}

// sigmoid(x) = 1 / (1 + exp(-x)): exp's error plus two roundings; exp(-x) = inf gives 0.
// With the exp instruction, e = 2^(-x log2 e) (4 instructions instead of 28): e's relative error
// (6 + 1.224 |x|) u moves y = 1 / (1 + e) by y (1 - y) times it; the sum (u) and the division (2.5 ulp, 5 u) add
// 6 u y: (6 y (1 - y) + 1.224 |x| y (1 - y) + 6 y) u <= (12 y + 1.224 |x| y (1 - y)) u, inside SIGMOID's
// 16 |y| + 16 + 4 |x| y (1 - y). x = -inf: e = inf, y = 0; x = +inf: e = 0, y = 1; NaN stays NaN.
void sigmoid(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand e = c.temp();
    if (c.hardware_exp2()) {
        b.mul(e, x, imm_f(-kLog2e));
        hardware_exp2(c, e, e);
        b.add(e, e, imm_f(1.0f));
        return b.div(out, imm_f(1.0f), e);
    }
    b.mul(e, x, imm_f(-1.0f));
    exp(c, e, e);
    b.add(e, e, imm_f(1.0f));
    b.div(out, imm_f(1.0f), e);
}

}  // namespace dmltool::ops::element_wise::math

namespace dmltool::ops::element_wise::math {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Sets the sign of `magnitude` (a non-negative float) to the sign bit of `sign_of`.
void copy_sign(BodyContext& c, Operand out, Operand magnitude, Operand sign_of) {
    Operand s = c.temp();
    c.b.and_(s, sign_of, imm(0x80000000));
    c.b.or_(out, magnitude, s);
}

// out = atan(a) for 0 <= a <= 1: a > tan(pi/8) is mapped to (a - 1) / (a + 1) plus pi/4; then the odd Taylor
// series to a^23 (|a| <= 0.4142: truncation 0.4142^25 / 25 <= 1.1e-11 relative to a).
void atan_unit(BodyContext& c, Operand out, Operand a) {
    auto& b = c.b;
    Operand big = c.temp(), t = c.temp(), d = c.temp(), z = c.temp(), p = c.temp();
    b.lt(big, imm_f(0.414213562f), a);
    b.add(t, a, imm_f(-1.0f));
    b.add(d, a, imm_f(1.0f));
    b.div(t, t, d);
    b.movc(t, big, t, a);
    b.mul(z, t, t);
    horner(c, p, z, {-1.0 / 23, 1.0 / 21, -1.0 / 19, 1.0 / 17, -1.0 / 15, 1.0 / 13, -1.0 / 11, 1.0 / 9, -1.0 / 7,
                     1.0 / 5, -1.0 / 3, 1.0});
    b.mul(p, p, t);
    b.and_(big, big, imm_f(float(kPi / 4)));
    b.add(out, p, big);
}

}  // namespace

// atan(x): |x| > 1 uses pi/2 - atan(1/|x|); <= 4 ulp.
void atan(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand a = c.temp(), inverted = c.temp(), r = c.temp(), q = c.temp();
    b.lt(inverted, imm_f(1.0f), x.abs());
    b.div(q, imm_f(1.0f), x.abs());
    b.movc(a, inverted, q, x.abs());
    atan_unit(c, r, a);
    b.add(q, imm_f(float(kPi / 2)), -r);
    b.movc(r, inverted, q, r);
    copy_sign(c, r, r, x);
    Operand nan = c.temp();
    is_nan(c, nan, x);
    b.movc(out, nan, x, r);
}

// atan2(y, x) with IEEE's quadrants (the sign of a zero x decides between 0 and pi); <= 5 ulp.
void atan2(BodyContext& c, Operand out, Operand y, Operand x) {
    auto& b = c.b;
    Operand ay = c.temp(), ax = c.temp(), lo = c.temp(), hi = c.temp(), r = c.temp(), t = c.temp(), f = c.temp();
    b.mov(ay, y.abs());
    b.mov(ax, x.abs());
    b.min(lo, ax, ay);
    b.max(hi, ax, ay);
    b.div(t, lo, hi);
    b.eq(f, hi, imm_f(0.0f));  // both zero: angle 0 before the quadrant fixes
    b.movc(t, f, imm_f(0.0f), t);
    b.eq(f, lo, imm_f(INFINITY));  // both infinite: pi/4
    b.movc(t, f, imm_f(1.0f), t);
    atan_unit(c, r, t);
    b.lt(f, ax, ay);
    b.add(t, imm_f(float(kPi / 2)), -r);
    b.movc(r, f, t, r);
    b.ilt(f, x, imm(0));  // sign bit of x: pi - r
    b.add(t, imm_f(float(kPi)), -r);
    b.movc(r, f, t, r);
    copy_sign(c, r, r, y);
    Operand nan = c.temp();
    is_nan(c, nan, x);
    b.movc(r, nan, x, r);
    is_nan(c, nan, y);
    b.movc(out, nan, y, r);
}

// 2/pi in binary, 32 bits a word, after one word of zeros (the window below may start before 2/pi's first bit):
// floor(2/pi 2^224) in hex, computed with mpmath at 400 bits.
constexpr uint32_t kTwoOverPiWords[8] = {0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1,
                                         0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab};

// Payne-Hanek reduction of a finite |x| >= 2^13 (a float32 m 2^(e-150), m the 24-bit significand): quadrant q
// (integer, mod 4) and r = x - q pi/2 in [-pi/4, pi/4]. Cody-Waite's k pi/2 loses bits once k no longer fits the
// constants' spare bits (TAN of 2.98e7 gave 70.8 for -0.757: lavapipe campaign, seed 20261203). Only 96 bits of
// 2/pi matter: those of weight 2^(e-150-i) with i >= e - 151 (earlier ones add multiples of 4 to x 2/pi), 96 of
// them from there (the rest adds < 2^-70 to a fraction that is never below ~2^-30 for float32 x: Muller,
// Elementary Functions, the worst cases of reduction mod pi/2). The low 96 bits of m times that window are
// x 2/pi mod 4 in 2.94 fixed point. SM 5.0 as vkd3d runs it has no 32x32 -> 64 multiply, so the product is
// schoolbook in 16-bit limbs (each partial product < 2^32). Bits 93..30 of the fraction, signed (>= 1/2 becomes
// f - 1, q + 1), become the float r = f pi/2 within ~2 ulp. Garbage (not used) where |x| < 2^13, NaN or inf.
static void reduce_payne_hanek(BodyContext& c, Operand q_out, Operand r_out, Operand x) {
    auto& b = c.b;
    Operand ax = c.temp(), m = c.temp(), j = c.temp(), sh = c.temp(), t = c.temp(), u = c.temp();
    b.and_(ax, x, imm(0x7fffffff));
    b.and_(m, ax, imm(0x7fffff));
    b.or_(m, m, imm(0x800000));
    // The window starts at bit j = e - 119 of the padded words (1-based): word q = (j - 1) >> 5, shift (j - 1) & 31;
    // q is 0 at e = 140 (|x| >= 8192) and 4 at e = 255, so words 0..7 cover every window.
    b.ushr(j, ax, imm(23));
    b.iadd(j, j, imm(uint32_t(-120)));
    b.and_(sh, j, imm(31));
    b.ishr(j, j, imm(5));
    Operand eqs[5] = {c.temp(), c.temp(), c.temp(), c.temp(), c.temp()};
    for (int i = 0; i < 5; ++i) b.ieq(eqs[i], j, imm(uint32_t(i)));
    Operand words[4] = {c.temp(), c.temp(), c.temp(), c.temp()};
    for (int d = 0; d < 4; ++d) {
        b.mov(words[d], imm(0));
        for (int i = 0; i < 5; ++i) b.movc(words[d], eqs[i], imm(kTwoOverPiWords[i + d]), words[d]);
    }
    // W_d = words[d] << sh | words[d + 1] >> (32 - sh); the right shift in two steps, since a shift by 32 is a
    // shift by 0 in SM 5.0.
    Operand rs = c.temp(), w[3] = {c.temp(), c.temp(), c.temp()};
    b.isub(rs, imm(31), sh);
    for (int d = 0; d < 3; ++d) {
        b.ishl(w[d], words[d], sh);
        b.ushr(t, words[d + 1], imm(1));
        b.ushr(t, t, rs);
        b.or_(w[d], w[d], t);
    }
    // Limbs: v[0] least significant; m = m1 2^16 + m0.
    Operand v[6] = {c.temp(), c.temp(), c.temp(), c.temp(), c.temp(), c.temp()};
    for (int d = 0; d < 3; ++d) {
        b.and_(v[4 - 2 * d], w[d], imm(0xffff));
        b.ushr(v[5 - 2 * d], w[d], imm(16));
    }
    Operand m0 = c.temp(), m1 = c.temp();
    b.and_(m0, m, imm(0xffff));
    b.ushr(m1, m, imm(16));
    Operand limb[6] = {c.temp(), c.temp(), c.temp(), c.temp(), c.temp(), c.temp()};
    Operand acc = c.temp(), next = c.temp(), p = c.temp();
    b.mov(next, imm(0));
    b.mov(acc, imm(0));
    for (int col = 0; col < 6; ++col) {  // column col: m0 v[col] + m1 v[col - 1], the previous column's high halves
        b.ushr(acc, acc, imm(16));     // the carry
        b.iadd(acc, acc, next);
        b.mov(next, imm(0));
        for (int k = 0; k < 2; ++k) {
            if (col - k < 0) continue;
            b.imul(p, k == 0 ? m0 : m1, v[col - k]);
            b.and_(t, p, imm(0xffff));
            b.iadd(acc, acc, t);
            b.ushr(t, p, imm(16));
            b.iadd(next, next, t);
        }
        b.and_(limb[col], acc, imm(0xffff));
    }
    // hi = fraction bits 93..62, lo = 61..30; q = bits 95..94.
    Operand hi = c.temp(), lo = c.temp(), q = c.temp(), neg = c.temp();
    b.ushr(q, limb[5], imm(14));
    b.ishl(hi, limb[5], imm(18));
    b.ishl(t, limb[4], imm(2));
    b.or_(hi, hi, t);
    b.ushr(t, limb[3], imm(14));
    b.or_(hi, hi, t);
    b.ishl(lo, limb[3], imm(18));
    b.ishl(t, limb[2], imm(2));
    b.or_(lo, lo, t);
    b.ushr(t, limb[1], imm(14));
    b.or_(lo, lo, t);
    // f >= 1/2: |f - 1| = 2^64 - (hi, lo), the 64-bit negation; q + 1.
    b.ushr(neg, hi, imm(31));
    b.iadd(q, q, neg);
    b.ine(neg, neg, imm(0));
    b.not_(t, hi);
    b.ieq(u, lo, imm(0));
    b.and_(u, u, imm(1));
    b.iadd(t, t, u);
    b.movc(hi, neg, t, hi);
    b.ineg(t, lo);
    b.movc(lo, neg, t, lo);
    Operand r = c.temp();
    b.utof(r, hi);
    b.utof(t, lo);
    b.mul(t, t, imm_f(float(kPi / 2 * 0x1p-64)));
    b.mad(r, r, imm_f(float(kPi / 2 * 0x1p-32)), t);
    // The sign of r: that of f (neg) flipped for x < 0, where x = -|x| = (-q) pi/2 + (-r).
    b.ilt(t, x, imm(0));
    b.xor_(neg, neg, t);
    b.and_(neg, neg, imm(0x80000000));
    b.xor_(r_out, r, neg);
    b.ineg(u, q);
    b.movc(q_out, t, u, q);
}

// sin / cos: k = round(x 2/pi), r = x - k pi/2 in three steps (Cody-Waite; the first two products exact for
// |k| < 2^13), |r| <= pi/4, Taylor polynomials of sin (to r^13) and cos (to r^14), chosen and signed by k mod 4.
// |x| <= 8192: <= 3 ulp (+ 2^-26 absolute near zeros of the function); beyond, reduce_payne_hanek's q and r.
void sincos(BodyContext& c, Operand sin_out, Operand cos_out, Operand x) {
    auto& b = c.b;
    Operand k = c.temp(), r = c.temp(), t = c.temp(), z = c.temp(), s = c.temp(), co = c.temp(), q = c.temp(),
            f = c.temp();
    b.mul(k, x, imm_f(float(2 / kPi)));
    b.round_ne(k, k);
    b.mul(t, k, imm_f(1.5703125f));
    b.sub(r, x, t);
    b.mul(t, k, imm_f(4.837512969970703125e-4f));
    b.sub(r, r, t);
    b.mul(t, k, imm_f(7.54978995489188216e-8f));
    b.sub(r, r, t);
    b.ftoi(q, k);
    {
        Operand big = c.temp(), q2 = c.temp(), r2 = c.temp();
        reduce_payne_hanek(c, q2, r2, x);
        b.lt(big, imm_f(8192.0f), x.abs());
        b.movc(q, big, q2, q);
        b.movc(r, big, r2, r);
    }
    b.mul(z, r, r);
    horner(c, s, z, {1.0 / 6227020800, -1.0 / 39916800, 1.0 / 362880, -1.0 / 5040, 1.0 / 120, -1.0 / 6, 1.0});
    b.mul(s, s, r);
    horner(c, co, z, {-1.0 / 87178291200, 1.0 / 479001600, -1.0 / 3628800, 1.0 / 40320, -1.0 / 720, 1.0 / 24, -0.5, 1.0});
    // sin x = [s, c, -s, -c][q & 3]; cos x = [c, -s, -c, s][q & 3].
    Operand swap = c.temp(), negate_sin = c.temp(), negate_cos = c.temp();
    b.and_(swap, q, imm(1));
    b.ine(swap, swap, imm(0));
    b.and_(negate_sin, q, imm(2));
    b.ishl(negate_sin, negate_sin, imm(30));           // bit 1 of q -> the sign bit
    b.iadd(negate_cos, q, imm(1));
    b.and_(negate_cos, negate_cos, imm(2));
    b.ishl(negate_cos, negate_cos, imm(30));
    // The result is kept in [-1, 1] (a guard: |r| <= pi/4 + a few ulp on both paths). sin/cos of an infinity or
    // NaN: NaN.
    Operand nan = c.temp();
    is_nan(c, nan, x);
    b.eq(f, x.abs(), imm_f(INFINITY));
    b.or_(nan, nan, f);
    if (!sin_out.is_null()) {
        b.movc(t, swap, co, s);
        b.xor_(t, t, negate_sin);
        b.max(t, t, imm_f(-1.0f));
        b.min(t, t, imm_f(1.0f));
        b.movc(sin_out, nan, imm(0x7fc00000), t);
    }
    if (!cos_out.is_null()) {
        b.movc(t, swap, s, co);
        b.xor_(t, t, negate_cos);
        b.max(t, t, imm_f(-1.0f));
        b.min(t, t, imm_f(1.0f));
        b.movc(cos_out, nan, imm(0x7fc00000), t);
    }
}

}  // namespace dmltool::ops::element_wise::math

namespace dmltool::ops::element_wise::math {

// erf(a) = a P(a^2) for 0 <= a < 0.875, P a minimax polynomial of degree 6 (relative error 0.003 u, u = 2^-24).
static void erf_small(BodyContext& c, Operand out, Operand a) {
    Operand z = c.temp(), p = c.temp();
    c.b.mul(z, a, a);
    horner(c, p, z, {0x1.6be156p-14, -0x1.ae803p-11, 0x1.553accp-8, -0x1.b819aap-6, 0x1.ce2e84p-4, -0x1.812744p-2,
                     0x1.20dd76p+0});
    c.b.mul(out, p, a);
}

// erfc(a) for 0.875 <= a <= 4: 2^Q(s), s = (a - 2.4375) / 1.5625 in [-1, 1], Q a polynomial of degree 6 fitted to
// log2(erfc(a)) minimising erfc(a) times its error (the absolute error it makes in erf: 0.03 u); Q is in
// [-26, -2.2], so exp2_bounded applies. With the exp instruction: 6 u relative more of erfc <= 2^-2.2, i.e.
// <= 1.3 u absolute in erf and in GELU's 2 - erfc, and 6 u relative in GELU's x / 2 erfc.
static void erfc_tail(BodyContext& c, Operand out, Operand a) {
    Operand s = c.temp(), q = c.temp();
    c.b.mad(s, a, imm_f(0x1.47ae14p-1f), imm_f(-0x1.8f5c28p+0f));
    horner(c, q, s, {0x1.1308d8p-8, -0x1.1709ccp-9, 0x1.732fecp-6, -0x1.fb2616p-5, -0x1.a8999ap+1, -0x1.799d22p+3,
                     -0x1.592312p+3});
    exp2_bounded(c, out, q);
}

// erf(x) = sign(x) erf(a), a = min(|x|, 4): a < 0.875: erf_small; else 1 - erfc_tail(a) (1 at a = 4, where
// erfc(4) < 2^-25). Emulated in float32 over [-4.5, 4.5]: <= 4.7 ulp (just above 0.875, where 1 - erfc cancels
// most), 2.6 u of the family's 16 u (|erf| + 1). No division; a third of the Taylor / series / continued fraction
// version's instructions. With the exp instruction (erfc_tail): <= 6 u absolute in all, against ERF's 16 |y| + 16.
void erf(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand a = c.temp(), r = c.temp(), e = c.temp(), t = c.temp();
    b.min(a, x.abs(), imm_f(4.0f));
    erf_small(c, r, a);
    erfc_tail(c, e, a);
    b.add(e, imm_f(1.0f), -e);
    b.lt(t, a, imm_f(0.875f));
    b.movc(r, t, r, e);
    copy_sign(c, r, r, x);
    Operand nan = c.temp();
    is_nan(c, nan, x);  // min() took 4 for a NaN
    b.movc(out, nan, x, r);
}

// GELU(x) = x Phi(x), Phi(x) = 1 - h for x >= 0 and h for x < 0, h = erfc(|x| / sqrt 2) / 2 = 2^Q(t),
// t = min(|x| / (4 sqrt 2), 1) (|x| / sqrt 2 up to 4, beyond which erfc < 2^-25: h taken as 0, so that -inf gives
// -inf * 0 = NaN as the exact formula does; NaN: min() takes 1, h = 0, x * 0 = NaN). Q is a polynomial of degree 8
// in t fitted to log2(erfc(4 t) / 2) by Lawson's iteration, weighted by h so that h's absolute error is minimal
// (scripts/fit_gelu_erfc.py: 0.13 u in h before rounding, Q(0) = -1 exactly; with t's rounding and a float32
// Horner <= 0.71 u fused, 0.87 u unfused, u = 2^-24). One polynomial and one 2^t for all x: no erf branch, no
// division, 17 instructions with the exp instruction (the erf-based form took about 48), since FLOAT16 GELU moves
// 4 bytes per element and was arithmetic-bound on the H200 (74 % of the copy roofline).
// Error: h is <= 0.9 u + r h off, r the relative error of 2^t (exp2_bounded: about 1 u; the exp instruction 6 u,
// h <= 1/2). x >= 0: 1 - h (u/2) and the product (u/2 |y|): <= (0.9 + 3 + 0.5) u |x| + 0.5 u |y|; x < 0:
// <= 0.9 u |x| + 6.5 u |y|; both inside GELU's 16 |y| + 8 |x| + 16.
void gelu(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand t = c.temp(), q = c.temp(), h = c.temp(), m = c.temp(), g = c.temp();
    b.mul(t, x.abs(), imm_f(0x1.6a09e6p-3f));  // 1 / (4 sqrt 2)
    b.min(t, t, imm_f(1.0f));
    const float coefficients[] = {-0x1.740f52p+1f, 0x1.ca2b88p+2f, -0x1.7ed4a2p+2f, -0x1.b09fd2p-1f, 0x1.cfb2bap+2f,
                                  -0x1.302442p+3f, -0x1.d639d0p+3f, -0x1.a0beaap+2f, -1.0f};
    b.mad(q, t, imm_f(coefficients[0]), imm_f(coefficients[1]));
    for (size_t i = 2; i < std::size(coefficients); ++i) b.mad(q, q, t, imm_f(coefficients[i]));
    exp2_bounded(c, h, q);  // q in [-27.1, -1]
    b.lt(m, t, imm_f(1.0f));
    b.and_(h, h, m);
    b.add(g, imm_f(1.0f), -h);
    b.ge(m, x, imm_f(0.0f));
    b.movc(g, m, g, h);
    b.mul(out, x, g);
}

}  // namespace dmltool::ops::element_wise::math
