// bench's own tape parse (Sources/CHotPath/json_tape.c), alone, on a whole file: what route 1 of
// issue 32 weighs against simdjson's parse (scripts/decode-vs-simdjson). The file is read and
// parsed as one value into tokens, as bench parses each element; nothing is built from them.
// Run: tape FILE REPETITIONS; prints the median rate over the file's bytes and the token count.
#include "CHotPath.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static double now(void) {
    struct timespec clock;
    clock_gettime(CLOCK_MONOTONIC, &clock);
    return (double)clock.tv_sec + (double)clock.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The file's bytes, read whole into `bytes` (allocated once by the caller, reused each repetition)
// with pread: part of the time, as for the simdjson anchor, which reads into its own reused buffer.
static int read_into(int descriptor, uint8_t *bytes, size_t size, size_t *length) {
    size_t done = 0;
    while (done < size) {
        ssize_t got = pread(descriptor, bytes + done, size - done, (off_t)done);
        if (got < 0) return 0;
        if (got == 0) break;
        done += (size_t)got;
    }
    *length = done;
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: tape FILE REPETITIONS\n");
        return 64;
    }
    int repetitions = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;
    double *rates = calloc((size_t)repetitions, sizeof(double));
    uint32_t open_containers[IMPORTBENCH_JSON_MAXIMUM_DEPTH];
    size_t capacity = 1 << 20, token_count = 0, consumed = 0, length = 0;
    importbench_json_token *tokens = malloc(capacity * sizeof *tokens);
    int descriptor = open(argv[1], O_RDONLY);
    struct stat status_of_file;
    if (descriptor < 0 || fstat(descriptor, &status_of_file) != 0) {
        fprintf(stderr, "tape: cannot read %s\n", argv[1]);
        return 1;
    }
    size_t size = (size_t)status_of_file.st_size;
    uint8_t *bytes = malloc(size > 0 ? size : 1);
    // Faulted in before the first timed read, as the anchor's buffer is.
    if (!bytes || !read_into(descriptor, bytes, size, &length)) {
        fprintf(stderr, "tape: cannot read %s\n", argv[1]);
        return 1;
    }
    for (int repetition = 0; repetition < repetitions; repetition++) {
        double start = now();
        if (!read_into(descriptor, bytes, size, &length)) {
            fprintf(stderr, "tape: cannot read %s\n", argv[1]);
            return 1;
        }
        size_t offset = 0;
        while (offset < length && (bytes[offset] == ' ' || bytes[offset] == '\n' || bytes[offset] == '\r' || bytes[offset] == '\t')) offset++;
        int status;
        while ((status = importbench_json_parse_prefix(bytes + offset, length - offset, tokens, capacity, open_containers,
                    SIZE_MAX, SIZE_MAX, &token_count, &consumed)) == IMPORTBENCH_JSON_TOKENS_FULL) {
            capacity *= 2;
            tokens = realloc(tokens, capacity * sizeof *tokens);
        }
        if (status != IMPORTBENCH_JSON_PARSED) {
            fprintf(stderr, "tape: %s does not parse as one value (status %d)\n", argv[1], status);
            return 1;
        }
        rates[repetition] = (double)length / (now() - start) / 1e6;
    }
    free(bytes);
    close(descriptor);
    qsort(rates, (size_t)repetitions, sizeof *rates, compare);
    printf("%.0f MB/s (median of %d; range %.0f-%.0f), %zu bytes, %zu tokens\n", rates[repetitions / 2], repetitions, rates[0],
        rates[repetitions - 1], length, token_count);
    return 0;
}
