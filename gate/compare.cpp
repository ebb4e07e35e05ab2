#include "gate/compare.h"

#include "core/report.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "bench/report.h"
#include "bench/report_files.h"
#include "gate/compare_processes.h"
#include "gate/probes.h"

namespace dmltool::app {
namespace {

// The fast end of a case's samples (see gate/compare.h): the 10th percentile, not the minimum, so that one
// lucky sample does not decide.
constexpr double kFastEndQuantile = 0.1;

// How much more strongly than the copy probes a case may feel the machine's drift between separate runs. The
// probes copy memory; a small case is also slowed by load on its core that a copy hardly notices. Measured in CI
// (2026-11-29, tests/cli/gate_cases.json, same build): the copy probes +27% slower, a DEPTH_TO_SPACE1 case +44% to
// +54% (sensitivity up to 1.7); with the probes' drift taken once, 4 of 20 same-build gates were false SLOWERs.
constexpr double kCaseSensitivityToDrift = 2;
// The same for cases judged by processes (gate/compare_processes.h), whose fast mode leaves a slow process mode out:
// on the shared 2-core machine with a busy loop beside (2026-11-29, 40 same-build pairs of 5-process runs, five
// smoke cases each) the cases' fast modes moved 0.21x and 0.45x the copy probes' drift (least squares; correlation
// 0.22 and 0.40); the CI case of twice the drift above was a run of one process, where a slow mode is confounded.
constexpr double kProcessCaseSensitivityToDrift = 1;

using nlohmann::json;

std::string found_text(const json& value) {
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return text;
}

Status bad_field(const std::string& path, const std::string& field, const std::string& expected, const json* found) {
    return invalid_input(path + ": " + field + ": expected " + expected + ", found " +
                         (found ? found_text(*found) : std::string("nothing")));
}

// A string member, or the error naming it.
Result<std::string> string_member(const std::string& path, const json& object, const std::string& pointer,
                                  const std::string& key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        return bad_field(path, pointer + "/" + key, "a string", it == object.end() ? nullptr : &*it);
    return it->get<std::string>();
}

}  // namespace

// "p = 0.012" or, where Holm's adjustment changed it, "p = 0.036 (Holm; raw 0.012)".
static std::string format_p_for_reason(const CaseComparison& c) {
    char text[80];
    if (c.p_value != c.p_unadjusted)
        std::snprintf(text, sizeof text, "Holm p = %.2g (raw %.2g)", c.p_value, c.p_unadjusted);
    else
        std::snprintf(text, sizeof text, "p = %.2g", c.p_value);
    return text;
}

// The decimals a reason's percentages need to read true: the fewest (from `least` to 6) with which `holds`, the
// reason's comparison evaluated on the numbers as printed, is true ("+5.0% > 5.0%" for a change of 5.04% reads false).
template <class Holds>
static int decimals_to_be_true(Holds holds, int least = 1) {
    for (int d = least; d < 6; ++d) {
        auto shown = [d](double percent) {
            char text[64];
            std::snprintf(text, sizeof text, "%.*f", d, percent);
            return std::strtod(text, nullptr);
        };
        if (holds(shown)) return d;
    }
    return 6;
}

const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::kFaster: return "FASTER";
        case Verdict::kSlower: return "SLOWER";
        case Verdict::kSame: return "SAME";
        case Verdict::kNoisy: return "NOISY";
        case Verdict::kInconclusive: return "INCONCLUSIVE";
    }
    return "?";
}

// root[section][key] where both are there and the value is a string; else `fallback` (reports older than the
// section carry none).
static std::string optional_text(const json& root, const char* section, const char* key, const char* fallback) {
    const auto s = root.find(section);
    if (s == root.end() || !s->is_object()) return fallback;
    const auto value = s->find(key);
    return value != s->end() && value->is_string() ? value->get<std::string>() : fallback;
}

