// The C reference: the fastest load of a set of rows into an empty store that SQLite's C API allows,
// so every time bench reports can be set against what SQLite alone needs for the same rows: rows in
// pk order, several rows per INSERT, and the indexes built after the rows in the same transaction.
// Called with one row per INSERT and no index statements, it is the plain replay of earlier releases.
#include "CReference.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int type;
    int length;
    union {
        sqlite3_int64 integer;
        double real;
        size_t offset;
    } as;
} cref_value;

typedef struct {
    const char *name;
    int columns;
    size_t rows;
    cref_value *values;
    size_t value_count, value_capacity;
    unsigned char *bytes;
    size_t byte_count, byte_capacity;
    /// Rows per INSERT: the caller's figure, lowered so the statement stays within the variable limit.
    int rows_per_insert;
    /// The statement for full groups of rows, and the one for the remainder (NULL when it divides evenly).
    sqlite3_stmt *insert;
    sqlite3_stmt *insert_rest;
} cref_table;

static void fail(creference_result *result, int code, const char *what, const char *detail) {
    result->sqlite_code = code == SQLITE_OK ? SQLITE_ERROR : code;
    snprintf(result->message, sizeof result->message, "%s (%s)", what, detail ? detail : "");
}

static void fail_db(creference_result *result, sqlite3 *db, int code, const char *detail) {
    fail(result, code, db ? sqlite3_errmsg(db) : sqlite3_errstr(code), detail);
}

// "name" with embedded quotes doubled, in a buffer the caller frees.
static char *quoted(const char *name) {
    size_t length = strlen(name);
    char *text = malloc(length * 2 + 3);
    if (!text) return NULL;
    char *out = text;
    *out++ = '"';
    for (const char *in = name; *in; in++) {
        if (*in == '"') *out++ = '"';
        *out++ = *in;
    }
    *out++ = '"';
    *out = 0;
    return text;
}

static int grow(void **buffer, size_t *capacity, size_t needed, size_t element) {
    if (needed <= *capacity) return 1;
    size_t next = *capacity ? *capacity : 1024;
    while (next < needed) next *= 2;
    void *grown = realloc(*buffer, next * element);
    if (!grown) return 0;
    *buffer = grown;
    *capacity = next;
    return 1;
}

// Reads every row of the table into memory, in the order a scan returns them (rowid or primary key order).
static int load(sqlite3 *source, cref_table *table, creference_result *result) {
    char *name = quoted(table->name);
    if (!name) return fail(result, SQLITE_NOMEM, "out of memory", table->name), 0;
    char *sql = sqlite3_mprintf("SELECT * FROM %s", name);
    free(name);
    if (!sql) return fail(result, SQLITE_NOMEM, "out of memory", table->name), 0;
    sqlite3_stmt *select = NULL;
    int code = sqlite3_prepare_v2(source, sql, -1, &select, NULL);
    if (code != SQLITE_OK) {
        fail_db(result, source, code, sql);
        sqlite3_free(sql);
        return 0;
    }
    table->columns = sqlite3_column_count(select);
    while ((code = sqlite3_step(select)) == SQLITE_ROW) {
        if (!grow((void **)&table->values, &table->value_capacity, table->value_count + (size_t)table->columns, sizeof(cref_value))) {
            code = SQLITE_NOMEM;
            break;
        }
        for (int column = 0; column < table->columns; column++) {
            cref_value *value = &table->values[table->value_count++];
            value->type = sqlite3_column_type(select, column);
            value->length = 0;
            switch (value->type) {
            case SQLITE_INTEGER: value->as.integer = sqlite3_column_int64(select, column); break;
            case SQLITE_FLOAT: value->as.real = sqlite3_column_double(select, column); break;
            case SQLITE_NULL: break;
            default: {
                const void *data = value->type == SQLITE_TEXT ? (const void *)sqlite3_column_text(select, column)
                                                              : sqlite3_column_blob(select, column);
                int length = sqlite3_column_bytes(select, column);
                if (!grow((void **)&table->bytes, &table->byte_capacity, table->byte_count + (size_t)length + 1, 1)) {
                    code = SQLITE_NOMEM;
                    goto done;
                }
                if (length > 0) memcpy(table->bytes + table->byte_count, data, (size_t)length);
                value->length = length;
                value->as.offset = table->byte_count;
                table->byte_count += (size_t)length;
            }
            }
        }
        table->rows++;
    }
done:
    if (code != SQLITE_DONE) fail_db(result, code == SQLITE_NOMEM ? NULL : source, code, sql);
    sqlite3_finalize(select);
    sqlite3_free(sql);
    return code == SQLITE_DONE;
}

