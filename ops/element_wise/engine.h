// The family engine's pieces (ops/element_wise/*.cpp), shared by the ELEMENT_WISE_* table (this folder) and the
// ACTIVATION_* table (ops/activation/): one generic Op per row.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/op.h"
#include "ops/element_wise/desc.h"
#include "ops/element_wise/function_math.h"

namespace dmltool::ops::element_wise {

// The ELEMENT_WISE_* rows (functions.cpp and friends) and the ACTIVATION_* rows (ops/activation/functions.cpp).
const std::vector<FunctionSpec>& element_wise_functions();
}  // namespace dmltool::ops::element_wise

namespace dmltool::ops::activation {
const std::vector<element_wise::FunctionSpec>& activation_functions();
}  // namespace dmltool::ops::activation

namespace dmltool::ops::element_wise {

// A row's spec from the DirectML facts (spec_from_facts.cpp): members, feature levels, constraints, formula.
FunctionSpec spec_from_facts(std::string_view name, std::string_view kernel_body, const FunctionMath* math);

// The row of that DML name suffix in either table ("ACTIVATION_RELU"), or null.
const FunctionSpec* find_function(std::string_view name);

// The generic Op of one row.
std::unique_ptr<Op> make_family_op(const FunctionSpec& function);

// Reads a desc of `function` (parse.cpp). `fused`: reading a FusedActivation's desc (tensors must be absent).
Result<std::unique_ptr<ElementWiseDesc>> parse_desc(const FunctionSpec& function, JsonObjectReader& reader,
                                                   bool fused = false);

// The family's semantics deviation models (SemanticsOptions::element_wise_model): DirectML 1.15.4's measured
// departures that no bound change can justify (results/directml_element_wise_2026-11-29.txt, section 8). op.cpp
// offers them to the registry, reference.cpp computes them; the contract never uses them.
// NEGATE, ABS and POW of 8- and 16-bit integers: computed in 32-bit integers (wrapping there), then stored with
// saturation (-(-128) = 127, INT8 (-8)^3 = -128, INT16 (-200)^5 = 32767), where the family's integer arithmetic wraps
// in the output type.
inline constexpr std::string_view kModelNarrowIntegersSaturate = "narrow-integers-saturate";
// POW and CONSTANT_POW of floats as exp2(y log2 |x|) with the sign of an odd integral y, and 0 for x = +-0: 0^y = 0
// for every y (IEEE: inf for y < 0, 1 for y = 0), inf^0 = NaN^0 = 1^inf = NaN (IEEE: 1), a negative base with an
// infinite exponent NaN (as the docs' non-integral exponent; IEEE: inf or 0); ScaleBias applied to POW's exponent
// too (as pow-scale-bias-on-exponent), in float32 and converted to an integer exponent tensor's type. A float
// exponent's parity is its saturating int32 conversion's, log2 reads a float32 denormal base as normal, FLOAT32 with
// an 8/16-bit exponent tensor makes results beyond 65504 infinite; integer inputs with a float exponent likewise,
// then saturated (results/directml_element_wise_2026-11-30_pow_modulus.txt).
inline constexpr std::string_view kModelPowExp2Log2 = "pow-exp2-log2";
// ADD/ADD1/SUBTRACT of FLOAT16: a float32 sum in (65504, 65520) in magnitude becomes an infinity, where both
// roundings Direct3D allows (to nearest, toward zero) give +-65504.
inline constexpr std::string_view kModelFloat16SumOverflowsEarly = "float16-sum-overflows-early";
// LOG of a float32 denormal x: ln((2^-126 + |x|) / 2) (x read as if its exponent field meant 2^-127 with the implicit
// 1), where the exact ln x or, flushed, -inf is due.
inline constexpr std::string_view kModelLogDenormalAsNormal = "log-denormal-as-normal";
// ATAN/ATAN_YX: the coarse approximation (unit roundoff 2^-19) and a NaN operand read as a ratio of 1: ATAN(NaN) =
// atan(1); ATAN_YX(NaN, x) = atan2(x, x) and ATAN_YX(y, NaN) = atan2(|y|, |y|) for finite nonzero others.
inline constexpr std::string_view kModelAtanCoarseNanAsOne = "atan-coarse-nan-as-one";
// ASINH: the page's formula ln(x + sqrt(x^2 + 1)) evaluated in float32 (x + sqrt cancels for x < 0: -inf from about
// -4096 on, -7.62 for -1097 where -7.69 is exact; x^2 overflows to +inf beyond 1.8e19 in magnitude), with the coarse
// approximation's error (unit roundoff 2^-16) elsewhere.
inline constexpr std::string_view kModelAsinhFloat32Formula = "asinh-float32-formula";
// LOG_SOFTMAX/LOG_SOFTMAX1: (x - max) - ln(max(sum, 1e-20)) with Direct3D's max (the non-NaN operand), so a lane
// holding NaN or +inf, whose sum is NaN, takes ln(1e-20): finite values or -inf where NaN is due.
inline constexpr std::string_view kModelLogSoftmaxSumFloor = "log-softmax-sum-floor";

// The CPU reference (reference.cpp): inputs/outputs as Op::run_reference gives them.
Status run_reference(const ElementWiseDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                     const ReferenceContext& context);

// Whether the reference computes in integers (the row has an integer function, and the output and every input
// are integer types): then the verdict is bit-exact.
bool uses_integer_path(const ElementWiseDesc& desc);

// A random valid desc of `function` for `dmltool generate` (generate.cpp); `op` is its Op (parse checks the draw).
Status generate_case(const Op& op, const FunctionSpec& function, CaseRng& rng, GeneratedCase& out);

// The tolerance of a desc's output (reference.cpp).
Tolerance tolerance_of(const ElementWiseDesc& desc);

}  // namespace dmltool::ops::element_wise
