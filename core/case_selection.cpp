#include "core/case_selection.h"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>

namespace dmltool {

Result<SelectedCases> select_cases(const Selection& selection, const OpRegistry& registry) {
    std::optional<std::regex> filter;
    if (!selection.filter.empty()) {
        try {
            filter.emplace(selection.filter, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            return invalid_input("--filter: expected a regular expression, found '" + selection.filter + "' (" +
                                 e.what() + ")");
        }
    }
    SelectedCases out;
    out.files.reserve(selection.files.size());
    for (const std::string& path : selection.files) out.files.push_back(load_case_file(path, registry, selection.limits));
    auto has_any = [](const std::vector<std::string>& tags, const std::vector<std::string>& wanted) {
        return std::any_of(wanted.begin(), wanted.end(),
                           [&](const std::string& t) { return std::find(tags.begin(), tags.end(), t) != tags.end(); });
    };
    // Reports, `compare` and the results store key cases by name: two cases of one name in a run would be paired
    // with each other's results (a report compared with itself once paired two different cases).
    std::map<std::string, const std::string*> first_file;
    for (const CaseFile& file : out.files)
        for (const LoadedCase& c : file.cases) {
            if (c.spec.name.empty() || !c.status.is_ok()) continue;  // a name repeated in one file: INVALID at load
            auto [it, inserted] = first_file.emplace(c.spec.name, &file.path);
            if (!inserted)
                return invalid_input("case '" + c.spec.name + "': expected each case name once in a run, found it in " +
                                     (*it->second == file.path ? file.path + ", given twice" : *it->second + " and in " + file.path));
        }
    size_t position = 0;
    for (const CaseFile& file : out.files) {
        if (!file.status.is_ok()) {
            out.broken.push_back(&file);
            continue;
        }
        for (const LoadedCase& c : file.cases) {
            if (filter && !std::regex_search(c.spec.name, *filter)) continue;
            if (!selection.tags.empty() && !has_any(c.spec.tags, selection.tags)) continue;
            if (has_any(c.spec.tags, selection.exclude_tags)) continue;
            // Round-robin sharding over the filtered list: shards get similar mixes of operators.
            if (position++ % selection.shard_count != selection.shard_index) continue;
            out.cases.push_back(&c);
        }
    }
    return out;
}

}  // namespace dmltool
