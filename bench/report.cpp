#include "bench/report.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "bench/stats.h"

namespace dmltool::app {

bool is_compute_bound(std::string_view op_name) { return op_name == "QUANTIZED_LINEAR_CONVOLUTION"; }

CaseFigures figures_for(const BenchCase& c, const DeviceRoofline& roofline) {
    CaseFigures f;
    if (c.seconds <= 0) return f;
    f.bytes_per_second = double(c.bytes) / c.seconds;
    f.ops_per_second = double(c.ops) / c.seconds;
    if (c.compute_bound) {
        const double macs_per_second = f.ops_per_second / 2;  // the ops counter counts a MAC as 2
        if (roofline.int_multiply_adds_per_second > 0)
            f.roofline_percent = 100 * macs_per_second / roofline.int_multiply_adds_per_second;
        if (roofline.float_fmas_per_second > 0)
            f.float_fma_percent = 100 * macs_per_second / roofline.float_fmas_per_second;
    } else if (roofline.copy_bytes_per_second > 0) {
        f.roofline_percent = 100 * f.bytes_per_second / roofline.copy_bytes_per_second;
    }
    if (!c.compute_bound && c.same_size_copy_bytes_per_second > 0)
        f.same_size_copy_percent = 100 * f.bytes_per_second / c.same_size_copy_bytes_per_second;
    return f;
}

std::optional<double> geometric_mean(std::span<const double> values) {
    double log_sum = 0;
    size_t count = 0;
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v)) continue;
        log_sum += std::log(v);
        ++count;
    }
    if (count == 0) return std::nullopt;
    return std::exp(log_sum / double(count));
}

namespace {

// Collects one table row's inputs before the means are taken.
struct GroupValues {
    size_t cases = 0, compute_cases = 0;
    std::vector<double> bytes_per_second, ops_per_second, percents;

    void add(const BenchCase& c, const CaseFigures& f) {
        ++cases;
        if (c.compute_bound) {
            ++compute_cases;
            ops_per_second.push_back(f.ops_per_second);
        } else {
            bytes_per_second.push_back(f.bytes_per_second);
        }
        if (f.roofline_percent) percents.push_back(*f.roofline_percent);
    }
    TableRow row(std::string backend, std::string feature_level, std::string op, std::string dtype) const {
        return {std::move(backend), std::move(feature_level), std::move(op), std::move(dtype), cases, compute_cases,
                geometric_mean(bytes_per_second), geometric_mean(ops_per_second), geometric_mean(percents)};
    }
};

}  // namespace

BenchReport build_report(std::vector<BenchCase> cases, std::map<std::string, BackendRoofline> rooflines) {
    BenchReport report;
    report.rooflines = std::move(rooflines);
    std::map<std::pair<std::string, FeatureLevel>, GroupValues> levels;
    std::map<std::tuple<std::string, std::string, std::string>, GroupValues> op_types;
    for (BenchCase& c : cases) {
        if (!(c.seconds > 0)) continue;
        const auto roofline = report.rooflines.find(c.backend);
        const CaseFigures f = figures_for(c, roofline == report.rooflines.end() ? DeviceRoofline{} : roofline->second.measured);
        levels[{c.backend, c.level}].add(c, f);
        op_types[{c.backend, c.op, c.dtype}].add(c, f);
        report.cases.push_back(std::move(c));
        report.figures.push_back(f);
    }
    std::map<std::pair<std::string, std::string>, ModelRow> models;  // (model, backend)
    std::map<std::pair<std::string, std::string>, std::map<std::string, double>> model_ops;
    for (const BenchCase& c : report.cases) {
        if (c.model.empty()) continue;
        ModelRow& m = models[{c.model, c.backend}];
        m.backend = c.backend;
        m.model = c.model;
        ++m.cases;
        m.nodes += c.nodes;
        m.seconds += c.seconds * double(c.nodes);
        model_ops[{c.model, c.backend}][c.op] += c.seconds * double(c.nodes);
    }
    for (auto& [key, row] : models) {
        for (const auto& [op, seconds] : model_ops[key]) row.operator_seconds.emplace_back(op, seconds);
        std::sort(row.operator_seconds.begin(), row.operator_seconds.end(),
                  [](const auto& a, const auto& b) { return a.second > b.second; });
        report.by_model.push_back(std::move(row));
    }
    for (const auto& [key, values] : levels)
        report.by_feature_level.push_back(values.row(key.first, key.second.to_string(), "", ""));
    for (const auto& [key, values] : op_types)
        report.by_operator_dtype.push_back(values.row(std::get<0>(key), "", std::get<1>(key), std::get<2>(key)));
    return report;
}

std::string format_percent(std::optional<double> percent) {
    if (!percent) return "n/a";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", *percent);
    return text;
}

std::string format_rate(std::optional<double> per_second, const char* unit) {
    if (!per_second || !(*per_second > 0)) return "n/a";
    static constexpr std::pair<double, const char*> kPrefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    double value = *per_second;
    const char* prefix = "";
    for (const auto& [scale, name] : kPrefixes) {
        if (value >= scale) {
            value /= scale;
            prefix = name;
            break;
        }
    }
    char text[48];
    std::snprintf(text, sizeof text, "%.3g %s%s", value, prefix, unit);
    return text;
}

