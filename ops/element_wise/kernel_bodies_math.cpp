// The element-wise bodies of float functions (kernel_bodies.h): transcendental functions from kernel_math.cpp, the
// activations and the powers and integer remainders. Attribute words are described at each body.
#include <cmath>
#include <tuple>

#include "ops/element_wise/kernel_body_rows.h"
#include "shaders/elements.h"

namespace dmltool::ops::element_wise::body_rows {

using shaders::imm;
using shaders::imm_f;
using shaders::Operand;

void add_math_rows(RowMap& rows) {
    rows["erf"] = float_unary(math::erf);
    // GELU as DirectML writes it, 0.5 x (1 + erf(x / sqrt(2))), with erfc's relative accuracy where 1 + erf cancels.
    rows["gelu"] = float_unary(math::gelu);
    rows["exp"] = float_unary(math::exp);
    rows["log"] = float_unary(math::log);
    rows["tanh"] = float_unary(math::tanh);
    rows["sigmoid"] = float_unary(math::sigmoid);
    rows["sin"] = float_unary([](BodyContext& c, Operand out, Operand x) { math::sincos(c, out, shaders::null_operand(), x); });
    rows["cos"] = float_unary([](BodyContext& c, Operand out, Operand x) { math::sincos(c, shaders::null_operand(), out, x); });
    rows["tan"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // sin / cos: <= 7 ulp
        Operand s = c.temp(), co = c.temp();
        math::sincos(c, s, co, x);
        c.b.div(out, s, co);
    });
    rows["atan"] = float_unary(math::atan);
    // asin x = atan2(x, sqrt((1 - x)(1 + x))), acos x = atan2(sqrt((1 - x)(1 + x)), x): the product keeps 1 - x^2
    // accurate near |x| = 1; |x| > 1 gives NaN (sqrt of a negative).
    auto cosine_of = [](BodyContext& c, Operand out, Operand x) {
        Operand t = c.temp();
        c.b.add(out, imm_f(1.0f), -x);
        c.b.add(t, x, imm_f(1.0f));
        c.b.mul(out, out, t);
        c.b.sqrt(out, out);
    };
    rows["asin"] = float_unary([cosine_of](BodyContext& c, Operand out, Operand x) {
        Operand t = c.temp();
        cosine_of(c, t, x);
        math::atan2(c, out, x, t);
    });
    rows["acos"] = float_unary([cosine_of](BodyContext& c, Operand out, Operand x) {
        Operand t = c.temp();
        cosine_of(c, t, x);
        math::atan2(c, out, t, x);
    });
    rows["atan_yx"] = {2, 2, float_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) { math::atan2(c, out, in[0], in[1]); }};
    // sinh x = sign(x) (t + t / (t + 1)) / 2, t = expm1(|x|); cosh x = (e + 1 / e) / 2, e = exp(|x|). Beyond |x| = 88
    // (where e^|x| overflows float32 but the result may not): h (h / 2), h = exp(|x| / 2), the halving exact
    // (exp(|x| - ln 2) would add the rounding of |x| - ln 2: 64 ulp near 88).
    auto large_half_exp = [](BodyContext& c, Operand out, Operand a, Operand value) {
        Operand big = c.temp(), e = c.temp(), h = c.temp();
        c.b.mul(h, a, imm_f(0.5f));
        math::exp(c, h, h);
        c.b.mul(e, h, imm_f(0.5f));
        c.b.mul(e, e, h);
        c.b.lt(big, imm_f(88.0f), a);
        c.b.movc(out, big, e, value);
    };
    rows["sinh"] = float_unary([large_half_exp](BodyContext& c, Operand out, Operand x) {  // <= 5 ulp
        Operand a = c.temp(), t = c.temp(), d = c.temp();
        c.b.mov(a, x.abs());
        math::expm1(c, t, a);
        c.b.add(d, t, imm_f(1.0f));
        c.b.div(d, t, d);
        c.b.add(t, t, d);
        c.b.mul(t, t, imm_f(0.5f));
        large_half_exp(c, t, a, t);
        copy_sign_body(c, out, t, x);
    });
    rows["cosh"] = float_unary([large_half_exp](BodyContext& c, Operand out, Operand x) {  // <= 4 ulp
        Operand a = c.temp(), e = c.temp(), r = c.temp();
        c.b.mov(a, x.abs());
        math::exp(c, e, a);
        c.b.div(r, imm_f(1.0f), e);
        c.b.add(e, e, r);
        c.b.mul(e, e, imm_f(0.5f));
        large_half_exp(c, out, a, e);
    });
    // asinh x = sign(x) log1p(a + a^2 / (1 + sqrt(1 + a^2))), a = |x| (a > 2^12: log(a) + ln 2); <= 6 ulp.
    rows["asinh"] = float_unary([](BodyContext& c, Operand out, Operand x) {
        Operand a = c.temp(), t = c.temp(), d = c.temp(), big = c.temp();
        c.b.mov(a, x.abs());
        c.b.mul(t, a, a);
        c.b.add(d, t, imm_f(1.0f));
        c.b.sqrt(d, d);
        c.b.add(d, d, imm_f(1.0f));
        c.b.div(t, t, d);
        c.b.add(t, t, a);
        math::log1p(c, t, t);
        math::log(c, d, a);
        c.b.add(d, d, imm_f(0.693147181f));
        c.b.lt(big, imm_f(4096.0f), a);
        c.b.movc(t, big, d, t);
        copy_sign_body(c, out, t, x);
    });
    // acosh x = log1p(t + sqrt(2 t + t^2)), t = x - 1 (exact near 1); x > 2^12: log(x) + ln 2; x < 1: NaN. <= 6 ulp.
    rows["acosh"] = float_unary([](BodyContext& c, Operand out, Operand x) {
        Operand t = c.temp(), u = c.temp(), big = c.temp();
        c.b.add(t, x, imm_f(-1.0f));
        c.b.add(u, t, imm_f(2.0f));
        c.b.mul(u, u, t);
        c.b.sqrt(u, u);
        c.b.add(u, u, t);
        math::log1p(c, u, u);
        math::log(c, t, x);
        c.b.add(t, t, imm_f(0.693147181f));
        c.b.lt(big, imm_f(4096.0f), x);
        c.b.movc(u, big, t, u);
        c.b.lt(big, x, imm_f(1.0f));  // (t + 2) t overflows for very negative x instead of going negative
        c.b.movc(out, big, imm(0x7fc00000), u);
    });
    // atanh x = sign(x) log1p(2a / (1 - a)) / 2, a = |x|: 1 -> inf, beyond -> NaN. <= 6 ulp.
    rows["atanh"] = float_unary([](BodyContext& c, Operand out, Operand x) {
        Operand a = c.temp(), d = c.temp(), t = c.temp();
        c.b.mov(a, x.abs());
        c.b.add(d, imm_f(1.0f), -a);
        c.b.add(t, a, a);
        c.b.div(t, t, d);
        c.b.lt(d, d, imm_f(0.0f));  // |x| > 1
        math::log1p(c, t, t);
        c.b.movc(t, d, imm(0x7fc00000), t);
        c.b.mul(t, t, imm_f(0.5f));
        copy_sign_body(c, out, t, x);
    });
    // pow(x, y) = exp(y log|x|), negative x only with an integral y (odd: negative result), else NaN; y = 0: 1.
    // The error grows with |y ln x| (the rounding of y log|x| becomes a relative error of the result): <= 3 +
    // 2 |y ln x| ulp.
    auto magnitude = [](BodyContext& c, Operand r, Operand x, Operand y) {  // exp(y log|x|)
        Operand l = c.temp(), t = c.temp();
        c.b.and_(t, x, imm(0x7fffffff));  // |x| as a value: log's integer instructions must not see an abs modifier
        math::log(c, l, t);
        c.b.mul(l, l, y);
        math::exp(c, r, l);
    };
    auto power = [magnitude](BodyContext& c, Operand out, Operand x, Operand y) {
        Operand r = c.temp(), integral = c.temp(), odd = c.temp(), t = c.temp();
        magnitude(c, r, x, y);
        c.b.round_z(t, y);
        c.b.eq(integral, t, y);
        c.b.mul(t, y, imm_f(0.5f));
        c.b.round_z(t, t);
        c.b.mul(t, t, imm_f(2.0f));
        c.b.ne(odd, t, y);
        c.b.and_(odd, odd, integral);
        c.b.lt(t, x, imm_f(0.0f));
        c.b.and_(odd, odd, t);
        c.b.and_(odd, odd, imm(0x80000000));
        c.b.or_(r, r, odd);
        c.b.not_(integral, integral);
        c.b.and_(t, t, integral);  // negative x, fractional y
        c.b.movc(r, t, imm(0x7fc00000), r);
        c.b.eq(t, y, imm_f(0.0f));
        c.b.movc(out, t, imm_f(1.0f), r);
    };
    // A float base with an integer exponent e (feature level 3.0): exp(float(e) log|x|), the sign from e's own
    // parity and x's sign bit (float(e) rounds above 2^24, and pow(-0, odd) is -0); e = 0: 1. float(e)'s rounding
    // is a relative error of e, inside the bound's 4 |e log2 x| u.
    auto power_of_integer = [magnitude](BodyContext& c, Operand out, Operand x, Operand e, DataType exponent_type) {
        Operand y = c.temp(), r = c.temp(), sign = c.temp(), t = c.temp();
        if (signed_integer(exponent_type)) c.b.itof(y, e); else c.b.utof(y, e);
        magnitude(c, r, x, y);
        c.b.ishl(sign, e, imm(31));  // bit 0 of e -> the sign bit
        c.b.and_(t, x, imm(0x80000000));
        c.b.and_(sign, sign, t);
        c.b.or_(r, r, sign);
        c.b.ieq(t, e, imm(0));
        c.b.movc(out, t, imm_f(1.0f), r);
    };
    // Integer base and exponent: exact (the docs), by repeated squaring in 32-bit registers (the low bits are the
    // wrapped result); a negative exponent truncates 1 / x^-e: 1 for x = 1, +-1 for a signed x = -1, else 0.
    auto integer_power = [](BodyContext& c, Operand out, Operand x, Operand e, DataType exponent_type) {
        Operand result = c.temp(), base = c.temp(), rest = c.temp(), bit = c.temp(), t = c.temp();
        c.b.mov(result, imm(1));
        c.b.mov(base, x);
        c.b.mov(rest, e);
        // A negative exponent's bits are not used; an unsigned one may have all 32.
        const uint32_t bits = signed_integer(exponent_type) ? uint32_t(element_size(exponent_type)) * 8 - 1
                                                             : uint32_t(element_size(exponent_type)) * 8;
        for (uint32_t i = 0; i < bits; ++i) {
            c.b.and_(bit, rest, imm(1));
            c.b.imul(t, result, base);
            c.b.movc(result, bit, t, result);
            if (i + 1 == bits) break;
            c.b.imul(base, base, base);
            c.b.ushr(rest, rest, imm(1));
        }
        if (signed_integer(exponent_type)) {
            Operand negative = c.temp(), reciprocal = c.temp();
            c.b.ilt(negative, e, imm(0));
            c.b.ieq(t, x, imm(1));
            c.b.and_(reciprocal, t, imm(1));  // x = 1: 1
            c.b.ieq(t, x, imm(uint32_t(-1)));
            if (!signed_integer(c.output_type())) c.b.mov(t, imm(0));  // an unsigned x of all ones is not -1
            c.b.and_(bit, e, imm(1));
            c.b.ishl(bit, bit, imm(1));
            c.b.isub(bit, imm(1), bit);      // x = -1: 1 - 2 (e & 1)
            c.b.movc(reciprocal, t, bit, reciprocal);
            c.b.movc(result, negative, reciprocal, result);
        }
        c.b.mov(out, result);
    };
    // An integer base with a float exponent: the float power of float(x), then to the output type by truncation
    // (the reference also accepts rounding: FunctionMath::integer_by_truncation), saturated at the type's range;
    // NaN (a negative base, a fractional exponent) becomes 0.
    auto power_to_integer = [power](BodyContext& c, Operand out, Operand x, Operand y) {
        const DataType type = c.output_type();
        Operand f = c.temp(), t = c.temp(), nan = c.temp();
        if (signed_integer(type)) c.b.itof(f, x); else c.b.utof(f, x);
        power(c, f, f, y);
        math::is_nan(c, nan, f);
        const bool is_signed = signed_integer(type);
        const uint32_t width = uint32_t(element_size(type)) * 8;
        // The range as floats: 8/16-bit bounds are exact; 32-bit ones saturate by the test against 2^31 / 2^32.
        const double low = is_signed ? -std::ldexp(1.0, int(width) - 1) : 0.0;
        const double high = is_signed ? std::ldexp(1.0, int(width) - 1) - 1 : std::ldexp(1.0, int(width)) - 1;
        c.b.max(f, f, imm_f(float(low)));
        if (width < 32) c.b.min(f, f, imm_f(float(high)));
        c.b.round_z(f, f);
        if (is_signed) c.b.ftoi(out, f); else c.b.ftou(out, f);
        if (width == 32) {
            c.b.ge(t, f, imm_f(float(std::ldexp(1.0, is_signed ? 31 : 32))));
            c.b.movc(out, t, imm(is_signed ? 0x7fffffffu : 0xffffffffu), out);
        }
        c.b.movc(out, nan, imm(0), out);
    };
    // POW's types: below feature level 3.0 a float base and exponent of one type; from 3.0 the exponent may be any
    // of the eight types, the output is the base's type.
    rows["pow"] = {2, 2,
                   [](Types in, DataType out) {
                       const auto supported = [](DataType t) { return is_float(t) || (is_integer(t) && element_size(t) <= 4); };
                       if (in[0] != out || !supported(in[0]) || !supported(in[1])) {
                           return refuse(in, out, "base and output of one type, 8/16/32-bit integer or float types");
                       }
                       return Status::ok();
                   },
                   [power, power_of_integer, integer_power, power_to_integer](BodyContext& c, std::span<const Operand> in, Operand out) {
                       const DataType base = c.input_type(0), exponent = c.input_type(1);
                       if (is_float(base) && is_float(exponent)) return power(c, out, in[0], in[1]);
                       if (is_float(base)) return power_of_integer(c, out, in[0], in[1], exponent);
                       if (!is_float(exponent)) return integer_power(c, out, in[0], in[1], exponent);
                       power_to_integer(c, out, in[0], in[1]);
                   }};
    rows["constant_pow"] = float_unary([power](BodyContext& c, Operand out, Operand x) {  // Exponent
        Operand y = c.temp();
        c.b.mov(y, c.parameter(0));
        power(c, out, x, y);
    });
    // Float remainders, exact (as IEEE's fmod; the bound allows a - b trunc(a / b) in float32, but its quotient can
    // round across an integer: a result off by b). With |x| = m 2^(e - 150) (m the 24-bit significand, the hidden
    // bit only for normal numbers, e >= 1), |a| mod |b| = ((m_a 2^(e_a - e_b)) mod m_b) 2^(e_b - 150): long
    // division in 32-bit integers, 8 bits of the exponent difference a step ((r << 8) < 2^32 for r < m_b < 2^24),
    // at most 32 steps, the loop left when no lane has steps left. The remainder (< 2^24) converts exactly; times
    // 2^-23 2^(e_b - 127) (both powers normal) it is exact unless denormal (flushed, as Direct3D may). |a| < |b|:
    // |a|. truncate: the sign of a; floor: a non-zero remainder whose sign differs from b's becomes |b| - r (exact:
    // both on b's grid), with b's sign. b = 0, a infinite or NaN, b NaN: NaN; b infinite: a (floor: b if the signs
    // differ and a != 0).
    auto float_modulus = [](BodyContext& c, Operand out, Operand a, Operand b, bool floor) {
        auto& k = c.b;
        Operand ax = c.temp(), bx = c.temp(), ea = c.temp(), eb = c.temp(), ma = c.temp(), mb = c.temp();
        Operand d = c.temp(), rem = c.temp(), t = c.temp(), step = c.temp(), value = c.temp(), smaller = c.temp();
        k.and_(ax, a, imm(0x7fffffff));
        k.and_(bx, b, imm(0x7fffffff));
        for (auto [bits, e, m] : {std::tuple{ax, ea, ma}, std::tuple{bx, eb, mb}}) {
            k.ushr(e, bits, imm(23));
            k.and_(m, bits, imm(0x7fffff));
            k.ine(t, e, imm(0));
            k.and_(t, t, imm(0x800000));
            k.or_(m, m, t);
            k.imax(e, e, imm(1));
        }
        k.isub(d, ea, eb);
        k.udiv(shaders::null_operand(), rem, ma, mb);
        k.loop();
        {
            k.ilt(t, imm(0), d);  // steps left
            Operand any = t.x();
            for (uint32_t lane = 1; lane < c.lanes(); ++lane) k.or_(any, any, t.component(lane));
            k.breakc_z(any);
            k.imin(step, d, imm(8));
            k.imax(step, step, imm(0));
            k.ishl(t, rem, step);
            k.udiv(shaders::null_operand(), rem, t, mb);
            k.isub(d, d, step);
        }
        k.endloop();
        k.utof(value, rem);
        k.mul(value, value, imm_f(0x1p-23f));  // first: r 2^(e_b - 127) may overflow
        k.ishl(t, eb, imm(23));                // 2^(e_b - 127)
        k.mul(value, value, t);
        k.ult(smaller, ax, bx);  // |a| < |b| (bit patterns of non-negative floats order as their values)
        k.movc(value, smaller, ax, value);
        Operand sign = c.temp();
        if (floor) {
            Operand nonzero = c.temp();
            k.movc(nonzero, smaller, ax, rem);
            k.ine(nonzero, nonzero, imm(0));
            k.xor_(t, a, b);
            k.ilt(t, t, imm(0));  // signs differ
            k.and_(t, t, nonzero);
            k.add(step, bx, -value);
            k.movc(value, t, step, value);
            k.and_(sign, b, imm(0x80000000));
        } else {
            k.and_(sign, a, imm(0x80000000));
        }
        k.or_(value, value, sign);
        Operand nan = c.temp();
        k.ieq(nan, bx, imm(0));
        k.uge(t, ax, imm(0x7f800000));  // a infinite or NaN
        k.or_(nan, nan, t);
        k.ult(t, imm(0x7f800000), bx);  // b NaN
        k.or_(nan, nan, t);
        k.movc(out, nan, imm(0x7fc00000), value);
    };
    // Integer remainders: truncate: the sign of A; floor: the sign of B. B = 0 gives 0, as the reference (the docs
    // leave it undefined).
    auto modulus = [float_modulus](bool floor) {
        return Row{2, 2,
                   [](Types in, DataType out) {
                       const bool ok = in[0] == out && in[1] == out && (is_float(out) || is_integer(out));
                       return ok ? Status::ok() : refuse(in, out, "A, B and the output of one type");
                   },
                   [floor, float_modulus](BodyContext& c, std::span<const Operand> in, Operand out) {
                       if (is_float(c.output_type())) return float_modulus(c, out, in[0], in[1], floor);
                       Operand a = c.temp(), b = c.temp(), q = c.temp(), r = c.temp(), t = c.temp();
                       if (!signed_integer(c.output_type())) {
                           c.b.udiv(q, r, in[0], in[1]);
                           c.b.ieq(t, in[1], imm(0));
                           return c.b.movc(out, t, imm(0), r);
                       }
                       c.b.imax(a, in[0], -in[0]);
                       c.b.imax(b, in[1], -in[1]);
                       c.b.udiv(q, r, a, b);
                       c.b.ilt(t, in[0], imm(0));
                       c.b.ineg(a, r);
                       c.b.movc(r, t, a, r);  // the sign of A
                       if (floor) {
                           c.b.xor_(t, in[0], in[1]);
                           c.b.ilt(t, t, imm(0));        // signs differ
                           c.b.ine(a, r, imm(0));
                           c.b.and_(t, t, a);
                           c.b.iadd(a, r, in[1]);
                           c.b.movc(r, t, a, r);
                       }
                       c.b.ieq(t, in[1], imm(0));
                       c.b.movc(out, t, imm(0), r);
                   }};
    };
    rows["modulus_truncate"] = modulus(false);
    rows["modulus_floor"] = modulus(true);
    // ---- activations (float). params as named.
    rows["leaky_relu"] = float_piecewise([](BodyContext& c, Operand n, Operand x) { c.b.mul(n, x, c.parameter(0)); });  // Alpha
    rows["linear"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha, Beta
        product(c, out, x, c.parameter(0));
        c.b.add(out, out, c.parameter(1));
    });
    rows["elu"] = float_piecewise([](BodyContext& c, Operand n, Operand x) {  // Alpha
        math::expm1(c, n, x);
        c.b.mul(n, n, c.parameter(0));
    });
    rows["scaled_elu"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha, Gamma
        Operand n = c.temp(), positive = c.temp();
        math::expm1(c, n, x);
        c.b.mul(n, n, c.parameter(0));
        c.b.lt(positive, imm_f(0.0f), x);
        c.b.movc(n, positive, x, n);
        c.b.mul(out, n, c.parameter(1));
    });
    rows["celu"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha: max(0, x) + min(0, a expm1(x / a))
        Operand n = c.temp(), p = c.temp();
        c.b.div(n, x, c.parameter(0));
        math::expm1(c, n, n);
        c.b.mul(n, n, c.parameter(0));
        c.b.min(n, n, imm_f(0.0f));
        c.b.max(p, x, imm_f(0.0f));
        c.b.add(out, p, n);
    });
    rows["thresholded_relu"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha: x > Alpha ? x : 0
        Operand above = c.temp();
        c.b.lt(above, c.parameter(0), x);
        c.b.and_(out, above, x);
    });
    rows["hard_sigmoid"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha, Beta
        product(c, out, x, c.parameter(0));
        c.b.add(out, out, c.parameter(1));
        c.b.max(out, out, imm_f(0.0f));
        c.b.min(out, out, imm_f(1.0f));
    });
    rows["hard_swish"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha, Beta
        Operand g = c.temp();
        product(c, g, x, c.parameter(0));
        c.b.add(g, g, c.parameter(1));
        c.b.max(g, g, imm_f(0.0f));
        c.b.min(g, g, imm_f(1.0f));
        c.b.mul(out, x, g);
    });
    rows["softsign"] = float_unary([](BodyContext& c, Operand out, Operand x) {
        Operand d = c.temp();
        c.b.add(d, x.abs(), imm_f(1.0f));
        c.b.div(out, x, d);
    });
    // softplus(t) = log(1 + exp(t)) as max(t, 0) + log1p(exp(-|t|)): exp never overflows (exp(88) is 1.7e38, and
    // log1p of it overflowed to 0 on NVIDIA's compiler of the direct form), and the small term is exact to its ulps.
    auto softplus = [](BodyContext& c, Operand out, Operand t) {
        Operand e = c.temp();
        c.b.mov(e, -t.abs());
        math::exp(c, e, e);
        math::log1p(c, e, e);
        Operand positive = c.temp();
        c.b.max(positive, t, imm_f(0.0f));
        c.b.add(out, positive, e);
    };
    rows["softplus"] = float_unary([softplus](BodyContext& c, Operand out, Operand x) {  // Steepness: softplus(s x) / s
        Operand t = c.temp();
        c.b.mul(t, x, c.parameter(0));
        softplus(c, t, t);
        c.b.div(out, t, c.parameter(0));
    });
    rows["parametric_softplus"] = float_unary([softplus](BodyContext& c, Operand out, Operand x) {  // Alpha, Beta
        Operand t = c.temp();
        c.b.mul(t, x, c.parameter(1));
        softplus(c, t, t);
        c.b.mul(out, t, c.parameter(0));
    });
    rows["scaled_tanh"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Alpha, Beta: Alpha tanh(Beta x)
        Operand t = c.temp();
        c.b.mul(t, x, c.parameter(1));
        math::tanh(c, t, t);
        c.b.mul(out, t, c.parameter(0));
    });
    rows["shrink"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // Bias, Threshold
        Operand low = c.temp(), high = c.temp(), v = c.temp();
        c.b.lt(low, x, -c.parameter(1));
        c.b.lt(high, c.parameter(1), x);
        c.b.add(v, x, c.parameter(0));
        c.b.and_(low, low, v);
        c.b.sub(v, x, c.parameter(0));
        c.b.and_(high, high, v);
        c.b.or_(out, low, high);
    });
    rows["swish"] = float_unary([](BodyContext& c, Operand out, Operand x) {  // SigmoidInputScale: x sigmoid(s x)
        Operand s = c.temp();
        c.b.mul(s, x, c.parameter(0));
        math::sigmoid(c, s, s);
        c.b.mul(out, x, s);
    });
    rows["parameterized_relu"] = {2, 2, float_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                                      Operand n = c.temp(), positive = c.temp();
                                      c.b.mul(n, in[0], in[1]);
                                      c.b.ge(positive, in[0], imm_f(0.0f));
                                      c.b.movc(out, positive, in[0], n);
                                  }};
    // Bodies whose bounds hold with the exp instruction (KernelBody::hardware_exp2; the budgets are at the math
    // functions in kernel_math.cpp): exp, sigmoid, tanh, erf and GELU; SCALED_TANH (Alpha times tanh's <= 8 u
    // absolute, within 16 |Alpha|); SWISH (x times sigmoid's error, within 16 |y| + 4 |x t| s (1 - s)); ELU and
    // SCALED_ELU (expm1 = e^x - 1 beyond |x| = ln 2: (6 + 1.224 |x|) u e^x, within 16 |Alpha| (1 + |x| e^x));
    // SOFTPLUS and PARAMETRIC_SOFTPLUS (exp(-|t|) <= 1 off by (6 + 1.224 |t|) u relative: <= 6 u absolute through
    // log1p, within 16 |Alpha| (1 + |Beta x|)).
    for (const char* id : {"exp", "sigmoid", "tanh", "erf", "gelu", "scaled_tanh", "swish", "elu", "scaled_elu",
                           "softplus", "parametric_softplus"})
        rows.at(id).hardware_exp2 = true;
}

}  // namespace dmltool::ops::element_wise::body_rows
