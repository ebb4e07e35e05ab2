#include "gate/history.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/stats.h"
#include "gate/compare_processes.h"

namespace dmltool::app {

double student_t_two_sided_p(double t, unsigned degrees) {
    if (degrees == 0 || !std::isfinite(t)) return std::isinf(t) ? 0.0 : 1.0;
    const double pi = std::acos(-1.0);
    const double theta = std::atan(std::fabs(t) / std::sqrt(double(degrees)));
    const double s = std::sin(theta), c2 = std::cos(theta) * std::cos(theta);
    // A(t | v) = P(|T| < t): for even v, sin(theta) (1 + 1/2 cos^2 + 1.3/(2.4) cos^4 + ... up to cos^(v-2));
    // for odd v, (2/pi) (theta + sin cos (1 + 2/3 cos^2 + 2.4/(3.5) cos^4 + ... up to cos^(v-3))), v = 1: 2 theta / pi.
    double inside;
    if (degrees % 2 == 0) {
        double term = 1, sum = 1;
        for (unsigned k = 2; k + 2 <= degrees; k += 2) {
            term *= double(k - 1) / double(k) * c2;
            sum += term;
        }
        inside = s * sum;
    } else {
        double sum = 0;
        if (degrees > 1) {
            double term = 1;
            sum = 1;
            for (unsigned k = 3; k + 2 <= degrees; k += 2) {
                term *= double(k - 1) / double(k) * c2;
                sum += term;
            }
        }
        inside = 2 / pi * (theta + s * std::cos(theta) * sum);
    }
    return std::clamp(1 - inside, 0.0, 1.0);
}

double history_threshold(const CaseComparison& c, const CompareOptions& options) {
    return std::max(options.threshold, std::expm1(kHistorySpreadK * c.run_spread));
}

namespace {

void judge_against_history(CaseComparison& c, const CompareOptions& options) {
    CompareOptions widened = options;
    widened.threshold = history_threshold(c, options);
    assign_verdict(c, widened);
    // A history of fast modes: a new run most of whose processes drew a slow mode reads slower than the fast modes,
    // though its processes are as fast as processes the history has seen. A change of the code moves its median
    // process beyond the history's slow end (its 90th-percentile process) too.
    if (c.analysis == "fast modes" && c.verdict == Verdict::kSlower && !(c.beyond_history_log > std::log1p(widened.threshold))) {
        char reason[300];
        std::snprintf(reason, sizeof reason, "%s, but the new run's median process is %+.1f%% from the history's "
                      "90th-percentile process, within %.1f%%: its processes may have drawn a slow mode the history has "
                      "seen (rerun, or compare --ab)", c.reason.c_str(), 100 * std::expm1(c.beyond_history_log),
                      100 * widened.threshold);
        c.verdict = Verdict::kInconclusive;
        c.reason = reason;
    }
    // Not significant is not the same: a SAME stands only where the change is shown within --threshold, its 90%
    // interval (change +- 1.645 x the new run's noise) inside +-threshold. The widened threshold (k x the spread)
    // keeps a history's own wandering from reading SLOWER; it cannot make a change of that size the same. Before,
    // planted 1.5x runs read "SAME +34% ... +79%, not significant" against 5-run histories spread 15-35%
    // (thresholds 51-143%), exit 0 (gate_rates --busy-loop, 2026-11-29): such a history cannot tell a regression of
    // the threshold's size from its wandering, and says so (exit 4).
    const double within = std::log1p(options.threshold), change_log = std::log1p(c.change);
    if (c.verdict == Verdict::kSame && !(std::fabs(change_log) + 1.645 * c.change_noise < within)) {
        char reason[300];
        std::snprintf(reason, sizeof reason, "%s, and the change %+.1f%% (+/- %.1f%% at 90%%) is not shown within "
                      "%.1f%%: the history cannot tell it from a regression (more runs of history, or compare --ab)",
                      c.reason.c_str(), 100 * c.change, 100 * 1.645 * c.change_noise, 100 * options.threshold);
        c.verdict = Verdict::kInconclusive;
        c.reason = reason;
    }
    char text[160];
    std::snprintf(text, sizeof text, " [history: %zu runs, spread %.1f%%, threshold max(%.1f%%, %g x spread) = %.1f%%%s]",
                  c.history_runs, 100 * std::expm1(c.run_spread), 100 * options.threshold, kHistorySpreadK,
                  100 * widened.threshold,
                  c.analysis == "fast modes" ? "; each run's processes in the history's fast band (within 10% of its fastest)"
                  : c.processes            ? "; the new run's median and noise from its processes" : "");
    c.reason += text;
}

}  // namespace

CaseComparison compare_with_runs(const std::vector<double>& run_medians, const RunCase& next,
                                 const CompareOptions& options, const std::vector<std::vector<double>>& run_processes) {
    CaseComparison c;
    c.name = next.name;
    c.backend = next.backend;
    const bool by_processes = next.processes.size() >= kMinHistoryRuns;
    // Fast modes (gate/history.h): the history's fast band is its processes within kProcessModeWidth of the fastest
    // process of all its runs; a run with processes in the band is their mean log, a run without any (all its
    // processes drew a slow mode) says nothing of the fast level and is left out of the base and the spread.
    bool by_fast_modes = by_processes && next.processes.size() >= kMinProcesses && run_processes.size() == run_medians.size();
    for (const std::vector<double>& medians : run_processes) by_fast_modes = by_fast_modes && medians.size() >= kMinProcesses;
    std::vector<double> observations = run_medians;  // one per history run
    double history_slow_end_log = 0;
    if (by_fast_modes) {
        std::vector<double> all_logs;
        for (const std::vector<double>& medians : run_processes)
            for (double m : medians) all_logs.push_back(std::log(m));
        std::sort(all_logs.begin(), all_logs.end());
        const double fastest = all_logs.front();
        // The history's slow end: its processes' 90th percentile, against which the new run's median process is
        // held. (Until 2026-11-30 the new run's slowest process against the history's slowest: one history process
        // slowed by other work then vetoed every regression up to its own slowness, and planted 1.5x runs read
        // INCONCLUSIVE in 3 to 9 of 20 gates on a steady machine, gate_rates. The new run's slowest against the
        // history's 90th percentile had let whole same-build runs slowed by other work read SLOWER, 5 of 20.) For
        // processes drawn alike, a new run's median process lies above the history's 90th percentile when three of
        // its five do: P(Bin(5, 0.1) >= 3) = 0.86%, before the fast-mode test must also find the change.
        history_slow_end_log = sample_quantile(all_logs, kHistorySlowEndQuantile);
        const double band = fastest + std::log1p(kProcessModeWidth);
        std::vector<double> fast_runs;
        for (const std::vector<double>& medians : run_processes) {
            double sum = 0;
            int count = 0;
            for (double m : medians)
                if (std::log(m) <= band) sum += std::log(m), ++count;
            if (count) fast_runs.push_back(std::exp(sum / count));
        }
        if (fast_runs.size() >= kMinHistoryRuns)
            observations = fast_runs;
        else
            by_fast_modes = false;
    }
    c.history_runs = observations.size();
    std::vector<double> logs;
    for (double m : observations) logs.push_back(std::log(m));
    const SampleStats log_stats = summarize_samples(logs);
    c.run_spread = log_stats.stddev;
    // The base as compare prints it: the runs' observations as its "samples" (count = runs), its median the
    // geometric mean the test uses.
    c.base = summarize_samples(observations);
    c.base.median = std::exp(log_stats.mean);
    c.next = summarize_samples(next.samples);
    c.next_converged = next.converged;
    // A run of several processes (bench --processes) is one observation like the history's runs: the median of its
    // processes' medians (as bench stores it), or its fast mode against a history of fast modes, and its own noise
    // is how far its processes spread, not how precisely each process measured its own speed mode. The spread as a
    // robust standard error: 1.2533 x 1.4826 x the median absolute deviation of the log process medians /
    // sqrt(processes), so that one process in a slow mode (a wide range) does not make a run of five NOISY.
    if (by_processes) {
        std::vector<double> medians, logs_of_next;
        for (const std::vector<double>& samples : next.processes) {
            medians.push_back(summarize_samples(samples).median);
            logs_of_next.push_back(std::log(medians.back()));
        }
        const double center = summarize_samples(logs_of_next).median;
        std::vector<double> deviations;
        for (double v : logs_of_next) deviations.push_back(std::fabs(v - center));
        const double fast_mode = std::exp(fast_mode_log_mean(logs_of_next));
        c.next.median = by_fast_modes ? fast_mode : std::exp(center);
        c.next.noise = 1.2533 * 1.4826 * summarize_samples(deviations).median / std::sqrt(double(medians.size()));
        c.processes = medians.size();
        c.analysis = by_fast_modes ? "fast modes" : "";
        if (by_fast_modes)
            c.beyond_history_log = center - history_slow_end_log;
        // The fast end, as for separate runs (gate/compare.h): a change of the code moves every process, the fastest
        // too; a run whose majority of processes ran in a slow mode moves its median and not its fast mode. Seen in
        // gate_rates (2026-11-29): same-build runs +34% to +89% on one case against 5-run histories spread 0.4-2.4%
        // (3 of 20 gates SLOWER), the median of five processes in a slow mode. assign_verdict then needs the fast
        // mode beyond the threshold too (against a history of fast modes it is the change itself).
        c.has_fast_end = true;
        c.fast_change = fast_mode / c.base.median - 1;
    }
    c.change = c.raw_change = c.next.median / c.base.median - 1;
    const double n = double(observations.size());
    const double distance = std::log(c.next.median) - log_stats.mean;
    if (c.run_spread > 0)
        c.p_unadjusted = student_t_two_sided_p(distance / (c.run_spread * std::sqrt(1 + 1 / n)), unsigned(n - 1));
    else  // runs of identical medians: any other median is outside them (the threshold still applies)
        c.p_unadjusted = distance == 0 ? 1 : 0;
    c.p_value = c.p_unadjusted;
    // The change's margin is the new run's own noise: the history's spread is in the threshold already.
    c.change_noise = c.next.noise;
    const double noise_limit = history_threshold(c, options) / 2;
    char text[160];
    if (!next.converged && !by_processes) {  // processes: their spread is the noise, whatever each one reached
        c.noisy_reason = "new run did not converge";
    } else if (!(c.next.noise <= noise_limit)) {
        std::snprintf(text, sizeof text, "new run's noise %.2f%% above threshold/2 = %.2f%%", 100 * c.next.noise,
                      100 * noise_limit);
        c.noisy_reason = text;
    }
    judge_against_history(c, options);
    return c;
}

void adjust_and_judge_mixed(std::vector<CaseComparison>& cases, const CompareOptions& options) {
    std::vector<double> raw;
    for (const CaseComparison& c : cases) raw.push_back(c.p_unadjusted);
    const std::vector<double> adjusted = holm_adjusted_p_values(raw);
    for (size_t i = 0; i < cases.size(); ++i) {
        cases[i].p_value = adjusted[i];
        if (cases[i].history_runs >= kMinHistoryRuns)
            judge_against_history(cases[i], options);
        else
            assign_verdict(cases[i], options);
    }
}

}  // namespace dmltool::app
