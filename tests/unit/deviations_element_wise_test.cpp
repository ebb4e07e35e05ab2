// The element-wise family's semantics deviation entries of DirectML 1.15.4 (ops/element_wise/engine.h, kModel*;
// results/directml_element_wise_2026-11-29.txt, section 8): DirectML's measured outputs on the probes deviate, named
// by their entry; the registry off, they fail; planted errors beside them (or the model's behaviour where the model
// does not speak) still fail.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "deviations_testing.h"

namespace dmltool {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

json values_of(const std::vector<double>& v) {
    json out = json::array();
    for (double x : v) {
        if (std::isnan(x)) out.push_back("nan");
        else if (std::isinf(x)) out.push_back(x > 0 ? "inf" : "-inf");
        else out.push_back(x);
    }
    return out;
}

json tensor(const std::string& type, size_t n) { return {{"DataType", type}, {"Sizes", {1, 1, 1, n}}}; }

json unary(const std::string& name, const std::string& op, const std::string& type, const std::vector<double>& x) {
    return {{"name", name},
            {"operator",
             {{"type", "DML_OPERATOR_" + op},
              {"desc", {{"InputTensor", tensor(type, x.size())}, {"OutputTensor", tensor(type, x.size())}}}}},
            {"inputs", {{"InputTensor", {{"values", values_of(x)}}}}}};
}

json binary(const std::string& name, const std::string& op, const std::string& type, const std::vector<double>& a,
            const std::vector<double>& b) {
    return {{"name", name},
            {"operator",
             {{"type", "DML_OPERATOR_" + op},
              {"desc",
               {{"ATensor", tensor(type, a.size())},
                {"BTensor", tensor(type, a.size())},
                {"OutputTensor", tensor(type, a.size())}}}}},
            {"inputs", {{"ATensor", {{"values", values_of(a)}}}, {"BTensor", {{"values", values_of(b)}}}}}};
}

// Makes `b`'s output `got` (DirectML's measured values, or a planted variant).
void return_values(ModelBackend& b, const std::vector<double>& got) {
    b.plant = [got](std::vector<HostTensor>& out) {
        for (size_t i = 0; i < got.size(); ++i) out[0].set_from_double(i, got[i]);
    };
}

class ElementWiseDeviationsTest : public DeviationsTest {
protected:
    // The status of `c` with DirectML giving `got`, with the shipped registry (and FAILED without one, checked
    // whenever the registry explains it).
    CaseStatus status(const json& c, const std::vector<double>& got, const std::string& id = "") {
        ModelBackend b;
        return_values(b, got);
        CaseResult r = run(c, b, &shipped_);
        if (r.status == CaseStatus::kDeviates) {
            EXPECT_TRUE(has_id(r.deviations, "dml-1.15.4/" + id)) << r.reason;
            EXPECT_TRUE(has_id(r.predicted_deviations, "dml-1.15.4/" + id)) << "not predicted";
            EXPECT_EQ(run(c, b, nullptr).status, CaseStatus::kFailed);
        }
        return r.status;
    }
};

TEST_F(ElementWiseDeviationsTest, NegateOfNarrowIntegersSaturates) {
    const std::vector<double> x = {-128, -127, 0, 127, 5};
    EXPECT_EQ(status(unary("n8", "ELEMENT_WISE_NEGATE", "INT8", x), {127, 127, 0, -127, -5}, "negate-narrow-integers-saturate"),
              CaseStatus::kDeviates);
    EXPECT_EQ(status(unary("n8/planted", "ELEMENT_WISE_NEGATE", "INT8", x), {127, 127, 0, -127, -4}),
              CaseStatus::kFailed);
    EXPECT_EQ(status(unary("n8/zero", "ELEMENT_WISE_NEGATE", "INT8", x), {0, 127, 0, -127, -5}), CaseStatus::kFailed);
    EXPECT_EQ(status(unary("n16", "ELEMENT_WISE_NEGATE", "INT16", {-32768, 3}), {32767, -3}, "negate-narrow-integers-saturate"),
              CaseStatus::kDeviates);
    EXPECT_EQ(status(unary("abs8", "ELEMENT_WISE_ABS", "INT8", {-128, -3, 5}), {127, 3, 5}, "abs-narrow-integers-saturate"),
              CaseStatus::kDeviates);
    EXPECT_EQ(status(unary("abs8/planted", "ELEMENT_WISE_ABS", "INT8", {-128, -3, 5}), {127, -3, 5}), CaseStatus::kFailed);
    // INT32 wraps in DirectML (the contract): a saturating INT32 NEGATE is not what was measured.
    EXPECT_EQ(status(unary("n32", "ELEMENT_WISE_NEGATE", "INT32", {-2147483648.0, 3}), {2147483647.0, -3}),
              CaseStatus::kFailed);
}

TEST_F(ElementWiseDeviationsTest, Float16SumJustBeyondTheLargestHalfOverflows) {
    const std::vector<double> a = {65504, 65504, 65504, -65504, 65504, 1};
    const std::vector<double> b = {0.00390625, 8, 15.98, -8, -0.5, 0.5};
    const std::vector<double> measured = {kInf, kInf, kInf, -kInf, 65504, 1.5};
    EXPECT_EQ(status(binary("add", "ELEMENT_WISE_ADD", "FLOAT16", a, b), measured, "add-float16-overflows-early"),
              CaseStatus::kDeviates);
    EXPECT_EQ(status(binary("add1", "ELEMENT_WISE_ADD1", "FLOAT16", a, b), measured, "add1-float16-overflows-early"),
              CaseStatus::kDeviates);
    // SUBTRACT: a - (-b).
    std::vector<double> minus_b;
    for (double v : b) minus_b.push_back(-v);
    EXPECT_EQ(status(binary("sub", "ELEMENT_WISE_SUBTRACT", "FLOAT16", a, minus_b), measured,
                     "subtract-float16-overflows-early"),
              CaseStatus::kDeviates);
    // An infinity where the float32 result is not beyond 65504 (65503.5), or the wrong sign, or a sum off: fails.
    EXPECT_EQ(status(binary("add/planted1", "ELEMENT_WISE_ADD", "FLOAT16", a, b), {kInf, kInf, kInf, -kInf, kInf, 1.5}),
              CaseStatus::kFailed);
    EXPECT_EQ(status(binary("add/planted2", "ELEMENT_WISE_ADD", "FLOAT16", a, b), {kInf, kInf, kInf, kInf, 65504, 1.5}),
              CaseStatus::kFailed);
    EXPECT_EQ(status(binary("add/planted3", "ELEMENT_WISE_ADD", "FLOAT16", a, b),
                     {kInf, kInf, kInf, -kInf, 65504, 1.5009765625}),
              CaseStatus::kFailed);
    // MULTIPLY has no such entry (DirectML gives 65504 there): an infinity for 65510.55 fails.
    EXPECT_EQ(status(binary("mul", "ELEMENT_WISE_MULTIPLY", "FLOAT16", {65504}, {1.0001}), {kInf}), CaseStatus::kFailed);
}

TEST_F(ElementWiseDeviationsTest, LogOfAFloat32DenormalReadsItAsNormal) {
    const std::vector<double> x = {0x1p-149, 0x1p-127, 0.75 * 0x1p-126, 0x1p-126, 1};
    const std::vector<double> measured = {-88.0296936, -87.6242294, -87.4700775, -87.3365448, 0};
    EXPECT_EQ(status(unary("log", "ELEMENT_WISE_LOG", "FLOAT32", x), measured, "log-denormal-as-normal"),
              CaseStatus::kDeviates);
    // Flushed (-inf) is the contract's own; a value between the exact and the model's is not either.
    EXPECT_EQ(status(unary("log/flushed", "ELEMENT_WISE_LOG", "FLOAT32", x), {-kInf, -kInf, -kInf, -87.3365448, 0}),
              CaseStatus::kPassed);
    EXPECT_EQ(status(unary("log/planted", "ELEMENT_WISE_LOG", "FLOAT32", x), {-95, -87.6242294, -87.4700775, -87.3365448, 0}),
              CaseStatus::kFailed);
    EXPECT_EQ(status(unary("log/planted2", "ELEMENT_WISE_LOG", "FLOAT32", x),
                     {-88.0296936, -87.6242294, -87.4700775, -87.3365448, 1e-4}),
              CaseStatus::kFailed);
}

TEST_F(ElementWiseDeviationsTest, AtanOfNanGivesTheAngleOfARatioOfOne) {
    const double coarse_quarter_pi = 0.785409629;  // DirectML's atan(1), 1.15e-5 off (the coarse approximation)
    EXPECT_EQ(status(unary("atan", "ELEMENT_WISE_ATAN", "FLOAT32", {kNan, 1, 0}), {coarse_quarter_pi, coarse_quarter_pi, 0},
                     "atan-coarse-nan-as-one"),
              CaseStatus::kDeviates);
    EXPECT_EQ(status(unary("atan/planted", "ELEMENT_WISE_ATAN", "FLOAT32", {kNan, 1, 0}), {0.5, coarse_quarter_pi, 0}),
              CaseStatus::kFailed);
    EXPECT_EQ(status(unary("atan/planted2", "ELEMENT_WISE_ATAN", "FLOAT32", {kNan, 1, 0}),
                     {coarse_quarter_pi, coarse_quarter_pi, 1e-3}),
              CaseStatus::kFailed);
    const std::vector<double> y = {kNan, kNan, 1, -5, 0, kNan};
    const std::vector<double> x = {1, -1, kNan, kNan, kNan, kNan};
    const std::vector<double> measured = {coarse_quarter_pi, -2.35618305, coarse_quarter_pi, coarse_quarter_pi, kNan, kNan};
    EXPECT_EQ(status(binary("atan2", "ELEMENT_WISE_ATAN_YX", "FLOAT32", y, x), measured, "atan-yx-coarse-nan-as-one"),
              CaseStatus::kDeviates);
    // The measured quadrants, not others: (NaN, -1) as +3 pi/4, and (0, NaN) as pi/4, fail.
    std::vector<double> planted = measured;
    planted[1] = 2.35618305;
    EXPECT_EQ(status(binary("atan2/planted", "ELEMENT_WISE_ATAN_YX", "FLOAT32", y, x), planted), CaseStatus::kFailed);
    planted = measured;
    planted[4] = coarse_quarter_pi;
    EXPECT_EQ(status(binary("atan2/planted2", "ELEMENT_WISE_ATAN_YX", "FLOAT32", y, x), planted), CaseStatus::kFailed);
}

TEST_F(ElementWiseDeviationsTest, LogSoftmaxOfANanSumTakesTheFloor) {
    json c = unary("lsm", "ACTIVATION_LOG_SOFTMAX", "FLOAT32", {kNan, 1, 2, 3, kInf, 1, 2, 3, 0, 1, 2, 3});
    for (const char* member : {"InputTensor", "OutputTensor"}) c["operator"]["desc"][member]["Sizes"] = {1, 1, 3, 4};
    const double l = -3.4401896985;  // the third lane's exact ln-softmax of 0: -(3 + ln(1 + e^-1 + e^-2 + e^-3))
    const std::vector<double> measured = {kNan, 44.0517006, 45.0517006, 46.0517006, kNan, -kInf, -kInf, -kInf,
                                          l, l + 1, l + 2, l + 3};
    EXPECT_EQ(status(c, measured, "log-softmax-sum-floor"), CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[1] = 44.06;
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
    planted = measured;
    planted[5] = -100;
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
    planted = measured;
    planted[8] = l * (1 + 1e-4);
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
}

TEST_F(ElementWiseDeviationsTest, AsinhAsItsFormulaInFloat32) {
    const std::vector<double> x = {-1097, -1e4, -100, -1e20, 1e20, 0.5, 2};
    const std::vector<double> measured = {-7.62461901, -kInf, -5.29886675, kInf, kInf, std::asinh(0.5), std::asinh(2.0)};
    EXPECT_EQ(status(unary("asinh", "ELEMENT_WISE_ASINH", "FLOAT32", x), measured, "asinh-float32-formula"),
              CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[0] = -7.0;  // not the formula's value with any of its square roots
    EXPECT_EQ(status(unary("asinh/planted", "ELEMENT_WISE_ASINH", "FLOAT32", x), planted), CaseStatus::kFailed);
    planted = measured;
    planted[5] *= 1 + 1e-3;
    EXPECT_EQ(status(unary("asinh/planted2", "ELEMENT_WISE_ASINH", "FLOAT32", x), planted), CaseStatus::kFailed);
    planted = measured;
    planted[3] = -kInf;
    EXPECT_EQ(status(unary("asinh/planted3", "ELEMENT_WISE_ASINH", "FLOAT32", x), planted), CaseStatus::kFailed);
}

json pow_case(const std::string& name, const std::string& type, const std::vector<double>& x, const std::vector<double>& e) {
    json c = binary(name, "ELEMENT_WISE_POW", type, x, e);
    json& desc = c["operator"]["desc"];
    desc["InputTensor"] = desc["ATensor"], desc["ExponentTensor"] = desc["BTensor"];
    desc.erase("ATensor"), desc.erase("BTensor");
    c["inputs"] = {{"InputTensor", c["inputs"]["ATensor"]}, {"ExponentTensor", c["inputs"]["BTensor"]}};
    return c;
}

TEST_F(ElementWiseDeviationsTest, PowOfNarrowIntegersSaturatesFrom32Bits) {
    EXPECT_EQ(status(pow_case("u8", "UINT8", {177, 2, 3, 16, 255, 0}, {2, 7, 5, 2, 1, 0}), {255, 128, 243, 255, 255, 1},
                     "pow-narrow-integers-saturate"),
              CaseStatus::kDeviates);
    EXPECT_EQ(status(pow_case("i16", "INT16", {-200, -182, 3}, {5, 2, 2}), {32767, 32767, 9}, "pow-narrow-integers-saturate"),
              CaseStatus::kDeviates);
    // The true value saturated (-32768 for (-200)^5) is not what 32-bit arithmetic gives; nor is 8 for 3^2.
    EXPECT_EQ(status(pow_case("i16/planted", "INT16", {-200, -182, 3}, {5, 2, 2}), {-32768, 32767, 9}), CaseStatus::kFailed);
    EXPECT_EQ(status(pow_case("i16/planted2", "INT16", {-200, -182, 3}, {5, 2, 2}), {32767, 32767, 8}), CaseStatus::kFailed);
}

TEST_F(ElementWiseDeviationsTest, PowOfFloatsAsExp2OfTheLog) {
    const std::vector<double> x = {-kInf, kInf, 0, 0, -2, -0.5, 2, -8};
    const std::vector<double> e = {0, 0, -2.5, -2, kInf, -kInf, 0.5, 3};
    const std::vector<double> measured = {kNan, kNan, 0, 0, kNan, kNan, std::sqrt(2.0), -512};
    EXPECT_EQ(status(pow_case("f32", "FLOAT32", x, e), measured, "pow-exp2-log2"), CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[2] = 1;  // neither IEEE's inf nor DirectML's 0
    EXPECT_EQ(status(pow_case("f32/planted", "FLOAT32", x, e), planted), CaseStatus::kFailed);
    planted = measured;
    planted[7] = 512;  // the sign of an odd exponent lost
    EXPECT_EQ(status(pow_case("f32/planted2", "FLOAT32", x, e), planted), CaseStatus::kFailed);
    json c = unary("cpow", "ELEMENT_WISE_CONSTANT_POW", "FLOAT32", {-kInf, kInf, 0, -2, kNan, 3});
    c["operator"]["desc"]["Exponent"] = 0.0;
    EXPECT_EQ(status(c, {kNan, kNan, 0, 1, kNan, 1}, "constant-pow-exp2-log2"), CaseStatus::kDeviates);
    EXPECT_EQ(status(c, {kNan, kNan, 0, 0, kNan, 1}), CaseStatus::kFailed);
}

// A POW case with the types of each tensor, and a ScaleBias when `scale` is given.
json pow_typed(const std::string& name, const std::string& x_type, const std::string& e_type, const std::vector<double>& x,
               const std::vector<double>& e, std::optional<std::pair<double, double>> scale = std::nullopt) {
    json c = pow_case(name, x_type, x, e);
    c["operator"]["desc"]["ExponentTensor"]["DataType"] = e_type;
    if (scale) c["operator"]["desc"]["ScaleBias"] = {{"Scale", scale->first}, {"Bias", scale->second}};
    return c;
}

// DirectML's ScaleBias on POW's exponent, in float32, then converted to an integer exponent tensor's type by
// truncation (unsigned: negatives to 0, no 8-bit saturation): probes c_i8_sb, c_u8_sb_pos, c_u8_sb_neg,
// c_f16in_i8_sb (results/directml_element_wise_2026-11-30_probes/pow_probes.json); both POW entries with a scaled
// exponent read it so (pow-scale-bias-on-exponent, listed first, names these cases). The exponent scaled without
// truncation (both models before 2026-11-30), or saturated to UINT8's 255, fails.
TEST_F(ElementWiseDeviationsTest, PowExponentScaleBiasTruncatesToAnIntegerExponentType) {
    const std::vector<double> e = {1, 2, 3, -1, -2, -3, 0, 5};
    const std::vector<double> measured = {3.25, 34.3281326, 111.566399, 1 / 3.25, 1 / (3.25 * 3.25), 0.00896327291, 1,
                                          3829.86597};
    const json i8 = pow_typed("i8sb", "FLOAT32", "INT8", std::vector<double>(8, 2.0), e, std::pair{1.5, 0.25});
    EXPECT_EQ(status(i8, measured, "pow-scale-bias-on-exponent"), CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[7] = std::pow(3.25, 7.75);  // the scaled exponent not truncated
    EXPECT_EQ(status(i8, planted), CaseStatus::kFailed);
    const json h = pow_typed("f16sb", "FLOAT16", "INT8", std::vector<double>(8, 2.0), e, std::pair{1.5, 0.25});
    EXPECT_EQ(status(h, {3.25, 34.3125, 111.5625, 0.307617, 0.0946655, 0.00895690918, 1, 3828}, "pow-scale-bias-on-exponent"),
              CaseStatus::kDeviates);
    const std::vector<double> x = std::vector<double>(5, 0.25390625), u = {100, 127, 128, 200, 255};
    const std::vector<double> u_measured = {4.74185324, 7.21861887, 7.33185053, 22.4851742, 52.9258118};
    const json u8 = pow_typed("u8sb", "FLOAT32", "UINT8", x, u, std::pair{2.0, 0.5});
    EXPECT_EQ(status(u8, u_measured, "pow-scale-bias-on-exponent"), CaseStatus::kDeviates);
    planted = u_measured;
    planted[4] = std::pow(1.0078125, 255);  // 510 saturated to UINT8's 255
    EXPECT_EQ(status(u8, planted), CaseStatus::kFailed);
    const json neg = pow_typed("u8neg", "FLOAT32", "UINT8", std::vector<double>(5, -0.75), {0, 1, 2, 100, 200},
                               std::pair{-2.0, 0.5});
    EXPECT_EQ(status(neg, {1, 1, 1, 1, 1}, "pow-scale-bias-on-exponent"), CaseStatus::kDeviates);
    EXPECT_EQ(status(neg, {1, 0.5, 1, 1, 1}), CaseStatus::kFailed);  // -1.5 truncated to -1, not to UINT8's 0
}

// FLOAT32 with an 8- or 16-bit exponent tensor: results beyond 65504 are infinities (probes a_range_f32_*). With a
// FLOAT32 or INT32 exponent DirectML keeps float32's range: the same infinities there fail, as does an infinity for
// 65504 itself.
TEST_F(ElementWiseDeviationsTest, PowOfFloat32WithANarrowExponentOverflowsBeyond65504) {
    const std::vector<double> x = {65504, 65505, 65519, 65520, 65536, -70000, 1e6, 3e38}, e(8, 1.0);
    const std::vector<double> measured = {65504, kInf, kInf, kInf, kInf, -kInf, kInf, kInf};
    for (const char* type : {"INT8", "INT16", "UINT8", "UINT16", "FLOAT16"})
        EXPECT_EQ(status(pow_typed(std::string("range/") + type, "FLOAT32", type, x, e), measured, "pow-exp2-log2"),
                  CaseStatus::kDeviates)
            << type;
    EXPECT_EQ(status(pow_typed("range/f32", "FLOAT32", "FLOAT32", x, e), measured), CaseStatus::kFailed);
    EXPECT_EQ(status(pow_typed("range/i32", "FLOAT32", "INT32", x, e), measured), CaseStatus::kFailed);
    // 2^15 stays finite, 2^16 and 2^17 do not; an infinity for 2^15 fails.
    const json two = pow_typed("two", "FLOAT32", "INT16", {2, 2, 2, 1.1}, {15, 16, 17, 3});
    EXPECT_EQ(status(two, {32768, kInf, kInf, 1.331}, "pow-exp2-log2"), CaseStatus::kDeviates);
    EXPECT_EQ(status(two, {kInf, kInf, kInf, 1.331}), CaseStatus::kFailed);
}

// An integral float exponent's parity is its saturating conversion to int32's: (-1)^y = -1 from 2^31 on, 1 from
// -2^31 down (probes b_parity_f32, b_cpow_*). The IEEE parities (every such float even) where DirectML gives -1, or -1
// for -2^31, fail.
TEST_F(ElementWiseDeviationsTest, PowParityOfExponentsBeyondInt32) {
    const std::vector<double> e = {2147483520, 2147483648.0, 4294967296.0, -2147483648.0, -4294967296.0, 3e38, -3e38, 3};
    const std::vector<double> measured = {1, -1, -1, 1, 1, -1, 1, -8};
    const json c = pow_case("parity", "FLOAT32", {-1, -1, -1, -1, -1, -1, -1, -2}, e);
    EXPECT_EQ(status(c, measured, "pow-exp2-log2"), CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[3] = -1;
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
    planted = measured;
    planted[1] = 0;  // between the model's -1 and IEEE's (powr's) +1: the model's band holds no such value
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
    json cpow = unary("cpow/parity", "ELEMENT_WISE_CONSTANT_POW", "FLOAT32", {-1, -2, -0.5, 2, -kInf, 1});
    cpow["operator"]["desc"]["Exponent"] = 4294967296.0;
    EXPECT_EQ(status(cpow, {-1, -kInf, -0.0, kInf, -kInf, 1}, "constant-pow-exp2-log2"), CaseStatus::kDeviates);
    EXPECT_EQ(status(cpow, {-1, kInf, -0.0, kInf, -kInf, 1}), CaseStatus::kFailed);
}

// log2 of a float32 denormal base read as a normal number of exponent -127 (probes d_denormal_f32, d_denormal_cpow:
// (2^-149)^0.01 = 2^-1.27); a normal base read so, or a denormal off by 1e-3, fails.
TEST_F(ElementWiseDeviationsTest, PowOfAFloat32DenormalBaseReadsItAsNormal) {
    const std::vector<double> x = {0x1p-149, 0x1p-140, 0x1p-127, 0.75 * 0x1p-126, 0x1p-126, 1};
    const std::vector<double> measured = {0.414659768, 0.414660066, 0.416344464, 0.416986793, std::exp2(-1.26), 1};
    const json c = pow_case("denormal", "FLOAT32", x, std::vector<double>(6, 0.01));
    EXPECT_EQ(status(c, measured, "pow-exp2-log2"), CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[4] = 0.414659768;  // 2^-126 is normal
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
    planted = measured;
    planted[1] *= 1.001;
    EXPECT_EQ(status(c, planted), CaseStatus::kFailed);
    json cpow = unary("cpow/denormal", "ELEMENT_WISE_CONSTANT_POW", "FLOAT32", x);
    cpow["operator"]["desc"]["Exponent"] = 0.01;
    EXPECT_EQ(status(cpow, measured, "constant-pow-exp2-log2"), CaseStatus::kDeviates);
}

// Integers with a float exponent: exp2(y log2 |x|) then saturated (probes e_u8_f32, h_zero_u8_f32, e_i16_f32):
// 0^-1 = 0, (-3)^1e10 = -32768. The exact +inf's saturation for one element beside the model's others, 1 for 0^-1,
// or one below the truncated 124.99998, fails.
TEST_F(ElementWiseDeviationsTest, PowOfIntegersThroughExp2Log2) {
    const json u8 = pow_typed("u8f", "UINT8", "FLOAT32", {0, 0, 2, 3, 4, 5}, {1, -1, 0, 1, 2, 3});
    EXPECT_EQ(status(u8, {0, 0, 1, 3, 16, 124}, "pow-integers-exp2-log2"), CaseStatus::kDeviates);
    EXPECT_EQ(status(u8, {0, 1, 1, 3, 16, 124}), CaseStatus::kFailed);
    EXPECT_EQ(status(u8, {0, 0, 1, 3, 16, 123}), CaseStatus::kFailed);
    const json i16 = pow_typed("i16f", "INT16", "FLOAT32", {-22859, -3, 0, -1, -1, -2, 181, 182},
                               {7e29, 1e10, -5, 3e38, -3e38, 15, 2, 2});
    const std::vector<double> measured = {-32768, -32768, 0, -1, 1, -32768, 32761, 32767};
    EXPECT_EQ(status(i16, measured, "pow-integers-exp2-log2"), CaseStatus::kDeviates);
    std::vector<double> planted = measured;
    planted[6] = 32758;
    EXPECT_EQ(status(i16, planted), CaseStatus::kFailed);
}

}  // namespace
}  // namespace dmltool
