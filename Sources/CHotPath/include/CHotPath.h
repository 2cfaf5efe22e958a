#ifndef CHOTPATH_H
#define CHOTPATH_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Asks the CPU to start loading the cache line at `address`: a lookup issued now, used a few
/// hundred instructions later, then finds it in cache. Swift has no way to spell this.
static inline void importbench_prefetch(const void *address) {
    __builtin_prefetch(address);
}

/// The index of the first byte in bytes[start..<end] that a JSON string scan must look at (a
/// quote, a backslash, a control character or a non-ASCII byte), or `end` if there is none.
/// Sixteen bytes at a time where SSE2 exists (every x86-64): one signed compare with 0x20 finds
/// control and non-ASCII bytes at once, since bytes from 0x80 up are negative as signed.
static inline size_t importbench_json_string_special(const uint8_t *bytes, size_t start, size_t end) {
    size_t index = start;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (index + 16 <= end) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)(bytes + index));
        __m128i special = _mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash));
        special = _mm_or_si128(special, _mm_cmplt_epi8(chunk, space));
        int mask = _mm_movemask_epi8(special);
        if (mask != 0) return index + (size_t)__builtin_ctz((unsigned)mask);
        index += 16;
    }
#endif
    for (; index < end; index++) {
        uint8_t byte = bytes[index];
        if (byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80) return index;
    }
    return end;
}

/// A JSONTape token, laid out as Swift's `JSONToken` (which a test checks): start, end or child
/// count, next sibling's index, kind, flags, key bits.
typedef struct {
    uint32_t start;
    uint32_t end_or_count;
    uint32_t next;
    uint8_t kind;
    uint8_t flags;
    uint16_t key_bits;
} importbench_json_token;

/// `JSONTape.maximumDepth`.
#define IMPORTBENCH_JSON_MAXIMUM_DEPTH 512

enum {
    IMPORTBENCH_JSON_PARSED = 0,
    /// The value may go on past the end of the bytes.
    IMPORTBENCH_JSON_NEEDS_MORE_BYTES = 1,
    /// Broken within the bytes: the checked (Swift) parser gives the located error.
    IMPORTBENCH_JSON_INVALID = 2,
    /// More tokens than `capacity`: grow the buffer and call again.
    IMPORTBENCH_JSON_TOKENS_FULL = 3,
};

/// Parses the object or array starting at input[0] into `tokens`, as `JSONTapeParser` parses a
/// prefix; `open_containers` needs room for IMPORTBENCH_JSON_MAXIMUM_DEPTH entries. On success,
/// `*consumed` is the value's length and `*token_count` its tokens. A string longer than
/// `longest_string` bytes (quotes included) or a number longer than `longest_number` is invalid.
/// Defined in json_tape.c.
int importbench_json_parse_prefix(
    const uint8_t *input, size_t length, importbench_json_token *tokens, size_t capacity, uint32_t *open_containers,
    size_t longest_string, size_t longest_number, size_t *token_count, size_t *consumed);

#endif
