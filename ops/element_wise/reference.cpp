// The family's CPU reference: a naive loop over output elements. Input element i of every tensor is read at output
// element i (all tensors share the output's logical shape: broadcast lives in the Strides, see desc.h), the first
// input goes through ScaleBias, the row's function runs in double, then the fused activation.
//
// Error bound (function_math.h): besides the rounded values, the reference gives per element the exact value and
// the error scale M. Where an implementation's legitimate choices move the function's argument (ScaleBias computed
// in float32, a float32 denormal input flushed to zero as D3D allows, the rounded intermediate before a fused
// activation), the function is evaluated at each such argument, and the element accepts the band spanning all
// of them (each widened by the row's own M): simple, and right for the functions' monotone pieces at the scale of
// one rounding.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <cstring>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "ops/element_wise/engine.h"
#include "ops/element_wise/reference_band.h"
#include "ops/element_wise/reference_models.h"

namespace dmltool::ops::element_wise {

namespace {

using namespace reference_detail;

// One element's arguments (at most 8 inputs: QUANTIZED_LINEAR_ADD), on the stack: a heap allocation per element
// serializes the reference's threads on the allocator's lock wherever that lock is global (MinGW's malloc under
// Wine: on the H200 machine's 16 threads an 8M-element IDENTITY took 55 s instead of about 1 s, 2026-11-29).
class Arguments {
public:
    explicit Arguments(std::span<const double> x) : size_(std::min(x.size(), kCapacity)) {
        std::copy_n(x.begin(), size_, values_.begin());
    }
    double& operator[](size_t i) { return values_[i]; }
    double operator[](size_t i) const { return values_[i]; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    operator std::span<const double>() const { return {values_.data(), size_}; }

    static constexpr size_t kCapacity = 8;  // QUANTIZED_LINEAR_ADD: A, B and their scales and zero points, the output's

private:
    std::array<double, kCapacity> values_{};
    size_t size_;
};

// One element's argument variants and their function values, for one row.
class ElementEvaluator {
public:
    ElementEvaluator(const ElementWiseDesc& desc, const SemanticsOptions& semantics)
        : desc_(desc),
          // DirectML's reading of POW's ScaleBias (a deviation model's semantics): the exponent is scaled too.
          scale_second_((semantics.pow_scale_bias_on_exponent || semantics.element_wise_model == kModelPowExp2Log2) &&
                        desc.function->name == "ELEMENT_WISE_POW"),
          pow_exp2_log2_(semantics.element_wise_model == kModelPowExp2Log2 &&
                         (desc.function->name == "ELEMENT_WISE_POW" || desc.function->name == "ELEMENT_WISE_CONSTANT_POW")),
          log_denormal_as_normal_(semantics.element_wise_model == kModelLogDenormalAsNormal &&
                                  desc.function->name == "ELEMENT_WISE_LOG"),
          asinh_formula_(semantics.element_wise_model == kModelAsinhFloat32Formula &&
                         desc.function->name == "ELEMENT_WISE_ASINH" && !desc.fused_activation),
          atan_nan_as_one_(semantics.element_wise_model == kModelAtanCoarseNanAsOne &&
                           (desc.function->name == "ELEMENT_WISE_ATAN" || desc.function->name == "ELEMENT_WISE_ATAN_YX")) {
        if (scale_second_) {
            const TensorDesc* e = desc.input("ExponentTensor");
            exponent_type_ = e ? e->data_type : DataType::kFloat32;
        }
        if (pow_exp2_log2_ && desc.function->name == "ELEMENT_WISE_POW") {
            const TensorDesc* x = desc.input("InputTensor");
            // FLOAT32 with an 8- or 16-bit exponent tensor: results beyond 65504 are infinities (the pow-exp2-log2
            // model; INT32/UINT32/FLOAT32 exponents and integer inputs keep float32's range).
            const DataType narrow[] = {DataType::kFloat16, DataType::kInt8, DataType::kInt16, DataType::kUint8,
                                       DataType::kUint16};
            limit_to_half_range_ = x && x->data_type == DataType::kFloat32 &&
                                   std::find(std::begin(narrow), std::end(narrow), exponent_type_) != std::end(narrow);
        }
        if (desc.fused_activation) {
            fused_.function = desc.fused_activation->function;
            fused_.attributes = desc.fused_activation->attributes;
            fused_.output = desc.output;
        }
        for (const auto& input : desc.inputs) input_float32_.push_back(input && input->data_type == DataType::kFloat32);
    }