Result<BenchRun> load_bench_run(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return invalid_input(path + ": cannot read the bench report");
    std::stringstream text;
    text << in.rdbuf();
    json root;
    try {
        root = json::parse(text.str());
    } catch (const json::parse_error& e) {
        return invalid_input(path + ": expected a JSON bench report (dmltool bench --report-json), found invalid JSON (" +
                             std::string(e.what()) + ")");
    }
    if (!root.is_object()) return bad_field(path, "/", "an object (dmltool bench --report-json)", &root);
    const auto format = root.find("sample_format");
    // `run --report-json` and `bench --report-json` share a flag name; a run report holds verdicts, not timings.
    if (format == root.end() && root.contains("summary") && root.contains("files"))
        return invalid_input(path + ": a run report (dmltool run --report-json): it holds verdicts, not timings; "
                                    "compare takes bench reports (dmltool bench --report-json FILE)");
    if (format == root.end() || *format != kSampleFormat)
        return bad_field(path, "/sample_format",
                         std::string("\"") + kSampleFormat + "\" (a report of dmltool bench with samples)",
                         format == root.end() ? nullptr : &*format);
    BenchRun run;
    run.path = path;
    DMLTOOL_ASSIGN_OR_RETURN(run.adapter, string_member(path, root, "", "adapter"));
    DMLTOOL_ASSIGN_OR_RETURN(run.device, string_member(path, root, "", "device"));
    const auto machine = root.find("machine");
    if (machine == root.end() || !machine->is_object())
        return bad_field(path, "/machine", "an object", machine == root.end() ? nullptr : &*machine);
    DMLTOOL_ASSIGN_OR_RETURN(run.cpu_model, string_member(path, *machine, "/machine", "cpu_model"));
    run.cache = optional_text(root, "cache", "mode", "hot");
    run.timer = optional_text(root, "timer", "clock", "wall");
    // Reports older than the option carry none: their clocks were the driver's (off).
    run.stable_power_state = optional_text(root, "options", "stable_power_state", "off");
    // Optional (runs with --roofline-mib 0 measure none): machine drift evidence beside the copy probes.
    const auto rooflines = root.find("rooflines");
    if (rooflines != root.end() && rooflines->is_object())
        for (const auto& [backend, roofline] : rooflines->items()) {
            if (!roofline.is_object()) continue;
            const auto& r = roofline;  // a plain reference: clang 14 lambdas cannot capture a structured binding
            auto rate = [&](const char* key) {
                const auto v = r.find(key);
                return v != r.end() && v->is_number() && v->get<double>() > 0 ? v->get<double>() : 0.0;
            };
            run.rooflines[backend] = {rate("copy_bytes_per_second"), rate("int_multiply_adds_per_second")};
        }
    // Optional (reports before 2026-11-30, runs with --throttle off): the in-cache probes beside the copy probes.
    const auto throttle_section = root.find("throttle");
    if (throttle_section != root.end() && throttle_section->is_object() && throttle_section->contains("probes") &&
        (*throttle_section)["probes"].is_array())
        for (const json& probe : (*throttle_section)["probes"]) {
            if (!probe.is_object()) continue;
            const auto rate = probe.find("cache_bytes_per_second"), backend = probe.find("backend");
            if (rate == probe.end() || !rate->is_number() || !(rate->get<double>() > 0) || backend == probe.end() ||
                !backend->is_string())
                continue;
            const auto process = probe.find("process");
            const size_t index = process != probe.end() && process->is_number_unsigned() && process->get<size_t>() >= 1
                                     ? std::min<size_t>(process->get<size_t>() - 1, 1023) : 0;
            auto& per_process = run.cache_probes[backend->get<std::string>()];
            if (per_process.size() <= index) per_process.resize(index + 1);
            per_process[index].push_back(rate->get<double>());
        }
    const auto cases = root.find("cases");
    if (cases == root.end() || !cases->is_array())
        return bad_field(path, "/cases", "an array of cases", cases == root.end() ? nullptr : &*cases);
    for (size_t i = 0; i < cases->size(); ++i) {
        const json& c = (*cases)[i];
        const std::string pointer = "/cases/" + std::to_string(i);
        if (!c.is_object()) return bad_field(path, pointer, "an object", &c);
        RunCase rc;
        DMLTOOL_ASSIGN_OR_RETURN(rc.name, string_member(path, c, pointer, "name"));
        DMLTOOL_ASSIGN_OR_RETURN(rc.backend, string_member(path, c, pointer, "backend"));
        const auto converged = c.find("converged");
        if (converged == c.end() || !converged->is_boolean())
            return bad_field(path, pointer + "/converged", "true or false", converged == c.end() ? nullptr : &*converged);
        rc.converged = converged->get<bool>();
        // Optional (older reports and runs with --throttle off have none): the drift correction's input.
        const auto throttle = c.find("throttle");
        if (throttle != c.end() && throttle->is_object()) {
            auto rate = [&](const char* key) {
                const auto v = throttle->find(key);
                return v != throttle->end() && v->is_number() && v->get<double>() > 0 ? v->get<double>() : 0.0;
            };
            rc.probe_before = rate("probe_before_bytes_per_second");
            rc.probe_after = rate("probe_after_bytes_per_second");
        }
        const auto basis = c.find("roofline_basis");
        rc.compute_bound = basis != c.end() && *basis == "int_multiply_adds";
        const auto bytes = c.find("bytes");
        if (bytes != c.end() && bytes->is_number_unsigned()) rc.bytes = bytes->get<uint64_t>();
        const auto samples = c.find("samples");
        if (samples == c.end() || !samples->is_array() || samples->empty())
            return bad_field(path, pointer + "/samples", "a non-empty array of seconds",
                             samples == c.end() ? nullptr : &*samples);
        for (size_t s = 0; s < samples->size(); ++s) {
            const json& v = (*samples)[s];
            if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
                return bad_field(path, pointer + "/samples/" + std::to_string(s), "a positive number of seconds", &v);
            rc.samples.push_back(v.get<double>());
        }
        // bench --processes N (bench/process_merge.h): optional, older reports and runs of one process have none.
        const auto processes = c.find("processes");
        if (processes != c.end()) {
            if (!processes->is_array())
                return bad_field(path, pointer + "/processes", "an array of processes", &*processes);
            for (size_t p = 0; p < processes->size(); ++p) {
                const json& pc = (*processes)[p];
                const std::string at = pointer + "/processes/" + std::to_string(p);
                const auto ps = pc.is_object() ? pc.find("samples") : pc.end();
                if (!pc.is_object() || ps == pc.end() || !ps->is_array() || ps->empty())
                    return bad_field(path, at + "/samples", "a non-empty array of seconds", ps == pc.end() ? nullptr : &*ps);
                std::vector<double> process_samples;
                for (size_t s = 0; s < ps->size(); ++s) {
                    const json& v = (*ps)[s];
                    if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
                        return bad_field(path, at + "/samples/" + std::to_string(s), "a positive number of seconds", &v);
                    process_samples.push_back(v.get<double>());
                }
                rc.processes.push_back(std::move(process_samples));
                rc.process_probes.emplace_back();
                for (const char* key : {"probe_before_bytes_per_second", "probe_after_bytes_per_second"}) {
                    const auto v = pc.find(key);
                    if (v != pc.end() && v->is_number() && v->get<double>() > 0)
                        rc.process_probes.back().push_back(v->get<double>());
                }
            }
        }
        run.cases.push_back(std::move(rc));
    }
    return run;
}

