// The 64-bit forms of the element-wise bodies (KernelBody::emit_wide; kernel_bodies.h): INT64 and UINT64 values as
// (lo, hi) pairs of 32-bit registers, with the reference's integer semantics (functions.cpp): two's-complement
// wrap-around, truncating division, a zero divisor giving 0, shift counts of 64 or more giving 0.
//
// vkd3d 1.2 runs neither uaddc/usubb nor the high half of imul/umul (shaders/opcodes.cpp), so carries are unsigned
// compares (a sum below an addend carried), and the high word of a 32 x 32-bit product is schoolbook in 16-bit limbs
// (every partial product below 2^32). Masks are ~0 / 0 per lane, as the comparison instructions leave them.
#include <string>
#include <utility>

#include "ops/element_wise/kernel_body_rows.h"

namespace dmltool::ops::element_wise::body_rows {
namespace {

using shaders::imm;
using shaders::Operand;
using Ins = std::span<const Wide>;

void copy(BodyContext& c, Wide out, Wide a) {
    c.b.mov(out.lo, a.lo);
    c.b.mov(out.hi, a.hi);
}

// out = mask ? a : b, per lane.
void select(BodyContext& c, Wide out, Operand mask, Wide a, Wide b) {
    c.b.movc(out.lo, mask, a.lo, b.lo);
    c.b.movc(out.hi, mask, a.hi, b.hi);
}

// A Wide value of a 32-bit result (0/1, a count) or a constant.
void set_low(BodyContext& c, Wide out, Operand low) {
    c.b.mov(out.lo, low);
    c.b.mov(out.hi, imm(0));
}

Wide add(BodyContext& c, Wide a, Wide b) {
    Wide r = c.wide_temp();
    Operand carry = c.temp();
    c.b.iadd(r.lo, a.lo, b.lo);
    c.b.ult(carry, r.lo, a.lo);  // the low words wrapped
    c.b.iadd(r.hi, a.hi, b.hi);
    c.b.isub(r.hi, r.hi, carry);  // - ~0 = + 1
    return r;
}

Wide subtract(BodyContext& c, Wide a, Wide b) {
    Wide r = c.wide_temp();
    Operand borrow = c.temp();
    c.b.ult(borrow, a.lo, b.lo);
    c.b.isub(r.lo, a.lo, b.lo);
    c.b.isub(r.hi, a.hi, b.hi);
    c.b.iadd(r.hi, r.hi, borrow);  // + ~0 = - 1
    return r;
}

// -a = ~a + 1: the low word negated, the high word complemented, plus 1 where the low word is 0.
Wide negate(BodyContext& c, Wide a) {
    Wide r = c.wide_temp();
    Operand zero = c.temp();
    c.b.ineg(r.lo, a.lo);
    c.b.ieq(zero, a.lo, imm(0));
    c.b.not_(r.hi, a.hi);
    c.b.isub(r.hi, r.hi, zero);
    return r;
}

Operand negative(BodyContext& c, Wide a) {
    Operand mask = c.temp();
    c.b.ilt(mask, a.hi, imm(0));
    return mask;
}

Operand nonzero(BodyContext& c, Wide a) {
    Operand mask = c.temp();
    c.b.or_(mask, a.lo, a.hi);
    c.b.ine(mask, mask, imm(0));
    return mask;
}

Operand equal(BodyContext& c, Wide a, Wide b) {
    Operand mask = c.temp(), t = c.temp();
    c.b.ieq(mask, a.lo, b.lo);
    c.b.ieq(t, a.hi, b.hi);
    c.b.and_(mask, mask, t);
    return mask;
}

// a < b: the high words decide (signed or unsigned), equal high words the low ones (unsigned).
Operand less(BodyContext& c, Wide a, Wide b, bool is_signed) {
    Operand mask = c.temp(), same = c.temp(), low = c.temp();
    is_signed ? c.b.ilt(mask, a.hi, b.hi) : c.b.ult(mask, a.hi, b.hi);
    c.b.ieq(same, a.hi, b.hi);
    c.b.ult(low, a.lo, b.lo);
    c.b.and_(same, same, low);
    c.b.or_(mask, mask, same);
    return mask;
}

// The high 32 bits of the unsigned product x y: x = x1 2^16 + x0, y likewise; the middle column's carries.
void multiply_high(BodyContext& c, Operand high, Operand x, Operand y) {
    auto& b = c.b;
    Operand x0 = c.temp(), x1 = c.temp(), y0 = c.temp(), y1 = c.temp();
    Operand p00 = c.temp(), p01 = c.temp(), p10 = c.temp(), p11 = c.temp(), mid = c.temp(), t = c.temp();
    b.and_(x0, x, imm(0xffff));
    b.ushr(x1, x, imm(16));
    b.and_(y0, y, imm(0xffff));
    b.ushr(y1, y, imm(16));
    b.imul(p00, x0, y0);
    b.imul(p01, x0, y1);
    b.imul(p10, x1, y0);
    b.imul(p11, x1, y1);
    b.ushr(mid, p00, imm(16));
    b.and_(t, p01, imm(0xffff));
    b.iadd(mid, mid, t);
    b.and_(t, p10, imm(0xffff));
    b.iadd(mid, mid, t);  // < 3 2^16
    b.ushr(mid, mid, imm(16));
    b.ushr(t, p01, imm(16));
    b.iadd(high, p11, t);
    b.ushr(t, p10, imm(16));
    b.iadd(high, high, t);
    b.iadd(high, high, mid);
}

// The low 64 bits of a b (the same for signed and unsigned operands).
Wide multiply(BodyContext& c, Wide a, Wide b) {
    Wide r = c.wide_temp();
    c.b.imul(r.lo, a.lo, b.lo);
    multiply_high(c, r.hi, a.lo, b.lo);
    c.b.imad(r.hi, a.lo, b.hi, r.hi);
    c.b.imad(r.hi, a.hi, b.lo, r.hi);
    return r;
}

// A logical shift by `count` (64-bit): counts of 64 or more give 0 (the reference). SM 5.0 shifts by the count
// modulo 32, so the bits crossing between the words move in two steps (x >> 1 >> (31 - s): s = 0 moves none).
Wide shift(BodyContext& c, Wide a, Wide count, bool left) {
    auto& b = c.b;
    Wide r = c.wide_temp();
    Operand s = c.temp(), rest = c.temp(), upper = c.temp(), big = c.temp(), t = c.temp(), kept = c.temp(), crossed = c.temp();
    b.and_(s, count.lo, imm(31));
    b.isub(rest, imm(31), s);
    b.and_(upper, count.lo, imm(32));  // 32 to 63: one word moves into the other
    b.ult(big, imm(63), count.lo);
    b.ine(t, count.hi, imm(0));
    b.or_(big, big, t);
    // A right shift is the mirror image of a left one: the words swap roles and the two shifts swap.
    using Shift = void (shaders::ProgramBuilder::*)(Operand, Operand, Operand);
    const Shift forward = left ? &shaders::ProgramBuilder::ishl : &shaders::ProgramBuilder::ushr;
    const Shift backward = left ? &shaders::ProgramBuilder::ushr : &shaders::ProgramBuilder::ishl;
    const Operand from = left ? a.lo : a.hi, into = left ? a.hi : a.lo;  // bits move from `from` into `into`
    Operand& from_result = left ? r.lo : r.hi;
    Operand& into_result = left ? r.hi : r.lo;
    (b.*forward)(kept, from, s);  // the word bits leave, shifted
    (b.*forward)(crossed, into, s);
    (b.*backward)(t, from, imm(1));
    (b.*backward)(t, t, rest);
    b.or_(crossed, crossed, t);  // the word bits enter, shifted, with the bits that cross over
    b.movc(into_result, upper, kept, crossed);
    b.movc(from_result, upper, imm(0), kept);
    b.movc(r.lo, big, imm(0), r.lo);
    b.movc(r.hi, big, imm(0), r.hi);
    return r;
}

// Unsigned long division, one quotient bit a step (64 steps in a loop, every lane alike): the dividend shifts out
// of n's top into the remainder r while the quotient bits shift into n's bottom. After k steps r is at most the
// dividend's top k bits, so r shifted never needs a 65th bit.
void divide_unsigned(BodyContext& c, Wide quotient, Wide remainder, Wide dividend, Wide divisor) {
    auto& b = c.b;
    Wide n = c.wide_temp(), r = c.wide_temp();
    Operand t = c.temp(), steps = b.temp().x();
    copy(c, n, dividend);
    b.mov(r.lo, imm(0));
    b.mov(r.hi, imm(0));
    b.mov(steps, imm(64));
    b.loop();
    {
        for (auto [word, below] : {std::pair{r.hi, r.lo}, std::pair{r.lo, n.hi}, std::pair{n.hi, n.lo}}) {
            b.ishl(word, word, imm(1));
            b.ushr(t, below, imm(31));
            b.or_(word, word, t);
        }
        b.ishl(n.lo, n.lo, imm(1));
        Operand fits = less(c, r, divisor, false);
        b.not_(fits, fits);  // r >= d
        select(c, r, fits, subtract(c, r, divisor), r);
        b.and_(t, fits, imm(1));
        b.or_(n.lo, n.lo, t);
        b.iadd(steps, steps, imm(uint32_t(-1)));
        b.breakc_z(steps);
    }
    b.endloop();
    if (!quotient.lo.is_null()) copy(c, quotient, n);
    if (!remainder.lo.is_null()) copy(c, remainder, r);
}

enum class Division { kQuotient, kTruncatedRemainder, kFlooredRemainder };

// DIVIDE and MODULUS_*: |a| / |b| unsigned, the quotient negated where the signs differ, the remainder with a's
// sign (truncate) or, nonzero with signs differing, plus b (floor); a zero divisor gives 0.
void division(BodyContext& c, Wide out, Wide a, Wide b, Division kind) {
    Wide q = c.wide_temp(), r = c.wide_temp(), result = c.wide_temp();
    if (!signed_integer(c.output_type())) {
        divide_unsigned(c, q, r, a, b);
        copy(c, result, kind == Division::kQuotient ? q : r);
    } else {
        Operand a_negative = negative(c, a), b_negative = negative(c, b), differ = c.temp();
        Wide ua = c.wide_temp(), ub = c.wide_temp();
        select(c, ua, a_negative, negate(c, a), a);  // INT64_MIN stays 2^63 as an unsigned value
        select(c, ub, b_negative, negate(c, b), b);
        divide_unsigned(c, q, r, ua, ub);
        c.b.xor_(differ, a_negative, b_negative);
        if (kind == Division::kQuotient) {
            select(c, result, differ, negate(c, q), q);
        } else {
            select(c, result, a_negative, negate(c, r), r);
            if (kind == Division::kFlooredRemainder) {
                Operand adjust = nonzero(c, r);
                c.b.and_(adjust, adjust, differ);
                select(c, result, adjust, add(c, result, b), result);
            }
        }
    }
    const Operand divisor_nonzero = nonzero(c, b);
    c.b.movc(out.lo, divisor_nonzero, result.lo, imm(0));
    c.b.movc(out.hi, divisor_nonzero, result.hi, imm(0));
}

}  // namespace

void add_int64_forms(RowMap& rows) {
    auto form = [&rows](std::string_view id, WideEmitter emit) {
        auto it = rows.find(id);
        if (it == rows.end()) return;  // a misspelt id: that operator's runs in kernel_int64_gpu_test fail
        it->second.emit_wide = std::move(emit);
    };
    form("identity", [](BodyContext& c, Ins in, Wide out) { copy(c, out, in[0]); });
    form("abs", [](BodyContext& c, Ins in, Wide out) {
        if (!signed_integer(c.output_type())) return copy(c, out, in[0]);
        select(c, out, negative(c, in[0]), negate(c, in[0]), in[0]);  // INT64_MIN wraps to itself
    });
    form("negate", [](BodyContext& c, Ins in, Wide out) { copy(c, out, negate(c, in[0])); });
    // -1, 0 or 1 (an unsigned value: 0 or 1).
    form("sign", [](BodyContext& c, Ins in, Wide out) {
        Operand positive = nonzero(c, in[0]);
        if (!signed_integer(c.output_type())) {
            c.b.and_(positive, positive, imm(1));
            return set_low(c, out, positive);
        }
        Operand below = negative(c, in[0]), t = c.temp();
        c.b.not_(t, below);
        c.b.and_(positive, positive, t);
        c.b.isub(out.lo, below, positive);  // -1 - 0, 0 - -1
        c.b.ishr(out.hi, out.lo, imm(31));
    });
    form("add", [](BodyContext& c, Ins in, Wide out) { copy(c, out, add(c, in[0], in[1])); });
    form("subtract", [](BodyContext& c, Ins in, Wide out) { copy(c, out, subtract(c, in[0], in[1])); });
    form("multiply", [](BodyContext& c, Ins in, Wide out) { copy(c, out, multiply(c, in[0], in[1])); });
    form("divide", [](BodyContext& c, Ins in, Wide out) { division(c, out, in[0], in[1], Division::kQuotient); });
    form("modulus_truncate", [](BodyContext& c, Ins in, Wide out) {
        division(c, out, in[0], in[1], Division::kTruncatedRemainder);
    });
    form("modulus_floor", [](BodyContext& c, Ins in, Wide out) {
        division(c, out, in[0], in[1], Division::kFlooredRemainder);
    });
    auto extremum = [](bool maximum) {
        return [maximum](BodyContext& c, Ins in, Wide out) {
            const Operand a_less = less(c, in[0], in[1], signed_integer(c.output_type()));
            maximum ? select(c, out, a_less, in[1], in[0]) : select(c, out, a_less, in[0], in[1]);
        };
    };
    form("max", extremum(true));
    form("min", extremum(false));
    // params: Min, Max as 64-bit values: max(Min, min(x, Max)), the documented order.
    form("clip", [](BodyContext& c, Ins in, Wide out) {
        const bool is_signed = signed_integer(c.output_type());
        const Wide low = c.wide_parameter(0), high = c.wide_parameter(1);
        Wide v = c.wide_temp();
        select(c, v, less(c, high, in[0], is_signed), high, in[0]);
        select(c, out, less(c, v, low, is_signed), low, v);
    });
    // Comparisons: signed or unsigned by the inputs' type (the reference's unsigned_inputs); 0 or 1.
    auto comparison = [](bool swap, bool equality, bool invert) {
        return [=](BodyContext& c, Ins in, Wide out) {
            const Wide a = swap ? in[1] : in[0], b = swap ? in[0] : in[1];
            Operand mask = equality ? equal(c, a, b) : less(c, a, b, signed_integer(c.input_type(0)));
            if (invert) c.b.not_(mask, mask);
            c.b.and_(mask, mask, imm(1));
            set_low(c, out, mask);
        };
    };
    form("logical_equals", comparison(false, true, false));
    form("logical_less_than", comparison(false, false, false));
    form("logical_greater_than", comparison(true, false, false));              // b < a
    form("logical_less_than_or_equal", comparison(true, false, true));         // !(b < a)
    form("logical_greater_than_or_equal", comparison(false, false, true));     // !(a < b)
    auto bitwise = [](void (shaders::ProgramBuilder::*op)(Operand, Operand, Operand)) {
        return [op](BodyContext& c, Ins in, Wide out) {
            (c.b.*op)(out.lo, in[0].lo, in[1].lo);
            (c.b.*op)(out.hi, in[0].hi, in[1].hi);
        };
    };
    form("bit_and", bitwise(&shaders::ProgramBuilder::and_));
    form("bit_or", bitwise(&shaders::ProgramBuilder::or_));
    form("bit_xor", bitwise(&shaders::ProgramBuilder::xor_));
    form("bit_not", [](BodyContext& c, Ins in, Wide out) {
        c.b.not_(out.lo, in[0].lo);
        c.b.not_(out.hi, in[0].hi);
    });
    form("bit_count", [](BodyContext& c, Ins in, Wide out) {
        Operand count = c.temp(), t = c.temp();
        c.b.countbits(count, in[0].lo);
        c.b.countbits(t, in[0].hi);
        c.b.iadd(count, count, t);
        set_low(c, out, count);
    });
    form("bit_shift_left", [](BodyContext& c, Ins in, Wide out) { copy(c, out, shift(c, in[0], in[1], true)); });
    form("bit_shift_right", [](BodyContext& c, Ins in, Wide out) { copy(c, out, shift(c, in[0], in[1], false)); });
    // Condition (any integer type, extended), A, B.
    form("if", [](BodyContext& c, Ins in, Wide out) { select(c, out, nonzero(c, in[0]), in[1], in[2]); });
    for (const char* id : {"identity", "if", "bit_and", "bit_or", "bit_xor", "bit_not", "bit_count"})
        rows.find(id)->second.wide_bits = true;
}

}  // namespace dmltool::ops::element_wise::body_rows
