#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/compare.h"

namespace dmltool {
namespace {

constexpr uint64_t kNanDistance = std::numeric_limits<uint64_t>::max();

HostTensor tensor(DataType type, Dims sizes, const std::vector<double>& values) {
    TensorDesc d;
    d.data_type = type;
    d.sizes = std::move(sizes);
    EXPECT_TRUE(validate_tensor_desc(d, TensorRole::kOutput, false).is_ok());
    HostTensor t(d);
    EXPECT_EQ(values.size(), t.element_count());
    for (uint64_t i = 0; i < t.element_count(); ++i) t.set_from_double(i, values[i]);
    return t;
}

HostTensor f32(const std::vector<double>& values) { return tensor(DataType::kFloat32, {uint32_t(values.size())}, values); }

Tolerance bitwise() { return Tolerance{true, 0, 0, "data movement"}; }
Tolerance ulp_abs(uint64_t ulp, double abs) { return Tolerance{false, ulp, abs, "test"}; }

uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

TEST(UlpDistance, Floats) {
    EXPECT_EQ(ulp_distance(DataType::kFloat32, bits_of(1.0f), bits_of(std::nextafter(1.0f, 2.0f))), 1u);
    EXPECT_EQ(ulp_distance(DataType::kFloat32, bits_of(0.0f), bits_of(-0.0f)), 0u);
    // Across zero: the smallest positive and negative subnormals are 2 apart.
    EXPECT_EQ(ulp_distance(DataType::kFloat16, 0x0001, 0x8001), 2u);
    EXPECT_EQ(ulp_distance(DataType::kFloat16, 0x3c00, 0x3c02), 2u);
    EXPECT_EQ(ulp_distance(DataType::kFloat64, 0x3ff0000000000000ull, 0x3ff0000000000003ull), 3u);
    EXPECT_EQ(ulp_distance(DataType::kFloat32, 0x7fc00000u, bits_of(1.0f)), kNanDistance);
    EXPECT_EQ(ulp_distance(DataType::kFloat32, 0x7fc00000u, 0x7fc00001u), 0u);  // NaN vs NaN: no distance
}

TEST(UlpDistance, Integers) {
    EXPECT_EQ(ulp_distance(DataType::kInt8, 0x80, 0x7f), 255u);  // -128 vs 127
    EXPECT_EQ(ulp_distance(DataType::kUint8, 0x80, 0x7f), 1u);
    EXPECT_EQ(ulp_distance(DataType::kInt16, 0xffff, 0x0001), 2u);  // -1 vs 1
    EXPECT_EQ(ulp_distance(DataType::kInt64, 0x8000000000000000ull, 0x7fffffffffffffffull), kNanDistance);
    EXPECT_EQ(ulp_distance(DataType::kUint64, 0, ~0ull), ~0ull);
    EXPECT_EQ(ulp_distance(DataType::kInt64, ~0ull, 1), 2u);  // -1 vs 1
}

TEST(DescribeTolerance, Formats) {
    EXPECT_EQ(describe_tolerance(bitwise()), "bit-exact");
    EXPECT_EQ(describe_tolerance(ulp_abs(4, 1e-6)), "ulp <= 4 or |diff| <= 1e-06");
}

TEST(FormatMismatch, ShowsCoordinatesValuesAndErrors) {
    Mismatch m{5, {0, 1}, "1.5 (0x3fc00000)", "1.75 (0x3fe00000)", 0.25, 2097152};
    EXPECT_EQ(format_mismatch(m), "[0,1] expected 1.5 (0x3fc00000), got 1.75 (0x3fe00000): |diff| 0.25, 2097152 ulp");
    CompareResult sides;
    sides.expected_side = "expected (file)";
    sides.got_side = "directml";
    EXPECT_EQ(format_mismatch(m, sides),
              "[0,1] expected (file) 1.5 (0x3fc00000), directml 1.75 (0x3fe00000): |diff| 0.25, 2097152 ulp");
    m.ulp_error = kNanDistance;
    EXPECT_EQ(format_mismatch(m), "[0,1] expected 1.5 (0x3fc00000), got 1.75 (0x3fe00000): NaN mismatch");
}

TEST(CompareTensors, IdenticalPasses) {
    CompareResult r = compare_tensors(f32({1, 2, 3}), f32({1, 2, 3}), bitwise());
    EXPECT_EQ(r.verdict, Verdict::kPassed);
    EXPECT_EQ(r.element_count, 3u);
    EXPECT_EQ(r.mismatch_count, 0u);
    EXPECT_TRUE(r.reason.empty());
}

TEST(CompareTensors, BitwiseRejectsSignedZeroAndUlpAcceptsIt) {
    const HostTensor expected = f32({0.0, 1, 2});
    const HostTensor got = f32({-0.0, 1, 2});
    CompareResult exact = compare_tensors(expected, got, bitwise());
    EXPECT_EQ(exact.verdict, Verdict::kFailed);
    ASSERT_EQ(exact.mismatches.size(), 1u);
    EXPECT_EQ(exact.mismatches[0].expected, "0 (0x00000000)");
    EXPECT_EQ(exact.mismatches[0].got, "-0 (0x80000000)");
    EXPECT_EQ(exact.reason, "1 of 3 elements outside tolerance (bit-exact)");
    EXPECT_EQ(compare_tensors(expected, got, ulp_abs(0, 0)).verdict, Verdict::kPassed);
}

TEST(CompareTensors, UlpOrAbs) {
    const float one_up = std::nextafter(1.0f, 2.0f);
    const HostTensor expected = f32({1.0, 2.0, 3.0});
    const HostTensor got = f32({one_up, 2.0, 3.5});
    // ulp 1 covers the first element, abs 0.5 the third: an element passes when EITHER holds.
    EXPECT_EQ(compare_tensors(expected, got, ulp_abs(1, 0.5)).verdict, Verdict::kPassed);
    CompareResult no_abs = compare_tensors(expected, got, ulp_abs(1, 0.4));
    EXPECT_EQ(no_abs.verdict, Verdict::kFailed);
    EXPECT_EQ(no_abs.mismatch_count, 1u);
    EXPECT_EQ(no_abs.mismatches.at(0).index, 2u);
    EXPECT_EQ(no_abs.mismatches[0].abs_error, 0.5);
    EXPECT_EQ(no_abs.mismatches[0].ulp_error, 0x200000u);  // in [2, 4) a float ulp is 2^-22: 0.5 is 2^21 ulps
    CompareResult no_ulp = compare_tensors(expected, got, ulp_abs(0, 0.5));
    EXPECT_EQ(no_ulp.verdict, Verdict::kPassed);  // 1 ulp is also < 0.5 absolute
    CompareResult strict = compare_tensors(expected, got, ulp_abs(0, 0));
    EXPECT_EQ(strict.mismatch_count, 2u);
    EXPECT_EQ(strict.max_ulp_error, 0x200000u);
    EXPECT_EQ(strict.max_abs_error, 0.5);
    EXPECT_EQ(strict.reason, "2 of 3 elements outside tolerance (ulp <= 0 or |diff| <= 0)");
}

TEST(CompareTensors, IntegerAbsTolerance) {
    const HostTensor expected = tensor(DataType::kUint8, {3}, {10, 20, 30});
    EXPECT_EQ(compare_tensors(expected, tensor(DataType::kUint8, {3}, {11, 19, 30}), ulp_abs(0, 1)).verdict,
              Verdict::kPassed);
    CompareResult r = compare_tensors(expected, tensor(DataType::kUint8, {3}, {12, 20, 30}), ulp_abs(0, 1));
    EXPECT_EQ(r.verdict, Verdict::kFailed);
    EXPECT_EQ(r.mismatches.at(0).expected, "10");
    EXPECT_EQ(r.mismatches[0].got, "12");
    EXPECT_EQ(r.mismatches[0].ulp_error, 2u);
}

TEST(CompareTensors, NanPolicy) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // NaN where NaN is expected passes (payloads may differ), unless bit-exact is required.
    HostTensor expected = f32({nan, 1, 2});
    HostTensor other_payload = f32({0, 1, 2});
    other_payload.set<uint32_t>(0, 0x7fc00001u);
    EXPECT_EQ(compare_tensors(expected, other_payload, ulp_abs(0, 0)).verdict, Verdict::kPassed);
    EXPECT_EQ(compare_tensors(expected, other_payload, bitwise()).verdict, Verdict::kFailed);
    // NaN against a number never passes, whatever the tolerance.
    CompareResult r = compare_tensors(expected, f32({1, 1, 2}), ulp_abs(kNanDistance - 1, 1e300));
    EXPECT_EQ(r.verdict, Verdict::kFailed);
    ASSERT_EQ(r.mismatches.size(), 1u);
    EXPECT_EQ(r.mismatches[0].ulp_error, kNanDistance);
    EXPECT_NE(format_mismatch(r.mismatches[0]).find(": NaN mismatch"), std::string::npos);
    EXPECT_EQ(r.max_ulp_error, 0u);  // NaN mismatches do not pollute the error statistics
    CompareResult reverse = compare_tensors(f32({1, 1, 2}), expected, ulp_abs(kNanDistance - 1, 1e300));
    EXPECT_EQ(reverse.verdict, Verdict::kFailed);
}

TEST(CompareTensors, MismatchCoordinatesAndLimit) {
    const HostTensor expected = tensor(DataType::kInt32, {2, 3}, {0, 1, 2, 3, 4, 5});
    const HostTensor got = tensor(DataType::kInt32, {2, 3}, {0, 9, 2, 9, 9, 9});
    CompareResult r = compare_tensors(expected, got, bitwise(), 2);
    EXPECT_EQ(r.verdict, Verdict::kFailed);
    EXPECT_EQ(r.mismatch_count, 4u);
    ASSERT_EQ(r.mismatches.size(), 2u);  // only the first few are kept, in index order
    EXPECT_EQ(r.mismatches[0].index, 1u);
    EXPECT_EQ(r.mismatches[0].coordinates, (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(r.mismatches[1].index, 3u);
    EXPECT_EQ(r.mismatches[1].coordinates, (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(r.reason, "4 of 6 elements outside tolerance (bit-exact)");
}

TEST(CompareTensors, ShapeOrTypeDiffers) {
    CompareResult shape = compare_tensors(f32({1, 2}), f32({1, 2, 3}), bitwise());
    EXPECT_EQ(shape.verdict, Verdict::kFailed);
    EXPECT_EQ(shape.reason, "shape or type differs: expected FLOAT32 {2}, got FLOAT32 {3}");
    CompareResult type = compare_tensors(f32({1, 2}), tensor(DataType::kInt32, {2}, {1, 2}), bitwise());
    EXPECT_EQ(type.reason, "shape or type differs: expected FLOAT32 {2}, got INT32 {2}");
}

// Zero trust: a kernel that writes nothing (zeros) must not pass against a non-constant expectation, even
// when every element is within tolerance.
TEST(CompareTensors, ConstantOutputIsMistrusted) {
    CompareResult r = compare_tensors(f32({0, 0, 1e-7}), f32({0, 0, 0}), ulp_abs(0, 1e-6));
    EXPECT_EQ(r.mismatch_count, 0u);
    EXPECT_EQ(r.verdict, Verdict::kMistrusted);
    EXPECT_EQ(r.reason, "output is constant (0 (0x00000000) everywhere) while the expectation is not: a kernel that "
                        "writes nothing would pass");
}

TEST(CompareTensors, ConstantExpectationIsMistrusted) {
    CompareResult r = compare_tensors(f32({2, 2, 2}), f32({2, 2, 2}), bitwise());
    EXPECT_EQ(r.verdict, Verdict::kMistrusted);
    EXPECT_NE(r.reason.find("expected output is constant (2 (0x40000000) everywhere)"), std::string::npos) << r.reason;
}

TEST(CompareTensors, MismatchesWinOverMistrust) {
    CompareResult r = compare_tensors(f32({1, 2, 3}), f32({0, 0, 0}), bitwise());
    EXPECT_EQ(r.verdict, Verdict::kFailed);
    EXPECT_EQ(r.mismatch_count, 3u);
}

TEST(CompareTensors, SingleElementCannotBeMistrusted) {
    EXPECT_EQ(compare_tensors(f32({0}), f32({0}), bitwise()).verdict, Verdict::kPassed);
}

TEST(CompareTensors, Float16Values) {
    const HostTensor expected = tensor(DataType::kFloat16, {2}, {1.0, 2.0});
    HostTensor got = expected;
    got.set<uint16_t>(0, 0x3c01);
    CompareResult r = compare_tensors(expected, got, bitwise());
    ASSERT_EQ(r.mismatches.size(), 1u);
    EXPECT_EQ(r.mismatches[0].expected, "1 (0x3c00)");
    EXPECT_EQ(r.mismatches[0].got, "1.00097656 (0x3c01)");
    EXPECT_EQ(r.mismatches[0].ulp_error, 1u);
    EXPECT_EQ(compare_tensors(expected, got, ulp_abs(1, 0)).verdict, Verdict::kPassed);
}


// ---- the error-bound contract for integer outputs (docs/semantics.md) -------------------------

Tolerance float32_bound() { return Tolerance{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24}; }

// Per element i: the verdict of `got[i]` against exact[i] with a computing error `c` (scale c / (1.01 u), no
// floor), as its own one-element comparison (so each element's verdict is seen, not just the tensor's).
std::vector<bool> integer_verdicts(DataType type, const std::vector<double>& exact, const std::vector<double>& got,
                                   double c, double bound_factor = 1.0) {
    std::vector<bool> passed;
    for (size_t i = 0; i < exact.size(); ++i) {
        const ExactOutput e{{exact[i]}, {c / (1.01 * 0x1p-24)}, 0, {}, {}, {}, {}};
        passed.push_back(compare_to_exact(e, tensor(type, {1}, {got[i]}), float32_bound(), 8, bound_factor).verdict ==
                         Verdict::kPassed);
    }
    return passed;
}

// Tolerance::narrowing_toward_zero: a FLOAT16 output may be the float32 result rounded to nearest or toward zero
// (Direct3D's float-to-float conversion rule), nothing else. 75.046875 is DirectML's ELEMENT_WISE_ADD case on
// lavapipe: it gave 75 (toward zero); the nearest half is 75.0625. One ulp of half there is 0.0625.
TEST(CompareToExact, Float16NarrowingTowardZeroAcceptsOnlyTheZeroSideNeighbour) {
    const double c = 1e-6;
    auto verdicts = [&](bool toward_zero, double exact, const std::vector<double>& got, double bound_factor = 1.0) {
        Tolerance t = float32_bound();
        t.narrowing_toward_zero = toward_zero;
        std::vector<bool> passed;
        for (double g : got) {
            const ExactOutput e{{exact}, {c / (1.01 * 0x1p-24)}, 0, {}, {}, {}, {}};
            passed.push_back(compare_to_exact(e, tensor(DataType::kFloat16, {1}, {g}), t, 8, bound_factor).verdict ==
                             Verdict::kPassed);
        }
        return passed;
    };
    //                                        toward zero, nearest, beyond nearest, beyond toward zero
    const std::vector<double> positive = {75.0, 75.0625, 75.125, 74.9375};
    EXPECT_EQ(verdicts(true, 75.046875, positive), (std::vector<bool>{true, true, false, false}));
    EXPECT_EQ(verdicts(false, 75.046875, positive), (std::vector<bool>{false, true, false, false}));
    const std::vector<double> negative = {-75.0, -75.0625, -75.125, -74.9375};
    EXPECT_EQ(verdicts(true, -75.046875, negative), (std::vector<bool>{true, true, false, false}));
    EXPECT_EQ(verdicts(false, -75.046875, negative), (std::vector<bool>{false, true, false, false}));
    // Just above a half (nearest and toward zero are both 75): the neighbours above and below still fail.
    EXPECT_EQ(verdicts(true, 75.0 + 1e-4, {75.0, 75.0625, 74.9375}), (std::vector<bool>{true, false, false}));
    // FLOAT32 outputs are not narrowed: the flag changes nothing.
    Tolerance t = float32_bound();
    t.narrowing_toward_zero = true;
    const ExactOutput e{{1.0 + 0x1p-23 * 0.75}, {0.0}, 0, {}, {}, {}, {}};
    EXPECT_EQ(compare_to_exact(e, f32({1.0}), t).verdict, Verdict::kFailed);
}

// Any conversion of the blend to an integer passes — the documentation names none; DirectML 1.15.4 and ONNX
// Runtime truncate — and nothing farther: an output must lie between floor(exact - c) and ceil(exact + c).
TEST(CompareToExact, IntegerOutputsAcceptEveryConversionToAnAdjacentInteger) {
    const double c = 1e-5;  // a typical 8-bit blend's computing error
    const std::vector<double> exact = {77.9, 86.7, -3.5, -0.3, 12.5, 101.25};
    const std::vector<bool> all(exact.size(), true);
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {77, 86, -3, 0, 12, 101}, c), all);   // truncation
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {78, 87, -4, 0, 12, 101}, c), all);   // to nearest even
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {78, 87, -3, 0, 13, 101}, c), all);   // half up
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {77, 86, -4, -1, 12, 101}, c), all);  // floor
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {78, 87, -3, 0, 13, 102}, c), all);   // ceil
    // Two away from the truncated value, or beyond the ceiling or floor: fail.
    const std::vector<bool> none(exact.size(), false);
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {79, 88, -5, -2, 14, 103}, c), none);
    EXPECT_EQ(integer_verdicts(DataType::kInt16, exact, {75, 84, -1, 1, 10, 99}, c), none);
    EXPECT_EQ(integer_verdicts(DataType::kInt16, {77.9, 77.9}, {76, 80}, c), (std::vector<bool>{false, false}));
    // The 8-bit types the contract is for, at the ends of their ranges.
    EXPECT_EQ(integer_verdicts(DataType::kUint8, {254.9, 254.9, 0.4, 0.4}, {254, 255, 0, 1}, c), std::vector<bool>(4, true));
    EXPECT_EQ(integer_verdicts(DataType::kUint8, {254.9, 1.4}, {253, 3}, c), (std::vector<bool>{false, false}));
    EXPECT_EQ(integer_verdicts(DataType::kInt8, {-127.6, -127.6, -127.6}, {-127, -128, -126}, c),
              (std::vector<bool>{true, true, false}));
}

