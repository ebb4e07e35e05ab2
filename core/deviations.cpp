#include "core/deviations.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_reader.h"

namespace dmltool {
namespace {

using nlohmann::json;

// "<source>: <path>: expected <what>, found <found>"
Status registry_error(const std::string& source, const std::string& path, const std::string& expected,
                      const std::string& found) {
    return invalid_input(source + ": " + (path.empty() ? std::string("/") : path) + ": expected " + expected +
                         ", found " + found);
}

Result<std::string> required_string(const json& object, const std::string& key, const std::string& path,
                                    const std::string& source, const std::string& expected) {
    auto it = object.find(key);
    if (it == object.end()) return registry_error(source, path + "/" + key, expected, "nothing (a required member)");
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
        return registry_error(source, path + "/" + key, expected, describe_json(*it));
    return it->get<std::string>();
}

Status check_members(const json& object, const std::vector<std::string>& known, const std::string& path,
                     const std::string& source) {
    for (const auto& [key, value] : object.items())
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            std::string names;
            for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
            return registry_error(source, path + "/" + key, "one of the members " + names, "unknown member '" + key + "'");
        }
    return Status::ok();
}

Result<std::vector<std::string>> string_array(const json& object, const std::string& key, const std::string& path,
                                              const std::string& source, bool required) {
    std::vector<std::string> out;
    auto it = object.find(key);
    if (it == object.end()) {
        if (required) return registry_error(source, path + "/" + key, "an array of strings", "nothing (a required member)");
        return out;
    }
    if (!it->is_array()) return registry_error(source, path + "/" + key, "an array of strings", describe_json(*it));
    for (size_t i = 0; i < it->size(); ++i) {
        if (!(*it)[i].is_string())
            return registry_error(source, path + "/" + key + "/" + std::to_string(i), "a string", describe_json((*it)[i]));
        out.push_back((*it)[i].get<std::string>());
    }
    return out;
}

Result<DeviationEntry> parse_entry(const json& item, const std::string& path, const std::string& prefix,
                                   const std::string& source, const OpRegistry& ops) {
    if (!item.is_object()) return registry_error(source, path, "a deviation object", describe_json(item));
    DMLTOOL_RETURN_IF_ERROR(check_members(
        item, {"id", "operator", "dataTypes", "model", "description", "devices", "evidence"}, path, source));
    DeviationEntry entry;
    DMLTOOL_ASSIGN_OR_RETURN(std::string id, required_string(item, "id", path, source, "a deviation id"));
    entry.id = prefix + "/" + id;
    DMLTOOL_ASSIGN_OR_RETURN(entry.description,
                             required_string(item, "description", path, source, "a one-line description"));
    DMLTOOL_ASSIGN_OR_RETURN(std::string op_name, required_string(item, "operator", path, source, "an operator name"));
    entry.op = ops.find(op_name);
    if (!entry.op)
        return invalid_input(source + ": " + path + "/operator: " + ops.unknown_operator_message(op_name));
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<std::string> types, string_array(item, "dataTypes", path, source, false));
    for (size_t i = 0; i < types.size(); ++i) {
        auto type = parse_data_type(types[i]);
        if (!type)
            return registry_error(source, path + "/dataTypes/" + std::to_string(i),
                                  "a data type (" + all_data_type_names() + ")", "'" + types[i] + "'");
        entry.data_types.push_back(*type);
    }
    DMLTOOL_ASSIGN_OR_RETURN(std::string model, required_string(item, "model", path, source, "a model name"));
    const std::vector<DeviationModel> models = entry.op->deviation_models();
    auto found = std::find_if(models.begin(), models.end(), [&](const DeviationModel& m) { return m.name == model; });
    if (found == models.end()) {
        std::string names;
        for (const DeviationModel& m : models) names += (names.empty() ? "" : ", ") + m.name;
        return registry_error(source, path + "/model",
                              "a deviation model of DML_OPERATOR_" + std::string(entry.op->name()) + " (" +
                                  (names.empty() ? std::string("it has none") : names) + ")",
                              "'" + model + "'");
    }
    entry.model = *found;
    DMLTOOL_ASSIGN_OR_RETURN(entry.devices, string_array(item, "devices", path, source, true));
    DMLTOOL_ASSIGN_OR_RETURN(entry.evidence, required_string(item, "evidence", path, source,
                                                             "the evidence (a results/ file and its command)"));
    return entry;
}

