// The regression gate's judgement without running anything: compare --ab's paired rounds (the sign test on
// per-round ratios), Holm's adjustment across a comparison's cases, and the drift veto of separate runs.
#include <gtest/gtest.h>

#include <cmath>

#include "gate/compare.h"
#include "gate/compare_ab.h"

namespace dmltool::app {
namespace {

// `rounds` paired medians around 10 us; the new build's are `factor` times the base's, times a deterministic
// +-`jitter` that differs per round (so the ratios are not all equal).
AbSeries series(double factor, double jitter, size_t rounds = 10) {
    AbSeries s;
    for (size_t r = 0; r < rounds; ++r) {
        const double wobble = 1 + jitter * (double((r * 7) % 11) - 5) / 5;
        const double machine = 1 + 0.2 * double(r % 3);  // the machine's state in that round: cancels in the ratio
        s.base_medians.push_back(10e-6 * machine);
        s.new_medians.push_back(10e-6 * machine * factor * wobble);
    }
    return s;
}

TEST(CompareAb, PlantedSlowdownIsSlowerAndSameBuildIsNot) {
    const CompareOptions options;  // threshold 5%, alpha 0.05
    const CaseComparison slower = compare_ab_case("c", "cpu", series(1.3, 0.01), options);
    EXPECT_EQ(slower.verdict, Verdict::kSlower) << slower.reason;
    EXPECT_NEAR(slower.change, 0.3, 0.02);
    EXPECT_EQ(slower.rounds, 10u);
    // All ten rounds slower: p = 2 / 2^10.
    EXPECT_NEAR(slower.p_unadjusted, 2.0 / 1024, 1e-12);
    const CaseComparison same = compare_ab_case("c", "cpu", series(1.0, 0.01), options);
    EXPECT_EQ(same.verdict, Verdict::kSame) << same.reason;
    const CaseComparison faster = compare_ab_case("c", "cpu", series(0.7, 0.01), options);
    EXPECT_EQ(faster.verdict, Verdict::kFaster) << faster.reason;
}

TEST(CompareAb, RoundsSpoiledByLoadAreOneVoteEach) {
    const CompareOptions options;
    // 1.3x in 24 of 30 rounds; in the other 6 a burst of load hit the base side, so new/base is 0.5-0.6, the
    // largest log ratios of all. Signed ranks would give those six the top ranks (two-sided p about 0.16); as votes
    // 24 of 30 give p = 2 P(X <= 6) = 0.0014, SLOWER even after Holm over 4 cases.
    AbSeries s = series(1.3, 0.01, 30);
    for (size_t r = 0; r < 6; ++r) s.new_medians[r * 5] = s.base_medians[r * 5] * (0.5 + 0.02 * double(r));
    const CaseComparison c = compare_ab_case("planted", "cpu", s, options);
    EXPECT_NEAR(c.p_unadjusted, 0.001430, 2e-6);
    std::vector<CaseComparison> cases = {c};
    for (int i = 0; i < 3; ++i) cases.push_back(compare_ab_case("same" + std::to_string(i), "cpu", series(1.0, 0.01, 30), options));
    adjust_and_judge(cases, options);
    EXPECT_EQ(cases[0].verdict, Verdict::kSlower) << cases[0].reason;
}

TEST(CompareAb, SpreadRoundsAreNoisyUnlessTheChangeIsClear) {
    const CompareOptions options;
    // Ratios spread +-20%: cannot resolve 5%.
    EXPECT_EQ(compare_ab_case("c", "cpu", series(1.06, 0.2), options).verdict, Verdict::kNoisy);
    // 3x with the same spread: beyond the threshold plus the noise, judged anyway.
    EXPECT_EQ(compare_ab_case("c", "cpu", series(3.0, 0.2), options).verdict, Verdict::kSlower);
}

TEST(CompareAb, HolmAcrossCasesNeedsMoreThanOneLuckyCase) {
    const CompareOptions options;
    // Five rounds all slower: p = 2/32 = 0.0625 alone is not significant; nine of ten (sign test: 2 x 11/1024)
    // alone is, but with 40 cases Holm multiplies the smallest by 40.
    std::vector<CaseComparison> cases;
    AbSeries nine_of_ten = series(1.3, 0.01);
    nine_of_ten.new_medians[0] = nine_of_ten.base_medians[0] * 0.999;  // the smallest ratio's sign flipped
    cases.push_back(compare_ab_case("lucky", "cpu", nine_of_ten, options));
    EXPECT_EQ(cases.back().verdict, Verdict::kSlower) << "alone";
    for (int i = 0; i < 39; ++i) cases.push_back(compare_ab_case("same" + std::to_string(i), "cpu", series(1.0, 0.01), options));
    adjust_and_judge(cases, options);
    EXPECT_NEAR(cases[0].p_value, 40 * 22.0 / 1024, 1e-12);
    // Not significant any more; its rounds' ratios span 0.999 to 1.3, so NOISY rather than SAME.
    EXPECT_EQ(cases[0].verdict, Verdict::kNoisy) << cases[0].reason;
}

TEST(CompareSeparateRuns, DriftLargerThanTheChangeIsNoisy) {
    CaseComparison c;
    c.change = c.raw_change = 0.08;
    c.p_value = c.p_unadjusted = 1e-6;
    c.change_noise = 0.001;
    CompareOptions options;
    assign_verdict(c, options);
    EXPECT_EQ(c.verdict, Verdict::kSlower);
    c.drift = 0.10;  // the machine (its copy probes) slowed down more than the case did
    assign_verdict(c, options);
    EXPECT_EQ(c.verdict, Verdict::kNoisy) << c.reason;
    // --normalize-by-probes: a verdict that exists only after the division is not trusted either.
    c.drift = 0.03;
    c.raw_change = 0.02;
    assign_verdict(c, options);
    EXPECT_EQ(c.verdict, Verdict::kNoisy) << c.reason;
}

// A separate run whose cases are each `factors[i]` times the base's 30 samples around 10 us (+-0.5%).
BenchRun run_of(const std::vector<double>& factors) {
    BenchRun run;
    run.path = "run.json";
    for (size_t i = 0; i < factors.size(); ++i) {
        RunCase c{"case" + std::to_string(i), "cpu", {}, true};
        for (int s = 0; s < 30; ++s) c.samples.push_back(10e-6 * factors[i] * (1 + 0.001 * double((s * 7) % 11 - 5)));
        run.cases.push_back(c);
    }
    return run;
}

TEST(CompareSeparateRuns, LoadThatMovesEveryCaseIsNoisyAndOneSlowCaseIsSlower) {
    const CompareOptions options;
    const BenchRun base = run_of({1, 1, 1, 1});
    // The whole run 40-60% slower (other jobs): no case stands out from the others.
    auto loaded = compare_runs(base, run_of({1.4, 1.5, 1.6, 1.45}), options);
    ASSERT_TRUE(loaded.is_ok());
    for (const CaseComparison& c : loaded->cases) EXPECT_EQ(c.verdict, Verdict::kNoisy) << c.name << ": " << c.reason;
    EXPECT_EQ(comparison_exit_code(*loaded), 0);
    // One case 1.3x, the others unchanged: that case alone is SLOWER.
    auto planted = compare_runs(base, run_of({1, 1.3, 1.01, 0.99}), options);
    ASSERT_TRUE(planted.is_ok());
    for (const CaseComparison& c : planted->cases)
        EXPECT_EQ(c.verdict, c.name == "case1" ? Verdict::kSlower : Verdict::kSame) << c.name << ": " << c.reason;
    EXPECT_EQ(comparison_exit_code(*planted), 1);
}

TEST(CompareSeparateRuns, ACaseThatMovedLessThanTheRunIsNotSlower) {
    const CompareOptions options;
    // The compute-bound cases moved +40-60% with the machine, a memory-bound one only +8.7% (measured 2026-11-28):
    // relative to the run that case got faster, so it must not be SLOWER.
    auto loaded = compare_runs(run_of({1, 1, 1, 1}), run_of({1.5, 1.087, 1.58, 1.365}), options);
    ASSERT_TRUE(loaded.is_ok());
    for (const CaseComparison& c : loaded->cases) EXPECT_EQ(c.verdict, Verdict::kNoisy) << c.name << ": " << c.reason;
    EXPECT_EQ(comparison_exit_code(*loaded), 0);
}

// 30 samples around 10 us (+-0.5%); the last `slowed` of them (load from other work) `load` times longer.
RunCase loaded_case(double factor, size_t slowed, double load) {
    RunCase c{"case", "cpu", {}, true};
    for (size_t s = 0; s < 30; ++s)
        c.samples.push_back(10e-6 * factor * (s >= 30 - slowed ? load : 1) * (1 + 0.001 * double(int(s * 7 % 11) - 5)));
    return c;
}

TEST(CompareSeparateRuns, OnlyTheSlowEndMovingIsLoadNotTheCode) {
    const CompareOptions options;
    // Two thirds of the new run's samples 1.5x (a burst of load over most of the case): the median moved, the
    // fastest tenth did not.
    const CaseComparison load = compare_case(loaded_case(1, 0, 1), loaded_case(1, 20, 1.5), options);
    EXPECT_GT(load.change, 0.3);
    EXPECT_NEAR(load.fast_change, 0, 0.01);
    EXPECT_EQ(load.verdict, Verdict::kNoisy) << load.reason;
    // Every execution 1.3x slower (the code): the fast end moved with the median.
    const CaseComparison code = compare_case(loaded_case(1, 0, 1), loaded_case(1.3, 5, 1.5), options);
    EXPECT_NEAR(code.fast_change, 0.3, 0.01);
    EXPECT_EQ(code.verdict, Verdict::kSlower) << code.reason;
    // And faster: the base run was the loaded one, the code did not change.
    EXPECT_EQ(compare_case(loaded_case(1, 20, 1.5), loaded_case(1, 0, 1), options).verdict, Verdict::kNoisy);
}

// Issue 30: a reason's numbers carry the decimals its comparison needs to read true: a change of +5.04% against the
// 5% threshold is "+5.04% > 5.00%", not "+5.0% > 5.0%"; a clear one keeps one decimal.
TEST(CompareVerdictText, EnoughDigitsToBeTrue) {
    CompareOptions options;
    CaseComparison c;
    c.p_value = c.p_unadjusted = 1e-6;
    c.change_noise = 0.001;  // a margin of 0.2%: the verdict without it (significant and beyond the threshold)
    c.change = c.raw_change = 0.0504;
    assign_verdict(c, options);
    ASSERT_EQ(c.verdict, Verdict::kSlower) << c.reason;
    EXPECT_EQ(c.reason, "p = 1e-06 < 0.05 and +5.04% > 5.00%");
    c.change = c.raw_change = -0.05004;
    assign_verdict(c, options);
    ASSERT_EQ(c.verdict, Verdict::kFaster) << c.reason;
    EXPECT_EQ(c.reason, "p = 1e-06 < 0.05 and -5.004% < -5.000%");
    // With the noise margin: +7.04% - 2.0% (rounded) would read 5.0 > 5.0.
    c.change = c.raw_change = 0.0704;
    c.change_noise = 0.0203 / 1.96;
    assign_verdict(c, options);
    ASSERT_EQ(c.verdict, Verdict::kSlower) << c.reason;
    EXPECT_EQ(c.reason, "p = 1e-06 < 0.05 and +7.04% (+/- 2.03% noise) > 5.00%");
    c.change = c.raw_change = 0.20;
    c.change_noise = 0;
    assign_verdict(c, options);
    EXPECT_EQ(c.reason, "p = 1e-06 < 0.05 and +20.0% (+/- 0.0% noise) > 5.0%");
}

}  // namespace
}  // namespace dmltool::app
