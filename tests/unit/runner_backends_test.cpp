// The runner with several device backends (--backend all: dmltool's kernels and DirectML), and a backend with a
// maximum feature level (DirectML's CheckFeatureSupport), with fake backends in place of the devices.
#include <gtest/gtest.h>

#include <deque>

#include <nlohmann/json.hpp>

#include "core/report.h"
#include "core/runner.h"
#include "sample_cases.h"
#include "temp_dir.h"

namespace dmltool {
namespace {

using nlohmann::json;
using testing::d2s_case;
using testing::TempDir;

class LabelledBackend : public Backend {
public:
    explicit LabelledBackend(std::string label) : label_(std::move(label)) {}
    std::string name() const override { return label_ + " (fake)"; }
    std::string label() const override { return label_; }
    std::optional<FeatureLevel> max_feature_level() const override { return highest; }
    Result<std::vector<HostTensor>> execute(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                            BackendTiming*, std::byte) override {
        ++calls;
        if (!error.is_ok()) return error;
        return outputs;
    }
    Result<double> time_executions(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                   unsigned) override {
        return 0.0;
    }
    Result<DeviceRoofline> measure_roofline(uint64_t) override { return DeviceRoofline{}; }

    std::vector<HostTensor> outputs;
    Status error;
    std::optional<FeatureLevel> highest;
    int calls = 0;

private:
    std::string label_;
};

class RunnerBackendsTest : public ::testing::Test {
protected:
    const LoadedCase& load(const json& c) {
        files_.push_back(load_case_file(dir_.write("cases" + std::to_string(files_.size()) + ".json", c.dump(2)),
                                        registry_));
        EXPECT_TRUE(files_.back().status.is_ok()) << files_.back().status.message();
        return files_.back().cases.at(0);
    }
    // The d2s sample's correct output, with element 0 replaced by `first` when given.
    static HostTensor d2s_output(const LoadedCase& c, std::optional<uint32_t> first = std::nullopt) {
        HostTensor t(*c.spec.op->tensors(*c.spec.desc).at(1).desc);
        const uint32_t values[] = {10, 12, 11, 13, 14, 16, 15, 17};
        for (uint64_t i = 0; i < 8; ++i) t.set<uint32_t>(i, values[i]);
        if (first) t.set<uint32_t>(0, *first);
        return t;
    }

