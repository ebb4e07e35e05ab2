#include "app/results_db.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/bench_stats.h"

#if DMLTOOL_HAVE_SQLITE
#include <sqlite3.h>
#endif

namespace dmltool::app {

#if DMLTOOL_HAVE_SQLITE
namespace {

const char* const kSchema = R"(
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY, date TEXT, hostname TEXT, cpu_model TEXT, adapter TEXT, device TEXT,
  dmltool_version TEXT, git_commit TEXT, cache TEXT);
CREATE TABLE IF NOT EXISTS benchmarks(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), case_name TEXT, file TEXT, operator TEXT,
  feature_level TEXT, dtype TEXT, backend TEXT, median_seconds REAL, noise REAL, converged INTEGER,
  executions_per_sample INTEGER, samples TEXT);
CREATE INDEX IF NOT EXISTS benchmarks_by_case ON benchmarks(case_name);
)";

// Owns an open database; every error names the file.
class Database {
public:
    ~Database() {
        if (db_) sqlite3_close(db_);
    }
    Status open(const std::string& path, bool create) {
        path_ = path;
        const int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK)
            return error("cannot open the results database");
        return Status::ok();
    }
    Status exec(const char* sql) {
        char* message = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) == SQLITE_OK) return Status::ok();
        const std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        return invalid_input(path_ + ": results database: " + text);
    }
    Status error(const std::string& what) const {
        return invalid_input(path_ + ": " + what + " (" + (db_ ? sqlite3_errmsg(db_) : "out of memory") + ")");
    }
    sqlite3* handle() const { return db_; }

private:
    std::string path_;
    sqlite3* db_ = nullptr;
};

// A prepared statement, finalized on scope exit.
class Statement {
public:
    Statement(Database& db, const char* sql) : db_(db) { ok_ = sqlite3_prepare_v2(db.handle(), sql, -1, &stmt_, nullptr) == SQLITE_OK; }
    ~Statement() { sqlite3_finalize(stmt_); }
    bool ok() const { return ok_; }
    void bind(int i, const std::string& text) { sqlite3_bind_text(stmt_, i, text.c_str(), -1, SQLITE_TRANSIENT); }
    void bind(int i, double value) { sqlite3_bind_double(stmt_, i, value); }
    void bind(int i, long long value) { sqlite3_bind_int64(stmt_, i, value); }
    int step() { return sqlite3_step(stmt_); }
    void reset() { sqlite3_reset(stmt_); }
    std::string text(int i) const {
        const unsigned char* t = sqlite3_column_text(stmt_, i);
        return t ? reinterpret_cast<const char*>(t) : "";
    }
    double real(int i) const { return sqlite3_column_double(stmt_, i); }
    long long integer(int i) const { return sqlite3_column_int64(stmt_, i); }

private:
    Database& db_;
    sqlite3_stmt* stmt_ = nullptr;
    bool ok_ = false;
};

}  // namespace

