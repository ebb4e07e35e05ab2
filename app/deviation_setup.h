// How a run picks the deviation registry of each third-party backend (--deviations auto|none|FILE; docs/semantics.md: DirectML
// deviations): the registries dmltool ships, or one file, matched to the DLL's version.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/deviations.h"
#include "core/runner.h"

namespace dmltool::app {

// "auto" (default): the shipped registries (app/device.h); "none": no registry; anything else: the path of one
// registry file, used whatever the DLL's version. Errors in a file are kInvalidInput naming it and the JSON path.
Result<std::vector<DeviationRegistry>> load_deviation_registries(const std::string& choice, const OpRegistry& ops);

// Gives every DirectML backend of the run the registry for its DLL's version and prints one header line per
// backend on `out` saying which registry applies and why ("dmltool: deviations: ..."). `registries` must outlive
// the runner.
void attach_deviation_registries(Runner& runner, const std::vector<Backend*>& backends,
                                 const std::vector<DeviationRegistry>& registries, const std::string& choice,
                                 std::FILE* out);

// `dmltool list`: the shipped registries, and for a loaded DirectML version the entries that apply to it.
std::vector<std::string> describe_deviation_registries(const std::vector<DeviationRegistry>& registries,
                                                       const std::optional<std::string>& loaded_version);

}  // namespace dmltool::app
