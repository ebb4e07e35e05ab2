// The tables of `report --html` that put the runs side by side (store/html_report_parts.h): the case x run matrix,
// the cases that were not benchmarked or DEVIATE, and the per-model tables. HTML tables rather than SVG: their
// labels are case and model names of any length, which a table cell wraps and an SVG text would run out of.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "bench/stats.h"
#include "core/report.h"
#include "store/html_report_parts.h"

namespace dmltool::app::html {
namespace {

using nlohmann::json;
using Key = std::pair<std::string, std::string>;  // case name, backend

// The 95% margin of a median from its relative noise (bench/stats.h: noise is a standard error / median).
constexpr double kMargin = 1.96;

// One matrix cell's picture: the median as a bar from zero and its 95% interval as an error bar, on the row's
// scale (`full`: the largest upper end of the row), so cells of one row compare by eye. The error bar is pure
// black with crisp edges: no text on the page is that dark, so a screenshot can tell that it drew.
std::string error_bar(double median, double noise, double full, const std::string& backend) {
    const double width = 120, scale = full > 0 ? width / full : 0;
    const double x = std::max(1.0, median * scale);
    std::string svg = "<svg class=\"err\" width=\"126\" height=\"14\" aria-hidden=\"true\"><rect y=\"4\" height=\"6\" width=\"" +
                      fmt("%.1f", x) + "\" fill=\"" + backend_color(backend) + "\"/>";
    if (std::isfinite(noise)) {
        const double lo = std::max(0.0, median * (1 - kMargin * noise)) * scale,
                     hi = std::min(full, median * (1 + kMargin * noise)) * scale;
        svg += "<path d=\"M" + fmt("%.1f", lo) + " 7H" + fmt("%.1f", hi) + "M" + fmt("%.1f", lo) + " 2V12M" +
               fmt("%.1f", hi) + " 2V12\" stroke=\"#000\" stroke-width=\"2\" fill=\"none\" shape-rendering=\"crispEdges\"/>";
    }
    return svg + "</svg>";
}

// What a report's JSON says about a case beyond its samples: the check before timing (cases[].check) and the
// cases it did not benchmark (not_benchmarked[], by name: they name no backend).
struct ReportNotes {
    std::map<std::string, std::pair<std::string, std::string>> check;        // name -> status, reason
    std::map<std::string, std::pair<std::string, std::string>> not_benched;  // name -> status, reason
};
ReportNotes notes_of(const Report& r) {
    ReportNotes n;
    for (const json& c : r.root.value("cases", json::array()))
        if (c.contains("check")) n.check[str(c, "name")] = {str(c["check"], "status"), str(c["check"], "reason")};
    for (const json& c : r.root.value("not_benchmarked", json::array()))
        n.not_benched[str(c, "name")] = {str(c, "status"), str(c, "reason")};
    return n;
}

// The array at `key`, by reference (json::value returns a copy); an empty array when absent.
const json& array_member(const json& j, const char* key) {
    static const json empty = json::array();
    return j.is_object() && j.contains(key) && j[key].is_array() ? j[key] : empty;
}

}  // namespace

std::string case_run_matrix(const std::vector<Report>& reports, const std::vector<std::optional<Comparison>>& comparisons) {
    std::vector<Key> rows;
    std::set<Key> seen;
    std::vector<std::map<Key, const RunCase*>> by_run(reports.size());
    std::vector<std::map<Key, const CaseComparison*>> verdicts(reports.size());
    std::vector<ReportNotes> notes;
    for (size_t i = 0; i < reports.size(); ++i) {
        for (const RunCase& c : reports[i].run.cases) {
            const Key key{c.name, c.backend};
            by_run[i][key] = &c;
            if (seen.insert(key).second) rows.push_back(key);
        }
        if (i < comparisons.size() && comparisons[i])
            for (const CaseComparison& k : comparisons[i]->cases) verdicts[i][{k.name, k.backend}] = &k;
        notes.push_back(notes_of(reports[i]));
    }
    std::string out = "<h2>Case &times; run matrix</h2>\n<p class=\"meta\">Each cell: the median time per execution, its 95% "
                      "interval as an error bar (&plusmn;1.96 &times; the median's relative noise), the ratio to run #1, and "
                      "compare's verdict against run #1 (SLOWER, FASTER, SAME, NOISY, INCONCLUSIVE). Bars share one scale per "
                      "row.</p>\n";
    if (rows.empty()) return out + "<p class=\"none\">no timed cases</p>\n";
    out += "<table class=\"matrix\"><tr><th>case</th><th>backend</th>";
    for (size_t i = 0; i < reports.size(); ++i) out += run_header(i, reports[i]);
    out += "</tr>\n";
    for (const Key& key : rows) {
        std::vector<SampleStats> stats(reports.size());
        double full = 0;
        for (size_t i = 0; i < reports.size(); ++i) {
            const auto it = by_run[i].find(key);
            if (it == by_run[i].end()) continue;
            stats[i] = summarize_samples(it->second->samples);
            const double noise = std::isfinite(stats[i].noise) ? stats[i].noise : 0;
            full = std::max(full, stats[i].median * (1 + kMargin * noise));
        }
        out += "<tr><td><div class=\"name\">" + xml_escape(key.first) + "</div></td><td>" + xml_escape(key.second) + "</td>";
        const auto base = by_run[0].find(key);
        for (size_t i = 0; i < reports.size(); ++i) {
            const auto it = by_run[i].find(key);
            if (it == by_run[i].end()) {
                // Not timed in this run: say why when the report knows (a check that failed, an unsupported op).
                const auto why = notes[i].not_benched.find(key.first);
                out += why == notes[i].not_benched.end()
                           ? "<td class=\"cell\">&mdash; not in this run</td>"
                           : "<td class=\"cell " + xml_escape(why->second.first) + "\"><span class=\"verdict\">" +
                                 xml_escape(why->second.first) + "</span> not benchmarked</td>";
                continue;
            }
            const SampleStats& s = stats[i];
            const auto verdict = verdicts[i].find(key);
            std::string cls = verdict == verdicts[i].end() ? "" : std::string(" ") + verdict_name(verdict->second->verdict);
            out += "<td class=\"cell" + cls + "\">" + error_bar(s.median, s.noise, full, key.second) + "<br>" +
                   seconds_text(s.median) +
                   (std::isfinite(s.noise) ? fmt(" &plusmn;%.1f%%", 100 * kMargin * s.noise) : " (one sample: noise unknown)");
            if (i > 0 && base != by_run[0].end() && stats[0].median > 0) out += fmt("<br>&times;%.3f", s.median / stats[0].median);
            if (i == 0) out += "<br>base";
            if (verdict != verdicts[i].end())
                out += std::string(" <span class=\"verdict\">") + verdict_name(verdict->second->verdict) + "</span>";
            if (!it->second->converged) out += "<br>not converged";
            const auto check = notes[i].check.find(key.first);
            if (check != notes[i].check.end() && check->second.first == "DEVIATES")
                out += "<br><span class=\"verdict DEVIATES\">DEVIATES</span>";
            out += "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

std::string not_benchmarked_section(const std::vector<Report>& reports) {
    std::string out = "<h2>Cases not benchmarked, and cases that DEVIATE</h2>\n<p class=\"meta\">FAILED: the check before "
                      "timing failed; UNSUPPORTED: the backend does not run it; SKIPPED: nothing to check it against; "
                      "INVALID: the case or its file is broken. These were not timed. DEVIATES: outside the tolerance, "
                      "timed all the same.</p>\n";
    for (const Report& r : reports) {
        std::vector<std::array<std::string, 4>> rows;  // status, file, case, reason
        const bool listed = r.root.contains("not_benchmarked");
        for (const json& n : r.root.value("not_benchmarked", json::array()))
            rows.push_back({str(n, "status"), str(n, "file"), str(n, "name"), str(n, "reason")});
        std::set<std::string> deviating;  // one row per case, not per backend
        for (const json& c : r.root.value("cases", json::array()))
            if (c.contains("check") && str(c["check"], "status") == "DEVIATES" && deviating.insert(str(c, "name")).second)
                rows.push_back({"DEVIATES", str(c, "file"), str(c, "name"), str(c["check"], "reason")});
        out += "<h3>" + xml_escape(r.path) + "</h3>\n";
        if (!listed) out += "<p class=\"none\">this report does not list the cases it did not benchmark (an older bench)</p>\n";
        if (rows.empty()) {
            if (listed) out += "<p class=\"none\">every selected case passed its check and was timed</p>\n";
            continue;
        }
        std::map<std::string, size_t> counts;
        for (const auto& row : rows) ++counts[row[0]];
        std::string summary;
        for (const auto& [status, n] : counts) summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + status;
        out += "<p class=\"meta\">" + xml_escape(summary) + "</p>\n<table class=\"failures\"><tr><th>status</th><th>case"
               "</th><th>file</th><th>reason</th></tr>\n";
        for (const auto& row : rows)
            out += "<tr class=\"" + xml_escape(row[0]) + "\"><td>" + xml_escape(row[0]) + "</td><td><div class=\"name\">" +
                   xml_escape(row[2]) + "</div></td><td><div class=\"name\">" + xml_escape(row[1]) +
                   "</div></td><td><div class=\"name\">" + xml_escape(row[3]) + "</div></td></tr>\n";
        out += "</table>\n";
    }
    return out;
}

std::string model_section(const std::vector<Report>& reports) {
    std::string out = "<h2>Per model: where the time goes per operator type</h2>\n<p class=\"meta\">Imported models "
                      "(docs/importing-models.md): each layer's median &times; the nodes it stands for, summed per "
                      "operator type; a sum of isolated layers, not an end-to-end inference time. Each cell: the time, its "
                      "share of the model's time, and the ratio to run #1.</p>\n";
    // (model, backend) -> per run: the model_table row.
    std::vector<Key> keys;
    std::map<Key, std::vector<const json*>> rows;
    for (size_t i = 0; i < reports.size(); ++i)
        for (const json& m : array_member(reports[i].root, "model_table")) {  // pointers kept: not a copy
            const Key key{str(m, "model"), str(m, "backend")};
            auto& per_run = rows[key];
            if (per_run.empty()) keys.push_back(key), per_run.assign(reports.size(), nullptr);
            per_run[i] = &m;
        }
    if (keys.empty()) return out + "<p class=\"none\">no imported models in these reports</p>\n";
    for (const Key& key : keys) {
        const auto& per_run = rows[key];
        // Operators by their time in the first run that has the model, slowest first: the driver's worst first.
        std::vector<std::pair<double, std::string>> order;
        std::set<std::string> named;
        for (const json* m : per_run) {
            if (!m) continue;
            for (const json& op : m->value("operators", json::array()))
                if (named.insert(str(op, "operator")).second) order.push_back({-num(op, "seconds"), str(op, "operator")});
            break;
        }
        for (const json* m : per_run)
            if (m)
                for (const json& op : m->value("operators", json::array()))
                    if (named.insert(str(op, "operator")).second) order.push_back({0, str(op, "operator")});
        std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        out += "<h3>" + xml_escape(key.first) + " [" + xml_escape(key.second) + "]</h3>\n<table class=\"model\"><tr>"
               "<th>operator type</th>";
        for (size_t i = 0; i < reports.size(); ++i) out += run_header(i, reports[i]);
        out += "</tr>\n";
        auto op_seconds = [](const json* m, const std::string& op) -> std::pair<double, double> {
            for (const json& o : m->value("operators", json::array()))
                if (str(o, "operator") == op) return {num(o, "seconds"), num(o, "share")};
            return {-1, -1};
        };
        auto cells = [&](const std::string& label, auto&& value_of) {
            std::string row = "<tr><td><div class=\"name\">" + label + "</div></td>";
            double base = -1;
            for (size_t i = 0; i < per_run.size(); ++i) {
                if (!per_run[i]) {
                    row += "<td class=\"cell\">&mdash; not in this run</td>";
                    continue;
                }
                const auto [seconds, share] = value_of(per_run[i]);
                if (seconds < 0) {
                    row += "<td class=\"cell\">&mdash;</td>";
                    continue;
                }
                if (base < 0 && i == 0) base = seconds;
                row += "<td class=\"cell\"><svg class=\"hbar\" width=\"102\" height=\"10\" aria-hidden=\"true\"><rect "
                       "width=\"101\" height=\"10\" fill=\"#eee\"/><rect width=\"" + fmt("%.1f", 1 + 100 * std::clamp(share, 0.0, 1.0)) +
                       "\" height=\"10\" fill=\"" + backend_color(key.second) + "\"/></svg> " + seconds_text(seconds) +
                       fmt(" (%.1f%%)", 100 * share);
                if (i > 0 && base > 0) row += fmt(" &times;%.3f", seconds / base);
                row += "</td>";
            }
            return row + "</tr>\n";
        };
        out += cells("<b>whole model</b>", [](const json* m) {
            return std::pair<double, double>{num(*m, "seconds"), 1.0};
        });
        for (const auto& entry : order) {
            // A named copy: clang 14 cannot capture a structured binding in a lambda (the sanitized build).
            const auto& op = entry.second;
            out += cells(xml_escape(op), [&](const json* m) { return op_seconds(m, op); });
        }
        std::string sizes;
        for (size_t i = 0; i < per_run.size(); ++i)
            if (per_run[i])
                sizes += (sizes.empty() ? "" : "; ") + ("#" + std::to_string(i + 1) + ": ") +
                         std::to_string(per_run[i]->value("cases", 0)) + " cases, " +
                         std::to_string(per_run[i]->value("nodes", 0)) + " nodes";
        out += "</table>\n<p class=\"meta\">" + xml_escape(sizes) + "</p>\n";
    }
    return out;
}

}  // namespace dmltool::app::html
