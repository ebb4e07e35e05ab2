#include "store/html_report.h"

#include "core/report.h"
#include "gate/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "store/baseline_db.h"
#include "store/html_report_parts.h"
#include "store/results_store.h"

namespace dmltool::app {
namespace html {

using nlohmann::json;

std::string fmt(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// Engineering units so that axes and labels stay short.
std::string si(double value, const std::string& unit) {
    const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (std::fabs(value) >= 1000 && i < 5) value /= 1000, ++i;
    return fmt("%.3g", value) + " " + prefixes[i] + unit;
}

std::string seconds_text(double s) {
    if (s >= 1) return fmt("%.3g s", s);
    if (s >= 1e-3) return fmt("%.3g ms", s * 1e3);
    if (s >= 1e-6) return fmt("%.3g us", s * 1e6);
    return fmt("%.3g ns", s * 1e9);
}

const char* backend_color(const std::string& backend) {
    if (backend == "cpu") return "#4e79a7";
    if (backend == "gpu") return "#f28e2b";
    if (backend == "directml") return "#59a14f";
    return "#b07aa1";
}

std::string str(const json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}
double num(const json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1;
}

std::string short_commit(const std::string& commit) {
    const bool dirty = commit.size() > 6 && commit.compare(commit.size() - 6, 6, "-dirty") == 0;
    const std::string hash = dirty ? commit.substr(0, commit.size() - 6) : commit;
    return hash.substr(0, 8) + (dirty ? "-dirty" : "");
}

std::string run_header(size_t index, const Report& r) {
    const json tool = r.root.value("tool", json::object());
    return "<th class=\"run\">#" + std::to_string(index + 1) + " <span class=\"name\">" + xml_escape(r.path) +
           "</span><br><span class=\"meta\">" + xml_escape(str(r.root, "date")) + " &middot; " +
           xml_escape(short_commit(str(tool, "git_commit"))) + "<br>adapter " + xml_escape(r.run.adapter) + "</span></th>";
}

}  // namespace html

namespace {

using nlohmann::json;
using namespace html;

std::string legend(const std::vector<std::string>& backends) {
    std::string out = "<p class=\"legend\">";
    for (const std::string& b : backends)
        out += "<span><svg width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" fill=\"" +
               std::string(backend_color(b)) + "\"/></svg> " + xml_escape(b) + "</span> ";
    return out + "</p>\n";
}

// Grouped vertical bars on a log axis (throughputs of the CPU and a GPU differ by orders of magnitude).
std::string grouped_bars(const std::vector<std::string>& groups, const std::vector<std::string>& backends,
                         const std::map<std::pair<std::string, std::string>, double>& values, const std::string& unit) {
    double lo = INFINITY, hi = 0;
    for (const auto& [key, v] : values)
        if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!(hi > 0)) return "<p class=\"none\">nothing to draw</p>\n";
    const double top = std::ceil(std::log10(hi)), bottom = std::min(std::floor(std::log10(lo)), top - 1);
    const int bar = 18, gap = 24, left = 70, height = 220, base = 240;
    const int width = left + int(groups.size()) * (int(backends.size()) * bar + gap) + gap;
    std::string svg = "<svg class=\"chart\" role=\"img\" width=\"" + std::to_string(width) + "\" height=\"280\">\n";
    for (double e = bottom; e <= top; ++e) {
        const double y = base - (e - bottom) / (top - bottom) * height;
        svg += "<line x1=\"" + std::to_string(left) + "\" x2=\"" + std::to_string(width) + "\" y1=\"" + fmt("%.1f", y) +
               "\" y2=\"" + fmt("%.1f", y) + "\" class=\"grid\"/><text x=\"" + std::to_string(left - 4) + "\" y=\"" +
               fmt("%.1f", y + 4) + "\" class=\"axis\" text-anchor=\"end\">" + xml_escape(si(std::pow(10, e), unit)) + "</text>\n";
    }
    int x = left + gap;
    for (const std::string& g : groups) {
        for (size_t b = 0; b < backends.size(); ++b, x += bar) {
            const auto it = values.find({g, backends[b]});
            if (it == values.end() || !(it->second > 0)) continue;
            const double h = std::max(1.0, (std::log10(it->second) - bottom) / (top - bottom) * height);
            svg += "<rect class=\"bar\" x=\"" + std::to_string(x) + "\" y=\"" + fmt("%.1f", base - h) + "\" width=\"" +
                   std::to_string(bar - 2) + "\" height=\"" + fmt("%.1f", h) + "\" fill=\"" + backend_color(backends[b]) +
                   "\"><title>" + xml_escape(g + " " + backends[b] + ": " + si(it->second, unit)) + "</title></rect>\n";
        }
        svg += "<text x=\"" + std::to_string(x - int(backends.size()) * bar / 2) + "\" y=\"258\" class=\"axis\" "
               "text-anchor=\"middle\">FL " + xml_escape(g) + "</text>\n";
        x += gap;
    }
    return svg + "</svg>\n";
}

// Horizontal bars, one row per label, scaled to `full` (100 for percentages, else the largest value). An HTML table,
// not one SVG: a label is the case's whole name, wrapped as long as it needs to be (an SVG text is one line that
// a long name would run out of).
struct HBar {
    std::string label, backend, text;
    double value = 0;  // <= 0: no bar, `text` says why
};
std::string hbars(const std::vector<HBar>& rows, double full) {
    if (rows.empty()) return "<p class=\"none\">nothing to draw</p>\n";
    const int bar_width = 360;
    std::string out = "<table class=\"hbars\">\n";
    for (const HBar& r : rows) {
        double w = r.value > 0 && full > 0 ? std::min(1.0, r.value / full) * bar_width : 0;
        if (r.value > 0) w = std::max(w, 1.0);
        out += "<tr><td><div class=\"name\">" + xml_escape(r.label) + "</div></td><td class=\"bar\">";
        if (w > 0)
            out += "<svg class=\"hbar\" width=\"" + fmt("%.0f", std::ceil(w)) + "\" height=\"14\" aria-hidden=\"true\">"
                   "<rect width=\"" + fmt("%.1f", w) + "\" height=\"14\" fill=\"" + backend_color(r.backend) + "\"/></svg> ";
        out += xml_escape(r.text) + "</td></tr>\n";
    }
    return out + "</table>\n";
}

// Wrapping, never clipping: a case name (up to hundreds of characters, often without spaces) breaks anywhere.
const char* kStyle = R"(body{font:14px/1.4 sans-serif;margin:24px;color:#222}h1{font-size:22px}h2{font-size:18px;
margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}.chart{display:block;margin:8px 0}.grid{stroke:#ddd}
.axis,.label{font-size:11px;fill:#333}.legend span{margin-right:14px}.none{color:#777;font-style:italic}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ccc;padding:3px 8px;font-size:12px;
text-align:left;vertical-align:top}td.num{text-align:right;white-space:nowrap}.name{max-width:34em;overflow-wrap:anywhere}
th.run{min-width:12em;font-weight:normal}th.run .name{font-weight:bold}table.hbars td{border:none;padding:1px 6px}
table.hbars td.bar{white-space:nowrap}svg.hbar,svg.err{vertical-align:middle}td.cell{white-space:nowrap}
.SLOWER{background:#f4b6b6}.FASTER{background:#b9e4b5}.SAME{background:#eee}.NOISY{background:#f7e3a8}
.INCONCLUSIVE{background:#e0d4ee}.FAILED{background:#e8a0a0}.INVALID{background:#e8a0a0}.DEVIATES{background:#f9c98c}
.UNSUPPORTED{background:#c6d5ec}.SKIPPED{background:#dcdcdc}.verdict{font-weight:bold;font-size:11px}
.meta{color:#555;font-size:12px}.warn{color:#a33;font-weight:bold})";

std::string report_section(const Report& r) {
    const json& root = r.root;
    std::string out = "<h2>" + xml_escape(r.path) + "</h2>\n<p class=\"meta\">" + xml_escape(str(root, "date")) + " &middot; adapter " +
                      xml_escape(str(root, "adapter")) + " &middot; device " + xml_escape(str(root, "device")) + " &middot; dmltool " +
                      xml_escape(str(root.value("tool", json::object()), "version")) + " " +
                      xml_escape(str(root.value("tool", json::object()), "git_commit")) + "</p>\n";
    std::vector<std::string> backends, levels;
    std::map<std::pair<std::string, std::string>, double> throughput;
    for (const json& row : root.value("feature_level_table", json::array())) {
        const std::string b = str(row, "backend"), fl = str(row, "feature_level");
        if (std::find(backends.begin(), backends.end(), b) == backends.end()) backends.push_back(b);
        if (std::find(levels.begin(), levels.end(), fl) == levels.end()) levels.push_back(fl);
        throughput[{fl, b}] = num(row, "geomean_bytes_per_second");
    }
    std::sort(levels.begin(), levels.end());
    out += "<h3>Throughput per feature level (geometric mean of the data-movement cases)</h3>\n" + legend(backends) +
           grouped_bars(levels, backends, throughput, "B/s");
    std::vector<HBar> roofline, times;
    std::map<std::string, std::map<std::string, double>> seconds_by_case;
    double slowest = 0;
    for (const json& c : root.value("cases", json::array())) {
        const std::string name = str(c, "name"), b = str(c, "backend");
        const double pct = num(c, "roofline_percent"), s = num(c, "seconds");
        roofline.push_back({name + " [" + b + "]", b, pct >= 0 ? fmt("%.1f%%", pct) : "n/a (no roofline measured)", pct});
        seconds_by_case[name][b] = s;
        slowest = std::max(slowest, s);
    }
    out += "<h3>% of roofline (copy bandwidth, or integer multiply-adds for convolutions)</h3>\n" + hbars(roofline, 100);
    bool both = false;
    for (const auto& [name, per_backend] : seconds_by_case) {
        for (const auto& [b, s] : per_backend) {
            std::string text = seconds_text(s);
            if (b == "directml" && per_backend.count("gpu") && s > 0) {
                text += fmt(" (dmltool's kernels %.2fx DirectML's speed)", s / per_backend.at("gpu"));
                both = true;
            }
            times.push_back({name + " [" + b + "]", b, text, s});
        }
    }
    out += std::string("<h3>Median time per case and backend") + (both ? ": DirectML beside dmltool's kernels" : "") +
           "</h3>\n" + hbars(times, slowest);
    return out;
}

std::string verdict_table(const std::string& title, const Comparison& c) {
    std::string out = "<h3>" + xml_escape(title) + "</h3>\n<table><tr><th>verdict</th><th>backend</th><th>case</th><th>base"
                      "</th><th>new</th><th>change</th><th>why</th></tr>\n";
    for (const CaseComparison& k : c.cases)
        out += "<tr class=\"" + std::string(verdict_name(k.verdict)) + "\"><td>" + verdict_name(k.verdict) + "</td><td>" +
               xml_escape(k.backend) + "</td><td><div class=\"name\">" + xml_escape(k.name) + "</div></td><td class=\"num\">" +
               seconds_text(k.base.median) + "</td><td class=\"num\">" + seconds_text(k.next.median) + "</td><td class=\"num\">" +
               fmt("%+.1f%%", 100 * k.change) + "</td><td>" + xml_escape(k.reason) + "</td></tr>\n";
    out += "</table>\n";
    for (const std::string& n : c.notes) out += "<p class=\"meta\">" + xml_escape(n) + "</p>\n";
    return out;
}

}  // namespace

int html_report_command(const HtmlReportOptions& options) {
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "dmltool: error: %s\n", s.message().c_str());
        return results_store_exit_code(s);
    };
    std::vector<Report> reports;
    for (const std::string& path : options.reports) {
        auto run = load_bench_run(path);  // validates the fields the charts read, with the usual one-line errors
        if (!run.is_ok()) return fail(run.status());
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        reports.push_back({path, json::parse(text.str(), nullptr, false), std::move(run).value()});
    }
    // Side by side, runs of different machines (or drivers, cache modes, clocks) read as a change of the code; as
    // compare does, they are refused unless asked for, and then every column header names its adapter.
    std::vector<std::string> allowed;
    for (size_t i = 1; i < reports.size(); ++i) {
        const std::string differences = run_differences(reports[0].run, reports[i].run);
        if (differences.empty()) continue;
        if (!options.allow_different_adapters)
            return fail(invalid_input("refusing to put " + reports[i].path + " beside " + reports[0].path + ": different " +
                                      differences + " (pass --allow-different-adapters to show them side by side)"));
        allowed.push_back(reports[i].path + " beside " + reports[0].path + ": different " + differences);
    }
    std::vector<HistoryRow> history;
    if (!options.results_db.empty()) {
        auto rows = load_history(options.results_db, HistoryFilter{});
        if (!rows.is_ok()) return fail(rows.status());
        history = std::move(rows).value();
    }
    CompareOptions compare_options;
    compare_options.allow_different_adapters = options.allow_different_adapters;
    std::vector<std::optional<Comparison>> comparisons(reports.size());
    std::vector<std::string> compare_errors(reports.size());
    for (size_t i = 1; i < reports.size(); ++i) {
        auto c = compare_runs(reports[0].run, reports[i].run, compare_options);
        if (c.is_ok()) comparisons[i] = std::move(c).value();
        else compare_errors[i] = c.status().message();
    }

    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                       "'unsafe-inline'\">\n<title>dmltool bench report</title>\n<style>" +
                       std::string(kStyle) + "</style></head><body>\n<h1>dmltool bench report</h1>\n";
    for (const std::string& a : allowed)
        html += "<p class=\"warn\">--allow-different-adapters: " + xml_escape(a) +
                "; their ratios compare machines, not only code</p>\n";
    // The vendor's reading order: every case across the runs, what did not run and why, the models, then the
    // details per report, the verdicts' reasons and the history.
    html += case_run_matrix(reports, comparisons);
    html += not_benchmarked_section(reports);
    html += model_section(reports);
    for (const Report& r : reports) html += report_section(r);

    html += "<h2>Compare verdicts</h2>\n";
    bool any = false;
    for (size_t i = 1; i < reports.size(); ++i, any = true)
        html += comparisons[i] ? verdict_table(reports[i].path + " against " + reports[0].path, *comparisons[i])
                               : "<p class=\"none\">" + xml_escape(compare_errors[i]) + "</p>\n";
    for (size_t i = 0; i < reports.size() && !options.results_db.empty(); ++i, any = true) {
        auto c = compare_with_baseline(options.results_db, "last:5", reports[i].path, compare_options);
        if (!c.is_ok() && c.status().code() == ErrorCode::kDevice) return fail(c.status());
        html += c.is_ok() ? verdict_table(reports[i].path + " against its history (last:5)", *c)
                          : "<p class=\"none\">" + xml_escape(c.status().message()) + "</p>\n";
    }
    if (!any) html += "<p class=\"none\">one report and no --results-db: nothing to compare with</p>\n";
    html += trends_section(reports, history);
    html += "</body></html>\n";
    std::ofstream out(options.output, std::ios::binary);
    if (out) out << html;
    if (!out) return fail(io_error(options.output + ": cannot write the HTML report"));
    std::fprintf(stderr, "dmltool report: %zu report(s) written to %s\n", reports.size(), options.output.c_str());
    return 0;
}

}  // namespace dmltool::app
