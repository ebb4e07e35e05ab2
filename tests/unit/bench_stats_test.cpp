// The statistics of `dmltool bench` and `dmltool compare` on fixed samples: the summary and its noise estimator (order-statistic interval of the median),
// the stopping rule (converged, out of time, never on one sample), and the Mann-Whitney U test against values
// worked out by hand (exact small-sample p-values and the tie-corrected normal approximation).
#include <gtest/gtest.h>

#include <cmath>

#include "bench/stats.h"

namespace dmltool::app {
namespace {

TEST(BenchStats, SummaryOfFourSamples) {
    const SampleStats s = summarize_samples({4, 1, 3, 2});
    EXPECT_EQ(s.count, 4u);
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.max, 4);
    EXPECT_DOUBLE_EQ(s.mean, 2.5);
    EXPECT_NEAR(s.stddev, std::sqrt(5.0 / 3.0), 1e-12);
    // n = 4: ranks floor(2 - 1.96) = 0 -> 1 and ceil(3 + 1.96) = 5 -> 4: the interval is [1, 4].
    EXPECT_NEAR(s.noise, (4.0 - 1.0) / 3.92 / 2.5, 1e-12);
}

TEST(BenchStats, NoiseIgnoresRareOutliersAndNarrowsWithMoreSamples) {
    // 100 samples: ranks floor(50 - 9.8) = 40 and ceil(51 + 9.8) = 61.
    std::vector<double> samples;
    for (int i = 1; i <= 100; ++i) samples.push_back(1000 + i);  // 1001..1100
    EXPECT_NEAR(summarize_samples(samples).noise, (1061.0 - 1040.0) / 3.92 / 1050.5, 1e-12);
    // Two preempted batches 100x slower: the median and its interval barely move, the stddev explodes.
    samples[0] = samples[1] = 100000;
    const SampleStats with_outliers = summarize_samples(samples);
    EXPECT_LT(with_outliers.noise, 0.006);
    EXPECT_GT(with_outliers.stddev, 10000);
    // Four times the samples of the same spread: about half the noise.
    std::vector<double> more;
    for (int i = 0; i < 400; ++i) more.push_back(1000 + (i % 100) + 1);
    EXPECT_NEAR(summarize_samples(more).noise / summarize_samples(std::vector<double>(samples.begin() + 2, samples.end())).noise,
                0.5, 0.1);
}

TEST(BenchStats, OddCountMedianAndUnknownNoise) {
    EXPECT_DOUBLE_EQ(summarize_samples({5, 1, 9}).median, 5);
    EXPECT_TRUE(std::isinf(summarize_samples({7}).noise));
    EXPECT_TRUE(std::isinf(summarize_samples({}).noise));
    EXPECT_DOUBLE_EQ(summarize_samples({2, 2, 2}).noise, 0);
}

TEST(BenchStats, StopsWhenQuietAfterTheMinimumCount) {
    const StopRule rule{0.005, 10, 100};
    std::vector<double> samples(9, 1e-3);
    EXPECT_EQ(decide_stop(rule, samples, 0), StopDecision::kContinue);
    samples.push_back(1e-3);
    EXPECT_EQ(decide_stop(rule, samples, 0), StopDecision::kConverged);
}

TEST(BenchStats, NoisySamplesRunOutOfTime) {
    const StopRule rule{0.005, 10, 1};
    std::vector<double> samples;
    for (int i = 0; i < 40; ++i) samples.push_back(i % 2 ? 1.0 : 2.0);  // the interval spans 1..2: noise ~17%
    EXPECT_EQ(decide_stop(rule, samples, 0.5), StopDecision::kContinue);
    EXPECT_EQ(decide_stop(rule, samples, 1.0), StopDecision::kOutOfTime);
    // One sample says nothing about the spread: even a spent budget takes a second one.
    EXPECT_EQ(decide_stop(rule, {1.0}, 5), StopDecision::kContinue);
}

TEST(BenchStats, SamplingLoopStopsAtTheMinimumForConstantSamples) {
    std::vector<double> samples;
    int calls = 0;
    const StopDecision d = sample_until_stable(StopRule{0.005, 12, 10}, samples, [&] {
        ++calls;
        return 2e-6;
    });
    EXPECT_EQ(d, StopDecision::kConverged);
    EXPECT_EQ(samples.size(), 12u);
    EXPECT_EQ(calls, 12);
}

TEST(BenchStats, SamplingLoopGivesUpAfterMaxTime) {
    std::vector<double> samples;
    int i = 0;
    const auto start = std::chrono::steady_clock::now();
    const StopDecision d = sample_until_stable(StopRule{0.001, 10, 0.05}, samples, [&] { return ++i % 2 ? 1.0 : 3.0; });
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(d, StopDecision::kOutOfTime);
    EXPECT_GE(samples.size(), 10u);
    EXPECT_LT(elapsed, 5.0);
}

TEST(BenchStats, SamplingLoopStopsOnError) {
    std::vector<double> samples;
    int i = 0;
    const StopDecision d = sample_until_stable(StopRule{}, samples, [&] { return ++i == 4 ? -1.0 : 1.0; });
    EXPECT_EQ(d, StopDecision::kContinue);
    EXPECT_EQ(samples.size(), 3u);
}

TEST(MannWhitney, ExactSmallSamples) {
    // Fully separated 3 vs 3: one ordering of C(6,3) = 20 on each side, two-sided p = 2/20.
    EXPECT_NEAR(mann_whitney_p_value({1, 2, 3}, {4, 5, 6}), 0.1, 1e-12);
    EXPECT_NEAR(mann_whitney_p_value({4, 5, 6}, {1, 2, 3}), 0.1, 1e-12);
    // 5 vs 5: 2/252.
    EXPECT_NEAR(mann_whitney_p_value({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252, 1e-12);
    // Perfectly interleaved: U at its mean, p = 1.
    EXPECT_NEAR(mann_whitney_p_value({1, 4, 5, 8}, {2, 3, 6, 7}), 1.0, 1e-12);
    // U = 1 of 3 vs 3: P(U <= 1) = 2/20, two-sided 0.2.
    EXPECT_NEAR(mann_whitney_p_value({1, 2, 4}, {3, 5, 6}), 0.2, 1e-12);
}

TEST(MannWhitney, NormalApproximationWithTies) {
    // Ranks: 1,1 -> 1.5; 2,2,2 -> 4; 3,3,3 -> 7; 4,4 -> 9.5. R_a = 18, U_a = 3, mean 12.5,
    // variance 25/12 * (11 - 60/90), |U - mean| - 1/2 = 9: z = 1.9397, p = 0.0524.
    EXPECT_NEAR(mann_whitney_p_value({1, 1, 2, 2, 3}, {2, 3, 3, 4, 4}), 0.0524, 5e-4);
    EXPECT_DOUBLE_EQ(mann_whitney_p_value({2, 2, 2}, {2, 2, 2, 2}), 1.0);
    EXPECT_DOUBLE_EQ(mann_whitney_p_value({}, {1, 2}), 1.0);
}

TEST(MannWhitney, LargeShiftedSetsAreSignificantAndEqualOnesAreNot) {
    std::vector<double> base, slower, same;
    for (int i = 0; i < 30; ++i) {
        const double jitter = 1 + 0.002 * ((i * 7) % 11 - 5);  // +-1%, deterministic
        base.push_back(1e-3 * jitter);
        slower.push_back(1.1e-3 * jitter);
        same.push_back(1e-3 * (1 + 0.002 * ((i * 5) % 11 - 5)));
    }
    EXPECT_LT(mann_whitney_p_value(base, slower), 1e-6);
    EXPECT_GT(mann_whitney_p_value(base, same), 0.5);
}

TEST(SignTest, ExactBinomialTails) {
    EXPECT_NEAR(sign_test_p_value({1, 2, 3, 4, 5}), 2.0 / 32, 1e-12);
    EXPECT_NEAR(sign_test_p_value({-1, 2, 3, 4, 5, 6}), 2 * 7.0 / 64, 1e-12);   // 1 of 6 negative: 2 (1 + 6)/64
    EXPECT_NEAR(sign_test_p_value({0, 1, 2, 0, 3, 4, 5}), 2.0 / 32, 1e-12);     // zeros dropped
    EXPECT_DOUBLE_EQ(sign_test_p_value({1, -2, -3, 4}), 1.0);
    EXPECT_DOUBLE_EQ(sign_test_p_value({}), 1.0);
    EXPECT_DOUBLE_EQ(sign_test_p_value({0, 0}), 1.0);
    // Magnitudes do not count: one huge negative difference is one vote.
    EXPECT_NEAR(sign_test_p_value({-1000, 1, 1, 1, 1, 1, 1}), 2 * 8.0 / 128, 1e-12);
    std::vector<double> thirty(30, 0.3);
    EXPECT_NEAR(sign_test_p_value(thirty), 2.0 / (1 << 30), 1e-15);
}

TEST(Holm, StepDownAdjustmentKeepsInputOrder) {
    // Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; running max: 0.02, 0.03, 0.06, 0.06.
    const std::vector<double> adjusted = holm_adjusted_p_values({0.01, 0.04, 0.03, 0.005});
    ASSERT_EQ(adjusted.size(), 4u);
    EXPECT_NEAR(adjusted[0], 0.03, 1e-12);
    EXPECT_NEAR(adjusted[1], 0.06, 1e-12);
    EXPECT_NEAR(adjusted[2], 0.06, 1e-12);
    EXPECT_NEAR(adjusted[3], 0.02, 1e-12);
    // Capped at 1; a single p-value is unchanged.
    EXPECT_DOUBLE_EQ(holm_adjusted_p_values({0.5, 0.6})[0], 1.0);
    EXPECT_DOUBLE_EQ(holm_adjusted_p_values({0.02})[0], 0.02);
    EXPECT_TRUE(holm_adjusted_p_values({}).empty());
}

TEST(Holm, FortyNullCasesRarelyFlagAny) {
    // 40 p-values spread uniformly (what 40 unchanged cases give): unadjusted, two fall below 0.05; after Holm none.
    std::vector<double> uniform;
    for (int i = 1; i <= 40; ++i) uniform.push_back(i / 41.0);
    size_t raw = 0, adjusted = 0;
    for (double p : uniform) raw += p < 0.05;
    for (double p : holm_adjusted_p_values(uniform)) adjusted += p < 0.05;
    EXPECT_EQ(raw, 2u);
    EXPECT_EQ(adjusted, 0u);
}

TEST(SampleQuantile, InterpolatesBetweenOrderStatistics) {
    EXPECT_EQ(sample_quantile({}, 0.1), 0);
    EXPECT_EQ(sample_quantile({5}, 0.1), 5);
    // Sorted 1..11: the 10th percentile sits at rank 1 (0-based), the median at rank 5.
    const std::vector<double> v = {11, 3, 7, 1, 9, 5, 2, 10, 4, 8, 6};
    EXPECT_DOUBLE_EQ(sample_quantile(v, 0.1), 2);
    EXPECT_DOUBLE_EQ(sample_quantile(v, 0.5), 6);
    EXPECT_DOUBLE_EQ(sample_quantile(v, 0.05), 1.5);
    EXPECT_DOUBLE_EQ(sample_quantile(v, 1), 11);
}

TEST(StopRule, PassesShareTheBudgetAndThePooledSamplesDecide) {
    const StopRule rule{0.01, 20, 0.5};
    const StopRule one = stop_rule_per_pass(rule, 1);
    EXPECT_EQ(one.min_samples, 20u);
    EXPECT_DOUBLE_EQ(one.max_seconds, 0.5);
    const StopRule pass = stop_rule_per_pass(rule, 5);
    EXPECT_EQ(pass.min_samples, 4u);
    EXPECT_DOUBLE_EQ(pass.max_seconds, 0.1);
    EXPECT_DOUBLE_EQ(pass.max_noise, 0.01);
    EXPECT_EQ(stop_rule_per_pass(rule, 100).min_samples, 2u);  // never fewer than two per pass
    std::vector<double> quiet(19, 1e-5);
    EXPECT_FALSE(pooled_converged(rule, quiet));  // below --min-samples
    quiet.push_back(1e-5);
    EXPECT_TRUE(pooled_converged(rule, quiet));
    std::vector<double> spread;
    for (int i = 0; i < 20; ++i) spread.push_back(1e-5 * (1 + 0.5 * (i % 2)));
    EXPECT_FALSE(pooled_converged(rule, spread));  // noise of the median above 1%
}

}  // namespace
}  // namespace dmltool::app