// An exact value that is an integer: a float implementation may land just below or above it, so its floor or
// ceiling passes, but only when the computing error reaches across (c > 0); with c = 0 only the value itself.
TEST(CompareToExact, IntegerOutputsAtAnExactInteger) {
    EXPECT_EQ(integer_verdicts(DataType::kInt16, {200, 200, 200, 200, 200}, {199, 200, 201, 198, 202}, 1e-5),
              (std::vector<bool>{true, true, true, false, false}));
    EXPECT_EQ(integer_verdicts(DataType::kInt16, {200, 200, 200}, {199, 200, 201}, 0.0),
              (std::vector<bool>{false, true, false}));
}

// The computing error widens the interval: exact 77.9 with c = 0.2 allows floor(77.7) = 77 .. ceil(78.1) = 79.
TEST(CompareToExact, IntegerOutputsWidenWithTheComputingError) {
    EXPECT_EQ(integer_verdicts(DataType::kInt16, {77.9, 77.9, 77.9, 77.9}, {76, 77, 79, 80}, 0.2),
              (std::vector<bool>{false, true, true, false}));
}

// Centred on another implementation's integer output (a device against a case's expected file): both lie within
// 1 + c of the unknown exact value, so they may differ by 2 when c > 0 (e.g. exact 78.0 - c/2: one truncates the
// value to 77, another computes 78.0 + c/2 and takes the ceiling, 79), never by more.
TEST(CompareToExact, IntegerOutputsAgainstAnotherImplementationsOutput) {
    EXPECT_EQ(integer_verdicts(DataType::kInt16, {77, 77, 77, 77, 77}, {77, 78, 79, 80, 74}, 1e-5, 2.0),
              (std::vector<bool>{true, true, true, false, false}));
    EXPECT_EQ(integer_verdicts(DataType::kInt16, {77, 77}, {78, 79}, 0.0, 2.0), (std::vector<bool>{true, false}));
}

}  // namespace
}  // namespace dmltool

