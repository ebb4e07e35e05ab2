#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>

#include <nlohmann/json.hpp>

#include "core/report.h"
#include "core/runner.h"
#include "sample_cases.h"
#include "tests/testing/op_testing.h"
#include "temp_dir.h"

namespace dmltool {
namespace {

using nlohmann::json;
using testing::TempDir;

using testing::d2s_case;

// Returns fixed outputs (or an error) in place of a GPU, to exercise the runner's backend path.
class FakeBackend : public Backend {
public:
    std::string name() const override { return "fake"; }
    Result<std::vector<HostTensor>> execute(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                            BackendTiming* timing, std::byte poison) override {
        ++calls;
        poisons.push_back(poison);
        if (!error.is_ok()) return error;
        if (outputs.empty()) return internal_error("fake backend: no outputs set");
        if (timing) timing->first_ms = 1.5;
        if (!writes_nothing) return outputs;
        std::vector<HostTensor> untouched = outputs;  // a kernel that writes nothing leaves the poison fill
        for (HostTensor& t : untouched) std::memset(t.bytes().data(), int(poison), t.bytes().size());
        return untouched;
    }
    Result<double> time_executions(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                   unsigned) override {
        return 0.0;
    }
    Result<DeviceRoofline> measure_roofline(uint64_t) override { return DeviceRoofline{}; }
    Status check_capacity(const Op&, const OpDesc&) override { return capacity; }
    bool lost() const override { return is_lost; }
    Status recover() override {
        ++recoveries;
        if (recover_error.is_ok()) is_lost = false;
        return recover_error;
    }
    std::vector<HostTensor> outputs;
    Status error;
    Status capacity;
    bool is_lost = false;
    Status recover_error;
    int calls = 0;
    int recoveries = 0;
    bool writes_nothing = false;
    std::vector<std::byte> poisons;
};

class RunnerTest : public ::testing::Test {
protected:
    // Loads `cases` as one file; the CaseFile must outlive the results (specs point into it).
    const CaseFile& load(const std::vector<json>& cases) {
        files_.push_back(load_case_file(dir_.write("cases" + std::to_string(files_.size()) + ".json",
                                                   json{{"cases", cases}}.dump(2)),
                                        registry_));
        EXPECT_TRUE(files_.back().status.is_ok()) << files_.back().status.message();
        return files_.back();
    }
    CaseResult run_one(const json& c, Backend* backend = nullptr) {
        const CaseFile& f = load({c});
        Runner runner(options_, pool_, backend);
        return runner.run(f.cases.at(0));
    }
    std::string file(size_t index) const { return (dir_.path() / ("cases" + std::to_string(index) + ".json")).string(); }

    TempDir dir_;
    OpRegistry registry_ = make_builtin_registry();
    ThreadPool pool_{2};
    RunOptions options_;
    std::deque<CaseFile> files_;
};

TEST_F(RunnerTest, Passed) {
    CaseResult r = run_one(d2s_case("d2s/pass"));
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    EXPECT_EQ(r.name, "d2s/pass");
    EXPECT_EQ(r.op, "DEPTH_TO_SPACE1");
    EXPECT_EQ(r.feature_level, fl(2, 1));
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].output, "OutputTensor");
    EXPECT_EQ(r.outputs[0].comparison, "reference vs expected");
    EXPECT_EQ(r.outputs[0].result.element_count, 8u);
    EXPECT_TRUE(r.outputs[0].tolerance.bitwise);  // data movement is compared bit-exactly by default
    EXPECT_EQ(r.repro, "dmltool run '" + file(0) + "' --filter '^d2s/pass$' --backend cpu");
}

