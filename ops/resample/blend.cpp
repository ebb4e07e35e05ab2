// The blend arithmetic of the resample kernels (Emitter members, see emitter.h): the separable linear blend and
// the final rounding and conversion.
//
// Linear arithmetic: plain float32, separable (innermost blended dimension first), each axis a * w0 + c * w1
// (a product, then a multiply-add), with the host's float32 weights. docs/semantics.md states the
// contract: any float32 evaluation order of this kind is within the forward error bound the comparison applies
// (each corner term passes through 2 roundings per blended axis; near-cancelling neighbours are covered by the
// bound, which is relative to the sum of |terms|, not to the result). Inputs that are infinite or NaN give
// what the reference's sum gives: every corner is multiplied by its weight, a zero weight included.
//
// Outputs: FLOAT32 as is; FLOAT16 through shaders::float_to_half (round to nearest even, exact integer
// arithmetic); INT8/UINT8 clamped, rounded to a multiple of 2^-10 (exact float32 steps: a power-of-two product,
// round_ne, the inverse product) and converted by ftoi/ftou, which truncate toward zero: the reference's conversion
// (docs/semantics.md; linear_rows.cpp says why the 2^-10 step). Short weights
// (KernelConfig::short_weights, every weight a multiple of 1/16): every separable partial blend of 8-bit values is
// then a multiple of 2^-12 below 2^8 in magnitude, exact in float32, so the output is the reference's conversion
// of the exact value and no clamp is needed (a convex combination).
#include "ops/resample/emitter.h"

namespace dmltool::ops::resample {

Value Emitter::blend(const Value& a, const Value& c, const Term& term) {
    Operand r = b_.temp();
    b_.mul(r.x(), c.hi, term.tap.w());
    b_.mad(r.x(), a.hi, term.tap.z(), r.x());
    return Value{r.x()};
}

// The output element's bits from a blended value (rounded and converted as the output type needs).
Operand Emitter::finish(const Value& v, bool clamp) {
    Operand f = b_.temp();
    switch (config_.type) {
        case DataType::kFloat32: return v.hi;
        case DataType::kFloat16: shaders::float_to_half(b_, f.x(), v.hi); return f.x();
        default: break;
    }
    const bool is_signed = config_.type == DataType::kInt8;
    Operand value = v.hi;
    if (clamp) {  // not needed for an exact convex combination (short weights)
        b_.max(f.x(), value, imm_f(is_signed ? -128.0f : 0.0f));
        b_.min(f.x(), f.x(), imm_f(is_signed ? 127.0f : 255.0f));
        value = f.x();
    }
    // To the 2^-10 grid, then truncation toward zero (clamping first gives the same result: both are monotone,
    // the bounds integers).
    b_.mul(f.z(), value, imm_f(1024.0f));
    b_.round_ne(f.z(), f.z());
    b_.mul(f.z(), f.z(), imm_f(1.0f / 1024.0f));
    if (is_signed) b_.ftoi(f.y(), f.z());
    else b_.ftou(f.y(), f.z());
    return f.y();
}

}  // namespace dmltool::ops::resample