    // The nominal value (what the reference writes) and the band of accepted values; `others` (optional) receives
    // discrete other right values.
    double evaluate(std::span<const double> x, Band* band, OtherValues* others = nullptr) const {
        Arguments args(x);
        const ScaleBias* sb = desc_.scale_bias ? &*desc_.scale_bias : nullptr;
        if (sb && !args.empty()) args[0] = double(sb->scale) * args[0] + double(sb->bias);
        if (sb && scale_second_ && args.size() > 1) args[1] = second_argument(x[1]);
        const double nominal = finish(args, band, others);
        if (!band) return nominal;
        // The model's exponent as one fused multiply-add, where that differs from two roundings.
        if (sb && scale_second_ && args.size() > 1) {
            Arguments fused = args;
            fused[1] = second_argument(x[1], true);
            if (!(fused[1] == args[1]) && !(std::isnan(fused[1]) && std::isnan(args[1]))) finish(fused, band);
        }
        // ScaleBias in float32: x * Scale rounds, then + Bias rounds (or one fused multiply-add): within
        // u * (|x * Scale| + |x * Scale + Bias|) of the exact argument.
        if (sb && !args.empty() && std::isfinite(args[0])) {
            const double spread = 1.01 * kUnitRoundoff * (std::fabs(double(sb->scale) * x[0]) + std::fabs(args[0]));
            if (spread > 0) {
                Arguments moved = args;
                for (double sign : {-1.0, 1.0}) {
                    moved[0] = args[0] + sign * spread;
                    finish(moved, band);
                }
                for (double v : float32_scale_bias_arguments(x[0], sb->scale, sb->bias)) {
                    if (!std::isfinite(v)) continue;  // overflow: the next block's rule
                    moved[0] = v;
                    finish(moved, band);
                }
            }
        }
        // ScaleBias in float32 can overflow where exact arithmetic does not: x * Scale, or the argument, at or past
        // float32's infinity (|v| >= 2^128 - 2^103 rounds to it), within the same rounding spread. A float32
        // implementation then evaluates the function at that infinity (LOG of a scaled 3e38 * 2: +inf where the
        // exact logarithm is 89.3), which is right too; below the threshold nothing changes. An infinite result is
        // accepted as exactly that value (`others`), not by opening the element to every non-finite value.
        if (sb && !args.empty()) {
            const bool second = scale_second_ && args.size() > 1;
            for (size_t k = 0; k < (second ? 2u : 1u); ++k) {
                const double product = double(sb->scale) * x[k];
                const double spread = 1.01 * kUnitRoundoff * (std::fabs(product) + std::fabs(args[k]));
                for (double v : {product, args[k]}) {
                    if (!std::isfinite(v) || std::fabs(v) + spread < kFloat32Overflow) continue;
                    Arguments overflowed = args;
                    overflowed[k] = std::copysign(kInfinity, v);
                    const double result = finish(overflowed, nullptr);
                    if (std::isinf(result) && others) add_other_value(*others, result);
                    else finish(overflowed, band);
                }
            }
        }
        // D3D lets float32 arithmetic flush denormal inputs to (sign-preserving) zero.
        for (size_t k = 0; k < x.size(); ++k) {
            if (!input_float32_[k] || !is_float32_denormal(x[k])) continue;
            Arguments flushed(x);
            flushed[k] = std::copysign(0.0, x[k]);
            if (sb && k == 0) flushed[0] = double(sb->bias);
            if (sb && scale_second_ && flushed.size() > 1) flushed[1] = second_argument(flushed[1]);
            if (sb && k != 0) flushed[0] = double(sb->scale) * flushed[0] + double(sb->bias);
            finish(flushed, band, others);
        }
        return nominal;
    }

