// Exact reduction modulo pi/2 for the reference's trigonometric functions (reference_trig.h says why).
//
// |x| = m 2^e with m a 53-bit integer. x 2/pi = sum over the bits b_i of 2/pi (weight 2^-i) of m 2^(e - i) b_i; the
// bits with e - i >= 2 add multiples of 4, which change neither the quadrant nor the remainder, so the sum starts at
// i = max(1, e - 1). A 192-bit window of 2/pi from there, times m, gives x 2/pi mod 4 with at least 128 bits of
// fraction; the bits past the window add less than m 2^(e - i_first - 192) <= 2^-137. The remainder is never closer
// to 0 than about 2^-61 for a double (2^-30 for a float32), so its 128 bits keep at least 67 significant ones, and
// r = f pi/2 is within a few double ulps relative. sin, cos and tan of |r| <= pi/4 are then the C library's, where
// every library is accurate.
#include "ops/element_wise/reference_trig.h"

#include <cmath>
#include <cstdint>

namespace dmltool::ops::element_wise {

namespace {

using Uint128 = unsigned __int128;

// floor(2/pi 2^1280), most significant word first (computed from pi by Machin's formula in 1400-bit integers; the
// first words agree with every published table of 2/pi).
constexpr uint64_t kTwoOverPi[20] = {
    0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561, 0xb7246e3a424dd2e0,
    0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484, 0xe99c7026b45f7e41, 0x3991d639835339f4,
    0x9c845f8bbdf9283b, 0x1ff897ffde05980f, 0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b, 0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab, 0xf0cfbc209af4361d,
};
constexpr int kTableWords = 20;
constexpr double kHalfPi = 1.5707963267948966;  // pi/2 rounded to double: 2^-54 relative

// The 64 bits of 2/pi from bit `first` on (bit 1 has weight 1/2). A double's largest e needs bits up to ~1165.
uint64_t two_over_pi_bits(int first) {
    const int index = (first - 1) / 64, shift = (first - 1) % 64;
    const uint64_t high = index < kTableWords ? kTwoOverPi[index] : 0;
    const uint64_t low = index + 1 < kTableWords ? kTwoOverPi[index + 1] : 0;
    return shift == 0 ? high : high << shift | low >> (64 - shift);
}

// Bits [low, low + 64) of the 256-bit number `limbs` (least significant limb first); zeros above bit 255.
uint64_t bits_at(const uint64_t (&limbs)[4], int low) {
    const int index = low / 64, shift = low % 64;
    const uint64_t a = index < 4 ? limbs[index] : 0, b = index + 1 < 4 ? limbs[index + 1] : 0;
    return shift == 0 ? a : a >> shift | b << (64 - shift);
}

struct Reduced {
    unsigned quadrant;  // |x| = (4 k + quadrant) pi/2 + r
    double r;           // |r| <= pi/4
};

// `ax` finite and > pi/4.
Reduced reduce_half_pi(double ax) {
    int exponent = 0;
    const double significand = std::frexp(ax, &exponent);  // ax = significand 2^exponent, significand in [1/2, 1)
    const uint64_t m = uint64_t(std::ldexp(significand, 53));
    const int e = exponent - 53;
    const int first = e - 1 > 1 ? e - 1 : 1;
    // The window W = w0 2^128 + w1 2^64 + w2 stands for W 2^-(first + 191); P = m W, 245 bits at most.
    const uint64_t w0 = two_over_pi_bits(first), w1 = two_over_pi_bits(first + 64), w2 = two_over_pi_bits(first + 128);
    uint64_t p[4];
    Uint128 t = Uint128(m) * w2;
    p[0] = uint64_t(t);
    t = Uint128(m) * w1 + (t >> 64);
    p[1] = uint64_t(t);
    t = Uint128(m) * w0 + (t >> 64);
    p[2] = uint64_t(t);
    p[3] = uint64_t(t >> 64);
    // x 2/pi = P 2^(e - first - 191): the binary point sits `point` bits up, 190 <= point <= 245 for ax > pi/4.
    const int point = first + 191 - e;
    unsigned quadrant = unsigned(bits_at(p, point)) & 3;
    Uint128 fraction = Uint128(bits_at(p, point - 64)) << 64 | bits_at(p, point - 128);  // f 2^128, f in [0, 1)
    double sign = 1;
    if (fraction >> 127) {  // f >= 1/2: f - 1 in [-1/2, 0), one quadrant more
        fraction = -fraction;
        sign = -1;
        quadrant = (quadrant + 1) & 3;
    }
    // f's leading 64 bits, normalized, to double (one rounding), then times pi/2 (one more, and pi/2's own).
    int lead = 127;
    while (lead > 0 && !((fraction >> lead) & 1)) --lead;
    const uint64_t top = lead >= 63 ? uint64_t(fraction >> (lead - 63)) : uint64_t(fraction) << (63 - lead);
    const double f = std::ldexp(double(top), lead - 63 - 128);
    return {quadrant, sign * f * kHalfPi};
}

}  // namespace

double reference_sin(double x) {
    if (!std::isfinite(x) || std::fabs(x) <= 0.78539816339744828) return std::sin(x);
    const Reduced reduced = reduce_half_pi(std::fabs(x));
    const double s = std::sin(reduced.r), c = std::cos(reduced.r);
    const double value = reduced.quadrant == 0 ? s : reduced.quadrant == 1 ? c : reduced.quadrant == 2 ? -s : -c;
    return x < 0 ? -value : value;
}

double reference_cos(double x) {
    if (!std::isfinite(x) || std::fabs(x) <= 0.78539816339744828) return std::cos(x);
    const Reduced reduced = reduce_half_pi(std::fabs(x));
    const double s = std::sin(reduced.r), c = std::cos(reduced.r);
    return reduced.quadrant == 0 ? c : reduced.quadrant == 1 ? -s : reduced.quadrant == 2 ? -c : s;
}

double reference_tan(double x) {
    if (!std::isfinite(x) || std::fabs(x) <= 0.78539816339744828) return std::tan(x);
    const Reduced reduced = reduce_half_pi(std::fabs(x));
    // tan(r + pi/2) = -1 / tan(r); the period is pi.
    const double value = reduced.quadrant & 1 ? -1 / std::tan(reduced.r) : std::tan(reduced.r);
    return x < 0 ? -value : value;
}

}  // namespace dmltool::ops::element_wise
