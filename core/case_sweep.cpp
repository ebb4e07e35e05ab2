#include "core/case_sweep.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <optional>

#include "core/json_reader.h"

namespace dmltool {
namespace {

using nlohmann::json;

struct Axis {
    std::string name;
    const json* values;  // a non-empty array
};

bool is_axis_name(const std::string& name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

uint64_t saturating_multiply(uint64_t a, uint64_t b) {
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
    return a * b;
}

// Integers as written, other numbers in the shortest text that reads back as the same double (0.5, 2, 1e-05).
std::string number_text(const json& v) {
    if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
    if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, v.get<double>(), std::chars_format::general).ptr;
    return std::string(buffer, end);
}

// The text of a value spliced into a string: strings as they are, numbers compactly, arrays as their elements
// joined by 'x' (a shape [16, 64, 256] reads 16x64x256). False for objects, which have no text.
bool append_text(const json& v, std::string& out) {
    switch (v.type()) {
        case json::value_t::string: out += v.get_ref<const std::string&>(); return true;
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: out += number_text(v); return true;
        case json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return true;
        case json::value_t::null: out += "null"; return true;
        case json::value_t::array:
            for (size_t i = 0; i < v.size(); ++i) {
                if (i) out += 'x';
                if (!append_text(v[i], out)) return false;
            }
            return true;
        default: return false;
    }
}

// The text of one axis value in a point's label: its spliced text, an object's "name" member, else #index.
std::string value_label(const json& v, size_t index) {
    std::string text;
    if (v.is_object()) {
        if (v.contains("name") && append_text(v["name"], text)) return text;
        return "#" + std::to_string(index);
    }
    if (append_text(v, text)) return text;
    return "#" + std::to_string(index);
}

// Replaces ${...} in every string of one point's case, in place.
class Substituter {
public:
    Substituter(const std::vector<Axis>& axes, const std::vector<size_t>& index) : axes_(axes), index_(index) {}

    Status substitute(json& v, const std::string& path) const {
        if (v.is_object()) {
            for (auto it = v.begin(); it != v.end(); ++it) DMLTOOL_RETURN_IF_ERROR(substitute(*it, path + "/" + it.key()));
        } else if (v.is_array()) {
            for (size_t i = 0; i < v.size(); ++i) DMLTOOL_RETURN_IF_ERROR(substitute(v[i], path + "/" + std::to_string(i)));
        } else if (v.is_string()) {
            const std::string& text = v.get_ref<const std::string&>();
            if (text.find("${") == std::string::npos) return Status::ok();
            DMLTOOL_ASSIGN_OR_RETURN(json replaced, substitute_string(text, path));
            v = std::move(replaced);
        }
        return Status::ok();
    }

private:
    // The value a variable names at this point: "axis" or "axis.field.subfield".
    Result<const json*> lookup(const std::string& variable, const std::string& path) const {
        const std::string axis_name = variable.substr(0, variable.find('.'));
        for (size_t a = 0; a < axes_.size(); ++a) {
            if (axes_[a].name != axis_name) continue;
            const json* value = &(*axes_[a].values)[index_[a]];
            size_t start = axis_name.size();
            while (start < variable.size()) {  // variable[start] == '.'
                const size_t end = std::min(variable.find('.', start + 1), variable.size());
                const std::string field = variable.substr(start + 1, end - start - 1);
                if (!value->is_object() || !value->contains(field))
                    return invalid_input(path + ": expected ${" + variable + "} to name a member of every value of sweep axis '" +
                                         axis_name + "', found value " + std::to_string(index_[a]) + " (" +
                                         describe_json(*value) + ") without member '" + field + "'");
                value = &(*value)[field];
                start = end;
            }
            return value;
        }
        std::string names;
        for (const Axis& axis : axes_) names += (names.empty() ? "" : ", ") + axis.name;
        return invalid_input(path + ": expected a sweep variable (" + names + "), found ${" + variable + "}");
    }

    Result<json> substitute_string(const std::string& text, const std::string& path) const {
        // "${x}" alone stands for the value itself, whatever its JSON type.
        if (text.size() > 3 && text.compare(0, 2, "${") == 0 && text.back() == '}' &&
            text.find_first_of("{}$", 2) == text.size() - 1) {
            DMLTOOL_ASSIGN_OR_RETURN(const json* value, lookup(text.substr(2, text.size() - 3), path));
            return *value;
        }
        std::string out;
        for (size_t i = 0; i < text.size();) {
            if (text.compare(i, 3, "$${") == 0) {  // an escaped, literal "${"
                out += "${";
                i += 3;
                continue;
            }
            if (text.compare(i, 2, "${") != 0) {
                out += text[i++];
                continue;
            }
            const size_t close = text.find('}', i + 2);
            if (close == std::string::npos)
                return invalid_input(path + ": expected '}' closing the ${ at character " + std::to_string(i) +
                                     ", found the end of the string");
            const std::string variable = text.substr(i + 2, close - i - 2);
            DMLTOOL_ASSIGN_OR_RETURN(const json* value, lookup(variable, path));
            if (!append_text(*value, out))
                return invalid_input(path + ": expected ${" + variable + "} to be a string, number or array inside a "
                                     "longer string, found " + describe_json(*value) + " (\"${" + variable +
                                     "}\" alone inserts the whole value; ${" + variable + ".FIELD} one member)");
            i = close + 1;
        }
        return json(std::move(out));
    }