namespace dmltool {
namespace {

// Elements whose evaluation orders legitimately differ in IEEE special values (ExactOutput::nonfinite_allowed) also
// accept NaN, or an infinity unless the exact value is the other infinity or NaN; finite values keep the bound.
TEST(CompareToExact, NonFiniteAllowedElements) {
    const Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    ExactOutput exact{{0.0, inf, nan, 2.0}, {1, 1, 1, 1}, 0, {}, {1, 1, 1, 0}, {}, {}};
    auto passes = [&](std::vector<double> got) {
        return compare_to_exact(exact, f32(got), t).mismatch_count == 0;
    };
    EXPECT_TRUE(passes({0.0, inf, nan, 2.0}));
    EXPECT_TRUE(passes({nan, nan, nan, 2.0}));   // 0 * inf = NaN beside an infinity
    EXPECT_TRUE(passes({-inf, inf, nan, 2.0}));  // an overflowing a + w * (b - a)
    EXPECT_FALSE(passes({5.0, inf, nan, 2.0}));  // a finite value keeps the error bound
    EXPECT_FALSE(passes({0.0, -inf, nan, 2.0}));  // not the other infinity
    EXPECT_FALSE(passes({0.0, inf, inf, 2.0}));   // a NaN stays a NaN
    EXPECT_FALSE(passes({0.0, inf, nan, nan}));   // elements without the flag: as ever
    exact.nonfinite_allowed.clear();
    EXPECT_FALSE(passes({nan, inf, nan, 2.0}));
}

// An allowed infinity got where the exact value is finite (SOFTPLUS of 3.4e38: the float32 formula overflows) does
// not take that element out of the zero-trust intersection: a constant 0.22 would fail it, so the case is not a
// constant expectation (lavapipe campaign, seed 20261205 ACTIVATION_SOFTPLUS #429 was MISTRUSTED); where every
// element's bound holds 0.22, it still is.
TEST(CompareToExact, AllowedInfinityKeepsItsElementInTheConstantTest) {
    const Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    const double inf = std::numeric_limits<double>::infinity();
    const ExactOutput exact{{0.2218, 0.2218, 3.4e38}, {1, 1, 16 * 3.4e38}, 0, {}, {0, 0, 1}, {}, {}};
    const CompareResult r = compare_to_exact(exact, f32({0.2218, 0.2218, inf}), t);
    EXPECT_EQ(r.verdict, Verdict::kPassed) << r.reason;
    EXPECT_FALSE(r.expected_constant);
    const ExactOutput wide{{0.2218, 0.2218, 0.0}, {1, 1, 1e8}, 0, {}, {0, 0, 1}, {}, {}};
    EXPECT_EQ(compare_to_exact(wide, f32({0.2218, 0.2218, inf}), t).verdict, Verdict::kMistrusted);
}

// Another implementation's output as the expectation (`--backend all`: directml vs gpu): where that output is a NaN
// or infinity the contract merely allows, the other output is judged by the reference's exact value instead.
TEST(CompareToExact, AllowedNonFiniteOfTheOtherOutputFallsBackToTheExactValue) {
    const Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    const double nan = std::nan("");
    const ExactOutput reference{{13216.0, 5.0}, {1, 1}, 0, {}, {1, 1}, {}, {}};
    const ExactOutput gpu = exact_output_from(f32({nan, nan}), reference);
    EXPECT_EQ(compare_to_exact(gpu, f32({13216.0, nan}), t, 8, 2.0).mismatch_count, 0u);
    EXPECT_EQ(compare_to_exact(gpu, f32({13000.0, nan}), t, 8, 2.0).mismatch_count, 1u);
    const ExactOutput unflagged{{13216.0, 5.0}, {1, 1}, 0, {}, {}, {}, {}};  // a NaN the contract does not allow stays
    EXPECT_EQ(compare_to_exact(exact_output_from(f32({nan, 5.0}), unflagged), f32({13216.0, 5.0}), t, 8, 2.0)
                  .mismatch_count, 1u);
}

// A deviation model's narrower arithmetic may overflow (Tolerance::arithmetic_overflow): NaN and infinities are
// accepted where the element reads an input that large (ExactOutput::largest_input), nowhere else.
TEST(CompareToExact, ArithmeticOverflowAcceptsNonFiniteBesideLargeInputs) {
    Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    const double inf = std::numeric_limits<double>::infinity();
    ExactOutput exact{{-20000.0, 1.5}, {1, 1}, 0, {}, {}, {40000.0, 2.0}, {}};
    EXPECT_EQ(compare_to_exact(exact, f32({inf, 1.5}), t).mismatch_count, 1u);  // the contract: float32 does not
    t.arithmetic_unit_roundoff = 0x1p-11;
    t.arithmetic_overflow = 0x1p15;
    EXPECT_EQ(compare_to_exact(exact, f32({inf, 1.5}), t).mismatch_count, 0u);
    EXPECT_EQ(compare_to_exact(exact, f32({-20000.0, inf}), t).mismatch_count, 1u);  // small inputs: still finite
    EXPECT_NE(describe_tolerance(t).find("NaN or infinity accepted where an input reaches 2^15"), std::string::npos)
        << describe_tolerance(t);
}

}  // namespace
}  // namespace dmltool

