// Counts what SQLite executes, for every connection the process opens through this libsqlite3,
// whichever library opened it (bench's own layer, GRDB, a plug-in's C code): an auto extension puts
// a `sqlite3_trace_v2` callback on each new connection. Written in C because it runs on every
// statement execution of the measured import, and because issue 30's counter library for commands
// in other languages counts with the same code.
#include "CSQLCounter.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// MARK: Classification

static int ascii_upper(int c) { return (c >= 'a' && c <= 'z') ? c - ('a' - 'A') : c; }
static int ascii_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int ascii_letter(int c) { c = ascii_upper(c); return c >= 'A' && c <= 'Z'; }

// Whether `text` holds `needle` (upper case), ignoring case.
static int contains(const char *text, const char *needle) {
    size_t length = strlen(needle);
    for (const char *start = text; *start; start++) {
        size_t matched = 0;
        while (matched < length && start[matched] && ascii_upper((unsigned char)start[matched]) == needle[matched]) matched++;
        if (matched == length) return 1;
    }
    return 0;
}

// The first keyword after white space, `--` comments and `/* */` comments; its length in `length`.
static const char *leading_keyword(const char *sql, size_t *length) {
    const char *p = sql;
    for (;;) {
        while (*p && ascii_space((unsigned char)*p)) p++;
        if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n') p++;
        } else if (p[0] == '/' && p[1] == '*') {
            p += 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) p++;
            if (*p) p += 2;
        } else {
            break;
        }
    }
    size_t count = 0;
    while (p[count] && ascii_letter((unsigned char)p[count])) count++;
    *length = count;
    return p;
}

static int keyword_is(const char *keyword, size_t length, const char *word) {
    if (strlen(word) != length) return 0;
    for (size_t index = 0; index < length; index++) {
        if (ascii_upper((unsigned char)keyword[index]) != word[index]) return 0;
    }
    return 1;
}

static int insert_kind(const char *sql) {
    return contains(sql, "ON CONFLICT") && contains(sql, "DO UPDATE") ? IMPORTBENCH_KIND_UPSERT : IMPORTBENCH_KIND_INSERT;
}

int importbench_statement_kind(const char *sql) {
    if (!sql) return IMPORTBENCH_KIND_OTHER;
    size_t length;
    const char *keyword = leading_keyword(sql, &length);
    if (keyword_is(keyword, length, "SELECT") || keyword_is(keyword, length, "VALUES")) return IMPORTBENCH_KIND_FETCH;
    if (keyword_is(keyword, length, "WITH")) {
        // A common table expression can lead any statement: the verb after it decides.
        if (contains(sql, "INSERT")) return insert_kind(sql);
        if (contains(sql, "UPDATE")) return IMPORTBENCH_KIND_UPDATE;
        if (contains(sql, "DELETE")) return IMPORTBENCH_KIND_DELETE;
        return IMPORTBENCH_KIND_FETCH;
    }
    if (keyword_is(keyword, length, "INSERT") || keyword_is(keyword, length, "REPLACE")) return insert_kind(sql);
    if (keyword_is(keyword, length, "UPDATE")) return IMPORTBENCH_KIND_UPDATE;
    if (keyword_is(keyword, length, "DELETE")) return IMPORTBENCH_KIND_DELETE;
    return IMPORTBENCH_KIND_OTHER;
}

int importbench_statement_may_commit(const char *sql) {
    if (!sql) return 0;
    size_t length;
    const char *keyword = leading_keyword(sql, &length);
    return keyword_is(keyword, length, "COMMIT") || keyword_is(keyword, length, "END") || keyword_is(keyword, length, "RELEASE");
}

// MARK: Counting

// What one connection executed. Only the thread using the connection writes it (SQLite connections
// are used by one thread at a time, GRDB's queues included), so an increment is a relaxed load and
// store, no locked instruction; another thread reads it under the registry's lock.
typedef struct {
    _Atomic int64_t kinds[IMPORTBENCH_KIND_OTHER + 1];
    _Atomic int64_t transactions, vm_steps, rows_written;
} tally;

static void bump(_Atomic int64_t *counter, int64_t amount) {
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + amount, memory_order_relaxed);
}

static int64_t value(_Atomic int64_t *counter) { return atomic_load_explicit(counter, memory_order_relaxed); }

// Statements of one connection by address, with their kind worked out once. A slot is trusted only
// while its statement has run before (`SQLITE_STMTSTATUS_RUN` above 0 when it starts): a new
// statement that SQLite placed at a finalized one's address starts at 0 and is classified anew.
enum { cache_slots = 256, running_capacity = 32 };

