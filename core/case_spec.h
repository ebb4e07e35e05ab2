// CaseSpec is one parsed test case of a case file (docs/case-format.md): the operator and its validated desc,
// where each input and expected output comes from, tolerance overrides and labels. Loading never throws and
// never stops at the first bad case: each case carries its own Status, so one typo makes one INVALID case.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/feature_level.h"
#include "core/json_document.h"
#include "core/op.h"
#include "core/op_registry.h"
#include "core/status.h"

namespace dmltool {

// A JSON number kept exactly: 64-bit integers are not squeezed through double.
struct ScalarValue {
    enum class Kind { kSigned, kUnsigned, kFloat } kind = Kind::kFloat;
    int64_t i = 0;
    uint64_t u = 0;
    double f = 0;
    double as_double() const;
};

struct Hdf5Source {
    std::string file;  // as written, relative to the case file's directory
    std::string dataset;
};
struct ValuesSource {
    std::vector<ScalarValue> values;  // flattened row-major
};
struct RandomSource {
    uint64_t seed = 0;
    ScalarValue min, max;
};
struct SequenceSource {
    ScalarValue start, step;
};
struct ConstantSource {
    ScalarValue value;
};

struct TensorSource {
    std::variant<Hdf5Source, ValuesSource, RandomSource, SequenceSource, ConstantSource> kind;
    std::string json_path;  // e.g. "/inputs/InputTensor", for messages
};

struct ToleranceOverride {
    std::optional<uint64_t> ulp;
    std::optional<double> abs;
};

struct CaseSpec {
    std::string file;                 // the case file as given on the command line
    std::filesystem::path base_dir;  // its directory: relative HDF5 paths resolve here
    size_t index_in_file = 0;
    std::string name;
    std::string description;
    std::vector<std::string> tags;
    std::optional<FeatureLevel> claimed_feature_level;
    std::string operator_type;  // as written
    const Op* op = nullptr;
    std::unique_ptr<OpDesc> desc;
    FeatureLevel min_feature_level;
    std::map<std::string, TensorSource> inputs;    // by slot name: "InputTensor"
    std::map<std::string, TensorSource> expected;  // by slot name: "OutputTensor", "OutputTensors[1]"
    std::map<std::string, ToleranceOverride> tolerance;  // by desc field: "OutputTensor", "OutputTensors"
    std::string tolerance_reason;
};

struct LoadedCase {
    CaseSpec spec;   // name/file are filled even when the case is invalid (for reports)
    Status status;   // not ok: the case is INVALID with this message
    // Only when loaded with keep_expanded_json and valid: the case object as loaded (a sweep point expanded,
    // derived outputs and omitted random parameters filled in), for `dmltool list --json`.
    nlohmann::json expanded;
};

struct CaseFile {
    std::string path;
    Status status;  // not ok: the whole file is unusable (unreadable, malformed JSON, wrong top level)
    std::vector<LoadedCase> cases;
};

// `limits` bound what an untrusted file may cost before any case is judged (core/json_document.h). A case with a
// "sweep" becomes one case per point (core/case_sweep.h), in file order.
CaseFile load_case_file(const std::string& path, const OpRegistry& registry, const CaseLoadLimits& limits = {},
                        bool keep_expanded_json = false);
// The same for text already in memory (the fuzzer's input); `path` names it in messages and is where relative
// HDF5 paths resolve from, as if the text had been read from there.
CaseFile load_case_text(const std::string& text, const std::string& path, const OpRegistry& registry,
                        const CaseLoadLimits& limits = {}, bool keep_expanded_json = false);

// "file.json: case 'name'" prefix used by every message about a case.
std::string case_context(const CaseSpec& spec);

}  // namespace dmltool
