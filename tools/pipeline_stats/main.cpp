// dmltool_pipeline_stats: what the Vulkan driver makes of the kernels our planner chooses. For each selected case
// and plan (the heuristic plan, and with --variants every tuning variant) and each dispatch, it translates the
// DXBC to SPIR-V as vkd3d does, builds a compute pipeline with statistics capture and prints the driver's
// statistics (VK_KHR_pipeline_executable_properties: e.g. registers, spill bytes, shared memory).
// Exit codes: 0 ok, 1 a Vulkan or vkd3d failure, 2 bad input, 3 the device lacks the extension.
#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/case_selection.h"
#include "core/case_spec.h"
#include "core/op_registry.h"
#include "tools/pipeline_stats/dxbc_to_spirv.h"
#include "tools/pipeline_stats/spirv_interface.h"
#include "tools/pipeline_stats/vulkan_stats.h"

namespace dmltool::pipeline_stats {
namespace {

constexpr int kExitFailure = 1, kExitBadInput = 2, kExitNoExtension = 3;

struct Options {
    std::vector<std::string> files;
    std::string filter;
    bool variants = false;
    std::string json_path;
    std::optional<uint32_t> device_index;
    std::string dump_spirv_dir;  // where to write each dispatch's SPIR-V (for spirv-dis); empty: nowhere
};

int fail(const std::string& message, int code) {
    std::fprintf(stderr, "dmltool_pipeline_stats: error: %s\n", message.c_str());
    return code;
}

std::string dims(const std::array<uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

std::string value_text(const Statistic& s) {
    return std::visit(
        [](auto v) -> std::string {
            if constexpr (std::is_same_v<decltype(v), bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<decltype(v), double>) {
                char text[32];
                std::snprintf(text, sizeof text, "%g", v);
                return text;
            } else
                return std::to_string(v);
        },
        s.value);
}

std::string bindings_text(const SpirvInterface& interface) {
    std::string text;
    for (const SpirvBinding& b : interface.bindings)
        text += (text.empty() ? "" : ", ") + std::to_string(b.set) + "." + std::to_string(b.binding) + " " +
                std::string(descriptor_kind_name(b.kind));
    return text.empty() ? "none" : text;
}

// The statistics of one dispatch, printed as a block and added to `report` (the --json document).
// "perf/qlconv/a_b" -> "perf_qlconv_a_b": a file name from a case, plan or label.
std::string file_name_part(const std::string& text) {
    std::string out = text;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
    return out;
}

Status write_spirv(const std::string& path, const std::vector<uint32_t>& words) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
    return out ? Status::ok() : invalid_input("--dump-spirv: cannot write '" + path + "'");
}

Status report_dispatch(StatisticsDevice& device, const CaseSpec& spec, const std::string& plan, size_t index,
                       const KernelDispatch& dispatch, const Options& options, nlohmann::json& report) {
    const std::string what =
        case_context(spec) + " plan '" + plan + "' dispatch " + std::to_string(index) + " '" + dispatch.label + "'";
    if (!dispatch.dxbc) return internal_error(what + ": the plan has no DXBC for this dispatch");
    const KernelRegisters registers{static_cast<uint32_t>(dispatch.root_constants.size()),
                                    static_cast<uint32_t>(dispatch.srvs.size()),
                                    static_cast<uint32_t>(dispatch.uavs.size())};
    auto spirv = compile_dxbc_to_spirv(*dispatch.dxbc, registers, dispatch.label);
    if (!spirv.is_ok()) return Status(spirv.status().code(), case_context(spec) + ": " + spirv.status().message());
    if (!options.dump_spirv_dir.empty())
        DMLTOOL_RETURN_IF_ERROR(write_spirv(options.dump_spirv_dir + "/" + file_name_part(spec.name) + "__" +
                                                file_name_part(plan) + "__" + std::to_string(index) + ".spv",
                                            *spirv));
    auto interface = read_spirv_interface(*spirv);
    if (!interface.is_ok()) return internal_error(what + ": " + interface.status().message());
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<ExecutableStatistics> executables,
                             device.pipeline_statistics(*spirv, *interface, what));