typedef struct traced_connection {
    sqlite3 *db;
    sqlite3_int64 changes_seen;
    tally tally;
    struct {
        sqlite3_stmt *statement;
        unsigned char kind;
        unsigned char may_commit;
    } cache[cache_slots];
    // Statements between the start of an execution and its end: a trigger's or a foreign key
    // action's program starts inside its statement's execution, and is part of it.
    sqlite3_stmt *running[running_capacity];
    int running_count;
    struct traced_connection *next;
} traced_connection;

static int running_index(traced_connection *connection, sqlite3_stmt *statement) {
    for (int index = 0; index < connection->running_count; index++) {
        if (connection->running[index] == statement) return index;
    }
    return -1;
}

// Callers that asked for new connections to be traced and have not yet withdrawn: they nest.
static atomic_int enabled;
// Guards the registry of traced connections that have not reported closing, what the closed ones
// counted, and the two connection counts.
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static traced_connection *registry;
static tally closed_tally;
static int64_t connections_traced, connections_closed;

static size_t slot_of(sqlite3_stmt *statement) {
    uintptr_t address = (uintptr_t)statement;
    return ((address >> 4) ^ (address >> 12)) & (cache_slots - 1);
}

// An execution starts. The program of a trigger or of a foreign key action starts too, inside the
// execution of the statement that fired it (its run count already above 0): part of that statement,
// as in bench's own counter. A statement SQLite placed at the address of one whose end was never
// reported starts at a run count of 0, and is counted.
static void statement_started(traced_connection *connection, sqlite3_stmt *statement, const char *text) {
    if (!text) return;
    int runs = sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_RUN, 0);
    int running = running_index(connection, statement);
    if (running >= 0) {
        if (runs > 0) return;
    } else if (text != sqlite3_sql(statement) && text[0] == '-' && text[1] == '-') {
        return;  // A trigger's program when more statements run at once than `running` holds.
    } else if (connection->running_count < running_capacity) {
        connection->running[connection->running_count++] = statement;
    }
    size_t slot = slot_of(statement);
    if (connection->cache[slot].statement != statement || runs == 0) {
        connection->cache[slot].statement = statement;
        connection->cache[slot].kind = (unsigned char)importbench_statement_kind(text);
        connection->cache[slot].may_commit = (unsigned char)importbench_statement_may_commit(text);
    }
    bump(&connection->tally.kinds[connection->cache[slot].kind], 1);
}

// An execution ends (done, reset or finalized): its steps, the rows it changed, a commit.
static void statement_finished(traced_connection *connection, sqlite3_stmt *statement) {
    int running = running_index(connection, statement);
    if (running >= 0) connection->running[running] = connection->running[--connection->running_count];
    bump(&connection->tally.vm_steps, sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1));
    sqlite3_int64 changes = sqlite3_total_changes64(connection->db);
    if (changes != connection->changes_seen) {
        bump(&connection->tally.rows_written, changes - connection->changes_seen);
        connection->changes_seen = changes;
    }
    size_t slot = slot_of(statement);
    int may_commit = connection->cache[slot].statement == statement
        ? connection->cache[slot].may_commit
        : importbench_statement_may_commit(sqlite3_sql(statement));
    if (may_commit && sqlite3_get_autocommit(connection->db)) bump(&connection->tally.transactions, 1);
}

static void add_tally(tally *total, tally *part) {
    for (int kind = 0; kind <= IMPORTBENCH_KIND_OTHER; kind++) bump(&total->kinds[kind], value(&part->kinds[kind]));
    bump(&total->transactions, value(&part->transactions));
    bump(&total->vm_steps, value(&part->vm_steps));
    bump(&total->rows_written, value(&part->rows_written));
}

// Removes `connection` from the registry; the caller holds the lock.
static void unregister(traced_connection *connection) {
    for (traced_connection **link = &registry; *link; link = &(*link)->next) {
        if (*link == connection) {
            *link = connection->next;
            return;
        }
    }
}

static traced_connection *find(sqlite3 *db) {
    for (traced_connection *connection = registry; connection; connection = connection->next) {
        if (connection->db == db) return connection;
    }
    return NULL;
}

static void connection_closed(traced_connection *connection) {
    pthread_mutex_lock(&registry_lock);
    unregister(connection);
    add_tally(&closed_tally, &connection->tally);
    connections_closed++;
    pthread_mutex_unlock(&registry_lock);
    free(connection);
}

static int on_trace(unsigned event, void *context, void *p, void *x) {
    traced_connection *connection = context;
    switch (event) {
    case SQLITE_TRACE_STMT: statement_started(connection, p, x); break;
    case SQLITE_TRACE_PROFILE: statement_finished(connection, p); break;
    case SQLITE_TRACE_CLOSE: connection_closed(connection); break;
    default: break;
    }
    return 0;
}

