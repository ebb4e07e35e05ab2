#include "store/results_store.h"

#include <cctype>
#include <nlohmann/json.hpp>

namespace dmltool::app {

const std::vector<SchemaMigration>& schema_migrations() {
    // Append only: a released step is never edited, so that every database walks the same path to the latest.
    static const std::vector<SchemaMigration> migrations = {
        {1,
         R"(CREATE TABLE runs(
  id INTEGER PRIMARY KEY, date TEXT, hostname TEXT, cpu_model TEXT, adapter TEXT, device TEXT,
  dmltool_version TEXT, git_commit TEXT, cache TEXT);
CREATE TABLE benchmarks(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), case_name TEXT, file TEXT, operator TEXT,
  feature_level TEXT, dtype TEXT, backend TEXT, median_seconds REAL, noise REAL, converged INTEGER,
  executions_per_sample INTEGER, samples TEXT);
CREATE INDEX benchmarks_by_case ON benchmarks(case_name);)",
         R"(CREATE TABLE runs(
  id BIGSERIAL PRIMARY KEY, date TEXT, hostname TEXT, cpu_model TEXT, adapter TEXT, device TEXT,
  dmltool_version TEXT, git_commit TEXT, cache TEXT);
CREATE TABLE benchmarks(
  id BIGSERIAL PRIMARY KEY, run_id BIGINT NOT NULL REFERENCES runs(id), case_name TEXT, file TEXT, operator TEXT,
  feature_level TEXT, dtype TEXT, backend TEXT, median_seconds DOUBLE PRECISION, noise DOUBLE PRECISION,
  converged INTEGER, executions_per_sample INTEGER, samples TEXT);
CREATE INDEX benchmarks_by_case ON benchmarks(case_name);)"},
        // 2: the version table; the clock setting and shard of a run (baselines must match the clocks); the work
        // per execution (throughput trends). Rows of version 1 keep NULL work: unknown, never read as zero.
        {2,
         R"(CREATE TABLE dmltool_schema(version INTEGER NOT NULL);
INSERT INTO dmltool_schema(version) VALUES(1);
ALTER TABLE runs ADD COLUMN stable_power_state TEXT NOT NULL DEFAULT 'off';
ALTER TABLE runs ADD COLUMN shard TEXT NOT NULL DEFAULT '';
ALTER TABLE benchmarks ADD COLUMN bytes REAL;
ALTER TABLE benchmarks ADD COLUMN ops REAL;
CREATE INDEX runs_by_adapter ON runs(adapter, device);)",
         R"(CREATE TABLE dmltool_schema(version INTEGER NOT NULL);
INSERT INTO dmltool_schema(version) VALUES(1);
ALTER TABLE runs ADD COLUMN stable_power_state TEXT NOT NULL DEFAULT 'off';
ALTER TABLE runs ADD COLUMN shard TEXT NOT NULL DEFAULT '';
ALTER TABLE benchmarks ADD COLUMN bytes DOUBLE PRECISION;
ALTER TABLE benchmarks ADD COLUMN ops DOUBLE PRECISION;
CREATE INDEX runs_by_adapter ON runs(adapter, device);)"},
        // 3: each process's median of a run of several processes (bench --processes), a JSON array of seconds; NULL
        // for runs of one process. History takes such a run's fast mode from it (gate/history.cpp).
        {3, "ALTER TABLE benchmarks ADD COLUMN process_medians TEXT;",
         "ALTER TABLE benchmarks ADD COLUMN process_medians TEXT;"},
        // 4: the clock of a run's host timings (bench --timer: 'wall' or 'cpu'); runs before it were wall-clocked.
        // Baselines take runs of the new run's clock only (a CPU time is not a wall time).
        {4, "ALTER TABLE runs ADD COLUMN timer TEXT NOT NULL DEFAULT 'wall';",
         "ALTER TABLE runs ADD COLUMN timer TEXT NOT NULL DEFAULT 'wall';"},
    };
    return migrations;
}

int latest_schema_version() { return schema_migrations().back().version; }

Status upgrade_schema(int& version, const std::string& shown, const char* SchemaMigration::*statements,
                      const std::function<Status(const std::string&)>& exec) {
    DMLTOOL_RETURN_IF_ERROR(check_schema_version(version, shown));
    for (const SchemaMigration& m : schema_migrations()) {
        if (m.version <= version) continue;
        DMLTOOL_RETURN_IF_ERROR(exec(m.*statements));
        if (m.version >= 2) DMLTOOL_RETURN_IF_ERROR(exec("UPDATE dmltool_schema SET version = " + std::to_string(m.version)));
        version = m.version;
    }
    return Status::ok();
}

