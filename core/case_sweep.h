// Sweeps (docs/case-format.md: Sweeps, a dmltool extension of the case format): a case object may carry
// "sweep": {"AXIS": [value, ...], ...}. It stands for the cartesian product of its axes (in the order written, the
// last axis varying fastest), one case per point, with ${AXIS} and ${AXIS.FIELD} in its strings replaced by the
// point's values. Expansion is JSON -> JSON: the expanded cases are then loaded exactly like written ones.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool {

struct SweepPoint {
    nlohmann::json value;  // the case object of this point, without "sweep"
    std::string label;     // "dtype=FLOAT32/order=dcr": names the point in messages and automatic case names
};

// Whether a case object declares a sweep.
bool has_sweep(const nlohmann::json& case_value);

// Expands a case object with a "sweep" member (whose "name" is a non-empty string). `pointer` is the case's JSON
// pointer for messages ("/cases/3", "" for a one-case file); `axis_order` the sweep's member names as written
// (JSON objects do not keep it; empty: alphabetical). `value_budget` is how many JSON values the expanded cases
// of the file may still hold (--max-json-values); the points' values are taken from it. Errors name a JSON path.
Result<std::vector<SweepPoint>> expand_sweep(const nlohmann::json& case_value, const std::string& pointer,
                                             const std::vector<std::string>& axis_order, uint64_t& value_budget);

// The number of JSON values in `value` (every number, string, array, object... counts, as for --max-json-values).
uint64_t count_json_values(const nlohmann::json& value);

}  // namespace dmltool
