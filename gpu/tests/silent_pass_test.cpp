// Never a silent pass: small real cases of every operator, run by the real Runner on the real GpuBackend
// (lavapipe) with sabotaged device plans. A kernel that writes nothing keeps the poison fill and FAILS; one
// that writes zeros FAILS, or is MISTRUSTED where the tolerance would let zeros through; one that writes the
// right values one element off FAILS; a data-movement kernel that copies its input FAILS. The unsabotaged plan
// passes (the control), so the failures come from the sabotage and not from the harness.
#include <gtest/gtest.h>

#include "gpu/tests/case_runner_support.h"
#include "gpu/tests/sabotage_support.h"

namespace dmltool {
namespace {

using gpu_case_testing::CaseRunner;
using nlohmann::json;
using sabotage::Sabotage;
using sabotage::SabotagingBackend;

json random_source(uint64_t seed, double min, double max) {
    return {{"random", {{"seed", seed}, {"min", min}, {"max", max}}}};
}

// A case without "expected": the CPU reference is the oracle, so every verdict is the GPU's.
json make_case(const std::string& name, const char* type, const char* desc, json inputs) {
    return {{"name", name}, {"operator", {{"type", type}, {"desc", json::parse(desc)}}}, {"inputs", std::move(inputs)}};
}

json d2s_float16() {
    return make_case("d2s_float16", "DML_OPERATOR_DEPTH_TO_SPACE1", R"({
        "InputTensor": {"DataType": "FLOAT16", "Sizes": [1, 8, 3, 5]},
        "OutputTensor": {"DataType": "FLOAT16", "Sizes": [1, 2, 6, 10]},
        "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"})",
                     {{"InputTensor", random_source(1, -10, 10)}});
}

json split_uint8() {
    return make_case("split_uint8", "DML_OPERATOR_SPLIT", R"({
        "InputTensor": {"DataType": "UINT8", "Sizes": [1, 2, 5, 6]},
        "OutputTensors": [{"DataType": "UINT8", "Sizes": [1, 2, 5, 3]}, {"DataType": "UINT8", "Sizes": [1, 2, 5, 3]}],
        "Axis": 3})",
                     {{"InputTensor", random_source(2, 0, 200)}});  // never the poison byte 205
}

json resample_float32() {
    return make_case("resample_float32", "DML_OPERATOR_RESAMPLE", R"({
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 2, 4, 6]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 2, 8, 12]},
        "InterpolationMode": "LINEAR", "Scales": [1, 1, 2, 2]})",
                     {{"InputTensor", random_source(3, -10, 10)}});
}

// Quantized inputs around the zero points; outputs requantized to [2, 198] (never the poison 205).
json qlconv_uint8() {
    return make_case("qlconv_uint8", "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION", R"({
        "InputTensor": {"DataType": "UINT8", "Sizes": [1, 2, 5, 5]},
        "InputScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
        "InputZeroPointTensor": {"DataType": "UINT8", "Sizes": [1, 1, 1, 1]},
        "FilterTensor": {"DataType": "UINT8", "Sizes": [3, 2, 3, 3]},
        "FilterScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
        "FilterZeroPointTensor": {"DataType": "UINT8", "Sizes": [1, 1, 1, 1]},
        "OutputScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 1, 1]},
        "OutputZeroPointTensor": {"DataType": "UINT8", "Sizes": [1, 1, 1, 1]},
        "OutputTensor": {"DataType": "UINT8", "Sizes": [1, 3, 3, 3]},
        "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0], "GroupCount": 1})",
                     {{"InputTensor", random_source(4, 0, 255)},
                      {"InputScaleTensor", {{"constant", 1}}},
                      {"InputZeroPointTensor", {{"constant", 128}}},
                      {"FilterTensor", random_source(5, 0, 255)},
                      {"FilterScaleTensor", {{"constant", 1}}},
                      {"FilterZeroPointTensor", {{"constant", 128}}},
                      {"OutputScaleTensor", {{"constant", 3000}}},
                      {"OutputZeroPointTensor", {{"constant", 100}}}});
}

// Cases whose true outputs lie within the tolerance (+-1) of zero but are not constant: a kernel writing zeros
// passes every element comparison, and only zero trust stops it.
// The linear default is the error bound (tighter than +-1 for 8-bit outputs), so the case states the +-1
// tolerance explicitly, as a conformance suite might.
json resample_int8_near_zero() {
    json c = make_case("resample_int8_near_zero", "DML_OPERATOR_RESAMPLE", R"({
        "InputTensor": {"DataType": "INT8", "Sizes": [1, 1, 4, 6]},
        "OutputTensor": {"DataType": "INT8", "Sizes": [1, 1, 8, 12]},
        "InterpolationMode": "LINEAR", "Scales": [1, 1, 2, 2]})",
                       {{"InputTensor", random_source(6, -1, 1)}});
    c["tolerance"] = {{"OutputTensor", {{"abs", 1}}}, {"reason", "8-bit rounding of a near-zero blend"}};
    return c;
}

// (x - 128)(w - 128) in {0, 1}, so the accumulator is 0..18; the per-channel bias (0, 15, -15) over the output
// scale 20 makes channel 1 mostly 1 and the others 0.
json qlconv_near_zero() {
    json c = qlconv_uint8();
    c["name"] = "qlconv_near_zero";
    c["operator"]["desc"]["BiasTensor"] = {{"DataType", "INT32"}, {"Sizes", json::parse("[1, 3, 1, 1]")}};
    c["inputs"]["InputTensor"] = random_source(7, 128, 129);
    c["inputs"]["FilterTensor"] = random_source(8, 128, 129);
    c["inputs"]["BiasTensor"] = {{"values", {0, 15, -15}}};
    c["inputs"]["OutputScaleTensor"] = {{"constant", 20}};
    c["inputs"]["OutputZeroPointTensor"] = {{"constant", 0}};
    return c;
}

