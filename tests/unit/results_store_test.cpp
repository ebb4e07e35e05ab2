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
    EXPECT_EQ(lite.sql, " WHERE b.case_name = ? AND instr(r.adapter, ?) > 0 AND substr(r.date, 1, length(?)) <= ?");
    EXPECT_EQ(pg.sql, " WHERE b.case_name = $1::text AND strpos(r.adapter, $2::text) > 0 AND "
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

TEST(ResultsStore, BaselinePoolsTheLastRunsOfEachCase) {
    BenchRun next;
    next.cases = {{"a", "gpu", {1.0}, true}, {"b", "gpu", {1.0}, true}, {"new", "gpu", {1.0}, true}};
    const std::vector<HistoryRow> rows = {row(1, "a", {1, 2}), row(2, "a", {3}, false), row(2, "b", {4}),
                                          row(3, "a", {5, 6}), row(3, "other", {7})};
    BaselineSelector last2;
    ASSERT_EQ(parse_baseline_selector("last:2", &last2), "");
    const BenchRun base = baseline_from_history(next, rows, last2, "db");
    ASSERT_EQ(base.cases.size(), 2u);  // "new" has no history, "other" is not in the report
    EXPECT_EQ(base.cases[0].name, "a");
    EXPECT_EQ(base.cases[0].samples, (std::vector<double>{3, 5, 6}));  // runs 2 and 3, not 1
    EXPECT_FALSE(base.cases[0].converged);                              // run 2 did not converge
    EXPECT_EQ(base.cases[1].samples, (std::vector<double>{4}));
    BaselineSelector since;
    ASSERT_EQ(parse_baseline_selector("since:2026-01-01", &since), "");
    EXPECT_EQ(baseline_from_history(next, rows, since, "db").cases[0].samples, (std::vector<double>{1, 2, 3, 5, 6}));
}

}  // namespace
}  // namespace dmltool::app