// Registers `db` and puts the trace on it.
static int attach(sqlite3 *db) {
    traced_connection *connection = calloc(1, sizeof *connection);
    if (!connection) return SQLITE_NOMEM;
    connection->db = db;
    connection->changes_seen = sqlite3_total_changes64(db);
    pthread_mutex_lock(&registry_lock);
    // An entry at this very address belongs to a connection that closed unreported (its trace was
    // replaced): it is gone, and must not be taken for the new one. What it counted stays counted.
    traced_connection *stale = find(db);
    if (stale) {
        unregister(stale);
        add_tally(&closed_tally, &stale->tally);
        free(stale);
    }
    connection->next = registry;
    registry = connection;
    connections_traced++;
    pthread_mutex_unlock(&registry_lock);
    return sqlite3_trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE | SQLITE_TRACE_CLOSE, on_trace, connection);
}

// The auto extension: SQLite calls it as each connection opens.
static int trace_new_connection(sqlite3 *db, const char **error, const struct sqlite3_api_routines *api) {
    (void)error;
    (void)api;
    if (atomic_load_explicit(&enabled, memory_order_relaxed) <= 0) return SQLITE_OK;
    return attach(db);
}

int importbench_sql_counter_trace(sqlite3 *db) {
    pthread_mutex_lock(&registry_lock);
    int traced = find(db) != NULL;
    pthread_mutex_unlock(&registry_lock);
    return traced ? SQLITE_OK : attach(db);
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_result = SQLITE_OK;

static void install(void) {
    install_result = sqlite3_auto_extension((void (*)(void))trace_new_connection);
}

int importbench_sql_counter_install(void) {
    pthread_once(&install_once, install);
    return install_result;
}

void importbench_sql_counter_enable(int on) {
    atomic_fetch_add_explicit(&enabled, on ? 1 : -1, memory_order_relaxed);
}

void importbench_sql_counter_ignore(sqlite3 *db) {
    pthread_mutex_lock(&registry_lock);
    traced_connection *connection = find(db);
    if (connection) {
        unregister(connection);
        connections_traced--;
    }
    pthread_mutex_unlock(&registry_lock);
    if (!connection) return;
    sqlite3_trace_v2(db, 0, NULL, NULL);
    free(connection);
}

int importbench_sql_counter_traces(sqlite3 *db) {
    pthread_mutex_lock(&registry_lock);
    int traced = find(db) != NULL;
    pthread_mutex_unlock(&registry_lock);
    return traced;
}

static void copy_tally(tally *from, importbench_sql_counts *counts) {
    counts->fetches = value(&from->kinds[IMPORTBENCH_KIND_FETCH]);
    counts->inserts = value(&from->kinds[IMPORTBENCH_KIND_INSERT]);
    counts->updates = value(&from->kinds[IMPORTBENCH_KIND_UPDATE]);
    counts->upserts = value(&from->kinds[IMPORTBENCH_KIND_UPSERT]);
    counts->deletes = value(&from->kinds[IMPORTBENCH_KIND_DELETE]);
    counts->others = value(&from->kinds[IMPORTBENCH_KIND_OTHER]);
    counts->transactions = value(&from->transactions);
    counts->vm_steps = value(&from->vm_steps);
    counts->rows_written = value(&from->rows_written);
}

void importbench_sql_counter_read(importbench_sql_counts *counts) {
    tally total = {0};
    pthread_mutex_lock(&registry_lock);
    add_tally(&total, &closed_tally);
    for (traced_connection *connection = registry; connection; connection = connection->next) add_tally(&total, &connection->tally);
    copy_tally(&total, counts);
    counts->connections_traced = connections_traced;
    counts->connections_closed = connections_closed;
    pthread_mutex_unlock(&registry_lock);
}

int importbench_sql_counter_read_connection(sqlite3 *db, importbench_sql_counts *counts) {
    pthread_mutex_lock(&registry_lock);
    traced_connection *connection = find(db);
    if (connection) {
        copy_tally(&connection->tally, counts);
        counts->connections_traced = 1;
        counts->connections_closed = 0;
    }
    pthread_mutex_unlock(&registry_lock);
    return connection != NULL;
}

// MARK: Forks

static void lock_for_fork(void) { pthread_mutex_lock(&registry_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&registry_lock); }

// In a forked child: what the copies of the registry say was the parent's; the child counts its own.
static void start_child_from_zero(void) {
    memset(&closed_tally, 0, sizeof closed_tally);
    for (traced_connection *connection = registry; connection; connection = connection->next) {
        memset(&connection->tally, 0, sizeof connection->tally);
    }
    int64_t inherited = 0;
    for (traced_connection *connection = registry; connection; connection = connection->next) inherited++;
    // Inherited connections are the parent's: the child neither opened them nor will close them.
    connections_traced = inherited;
    connections_closed = inherited;
    pthread_mutex_unlock(&registry_lock);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void register_fork_handlers(void) { pthread_atfork(lock_for_fork, unlock_after_fork, start_child_from_zero); }

void importbench_sql_counter_count_forks_apart(void) { pthread_once(&fork_once, register_fork_handlers); }
