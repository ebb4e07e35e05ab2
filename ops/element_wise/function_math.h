// What a row of the element-wise / activation tables computes (FunctionSpec::math): the reference function in double
// precision, and the error bound every implementation is held to, with its source. Used by the engine's reference
// (reference.cpp), its tolerances (op.cpp) and the bound tests; our kernels meet the same bound.
//
// The error-bound model (docs/element-wise.md): output element i passes when |got - exact| <= 1.01 * u * M + half
// an ulp of the output type (+ the underflow floor), u = 2^-24 (float32 arithmetic, which DirectML uses for FLOAT16
// too while half-precision computation is not allowed). `exact` is the function of the inputs in double; M is the
// row's error scale. ScaleBias and a fused activation widen M by propagating their float32 rounding through the
// function (reference.cpp: the spread of the function over the rounding interval of its argument).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

#include "ops/element_wise/desc.h"

namespace dmltool::ops::element_wise {

// f(x...) in double: x holds one value per kInputTensor member in member order (an absent optional input: NaN),
// after ScaleBias for the first input. `desc` gives the attributes.
using ExactFunction = double (*)(std::span<const double> x, const ElementWiseDesc& desc);

// For integer data types (bit operations, integer arithmetic): x as 64-bit integers (UINT64 as its bit pattern),
// the result in `type`'s range (the engine stores it in the output type). Null: the row computes integers with
// `exact` (exact in double for 8/16/32-bit integers) and rounds to the nearest, ties to even.
using IntegerFunction = int64_t (*)(std::span<const int64_t> x, DataType type, const ElementWiseDesc& desc);

// M of one element (in units of u = 2^-24): the rounding error a correct float32 implementation may make, from
// the arguments and the exact result. Null: the operation is correctly rounded (M = 0: half an ulp of the output).
using ErrorScaleFunction = double (*)(std::span<const double> x, double exact, const ElementWiseDesc& desc);

// Discrete right values of one element besides the band of `exact` and `alternative` (where two legitimate
// evaluation orders give answers far apart, e.g. a clamp of NaN under Direct3D's min/max in either order): writes at
// most two values to `out` and returns how many. `x` as for ExactFunction.
using OtherValuesFunction = int (*)(std::span<const double> x, const ElementWiseDesc& desc, double* out);

// A function over lanes of the tensor (ACTIVATION_SOFTMAX and friends): `lane` holds the inputs of one lane (the
// elements that differ only in the reduced axes), `out` receives its results; `scale` receives M per element.
using LaneFunction = void (*)(std::span<const double> lane, std::span<double> out, std::span<double> scale);


// Row-specific rules of a parsed desc that the facts state as text (CONSTRAINT notes): "MinMaxDataType equals
// OutputTensor's DataType", a softmax's Axes in range, ... `path` is the desc's JSON path.
using ValidateFunction = Status (*)(const ElementWiseDesc& desc, const std::string& path);

struct FunctionMath {
    ExactFunction exact = nullptr;
    IntegerFunction integer = nullptr;  // used when the output and every input are integer types
    ErrorScaleFunction error_scale = nullptr;
    // A second right value where the docs leave a choice open (IEEE 754's maxNum vs a NaN-propagating max; a
    // float32 evaluation of the formula that overflows where the exact value does not): the element accepts both.
    ExactFunction alternative = nullptr;
    // The alternative is judged as a value of its own (within its own error scale and the output's rounding), not
    // merged into one band with the exact value: where the two lie far apart (MODULUS's neighbouring quotient, y and
    // y - b) the band between them would accept nearly every value of the output's range.
    bool separate_alternative = false;
    OtherValuesFunction other_values = nullptr;  // discrete right values besides the band (not with a fused activation)
    LaneFunction lane = nullptr;  // set for the reductions over axes (softmax); `exact` is then null
    // A second right result of a whole lane (HARDMAX of a lane with NaN: another reading of "the first largest"):
    // a lane passes when it equals `lane`'s band or, as a whole, this one (exact values; scale ignored).
    LaneFunction lane_alternative = nullptr;
    // The lane function under the row's semantics deviation model (engine.h, kModel*); only that model uses it.
    LaneFunction deviation_lane = nullptr;
    ValidateFunction validate = nullptr;
    // Integer outputs computed through floats (mixed types) may also take the truncation of a right float value:
    // Direct3D's float-to-integer conversion (DXBC ftoi/ftou) rounds toward zero, and the row's docs name no rounding.
    bool integer_by_truncation = false;
    // One line: the bound and its source ("correctly rounded: IEEE 754 add, D3D11 functional spec 3.1.3").
    std::string_view bound_source;
};

}  // namespace dmltool::ops::element_wise
