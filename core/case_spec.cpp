#include "core/case_spec.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "core/case_sweep.h"
#include "core/json_document.h"
#include "core/suggest.h"
#include "core/tensor_source.h"

namespace dmltool {
namespace {

using nlohmann::json;

Status expected_found(const std::string& path, const std::string& what, const json& found) {
    return invalid_input(path + ": expected " + what + ", found " + describe_json(found));
}

Result<ScalarValue> parse_scalar(const json& v, const std::string& path, bool allow_special_strings) {
    ScalarValue out;
    if (v.is_number_unsigned()) {
        out.kind = ScalarValue::Kind::kUnsigned;
        out.u = v.get<uint64_t>();
    } else if (v.is_number_integer()) {
        out.kind = ScalarValue::Kind::kSigned;
        out.i = v.get<int64_t>();
    } else if (v.is_number_float()) {
        out.f = v.get<double>();
    } else if (allow_special_strings && v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        if (s == "nan" || s == "NaN") out.f = std::numeric_limits<double>::quiet_NaN();
        else if (s == "inf" || s == "Infinity") out.f = std::numeric_limits<double>::infinity();
        else if (s == "-inf" || s == "-Infinity") out.f = -std::numeric_limits<double>::infinity();
        else return expected_found(path, "a number (or \"nan\", \"inf\", \"-inf\")", v);
    } else {
        return expected_found(path, allow_special_strings ? "a number (or \"nan\", \"inf\", \"-inf\")" : "a number", v);
    }
    return out;
}

// Recursion is safe here: the parser refused documents nested deeper than CaseLoadLimits::max_depth.
void flatten_values(const json& v, std::vector<const json*>& out) {
    if (v.is_array())
        for (const json& item : v) flatten_values(item, out);
    else
        out.push_back(&v);
}

// `defaults`: what a {"random": ...} source that omits seed, min or max takes.
Result<TensorSource> parse_source(const json& v, const std::string& path, const RandomSource& defaults) {
    TensorSource source;
    source.json_path = path;
    if (!v.is_object())
        return expected_found(path, "a tensor source object (hdf5, values, random, sequence or constant)", v);
    JsonObjectReader reader(v, path);
    std::vector<std::string> kinds;
    for (const char* kind : {"hdf5", "values", "random", "sequence", "constant"})
        if (v.contains(kind)) kinds.push_back(kind);
    if (kinds.size() > 1)
        return invalid_input(path + ": expected exactly one of the members hdf5, values, random, sequence, constant, "
                             "found both " + kinds[0] + " and " + kinds[1]);
    if (reader.has("hdf5")) {
        reader.accept("hdf5");
        reader.accept("dataset");
        const json& file = v["hdf5"];
        if (!file.is_string() || file.get_ref<const std::string&>().empty())
            return expected_found(path + "/hdf5", "an HDF5 file path", file);
        if (!v.contains("dataset")) return invalid_input(path + "/dataset: missing required member (the dataset path)");
        const json& dataset = v["dataset"];
        if (!dataset.is_string() || dataset.get_ref<const std::string&>().empty())
            return expected_found(path + "/dataset", "a dataset path such as \"/group/name\"", dataset);
        // A NUL ends the name the C libraries see: "data.h5\u0000/../x" would open something else than checked.
        for (const auto& [member, text] : {std::pair{"hdf5", &file}, std::pair{"dataset", &dataset}})
            if (text->get_ref<const std::string&>().find('\0') != std::string::npos)
                return invalid_input(path + "/" + member + ": expected a path without NUL characters, found one with \\u0000");
        source.kind = Hdf5Source{file.get<std::string>(), dataset.get<std::string>()};
    } else if (reader.has("values")) {
        reader.accept("values");
        const json& values = v["values"];
        if (!values.is_array()) return expected_found(path + "/values", "an array of numbers", values);
        std::vector<const json*> flat;
        flatten_values(values, flat);
        ValuesSource parsed;
        parsed.values.reserve(flat.size());
        for (size_t i = 0; i < flat.size(); ++i) {
            DMLTOOL_ASSIGN_OR_RETURN(ScalarValue s, parse_scalar(*flat[i], path + "/values[" + std::to_string(i) + "]", true));
            parsed.values.push_back(s);
        }
        source.kind = std::move(parsed);
    } else if (reader.has("random")) {
        reader.accept("random");
        const json& r = v["random"];
        const std::string rpath = path + "/random";
        if (!r.is_object()) return expected_found(rpath, "an object {\"seed\": N, \"min\": a, \"max\": b}", r);
        JsonObjectReader random_reader(r, rpath);
        random_reader.accept("seed");
        random_reader.accept("min");
        random_reader.accept("max");
        // Each member may be omitted: the seed derives from the case and tensor names, the range from the type.
        RandomSource parsed = defaults;
        if (r.contains("seed")) {
            if (!r["seed"].is_number_unsigned()) return expected_found(rpath + "/seed", "an unsigned integer seed", r["seed"]);
            parsed.seed = r["seed"].get<uint64_t>();
        }
        if (r.contains("min")) {
            DMLTOOL_ASSIGN_OR_RETURN(parsed.min, parse_scalar(r["min"], rpath + "/min", false));
        }
        if (r.contains("max")) {
            DMLTOOL_ASSIGN_OR_RETURN(parsed.max, parse_scalar(r["max"], rpath + "/max", false));
        }
        DMLTOOL_RETURN_IF_ERROR(random_reader.finish());
        source.kind = parsed;
    } else if (reader.has("sequence")) {
        reader.accept("sequence");
        const json& s = v["sequence"];
        const std::string spath = path + "/sequence";
        if (!s.is_object()) return expected_found(spath, "an object {\"start\": a, \"step\": b}", s);
        JsonObjectReader sequence_reader(s, spath);
        sequence_reader.accept("start");
        sequence_reader.accept("step");
        SequenceSource parsed;
        for (const char* key : {"start", "step"})
            if (!s.contains(key)) return invalid_input(spath + "/" + key + ": missing required member (a number)");
        DMLTOOL_ASSIGN_OR_RETURN(parsed.start, parse_scalar(s["start"], spath + "/start", false));
        DMLTOOL_ASSIGN_OR_RETURN(parsed.step, parse_scalar(s["step"], spath + "/step", false));
        DMLTOOL_RETURN_IF_ERROR(sequence_reader.finish());
        source.kind = parsed;
    } else if (reader.has("constant")) {
        reader.accept("constant");
        DMLTOOL_ASSIGN_OR_RETURN(ScalarValue value, parse_scalar(v["constant"], path + "/constant", true));
        source.kind = ConstantSource{value};
    } else {
        // Name the member that looks like a misspelled kind ({"h5": ..., "dataset": ...} names h5), else the first.
        const std::vector<std::string> kinds_allowed = {"hdf5", "values", "random", "sequence", "constant"};
        std::string found = v.empty() ? std::string("an empty object") : "member '" + v.begin().key() + "'";
        for (auto it = v.begin(); it != v.end(); ++it)
            if (closest_name(it.key(), kinds_allowed)) {
                found = "member '" + it.key() + "'" + did_you_mean(it.key(), kinds_allowed);
                break;
            }
        return invalid_input(path + ": expected one of the members hdf5, values, random, sequence, constant, found " + found);
    }
    DMLTOOL_RETURN_IF_ERROR(reader.finish());
    return source;
}

// Binds a sources object ("inputs"/"expected") to the op's tensor slots of `role`.
// `case_name` seeds the random sources that omit "seed".
Status parse_sources(const json& v, const std::string& path, const std::vector<TensorSlot>& slots, TensorRole role,
                     bool all_required, const std::string& case_name, std::map<std::string, TensorSource>& out) {
    if (!v.is_object()) return expected_found(path, "an object mapping tensor members to sources", v);
    std::set<std::string> fields;
    for (const TensorSlot& slot : slots)
        if (slot.role == role) fields.insert(std::string(slot.field));
    for (auto it = v.begin(); it != v.end(); ++it) {
        if (!fields.count(it.key())) {
            std::string allowed;
            for (const auto& f : fields) allowed += (allowed.empty() ? "" : ", ") + f;
            return invalid_input(path + "/" + it.key() + ": not a" +
                                 (role == TensorRole::kInput ? "n input" : "n output") + " tensor of this operator (expected one of " +
                                 allowed + ")");
        }
    }
    // Array members (Split's OutputTensors) take an array of sources, one per element.
    std::map<std::string, size_t> array_lengths;
    for (const TensorSlot& slot : slots)
        if (slot.role == role && slot.name != slot.field) ++array_lengths[std::string(slot.field)];
    for (const TensorSlot& slot : slots) {
        if (slot.role != role) continue;
        const std::string field(slot.field);
        if (!v.contains(field)) {
            if (all_required && slot.desc)
                return invalid_input(path + "/" + field + ": missing source for the desc's " + slot.name);
            continue;
        }
        if (!slot.desc)
            return invalid_input(path + "/" + field + ": the desc omits the optional " + field + ", so it takes no source");
        const json& value = v[field];
        RandomSource defaults;
        defaults.seed = derived_random_seed(case_name, slot.name);
        std::tie(defaults.min, defaults.max) = default_random_range(slot.desc->data_type);
        if (array_lengths.count(field)) {
            const size_t expected_length = array_lengths[field];
            if (!value.is_array() || value.size() != expected_length)
                return expected_found(path + "/" + field, "an array of " + std::to_string(expected_length) +
                                                              " sources (one per " + field + " element)", value);
            const size_t index = std::stoul(slot.name.substr(field.size() + 1));
            DMLTOOL_ASSIGN_OR_RETURN(out[slot.name],
                                     parse_source(value[index], path + "/" + field + "/" + std::to_string(index), defaults));
        } else {
            DMLTOOL_ASSIGN_OR_RETURN(out[slot.name], parse_source(value, path + "/" + field, defaults));
        }
        DMLTOOL_RETURN_IF_ERROR(check_inline_source(out[slot.name], *slot.desc));
    }
    return Status::ok();
}

Status parse_tolerance(const json& v, const std::vector<TensorSlot>& slots, CaseSpec& spec) {
    const std::string path = "/tolerance";
    if (!v.is_object()) return expected_found(path, "an object {\"<OutputField>\": {\"ulp\": N, \"abs\": X}, \"reason\": \"...\"}", v);
    std::set<std::string> outputs;
    for (const TensorSlot& slot : slots)
        if (slot.role == TensorRole::kOutput) outputs.insert(std::string(slot.field));
    for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string member = path + "/" + it.key();
        if (it.key() == "reason") {
            if (!it->is_string() || it->get_ref<const std::string&>().empty())
                return expected_found(member, "a non-empty string explaining the tolerance", *it);
            spec.tolerance_reason = it->get<std::string>();
            continue;
        }
        if (!outputs.count(it.key())) {
            std::string allowed;
            for (const auto& f : outputs) allowed += (allowed.empty() ? "" : ", ") + f;
            return invalid_input(member + ": not an output tensor of this operator (expected reason or one of " + allowed + ")");
        }
        if (!it->is_object()) return expected_found(member, "an object {\"ulp\": N, \"abs\": X}", *it);
        ToleranceOverride tol;
        for (auto m = it->begin(); m != it->end(); ++m) {
            if (m.key() == "ulp") {
                if (!m->is_number_unsigned()) return expected_found(member + "/ulp", "an unsigned integer", *m);
                tol.ulp = m->get<uint64_t>();
            } else if (m.key() == "abs") {
                if (!m->is_number() || !(m->get<double>() >= 0) || !std::isfinite(m->get<double>()))
                    return expected_found(member + "/abs", "a finite number >= 0", *m);
                tol.abs = m->get<double>();
            } else {
                return invalid_input(member + "/" + m.key() + ": " + unknown_member_text(m.key(), {"ulp", "abs"}));
            }
        }
        if (!tol.ulp && !tol.abs) return invalid_input(member + ": expected at least one of ulp, abs, found neither");
        spec.tolerance[it.key()] = tol;
    }
    if (!spec.tolerance.empty() && spec.tolerance_reason.empty())
        return invalid_input(path + "/reason: missing: a tolerance override must say why it is right");
    return Status::ok();
}

// The feature-level tables name the tensor as "OP: OutputTensors[1]: ..."; case messages name a JSON path.
Status desc_member_status(const Status& status, std::string_view op_name) {
    const std::string prefix = std::string(op_name) + ": ";
    std::string text = status.message();
    if (text.rfind(prefix, 0) != 0) return status;
    text.erase(0, prefix.size());
    const size_t colon = text.find(": ");
    std::string member = text.substr(0, colon == std::string::npos ? 0 : colon);
    const size_t bracket = member.find('[');
    if (bracket != std::string::npos && member.back() == ']')
        member = member.substr(0, bracket) + "/" + member.substr(bracket + 1, member.size() - bracket - 2);
    return Status(status.code(), "/operator/desc/" + member + text.substr(member.empty() ? 0 : colon));
}

json scalar_json(const ScalarValue& v) {
    switch (v.kind) {
        case ScalarValue::Kind::kSigned: return v.i;
        case ScalarValue::Kind::kUnsigned: return v.u;
        case ScalarValue::Kind::kFloat: return v.f;
    }
    return v.f;
}

// `expanded`, when not null, receives the case as loaded: derived outputs and random parameters filled in.
Status parse_case(const json& v, const OpRegistry& registry, CaseSpec& spec, json* expanded) {
    if (!v.is_object()) return expected_found("", "a case object", v);
    static const std::set<std::string> kKnown = {"name", "description", "featureLevel", "operator", "inputs",
                                                 "expected", "tolerance", "tags", "$schema", "comment"};
    // "sweep" never reaches here (a sweep's points are loaded without it), but a written case may have one.
    static const std::vector<std::string> kListed = {"name",     "description", "featureLevel", "operator", "inputs",
                                                     "expected", "tolerance",   "tags",         "sweep",    "comment"};
    for (auto it = v.begin(); it != v.end(); ++it)
        if (!kKnown.count(it.key())) return invalid_input("/" + it.key() + ": " + unknown_member_text(it.key(), kListed));
    if (v.contains("description")) {
        if (!v["description"].is_string()) return expected_found("/description", "a string", v["description"]);
        spec.description = v["description"].get<std::string>();
    }
    if (v.contains("tags")) {
        const json& tags = v["tags"];
        if (!tags.is_array()) return expected_found("/tags", "an array of strings", tags);
        for (size_t i = 0; i < tags.size(); ++i) {
            if (!tags[i].is_string()) return expected_found("/tags/" + std::to_string(i), "a string", tags[i]);
            spec.tags.push_back(tags[i].get<std::string>());
        }
    }
    if (v.contains("featureLevel")) {
        const json& level = v["featureLevel"];
        std::optional<FeatureLevel> parsed;
        if (level.is_string()) parsed = FeatureLevel::parse(level.get<std::string>());
        if (!parsed)
            return expected_found("/featureLevel", "a DirectML feature level (" + all_feature_level_names() + ")", level);
        spec.claimed_feature_level = parsed;
    }
    if (!v.contains("operator")) return invalid_input("/operator: missing required member");
    const json& op = v["operator"];
    if (!op.is_object()) return expected_found("/operator", "an object {\"type\": ..., \"desc\": {...}}", op);
    for (auto it = op.begin(); it != op.end(); ++it)
        if (it.key() != "type" && it.key() != "desc")
            return invalid_input("/operator/" + it.key() + ": " + unknown_member_text(it.key(), {"type", "desc"}));
    if (!op.contains("type") || !op["type"].is_string())
        return expected_found("/operator/type", "an operator name such as \"DML_OPERATOR_SPLIT\"",
                              op.contains("type") ? op["type"] : json());
    spec.operator_type = op["type"].get<std::string>();
    spec.op = registry.find(spec.operator_type);
    if (!spec.op) return invalid_input("/operator/type: " + registry.unknown_operator_message(spec.operator_type));
    if (!op.contains("desc")) return invalid_input("/operator/desc: missing required member");
    if (!op["desc"].is_object()) return expected_found("/operator/desc", "an object", op["desc"]);
    // The operator fills in the outputs whose sizes it determines and the case leaves out, before the desc is read.
    json desc = op["desc"];
    DMLTOOL_RETURN_IF_ERROR(spec.op->derive_outputs(desc, "/operator/desc"));
    JsonObjectReader desc_reader(desc, "/operator/desc");
    DMLTOOL_ASSIGN_OR_RETURN(spec.desc, spec.op->parse(desc_reader));
    DMLTOOL_RETURN_IF_ERROR(desc_reader.finish());
    auto derived = min_feature_level(*spec.op, *spec.desc);
    if (!derived.is_ok()) return desc_member_status(derived.status(), spec.op->name());
    spec.min_feature_level = *derived;
    if (spec.claimed_feature_level && *spec.claimed_feature_level < spec.min_feature_level)
        return invalid_input("/featureLevel: expected at least " + spec.min_feature_level.to_string() +
                             " (the minimum the " + std::string(spec.op->name()) +
                             " tables allow for these tensors), found " + spec.claimed_feature_level->to_string());
    const std::vector<TensorSlot> slots = spec.op->tensors(*spec.desc);
    if (!v.contains("inputs")) return invalid_input("/inputs: missing required member (one source per input tensor)");
    DMLTOOL_RETURN_IF_ERROR(parse_sources(v["inputs"], "/inputs", slots, TensorRole::kInput, true, spec.name, spec.inputs));
    if (v.contains("expected"))
        DMLTOOL_RETURN_IF_ERROR(parse_sources(v["expected"], "/expected", slots, TensorRole::kOutput, true, spec.name, spec.expected));
    if (v.contains("tolerance")) DMLTOOL_RETURN_IF_ERROR(parse_tolerance(v["tolerance"], slots, spec));
    if (expanded) {
        *expanded = v;
        (*expanded)["operator"]["desc"] = std::move(desc);
        for (const auto* sources : {&spec.inputs, &spec.expected})
            for (const auto& [slot, source] : *sources)
                if (const auto* r = std::get_if<RandomSource>(&source.kind))
                    (*expanded)[json::json_pointer(source.json_path + "/random")] =
                        json{{"seed", r->seed}, {"min", scalar_json(r->min)}, {"max", scalar_json(r->max)}};
    }
    return Status::ok();
}

}  // namespace

