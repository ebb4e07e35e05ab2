// `dmltool compare --ab BASE_DMLTOOL NEW_DMLTOOL -- BENCH_ARGS...`: the regression gate on one (shared) runner.
// Two separate bench runs taken minutes apart differ by whatever the machine did in between (other jobs, clocks),
// and each run's noise estimate describes only the samples inside it. Here the two builds run alternately instead,
// in rounds: round r runs `BASE bench BENCH_ARGS` and `NEW bench BENCH_ARGS` (each one process over the whole
// selection), base first in even rounds and new first in odd ones (ABBA order: A B B A A B ..., so a drift that is
// linear in time hits both builds alike over every two rounds). Each round gives, per case x backend, one median
// per build and so one paired log ratio log(new/base); the rounds' ratios are judged by the sign test (distribution-
// free, paired: the machine's state in a round cancels in its ratio; one vote per round, so a round spoiled by a
// burst of load weighs no more than another), Holm-adjusted across the
// cases, and turned into the usual FASTER/SLOWER/SAME/NOISY verdicts (gate/compare.h) with the median ratio as
// the change and its order-statistic noise (bench/stats.h) as the change's noise. NOISY: the rounds' ratios are too
// spread to resolve a change of the threshold's size.
#pragma once

#include <string>
#include <vector>

#include "gate/compare.h"

namespace dmltool::app {

struct AbOptions {
    std::string base_tool, new_tool;      // the two dmltool executables (or wrapper scripts)
    std::vector<std::string> bench_args;  // what follows `--`: `bench` is put in front of them
    unsigned rounds = 30;                 // --rounds: at most this many (30: the rate test's setting, docs/compare-gate.md)
    bool fixed_rounds = false;            // --fixed-rounds: no sequential stopping, every round, alpha at the end
    std::string work_dir;                 // --ab-dir: where the rounds' reports and logs go; empty: a temporary one
};

// One build's rounds of one case x backend, as medians per round.
struct AbSeries {
    std::vector<double> base_medians, new_medians;
};

// The comparison of one case from its paired rounds (not yet Holm-adjusted: adjust_and_judge does that).
CaseComparison compare_ab_case(const std::string& name, const std::string& backend, const AbSeries& series,
                               const CompareOptions& options);

// Sequential stopping (issue 40 item 3): the rounds are judged at looks, after round 10 and every 5 rounds after
// it, and at the last round. Each look tests at alpha / K (K looks: Bonferroni over the looks, so that looking
// several times keeps the family-wise false-alarm rate at alpha), Holm across the cases. The rounds stop at the
// first look where every case is decided: SLOWER or FASTER, or SAME with the distribution-free interval of its
// median log ratio (order statistics, at the same alpha / K) inside +-log(1 + threshold). A clear regression or a
// clear sameness on a quiet machine stops after 10 rounds; a noisy one runs to --rounds.
std::vector<unsigned> ab_looks(unsigned rounds);

struct AbCaseSeries {
    std::string name, backend;
    AbSeries series;
};

struct AbLook {
    Comparison comparison;
    bool decided = false;  // every case decided: the rounds may stop here
};

// The judgement after the first `rounds` rounds, at a look of `looks` in all (the last look also marks cases that
// could not have reached significance INCONCLUSIVE).
AbLook judge_ab_look(const std::vector<AbCaseSeries>& cases, unsigned rounds, size_t looks, bool last,
                     const CompareOptions& options);

// Cases whose rounds could not give a Holm-adjusted p below alpha whatever they showed: SAME becomes INCONCLUSIVE
// (never SAME), and a note and a warning say how many.
void mark_unreachable_as_inconclusive(Comparison& comparison, const CompareOptions& options);

// The whole command: validate, run the rounds, judge, write; returns the exit code (2 on bad input or a failed
// child run, else as compare).
int compare_ab_command(const AbOptions& ab, const CompareOptions& options);

}  // namespace dmltool::app
