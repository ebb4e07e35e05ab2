// The results store's pure parts: URL redaction, date and selector parsing, the history filter's SQL, and the
// pooling of history into a baseline (the database round trips are tests/cli/check_results_store.py's).
#include <gtest/gtest.h>

#include "store/baseline_db.h"
#include "store/results_store.h"

namespace dmltool::app {
namespace {

TEST(ResultsStore, RedactsPasswords) {
    EXPECT_EQ(redact_location("postgresql://fleet:s3cret@db.example:5432/results"),
              "postgresql://fleet:***@db.example:5432/results");
    EXPECT_EQ(redact_location("postgres://fleet@db/results?password=s3cret&sslmode=require"),
              "postgres://fleet@db/results?password=***&sslmode=require");
    EXPECT_EQ(redact_location("postgresql:///results?host=/tmp/x"), "postgresql:///results?host=/tmp/x");
    EXPECT_EQ(redact_location("postgresql://a:b@/r?host=/tmp/x&password=c"), "postgresql://a:***@/r?host=/tmp/x&password=***");
    // The authority ends at the path: an '@' or ':' after it is not a password.
    EXPECT_EQ(redact_location("postgresql://host/db?application_name=a:b@c"), "postgresql://host/db?application_name=a:b@c");
    EXPECT_EQ(redact_location("history.sqlite"), "history.sqlite");
}

// Issue 40: libpq keyword strings were taken as SQLite paths and their password echoed.
TEST(ResultsStore, KeywordStringsArePostgresAndTheirPasswordsRedacted) {
    EXPECT_TRUE(is_postgres_url("host=/tmp/pg dbname=results password=s3cret"));
    EXPECT_TRUE(is_postgres_url(" dbname = results"));
    EXPECT_FALSE(is_postgres_url("history.sqlite"));
    EXPECT_FALSE(is_postgres_url("/tmp/a=b/history.sqlite"));
    EXPECT_EQ(redact_location("host=/tmp/pg dbname=results password=s3cret user=fleet"),
              "host=/tmp/pg dbname=results password=*** user=fleet");
    EXPECT_EQ(redact_location("host=db password = 's3 c\\'ret' sslmode=require"), "host=db password = *** sslmode=require");
    EXPECT_EQ(redact_location("dbname=results passwordless=1"), "dbname=results passwordless=1");
}

TEST(ResultsStore, ChecksDates) {
    EXPECT_EQ(check_iso_date("--since", "2026-11-28"), "");
    EXPECT_EQ(check_iso_date("--since", "2026-11-28T10:00:00Z"), "");
    EXPECT_EQ(check_iso_date("--since", "2026-1-28"),
              "--since: expected a UTC date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM:SSZ, found '2026-1-28'");
    EXPECT_NE(check_iso_date("--until", "2026-11-28T10:00:00"), "");
    EXPECT_NE(check_iso_date("--until", "yesterday"), "");
}

TEST(ResultsStore, ParsesBaselineSelectors) {
    BaselineSelector s;
    EXPECT_EQ(parse_baseline_selector("last:3", &s), "");
    EXPECT_EQ(s.kind, BaselineSelector::Kind::kLast);
    EXPECT_EQ(s.last, 3u);
    EXPECT_EQ(parse_baseline_selector("commit:82c716f", &s), "");
    EXPECT_EQ(s.kind, BaselineSelector::Kind::kCommit);
    EXPECT_EQ(s.value, "82c716f");
    EXPECT_EQ(parse_baseline_selector("since:2026-11-01", &s), "");
    EXPECT_EQ(s.kind, BaselineSelector::Kind::kSince);
    for (const char* bad : {"last:0", "last:", "last:x", "commit:zz", "commit:abc", "since:soon", "first:2", "5"})
        EXPECT_NE(parse_baseline_selector(bad, &s), "") << bad;
}

TEST(ResultsStore, FilterSqlBindsEveryValue) {
    HistoryFilter f;
    f.case_name = "a'; DROP TABLE runs; --";
    f.adapter = "llvmpipe";
    f.until = "2026-11-28";
    const SqlWhere lite = history_where(f, false), pg = history_where(f, true);
    // Values are parameters, never SQL text.
    EXPECT_EQ(lite.sql.find("DROP"), std::string::npos);
    // --adapter on what history shows: the CPU's model for the CPU reference's rows.
    const std::string shown = "(CASE WHEN b.backend = 'cpu' THEN r.cpu_model ELSE r.adapter END)";
    EXPECT_EQ(lite.sql, " WHERE b.case_name = ? AND instr(" + shown + ", ?) > 0 AND substr(r.date, 1, length(?)) <= ?");
    EXPECT_EQ(pg.sql, " WHERE b.case_name = $1::text AND strpos(" + shown + ", $2::text) > 0 AND "
                      "substr(r.date, 1, length($3::text)) <= $4::text");
    EXPECT_EQ(lite.params, (std::vector<std::string>{f.case_name, "llvmpipe", "2026-11-28", "2026-11-28"}));
    EXPECT_EQ(history_where(HistoryFilter{}, true).sql, "");
}

HistoryRow row(long long run_id, const char* name, std::vector<double> samples, bool converged = true) {
    HistoryRow r;
    r.run_id = run_id;
    r.case_name = name;
    r.backend = "gpu";
    r.samples = std::move(samples);
    r.converged = converged;
    return r;
}

TEST(ResultsStore, BaselineKeepsTheLastRunsOfEachCaseApart) {
    BenchRun next;
    next.cases = {{"a", "gpu", {1.0}, true}, {"b", "gpu", {1.0}, true}, {"new", "gpu", {1.0}, true}};
    const std::vector<HistoryRow> rows = {row(1, "a", {1, 2}), row(2, "a", {3}, false), row(2, "b", {4}),
                                          row(3, "a", {5, 6}), row(3, "other", {7})};
    BaselineSelector last2;
    ASSERT_EQ(parse_baseline_selector("last:2", &last2), "");
    const auto runs = history_runs_by_case(next, rows, last2);
    ASSERT_EQ(runs.size(), 2u);  // "new" has no history, "other" is not in the report
    const auto& a = runs.at({"a", "gpu"});
    ASSERT_EQ(a.size(), 2u);  // runs 2 and 3, not 1, each its own observation
    EXPECT_EQ(a[0]->run_id, 2);
    EXPECT_EQ(a[1]->samples, (std::vector<double>{5, 6}));
    EXPECT_EQ(runs.at({"b", "gpu"}).size(), 1u);
    BaselineSelector since;
    ASSERT_EQ(parse_baseline_selector("since:2026-01-01", &since), "");
    EXPECT_EQ(history_runs_by_case(next, rows, since).at({"a", "gpu"}).size(), 3u);
}

}  // namespace
}  // namespace dmltool::app