Status append_results(const std::string& db_path, const ResultsRun& run, const std::vector<BenchCase>& cases) {
    Database db;
    DMLTOOL_RETURN_IF_ERROR(db.open(db_path, true));
    DMLTOOL_RETURN_IF_ERROR(db.exec(kSchema));
    DMLTOOL_RETURN_IF_ERROR(db.exec("BEGIN"));
    {
        Statement insert_run(db, "INSERT INTO runs(date, hostname, cpu_model, adapter, device, dmltool_version, "
                                 "git_commit, cache) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
        if (!insert_run.ok()) return db.error("cannot prepare the run insert");
        const std::string fields[] = {run.date,   run.hostname,        run.cpu_model,  run.adapter,
                                      run.device, run.dmltool_version, run.git_commit, run.cache};
        for (int i = 0; i < 8; ++i) insert_run.bind(i + 1, fields[i]);
        if (insert_run.step() != SQLITE_DONE) return db.error("cannot append the run");
        const long long run_id = sqlite3_last_insert_rowid(db.handle());
        Statement insert(db, "INSERT INTO benchmarks(run_id, case_name, file, operator, feature_level, dtype, backend, "
                             "median_seconds, noise, converged, executions_per_sample, samples) "
                             "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        if (!insert.ok()) return db.error("cannot prepare the benchmark insert");
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
            if (insert.step() != SQLITE_DONE) return db.error("cannot append benchmark '" + c.name + "'");
            insert.reset();
        }
    }
    return db.exec("COMMIT");
}

Result<std::vector<HistoryRow>> load_history(const std::string& db_path, const std::string& case_name) {
    Database db;
    DMLTOOL_RETURN_IF_ERROR(db.open(db_path, false));
    Statement query(db, "SELECT r.date, r.hostname, r.cpu_model, r.adapter, r.device, r.dmltool_version, r.git_commit, "
                        "r.cache, b.case_name, b.operator, b.feature_level, b.dtype, b.backend, b.median_seconds, "
                        "b.noise, b.converged, b.executions_per_sample, b.samples FROM benchmarks b JOIN runs r "
                        "ON r.id = b.run_id WHERE b.case_name = ? ORDER BY r.id, b.backend");
    if (!query.ok()) return db.error("not a dmltool results database");
    query.bind(1, case_name);
    std::vector<HistoryRow> rows;
    int rc;
    while ((rc = query.step()) == SQLITE_ROW) {
        HistoryRow row;
        row.run = {query.text(0), query.text(1), query.text(2), query.text(3),
                   query.text(4), query.text(5), query.text(6), query.text(7)};
        row.case_name = query.text(8);
        row.op = query.text(9);
        row.feature_level = query.text(10);
        row.dtype = query.text(11);
        row.backend = query.text(12);
        row.median_seconds = query.real(13);
        row.noise = query.real(14);
        row.converged = query.integer(15) != 0;
        row.executions_per_sample = unsigned(query.integer(16));
        const auto samples = nlohmann::json::parse(query.text(17), nullptr, false);
        if (!samples.is_array()) return db.error("benchmark samples of '" + case_name + "' are not a JSON array");
        for (const auto& s : samples)
            if (s.is_number()) row.samples.push_back(s.get<double>());
        rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) return db.error("cannot read the history");
    return rows;
}

#else  // built without SQLite

Status append_results(const std::string&, const ResultsRun&, const std::vector<BenchCase>&) {
    return unsupported("--results-db: this dmltool was built without SQLite (install libsqlite3-dev and rebuild)");
}

Result<std::vector<HistoryRow>> load_history(const std::string&, const std::string&) {
    return unsupported("history: this dmltool was built without SQLite (install libsqlite3-dev and rebuild)");
}

#endif

int history_command(const std::string& case_name, const std::string& db_path, const std::string& format) {
    auto rows = load_history(db_path, case_name);
    if (!rows.is_ok()) {
        std::fprintf(stderr, "dmltool: error: %s\n", rows.status().message().c_str());
        return 2;
    }
    if (rows->empty()) {
        std::fprintf(stderr, "dmltool: error: %s: no benchmark of case '%s' (names are as in the case files)\n",
                     db_path.c_str(), case_name.c_str());
        return 2;
    }
    auto quoted = [](const std::string& text) {
        std::string out = "\"";
        for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        return out + "\"";
    };
    // The CPU reference's rows ran on the CPU, whatever the run's device was.
    auto hardware = [](const HistoryRow& r) { return r.backend == "cpu" ? r.run.cpu_model : r.run.adapter; };
    if (format == "csv") {
        std::printf("date,git_commit,backend,adapter,device,cache,median_seconds,noise,converged,samples\n");
        for (const HistoryRow& r : *rows)
            std::printf("%s,%s,%s,%s,%s,%s,%.9g,%.6g,%d,%zu\n", r.run.date.c_str(), r.run.git_commit.c_str(),
                        r.backend.c_str(), quoted(hardware(r)).c_str(), quoted(r.run.device).c_str(), r.run.cache.c_str(),
                        r.median_seconds, r.noise, r.converged ? 1 : 0, r.samples.size());
        return 0;
    }
    std::printf("%s (%s, FL %s, %s): %zu benchmarks\n", case_name.c_str(), rows->front().op.c_str(),
                rows->front().feature_level.c_str(), rows->front().dtype.c_str(), rows->size());
    std::printf("  %-20s %-18s %-8s %-6s %14s %9s %7s  %s\n", "date", "commit", "backend", "cache", "median", "noise",
                "samples", "adapter");
    for (const HistoryRow& r : *rows) {
        char noise[32];
        if (r.noise < 0)
            std::snprintf(noise, sizeof noise, "n/a");
        else
            std::snprintf(noise, sizeof noise, "%.2f%%%s", 100 * r.noise, r.converged ? "" : "*");
        std::printf("  %-20s %-18s %-8s %-6s %11.3f us %9s %7zu  %s\n", r.run.date.c_str(), r.run.git_commit.c_str(),
                    r.backend.c_str(), r.run.cache.c_str(), r.median_seconds * 1e6, noise, r.samples.size(),
                    hardware(r).c_str());
    }
    std::printf("  (* not converged)\n");
    return 0;
}

}  // namespace dmltool::app
