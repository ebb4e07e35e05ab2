// Every allowed ALU opcode, run on the device (lavapipe in CI) over edge-case and random inputs and compared
// with D3D's definition written as C++. This is where vkd3d 1.2 mistranslations would show up; the allow-list
// in shaders/opcodes.cpp is only as good as this test.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "gpu/tests/gpu_test_support.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"

namespace dmltool::gpu {
namespace {

using shaders::imm;
using shaders::Operand;
using shaders::ProgramBuilder;

enum class Inputs { kInt, kShift, kBitfield, kDivide, kFloat, kFloatRound, kFloatToInt, kFloatToUint, kHalfBits };
enum class Compare { kBits, kFloat };

using Emit = std::function<void(ProgramBuilder&, Operand r, Operand a, Operand b, Operand c)>;
using Reference = std::function<uint32_t(uint32_t, uint32_t, uint32_t)>;

struct OpCase {
    const char* name;
    Inputs inputs;
    Compare compare;
    Emit emit;
    Reference reference;
    Reference alternative = nullptr;  // a second acceptable result, where D3D/Vulkan allow two
    uint32_t max_ulp = 0;             // Compare::kFloat: ulps allowed from `reference` where Vulkan bounds the error
};

float f(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t u(float value) { return std::bit_cast<uint32_t>(value); }
int32_t s(uint32_t bits) { return static_cast<int32_t>(bits); }
uint32_t mask(bool condition) { return condition ? 0xffffffffu : 0u; }

uint32_t bitfield_extract(uint32_t value, uint32_t width, uint32_t offset, bool sign) {
    width &= 31;
    offset &= 31;
    if (width == 0) return 0;
    const uint32_t shifted = value << (32 - width - offset);
    return sign ? static_cast<uint32_t>(static_cast<int32_t>(shifted) >> (32 - width)) : shifted >> (32 - width);
}

const std::vector<OpCase>& op_cases() {
    static const std::vector<OpCase> cases = {
        {"iadd", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.iadd(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x + y; }},
        {"isub_negate_modifier", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.isub(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x - y; }},
        {"ineg", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand, Operand) { b.ineg(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return 0u - x; }},
        {"imul_low", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.imul(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x * y; }},
        {"imad", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.imad(r, x, y, z); },
         [](uint32_t x, uint32_t y, uint32_t z) { return x * y + z; }},
        {"udiv_quotient", Inputs::kDivide, Compare::kBits,
         [](auto& b, Operand r, Operand x, Operand y, Operand) { b.udiv(r, shaders::null_operand(), x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return y == 0 ? 0xffffffffu : x / y; }},
        {"udiv_remainder", Inputs::kDivide, Compare::kBits,
         [](auto& b, Operand r, Operand x, Operand y, Operand) { b.udiv(shaders::null_operand(), r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return y == 0 ? 0xffffffffu : x % y; }},
        {"ishl", Inputs::kShift, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ishl(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x << (y & 31); }},
        {"ishr", Inputs::kShift, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ishr(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return static_cast<uint32_t>(s(x) >> (y & 31)); }},
        {"ushr", Inputs::kShift, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ushr(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x >> (y & 31); }},
        {"and", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.and_(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x & y; }},
        {"or", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.or_(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x | y; }},
        {"xor", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.xor_(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return x ^ y; }},
        {"not", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand, Operand) { b.not_(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return ~x; }},
        {"umin", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.umin(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return std::min(x, y); }},
        {"umax", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.umax(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return std::max(x, y); }},
        {"imin", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.imin(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return static_cast<uint32_t>(std::min(s(x), s(y))); }},
        {"imax", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.imax(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return static_cast<uint32_t>(std::max(s(x), s(y))); }},
        {"ult", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ult(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(x < y); }},
        {"uge", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.uge(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(x >= y); }},
        {"ilt", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ilt(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(s(x) < s(y)); }},
        {"ige", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ige(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(s(x) >= s(y)); }},
        {"ieq", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ieq(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(x == y); }},
        {"ine", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ine(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(x != y); }},
        {"movc", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.movc(r, z, x, y); },
         [](uint32_t x, uint32_t y, uint32_t z) { return z != 0 ? x : y; }},
        {"countbits", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand, Operand) { b.countbits(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return static_cast<uint32_t>(std::popcount(x)); }},
        {"ubfe", Inputs::kBitfield, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.ubfe(r, y, z, x); },
         [](uint32_t x, uint32_t y, uint32_t z) { return bitfield_extract(x, y, z, false); }},
        {"ibfe", Inputs::kBitfield, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.ibfe(r, y, z, x); },
         [](uint32_t x, uint32_t y, uint32_t z) { return bitfield_extract(x, y, z, true); }},
        {"bfi", Inputs::kBitfield, Compare::kBits,
         [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.bfi(r, y, z, x, imm(0xa5a5a5a5u)); },
         [](uint32_t x, uint32_t y, uint32_t z) {
             const uint32_t width = y & 31, offset = z & 31;
             const uint32_t field = (width == 0 ? 0u : (0xffffffffu >> (32 - width))) << offset;
             return ((x << offset) & field) | (0xa5a5a5a5u & ~field);
         }},
        {"add", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.add(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(f(x) + f(y)); }},
        {"sub_negate_modifier", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.sub(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(f(x) - f(y)); }},
        {"abs_modifier", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.mov(r, x.abs()); },
         [](uint32_t x, uint32_t, uint32_t) { return x & 0x7fffffffu; }},
        {"mul", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.mul(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(f(x) * f(y)); }},
        // vkd3d 1.2 translates mad to GLSL.std.450 Fma, whose precision Vulkan defines as that of OpFMul + OpFAdd:
        // a driver may fuse it or not (lavapipe rounds twice). So mad is either, and kernels that must match
        // the CPU reference bit for bit avoid it.
        {"mad_fused_or_not", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.mad(r, x, y, z); },
         [](uint32_t x, uint32_t y, uint32_t z) { return u(std::fma(f(x), f(y), f(z))); },
         [](uint32_t x, uint32_t y, uint32_t z) { const float p = f(x) * f(y); return u(p + f(z)); }},
        // A mul then an add may be contracted into one fused multiply-add: lavapipe rounds twice, NVIDIA's compiler
        // (H100, driver 580) fuses them. Kernels that must round twice, as the CPU reference does, use unfused_mul,
        // which the next case holds to double rounding (it passes on both).
        {"mul_then_add_fused_or_not", Inputs::kFloat, Compare::kFloat,
         [](auto& b, Operand r, Operand x, Operand y, Operand z) { b.mul(r, x, y); b.add(r, r, z); },
         [](uint32_t x, uint32_t y, uint32_t z) { const float p = f(x) * f(y); return u(p + f(z)); },
         [](uint32_t x, uint32_t y, uint32_t z) { return u(std::fma(f(x), f(y), f(z))); }},
        {"unfused_mul_then_add", Inputs::kFloat, Compare::kFloat,
         [](auto& b, Operand r, Operand x, Operand y, Operand z) {
             shaders::unfused_mul(b, r, x, y, b.root_constant(2));
             b.add(r, r, z);
         },
         [](uint32_t x, uint32_t y, uint32_t z) { const float p = f(x) * f(y); return u(p + f(z)); }},
        // D3D holds only add, subtract and multiply to 0.5 ULP; vkd3d emits OpFDiv and Sqrt, which Vulkan bounds at
        // 2.5 ULP (x / y) and as 1 / inversesqrt (2 ULP): lavapipe rounds both correctly, NVIDIA's H100 is 1 ulp off
        // on some inputs. No kernel uses either; a mistranslation (another opcode) is still far outside.
        {"div", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.div(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(f(x) / f(y)); }, nullptr, 2},
        // NaN operands lose (D3D's min/max = IEEE minNum/maxNum; vkd3d emits NMin/NMax). For +0 vs -0 either
        // zero is allowed, so the second reference swaps the operands.
        {"min", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.min(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(std::fmin(f(x), f(y))); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(std::fmin(f(y), f(x)) == 0.0f ? f(y) : std::fmin(f(x), f(y))); }},
        {"max", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.max(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(std::fmax(f(x), f(y))); },
         [](uint32_t x, uint32_t y, uint32_t) { return u(std::fmax(f(y), f(x)) == 0.0f ? f(y) : std::fmax(f(x), f(y))); }},
        {"sqrt", Inputs::kFloat, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.sqrt(r, x.abs()); },
         [](uint32_t x, uint32_t, uint32_t) { return u(std::sqrt(std::fabs(f(x)))); }, nullptr, 4},
        {"eq", Inputs::kFloat, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.eq(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(f(x) == f(y)); }},
        {"ne", Inputs::kFloat, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ne(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(f(x) != f(y)); }},
        {"lt", Inputs::kFloat, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.lt(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(f(x) < f(y)); }},
        {"ge", Inputs::kFloat, Compare::kBits, [](auto& b, Operand r, Operand x, Operand y, Operand) { b.ge(r, x, y); },
         [](uint32_t x, uint32_t y, uint32_t) { return mask(f(x) >= f(y)); }},
        {"round_ne", Inputs::kFloatRound, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.round_ne(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(std::nearbyint(f(x))); }},
        {"round_ni", Inputs::kFloatRound, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.round_ni(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(std::floor(f(x))); }},
        {"round_pi", Inputs::kFloatRound, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.round_pi(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(std::ceil(f(x))); }},
        {"round_z", Inputs::kFloatRound, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.round_z(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(std::trunc(f(x))); }},
        {"frc", Inputs::kFloatRound, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.frc(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(f(x) - std::floor(f(x))); }},
        {"ftoi", Inputs::kFloatToInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand, Operand) { b.ftoi(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return static_cast<uint32_t>(static_cast<int32_t>(f(x))); }},
        {"ftou", Inputs::kFloatToUint, Compare::kBits, [](auto& b, Operand r, Operand x, Operand, Operand) { b.ftou(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return static_cast<uint32_t>(f(x)); }},
        {"itof", Inputs::kInt, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.itof(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(static_cast<float>(s(x))); }},
        {"utof", Inputs::kInt, Compare::kFloat, [](auto& b, Operand r, Operand x, Operand, Operand) { b.utof(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return u(static_cast<float>(x)); }},
        {"mov", Inputs::kInt, Compare::kBits, [](auto& b, Operand r, Operand x, Operand, Operand) { b.mov(r, x); },
         [](uint32_t x, uint32_t, uint32_t) { return x; }},
    };
    return cases;
}

