#include "bench/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace dmltool::app {

SampleStats summarize_samples(const std::vector<double>& samples) {
    SampleStats s;
    s.count = samples.size();
    if (samples.empty()) {
        s.noise = std::numeric_limits<double>::infinity();
        return s;
    }
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    s.min = sorted.front();
    s.max = sorted.back();
    s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(n);
    if (n < 2) {
        s.noise = std::numeric_limits<double>::infinity();
        return s;
    }
    double squares = 0;
    for (double v : sorted) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / double(n - 1));
    const double half_width = 0.98 * std::sqrt(double(n));
    const double lower_rank = std::max(1.0, std::floor(double(n) / 2 - half_width));
    const double upper_rank = std::min(double(n), std::ceil(double(n) / 2 + 1 + half_width));
    const double interval = sorted[size_t(upper_rank) - 1] - sorted[size_t(lower_rank) - 1];
    s.noise = s.median > 0 ? interval / 3.92 / s.median : std::numeric_limits<double>::infinity();
    return s;
}

StopDecision decide_stop(const StopRule& rule, const std::vector<double>& samples, double elapsed_seconds) {
    if (samples.size() >= std::max<size_t>(rule.min_samples, 2) && summarize_samples(samples).noise < rule.max_noise)
        return StopDecision::kConverged;
    if (elapsed_seconds >= rule.max_seconds && samples.size() >= 2) return StopDecision::kOutOfTime;
    return StopDecision::kContinue;
}

double sample_quantile(const std::vector<double>& samples, double q) {
    if (samples.empty()) return 0;
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const double position = std::clamp(q, 0.0, 1.0) * double(sorted.size() - 1);
    const size_t below = size_t(std::floor(position));
    const size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (position - double(below)) * (sorted[above] - sorted[below]);
}

double sign_test_p_value(const std::vector<double>& differences) {
    size_t positive = 0, negative = 0;
    for (double d : differences) {
        if (d > 0) ++positive;
        if (d < 0) ++negative;
    }
    const size_t n = positive + negative;
    if (n == 0) return 1;
    const size_t fewer = std::min(positive, negative);
    // P(X <= fewer) = sum over i <= fewer of C(n, i) / 2^n, each term through logarithms (n may be large).
    double tail = 0;
    for (size_t i = 0; i <= fewer; ++i)
        tail += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) - std::lgamma(double(n - i) + 1) -
                         double(n) * std::log(2.0));
    return std::min(1.0, 2 * tail);
}

MedianInterval median_interval(std::vector<double> values, double alpha) {
    const size_t n = values.size();
    MedianInterval out;
    if (n == 0) return out;
    std::sort(values.begin(), values.end());
    // Grow k while the two tails outside [x(k), x(n-k+1)] together stay within alpha.
    double below = 0;  // P(X <= k - 1)
    size_t k = 0;
    for (size_t i = 0; 2 * i + 1 < n + 1; ++i) {
        const double term = std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) -
                                     std::lgamma(double(n - i) + 1) - double(n) * std::log(2.0));
        if (2 * (below + term) > alpha) break;
        below += term;
        k = i + 1;
    }
    if (k == 0) return out;
    out.found = true;
    out.low = values[k - 1];
    out.high = values[n - k];
    return out;
}

StopRule stop_rule_per_pass(const StopRule& rule, unsigned passes) {
    if (passes <= 1) return rule;
    StopRule pass = rule;
    pass.max_seconds = rule.max_seconds / passes;
    pass.min_samples = std::max<size_t>((rule.min_samples + passes - 1) / passes, 2);
    return pass;
}

bool pooled_converged(const StopRule& rule, const std::vector<double>& samples) {
    return samples.size() >= std::max<size_t>(rule.min_samples, 2) && summarize_samples(samples).noise < rule.max_noise;
}

