// Loaded into a user's importer with LD_PRELOAD (`bench run --command`): counts, with bench's own
// counter, every connection the process opens through the shared libsqlite3, and when the process
// exits appends one line of totals to the file named by IMPORTBENCH_SQL_COUNTS. A process that never
// opened a connection through this libsqlite3 (one with SQLite linked in statically) writes nothing,
// so bench can tell "not observed" from zero; so does one that ends without running its exit
// handlers (`_exit`, a signal).
//
// Not a SwiftPM product: SwiftPM links every library with the Swift runtime, which would then load
// into every process of the command (60 ms and 4 MB more for `python3 -c pass`, measured). bench
// compiles this file and ../sql_counter.c with the toolchain's C compiler, as a plain C library
// (CounterLibrary.swift), the first time a command runs.
#include "CSQLCounter.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The counts file, copied at load: the importer may change its environment.
static char *counts_path;

__attribute__((constructor)) static void importbench_counter_library_start(void) {
    const char *path = getenv(IMPORTBENCH_SQL_COUNTS_ENV);
    if (!path || !*path) return;
    if (importbench_sql_counter_install() != 0) return;
    counts_path = strdup(path);
    importbench_sql_counter_count_forks_apart();
    importbench_sql_counter_enable(1);
}

__attribute__((destructor)) static void importbench_counter_library_report(void) {
    if (!counts_path) return;
    importbench_sql_counts counts;
    importbench_sql_counter_read(&counts);
    if (counts.connections_traced == 0) return;
    char line[512];
    int length = snprintf(
        line, sizeof line,
        "%s %d pid=%ld connections=%" PRId64 " closed=%" PRId64 " fetches=%" PRId64 " inserts=%" PRId64 " updates=%" PRId64
        " upserts=%" PRId64 " deletes=%" PRId64 " others=%" PRId64 " transactions=%" PRId64 " vm_steps=%" PRId64
        " rows_written=%" PRId64 "\n",
        IMPORTBENCH_SQL_COUNTS_TAG, IMPORTBENCH_SQL_COUNTS_VERSION, (long)getpid(), counts.connections_traced,
        counts.connections_closed, counts.fetches, counts.inserts, counts.updates, counts.upserts, counts.deletes, counts.others,
        counts.transactions, counts.vm_steps, counts.rows_written);
    if (length <= 0 || (size_t)length >= sizeof line) return;
    // One write of a short line to a file opened for appending: lines of processes exiting together do not interleave.
    int file = open(counts_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (file < 0) return;
    ssize_t written = write(file, line, (size_t)length);
    (void)written;
    close(file);
}