    const std::vector<Axis>& axes_;
    const std::vector<size_t>& index_;
};

Result<std::vector<Axis>> read_axes(const json& sweep, const std::string& path,
                                    const std::vector<std::string>& axis_order) {
    if (!sweep.is_object() || sweep.empty())
        return invalid_input(path + ": expected an object {\"AXIS\": [value, ...], ...} with at least one axis, found " +
                             (sweep.is_object() ? std::string("an empty object") : describe_json(sweep)));
    std::vector<std::string> names;
    for (const std::string& name : axis_order)
        if (sweep.contains(name) && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    for (auto it = sweep.begin(); it != sweep.end(); ++it)  // what axis_order lacks (text not from a file)
        if (std::find(names.begin(), names.end(), it.key()) == names.end()) names.push_back(it.key());
    std::vector<Axis> axes;
    for (const std::string& name : names) {
        const json& values = sweep[name];
        if (!is_axis_name(name))
            return invalid_input(path + "/" + name + ": expected an axis name of letters, digits and '_' not starting "
                                 "with a digit ('.' selects a member of an object value), found \"" + name + "\"");
        if (!values.is_array() || values.empty())
            return invalid_input(path + "/" + name + ": expected a non-empty array of values, found " +
                                 describe_json(values));
        axes.push_back({name, &values});
    }
    return axes;
}

}  // namespace

bool has_sweep(const json& case_value) { return case_value.is_object() && case_value.contains("sweep"); }

uint64_t count_json_values(const json& value) {
    uint64_t count = 1;
    if (value.is_structured())
        for (const json& item : value) count += count_json_values(item);
    return count;
}

Result<std::vector<SweepPoint>> expand_sweep(const json& case_value, const std::string& pointer,
                                             const std::vector<std::string>& axis_order, uint64_t& value_budget) {
    const std::string sweep_path = pointer + "/sweep";
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<Axis> axes, read_axes(case_value["sweep"], sweep_path, axis_order));
    json pattern = case_value;
    pattern.erase("sweep");
    const std::string name_pattern = pattern["name"].get<std::string>();
    // A name without ${...} is extended by the point: "name/axis=value/axis=value".
    const bool automatic_names = name_pattern.find("${") == std::string::npos;
    uint64_t points = 1;
    for (const Axis& axis : axes) points = saturating_multiply(points, axis.values->size());
    const uint64_t pattern_values = count_json_values(pattern);
    const auto over_budget = [&](const std::string& found) {
        return invalid_input(sweep_path + ": expected at most " + std::to_string(value_budget) +
                             " more JSON values in the file's expanded sweeps (--max-json-values), found " + found);
    };
    // Refused before anything is built: a few short axes can multiply into more points than memory holds.
    if (saturating_multiply(points, pattern_values) > value_budget)
        return over_budget(std::to_string(points) + " points of at least " + std::to_string(pattern_values) +
                           " values each");
    if (automatic_names)
        for (const Axis& axis : axes)
            for (size_t i = 0; i < axis.values->size(); ++i) {
                const json& v = (*axis.values)[i];
                std::string text;
                const bool named = v.is_object() ? v.contains("name") && append_text(v["name"], text) : append_text(v, text);
                if (!named)
                    return invalid_input(sweep_path + "/" + axis.name + "/" + std::to_string(i) +
                                         ": expected a value with a text for the automatic case name (an object needs "
                                         "a \"name\" member; or use ${...} in the case's name), found " +
                                         describe_json(v) + (v.is_object() ? " without \"name\"" : ""));
            }

    std::vector<SweepPoint> out;
    out.reserve(points);
    std::map<std::string, std::string> label_of_name;
    std::vector<size_t> index(axes.size(), 0);
    for (uint64_t p = 0; p < points; ++p) {
        SweepPoint point;
        for (size_t a = 0; a < axes.size(); ++a)
            point.label += (a ? "/" : "") + axes[a].name + "=" + value_label((*axes[a].values)[index[a]], index[a]);
        point.value = pattern;
        DMLTOOL_RETURN_IF_ERROR(Substituter(axes, index).substitute(point.value, pointer));
        json& name = point.value["name"];
        if (!name.is_string() || name.get_ref<const std::string&>().empty())
            return invalid_input(pointer + "/name: expected a non-empty string after substitution, found " +
                                 describe_json(name) + " at sweep point " + point.label);
        if (automatic_names) name = name_pattern + "/" + point.label;
        const auto [it, inserted] = label_of_name.emplace(name.get<std::string>(), point.label);
        if (!inserted)
            return invalid_input(pointer + "/name: expected a distinct name for every sweep point, found \"" +
                                 it->first + "\" for both " + it->second + " and " + point.label);
        const uint64_t values = count_json_values(point.value);
        if (values > value_budget) return over_budget("more at sweep point " + point.label);
        value_budget -= values;
        out.push_back(std::move(point));
        for (size_t a = axes.size(); a-- > 0;) {  // odometer: the last axis varies fastest
            if (++index[a] < axes[a].values->size()) break;
            index[a] = 0;
        }
    }
    return out;
}

}  // namespace dmltool