    std::printf("%s  plan %s  dispatch %zu '%s'\n", spec.name.c_str(), plan.c_str(), index, dispatch.label.c_str());
    std::printf("  thread group %s, groups %s, push constants %u B, bindings: %s\n",
                dims(interface->local_size).c_str(), dims(dispatch.group_count).c_str(), interface->push_constant_bytes,
                bindings_text(*interface).c_str());
    nlohmann::json entry = {{"case", spec.name},
                            {"file", spec.file},
                            {"plan", plan},
                            {"dispatch", index},
                            {"label", dispatch.label},
                            {"thread_group_size", interface->local_size},
                            {"group_count", dispatch.group_count},
                            {"push_constant_bytes", interface->push_constant_bytes},
                            {"bindings", nlohmann::json::array()},
                            {"executables", nlohmann::json::array()}};
    for (const SpirvBinding& b : interface->bindings)
        entry["bindings"].push_back({{"set", b.set}, {"binding", b.binding}, {"type", descriptor_kind_name(b.kind)}});
    for (const ExecutableStatistics& e : executables) {
        std::printf("  executable '%s' (subgroup size %u)\n", e.name.c_str(), e.subgroup_size);
        nlohmann::json statistics = nlohmann::json::array();
        for (const Statistic& s : e.statistics) {
            std::printf("    %s = %s\n", s.name.c_str(), value_text(s).c_str());
            nlohmann::json value;
            std::visit([&](auto v) { value = v; }, s.value);
            statistics.push_back({{"name", s.name}, {"description", s.description}, {"value", value}});
        }
        entry["executables"].push_back({{"name", e.name},
                                        {"description", e.description},
                                        {"subgroup_size", e.subgroup_size},
                                        {"statistics", std::move(statistics)}});
    }
    std::fflush(stdout);
    report["dispatches"].push_back(std::move(entry));
    return Status::ok();
}

int run(const Options& options) {
    // Every bad file or case is reported before any device work, as `dmltool run` reports INVALID cases.
    const OpRegistry registry = make_builtin_registry();
    Selection selection;
    selection.files = options.files;
    selection.filter = options.filter;
    auto loaded = select_cases(selection, registry);
    if (!loaded.is_ok()) return fail(loaded.status().message(), kExitBadInput);
    std::vector<const LoadedCase*> selected;
    int code = 0;
    for (const CaseFile* file : loaded->broken) code = fail(file->status.message(), kExitBadInput);
    for (const LoadedCase* c : loaded->cases) {
        if (!c->status.is_ok())
            code = fail(c->status.message(), kExitBadInput);
        else
            selected.push_back(c);
    }
    if (code != 0) return code;
    if (selected.empty())
        return fail("no case in the given files matches --filter '" + options.filter + "'", kExitBadInput);

    auto device = StatisticsDevice::create(options.device_index);
    if (!device.is_ok()) {
        const ErrorCode error = device.status().code();
        return fail(device.status().message(), error == ErrorCode::kUnsupported    ? kExitNoExtension
                                               : error == ErrorCode::kInvalidInput ? kExitBadInput
                                                                                   : kExitFailure);
    }
    const DeviceDescription& description = (*device)->description();
    std::printf("device %u: %s (%s)\n", description.index, description.name.c_str(), description.driver.c_str());
    nlohmann::json report = {
        {"device", {{"index", description.index}, {"name", description.name}, {"driver", description.driver}}},
        {"dispatches", nlohmann::json::array()}};

    const SemanticsOptions semantics;  // the defaults `dmltool run` plans with
    for (const LoadedCase* c : selected) {
        const CaseSpec& spec = c->spec;
        std::vector<std::string> plans{"heuristic"};
        if (options.variants)
            for (std::string& name : spec.op->device_plan_variants(*spec.desc, semantics))
                plans.push_back(std::move(name));
        for (size_t p = 0; p < plans.size(); ++p) {
            const std::string& plan_name = plans[p];
            // plans[0] is the heuristic plan (Op::plan_device), as the GPU backend runs it without a tuning cache.
            auto plan = p == 0 ? spec.op->plan_device(*spec.desc, semantics)
                               : spec.op->plan_device_variant(*spec.desc, semantics, plan_name);
            if (!plan.is_ok()) {
                // A case without a GPU kernel is no failure of this tool: say so and go on.
                if (plan.status().code() == ErrorCode::kUnsupported) {
                    std::printf("%s  plan %s: no GPU plan (%s)\n", spec.name.c_str(), plan_name.c_str(),
                                plan.status().message().c_str());
                    continue;
                }
                code = fail(case_context(spec) + " plan '" + plan_name + "': " + plan.status().message(), kExitFailure);
                continue;
            }
            for (size_t i = 0; i < plan->dispatches.size(); ++i) {
                Status reported = report_dispatch(**device, spec, plan_name, i, plan->dispatches[i], options, report);
                if (!reported.is_ok()) code = fail(reported.message(), kExitFailure);
            }
        }
    }
    if (!options.json_path.empty()) {
        std::ofstream out(options.json_path);
        // Driver strings are not promised to be UTF-8: replace invalid bytes rather than throw.
        out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        if (!out) return fail("--json: cannot write '" + options.json_path + "'", kExitBadInput);
    }
    return code;
}

}  // namespace
}  // namespace dmltool::pipeline_stats

int main(int argc, char** argv) {
    using namespace dmltool::pipeline_stats;
    Options options;
    CLI::App app{
        "Prints the Vulkan driver's pipeline statistics (registers, spills, shared memory, ...) for every "
        "dispatch of the GPU plans of the selected cases (VK_KHR_pipeline_executable_properties)",
        "dmltool_pipeline_stats"};
    app.add_option("files", options.files, "Case files (JSON), as for `dmltool run`")->required();
    app.add_option("--filter", options.filter, "Only cases whose name matches this regular expression (ECMAScript)");
    app.add_flag("--variants", options.variants, "Also every tuning variant of each case, not only the heuristic plan");
    app.add_option("--json", options.json_path, "Also write the statistics to this JSON file");
    app.add_option("--device-index", options.device_index,
                   "Vulkan physical device index (default: the first with VK_KHR_pipeline_executable_properties)");
    app.add_option("--dump-spirv", options.dump_spirv_dir,
                   "Also write each dispatch's SPIR-V to DIR/<case>__<plan>__<dispatch>.spv (read it with spirv-dis)")
        ->check(CLI::ExistingDirectory);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "dmltool_pipeline_stats: error: %s (see --help)\n", e.what());
        return kExitBadInput;
    }
    return run(options);
}
