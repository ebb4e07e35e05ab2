// The statistics behind `dmltool bench` and `dmltool compare`: one benchmark's samples summarized (median, spread,
// relative noise of the median), the stopping rule that decides when enough samples were taken, and the
// Mann-Whitney U test that tells a change between two runs from noise. Pure arithmetic on vectors of seconds, so
// it is unit-tested without Google Benchmark or a device.
//
// One sample is the mean time of one batch of back-to-back executions (GPU timestamps on a device, wall time on
// the CPU reference). Samples are close to independent; their distribution is usually skewed (a few slow
// batches when something else ran), which is why the median, not the mean, is the figure reported and compared.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace dmltool::app {

struct SampleStats {
    size_t count = 0;
    double median = 0, min = 0, max = 0, mean = 0;
    double stddev = 0;  // sample standard deviation (n - 1); 0 for fewer than two samples
    // Relative noise of the median: a distribution-free estimate of its standard error divided by the median.
    // The 95% confidence interval of the median is taken from order statistics, [x(l), x(u)] with the 1-based
    // ranks l = floor(n/2 - 0.98 sqrt(n)) and u = ceil(n/2 + 1 + 0.98 sqrt(n)) clamped to 1..n (the normal
    // approximation to the binomial: 0.98 = 1.96 / 2), and converted to a standard error by dividing its width by
    // 2 x 1.96:
    //   noise = (x(u) - x(l)) / 3.92 / median.
    // Unlike sqrt(pi/2) * stddev / sqrt(n), it is not inflated by the rare huge samples of a preempted batch, which
    // do not move the median either; unlike it, it makes no normality assumption. For small n the interval spans
    // most samples, so few samples never look quiet. Infinite for fewer than two samples.
    double noise = 0;
};

SampleStats summarize_samples(const std::vector<double>& samples);

// The q-quantile (0 <= q <= 1) of the samples, linearly interpolated between order statistics; 0 when empty.
double sample_quantile(const std::vector<double>& samples, double q);

// When to stop sampling one benchmark.
struct StopRule {
    double max_noise = 0.005;  // --max-noise: stop once noise is below this (0.005 = 0.5%)...
    size_t min_samples = 10;   // --min-samples: ...and at least this many samples were taken,
    double max_seconds = 3;    // --max-time: or once this much wall time was spent sampling (not converged)
};

// `bench --passes N`: each case is sampled in N interleaved passes, each with its share of the budget (the time
// and the minimum samples divided by N, at least 2 samples) and the same noise goal.
StopRule stop_rule_per_pass(const StopRule& rule, unsigned passes);

// Whether the samples pooled from all passes meet `rule` as one run would: at least min_samples and the noise of
// their median below max_noise.
bool pooled_converged(const StopRule& rule, const std::vector<double>& samples);

// A rule's decision on the samples so far.
enum class StopDecision { kContinue, kConverged, kOutOfTime };

// Converged needs min_samples and noise < max_noise; out of time needs the budget spent and at least two samples
// (one sample says nothing about noise, so even a tiny budget yields a spread).
StopDecision decide_stop(const StopRule& rule, const std::vector<double>& samples, double elapsed_seconds);

// Samples by calling take_sample() (returns one sample in seconds, or a negative value to stop: an error the
// caller recorded) until the rule says stop. Returns the decision that ended sampling, kContinue after an error.
template <typename TakeSample>
StopDecision sample_until_stable(const StopRule& rule, std::vector<double>& samples, TakeSample&& take_sample) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const StopDecision decision = decide_stop(rule, samples, elapsed);
        if (decision != StopDecision::kContinue) return decision;
        const double sample = take_sample();
        if (sample < 0) return StopDecision::kContinue;
        samples.push_back(sample);
    }
}

// Two-sided Mann-Whitney U test of "both sample sets come from the same distribution", by the normal
// approximation with the tie correction and a continuity correction of 1/2. Without ties and with both sets of
// at most 20 samples the p-value is exact instead (the U distribution counted by dynamic programming), since the
// normal approximation is poor there. 1 when either set is empty or every value is tied.
double mann_whitney_p_value(const std::vector<double>& a, const std::vector<double>& b);

// The Hodges-Lehmann estimate of the shift from a to b (the median of the m x n differences b_j - a_i) and its
// distribution-free confidence interval, Mann-Whitney's test inverted: the k-th smallest and k-th largest of the
// differences, k = floor(mn/2 - z sqrt(mn (m + n + 1) / 12)) for z the normal quantile of 1 - alpha/2 (the normal
// approximation; found is false when k < 1). For `compare --ab` on log per-round medians: each round's two medians
// come from fresh processes, and a process can run a case in one of several speeds (memory layout: the same
// binary measured 35 us in most processes and 50-65 us in others, 2026-11-29), which the paired ratios mix into
// three modes (0.87, 1.3, 1.95 for a planted 1.3x); the two-sample shift is the change between the modes.
struct ShiftEstimate {
    bool found = false;
    double shift = 0, low = 0, high = 0;
};
ShiftEstimate hodges_lehmann_shift(const std::vector<double>& a, const std::vector<double>& b, double alpha);

// Two-sided exact sign test of "positive and negative differences are equally likely" (for the per-round log
// ratios of `compare --ab`): zero differences are dropped; with k of n positive, p = min(1, 2 P(X <= min(k, n-k)))
// for X ~ Binomial(n, 1/2). Each difference is one vote whatever its size, so a round spoiled by a burst of load
// (a ratio far larger than the change) weighs no more than any other. 1 when no difference is non-zero.
double sign_test_p_value(const std::vector<double>& differences);

// The distribution-free confidence interval of a median from its order statistics (the sign test inverted): the
// k-th smallest and k-th largest of the values, k the largest with 2 P(Bin(n, 1/2) <= k - 1) <= alpha, so that the
// interval covers the median with probability >= 1 - alpha. found is false when n is too small for any k.
struct MedianInterval {
    bool found = false;
    double low = 0, high = 0;
};
MedianInterval median_interval(std::vector<double> values, double alpha);

// Holm's step-down adjustment of p-values for testing them all at once: the i-th smallest of m becomes
// max over j <= i of min(1, (m - j + 1) p(j)), in the input's order. Rejecting where the adjusted p < alpha keeps
// the chance of any false rejection among the m at most alpha, whichever hypotheses are true.
std::vector<double> holm_adjusted_p_values(const std::vector<double>& p_values);

}  // namespace dmltool::app
