#include "gate/probes.h"

#include <cmath>
#include <vector>

#include "bench/stats.h"

namespace dmltool::app {

namespace {

// The median of `logs` and 1.4826 x their median absolute deviation (0 with fewer than three).
void center_and_spread(const std::vector<double>& logs, double& median, double& spread) {
    median = summarize_samples(logs).median;
    spread = 0;
    if (logs.size() < 3) return;
    std::vector<double> deviations;
    for (double v : logs) deviations.push_back(std::fabs(v - median));
    spread = 1.4826 * summarize_samples(deviations).median;
}

}  // namespace

std::map<std::string, BackendProbes> run_probes(const BenchRun& run) {
    std::map<std::string, std::vector<double>> logs;
    for (const RunCase& c : run.cases) {
        // A run of several processes (bench --processes): every process's probes, so the spread includes theirs.
        std::vector<double> probes = {c.probe_before, c.probe_after};
        if (!c.process_probes.empty()) probes.clear();
        for (const std::vector<double>& process : c.process_probes) probes.insert(probes.end(), process.begin(), process.end());
        for (double probe : probes)
            if (probe > 0) logs[c.backend].push_back(std::log(probe));
    }
    std::map<std::string, BackendProbes> out;
    for (auto& [backend, values] : logs) {
        BackendProbes& p = out[backend];
        // The median, since one probe taken in a hiccup must not rescale the whole run.
        double median = 0;
        center_and_spread(values, median, p.copy_log_spread);
        p.copy_median = std::exp(median);
        p.copy_probes = values.size();
    }
    for (const auto& [backend, per_process] : run.cache_probes) {
        std::vector<double> values;
        for (const std::vector<double>& process : per_process)
            for (double rate : process)
                if (rate > 0) values.push_back(std::log(rate));
        if (values.empty()) continue;
        BackendProbes& p = out[backend];
        double median = 0;
        center_and_spread(values, median, p.cache_log_spread);
        p.cache_median = std::exp(median);
    }
    for (const auto& [backend, roofline] : run.rooflines) {
        out[backend].roofline_copy = roofline.copy_bytes_per_second;
        out[backend].roofline_arithmetic = roofline.int_multiply_adds_per_second;
    }
    return out;
}

MachineDrift machine_drift(const std::map<std::string, BackendProbes>& base,
                           const std::map<std::string, BackendProbes>& next, const std::string& backend,
                           bool compute_bound, bool in_cache) {
    MachineDrift d;
    const auto b = base.find(backend), n = next.find(backend);
    if (b == base.end() || n == next.end()) return d;
    const BackendProbes &bp = b->second, &np = n->second;
    // A rate r means a time 1/r: the drift in time is base rate / new rate.
    if (in_cache && bp.cache_median > 0 && np.cache_median > 0) {
        d = {true, bp.cache_median / np.cache_median - 1, std::hypot(bp.cache_log_spread, np.cache_log_spread),
             "in-cache probes"};
    } else if (compute_bound && bp.roofline_arithmetic > 0 && np.roofline_arithmetic > 0) {
        d = {true, bp.roofline_arithmetic / np.roofline_arithmetic - 1, 0, "arithmetic roofline"};
    } else if (bp.copy_median > 0 && np.copy_median > 0) {
        d = {true, bp.copy_median / np.copy_median - 1, std::hypot(bp.copy_log_spread, np.copy_log_spread),
             "copy probes"};
    } else if (bp.roofline_copy > 0 && np.roofline_copy > 0) {
        d = {true, bp.roofline_copy / np.roofline_copy - 1, 0, "copy roofline"};
    }
    return d;
}

}  // namespace dmltool::app
