#include "bench/process_merge.h"

#include <cmath>
#include <map>

#include "bench/report_files.h"
#include "bench/stats.h"

namespace dmltool::app {
namespace {

using nlohmann::json;

double positive_number(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_number() && it->get<double>() > 0 ? it->get<double>() : 0.0;
}

std::string case_key(const json& c) {
    return c.value("name", std::string()) + "\n" + c.value("backend", std::string());
}

Status process_error(const std::string& path, const std::string& what) {
    return invalid_input("bench --processes: " + path + ": " + what);
}

}  // namespace

Result<json> merge_process_reports(const std::vector<json>& reports, const std::vector<std::string>& paths) {
    if (reports.empty() || reports.size() != paths.size())
        return invalid_input("bench --processes: expected one report per process, found none");
    for (size_t p = 0; p < reports.size(); ++p) {
        const json& r = reports[p];
        if (!r.is_object() || r.value("sample_format", std::string()) != kSampleFormat || !r.contains("cases") ||
            !r["cases"].is_array())
            return process_error(paths[p], std::string("expected a bench report with samples (\"") + kSampleFormat +
                                               "\" and a cases array), found something else");
    }
    json merged = reports[0];
    const size_t count = reports.size();
    // Index every process's cases by name x backend: the processes ran the same selection, in different orders.
    std::vector<std::map<std::string, const json*>> by_key(count);
    for (size_t p = 0; p < count; ++p)
        for (const json& c : reports[p]["cases"]) by_key[p][case_key(c)] = &c;
    for (size_t p = 1; p < count; ++p)
        if (by_key[p].size() != by_key[0].size())
            return process_error(paths[p], "timed " + std::to_string(by_key[p].size()) + " cases, process 1 timed " +
                                               std::to_string(by_key[0].size()) + " (expected the same selection)");
    for (json& c : merged["cases"]) {
        const std::string key = case_key(c);
        json processes = json::array();
        std::vector<double> pooled, medians;
        bool converged = true;
        for (size_t p = 0; p < count; ++p) {
            const auto found = by_key[p].find(key);
            if (found == by_key[p].end())
                return process_error(paths[p], "has no case '" + c.value("name", std::string()) + "' on " +
                                                   c.value("backend", std::string()) + " (expected the same selection)");
            const json& pc = *found->second;
            std::vector<double> samples;
            if (pc.contains("samples") && pc["samples"].is_array())
                for (const json& v : pc["samples"])
                    if (v.is_number() && v.get<double>() > 0 && std::isfinite(v.get<double>())) samples.push_back(v);
            if (samples.empty())
                return process_error(paths[p], "case '" + c.value("name", std::string()) + "': expected samples, found none");
            const double median = summarize_samples(samples).median;
            const bool process_converged = pc.value("converged", false);
            converged = converged && process_converged;
            medians.push_back(median);
            pooled.insert(pooled.end(), samples.begin(), samples.end());
            const json throttle = pc.value("throttle", json::object());
            processes.push_back({{"seconds", median},
                                 {"samples", samples},
                                 {"converged", process_converged},
                                 {"executions_per_sample", pc.value("executions_per_sample", 1u)},
                                 {"probe_before_bytes_per_second", positive_number(throttle, "probe_before_bytes_per_second")},
                                 {"probe_after_bytes_per_second", positive_number(throttle, "probe_after_bytes_per_second")}});
        }
        const double first_seconds = positive_number(c, "seconds");
        const double seconds = summarize_samples(medians).median;
        c["processes"] = processes;
        c["samples"] = pooled;
        c["seconds"] = seconds;
        c["converged"] = converged;
        const SampleStats s = summarize_samples(pooled);
        c["statistics"] = {{"count", s.count}, {"median", s.median}, {"min", s.min}, {"max", s.max}, {"mean", s.mean},
                           {"stddev", s.stddev}, {"noise", std::isfinite(s.noise) ? json(s.noise) : json(nullptr)}};
        // Rates are per second of the case: they scale with 1 / seconds, from the first process's figures.
        const double scale = seconds > 0 && first_seconds > 0 ? first_seconds / seconds : 1.0;
        for (const char* rate : {"bytes_per_second", "ops_per_second", "roofline_percent", "float_fma_percent"})
            if (c.contains(rate) && c[rate].is_number()) c[rate] = c[rate].get<double>() * scale;
        if (c.contains("same_size_copy") && c["same_size_copy"].is_object() && c["same_size_copy"].contains("percent") &&
            c["same_size_copy"]["percent"].is_number())
            c["same_size_copy"]["percent"] = c["same_size_copy"]["percent"].get<double>() * scale;
    }
    json runs = json::array(), probes = json::array();
    for (size_t p = 0; p < count; ++p) {
        const json& r = reports[p];
        size_t copy_probes = 0;
        if (r.contains("throttle") && r["throttle"].is_object() && r["throttle"].contains("probes") &&
            r["throttle"]["probes"].is_array())
            for (json probe : r["throttle"]["probes"]) {
                probe["process"] = p + 1;
                probes.push_back(probe);
                ++copy_probes;
            }
        runs.push_back({{"date", r.value("date", std::string())},
                        {"rooflines", r.value("rooflines", json::object())},
                        {"probes", copy_probes}});
    }
    if (merged.contains("throttle") && merged["throttle"].is_object()) merged["throttle"]["probes"] = probes;
    merged["processes"] = {
        {"count", count},
        {"note", "each case's samples pooled over " + std::to_string(count) + " processes (cases[].processes keeps "
                 "them per process); seconds is the median of the processes' medians; rooflines and the tables are "
                 "the first process's"},
        {"runs", runs}};
    if (merged.contains("options") && merged["options"].is_object()) merged["options"]["processes"] = std::to_string(count);
    if (merged.contains("statistics") && merged["statistics"].is_object())
        merged["statistics"]["seconds"] = "the median of the processes' medians (bench --processes)";
    return merged;
}

}  // namespace dmltool::app