std::optional<std::vector<unsigned long>> version_parts(const std::string& text) {
    std::vector<unsigned long> parts;
    size_t start = 0;
    for (;;) {
        const size_t dot = text.find('.', start);
        const std::string part = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (part.empty() || part.size() > 9 || !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        parts.push_back(std::stoul(part));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    while (parts.size() > 1 && parts.back() == 0) parts.pop_back();
    return parts;
}

}  // namespace

bool DeviationEntry::applies(const Op& case_op, const OpDesc& desc) const {
    if (&case_op != op) return false;
    if (!data_types.empty()) {
        const std::vector<TensorSlot> slots = case_op.tensors(desc);
        if (slots.empty() || !slots.front().desc) return false;
        if (std::find(data_types.begin(), data_types.end(), slots.front().desc->data_type) == data_types.end())
            return false;
    }
    return !model.applies || model.applies(desc);
}

Result<DeviationRegistry> parse_deviation_registry(const std::string& text, const std::string& source,
                                                   const OpRegistry& ops) {
    const json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded()) return invalid_input(source + ": not valid JSON (a deviation registry is one JSON object)");
    if (!root.is_object()) return registry_error(source, "", "a registry object", describe_json(root));
    DMLTOOL_RETURN_IF_ERROR(check_members(root, {"implementation", "version", "description", "deviations"}, "", source));
    DeviationRegistry registry;
    registry.source = source;
    DMLTOOL_ASSIGN_OR_RETURN(registry.implementation,
                             required_string(root, "implementation", "", source, "\"DirectML\""));
    if (registry.implementation != "DirectML")
        return registry_error(source, "/implementation", "\"DirectML\" (the only implementation with registries)",
                              "'" + registry.implementation + "'");
    DMLTOOL_ASSIGN_OR_RETURN(registry.version, required_string(root, "version", "", source, "a dotted version"));
    if (!version_parts(registry.version))
        return registry_error(source, "/version", "a dotted numeric version such as \"1.15.4\"", "'" + registry.version + "'");
    auto list = root.find("deviations");
    if (list == root.end() || !list->is_array())
        return registry_error(source, "/deviations", "an array of deviations",
                              list == root.end() ? "nothing (a required member)" : describe_json(*list));
    const std::string prefix = "dml-" + registry.version;
    for (size_t i = 0; i < list->size(); ++i) {
        DMLTOOL_ASSIGN_OR_RETURN(DeviationEntry entry,
                                 parse_entry((*list)[i], "/deviations/" + std::to_string(i), prefix, source, ops));
        for (const DeviationEntry& earlier : registry.entries)
            if (earlier.id == entry.id)
                return registry_error(source, "/deviations/" + std::to_string(i) + "/id", "a unique id",
                                      "'" + entry.id + "' a second time");
        registry.entries.push_back(std::move(entry));
    }
    return registry;
}

std::optional<int> compare_versions(const std::string& a, const std::string& b) {
    auto pa = version_parts(a), pb = version_parts(b);
    if (!pa || !pb) return std::nullopt;
    const size_t n = std::max(pa->size(), pb->size());
    pa->resize(n, 0), pb->resize(n, 0);
    return *pa < *pb ? -1 : *pa > *pb ? 1 : 0;
}

RegistryChoice choose_deviation_registry(const std::vector<DeviationRegistry>& registries,
                                         const std::optional<std::string>& version) {
    RegistryChoice choice;
    const DeviationRegistry* newest = nullptr;
    const DeviationRegistry* newest_older = nullptr;
    for (const DeviationRegistry& r : registries) {
        if (!newest || compare_versions(r.version, newest->version).value_or(0) > 0) newest = &r;
        if (version) {
            const std::optional<int> order = compare_versions(r.version, *version);
            if (order == 0) {
                choice.registry = &r;
                return choice;
            }
            if (order && *order < 0 &&
                (!newest_older || compare_versions(r.version, newest_older->version).value_or(0) > 0))
                newest_older = &r;
        }
    }
    if (!version || !compare_versions(*version, *version)) {
        choice.registry = newest;
        choice.note = "the DirectML version " + (version ? "'" + *version + "' is not a dotted number" : std::string("could not be read")) +
                      (newest ? "; using the newest deviation registry, " + newest->version : "; no deviation registry");
        return choice;
    }
    choice.registry = newest_older;
    choice.note = newest_older ? "no deviation registry for DirectML " + *version + "; using the newest older one, " +
                                     newest_older->version
                               : "no deviation registry for DirectML " + *version + " or any older version";
    return choice;
}

}  // namespace dmltool