// Inputs as (a, b, c) triples: edge cases crossed with each other, then seeded random values.
std::vector<uint32_t> make_inputs(Inputs kind) {
    std::mt19937 rng(1234);
    std::vector<uint32_t> out;
    auto push = [&out](uint32_t a, uint32_t b, uint32_t c) { out.insert(out.end(), {a, b, c}); };
    auto random_float = [&rng](float lo, float hi) { return u(std::uniform_real_distribution<float>(lo, hi)(rng)); };
    const uint32_t int_edges[] = {0, 1, 2, 3, 7, 31, 32, 33, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 12345678};
    const float float_edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, 1e-30f, 1e30f, -7.25f, 65504.0f,
                                 INFINITY, -INFINITY, NAN, 16777217.0f, 0.1f, 1.0f / 3.0f};
    switch (kind) {
        case Inputs::kInt:
            for (uint32_t a : int_edges) for (uint32_t b : int_edges) push(a, b, b & 1 ? 0 : a);
            for (int i = 0; i < 2000; ++i) push(rng(), rng(), rng() & 3 ? rng() : 0);
            break;
        case Inputs::kShift:
            for (uint32_t a : int_edges) for (uint32_t b = 0; b < 70; ++b) push(a, b, 0);
            for (int i = 0; i < 1000; ++i) push(rng(), rng(), 0);
            break;
        case Inputs::kBitfield:
            // offset + width <= 32: beyond that SPIR-V's bitfield ops are undefined (vkd3d does not clamp).
            for (uint32_t width = 0; width <= 32; ++width) {
                for (uint32_t offset = 0; offset + width <= 32; offset += 3) push(rng(), width, offset);
            }
            for (int i = 0; i < 500; ++i) {
                const uint32_t width = rng() % 33;
                push(rng(), width, width == 32 ? 0 : rng() % (33 - width));
            }
            break;
        case Inputs::kDivide:
            for (uint32_t a : int_edges) for (uint32_t b : int_edges) push(a, b, 0);
            for (int i = 0; i < 2000; ++i) push(rng(), i % 3 ? rng() % 1000 + 1 : rng(), 0);
            break;
        case Inputs::kFloat:
            for (float a : float_edges) for (float b : float_edges) push(u(a), u(b), u(b - a));
            for (int i = 0; i < 3000; ++i) push(random_float(-1e3f, 1e3f), random_float(-1e3f, 1e3f), random_float(-1e6f, 1e6f));
            break;
        case Inputs::kFloatRound:
            for (float a : float_edges) push(u(a), 0, 0);
            for (float a = -8.0f; a <= 8.0f; a += 0.25f) push(u(a), 0, 0);  // includes every .5 tie
            for (int i = 0; i < 1000; ++i) push(random_float(-1e7f, 1e7f), 0, 0);
            break;
        case Inputs::kFloatToInt:
            for (float a : {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2147483520.0f, -2147483648.0f, -7.9f}) push(u(a), 0, 0);
            for (int i = 0; i < 1000; ++i) push(random_float(-2e9f, 2e9f), 0, 0);
            break;
        case Inputs::kFloatToUint:
            for (float a : {0.0f, -0.0f, 0.5f, 1.5f, 4294967040.0f, 2147483648.0f, 7.9f}) push(u(a), 0, 0);
            for (int i = 0; i < 1000; ++i) push(random_float(0.0f, 4e9f), 0, 0);
            break;
        case Inputs::kHalfBits:
            break;
    }
    return out;
}