bool is_libpq_keyword_string(const std::string& location) {
    // "host=... dbname=... password=...": a keyword (letters and '_'), optional blanks, then '='.
    size_t i = location.find_first_not_of(" \t");
    if (i == std::string::npos) return false;
    const size_t word_end = location.find_first_not_of("abcdefghijklmnopqrstuvwxyz_", i);
    if (word_end == i || word_end == std::string::npos) return false;
    i = location.find_first_not_of(" \t", word_end);
    return i != std::string::npos && location[i] == '=';
}

bool is_postgres_url(const std::string& location) {
    return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0 ||
           is_libpq_keyword_string(location);
}

namespace {

// password=VALUE of a libpq keyword string: VALUE is a single-quoted string (with \' and \\ escapes) or runs to the
// next blank.
std::string redact_keyword_string(std::string out) {
    for (size_t pos = out.find("password"); pos != std::string::npos; pos = out.find("password", pos + 1)) {
        if (pos > 0 && out[pos - 1] != ' ' && out[pos - 1] != '\t') continue;
        size_t value = out.find_first_not_of(" \t", pos + 8);
        if (value == std::string::npos || out[value] != '=') continue;
        value = out.find_first_not_of(" \t", value + 1);
        if (value == std::string::npos) break;
        size_t end = value;
        if (out[value] == '\'') {
            for (end = value + 1; end < out.size() && out[end] != '\''; ++end)
                if (out[end] == '\\') ++end;
            end = std::min(end + 1, out.size());
        } else {
            end = std::min(out.find_first_of(" \t", value), out.size());
        }
        out.replace(value, end - value, "***");
    }
    return out;
}

}  // namespace

std::string redact_location(const std::string& location) {
    if (!is_postgres_url(location)) return location;
    if (is_libpq_keyword_string(location)) return redact_keyword_string(location);
    std::string out = location;
    // user:PASSWORD@host: the authority ends at the first '/', '?' or '#' after the scheme.
    const size_t start = out.find("://") + 3;
    const size_t end = std::min(out.find_first_of("/?#", start), out.size());
    const size_t at = out.rfind('@', end == 0 ? 0 : end - 1);
    if (at != std::string::npos && at >= start) {
        const size_t colon = out.find(':', start);
        if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
    }
    // ?password=... or &password=...
    for (size_t pos = out.find("password=", 0); pos != std::string::npos; pos = out.find("password=", pos + 1)) {
        if (pos == 0 || (out[pos - 1] != '?' && out[pos - 1] != '&')) continue;
        const size_t value = pos + 9;
        const size_t value_end = std::min(out.find('&', value), out.size());
        out.replace(value, value_end - value, "***");
    }
    return out;
}

Result<std::unique_ptr<ResultsStore>> open_results_store(const std::string& location, StoreAccess access) {
    if (location.empty())
        return invalid_input("--results-db: expected a file, a postgresql:// URL or a libpq keyword string "
                             "(host=... dbname=...), found nothing");
    if (is_postgres_url(location)) return open_postgres_store(location, access);
    return open_sqlite_store(location, access);
}

Status check_schema_version(int version, const std::string& shown) {
    if (version > latest_schema_version())
        return invalid_input(shown + ": results database schema version " + std::to_string(version) +
                             " is newer than this dmltool's " + std::to_string(latest_schema_version()) +
                             " (written by a newer dmltool: use that one)");
    return Status::ok();
}

std::string check_iso_date(const std::string& what, const std::string& date) {
    // The stored dates are UTC "YYYY-MM-DDTHH:MM:SSZ" and compare as text: a filter must have the same shape.
    const std::string shape = "dddd-dd-dd";
    const std::string full = "dddd-dd-ddTdd:dd:ddZ";
    auto matches = [&](const std::string& pattern) {
        if (date.size() != pattern.size()) return false;
        for (size_t i = 0; i < date.size(); ++i)
            if (pattern[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(date[i])) : date[i] != pattern[i])
                return false;
        return true;
    };
    if (matches(shape) || matches(full)) return "";
    return what + ": expected a UTC date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM:SSZ, found '" + date + "'";
}

std::string history_select(int version, bool postgres) {
    if (version >= latest_schema_version()) return kHistorySelect;
    // Older schemas: the columns that later versions added, as the upgrade would fill them (version 2: 'off', '',
    // NULL work; version 3: NULL process medians; version 4: 'wall'), so that a read-only command reads an old
    // database without changing it.
    const std::string real = postgres ? "DOUBLE PRECISION" : "REAL";
    std::vector<std::string> benchmarks_added, runs_added;
    if (version < 2) {
        benchmarks_added = {"CAST(NULL AS " + real + ") AS bytes", "CAST(NULL AS " + real + ") AS ops"};
        runs_added = {"'off' AS stable_power_state", "'' AS shard"};
    }
    if (version < 3) benchmarks_added.push_back("CAST(NULL AS TEXT) AS process_medians");
    if (version < 4) runs_added.push_back("'wall' AS timer");
    const auto table = [](const std::string& name, const std::vector<std::string>& added) {
        if (added.empty()) return name + " " + name.substr(0, 1);
        std::string select = "(SELECT " + name.substr(0, 1) + "1.*";
        for (const std::string& column : added) select += ", " + column;
        return select + " FROM " + name + " " + name.substr(0, 1) + "1) " + name.substr(0, 1);
    };
    std::string select = kHistorySelect;
    const std::string from = "FROM benchmarks b JOIN runs r ON r.id = b.run_id";
    select.replace(select.find(from), from.size(),
                   "FROM " + table("benchmarks", benchmarks_added) + " JOIN " + table("runs", runs_added) +
                       " ON r.id = b.run_id");
    return select;
}