namespace {

// P(U <= u) under the null hypothesis for sample sizes m and n without ties: counts(m, n)[u] is the number of
// the C(m+n, m) orderings whose U statistic is u, from counts(m, n)[u] = counts(m-1, n)[u-n] + counts(m, n-1)[u].
double exact_u_cdf(size_t m, size_t n, size_t u) {
    const size_t max_u = m * n;
    // table[i][j] = distribution of U for sizes i and j, as counts over u = 0..i*j.
    std::vector<std::vector<std::vector<double>>> table(m + 1, std::vector<std::vector<double>>(n + 1));
    for (size_t i = 0; i <= m; ++i)
        for (size_t j = 0; j <= n; ++j) {
            std::vector<double>& counts = table[i][j];
            counts.assign(i * j + 1, 0);
            if (i == 0 || j == 0) {
                counts[0] = 1;
                continue;
            }
            // The largest of the i + j values comes from the first set (it beats all j of the other) or not.
            for (size_t k = 0; k < table[i - 1][j].size(); ++k) counts[k + j] += table[i - 1][j][k];
            for (size_t k = 0; k < table[i][j - 1].size(); ++k) counts[k] += table[i][j - 1][k];
        }
    const std::vector<double>& counts = table[m][n];
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    double below = 0;
    for (size_t k = 0; k <= std::min(u, max_u); ++k) below += counts[k];
    return below / total;
}

constexpr size_t kExactLimit = 20;

}  // namespace

double mann_whitney_p_value(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t m = a.size(), n = b.size();
    if (m == 0 || n == 0) return 1;
    std::vector<std::pair<double, bool>> all;  // value, from a
    for (double v : a) all.push_back({v, true});
    for (double v : b) all.push_back({v, false});
    std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const size_t total = all.size();
    double rank_sum_a = 0, tie_term = 0;
    bool ties = false;
    for (size_t i = 0; i < total;) {
        size_t j = i;
        while (j < total && all[j].first == all[i].first) ++j;
        const double average_rank = (double(i + 1) + double(j)) / 2;  // ranks i+1..j share their mean
        for (size_t k = i; k < j; ++k)
            if (all[k].second) rank_sum_a += average_rank;
        const double t = double(j - i);
        if (j - i > 1) ties = true;
        tie_term += t * t * t - t;
        i = j;
    }
    const double u_a = rank_sum_a - double(m) * double(m + 1) / 2;
    if (!ties && m <= kExactLimit && n <= kExactLimit) {
        // U is an integer without ties; both tails, doubled, capped at 1.
        const size_t u = size_t(std::llround(u_a));
        const double lower = exact_u_cdf(m, n, u);
        const double upper = u == 0 ? 1 : 1 - exact_u_cdf(m, n, u - 1);
        return std::min(1.0, 2 * std::min(lower, upper));
    }
    const double mean_u = double(m) * double(n) / 2;
    const double variance = double(m) * double(n) / 12 *
                            (double(total + 1) - tie_term / (double(total) * double(total - 1)));
    if (!(variance > 0)) return 1;
    const double distance = std::max(0.0, std::fabs(u_a - mean_u) - 0.5);
    return std::min(1.0, std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0)));
}

ShiftEstimate hodges_lehmann_shift(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
    ShiftEstimate e;
    const size_t m = a.size(), n = b.size();
    if (m == 0 || n == 0 || !(alpha > 0 && alpha < 1)) return e;
    std::vector<double> differences;
    differences.reserve(m * n);
    for (double x : a)
        for (double y : b) differences.push_back(y - x);
    std::sort(differences.begin(), differences.end());
    const size_t total = differences.size();
    e.shift = total % 2 ? differences[total / 2] : (differences[total / 2 - 1] + differences[total / 2]) / 2;
    // z with erfc(z / sqrt 2) = alpha, by bisection (erfc falls monotonically on [0, 40]).
    double low_z = 0, high_z = 40;
    for (int i = 0; i < 200; ++i) {
        const double mid = (low_z + high_z) / 2;
        (std::erfc(mid / std::sqrt(2.0)) > alpha ? low_z : high_z) = mid;
    }
    const double mn = double(m) * double(n);
    const double k = std::floor(mn / 2 - low_z * std::sqrt(mn * double(m + n + 1) / 12));
    if (k < 1) return e;
    e.found = true;
    e.low = differences[size_t(k) - 1];
    e.high = differences[total - size_t(k)];
    return e;
}

std::vector<double> holm_adjusted_p_values(const std::vector<double>& p_values) {
    const size_t m = p_values.size();
    std::vector<size_t> order(m);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p_values[a] < p_values[b]; });
    std::vector<double> adjusted(m);
    double running_max = 0;
    for (size_t i = 0; i < m; ++i) {
        const double scaled = std::min(1.0, double(m - i) * p_values[order[i]]);
        running_max = std::max(running_max, scaled);  // step-down: never below an earlier (smaller) p's adjustment
        adjusted[order[i]] = running_max;
    }
    return adjusted;
}

}  // namespace dmltool::app