namespace dmltool {
namespace {

// A blend of equal values whose exact doubles differ in their last bits is a constant expectation (the runner then
// proves the writes), not "a constant output while the expectation is not" (MISTRUSTED for good): found by
// `dmltool generate` on an INT8 linear case of constant input -3.
TEST(CompareToExact, NearlyEqualExactValuesAreAConstantExpectation) {
    const Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    const ExactOutput ints{{-3.0, -3.0000000000000004, -2.9999999999999996}, {1, 1, 1}, 0, {}, {}, {}, {}};
    const CompareResult r = compare_to_exact(ints, tensor(DataType::kInt8, {3}, {-3, -3, -3}), t);
    EXPECT_EQ(r.verdict, Verdict::kMistrusted);
    EXPECT_TRUE(r.expected_constant);
    const ExactOutput floats{{0.1, 0.1 + 0x1p-56, 0.1 - 0x1p-56}, {1, 1, 1}, 0, {}, {}, {}, {}};
    EXPECT_TRUE(compare_to_exact(floats, f32({0.1, 0.1, 0.1}), t).expected_constant);
    // Values an output type tells apart are not constant.
    const ExactOutput apart{{0.1, 0.1 + 0x1p-20, 0.1}, {1, 1, 1}, 0, {}, {}, {}, {}};
    const CompareResult distinct = compare_to_exact(apart, f32({0.1, 0.1 + 0x1p-20, 0.1}), t);
    EXPECT_EQ(distinct.verdict, Verdict::kPassed);
    EXPECT_FALSE(distinct.expected_constant);
}

}  // namespace
}  // namespace dmltool

