#include "gate/compare_ab.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#ifndef _WIN32
#include <unistd.h>
#endif

#include "bench/stats.h"
#include "gate/child_process.h"

namespace dmltool::app {
namespace {

namespace fs = std::filesystem;

Status validate(const AbOptions& ab) {
    if (ab.bench_args.empty())
        return invalid_input("compare --ab: expected bench arguments after '--' (e.g. -- cases/perf/smoke.json "
                             "--backend cpu), found none");
    for (const std::string& arg : ab.bench_args)
        for (const char* owned : {"--report-json", "--report-csv", "--results-db"})
            if (arg == owned || arg.rfind(std::string(owned) + "=", 0) == 0)
                return invalid_input("compare --ab: bench argument '" + arg + "': expected no " + owned +
                                     " (compare --ab writes each round's report itself; see --ab-dir)");
    for (const std::string* tool : {&ab.base_tool, &ab.new_tool}) {
        std::error_code error;
        if (!fs::is_regular_file(*tool, error))
            return invalid_input("compare --ab: expected a dmltool executable, found no file '" + *tool + "'");
#ifndef _WIN32
        if (access(tool->c_str(), X_OK) != 0)
            return invalid_input("compare --ab: expected an executable dmltool, found '" + *tool + "' not executable");
#endif
    }
    return Status::ok();
}

// The median of each sample set of one run, by case x backend.
using RoundMedians = std::map<std::pair<std::string, std::string>, double>;

RoundMedians medians_of(const BenchRun& run) {
    RoundMedians out;
    for (const RunCase& c : run.cases) out[{c.name, c.backend}] = summarize_samples(c.samples).median;
    return out;
}


// Per case x backend, the per-round medians of both builds over the rounds run so far; cases missing from any
// round of either build are listed instead of judged.
std::vector<AbCaseSeries> paired_series(const std::vector<BenchRun>& base_runs, const std::vector<BenchRun>& new_runs,
                                        std::vector<std::string>& only_in_base, std::vector<std::string>& only_in_new) {
    only_in_base.clear();
    only_in_new.clear();
    std::vector<RoundMedians> base_medians, new_medians;
    for (const BenchRun& r : base_runs) base_medians.push_back(medians_of(r));
    for (const BenchRun& r : new_runs) new_medians.push_back(medians_of(r));
    std::vector<AbCaseSeries> out;
    for (const RunCase& c : base_runs[0].cases) {
        const auto key = std::make_pair(c.name, c.backend);
        AbCaseSeries s{c.name, c.backend, {}};
        bool everywhere = true;
        for (size_t r = 0; r < base_medians.size() && r < new_medians.size() && everywhere; ++r) {
            const auto b = base_medians[r].find(key), n = new_medians[r].find(key);
            everywhere = b != base_medians[r].end() && n != new_medians[r].end();
            if (everywhere) {
                s.series.base_medians.push_back(b->second);
                s.series.new_medians.push_back(n->second);
            }
        }
        if (!everywhere) {
            only_in_base.push_back(c.name + " [" + c.backend + "] (not in every round of both builds)");
            continue;
        }
        out.push_back(std::move(s));
    }
    for (const RunCase& c : new_runs[0].cases)
        if (!base_medians[0].count({c.name, c.backend})) only_in_new.push_back(c.name + " [" + c.backend + "]");
    return out;
}

// The builds' fast ends: load and a process's memory layout add time and never take it away, so a change of the
// code moves the fastest rounds of a build with the rest while the slow rounds are the machine's. The lower quartile
// of each build's per-round log medians gives the change; Fisher's exact test of how many of each build's rounds
// fall among the fastest quarter of all rounds gives its p-value (a planted 1.3x whose processes ran in 1x/1.5x speed
// modes: detected in 99.5% of simulated 30-round gates at p < 0.0025, against 81% for Mann-Whitney and 55% for the
// paired sign test; same builds 0-0.5%).
struct FastEnd {
    bool found = false;
    double change_log = 0, noise = 0, p = 1;
};

double log_choose(size_t n, size_t k) {
    return std::lgamma(double(n) + 1) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1);
}

FastEnd fast_end(std::vector<double> base_logs, std::vector<double> new_logs) {
    FastEnd f;
    const size_t m = base_logs.size(), n = new_logs.size();
    if (m < 8 || n < 8) return f;
    std::sort(base_logs.begin(), base_logs.end());
    std::sort(new_logs.begin(), new_logs.end());
    constexpr double kQuantile = 0.25;
    // The lower quartile of one build (order statistic of rank ceil(q n)) and the 95% interval of its ranks (the
    // binomial's normal approximation), clamped to the samples.
    auto quartile = [&](const std::vector<double>& v, double& low, double& high) {
        const double count = double(v.size()), spread = 1.96 * std::sqrt(count * kQuantile * (1 - kQuantile));
        const auto at = [&](double rank) { return v[size_t(std::clamp(rank, 1.0, count)) - 1]; };
        low = at(std::floor(count * kQuantile - spread));
        high = at(std::ceil(count * kQuantile + spread));
        return at(std::ceil(count * kQuantile));
    };
    double base_low, base_high, new_low, new_high;
    const double base_q = quartile(base_logs, base_low, base_high), new_q = quartile(new_logs, new_low, new_high);
    f.change_log = new_q - base_q;
    f.noise = std::hypot(base_high - base_low, new_high - new_low) / 3.92;
    // Fisher's exact test on the 2 x 2 table: rounds at or below the combined lower quartile, by build.
    std::vector<double> all(base_logs);
    all.insert(all.end(), new_logs.begin(), new_logs.end());
    std::sort(all.begin(), all.end());
    const double cut = all[size_t(std::ceil(double(all.size()) * kQuantile)) - 1];
    const size_t base_below = size_t(std::upper_bound(base_logs.begin(), base_logs.end(), cut) - base_logs.begin());
    const size_t new_below = size_t(std::upper_bound(new_logs.begin(), new_logs.end(), cut) - new_logs.begin());
    const size_t below = base_below + new_below, total = m + n;
    auto log_p = [&](size_t x) { return log_choose(below, x) + log_choose(total - below, m - x) - log_choose(total, m); };
    const double observed = log_p(base_below);
    double p = 0;
    const size_t lowest = below > n ? below - n : 0, highest = std::min(below, m);
    for (size_t x = lowest; x <= highest; ++x)
        if (log_p(x) <= observed + 1e-9) p += std::exp(log_p(x));
    f.p = std::min(1.0, p);
    f.found = true;
    return f;
}

}  // namespace

