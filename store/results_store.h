// The results store behind --results-db and --baseline-db: one interface, two databases. A plain path is an
// SQLite file (one machine's history); a postgresql:// (or postgres://) URL is a PostgreSQL database that a fleet of
// machines and CI shards write to at once. Both hold the same schema (tables runs and benchmarks, results_db.h),
// versioned by the table dmltool_schema(version) and upgraded in place by the migrations below: a database written
// by an older dmltool is upgraded when opened, never misread, and one written by a newer dmltool is refused.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "store/results_db.h"

namespace dmltool::app {

// One schema step. Version 1 is the schema dmltool wrote before the version table existed (SQLite only): a
// database with the tables and no dmltool_schema is at version 1.
struct SchemaMigration {
    int version;
    const char* sqlite;    // statements, ';'-separated
    const char* postgres;  // the same in PostgreSQL's types
};
const std::vector<SchemaMigration>& schema_migrations();
int latest_schema_version();
// Brings a store whose schema is at `version` up to the latest: runs each newer migration's statements (`statements`
// picks the database's dialect) through `exec`, recording each version from 2 on in dmltool_schema. A version newer
// than this dmltool's is refused, naming `shown` (the store's path or redacted URL).
Status upgrade_schema(int& version, const std::string& shown, const char* SchemaMigration::*statements,
                      const std::function<Status(const std::string&)>& exec);

class ResultsStore {
public:
    virtual ~ResultsStore() = default;
    // One run and its benchmarks in one transaction: all or nothing, whatever else writes at the same time. The
    // stored run's id.
    virtual Result<long long> append(const ResultsRun& run, const std::vector<BenchCase>& cases) = 0;
    // The benchmarks the filter selects, oldest run first (by run id: the order runs were appended).
    virtual Result<std::vector<HistoryRow>> query(const HistoryFilter& filter) = 0;
    virtual int schema_version() const = 0;
};

// kWrite (bench, store): creates a missing SQLite file and upgrades the schema to this dmltool's. kRead (history,
// compare --baseline-db, report): opens read-only and changes nothing: an older schema is read as the upgrade
// would show it, a database without tables reads as empty (issue 40: read-only commands do not upgrade a schema).
enum class StoreAccess { kRead, kWrite };

// Opens the store. Errors name the location with its password redacted; an unreachable PostgreSQL server is a
// kDevice error (exit code 3: the environment failed).
Result<std::unique_ptr<ResultsStore>> open_results_store(const std::string& location, StoreAccess access);

// Refuses a schema newer than this dmltool's (both accesses).
Status check_schema_version(int version, const std::string& shown);

bool is_postgres_url(const std::string& location);  // postgresql://, postgres:// or a libpq keyword string
bool is_libpq_keyword_string(const std::string& location);  // "host=... dbname=..." (keyword, '=')
// The location as it may be printed: a URL's password (user:PASSWORD@ or ?password=...) replaced by "***".
std::string redact_location(const std::string& location);

// The backends; open_results_store picks one.
Result<std::unique_ptr<ResultsStore>> open_sqlite_store(const std::string& path, StoreAccess access);
Result<std::unique_ptr<ResultsStore>> open_postgres_store(const std::string& url, StoreAccess access);

}  // namespace dmltool::app

namespace dmltool::app {

// What both backends share so that they read and filter alike.
// The SELECT (without WHERE/ORDER) whose columns decode_history_row reads.
extern const char* const kHistorySelect;
// kHistorySelect for a database of `version` (1 reads the columns version 2 added as their upgrade defaults).
std::string history_select(int version, bool postgres);
// The WHERE clause for a filter: "?" placeholders for SQLite, "$n::text" for PostgreSQL; params in order.
struct SqlWhere {
    std::string sql;
    std::vector<std::string> params;
};
SqlWhere history_where(const HistoryFilter& filter, bool postgres);

// One result row, as the backend's cursor exposes it.
class RowCursor {
public:
    virtual ~RowCursor() = default;
    virtual bool is_null(int column) const = 0;
    virtual std::string text(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual long long integer(int column) const = 0;
};
// kInvalidInput naming `location` when a stored field is not what dmltool writes (e.g. samples not a JSON array).
Result<HistoryRow> decode_history_row(const RowCursor& row, const std::string& location);

}  // namespace dmltool::app