CaseComparison compare_case(const RunCase& base, const RunCase& next, const CompareOptions& options) {
    return compare_case(base, next, options, MachineDrift{});
}

CaseComparison compare_case(const RunCase& base, const RunCase& next, const CompareOptions& options,
                            const MachineDrift& drift) {
    CaseComparison c;
    c.name = base.name;
    c.backend = base.backend;
    std::vector<double> next_samples = next.samples;
    if (options.normalize_by_probes && drift.measured)
        for (double& v : next_samples) v /= 1 + drift.drift;
    c.drift = drift.drift;
    c.drift_measured = drift.measured;
    c.drift_log_noise = drift.log_noise;
    c.drift_source = drift.source;
    c.drift_is_estimate = drift.standard_error;
    c.base = summarize_samples(base.samples);
    c.next = summarize_samples(next_samples);
    c.base_converged = base.converged;
    c.next_converged = next.converged;
    c.change = c.base.median > 0 ? c.next.median / c.base.median - 1 : 0;
    c.raw_change = c.base.median > 0 ? summarize_samples(next.samples).median / c.base.median - 1 : 0;
    c.p_unadjusted = c.p_value = mann_whitney_p_value(base.samples, next_samples);
    c.has_fast_end = true;
    const double base_fast = sample_quantile(base.samples, kFastEndQuantile);
    c.fast_change = base_fast > 0 ? sample_quantile(next_samples, kFastEndQuantile) / base_fast - 1 : 0;
    // Each median's relative noise is a standard error: combined in quadrature for the change.
    c.change_noise = std::sqrt(c.base.noise * c.base.noise + c.next.noise * c.next.noise);
    const double noise_limit = options.threshold / 2;
    char text[160];
    if (base.samples == next_samples) {
        // The same measurements (a report compared with itself) cannot differ, however noisy: SAME, not NOISY.
    } else if (!base.converged || !next.converged) {
        c.noisy_reason = !base.converged ? "base run did not converge" : "new run did not converge";
    } else if (!(c.base.noise <= noise_limit) || !(c.next.noise <= noise_limit)) {
        const double b = 100 * c.base.noise, n = 100 * c.next.noise, l = 100 * noise_limit;
        const int d = decimals_to_be_true([&](auto shown) { return shown(b) > shown(l) || shown(n) > shown(l); }, 2);
        std::snprintf(text, sizeof text, "noise %.*f%% / %.*f%% above threshold/2 = %.*f%%", d, b, d, n, d, l);
        c.noisy_reason = text;
    }
    assign_verdict(c, options);
    return c;
}