CaseComparison compare_ab_case(const std::string& name, const std::string& backend, const AbSeries& series,
                               const CompareOptions& options) {
    CaseComparison c;
    c.name = name;
    c.backend = backend;
    c.base = summarize_samples(series.base_medians);
    c.next = summarize_samples(series.new_medians);
    std::vector<double> log_ratios, ratios;
    for (size_t r = 0; r < series.base_medians.size() && r < series.new_medians.size(); ++r) {
        if (!(series.base_medians[r] > 0) || !(series.new_medians[r] > 0)) continue;
        log_ratios.push_back(std::log(series.new_medians[r] / series.base_medians[r]));
        ratios.push_back(series.new_medians[r] / series.base_medians[r]);
    }
    c.rounds = ratios.size();
    const SampleStats ratio = summarize_samples(ratios);
    c.change = c.raw_change = ratios.empty() ? 0 : ratio.median - 1;
    c.change_noise = ratio.noise;
    // Three analyses of the same rounds; the most precise one judges (the narrowest 95% interval of the change: a
    // width that does not move with the change itself, so the choice cannot lean toward a verdict):
    // - the paired ratios with the sign test, not Wilcoxon's signed ranks: under heavy load a burst over one side of
    //   a round moves its ratio by more than the change (+50-100% vs +30%), and the ranks then give the spoiled
    //   rounds the most weight (a planted 1.3x at Holm p = 0.11 over 20 rounds on a loaded 2-core machine,
    //   2026-11-28); votes do not. Pairing removes what a round's machine state does to both builds;
    // - each build's per-round log medians with Mann-Whitney's test and the Hodges-Lehmann shift as the change:
    //   every round starts fresh processes, and a process may run a case in one of a few speeds (memory layout;
    //   bench/stats.h: hodges_lehmann_shift). Pairing two such draws gives ratios in three modes, a quarter of them
    //   below 1 for a planted 1.3x (the sign test lost 4 of 20 planted gates on a quiet machine, 2026-11-29);
    //   between the builds' own medians the modes line up and the shift is the change;
    // - each build's fast end (fast_end above), where load and slow process modes are left out altogether.
    std::vector<double> base_logs, new_logs;
    for (size_t r = 0; r < series.base_medians.size() && r < series.new_medians.size(); ++r) {
        if (!(series.base_medians[r] > 0) || !(series.new_medians[r] > 0)) continue;
        base_logs.push_back(std::log(series.base_medians[r]));
        new_logs.push_back(std::log(series.new_medians[r]));
    }
    const ShiftEstimate shift = hodges_lehmann_shift(base_logs, new_logs, 0.05);
    const double shift_noise = shift.found ? (shift.high - shift.low) / 3.92 : 0;
    const FastEnd fast = fast_end(base_logs, new_logs);
    double noise = ratio.noise;
    const char* noise_of = "per-round ratios";
    const char* analysis = "";
    c.p_unadjusted = c.p_value = sign_test_p_value(log_ratios);
    if (fast.found && fast.noise < noise && (!shift.found || fast.noise <= shift_noise)) {
        c.change = c.raw_change = std::expm1(fast.change_log);
        noise = c.change_noise = fast.noise;  // in log units: the relative standard error of the change
        noise_of = "the builds' fastest quarters of rounds";
        analysis = " [fast ends: each build's lower quartile of rounds, Fisher's exact test]";
        c.p_unadjusted = c.p_value = fast.p;
    } else if (shift.found && shift_noise < noise) {
        c.change = c.raw_change = std::expm1(shift.shift);
        noise = c.change_noise = shift_noise;
        noise_of = "the builds' per-round medians";
        analysis = " [two-sample: Mann-Whitney, Hodges-Lehmann shift]";
        c.p_unadjusted = c.p_value = mann_whitney_p_value(base_logs, new_logs);
    }
    const double noise_limit = options.threshold / 2;
    if (!(noise <= noise_limit)) {
        char text[200];
        std::snprintf(text, sizeof text, "%s too spread: noise %.2f%% above threshold/2 = %.2f%% (%zu rounds)",
                      noise_of, 100 * noise, 100 * noise_limit, c.rounds);
        c.noisy_reason = text;
    }
    assign_verdict(c, options);
    c.reason += analysis;
    return c;
}

