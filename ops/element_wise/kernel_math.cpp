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