    // The row's discrete other right values at the nominal arguments (FunctionMath::other_values): count written.
    // With a fused activation: the activation's discrete other values at a NaN intermediate (HARD_SIGMOID's 0: ADD1
    // FLOAT16 of inf + -inf, lavapipe campaign seed 20261201 #28), the row's own being no output there.
    int other_values(std::span<const double> x, double* out) const {
        const FunctionMath& math = *desc_.function->math;
        Arguments args(x);
        const ScaleBias* sb = desc_.scale_bias ? &*desc_.scale_bias : nullptr;
        if (sb && !args.empty()) args[0] = double(sb->scale) * args[0] + double(sb->bias);
        if (sb && scale_second_ && args.size() > 1) args[1] = second_argument(x[1]);
        if (desc_.fused_activation) {
            const FunctionMath& g = *fused_.function->math;
            const double t = math.exact(args, desc_);
            if (!g.other_values) return 0;
            // At a non-finite intermediate, or the infinity a finite one overflows to (HARD_SIGMOID with Alpha 0 of
            // an infinite sum: 0 * inf, NaN, clamped to 0 in the other order: seed 20261203 ADD1 #58).
            const std::optional<double> v = overflowed_intermediate(t);
            return v ? g.other_values(std::span<const double>(&*v, 1), fused_, out) : 0;
        }
        if (!math.other_values) return 0;
        return math.other_values(args, desc_, out);
    }

private:
    // The row's function at `args`, then the fused activation; adds the candidates to `band`.
    double finish(std::span<const double> given, Band* band, OtherValues* others = nullptr) const {
        const FunctionMath& math = *desc_.function->math;
        if (asinh_formula_) return asinh_formula(given, band);
        std::vector<double> modelled;
        const std::span<const double> args = model_arguments(given, modelled);
        double v = pow_exp2_log2_ ? pow_exp2_log2(args) : math.exact(args, desc_);
        double m = band && math.error_scale && std::isfinite(v) ? math.error_scale(args, v, desc_) : 0.0;
        if (atan_nan_as_one_) m *= models::kAtanCoarseFactor;
        // The model's infinities beyond 65504 (FLOAT32 with a narrow exponent tensor); within the value's own error
        // of 65504 both the value and the infinity.
        if (limit_to_half_range_ && std::isfinite(v)) {
            const double d = 1.01 * kUnitRoundoff * m;
            if (std::fabs(v) - d > 65504.0) v = std::copysign(kInfinity, v), m = 0;
            else if (std::fabs(v) + d > 65504.0 && band) band->add(std::copysign(kInfinity, v), 0.0);
        }
        // The contract's second reading (powr's special values) is not DirectML's: the model gives its own.
        if (band && math.alternative && !pow_exp2_log2_) {
            const double w = math.alternative(args, desc_);
            // A second value of its own (FunctionMath::separate_alternative): within its own error and the output's
            // rounding, nothing between it and the band.
            if (math.separate_alternative && !desc_.fused_activation && std::isfinite(w)) {
                if (others && w != v) {
                    const double e = 1.01 * kUnitRoundoff * (math.error_scale ? math.error_scale(args, w, desc_) : 0.0);
                    const double narrowing = desc_.output.data_type == DataType::kFloat16 ? 2.0 : 1.0;
                    add_other_value(*others, w, e + 0x1p-126 + narrowing * half_spacing(desc_.output.data_type, std::fabs(w) + e));
                }
            } else if (desc_.fused_activation) band->add(apply(*fused_.function->math, w), 0.0);
            else band->add(w, math.error_scale && std::isfinite(w) ? math.error_scale(args, w, desc_) : 0.0);
        }
        if (!desc_.fused_activation) {
            if (band) band->add(v, m);
            return v;
        }
        const FunctionMath& g = *fused_.function->math;
        const double y = apply(g, v);
        if (!band) return y;
        // The intermediate is rounded (to float32 or to the output type: either is a right implementation) and
        // carries the row's own error.
        // A FLOAT16 intermediate may be narrowed toward zero (Direct3D's conversion rule, as the output:
        // Tolerance::narrowing_toward_zero): a whole spacing of half (ADD1 FLOAT16 with a fused activation, seed
        // 20261201 #6: -17309.07 gave -17280, two ulps toward zero after the activation's own rounding).
        const double narrowing = desc_.output.data_type == DataType::kFloat16 ? 2.0 : 1.0;
        const double d = 1.01 * kUnitRoundoff * m + std::max(half_spacing(DataType::kFloat32, v),
                                                             narrowing * half_spacing(desc_.output.data_type, v));
        // A non-finite intermediate is itself only (NaN included: `t != v` would skip it too).
        // A finite sum beyond float32's (or the output type's) range is an infinity there: SOFTSIGN's x / (1 + |x|)
        // of it is NaN in float32 (seed 20261203 ADD1 #559: exact 1, dmltool's kernel NaN).
        const double around[4] = {v - d, v, v + d, std::copysign(kInfinity, v)};
        const size_t count = overflowed_intermediate(v + std::copysign(d, v)) ? 4 : 3;
        const auto intermediates =
            std::isfinite(v) ? std::span<const double>(around, count) : std::span<const double>(&v, 1);
        for (double t : intermediates) {
            const double gt = apply(g, t);
            band->add(gt, g.error_scale && std::isfinite(gt) ? g.error_scale(std::span<const double>(&t, 1), gt, fused_)
                                                             : 0.0);
            // The activation's own second right value (its float32 formula overflowing: PARAMETRIC_SOFTPLUS of
            // -2.9e38 gives -inf, lavapipe campaign seed 20261201 ADD1 #231), as where it is not fused.
            if (g.alternative) band->add(g.alternative(std::span<const double>(&t, 1), fused_), 0.0);
        }
        return y;
    }

    // The intermediate itself where it is not finite; its infinity where a finite one overflows the float32 or the
    // output type's range; else none (no heap: called per element).
    std::optional<double> overflowed_intermediate(double t) const {
        if (!std::isfinite(t)) return t;
        const double limit = std::min(kFloat32Overflow, overflow_threshold(desc_.output.data_type));
        if (is_float(desc_.output.data_type) && std::fabs(t) >= limit) return std::copysign(kInfinity, t);
        return std::nullopt;
    }

