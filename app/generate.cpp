// `dmltool generate`: random valid cases for property-based testing of any DirectML implementation (docs/
// generated-cases.md). Each operator's generator (ops/<op>/generate.cpp) draws descs from its own feature-level
// table; this command names, checks and writes them: one {"cases": [...]} file per operator, one case per line.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/commands.h"
#include "core/case_generator.h"
#include "core/case_spec.h"

namespace dmltool::app {

namespace {

// Only digits (no sign, no spaces, no hex) and at most `max`; std::stoull would accept "-1" and " 5".
std::optional<uint64_t> parse_unsigned(const std::string& text, uint64_t max) {
    if (text.empty() || text.size() > 20) return std::nullopt;
    unsigned __int128 value = 0;
    for (char ch : text) {
        if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
        value = value * 10 + unsigned(ch - '0');
    }
    if (value > max) return std::nullopt;
    return uint64_t(value);
}

}  // namespace

int generate_command(const GenerateOptions& options, const OpRegistry& registry) {
    std::vector<const Op*> ops;
    std::string upper = options.op;
    for (char& ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    if (upper == "ALL") {
        for (const auto& op : registry.ops()) ops.push_back(op.get());
    } else if (const Op* op = registry.find(upper)) {
        ops.push_back(op);
    } else {
        std::string names;
        for (const auto& o : registry.ops()) names += ", " + std::string(o->name());
        return report_error(invalid_input("--operator: expected all" + names + " (or the DML_OPERATOR_ name), found '" +
                                          options.op + "'"),
                            2);
    }
    const auto count = parse_unsigned(options.count, 100000);
    if (!count || *count == 0)
        return report_error(invalid_input("--count: expected an integer from 1 to 100000, found '" + options.count + "'"),
                            2);
    const auto seed = parse_unsigned(options.seed, UINT64_MAX);
    if (!seed)
        return report_error(invalid_input("--seed: expected an integer from 0 to 18446744073709551615, found '" +
                                          options.seed + "'"),
                            2);
    std::error_code error;
    std::filesystem::create_directories(options.outdir, error);
    if (error)
        return report_error(invalid_input("OUTDIR: cannot create directory '" + options.outdir + "': " + error.message()), 3);

    ThreadPool pool(1);
    const RunOptions run_options;
    const Runner checker(run_options, pool, nullptr);
    for (const Op* op : ops) {
        std::string text = "{\"cases\": [\n";
        for (uint64_t i = 0; i < *count; ++i) {
            auto c = generate_case_json(*op, *seed, i);
            if (!c.is_ok()) return report_error(c.status(), 1);
            text += (i ? ",\n" : "") + c->dump();
        }
        text += "\n]}\n";
        const std::string path = (std::filesystem::path(options.outdir) / (lowercase_op_name(*op) + ".json")).string();
        // The generator's own check: every case must pass what `dmltool validate` checks. A failure is a generator
        // bug, reported with the case and nothing written.
        const CaseFile file = load_case_text(text, path, registry);
        Status bad = file.status;
        for (const LoadedCase& loaded : file.cases) {
            if (!bad.is_ok()) break;
            bad = loaded.status.is_ok() ? checker.check_without_executing(loaded) : loaded.status;
        }
        if (!bad.is_ok())
            return report_error(internal_error("generate: a generated case is not valid (a generator bug): " +
                                               bad.message()),
                                1);
        std::ofstream out(path, std::ios::binary);
        out << text;
        out.close();
        if (!out) return report_error(internal_error("cannot write '" + path + "'"), 3);
        std::printf("dmltool: generated %llu %s cases (seed %llu) in %s\n", (unsigned long long)*count,
                    std::string(op->name()).c_str(), (unsigned long long)*seed, path.c_str());
    }
    return 0;
}

}  // namespace dmltool::app