const char* const kHistorySelect =
    "SELECT r.date, r.hostname, r.cpu_model, r.adapter, r.device, r.dmltool_version, r.git_commit, r.cache, "
    "r.stable_power_state, r.shard, b.case_name, b.operator, b.feature_level, b.dtype, b.backend, b.median_seconds, "
    "b.noise, b.converged, b.executions_per_sample, b.samples, r.id, b.bytes, b.ops, b.process_medians, r.timer "
    "FROM benchmarks b JOIN runs r ON r.id = b.run_id";

SqlWhere history_where(const HistoryFilter& f, bool postgres) {
    SqlWhere where;
    auto param = [&](const std::string& value) {
        where.params.push_back(value);
        return postgres ? "$" + std::to_string(where.params.size()) + "::text" : std::string("?");
    };
    std::vector<std::string> terms;
    auto equal = [&](const char* column, const std::string& value) {
        if (!value.empty()) terms.push_back(std::string(column) + " = " + param(value));
    };
    auto contains = [&](const char* column, const std::string& value) {
        if (value.empty()) return;
        terms.push_back(std::string(postgres ? "strpos(" : "instr(") + column + ", " + param(value) + ") > 0");
    };
    equal("b.case_name", f.case_name);
    equal("b.backend", f.backend);
    // What `history` shows as the adapter: the CPU's model for the CPU reference's rows (their runs.adapter may be
    // "none"), the GPU's name otherwise; --adapter filters on that, not on a field it does not show.
    contains("(CASE WHEN b.backend = 'cpu' THEN r.cpu_model ELSE r.adapter END)", f.adapter);
    contains("r.device", f.driver);
    equal("r.adapter", f.exact_adapter);
    equal("r.device", f.exact_device);
    equal("r.cache", f.cache);
    equal("r.cpu_model", f.cpu_model);
    equal("r.stable_power_state", f.stable_power_state);
    equal("r.timer", f.timer);
    if (!f.commit.empty()) {
        const std::string p = param(f.commit);
        terms.push_back("substr(r.git_commit, 1, length(" + p + ")) = " + param(f.commit));
    }
    if (!f.since.empty()) terms.push_back("r.date >= " + param(f.since));
    if (!f.until.empty()) {
        // A date alone compares with the stored date-time's date: the whole day is included.
        const std::string p = param(f.until);
        terms.push_back("substr(r.date, 1, length(" + p + ")) <= " + param(f.until));
    }
    for (size_t i = 0; i < terms.size(); ++i) where.sql += (i ? " AND " : " WHERE ") + terms[i];
    return where;
}

Result<HistoryRow> decode_history_row(const RowCursor& c, const std::string& location) {
    HistoryRow row;
    row.run = {c.text(0), c.text(1), c.text(2), c.text(3), c.text(4), c.text(5), c.text(6), c.text(7), c.text(8),
               c.text(9)};
    row.case_name = c.text(10);
    row.op = c.text(11);
    row.feature_level = c.text(12);
    row.dtype = c.text(13);
    row.backend = c.text(14);
    row.median_seconds = c.real(15);
    row.noise = c.real(16);
    row.converged = c.integer(17) != 0;
    row.executions_per_sample = unsigned(c.integer(18));
    // A column holding a JSON array of seconds (benchmarks.samples, benchmarks.process_medians) into `out`.
    const auto seconds = [&](int column, const char* name, std::vector<double>& out) -> Status {
        const auto values = nlohmann::json::parse(c.text(column), nullptr, false);
        if (!values.is_array())
            return invalid_input(redact_location(location) + ": benchmarks." + name + " of '" + row.case_name +
                                 "': expected a JSON array of seconds, found '" + c.text(column).substr(0, 40) + "'");
        for (const auto& v : values)
            if (v.is_number()) out.push_back(v.get<double>());
        return Status::ok();
    };
    DMLTOOL_RETURN_IF_ERROR(seconds(19, "samples", row.samples));
    row.run_id = c.integer(20);
    row.bytes = c.is_null(21) ? -1 : c.real(21);
    row.ops = c.is_null(22) ? -1 : c.real(22);
    if (!c.is_null(23)) DMLTOOL_RETURN_IF_ERROR(seconds(23, "process_medians", row.process_medians));
    row.run.timer = c.text(24);
    return row;
}

}  // namespace dmltool::app