    double apply(const FunctionMath& g, double t) const { return g.exact(std::span<const double>(&t, 1), fused_); }

    // The arguments as a semantics deviation model reads them (engine.h: kModel*); `given` itself otherwise.
    std::span<const double> model_arguments(std::span<const double> given, std::vector<double>& modelled) const {
        if ((log_denormal_as_normal_ && models::log_denormal_as_normal(given, modelled)) ||
            (atan_nan_as_one_ && models::atan_nan_as_one(given, modelled)))
            return modelled;
        return given;
    }

    double pow_exp2_log2(std::span<const double> args) const {
        if (args.size() < 2) return models::pow_exp2_log2(args[0], double(desc_.attribute("Exponent")->float_value));
        return models::pow_exp2_log2(args[0], args[1], is_float(exponent_type_));
    }

    // POW's exponent under ScaleBias (the pow-scale-bias-on-exponent and pow-exp2-log2 models), as DirectML
    // computes it: e * Scale + Bias in float32, rounded to nearest after the product and the sum
    // (or once, `fused`), then converted to the exponent tensor's type as Direct3D's ftoi/ftou do, in 32 bits:
    // toward zero, saturating at the 32-bit range, negatives to 0 for an unsigned type (an INT8 exponent 2 with
    // Scale 1.5, Bias 0.25 is 3; UINT8 128 with Scale 2, Bias 0.5 is 256, not 8-bit saturated; UINT32 3e9 is
    // 4294967295, odd); a FLOAT16 one stays float32.
    double second_argument(double e, bool fused = false) const {
        const ScaleBias& sb = *desc_.scale_bias;
        const float product = float(e * double(sb.scale));
        const double v = fused ? double(float(std::fma(e, double(sb.scale), double(sb.bias))))
                               : double(float(double(product) + double(sb.bias)));
        if (!is_integer(exponent_type_)) return v;
        if (std::isnan(v)) return 0;  // ftoi/ftou of NaN
        const double t = std::trunc(v);
        return is_signed_integer(exponent_type_) ? std::clamp(t, -0x1p31, 0x1p31 - 1) : std::clamp(t, 0.0, 0x1p32 - 1);
    }

    // ASINH as its formula in float32: the band spans the candidates, the nominal value is the nearest root's.
    double asinh_formula(std::span<const double> args, Band* band) const {
        const std::array<double, 3> w = models::asinh_float32_formula(args[0]);
        if (band)
            for (double v : w) band->add(v, std::isfinite(v) ? models::kAsinhCoarseFactor * (16 * std::fabs(v) + 16) : 0.0);
        return w[1];
    }