// `dmltool bench` times a case on the inputs its check ran on: the very tensors prepare_inputs makes, handed out
// only once the case got as far as comparing (not for a case refused before running).
TEST_F(RunnerTest, HandsOutTheInputsItRanOn) {
    const CaseFile& f = load({d2s_case("d2s/inputs")});
    Runner runner(options_, pool_, nullptr);
    std::vector<HostTensor> used;
    ASSERT_EQ(runner.run(f.cases.at(0), &used).status, CaseStatus::kPassed);
    auto prepared = runner.prepare_inputs(f.cases.at(0).spec);
    ASSERT_TRUE(prepared.is_ok()) << prepared.status().message();
    ASSERT_EQ(used.size(), prepared->size());
    for (size_t i = 0; i < used.size(); ++i) {
        EXPECT_EQ(used[i].desc().sizes, (*prepared)[i].desc().sizes) << i;
        EXPECT_TRUE(std::ranges::equal(used[i].bytes(), (*prepared)[i].bytes())) << i;
    }
    json above_cap = d2s_case("d2s/refused");
    options_.feature_level_cap = fl(1, 0);
    const CaseFile& g = load({above_cap});
    Runner capped(options_, pool_, nullptr);
    std::vector<HostTensor> none;
    EXPECT_EQ(capped.run(g.cases.at(0), &none).status, CaseStatus::kUnsupported);
    EXPECT_TRUE(none.empty());
}

TEST_F(RunnerTest, FailedWithMismatchDetails) {
    json c = d2s_case("d2s/fail");
    c["expected"]["OutputTensor"]["values"][6] = 99;
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kFailed);
    EXPECT_EQ(r.reason, file(0) + ": case 'd2s/fail': OutputTensor (reference vs expected): 1 of 8 elements outside "
                                  "tolerance (bit-exact)");
    ASSERT_EQ(r.outputs.at(0).result.mismatches.size(), 1u);
    const Mismatch& m = r.outputs[0].result.mismatches[0];
    EXPECT_EQ(m.coordinates, (std::vector<uint32_t>{0, 0, 1, 2}));
    EXPECT_EQ(m.expected, "99");
    EXPECT_EQ(m.got, "15");
}

TEST_F(RunnerTest, ToleranceOverrideApplies) {
    json c = d2s_case("d2s/tolerant");
    c["expected"]["OutputTensor"]["values"][6] = 16;
    c["tolerance"] = {{"OutputTensor", {{"abs", 1}}}, {"reason", "unit test"}};
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    EXPECT_FALSE(r.outputs.at(0).tolerance.bitwise);
    EXPECT_EQ(r.outputs[0].tolerance.abs, 1.0);
    EXPECT_EQ(r.outputs[0].tolerance.reason, "unit test");
}

TEST_F(RunnerTest, UnsupportedAboveFeatureLevelCap) {
    json c = d2s_case("d2s/f64");
    c["operator"]["desc"]["InputTensor"]["DataType"] = "FLOAT64";
    c["operator"]["desc"]["OutputTensor"]["DataType"] = "FLOAT64";
    options_.feature_level_cap = fl(4, 1);
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kUnsupported);
    EXPECT_EQ(r.reason, file(0) + ": case 'd2s/f64': needs feature level 5_0 (derived from the DEPTH_TO_SPACE1 "
                                  "tables), above the cap 4_1 (--feature-level)");
    EXPECT_NE(r.repro.find(" --feature-level 4_1"), std::string::npos);  // the repro keeps the cap
    options_.feature_level_cap = fl(5, 0);
    EXPECT_EQ(run_one(c).status, CaseStatus::kPassed);
}

TEST_F(RunnerTest, SkippedWithoutExpectedOrBackend) {
    json c = d2s_case("d2s/skip");
    c.erase("expected");
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kSkipped);
    EXPECT_NE(r.reason.find("nothing to compare"), std::string::npos) << r.reason;
    EXPECT_TRUE(r.outputs.empty());
}

