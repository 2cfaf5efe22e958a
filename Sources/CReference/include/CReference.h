#ifndef IMPORTBENCH_C_REFERENCE_H
#define IMPORTBENCH_C_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

/// What one replay measured, or why it failed.
typedef struct {
    /// From BEGIN to the end of COMMIT: the inserts alone, statements already prepared.
    double seconds;
    /// The replaying thread's CPU time over the same span (user and system): the work, which
    /// another process on the machine does not inflate as it does the wall time, nor another
    /// thread of a process that replays in place.
    double cpu_seconds;
    /// Rows inserted, over every table.
    int64_t rows;
    /// SQLITE_OK, or the result code of the call that failed.
    int sqlite_code;
    /// SQLite's message and the statement or table concerned, when sqlite_code is not SQLITE_OK.
    char message[512];
} creference_result;

/// Replays every row of `tables` (in that order, each in its scan order: pk order) from the store at
/// `source_path` into a new store at `target_path`, which `setup_sql` (pragmas, then the tables)
/// prepares. The rows are read into memory first, untimed; then one transaction of prepared INSERTs
/// of `rows_per_insert` rows each (fewer where the variable limit demands) binds them with
/// SQLITE_STATIC, and `index_sql` (NULL: none) builds the indexes before COMMIT. Returns sqlite_code.
int creference_replay(
    const char *source_path, const char *target_path, const char *setup_sql, const char *index_sql,
    const char *const *tables, int table_count, int rows_per_insert, creference_result *result);

#endif
