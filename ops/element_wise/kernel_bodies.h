// The per-function part of the element-wise emitter (kernel.h): a "body" turns the function's input values into
// its output value. Bodies are found by id (the FunctionSpec row's kernel body id, e.g. "add", "sigmoid").
//
// Values live in registers holding `lanes` elements side by side (.x, or .xyzw when a thread computes 4
// outputs), so one body emission serves both paths and every instruction works on all lanes at once. Domains:
// a float tensor's values arrive as float32 (FLOAT16 widened exactly, ScaleBias applied), an integer tensor's
// as 32-bit integers (sign-extended for signed types, zero-extended otherwise). A body must leave its result
// in the domain of the output type: float32 for FLOAT32/FLOAT16 outputs (the emitter rounds to half), a 32-bit
// integer for integer outputs (the emitter keeps its low bits).
//
// 64-bit integers (INT64, UINT64): SM 5.0 has 32-bit registers only, so a body's 64-bit form (KernelBody::emit_wide,
// kernel_bodies_int64.cpp) works on Wide values, a low and a high 32-bit register of `lanes` elements each. The
// emitter takes it wherever a tensor is 64-bit: every input arrives as a Wide value (narrower integer types sign- or
// zero-extended to 64 bits), and the emitter keeps as many low bits of the result as the output type has (a UINT8
// comparison result: out.lo); FLOAT64 tensors only where the 64-bit form works on encodings alone
// (KernelBody::wide_bits). Value attributes in a 64-bit domain take two words each, low first
// (BodyContext::wide_parameter). The row keeps one entry: the 32-bit emitter and the 64-bit one side by side.
//
// Transcendental functions are range reductions and polynomials built from add/mul/div/round/bit operations,
// which every device computes the same way, with the error stated at each body. The one exception is 2^t: where
// the context allows it (BodyContext::hardware_exp2, set only in plans that require DeviceCapability::kAccurateExp2,
// i.e. run on devices whose exp instruction the backend's probe found within [FS]'s 3 ulp), exp, sigmoid, tanh, erf,
// GELU and the bodies built on them compute 2^t with SM 5.0's exp instruction instead, within the same row bounds
// (the family's bounds are derived from [FS]'s precisions; each body's comment gives its budget). The plan carries
// the portable body as its fallback. log and sincos always use the portable forms.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "core/dtype.h"
#include "core/status.h"
#include "shaders/builder.h"

namespace dmltool::ops::element_wise {

// What a body may use while it is emitted.
// A 64-bit integer value of `lanes` elements: its low and high words in two lanes-wide registers.
struct Wide {
    shaders::Operand lo;
    shaders::Operand hi;
};

class BodyContext {
public:
    BodyContext(shaders::ProgramBuilder& builder, uint32_t lanes, std::vector<shaders::Operand> parameters,
                shaders::Operand runtime_zero, std::vector<DataType> input_types, DataType output_type)
        : b(builder), lanes_(lanes), parameters_(std::move(parameters)), runtime_zero_(runtime_zero),
          input_types_(std::move(input_types)), output_type_(output_type) {}

