#include "app/commands.h"


#include <chrono>
#include <cstdio>

#include "app/deviation_setup.h"
#include "app/device.h"
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

}  // namespace

int run_command(const RunCommandOptions& options, const OpRegistry& registry) {
    const auto start = std::chrono::steady_clock::now();
    auto selected = select_cases(options.selection, registry);
    if (!selected.is_ok()) return report_error(selected.status(), 2);
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
        // The run header names the DirectML device, its DLL and its maximum feature level.
        if (backend->label() != "gpu") std::printf("dmltool: %s\n", backend->name().c_str());
    }
    if (backend_name.empty()) backend_name = "cpu reference";
    ThreadPool pool(options.threads);
    Runner runner(options.run, pool, backend_pointers);
    attach_deviation_registries(runner, backend_pointers, *deviation_registries, options.device.deviations, stdout);
    std::vector<CaseResult> results;
    ConsoleOptions console{options.verbose};
    for (const CaseFile* file : selected->broken) {
        results.push_back(Runner::invalid_file(*file));
        print_case(stdout, results.back(), console);
    }
    Progress progress(selected->cases.size());
    for (size_t i = 0; i < selected->cases.size(); ++i) {
        progress.update(i + 1, selected->cases[i]->spec.name);
        CaseResult result = runner.run(*selected->cases[i]);
        if (result.status != CaseStatus::kPassed || options.verbose) progress.clear();
        print_case(stdout, result, console);
        std::fflush(stdout);
        results.push_back(std::move(result));
    }
    progress.clear();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const RunSummary summary = summarize(results, seconds, options.strict);
    print_summary(stdout, summary, results);
    if (summary.device_error)
        std::printf("dmltool: device error: the cases above name the failing call and its HRESULT (exit code 3)\n");
    int code = exit_code_for(summary);
    for (const auto& [path, write] :
         {std::pair{options.junit_path, 0}, std::pair{options.json_path, 1}}) {
        if (path.empty()) continue;
        Status written = write == 0 ? write_junit(path, results, summary)
                                    : write_json_report(path, results, summary, backend_name);
        if (!written.is_ok()) code = std::max(code, report_error(written, 2));
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
    std::printf("dmltool: validated %zu cases: %zu valid, %zu unsupported, %zu invalid\n", total,
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
