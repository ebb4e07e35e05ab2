// Deviation registries and the DEVIATES verdict (core/deviations.h, core/runner_deviations.h): the shipped registry
// parses; broken registries are refused with file and JSON path; DirectML outputs that match a registered model
// are DEVIATES, and planted wrong outputs on the same cases are FAILED — the registry must never swallow them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/deviations.h"
#include "deviations_testing.h"
#include "core/dtype.h"
#include "core/report.h"
#include "core/runner.h"
#include "temp_dir.h"
#include "tests/testing/op_testing.h"

namespace dmltool {
namespace {

using nlohmann::json;
using testing::TempDir;

json resample_case(const std::string& name, const std::string& type, const std::string& mode, uint32_t in, uint32_t out,
                   double scale, json source) {
    return {{"name", name},
            {"operator",
             {{"type", "DML_OPERATOR_RESAMPLE"},
              {"desc",
               {{"InputTensor", {{"DataType", type}, {"Sizes", {1, 1, 1, in}}}},
                {"OutputTensor", {{"DataType", type}, {"Sizes", {1, 1, 1, out}}}},
                {"InterpolationMode", mode},
                {"Scales", {1, 1, 1, scale}}}}}},
            {"inputs", {{"InputTensor", source}}}};
}

json qlconv_case(const std::string& name, const json& filter_scale_sizes, const json& filter_zero_point_sizes) {
    auto tensor = [](const std::string& type, const json& sizes) { return json{{"DataType", type}, {"Sizes", sizes}}; };
    return {{"name", name},
            {"operator",
             {{"type", "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION"},
              {"desc",
               {{"InputTensor", tensor("UINT8", {1, 2, 4, 4})},
                {"InputScaleTensor", tensor("FLOAT32", {1, 1, 1, 1})},
                {"FilterTensor", tensor("UINT8", {4, 2, 3, 3})},
                {"FilterScaleTensor", tensor("FLOAT32", filter_scale_sizes)},
                {"FilterZeroPointTensor", tensor("UINT8", filter_zero_point_sizes)},
                {"OutputScaleTensor", tensor("FLOAT32", {1, 1, 1, 1})},
                {"OutputTensor", tensor("UINT8", {1, 4, 4, 4})},
                {"Strides", {1, 1}},
                {"Dilations", {1, 1}},
                {"StartPadding", {1, 1}},
                {"EndPadding", {1, 1}},
                {"GroupCount", 1}}}}},
            {"inputs",
             {{"InputTensor", {{"random", {{"seed", 1}}}}},
              {"InputScaleTensor", {{"constant", 0.05}}},
              {"FilterTensor", {{"random", {{"seed", 2}}}}},
              {"FilterScaleTensor", {{"constant", 0.01}}},
              {"FilterZeroPointTensor", {{"constant", 128}}},
              {"OutputScaleTensor", {{"constant", 0.5}}}}}};
}

// Adds `ulps` units in the last place to every element of a FLOAT16 or FLOAT32 tensor of positive values.
void add_ulps(HostTensor& t, int ulps) {
    for (uint64_t i = 0; i < t.element_count(); ++i) {
        if (t.data_type() == DataType::kFloat16) {
            uint16_t bits;
            std::memcpy(&bits, t.element_ptr(i), 2);
            bits = uint16_t(bits + ulps);
            std::memcpy(t.element_ptr(i), &bits, 2);
        } else {
            uint32_t bits;
            std::memcpy(&bits, t.element_ptr(i), 4);
            bits = uint32_t(int64_t(bits) + ulps);
            std::memcpy(t.element_ptr(i), &bits, 4);
        }
    }
}

// 5 -> 12 at scale 2.5: DirectML's 8-bit rule (floor of the half-pixel coordinate) differs from the contract.
const json kNearestSource = {{"sequence", {{"start", 10}, {"step", 1}}}};

TEST_F(DeviationsTest, ShippedRegistryNamesItsEntries) {
    EXPECT_EQ(shipped_.version, "1.15.4");
    ASSERT_EQ(shipped_.entries.size(), 31u);
    EXPECT_EQ(shipped_.entries[0].id, "dml-1.15.4/resample-nearest-8bit-floor-halfpixel");
    for (const DeviationEntry& e : shipped_.entries) {
        EXPECT_FALSE(e.description.empty()) << e.id;
        EXPECT_NE(e.evidence.find("results/"), std::string::npos) << e.id << ": evidence must cite results/";
    }
}

TEST_F(DeviationsTest, EightBitNearestMatchingTheModelDeviates) {
    ModelBackend dml;
    dml.semantics.resample_nearest_rule = NearestRule::kFloor;
    CaseResult r = run(resample_case("nn/u8", "UINT8", "NEAREST_NEIGHBOR", 5, 12, 2.5, kNearestSource), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    ASSERT_EQ(r.deviations.size(), 1u);
    EXPECT_EQ(r.deviations[0].id, "dml-1.15.4/resample-nearest-8bit-floor-halfpixel");
    EXPECT_NE(r.reason.find("dml-1.15.4/resample-nearest-8bit-floor-halfpixel"), std::string::npos) << r.reason;
    EXPECT_TRUE(has_id(r.predicted_deviations, "dml-1.15.4/resample-nearest-8bit-floor-halfpixel"));
    EXPECT_EQ(exit_code_for(summarize({r}, 0)), 0);
    EXPECT_EQ(exit_code_for(summarize({r}, 0, /*strict=*/true)), 1);
    // The registry off (--deviations none): the same output is FAILED.
    EXPECT_EQ(run(resample_case("nn/u8/none", "UINT8", "NEAREST_NEIGHBOR", 5, 12, 2.5, kNearestSource), dml, nullptr).status,
              CaseStatus::kFailed);
}

TEST_F(DeviationsTest, EightBitNearestOffByOneFails) {
    ModelBackend dml;
    dml.semantics.resample_nearest_rule = NearestRule::kFloor;
    dml.plant = [](std::vector<HostTensor>& out) { out[0].set_from_double(7, out[0].get_as_double(7) + 1); };
    CaseResult r = run(resample_case("nn/u8/planted", "UINT8", "NEAREST_NEIGHBOR", 5, 12, 2.5, kNearestSource), dml,
                       &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kFailed) << r.reason;
    EXPECT_TRUE(r.deviations.empty());
}

// Where the 8-bit rule picks one element everywhere the model's output is constant: DirectML matching it (after its
// outputs were poisoned) still deviates (diff_directml seed 3: UINT8 2x1 at scales 1.33 x 4).
TEST_F(DeviationsTest, ConstantModelOutputsAreMatchedToo) {
    ModelBackend dml;
    dml.semantics.resample_nearest_rule = NearestRule::kFloor;
    json c = resample_case("nn/u8/constant", "UINT8", "NEAREST_NEIGHBOR", 2, 2, 1.33, {{"values", {1, 3}}});
    c["operator"]["desc"]["Scales"] = {1, 1, 1, 1.33};
    CaseResult r = run(c, dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    EXPECT_TRUE(has_id(r.deviations, "dml-1.15.4/resample-nearest-8bit-floor-halfpixel"));
    // A device that writes nothing leaves the poison fill: never a match, even where the model's output is the
    // poison's own value (205 for UINT8).
    ModelBackend idle;
    idle.plant = [](std::vector<HostTensor>& out) {
        std::memset(out[0].bytes().data(), int(kDefaultOutputPoison), out[0].bytes().size());
    };
    json poison_valued = c;
    poison_valued["name"] = "nn/u8/constant/poison";
    poison_valued["inputs"]["InputTensor"] = {{"values", {205, 3}}};
    EXPECT_EQ(run(poison_valued, idle, &shipped_).status, CaseStatus::kFailed);
}

// The model only applies to the data types its entry names: FLOAT32 nearest with the 8-bit rule is FAILED.
TEST_F(DeviationsTest, ModelsApplyOnlyToTheirDataTypes) {
    ModelBackend dml;
    dml.semantics.resample_nearest_rule = NearestRule::kFloor;
    CaseResult r = run(resample_case("nn/f32", "FLOAT32", "NEAREST_NEIGHBOR", 5, 12, 2.5, kNearestSource), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kFailed) << r.reason;
    EXPECT_TRUE(r.predicted_deviations.empty());
}

// A shape where the 8-bit rule and the contract agree: DirectML passes, and nothing is predicted.
TEST_F(DeviationsTest, NoPredictionWhereTheModelAgreesWithTheContract) {
    ModelBackend dml;
    dml.semantics.resample_nearest_rule = NearestRule::kFloor;
    CaseResult r = run(resample_case("nn/u8/same", "UINT8", "NEAREST_NEIGHBOR", 8, 8, 1.0, kNearestSource), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kPassed) << r.reason;
    EXPECT_TRUE(r.predicted_deviations.empty());
}

// dmltool's own kernels never take a registry.
TEST_F(DeviationsTest, OwnKernelsNeverDeviate) {
    ModelBackend gpu("gpu");
    Runner runner(options_, pool_, &gpu);
    EXPECT_FALSE(runner.set_deviations(0, &shipped_));
}

TEST_F(DeviationsTest, EightBitLinearTwoAwayFails) {
    ModelBackend dml;
    dml.plant = [](std::vector<HostTensor>& out) { out[0].set_from_double(5, out[0].get_as_double(5) + 2); };
    const json source = {{"values", {0, 100, 7, 250, 33, 81}}};
    CaseResult r = run(resample_case("lin/u8", "UINT8", "LINEAR", 6, 9, 1.5, source), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kFailed) << r.reason;
}

// DirectML's FLOAT16 linear blend as measured (results/diff_directml_2026-11-28_seeds.txt, seed 3): every step in
// half precision, the coordinate x = (o + 0.5) * (1 / s) - 0.5 included, along the last axis of a 1x1x1xN tensor.
// `mirror_at`: the output element whose weight is planted mirrored (1 - w), a classic blend bug.
// `flush`: subnormal halves (below 2^-14) read and computed as zero, as GPUs' half arithmetic may.
void half_blend(const HostTensor& input, HostTensor& output, double scale, int64_t mirror_at = -1, bool flush = false) {
    auto h = [flush](double v) {
        const double rounded = double(half_to_float(double_to_half(v)));
        return flush && std::fabs(rounded) < 0x1p-14 ? std::copysign(0.0, rounded) : rounded;
    };
    const uint64_t n = input.element_count();
    for (uint64_t o = 0; o < output.element_count(); ++o) {
        const double x = std::clamp(h(h(h(double(o) + 0.5) * h(1.0 / scale)) - 0.5), 0.0, double(n - 1));
        const uint64_t x0 = uint64_t(x), x1 = std::min<uint64_t>(x0 + 1, n - 1);
        double w = h(x - double(x0));
        if (int64_t(o) == mirror_at) w = 1.0 - w;
        const double a = h(input.get_as_double(x0)), b = h(input.get_as_double(x1));
        const uint16_t bits = double_to_half(h(a + h(w * h(b - a))));
        std::memcpy(output.element_ptr(o), &bits, 2);
    }
}

TEST_F(DeviationsTest, HalfPrecisionBlendDeviatesButAPlantedErrorFails) {
    // Steep neighbours: half-precision coordinates move the result far outside the float32 bound.
    const json source = {{"random", {{"seed", 7}, {"min", -2000}, {"max", 2000}}}};
    ModelBackend dml;
    dml.compute = [](const HostTensor& in, HostTensor& out) { half_blend(in, out, 2.5); };
    CaseResult r = run(resample_case("lin/f16", "FLOAT16", "LINEAR", 16, 40, 2.5, source), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    EXPECT_TRUE(has_id(r.deviations, "dml-1.15.4/resample-linear-fp16-half-intermediates"));
    ModelBackend one_ulp;  // a half blend's last rounding, on gentle inputs
    one_ulp.plant = [](std::vector<HostTensor>& out) { add_ulps(out[0], 1); };
    const json gentle = {{"random", {{"seed", 7}, {"min", 4}, {"max", 6}}}};
    EXPECT_EQ(run(resample_case("lin/f16/ulp", "FLOAT16", "LINEAR", 16, 40, 2.5, gentle), one_ulp, &shipped_).status,
              CaseStatus::kDeviates);
    ModelBackend mirrored;  // element 1 (w = 0.1) blended with 0.9: far outside even half precision's bound
    mirrored.compute = [](const HostTensor& in, HostTensor& out) { half_blend(in, out, 2.5, 1); };
    CaseResult f = run(resample_case("lin/f16/mirrored", "FLOAT16", "LINEAR", 16, 40, 2.5, source), mirrored, &shipped_);
    EXPECT_EQ(f.status, CaseStatus::kFailed) << f.reason;
    ModelBackend shifted;  // every element 8 ulps off, on gentle inputs
    shifted.plant = [](std::vector<HostTensor>& out) { add_ulps(out[0], 8); };
    EXPECT_EQ(run(resample_case("lin/f16/8ulps", "FLOAT16", "LINEAR", 4, 6, 1.5, gentle), shifted, &shipped_).status,
              CaseStatus::kFailed);
    // FLOAT32 has no registered deviation: a blend outside the bound is FAILED.
    ModelBackend f32;
    f32.plant = [](std::vector<HostTensor>& out) { add_ulps(out[0], 64); };
    EXPECT_EQ(run(resample_case("lin/f32", "FLOAT32", "LINEAR", 16, 40, 2.5, gentle), f32, &shipped_).status,
              CaseStatus::kFailed);
}

// Half arithmetic may flush subnormal halves to zero (seed 3: exact -5.5e-8, got -0): the model's absolute floor is
// half's smallest normal, 2^-14, per rounding step, instead of float32's 2^-126.
TEST_F(DeviationsTest, HalfPrecisionSubnormalsMayFlushToZero) {
    // Subnormal halves (below 6.1e-5) in gentle neighbourhoods, where the coordinates' share of the bound is tiny.
    const json tiny = {{"values", {1e-5, 2e-5, 4e-5, 3e-5, 1.0, -1.0}}};
    ModelBackend dml;
    dml.compute = [](const HostTensor& in, HostTensor& out) { half_blend(in, out, 1.5, -1, /*flush=*/true); };
    CaseResult r = run(resample_case("lin/f16/ftz", "FLOAT16", "LINEAR", 6, 9, 1.5, tiny), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    ModelBackend far;  // element 1 (exact 1.5e-5) 1e-3 off, beyond any flush: FAILED
    far.compute = dml.compute;
    far.plant = [](std::vector<HostTensor>& out) {
        const uint16_t bits = double_to_half(1e-3);
        std::memcpy(out[0].element_ptr(1), &bits, 2);
    };
    EXPECT_EQ(run(resample_case("lin/f16/ftz/far", "FLOAT16", "LINEAR", 6, 9, 1.5, tiny), far, &shipped_).status,
              CaseStatus::kFailed);
}

// Half's largest finite value is 65504: b - a of two inputs beyond 2^15 overflows, and a half blend gives an
// infinity or NaN where the exact blend is finite. The model accepts that only where such inputs are read.
TEST_F(DeviationsTest, HalfPrecisionOverflowDeviatesOnlyBesideHugeInputs) {
    const json huge = {{"values", {-40000, 40000, 1, 2}}};
    ModelBackend dml;
    dml.compute = [](const HostTensor& in, HostTensor& out) { half_blend(in, out, 2.0); };
    CaseResult r = run(resample_case("lin/f16/huge", "FLOAT16", "LINEAR", 4, 8, 2.0, huge), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    ModelBackend infinite;  // an infinity where every input is small
    infinite.plant = [](std::vector<HostTensor>& out) {
        const uint16_t inf = 0x7c00;
        std::memcpy(out[0].element_ptr(6), &inf, 2);
    };
    const json small = {{"values", {-4, 4, 1, 2}}};
    EXPECT_EQ(run(resample_case("lin/f16/inf", "FLOAT16", "LINEAR", 4, 8, 2.0, small), infinite, &shipped_).status,
              CaseStatus::kFailed);
    // The same infinity beside the huge inputs but far from them (element 6 reads only 1 and 2): FAILED too.
    ModelBackend far;
    far.compute = [](const HostTensor& in, HostTensor& out) { half_blend(in, out, 2.0); };
    far.plant = infinite.plant;
    EXPECT_EQ(run(resample_case("lin/f16/far", "FLOAT16", "LINEAR", 4, 8, 2.0, huge), far, &shipped_).status,
              CaseStatus::kFailed);
}

// Nearest-neighbour ties: downsampling 8 -> 4 (scale 0.5) puts every pixel centre halfway between two inputs.
// "Nearest" breaks no tie, so the contract accepts either (model B, DirectML's and the reference's choice, and model
// C, ONNX's round_prefer_floor and WebNN's "smaller index"): on a device and in a case's expected output. Any other
// element is FAILED, on DirectML too (no deviation explains it).
TEST_F(DeviationsTest, NearestTiesAcceptEitherNeighbour) {
    const json sequence = {{"sequence", {{"start", 10}, {"step", 1}}}};  // input i holds 10 + i
    for (const char* type : {"FLOAT32", "FLOAT16", "UINT8"}) {
        SCOPED_TRACE(type);
        ModelBackend half_down;
        half_down.semantics.resample_nearest_rule = NearestRule::kHalfDown;  // 10, 12, 14, 16
        EXPECT_EQ(run(resample_case("tie/c", type, "NEAREST_NEIGHBOR", 8, 4, 0.5, sequence), half_down, &shipped_).status,
                  CaseStatus::kPassed);
        json with_expected = resample_case("tie/c/expected", type, "NEAREST_NEIGHBOR", 8, 4, 0.5, sequence);
        with_expected["expected"] = {{"OutputTensor", {{"values", {10, 12, 14, 16}}}}};
        ModelBackend half_up;  // 11, 13, 15, 17, against an expected output that took the other neighbour
        EXPECT_EQ(run(with_expected, half_up, &shipped_).status, CaseStatus::kPassed);
        ModelBackend wrong;  // element 1 reads input 4 (a distance of 1.5 from its centre 2.5)
        wrong.plant = [](std::vector<HostTensor>& out) { std::memcpy(out[0].element_ptr(1), out[0].element_ptr(2), out[0].element_bytes()); };
        wrong.semantics.resample_nearest_rule = NearestRule::kHalfDown;
        EXPECT_EQ(run(resample_case("tie/wrong", type, "NEAREST_NEIGHBOR", 8, 4, 0.5, sequence), wrong, &shipped_).status,
                  CaseStatus::kFailed);
        with_expected["expected"] = {{"OutputTensor", {{"values", {10, 12, 15, 15}}}}};  // a wrong file
        ModelBackend right;
        EXPECT_EQ(run(with_expected, right, &shipped_).status, CaseStatus::kFailed);
    }
    // No tie (scale 0.4: centres at 1.25 + 2.5 o): the other rule is wrong where it picks another element.
    ModelBackend floor_rule;
    floor_rule.semantics.resample_nearest_rule = NearestRule::kFloor;
    EXPECT_EQ(run(resample_case("tie/none", "FLOAT32", "NEAREST_NEIGHBOR", 10, 4, 0.4, sequence), floor_rule, &shipped_).status,
              CaseStatus::kFailed);
}

TEST_F(DeviationsTest, RegisteredRefusalDeviatesOthersStayUnsupported) {
    ModelBackend dml;
    dml.refuse = true;
    CaseResult r = run(qlconv_case("q/mixed", {1, 4, 1, 1}, {1, 1, 1, 1}), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    EXPECT_TRUE(has_id(r.deviations, "dml-1.15.4/qlconv-zero-point-scale-shapes-differ"));
    // A desc breaking both rules ({4} beside {1,4,1,1}): both entries explain the refusal.
    CaseResult both = run(qlconv_case("q/both", {1, 4, 1, 1}, {4}), dml, &shipped_);
    EXPECT_EQ(both.status, CaseStatus::kDeviates) << both.reason;
    EXPECT_TRUE(has_id(both.deviations, "dml-1.15.4/qlconv-zero-point-scale-shapes-differ"));
    EXPECT_TRUE(has_id(both.deviations, "dml-1.15.4/qlconv-per-channel-quantization-1d"));
    CaseResult one_d = run(qlconv_case("q/1d", {4}, {4}), dml, &shipped_);
    EXPECT_EQ(one_d.status, CaseStatus::kDeviates) << one_d.reason;
    EXPECT_TRUE(has_id(one_d.deviations, "dml-1.15.4/qlconv-per-channel-quantization-1d"));
    CaseResult unregistered = run(qlconv_case("q/plain", {1, 1, 1, 1}, {1, 1, 1, 1}), dml, &shipped_);
    EXPECT_EQ(unregistered.status, CaseStatus::kUnsupported) << unregistered.reason;
    // A registered refusal shape that DirectML accepts is judged by its outputs like any other.
    ModelBackend accepting;
    EXPECT_EQ(run(qlconv_case("q/accepted", {1, 4, 1, 1}, {1, 1, 1, 1}), accepting, &shipped_).status,
              CaseStatus::kPassed);
}

TEST_F(DeviationsTest, JsonReportNamesDeviations) {
    ModelBackend dml;
    dml.semantics.resample_nearest_rule = NearestRule::kFloor;
    CaseResult r = run(resample_case("nn/i8", "INT8", "NEAREST_NEIGHBOR", 5, 12, 2.5, kNearestSource), dml, &shipped_);
    const std::string path = (dir_.path() / "report.json").string();
    RunReportInfo info;
    info.backend = "directml";
    ASSERT_TRUE(write_json_report(path, {r}, summarize({r}, 0), info).is_ok());
    const json report = json::parse(read_text(path));
    EXPECT_EQ(report["summary"]["deviates"], 1);
    EXPECT_EQ(report["summary"]["exit_code"], 0);
    EXPECT_EQ(report["cases"][0]["status"], "DEVIATES");
    EXPECT_EQ(report["cases"][0]["deviations"][0]["id"], "dml-1.15.4/resample-nearest-8bit-floor-halfpixel");
    EXPECT_EQ(report["cases"][0]["predicted_deviations"][0]["certain"], true);
}

// --- Registry files -------------------------------------------------------------------------------------------

std::string registry_error(const OpRegistry& ops, const std::string& text) {
    auto parsed = parse_deviation_registry(text, "reg.json", ops);
    if (parsed.is_ok()) return "";
    EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidInput);
    return parsed.status().message();
}

TEST(DeviationRegistry, RefusesBrokenFilesNamingFileAndPath) {
    const OpRegistry ops = make_builtin_registry();
    json good = json::parse(read_text(kShippedRegistry));
    EXPECT_EQ(registry_error(ops, good.dump()), "");
    EXPECT_NE(registry_error(ops, "{not json").find("reg.json: not valid JSON"), std::string::npos);
    auto with = [&](const std::string& pointer, const json& value) {
        json broken = good;
        broken[json::json_pointer(pointer)] = value;
        return registry_error(ops, broken.dump());
    };
    EXPECT_NE(with("/deviations/0/operator", "DML_OPERATOR_RESAMPEL").find("reg.json: /deviations/0/operator: unknown"),
              std::string::npos);
    EXPECT_NE(with("/deviations/1/dataTypes/0", "FLOAT8").find("reg.json: /deviations/1/dataTypes/0: expected a data type"),
              std::string::npos);
    const std::string model = with("/deviations/2/model", "qlconv-guess");
    EXPECT_NE(model.find("reg.json: /deviations/2/model: expected a deviation model of "
                         "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION"),
              std::string::npos)
        << model;
    EXPECT_NE(model.find("found 'qlconv-guess'"), std::string::npos) << model;
    EXPECT_NE(with("/deviations/0/evidnce", "x").find("/deviations/0/evidnce: expected one of the members"),
              std::string::npos);
    EXPECT_NE(with("/version", "one.two").find("/version: expected a dotted numeric version"), std::string::npos);
    EXPECT_NE(with("/deviations/1/id", good["deviations"][0]["id"]).find("/deviations/1/id: expected a unique id"),
              std::string::npos);
    json missing = good;
    missing["deviations"][3].erase("description");
    EXPECT_NE(registry_error(ops, missing.dump()).find("/deviations/3/description: expected a one-line description, "
                                                       "found nothing"),
              std::string::npos);
}

// ---- the element-wise family (dml-1.15.4/pow-scale-bias-on-exponent, the coarse-approximation entries) ----------

json pow_case(const std::string& name, bool scale_bias) {
    json desc = {{"InputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 4}}}},
                 {"ExponentTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 4}}}},
                 {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 4}}}}};
    if (scale_bias) desc["ScaleBias"] = {{"Scale", 0.5}, {"Bias", 1.0}};
    return {{"name", name},
            {"operator", {{"type", "DML_OPERATOR_ELEMENT_WISE_POW"}, {"desc", desc}}},
            {"inputs", {{"InputTensor", {{"values", {1, 2, 3, 4}}}}, {"ExponentTensor", {{"values", {3, 2, 1, 0.5}}}}}}};
}

// DirectML's POW scales the exponent too (measured: x = 1, e = 3 gives 1.5^2.5 = 2.75567651, not 1.5^3): that
// deviates; the same with one output off by a relative 1e-4 (POW's bound there is ~1.5e-6 relative) fails.
TEST_F(DeviationsTest, PowScaleBiasOnTheExponentDeviatesButAPlantedErrorFails) {
    ModelBackend dml;
    dml.semantics.pow_scale_bias_on_exponent = true;
    CaseResult r = run(pow_case("pow/sb", true), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    EXPECT_TRUE(has_id(r.deviations, "dml-1.15.4/pow-scale-bias-on-exponent"));
    EXPECT_TRUE(has_id(r.predicted_deviations, "dml-1.15.4/pow-scale-bias-on-exponent"));
    EXPECT_EQ(run(pow_case("pow/sb/none", true), dml, nullptr).status, CaseStatus::kFailed);

    ModelBackend planted;
    planted.semantics.pow_scale_bias_on_exponent = true;
    planted.plant = [](std::vector<HostTensor>& out) { out[0].set_from_double(2, out[0].get_as_double(2) * (1 + 1e-4)); };
    EXPECT_EQ(run(pow_case("pow/sb/planted", true), planted, &shipped_).status, CaseStatus::kFailed);

    // Without a ScaleBias the model says nothing: the contract holds DirectML, and the exponent is left alone.
    ModelBackend plain;
    plain.semantics.pow_scale_bias_on_exponent = true;
    CaseResult unscaled = run(pow_case("pow/plain", false), plain, &shipped_);
    EXPECT_EQ(unscaled.status, CaseStatus::kPassed) << unscaled.reason;
    EXPECT_TRUE(unscaled.predicted_deviations.empty());
}

json unary_case(const std::string& name, const std::string& type, const std::string& data_type) {
    return {{"name", name},
            {"operator",
             {{"type", "DML_OPERATOR_" + type},
              {"desc",
               {{"InputTensor", {{"DataType", data_type}, {"Sizes", {1, 1, 4, 8}}}},
                {"OutputTensor", {{"DataType", data_type}, {"Sizes", {1, 1, 4, 8}}}}}}}},
            {"inputs", {{"InputTensor", {{"random", {{"seed", 7}, {"min", -0.95}, {"max", 0.95}}}}}}}};
}

// ASIN off by 6e-5 (DirectML's measured worst on lavapipe) deviates as the coarse approximation; 1e-3 off fails;
// so does the same 6e-5 on SIN, whose registry has no such entry.
TEST_F(DeviationsTest, CoarseAsinDeviatesButFartherOrOnOtherRowsFails) {
    auto shift = [](double by) {
        return [by](const HostTensor& in, HostTensor& out) {
            for (uint64_t i = 0; i < out.element_count(); ++i) out.set_from_double(i, std::asin(in.get_as_double(i)) + by);
        };
    };
    ModelBackend dml;
    dml.compute = shift(6e-5);
    CaseResult r = run(unary_case("asin/coarse", "ELEMENT_WISE_ASIN", "FLOAT32"), dml, &shipped_);
    EXPECT_EQ(r.status, CaseStatus::kDeviates) << r.reason;
    EXPECT_TRUE(has_id(r.deviations, "dml-1.15.4/asin-coarse-approximation"));
    EXPECT_EQ(run(unary_case("asin/coarse/none", "ELEMENT_WISE_ASIN", "FLOAT32"), dml, nullptr).status,
              CaseStatus::kFailed);
    ModelBackend far;
    far.compute = shift(1e-3);
    EXPECT_EQ(run(unary_case("asin/far", "ELEMENT_WISE_ASIN", "FLOAT32"), far, &shipped_).status, CaseStatus::kFailed);
    ModelBackend sin;
    sin.compute = [](const HostTensor& in, HostTensor& out) {
        for (uint64_t i = 0; i < out.element_count(); ++i) out.set_from_double(i, std::sin(in.get_as_double(i)) + 6e-5);
    };
    EXPECT_EQ(run(unary_case("sin/coarse", "ELEMENT_WISE_SIN", "FLOAT32"), sin, &shipped_).status, CaseStatus::kFailed);
}

TEST(DeviationRegistry, VersionsPickTheSameOrNewestOlder) {
    EXPECT_EQ(compare_versions("1.15.4", "1.15.4.0"), 0);
    EXPECT_EQ(compare_versions("1.15.4", "1.15.10"), -1);
    EXPECT_EQ(compare_versions("1.16", "1.15.9"), 1);
    EXPECT_EQ(compare_versions("1.x", "1.15"), std::nullopt);
    std::vector<DeviationRegistry> registries(3);
    registries[0].version = "1.13.1";
    registries[1].version = "1.15.4";
    registries[2].version = "1.14.0";
    auto exact = choose_deviation_registry(registries, "1.15.4");
    EXPECT_EQ(exact.registry, &registries[1]);
    EXPECT_TRUE(exact.note.empty());
    auto older = choose_deviation_registry(registries, "1.14.2");
    EXPECT_EQ(older.registry, &registries[2]);
    EXPECT_NE(older.note.find("no deviation registry for DirectML 1.14.2; using the newest older one, 1.14.0"),
              std::string::npos);
    auto newer = choose_deviation_registry(registries, "1.16.0");
    EXPECT_EQ(newer.registry, &registries[1]);
    auto too_old = choose_deviation_registry(registries, "1.8.0");
    EXPECT_EQ(too_old.registry, nullptr);
    auto unknown = choose_deviation_registry(registries, std::nullopt);
    EXPECT_EQ(unknown.registry, &registries[1]);
    EXPECT_NE(unknown.note.find("could not be read"), std::string::npos);
}

}  // namespace
}  // namespace dmltool
