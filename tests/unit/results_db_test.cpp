// The benchmark history database round trip: what `bench --results-db` appends is what `dmltool history` reads
// back — every field of the run and of the benchmark, and the samples bit for bit — across two runs, in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "store/results_db.h"
#include "temp_dir.h"

namespace dmltool::app {
namespace {

BenchCase timed_case(std::string name, std::string backend, std::vector<double> samples, bool converged) {
    BenchCase c{std::move(name), "perf.json", "SPLIT", "INT8", std::move(backend), fl(2, 1), false, 1024, 0, 0,
                std::move(samples), 20, converged};
    std::vector<double> sorted = c.samples;
    std::sort(sorted.begin(), sorted.end());
    c.seconds = sorted[sorted.size() / 2];
    return c;
}

TEST(ResultsDb, RoundTripOfTwoRuns) {
    testing::TempDir dir;
    const std::string db = (dir.path() / "history.sqlite").string();
    const ResultsRun first{"2026-11-26T10:00:00Z", "host", "Test CPU", "Test GPU (0x1, 0x2)", "gpu (Test GPU)",
                           "0.1.0", "abc123", "hot", "off", "0/1"};
    ResultsRun second = first;
    second.date = "2026-11-27T10:00:00Z";
    second.git_commit = "def456-dirty";
    second.cache = "cold";
    // Awkward doubles on purpose: the samples must come back bit for bit.
    const std::vector<double> a = {1.2345678901234567e-05, 0.1 + 0.2, 3e-9}, b = {2.5e-6, 2.6e-6, 2.4e-6, 1.0 / 3};
    Status s = append_results(db, first, {timed_case("split/a", "gpu", a, true), timed_case("d2s/other", "cpu", b, false)});
    if (s.code() == ErrorCode::kUnsupported) GTEST_SKIP() << s.message();
    ASSERT_TRUE(s.is_ok()) << s.message();
    BenchCase of_processes = timed_case("split/a", "gpu", b, false);
    of_processes.process_seconds = {2.5e-6, 1.0 / 3, 2.4e-6};  // bench --processes: each process's median
    ASSERT_TRUE(append_results(db, second, {of_processes}).is_ok());

    auto rows = load_history(db, "split/a");
    ASSERT_TRUE(rows.is_ok()) << rows.status().message();
    ASSERT_EQ(rows->size(), 2u);
    const HistoryRow& r0 = (*rows)[0];
    EXPECT_EQ(r0.run.date, first.date);
    EXPECT_EQ(r0.run.hostname, "host");
    EXPECT_EQ(r0.run.cpu_model, "Test CPU");
    EXPECT_EQ(r0.run.adapter, first.adapter);
    EXPECT_EQ(r0.run.device, first.device);
    EXPECT_EQ(r0.run.dmltool_version, "0.1.0");
    EXPECT_EQ(r0.run.git_commit, "abc123");
    EXPECT_EQ(r0.run.cache, "hot");
    EXPECT_EQ(r0.case_name, "split/a");
    EXPECT_EQ(r0.op, "SPLIT");
    EXPECT_EQ(r0.feature_level, "2_1");
    EXPECT_EQ(r0.dtype, "INT8");
    EXPECT_EQ(r0.backend, "gpu");
    EXPECT_EQ(r0.samples, a);
    EXPECT_DOUBLE_EQ(r0.median_seconds, 1.2345678901234567e-05);
    EXPECT_NEAR(r0.noise, summarize_samples(a).noise, 1e-15);
    EXPECT_TRUE(r0.converged);
    EXPECT_EQ(r0.executions_per_sample, 20u);
    const HistoryRow& r1 = (*rows)[1];
    EXPECT_EQ(r1.run.git_commit, "def456-dirty");
    EXPECT_EQ(r1.run.cache, "cold");
    EXPECT_EQ(r1.samples, b);
    EXPECT_FALSE(r1.converged);
    EXPECT_TRUE(r0.process_medians.empty());  // one process: NULL
    EXPECT_EQ(r1.process_medians, of_processes.process_seconds);

    auto other = load_history(db, "d2s/other");
    ASSERT_TRUE(other.is_ok());
    ASSERT_EQ(other->size(), 1u);
    EXPECT_EQ((*other)[0].backend, "cpu");
    EXPECT_TRUE(load_history(db, "absent")->empty());
}

TEST(ResultsDb, RefusesFilesThatAreNotItsDatabase) {
    testing::TempDir dir;
    const std::string path = (dir.path() / "not_a_db.sqlite").string();
    std::ofstream(path) << "just text, not SQLite";
    auto rows = load_history(path, "split/a");
    if (!rows.is_ok() && rows.status().code() == ErrorCode::kUnsupported) GTEST_SKIP() << rows.status().message();
    ASSERT_FALSE(rows.is_ok());
    EXPECT_NE(rows.status().message().find("not_a_db.sqlite"), std::string::npos) << rows.status().message();
    EXPECT_FALSE(load_history((dir.path() / "missing.sqlite").string(), "x").is_ok());
}

}  // namespace
}  // namespace dmltool::app