void mark_unreachable_as_inconclusive(Comparison& comparison, const CompareOptions& options) {
    // The smallest p-value n rounds (without ties) can give is 2 / 2^n, at most 1; Holm's first step multiplies it
    // by the number of cases. Where even that is not below alpha, "not significant" was certain beforehand.
    const double cases = double(comparison.cases.size());
    size_t unreachable = 0;
    double smallest_adjusted = 1;
    for (CaseComparison& c : comparison.cases) {
        const double smallest_p = std::min(1.0, std::ldexp(2.0, -int(std::min<size_t>(c.rounds, 1000))));
        const double adjusted = std::min(1.0, smallest_p * cases);
        if (adjusted < options.alpha) continue;
        ++unreachable;
        smallest_adjusted = std::min(smallest_adjusted, adjusted);
        if (c.verdict != Verdict::kSame) continue;
        char text[200];
        std::snprintf(text, sizeof text, "%zu rounds cannot show a change significant at alpha %.3g among %zu cases "
                      "(the smallest Holm-adjusted p they can give is %.3g): use more --rounds", c.rounds,
                      options.alpha, comparison.cases.size(), adjusted);
        c.verdict = Verdict::kInconclusive;
        c.reason = text;
    }
    if (unreachable) {
        char text[200];
        std::snprintf(text, sizeof text, "%zu of %zu cases cannot be significant at alpha %.3g with their rounds (the "
                      "smallest Holm-adjusted p is %.3g): use more --rounds", unreachable, comparison.cases.size(),
                      options.alpha, smallest_adjusted);
        comparison.notes.push_back(text);
        std::fprintf(stderr, "dmltool: warning: %s\n", text);
    }
}

std::vector<unsigned> ab_looks(unsigned rounds) {
    constexpr unsigned kFirstLook = 10, kLookEvery = 5;
    std::vector<unsigned> looks;
    for (unsigned n = kFirstLook; n < rounds; n += kLookEvery) looks.push_back(n);
    looks.push_back(rounds);
    return looks;
}

