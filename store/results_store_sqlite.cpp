// The SQLite backend of the results store: one file, one machine (several processes may still write at once: each
// write takes the file's write lock and waits for it, see kBusyWaitMs).
#include <cmath>
#include <nlohmann/json.hpp>

#include "store/results_store.h"

#if DMLTOOL_HAVE_SQLITE
#include <sqlite3.h>
#endif

namespace dmltool::app {

#if DMLTOOL_HAVE_SQLITE
namespace {

// How long a writer waits for another process's transaction (shards of one machine appending at once).
constexpr int kBusyWaitMs = 120000;

// A prepared statement, finalized on scope exit.
class Statement : public RowCursor {
public:
    Statement(sqlite3* db, const std::string& sql) { ok_ = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) == SQLITE_OK; }
    ~Statement() override { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    bool ok() const { return ok_; }
    void bind(int i, const std::string& text) { sqlite3_bind_text(stmt_, i, text.c_str(), -1, SQLITE_TRANSIENT); }
    void bind(int i, double value) { sqlite3_bind_double(stmt_, i, value); }
    void bind(int i, long long value) { sqlite3_bind_int64(stmt_, i, value); }
    void bind_null(int i) { sqlite3_bind_null(stmt_, i); }
    int step() { return sqlite3_step(stmt_); }
    void reset() { sqlite3_reset(stmt_); }
    bool is_null(int i) const override { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
    std::string text(int i) const override {
        const unsigned char* t = sqlite3_column_text(stmt_, i);
        return t ? reinterpret_cast<const char*>(t) : "";
    }
    double real(int i) const override { return sqlite3_column_double(stmt_, i); }
    long long integer(int i) const override { return sqlite3_column_int64(stmt_, i); }

private:
    sqlite3_stmt* stmt_ = nullptr;
    bool ok_ = false;
};

class SqliteStore : public ResultsStore {
public:
    ~SqliteStore() override {
        if (db_) sqlite3_close(db_);
    }

    Status open(const std::string& path, StoreAccess access) {
        path_ = path;
        const int flags = access == StoreAccess::kWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
        // Unopenable (a missing directory, no permission): the environment failed, not the input (exit 3).
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK)
            return device_error(path_ + ": cannot open the results database (" +
                                (db_ ? sqlite3_errmsg(db_) : "out of memory") + ")");
        sqlite3_busy_timeout(db_, kBusyWaitMs);
        if (access == StoreAccess::kWrite) return upgrade();
        DMLTOOL_ASSIGN_OR_RETURN(version_, read_version());
        return check_schema_version(version_, path_);
    }

    Result<long long> append(const ResultsRun& run, const std::vector<BenchCase>& cases) override {
        // IMMEDIATE: the write lock is taken up front, so two writers never both read and then fail to upgrade.
        DMLTOOL_RETURN_IF_ERROR(exec("BEGIN IMMEDIATE"));
        Result<long long> id = append_locked(run, cases);
        if (!id.is_ok()) {
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
            return id.status();
        }
        DMLTOOL_RETURN_IF_ERROR(exec("COMMIT"));
        return id;
    }

    Result<std::vector<HistoryRow>> query(const HistoryFilter& filter) override {
        if (version_ == 0) return std::vector<HistoryRow>{};  // no tables (opened read-only): nothing stored yet
        const SqlWhere where = history_where(filter, false);
        Statement q(db_, history_select(version_, false) + where.sql + " ORDER BY r.id, b.id");
        if (!q.ok()) return error("not a dmltool results database");
        for (size_t i = 0; i < where.params.size(); ++i) q.bind(int(i + 1), where.params[i]);
        std::vector<HistoryRow> rows;
        int rc;
        while ((rc = q.step()) == SQLITE_ROW) {
            DMLTOOL_ASSIGN_OR_RETURN(HistoryRow row, decode_history_row(q, path_));
            rows.push_back(std::move(row));
        }
        if (rc != SQLITE_DONE) return error("cannot read the history");
        return rows;
    }

    int schema_version() const override { return version_; }

private:
    Status exec(const std::string& sql) {
        char* message = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return Status::ok();
        const std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        return invalid_input(path_ + ": results database: " + text);
    }
    Status error(const std::string& what) const {
        return invalid_input(path_ + ": " + what + " (" + (db_ ? sqlite3_errmsg(db_) : "out of memory") + ")");
    }
    Result<bool> has_table(const char* name) {
        Statement q(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
        if (!q.ok()) return error("not a dmltool results database");
        q.bind(1, std::string(name));
        if (q.step() != SQLITE_ROW) return error("not a dmltool results database");
        return q.integer(0) > 0;
    }
    Result<int> read_version() {
        DMLTOOL_ASSIGN_OR_RETURN(bool versioned, has_table("dmltool_schema"));
        if (!versioned) {
            DMLTOOL_ASSIGN_OR_RETURN(bool v1, has_table("runs"));
            return v1 ? 1 : 0;  // the tables without the version table: what dmltool wrote before versions
        }
        Statement q(db_, "SELECT max(version) FROM dmltool_schema");
        if (!q.ok() || q.step() != SQLITE_ROW || q.is_null(0)) return error("dmltool_schema holds no version");
        return int(q.integer(0));
    }
    Status upgrade() {
        DMLTOOL_ASSIGN_OR_RETURN(version_, read_version());
        if (version_ == latest_schema_version()) return Status::ok();  // the common case takes no write lock
        DMLTOOL_RETURN_IF_ERROR(exec("BEGIN IMMEDIATE"));
        Status s = upgrade_locked();
        if (!s.is_ok()) {
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
            return s;
        }
        return exec("COMMIT");
    }
    Status upgrade_locked() {
        // Read again, under the lock: another process may have upgraded the schema meanwhile.
        DMLTOOL_ASSIGN_OR_RETURN(version_, read_version());
        return upgrade_schema(version_, path_, &SchemaMigration::sqlite,
                              [this](const std::string& sql) { return exec(sql); });
    }
    Result<long long> append_locked(const ResultsRun& run, const std::vector<BenchCase>& cases) {
        Statement insert_run(db_, "INSERT INTO runs(date, hostname, cpu_model, adapter, device, dmltool_version, "
                                  "git_commit, cache, stable_power_state, shard, timer) "
                                  "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        if (!insert_run.ok()) return error("cannot prepare the run insert");
        const std::string fields[] = {run.date,       run.hostname, run.cpu_model,          run.adapter,
                                      run.device,     run.dmltool_version, run.git_commit, run.cache,
                                      run.stable_power_state, run.shard, run.timer};
        for (int i = 0; i < 11; ++i) insert_run.bind(i + 1, fields[i]);
        if (insert_run.step() != SQLITE_DONE) return error("cannot append the run");
        const long long run_id = sqlite3_last_insert_rowid(db_);
        Statement insert(db_, "INSERT INTO benchmarks(run_id, case_name, file, operator, feature_level, dtype, backend, "
                              "median_seconds, noise, converged, executions_per_sample, samples, bytes, ops, "
                              "process_medians) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        if (!insert.ok()) return error("cannot prepare the benchmark insert");
        for (const BenchCase& c : cases) {
            const SampleStats stats = summarize_samples(c.samples);
            insert.bind(1, run_id);
            insert.bind(2, c.name);
            insert.bind(3, c.file);
            insert.bind(4, c.op);
            insert.bind(5, c.level.to_string());
            insert.bind(6, c.dtype);
            insert.bind(7, c.backend);
            insert.bind(8, c.seconds);
            insert.bind(9, std::isfinite(stats.noise) ? stats.noise : -1.0);  // -1: fewer than two samples
            insert.bind(10, static_cast<long long>(c.converged));
            insert.bind(11, static_cast<long long>(c.executions_per_sample));
            insert.bind(12, nlohmann::json(c.samples).dump());  // shortest round-trip form of each double
            insert.bind(13, static_cast<double>(c.bytes));
            insert.bind(14, static_cast<double>(c.ops));
            if (c.process_seconds.empty())
                insert.bind_null(15);
            else
                insert.bind(15, nlohmann::json(c.process_seconds).dump());
            if (insert.step() != SQLITE_DONE) return error("cannot append benchmark '" + c.name + "'");
            insert.reset();
        }
        return run_id;
    }

    std::string path_;
    sqlite3* db_ = nullptr;
    int version_ = 0;
};

}  // namespace

Result<std::unique_ptr<ResultsStore>> open_sqlite_store(const std::string& path, StoreAccess access) {
    auto store = std::make_unique<SqliteStore>();
    DMLTOOL_RETURN_IF_ERROR(store->open(path, access));
    return std::unique_ptr<ResultsStore>(std::move(store));
}

#else  // built without SQLite

Result<std::unique_ptr<ResultsStore>> open_sqlite_store(const std::string&, StoreAccess) {
    return unsupported("--results-db: this dmltool was built without SQLite (install libsqlite3-dev and rebuild)");
}

#endif

}  // namespace dmltool::app
