#include "core/report.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace dmltool {
namespace {

std::string details(const CaseResult& r) {
    std::string out;
    for (const OutputReport& o : r.outputs) {
        if (o.result.verdict == Verdict::kPassed) continue;
        out += o.output + " (" + o.comparison + ", " + describe_tolerance(o.tolerance) + "): " + o.result.reason + "\n";
        for (const Mismatch& m : o.result.mismatches) out += "  " + format_mismatch(m, o.result) + "\n";
    }
    return out + "repro: " + r.repro + "\n";
}

}  // namespace

std::string xml_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;  // not &apos;, which HTML 4 lacks (dmltool report --html)
            default:
                // XML 1.0 forbids most control characters even when escaped.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') out += '?';
                else out += c;
        }
    }
    return out;
}

RunSummary summarize(const std::vector<CaseResult>& results, double seconds, bool strict, bool allow_unsupported) {
    RunSummary s;
    s.seconds = seconds;
    s.strict = strict;
    s.allow_unsupported = allow_unsupported;
    for (const CaseResult& r : results) {
        ++s.total;
        s.device_error |= r.device_error;
        switch (r.status) {
            case CaseStatus::kPassed: ++s.passed; break;
            case CaseStatus::kFailed: ++s.failed; break;
            case CaseStatus::kMistrusted: ++s.mistrusted; break;
            case CaseStatus::kUnsupported: ++s.unsupported; break;
            case CaseStatus::kInvalid: ++s.invalid; break;
            case CaseStatus::kSkipped: ++s.skipped; break;
            case CaseStatus::kDeviates: ++s.deviates; break;
        }
    }
    return s;
}

int exit_code_for(const RunSummary& s) {
    if (s.device_error) return 3;
    if (s.invalid) return 2;
    if (s.failed || s.mistrusted || (s.strict && s.deviates)) return 1;
    // A run that tested nothing must not look like a pass (as pytest's exit 5, "no tests collected"): an
    // UNSUPPORTED case ran nothing either, unless the run says it expects them.
    if (s.skipped + (s.allow_unsupported ? 0 : s.unsupported) == s.total) return kExitNothingTested;
    return 0;
}

// Device backends that disagree with each other (--backend all) on a case that otherwise passed.
bool backends_disagree(const CaseResult& r) {
    return std::any_of(r.outputs.begin(), r.outputs.end(), [](const OutputReport& o) {
        return o.informational && o.result.verdict == Verdict::kFailed;
    });
}

// A tolerance as a verbose line shows it: in full, labelled, the first time; by its label after that. Short ones
// ("bit-exact") are always shown in full.
static std::string tolerance_shown(const std::string& description, const ConsoleOptions& options) {
    if (!options.tolerance_labels || description.size() <= 24) return description;
    auto& labels = *options.tolerance_labels;
    const auto found = labels.find(description);
    if (found != labels.end()) return found->second;
    const std::string label = "T" + std::to_string(labels.size() + 1);
    labels.emplace(description, label);
    return label + " = " + description;
}