AbLook judge_ab_look(const std::vector<AbCaseSeries>& cases, unsigned rounds, size_t looks, bool last,
                     const CompareOptions& options) {
    CompareOptions at_look = options;
    at_look.alpha = options.alpha / double(looks);
    AbLook look;
    look.comparison.mode = "A/B rounds";
    std::vector<std::vector<double>> log_ratios;
    for (const AbCaseSeries& c : cases) {
        AbSeries first;
        const size_t n = std::min<size_t>(rounds, std::min(c.series.base_medians.size(), c.series.new_medians.size()));
        first.base_medians.assign(c.series.base_medians.begin(), c.series.base_medians.begin() + n);
        first.new_medians.assign(c.series.new_medians.begin(), c.series.new_medians.begin() + n);
        log_ratios.emplace_back();
        for (size_t r = 0; r < n; ++r)
            if (first.base_medians[r] > 0 && first.new_medians[r] > 0)
                log_ratios.back().push_back(std::log(first.new_medians[r] / first.base_medians[r]));
        look.comparison.cases.push_back(compare_ab_case(c.name, c.backend, first, at_look));
    }
    adjust_and_judge(look.comparison.cases, at_look);
    look.decided = true;
    const double within = std::log1p(options.threshold);
    for (size_t i = 0; i < look.comparison.cases.size(); ++i) {
        CaseComparison& c = look.comparison.cases[i];
        if (c.verdict == Verdict::kSlower || c.verdict == Verdict::kFaster) continue;
        const MedianInterval interval = median_interval(log_ratios[i], at_look.alpha);
        if (c.verdict == Verdict::kSame && interval.found && interval.low > -within && interval.high < within) {
            char text[200];
            std::snprintf(text, sizeof text, "the median change's interval [%+.1f%%, %+.1f%%] (%.3g level, %zu rounds) "
                          "lies within +/-%.1f%%", 100 * std::expm1(interval.low), 100 * std::expm1(interval.high),
                          1 - at_look.alpha, log_ratios[i].size(), 100 * options.threshold);
            c.reason = text;
            continue;
        }
        look.decided = false;
        // Not significant is not the same: at the last look a SAME is kept only where the change is shown to lie
        // within the threshold, by the two one-sided tests of equivalence at alpha (the 90% interval of the change
        // from the judging analysis, change +- 1.645 x its noise, inside +-threshold); otherwise it could hide a
        // regression of the threshold's size (CI, 2026-11-29: a planted 1.3x read SAME +28.2%, exit 0).
        if (last && c.verdict == Verdict::kSame) {
            const double change_log = std::log1p(c.change), margin = 1.645 * c.change_noise;
            if (std::fabs(change_log) + margin < within) {
                c.reason += "; equivalent within the threshold (90% interval inside it)";
                continue;
            }
            char text[300];
            std::snprintf(text, sizeof text, "%s, and the change's 90%% interval [%+.1f%%, %+.1f%%] reaches beyond "
                          "+/-%.1f%%: the rounds cannot tell a change of the threshold's size from none (more --rounds)",
                          c.reason.c_str(), 100 * std::expm1(change_log - margin), 100 * std::expm1(change_log + margin),
                          100 * options.threshold);
            c.verdict = Verdict::kInconclusive;
            c.reason = text;
        }
    }
    if (last) mark_unreachable_as_inconclusive(look.comparison, at_look);
    return look;
}

