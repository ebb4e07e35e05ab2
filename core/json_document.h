// Reading and parsing untrusted JSON text with bounds: CI feeds dmltool case files written by anyone, so a
// file may not make dmltool read forever (/dev/zero), exhaust memory (a giant "values" array) or nest without
// end. Every refusal is one line naming what was expected and what was found.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace dmltool {

struct CaseLoadLimits {
    uint64_t max_file_bytes = 64ull << 20;  // --max-case-file-size (MiB)
    uint64_t max_json_values = 1ull << 22;  // --max-json-values: every number, string, array, object... counts
    // Far deeper than any case (a case object with 8-D nested "values" is ~15 levels), far shallower than
    // what could strain a stack in code that walks the document.
    uint32_t max_depth = 64;
};

struct JsonDocument {
    nlohmann::json root;
    // JSON pointer of the first member whose name repeats an earlier one in the same object (nlohmann keeps
    // the last silently; a case that states BlockSize twice is ambiguous, not "the later one wins").
    std::optional<std::string> first_duplicate_member;
    // The member names of every "sweep" object in the order written, by the object's JSON pointer
    // ("/cases/3/sweep"): a sweep's axes expand in that order, and nlohmann's objects keep only sorted keys.
    std::map<std::string, std::vector<std::string>> sweep_member_order;
};

// Errors start with `path` ("x.json: malformed JSON at line 3, column 5: ...").
Result<std::string> read_text_file(const std::string& path, const CaseLoadLimits& limits);
Result<JsonDocument> parse_json_document(const std::string& text, const std::string& path,
                                         const CaseLoadLimits& limits);

}  // namespace dmltool