// "INSERT INTO name VALUES (?,...),(?,...)" for `rows` rows of the table's columns.
static int prepare_rows(sqlite3 *target, cref_table *table, int rows, sqlite3_stmt **insert, creference_result *result) {
    char *name = quoted(table->name);
    size_t length = (name ? strlen(name) : 0) + 32 + (size_t)rows * ((size_t)table->columns * 2 + 3);
    char *sql = name ? malloc(length) : NULL;
    if (!sql) {
        free(name);
        return fail(result, SQLITE_NOMEM, "out of memory", table->name), 0;
    }
    size_t written = (size_t)snprintf(sql, length, "INSERT INTO %s VALUES ", name);
    for (int row = 0; row < rows; row++) {
        if (row) sql[written++] = ',';
        sql[written++] = '(';
        for (int column = 0; column < table->columns; column++) {
            if (column) sql[written++] = ',';
            sql[written++] = '?';
        }
        sql[written++] = ')';
    }
    sql[written] = 0;
    free(name);
    int code = sqlite3_prepare_v3(target, sql, -1, SQLITE_PREPARE_PERSISTENT, insert, NULL);
    if (code != SQLITE_OK) fail_db(result, target, code, sql);
    free(sql);
    return code == SQLITE_OK;
}

static int prepare_insert(sqlite3 *target, cref_table *table, int rows_per_insert, creference_result *result) {
    int limit = sqlite3_limit(target, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
    int rows = rows_per_insert > 0 ? rows_per_insert : 1;
    if (table->columns > 0 && rows > limit / table->columns) rows = limit / table->columns;
    if (rows < 1) rows = 1;
    if (table->rows > 0 && (size_t)rows > table->rows) rows = (int)table->rows;
    table->rows_per_insert = rows;
    if (!prepare_rows(target, table, rows, &table->insert, result)) return 0;
    int rest = table->rows > 0 ? (int)(table->rows % (size_t)rows) : 0;
    return rest == 0 || prepare_rows(target, table, rest, &table->insert_rest, result);
}

// Binds `rows` rows from `*value` on, without a copy, and steps the statement once.
static int insert_rows(sqlite3_stmt *insert, const cref_table *table, const cref_value **value, int rows) {
    int parameter = 1;
    const cref_value *next = *value;
    for (int row = 0; row < rows; row++) {
        for (int column = 0; column < table->columns; column++, next++, parameter++) {
            switch (next->type) {
            case SQLITE_INTEGER: sqlite3_bind_int64(insert, parameter, next->as.integer); break;
            case SQLITE_FLOAT: sqlite3_bind_double(insert, parameter, next->as.real); break;
            case SQLITE_NULL: sqlite3_bind_null(insert, parameter); break;
            case SQLITE_TEXT:
                sqlite3_bind_text(insert, parameter, (const char *)table->bytes + next->as.offset, next->length, SQLITE_STATIC);
                break;
            default:
                sqlite3_bind_blob(insert, parameter, table->bytes + next->as.offset, next->length, SQLITE_STATIC);
            }
        }
    }
    *value = next;
    int code = sqlite3_step(insert);
    sqlite3_reset(insert);
    return code;
}

// The timed part: one transaction of prepared inserts, every value bound without a copy, then the
// index statements (none for the plain replay, whose schema created them first).
static int insert_all(sqlite3 *target, cref_table *tables, int table_count, const char *index_sql, creference_result *result) {
    int code = sqlite3_exec(target, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (code != SQLITE_OK) return fail_db(result, target, code, "BEGIN IMMEDIATE"), 0;
    for (int index = 0; index < table_count; index++) {
        cref_table *table = &tables[index];
        const cref_value *value = table->values;
        size_t row = 0;
        while (row < table->rows) {
            int rows = table->rows - row >= (size_t)table->rows_per_insert ? table->rows_per_insert : (int)(table->rows - row);
            code = insert_rows(rows == table->rows_per_insert ? table->insert : table->insert_rest, table, &value, rows);
            if (code != SQLITE_DONE) {
                fail_db(result, target, code, table->name);
                sqlite3_exec(target, "ROLLBACK", NULL, NULL, NULL);
                return 0;
            }
            row += (size_t)rows;
            result->rows += rows;
        }
    }
    if (index_sql && (code = sqlite3_exec(target, index_sql, NULL, NULL, NULL)) != SQLITE_OK) {
        fail_db(result, target, code, "indexes");
        sqlite3_exec(target, "ROLLBACK", NULL, NULL, NULL);
        return 0;
    }
    code = sqlite3_exec(target, "COMMIT", NULL, NULL, NULL);
    if (code != SQLITE_OK) {
        fail_db(result, target, code, "COMMIT");
        sqlite3_exec(target, "ROLLBACK", NULL, NULL, NULL);
        return 0;
    }
    return 1;
}

static double clock_seconds(clockid_t clock) {
    struct timespec time;
    clock_gettime(clock, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

int creference_replay(
    const char *source_path, const char *target_path, const char *setup_sql, const char *index_sql,
    const char *const *table_names, int table_count, int rows_per_insert, creference_result *result) {
    memset(result, 0, sizeof *result);
    sqlite3 *source = NULL, *target = NULL;
    cref_table *tables = calloc(table_count > 0 ? (size_t)table_count : 1, sizeof(cref_table));
    if (!tables) return fail(result, SQLITE_NOMEM, "out of memory", "tables"), result->sqlite_code;

    // Read-write (never create): the last connection to close a WAL store removes its -wal and
    // -shm, so reading leaves the directory as it was; a read-only one would leave them behind.
    int code = sqlite3_open_v2(source_path, &source, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (code != SQLITE_OK) {
        fail_db(result, source, code, source_path);
        goto finish;
    }
    for (int index = 0; index < table_count; index++) {
        tables[index].name = table_names[index];
        if (!load(source, &tables[index], result)) goto finish;
    }
    sqlite3_close_v2(source);
    source = NULL;

    // No connection mutex, as the harness's connections (Connection.swift): one thread uses it.
    // Without the flag the system SQLite (serialized by default) locks and unlocks a mutex in
    // every bind, step and reset, about 6 % of the inserts' instructions, which bench never pays.
    code = sqlite3_open_v2(target_path, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (code != SQLITE_OK) {
        fail_db(result, target, code, target_path);
        goto finish;
    }
    code = sqlite3_exec(target, setup_sql, NULL, NULL, NULL);
    if (code != SQLITE_OK) {
        fail_db(result, target, code, "setup");
        goto finish;
    }
    for (int index = 0; index < table_count; index++) {
        if (!prepare_insert(target, &tables[index], rows_per_insert, result)) goto finish;
    }
    double start = clock_seconds(CLOCK_MONOTONIC);
    double cpu_start = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    if (!insert_all(target, tables, table_count, index_sql, result)) goto finish;
    result->seconds = clock_seconds(CLOCK_MONOTONIC) - start;
    result->cpu_seconds = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start;

finish:
    for (int index = 0; index < table_count; index++) {
        sqlite3_finalize(tables[index].insert);
        sqlite3_finalize(tables[index].insert_rest);
        free(tables[index].values);
        free(tables[index].bytes);
    }
    free(tables);
    sqlite3_close_v2(source);
    sqlite3_close_v2(target);
    return result->sqlite_code;
}