    TempDir dir_;
    OpRegistry registry_ = make_builtin_registry();
    ThreadPool pool_{2};
    RunOptions options_;
    std::deque<CaseFile> files_;
};

TEST_F(RunnerBackendsTest, ThreeWayComparesEachBackendWithTheReferenceAndWithEachOther) {
    const LoadedCase& c = load(d2s_case("d2s/three_way"));
    LabelledBackend gpu("gpu"), directml("directml");
    gpu.outputs.push_back(d2s_output(c));
    directml.outputs.push_back(d2s_output(c));
    options_.backend = BackendChoice::kAll;
    Runner runner(options_, pool_, std::vector<Backend*>{&gpu, &directml});
    CaseResult r = runner.run(c);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    std::vector<std::string> comparisons;
    for (const OutputReport& o : r.outputs) comparisons.push_back(o.comparison + (o.informational ? " (info)" : ""));
    EXPECT_EQ(comparisons, (std::vector<std::string>{"gpu vs reference", "directml vs reference",
                                                     "directml vs gpu (info)", "reference vs expected",
                                                     "gpu vs expected", "directml vs expected"}));
    EXPECT_NE(r.repro.find("--backend all"), std::string::npos) << r.repro;

    // DirectML wrong: the case fails, naming DirectML, and the two devices disagree.
    directml.outputs[0] = d2s_output(c, 99);
    CaseResult bad = runner.run(c);
    EXPECT_EQ(bad.status, CaseStatus::kFailed);
    EXPECT_NE(bad.reason.find("(directml vs reference)"), std::string::npos) << bad.reason;
    EXPECT_NE(bad.reason.find("[directml-only failure"), std::string::npos) << bad.reason;
    bool disagreement = false;
    for (const OutputReport& o : bad.outputs)
        disagreement |= o.comparison == "directml vs gpu" && o.result.verdict == Verdict::kFailed;
    EXPECT_TRUE(disagreement);

    // Both devices wrong: a failure of both, still not of the reference.
    gpu.outputs[0] = d2s_output(c, 98);
    CaseResult both = runner.run(c);
    EXPECT_NE(both.reason.find("[gpu+directml-only failure"), std::string::npos) << both.reason;
}

// Issue 30: each side of a failure line is named by its source; "got" alone read as "the reference is wrong".
TEST_F(RunnerBackendsTest, FailureLinesNameBothSides) {
    const LoadedCase& c = load(d2s_case("d2s/sides"));
    LabelledBackend gpu("gpu"), directml("directml");
    gpu.outputs.push_back(d2s_output(c, 98));
    directml.outputs.push_back(d2s_output(c, 99));
    options_.backend = BackendChoice::kAll;
    Runner runner(options_, pool_, std::vector<Backend*>{&gpu, &directml});
    CaseResult r = runner.run(c);
    std::vector<std::string> lines;
    for (const OutputReport& o : r.outputs)
        if (!o.result.mismatches.empty()) lines.push_back(o.comparison + ": " + format_mismatch(o.result.mismatches[0], o.result));
    EXPECT_EQ(lines, (std::vector<std::string>{
                         "gpu vs reference: [0,0,0,0] reference 10, gpu 98: |diff| 88, 88 ulp",
                         "directml vs reference: [0,0,0,0] reference 10, directml 99: |diff| 89, 89 ulp",
                         "directml vs gpu: [0,0,0,0] gpu 98, directml 99: |diff| 1, 1 ulp",
                         "gpu vs expected: [0,0,0,0] expected (file) 10, gpu 98: |diff| 88, 88 ulp",
                         "directml vs expected: [0,0,0,0] expected (file) 10, directml 99: |diff| 89, 89 ulp"}));
}

TEST_F(RunnerBackendsTest, BackendThatCannotRunTheCaseMakesItUnsupportedNeverPassed) {
    const LoadedCase& c = load(d2s_case("d2s/rejected"));
    LabelledBackend gpu("gpu"), directml("directml");
    gpu.outputs.push_back(d2s_output(c));
    directml.error = unsupported("DirectML rejected a desc that dmltool validated: IDMLDevice::CreateOperator(...) "
                                 "returned E_INVALIDARG (0x80070057)");
    options_.backend = BackendChoice::kAll;
    Runner runner(options_, pool_, std::vector<Backend*>{&gpu, &directml});
    CaseResult r = runner.run(c);
    EXPECT_EQ(r.status, CaseStatus::kUnsupported);
    EXPECT_NE(r.reason.find("directml: DirectML rejected a desc"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("(gpu matched the reference)"), std::string::npos) << r.reason;

    // A failure of the other backend still wins over UNSUPPORTED.
    gpu.outputs[0] = d2s_output(c, 5);
    CaseResult failed = runner.run(c);
    EXPECT_EQ(failed.status, CaseStatus::kFailed);
    EXPECT_NE(failed.reason.find("[directml: DirectML rejected"), std::string::npos) << failed.reason;
}

TEST_F(RunnerBackendsTest, CasesAboveTheBackendsMaximumFeatureLevelAreUnsupported) {
    json case_json = d2s_case("d2s/fl");
    const LoadedCase& c = load(case_json);
    ASSERT_EQ(c.spec.min_feature_level, fl(2, 1));
    LabelledBackend directml("directml");
    directml.highest = fl(2, 0);
    directml.outputs.push_back(d2s_output(c));
    options_.backend = BackendChoice::kDirectml;
    Runner runner(options_, pool_, &directml);
    CaseResult r = runner.run(c);
    EXPECT_EQ(r.status, CaseStatus::kUnsupported);
    EXPECT_NE(r.reason.find("needs feature level 2_1, above directml's maximum 2_0"), std::string::npos) << r.reason;
    EXPECT_EQ(directml.calls, 0);

    directml.highest = fl(6, 4);
    EXPECT_EQ(runner.run(c).status, CaseStatus::kPassed);
    EXPECT_EQ(directml.calls, 1);
}

TEST_F(RunnerBackendsTest, SummaryCountsDisagreementsPerComparison) {
    const LoadedCase& c = load(d2s_case("d2s/summary"));
    LabelledBackend gpu("gpu"), directml("directml");
    gpu.outputs.push_back(d2s_output(c));
    directml.outputs.push_back(d2s_output(c, 7));
    options_.backend = BackendChoice::kAll;
    Runner runner(options_, pool_, std::vector<Backend*>{&gpu, &directml});
    std::vector<CaseResult> results{runner.run(c)};
    std::FILE* out = std::tmpfile();
    ASSERT_NE(out, nullptr);
    print_summary(out, summarize(results, 1.0), results);
    std::string printed(4096, '\0');
    std::rewind(out);
    printed.resize(std::fread(printed.data(), 1, printed.size(), out));
    std::fclose(out);
    EXPECT_NE(printed.find("directml vs gpu 1/1; directml vs reference 1/1; gpu vs expected 0/1; gpu vs reference 0/1"),
              std::string::npos)
        << printed;
}

}  // namespace
}  // namespace dmltool
