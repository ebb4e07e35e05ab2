// The bench report's arithmetic on fixed inputs: geometric means, % of roofline for data movement and for the
// convolution (integer and float peaks), the per-feature-level and per-operator x data-type tables, and "not
// measured" staying "n/a" (null in JSON, an empty CSV cell) instead of becoming 0%.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/report.h"
#include "bench/report_files.h"
#include "bench/roofline.h"
#include "temp_dir.h"

namespace dmltool::app {
namespace {

using nlohmann::json;

BenchCase data_movement(std::string name, std::string backend, FeatureLevel level, uint64_t bytes, double seconds) {
    return {std::move(name), "perf.json", "SPLIT", "FLOAT32", std::move(backend), level, false, bytes, 0, seconds,
            {seconds, seconds}, 1, true};
}

BenchCase convolution(std::string name, FeatureLevel level, uint64_t ops, double seconds) {
    return {std::move(name), "perf.json", "QUANTIZED_LINEAR_CONVOLUTION", "UINT8", "gpu", level, true, 1000, ops, seconds,
            {seconds, seconds}, 1, true};
}

DeviceRoofline gpu_roofline() {
    DeviceRoofline r;
    r.copy_bytes_per_second = 4e12;
    r.copy_method = "test copy";
    r.int_multiply_adds_per_second = 4e12;
    r.float_fmas_per_second = 2e12;
    r.adapter = "Test GPU";
    return r;
}

// Stands in for a GPU: only its roofline probe matters here.
class RooflineBackend : public Backend {
public:
    explicit RooflineBackend(Result<DeviceRoofline> roofline) : roofline_(std::move(roofline)) {}
    std::string name() const override { return "gpu (fake)"; }
    Result<std::vector<HostTensor>> execute(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                            BackendTiming*, std::byte) override {
        return unsupported("not used");
    }
    Result<double> time_executions(const Op&, const OpDesc&, const std::vector<const HostTensor*>&,
                                   unsigned) override {
        return unsupported("not used");
    }
    Result<DeviceRoofline> measure_roofline(uint64_t) override { return roofline_; }

private:
    Result<DeviceRoofline> roofline_;
};

TEST(BenchReport, GeometricMean) {
    const std::vector<double> values = {1, 4, 16};
    EXPECT_NEAR(*geometric_mean(values), 4, 1e-12);
    EXPECT_FALSE(geometric_mean(std::vector<double>{}).has_value());
    // Zeros stand for "not measured" and must not pull the mean to 0.
    EXPECT_NEAR(*geometric_mean(std::vector<double>{0, 2, 8}), 4, 1e-12);
    EXPECT_FALSE(geometric_mean(std::vector<double>{0, 0}).has_value());
}

TEST(BenchReport, DataMovementShareOfCopyBandwidth) {
    const CaseFigures f = figures_for(data_movement("c", "gpu", fl(1, 0), 2'000'000'000, 1e-3), gpu_roofline());
    EXPECT_DOUBLE_EQ(f.bytes_per_second, 2e12);
    ASSERT_TRUE(f.roofline_percent.has_value());
    EXPECT_DOUBLE_EQ(*f.roofline_percent, 50);
    EXPECT_FALSE(f.float_fma_percent.has_value());
}

TEST(BenchReport, ConvolutionShareOfMultiplyAddPeaks) {
    // 2e12 ops = 1e12 multiply-adds in one second: 25% of 4e12 integer MADs/s, 50% of 2e12 float FMAs/s.
    const CaseFigures f = figures_for(convolution("q", fl(2, 1), 2'000'000'000'000, 1), gpu_roofline());
    EXPECT_DOUBLE_EQ(f.ops_per_second, 2e12);
    ASSERT_TRUE(f.roofline_percent.has_value());
    EXPECT_DOUBLE_EQ(*f.roofline_percent, 25);
    ASSERT_TRUE(f.float_fma_percent.has_value());
    EXPECT_DOUBLE_EQ(*f.float_fma_percent, 50);
}

TEST(BenchReport, UnmeasuredRooflineIsNotAvailableNotZero) {
    DeviceRoofline copy_only;
    copy_only.copy_bytes_per_second = 1e12;
    // A convolution is never judged by the copy bandwidth, even when that is all there is.
    const CaseFigures conv = figures_for(convolution("q", fl(2, 1), 1000, 1), copy_only);
    EXPECT_FALSE(conv.roofline_percent.has_value());
    EXPECT_FALSE(conv.float_fma_percent.has_value());
    const CaseFigures moved = figures_for(data_movement("c", "cpu", fl(1, 0), 1000, 1), DeviceRoofline{});
    EXPECT_FALSE(moved.roofline_percent.has_value());
    EXPECT_EQ(format_percent(moved.roofline_percent), "n/a");
    EXPECT_EQ(format_percent(12.345), "12.3%");
    EXPECT_EQ(format_rate(std::nullopt, "B/s"), "n/a");
    EXPECT_EQ(format_rate(2.5e12, "B/s"), "2.5 TB/s");
}

TEST(BenchReport, TablesGroupByFeatureLevelAndByOperatorDataType) {
    std::vector<BenchCase> cases = {
        data_movement("a", "gpu", fl(1, 0), 1'000'000'000, 1e-3),  // 1e12 B/s = 25% of 4e12
        data_movement("b", "gpu", fl(1, 0), 4'000'000'000, 1e-3),  // 4e12 B/s = 100%
        convolution("q", fl(2, 1), 8'000'000'000'000, 1),            // 4e12 MAD/s = 100% of the integer peak
        data_movement("skipped", "gpu", fl(1, 0), 1, 0),               // not measured: dropped
        data_movement("a", "cpu", fl(1, 0), 1'000'000'000, 1),         // no cpu roofline: n/a
    };
    std::map<std::string, BackendRoofline> rooflines = {{"gpu", {gpu_roofline(), ""}}};
    const BenchReport report = build_report(std::move(cases), rooflines);
    ASSERT_EQ(report.cases.size(), 4u);
    ASSERT_EQ(report.by_feature_level.size(), 3u);  // cpu 1_0, gpu 1_0, gpu 2_1 (sorted by backend, level)
    const TableRow& cpu = report.by_feature_level[0];
    EXPECT_EQ(cpu.backend, "cpu");
    EXPECT_FALSE(cpu.geomean_roofline_percent.has_value());
    const TableRow& gpu10 = report.by_feature_level[1];
    EXPECT_EQ(gpu10.feature_level, "1_0");
    EXPECT_EQ(gpu10.cases, 2u);
    EXPECT_NEAR(*gpu10.geomean_bytes_per_second, 2e12, 1);  // sqrt(1e12 * 4e12), through logarithms
    EXPECT_NEAR(*gpu10.geomean_roofline_percent, 50, 1e-9);  // sqrt(25 * 100)
    EXPECT_FALSE(gpu10.geomean_ops_per_second.has_value());
    const TableRow& gpu21 = report.by_feature_level[2];
    EXPECT_EQ(gpu21.compute_cases, 1u);
    EXPECT_NEAR(*gpu21.geomean_ops_per_second, 8e12, 1);
    EXPECT_NEAR(*gpu21.geomean_roofline_percent, 100, 1e-9);
    ASSERT_EQ(report.by_operator_dtype.size(), 3u);
    EXPECT_EQ(report.by_operator_dtype[1].op, "QUANTIZED_LINEAR_CONVOLUTION");
    EXPECT_EQ(report.by_operator_dtype[1].dtype, "UINT8");
    EXPECT_EQ(report.by_operator_dtype[2].op, "SPLIT");
    EXPECT_EQ(report.by_operator_dtype[2].cases, 2u);
}

TEST(BenchReport, DeviceWithoutProbesIsNotMeasured) {
    RooflineBackend absent(unsupported("gpu roofline probes are not built yet"));
    const BackendRoofline r = measure_device_roofline(absent, 1 << 20);
    EXPECT_EQ(r.measured.copy_bytes_per_second, 0);
    EXPECT_EQ(r.measured.adapter, "gpu (fake)");
    EXPECT_NE(r.note.find("not measured: gpu roofline probes are not built yet"), std::string::npos) << r.note;

    RooflineBackend partial([] {
        DeviceRoofline d;
        d.copy_bytes_per_second = 3e12;
        return d;
    }());
    const BackendRoofline p = measure_device_roofline(partial, 1 << 20);
    EXPECT_EQ(p.measured.copy_bytes_per_second, 3e12);
    EXPECT_EQ(p.note, "not measured: integer multiply-add, float32 FMA");
}

TEST(BenchReport, HostCopyProbeMeasuresCopyOnly) {
    ThreadPool pool(2);
    const BackendRoofline r = measure_host_roofline(pool, 1 << 20, "Test CPU");
    EXPECT_GT(r.measured.copy_bytes_per_second, 0);
    EXPECT_NE(r.measured.copy_method.find("2 threads"), std::string::npos) << r.measured.copy_method;
    EXPECT_EQ(r.measured.int_multiply_adds_per_second, 0);
    EXPECT_EQ(r.measured.adapter, "Test CPU");
}

TEST(BenchReport, FilesWriteNullAndEmptyForNotMeasured) {
    testing::TempDir dir;
    std::vector<BenchCase> cases = {data_movement("split/x", "cpu", fl(1, 0), 1'000'000, 1e-3),
                                    convolution("conv,with \"comma\"", fl(2, 1), 2'000'000'000, 1e-3)};
    // The convolution ran an autotuned plan (app/bench.cpp fills these from Backend::plan_choice).
    PlanChoice choice;
    choice.variant = "float/mt8/cw8/tr4/cg8/s1";
    choice.source = "cache";
    choice.candidates.assign(52, {"other", 2e-3});
    choice.candidates[0] = {"", 1.25e-3};
    choice.candidates[7] = {choice.variant, 1e-3};
    cases[1].plan = choice;
    cases[1].check_status = "DEVIATES";  // timed all the same; its report row says so
    cases[1].check_reason = "max ULP 9 > 4";
    std::map<std::string, BackendRoofline> rooflines = {{"gpu", {gpu_roofline(), ""}},
                                                        {"cpu", unmeasured_roofline("--roofline-mib 0")}};
    const BenchReport report = build_report(std::move(cases), rooflines);
    ReportContext context{{"host", "Test CPU", 2, "Debian", "Linux"}, {"0.1.0", "abc123"}, "2026-01-01T00:00:00Z",
                          {"perf.json"}, {{"backend", "both"}}, {{"perf.json", "bad", "FAILED", "diff"}},
                          "gpu (fake)", {}};
    const std::string json_path = (dir.path() / "report.json").string();
    const std::string csv_path = (dir.path() / "report.csv").string();
    ASSERT_TRUE(write_report_json(json_path, report, context).is_ok());
    ASSERT_TRUE(write_report_csv(csv_path, report, context).is_ok());

    const json root = json::parse(std::ifstream(json_path));
    EXPECT_EQ(root["tool"]["git_commit"], "abc123");
    EXPECT_EQ(root["adapter"], "Test GPU");
    EXPECT_EQ(root["machine"]["cpu_model"], "Test CPU");
    EXPECT_TRUE(root["rooflines"]["cpu"]["copy_bytes_per_second"].is_null());
    EXPECT_TRUE(root["cases"][0]["roofline_percent"].is_null());  // cpu case, no cpu roofline
    EXPECT_DOUBLE_EQ(root["cases"][1]["roofline_percent"].get<double>(), 25);  // 1e12 MAD/s of 4e12
    EXPECT_EQ(root["feature_level_table"].size(), 2u);
    EXPECT_EQ(root["feature_level_table"][0]["feature_level"], "1_0");
    EXPECT_EQ(root["operator_dtype_table"][0]["operator"], "SPLIT");
    EXPECT_EQ(root["not_benchmarked"][0]["status"], "FAILED");
    EXPECT_EQ(root["cases"][1]["check"]["status"], "DEVIATES");
    EXPECT_EQ(root["cases"][1]["check"]["reason"], "max ULP 9 > 4");
    EXPECT_TRUE(root["cases"][0]["plan"].is_null()) << "no plan variants: null";
    const json plan = root["cases"][1]["plan"];
    EXPECT_EQ(plan["variant"], "float/mt8/cw8/tr4/cg8/s1");
    EXPECT_EQ(plan["source"], "cache");
    EXPECT_DOUBLE_EQ(plan["speedup_over_heuristic"].get<double>(), 1.25);
    EXPECT_EQ(plan["candidates"], 52);
    ASSERT_EQ(plan["candidate_seconds"].size(), 52u);
    EXPECT_EQ(plan["candidate_seconds"][0]["variant"], "heuristic");
    EXPECT_DOUBLE_EQ(plan["candidate_seconds"][0]["seconds"].get<double>(), 1.25e-3);
    EXPECT_EQ(plan["candidate_seconds"][7]["variant"], "float/mt8/cw8/tr4/cg8/s1");
    EXPECT_DOUBLE_EQ(plan["candidate_seconds"][7]["seconds"].get<double>(), 1e-3);

    std::stringstream csv;
    csv << std::ifstream(csv_path).rdbuf();
    const std::string text = csv.str();
    EXPECT_NE(text.find("# adapter: Test GPU\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nrow,backend,feature_level,operator,dtype,name,cases,"), std::string::npos) << text;
    // The cpu case: its roofline share is an empty cell, and the name with a comma is quoted; then noise (two
    // equal samples: 0), the sample count, converged and the plan (none).
    EXPECT_NE(text.find("case,cpu,1_0,SPLIT,FLOAT32,split/x,1,0.001,1e+09,0,,,0,2,1,\n"), std::string::npos) << text;
    EXPECT_NE(text.find(",converged,plan\n"), std::string::npos) << text;
    EXPECT_NE(text.find(",1,float/mt8/cw8/tr4/cg8/s1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(",\"conv,with \"\"comma\"\"\","), std::string::npos) << text;
    EXPECT_NE(text.find("feature_level,gpu,2_1,,,,1,,"), std::string::npos) << text;
}

}  // namespace
}  // namespace dmltool::app