// A SAME between separate runs says the case stayed within the threshold. That is evidence of no regression
// only if the machine could not have hidden one: when its probes say it was faster in the new run by more than the
// threshold, or wandered by more than the threshold within the runs, a slower build on a faster machine reads the
// same as an unchanged one, and the verdict is INCONCLUSIVE (never SAME). A machine that was slower cannot hide a
// regression (it would make one look larger), so a SAME on a slower machine stands.
static void judge_sameness_against_drift(CaseComparison& c, const CompareOptions& options) {
    if (!c.drift_measured) return;
    const double threshold_log = std::log1p(options.threshold);
    const bool faster_machine = std::log1p(c.drift) < -threshold_log;
    const bool wandering_machine = c.drift_log_noise > threshold_log;
    if (!faster_machine && !wandering_machine) return;
    char text[300];
    std::snprintf(text, sizeof text, "the machine %s (%s: %+.1f%%, %s %.1f%%), more than the %.1f%% threshold: a "
                  "regression could hide behind it (%s; rerun, or gate with compare --ab)",
                  faster_machine ? "was faster in the new run"
                  : c.drift_is_estimate ? "moved between the runs by an uncertain amount" : "wandered within the runs",
                  c.drift_source.c_str(), 100 * c.drift, c.drift_is_estimate ? "standard error" : "spread",
                  100 * std::expm1(c.drift_log_noise), 100 * options.threshold, c.reason.c_str());
    c.verdict = Verdict::kInconclusive;
    c.reason = text;
}