TEST_F(RunnerTest, InvalidWhenExplicitDataConflictsWithBroadcast) {
    json c = d2s_case("d2s/broadcast");
    c["operator"]["desc"]["InputTensor"] = {{"DataType", "UINT32"}, {"Sizes", {2, 4, 1, 2}}, {"Strides", {0, 2, 2, 1}}};
    c["operator"]["desc"]["OutputTensor"]["Sizes"] = {2, 1, 2, 4};
    // Batch 1 differs from batch 0 although both read the same buffer locations.
    c["inputs"]["InputTensor"]["values"] = {10, 11, 12, 13, 14, 15, 16, 17, 10, 11, 12, 13, 14, 15, 16, 99};
    c["expected"]["OutputTensor"]["values"] = {10, 12, 11, 13, 14, 16, 15, 17, 10, 12, 11, 13, 14, 16, 15, 17};
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kInvalid);
    EXPECT_NE(r.reason.find("case 'd2s/broadcast': /cases/0/inputs/InputTensor: expected data consistent with the Strides "
                            "{0,2,2,1} of InputTensor (elements that share a buffer location must be equal), found "
                            "element [0,3,0,1] = 17.000000 where its location holds 99.000000"),
              std::string::npos)
        << r.reason;
    // Consistent data through the same broadcast passes.
    c["inputs"]["InputTensor"]["values"][15] = 17;
    EXPECT_EQ(run_one(c).status, CaseStatus::kPassed);
}

TEST_F(RunnerTest, PaddedOutputStridesCompareOnlyAddressedElements) {
    json c = d2s_case("d2s/padded");
    c["operator"]["desc"]["OutputTensor"]["Strides"] = {16, 16, 8, 1};
    c["operator"]["desc"]["OutputTensor"]["TotalTensorSizeInBytes"] = 128;
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
}

TEST_F(RunnerTest, InvalidLoadedCaseStaysInvalid) {
    json c = d2s_case("d2s/bad");
    c["operator"]["desc"]["BlockSize"] = 0;
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kInvalid);
    EXPECT_NE(r.reason.find("case 'd2s/bad': /cases/0/operator/desc/BlockSize: expected at least 1, found 0"), std::string::npos)
        << r.reason;
}

TEST_F(RunnerTest, InvalidSourceValues) {
    json c = d2s_case("d2s/range");
    c["inputs"]["InputTensor"]["values"][0] = -1;
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kInvalid);
    EXPECT_NE(r.reason.find("case 'd2s/range': /cases/0/inputs/InputTensor/values[0]: expected an integer in [0, "
                            "4294967295] for UINT32, found -1"),
              std::string::npos)
        << r.reason;
}

TEST_F(RunnerTest, MissingHdf5FileIsInvalid) {
    json c = d2s_case("d2s/nofile");
    c["inputs"]["InputTensor"] = {{"hdf5", "missing.h5"}, {"dataset", "/x"}};
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kInvalid);
    EXPECT_NE(r.reason.find("case 'd2s/nofile': /cases/0/inputs/InputTensor: HDF5 file '"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("missing.h5': no such file"), std::string::npos) << r.reason;
}

// A constant expectation is proven by producing the outputs with two fills that each fail everywhere.
TEST_F(RunnerTest, ConstantExpectationProvenOnTheReference) {
    json c = d2s_case("d2s/constant");
    c["inputs"]["InputTensor"] = {{"constant", 3}};
    c["expected"]["OutputTensor"] = {{"constant", 3}};
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    ASSERT_EQ(r.outputs.size(), 1u);
    EXPECT_EQ(r.outputs[0].note, "constant expectation, writes proven with two poison patterns (0x00, 0x5a)");
}

TEST_F(RunnerTest, ConstantExpectationProvenOnTheDevice) {
    json c = d2s_case("d2s/constant");
    c["inputs"]["InputTensor"] = {{"constant", 3}};
    c["expected"]["OutputTensor"] = {{"constant", 3}};
    FakeBackend fake;
    HostTensor threes(testing::packed_desc(DataType::kUint32, {1, 1, 2, 4}));
    for (uint64_t i = 0; i < 8; ++i) threes.set<uint32_t>(i, 3);
    fake.outputs.push_back(threes);
    CaseResult r = run_one(c, &fake);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    EXPECT_EQ(fake.poisons, (std::vector<std::byte>{kDefaultOutputPoison, std::byte{0x5a}}));
    for (const OutputReport& o : r.outputs) EXPECT_NE(o.note.find("proven with two poison patterns"), std::string::npos);
}