int compare_ab_command(const AbOptions& ab, const CompareOptions& options) {
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "dmltool: error: %s\n", s.message().c_str());
        return 2;
    };
    if (Status s = validate(ab); !s.is_ok()) return fail(s);
    std::error_code error;
    const bool temporary = ab.work_dir.empty();
    const fs::path dir = temporary ? fs::temp_directory_path(error) / ("dmltool_ab_" + std::to_string(
#ifndef _WIN32
                                                                                           getpid()
#else
                                                                                           0
#endif
                                                                                           ))
                                   : fs::path(ab.work_dir);
    fs::create_directories(dir, error);
    if (error) return fail(io_error("compare --ab: cannot create the work directory " + dir.string() + ": " + error.message()));

    // The rooflines measure the machine before the cases (4-5 s of a 6.5 s bench of the smoke suite on lavapipe,
    // 2026-11-30); the A/B verdict never reads them (each round's ratio pairs the builds). Unless the bench
    // arguments ask for them, the rounds skip them: a 30-round gate of that suite then takes about 2 minutes, not 7.
    std::vector<std::string> bench_args = ab.bench_args;
    const bool asks_rooflines = std::any_of(bench_args.begin(), bench_args.end(), [](const std::string& arg) {
        return arg == "--roofline-mib" || arg.rfind("--roofline-mib=", 0) == 0;
    });
    if (!asks_rooflines) bench_args.insert(bench_args.end(), {"--roofline-mib", "0"});
    const std::vector<unsigned> looks = ab.fixed_rounds ? std::vector<unsigned>{ab.rounds} : ab_looks(ab.rounds);
    std::vector<BenchRun> base_runs, new_runs;
    std::vector<AbCaseSeries> series;
    std::vector<std::string> only_in_base, only_in_new;
    AbLook look;
    size_t look_index = 0;
    unsigned rounds_run = 0;
    for (unsigned round = 0; round < ab.rounds; ++round) {
        // ABBA: base first in even rounds, new first in odd ones.
        const bool base_first = round % 2 == 0;
        for (int turn = 0; turn < 2; ++turn) {
            const bool is_base = (turn == 0) == base_first;
            const std::string label = std::string(is_base ? "base" : "new") + "_round" + std::to_string(round);
            const std::string report = (dir / (label + ".json")).string(), log = (dir / (label + ".log")).string();
            std::vector<std::string> argv = {is_base ? ab.base_tool : ab.new_tool, "bench"};
            argv.insert(argv.end(), bench_args.begin(), bench_args.end());
            argv.insert(argv.end(), {"--report-json", report});
            auto code = run_process(argv, log);
            if (!code.is_ok()) return fail(code.status());
            if (*code != 0)
                return fail(invalid_input("compare --ab: round " + std::to_string(round) + ": `" + quoted_command(argv) +
                                          "` exited " + std::to_string(*code) + " (expected 0; its last line: '" +
                                          last_line(log) + "'; full output in " + log + ")"));
            auto run = load_bench_run(report);
            if (!run.is_ok()) return fail(run.status());
            (is_base ? base_runs : new_runs).push_back(std::move(run).value());
        }
        rounds_run = round + 1;
        if (rounds_run != looks[look_index]) continue;
        series = paired_series(base_runs, new_runs, only_in_base, only_in_new);
        if (series.empty())
            return fail(invalid_input("compare --ab: nothing to compare: no case x backend ran in every round of both builds"));
        const bool last = look_index + 1 == looks.size();
        look = judge_ab_look(series, rounds_run, looks.size(), last, options);
        if (look.decided || last) break;
        ++look_index;
    }

    Comparison& comparison = look.comparison;
    comparison.base_path = ab.base_tool;
    comparison.next_path = ab.new_tool;
    comparison.only_in_base = only_in_base;
    comparison.only_in_new = only_in_new;
    char text[300];
    if (ab.fixed_rounds)
        std::snprintf(text, sizeof text, "%u rounds of each build in ABBA order (--fixed-rounds: judged once, at alpha "
                      "%.3g); reports and logs in %s", rounds_run, options.alpha,
                      temporary ? "a temporary directory (removed; keep them with --ab-dir)" : dir.string().c_str());
    else
        std::snprintf(text, sizeof text, "%u of at most %u rounds of each build in ABBA order: %s (look %zu of %zu, "
                      "each at alpha %.3g / %zu); reports and logs in %s", rounds_run, ab.rounds,
                      look.decided ? "every case decided" : "judged at the last look", look_index + 1, looks.size(),
                      options.alpha, looks.size(),
                      temporary ? "a temporary directory (removed; keep them with --ab-dir)" : dir.string().c_str());
    comparison.notes.push_back(text);
    std::snprintf(text, sizeof text, "each round's processes started with an environment padded by 0-%zu random bytes "
                  "(DMLTOOL_LAYOUT_PAD): the stack's layout is a draw per process, the same for both builds, not a "
                  "bias of one", kMaxLayoutPad - 1);
    comparison.notes.push_back(text);
    if (!asks_rooflines)
        comparison.notes.push_back("each round's bench ran with --roofline-mib 0 (the A/B verdict does not use the "
                                   "rooflines; pass --roofline-mib after '--' to measure them anyway)");
    if (temporary) fs::remove_all(dir, error);
    return emit_comparison(comparison, options);
}

}  // namespace dmltool::app
