// The element-wise bodies (kernel_bodies.h). Integer bodies compute in 32-bit two's complement on the
// sign- or zero-extended values and the emitter keeps the low bits of the result (wrap-around, as C's unsigned
// arithmetic); float bodies compute in float32. Attribute words are described at each body ("params: ...").
#include "ops/element_wise/kernel_bodies.h"

#include <cmath>
#include <map>
#include <string>

#include "ops/element_wise/kernel_body_rows.h"
#include "shaders/elements.h"

namespace dmltool::ops::element_wise {

using shaders::imm;
using shaders::imm_f;
using shaders::Operand;

Operand BodyContext::temp() const { return lanes_of(b.temp()); }

Operand BodyContext::lanes_of(Operand operand) const { return lanes_ == 4 ? operand.xyzw() : operand.x(); }

Operand BodyContext::parameter(uint32_t i) const {
    if (i >= parameters_.size()) {
        b.fail("element-wise body reads attribute word " + std::to_string(i) + " of " + std::to_string(parameters_.size()));
        return imm(0);
    }
    return parameters_[i];
}

namespace body_rows {

std::string type_list(Types inputs, DataType output) {
    std::string text;
    for (DataType type : inputs) text += std::string(data_type_name(type)) + ", ";
    return text + "-> " + std::string(data_type_name(output));
}

// The body's id is prefixed by bodies().
Status refuse(Types inputs, DataType output, std::string_view rule) {
    return invalid_input("cannot compute " + type_list(inputs, output) + " (" + std::string(rule) + ")");
}

// Acceptance rules.
std::function<Status(Types, DataType)> same_type(bool floats, bool integers) {
    return [floats, integers](Types inputs, DataType output) -> Status {
        for (DataType type : inputs)
            if (type != output) return refuse(inputs, output, "all tensors of one type");
        if (is_float(output) ? !floats : !integers)
            return refuse(inputs, output, floats ? "float types only" : "integer types only");
        return Status::ok();
    };
}
std::function<Status(Types, DataType)> float_same_type() { return same_type(true, false); }
std::function<Status(Types, DataType)> any_same_type() { return same_type(true, true); }
std::function<Status(Types, DataType)> integer_same_type() { return same_type(false, true); }
std::function<Status(Types, DataType)> bits_same_type() {
    return [](Types inputs, DataType output) -> Status {
        if (output == DataType::kFloat64) return same_type(true, false)(inputs, output);
        return same_type(false, true)(inputs, output);
    };
}
// Inputs of one type, any integer output (0 or 1): comparisons and logical functions.
Status predicate_types(Types inputs, DataType output) {
    for (DataType type : inputs)
        if (type != inputs[0]) return refuse(inputs, output, "inputs of one type");
    if (!is_integer(output)) return refuse(inputs, output, "an integer output");
    return Status::ok();
}

bool signed_integer(DataType type) { return is_signed_integer(type); }

// out = |magnitude| with the sign bit of sign_of.
void copy_sign_body(BodyContext& c, Operand out, Operand magnitude, Operand sign_of) {
    Operand s = c.temp(), m = c.temp();
    c.b.and_(s, sign_of, imm(0x80000000));
    c.b.and_(m, magnitude, imm(0x7fffffff));
    c.b.or_(out, m, s);
}

// 1 where mask is ~0, else 0.
void mask_to_one(BodyContext& c, Operand out, Operand mask) { c.b.and_(out, mask, imm(1)); }

// x * y rounded on its own (a following add must not fuse with it).
void product(BodyContext& c, Operand out, Operand x, Operand y) { shaders::unfused_mul(c.b, out, x, y, c.runtime_zero()); }

// Binary arithmetic with a float and an integer instruction.
Row arithmetic(void (shaders::ProgramBuilder::*float_op)(Operand, Operand, Operand),
               void (shaders::ProgramBuilder::*int_op)(Operand, Operand, Operand)) {
    return {2, 2, any_same_type(), [=](BodyContext& c, std::span<const Operand> in, Operand out) {
                (c.b.*(is_float(c.output_type()) ? float_op : int_op))(out, in[0], in[1]);
            }};
}

// min/max: float, signed and unsigned instructions.
Row extremum(bool maximum) {
    return {2, 2, any_same_type(), [=](BodyContext& c, std::span<const Operand> in, Operand out) {
                const DataType t = c.output_type();
                if (is_float(t)) return maximum ? c.b.max(out, in[0], in[1]) : c.b.min(out, in[0], in[1]);
                if (signed_integer(t)) return maximum ? c.b.imax(out, in[0], in[1]) : c.b.imin(out, in[0], in[1]);
                return maximum ? c.b.umax(out, in[0], in[1]) : c.b.umin(out, in[0], in[1]);
            }};
}

enum class Compare { kEqual, kLess, kGreater, kLessEqual, kGreaterEqual };
Row comparison(Compare op) {
    return {2, 2, predicate_types, [=](BodyContext& c, std::span<const Operand> in, Operand out) {
                const DataType t = c.input_type(0);
                Operand a = in[0], b = in[1];
                if (op == Compare::kGreater || op == Compare::kLessEqual) std::swap(a, b);  // a > b == b < a
                const bool less = op == Compare::kLess || op == Compare::kGreater;
                Operand mask = c.temp();
                if (op == Compare::kEqual) {
                    is_float(t) ? c.b.eq(mask, a, b) : c.b.ieq(mask, a, b);
                } else if (is_float(t)) {
                    less ? c.b.lt(mask, a, b) : c.b.ge(mask, a, b);
                } else if (signed_integer(t)) {
                    less ? c.b.ilt(mask, a, b) : c.b.ige(mask, a, b);
                } else {
                    less ? c.b.ult(mask, a, b) : c.b.uge(mask, a, b);
                }
                mask_to_one(c, out, mask);
            }};
}

// Truthiness of a value of `type` as a mask (~0 where nonzero; float -0 is false).
void truth(BodyContext& c, Operand mask, Operand value, DataType type) {
    if (is_float(type)) return c.b.ne(mask, value, imm_f(0.0f));
    c.b.ine(mask, value, imm(0));
}

enum class Logic { kAnd, kOr, kXor };
Row logical(Logic op) {
    return {2, 2, predicate_types, [=](BodyContext& c, std::span<const Operand> in, Operand out) {
                Operand a = c.temp(), b = c.temp();
                truth(c, a, in[0], c.input_type(0));
                truth(c, b, in[1], c.input_type(1));
                if (op == Logic::kAnd) c.b.and_(a, a, b);
                if (op == Logic::kOr) c.b.or_(a, a, b);
                if (op == Logic::kXor) c.b.xor_(a, a, b);
                mask_to_one(c, out, a);
            }};
}

// A unary float function of the math building blocks.
Row float_unary(std::function<void(BodyContext&, Operand, Operand)> f) {
    return {1, 1, float_same_type(), [f](BodyContext& c, std::span<const Operand> in, Operand out) { f(c, out, in[0]); }};
}

// x >= 0 ? x : negative(x) for float activations.
Row float_piecewise(std::function<void(BodyContext&, Operand, Operand)> negative, bool strict) {
    return float_unary([=](BodyContext& c, Operand out, Operand x) {
        Operand n = c.temp(), positive = c.temp();
        negative(c, n, x);
        strict ? c.b.lt(positive, imm_f(0.0f), x) : c.b.ge(positive, x, imm_f(0.0f));
        c.b.movc(out, positive, x, n);
    });
}

// The quantization of a float32 value v to an integer type: clamp(round_half_even(v) + zero_point) where v and the
// zero point (an integer value) are float32; the clamp happens in float (every integer of 8/16-bit types is
// exact), the conversion last.
void quantize(BodyContext& c, Operand out, Operand v, Operand zero_point, bool has_zero_point) {
    const DataType t = c.output_type();
    Operand q = c.temp();
    c.b.round_ne(q, v);
    if (has_zero_point) {
        Operand z = c.temp();
        signed_integer(t) ? c.b.itof(z, zero_point) : c.b.utof(z, zero_point);
        c.b.add(q, q, z);
    }
    const double lo = double(integer_min(t)), hi = double(integer_max(t));
    c.b.max(q, q, imm_f(float(lo)));
    c.b.min(q, q, imm_f(float(hi)));
    signed_integer(t) ? c.b.ftoi(out, q) : c.b.ftou(out, q);
}

// An integer value (sign-aware) to float32.
void to_float(BodyContext& c, Operand out, Operand value, DataType type) {
    signed_integer(type) ? c.b.itof(out, value) : c.b.utof(out, value);
}

}  // namespace body_rows

namespace {

using namespace body_rows;

RowMap make_rows() {
    RowMap rows;
    add_math_rows(rows);
    // ---- unary, any type
    rows["identity"] = {1, 1, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) { c.b.mov(out, in[0]); }};
    rows["abs"] = {1, 1, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                       const DataType t = c.output_type();
                       if (is_float(t)) return c.b.mov(out, in[0].abs());
                       if (signed_integer(t)) return c.b.imax(out, in[0], -in[0]);
                       c.b.mov(out, in[0]);
                   }};
    rows["negate"] = {1, 1, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                          if (is_float(c.output_type())) return c.b.mul(out, in[0], imm_f(-1.0f));
                          c.b.ineg(out, in[0]);
                      }};
    // params: Min, Max (in the tensor's domain). Integers: the documented max(Min, min(x, Max)) (Min where Min > Max);
    // floats clamp in the other order (NaN gives Min: clip_others accepts it).
    rows["clip"] = {1, 1, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                        const DataType t = c.output_type();
                        Operand v = c.temp();
                        if (is_float(t)) {
                            c.b.max(v, in[0], c.parameter(0));
                            return c.b.min(out, v, c.parameter(1));
                        }
                        if (signed_integer(t)) {
                            c.b.imin(v, in[0], c.parameter(1));
                            return c.b.imax(out, v, c.parameter(0));
                        }
                        c.b.umin(v, in[0], c.parameter(1));
                        c.b.umax(out, v, c.parameter(0));
                    }};
    // params: Min.
    rows["threshold"] = float_unary([](BodyContext& c, Operand out, Operand x) { c.b.max(out, x, c.parameter(0)); });
    rows["relu"] = {1, 1, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                        const DataType t = c.output_type();
                        if (is_float(t)) return c.b.max(out, in[0], imm_f(0.0f));
                        if (signed_integer(t)) return c.b.imax(out, in[0], imm(0));
                        c.b.mov(out, in[0]);
                    }};
    // ---- unary, float
    rows["ceil"] = float_unary([](BodyContext& c, Operand out, Operand x) { c.b.round_pi(out, x); });
    rows["floor"] = float_unary([](BodyContext& c, Operand out, Operand x) { c.b.round_ni(out, x); });
    // params: DML_ROUNDING_MODE (0 halves to nearest even, 1 toward zero, 2 halves away from zero).
    rows["round"] = float_unary([](BodyContext& c, Operand out, Operand x) {
        Operand even = c.temp(), trunc = c.temp(), away = c.temp(), f = c.temp(), mode = c.temp();
        c.b.round_ne(even, x);
        c.b.round_z(trunc, x);
        c.b.sub(f, x, trunc);  // exact: the fraction of x, with x's sign
        c.b.ge(f, f.abs(), imm_f(0.5f));
        c.b.and_(away, x, imm(0x80000000));
        c.b.or_(away, away, imm_f(1.0f));  // +-1 with x's sign
        c.b.add(away, trunc, away);
        c.b.movc(away, f, away, trunc);
        c.b.ieq(mode, c.parameter(0), imm(1));
        c.b.movc(even, mode, trunc, even);
        c.b.ieq(mode, c.parameter(0), imm(2));
        c.b.movc(out, mode, away, even);
    });
    rows["sign"] = {1, 1, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                        const DataType t = c.output_type();
                        Operand positive = c.temp(), negative = c.temp();
                        if (is_float(t)) {
                            c.b.lt(positive, imm_f(0.0f), in[0]);
                            c.b.lt(negative, in[0], imm_f(0.0f));
                            c.b.and_(positive, positive, imm_f(1.0f));
                            c.b.and_(negative, negative, imm_f(1.0f));
                            // NaN compares false both ways: 0, the formula's otherwise branch (the docs).
                            return c.b.sub(out, positive, negative);
                        }
                        if (signed_integer(t)) {
                            c.b.ilt(positive, imm(0), in[0]);
                            c.b.ilt(negative, in[0], imm(0));
                        } else {
                            c.b.ult(positive, imm(0), in[0]);
                            c.b.mov(negative, imm(0));
                        }
                        c.b.isub(out, negative, positive);  // masks are 0 or -1: -1 - 0 and 0 - -1
                    }};
    rows["recip"] = float_unary([](BodyContext& c, Operand out, Operand x) { c.b.div(out, imm_f(1.0f), x); });
    rows["sqrt"] = float_unary([](BodyContext& c, Operand out, Operand x) { c.b.sqrt(out, x); });
    rows["is_nan"] = {1, 1, [](Types in, DataType out) { return is_float(in[0]) && is_integer(out) ? Status::ok() : refuse(in, out, "float input, integer output"); },
                      [](BodyContext& c, std::span<const Operand> in, Operand out) {
                          Operand mask = c.temp();
                          math::is_nan(c, mask, in[0]);
                          mask_to_one(c, out, mask);
                      }};
    // params: DML_IS_INFINITY_MODE (0 either, 1 positive, 2 negative).
    rows["is_infinity"] = {1, 1, [](Types in, DataType out) { return is_float(in[0]) && is_integer(out) ? Status::ok() : refuse(in, out, "float input, integer output"); },
                           [](BodyContext& c, std::span<const Operand> in, Operand out) {
                               Operand positive = c.temp(), negative = c.temp(), mode = c.temp();
                               c.b.ieq(positive, in[0], imm(0x7f800000));
                               c.b.ieq(negative, in[0], imm(0xff800000));
                               c.b.ieq(mode, c.parameter(0), imm(1));
                               c.b.movc(negative, mode, imm(0), negative);
                               c.b.ieq(mode, c.parameter(0), imm(2));
                               c.b.movc(positive, mode, imm(0), positive);
                               c.b.or_(positive, positive, negative);
                               mask_to_one(c, out, positive);
                           }};
    // ---- binary
    rows["add"] = arithmetic(&shaders::ProgramBuilder::add, &shaders::ProgramBuilder::iadd);
    rows["subtract"] = arithmetic(&shaders::ProgramBuilder::sub, &shaders::ProgramBuilder::isub);
    rows["multiply"] = arithmetic(&shaders::ProgramBuilder::mul, &shaders::ProgramBuilder::imul);
    // Integers truncate (|a| / |b| unsigned, negated where the signs differ: INT32_MIN / -1 wraps to INT32_MIN);
    // a zero divisor gives 0, as the reference (the docs leave it undefined).
    rows["divide"] = {2, 2, any_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                          if (is_float(c.output_type())) return c.b.div(out, in[0], in[1]);
                          Operand q = c.temp(), t = c.temp();
                          if (signed_integer(c.output_type())) {
                              Operand a = c.temp(), b = c.temp();
                              c.b.imax(a, in[0], -in[0]);
                              c.b.imax(b, in[1], -in[1]);
                              c.b.udiv(q, shaders::null_operand(), a, b);
                              c.b.xor_(t, in[0], in[1]);
                              c.b.ilt(t, t, imm(0));  // signs differ
                              c.b.ineg(a, q);
                              c.b.movc(q, t, a, q);
                          } else {
                              c.b.udiv(q, shaders::null_operand(), in[0], in[1]);
                          }
                          c.b.ieq(t, in[1], imm(0));
                          c.b.movc(out, t, imm(0), q);
                      }};
    rows["min"] = extremum(false);
    rows["max"] = extremum(true);
    rows["mean"] = {2, 2, float_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                        c.b.add(out, in[0], in[1]);
                        c.b.mul(out, out, imm_f(0.5f));
                    }};
    rows["difference_square"] = {2, 2, float_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) {
                                     Operand d = c.temp();
                                     c.b.sub(d, in[0], in[1]);
                                     c.b.mul(out, d, d);
                                 }};
    rows["logical_equals"] = comparison(Compare::kEqual);
    rows["logical_less_than"] = comparison(Compare::kLess);
    rows["logical_greater_than"] = comparison(Compare::kGreater);
    rows["logical_less_than_or_equal"] = comparison(Compare::kLessEqual);
    rows["logical_greater_than_or_equal"] = comparison(Compare::kGreaterEqual);
    rows["logical_and"] = logical(Logic::kAnd);
    rows["logical_or"] = logical(Logic::kOr);
    rows["logical_xor"] = logical(Logic::kXor);
    rows["logical_not"] = {1, 1, predicate_types, [](BodyContext& c, std::span<const Operand> in, Operand out) {
                               Operand mask = c.temp();
                               truth(c, mask, in[0], c.input_type(0));
                               c.b.not_(mask, mask);
                               mask_to_one(c, out, mask);
                           }};
    rows["bit_and"] = {2, 2, bits_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) { c.b.and_(out, in[0], in[1]); }};
    rows["bit_or"] = {2, 2, bits_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) { c.b.or_(out, in[0], in[1]); }};
    rows["bit_xor"] = {2, 2, bits_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) { c.b.xor_(out, in[0], in[1]); }};
    rows["bit_not"] = {1, 1, bits_same_type(), [](BodyContext& c, std::span<const Operand> in, Operand out) { c.b.not_(out, in[0]); }};
    // The bits of the element only (a sign-extended value has more set bits than its type).
    rows["bit_count"] = {1, 1, [](Types in, DataType out) {
                             const bool ok = (is_integer(in[0]) || in[0] == DataType::kFloat64) && is_integer(out);
                             return ok ? Status::ok() : refuse(in, out, "an integer or FLOAT64 input, an integer output");
                         },
                         [](BodyContext& c, std::span<const Operand> in, Operand out) {
                             const uint32_t bits = uint32_t(element_size_in_bits(c.input_type(0)));
                             Operand v = c.temp();
                             c.b.and_(v, in[0], imm(bits == 32 ? ~0u : (1u << bits) - 1));
                             c.b.countbits(out, v);
                         }};
    // Shift counts of the type's width or more give 0 (left, and right for unsigned) or the sign (right, signed),
    // instead of SM 5.0's count modulo 32.
    auto shift = [](bool left) {
        return Row{2, 2, integer_same_type(), [left](BodyContext& c, std::span<const Operand> in, Operand out) {
                       const DataType t = c.output_type();
                       Operand count = c.temp(), wide = c.temp(), v = c.temp();
                       c.b.umin(count, in[1], imm(31));
                       c.b.ult(wide, imm(31), in[1]);
                       if (left) {
                           c.b.ishl(v, in[0], count);
                           c.b.movc(out, wide, imm(0), v);
                       } else if (signed_integer(t)) {
                           c.b.ishr(out, in[0], count);  // count 31 already gives the sign
                       } else {
                           c.b.ushr(v, in[0], count);
                           c.b.movc(out, wide, imm(0), v);
                       }
                   }};
    };
    rows["bit_shift_left"] = shift(true);
    rows["bit_shift_right"] = shift(false);
    // ---- ternary: Condition (integer), A, B.
    rows["if"] = {3, 3, [](Types in, DataType out) {
                      return is_integer(in[0]) && in[1] == out && in[2] == out ? Status::ok()
                                                                               : refuse(in, out, "integer condition, A and B of the output's type");
                  },
                  [](BodyContext& c, std::span<const Operand> in, Operand out) { c.b.movc(out, in[0], in[1], in[2]); }};
    // ---- quantization. Inputs: Input (float), Scale (float)[, ZeroPoint (the output's integer type)].
    rows["quantize_linear"] = {2, 3, [](Types in, DataType out) {
                                   const bool ok = is_float(in[0]) && is_float(in[1]) && is_integer(out) && element_size(out) <= 2 &&
                                                   (in.size() < 3 || in[2] == out || in[2] == DataType::kUnknown);
                                   return ok ? Status::ok() : refuse(in, out, "float input and scale, 8/16-bit integer output and zero point");
                               },
                               [](BodyContext& c, std::span<const Operand> in, Operand out) {
                                   Operand v = c.temp();
                                   c.b.div(v, in[0], in[1]);
                                   quantize(c, out, v, in.size() > 2 ? in[2] : imm(0), in.size() > 2);
                               }};
    // Inputs: Input (integer), Scale (float)[, ZeroPoint (the input's type)]: (Input - ZeroPoint) * Scale.
    rows["dequantize_linear"] = {2, 3, [](Types in, DataType out) {
                                     const bool ok = is_integer(in[0]) && is_float(in[1]) && is_float(out) &&
                                                     (in.size() < 3 || in[2] == in[0] || in[2] == DataType::kUnknown);
                                     return ok ? Status::ok() : refuse(in, out, "integer input and zero point, float scale and output");
                                 },
                                 [](BodyContext& c, std::span<const Operand> in, Operand out) {
                                     // The difference of two 8/16-bit values is a signed 32-bit value; that of two
                                     // 32-bit values may not fit 32 bits (UINT32 1 - 4294967295 wrapped to +2 and
                                     // gave +inf for -inf: random case seed 20261130 #11), so those convert to
                                     // float32 first, with their own signedness, and subtract there (the bound's
                                     // three roundings). A 32-bit input without a zero point keeps its signedness.
                                     Operand v = c.temp();
                                     const DataType t = c.input_type(0);
                                     if (in.size() > 2 && element_size_in_bits(t) < 32) {
                                         c.b.isub(v, in[0], in[2]);
                                         c.b.itof(v, v);
                                     } else if (in.size() > 2) {
                                         Operand z = c.temp();
                                         to_float(c, v, in[0], t);
                                         to_float(c, z, in[2], t);
                                         c.b.sub(v, v, z);
                                     } else {
                                         to_float(c, v, in[0], c.input_type(0));
                                     }
                                     c.b.mul(out, v, in[1]);
                                 }};
    // Inputs: A, AScale, AZeroPoint, B, BScale, BZeroPoint, OutputScale, OutputZeroPoint (absent zero points read
    // as 0): quantize((A - Az) As + (B - Bz) Bs, OutputScale, OutputZeroPoint).
    rows["quantized_linear_add"] = {8, 8, [](Types in, DataType out) {
                                        const bool ok = is_integer(in[0]) && element_size(in[0]) <= 2 && (in[2] == in[0] || in[2] == DataType::kUnknown) &&
                                                        is_integer(in[3]) && element_size(in[3]) <= 2 &&
                                                        (in[5] == in[3] || in[5] == DataType::kUnknown) &&
                                                        is_float(in[1]) && is_float(in[4]) && is_float(in[6]) &&
                                                        (in[7] == out || in[7] == DataType::kUnknown) &&
                                                        is_integer(out) && element_size(out) <= 2;
                                        return ok ? Status::ok() : refuse(in, out, "integer A, B, output with zero points of their types, float scales");
                                    },
                                    [](BodyContext& c, std::span<const Operand> in, Operand out) {
                                        Operand a = c.temp(), b = c.temp();
                                        c.b.isub(a, in[0], in[2]);  // signed differences of 8/16-bit values
                                        c.b.itof(a, a);
                                        c.b.mul(a, a, in[1]);
                                        c.b.isub(b, in[3], in[5]);
                                        c.b.itof(b, b);
                                        c.b.mul(b, b, in[4]);
                                        c.b.add(a, a, b);
                                        c.b.div(a, a, in[6]);
                                        quantize(c, out, a, in[7], true);
                                    }};
    add_int64_forms(rows);
    return rows;
}

const std::map<std::string, KernelBody, std::less<>>& bodies() {
    static const std::map<std::string, KernelBody, std::less<>> table = [] {
        std::map<std::string, KernelBody, std::less<>> out;
        for (auto& [id, row] : make_rows()) {
            auto accepts = [id = std::string(id), rule = row.accepts](Types inputs, DataType output) -> Status {
                Status status = rule(inputs, output);
                if (status.is_ok()) return status;
                return {status.code(), "element-wise body '" + id + "' " + status.message()};
            };
            KernelBody body{"", row.min_inputs, row.max_inputs, accepts, row.emit, row.hardware_exp2, row.emit_wide,
                            row.wide_bits};
            auto [it, inserted] = out.emplace(id, std::move(body));
            it->second.id = it->first;
        }
        return out;
    }();
    return table;
}

}  // namespace

const KernelBody* find_kernel_body(std::string_view id) {
    auto it = bodies().find(id);
    return it == bodies().end() ? nullptr : &it->second;
}

std::vector<std::string_view> kernel_body_ids() {
    std::vector<std::string_view> ids;
    for (const auto& [id, body] : bodies()) ids.push_back(id);
    return ids;
}

}  // namespace dmltool::ops::element_wise
