// Deviation registries (docs/semantics.md: DirectML deviations): per version of an implementation (DirectML.dll), the
// departures from the documented contract that were measured and are explained by a named model. Registries are
// data (gpu/directml/deviations/<version>.json, one file per DirectML version, each entry citing its evidence);
// the models are code in the operators' folders (Op::deviation_models). A backend output that breaks the contract
// but matches a registered model is DEVIATES instead of FAILED; one that matches neither stays FAILED.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/op_registry.h"
#include "core/status.h"

namespace dmltool {

struct DeviationEntry {
    std::string id;           // "dml-1.15.4/resample-nearest-8bit-floor-halfpixel": registry prefix + entry id
    std::string description;  // one line, printed with the verdict
    const Op* op = nullptr;
    std::vector<DataType> data_types;  // of the desc's first input tensor; empty: every type
    DeviationModel model;
    std::vector<std::string> devices;  // where it was measured ("lavapipe (Mesa 25.0.7) under Wine 8.0")
    std::string evidence;              // results/ file and command

    // Whether the entry speaks about this desc (operator, data type, the model's own predicate).
    bool applies(const Op& case_op, const OpDesc& desc) const;
};

struct DeviationRegistry {
    std::string implementation;  // "DirectML"
    std::string version;         // "1.15.4"
    std::string source;          // the file it was read from (embedded registries: "gpu/directml/deviations/...")
    std::vector<DeviationEntry> entries;
};

// Parses one registry file's text. Errors are kInvalidInput naming `source` and the JSON path of the member
// ("<source>: /deviations/1/model: expected a model of DML_OPERATOR_RESAMPLE (...), found 'x'").
Result<DeviationRegistry> parse_deviation_registry(const std::string& text, const std::string& source,
                                                   const OpRegistry& ops);

// Dotted numeric versions: "1.15.4" < "1.15.10"; a missing component counts as 0 ("1.15.4" == "1.15.4.0").
// nullopt when either is not dotted numbers.
std::optional<int> compare_versions(const std::string& a, const std::string& b);

// The registry for an implementation of `version` among `registries`: the same version, else the newest older
// one, with a note saying so; an unknown version (nullopt) takes the newest, with a note. Null (and a note) when
// none is old enough.
struct RegistryChoice {
    const DeviationRegistry* registry = nullptr;
    std::string note;  // empty when the version matched exactly
};
RegistryChoice choose_deviation_registry(const std::vector<DeviationRegistry>& registries,
                                         const std::optional<std::string>& version);

}  // namespace dmltool
