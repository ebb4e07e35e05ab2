// Separate runs judged process by process (issue 40): when both reports were made by `bench --processes N` with
// N >= kMinProcesses, each process is one observation of a case (its median), not each sample. A process can run a
// case in one of a few speeds for its whole life (memory layout; bench/process_merge.h), so the samples of one
// process, however many, say nothing of the next one, and a test on pooled samples takes one slow process for a
// slower build (and a fast one for a faster build). Between processes the modes are part of the noise.
//
// Two analyses of the processes' log medians, and the more precise one judges (the narrower 95% interval of the
// change: a width that does not move with the change itself, so the choice cannot lean toward a verdict; as
// `compare --ab` chooses among its analyses, gate/compare_ab.h):
//   - two-sample: Mann-Whitney's test (exact for small counts without ties), the Hodges-Lehmann shift as the change,
//     its distribution-free interval as the noise;
//   - fast mode: slow modes and load only add time, so each side's fastest processes show the code. Each side's
//     fast mode is its processes within kProcessModeWidth of its fastest process (the measured modes are 40% and more
//     apart, the processes of one mode within a few percent); the change is the difference of the two modes' mean
//     log medians, tested by the pooled two-sample t test (kb + kn - 2 degrees of freedom), its variance at least the
//     processes' own median noise (tied processes do not make a mode exact). A side's band of one process is a mode
//     only when its next process is kProcessModeGap or more behind it; closer, it is the fast end of one scattered
//     level, and two-sample judges. A side all of whose processes ran slow
//     (p^N: 0.3^5 = 0.24% per side and case in the measured mixture) reads slow; the drift, fast-end and
//     equivalence checks and Holm still apply.
// Then, as for samples (gate/compare.h): Holm across the cases, the probes' drift veto, the fast end of the pooled
// samples, and SAME only on a machine that could not hide a regression. And SAME needs equivalence, as at the last
// look of `compare --ab`: the change's 90% interval (change +- 1.645 x its noise) inside +-threshold; else
// INCONCLUSIVE (exit 4). Not significant is not the same.
#pragma once

#include <vector>

#include "gate/compare.h"
#include "gate/probes.h"

namespace dmltool::app {

constexpr size_t kMinProcesses = 3;
// Processes within this (relative) distance of a side's fastest process count as its fast mode.
constexpr double kProcessModeWidth = 0.10;
// A lone fastest process is a mode of its own only this far (relative) ahead of the next: the measured modes are 40%
// and more apart, the processes of one level scattered up to about 15% on a loaded machine.
constexpr double kProcessModeGap = 0.25;

// Both runs carry at least kMinProcesses processes of this case.
bool judged_by_processes(const RunCase& base, const RunCase& next);

// The medians of a case's processes (empty for a report of one process).
std::vector<double> process_medians(const RunCase& c);

// The comparison of one case from its processes (not yet Holm-adjusted: adjust_and_judge does that).
CaseComparison compare_case_by_processes(const RunCase& base, const RunCase& next, const CompareOptions& options,
                                         const MachineDrift& drift);

// The machine's drift between two runs of several processes, for the cases judged by processes: per process, the
// median of its copy probes on `backend` (all its cases'); per run, the median of those; the drift is the ratio of
// the two runs' (new time / base time - 1) and its noise the standard error of that ratio (each run's 1.2533 x
// 1.4826 x MAD of its processes' log probe medians / sqrt(processes), in quadrature), not the probes' spread: the
// cases' own spread between processes is in their analysis already, and what the drift must show is whether the
// machine as a whole was slower in one run. The copy probe on the shared 2-core machine spreads 10-20 GB/s from
// probe to probe in every process (2026-11-29), which as a spread vetoed a planted 1.5x on every case (spread 47%).
// With `in_cache` (a case within kInCacheCaseBytes, gate/probes.h) the processes' in-cache probes stand for the copy
// probes where both runs took them. Not measured when either run has fewer than kMinProcesses processes with probes.
MachineDrift drift_by_processes(const BenchRun& base, const BenchRun& next, const std::string& backend,
                                bool in_cache);

// After adjust_and_judge: the cases judged by processes keep SAME only with equivalence, and their reasons name the
// analysis.
void finish_process_cases(std::vector<CaseComparison>& cases, const CompareOptions& options);

// The mean log median of the fast mode of `logs` (log process medians: those within kProcessModeWidth of the
// fastest). History uses it as a new run's fast end (gate/history.cpp).
double fast_mode_log_mean(const std::vector<double>& logs);

// The 97.5% quantile of Student's t with `degrees` degrees of freedom (bisection on student_t_two_sided_p).
double student_t_975(unsigned degrees);

}  // namespace dmltool::app
