// A new run judged against several earlier runs of the same build environment, run by run (issue 40 item 2): the
// history of the results database (`compare --baseline-db`). Two runs of the same build taken minutes or days
// apart differ by much more than either run's own noise (other jobs, the process's memory layout, clocks), so the
// samples of several runs must not be pooled into one base: the run with the most samples (a loaded run takes
// more) would set the base's median, and its noise would be a within-run noise that knows nothing of how far runs
// move. Instead each earlier run is one observation, its median per case x backend, and:
//   - the base is the geometric mean of the runs' medians, the between-run spread s the standard deviation of their
//     logs (n - 1): one odd run in the history widens s, so it makes the gate more careful, never quicker;
//   - the new run's change is judged by a prediction test: t = (log new median - mean log run median) /
//     (s sqrt(1 + 1/n)), Student's t with n - 1 degrees of freedom, two-sided, Holm-adjusted across the cases;
//   - the threshold is max(--threshold, k x s) with k = kHistorySpreadK: a change inside the history's own
//     spread is not a regression, however significant;
//   - the new run's own noise must not explain it either: the change must exceed that threshold by 1.96 x the new
//     median's relative standard error, as in the two-run test (gate/compare.h).
// With fewer than kMinHistoryRuns runs a spread cannot be estimated: the case is judged by the two-run test
// against the most recent run, and the comparison says so.
//
// Fast modes: a process runs a case in one of a few speeds for its whole life (gate/compare_processes.h), so the
// median of a run of five processes flips with how many of them drew a slow mode: the history of one case
// (d2s, gate_rates 2026-11-29) spread 14% between runs of one build, and a 1.5x regression then stayed inside k x
// that spread. The fast mode of a run (the mean log median of its processes within kProcessModeWidth of its
// fastest) moves with the code and much less with the draw. Where the database holds every history run's process
// medians (schema 3) and the new run has processes, each run is its fast mode: base, spread, test and verdict.
// A SLOWER then also needs the new run's median process beyond the history's slow end (the 90th percentile of all
// its processes) by the threshold: a new run whose processes drew slow modes the history has seen is INCONCLUSIVE.
#pragma once

#include <string>
#include <vector>

#include "gate/compare.h"

namespace dmltool::app {

// k: under normal log run medians, a new run of the same build lands beyond k = 3 spreads of a 5-run history
// with probability 2 P(T4 > 3 / sqrt(1.2)) = 0.052 two-sided, half that one-sided; the Holm-adjusted t test at
// --alpha bounds the family-wise rate, k keeps changes within the history's own wandering out of the verdicts.
constexpr double kHistorySpreadK = 3;
constexpr size_t kMinHistoryRuns = 3;
// The history's slow end for fast modes: this quantile of its processes' log medians (history.cpp says why).
constexpr double kHistorySlowEndQuantile = 0.9;

// Two-sided p-value of Student's t statistic with `degrees` (>= 1) degrees of freedom, exact (the finite sums in
// theta = atan(|t| / sqrt(degrees)) of the t distribution's integral for whole degrees of freedom).
double student_t_two_sided_p(double t, unsigned degrees);

// One case x backend against the medians of `run_medians.size()` (>= kMinHistoryRuns) earlier runs: the
// comparison with p_unadjusted set and the verdict for a comparison of one case (Holm leaves one p as is).
// `run_processes`, when given for every run (each run's process medians, bench --processes), and the new run too
// has at least kMinProcesses processes: every run is its fast mode instead of its median (fast modes below).
CaseComparison compare_with_runs(const std::vector<double>& run_medians, const RunCase& next,
                                 const CompareOptions& options,
                                 const std::vector<std::vector<double>>& run_processes = {});

// The threshold a case of the history model is judged against: max(--threshold, k x spread), as a fraction.
double history_threshold(const CaseComparison& c, const CompareOptions& options);

// Holm-adjusts all the cases' p-values together, then assigns each verdict by its own model (history cases
// against their widened threshold, the others as in adjust_and_judge).
void adjust_and_judge_mixed(std::vector<CaseComparison>& cases, const CompareOptions& options);

}  // namespace dmltool::app