class NeverASilentPass : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto adapters = gpu::list_adapters();
        if (!adapters.is_ok() || adapters->empty()) return;
        auto created = gpu::GpuBackend::create({}, {});
        if (created.is_ok()) gpu_ = std::move(created).value().release();
        else creation_error_ = new std::string(created.status().message());
    }
    static void TearDownTestSuite() {
        delete gpu_;
        gpu_ = nullptr;
        delete creation_error_;
        creation_error_ = nullptr;
    }
    void SetUp() override {
        if (creation_error_) FAIL() << *creation_error_;
        if (!gpu_) GTEST_SKIP() << "no Vulkan device on this machine";
    }

    // Runs one case with the sabotage; returns the result (the GPU-vs-reference verdicts decide it).
    CaseResult run(const json& c, Sabotage how) {
        SabotagingBackend backend(*gpu_, how);
        auto results = runner_.run({c}, &backend);
        EXPECT_EQ(results.size(), 1u);
        return results.empty() ? CaseResult{} : results[0];
    }

    // The outcome of every sabotage but "none" must be `status`, decided by a GPU comparison.
    void expect_caught(const json& c, Sabotage how, CaseStatus status) {
        SCOPED_TRACE(std::string(sabotage::sabotage_name(how)) + " on " + c["name"].get<std::string>());
        const CaseResult r = run(c, how);
        EXPECT_EQ(r.status, status) << case_status_name(r.status) << ": " << r.reason;
        EXPECT_NE(r.reason.find("(gpu vs reference)"), std::string::npos) << r.reason;
    }

    // Every element of every output kept the poison fill, and the mismatch lines show it.
    void expect_poison_kept(const json& c, const std::string& poison_text) {
        SCOPED_TRACE("drop_dispatches on " + c["name"].get<std::string>());
        const CaseResult r = run(c, Sabotage::kDropDispatches);
        EXPECT_EQ(r.status, CaseStatus::kFailed) << r.reason;
        ASSERT_FALSE(r.outputs.empty());
        for (const OutputReport& o : r.outputs) {
            EXPECT_EQ(o.comparison, "gpu vs reference");
            EXPECT_EQ(o.result.verdict, Verdict::kFailed) << o.output;
            EXPECT_EQ(o.result.mismatch_count, o.result.element_count) << o.output;
            ASSERT_FALSE(o.result.mismatches.empty()) << o.output;
            for (const Mismatch& m : o.result.mismatches) EXPECT_EQ(m.got, poison_text) << o.output;
        }
    }

    void expect_control_passes(const json& c) {
        const CaseResult r = run(c, Sabotage::kNone);
        EXPECT_EQ(r.status, CaseStatus::kPassed) << c["name"] << ": " << r.reason;
        EXPECT_TRUE(r.backend_ms.has_value());
    }

    static gpu::GpuBackend* gpu_;
    static std::string* creation_error_;
    CaseRunner runner_;
};

gpu::GpuBackend* NeverASilentPass::gpu_ = nullptr;
std::string* NeverASilentPass::creation_error_ = nullptr;

TEST_F(NeverASilentPass, DepthToSpace) {
    const json c = d2s_float16();
    expect_control_passes(c);
    expect_poison_kept(c, "-23.203125 (0xcdcd)");
    expect_caught(c, Sabotage::kWriteZeros, CaseStatus::kFailed);
    expect_caught(c, Sabotage::kShiftByOne, CaseStatus::kFailed);
    expect_caught(c, Sabotage::kCopyInput, CaseStatus::kFailed);  // the input, not rearranged
}

TEST_F(NeverASilentPass, Split) {
    const json c = split_uint8();
    expect_control_passes(c);
    expect_poison_kept(c, "205");
    expect_caught(c, Sabotage::kWriteZeros, CaseStatus::kFailed);
    expect_caught(c, Sabotage::kShiftByOne, CaseStatus::kFailed);
    // Output 0 gets the input's first 30 bytes: whole rows of 6, not the first 3 columns of each row.
    expect_caught(c, Sabotage::kCopyInput, CaseStatus::kFailed);
}

TEST_F(NeverASilentPass, Resample) {
    const json c = resample_float32();
    expect_control_passes(c);
    expect_poison_kept(c, "-431602080 (0xcdcdcdcd)");
    expect_caught(c, Sabotage::kWriteZeros, CaseStatus::kFailed);
    expect_caught(c, Sabotage::kShiftByOne, CaseStatus::kFailed);
}

TEST_F(NeverASilentPass, QuantizedLinearConvolution) {
    const json c = qlconv_uint8();
    expect_control_passes(c);
    expect_poison_kept(c, "205");
    expect_caught(c, Sabotage::kWriteZeros, CaseStatus::kFailed);
    expect_caught(c, Sabotage::kShiftByOne, CaseStatus::kFailed);
}

// Zeros within the +-1 tolerance of every true output: each element comparison passes, zero trust does not.
TEST_F(NeverASilentPass, ZerosWithinToleranceAreMistrusted) {
    for (const json& c : {resample_int8_near_zero(), qlconv_near_zero()}) {
        expect_control_passes(c);
        expect_caught(c, Sabotage::kWriteZeros, CaseStatus::kMistrusted);
        const CaseResult r = run(c, Sabotage::kWriteZeros);
        EXPECT_NE(r.reason.find("output is constant (0 everywhere) while the expectation is not"), std::string::npos)
            << r.reason;
        expect_caught(c, Sabotage::kDropDispatches, CaseStatus::kFailed);
    }
}

}  // namespace
}  // namespace dmltool
