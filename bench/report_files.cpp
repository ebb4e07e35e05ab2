#include "bench/report_files.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bench/stats.h"

namespace dmltool::app {
namespace {

using nlohmann::json;

json optional_number(std::optional<double> value) { return value ? json(*value) : json(); }
// Rooflines use 0 for "not measured".
std::optional<double> positive(double value) { return value > 0 ? std::optional<double>(value) : std::nullopt; }
json positive_or_null(double value) { return optional_number(positive(value)); }

json roofline_json(const BackendRoofline& r) {
    return {{"adapter", r.measured.adapter},
            {"copy_bytes_per_second", positive_or_null(r.measured.copy_bytes_per_second)},
            {"copy_method", r.measured.copy_method},
            {"int_multiply_adds_per_second", positive_or_null(r.measured.int_multiply_adds_per_second)},
            {"float_fmas_per_second", positive_or_null(r.measured.float_fmas_per_second)},
            {"note", r.note}};
}

json table_json(const std::vector<TableRow>& rows) {
    json out = json::array();
    for (const TableRow& r : rows) {
        json row = json::object();
        row["backend"] = r.backend;
        if (r.feature_level.empty()) {
            row["operator"] = r.op;
            row["dtype"] = r.dtype;
        } else {
            row["feature_level"] = r.feature_level;
        }
        row["cases"] = r.cases;
        row["compute_cases"] = r.compute_cases;
        row["geomean_bytes_per_second"] = optional_number(r.geomean_bytes_per_second);
        row["geomean_ops_per_second"] = optional_number(r.geomean_ops_per_second);
        row["geomean_roofline_percent"] = optional_number(r.geomean_roofline_percent);
        out.push_back(row);
    }
    return out;
}

Status write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    if (out) out << text;
    if (!out) return io_error(path + ": cannot write the bench report (" + std::strerror(errno) + ")");
    return Status::ok();
}

std::string adapter_of(const BenchReport& report) {
    for (const auto& [backend, roofline] : report.rooflines)
        if (backend != "cpu") return roofline.measured.adapter;  // the device backend's (gpu or directml)
    return "none";
}

json statistics_json(const BenchCase& c) {
    const SampleStats s = summarize_samples(c.samples);
    auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(); };
    return {{"count", s.count}, {"median", s.median}, {"min", s.min}, {"max", s.max}, {"mean", s.mean},
            {"stddev", s.stddev}, {"noise", finite(s.noise)}};
}

// How the device plan was chosen (autotuning); null for cases without plan variants.
json plan_json(const BenchCase& c) {
    if (!c.plan) return json();
    // Every candidate's device time as measured when tuning (the heuristic first), so a winner's margin can be
    // checked against the benchmark's own figures.
    json times = json::array();
    for (const VariantTime& t : c.plan->candidates)
        times.push_back({{"variant", t.variant.empty() ? "heuristic" : t.variant}, {"seconds", t.seconds}});
    return {{"variant", c.plan->display_name()}, {"source", c.plan->source},
            {"speedup_over_heuristic", c.plan->speedup()}, {"candidates", c.plan->candidates.size()},
            {"candidate_seconds", times}, {"note", c.plan->note}};
}

}  // namespace

Status write_report_json(const std::string& path, const BenchReport& report, const ReportContext& context) {
    json root;
    root["tool"] = {{"name", "dmltool"}, {"version", context.build.version}, {"git_commit", context.build.git_commit}};
    root["date"] = context.date;
    root["machine"] = {{"hostname", context.machine.hostname}, {"cpu_model", context.machine.cpu_model},
                       {"logical_cores", context.machine.logical_cores}, {"os", context.machine.os},
                       {"kernel", context.machine.kernel}};
    root["adapter"] = adapter_of(report);
    root["device"] = context.device;
    root["sample_format"] = kSampleFormat;
    root["statistics"] = {
        {"sample", "mean seconds per execution of one batch of back-to-back executions (GPU timestamps on a device, "
                   "wall time on the CPU reference)"},
        {"seconds", "the median sample"},
        {"noise", "relative standard error of the median from its 95% order-statistic confidence interval: "
                  "(x(u) - x(l)) / 3.92 / median, 1-based ranks l = floor(n/2 - 0.98 sqrt(n)), "
                  "u = ceil(n/2 + 1 + 0.98 sqrt(n)) clamped to 1..n"}};
    for (const auto& [key, text] : context.json_sections) root[key] = json::parse(text);
    root["files"] = context.files;
    json options = json::object();
    for (const auto& [name, value] : context.options) options[name] = value;
    root["options"] = options;
    json rooflines = json::object();
    for (const auto& [backend, r] : report.rooflines) rooflines[backend] = roofline_json(r);
    root["rooflines"] = rooflines;
    json cases = json::array();
    for (size_t i = 0; i < report.cases.size(); ++i) {
        const BenchCase& c = report.cases[i];
        const CaseFigures& f = report.figures[i];
        cases.push_back({{"name", c.name},
                         {"file", c.file},
                         {"operator", c.op},
                         {"dtype", c.dtype},
                         {"feature_level", c.level.to_string()},
                         {"backend", c.backend},
                         {"roofline_basis", c.compute_bound ? "int_multiply_adds" : "copy"},
                         {"seconds", c.seconds},
                         {"statistics", statistics_json(c)},
                         {"converged", c.converged},
                         {"executions_per_sample", c.executions_per_sample},
                         {"samples", c.samples},
                         {"throttle", {{"probe_before_bytes_per_second", c.probe_before},
                                       {"probe_after_bytes_per_second", c.probe_after},
                                       {"remeasured", c.remeasured},
                                       {"flagged", c.throttled}}},
                         {"bytes", c.bytes},
                         {"ops", c.ops},
                         {"bytes_per_second", f.bytes_per_second},
                         {"ops_per_second", f.ops_per_second},
                         {"roofline_percent", optional_number(f.roofline_percent)},
                         {"float_fma_percent", optional_number(f.float_fma_percent)},
                         {"same_size_copy", {{"bytes_per_second", positive_or_null(c.same_size_copy_bytes_per_second)},
                                             {"percent", optional_number(f.same_size_copy_percent)}}},
                         {"plan", plan_json(c)},
                         {"check", {{"status", c.check_status}, {"reason", c.check_reason}}}});
    }
    root["cases"] = cases;
    root["feature_level_table"] = table_json(report.by_feature_level);
    root["operator_dtype_table"] = table_json(report.by_operator_dtype);
    json models = json::array();
    for (const ModelRow& m : report.by_model) {
        json ops = json::array();
        for (const auto& [op, seconds] : m.operator_seconds)
            ops.push_back({{"operator", op}, {"seconds", seconds}, {"share", m.seconds > 0 ? seconds / m.seconds : 0.0}});
        models.push_back({{"backend", m.backend}, {"model", m.model}, {"cases", m.cases}, {"nodes", m.nodes},
                          {"seconds", m.seconds}, {"operators", ops}});
    }
    root["model_table"] = models;
    json skipped = json::array();
    for (const NotBenchmarked& n : context.not_benchmarked)
        skipped.push_back({{"file", n.file}, {"name", n.name}, {"status", n.status}, {"reason", n.reason}});
    root["not_benchmarked"] = skipped;
    return write_text(path, root.dump(1, ' ', false, json::error_handler_t::replace) + "\n");
}

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string csv_number(std::optional<double> value) {
    if (!value) return "";
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", *value);
    return text;
}

