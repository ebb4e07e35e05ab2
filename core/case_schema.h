// The case format as a JSON Schema (draft 2020-12), and each operator's desc members, both taken from the code
// that validates cases: the operators' own derive_outputs and parse record what they read (core/json_reader.h,
// ScopedMemberRecording), the data types per tensor come from their feature-level tables. `dmltool schema` prints
// the schema, `dmltool list OPERATOR` the members; schema/dmltool-case.schema.json is a committed copy (a test
// checks that it is current).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/json_reader.h"
#include "core/op.h"
#include "core/op_registry.h"

namespace dmltool {

struct DescMember {
    MemberRead read;                    // key, kind, required, enum names, tensor role
    std::vector<std::string> data_types;  // tensors: every type some feature-level row allows, in table order
};

// The members `op` reads from a desc, in the order it reads them: the union over generated sample descs (so that
// members read only on some paths, e.g. SPLIT's OutputCount, are found). A member is required when every sample
// read it as required; output tensors never are (derive_outputs fills in the ones a case leaves out).
std::vector<DescMember> describe_desc_members(const Op& op);

// The schema of a case file: one case object or {"cases": [...]}.
nlohmann::json case_file_schema(const OpRegistry& registry);

// `dmltool list OPERATOR`: one line per member, "  Name  type  (required|optional)  ...".
std::string format_desc_members(const Op& op);

}  // namespace dmltool
