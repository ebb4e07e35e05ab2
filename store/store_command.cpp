#include "store/store_command.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/report_files.h"
#include "store/results_store.h"

namespace dmltool::app {
namespace {

using nlohmann::json;

std::string found_text(const json* value) {
    if (!value) return "nothing";
    std::string text = value->dump(-1, ' ', false, json::error_handler_t::replace);
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

Status bad_field(const std::string& path, const std::string& field, const std::string& expected, const json* found) {
    return invalid_input(path + ": " + field + ": expected " + expected + ", found " + found_text(found));
}

// object[key] as a string; `fallback` when absent and a fallback is allowed (nullptr: required).
Result<std::string> text_at(const std::string& path, const json& object, const std::string& pointer,
                            const char* key, const char* fallback = nullptr) {
    const auto it = object.find(key);
    if (it == object.end() && fallback) return std::string(fallback);
    if (it == object.end() || !it->is_string())
        return bad_field(path, pointer + "/" + key, "a string", it == object.end() ? nullptr : &*it);
    return it->get<std::string>();
}

Result<double> number_at(const std::string& path, const json& object, const std::string& pointer, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
        return bad_field(path, pointer + "/" + key, "a number >= 0", it == object.end() ? nullptr : &*it);
    return it->get<double>();
}

Result<BenchCase> case_from(const std::string& path, const json& c, const std::string& pointer) {
    if (!c.is_object()) return bad_field(path, pointer, "an object", &c);
    BenchCase out;
    DMLTOOL_ASSIGN_OR_RETURN(out.name, text_at(path, c, pointer, "name"));
    DMLTOOL_ASSIGN_OR_RETURN(out.file, text_at(path, c, pointer, "file", ""));
    DMLTOOL_ASSIGN_OR_RETURN(out.op, text_at(path, c, pointer, "operator"));
    DMLTOOL_ASSIGN_OR_RETURN(out.dtype, text_at(path, c, pointer, "dtype", ""));
    DMLTOOL_ASSIGN_OR_RETURN(out.backend, text_at(path, c, pointer, "backend"));
    DMLTOOL_ASSIGN_OR_RETURN(std::string level, text_at(path, c, pointer, "feature_level"));
    const auto parsed = FeatureLevel::parse(level);
    if (!parsed) return bad_field(path, pointer + "/feature_level", "a feature level such as \"5.0\"", &c["feature_level"]);
    out.level = *parsed;
    DMLTOOL_ASSIGN_OR_RETURN(out.seconds, number_at(path, c, pointer, "seconds"));
    DMLTOOL_ASSIGN_OR_RETURN(double bytes, number_at(path, c, pointer, "bytes"));
    DMLTOOL_ASSIGN_OR_RETURN(double ops, number_at(path, c, pointer, "ops"));
    DMLTOOL_ASSIGN_OR_RETURN(double executions, number_at(path, c, pointer, "executions_per_sample"));
    out.bytes = uint64_t(bytes);
    out.ops = uint64_t(ops);
    if (executions < 1 || executions > 4e9)
        return bad_field(path, pointer + "/executions_per_sample", "a count >= 1", &c["executions_per_sample"]);
    out.executions_per_sample = unsigned(executions);
    const auto converged = c.find("converged");
    if (converged == c.end() || !converged->is_boolean())
        return bad_field(path, pointer + "/converged", "true or false", converged == c.end() ? nullptr : &*converged);
    out.converged = converged->get<bool>();
    const auto samples = c.find("samples");
    if (samples == c.end() || !samples->is_array())
        return bad_field(path, pointer + "/samples", "an array of seconds", samples == c.end() ? nullptr : &*samples);
    for (size_t s = 0; s < samples->size(); ++s) {
        const json& v = (*samples)[s];
        if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
            return bad_field(path, pointer + "/samples/" + std::to_string(s), "a positive number of seconds", &v);
        out.samples.push_back(v.get<double>());
    }
    // A merged report of several processes (bench --processes): each process's median, which history reads as the
    // run's processes (gate/history.cpp). Absent in reports of one process.
    const auto processes = c.find("processes");
    if (processes != c.end()) {
        if (!processes->is_array())
            return bad_field(path, pointer + "/processes", "an array of processes", &*processes);
        for (size_t p = 0; p < processes->size(); ++p) {
            const std::string at = pointer + "/processes/" + std::to_string(p);
            if (!(*processes)[p].is_object()) return bad_field(path, at, "an object", &(*processes)[p]);
            DMLTOOL_ASSIGN_OR_RETURN(double seconds, number_at(path, (*processes)[p], at, "seconds"));
            if (!(seconds > 0)) return bad_field(path, at + "/seconds", "a positive number of seconds", &(*processes)[p]["seconds"]);
            out.process_seconds.push_back(seconds);
        }
    }
    return out;
}

}  // namespace

Result<StoredReport> load_report_for_store(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return invalid_input(path + ": cannot read the bench report");
    std::stringstream text;
    text << in.rdbuf();
    const json root = json::parse(text.str(), nullptr, false);
    if (root.is_discarded()) return invalid_input(path + ": expected a JSON bench report (dmltool bench --report-json), found invalid JSON");
    if (!root.is_object()) return bad_field(path, "/", "an object (dmltool bench --report-json)", &root);
    const auto format = root.find("sample_format");
    if (format == root.end() || *format != kSampleFormat)
        return bad_field(path, "/sample_format", std::string("\"") + kSampleFormat + "\" (a report of dmltool bench)",
                         format == root.end() ? nullptr : &*format);
    StoredReport out;
    ResultsRun& run = out.run;
    DMLTOOL_ASSIGN_OR_RETURN(run.date, text_at(path, root, "", "date"));
    const auto machine = root.find("machine");
    if (machine == root.end() || !machine->is_object())
        return bad_field(path, "/machine", "an object", machine == root.end() ? nullptr : &*machine);
    DMLTOOL_ASSIGN_OR_RETURN(run.hostname, text_at(path, *machine, "/machine", "hostname"));
    DMLTOOL_ASSIGN_OR_RETURN(run.cpu_model, text_at(path, *machine, "/machine", "cpu_model"));
    DMLTOOL_ASSIGN_OR_RETURN(run.device, text_at(path, root, "", "device"));
    DMLTOOL_ASSIGN_OR_RETURN(std::string adapter, text_at(path, root, "", "adapter"));
    run.adapter = run.device == "none" ? "none" : adapter;  // as bench stores it
    const auto tool = root.find("tool");
    if (tool == root.end() || !tool->is_object())
        return bad_field(path, "/tool", "an object", tool == root.end() ? nullptr : &*tool);
    DMLTOOL_ASSIGN_OR_RETURN(run.dmltool_version, text_at(path, *tool, "/tool", "version"));
    DMLTOOL_ASSIGN_OR_RETURN(run.git_commit, text_at(path, *tool, "/tool", "git_commit"));
    const auto cache = root.find("cache");
    run.cache = "hot";
    if (cache != root.end() && cache->is_object()) {
        DMLTOOL_ASSIGN_OR_RETURN(run.cache, text_at(path, *cache, "/cache", "mode", "hot"));
    }
    const auto timer = root.find("timer");  // reports before bench --timer: wall
    if (timer != root.end() && timer->is_object()) {
        DMLTOOL_ASSIGN_OR_RETURN(run.timer, text_at(path, *timer, "/timer", "clock", "wall"));
    }
    const auto options = root.find("options");
    if (options != root.end() && options->is_object()) {
        DMLTOOL_ASSIGN_OR_RETURN(run.stable_power_state, text_at(path, *options, "/options", "stable_power_state", "off"));
        DMLTOOL_ASSIGN_OR_RETURN(run.shard, text_at(path, *options, "/options", "shard", ""));
    }
    const auto cases = root.find("cases");
    if (cases == root.end() || !cases->is_array())
        return bad_field(path, "/cases", "an array of cases", cases == root.end() ? nullptr : &*cases);
    for (size_t i = 0; i < cases->size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(BenchCase c, case_from(path, (*cases)[i], "/cases/" + std::to_string(i)));
        out.cases.push_back(std::move(c));
    }
    return out;
}

int store_command(const std::string& report_path, const std::string& db, double retry_seconds) {
    auto report = load_report_for_store(report_path);
    if (!report.is_ok()) {
        std::fprintf(stderr, "dmltool: error: %s\n", report.status().message().c_str());
        return 2;
    }
    auto stored = store_results(db, report->run, report->cases, retry_seconds, stderr);
    if (!stored.is_ok()) {
        std::fprintf(stderr, "dmltool: error: %s\n", stored.status().message().c_str());
        return results_store_exit_code(stored.status());
    }
    std::printf("%s: %s run %lld in %s (%zu benchmarks)\n", report_path.c_str(),
                stored->already_stored ? "already held as" : "stored as", stored->id, redact_location(db).c_str(),
                report->cases.size());
    return 0;
}

}  // namespace dmltool::app
