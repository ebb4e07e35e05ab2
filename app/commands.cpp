#include "app/commands.h"


#include <algorithm>
#include <chrono>
#include <cstdio>

#include "app/deviation_setup.h"
#include "app/device.h"
#include "bench/machine.h"
#include "core/platform.h"
#include "core/report.h"

namespace dmltool::app {
namespace {

// A one-line live progress indicator on a terminal; nothing when stderr is a file or pipe (CI logs).
class Progress {
public:
    explicit Progress(size_t total) : total_(total), enabled_(platform::is_terminal(stderr) && total > 1) {}
    void update(size_t done, const std::string& name) {
        if (!enabled_) return;
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total_, name.c_str());
        std::fflush(stderr);
    }
    void clear() {
        if (enabled_) std::fprintf(stderr, "\r\033[K");
    }

private:
    size_t total_;
    bool enabled_;
};

// The options as used, for the JSON report (as bench's report records its own).
std::vector<std::pair<std::string, std::string>> describe_run_options(const RunCommandOptions& o) {
    auto options = describe_shared_options(o.selection, o.run, o.device, o.threads);
    options.insert(options.end(),
                   {{"allow_outside_paths", o.run.sources.allow_outside_paths ? "on" : "off"},
                    {"max_host_mib", std::to_string(o.run.max_host_bytes >> 20)},
                    {"max_device_mib", o.device.max_device_mib ? std::to_string(o.device.max_device_mib) : "adapter"},
                    {"deviations", o.device.deviations},
                    {"strict", o.strict ? "on" : "off"},
                    {"allow_unsupported", o.allow_unsupported ? "on" : "off"}});
    return options;
}

}  // namespace

std::string nothing_tested_line(size_t total, const Selection& selection, size_t unsupported,
                                const std::string& first_unsupported_reason) {
    std::string chosen;
    if (!selection.filter.empty()) chosen += " --filter '" + selection.filter + "'";
    for (const std::string& tag : selection.tags) chosen += " --tag " + tag;
    for (const std::string& tag : selection.exclude_tags) chosen += " --exclude-tag " + tag;
    if (selection.shard_count > 1)
        chosen += " --shard " + std::to_string(selection.shard_index) + "/" + std::to_string(selection.shard_count);
    const std::string files = std::to_string(selection.files.size()) + (selection.files.size() == 1 ? " file" : " files");
    if (total == 0)
        return "dmltool: error: no case selected: " +
               (chosen.empty() ? "the " + files + (selection.files.size() == 1 ? " holds" : " hold") + " no case" : chosen.substr(1) + " matches none of the cases in " + files) +
               " (exit code 5)";
    const std::string cases =
        total == 1 ? std::string("the selected case was") : "all " + std::to_string(total) + " selected cases were";
    if (unsupported == 0) return "dmltool: error: nothing was tested: " + cases + " SKIPPED (the [SKIPPED] lines say why; exit code 5)";
    const std::string accept = "; --allow-unsupported accepts UNSUPPORTED cases; exit code 5)";
    if (unsupported < total)
        return "dmltool: error: nothing was tested: " + cases + " SKIPPED (" + std::to_string(total - unsupported) +
               ") or UNSUPPORTED (" + std::to_string(unsupported) + ") (the [SKIPPED] and [UNSUPPORTED] lines say why" +
               accept;
    return "dmltool: error: nothing was tested: " + cases + " UNSUPPORTED (" +
           (total == 1 ? "" : "the first: ") + first_unsupported_reason + accept;
}

