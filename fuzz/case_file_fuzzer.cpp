// libFuzzer target: the bytes are the text of a case file. Everything dmltool does with untrusted case text
// before a device is involved runs here: JSON parsing, every case's desc validation and feature-level
// derivation, then for each valid case the host-memory gate, the inline tensor sources (values, random,
// sequence, constant) through the physical layout, the CPU reference, the comparison with "expected" and the
// operator's GPU kernel plan (DXBC emission). A crash, a sanitizer report or a hang in any of them is a bug:
// bad input must end as an INVALID or UNSUPPORTED status, never as anything else.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/case_spec.h"
#include "core/op_registry.h"
#include "core/runner.h"
#include "core/thread_pool.h"

namespace {

using namespace dmltool;

// Small enough that a case asking for a huge "random" tensor is refused by the tool's own memory gate
// (--max-host-memory) instead of exhausting the fuzzer's memory, large enough for the bundled small cases.
constexpr uint64_t kMaxHostBytes = 4ull << 20;
// Memory alone does not bound the reference's time: a convolution's MACs grow with the filter size too.
constexpr uint64_t kMaxReferenceOps = 1ull << 24;
// No such directory: HDF5 sources resolve under it and fail as a missing file without reading real files.
constexpr const char* kVirtualPath = "/nonexistent-dmltool-fuzz/case.json";

// What libFuzzer's C entry point cannot carry between calls, built on the first input.
struct FuzzHarness {
    OpRegistry registry = make_builtin_registry();
    ThreadPool pool{1};  // one input at a time: worker threads would only make runs less reproducible
    RunOptions options;
    Runner runner{options, pool, nullptr};

    FuzzHarness() { options.max_host_bytes = kMaxHostBytes; }
};

// A status the runner may give a case built from arbitrary text; anything else means dmltool misjudged it
// (a FAILED case here would be a reference that disagrees with itself, or an exception turned into a status).
bool acceptable(const CaseResult& result) {
    switch (result.status) {
        case CaseStatus::kInvalid:
        case CaseStatus::kUnsupported:
        case CaseStatus::kSkipped:
        case CaseStatus::kPassed:
        case CaseStatus::kFailed:      // "expected" written in the case may disagree with the reference
        case CaseStatus::kMistrusted:  // likewise: a constant expectation
            return !result.device_error && !result.reason.empty() == (result.status != CaseStatus::kPassed);
        case CaseStatus::kDeviates: return false;  // only a device with a deviation registry can deviate
    }
    return false;
}

void exercise_case(FuzzHarness& harness, const LoadedCase& loaded) {
    const CaseSpec& spec = loaded.spec;
    if (loaded.status.is_ok() && spec.op->work(*spec.desc).ops > kMaxReferenceOps) return;
    const CaseResult result = harness.runner.run(loaded);
    if (!acceptable(result)) std::abort();
    if (!loaded.status.is_ok() || result.status == CaseStatus::kUnsupported) return;
    // The kernel plan depends on the desc alone; a refusal (kUnsupported) is fine, a crash is not.
    (void)spec.op->plan_device(*spec.desc, harness.options.semantics);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static FuzzHarness harness;  // libFuzzer's interface leaves no other place for per-process state
    const std::string text(reinterpret_cast<const char*>(data), size);
    // A few bytes of sweep axes multiply into up to --max-json-values worth of cases, each then run on the CPU
    // reference: bound the expansion so that one input stays well inside the fuzzer's time limit (an input
    // of this size could never hold that many values written out).
    dmltool::CaseLoadLimits limits;
    limits.max_json_values = std::max<uint64_t>(uint64_t(1) << 14, size);
    const CaseFile file = dmltool::load_case_text(text, kVirtualPath, harness.registry, limits);
    for (const dmltool::LoadedCase& loaded : file.cases) exercise_case(harness, loaded);
    return 0;
}