    shaders::ProgramBuilder& b;
    // A fresh register selected to the lanes (.x or .xyzw).
    shaders::Operand temp() const;
    // Attribute word i (a root constant, replicated over the lanes). Out of range: a build error.
    shaders::Operand parameter(uint32_t i) const;
    uint32_t parameter_count() const { return uint32_t(parameters_.size()); }
    // A 64-bit value attribute: words 2i (low) and 2i + 1 (high).
    Wide wide_parameter(uint32_t i) const { return {parameter(2 * i), parameter(2 * i + 1)}; }
    // A fresh pair of registers selected to the lanes.
    Wide wide_temp() const { return {temp(), temp()}; }
    // An operand that is 0 at run time, unknown to the compiler (for shaders::unfused_mul).
    shaders::Operand runtime_zero() const { return runtime_zero_; }
    uint32_t lanes() const { return lanes_; }
    DataType input_type(size_t i) const { return input_types_.at(i); }
    DataType output_type() const { return output_type_; }
    // Selects `operand`'s lanes: .x or .xyzw.
    shaders::Operand lanes_of(shaders::Operand operand) const;
    // Whether bodies may use the exp instruction (the plan then requires DeviceCapability::kAccurateExp2), and
    // whether one did: the emitter asks the body's portable twin only where it did.
    bool hardware_exp2() const { return hardware_exp2_; }
    void allow_hardware_exp2(bool allowed) { hardware_exp2_ = allowed; }
    bool used_hardware_exp2() const { return used_hardware_exp2_; }
    void note_hardware_exp2() { used_hardware_exp2_ = true; }

private:
    bool hardware_exp2_ = false;
    bool used_hardware_exp2_ = false;
    uint32_t lanes_;
    std::vector<shaders::Operand> parameters_;
    shaders::Operand runtime_zero_;
    std::vector<DataType> input_types_;
    DataType output_type_;
};

using BodyEmitter = std::function<void(BodyContext&, std::span<const shaders::Operand> inputs, shaders::Operand out)>;
// The 64-bit form of a body: inputs and result as Wide values (see the top of this file).
using WideEmitter = std::function<void(BodyContext&, std::span<const Wide> inputs, Wide out)>;

struct KernelBody {
    std::string_view id;
    uint32_t min_inputs = 1;
    uint32_t max_inputs = 1;
    // Checks the operand and output types (kInvalidInput naming them when the body cannot compute them).
    std::function<Status(std::span<const DataType> inputs, DataType output)> accepts;
    BodyEmitter emit;
    // The body's error budget holds with the exp instruction too (kernel_math.cpp), and it uses it where allowed:
    // the emitter then builds it so in the plan that requires DeviceCapability::kAccurateExp2. Rows whose bound
    // leaves no room for exp2's 3 ulp (POW: 4|y log2 x| covers the rounded y ln x, not more) or that were not
    // analysed (SINH, COSH, CELU) stay portable.
    bool hardware_exp2 = false;
    // The body on 64-bit integer tensors; null where it has none (such problems are kUnsupported).
    WideEmitter emit_wide = {};
    // The 64-bit form only moves or combines bits (identity, if, bit operations): FLOAT64 tensors run on it too, as
    // their encodings.
    bool wide_bits = false;
};

// The body of that id; null when there is none.
const KernelBody* find_kernel_body(std::string_view id);
// Every body id (tests iterate them).
std::vector<std::string_view> kernel_body_ids();

// Building blocks shared by bodies (kernel_math.cpp): float32 functions of `x` (a lanes-wide operand) into `out`.
// Each states its error against the exact function; all handle NaN (propagated) and infinities.
namespace math {
// Each function of exp2 below takes the exp instruction where c.hardware_exp2() (its error then stated at it).
void exp(BodyContext& c, shaders::Operand out, shaders::Operand x);      // <= 2 ulp
// exp for x <= 0 (or NaN) only: <= 2 ulp, results below 2^-128.5 flushed to 0 (the softmax kernel's exponentials).
void exp_nonpositive(BodyContext& c, shaders::Operand out, shaders::Operand x);
void expm1(BodyContext& c, shaders::Operand out, shaders::Operand x);    // <= 3 ulp (relative to |expm1|)
void log(BodyContext& c, shaders::Operand out, shaders::Operand x);      // <= 2 ulp; log(0) = -inf, log(<0) = NaN
void log1p(BodyContext& c, shaders::Operand out, shaders::Operand x);    // <= 3 ulp
void tanh(BodyContext& c, shaders::Operand out, shaders::Operand x);     // <= 2 ulp
void sigmoid(BodyContext& c, shaders::Operand out, shaders::Operand x);  // <= 4 ulp
void atan(BodyContext& c, shaders::Operand out, shaders::Operand x);     // <= 4 ulp
void erf(BodyContext& c, shaders::Operand out, shaders::Operand x);      // <= 5 ulp
void gelu(BodyContext& c, shaders::Operand out, shaders::Operand x);     // (x / 2)(1 + erf(x / sqrt 2))
void atan2(BodyContext& c, shaders::Operand out, shaders::Operand y, shaders::Operand x);  // <= 5 ulp
// Either output may be null_operand(). |x| <= 8192: <= 3 ulp (+ 2^-26 absolute near the zeros).
void sincos(BodyContext& c, shaders::Operand sin_out, shaders::Operand cos_out, shaders::Operand x);
// Not-a-number test into a lanes-wide mask (~0 where x is NaN).
void is_nan(BodyContext& c, shaders::Operand mask, shaders::Operand x);
}  // namespace math

}  // namespace dmltool::ops::element_wise