int run_command(const RunCommandOptions& options, const OpRegistry& registry) {
    const auto start = std::chrono::steady_clock::now();
    auto selected = select_cases(options.selection, registry);
    if (!selected.is_ok()) return report_error(selected.status(), 2);
    // Before any case runs: a report that cannot be written would throw the run away at its end.
    if (Status writable = check_output_paths({{"--json", options.json_path}, {"--junit", options.junit_path}});
        !writable.is_ok())
        return report_error(writable, 2);
    if (selected->cases.empty() && selected->broken.empty()) {  // before a device is opened: nothing would use it
        std::fprintf(stderr, "%s\n", nothing_tested_line(0, options.selection).c_str());
        return kExitNothingTested;
    }
    // The registry file is checked before any device is opened: a broken one is exit 2 with its path.
    auto deviation_registries = load_deviation_registries(options.device.deviations, registry);
    if (!deviation_registries.is_ok())
        return report_error(deviation_registries.status(),
                            deviation_registries.status().code() == ErrorCode::kInvalidInput ? 2 : 3);
    auto opened = open_backends(options.run, options.device);
    if (!opened.is_ok()) return report_error(opened.status(), opened.status().code() == ErrorCode::kInvalidInput ? 2 : 3);
    std::vector<std::unique_ptr<Backend>> backends = std::move(opened).value();
    std::vector<Backend*> backend_pointers;
    std::string backend_name;
    for (const auto& backend : backends) {
        backend_pointers.push_back(backend.get());
        backend_name += (backend_name.empty() ? "" : " + ") + backend->name();
    }
    // One header line naming what judges the cases: "GPU passed" means little when the GPU is lavapipe. A
    // DirectML backend's name carries its device, DLL and maximum feature level.
    // Counted as the summary counts them: an unreadable file is one INVALID case.
    const size_t cases = selected->cases.size() + selected->broken.size();
    std::printf("dmltool run: backends cpu (reference)%s%s: %s from %s\n", backend_name.empty() ? "" : " + ",
                backend_name.c_str(), count_of(cases, "case").c_str(),
                count_of(options.selection.files.size(), "file").c_str());
    RunReportInfo info{backend_name.empty() ? "cpu reference" : backend_name,
                       backend_name.empty() ? "none" : backend_name,
                       utc_timestamp(),
                       build_info().version,
                       build_info().git_commit,
                       options.selection.files,
                       describe_run_options(options)};
    ThreadPool pool(options.threads);
    Runner runner(options.run, pool, backend_pointers);
    attach_deviation_registries(runner, backend_pointers, *deviation_registries, options.device.deviations, stdout);
    std::vector<CaseResult> results;
    std::map<std::string, std::string> tolerance_labels;  // one per run: see ConsoleOptions
    ConsoleOptions console{options.verbose, &tolerance_labels};
    for (const CaseFile* file : selected->broken) {
        results.push_back(Runner::invalid_file(*file));
        print_case(stdout, results.back(), console);
    }
    Progress progress(selected->cases.size());
    for (size_t i = 0; i < selected->cases.size(); ++i) {
        progress.update(i + 1, selected->cases[i]->spec.name);
        const auto case_start = std::chrono::steady_clock::now();
        CaseResult result = runner.run(*selected->cases[i]);
        result.case_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - case_start).count();
        if (result.status != CaseStatus::kPassed || options.verbose) progress.clear();
        print_case(stdout, result, console);
        std::fflush(stdout);
        results.push_back(std::move(result));
    }
    progress.clear();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const RunSummary summary = summarize(results, seconds, options.strict, options.allow_unsupported);
    print_summary(stdout, summary, results);
    if (summary.device_error)
        std::printf("dmltool: device error: the cases above name the failing call and its HRESULT (exit code 3)\n");
    int code = exit_code_for(summary);
    std::fflush(stdout);  // the line follows the summary on a shared terminal or log
    if (code == kExitNothingTested) {
        const auto unsupported = std::find_if(results.begin(), results.end(), [](const CaseResult& r) {
            return r.status == CaseStatus::kUnsupported;
        });
        std::fprintf(stderr, "%s\n",
                     nothing_tested_line(summary.total, options.selection, summary.unsupported,
                                         unsupported == results.end() ? std::string() : unsupported->reason)
                         .c_str());
    }
    for (const auto& [path, write] :
         {std::pair{options.junit_path, 0}, std::pair{options.json_path, 1}}) {
        if (path.empty()) continue;
        Status written = write == 0 ? write_junit(path, results, summary)
                                    : write_json_report(path, results, summary, info);
        if (!written.is_ok()) code = report_error(written, code == kExitNothingTested ? 2 : std::max(code, 2));
    }
    return code;
}

int validate_command(const Selection& selection, const RunOptions& options, const OpRegistry& registry, bool verbose) {
    auto selected = select_cases(selection, registry);
    if (!selected.is_ok()) return report_error(selected.status(), 2);
    size_t invalid = selected->broken.size(), unsupported = 0;
    for (const CaseFile* file : selected->broken) std::printf("[INVALID] %s\n", file->status.message().c_str());
    // Everything `run` checks before executing (files, datasets, small inputs' values, limits), same messages.
    ThreadPool pool(1);
    const Runner runner(options, pool, nullptr);
    for (const LoadedCase* c : selected->cases) {
        const Status checked = runner.check_without_executing(*c);
        // -v: the valid cases too, named as `run -v` names them.
        if (checked.is_ok() && verbose)
            std::printf("[VALID] %s :: %s (%s FL %s)\n", c->spec.file.c_str(), c->spec.name.c_str(),
                        std::string(c->spec.op->name()).c_str(), c->spec.min_feature_level.to_string().c_str());
        if (checked.is_ok()) continue;
        const bool is_unsupported = checked.code() == ErrorCode::kUnsupported;
        (is_unsupported ? unsupported : invalid) += 1;
        std::printf("[%s] %s\n", is_unsupported ? "UNSUPPORTED" : "INVALID", checked.message().c_str());
    }
    const size_t total = selected->cases.size() + selected->broken.size();
    std::printf("dmltool: validated %s: %zu valid, %zu unsupported, %zu invalid\n", count_of(total, "case").c_str(),
                total - invalid - unsupported, unsupported, invalid);
    return invalid ? 2 : 0;
}

int list_command(const OpRegistry& registry, const DeviceOptions& device) {
    std::printf("Operators (minimum feature level per tensor rank/data type row):\n");
    for (const auto& op : registry.ops()) {
        std::printf("  DML_OPERATOR_%s\n", std::string(op->name()).c_str());
        for (const FeatureLevelRow& row : op->feature_levels()) {
            std::printf("    FL %s+:", row.level.to_string().c_str());
            for (const TensorSupport& t : row.tensors)
                std::printf(" %s[%s dims: %s]", std::string(t.field).c_str(), t.ranks.to_string().c_str(),
                            t.types.to_string().c_str());
            std::printf("\n");
        }
    }
    std::printf("Data types: %s\n", all_data_type_names().c_str());
    std::printf("Feature levels: %s (default cap %s)\n", all_feature_level_names().c_str(),
                kHighestFeatureLevel.to_string().c_str());
    std::printf("GPU adapters:\n");
    for (const std::string& line : describe_adapters()) std::printf("  %s\n", line.c_str());
    // The DirectML device's maximum feature level (IDMLDevice::CheckFeatureSupport), where DirectML.dll loads, and the
    // deviations registered for its version.
    const DirectMlDescription directml = describe_directml(device);
    std::printf("%s\n", directml.line.c_str());
    auto deviation_registries = load_deviation_registries(device.deviations, registry);
    if (!deviation_registries.is_ok())
        return report_error(deviation_registries.status(),
                            deviation_registries.status().code() == ErrorCode::kInvalidInput ? 2 : 3);
    for (const std::string& line : describe_deviation_registries(*deviation_registries, directml.version))
        std::printf("%s\n", line.c_str());
    return 0;
}

}  // namespace dmltool::app
