// History trends of `report --html` (store/html_report_parts.h): per case x backend x device, its median over the
// history's runs as a small chart that can be read, not only glanced at: a time axis with a scale and units, the
// 95% interval of each run's median as an error bar, and the runs' dates and commits under them.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/report.h"
#include "store/html_report_parts.h"

namespace dmltool::app::html {
namespace {

// A step of 1, 2 or 5 x 10^k giving about `ticks` intervals over `range`.
double nice_step(double range, int ticks) {
    const double raw = range / ticks, power = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (raw <= m * power) return m * power;
    return 10 * power;
}

// "2026-11-29T12:45:56Z" -> "11-29 12:45": the year is in the caption; dates of one day differ by their time.
std::string short_date(const std::string& date) {
    if (date.size() >= 16 && date[10] == 'T') return date.substr(5, 5) + " " + date.substr(11, 5);
    return date.size() >= 10 ? date.substr(5, 5) : date;
}

std::string trend_chart(const std::vector<const HistoryRow*>& rows, const std::string& backend) {
    const int width = 560, height = 170, left = 70, right = 16, top = 10, bottom = 44;
    const int plot_w = width - left - right, plot_h = height - top - bottom;
    double lo = INFINITY, hi = 0;
    for (const HistoryRow* r : rows) {
        const double margin = std::isfinite(r->noise) ? 1.96 * r->noise * r->median_seconds : 0;
        lo = std::min(lo, r->median_seconds - margin);
        hi = std::max(hi, r->median_seconds + margin);
    }
    lo = std::max(0.0, lo);
    if (!(hi > lo)) hi = lo + std::max(lo * 0.1, 1e-9);  // a flat line still gets a scale
    const double step = nice_step(hi - lo, 4);
    const double y0 = std::floor(lo / step) * step, y1 = std::ceil(hi / step) * step;
    auto y_of = [&](double v) { return top + (y1 - v) / (y1 - y0) * plot_h; };
    auto x_of = [&](size_t i) {
        return rows.size() == 1 ? left + plot_w / 2.0 : left + 8 + double(i) / double(rows.size() - 1) * (plot_w - 16);
    };
    const std::string color = backend_color(backend);
    std::string svg = "<svg class=\"trend\" role=\"img\" width=\"" + std::to_string(width) + "\" height=\"" +
                      std::to_string(height) + "\">\n";
    // The y scale: gridlines at round times, each labelled with its unit.
    for (double v = y0; v <= y1 + step / 2; v += step) {
        const std::string y = fmt("%.1f", y_of(v));
        svg += "<line x1=\"" + std::to_string(left) + "\" x2=\"" + std::to_string(width - right) + "\" y1=\"" + y +
               "\" y2=\"" + y + "\" class=\"grid\"/><text x=\"" + std::to_string(left - 4) + "\" y=\"" +
               fmt("%.1f", y_of(v) + 4) + "\" class=\"axis\" text-anchor=\"end\">" + xml_escape(seconds_text(v)) + "</text>\n";
    }
    svg += "<line x1=\"" + std::to_string(left) + "\" x2=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(top) +
           "\" y2=\"" + std::to_string(top + plot_h) + "\" stroke=\"#888\"/>\n";
    std::string points;
    for (size_t i = 0; i < rows.size(); ++i) points += fmt("%.1f", x_of(i)) + "," + fmt("%.1f", y_of(rows[i]->median_seconds)) + " ";
    svg += "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + color + "\" points=\"" + points + "\"/>\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        const HistoryRow& r = *rows[i];
        const std::string x = fmt("%.1f", x_of(i));
        if (std::isfinite(r.noise) && r.noise > 0) {
            const double m = 1.96 * r.noise * r.median_seconds;
            svg += "<path d=\"M" + x + " " + fmt("%.1f", y_of(std::min(y1, r.median_seconds + m))) + "V" +
                   fmt("%.1f", y_of(std::max(y0, r.median_seconds - m))) + "\" stroke=\"#222\" stroke-width=\"1\"/>";
        }
        svg += "<circle r=\"3\" fill=\"" + color + "\" cx=\"" + x + "\" cy=\"" + fmt("%.1f", y_of(r.median_seconds)) +
               "\"><title>" + xml_escape(r.run.date + " " + r.run.git_commit + ": " + seconds_text(r.median_seconds)) +
               "</title></circle>\n";
    }
    // Dates and commits under at most six runs (the first, the last and evenly between): more would overlap.
    std::set<size_t> labelled;
    const size_t n = rows.size(), shown = std::min<size_t>(n, 6);
    for (size_t k = 0; k < shown; ++k) labelled.insert(shown == 1 ? 0 : k * (n - 1) / (shown - 1));
    for (size_t i : labelled) {
        const std::string x = fmt("%.1f", x_of(i));
        const char* anchor = n > 1 && i == 0 ? "start" : n > 1 && i == n - 1 ? "end" : "middle";
        svg += "<text class=\"axis\" text-anchor=\"" + std::string(anchor) + "\" y=\"" + std::to_string(top + plot_h + 16) +
               "\"><tspan x=\"" + x + "\">" + xml_escape(short_date(rows[i]->run.date)) + "</tspan><tspan x=\"" + x +
               "\" dy=\"13\">" + xml_escape(short_commit(rows[i]->run.git_commit)) + "</tspan></text>\n";
    }
    return svg + "</svg>";
}

}  // namespace

std::string trends_section(const std::vector<Report>& reports, const std::vector<HistoryRow>& history) {
    std::string out = "<h2>History trends (median per run, oldest left)</h2>\n";
    if (history.empty()) return out + "<p class=\"none\">no --results-db, or no history in it</p>\n";
    // The reports' own cases, on their adapters: a fleet database holds many machines' runs.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const HistoryRow*>> trends;
    std::set<std::pair<std::string, std::string>> wanted;
    for (const Report& r : reports)
        for (const RunCase& c : r.run.cases) wanted.insert({c.name, c.backend});
    for (const HistoryRow& h : history)
        if (wanted.count({h.case_name, h.backend})) trends[{h.case_name, h.backend, h.run.device}].push_back(&h);
    if (trends.empty()) return out + "<p class=\"none\">none of the reports' cases is in the history</p>\n";
    const std::string first = history.front().run.date.substr(0, 10), last = history.back().run.date.substr(0, 10);
    out += "<p class=\"meta\">Median time per execution of each run (its 95% interval as an error bar), runs from " +
           xml_escape(first) + " to " + xml_escape(last) + " (UTC; under the axis: month-day time and commit).</p>\n"
           "<table><tr><th>case</th><th>backend</th><th>device</th><th>runs</th><th>trend</th><th>latest</th></tr>\n";
    for (const auto& [key, rows] : trends)
        out += "<tr><td><div class=\"name\">" + xml_escape(std::get<0>(key)) + "</div></td><td>" + xml_escape(std::get<1>(key)) +
               "</td><td><div class=\"name\">" + xml_escape(std::get<2>(key)) + "</div></td><td class=\"num\">" +
               std::to_string(rows.size()) + "</td><td>" + trend_chart(rows, std::get<1>(key)) + "</td><td class=\"num\">" +
               seconds_text(rows.back()->median_seconds) + "</td></tr>\n";
    return out + "</table>\n";
}

}  // namespace dmltool::app::html
