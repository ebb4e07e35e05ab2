// `dmltool generate`: random valid cases for property-based testing of any DirectML implementation (docs/
// generated-cases.md). Each operator's generator (ops/<op>/generate.cpp) draws descs from its own feature-level
// table; this command names, checks and writes them: one {"cases": [...]} file per operator, one case per line.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/commands.h"
#include "core/case_generator.h"
#include "core/case_spec.h"
#include "core/compare.h"
#include "core/tensor_source.h"
#include "core/thread_pool.h"

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

// Redraws of a case whose reference output cannot discriminate (a stream of its own each; attempt 0 is the case's
// first stream). Far more than needed: such draws were 158 in 300,000 (seed 20261203), none twice in a row.
constexpr uint64_t kMaxRedraws = 16;

// Whether the reference's own output of `c` is a constant expectation (the zero-trust rule, core/compare.h: some
// one value lies within every element's bound, or every element is the same), so that the case could not tell a
// correct implementation from one that writes that constant and would only be MISTRUSTED: HARD_SIGMOID with
// Alpha 0, SOFTPLUS of inputs all far beyond 0, QUANTIZE_LINEAR saturating everywhere, ... (lavapipe campaign,
// seed 20261203: 158 such cases in 14 operators). An input or reference error answers false: `run` reports it.
bool expectation_is_constant(const Op& op, const LoadedCase& c, ThreadPool& pool) {
    const OpDesc& desc = *c.spec.desc;
    const auto slots = op.tensors(desc);
    std::vector<HostTensor> storage, outputs;
    storage.reserve(slots.size());
    outputs.reserve(slots.size());
    std::vector<const HostTensor*> inputs;
    std::vector<HostTensor*> output_pointers;
    for (const TensorSlot& slot : slots) {
        if (slot.role == TensorRole::kInput) {
            if (!slot.desc) {
                inputs.push_back(nullptr);
                continue;
            }
            auto tensor = materialize_source(c.spec.inputs.at(slot.name), *slot.desc, c.spec.base_dir, {});
            if (!tensor.is_ok()) return false;
            // Through the physical layout and back, as `run` gives it: broadcast elements hold what is read.
            storage.push_back(from_physical(*slot.desc, to_physical(*tensor)));
            inputs.push_back(&storage.back());
        } else if (slot.desc) {
            outputs.emplace_back(*slot.desc);
            output_pointers.push_back(&outputs.back());
        }
    }
    if (!op.check_input_values(desc, inputs).is_ok()) return false;
    const SemanticsOptions semantics;
    std::vector<ExactOutput> exact(outputs.size());
    if (!op.run_reference(desc, inputs, output_pointers, ReferenceContext{pool, semantics, &exact}).is_ok()) return false;
    for (size_t k = 0; k < outputs.size(); ++k) {
        const Tolerance tolerance = op.default_tolerance(desc, k);
        const bool bound = tolerance.error_bound && !exact[k].exact.empty();
        auto judge = [&](const HostTensor& got) {
            return bound ? compare_to_exact(exact[k], got, tolerance) : compare_tensors(outputs[k], got, tolerance);
        };
        if (judge(outputs[k]).expected_constant) return true;
        // A constant that every element accepts besides (an other value: HARD_SIGMOID's 0 for NaN beside clamped
        // zeros; an infinity that overflowing elements allow): the runner's "output is constant while the
        // expectation is not". Candidates: the first distinct values the reference wrote, 0, the infinities, NaN.
        std::vector<double> candidates = {0.0, INFINITY, -INFINITY, NAN};
        for (uint64_t i = 0; i < outputs[k].element_count() && candidates.size() < 12; ++i) {
            const double v = outputs[k].get_as_double(i);
            if (std::find_if(candidates.begin(), candidates.end(), [&](double w) { return w == v || (v != v && w != w); }) == candidates.end())
                candidates.push_back(v);
        }
        HostTensor constant(outputs[k].desc());
        for (double v : candidates) {
            if (!std::isfinite(v) && !is_float(constant.desc().data_type)) continue;  // integers hold no inf or NaN
            for (uint64_t i = 0; i < constant.element_count(); ++i) constant.set_from_double(i, v);
            if (constant.element_count() > 1 && judge(constant).mismatch_count == 0) return true;
        }
    }
    return false;
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
            Result<nlohmann::json> c = generate_case_json(*op, *seed, i);
            for (uint64_t attempt = 1; c.is_ok() && attempt <= kMaxRedraws; ++attempt) {
                const CaseFile one = load_case_text(nlohmann::json{{"cases", {*c}}}.dump(), "generated.json", registry);
                if (!one.status.is_ok() || one.cases.size() != 1 || !one.cases[0].status.is_ok() ||
                    !expectation_is_constant(*op, one.cases[0], pool))
                    break;  // invalid draws are reported by the check below
                c = generate_case_json(*op, *seed, i, attempt);
            }
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
