// `dmltool compare BASE.json NEW.json`: the regression gate between two `dmltool bench --report-json` runs. Each
// case x backend present in both gets a verdict from both runs' samples:
//   NOISY   either run did not converge, or either run's noise (relative standard error of the median) exceeds
//           half the threshold: the run cannot resolve a change of the threshold's size, so it judges nothing;
//   SLOWER  the Mann-Whitney U test rejects "same distribution" at --alpha AND the median got slower by more than
//           --threshold (new/base - 1 > threshold);
//   FASTER  the same test rejects AND the median got faster by more than the threshold (new/base - 1 < -threshold);
//   SAME    otherwise: no significant difference, or one smaller than the threshold.
// Exit codes: 1 when any case is SLOWER, 2 on bad input or refused runs, 0 otherwise.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/bench_stats.h"
#include "core/status.h"

namespace dmltool::app {

enum class Verdict { kFaster, kSlower, kSame, kNoisy };
const char* verdict_name(Verdict v);

struct CompareOptions {
    double threshold = 0.05;  // --threshold (as a fraction): the smallest change of the median that matters
    double alpha = 0.05;      // --alpha: significance level of the Mann-Whitney U test
    bool allow_different_adapters = false;
    std::string format = "table";  // table, markdown, junit, json
    std::string output;            // file; empty = stdout
};

// One case x backend of one run.
struct RunCase {
    std::string name, backend;
    std::vector<double> samples;
    bool converged = true;
};

// A bench report as compare needs it.
struct BenchRun {
    std::string path;
    std::string adapter, device, cpu_model, cache, stable_power_state;
    std::vector<RunCase> cases;  // in report order
};

// Reads a --report-json file. kInvalidInput, one line naming the file, the field (JSON pointer), what was expected
// and what was found, for anything else.
Result<BenchRun> load_bench_run(const std::string& path);

struct CaseComparison {
    std::string name, backend;
    SampleStats base, next;
    bool base_converged = true, next_converged = true;
    double change = 0;   // next median / base median - 1 (positive: slower)
    double p_value = 1;  // Mann-Whitney U, two-sided
    Verdict verdict = Verdict::kSame;
    std::string reason;  // why, in a few words
};

// The verdict for one case from both runs' samples (see the top of this file).
CaseComparison compare_case(const RunCase& base, const RunCase& next, const CompareOptions& options);

struct Comparison {
    std::string base_path, next_path;
    std::vector<CaseComparison> cases;
    std::vector<std::string> only_in_base, only_in_new;  // "name [backend]": listed, never judged
    std::vector<std::string> notes;                      // e.g. the adapter difference that was allowed
};

// kInvalidInput (refused) when the runs come from different adapters, device runtimes (drivers) or CPUs (for CPU
// cases), or used different cache modes or stable power states, unless options.allow_different_adapters; or when no case matches.
Result<Comparison> compare_runs(const BenchRun& base, const BenchRun& next, const CompareOptions& options);

// The comparison as options.format.
std::string format_comparison(const Comparison& comparison, const CompareOptions& options);

// 1 when any case is SLOWER, else 0.
int comparison_exit_code(const Comparison& comparison);

// The whole command: load, compare, write; returns the exit code.
int compare_command(const std::string& base_path, const std::string& next_path, const CompareOptions& options);

}  // namespace dmltool::app