    const ElementWiseDesc& desc_;
    const bool scale_second_;
    const bool pow_exp2_log2_;
    const bool log_denormal_as_normal_;
    const bool asinh_formula_;
    const bool atan_nan_as_one_;
    DataType exponent_type_ = DataType::kFloat32;  // POW with its exponent scaled (a model): the ExponentTensor's type
    bool limit_to_half_range_ = false;              // ... and its results beyond 65504 are infinities
    ElementWiseDesc fused_;
    std::vector<bool> input_float32_;
};

// Stores a double into an output element: floats round to nearest even; integer outputs round to nearest even
// and saturate (NaN: 0), the rows' functions already give integral, in-range values where the docs define them.
void store(HostTensor& out, uint64_t i, double v) {
    const DataType type = out.data_type();
    if (is_float(type)) {
        out.set_from_double(i, v);
        return;
    }
    if (std::isnan(v)) v = 0;
    v = std::nearbyint(v);
    v = std::clamp(v, double(integer_min(type)), double(integer_max(type)));
    out.set_from_double(i, v);
}


// Fills one element's exact value and scale from its band. Integer outputs: the band's values round to one integer
// (exact) or straddle a tie (the tie point, so that both neighbours and only they pass). `others` receives an
// overflowing FLOAT16 result's round-toward-zero value.
void fill_exact(ExactOutput& exact, uint64_t i, double nominal, const Band& band, DataType type, OtherValues& others,
                bool truncation = false) {
    double low = band.low, high = band.high;
    if (is_integer(type)) {
        // Integer outputs hold no NaN or infinity: infinities saturate; a NaN's conversion to an integer is left
        // open by the docs (and invalid in IEEE 754), so any value of the type is right (the reference stores 0).
        if (band.any_nan) low = -kInfinity, high = kInfinity;
        if (band.any_positive_infinity) high = kInfinity, low = std::min(low, double(integer_max(type)));
        if (band.any_negative_infinity) low = -kInfinity, high = std::max(high, double(integer_min(type)));
    } else if (!band.any_finite) {
        exact.exact[i] = nominal;
        exact.scale[i] = 0;
        // A NaN candidate beside an infinite nominal (HARD_SWISH's NaN clamp of x = inf) is right: NaN passes too;
        // so is an infinite candidate beside a NaN nominal (CONSTANT_POW -2.5 of -1.4e-45 * 0.25 + 0: a negative
        // base's NaN exactly, +0's +inf in float32, where the product rounds to -0; seed 20261205 #2239).
        if (band.any_nan && !std::isnan(nominal)) exact.nonfinite_allowed[i] = 1;
        if (std::isnan(nominal) && band.any_positive_infinity) add_other_value(others, kInfinity);
        if (std::isnan(nominal) && band.any_negative_infinity) add_other_value(others, -kInfinity);
        // Both infinities (POW of -0 to an odd negative power: pow's -inf, powr's +inf): the other one is right too.
        if (band.any_positive_infinity && band.any_negative_infinity)
            add_other_value(others, nominal > 0 ? -kInfinity : kInfinity);
        return;
    }
    const bool nonfinite = band.any_nan || band.any_positive_infinity || band.any_negative_infinity;
    if (is_float(type)) {
        const double threshold = overflow_threshold(type);
        if (low >= threshold || high <= -threshold) {
            // Every candidate overflows the output type: the result is that infinity.
            exact.exact[i] = low >= threshold ? kInfinity : -kInfinity;
            exact.scale[i] = 0;
            if (nonfinite) exact.nonfinite_allowed[i] = 1;
            // A candidate of the other infinity is right too: RECIP of 1.4e-45 * -0.4375 + 0 is -inf exactly but
            // +inf in float32 (the product rounds to -0, + 0 gives +0; lavapipe campaign, seed 20261203 #1648).
            if (low >= threshold ? band.any_negative_infinity : band.any_positive_infinity)
                add_other_value(others, low >= threshold ? -kInfinity : kInfinity);
            // A finite float32 result beyond half's range narrowed toward zero (Direct3D's conversion rule, which the
            // FLOAT16 tolerance accepts: Tolerance::narrowing_toward_zero) is the largest finite half, +-65504 (IEEE
            // 754 roundTowardZero overflows to the largest finite number; Direct3D's data conversion rules: "the
            // maximum representable (appropriately signed) value results, NOT including a signed infinity"). Only
            // where the finite candidates are finite in float32 too; a true infinity stays infinite.
            const double float32_threshold = overflow_threshold(DataType::kFloat32);
            if (type == DataType::kFloat16 && high < float32_threshold && low > -float32_threshold)
                add_other_value(others, low >= threshold ? 65504.0 : -65504.0);
            return;
        }
        if (high >= threshold || low <= -threshold || nonfinite) exact.nonfinite_allowed[i] = 1;
        // Where the bound exceeds the result's own magnitude (tan of 1e30: the argument's rounding spans periods),
        // nothing of the value is known: NaN is as right as any number.
        // Halves first: low + high overflows near the type's largest value (FLOAT64 IF selecting -DBL_MAX was
        // judged against -inf, random case seed 20261130 #0).
        if (0.5 * high - 0.5 * low >= std::max(1.0, std::fabs(0.5 * low + 0.5 * high))) exact.nonfinite_allowed[i] = 1;
        low = std::max(low, -threshold), high = std::min(high, threshold);
        exact.exact[i] = 0.5 * low + 0.5 * high;
        exact.scale[i] = (0.5 * high - 0.5 * low) / (1.01 * kUnitRoundoff);
        return;
    }
    // Integer output: the integers the band's values round to. The docs name no tie rule (QUANTIZE_LINEAR's
    // round()), so a band end exactly halfway between two integers accepts both of them.
    const auto is_tie = [](double v) { return std::isfinite(v) && v - std::floor(v) == 0.5; };
    double lo = is_tie(low) ? std::floor(low) : std::nearbyint(low);
    double hi = is_tie(high) ? std::ceil(high) : std::nearbyint(high);
    // A row whose float result may reach the integer output by truncation (FunctionMath::integer_by_truncation):
    // the truncations of the band's values too (trunc is monotone: [trunc(low), trunc(high)]).
    if (truncation && std::isfinite(low)) lo = std::min(lo, std::trunc(low));
    if (truncation && std::isfinite(high)) hi = std::max(hi, std::trunc(high));
    lo = std::clamp(lo, double(integer_min(type)), double(integer_max(type)));
    hi = std::clamp(hi, double(integer_min(type)), double(integer_max(type)));
    // compare_to_exact accepts integers within 1 + c of the centre: c = (hi - lo) / 2 - 1/2 takes exactly lo..hi.
    exact.exact[i] = 0.5 * (lo + hi);
    exact.scale[i] = std::max(0.0, 0.5 * (hi - lo) - 0.5) / (1.01 * kUnitRoundoff);
}

Status run_lanes(const ElementWiseDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                 const ReferenceContext& context);

// A whole lane's other right result (FunctionMath::lane_alternative): its elements' indices and values.
struct LaneAlternative {
    std::vector<uint64_t> members;
    std::vector<double> values;
};

// Adds the lanes' other results to ExactOutput::also_accepts: element i also passes when its whole lane equals its
// alternative. The lane is read around `bits`, which AcceptsElement points into the whole logical output (element i
// of a dense tensor: core/op.h), so one element's verdict can depend on its neighbours, as a one-hot lane's must
// (accepting 0 or 1 per element would pass two 1s or none).
void add_lane_alternatives(ExactOutput& exact, std::shared_ptr<std::vector<std::shared_ptr<const LaneAlternative>>> lanes,
                           const TensorDesc& output) {
    bool any = false;
    for (const auto& l : *lanes) any |= l != nullptr;
    if (!any) return;
    TensorDesc one = output;
    one.sizes = {1};
    one.strides.reset();
    exact.also_accepts = [lanes = std::move(lanes), one, before = std::move(exact.also_accepts)](
                             uint64_t i, const std::byte* bits) {
        if (before && before(i, bits)) return true;
        if (i >= lanes->size() || !(*lanes)[i]) return false;
        const LaneAlternative& lane = *(*lanes)[i];
        HostTensor value(one);
        const size_t bytes = value.element_bytes();
        const std::byte* element0 = bits - i * bytes;
        for (size_t m = 0; m < lane.members.size(); ++m) {
            std::memcpy(value.element_ptr(0), element0 + lane.members[m] * bytes, bytes);
            if (value.get_as_double(0) != lane.values[m]) return false;
        }
        return true;
    };
}

// ExactOutput::also_accepts from the elements' other right values (none at all: left unset).
void set_also_accepts(ExactOutput& exact, std::shared_ptr<std::vector<OtherValues>> others, const TensorDesc& output) {
    bool any = false;
    for (const OtherValues& o : *others) any |= o.any();
    if (!any) return;
    TensorDesc one = output;
    one.sizes = {1};
    one.strides.reset();
    exact.also_accepts = [others = std::move(others), one](uint64_t i, const std::byte* bits) {
        if (i >= others->size()) return false;
        HostTensor value(one);
        std::memcpy(value.element_ptr(0), bits, value.element_bytes());
        const double v = value.get_as_double(0);
        const OtherValues& o = (*others)[i];
        for (size_t k = 0; k < o.values.size(); ++k)
            if (!std::isnan(o.values[k]) && (v == o.values[k] || std::fabs(v - o.values[k]) <= double(o.tolerances[k])))
                return true;
        return false;
    };
}

// Input element of output element i: the same index (every tensor has the output's Sizes), or element 0 of a
// one-element tensor (QUANTIZED_LINEAR_ADD's scales and zero points).
uint64_t element_of(const HostTensor& input, uint64_t i) { return input.element_count() == 1 ? 0 : i; }

// An integer element sign-extended, or a float element's bits (the bit operations work on any encoding).
int64_t integer_or_bits(const HostTensor& t, uint64_t i) {
    if (is_integer(t.data_type())) return t.get_as_int64(i);
    uint64_t bits = 0;
    std::memcpy(&bits, t.element_ptr(i), t.element_bytes());
    return int64_t(bits);
}

}  // namespace

bool uses_integer_path(const ElementWiseDesc& desc) {
    const FunctionMath& math = *desc.function->math;
    if (!math.integer) return false;
    if (!math.exact) return true;  // bit operations: on any type's encoding
    if (!is_integer(desc.output.data_type)) return false;
    for (const auto& input : desc.inputs)
        if (input && !is_integer(input->data_type)) return false;
    return true;
}

Status run_reference(const ElementWiseDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                     const ReferenceContext& context) {
    const FunctionSpec& function = *desc.function;
    if (!function.math || (!function.math->exact && !function.math->integer && !function.math->lane))
        return internal_error(std::string(function.name) + ": no reference function");
    if (function.math->lane) return run_lanes(desc, inputs, output, context);
    if (inputs.size() > Arguments::kCapacity)
        return internal_error(std::string(function.name) + ": " + std::to_string(inputs.size()) +
                              " inputs, more than the reference's " + std::to_string(Arguments::kCapacity));
    const uint64_t count = output.element_count();
    const DataType out_type = output.data_type();
    ExactOutput* exact = context.exact_outputs ? &context.exact_outputs->at(0) : nullptr;
    const bool integer_path = uses_integer_path(desc);
    if (exact && !integer_path) {
        exact->exact.assign(count, 0);
        exact->scale.assign(count, 0);
        exact->nonfinite_allowed.assign(count, 0);
        // D3D's float32 arithmetic may flush denormal results to zero.
        exact->absolute_floor = is_float(out_type) ? 0x1p-126 : 0;
    }
    const ElementEvaluator evaluator(desc, context.semantics);
    // Semantics deviation models of the whole element (engine.h): NEGATE's and POW's results computed in 32 bits and
    // saturated in narrower types; a FLOAT16 sum just beyond 65504 taken as an infinity.
    const std::string& model = context.semantics.element_wise_model;
    const bool narrow_saturates = model == kModelNarrowIntegersSaturate &&
                                  (function.name == "ELEMENT_WISE_NEGATE" || function.name == "ELEMENT_WISE_ABS" ||
                                   function.name == "ELEMENT_WISE_POW") &&
                                  is_integer(out_type) && element_size_in_bits(out_type) < 32;
    const DataType wide_type = is_signed_integer(out_type) ? DataType::kInt32 : DataType::kUint32;
    const bool sum_overflows_early = model == kModelFloat16SumOverflowsEarly && out_type == DataType::kFloat16;
    auto others = std::make_shared<std::vector<OtherValues>>(exact && !integer_path ? count : 0, kNoOtherValues);
    context.pool.parallel_for(count, [&](uint64_t begin, uint64_t end) {
        std::vector<double> x(inputs.size());
        std::vector<int64_t> xi(inputs.size());
        for (uint64_t i = begin; i < end; ++i) {
            if (integer_path) {
                for (size_t k = 0; k < inputs.size(); ++k)
                    xi[k] = inputs[k] ? integer_or_bits(*inputs[k], element_of(*inputs[k], i)) : 0;
                int64_t r = function.math->integer(xi, out_type, desc);
                if (narrow_saturates)
                    r = std::clamp<int64_t>(function.math->integer(xi, wide_type, desc), integer_min(out_type),
                                            int64_t(integer_max(out_type)));
                // Store the low bytes: the function returns the value in out_type's range (UINT64 as its bits).
                std::memcpy(output.element_ptr(i), &r, output.element_bytes());
                continue;
            }
            for (size_t k = 0; k < inputs.size(); ++k)
                x[k] = inputs[k] ? inputs[k]->get_as_double(element_of(*inputs[k], i)) : kNan;
            Band band;
            OtherValues* element_others_or_null = exact ? &(*others)[i] : nullptr;
            const double v = evaluator.evaluate(x, exact ? &band : nullptr, element_others_or_null);
            // The model's own output is the infinity, so that the registry predicts the deviation where it applies.
            const bool overflows_early = sum_overflows_early && std::isfinite(v) &&
                                         std::fabs(double(float(v))) > 65504.0 &&
                                         std::fabs(v) < overflow_threshold(DataType::kFloat16);
            store(output, i, overflows_early ? std::copysign(kInfinity, v) : v);
            if (!exact) continue;
            OtherValues& element_others = *element_others_or_null;
            double values[2];
            const int n = evaluator.other_values(x, values);
            for (int k = 0; k < n; ++k) add_other_value(element_others, values[k]);
            if (overflows_early) add_other_value(element_others, std::copysign(kInfinity, v));
            fill_exact(*exact, i, v, band, out_type, element_others, function.math->integer_by_truncation);
        }
    });
    if (exact && !integer_path) set_also_accepts(*exact, std::move(others), output.desc());
    return Status::ok();
}

namespace {

// The reductions over axes (ACTIVATION_SOFTMAX, LOG_SOFTMAX, HARDMAX and their "1" versions with Axes): the lanes
// are the groups of elements that differ only in the reduced axes' coordinates; the row's lane function computes
// each group's outputs and error scales in double.
Status run_lanes(const ElementWiseDesc& desc, std::span<const HostTensor* const> inputs, HostTensor& output,
                 const ReferenceContext& context) {
    const Dims& sizes = output.desc().sizes;
    const uint32_t rank = uint32_t(sizes.size());
    std::vector<bool> reduced(rank, false);
    if (const AttributeValue* axes = desc.attribute("Axes")) {
        for (uint32_t axis : axes->uint_array) reduced[axis] = true;
    } else if (rank > 0) {
        reduced[rank - 1] = true;  // the v1 operators: rows along the last dimension
    }
    const Dims strides = packed_strides(sizes);
    Dims lane_sizes, lane_strides, outer_sizes, outer_strides;
    for (uint32_t d = 0; d < rank; ++d) {
        (reduced[d] ? lane_sizes : outer_sizes).push_back(sizes[d]);
        (reduced[d] ? lane_strides : outer_strides).push_back(strides[d]);
    }
    const uint64_t lane_size = *checked_element_count(lane_sizes);
    const uint64_t lane_count = *checked_element_count(outer_sizes);
    std::vector<uint64_t> member_offsets(lane_size);
    std::vector<uint32_t> coordinates(rank);
    for (uint64_t m = 0; m < lane_size; ++m) {
        unravel_index(m, lane_sizes, coordinates.data());
        uint64_t offset = 0;
        for (size_t d = 0; d < lane_sizes.size(); ++d) offset += uint64_t(coordinates[d]) * lane_strides[d];
        member_offsets[m] = offset;
    }
    ExactOutput* exact = context.exact_outputs ? &context.exact_outputs->at(0) : nullptr;
    const uint64_t count = output.element_count();
    if (exact) {
        exact->exact.assign(count, 0);
        exact->scale.assign(count, 0);
        exact->nonfinite_allowed.assign(count, 0);
        exact->absolute_floor = 0x1p-126;
    }
    auto others = std::make_shared<std::vector<OtherValues>>(exact ? count : 0, kNoOtherValues);
    // Per element, the other right result of its whole lane where that differs (FunctionMath::lane_alternative).
    auto lane_others = std::make_shared<std::vector<std::shared_ptr<const LaneAlternative>>>(exact ? count : 0);
    const HostTensor& input = *inputs[0];
    // The row's semantics deviation model (engine.h) replaces the lane function; of FLOAT16 in half precision, as
    // DirectML's half-precision-intermediates entries of these rows (unit roundoff 2^-11, halves below 2^-14 flushed),
    // since one case's FLOAT16 lanes show both.
    const bool lane_model = desc.function->math->deviation_lane &&
                            context.semantics.element_wise_model == kModelLogSoftmaxSumFloor;
    const double model_scale = lane_model && output.data_type() == DataType::kFloat16 ? 0x1p13 : 1.0;
    if (exact && model_scale > 1) exact->absolute_floor = 0x1p-14;
    const LaneFunction lane_function = lane_model ? desc.function->math->deviation_lane : desc.function->math->lane;
    const LaneFunction lane_alternative = desc.function->math->lane_alternative;
    context.pool.parallel_for(lane_count, [&](uint64_t begin, uint64_t end) {
        std::vector<double> values(lane_size), results(lane_size), scales(lane_size), other(lane_size);
        std::vector<uint32_t> outer(rank);
        for (uint64_t lane = begin; lane < end; ++lane) {
            unravel_index(lane, outer_sizes, outer.data());
            uint64_t base = 0;
            for (size_t d = 0; d < outer_sizes.size(); ++d) base += uint64_t(outer[d]) * outer_strides[d];
            for (uint64_t m = 0; m < lane_size; ++m) values[m] = input.get_as_double(base + member_offsets[m]);
            lane_function(values, results, scales);
            if (exact && lane_alternative) {
                lane_alternative(values, other, scales);
                if (other != results) {
                    auto alt = std::make_shared<LaneAlternative>();
                    for (uint64_t m = 0; m < lane_size; ++m) alt->members.push_back(base + member_offsets[m]);
                    alt->values = other;
                    for (uint64_t i : alt->members) (*lane_others)[i] = alt;
                }
                lane_function(values, results, scales);  // `scales` again: the alternative's were written over it
            }
            for (uint64_t m = 0; m < lane_size; ++m) {
                const uint64_t i = base + member_offsets[m];
                store(output, i, results[m]);
                if (!exact) continue;
                Band band;
                band.add(results[m], scales[m] * model_scale);
                fill_exact(*exact, i, results[m], band, output.data_type(), (*others)[i]);
            }
        }
    }, std::max<uint64_t>(1, 4096 / std::max<uint64_t>(1, lane_size)));
    if (exact) {
        set_also_accepts(*exact, std::move(others), output.desc());
        add_lane_alternatives(*exact, std::move(lane_others), output.desc());
    }
    return Status::ok();
}

}  // namespace

Tolerance tolerance_of(const ElementWiseDesc& desc) {
    const FunctionMath& math = *desc.function->math;
    if (uses_integer_path(desc))
        return {.bitwise = true, .reason = "integer arithmetic, exact (wrapping in the output type where it overflows)"};
    Tolerance t;
    t.error_bound = true;
    t.unit_roundoff = kUnitRoundoff;
    t.reason = std::string(math.bound_source);
    if (desc.scale_bias) t.reason += "; ScaleBias rounded in float32";
    if (desc.fused_activation) t.reason += "; then " + std::string(desc.fused_activation->function->name);
    // The float32 result's conversion to FLOAT16 may round toward zero (Direct3D's float-to-float conversion rule;
    // DirectML 1.15.4 on lavapipe does, results/directml_element_wise_2026-11-29.txt).
    if (desc.output.data_type == DataType::kFloat16) {
        t.narrowing_toward_zero = true;
        t.reason += "; FLOAT16 output rounded to nearest or toward zero (D3D conversion rules)";
    }
    return t;
}

}  // namespace dmltool::ops::element_wise
