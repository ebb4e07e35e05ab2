// Float32 transcendental functions for the element-wise bodies, from SM 5.0 instructions that every device
// computes exactly the same way (add, mul, div, round, integer bit operations): the D3D exp/log/sincos
// instructions are approximations whose error varies by driver, so they are not used. Each function is a range
// reduction and a polynomial (Taylor coefficients; the truncation error is stated at each), evaluated with Horner's
// rule. A driver may contract mul + add into an FMA there: that only removes roundings, so the stated bounds hold.
#include <cmath>

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

}  // namespace

void is_nan(BodyContext& c, Operand mask, Operand x) { c.b.ne(mask, x, x); }

// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln 2 / 2 (Cody-Waite: r = x - n ln2_hi - n ln2_lo, the first
// step exact). exp(r) by its Taylor polynomial of degree 7: truncation r^8/8! <= 5.3e-9 relative (0.05 ulp);
// the evaluation and the reduction's rounding stay below 2 ulp. 2^n is applied in two exact steps (n1 = n / 2,
// n - n1) so that results near the overflow and underflow thresholds round only once.
void exp(BodyContext& c, Operand out, Operand x) {
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
void exp_nonpositive(BodyContext& c, Operand out, Operand x) {
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

// tanh(x) = sign(x) t / (t + 2), t = expm1(2 |x|); |x| >= 9: +-1 (1 - tanh(9) < 2^-25).
void tanh(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand a = c.temp(), t = c.temp(), d = c.temp(), sign = c.temp();
    b.min(a, x.abs(), imm_f(9.0f));
    b.add(a, a, a);
    expm1(c, t, a);
    b.add(d, t, imm_f(2.0f));
    b.div(t, t, d);
    b.ge(d, x.abs(), imm_f(9.0f));
    b.movc(t, d, imm_f(1.0f), t);
    b.and_(sign, x, imm(0x80000000));
    b.or_(t, t, sign);
    is_nan(c, d, x);
    b.movc(out, d, x, t);
}

// sigmoid(x) = 1 / (1 + exp(-x)): exp's error plus two roundings; exp(-x) = inf gives 0.
void sigmoid(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    Operand e = c.temp();
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

// sin / cos: k = round(x 2/pi), r = x - k pi/2 in three steps (Cody-Waite; the first two products exact for
// |k| < 2^13), |r| <= pi/4, Taylor polynomials of sin (to r^13) and cos (to r^14), chosen and signed by k mod 4.
// |x| <= 8192: <= 3 ulp (+ 2^-26 absolute near zeros of the function); beyond, the reduction's error grows.
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
    b.mul(z, r, r);
    horner(c, s, z, {1.0 / 6227020800, -1.0 / 39916800, 1.0 / 362880, -1.0 / 5040, 1.0 / 120, -1.0 / 6, 1.0});
    b.mul(s, s, r);
    horner(c, co, z, {-1.0 / 87178291200, 1.0 / 479001600, -1.0 / 3628800, 1.0 / 40320, -1.0 / 720, 1.0 / 24, -0.5, 1.0});
    b.ftoi(q, k);
    // sin x = [s, c, -s, -c][q & 3]; cos x = [c, -s, -c, s][q & 3].
    Operand swap = c.temp(), negate_sin = c.temp(), negate_cos = c.temp();
    b.and_(swap, q, imm(1));
    b.ine(swap, swap, imm(0));
    b.and_(negate_sin, q, imm(2));
    b.ishl(negate_sin, negate_sin, imm(30));           // bit 1 of q -> the sign bit
    b.iadd(negate_cos, q, imm(1));
    b.and_(negate_cos, negate_cos, imm(2));
    b.ishl(negate_cos, negate_cos, imm(30));
    // Beyond |x| = 8192 the reduction loses accuracy and beyond ~2^24 r is meaningless: the result is kept in
    // [-1, 1] there (the polynomial of a huge r would overflow). sin/cos of an infinity or NaN: NaN.
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

// erf(x), a = |x| (odd): a < 1: Taylor series x P(x^2) to x^23 (truncation <= 1.1e-10 relative); 1 <= a < 2.5: the
// series of positive terms (2/sqrt(pi)) e^(-a^2) a sum (2a^2)^n / (2n+1)!! to n = 27 (truncation <= 1e-11; exp and
// the rounding of a^2 dominate: <= 8 ulp); 2.5 <= a < 3.92: 1 - erfc(a), erfc by its continued fraction
// e^(-a^2) / sqrt(pi) / (a + (1/2) / (a + (2/2) / (a + ...))) with 8 levels (absolute error <= 2.2e-10);
// beyond: 1 (1 - erf(3.92) < 2^-25).
void erf(BodyContext& c, Operand out, Operand x) {
    auto& b = c.b;
    const double two_over_sqrt_pi = 1.12837916709551257390;
    Operand a = c.temp(), z = c.temp(), taylor = c.temp(), series = c.temp(), fraction = c.temp(), e = c.temp(),
            t = c.temp(), r = c.temp();
    b.min(a, x.abs(), imm_f(3.92f));
    b.mul(z, a, a);
    {
        std::vector<double> k;
        for (int n = 11; n >= 0; --n) {
            double factorial = 1;
            for (int i = 2; i <= n; ++i) factorial *= i;
            k.push_back((n % 2 ? -1.0 : 1.0) * two_over_sqrt_pi / (factorial * (2 * n + 1)));
        }
        Operand acc = c.temp();
        b.mov(acc, imm_f(float(k[0])));
        for (size_t i = 1; i < k.size(); ++i) {
            b.mul(acc, acc, z);
            b.add(acc, acc, imm_f(float(k[i])));
        }
        b.mul(taylor, acc, a);
    }
    b.mul(e, z, imm_f(-1.0f));
    exp(c, e, e);  // e^(-a^2)
    {
        std::vector<double> k(28);
        double double_factorial = 1;
        for (int n = 0; n < 28; ++n) {
            double_factorial *= 2 * n + 1;
            k[27 - n] = 1 / double_factorial;
        }
        Operand acc = c.temp(), w = c.temp();
        b.add(w, z, z);
        b.mov(acc, imm_f(float(k[0])));
        for (size_t i = 1; i < k.size(); ++i) {
            b.mul(acc, acc, w);
            b.add(acc, acc, imm_f(float(k[i])));
        }
        b.mul(acc, acc, a);
        b.mul(acc, acc, e);
        b.mul(series, acc, imm_f(float(two_over_sqrt_pi)));
    }
    {
        b.mov(t, a);
        for (int k = 8; k >= 1; --k) {
            b.div(r, imm_f(float(k / 2.0)), t);
            b.add(t, a, r);
        }
        b.mul(r, e, imm_f(float(two_over_sqrt_pi / 2)));  // 1 / sqrt(pi)
        b.div(r, r, t);
        b.add(fraction, imm_f(1.0f), -r);
    }
    b.lt(t, a, imm_f(2.5f));
    b.movc(r, t, series, fraction);
    b.lt(t, a, imm_f(1.0f));
    b.movc(r, t, taylor, r);
    b.ge(t, a, imm_f(3.92f));
    b.movc(r, t, imm_f(1.0f), r);
    copy_sign(c, r, r, x);
    Operand nan = c.temp();
    is_nan(c, nan, x);
    b.movc(out, nan, x, r);
}

}  // namespace dmltool::ops::element_wise::math
