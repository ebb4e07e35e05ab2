// `dmltool compare BASE.json NEW.json`: the regression gate between two `dmltool bench --report-json` runs. Each
// case x backend present in both gets a verdict from both runs' samples:
//   NOISY   either run did not converge, or either run's noise (relative standard error of the median) exceeds
//           half the threshold: the run cannot resolve a change of the threshold's size, so it judges nothing;
//   SLOWER  the Mann-Whitney U test rejects "same distribution" at --alpha AND the median got slower by more than
//           --threshold (new/base - 1 > threshold);
//   FASTER  the same test rejects AND the median got faster by more than the threshold (new/base - 1 < -threshold);
//   SAME    otherwise: no significant difference, or one smaller than the threshold.
// The p-values are Holm-adjusted across the cases of one comparison (bench/stats.h): 40 unchanged cases at
// alpha 0.05 would otherwise flag two by chance. Holm, not Benjamini-Hochberg: the gate fails a pull request when
// ANY case is SLOWER, so the error that matters is the family-wise one (any false SLOWER), which Holm bounds by
// alpha whatever the other cases do; BH bounds the expected share of false discoveries among the flagged cases.
// Separate runs are also checked for drift (the machine's speed moving between them), from the runs' probes only
// (gate/probes.h: the copy probes around every case and the copy/arithmetic rooflines; the cases never measure
// the machine for each other, so a regression that slows every case alike is SLOWER on every case). A SLOWER/FASTER
// case must move beyond the probes' drift, in the verdict's direction, by more than the threshold plus the probes'
// own spread; otherwise NOISY (the machine moved as much as the code did). With --normalize-by-probes the new run's
// times are also divided by the drift before judging (and a verdict the division made, SLOWER/FASTER after it but
// not before, is NOISY too). Normalising is not the default: on the shared 2-core CI machine the CPU copy probe
// moved by up to 25% between runs while the CPU cases did not (memory bandwidth taken by other jobs, not the
// cores), and dividing by it both made false SLOWERs and hid a planted 1.3x slowdown (docs/compare-gate.md).
// Last, the fast end: other work on a machine lengthens samples and shortens none, so a change in the code moves the
// fastest tenth of a case's samples (the 10th percentile) with its median, while load from elsewhere moves the slow
// end (and the median, when it lasted through much of the case). A SLOWER/FASTER case whose 10th percentile moved by
// less than the threshold is NOISY. It works best with `bench --passes N`, which spreads each case's samples over
// the whole run so that some of them fall between bursts of load. The price: a regression in only some executions
// (an occasional slow path) is NOISY in separate runs.
// `compare --ab` (gate/compare_ab.h) judges interleaved rounds of two builds instead.
// Exit codes: 1 when any case is SLOWER, 2 on bad input or refused runs, 0 otherwise.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench/stats.h"
#include "core/status.h"