std::string format_noise(double noise) {
    if (!std::isfinite(noise)) return "n/a";
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", 100 * noise);
    return text;
}

namespace {

std::optional<double> measured(double value) { return value > 0 ? std::optional<double>(value) : std::nullopt; }

void print_table(std::FILE* out, const char* title, const char* group_header, const std::vector<TableRow>& rows) {
    std::fprintf(out, "\n%s (geometric means; %% of roofline over the cases whose roofline was measured):\n", title);
    std::fprintf(out, "  %-7s %-40s %5s  %-12s %-14s %s\n", "backend", group_header, "cases", "bandwidth",
                 "operations", "% of roofline");
    for (const TableRow& r : rows) {
        const std::string group = r.feature_level.empty() ? r.op + " " + r.dtype : r.feature_level;
        std::fprintf(out, "  %-7s %-40s %5zu  %-12s %-14s %s\n", r.backend.c_str(), group.c_str(), r.cases,
                     format_rate(r.geomean_bytes_per_second, "B/s").c_str(),
                     format_rate(r.geomean_ops_per_second, "op/s").c_str(),
                     format_percent(r.geomean_roofline_percent).c_str());
    }
}

}  // namespace

void print_report(std::FILE* out, const BenchReport& report) {
    std::fprintf(out, "\nRooflines measured in this run (GB = 1e9 bytes; bytes read + written):\n");
    for (const auto& [backend, r] : report.rooflines) {
        const DeviceRoofline& m = r.measured;
        const std::string method = m.copy_method.empty() ? "" : " (" + m.copy_method + ")";
        const std::string note = r.note.empty() ? "" : "; " + r.note;
        std::fprintf(out, "  %-4s copy %s%s, integer multiply-adds %s, float32 FMAs %s%s\n", backend.c_str(),
                     format_rate(measured(m.copy_bytes_per_second), "B/s").c_str(), method.c_str(),
                     format_rate(measured(m.int_multiply_adds_per_second), "/s").c_str(),
                     format_rate(measured(m.float_fmas_per_second), "/s").c_str(), note.c_str());
    }
    std::fprintf(out, "\nPer case (%% of roofline: data movement of the copy bandwidth, convolution of the integer "
                      "multiply-add peak; float32 FMA peak in brackets; data movement on a device: of a copy of the same "
                      "bytes in brackets; median time per execution, relative noise of the median, samples):\n");
    for (size_t i = 0; i < report.cases.size(); ++i) {
        const BenchCase& c = report.cases[i];
        const CaseFigures& f = report.figures[i];
        const std::string rate = c.compute_bound ? format_rate(f.ops_per_second, "op/s") : format_rate(f.bytes_per_second, "B/s");
        std::string share = format_percent(f.roofline_percent);
        if (c.compute_bound) share += " (" + format_percent(f.float_fma_percent) + ")";
        if (f.same_size_copy_percent) share += " (" + format_percent(f.same_size_copy_percent) + ")";
        const SampleStats stats = summarize_samples(c.samples);
        std::fprintf(out, "  %-4s FL %-4s %-60s %12s  %-16s %10.3f us  noise %s  n=%zu%s\n", c.backend.c_str(),
                     c.level.to_string().c_str(), c.name.c_str(), rate.c_str(), share.c_str(), c.seconds * 1e6,
                     format_noise(stats.noise).c_str(), stats.count, c.converged ? "" : "  not converged");
    }
    print_table(out, "Per feature level", "FL", report.by_feature_level);
    print_table(out, "Per operator x data type", "operator data type", report.by_operator_dtype);
    if (!report.by_model.empty()) {
        std::fprintf(out, "\nPer model (imported cases: each layer's median x the nodes it stands for, summed; the "
                          "share of that time per operator):\n");
        for (const ModelRow& m : report.by_model) {
            std::string shares;
            for (const auto& [op, seconds] : m.operator_seconds) {
                char share[96];
                std::snprintf(share, sizeof share, "%s%s %.1f%%", shares.empty() ? "" : ", ", op.c_str(),
                              m.seconds > 0 ? 100 * seconds / m.seconds : 0.0);
                shares += share;
            }
            std::fprintf(out, "  %-4s %-28s %4zu cases, %4llu nodes  %12.3f us  %s\n", m.backend.c_str(),
                         m.model.c_str(), m.cases, (unsigned long long)m.nodes, m.seconds * 1e6, shares.c_str());
        }
    }
    // One line for all of them: on a shared machine every case of a short bench may miss the noise target, and a
    // warning per case drowned the table (issue 41).
    size_t unconverged = 0;
    for (const BenchCase& c : report.cases) unconverged += !c.converged;
    if (unconverged)
        std::fprintf(out, "dmltool: warning: %zu of %zu benchmarks not converged (rows marked above): the noise of their "
                          "median stayed above --max-noise until --max-time ran out; their figures stand with that noise, "
                          "and compare calls them NOISY (raise --max-time or --max-noise)\n",
                     unconverged, report.cases.size());
}

}  // namespace dmltool::app
