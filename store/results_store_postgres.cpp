// The PostgreSQL backend of the results store (libpq): one database for a fleet of machines and CI shards. Every
// run is one transaction, so concurrent writers interleave whole runs; schema upgrades take an advisory lock so
// that the first writers of a fresh database do not race to create the tables.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "store/results_store.h"

#if DMLTOOL_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace dmltool::app {

#if DMLTOOL_HAVE_LIBPQ
namespace {

// Any constant: the key of the advisory lock that serializes schema upgrades of one database.
constexpr long long kUpgradeLockKey = 0x646d6c746f6f6cLL;  // "dmltool"

struct ConnectionCloser {
    void operator()(PGconn* c) const { PQfinish(c); }
};
struct ResultClearer {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Connection = std::unique_ptr<PGconn, ConnectionCloser>;
using PgResult = std::unique_ptr<PGresult, ResultClearer>;

// libpq prints server notices to stderr by default; dmltool's stderr is for its own diagnostics.
void ignore_notice(void*, const char*) {}

class ResultRow : public RowCursor {
public:
    ResultRow(const PGresult* result, int row) : result_(result), row_(row) {}
    bool is_null(int c) const override { return PQgetisnull(result_, row_, c) != 0; }
    std::string text(int c) const override { return PQgetvalue(result_, row_, c); }
    double real(int c) const override { return std::strtod(PQgetvalue(result_, row_, c), nullptr); }
    long long integer(int c) const override { return std::strtoll(PQgetvalue(result_, row_, c), nullptr, 10); }

private:
    const PGresult* result_;
    int row_;
};

std::string first_line(const char* message) {
    std::string text = message ? message : "";
    const size_t end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

std::string number(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

class PostgresStore : public ResultsStore {
public:
    Status open(const std::string& url, StoreAccess access) {
        shown_ = redact_location(url);
        // A fleet's database is remote: a dead host must fail in seconds, not hang a CI job. A connect_timeout in
        // the URL wins (expand_dbname: later keywords override earlier ones, and the URL comes last).
        const char* keys[] = {"connect_timeout", "dbname", nullptr};
        const char* values[] = {"10", url.c_str(), nullptr};
        conn_.reset(PQconnectdbParams(keys, values, 1));
        if (!conn_) return device_error("cannot connect to the results database " + shown_ + " (out of memory)");
        if (PQstatus(conn_.get()) != CONNECTION_OK)
            return device_error("cannot connect to the results database " + shown_ + ": " +
                                first_line(PQerrorMessage(conn_.get())));
        PQsetNoticeProcessor(conn_.get(), ignore_notice, nullptr);
        if (access == StoreAccess::kWrite) return upgrade();
        // Read-only in the server's sense too: a later statement that would write fails rather than changes.
        DMLTOOL_RETURN_IF_ERROR(exec("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"));
        DMLTOOL_ASSIGN_OR_RETURN(version_, read_version());
        return check_schema_version(version_, shown_);
    }

    Result<long long> append(const ResultsRun& run, const std::vector<BenchCase>& cases) override {
        DMLTOOL_RETURN_IF_ERROR(exec("BEGIN"));
        Result<long long> id = append_in_transaction(run, cases);
        if (!id.is_ok()) {
            PgResult(PQexec(conn_.get(), "ROLLBACK"));
            return id.status();
        }
        DMLTOOL_RETURN_IF_ERROR(exec("COMMIT"));
        return id;
    }

    Result<std::vector<HistoryRow>> query(const HistoryFilter& filter) override {
        if (version_ == 0) return std::vector<HistoryRow>{};  // no tables (opened read-only): nothing stored yet
        const SqlWhere where = history_where(filter, true);
        DMLTOOL_ASSIGN_OR_RETURN(PgResult result,
                                 run(history_select(version_, true) + where.sql + " ORDER BY r.id, b.id", where.params,
                                     PGRES_TUPLES_OK, "cannot read the history"));
        std::vector<HistoryRow> rows;
        for (int i = 0; i < PQntuples(result.get()); ++i) {
            DMLTOOL_ASSIGN_OR_RETURN(HistoryRow row, decode_history_row(ResultRow(result.get(), i), shown_));
            rows.push_back(std::move(row));
        }
        return rows;
    }

    int schema_version() const override { return version_; }

private:
    // A failed statement: the environment's fault (exit 3) when the connection is gone, else the database's.
    Status failure(const std::string& what) const {
        const std::string text = shown_ + ": " + what + ": " + first_line(PQerrorMessage(conn_.get()));
        return PQstatus(conn_.get()) == CONNECTION_BAD ? device_error(text) : invalid_input(text);
    }
    Result<PgResult> run(const std::string& sql, const std::vector<std::string>& params, ExecStatusType expected,
                         const std::string& what) {
        std::vector<const char*> values;
        for (const std::string& p : params) values.push_back(p.c_str());
        PgResult result(PQexecParams(conn_.get(), sql.c_str(), int(values.size()), nullptr, values.data(), nullptr,
                                     nullptr, 0));
        if (!result || PQresultStatus(result.get()) != expected) return failure(what);
        return result;
    }
    Status exec(const std::string& sql) {
        // PQexec, not PQexecParams: migrations are several statements in one string.
        PgResult result(PQexec(conn_.get(), sql.c_str()));
        if (!result || PQresultStatus(result.get()) != PGRES_COMMAND_OK) return failure("results database");
        return Status::ok();
    }
    Result<int> read_version() {
        DMLTOOL_ASSIGN_OR_RETURN(PgResult tables,
                                 // pg_tables, not to_regclass: a catalog scan sees the tables another writer
                                 // committed while this one waited for the upgrade lock; to_regclass's catalog
                                 // cache may not (seen: "relation runs already exists" with 8 fresh writers).
                                 run("SELECT EXISTS(SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = "
                                     "current_schema() AND tablename = 'dmltool_schema'), EXISTS(SELECT 1 FROM "
                                     "pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'runs')",
                                     {}, PGRES_TUPLES_OK, "cannot read the schema version"));
        if (std::string(PQgetvalue(tables.get(), 0, 0)) != "t")
            return std::string(PQgetvalue(tables.get(), 0, 1)) == "t" ? 1 : 0;
        DMLTOOL_ASSIGN_OR_RETURN(PgResult v, run("SELECT max(version) FROM dmltool_schema", {}, PGRES_TUPLES_OK,
                                                 "cannot read the schema version"));
        if (PQgetisnull(v.get(), 0, 0)) return invalid_input(shown_ + ": dmltool_schema holds no version");
        return std::atoi(PQgetvalue(v.get(), 0, 0));
    }
    Status upgrade() {
        DMLTOOL_ASSIGN_OR_RETURN(version_, read_version());
        if (version_ == latest_schema_version()) return Status::ok();
        DMLTOOL_RETURN_IF_ERROR(exec("BEGIN"));
        Status s = upgrade_in_transaction();
        if (!s.is_ok()) {
            PgResult(PQexec(conn_.get(), "ROLLBACK"));
            return s;
        }
        return exec("COMMIT");
    }
    Status upgrade_in_transaction() {
        // Held to the end of the transaction: the next writer waits here, then sees the upgraded schema.
        DMLTOOL_RETURN_IF_ERROR(
            run("SELECT pg_advisory_xact_lock(" + std::to_string(kUpgradeLockKey) + ")", {}, PGRES_TUPLES_OK,
                "cannot lock the schema for its upgrade"));
        DMLTOOL_ASSIGN_OR_RETURN(version_, read_version());
        return upgrade_schema(version_, shown_, &SchemaMigration::postgres,
                              [this](const std::string& sql) { return exec(sql); });
    }
    Result<long long> append_in_transaction(const ResultsRun& r, const std::vector<BenchCase>& cases) {
        DMLTOOL_ASSIGN_OR_RETURN(
            PgResult inserted,
            run("INSERT INTO runs(date, hostname, cpu_model, adapter, device, dmltool_version, git_commit, cache, "
                "stable_power_state, shard, timer) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                {r.date, r.hostname, r.cpu_model, r.adapter, r.device, r.dmltool_version, r.git_commit, r.cache,
                 r.stable_power_state, r.shard, r.timer},
                PGRES_TUPLES_OK, "cannot append the run"));
        const std::string run_id = PQgetvalue(inserted.get(), 0, 0);
        for (const BenchCase& c : cases) {
            const SampleStats stats = summarize_samples(c.samples);
            DMLTOOL_RETURN_IF_ERROR(
                run("INSERT INTO benchmarks(run_id, case_name, file, operator, feature_level, dtype, backend, "
                    "median_seconds, noise, converged, executions_per_sample, samples, bytes, ops, process_medians) "
                    "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULLIF($15::text, ''))",
                    {run_id, c.name, c.file, c.op, c.level.to_string(), c.dtype, c.backend, number(c.seconds),
                     number(std::isfinite(stats.noise) ? stats.noise : -1.0), c.converged ? "1" : "0",
                     std::to_string(c.executions_per_sample), nlohmann::json(c.samples).dump(),
                     number(double(c.bytes)), number(double(c.ops)),
                     c.process_seconds.empty() ? std::string() : nlohmann::json(c.process_seconds).dump()},
                    PGRES_COMMAND_OK, "cannot append benchmark '" + c.name + "'"));
        }
        return std::stoll(run_id);
    }

    std::string shown_;
    Connection conn_;
    int version_ = 0;
};

}  // namespace

Result<std::unique_ptr<ResultsStore>> open_postgres_store(const std::string& url, StoreAccess access) {
    auto store = std::make_unique<PostgresStore>();
    DMLTOOL_RETURN_IF_ERROR(store->open(url, access));
    return std::unique_ptr<ResultsStore>(std::move(store));
}

#else  // built without libpq

Result<std::unique_ptr<ResultsStore>> open_postgres_store(const std::string& url, StoreAccess) {
    return unsupported(redact_location(url) + ": this dmltool was built without PostgreSQL support (install libpq-dev "
                       "and rebuild)");
}

#endif

}  // namespace dmltool::app
