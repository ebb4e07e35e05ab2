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
#include <tuple>

#include "store/baseline_db.h"
#include "store/results_store.h"

namespace dmltool::app {
namespace {

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

// One color per backend, the same in every chart.
const char* backend_color(const std::string& backend) {
    if (backend == "cpu") return "#4e79a7";
    if (backend == "gpu") return "#f28e2b";
    if (backend == "directml") return "#59a14f";
    return "#b07aa1";
}

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

// Horizontal bars, one row per label, scaled to `full` (100 for percentages, else the largest value).
struct HBar {
    std::string label, backend, text;
    double value = 0;  // <= 0: no bar, `text` says why
};
std::string hbars(const std::vector<HBar>& rows, double full) {
    if (rows.empty()) return "<p class=\"none\">nothing to draw</p>\n";
    const int label_width = 380, bar_width = 360, row = 20;
    std::string svg = "<svg class=\"chart\" role=\"img\" width=\"" + std::to_string(label_width + bar_width + 120) +
                      "\" height=\"" + std::to_string(int(rows.size()) * row + 10) + "\">\n";
    int y = 4;
    for (const HBar& r : rows) {
        svg += "<text x=\"" + std::to_string(label_width - 6) + "\" y=\"" + std::to_string(y + 13) +
               "\" class=\"label\" text-anchor=\"end\">" + xml_escape(r.label) + "</text>";
        double w = r.value > 0 && full > 0 ? std::min(1.0, r.value / full) * bar_width : 0;
        if (r.value > 0) w = std::max(w, 1.0);
        if (w > 0)
            svg += "<rect class=\"bar\" x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(y) +
                   "\" width=\"" + fmt("%.1f", w) + "\" height=\"" + std::to_string(row - 4) + "\" fill=\"" +
                   backend_color(r.backend) + "\"/>";
        svg += "<text x=\"" + fmt("%.1f", label_width + w + 4) + "\" y=\"" + std::to_string(y + 13) +
               "\" class=\"label\">" + xml_escape(r.text) + "</text>\n";
        y += row;
    }
    return svg + "</svg>\n";
}

// A trend line of one case's medians over the history's runs, oldest left.
std::string sparkline(const std::vector<double>& values, const std::string& backend) {
    const int w = 220, h = 40;
    const double lo = *std::min_element(values.begin(), values.end()), hi = *std::max_element(values.begin(), values.end());
    std::string points;
    for (size_t i = 0; i < values.size(); ++i) {
        const double x = values.size() == 1 ? w / 2.0 : 4 + double(i) / double(values.size() - 1) * (w - 8);
        const double y = hi > lo ? 4 + (hi - values[i]) / (hi - lo) * (h - 8) : h / 2.0;
        points += fmt("%.1f", x) + "," + fmt("%.1f", y) + " ";
    }
    std::string svg = "<svg class=\"spark\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\">";
    svg += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + std::string(backend_color(backend)) +
           "\" points=\"" + points + "\"/>";
    const size_t last = points.rfind(' ', points.size() - 2);
    const std::string end = points.substr(last == std::string::npos ? 0 : last + 1);
    const size_t comma = end.find(',');
    svg += "<circle r=\"3\" fill=\"" + std::string(backend_color(backend)) + "\" cx=\"" + end.substr(0, comma) +
           "\" cy=\"" + end.substr(comma + 1, end.size() - comma - 2) + "\"/>";
    return svg + "</svg>";
}

const char* kStyle = R"(body{font:14px/1.4 sans-serif;margin:24px;color:#222}h1{font-size:22px}h2{font-size:18px;
margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}.chart{display:block;margin:8px 0}.grid{stroke:#ddd}
.axis,.label{font-size:11px;fill:#333}.legend span{margin-right:14px}.none{color:#777;font-style:italic}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;font-size:12px;text-align:left}
td.num{text-align:right}.SLOWER{background:#f4b6b6}.FASTER{background:#b9e4b5}.SAME{background:#eee}
.NOISY{background:#f7e3a8}.meta{color:#555;font-size:12px})";

struct LoadedReport {
    std::string path;
    json root;
};

std::string str(const json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}
double num(const json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1;
}

std::string report_section(const LoadedReport& r) {
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
               xml_escape(k.backend) + "</td><td>" + xml_escape(k.name) + "</td><td class=\"num\">" + seconds_text(k.base.median) +
               "</td><td class=\"num\">" + seconds_text(k.next.median) + "</td><td class=\"num\">" +
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
    std::vector<LoadedReport> reports;
    std::vector<BenchRun> runs;
    for (const std::string& path : options.reports) {
        auto run = load_bench_run(path);  // validates the fields the charts read, with the usual one-line errors
        if (!run.is_ok()) return fail(run.status());
        std::ifstream in(path, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        reports.push_back({path, json::parse(text.str(), nullptr, false)});
        runs.push_back(std::move(run).value());
    }
    std::vector<HistoryRow> history;
    if (!options.results_db.empty()) {
        auto rows = load_history(options.results_db, HistoryFilter{});
        if (!rows.is_ok()) return fail(rows.status());
        history = std::move(rows).value();
    }
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                       "'unsafe-inline'\">\n<title>dmltool bench report</title>\n<style>" +
                       std::string(kStyle) + "</style></head><body>\n<h1>dmltool bench report</h1>\n";
    for (const LoadedReport& r : reports) html += report_section(r);

    html += "<h2>Compare verdicts</h2>\n";
    const CompareOptions compare_options;
    bool any = false;
    for (size_t i = 1; i < runs.size(); ++i, any = true) {
        auto c = compare_runs(runs[0], runs[i], compare_options);
        html += c.is_ok() ? verdict_table(runs[i].path + " against " + runs[0].path, *c)
                          : "<p class=\"none\">" + xml_escape(c.status().message()) + "</p>\n";
    }
    for (size_t i = 0; i < runs.size() && !options.results_db.empty(); ++i, any = true) {
        auto c = compare_with_baseline(options.results_db, "last:5", runs[i].path, compare_options);
        if (!c.is_ok() && c.status().code() == ErrorCode::kDevice) return fail(c.status());
        html += c.is_ok() ? verdict_table(runs[i].path + " against its history (last:5)", *c)
                          : "<p class=\"none\">" + xml_escape(c.status().message()) + "</p>\n";
    }
    if (!any) html += "<p class=\"none\">one report and no --results-db: nothing to compare with</p>\n";

    html += "<h2>History trends (median per run, oldest left)</h2>\n";
    if (history.empty()) html += "<p class=\"none\">no --results-db, or no history in it</p>\n";
    // The reports' own cases, on their adapters: a fleet database holds many machines' runs.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const HistoryRow*>> trends;
    std::set<std::pair<std::string, std::string>> wanted;
    for (const BenchRun& r : runs)
        for (const RunCase& c : r.cases) wanted.insert({c.name, c.backend});
    for (const HistoryRow& h : history)
        if (wanted.count({h.case_name, h.backend})) trends[{h.case_name, h.backend, h.run.device}].push_back(&h);
    if (!trends.empty()) {
        html += "<table><tr><th>case</th><th>backend</th><th>device</th><th>runs</th><th>trend</th><th>latest</th></tr>\n";
        for (const auto& [key, rows] : trends) {
            std::vector<double> medians;
            for (const HistoryRow* h : rows) medians.push_back(h->median_seconds);
            html += "<tr><td>" + xml_escape(std::get<0>(key)) + "</td><td>" + xml_escape(std::get<1>(key)) + "</td><td>" +
                    xml_escape(std::get<2>(key)) + "</td><td class=\"num\">" + std::to_string(rows.size()) + "</td><td>" +
                    sparkline(medians, std::get<1>(key)) + "</td><td class=\"num\">" + seconds_text(medians.back()) +
                    "</td></tr>\n";
        }
        html += "</table>\n";
    }
    html += "</body></html>\n";
    std::ofstream out(options.output, std::ios::binary);
    if (out) out << html;
    if (!out) return fail(io_error(options.output + ": cannot write the HTML report"));
    std::fprintf(stderr, "dmltool report: %zu report(s) written to %s\n", reports.size(), options.output.c_str());
    return 0;
}

}  // namespace dmltool::app