void print_case(std::FILE* out, const CaseResult& r, const ConsoleOptions& options) {
    if (r.status == CaseStatus::kPassed && !options.verbose && !backends_disagree(r)) return;
    std::string level = r.feature_level ? " FL " + r.feature_level->to_string() : "";
    if (r.op.empty())
        std::fprintf(out, "[%s] %s\n", case_status_name(r.status), r.file.c_str());
    else
        std::fprintf(out, "[%s] %s :: %s (%s%s)\n", case_status_name(r.status), r.file.c_str(), r.name.c_str(),
                     r.op.c_str(), level.c_str());
    if (r.status == CaseStatus::kPassed) {
        for (const OutputReport& o : r.outputs) {
            if (o.informational && o.result.verdict == Verdict::kFailed) {
                std::fprintf(out, "  backends disagree: %s (%s): %s\n", o.output.c_str(), o.comparison.c_str(),
                             o.result.reason.c_str());
                continue;
            }
            if (!options.verbose) continue;
            const std::string note = o.note.empty() ? "" : "; " + o.note;
            const std::string tolerance = tolerance_shown(describe_tolerance(o.tolerance), options);
            if (o.tolerance.error_bound && o.exact)
                std::fprintf(out, "  %s (%s, %s): %llu elements, max error %g, max error/bound %.3g%s\n",
                             o.output.c_str(), o.comparison.c_str(), tolerance.c_str(),
                             (unsigned long long)o.result.element_count, o.result.max_abs_error,
                             o.result.max_bound_ratio, note.c_str());
            else
                std::fprintf(out, "  %s (%s, %s): %llu elements, max |diff| %g, max %llu ulp%s\n", o.output.c_str(),
                             o.comparison.c_str(), tolerance.c_str(),
                             (unsigned long long)o.result.element_count, o.result.max_abs_error,
                             (unsigned long long)o.result.max_ulp_error, note.c_str());
        }
        return;
    }
    std::fprintf(out, "  %s\n", r.reason.c_str());
    if (r.status == CaseStatus::kDeviates) {
        // What the contract saw, then the model that explains it (the first mismatches of each).
        for (const OutputReport& o : r.outputs) {
            if (o.deviation.empty() && o.comparison.find(" vs deviation model ") == std::string::npos) continue;
            const std::string verdict = o.deviation.empty() ? "matches" : "outside the contract: " + o.result.reason;
            std::fprintf(out, "  %s (%s): %s\n", o.output.c_str(), o.comparison.c_str(), verdict.c_str());
            if (o.deviation.empty() || !options.verbose) continue;
            for (const Mismatch& m : o.result.mismatches)
                std::fprintf(out, "    %s\n", format_mismatch(m, o.result).c_str());
        }
        std::fprintf(out, "  repro: %s\n", r.repro.c_str());
        return;
    }
    if (r.status == CaseStatus::kFailed || r.status == CaseStatus::kMistrusted) {
        bool first = true;
        for (const OutputReport& o : r.outputs) {
            if (o.result.verdict == Verdict::kPassed || !o.deviation.empty()) continue;
            // The first failing comparison is already in the reason line.
            if (!first)
                std::fprintf(out, "  %s (%s): %s\n", o.output.c_str(), o.comparison.c_str(), o.result.reason.c_str());
            first = false;
            for (const Mismatch& m : o.result.mismatches)
                std::fprintf(out, "    %s\n", format_mismatch(m, o.result).c_str());
        }
        std::fprintf(out, "  repro: %s\n", r.repro.c_str());
    }
}

void print_summary(std::FILE* out, const RunSummary& s, const std::vector<CaseResult>& results) {
    std::map<FeatureLevel, std::pair<size_t, size_t>> by_level;  // passed, total
    for (const CaseResult& r : results)
        if (r.feature_level) {
            auto& entry = by_level[*r.feature_level];
            ++entry.second;
            entry.first += r.status == CaseStatus::kPassed;
        }
    if (!by_level.empty()) {
        std::string line = "by feature level (passed/total):";
        for (const auto& [level, counts] : by_level)
            line += " " + level.to_string() + " " + std::to_string(counts.first) + "/" + std::to_string(counts.second);
        std::fprintf(out, "%s\n", line.c_str());
    }
    // Three-way runs: per comparison, on how many cases it disagreed (outside tolerance) of those compared.
    std::map<std::string, std::pair<size_t, size_t>> by_comparison;  // disagreed, compared (cases)
    bool several_backends = false;
    for (const CaseResult& r : results) {
        std::map<std::string, bool> disagreed;
        for (const OutputReport& o : r.outputs) {
            several_backends |= o.informational;
            disagreed[o.comparison] = disagreed[o.comparison] || o.result.verdict == Verdict::kFailed;
        }
        for (const auto& [comparison, failed] : disagreed) {
            ++by_comparison[comparison].second;
            by_comparison[comparison].first += failed;
        }
    }
    if (several_backends) {
        std::string line = "disagreements by comparison (cases outside tolerance/compared):";
        for (const auto& [comparison, counts] : by_comparison)
            line += " " + comparison + " " + std::to_string(counts.first) + "/" + std::to_string(counts.second) + ";";
        line.pop_back();
        std::fprintf(out, "%s\n", line.c_str());
    }
    std::fprintf(out,
                 "dmltool: %s in %.2f s: %zu passed, %zu failed, %zu mistrusted, %zu unsupported, %zu invalid, "
                 "%zu skipped%s\n",
                 count_of(s.total, "case").c_str(), s.seconds, s.passed, s.failed, s.mistrusted, s.unsupported, s.invalid, s.skipped,
                 s.deviates ? (", " + std::to_string(s.deviates) + " deviates" + (s.strict ? " (--strict: failing)" : ""))
                                  .c_str()
                            : "");
}