// The relative noise of the median (bench/stats.h); empty when unknown (fewer than two samples).
std::string csv_noise(const std::vector<double>& samples) {
    const double noise = summarize_samples(samples).noise;
    return std::isfinite(noise) ? csv_number(noise) : "";
}

// Comment lines ("# ") keep one file self-describing; spreadsheet and pandas readers skip them
// (pandas: comment="#").
std::string csv_comment(const std::string& key, const std::string& value) {
    std::string line = "# " + key + ": " + value;
    for (char& c : line)
        if (c == '\n' || c == '\r') c = ' ';
    return line + "\n";
}

}  // namespace

Status write_report_csv(const std::string& path, const BenchReport& report, const ReportContext& context) {
    std::string out;
    out += csv_comment("tool", "dmltool " + context.build.version + " (" + context.build.git_commit + ")");
    out += csv_comment("date", context.date);
    out += csv_comment("machine", context.machine.hostname + "; " + context.machine.cpu_model + "; " +
                                      std::to_string(context.machine.logical_cores) + " logical cores; " +
                                      context.machine.os + "; " + context.machine.kernel);
    out += csv_comment("adapter", adapter_of(report));
    for (const auto& [name, value] : context.options) out += csv_comment("option " + name, value);
    for (const auto& [backend, r] : report.rooflines) {
        const DeviceRoofline& m = r.measured;
        out += csv_comment("roofline " + backend, "copy_bytes_per_second=" + csv_number(positive(m.copy_bytes_per_second)) +
                                                      " int_multiply_adds_per_second=" +
                                                      csv_number(positive(m.int_multiply_adds_per_second)) +
                                                      " float_fmas_per_second=" +
                                                      csv_number(positive(m.float_fmas_per_second)) +
                                                      " method=" + m.copy_method + (r.note.empty() ? "" : "; " + r.note));
    }
    for (const NotBenchmarked& n : context.not_benchmarked)
        out += csv_comment("not benchmarked", n.file + " :: " + n.name + " [" + n.status + "] " + n.reason);
    out += "row,backend,feature_level,operator,dtype,name,cases,seconds,bytes_per_second,ops_per_second,"
           "roofline_percent,float_fma_percent,noise,samples,converged,plan\n";
    for (size_t i = 0; i < report.cases.size(); ++i) {
        const BenchCase& c = report.cases[i];
        const CaseFigures& f = report.figures[i];
        out += "case," + c.backend + "," + c.level.to_string() + "," + c.op + "," + c.dtype + "," + csv_field(c.name) +
               ",1," + csv_number(c.seconds) + "," + csv_number(f.bytes_per_second) + "," +
               csv_number(f.ops_per_second) + "," + csv_number(f.roofline_percent) + "," +
               csv_number(f.float_fma_percent) + "," + csv_noise(c.samples) + "," + std::to_string(c.samples.size()) +
               "," + (c.converged ? "1" : "0") + "," + (c.plan ? csv_field(c.plan->display_name()) : "") + "\n";
    }
    for (const auto* rows : {&report.by_feature_level, &report.by_operator_dtype})
        for (const TableRow& r : *rows)
            out += std::string(r.feature_level.empty() ? "operator_dtype," : "feature_level,") + r.backend + "," +
                   r.feature_level + "," + r.op + "," + r.dtype + ",," + std::to_string(r.cases) + ",," +
                   csv_number(r.geomean_bytes_per_second) + "," + csv_number(r.geomean_ops_per_second) + "," +
                   csv_number(r.geomean_roofline_percent) + ",,,,,\n";
    return write_text(path, out);
}

}  // namespace dmltool::app