double ScalarValue::as_double() const {
    switch (kind) {
        case Kind::kSigned: return double(i);
        case Kind::kUnsigned: return double(u);
        case Kind::kFloat: return f;
    }
    return f;
}

std::string case_context(const CaseSpec& spec) {
    return spec.file + ": case '" + (spec.name.empty() ? "#" + std::to_string(spec.index_in_file) : spec.name) + "'";
}

CaseFile load_case_file(const std::string& path, const OpRegistry& registry, const CaseLoadLimits& limits,
                        bool keep_expanded_json) {
    auto text = read_text_file(path, limits);
    if (!text.is_ok()) {
        CaseFile file;
        file.path = path;
        file.status = text.status();
        return file;
    }
    return load_case_text(*text, path, registry, limits, keep_expanded_json);
}

CaseFile load_case_text(const std::string& text, const std::string& path, const OpRegistry& registry,
                        const CaseLoadLimits& limits, bool keep_expanded_json) {
    CaseFile file;
    file.path = path;
    auto document = parse_json_document(text, path, limits);
    if (!document.is_ok()) {
        file.status = document.status();
        return file;
    }
    const json& root = document->root;
    const std::optional<std::string>& duplicate = document->first_duplicate_member;
    std::vector<const json*> case_values;
    std::string pointer_prefix;
    if (root.is_object() && root.contains("cases")) {
        const json& cases = root["cases"];
        if (!cases.is_array()) {
            file.status = invalid_input(path + ": /cases: expected an array of case objects, found " + describe_json(cases));
            return file;
        }
        for (auto it = root.begin(); it != root.end(); ++it)
            if (it.key() != "cases" && it.key() != "$schema" && it.key() != "comment") {
                file.status = invalid_input(path + ": /" + it.key() + ": unknown member next to \"cases\"" +
                                            did_you_mean(it.key(), {"cases", "comment", "$schema"}));
                return file;
            }
        for (const json& c : cases) case_values.push_back(&c);
        pointer_prefix = "/cases/";
    } else if (root.is_object()) {
        case_values.push_back(&root);
    } else {
        file.status = invalid_input(path + ": expected a case object or {\"cases\": [...]}, found " + describe_json(root));
        return file;
    }
    // A repeated member outside every case (e.g. "cases" twice) makes the whole file ambiguous.
    if (duplicate && !pointer_prefix.empty() &&
        !(duplicate->rfind(pointer_prefix, 0) == 0 && duplicate->find('/', pointer_prefix.size()) != std::string::npos)) {
        file.status = invalid_input(path + ": " + *duplicate + ": expected each member once per object, found '" +
                                    duplicate->substr(1) + "' again");
        return file;
    }
    if (case_values.empty()) {
        file.status = invalid_input(path + ": /cases: expected at least one case, found an empty array");
        return file;
    }
    std::set<std::string> names;
    // Checks and loads one case object (written, or one point of a sweep) into file.cases.
    const auto load_case = [&](const json& value, const std::string& prefix, LoadedCase loaded) {
        CaseSpec& spec = loaded.spec;
        if (loaded.status.is_ok() && !spec.name.empty() && !names.insert(spec.name).second)
            loaded.status = invalid_input(prefix + "/name: expected a name unique within the file, found \"" +
                                          spec.name + "\" again");
        if (loaded.status.is_ok()) {
            Status parsed = parse_case(value, registry, spec, keep_expanded_json ? &loaded.expanded : nullptr);
            if (!parsed.is_ok()) loaded.status = Status(parsed.code(), prefix + parsed.message());
            // Sources report their own errors when a run reads them: with the same path as parse errors.
            for (auto* sources : {&spec.inputs, &spec.expected})
                for (auto& [slot, source] : *sources) source.json_path = prefix + source.json_path;
        }
        if (!loaded.status.is_ok()) loaded.status = loaded.status.with_context(case_context(spec));
        file.cases.push_back(std::move(loaded));
    };
    // JSON values the file's sweeps may expand into: as many as one written file may hold.
    uint64_t sweep_budget = limits.max_json_values;
    for (size_t i = 0; i < case_values.size(); ++i) {
        LoadedCase loaded;
        CaseSpec& spec = loaded.spec;
        spec.file = path;
        spec.base_dir = std::filesystem::path(path).parent_path();
        spec.index_in_file = i;
        const json& value = *case_values[i];
        const std::string prefix = pointer_prefix.empty() ? "" : pointer_prefix + std::to_string(i);
        if (!value.is_object()) {
            loaded.status = expected_found(prefix, "a case object", value);
        } else if (value.contains("name") && value["name"].is_string() &&
            !value["name"].get_ref<const std::string&>().empty()) {
            spec.name = value["name"].get<std::string>();
        } else {
            loaded.status = value.contains("name")
                                ? expected_found(prefix + "/name", "a non-empty string", value["name"])
                                : invalid_input(prefix + "/name: missing required member");
        }
        // A repeated member makes its case ambiguous (the parser kept the last value): refuse that case only.
        if (loaded.status.is_ok() && duplicate && duplicate->rfind(prefix + "/", 0) == 0)
            loaded.status = invalid_input(*duplicate + ": expected each member once per object, found '" +
                                          duplicate->substr(duplicate->rfind('/') + 1) + "' again");
        if (!loaded.status.is_ok() || !has_sweep(value)) {
            load_case(value, prefix, std::move(loaded));
            continue;
        }
        // A sweep: one case per point, each loaded as if written (a broken sweep is one INVALID case).
        const auto order = document->sweep_member_order.find(prefix + "/sweep");
        auto points = expand_sweep(value, prefix,
                                   order == document->sweep_member_order.end() ? std::vector<std::string>{} : order->second,
                                   sweep_budget);
        if (!points.is_ok()) {
            loaded.status = points.status();
            load_case(value, prefix, std::move(loaded));
            continue;
        }
        for (SweepPoint& point : *points) {
            LoadedCase expanded;
            expanded.spec.file = spec.file;
            expanded.spec.base_dir = spec.base_dir;
            expanded.spec.index_in_file = i;
            expanded.spec.name = point.value["name"].get<std::string>();
            load_case(point.value, prefix, std::move(expanded));
            point.value = json();  // loaded: free it before the next point
        }
    }
    return file;
}

}  // namespace dmltool
