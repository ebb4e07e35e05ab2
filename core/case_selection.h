// Which cases of the given files a command works on: loading, the --filter regex, tags and sharding. Shared by
// dmltool's subcommands and the tools that take the same case files (tools/pipeline_stats).
#pragma once

#include <string>
#include <vector>

#include "core/case_spec.h"
#include "core/json_document.h"
#include "core/op_registry.h"
#include "core/status.h"

namespace dmltool {

// Which cases of the given files a command works on.
struct Selection {
    std::vector<std::string> files;
    std::string filter;  // ECMAScript regex searched in case names; empty = all
    std::vector<std::string> tags;          // keep cases having any of these tags
    std::vector<std::string> exclude_tags;  // drop cases having any of these tags
    unsigned shard_index = 0, shard_count = 1;
    CaseLoadLimits limits;  // what one case file may cost to read and parse
};

// Loads, filters and shards the selected cases. Files that fail to load appear as a CaseFile with a status.
struct SelectedCases {
    std::vector<CaseFile> files;           // owns everything
    std::vector<const CaseFile*> broken;   // files that could not be read at all
    std::vector<const LoadedCase*> cases;  // selected cases, in file order
};
Result<SelectedCases> select_cases(const Selection& selection, const OpRegistry& registry);

}  // namespace dmltool