// Within `max_ulp` ulps of `expected` (NaN by any NaN; an infinity only by itself).
bool same_float(uint32_t got, uint32_t expected, uint32_t max_ulp = 0) {
    if (std::isnan(f(expected))) return std::isnan(f(got));
    if (got == expected) return true;
    if (max_ulp == 0 || std::isnan(f(got)) || std::isinf(f(expected)) || std::isinf(f(got))) return false;
    // Sign-magnitude bits to a monotonic integer line (-0 and +0 both at 0).
    const auto ordered = [](uint32_t bits) {
        return bits & 0x80000000u ? -int64_t(bits & 0x7fffffffu) : int64_t(bits);
    };
    const int64_t distance = ordered(got) - ordered(expected);
    return (distance < 0 ? -distance : distance) <= int64_t(max_ulp);
}

class OpcodeNumeric : public ::testing::TestWithParam<size_t> {};

TEST_P(OpcodeNumeric, MatchesD3DDefinition) {
    const OpCase& op = op_cases()[GetParam()];
    DMLTOOL_GPU_CONTEXT_OR_SKIP(context);
    ProgramBuilder b;
    Operand i = shaders::linear_thread_index(b, b.root_constant(1));
    Operand t = b.temp(), in = b.temp(), r = b.temp();
    b.ult(t.x(), i, b.root_constant(0));
    b.if_nz(t.x());
    b.imul(t.y(), i, imm(12));
    b.ld_raw(in.xyz(), t.y(), b.srv_raw(0));
    op.emit(b, r.x(), in.x(), in.y(), in.z());
    b.ishl(t.z(), i, imm(2));
    b.store_raw(b.uav_raw(0), t.z(), r.x());
    b.endif();
    auto dxbc = b.build_dxbc();
    ASSERT_TRUE(dxbc.is_ok()) << dxbc.status().message();

    const std::vector<uint32_t> inputs = make_inputs(op.inputs);
    const uint32_t count = static_cast<uint32_t>(inputs.size() / 3);
    const shaders::DispatchGrid grid = shaders::plan_dispatch(count, shaders::kDefaultThreadsPerGroup);
    auto out = testing::run_kernel(*context, *dxbc, op.name,
                                   {{count, grid.threads_per_row, 0}, {testing::as_bytes(inputs)}, {count * 4ull},
                                    grid.groups_x, grid.groups_y});
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    const std::vector<uint32_t> got = testing::from_bytes<uint32_t>((*out)[0]);
    int failures = 0;
    for (uint32_t k = 0; k < count && failures < 10; ++k) {
        const uint32_t a = inputs[3 * k], bb = inputs[3 * k + 1], c = inputs[3 * k + 2];
        const uint32_t expected = op.reference(a, bb, c);
        auto matches = [&](uint32_t want) {
            return op.compare == Compare::kFloat ? same_float(got[k], want, op.max_ulp) : got[k] == want;
        };
        const bool ok = matches(expected) || (op.alternative && matches(op.alternative(a, bb, c)));
        if (!ok) {
            ++failures;
            ADD_FAILURE() << op.name << "(0x" << std::hex << a << ", 0x" << bb << ", 0x" << c << ") = 0x" << got[k]
                          << ", expected 0x" << expected << std::dec << "  [as floats: " << f(a) << ", " << f(bb)
                          << ", " << f(c) << " -> " << f(got[k]) << " vs " << f(expected) << "]";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Allowed, OpcodeNumeric, ::testing::Range<size_t>(0, op_cases().size()),
                         [](const auto& info) { return std::string(op_cases()[info.param].name); });

}  // namespace
}  // namespace dmltool::gpu