// A device that writes nothing, where the expected constant is exactly the default poison pattern: the first run
// matches, the proof's runs with other fills do not.
TEST_F(RunnerTest, ConstantExpectationUnprovenWhenNothingIsWritten) {
    json c = d2s_case("d2s/constant_poison");
    c["inputs"]["InputTensor"] = {{"constant", 0xcdcdcdcdu}};
    c["expected"]["OutputTensor"] = {{"constant", 0xcdcdcdcdu}};
    FakeBackend fake;
    fake.writes_nothing = true;
    fake.outputs.emplace_back(testing::packed_desc(DataType::kUint32, {1, 1, 2, 4}));
    CaseResult r = run_one(c, &fake);
    EXPECT_EQ(r.status, CaseStatus::kMistrusted) << r.reason;
    EXPECT_NE(r.reason.find("gpu vs reference"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("expected output is constant"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("writes not proven: with the outputs filled with 0x5a first"), std::string::npos) << r.reason;
}

// Host copies of the 32-byte tensors: the input's source values, its values read back and its physical image
// (96 bytes); the output's reference values, their physical image, the values read back and the expectation
// (128 bytes). Refused before anything is materialised.
TEST_F(RunnerTest, MemoryBudget) {
    options_.max_host_bytes = 223;
    CaseResult r = run_one(d2s_case("d2s/budget"));
    EXPECT_EQ(r.status, CaseStatus::kUnsupported);
    EXPECT_EQ(r.reason, file(0) + ": case 'd2s/budget': needs about 224 bytes of host memory (OutputTensor 128 bytes "
                                  "of it), more than the 223 bytes allowed (--max-host-memory)");
    EXPECT_EQ(r.reference_ms, 0);
    options_.max_host_bytes = 224;
    EXPECT_EQ(run_one(d2s_case("d2s/budget")).status, CaseStatus::kPassed);
}

TEST_F(RunnerTest, HostBytesOverflowingIsInvalid) {
    json c = d2s_case("d2s/huge");
    c["operator"]["desc"]["OutputTensor"]["TotalTensorSizeInBytes"] = json::parse("18446744073709551600");
    CaseResult r = run_one(c);
    EXPECT_EQ(r.status, CaseStatus::kInvalid) << r.reason;
    EXPECT_NE(r.reason.find("case 'd2s/huge': OutputTensor: its byte counts overflow 64 bits"), std::string::npos)
        << r.reason;
}

// The device's up-front refusal (limits, budget) comes before the reference work and the device run.
TEST_F(RunnerTest, DeviceCapacityRefusedUpFront) {
    const CaseFile& f = load({d2s_case("d2s/big")});
    FakeBackend backend;
    backend.capacity = unsupported("needs 64 bytes of device memory (...), more than the 48 bytes allowed");
    backend.error = device_error("executed although refused");
    Runner runner(options_, pool_, &backend);
    CaseResult r = runner.run(f.cases.at(0));
    EXPECT_EQ(r.status, CaseStatus::kUnsupported);
    EXPECT_EQ(r.reason, file(0) + ": case 'd2s/big': fake: needs 64 bytes of device memory (...), more than the 48 "
                                  "bytes allowed");
    EXPECT_EQ(backend.calls, 0);
    EXPECT_EQ(r.reference_ms, 0);
    EXPECT_FALSE(r.device_error);
}

TEST_F(RunnerTest, BackendMatchingPasses) {
    const CaseFile& f = load({d2s_case("d2s/gpu")});
    FakeBackend backend;
    TensorDesc out = *f.cases.at(0).spec.op->tensors(*f.cases[0].spec.desc).at(1).desc;
    HostTensor good(out);
    const uint32_t values[] = {10, 12, 11, 13, 14, 16, 15, 17};
    for (uint64_t i = 0; i < 8; ++i) good.set<uint32_t>(i, values[i]);
    backend.outputs.push_back(good);
    options_.backend = BackendChoice::kBoth;
    Runner runner(options_, pool_, &backend);
    CaseResult r = runner.run(f.cases[0]);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    EXPECT_EQ(backend.calls, 1);
    ASSERT_EQ(r.outputs.size(), 3u);
    EXPECT_EQ(r.outputs[0].comparison, "gpu vs reference");
    EXPECT_EQ(r.outputs[1].comparison, "reference vs expected");
    EXPECT_EQ(r.outputs[2].comparison, "gpu vs expected");
    EXPECT_EQ(r.backend_ms, 1.5);

    // A wrong device output is a GPU-only failure when the reference matches the expectation.
    backend.outputs[0].set<uint32_t>(0, 0);
    CaseResult bad = runner.run(f.cases[0]);
    EXPECT_EQ(bad.status, CaseStatus::kFailed);
    EXPECT_NE(bad.reason.find("OutputTensor (gpu vs reference): 1 of 8 elements outside tolerance"), std::string::npos)
        << bad.reason;
    EXPECT_NE(bad.reason.find("[GPU-only failure: the reference matches the expected outputs]"), std::string::npos);
}

TEST_F(RunnerTest, BackendDeviceErrorMarksTheRun) {
    const CaseFile& f = load({d2s_case("d2s/lost")});
    FakeBackend backend;
    backend.error = device_error("device removed");
    Runner runner(options_, pool_, &backend);
    CaseResult r = runner.run(f.cases.at(0));
    EXPECT_EQ(r.status, CaseStatus::kFailed);
    EXPECT_TRUE(r.device_error);
    EXPECT_EQ(r.reason, file(0) + ": case 'd2s/lost': fake: device removed");
    EXPECT_EQ(exit_code_for(summarize({r}, 0)), 3);
}

// A lost device is recreated before the next case; the case that lost it reported the fault.
TEST_F(RunnerTest, LostDeviceIsRecreatedForTheNextCase) {
    const CaseFile& f = load({d2s_case("d2s/a"), d2s_case("d2s/b")});
    FakeBackend backend;
    backend.error = device_error("upload: GPU execution failed: DXGI_ERROR_DEVICE_REMOVED (0x887a0005)");
    Runner runner(options_, pool_, &backend);
    CaseResult lost = runner.run(f.cases.at(0));
    EXPECT_EQ(lost.status, CaseStatus::kFailed);
    EXPECT_TRUE(lost.device_error);
    backend.is_lost = true;
    backend.error = Status::ok();
    backend.outputs.push_back(HostTensor(*f.cases[1].spec.op->tensors(*f.cases[1].spec.desc).at(1).desc));
    const uint32_t values[] = {10, 12, 11, 13, 14, 16, 15, 17};
    for (uint64_t i = 0; i < 8; ++i) backend.outputs[0].set<uint32_t>(i, values[i]);
    CaseResult next = runner.run(f.cases.at(1));
    EXPECT_EQ(backend.recoveries, 1);
    EXPECT_EQ(next.status, CaseStatus::kPassed) << next.reason;
    EXPECT_FALSE(next.device_error);
    EXPECT_EQ(backend.calls, 2);
}

// Re-creation is tried once; afterwards every case runs its CPU reference part only and says why.
TEST_F(RunnerTest, FailedRecreationLeavesTheReferenceParts) {
    json wrong = d2s_case("d2s/wrong");
    wrong["expected"]["OutputTensor"]["values"][6] = 99;
    json bare = d2s_case("d2s/bare");
    bare.erase("expected");
    const CaseFile& f = load({d2s_case("d2s/ok"), wrong, bare});
    FakeBackend backend;
    backend.is_lost = true;
    backend.recover_error = device_error("vkd3d_create_device failed: E_FAIL (0x80004005)");
    Runner runner(options_, pool_, &backend);
    CaseResult ok = runner.run(f.cases.at(0));
    EXPECT_EQ(ok.status, CaseStatus::kSkipped);
    EXPECT_TRUE(ok.device_error);  // the case that tried the re-creation reports its failure
    EXPECT_EQ(ok.reason, file(0) + ": case 'd2s/ok': fake not run: vkd3d_create_device failed: E_FAIL (0x80004005); "
                                   "the CPU reference matches the expected outputs");
    CaseResult failed = runner.run(f.cases.at(1));
    EXPECT_EQ(failed.status, CaseStatus::kFailed);
    EXPECT_FALSE(failed.device_error);
    EXPECT_EQ(failed.reason, file(0) + ": case 'd2s/wrong': OutputTensor (reference vs expected): 1 of 8 elements "
                                       "outside tolerance (bit-exact) [fake not run: vkd3d_create_device failed: E_FAIL "
                                       "(0x80004005)]");
    CaseResult bare_result = runner.run(f.cases.at(2));
    EXPECT_EQ(bare_result.status, CaseStatus::kSkipped);
    EXPECT_EQ(bare_result.reason, file(0) + ": case 'd2s/bare': fake not run: vkd3d_create_device failed: E_FAIL "
                                            "(0x80004005)");
    EXPECT_EQ(backend.recoveries, 1);
    EXPECT_EQ(backend.calls, 0);
    EXPECT_EQ(exit_code_for(summarize({ok, failed, bare_result}, 0)), 3);
}

TEST_F(RunnerTest, InvalidFileBecomesOneResult) {
    CaseFile broken;
    broken.path = "x.json";
    broken.status = invalid_input("x.json: malformed JSON at line 1, column 2: syntax error");
    CaseResult r = Runner::invalid_file(broken);
    EXPECT_EQ(r.status, CaseStatus::kInvalid);
    EXPECT_EQ(r.file, "x.json");
    EXPECT_EQ(r.reason, broken.status.message());
}

TEST(ReproCommand, QuotesAndEscapes) {
    CaseSpec spec;
    spec.file = "it's.json";
    spec.name = "a.b(c)";
    RunOptions options;
    options.backend = BackendChoice::kGpu;
    options.sources.allow_outside_paths = true;
    options.semantics.resample_nearest_rule = NearestRule::kFloor;
    EXPECT_EQ(repro_command(spec, options), "dmltool run 'it'\\''s.json' --filter '^a\\.b\\(c\\)$' --backend gpu "
                                            "--nearest-rule floor --allow-outside-paths");
    // The default rule (half-up) is not repeated.
    options.semantics.resample_nearest_rule = NearestRule::kHalfUp;
    EXPECT_EQ(repro_command(spec, options), "dmltool run 'it'\\''s.json' --filter '^a\\.b\\(c\\)$' --backend gpu "
                                            "--allow-outside-paths");
}

TEST(ExitCode, Precedence) {
    auto with = [](CaseStatus s) {
        CaseResult r;
        r.status = s;
        return r;
    };
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kPassed), with(CaseStatus::kSkipped),
                                       with(CaseStatus::kUnsupported)}, 0)), 0);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kPassed), with(CaseStatus::kMistrusted)}, 0)), 1);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kFailed), with(CaseStatus::kInvalid)}, 0)), 2);
    // Nothing tested: every case SKIPPED or UNSUPPORTED (exit 5), unless UNSUPPORTED is expected.
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kSkipped), with(CaseStatus::kSkipped)}, 0)), kExitNothingTested);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kUnsupported), with(CaseStatus::kUnsupported)}, 0)),
              kExitNothingTested);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kUnsupported), with(CaseStatus::kSkipped)}, 0)),
              kExitNothingTested);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kUnsupported), with(CaseStatus::kUnsupported)}, 0, false,
                                      /*allow_unsupported=*/true)), 0);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kSkipped)}, 0, false, /*allow_unsupported=*/true)),
              kExitNothingTested);
    EXPECT_EQ(exit_code_for(summarize({with(CaseStatus::kDeviates), with(CaseStatus::kUnsupported)}, 0)), 0);
    RunSummary s = summarize({with(CaseStatus::kFailed), with(CaseStatus::kInvalid), with(CaseStatus::kInvalid)}, 0);
    EXPECT_EQ(s.total, 3u);
    EXPECT_EQ(s.invalid, 2u);
    EXPECT_EQ(s.failed, 1u);
}

}  // namespace
}  // namespace dmltool
