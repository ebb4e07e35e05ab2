// compare's output: the verdicts as a table, Markdown (for a pull request comment), JUnit XML (for CI test
// reports) or JSON, and the exit code they imply. The judging is in compare.cpp.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/report.h"
#include "core/report.h"
#include "gate/compare.h"

namespace dmltool::app {

using nlohmann::json;
namespace {

std::string format_us(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f us", seconds * 1e6);
    return text;
}

std::string format_change(double change) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.2f%%", 100 * change);
    return text;
}

std::string format_p(double p) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", p);
    return text;
}

std::map<Verdict, size_t> tally(const Comparison& comparison) {
    std::map<Verdict, size_t> counts;
    for (const CaseComparison& c : comparison.cases) ++counts[c.verdict];
    return counts;
}

std::string summary_line(const Comparison& comparison) {
    auto counts = tally(comparison);
    char text[200];
    std::snprintf(text, sizeof text, "%zu slower, %zu faster, %zu same, %zu noisy", counts[Verdict::kSlower],
                  counts[Verdict::kFaster], counts[Verdict::kSame], counts[Verdict::kNoisy]);
    std::string line = text;
    if (counts[Verdict::kInconclusive]) line += ", " + std::to_string(counts[Verdict::kInconclusive]) + " inconclusive";
    return line + " of " + std::to_string(comparison.cases.size()) + " compared";
}

std::string noise_pair(const CaseComparison& c) {
    return format_noise(c.base.noise) + (c.base_converged ? "" : "*") + " / " + format_noise(c.next.noise) +
           (c.next_converged ? "" : "*");
}

std::string as_table(const Comparison& comparison, const CompareOptions& options) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "dmltool compare (%s): base %s, new %s (threshold %.1f%%, alpha %.3g, Holm-adjusted)\n",
                  comparison.mode.c_str(), comparison.base_path.c_str(), comparison.next_path.c_str(),
                  100 * options.threshold, options.alpha);
    out += line;
    std::snprintf(line, sizeof line, "%-7s %-8s %-56s %14s %14s %9s %9s  %s\n", "verdict", "backend", "case", "base median",
                  "new median", "change", "p", "noise base / new (* not converged)");
    out += line;
    for (const CaseComparison& c : comparison.cases) {
        std::snprintf(line, sizeof line, "%-7s %-8s %-56s %14s %14s %9s %9s  %s  (%s)\n", verdict_name(c.verdict),
                      c.backend.c_str(), c.name.c_str(), format_us(c.base.median).c_str(), format_us(c.next.median).c_str(),
                      format_change(c.change).c_str(), format_p(c.p_value).c_str(), noise_pair(c).c_str(), c.reason.c_str());
        out += line;
    }
    for (const std::string& n : comparison.only_in_base) out += "only in base (not compared): " + n + "\n";
    for (const std::string& n : comparison.only_in_new) out += "only in new (not compared): " + n + "\n";
    for (const std::string& n : comparison.notes) out += "note: " + n + "\n";
    return out + summary_line(comparison) + "\n";
}

std::string as_markdown(const Comparison& comparison, const CompareOptions& options) {
    std::string out = "### dmltool compare: " + summary_line(comparison) + "\n\n";
    char line[512];
    std::snprintf(line, sizeof line, "Threshold %.1f%%, %s at alpha %.3g (Holm-adjusted across cases); base `%s`, new `%s`.\n\n",
                  100 * options.threshold,
                  comparison.mode == "separate runs"   ? "Mann-Whitney U"
                  : comparison.mode == "history runs" ? "a t test of the new median against the history's run medians"
                                                      : "the sign test on paired A/B rounds",
                  options.alpha, comparison.base_path.c_str(), comparison.next_path.c_str());
    out += line;
    out += "| verdict | backend | case | base median | new median | change | p | noise base / new | why |\n";
    out += "|---|---|---|---:|---:|---:|---:|---|---|\n";
    // Regressions first: what a reviewer needs is at the top of the comment.
    for (Verdict wanted : {Verdict::kSlower, Verdict::kFaster, Verdict::kNoisy, Verdict::kInconclusive, Verdict::kSame})
        for (const CaseComparison& c : comparison.cases) {
            if (c.verdict != wanted) continue;
            const char* mark = c.verdict == Verdict::kSlower ? "**SLOWER**" : verdict_name(c.verdict);
            out += std::string("| ") + mark + " | " + c.backend + " | `" + c.name + "` | " + format_us(c.base.median) +
                   " | " + format_us(c.next.median) + " | " + format_change(c.change) + " | " + format_p(c.p_value) +
                   " | " + noise_pair(c) + " | " + c.reason + " |\n";
        }
    if (!comparison.only_in_base.empty() || !comparison.only_in_new.empty()) out += "\n";
    for (const std::string& n : comparison.only_in_base) out += "- only in base (not compared): `" + n + "`\n";
    for (const std::string& n : comparison.only_in_new) out += "- only in new (not compared): `" + n + "`\n";
    for (const std::string& n : comparison.notes) out += "\n> note: " + n + "\n";
    return out;
}