namespace dmltool {
namespace {

// An integer conversion maps -0.9 and 0.9 both to 0 (truncation): a constant output can be right although the exact
// values spread over 1.8, so the expectation is constant (the runner proves the writes); 0.2 and 2.5 share none.
TEST(CompareToExact, ConstantWhenOneValuePassesEverywhere) {
    const Tolerance t{.reason = "test", .error_bound = true, .unit_roundoff = 0x1p-24};
    const ExactOutput spread{{-0.9, 0.9}, {1, 1}, 0, {}, {}, {}, {}};
    EXPECT_TRUE(compare_to_exact(spread, tensor(DataType::kInt8, {2}, {0, 0}), t).expected_constant);
    const ExactOutput apart{{0.2, 2.5}, {1, 1}, 0, {}, {}, {}, {}};
    const CompareResult distinct = compare_to_exact(apart, tensor(DataType::kInt8, {2}, {0, 2}), t);
    EXPECT_EQ(distinct.verdict, Verdict::kPassed);
    EXPECT_FALSE(distinct.expected_constant);
    const double inf = std::numeric_limits<double>::infinity();
    const ExactOutput mixed{{inf, 1.0}, {1, 1}, 0, {}, {}, {}, {}};
    EXPECT_FALSE(compare_to_exact(mixed, f32({inf, 1.0}), t).expected_constant);
}

}  // namespace
}  // namespace dmltool