void assign_verdict(CaseComparison& c, const CompareOptions& options) {
    // A change so large that even the runs' own noise cannot explain it is judged, noisy or not: the change's
    // 95% interval lies wholly beyond the threshold. Without this a regression on a noisy machine would hide
    // behind NOISY and exit 0.
    const double margin = 1.96 * c.change_noise;
    const bool significant = c.p_value < options.alpha;
    const std::string p_text = format_p_for_reason(c);
    char text[200];
    // Percentages of the reasons below, printed with the decimals that keep each stated comparison true.
    const double pc = 100 * c.change, pm = 100 * margin, pt = 100 * options.threshold;
    int d = 1;
    if (significant && c.change - margin > options.threshold) {
        c.verdict = Verdict::kSlower;
        d = decimals_to_be_true([&](auto shown) { return shown(pc) - shown(pm) > shown(pt); });
        std::snprintf(text, sizeof text, "%s < %.2g and +%.*f%% (+/- %.*f%% noise) > %.*f%%", p_text.c_str(),
                      options.alpha, d, pc, d, pm, d, pt);
    } else if (significant && c.change + margin < -options.threshold) {
        c.verdict = Verdict::kFaster;
        d = decimals_to_be_true([&](auto shown) { return shown(pc) + shown(pm) < -shown(pt); });
        std::snprintf(text, sizeof text, "%s < %.2g and %.*f%% (+/- %.*f%% noise) < -%.*f%%", p_text.c_str(),
                      options.alpha, d, pc, d, pm, d, pt);
    } else if (!c.noisy_reason.empty()) {
        c.verdict = Verdict::kNoisy;
        std::snprintf(text, sizeof text, "%s", c.noisy_reason.c_str());
    } else if (significant && c.change > options.threshold) {
        c.verdict = Verdict::kSlower;
        d = decimals_to_be_true([&](auto shown) { return shown(pc) > shown(pt); });
        std::snprintf(text, sizeof text, "%s < %.2g and +%.*f%% > %.*f%%", p_text.c_str(), options.alpha, d, pc, d, pt);
    } else if (significant && c.change < -options.threshold) {
        c.verdict = Verdict::kFaster;
        d = decimals_to_be_true([&](auto shown) { return shown(pc) < -shown(pt); });
        std::snprintf(text, sizeof text, "%s < %.2g and %.*f%% < -%.*f%%", p_text.c_str(), options.alpha, d, pc, d, pt);
    } else {
        c.verdict = Verdict::kSame;
        std::snprintf(text, sizeof text, significant ? "%s but within threshold" : "not significant (%s)", p_text.c_str());
    }
    c.reason = text;
    const bool judged = c.verdict == Verdict::kSlower || c.verdict == Verdict::kFaster;
    if (!judged) {
        if (c.verdict == Verdict::kSame) judge_sameness_against_drift(c, options);
        return;
    }
    // Other work on the machine lengthens some samples and shortens none: a change in the code moves the fast end
    // of a case's samples with the rest, load from elsewhere moves the slow end (and the median when it lasted
    // long enough). A verdict whose fast end stayed within the threshold is the machine's, not the code's.
    const bool fast_end_moved = c.verdict == Verdict::kSlower ? c.fast_change > options.threshold
                                                              : c.fast_change < -options.threshold;
    if (c.has_fast_end && !fast_end_moved) {
        if (c.history_runs && c.processes)  // gate/history.cpp: the new run's fast mode of processes
            std::snprintf(text, sizeof text, "the fast mode of the new run's processes moved %+.1f%%, within %.1f%%: "
                          "processes in a slow mode, not a change of every process (would be %s at %+.1f%%)",
                          100 * c.fast_change, 100 * options.threshold, verdict_name(c.verdict), 100 * c.change);
        else
            std::snprintf(text, sizeof text, "the fastest tenth of the samples moved %+.1f%%, within %.1f%%: load from "
                          "other work, not a change of every execution (would be %s at %+.1f%%)", 100 * c.fast_change,
                          100 * options.threshold, verdict_name(c.verdict), 100 * c.change);
        c.verdict = Verdict::kNoisy;
        c.reason = text;
        return;
    }
    // The verdict exists only after the drift was removed (--normalize-by-probes): the correction, not the code,
    // would decide.
    const bool made_by_correction = c.raw_change != c.change && (c.verdict == Verdict::kSlower
                                                                     ? !(c.raw_change > options.threshold)
                                                                     : !(c.raw_change < -options.threshold));
    if (made_by_correction) {
        std::snprintf(text, sizeof text, "drift %+.1f%% removed decides: %+.1f%% before, %+.1f%% after (would be %s)",
                      100 * c.drift, 100 * c.raw_change, 100 * c.change, verdict_name(c.verdict));
        c.verdict = Verdict::kNoisy;
        c.reason = text;
        return;
    }
    // The machine's drift by its probes (gate/probes.h), never by the other cases: the case must move beyond
    // kCaseSensitivityToDrift times it, in the verdict's direction, by more than the threshold plus as many times
    // the probes' own spread. A drift against the verdict's direction takes nothing away (the probes may miss
    // load that the case met; they cannot show load that made a case faster).
    if (!c.drift_measured) return;
    const double raw_log = std::log1p(c.raw_change);
    // Runs of several processes (gate/compare_processes.h): the drift's noise is its standard error, so the drift
    // the machine may have had in the verdict's direction is its one-sided 95% bound, drift + 1.645 x that error
    // (the cases' spread between processes is in their own interval already); with samples it is the probes'
    // spread within the runs, added as before.
    const double bound = c.drift_is_estimate ? 1.645 * c.drift_log_noise : 0.0;
    const double sensitivity = c.drift_is_estimate ? kProcessCaseSensitivityToDrift : kCaseSensitivityToDrift;
    const double drift_log = sensitivity * (std::log1p(c.drift) + (c.verdict == Verdict::kSlower ? bound : -bound));
    const double beyond_log = c.verdict == Verdict::kSlower ? raw_log - std::max(drift_log, 0.0)
                                                            : -(raw_log - std::min(drift_log, 0.0));
    const double allowed_log = std::log1p(options.threshold) +
                               (c.drift_is_estimate ? 0.0 : kCaseSensitivityToDrift * c.drift_log_noise);
    if (beyond_log > allowed_log) return;
    std::snprintf(text, sizeof text, "the machine drifted %+.1f%% (%s, %s %.1f%%); a case may feel up to %gx that: "
                  "the change %+.1f%% is %.1f%% beyond it, within %.1f%% (would be %s)", 100 * c.drift,
                  c.drift_source.c_str(), c.drift_is_estimate ? "standard error" : "spread",
                  100 * std::expm1(c.drift_log_noise), sensitivity,
                  100 * c.raw_change, 100 * std::expm1(beyond_log), 100 * std::expm1(allowed_log),
                  verdict_name(c.verdict));
    c.verdict = Verdict::kNoisy;
    c.reason = text;
}

