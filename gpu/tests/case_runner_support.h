// For GPU tests that go through the whole harness: writes JSON cases to a scratch folder, loads them with the
// real loader and runs them with the real Runner on a given Backend (a GpuBackend, or one wrapping it), so the
// statuses, messages and exit codes they check are the ones `dmltool run` produces.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/op_registry.h"
#include "core/report.h"
#include "core/runner.h"
#include "tests/unit/sample_cases.h"
#include "tests/unit/temp_dir.h"

namespace dmltool::gpu_case_testing {

using dmltool::testing::d2s_case;

class CaseRunner {
public:
    CaseRunner() { options_.backend = BackendChoice::kBoth; }

    RunOptions& options() { return options_; }
    const OpRegistry& registry() const { return registry_; }

    // Loads `cases` as one file and runs each, in order, with one Runner (device state carries over).
    std::vector<CaseResult> run(const std::vector<nlohmann::json>& cases, Backend* backend) {
        const std::string path = dir_.write("cases" + std::to_string(files_.size()) + ".json",
                                            nlohmann::json{{"cases", cases}}.dump(2));
        files_.push_back(load_case_file(path, registry_));
        EXPECT_TRUE(files_.back().status.is_ok()) << files_.back().status.message();
        Runner runner(options_, pool_, backend);
        std::vector<CaseResult> results;
        for (const LoadedCase& c : files_.back().cases) {
            EXPECT_TRUE(c.status.is_ok()) << c.status.message();
            results.push_back(runner.run(c));
        }
        return results;
    }

private:
    dmltool::testing::TempDir dir_;
    OpRegistry registry_ = make_builtin_registry();
    ThreadPool pool_{2};
    RunOptions options_;
    std::deque<CaseFile> files_;  // the results' specs point into them
};

}  // namespace dmltool::gpu_case_testing