std::string as_junit(const Comparison& comparison) {
    auto counts = tally(comparison);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<testsuites>\n<testsuite name=\"dmltool compare\" tests=\"" + std::to_string(comparison.cases.size()) +
           "\" failures=\"" + std::to_string(counts[Verdict::kSlower]) + "\" skipped=\"" +
           std::to_string(counts[Verdict::kNoisy] + counts[Verdict::kInconclusive]) + "\">\n";
    for (const CaseComparison& c : comparison.cases) {
        const std::string text = std::string(verdict_name(c.verdict)) + ": " + format_us(c.base.median) + " -> " +
                                 format_us(c.next.median) + " (" + format_change(c.change) + "), " + c.reason;
        out += "  <testcase classname=\"" + xml_escape(c.backend) + "\" name=\"" + xml_escape(c.name) + "\">";
        if (c.verdict == Verdict::kSlower)
            out += "<failure message=\"" + xml_escape(text) + "\"/>";
        else if (c.verdict == Verdict::kNoisy || c.verdict == Verdict::kInconclusive)
            out += "<skipped message=\"" + xml_escape(text) + "\"/>";
        else
            out += "<system-out>" + xml_escape(text) + "</system-out>";
        out += "</testcase>\n";
    }
    return out + "</testsuite>\n</testsuites>\n";
}

json stats_json(const SampleStats& s, bool converged) {
    return {{"count", s.count}, {"median", s.median}, {"min", s.min},  {"max", s.max},
            {"stddev", s.stddev}, {"noise", std::isfinite(s.noise) ? json(s.noise) : json()}, {"converged", converged}};
}

std::string as_json(const Comparison& comparison, const CompareOptions& options) {
    json cases = json::array();
    for (const CaseComparison& c : comparison.cases)
        cases.push_back({{"name", c.name}, {"backend", c.backend}, {"verdict", verdict_name(c.verdict)},
                         {"change", c.change}, {"p_value", c.p_value}, {"p_unadjusted", c.p_unadjusted},
                         {"change_noise", c.change_noise}, {"drift", c.drift_measured ? json(c.drift) : json()}, {"drift_source", c.drift_source}, {"drift_noise", std::expm1(c.drift_log_noise)}, {"fast_change", c.has_fast_end ? json(c.fast_change) : json()}, {"rounds", c.rounds}, {"processes", c.processes}, {"analysis", c.analysis}, {"history_runs", c.history_runs}, {"run_spread", c.history_runs ? json(std::expm1(c.run_spread)) : json()}, {"reason", c.reason},
                         {"base", stats_json(c.base, c.base_converged)}, {"new", stats_json(c.next, c.next_converged)}});
    auto counts = tally(comparison);
    json root = {{"base", comparison.base_path},
                 {"new", comparison.next_path},
                 {"threshold", options.threshold},
                 {"alpha", options.alpha},
                 {"mode", comparison.mode},
                 {"test", comparison.mode == "separate runs"
                              ? "Mann-Whitney U, two-sided (exact without ties up to 20 x 20 samples, else normal with tie "
                                "and continuity corrections), judged against the probes' drift"
                          : comparison.mode == "history runs"
                              ? "Student's t prediction test of the new run's log median against the history runs' log "
                                "medians (each run one observation; n - 1 degrees of freedom), two-sided; cases with fewer "
                                "than 3 runs of history: Mann-Whitney U against the most recent run"
                              : "the sign test on the per-round log ratios new/base, two-sided, exact (rounds with "
                                "equal medians dropped)"},
                 {"multiple_comparisons", "Holm (family-wise error at alpha across the compared cases)"},
                 {"summary",
                  {{"slower", counts[Verdict::kSlower]}, {"faster", counts[Verdict::kFaster]},
                   {"same", counts[Verdict::kSame]}, {"noisy", counts[Verdict::kNoisy]},
                   {"inconclusive", counts[Verdict::kInconclusive]}}},
                 {"exit_code", comparison_exit_code(comparison, options)},
                 {"cases", cases},
                 {"only_in_base", comparison.only_in_base},
                 {"only_in_new", comparison.only_in_new},
                 {"notes", comparison.notes}};
    return root.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string format_comparison(const Comparison& comparison, const CompareOptions& options) {
    if (options.format == "markdown") return as_markdown(comparison, options);
    if (options.format == "junit") return as_junit(comparison);
    if (options.format == "json") return as_json(comparison, options);
    return as_table(comparison, options);
}


int emit_comparison(const Comparison& comparison, const CompareOptions& options) {
    const std::string text = format_comparison(comparison, options);
    if (options.output.empty()) {
        std::fputs(text.c_str(), stdout);
    } else {
        std::ofstream out(options.output, std::ios::binary);
        if (out) out << text;
        if (!out) {
            std::fprintf(stderr, "dmltool: error: %s: cannot write the comparison\n", options.output.c_str());
            return 2;
        }
        // The file is for the CI system; the log still gets the verdict.
        std::fprintf(stderr, "dmltool compare: %s (written to %s)\n", summary_line(comparison).c_str(),
                     options.output.c_str());
    }
    return comparison_exit_code(comparison, options);
}


}  // namespace dmltool::app
