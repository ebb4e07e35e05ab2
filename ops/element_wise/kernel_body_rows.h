// Internal to the element-wise bodies (kernel_bodies.cpp, kernel_bodies_math.cpp): the table row of a body before it
// becomes a KernelBody, and the acceptance rules and helpers the rows share.
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "ops/element_wise/kernel_bodies.h"

namespace dmltool::ops::element_wise::body_rows {

using Types = std::span<const DataType>;

struct Row {
    uint32_t min_inputs, max_inputs;
    std::function<Status(Types, DataType)> accepts;
    BodyEmitter emit;
    bool hardware_exp2 = false;  // KernelBody::hardware_exp2
    WideEmitter emit_wide = {};  // KernelBody::emit_wide: the 64-bit form (kernel_bodies_int64.cpp), or null
    bool wide_bits = false;      // KernelBody::wide_bits
};
using RowMap = std::map<std::string, Row, std::less<>>;

// The rows of kernel_bodies_math.cpp.
void add_math_rows(RowMap& rows);
// The 64-bit forms (kernel_bodies_int64.cpp) of rows already in `rows`.
void add_int64_forms(RowMap& rows);

// kInvalidInput "cannot compute <types> (<rule>)"; the body's id is prefixed where the rows become bodies.
Status refuse(Types inputs, DataType output, std::string_view rule);
// Every tensor of the output's type, and that type a float (floats) or an integer (integers) type.
std::function<Status(Types, DataType)> same_type(bool floats, bool integers);
std::function<Status(Types, DataType)> float_same_type();
std::function<Status(Types, DataType)> any_same_type();
std::function<Status(Types, DataType)> integer_same_type();
// Bit operations: every tensor of the output's type, an integer type or FLOAT64 (its encoding; the 64-bit form).
std::function<Status(Types, DataType)> bits_same_type();

bool signed_integer(DataType type);
// out = |magnitude| with the sign bit of sign_of.
void copy_sign_body(BodyContext& c, shaders::Operand out, shaders::Operand magnitude, shaders::Operand sign_of);
// x * y rounded on its own (a following add must not fuse with it).
void product(BodyContext& c, shaders::Operand out, shaders::Operand x, shaders::Operand y);
// A unary float function; and x >= 0 (strict: x > 0) ? x : negative(x).
Row float_unary(std::function<void(BodyContext&, shaders::Operand, shaders::Operand)> f);
Row float_piecewise(std::function<void(BodyContext&, shaders::Operand, shaders::Operand)> negative, bool strict = false);

}  // namespace dmltool::ops::element_wise::body_rows