namespace dmltool::app {

// INCONCLUSIVE: the test could not have reached significance with the data it had (e.g. too few A/B rounds for the
// number of cases), so "no significant change" says nothing; like NOISY it does not fail the gate.
enum class Verdict { kFaster, kSlower, kSame, kNoisy, kInconclusive };
const char* verdict_name(Verdict v);

struct CompareOptions {
    double threshold = 0.05;  // --threshold (as a fraction): the smallest change of the median that matters
    double alpha = 0.05;      // --alpha: significance level of the Mann-Whitney U test
    bool allow_different_adapters = false;
    std::string format = "table";  // table, markdown, junit, json
    std::string output;            // file; empty = stdout
    bool normalize_by_probes = false;  // --normalize-by-probes: divide the new run's times by the probes' drift
    bool allow_undecided = false;      // --allow-undecided: NOISY/INCONCLUSIVE cases exit 0, not kExitUndecided
};

// compare's exit code when no case is SLOWER but some case could not be judged (NOISY or INCONCLUSIVE): the gate
// neither passes nor fails the change (docs/compare-gate.md: Exit codes).
constexpr int kExitUndecided = 4;

// One case x backend of one run.
struct RunCase {
    std::string name, backend;
    std::vector<double> samples;
    bool converged = true;
    double probe_before = 0, probe_after = 0;  // the copy probes around it (bytes/s); 0: none
    bool compute_bound = false;                // roofline_basis "int_multiply_adds": its drift is the arithmetic roofline's
    uint64_t bytes = 0;  // bytes one execution reads and writes (0: not in the report); small ones follow the in-cache probes
    // bench --processes N (bench/process_merge.h): each process's samples and copy probes; empty for a report of one
    // process, whose `samples` are then its only process.
    std::vector<std::vector<double>> processes = {};
    std::vector<std::vector<double>> process_probes = {};  // per process: its copy probes around this case (bytes/s)
};

// A run's rooflines for one backend (measured before its cases); 0: not measured.
struct RunRoofline {
    double copy_bytes_per_second = 0, int_multiply_adds_per_second = 0;
};

// A bench report as compare needs it.
struct BenchRun {
    std::string path;
    std::string adapter, device, cpu_model, cache, stable_power_state;
    std::string timer = "wall";  // the clock of the host timings (bench --timer); reports before it: wall
    std::vector<RunCase> cases;  // in report order
    std::map<std::string, RunRoofline> rooflines;  // by backend
    // The CPU's in-cache probes (bench/conditions.h HostCacheProbe), by backend, per process (bench --processes: the
    // probes' `process` - 1; a report of one process has one), in bytes/s. Empty in reports before 2026-11-30.
    std::map<std::string, std::vector<std::vector<double>>> cache_probes;
};

// Reads a --report-json file. kInvalidInput, one line naming the file, the field (JSON pointer), what was expected
// and what was found, for anything else.
Result<BenchRun> load_bench_run(const std::string& path);

struct CaseComparison {
    std::string name, backend;
    SampleStats base, next;
    bool base_converged = true, next_converged = true;
    double change = 0;          // next median / base median - 1 (positive: slower), after drift correction
    double p_unadjusted = 1;    // Mann-Whitney U (separate runs) or the sign test (--ab), two-sided
    double p_value = 1;         // p_unadjusted after Holm's adjustment across the comparison's cases
    double change_noise = 0;    // relative standard error of the change (1.96 x it: the change's 95% margin)
    double drift = 0;           // separate runs: the machine's slowdown between them (probes: new/base time - 1)
    bool drift_measured = false;  // separate runs: both runs had a probe of this case's kind (gate/probes.h)
    double drift_log_noise = 0;   //   the probes' own spread (log), which the change must also exceed
    bool drift_is_estimate = false;  //   drift_log_noise is the drift's standard error (runs of several processes)
    std::string drift_source;     //   which probe
    double raw_change = 0;      // the change before the drift was removed (= change unless --normalize-by-probes)
    bool has_fast_end = false;  // separate runs: the fast end of the samples is checked too (see the top of this file)
    double fast_change = 0;     //   next / base - 1 of the fastest tenth (the 10th percentile), after drift correction
    std::string noisy_reason;   // why the runs cannot resolve a change of the threshold's size; empty: they can
    size_t rounds = 0;          // --ab: the paired rounds judged; 0 for separate runs
    size_t processes = 0;       // separate runs judged by processes (gate/compare_processes.h): the fewer of the two
    std::string analysis;       //   sides' processes, and which analysis judged ("fast mode", "two-sample")
    size_t history_runs = 0;    // --baseline-db: the earlier runs judged as one observation each (gate/history.h);
    double run_spread = 0;      //   0: the two-run test; run_spread: the standard deviation of their log medians
    // History of fast modes: log(the new run's median process / the history's 90th-percentile process); a SLOWER
    // needs it beyond the threshold (gate/history.h).
    double beyond_history_log = 0;
    Verdict verdict = Verdict::kSame;
    std::string reason;  // why, in a few words
};

// The verdict from a comparison's change, noise, (adjusted) p-value and drift (see the top of this file).
void assign_verdict(CaseComparison& c, const CompareOptions& options);

struct MachineDrift;

// The verdict for one case from both runs' samples (see the top of this file), alone (no adjustment), judged
// against the machine's probe-measured drift between the runs (none measured: nothing known, no veto).
CaseComparison compare_case(const RunCase& base, const RunCase& next, const CompareOptions& options,
                            const MachineDrift& drift);
CaseComparison compare_case(const RunCase& base, const RunCase& next, const CompareOptions& options);

// Holm-adjusts the cases' p-values together, then assigns every verdict.
void adjust_and_judge(std::vector<CaseComparison>& cases, const CompareOptions& options);

struct Comparison {
    std::string base_path, next_path;
    std::vector<CaseComparison> cases;
    std::vector<std::string> only_in_base, only_in_new;  // "name [backend]": listed, never judged
    std::vector<std::string> notes;                      // e.g. the adapter difference that was allowed
    std::string mode = "separate runs";                  // or "A/B rounds"
};

// What makes two runs' timings incomparable: their different adapters, device runtimes (drivers), CPUs (when the
// base has CPU cases), cache modes or stable power states, as "adapters (base: 'A', new: 'B'); ..."; "" when none.
// compare_runs and `report --html` refuse such runs alike unless --allow-different-adapters.
std::string run_differences(const BenchRun& base, const BenchRun& next);

// kInvalidInput (refused) when the runs come from different adapters, device runtimes (drivers) or CPUs (for CPU
// cases), or used different cache modes or stable power states, unless options.allow_different_adapters; or when no case matches.
Result<Comparison> compare_runs(const BenchRun& base, const BenchRun& next, const CompareOptions& options);

// The comparison as options.format.
std::string format_comparison(const Comparison& comparison, const CompareOptions& options);

// 1 when any case is SLOWER, else 0.
int comparison_exit_code(const Comparison& comparison, const CompareOptions& options);

// Writes the comparison (stdout or options.output) and returns its exit code (2 when the file cannot be written).
int emit_comparison(const Comparison& comparison, const CompareOptions& options);

// The whole command: load, compare, write; returns the exit code.
int compare_command(const std::string& base_path, const std::string& next_path, const CompareOptions& options);

}  // namespace dmltool::app