void adjust_and_judge(std::vector<CaseComparison>& cases, const CompareOptions& options) {
    std::vector<double> raw;
    for (const CaseComparison& c : cases) raw.push_back(c.p_unadjusted);
    const std::vector<double> adjusted = holm_adjusted_p_values(raw);
    for (size_t i = 0; i < cases.size(); ++i) {
        cases[i].p_value = adjusted[i];
        assign_verdict(cases[i], options);
    }
}

std::string run_differences(const BenchRun& base, const BenchRun& next) {
    bool any_cpu = false;
    for (const RunCase& c : base.cases) any_cpu = any_cpu || c.backend == "cpu";
    std::string joined;
    auto differ = [&](const char* what, const std::string& a, const std::string& b) {
        if (a != b) joined += (joined.empty() ? "" : "; ") + std::string(what) + " (base: '" + a + "', new: '" + b + "')";
    };
    differ("adapters", base.adapter, next.adapter);
    differ("device runtimes or drivers", base.device, next.device);
    if (any_cpu) differ("CPUs", base.cpu_model, next.cpu_model);
    differ("cache modes", base.cache, next.cache);
    differ("stable power states", base.stable_power_state, next.stable_power_state);
    differ("timers", base.timer, next.timer);
    return joined;
}

Result<Comparison> compare_runs(const BenchRun& base, const BenchRun& next, const CompareOptions& options) {
    Comparison out;
    out.base_path = base.path;
    out.next_path = next.path;
    if (const std::string joined = run_differences(base, next); !joined.empty()) {
        if (!options.allow_different_adapters)
            return invalid_input("refusing to compare " + base.path + " with " + next.path + ": different " + joined +
                                 "; timings from different hardware, drivers, cache modes or clock settings do not measure the code "
                                 "(pass --allow-different-adapters to compare anyway)");
        out.notes.push_back("compared despite different " + joined + " (--allow-different-adapters)");
    }
    std::map<std::pair<std::string, std::string>, const RunCase*> in_new;
    for (const RunCase& c : next.cases) in_new[{c.name, c.backend}] = &c;
    std::map<std::pair<std::string, std::string>, bool> matched;
    // Drift: how much slower the machine was in the new run than in the base run, per backend, by their probes.
    const auto base_probes = run_probes(base), next_probes = run_probes(next);
    std::map<std::tuple<std::string, bool, bool>, MachineDrift> drifts;  // backend, compute-bound, in cache
    size_t by_processes = 0, by_samples_with_processes = 0;
    std::map<std::pair<std::string, bool>, MachineDrift> process_drifts;  // by backend, in cache
    for (const RunCase& c : base.cases) {
        const auto key = std::make_tuple(c.backend, c.compute_bound, follows_in_cache_probes(c, base, next));
        if (drifts.count(key)) continue;
        const MachineDrift d = machine_drift(base_probes, next_probes, c.backend, c.compute_bound, std::get<2>(key));
        drifts[key] = d;
        const std::string kind = std::string(std::get<2>(key) ? "in-cache " : "") +
                                 (c.compute_bound ? "compute-bound" : "memory-bound");
        char text[300];
        if (!d.measured)
            std::snprintf(text, sizeof text, "drift on %s (%s cases): not measured (neither copy probes nor a roofline in "
                          "both runs): a change of the machine between the runs cannot be told from one of the code",
                          c.backend.c_str(), kind.c_str());
        else
            std::snprintf(text, sizeof text, "drift on %s (%s cases): the new run's %s were %.1f%% %s (spread %.1f%%); "
                          "a case must move beyond that by more than the threshold plus the spread%s",
                          c.backend.c_str(), kind.c_str(), d.source.c_str(),
                          100 * std::fabs(d.drift), d.drift >= 0 ? "slower" : "faster",
                          100 * std::expm1(d.log_noise),
                          options.normalize_by_probes ? " (--normalize-by-probes: the new run's times divided by it)" : "");
        out.notes.push_back(text);
    }
    for (const RunCase& c : base.cases) {
        const auto found = in_new.find({c.name, c.backend});
        if (found == in_new.end()) {
            out.only_in_base.push_back(c.name + " [" + c.backend + "]");
            continue;
        }
        matched[found->first] = true;
        const bool in_cache = follows_in_cache_probes(c, base, next);
        const MachineDrift& drift = drifts[{c.backend, c.compute_bound, in_cache}];
        if (judged_by_processes(c, *found->second)) {
            // The drift between the runs by their processes' probes (gate/compare_processes.h), once per backend and
            // kind of probe.
            auto known = process_drifts.find({c.backend, in_cache});
            if (known == process_drifts.end()) {
                known = process_drifts.emplace(std::make_pair(c.backend, in_cache),
                                               drift_by_processes(base, next, c.backend, in_cache)).first;
                if (known->second.measured) {
                    char line[300];
                    std::snprintf(line, sizeof line, "drift on %s for the %scases judged by processes: the new run's %s "
                                  "were %.1f%% %s (standard error %.1f%%)", c.backend.c_str(), in_cache ? "in-cache " : "",
                                  known->second.source.c_str(), 100 * std::fabs(known->second.drift),
                                  known->second.drift >= 0 ? "slower" : "faster", 100 * std::expm1(known->second.log_noise));
                    out.notes.push_back(line);
                }
            }
            out.cases.push_back(compare_case_by_processes(c, *found->second, options,
                                                          known->second.measured ? known->second : drift));
            ++by_processes;
        } else {
            out.cases.push_back(compare_case(c, *found->second, options, drift));
            by_samples_with_processes += !c.processes.empty() || !found->second->processes.empty();
        }
    }
    adjust_and_judge(out.cases, options);
    finish_process_cases(out.cases, options);
    char text[300];
    if (by_processes) {
        std::snprintf(text, sizeof text, "%zu case(s) judged by processes (bench --processes: each process's median one "
                      "observation; the more precise of the fast mode and Mann-Whitney; SAME only when equivalent)",
                      by_processes);
        out.notes.push_back(text);
    }
    if (by_processes < out.cases.size()) {
        std::snprintf(text, sizeof text, "%zu case(s) judged by their samples: a report has fewer than %zu processes of "
                      "them%s, so a process's speed mode cannot be told from a change of the code (bench --processes 5)",
                      out.cases.size() - by_processes, kMinProcesses,
                      by_samples_with_processes ? "" : " (one process per run)");
        out.notes.push_back(text);
    }
    for (const RunCase& c : next.cases)
        if (!matched.count({c.name, c.backend})) out.only_in_new.push_back(c.name + " [" + c.backend + "]");
    if (out.cases.empty())
        return invalid_input("nothing to compare: no case x backend of " + base.path + " is in " + next.path +
                             " (different case files or backends?)");
    return out;
}

int comparison_exit_code(const Comparison& comparison, const CompareOptions& options) {
    bool undecided = false;
    for (const CaseComparison& c : comparison.cases) {
        if (c.verdict == Verdict::kSlower) return 1;
        undecided = undecided || c.verdict == Verdict::kNoisy || c.verdict == Verdict::kInconclusive;
    }
    return undecided && !options.allow_undecided ? kExitUndecided : 0;
}

int compare_command(const std::string& base_path, const std::string& next_path, const CompareOptions& options) {
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "dmltool: error: %s\n", s.message().c_str());
        return 2;
    };
    auto base = load_bench_run(base_path);
    if (!base.is_ok()) return fail(base.status());
    auto next = load_bench_run(next_path);
    if (!next.is_ok()) return fail(next.status());
    auto comparison = compare_runs(*base, *next, options);
    if (!comparison.is_ok()) return fail(comparison.status());
    return emit_comparison(*comparison, options);
}

}  // namespace dmltool::app

