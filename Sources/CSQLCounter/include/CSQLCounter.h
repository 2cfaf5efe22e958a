#ifndef IMPORTBENCH_CSQLCOUNTER_H
#define IMPORTBENCH_CSQLCOUNTER_H

#include <stdint.h>

struct sqlite3;

/// What a statement does, by its leading keyword: the one classification both of bench's counters
/// use (Swift's StatementKind calls it too), so they cannot disagree on a statement's kind.
enum importbench_statement_kind {
    IMPORTBENCH_KIND_FETCH = 0,
    IMPORTBENCH_KIND_INSERT = 1,
    IMPORTBENCH_KIND_UPDATE = 2,
    IMPORTBENCH_KIND_UPSERT = 3,
    IMPORTBENCH_KIND_DELETE = 4,
    IMPORTBENCH_KIND_OTHER = 5,
};

/// Classifies `sql` (NUL-terminated): SELECT and VALUES fetch; INSERT or REPLACE with both
/// `ON CONFLICT` and `DO UPDATE` upsert; a WITH takes the verb it contains; anything else (BEGIN,
/// COMMIT, PRAGMA, DDL) is other. Case-insensitive; leading comments and white space are skipped.
int importbench_statement_kind(const char *sql);

/// Whether `sql` may end a transaction (COMMIT, END, RELEASE): the counter counts one when such a
/// statement leaves its connection in autocommit mode.
int importbench_statement_may_commit(const char *sql);

/// What every traced connection of the process executed since tracing was installed.
typedef struct {
    int64_t fetches, inserts, updates, upserts, deletes, others;
    /// COMMIT, END or RELEASE statements after which their connection was back in autocommit mode.
    int64_t transactions;
    /// `sqlite3_stmt_status(SQLITE_STMTSTATUS_VM_STEP)` of every finished execution.
    int64_t vm_steps;
    /// Rows inserted, updated or deleted (`sqlite3_total_changes64`), triggers and cascades excluded.
    int64_t rows_written;
    /// Connections traced, and those that reported closing through the trace: a traced connection
    /// that closes unreported had its trace replaced (by the code that opened it) and went uncounted.
    int64_t connections_traced, connections_closed;
} importbench_sql_counts;

/// Registers the counter as an SQLite auto extension, once per process (later calls do nothing):
/// from then on, every connection the process opens through this libsqlite3, by any library, is
/// traced (`sqlite3_trace_v2`) while tracing is enabled. Returns an SQLite result code.
int importbench_sql_counter_install(void);

/// Asks (1) that connections opened from now on be traced, or withdraws (0) one such request:
/// requests nest, and tracing lasts while one is outstanding. Connections already open keep what
/// they had.
void importbench_sql_counter_enable(int enabled);

/// Traces `db`, open already, whatever the auto extension decided (a test's own connection, which
/// then needs no process-wide switch that would trace its neighbours' too). An SQLite result code.
int importbench_sql_counter_trace(struct sqlite3 *db);

/// Stops counting `db`, which bench opened for itself (a reader probe): it releases its trace.
void importbench_sql_counter_ignore(struct sqlite3 *db);

/// Whether `db` is traced by the counter. Bench's own statements then leave the VM step counter
/// alone, which the counter reads and resets.
int importbench_sql_counter_traces(struct sqlite3 *db);

/// The counts so far, over every traced connection, closed ones included: a snapshot, for a caller
/// to subtract its start from its end.
void importbench_sql_counter_read(importbench_sql_counts *counts);

/// The counts of `db` alone, since it opened; returns 0 (and leaves `counts` alone) when `db` is not traced.
int importbench_sql_counter_read_connection(struct sqlite3 *db, importbench_sql_counts *counts);

/// For a command measured by bench (`bench run --command`): the environment variable naming the file
/// the counter library appends each process's counts to, and the first word and version of its lines.
#define IMPORTBENCH_SQL_COUNTS_ENV "IMPORTBENCH_SQL_COUNTS"
#define IMPORTBENCH_SQL_COUNTS_TAG "importbench-sql-counts"
#define IMPORTBENCH_SQL_COUNTS_VERSION 1

/// Makes the counter safe across `fork`: the registry's lock is held over the fork, and the child
/// starts from zero (its copies of the parent's counts and connections are the parent's to report).
/// For the counter library, whose importer may fork workers. Idempotent.
void importbench_sql_counter_count_forks_apart(void);

#endif
