#include "gate/compare_processes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/stats.h"
#include "gate/history.h"

namespace dmltool::app {
namespace {

// The fast mode of one side: its processes within kProcessModeWidth of the fastest (sorted log medians).
std::vector<double> fast_mode(std::vector<double> logs) {
    std::sort(logs.begin(), logs.end());
    const double limit = logs.front() + std::log1p(kProcessModeWidth);
    logs.erase(std::upper_bound(logs.begin(), logs.end(), limit), logs.end());
    return logs;
}

// Whether `band` (fast_mode(logs)) is a mode: two processes or more, or one whose next process is a mode apart.
bool is_mode(const std::vector<double>& band, std::vector<double> logs) {
    if (band.size() != 1 || logs.size() < 2) return !band.empty();
    std::sort(logs.begin(), logs.end());
    return logs[1] - logs[0] >= std::log1p(kProcessModeGap);
}

double mean_of(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / double(v.size());
}

struct Analysis {
    bool found = false;
    double change_log = 0, half_width = 0, p = 1;  // half_width: of the 95% interval, in log units
    size_t base_mode = 0, next_mode = 0;
};

// See the top of gate/compare_processes.h. `floor_log_noise`: the processes' own median noise, the least variance
// a process's median has.
Analysis fast_mode_analysis(const std::vector<double>& base_logs, const std::vector<double>& next_logs,
                            double floor_log_noise) {
    Analysis a;
    const std::vector<double> b = fast_mode(base_logs), n = fast_mode(next_logs);
    a.base_mode = b.size();
    a.next_mode = n.size();
    // A side with one process in its band is a mode of its own only when its other processes are a mode apart
    // (kProcessModeGap); closer, its fastest process is the fast end of one scattered level, faster than that level
    // by the scatter. Judged as a mode it made a same-build pair SLOWER: qlconv +13.5% (1 + 5 of 5 + 5 processes in
    // the bands, the base's fastest 13% ahead of its other four and of all five new ones; gate_rates, 2026-11-30).
    // Such a pair is left to the two-sample analysis.
    if (!is_mode(b, base_logs) || !is_mode(n, next_logs)) return a;
    if (b.size() + n.size() < 3) return a;  // no degree of freedom for the spread
    const unsigned degrees = unsigned(b.size() + n.size() - 2);
    const double mb = mean_of(b), mn = mean_of(n);
    double squares = 0;
    for (double x : b) squares += (x - mb) * (x - mb);
    for (double x : n) squares += (x - mn) * (x - mn);
    const double variance = std::max(squares / degrees, floor_log_noise * floor_log_noise);
    const double se = std::sqrt(variance * (1.0 / double(b.size()) + 1.0 / double(n.size())));
    a.change_log = mn - mb;
    a.half_width = student_t_975(degrees) * se;
    a.p = se > 0 ? student_t_two_sided_p(a.change_log / se, degrees) : (a.change_log == 0 ? 1 : 0);
    a.found = true;
    return a;
}

}  // namespace

double fast_mode_log_mean(const std::vector<double>& logs) {
    return logs.empty() ? 0.0 : mean_of(fast_mode(logs));
}

double student_t_975(unsigned degrees) {
    double low = 1.9, high = 700;  // t(0.975, 1) = 12.7; bisection on the two-sided p = 0.05
    for (int i = 0; i < 100; ++i) {
        const double mid = (low + high) / 2;
        (student_t_two_sided_p(mid, degrees) > 0.05 ? low : high) = mid;
    }
    return (low + high) / 2;
}

// A run's center (median log probe rate of its processes' medians) and its robust standard error; false with fewer
// than kMinProcesses processes that probed.
// `in_cache`: the run's in-cache probes (by their process), else the copy probes around its cases.
static bool run_probe_center(const BenchRun& run, const std::string& backend, bool in_cache, double& center,
                             double& se) {
    std::vector<std::vector<double>> per_process;
    auto add = [&per_process](const std::vector<std::vector<double>>& rates) {
        if (per_process.size() < rates.size()) per_process.resize(rates.size());
        for (size_t p = 0; p < rates.size(); ++p)
            for (double probe : rates[p])
                if (probe > 0) per_process[p].push_back(std::log(probe));
    };
    if (in_cache) {
        const auto found = run.cache_probes.find(backend);
        if (found != run.cache_probes.end()) add(found->second);
    } else {
        for (const RunCase& c : run.cases)
            if (c.backend == backend) add(c.process_probes);
    }
    std::vector<double> medians;
    for (const std::vector<double>& logs : per_process)
        if (!logs.empty()) medians.push_back(summarize_samples(logs).median);
    if (medians.size() < kMinProcesses) return false;
    center = summarize_samples(medians).median;
    std::vector<double> deviations;
    for (double m : medians) deviations.push_back(std::fabs(m - center));
    se = 1.2533 * 1.4826 * summarize_samples(deviations).median / std::sqrt(double(medians.size()));
    return true;
}

MachineDrift drift_by_processes(const BenchRun& base, const BenchRun& next, const std::string& backend,
                                bool in_cache) {
    MachineDrift d;
    double base_center = 0, base_se = 0, next_center = 0, next_se = 0;
    if (in_cache && (!run_probe_center(base, backend, true, base_center, base_se) ||
                     !run_probe_center(next, backend, true, next_center, next_se)))
        in_cache = false;  // fewer than kMinProcesses processes took in-cache probes: the copy probes, as before them
    if (!in_cache && (!run_probe_center(base, backend, false, base_center, base_se) ||
                      !run_probe_center(next, backend, false, next_center, next_se)))
        return d;
    d.measured = true;
    d.drift = std::exp(base_center - next_center) - 1;  // rates: a time is 1 / rate
    d.log_noise = std::hypot(base_se, next_se);
    d.source = in_cache ? "in-cache probes (median of each process's)" : "copy probes (median of each process's)";
    d.standard_error = true;
    return d;
}

bool judged_by_processes(const RunCase& base, const RunCase& next) {
    return base.processes.size() >= kMinProcesses && next.processes.size() >= kMinProcesses;
}

std::vector<double> process_medians(const RunCase& c) {
    std::vector<double> out;
    for (const std::vector<double>& samples : c.processes) out.push_back(summarize_samples(samples).median);
    return out;
}

CaseComparison compare_case_by_processes(const RunCase& base, const RunCase& next, const CompareOptions& options,
                                         const MachineDrift& drift) {
    // The pooled samples give what compare prints beside the verdict (medians, counts) and the fast end; the
    // processes give the verdict.
    CaseComparison c = compare_case(base, next, options, drift);
    c.noisy_reason.clear();
    c.processes = std::min(base.processes.size(), next.processes.size());
    std::vector<double> base_logs, next_logs;
    std::vector<double> noises;  // each process's median noise (relative: about its log's standard error)
    for (const RunCase* side : {&base, &next})
        for (const std::vector<double>& samples : side->processes) {
            const SampleStats s = summarize_samples(samples);
            (side == &base ? base_logs : next_logs).push_back(std::log(s.median));
            if (std::isfinite(s.noise)) noises.push_back(s.noise);
        }
    // The typical process's, not the worst: one process that did not converge must not blur the others' mode.
    const double own_noise = noises.empty() ? 0 : summarize_samples(noises).median;
    const double scale = options.normalize_by_probes && drift.measured ? std::log1p(drift.drift) : 0;
    for (double& v : next_logs) v -= scale;
    const ShiftEstimate shift = hodges_lehmann_shift(base_logs, next_logs, 0.05);
    const Analysis fast = fast_mode_analysis(base_logs, next_logs, own_noise);
    const double shift_half = shift.found ? (shift.high - shift.low) / 2 : INFINITY;
    const double fast_half = fast.found ? fast.half_width : INFINITY;
    char text[200];
    double half;
    if (fast_half < shift_half) {
        half = fast_half;
        c.change = std::expm1(fast.change_log);
        c.p_unadjusted = c.p_value = fast.p;
        std::snprintf(text, sizeof text, "fast mode: %zu + %zu of %zu + %zu processes within %.0f%% of each side's "
                      "fastest, t test", fast.base_mode, fast.next_mode, base_logs.size(), next_logs.size(),
                      100 * kProcessModeWidth);
    } else {
        half = shift_half;
        c.change = std::expm1(shift.found ? shift.shift : 0.0);
        c.p_unadjusted = c.p_value = mann_whitney_p_value(base_logs, next_logs);
        std::snprintf(text, sizeof text, "two-sample: %zu + %zu processes' medians, Mann-Whitney, Hodges-Lehmann shift",
                      base_logs.size(), next_logs.size());
    }
    c.analysis = text;
    // The margin assign_verdict takes (1.96 x the noise) is then the chosen analysis's 95% half-width.
    c.change_noise = half / 1.96;
    const double raw_scale = std::exp(scale);
    c.raw_change = (1 + c.change) * raw_scale - 1;
    const double noise_limit = options.threshold / 2;
    if (!(c.change_noise <= noise_limit)) {
        std::snprintf(text, sizeof text, "the processes are too spread: noise %.2f%% above threshold/2 = %.2f%%",
                      100 * c.change_noise, 100 * noise_limit);
        c.noisy_reason = text;
    }
    assign_verdict(c, options);
    return c;
}

void finish_process_cases(std::vector<CaseComparison>& cases, const CompareOptions& options) {
    const double within = std::log1p(options.threshold);
    for (CaseComparison& c : cases) {
        if (!c.processes) continue;
        if (c.verdict == Verdict::kSame) {
            const double change_log = std::log1p(c.change), margin = 1.645 * c.change_noise;
            if (std::fabs(change_log) + margin < within) {
                c.reason += "; equivalent within the threshold (90% interval inside it)";
            } else {
                char text[360];
                std::snprintf(text, sizeof text, "%s, and the change's 90%% interval [%+.1f%%, %+.1f%%] reaches beyond "
                              "+/-%.1f%%: the processes cannot tell a change of the threshold's size from none (more "
                              "--processes)", c.reason.c_str(), 100 * std::expm1(change_log - margin),
                              100 * std::expm1(change_log + margin), 100 * options.threshold);
                c.verdict = Verdict::kInconclusive;
                c.reason = text;
            }
        }
        c.reason += " [" + c.analysis + "]";
    }
}

}  // namespace dmltool::app
