// The progress lines a command writes to its progress pipe, read in one pass over the bytes: a
// command may write megabytes of them, and a line that never ends must not make bench rescan.
#include "CProcess.h"

#include <string.h>

// N of `occurrences N` (spaces around the words allowed, N of at most 18 digits), or -1.
static long long parse_line(const unsigned char *text, size_t length) {
    static const char word[] = "occurrences";
    size_t at = 0, word_length = sizeof word - 1;
    while (at < length && text[at] == ' ') at++;
    if (length - at < word_length || memcmp(text + at, word, word_length) != 0) return -1;
    at += word_length;
    if (at == length || text[at] != ' ') return -1;
    while (at < length && text[at] == ' ') at++;
    if (at < length && text[at] == '+') at++;
    long long value = 0;
    int digits = 0;
    for (; at < length && text[at] >= '0' && text[at] <= '9'; at++) {
        if (++digits > 18) return -1;
        value = value * 10 + (text[at] - '0');
    }
    if (digits == 0) return -1;
    while (at < length && text[at] == ' ') at++;
    return at == length ? value : -1;
}

long long importbench_progress_feed(struct importbench_progress_line *line, const unsigned char *bytes, size_t count) {
    long long last = -1;
    if (line->overlong) return -1;
    for (size_t index = 0; index < count; index++) {
        unsigned char byte = bytes[index];
        if (byte == '\n' || byte == '\r') {
            long long value = parse_line(line->bytes, line->length);
            if (value >= 0) last = value;
            line->length = 0;
        } else if (line->length < IMPORTBENCH_PROGRESS_LINE_LIMIT) {
            line->bytes[line->length++] = byte;
        } else {
            line->overlong = 1;
            return last;
        }
    }
    return last;
}