std::string count_of(size_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

Status write_junit(const std::string& path, const std::vector<CaseResult>& results, const RunSummary& s) {
    std::ofstream out(path);
    if (!out) return io_error(path + ": cannot write the JUnit report");
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    const size_t failing_deviates = s.strict ? s.deviates : 0;
    out << "<testsuites name=\"dmltool\" tests=\"" << s.total << "\" failures=\"" << s.failed + s.mistrusted + failing_deviates
        << "\" errors=\"" << s.invalid << "\" skipped=\"" << s.unsupported + s.skipped << "\" time=\"" << s.seconds
        << "\">\n";
    std::map<std::string, std::vector<const CaseResult*>> by_file;
    for (const CaseResult& r : results) by_file[r.file].push_back(&r);
    for (const auto& [file, cases] : by_file) {
        size_t failures = 0, errors = 0, skipped = 0;
        for (const CaseResult* r : cases) {
            failures += r->status == CaseStatus::kFailed || r->status == CaseStatus::kMistrusted ||
                        (s.strict && r->status == CaseStatus::kDeviates);
            errors += r->status == CaseStatus::kInvalid;
            skipped += r->status == CaseStatus::kUnsupported || r->status == CaseStatus::kSkipped;
        }
        out << "  <testsuite name=\"" << xml_escape(file) << "\" tests=\"" << cases.size() << "\" failures=\""
            << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\">\n";
        for (const CaseResult* r : cases) {
            out << "    <testcase classname=\"" << xml_escape(r->op) << "\" name=\"" << xml_escape(r->name)
                << "\" time=\"" << r->case_ms / 1000.0 << "\">";
            const std::string message = xml_escape(r->reason);
            switch (r->status) {
                case CaseStatus::kPassed: break;
                case CaseStatus::kDeviates:
                    // A pass that names its registered deviation; with --strict a failure of its own type.
                    if (s.strict)
                        out << "\n      <failure type=\"DEVIATES\" message=\"" << message << "\">" << xml_escape(details(*r))
                            << "</failure>\n    ";
                    else
                        out << "\n      <properties><property name=\"status\" value=\"DEVIATES\"/></properties>"
                            << "\n      <system-out>" << message << "</system-out>\n    ";
                    break;
                case CaseStatus::kFailed:
                case CaseStatus::kMistrusted:
                    out << "\n      <failure type=\"" << case_status_name(r->status) << "\" message=\"" << message
                        << "\">" << xml_escape(details(*r)) << "</failure>\n    ";
                    break;
                case CaseStatus::kInvalid:
                    out << "\n      <error type=\"INVALID\" message=\"" << message << "\"/>\n    ";
                    break;
                case CaseStatus::kUnsupported:
                case CaseStatus::kSkipped:
                    out << "\n      <skipped message=\"" << case_status_name(r->status) << ": " << message << "\"/>\n    ";
                    break;
            }
            out << "</testcase>\n";
        }
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
    return out.good() ? Status::ok() : io_error(path + ": write failed");
}

Status write_json_report(const std::string& path, const std::vector<CaseResult>& results, const RunSummary& s,
                         const RunReportInfo& info) {
    nlohmann::json root;
    root["tool"] = "dmltool";
    root["version"] = info.version;
    root["git_commit"] = info.git_commit;
    root["date"] = info.date;
    root["backend"] = info.backend;
    root["adapter"] = info.adapter;
    root["files"] = info.files;
    nlohmann::json options = nlohmann::json::object();
    for (const auto& [name, value] : info.options) options[name] = value;
    root["options"] = options;
    root["summary"] = {{"total", s.total},           {"passed", s.passed},   {"failed", s.failed},
                       {"mistrusted", s.mistrusted}, {"unsupported", s.unsupported}, {"invalid", s.invalid},
                       {"skipped", s.skipped},       {"deviates", s.deviates},       {"strict", s.strict},
                       {"seconds", s.seconds},       {"exit_code", exit_code_for(s)}};
    nlohmann::json cases = nlohmann::json::array();
    for (const CaseResult& r : results) {
        nlohmann::json c = {{"file", r.file},     {"name", r.name},         {"operator", r.op},
                            {"status", case_status_name(r.status)}, {"reason", r.reason}, {"tags", r.tags},
                            {"reference_ms", r.reference_ms},       {"case_ms", r.case_ms}, {"repro", r.repro},
                            {"work", {{"bytes", r.work.bytes}, {"ops", r.work.ops}}}};
        c["feature_level"] = r.feature_level ? nlohmann::json(r.feature_level->to_string()) : nlohmann::json();
        if (r.backend_ms) c["backend_ms"] = *r.backend_ms;
        for (const auto& [key, list] : {std::pair{"deviations", &r.deviations},
                                        std::pair{"predicted_deviations", &r.predicted_deviations}}) {
            nlohmann::json entries = nlohmann::json::array();
            for (const CaseDeviation& d : *list)
                entries.push_back({{"backend", d.backend}, {"id", d.id}, {"description", d.description},
                                   {"certain", d.certain}});
            c[key] = entries;
        }
        nlohmann::json outputs = nlohmann::json::array();
        for (const OutputReport& o : r.outputs) {
            nlohmann::json mismatches = nlohmann::json::array();
            for (const Mismatch& m : o.result.mismatches)
                mismatches.push_back({{"coordinates", m.coordinates}, {"expected", m.expected}, {"got", m.got},
                                      {"abs_error", m.abs_error}, {"ulp_error", m.ulp_error},
                                      {"bound", m.bound >= 0 ? nlohmann::json(m.bound) : nlohmann::json()}});
            outputs.push_back({{"output", o.output},
                               {"comparison", o.comparison},
                               {"informational", o.informational},
                               {"tolerance", describe_tolerance(o.tolerance)},
                               {"verdict", o.result.verdict == Verdict::kPassed   ? "passed"
                                           : o.result.verdict == Verdict::kFailed ? "failed"
                                                                                  : "mistrusted"},
                               {"elements", o.result.element_count},
                               {"mismatches", o.result.mismatch_count},
                               {"max_abs_error", o.result.max_abs_error},
                               {"max_ulp_error", o.result.max_ulp_error},
                               {"max_bound_ratio", o.exact ? nlohmann::json(o.result.max_bound_ratio) : nlohmann::json()},
                               {"note", o.note},
                               {"deviation", o.deviation.empty() ? nlohmann::json() : nlohmann::json(o.deviation)},
                               {"first_mismatches", mismatches}});
        }
        c["outputs"] = outputs;
        cases.push_back(c);
    }
    root["cases"] = cases;
    std::ofstream out(path);
    if (!out) return io_error(path + ": cannot write the JSON report");
    // File names come from the command line and need not be UTF-8; replace bad bytes rather than throw.
    out << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return out.good() ? Status::ok() : io_error(path + ": write failed");
}

}  // namespace dmltool
